//! What `audit` and `report` count and conclude, pinned where a mutation run (cargo-mutants
//! on 5027bf8, issue 36 item 8) left mutants alive that change what a user sees: the
//! operation-state comparisons, each receipt's status, the summary's counters, the counter
//! check, the headline's list of codes, the report's tally (rows, lanes, findings, chain
//! breaks), its verdict line and each cause's example. Each test names the mutants it was
//! seen red under; docs/mutants.md records the runs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::cli_audit::{full_new_dir, write_private, L1_ALLOW};
use crate::report_support::{self, fixture, APPROVAL_PUBKEY};
use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const L2_BLOCK: &str = "receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
/// A BLOCK of the second session, decided after `L2_BLOCK` but walked before it.
const M_BLOCK: &str = report_support::ALTERED;
const OPERATION_STATE: &str = ".seal-operation-state.json";

fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

fn key() -> PathBuf {
    report_support::receipt_key()
}

/// `audit --format json` over `dir` (pinned unless `unpinned`): the document and exit status.
fn audit(dir: &Path, extra: &[&str]) -> (Value, i32) {
    let output = sealkit()
        .arg("audit")
        .arg(dir)
        .args(["--format", "json", "--receipt-key"])
        .arg(key())
        .args(extra)
        .output()
        .unwrap();
    (
        serde_json::from_slice(&output.stdout).unwrap(),
        output.status.code().unwrap(),
    )
}

/// The audit's lone findings with `code`: (path's file name, message).
fn findings(document: &Value, code: &str) -> Vec<(String, String)> {
    (document["findings"].as_array().unwrap().iter())
        .filter(|f| f["code"] == code)
        .map(|f| {
            let path = f["path"].as_str().unwrap_or_default();
            (
                path.rsplit('/').next().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Rewrites the directory's operation state with `edit` applied to its text.
fn edit_state(dir: &Path, edit: impl FnOnce(String) -> String) {
    let path = dir.join(OPERATION_STATE);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = edit(text.clone());
    assert_ne!(edited, text);
    write_private(&path, edited.as_bytes());
}

const BURNED: &str = "15a4b979ecf3bdd9c88f5da3dec21c83d1ff7b74574576f403990c54bfd82f15";
const BURNED_FRAME: &str = "3044d049c228e720adc90071050512dd82ea67045082cb2716b45df0deb09f19";
const OTHER_FRAME: &str = "5b0864f39c748d7366e73188ae74040eb7e41b9ecd906b1f00793b85a21b0c86";
const OTHER_OPERATION: &str = "3cfccf8d4db496caecfb1c8bf539808eccad98d8c8df5bcbb12a339f77c1bcbd";

/// A state file that burns a released operation with another frame's hash does not hold.
/// Seen red under `operation_state`'s guard `*recorded == frame_sha.text()` → `true` (exit 0,
/// no finding: only a missing state file was tested).
#[test]
fn an_operation_burned_with_another_frames_hash_is_a_mismatch() {
    let dir = full_new_dir();
    let (_, status) = audit(dir.path(), &[]);
    assert_eq!(status, 0);
    edit_state(dir.path(), |text| {
        text.replacen(
            &format!("\"release_frame_sha256\": \"{BURNED_FRAME}\""),
            &format!("\"release_frame_sha256\": \"{OTHER_FRAME}\""),
            1,
        )
    });
    let (document, status) = audit(dir.path(), &[]);
    assert_eq!(status, 1);
    let mismatches = findings(&document, "operation-state-mismatch");
    assert_eq!(mismatches.len(), 1, "{mismatches:?}");
    assert_eq!(
        mismatches[0].1,
        format!("operation {BURNED} is burned with release_frame_sha256 {OTHER_FRAME}, the receipt's release frame hashes to {BURNED_FRAME}")
    );
}

/// An entry whose `operation_id` is not the id it is listed under makes the state file
/// malformed. Seen red under `parse_operation_state`'s `op == id` → `true` (the entry was read
/// under its key and the directory held, exit 0).
#[test]
fn a_state_entry_under_another_operation_id_is_malformed() {
    let dir = full_new_dir();
    edit_state(dir.path(), |text| {
        text.replacen(
            &format!("\"operation_id\": \"{BURNED}\""),
            &format!("\"operation_id\": \"{OTHER_OPERATION}\""),
            1,
        )
    });
    let (document, status) = audit(dir.path(), &[]);
    assert_eq!(status, 1);
    let mismatches = findings(&document, "operation-state-mismatch");
    assert_eq!(
        mismatches,
        [(
            OPERATION_STATE.to_owned(),
            format!("operation {BURNED} is malformed")
        )]
    );
}

/// A directory with one receipt of each kind: renamed under another hash (misnamed), written
/// compact (only the layout warning), changed after signing (a claim), and a file cut short
/// (unverifiable). Each receipt's status follows from its own findings, the summary counts each
/// once in its place, and the misnamed receipt's finding names both hashes.
///
/// Seen red under, in `finish_receipt`: `==` → `!=` and `&&` → `||` of the status test (the
/// layout warning made a receipt failed), the deleted `!` (a misnamed receipt authenticated and
/// an unpinned one failed), the deleted arm naming both hashes; in `record`: `==` → `!=` of the
/// authenticated test (claims counted as verdicts), `+=` → `*=` / `-=` of `files` and
/// `unverifiable`, and `==` → `!=` of the file test.
#[test]
fn each_receipt_status_and_the_summary_follow_from_its_own_findings() {
    let dir = full_new_dir();
    let path = dir.path();
    let other_hash = "0".repeat(64);
    let misnamed = L2_BLOCK.replace(&L2_BLOCK[29..93], &other_hash);
    std::fs::rename(path.join(L2_BLOCK), path.join(&misnamed)).unwrap();
    let compact: Value =
        serde_json::from_slice(&std::fs::read(path.join(L1_ALLOW)).unwrap()).unwrap();
    write_private(&path.join(L1_ALLOW), &serde_json::to_vec(&compact).unwrap());
    let altered = std::fs::read_to_string(path.join(M_BLOCK))
        .unwrap()
        .replacen("\"verdict\": \"BLOCK\"", "\"verdict\": \"ALLOW\"", 1);
    write_private(&path.join(M_BLOCK), altered.as_bytes());
    let cut = format!("receipt-00000000000000000099-{}.json", "1".repeat(64));
    write_private(&path.join(&cut), b"{\"record_type\": ");

    let (document, status) = audit(path, &[]);
    assert_eq!(status, 1);
    let statuses: BTreeMap<String, String> = (document["receipts"].as_array().unwrap().iter())
        .map(|r| {
            let file = r["file"].as_str().unwrap().rsplit('/').next().unwrap();
            (file.to_owned(), r["status"].as_str().unwrap().to_owned())
        })
        .collect();
    assert_eq!(statuses[&misnamed], "failed");
    assert_eq!(statuses[L1_ALLOW], "authenticated");
    assert_eq!(statuses[M_BLOCK], "failed");
    assert_eq!(statuses[&cut], "unreadable");
    let receipt = |name: &str| {
        (document["receipts"].as_array().unwrap().iter())
            .find(|r| r["file"].as_str().unwrap().ends_with(name))
            .unwrap()
            .clone()
    };
    let codes = |name: &str| -> Vec<String> {
        (receipt(name)["file_findings"].as_array().unwrap().iter())
            .map(|f| f["code"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(codes(L1_ALLOW), ["not-host-layout"]);
    let misnamed_finding = (receipt(&misnamed)["file_findings"]
        .as_array()
        .unwrap()
        .iter())
    .find(|f| f["code"] == "misnamed-receipt")
    .unwrap()
    .clone();
    assert_eq!(
        misnamed_finding["message"],
        format!(
            "the name carries {other_hash}, the receipt's own request hash is {}",
            &L2_BLOCK[29..93]
        )
    );
    let summary = &document["summary"];
    assert_eq!(summary["files"], 16, "{summary}");
    assert_eq!(summary["receipts"], 14);
    assert_eq!(
        summary["statuses"],
        serde_json::json!({"authenticated": 11, "failed": 2, "unreadable": 1})
    );
    assert_eq!(
        summary["verdicts"],
        serde_json::json!({"ALLOW": 6, "BLOCK": 5})
    );
    assert_eq!(
        summary["claims"],
        serde_json::json!({"ALLOW": 1, "BLOCK": 1})
    );
    assert_eq!(summary["unverifiable"], 1);

    // Without a key: the good receipts are unpinned (not failed), the others as before.
    let output = sealkit()
        .arg("audit")
        .arg(path)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        document["summary"]["statuses"],
        serde_json::json!({"unpinned": 11, "failed": 2, "unreadable": 1})
    );
    assert_eq!(document["summary"]["verdicts"], serde_json::json!({}));
    assert_eq!(
        document["summary"]["claims"],
        serde_json::json!({"ALLOW": 7, "BLOCK": 6})
    );
}

/// Only a counter two receipts share is reported: the fixture reuses counters 0 to 4 across
/// its two sessions, and 5, 6 and 7 once each. Seen red under `counters`' `len() > 1` →
/// `>= 1` (eight counter-reused findings).
#[test]
fn a_counter_used_once_is_not_reused() {
    let dir = full_new_dir();
    let (document, _) = audit(dir.path(), &[]);
    let reused: Vec<String> = findings(&document, "counter-reused")
        .into_iter()
        .map(|(_, message)| message[8..28].to_owned())
        .collect();
    let expected: Vec<String> = (0..5).map(|n| format!("{n:020}")).collect();
    assert_eq!(reused, expected);
}

/// The headline names at most four codes and says how many more there are. Seen red under
/// `headline`'s `codes.len() > NAMED` → `>=` ("and 0 more" with four codes) and → `==` / `<`
/// ("and 1 more" dropped with five).
#[test]
fn the_headline_names_four_codes_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let files: [(&str, &[u8]); 5] = [
        ("receipt-00000000000000000001-{h}.json", b"{\"a\": "),
        ("receipt-00000000000000000002-{h}.json", b"[1] x"),
        ("receipt-00000000000000000003-{h}.json", b"\xff\xfe"),
        (
            "receipt-00000000000000000004-{h}.json",
            b"{\"a\": 1, \"a\": 2}",
        ),
        (".seal-audit-head.state", b"{}"),
    ];
    let first_line = |dir: &Path| {
        let output = sealkit()
            .arg("audit")
            .arg(dir)
            .arg("--receipt-key")
            .arg(key())
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_owned()
    };
    for (name, bytes) in &files[..4] {
        write_private(
            &dir.path().join(name.replace("{h}", &"a".repeat(64))),
            bytes,
        );
    }
    assert_eq!(
        first_line(dir.path()),
        "Problems found: 4 error findings (not-utf8, truncated-json, invalid-json, duplicate-member); 0 of 4 receipts authenticated."
    );
    let (name, bytes) = files[4];
    write_private(&dir.path().join(name), bytes);
    assert_eq!(
        first_line(dir.path()),
        "Problems found: 5 error findings (not-utf8, truncated-json, invalid-json, duplicate-member and 1 more); 0 of 4 receipts authenticated."
    );
}

/// The tampered fixture as a responder finds it, with a sealed log whose third entry's head
/// was rewritten, its captured frames and tokens: (receipts, the chain).
fn tampered(scratch: &Path) -> (PathBuf, PathBuf) {
    let (receipts, _) = report_support::tampered_inputs(scratch, true);
    std::fs::remove_file(receipts.join(".seal-receipt-ed25519.key")).unwrap();
    // The deleted receipt back: every row of the fixture, one of them a claim.
    std::fs::copy(
        fixture("new/receipts").join(report_support::DELETED),
        receipts.join(report_support::DELETED),
    )
    .unwrap();
    let mut chain: Value =
        serde_json::from_slice(&std::fs::read(fixture("new/sealed.json")).unwrap()).unwrap();
    chain["entries"][2]["head"] = Value::from("0".repeat(64));
    let chain_file = scratch.join("tampered.json");
    std::fs::write(&chain_file, serde_json::to_vec_pretty(&chain).unwrap()).unwrap();
    (receipts, chain_file)
}

/// `report` over `receipts` with the fixture's tokens, `chain` and the L session's capture:
/// (the JSON model, the page, exit status).
fn report(receipts: &Path, chain: &Path, extra: &[&str]) -> (Value, String, i32) {
    let out = tempfile::tempdir().unwrap();
    let run = |format: &str, file: &Path| {
        sealkit()
            .args(["--format", format, "report", "--out"])
            .arg(file)
            .arg("--receipt-key")
            .arg(key())
            .args(["--pubkey", APPROVAL_PUBKEY, "--tokens"])
            .arg(fixture("new/approvals-L.ndjson"))
            .arg("--tokens")
            .arg(fixture("new/approvals-M.ndjson"))
            .arg("--chain")
            .arg(chain)
            .arg("--frames")
            .arg(fixture("frames/session-L.capture"))
            .args(extra)
            .arg(receipts)
            .output()
            .unwrap()
            .status
            .code()
            .unwrap()
    };
    let (json, html) = (out.path().join("m.json"), out.path().join("p.html"));
    let status = run("json", &json);
    assert_eq!(run("human", &html), status);
    (
        serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap(),
        std::fs::read_to_string(html).unwrap(),
        status,
    )
}

/// The timeline's counts per lane, read from the page's `<title>n lane from TIME UTC</title>`
/// marks (a compressed pause's title, "no activity for …", is not a count).
fn lanes(page: &str) -> BTreeMap<String, u64> {
    let mut lanes = BTreeMap::new();
    let svg = &page[page.find("<svg id=\"timeline-svg\"").unwrap()..];
    let svg = &svg[..svg.find("</svg>").unwrap()];
    for mark in svg.split("<title>").skip(1) {
        let title = &mark[..mark.find("</title>").unwrap()];
        if title.starts_with("no activity for ") {
            continue;
        }
        let title = &title[..title.rfind(" from ").unwrap()];
        let (count, lane) = title.split_once(' ').unwrap();
        *lanes.entry(lane.to_owned()).or_default() += count.parse::<u64>().unwrap();
    }
    lanes
}

/// Every count of the tally over the tampered fixture. Seen red under: `Tally::row`'s lane
/// arms deleted or its `claimed_verdict` arm taken for a verdict (the timeline's lanes and
/// the summary's verdicts), `Tally::count`'s and `candidate`'s `+=` → `*=` (the summary's
/// findings and the causes' counts), `Tally::conclude`'s chain-break `+=` → `*=` and its
/// deleted `!`, `chain_findings`' deleted `!` (the first bad entry "of 13").
#[test]
fn the_report_counts_each_row_once_in_its_place() {
    let scratch = tempfile::tempdir().unwrap();
    let (receipts, chain) = tampered(scratch.path());
    let (model, page, status) = report(&receipts, &chain, &[]);
    assert_eq!(status, 1);
    let summary = &model["summary"];
    assert_eq!(summary["receipts"], 13);
    assert_eq!(
        summary["verdicts"],
        serde_json::json!({"allow": 3, "block": 6, "released": 3})
    );
    assert_eq!(summary["claims"], serde_json::json!({"ALLOW": 1}));
    assert_eq!(
        summary["findings_by_severity"],
        serde_json::json!({"error": 5, "info": 14, "warning": 16})
    );
    assert_eq!(summary["findings_by_code"]["mode-not-private"], 16);
    assert_eq!(summary["findings_by_code"]["frame-not-captured"], 8);
    assert_eq!(summary["chain_breaks"], 1);
    assert_eq!(summary["tokens_never_used"], 1);
    assert_eq!(summary["released_without_token"], 0);
    // Errors are what the line names (seen red under `verdict`'s `errors > 0` → `<`).
    assert_eq!(
        model["verdict"]["headline"],
        "5 error findings; 12 of 13 receipts authenticated."
    );
    let causes = model["verdict"]["causes"].as_array().unwrap();
    let chain_broken = causes.iter().find(|c| c["code"] == "chain-broken").unwrap();
    assert_eq!(
        chain_broken["example"]["message"],
        "entry 2 is the first of 1 whose recorded head does not recompute"
    );
    assert!(causes.iter().all(|c| c["count"] == 1), "{causes:?}");
    let expected: BTreeMap<String, u64> = [
        ("ALLOW", 3),
        ("released", 3),
        ("BLOCK", 6),
        ("claims (not authenticated)", 1),
        ("approvals", 3),
        ("error findings", 1),
        ("chain breaks", 1),
    ]
    .into_iter()
    .map(|(lane, count)| (lane.to_owned(), count))
    .collect();
    assert_eq!(lanes(&page), expected);

    // The intact chain breaks nothing.
    let (model, page, _) = report(&receipts, &fixture("new/sealed.json"), &[]);
    assert_eq!(model["summary"]["chain_breaks"], 0);
    assert!(!lanes(&page).contains_key("chain breaks"));
}

/// A released receipt whose token file is not given is counted as released without a token.
/// Seen red under `Tally::count`'s `released_without_token` `+=` → `*=` (0).
#[test]
fn a_release_without_its_token_is_counted() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("m.json");
    sealkit()
        .args(["--format", "json", "report", "--out"])
        .arg(&file)
        .arg("--receipt-key")
        .arg(key())
        .args(["--pubkey", APPROVAL_PUBKEY, "--tokens"])
        .arg(fixture("new/approvals-M.ndjson"))
        .arg(fixture("new/receipts"))
        .assert()
        .code(0);
    let model: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(model["summary"]["released_without_token"], 1);
    assert_eq!(
        model["summary"]["findings_by_code"]["released-without-token"],
        1
    );
}

/// Rows whose frame no capture holds: record_version 2 receipts carry no frame of their own.
/// Seen red under `Tally::row`'s `frames_not_captured` `+=` → `*=` (0) and `==` → `!=` (8).
#[test]
fn rows_without_a_captured_frame_are_counted() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("m.json");
    sealkit()
        .args(["--format", "json", "report", "--out"])
        .arg(&file)
        .arg("--frames")
        .arg(fixture("frames/session-L.capture"))
        .arg(fixture("old/receipts"))
        .assert()
        .code(1);
    let model: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(model["summary"]["frames_not_captured"], 5);
    assert_eq!(model["summary"]["frames_joined"], 4);
}

/// With only warnings, --deny-warnings makes the verdict a problem that says it rests on the
/// warnings. Seen red under `verdict`'s `errors > 0` → `>=` ("0 error findings").
#[test]
fn the_verdict_line_names_warnings_under_deny_warnings() {
    let scratch = tempfile::tempdir().unwrap();
    let (receipts, _) = tampered(scratch.path());
    std::fs::copy(
        fixture("new/receipts").join(M_BLOCK),
        receipts.join(M_BLOCK),
    )
    .unwrap();
    let (model, _, status) = report(&receipts, &fixture("new/sealed.json"), &[]);
    assert_eq!(status, 0);
    assert_eq!(
        model["verdict"]["headline"],
        "All 13 receipts authenticated; no error finding (16 warnings)."
    );
    let (model, _, status) = report(&receipts, &fixture("new/sealed.json"), &["--deny-warnings"]);
    assert_eq!(status, 1);
    assert_eq!(
        model["verdict"]["headline"],
        "16 warnings (--deny-warnings); 13 of 13 receipts authenticated."
    );
}

/// A cause's example is its earliest row by decision time (not the first walked), and its
/// first time that row's; among rows without a time, the first walked. Two BLOCKs changed
/// after signing (the one walked first decided last) and two receipt files cut short.
/// Seen red under `Tally::row_finding`'s timed comparison `<` → `>` / `<=` and its untimed
/// `<` → `>` / `<=`, and `rows += 1` → `*=`.
#[test]
fn a_causes_example_is_its_earliest_row() {
    let scratch = tempfile::tempdir().unwrap();
    let (receipts, _) = tampered(scratch.path());
    let altered = std::fs::read_to_string(receipts.join(L2_BLOCK))
        .unwrap()
        .replacen("\"verdict\": \"BLOCK\"", "\"verdict\": \"ALLOW\"", 1);
    std::fs::write(receipts.join(L2_BLOCK), altered).unwrap();
    // Not the same bytes: a copy would be counted once.
    for (counter, text) in [(98, "{\"record_type\": "), (99, "{\"record_type\": 1, ")] {
        let name = format!("receipt-{counter:020}-{}.json", "1".repeat(64));
        std::fs::write(receipts.join(name), text).unwrap();
    }
    let (model, _, status) = report(&receipts, &fixture("new/sealed.json"), &[]);
    assert_eq!(status, 1);
    // The files cut short claim nothing and are no verdict (seen red under `Tally::row`'s
    // guard `row.class == "unauthenticated"` → `false`: a verdict "unauthenticated" 2).
    let summary = &model["summary"];
    assert_eq!(
        summary["verdicts"],
        serde_json::json!({"allow": 3, "block": 5, "released": 3}),
        "{summary}"
    );
    assert_eq!(summary["claims"], serde_json::json!({"ALLOW": 2}));
    assert_eq!(summary["statuses"]["unreadable"], 2);
    let causes = model["verdict"]["causes"].as_array().unwrap();
    let cause = |code: &str| causes.iter().find(|c| c["code"] == code).unwrap().clone();
    let signature = cause("signature-invalid");
    assert_eq!(
        (&signature["count"], &signature["rows"]),
        (&2.into(), &2.into())
    );
    assert_eq!(signature["first_time"], 1787218205500u64);
    let example = signature["example"]["path"].as_str().unwrap();
    assert!(example.ends_with(L2_BLOCK), "{example}");
    let cut = cause("truncated-json");
    assert_eq!((&cut["count"], &cut["rows"]), (&2.into(), &2.into()));
    assert_eq!(cut["first_time"], Value::Null);
    let example = cut["example"]["path"].as_str().unwrap();
    assert!(
        example.ends_with(&format!("00098-{}.json", "1".repeat(64))),
        "{example}"
    );
}

/// `Cause::rows` is how many rows carry a code: two forged references in the annotation of
/// the call that has two receipts give four findings on two rows. Seen red before the fix
/// (`"rows": 4`: it counted findings).
#[test]
fn a_causes_rows_are_rows_not_findings() {
    let scratch = tempfile::tempdir().unwrap();
    let capture = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/evidence/annotated.capture"),
    )
    .unwrap();
    let digest = "148b1b698a66b0c8a7ff3a76662af027bbe926753ca8653e22e177b41f8bb36a";
    let mut lines: Vec<String> = capture.lines().map(str::to_owned).collect();
    let line = lines.iter_mut().find(|l| l.contains(digest)).unwrap();
    let mut frame: Value = serde_json::from_str(line).unwrap();
    let annotation = &mut frame["result"]["_meta"]["io.modelcontextprotocol/trust-annotations"];
    let reference = annotation["evidenceRef"].clone();
    let forged = |first: &str| {
        let mut forged = reference.clone();
        forged["digest"] = Value::from(format!("sha256:{first}{}", &digest[1..]));
        forged
    };
    annotation["evidenceRef"] = Value::Array(vec![forged("0"), forged("2")]);
    *line = serde_json::to_string(&frame).unwrap();
    let file = scratch.path().join("forged.capture");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = scratch.path().join("m.json");
    sealkit()
        .args(["--format", "json", "report", "--out"])
        .arg(&out)
        .arg("--receipt-key")
        .arg(key())
        .arg("--frames")
        .arg(&file)
        .arg(fixture("new/receipts"))
        .assert()
        .code(1);
    let model: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let cause = (model["verdict"]["causes"].as_array().unwrap().iter())
        .find(|c| c["code"] == "annotation-evidence-failed")
        .unwrap();
    assert_eq!(
        (&cause["count"], &cause["rows"]),
        (&4.into(), &2.into()),
        "{cause}"
    );
    // Its example is the first of its row's findings, the first reference's (seen red under
    // `Tally::row_finding`'s timed `<` → `<=`: the second's).
    let example = cause["example"]["message"].as_str().unwrap();
    assert!(example.contains(&format!("0{}", &digest[1..])), "{example}");
    assert!(
        !example.contains(&format!("2{}", &digest[1..])),
        "{example}"
    );
}
