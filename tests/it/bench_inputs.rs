//! The benchmarks' generated inputs (`benches/support/evidence`) are what they claim to be,
//! checked through the real binary on small instances: a receipt directory audits with
//! exactly the planted problems and nothing else (every other receipt authenticated under
//! the installation's key); one written half by the older host gives `unsigned-receipt` for
//! each record_version 2 receipt and migrates with every frame found; a token file verifies
//! with exactly the planted rejections and conflict; a capture gives `target` exactly the
//! planted refusals; the chain logs verify, to the head the receipt directory's state
//! records; the same seed gives the same bytes; argument sizes span 200 B to 64 KB.
//!
//! Seen red: with the approval statement left out of released receipts (approval-statement
//! failures on every approved ALLOW), with the v2 target taken from the host profile
//! (target-mismatch on guarded v2 receipts), with one planted problem's code dropped from
//! `problems::Plant::codes` (the audit reports a finding the generator did not declare).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::bench_evidence as evidence;
use assert_cmd::Command;
use evidence::{captures, chain_logs, plan, receipts, tokens, Installation};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

fn jsonl(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every finding of an audit's JSON Lines, as `(code, path)`.
fn audit_findings(records: &[Value]) -> Vec<(String, PathBuf)> {
    let mut found = Vec::new();
    for record in records {
        let list: Vec<&Value> = match record["type"].as_str() {
            Some("receipt") => record["file_findings"].as_array().unwrap().iter().collect(),
            Some("finding") => vec![record],
            _ => continue,
        };
        for finding in list {
            found.push((
                finding["code"].as_str().unwrap().to_owned(),
                PathBuf::from(finding["path"].as_str().unwrap()),
            ));
        }
    }
    found
}

/// Matches the audit's findings one to one with the expected ones.
fn assert_exactly(found: Vec<(String, PathBuf)>, expected: &evidence::problems::Expected) {
    let mut open: Vec<&evidence::problems::Finding> = expected.findings.iter().collect();
    let mut unexpected = Vec::new();
    for (code, path) in found {
        match open
            .iter()
            .position(|f| f.code == code && f.paths.contains(&path))
        {
            Some(at) => {
                open.swap_remove(at);
            }
            None => unexpected.push((code, path)),
        }
    }
    assert!(unexpected.is_empty(), "not planted: {unexpected:#?}");
    assert!(open.is_empty(), "planted but not found: {open:#?}");
}

fn audit(dir: &Path, installation: &Installation) -> (i32, Vec<Value>) {
    let output = sealkit()
        .args(["audit", "--format", "jsonl", "--receipt-key"])
        .arg(installation.receipt_public_hex())
        .arg(dir)
        .output()
        .unwrap();
    (output.status.code().unwrap(), jsonl(&output.stdout))
}

fn statuses(records: &[Value]) -> BTreeMap<String, u64> {
    let summary = records.iter().find(|r| r["type"] == "summary").unwrap();
    summary["statuses"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect()
}

#[test]
fn a_receipt_directory_audits_with_exactly_the_planted_problems() {
    let installation = Installation::new(evidence::DEFAULT_SEED);
    let plan = plan::plan(&installation, 240, 0.0);
    let temp = tempfile::tempdir().unwrap();
    let dir = receipts::write(&installation, &plan, &temp.path().join("receipts"), true);
    assert_eq!(dir.plants.len(), 9, "every kind of problem is planted");
    let (status, records) = audit(&dir.path, &installation);
    assert_eq!(status, 1);
    assert_exactly(audit_findings(&records), &dir.expected);
    let statuses = statuses(&records);
    assert_eq!(statuses["failed"], dir.expected.failed as u64);
    assert_eq!(
        statuses["authenticated"],
        (dir.expected.receipts - dir.expected.failed) as u64
    );
    // The mix a host produces: explicit allows, approvals, blocks of each kind.
    let summary = records.iter().find(|r| r["type"] == "summary").unwrap();
    let verdicts = &summary["verdicts"];
    assert!(verdicts["ALLOW"].as_u64().unwrap() > 80, "{summary}");
    assert!(verdicts["BLOCK"].as_u64().unwrap() > 40, "{summary}");
    let approved = records
        .iter()
        .filter(|r| r["reported"]["authorization"] == "approval" && r["status"] == "authenticated")
        .count();
    assert!(approved >= 10, "{approved} released with approval");
}

#[test]
fn a_directory_of_both_host_versions_audits_and_migrates_with_every_frame_found() {
    let installation = Installation::new(evidence::DEFAULT_SEED ^ 1);
    let plan = plan::plan(&installation, 160, 0.5);
    let temp = tempfile::tempdir().unwrap();
    let dir = receipts::write(&installation, &plan, &temp.path().join("receipts"), false);
    assert!(dir.expected.unsigned >= 40, "{}", dir.expected.unsigned);
    let (status, records) = audit(&dir.path, &installation);
    assert_eq!(
        status, 1,
        "record_version 2 receipts cannot be authenticated"
    );
    assert_exactly(audit_findings(&records), &dir.expected);
    let statuses = statuses(&records);
    assert_eq!(statuses["unsigned"], dir.expected.unsigned as u64);
    assert_eq!(
        statuses["authenticated"],
        (dir.expected.receipts - dir.expected.unsigned) as u64
    );

    let capture = captures::capture(&installation, &plan, false);
    let capture_path = temp.path().join("session.capture");
    std::fs::write(&capture_path, &capture.bytes).unwrap();
    let out = temp.path().join("migrated");
    let output = sealkit()
        .args(["migrate", "--format", "jsonl"])
        .arg(&dir.path)
        .arg("--frames")
        .arg(&capture_path)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let records = jsonl(&output.stdout);
    let labels: Vec<&str> = records
        .iter()
        .filter(|r| r["type"] != "summary")
        .filter_map(|r| r["label"].as_str())
        .collect();
    assert_eq!(labels.len(), dir.files.len(), "{records:?}");
    for bad in ["receipt-invalid", "frame-unrecoverable", "frame-mismatch"] {
        assert!(!labels.contains(&bad), "{bad}: {records:?}");
    }
}

#[test]
fn a_token_file_verifies_with_exactly_the_planted_rejections() {
    let installation = Installation::new(evidence::DEFAULT_SEED);
    let plan = plan::plan(&installation, 600, 0.0);
    let file = tokens::file(&installation, &plan, usize::MAX, true);
    assert!(file.expected.lines >= 40, "{}", file.expected.lines);
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("approvals.ndjson");
    tokens::write(&file, &path);
    let output = sealkit()
        .args(["verify", "approval", "--format", "jsonl", "--pubkey"])
        .arg(&installation.approval.public.hex)
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let records = jsonl(&output.stdout);
    let rejected: Vec<(usize, String)> = records
        .iter()
        .filter(|r| r["type"] == "token" && r["status"] == "rejected")
        .map(|r| {
            (
                r["line"].as_u64().unwrap() as usize,
                r["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(usize, String)> = file
        .expected
        .rejected
        .iter()
        .map(|(line, reason)| (*line, (*reason).to_owned()))
        .collect();
    assert_eq!(rejected, expected);
    let tokens = records.iter().filter(|r| r["type"] == "token").count();
    assert_eq!(tokens, file.expected.lines);
    let declines = records
        .iter()
        .filter(|r| {
            r["type"] == "token" && r["status"] == "accepted" && r["kind"] == "signed-decline"
        })
        .count();
    assert_eq!(declines, file.expected.accepted_declines);
    let conflicts: Vec<&str> = records
        .iter()
        .filter(|r| r["type"] == "conflict")
        .map(|r| r["target"].as_str().unwrap())
        .collect();
    assert_eq!(conflicts, file.expected.conflicts);
}

#[test]
fn a_capture_gives_target_exactly_the_planted_refusals() {
    let installation = Installation::new(evidence::DEFAULT_SEED);
    let plan = plan::plan(&installation, 300, 0.0);
    let capture = captures::capture(&installation, &plan, true);
    assert_eq!(capture.expected.refused.len(), 6);
    let temp = tempfile::tempdir().unwrap();
    let path = temp.path().join("capture.jsonl");
    std::fs::write(&path, &capture.bytes).unwrap();
    let output = sealkit()
        .args(["target", "--format", "jsonl"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let records = jsonl(&output.stdout);
    let of = |status: &str| records.iter().filter(|r| r["status"] == status).count();
    assert_eq!(of("ok"), capture.expected.ok);
    assert_eq!(of("skipped"), capture.expected.skipped);
    let refused: Vec<(usize, String)> = records
        .iter()
        .filter(|r| r["status"] == "refused")
        .map(|r| {
            (
                r["line"].as_u64().unwrap() as usize,
                r["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(usize, String)> = capture
        .expected
        .refused
        .iter()
        .map(|(line, code)| (*line, (*code).to_owned()))
        .collect();
    assert_eq!(refused, expected);
}

#[test]
fn chain_logs_verify_to_the_head_the_receipt_directory_records() {
    let installation = Installation::new(evidence::DEFAULT_SEED);
    let plan = plan::plan(&installation, 120, 0.0);
    let temp = tempfile::tempdir().unwrap();
    let dir = receipts::write(&installation, &plan, &temp.path().join("receipts"), false);
    let lines = chain_logs::audit_lines(&installation, &plan);
    let lines_path = temp.path().join("audit.lines");
    let head = chain_logs::write_lines(&lines, &lines_path);
    let state: Value =
        serde_json::from_slice(&std::fs::read(dir.path.join(".seal-audit-head.state")).unwrap())
            .unwrap();
    assert_eq!(state["head"], head.as_str());
    let output = sealkit()
        .args(["verify", "chain", "--format", "json", "--audit-lines"])
        .arg(&lines_path)
        .args(["--head", &head])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");

    let sealed_path = temp.path().join("sealed.json");
    let sealed = chain_logs::write_sealed(evidence::DEFAULT_SEED, &sealed_path, 300, 0);
    assert_eq!(sealed.entries, 300);
    assert_eq!(sealed.bytes, std::fs::metadata(&sealed_path).unwrap().len());
    let output = sealkit()
        .args(["verify", "chain", "--format", "json"])
        .arg(&sealed_path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["head"], sealed.head.as_str());
    assert_eq!(report["sealed"]["entries"], 300);
    // The payloads vary in size as the decisions do.
    let sizes: Vec<usize> = lines.iter().map(String::len).collect();
    let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
    assert!(max - min > 120, "{min}..{max}");
    // One changed digit of the last payload breaks the chain.
    let mut bytes = std::fs::read(&sealed_path).unwrap();
    let at = sealed.last_payload_digit as usize;
    assert!(bytes[at].is_ascii_hexdigit());
    bytes[at] = if bytes[at] == b'0' { b'1' } else { b'0' };
    std::fs::write(&sealed_path, bytes).unwrap();
    sealkit()
        .args(["verify", "chain"])
        .arg(&sealed_path)
        .assert()
        .code(1);
}

#[test]
fn the_same_seed_gives_the_same_bytes_and_sizes_span_the_long_tail() {
    let installation = Installation::new(evidence::DEFAULT_SEED);
    let plan = plan::plan(&installation, 60, 0.0);
    let again = plan::plan(&Installation::new(evidence::DEFAULT_SEED), 60, 0.0);
    assert_eq!(
        captures::capture(&installation, &plan, true).bytes,
        captures::capture(&installation, &again, true).bytes
    );
    let other = Installation::new(evidence::DEFAULT_SEED + 1);
    let other_plan = plan::plan(&other, 60, 0.0);
    assert_ne!(
        captures::capture(&installation, &plan, false).bytes,
        captures::capture(&other, &other_plan, false).bytes
    );
    let big = plan::plan(&installation, 20_000, 0.0);
    let sizes: Vec<usize> = big.requests.iter().map(|r| r.size).collect();
    assert!(sizes.iter().all(|&s| (200..=65_536).contains(&s)));
    assert!(sizes.iter().filter(|&&s| s > 4_096).count() > 30);
    assert!(sizes.iter().any(|&s| s > 16_384));
    assert!(sizes.iter().filter(|&&s| s < 400).count() > sizes.len() / 4);
    let sessions = big.sessions.len();
    assert!((3..=200).contains(&sessions), "{sessions} sessions");
}
