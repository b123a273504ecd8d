//! `.seal-audit-head.state` over host sessions that interleave in the walk, through the real
//! binary: the audit walks receipts by file name (counter order, and every host session
//! restarts its counters), while the head is the chain over the audit lines in decision order
//! (`now`, then counter, then path). The audit sets each line aside as it streams and folds
//! them in decision order at the end (src/audit/chain_lines.rs); these tests hold what the
//! fold gives to the chain computed here from the receipt files themselves.
//!
//! Seen red by mutation of src/audit/chain_lines.rs and src/audit/dir.rs: with the lines
//! folded in the order they were added (walk order), the generated directory's own head is a
//! `chain-state-mismatch` and the walk-order head passes; with the `now` comparison dropped
//! from the decision order, likewise; with a line's bytes read back one byte short, every
//! head mismatches.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::bench_evidence as evidence;
use assert_cmd::Command;
use evidence::{plan, receipts, Installation};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A receipt file's audit line: `emitted_bytes`' `audit`, as the host chained it.
fn audit_line(file: &Path) -> String {
    let receipt: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    let emitted: Value = serde_json::from_str(receipt["emitted_bytes"].as_str().unwrap()).unwrap();
    emitted["audit"].as_str().unwrap().to_owned()
}

fn head_over(files: &[PathBuf]) -> String {
    let lines: Vec<String> = files.iter().map(|f| audit_line(f)).collect();
    sealkit::chain::head_from(&sealkit::chain::genesis(), lines.iter().map(String::as_str))
}

fn write_head(dir: &Path, head: &str) {
    let path = dir.join(".seal-audit-head.state");
    let mut state: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    state["head"] = Value::String(head.to_owned());
    std::fs::write(&path, serde_json::to_string(&state).unwrap() + "\n").unwrap();
}

/// The audit's exit status and the codes of its findings (file findings included).
fn audit(dir: &Path, installation: &Installation) -> (i32, Vec<String>) {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["audit", "--format", "jsonl", "--receipt-key"])
        .arg(installation.receipt_public_hex())
        .arg(dir)
        .output()
        .unwrap();
    let mut codes = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        match record["type"].as_str() {
            Some("finding") => codes.push(record["code"].as_str().unwrap().to_owned()),
            Some("receipt") => {
                for finding in record["file_findings"].as_array().unwrap() {
                    codes.push(finding["code"].as_str().unwrap().to_owned());
                }
            }
            _ => {}
        }
    }
    (output.status.code().unwrap(), codes)
}

/// The codes other than the `counter-reused` infos every interleaved directory has.
fn others(codes: &[String]) -> Vec<&String> {
    codes.iter().filter(|c| *c != "counter-reused").collect()
}

fn chain_mismatches(codes: &[String]) -> usize {
    codes
        .iter()
        .filter(|c| *c == "chain-state-mismatch")
        .count()
}

/// Audits `dir` and asserts its exit status and how many `chain-state-mismatch` findings it
/// has (`expected`), showing the other findings when they differ; returns every code.
fn audit_finds(dir: &Path, installation: &Installation, expected: (i32, usize)) -> Vec<String> {
    let (status, codes) = audit(dir, installation);
    assert_eq!(
        (status, chain_mismatches(&codes)),
        expected,
        "{:?}",
        others(&codes)
    );
    codes
}

#[test]
fn the_head_over_interleaved_sessions_is_the_chain_in_decision_order() {
    let installation = Installation::new(evidence::DEFAULT_SEED ^ 40);
    // Several host sessions (the generator's plan has at least three whatever the count).
    let plan = plan::plan(&installation, 900, 0.0);
    assert!(plan.sessions.len() >= 3, "{} sessions", plan.sessions.len());
    let temp = tempfile::tempdir().unwrap();
    let dir = receipts::write(&installation, &plan, &temp.path().join("receipts"), false);
    let decision_order = dir.files.clone();
    let mut walk_order = decision_order.clone();
    walk_order.sort();
    assert_ne!(
        walk_order, decision_order,
        "the sessions interleave in the walk"
    );

    // The host's own head: the chain over the lines in decision order.
    let head = head_over(&decision_order);
    let codes = audit_finds(&dir.path, &installation, (0, 0));
    assert!(codes.iter().any(|c| c == "counter-reused"));

    // The same lines chained in the order the audit reads them: not the host's head.
    write_head(&dir.path, &head_over(&walk_order));
    audit_finds(&dir.path, &installation, (1, 1));

    // Two neighbours of the middle session swapped: the order matters, one by one.
    let middle = decision_order.len() / 2;
    let mut swapped = decision_order.clone();
    swapped.swap(middle, middle + 1);
    write_head(&dir.path, &head_over(&swapped));
    audit_finds(&dir.path, &installation, (1, 1));

    // A receipt of a denied call deleted (no release, so no operation-state finding): the head the host kept no longer matches (and it does once the
    // state is the chain without that receipt, so only the deletion was found).
    write_head(&dir.path, &head);
    let deleted = decision_order
        .iter()
        .position(|f| audit_line(f).ends_with("\"verdict\":\"deny\"}"))
        .unwrap();
    std::fs::remove_file(&decision_order[deleted]).unwrap();
    audit_finds(&dir.path, &installation, (1, 1));
    let mut rest = decision_order.clone();
    rest.remove(deleted);
    write_head(&dir.path, &head_over(&rest));
    audit_finds(&dir.path, &installation, (0, 0));
}

/// A receipt whose audit line cannot be read leaves the head unchecked, and the audit says
/// so: the chain over the other receipts' lines is never taken for the host's head, even when
/// it matches (here the head is the chain without the damaged receipt, as if it had been
/// added afterwards). Seen red under cargo-mutants' `lines.lineless() > 0` → `< 0` in
/// `dir::head_state`: the fold over the readable lines matched and the finding was lost.
#[test]
fn a_receipt_without_a_readable_audit_line_leaves_the_head_unchecked() {
    let installation = Installation::new(evidence::DEFAULT_SEED ^ 41);
    let plan = plan::plan(&installation, 60, 0.0);
    let temp = tempfile::tempdir().unwrap();
    let dir = receipts::write(&installation, &plan, &temp.path().join("receipts"), false);
    let decision_order = dir.files.clone();
    let (damaged, rest) = decision_order.split_last().unwrap();
    write_head(&dir.path, &head_over(rest));
    std::fs::write(damaged, b"{\"record_version\":3}\n").unwrap();
    let codes = audit_finds(&dir.path, &installation, (1, 1));
    assert!(
        codes.len() > 1,
        "the damaged receipt has its own finding: {codes:?}"
    );
}
