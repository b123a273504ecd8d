//! Verdicts that mutation testing of the verifiers showed no other test pins, each through
//! the real binary: a receipt whose config signature is forged; a signature block with a
//! seventh member or one wrong parameter; receipts signed with the rarer release statuses
//! and durability classes; signed v1 declines whose `issuedAt` is text or null. Each test
//! names the mutation it was seen red under (applied by hand, then reverted); scripts/mutants.sh
//! re-runs those mutations and the rest of the verification code's.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use ed25519_dalek::{Signer, SigningKey};
use sealkit::digest::hex_lower;
use sealkit::receipt::{self, preimage};
use serde_json::{json, Map, Value};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use support::NEW_RECEIPTS as NEW;
/// An ALLOW released without approval, and a BLOCK (file names in `NEW`).
const ALLOW: &str = "receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json";
const BLOCK: &str = "receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load(name: &str) -> Map<String, Value> {
    receipt::parse(&std::fs::read(root().join(NEW).join(name)).unwrap()).unwrap()
}

/// `map` signed with the directory's own seed, in seal-host's file layout.
fn signed(mut map: Map<String, Value>) -> Map<String, Value> {
    preimage::sign(&mut map, &support::receipt_seed(NEW)).unwrap();
    map
}

/// What `sealkit verify receipt --format jsonl --receipt-key <seed>` says of one receipt.
struct Receipt {
    exit: i32,
    status: String,
    signature: String,
    codes: Vec<String>,
}

fn verify_receipt(map: &Map<String, Value>) -> Receipt {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("receipt.json");
    std::fs::write(&file, preimage::to_file_bytes(map)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "receipt", "--format", "jsonl", "--receipt-key"])
        .arg(support::receipt_seed_file(NEW))
        .arg(&file)
        .output()
        .unwrap();
    let line: Value = serde_json::from_slice(&output.stdout).unwrap();
    Receipt {
        exit: output.status.code().unwrap(),
        status: line["status"].as_str().unwrap().to_owned(),
        signature: line["signature"]["status"].as_str().unwrap().to_owned(),
        codes: line["findings"]
            .as_array()
            .map(|f| {
                f.iter()
                    .map(|f| f["code"].as_str().unwrap().to_owned())
                    .collect()
            })
            .unwrap_or_default(),
    }
}

fn assert_authenticated(map: &Map<String, Value>, what: &str) {
    let run = verify_receipt(map);
    assert_eq!(
        (run.exit, run.status.as_str(), run.signature.as_str()),
        (0, "authenticated", "verified"),
        "{what}: {:?}",
        run.codes
    );
    assert!(run.codes.is_empty(), "{what}: {:?}", run.codes);
}

/// The control: the unedited BLOCK, re-signed, is authenticated (so the failures below come
/// from the one edit each makes).
#[test]
fn the_resigned_block_receipt_is_authenticated() {
    assert_authenticated(&signed(load(BLOCK)), "unedited");
}

/// The config envelope's signature replaced by a genuine Ed25519 signature of the same
/// payload by another key, the receipt then re-signed with the installation key: the receipt
/// signature verifies, the config check does not.
/// Seen red under `config_signature` in src/receipt/config.rs replaced by `Ok(())` (AUTHENTICATED,
/// exit 0).
#[test]
fn a_forged_config_signature_under_a_valid_receipt_signature_fails() {
    let mut map = load(BLOCK);
    let payload = map["signed_config"]["payload"].as_str().unwrap().to_owned();
    let forger = SigningKey::from_bytes(&[0x42; 32]);
    let forged = hex_lower(&forger.sign(payload.as_bytes()).to_bytes());
    assert_ne!(map["signed_config"]["signature"], forged.as_str());
    map["signed_config"]["signature"] = Value::from(forged);
    let run = verify_receipt(&signed(map));
    assert_eq!(run.signature, "verified");
    assert_eq!(run.codes, ["config-mismatch"]);
    assert_eq!((run.exit, run.status.as_str()), (1, "failed"));
}

/// Edits of the signature block after signing (the block is outside the signed preimage, so
/// the signature value still verifies): seal-host refuses each, and so must sealkit.
/// Seen red under `||` → `&&` in `signature_block`'s member check (the seventh member) and
/// in its parameter check (Ed448 alone, hex alone), src/receipt/preimage.rs: AUTHENTICATED, exit 0.
#[test]
fn a_signature_block_with_a_seventh_member_or_one_wrong_parameter_fails() {
    type Edit = fn(&mut Map<String, Value>);
    let edits: [(&str, Edit); 4] = [
        ("a seventh member", |b| {
            b.insert("comment".into(), Value::from("x"));
        }),
        ("a member renamed", |b| {
            let value = b.shift_remove("key_id").unwrap();
            b.insert("kid".into(), value);
        }),
        ("algorithm Ed448 alone", |b| {
            b.insert("algorithm".into(), Value::from("Ed448"));
        }),
        ("encoding hex alone", |b| {
            b.insert("encoding".into(), Value::from("hex"));
        }),
    ];
    // Every edit is run before comparing, so a failure shows each one that got through.
    let outcomes: Vec<_> = edits
        .iter()
        .map(|(what, edit)| {
            let mut map = signed(load(BLOCK));
            edit(map["signature"].as_object_mut().unwrap());
            let run = verify_receipt(&map);
            (*what, run.exit, run.status, run.signature, run.codes)
        })
        .collect();
    let expected: Vec<_> = edits
        .iter()
        .map(|(what, _)| {
            let codes = vec!["signature-invalid".to_owned()];
            (*what, 1, "failed".to_owned(), "invalid".to_owned(), codes)
        })
        .collect();
    assert_eq!(outcomes, expected);
}

/// seal-host's preimage tags, from its format rather than from the library under test.
fn release_tag(status: &str) -> u8 {
    match status {
        "PENDING" => 4,
        "UNKNOWN" => 5,
        "RELEASED" => 6,
        "NOT_APPLICABLE" => 7,
        other => panic!("{other}"),
    }
}

fn durability_tag(class: &str) -> u8 {
    match class {
        "asserted_local_fsync" => 8,
        "witnessed_external" => 9,
        "unknown" => 10,
        other => panic!("{other}"),
    }
}

/// `map` signed as `preimage::sign` does, but with the tags of [`release_tag`] and
/// [`durability_tag`], so a fault in the library's own tag table cannot make the signer and
/// the verifier agree.
fn signed_with_host_tags(mut map: Map<String, Value>) -> Map<String, Value> {
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    use base64::Engine as _;
    map.shift_remove("signature");
    let text = |name: &str| map[name].as_str().unwrap();
    let artifact = |name: &str| {
        map["signed_artifacts"]
            .get(name)
            .and_then(Value::as_str)
            .map(|b64| STANDARD.decode(b64).unwrap())
    };
    let object_a = artifact("object_a").unwrap();
    let statement = artifact("approval_statement");
    let parts = preimage::LockParts {
        object_a: &object_a,
        approval_statement: statement.as_deref(),
        release_tag: release_tag(text("release_status")),
        operation_id: text("operation_id"),
        durability_tag: durability_tag(text("durability_class")),
    };
    let mut object_b = Vec::new();
    preimage::write_object_b(&map, &mut object_b).unwrap();
    let mut message = Vec::new();
    preimage::preimage(&parts, &object_b, &mut message);
    let key = SigningKey::from_bytes(&support::receipt_seed(NEW));
    let public = key.verifying_key().to_bytes();
    let block = json!({
        "domain": preimage::DOMAIN,
        "algorithm": "Ed25519",
        "public_key": hex_lower(&public),
        "key_id": sealkit::digest::sha256_hex(&public),
        "encoding": "base64url-nopad",
        "value": URL_SAFE_NO_PAD.encode(key.sign(&message).to_bytes()),
    });
    map.insert("signature".into(), block);
    map
}

/// The test's signer is seal-host's: on an unedited fixture it reproduces the file exactly.
#[test]
fn the_host_tag_signer_reproduces_the_fixtures() {
    for name in [ALLOW, BLOCK] {
        assert_eq!(
            preimage::to_file_bytes(&signed_with_host_tags(load(name))),
            std::fs::read(root().join(NEW).join(name)).unwrap(),
            "{name}"
        );
    }
}

/// Both durability classes no fixture uses, signed into the preimage with their own tags.
/// Seen red with the `witnessed_external` arm, then the `unknown` arm, of `durability_tag`
/// (src/receipt/preimage.rs) removed: malformed-receipt and signature-invalid, exit 1.
#[test]
fn receipts_signed_with_each_durability_class_are_authenticated() {
    for class in ["asserted_local_fsync", "witnessed_external", "unknown"] {
        for name in [ALLOW, BLOCK] {
            let mut map = load(name);
            map["durability_class"] = Value::from(class);
            assert_authenticated(&signed_with_host_tags(map), &format!("{class} on {name}"));
        }
    }
}

/// An ALLOW whose release the host never confirmed: signed with its own tag, so the
/// signature verifies and the one finding is release-unconfirmed, a warning (exit 0, 1 under
/// --deny-warnings).
/// Seen red with the `UNKNOWN` arm of `release_tag` (src/receipt/preimage.rs) removed:
/// malformed-receipt and signature-invalid, exit 1.
#[test]
fn receipts_signed_with_pending_or_unknown_release_verify_and_warn() {
    for status in ["PENDING", "UNKNOWN"] {
        let mut map = load(ALLOW);
        map["release_status"] = Value::from(status);
        let run = verify_receipt(&signed_with_host_tags(map));
        assert_eq!(run.signature, "verified", "{status}");
        assert_eq!(run.codes, ["release-unconfirmed"], "{status}");
        assert_eq!(
            (run.exit, run.status.as_str()),
            (0, "authenticated"),
            "{status}"
        );
    }
}

/// What `sealkit verify approval --format jsonl` says of one token line.
fn verify_approval(line: &str) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.ndjson");
    std::fs::write(&path, format!("{line}\n")).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval", "--format", "jsonl", "--pubkey"])
        .arg(support::PUBKEY)
        .arg(&path)
        .output()
        .unwrap();
    let first = String::from_utf8(output.stdout).unwrap();
    let record = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    (output.status.code().unwrap(), record)
}

fn decline_payload(issued_at: &str) -> String {
    format!(
        "{{\"target\":\"{}\",\"issuedAt\":{issued_at},\"nonce\":\"n-1\",\"decision\":\"deny\"}}",
        support::TARGET
    )
}

/// seal-host reads a v1 `issuedAt` given as decimal text as that number.
/// Seen red with the `String` arm of `u64_number_or_text` (src/approval/verify.rs) removed:
/// rejected with parse_error, exit 1.
#[test]
fn a_signed_decline_with_issued_at_as_text_is_accepted() {
    let (exit, record) = verify_approval(&support::v1_line(&decline_payload("\"1786000000000\"")));
    assert_eq!(exit, 0, "{record}");
    assert_eq!(record["status"], "accepted");
    assert_eq!(record["kind"], "signed-decline");
    assert_eq!(record["signed"]["issued_at"], json!(1786000000000u64));
}

/// A null `issuedAt` is a missing one, not unparseable JSON; text that is not a u64, a
/// negative or fractional number, and other types are unparseable.
/// Seen red with the `Null` arm of `u64_number_or_text` (src/approval/verify.rs) removed:
/// parse_error instead of missing_required_field.
#[test]
fn a_signed_decline_with_issued_at_null_lacks_a_required_field() {
    let cases = [
        ("null", "missing_required_field"),
        ("\"17x\"", "parse_error"),
        ("\"-1\"", "parse_error"),
        ("-1", "parse_error"),
        ("1.5", "parse_error"),
        ("true", "parse_error"),
        ("[1]", "parse_error"),
    ];
    for (issued_at, reason) in cases {
        let (exit, record) = verify_approval(&support::v1_line(&decline_payload(issued_at)));
        assert_eq!(exit, 1, "{issued_at}: {record}");
        assert_eq!(record["status"], "rejected", "{issued_at}");
        assert_eq!(record["kind"], "signed-v1", "{issued_at}");
        assert_eq!(record["reason"], reason, "{issued_at}: {record}");
    }
}

/// A v2 token whose signature is canonical base64url-nopad but longer than 64 bytes decodes
/// and then fails as a signature (bad_signature); the same length with padding is not
/// canonical (the encoding reason). Texts over 128 characters take the general decoder.
/// Seen red with `decode_base64url_nopad` (src/signature.rs) replaced by `None` (the long
/// canonical text got the encoding reason) and by `Some(vec![])` (the padded one got
/// bad_signature).
#[test]
fn a_long_signature_is_a_bad_signature_when_canonical_and_an_encoding_error_when_not() {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine as _;
    let long = URL_SAFE_NO_PAD.encode([7u8; 100]);
    assert!(long.len() > 128);
    let payload = support::canonical(&support::fixture_payload());
    let cases = [
        (long.clone(), "bad_signature"),
        (format!("{long}=="), "approval_v2_bad_signature_encoding"),
    ];
    for (signature, reason) in cases {
        let (exit, record) = verify_approval(&support::v2_line_with(&payload, &signature));
        assert_eq!(exit, 1, "{signature}: {record}");
        assert_eq!(record["kind"], "approval-record-v2", "{signature}");
        assert_eq!(record["reason"], reason, "{signature}: {record}");
    }
}
