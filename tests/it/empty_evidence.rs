//! No evidence is not good evidence (issue 24, items 8–9), through the binary: `verify
//! approval` of an empty token file and `audit` of an empty directory or of a file exit 1
//! (`no-tokens`, `no-receipts`), as `sha256sum -c` treats a file with no checksum lines; a
//! file none of whose lines is a token record is said once not to be a token file (exit 2).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::*;
use assert_cmd::Command;
use sealkit::finding::Code;
use serde_json::Value;
use std::path::Path;

fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

fn verify(tokens: &Path, format: &str) -> std::process::Output {
    sealkit()
        .args(["verify", "approval", "--pubkey", PUBKEY, "--format", format])
        .arg(tokens)
        .output()
        .unwrap()
}

/// Seen red on 0c6405b: "0 token lines, 0 accepted" and exit 0 for both files.
#[test]
fn an_empty_or_blank_token_file_is_a_problem() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("empty.ndjson", ""), ("blank.ndjson", "\n  \r\n\n")] {
        let tokens = dir.path().join(name);
        std::fs::write(&tokens, text).unwrap();
        let output = verify(&tokens, "jsonl");
        assert_eq!(output.status.code(), Some(1), "{name}: {output:?}");
        let summary: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(summary["type"], "summary");
        assert_eq!(summary["lines"], 0);
        assert_eq!(summary["file_findings"][0]["code"], Code::NoTokens.as_str());
        assert_eq!(summary["file_findings"][0]["severity"], "error");
        let human = verify(&tokens, "human");
        assert_eq!(human.status.code(), Some(1));
        let text = String::from_utf8(human.stdout).unwrap();
        assert!(text.contains("no-tokens"), "{text}");
    }
}

/// Seen red on 0c6405b: a sealed log given as the token file printed one `REJECTED …
/// parse_error` row per line and exit 1.
#[test]
fn a_file_with_no_token_record_is_not_a_token_file() {
    let sealed = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/receipts/chain/sealed.json");
    let output = verify(&sealed, "human");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    let stderr = String::from_utf8(output.stderr).unwrap();
    // The diagnostic is wrapped to the terminal's width wherever the (absolute) path puts the
    // break: read its words, without the wrapping and the frame's bar.
    let words: Vec<&str> = stderr.split_whitespace().filter(|w| *w != "│").collect();
    let flat = words.join(" ");
    assert_eq!(flat.matches("not a token file").count(), 1, "{stderr}");
    assert!(stderr.contains("not-a-token-file"), "{stderr}");
    assert!(!stderr.contains("parse_error"), "{stderr}");
    let output = verify(&sealed, "json");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty(), "{output:?}");
    let error: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["code"], "not-a-token-file");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .ends_with("not a token file: none of its 15 lines is a token record"),
        "{error}"
    );
}

/// Lines that are no token record before the first one that is are still reported, in
/// order (held, not dropped), and checking goes on as before.
#[test]
fn lines_before_the_first_token_record_are_reported_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("t.ndjson");
    let mut text = String::new();
    for n in 0..5000 {
        text.push_str(&format!("not a token {n}\n"));
    }
    text.push_str(&fixture_line());
    text.push('\n');
    std::fs::write(&tokens, text).unwrap();
    let output = verify(&tokens, "jsonl");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let records = jsonl_records(&output.stdout);
    assert_eq!(records.len(), 5002);
    for (index, record) in records[..5001].iter().enumerate() {
        assert_eq!(record["line"], index + 1);
    }
    assert_eq!(records[0]["reason"], "parse_error");
    assert_eq!(records[5000]["status"], "accepted");
    assert_eq!(records[5001]["lines"], 5001);
}

fn audit(root: &Path) -> (i32, Vec<Value>) {
    let output = sealkit()
        .args(["audit", "--format", "jsonl"])
        .arg(root)
        .output()
        .unwrap();
    (output.status.code().unwrap(), jsonl_records(&output.stdout))
}

/// Seen red on 0c6405b: 0 receipts and exit 0 for both.
#[test]
fn an_audit_that_finds_no_receipt_is_a_problem() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("receipts");
    std::fs::create_dir(&empty).unwrap();
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "hello\n").unwrap();
    for root in [&empty, &file] {
        let (code, records) = audit(root);
        assert_eq!(code, 1, "{root:?}: {records:?}");
        let finding = records
            .iter()
            .find(|r| r["code"] == Code::NoReceipts.as_str())
            .unwrap_or_else(|| panic!("{records:?}"));
        assert_eq!(finding["severity"], "error");
        let summary = records.last().unwrap();
        assert_eq!(summary["receipts"], 0);
    }
}
