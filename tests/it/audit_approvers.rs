//! `sealkit audit --trusted-approvers`, through the binary, on a copy of seal-host's receipt
//! directory whose three approval-authorized ALLOWs are re-signed (with the directory's own
//! receipt seed) so that their approval statements name the keys of a rotation: L3
//! (authorized 1787218212500) by the old key, M3 (1787218812500) by the new key, M6
//! (1787218833500) by the old key after its window closed at 1787218800000.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use assert_cmd::Command;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use ed25519_dalek::SigningKey;
use sealkit::digest::{hex_lower, sha256_hex};
use sealkit::finding::Code;
use sealkit::receipt::{self, preimage};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use support::NEW_RECEIPTS as NEW;

const L3: &str = "receipt-00000000000000000002-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
const M3: &str = "receipt-00000000000000000002-120d377234da4be343ce9be68bdb03ac0002724f693c465b75b5812b46344918.json";
const M6: &str = "receipt-00000000000000000005-16c05a919829fd917f6e506a4b7fd5782444c8872e451d1efd8b16e9e5695a40.json";
/// The rotation time: the old key signs before it, the new key from it on.
const ROTATION_MS: u64 = 1_787_218_800_000;
const ROTATION_RFC3339: &str = "2026-08-20T09:40:00Z";

/// The fixture approval key (seed 0x17, the one seal-host's receipts name).
fn old_key() -> String {
    hex_lower(support::signing_key().verifying_key().as_bytes())
}

fn new_key() -> String {
    hex_lower(
        SigningKey::from_bytes(&[0x21; 32])
            .verifying_key()
            .as_bytes(),
    )
}

fn key_id(public_hex: &str) -> String {
    let bytes: Vec<u8> = (0..public_hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&public_hex[i..i + 2], 16).unwrap())
        .collect();
    sha256_hex(&bytes)
}

/// The receipt with its approval statement and `approval.approval_identity.key_id` naming
/// `key_id`; re-signed with the directory's seed when `resign`.
fn naming(name: &str, key_id: &str, resign: bool) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(NEW);
    let mut map: Map<String, Value> =
        receipt::parse(&std::fs::read(dir.join(name)).unwrap()).unwrap();
    let b64 = map["signed_artifacts"]["approval_statement"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut statement: Value = serde_json::from_slice(&STANDARD.decode(b64).unwrap()).unwrap();
    statement["authorization_signer_key_id"] = Value::from(key_id);
    // The payload's members are already in canonical order; a 64-hex value for a 64-hex
    // value keeps the rendering canonical.
    let text = serde_json::to_string(&statement).unwrap();
    map["signed_artifacts"]["approval_statement"] = Value::from(STANDARD.encode(text));
    map["approval"]["approval_identity"]["key_id"] = Value::from(key_id);
    if resign {
        preimage::sign(&mut map, &support::receipt_seed(NEW)).unwrap();
    }
    preimage::to_file_bytes(&map)
}

/// A private copy of the receipt directory (without its seed file, which would only add a
/// finding), with `edits` written over the named receipts.
fn receipt_dir(edits: &[(&str, Vec<u8>)]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("receipts");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(NEW);
    for entry in std::fs::read_dir(&source).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name == ".seal-receipt-ed25519.key" {
            continue;
        }
        let bytes = match edits.iter().find(|(edited, _)| *edited == name) {
            Some((_, bytes)) => bytes.clone(),
            None => std::fs::read(source.join(&name)).unwrap(),
        };
        let path = dir.join(&name);
        std::fs::write(&path, bytes).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    root
}

fn rotation_dir() -> tempfile::TempDir {
    receipt_dir(&[(M3, naming(M3, &key_id(&new_key()), true))])
}

fn approvers_file(root: &Path, text: &str) -> PathBuf {
    let path = root.join("approvers.txt");
    std::fs::write(&path, text).unwrap();
    path
}

/// What `audit --format jsonl` said: exit status, per receipt file name its `signed_by`
/// (name, key id) and its finding codes, and the summary's finding counts.
struct Audit {
    exit: i32,
    signed_by: BTreeMap<String, (String, String)>,
    codes: BTreeMap<String, Vec<String>>,
    /// The approver findings' messages, per file.
    messages: BTreeMap<String, Vec<String>>,
    stderr: String,
}

fn audit(root: &Path, extra: &[&str]) -> Audit {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["audit", "--format", "jsonl", "--receipt-key"])
        .arg(support::receipt_seed_file(NEW))
        .args(extra)
        .arg(root.join("receipts"))
        .output()
        .unwrap();
    let mut signed_by = BTreeMap::new();
    let mut codes = BTreeMap::new();
    let mut messages = BTreeMap::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let line: Value = serde_json::from_str(line).unwrap();
        if line["type"] != "receipt" {
            continue;
        }
        let receipt = &line;
        let file = Path::new(receipt["file"].as_str().unwrap())
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        if let Some(by) = receipt.get("signed_by") {
            let text = |k: &str| by[k].as_str().unwrap().to_owned();
            signed_by.insert(file.clone(), (text("name"), text("key_id")));
        }
        let found: Vec<String> = receipt["file_findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_owned())
            .filter(|c| c != "counter-reused")
            .collect();
        let said: Vec<String> = receipt["file_findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"].as_str().unwrap().starts_with("approver-"))
            .map(|f| f["message"].as_str().unwrap().to_owned())
            .collect();
        if !said.is_empty() {
            messages.insert(file.clone(), said);
        }
        if !found.is_empty() {
            codes.insert(file, found);
        }
    }
    Audit {
        exit: output.status.code().unwrap(),
        signed_by,
        codes,
        messages,
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

fn named(name: &str, key: &str) -> (String, String) {
    (name.to_owned(), key_id(key))
}

/// The control: both keys listed without windows, every approval receipt is named and the
/// re-signed directory audits clean (so the findings below come from the windows alone).
#[test]
fn both_keys_listed_without_windows_name_every_approval_receipt() {
    let root = rotation_dir();
    let list = approvers_file(
        root.path(),
        &format!("# rotation\nalice {}\nalice {}\n", old_key(), new_key()),
    );
    let run = audit(
        root.path(),
        &["--trusted-approvers", list.to_str().unwrap()],
    );
    assert_eq!(run.codes, BTreeMap::new(), "{}", run.stderr);
    assert_eq!(run.exit, 0);
    let expected = BTreeMap::from([
        (L3.to_owned(), named("alice", &old_key())),
        (M3.to_owned(), named("alice", &new_key())),
        (M6.to_owned(), named("alice", &old_key())),
    ]);
    assert_eq!(run.signed_by, expected);
}

/// Rotation: the old key valid until T, the new one from T. L3 (old key, before T) and M3
/// (new key, after T) are accepted and named; M6 (old key, after T) is
/// `approver-key-outside-window` and credited to no one. Both TIME forms are used.
/// Seen red with the window check removed (`Lookup::OutsideWindow` treated as `Valid` in
/// src/audit/approvers.rs): exit 0, no finding on M6. Seen red on 0c6405b (issue 24 item 6):
/// M6 carried `"signed_by":{"name":"alice"}` and its message credited "alice's key".
#[test]
fn a_rotation_accepts_each_receipt_in_its_window_and_rejects_one_outside() {
    let root = rotation_dir();
    let list = approvers_file(
        root.path(),
        &format!(
            "alice {} valid-before={ROTATION_MS}\nalice {} valid-after={ROTATION_RFC3339} # rotated\n",
            old_key(),
            new_key()
        ),
    );
    let run = audit(
        root.path(),
        &["--trusted-approvers", list.to_str().unwrap()],
    );
    assert_eq!(
        run.codes,
        BTreeMap::from([(
            M6.to_owned(),
            vec![Code::ApproverKeyOutsideWindow.as_str().to_owned()]
        )])
    );
    assert_eq!(run.exit, 1);
    // The message names the listed key, the time and every window the list gives it (as
    // dates), and no name: the record is not credited.
    assert_eq!(
        run.messages[M6],
        [format!(
            "the receipt's approval statement is signed with a key the trusted-approvers list \
             holds (key id {}) only before {ROTATION_RFC3339} (line 1); the record's time \
             2026-08-20T09:40:33.500Z lies outside, so it is credited to no approver",
            key_id(&old_key())
        )]
    );
    assert_eq!(run.signed_by[L3], named("alice", &old_key()));
    assert_eq!(run.signed_by[M3], named("alice", &new_key()));
    assert!(!run.signed_by.contains_key(M6), "{:?}", run.signed_by);
}

/// A key the list does not hold: `approver-not-trusted`, and no approver is named.
#[test]
fn an_unknown_approval_key_is_not_trusted() {
    let root = rotation_dir();
    let list = approvers_file(root.path(), &format!("bob {}\n", new_key()));
    let run = audit(
        root.path(),
        &["--trusted-approvers", list.to_str().unwrap()],
    );
    let not_trusted = vec![Code::ApproverNotTrusted.as_str().to_owned()];
    assert_eq!(
        run.codes,
        BTreeMap::from([
            (L3.to_owned(), not_trusted.clone()),
            (M6.to_owned(), not_trusted)
        ])
    );
    assert_eq!(run.exit, 1);
    assert_eq!(
        run.signed_by,
        BTreeMap::from([(M3.to_owned(), named("bob", &new_key()))])
    );
}

/// A statement edited to name a listed key without re-signing: the receipt signature fails
/// and the unsigned statement names nobody (never adopted from unsigned data).
/// Seen red with the `SignatureStatus::Verified` gate removed from src/audit/approvers.rs:
/// M3 then named bob.
#[test]
fn an_edited_statement_under_a_broken_signature_names_nobody() {
    let root = receipt_dir(&[(M3, naming(M3, &key_id(&new_key()), false))]);
    let list = approvers_file(root.path(), &format!("bob {}\n", new_key()));
    let run = audit(
        root.path(),
        &["--trusted-approvers", list.to_str().unwrap()],
    );
    assert_eq!(run.codes[M3], ["signature-invalid"]);
    assert!(!run.signed_by.contains_key(M3), "{:?}", run.signed_by);
    assert_eq!(run.exit, 1);
}

/// Without the list the output is as before: no `signed_by`, no approver finding.
#[test]
fn without_the_list_nothing_is_attributed() {
    let root = rotation_dir();
    let run = audit(root.path(), &[]);
    assert_eq!(run.signed_by, BTreeMap::new());
    assert_eq!(run.codes, BTreeMap::new());
    assert_eq!(run.exit, 0);
}

/// A malformed line exits 2 naming its line number; so does a list without --receipt-key.
#[test]
fn a_malformed_list_or_a_missing_receipt_key_cannot_be_checked() {
    let root = rotation_dir();
    let list = approvers_file(
        root.path(),
        &format!("# ok\nalice {}\nbob nothex valid-after=1\n", old_key()),
    );
    let run = audit(
        root.path(),
        &["--trusted-approvers", list.to_str().unwrap()],
    );
    assert_eq!(run.exit, 2);
    assert!(run.stderr.contains("approvers.txt:3:"), "{}", run.stderr);

    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["audit", "--trusted-approvers"])
        .arg(&list)
        .arg(root.path().join("receipts"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--receipt-key"));
}

/// Human output names the accepted approvers (escaped) with their key ids.
#[test]
fn human_output_names_the_approvers() {
    let root = rotation_dir();
    let list = approvers_file(
        root.path(),
        &format!(
            "alice {} valid-before={ROTATION_MS}\ncarol {} valid-after={ROTATION_MS}\n",
            old_key(),
            new_key()
        ),
    );
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["audit", "--receipt-key"])
        .arg(support::receipt_seed_file(NEW))
        .arg("--trusted-approvers")
        .arg(&list)
        .arg(root.path().join("receipts"))
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(text.contains("(2 entries, 2 keys)"), "{text}");
    // The count per approver: M6, outside alice's window, is not counted as approved.
    let row = |name: &str, key: &str, count: u64| {
        let id = key_id(key);
        text.lines().any(|l| {
            let cells: Vec<&str> = l.split(['│', '┆']).map(str::trim).collect();
            cells.len() == 5 && cells[1] == name && cells[2] == id && cells[3] == count.to_string()
        })
    };
    assert!(row("alice", &old_key(), 1), "{text}");
    assert!(row("carol", &new_key(), 1), "{text}");
    assert!(
        text.contains(Code::ApproverKeyOutsideWindow.as_str()),
        "{text}"
    );
}
