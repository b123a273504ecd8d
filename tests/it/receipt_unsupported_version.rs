//! A signed receipt whose record_version sealkit does not know is named for what it is through
//! the real binary, not described as a record_version 2 receipt.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

#[test]
fn a_signed_record_version_4_receipt_is_reported_as_unsupported() {
    // Seen red before the message was split: "record_version 2 receipts carry no signature".
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/receipts/legacy-vs-current/new/receipts");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let text = paths
        .iter()
        .map(|path| std::fs::read_to_string(path).unwrap())
        .find(|text| text.contains("\"record_version\": 3") && text.contains("\"signature\""))
        .unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let receipt = tmp.path().join("receipt-v4.json");
    std::fs::write(
        &receipt,
        text.replacen("\"record_version\": 3", "\"record_version\": 4", 1),
    )
    .unwrap();
    let output = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "receipt", "--format", "json"])
        .arg(&receipt)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let reports: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let signature = &reports[0]["signature"];
    assert_eq!(signature["status"], "absent");
    assert_eq!(
        signature["detail"],
        "unsupported record_version 4: no signature is checked"
    );
    let human = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "receipt"])
        .arg(&receipt)
        .output()
        .unwrap();
    let stdout = String::from_utf8(human.stdout).unwrap();
    assert!(
        stdout.contains("  signature  unsupported record_version 4: no signature is checked\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("record_version 2"), "{stdout}");
}
