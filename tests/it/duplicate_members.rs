//! A member name written twice in one JSON object is refused with `duplicate-member`, exit 1,
//! in every kind of evidence sealkit reads: receipts (under a valid signature), bundles and the
//! statements they carry, sealed logs, head-state files, and migration records. Different JSON
//! readers keep different values of a repeated name, so no verdict may be read from one.
//!
//! Seen red on 08828c0 (before the check): the receipt with `"verdict":"BLOCK",` inserted
//! verified AUTHENTICATED, exit 0; the bundle, sealed log, state files and migration record
//! were read as if the first value did not exist.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

/// A copy of `from` (relative to the crate) in `dir`, with `edit` applied to its text.
fn edited(dir: &Path, from: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let text = std::fs::read_to_string(root().join(from)).unwrap();
    let changed = edit(&text);
    assert_ne!(changed, text, "the edit must change {from}");
    let path = dir.join(Path::new(from).file_name().unwrap());
    std::fs::write(&path, changed).unwrap();
    path
}

const ALLOW_RECEIPT: &str = "receipt-00000000000000000002-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";

#[test]
fn a_second_verdict_under_a_valid_signature_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let from = format!("{}/{ALLOW_RECEIPT}", support::NEW_RECEIPTS);
    let key = support::receipt_key_file(support::NEW_RECEIPTS);
    // The genuine receipt authenticates: the control.
    sealkit()
        .args(["verify", "receipt", "--receipt-key"])
        .arg(&key)
        .arg(root().join(&from))
        .assert()
        .code(0)
        .stdout(predicates::str::contains("AUTHENTICATED"));
    let forged = edited(dir.path(), &from, |text| {
        text.replacen(
            "\n  \"verdict\": \"ALLOW\",",
            "\n  \"verdict\": \"BLOCK\",\n  \"verdict\": \"ALLOW\",",
            1,
        )
    });
    let human = sealkit()
        .args(["verify", "receipt", "--color", "never", "--receipt-key"])
        .arg(&key)
        .arg(&forged)
        .output()
        .unwrap();
    let stdout = String::from_utf8(human.stdout).unwrap();
    assert_eq!(human.status.code(), Some(1), "{stdout}");
    assert!(!stdout.contains("AUTHENTICATED"), "{stdout}");
    assert!(
        stdout.contains("duplicate-member (error): member \"verdict\" is written twice"),
        "{stdout}"
    );
    let json = sealkit()
        .args(["verify", "receipt", "--format", "jsonl", "--receipt-key"])
        .arg(&key)
        .arg(&forged)
        .output()
        .unwrap();
    assert_eq!(json.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["status"], "unreadable");
    assert_eq!(report["findings"][0]["code"], "duplicate-member");
    assert_eq!(report["findings"][0]["severity"], "error");

    // The same file in a directory: audit reports the same code and exits 1.
    let audit = sealkit()
        .args(["audit", "--format", "jsonl", "--receipt-key"])
        .arg(&key)
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(audit.status.code(), Some(1));
    let text = String::from_utf8(audit.stdout).unwrap();
    assert!(text.contains("\"duplicate-member\""), "{text}");
}

#[test]
fn a_repeat_inside_a_text_the_receipt_carries_is_refused_too() {
    let dir = tempfile::tempdir().unwrap();
    let from = format!("{}/{ALLOW_RECEIPT}", support::NEW_RECEIPTS);
    // A second `route` in the kernel step output (the JSON text in emitted_bytes).
    let forged = edited(dir.path(), &from, |text| {
        text.replacen(
            "\\\"route\\\":",
            "\\\"route\\\":\\\"block\\\",\\\"route\\\":",
            1,
        )
    });
    let output = sealkit()
        .args(["verify", "receipt", "--format", "jsonl"])
        .arg(&forged)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["findings"][0]["code"], "duplicate-member");
    let message = report["findings"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("emitted_bytes: member \"route\""),
        "{message}"
    );
}

fn trust() -> Vec<String> {
    let env = std::fs::read_to_string(root().join("testdata/receipts/bundles/trust.env")).unwrap();
    let key = |name: &str| {
        env.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap()
            .to_owned()
    };
    vec![
        "--issuer-pubkey".into(),
        key("ISS"),
        "--request-pubkey".into(),
        key("REQ"),
        "--approval-pubkey".into(),
        key("APP"),
    ]
}

#[test]
fn bundles_and_their_statement_payloads_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let from = "testdata/receipts/bundles/bundle-closed.json";
    let top = edited(dir.path(), from, |text| {
        text.replacen(
            "{\"issuer_statement\":",
            "{\"history\":1,\"history\":2,\"issuer_statement\":",
            1,
        )
    });
    let output = sealkit()
        .args(["verify", "bundle", "--format", "json"])
        .args(trust())
        .arg(&top)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["status"], "fail");
    assert_eq!(report["findings"][0]["code"], "duplicate-member");
    // Inside the signed payload of a statement (the signature then fails too, but the
    // repeat is named first).
    let inner = edited(dir.path(), from, |text| {
        text.replacen(
            "{\\\"verification_profile\\\":",
            "{\\\"x\\\":1,\\\"x\\\":1,\\\"verification_profile\\\":",
            1,
        )
    });
    sealkit()
        .args(["verify", "bundle", "--color", "never"])
        .args(trust())
        .arg(&inner)
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "REFUSED  duplicate-member (error): issuer_statement.payload: member \"x\"",
        ));
}

#[test]
fn sealed_logs_and_head_state_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let sealed = edited(dir.path(), "testdata/receipts/chain/sealed.json", |text| {
        text.replacen("\"format\":", "\"genesis\": \"x\",\n  \"format\":", 1)
    });
    sealkit()
        .args(["verify", "chain", "--color", "never"])
        .arg(&sealed)
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "duplicate-member (error): member \"genesis\"",
        ));
    let state = edited(
        dir.path(),
        "testdata/receipts/fixture-dir/.seal-audit-head.state",
        |text| {
            text.replacen(
                "{\"seal_audit_state\"",
                "{\"head\":\"0\",\"seal_audit_state\"",
                1,
            )
        },
    );
    let output = sealkit()
        .args(["verify", "chain", "--format", "json", "--audit-lines"])
        .arg(root().join("testdata/receipts/chain/fixture_audit.lines"))
        .arg("--state")
        .arg(&state)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["findings"][0]["code"], "duplicate-member");
}

#[test]
fn audit_refuses_state_files_with_a_repeated_member() {
    let fixture = root().join("testdata/receipts/fixture-dir");
    for (name, edit) in [
        (
            ".seal-audit-head.state",
            Box::new(|t: &str| {
                t.replacen(
                    "{\"seal_audit_state\"",
                    "{\"session\":\"x\",\"seal_audit_state\"",
                    1,
                )
            }) as Box<dyn Fn(&str) -> String>,
        ),
        (
            ".seal-operation-state.json",
            Box::new(|t: &str| t.replacen("\"schema\":", "\"operations\": {},\n  \"schema\":", 1)),
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(&fixture).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
        }
        let path = dir.path().join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let changed = edit(&text);
        assert_ne!(changed, text);
        std::fs::write(&path, changed).unwrap();
        let output = sealkit()
            .args(["audit", "--format", "jsonl"])
            .arg(dir.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(1), "{name}: {stdout}");
        let finding = stdout
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|v| v["type"] == "finding" && v["code"] == "duplicate-member")
            .unwrap_or_else(|| panic!("{name}: {stdout}"));
        assert!(
            finding["path"].as_str().unwrap().ends_with(name),
            "{finding}"
        );
    }
}

#[test]
fn a_migration_record_with_a_repeated_member_is_refused() {
    let fixtures = root().join("testdata/receipts/legacy-vs-current");
    let out = tempfile::tempdir().unwrap();
    sealkit()
        .current_dir(&fixtures)
        .args(["migrate", "old/receipts", "--frames", "frames/", "--out"])
        .arg(out.path())
        .assert()
        .code(1);
    let records = out.path().join("migration.jsonl");
    let text = std::fs::read_to_string(&records).unwrap();
    // A member serde's record type ignores, written twice: readers that keep the first and
    // those that keep the last see different records.
    let forged = text.replacen("{\"type\":", "{\"note\":1,\"note\":2,\"type\":", 1);
    assert_ne!(forged, text);
    let alone = out.path().join("forged.jsonl");
    std::fs::write(&alone, forged).unwrap();
    sealkit()
        .current_dir(&fixtures)
        .args(["diff", "old/receipts", "--format", "jsonl"])
        .arg(&alone)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "migration.jsonl line 1: duplicate-member: member \\\"note\\\"",
        ));
}

/// One worker checks many receipts with one `Scratch`, which remembers the last config
/// payload it scanned for repeated names: each receipt still gets the verdict it gets alone,
/// whichever receipt came before it.
/// Seen red with the memo answering for any payload (`seen == payload` replaced by `true`):
/// the payload with a repeated name, checked after the genuine one, passed.
#[test]
fn each_receipt_keeps_its_own_duplicate_verdict_in_one_worker() {
    let path = root().join(format!("{}/{ALLOW_RECEIPT}", support::NEW_RECEIPTS));
    let genuine = std::fs::read_to_string(path).unwrap();
    let in_payload = genuine.replacen("{\\\"epoch\\\":1,", "{\\\"epoch\\\":1,\\\"epoch\\\":1,", 1);
    let in_audit_line = genuine.replacen(
        "{\\\"audit\\\":\\\"{\\\\\\\"certs\\\\\\\":",
        "{\\\"audit\\\":\\\"{\\\\\\\"v\\\\\\\":1,\\\\\\\"v\\\\\\\":1,\\\\\\\"certs\\\\\\\":",
        1,
    );
    assert_ne!(in_payload, genuine);
    assert_ne!(in_audit_line, genuine);
    let mut scratch = sealkit::receipt::Scratch::default();
    let mut verdict =
        |text: &str| match sealkit::receipt::verify_bytes(text.as_bytes(), None, &mut scratch) {
            // A receipt that is read gets every check it gets alone: on the genuine one, every
            // check passes (the list catches the step output not reaching the checks, which
            // leaves the audit and decision checks not evaluated).
            Ok(report) => {
                let unpassed: Vec<&str> = report
                    .checks
                    .iter()
                    .filter(|check| check.status != sealkit::receipt::CheckStatus::Pass)
                    .map(|check| check.check)
                    .collect();
                format!("read; not passed: {unpassed:?}")
            }
            Err(problem) => format!("{}: {}", problem.code.as_str(), problem.message),
        };
    for _ in 0..2 {
        assert_eq!(verdict(&genuine), "read; not passed: []");
        assert_eq!(
            verdict(&in_payload),
            "duplicate-member: signed_config.payload: member \"epoch\" is written twice in one object (again at byte 11)"
        );
        assert_eq!(verdict(&genuine), "read; not passed: []");
        assert!(verdict(&in_audit_line)
            .starts_with("duplicate-member: the audit line in emitted_bytes: member \"v\""));
    }
}
