//! Helpers for the approval CLI tests: the seed-0x17 test key, fixture paths, and token lines
//! built by hand (well-formed or deliberately broken) to reach each seal-host reason; and
//! the JSONTestSuite copy the corpus tests read; the receipt fixtures' signing seed.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ed25519_dalek::{Signer, SigningKey};
use sealkit::digest::hex_lower;
use std::path::{Path, PathBuf};

pub const PUBKEY: &str = "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc";
pub const KEY_ID: &str = "e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8";
pub const TARGET: &str = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";
pub const SEED_HEX: &str = "1717171717171717171717171717171717171717171717171717171717171717";

/// The receipt files (`receipt-*`) directly in `dir`, sorted by name.
pub fn receipt_files_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("receipt-")
        })
        .collect();
    files.sort();
    files
}

pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/approvals")
        .join(name)
}

pub fn frame_path() -> PathBuf {
    data("getting-started-call.frame")
}

pub fn fixture_line() -> String {
    std::fs::read_to_string(data("approve-cli-getting-started.token.ndjson"))
        .unwrap()
        .trim_end()
        .to_owned()
}

pub fn signing_key() -> SigningKey {
    SigningKey::from_bytes(&[0x17; 32])
}

/// A private key file (mode 0600) holding the seed-0x17 key.
pub fn key_file(dir: &Path) -> PathBuf {
    let path = dir.join("approval.key");
    std::fs::write(&path, format!("{SEED_HEX}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    path
}

/// The fixture's payload as a JSON object (to edit and re-render).
pub fn fixture_payload() -> serde_json::Value {
    let line: serde_json::Value = serde_json::from_str(&fixture_line()).unwrap();
    serde_json::from_str(line["payload"].as_str().unwrap()).unwrap()
}

/// ApprovalRecord canonical rendering of a JSON object of strings, integers and objects.
pub fn canonical(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Object(members) => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            let body: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", canonical_string(k), canonical(&members[k])))
                .collect();
            format!("{{{}}}", body.join(","))
        }
        serde_json::Value::String(text) => canonical_string(text),
        other => other.to_string(),
    }
}

fn canonical_string(text: &str) -> String {
    let mut out = String::from("\"");
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The base64url-nopad signature of the v2 preimage of `payload_text`.
pub fn sign_v2(payload_text: &str) -> String {
    let mut preimage = b"seal.approval-record/v2\0".to_vec();
    preimage.extend_from_slice(payload_text.as_bytes());
    URL_SAFE_NO_PAD.encode(signing_key().sign(&preimage).to_bytes())
}

/// A five-member v2 token line with the given payload text and signature.
pub fn v2_line_with(payload_text: &str, signature: &str) -> String {
    serde_json::json!({
        "payload": payload_text,
        "signature_algorithm": "Ed25519",
        "signature_encoding": "base64url-nopad",
        "signer_key_id": KEY_ID,
        "signature": signature,
    })
    .to_string()
}

/// A correctly signed v2 token line for `payload_text` (canonical or not).
pub fn v2_line(payload_text: &str) -> String {
    v2_line_with(payload_text, &sign_v2(payload_text))
}

/// A v2 token line for the fixture payload edited by `edit`, rendered canonically.
pub fn edited_v2_line(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut payload = fixture_payload();
    edit(&mut payload);
    v2_line(&canonical(&payload))
}

/// A signed v1 token: `{"payload":…,"signature":<hex>}` over the payload bytes.
pub fn v1_line(payload_text: &str) -> String {
    let signature = hex_lower(&signing_key().sign(payload_text.as_bytes()).to_bytes());
    serde_json::json!({"payload": payload_text, "signature": signature}).to_string()
}

/// The signature with the group order L added to its scalar S.
pub fn with_scalar_plus_order(signature_b64: &str) -> String {
    const L: [u8; 32] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
        0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ];
    let mut bytes = URL_SAFE_NO_PAD.decode(signature_b64).unwrap();
    let mut carry = 0u16;
    for (s, l) in bytes[32..].iter_mut().zip(L) {
        let sum = u16::from(*s) + u16::from(l) + carry;
        *s = sum as u8;
        carry = sum >> 8;
    }
    assert_eq!(carry, 0, "S + L fits in 32 bytes");
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Every file of testdata/JSONTestSuite/test_parsing with its bytes, in byte order of names.
pub fn json_test_suite() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/JSONTestSuite/test_parsing");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            (name, std::fs::read(entry.path()).unwrap())
        })
        .collect();
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    files
}

/// The legacy-vs-current record_version 3 receipts (seal-host wrote them with the seed beside
/// them).
pub const NEW_RECEIPTS: &str = "testdata/receipts/legacy-vs-current/new/receipts";

/// The receipt-signing seed file of a receipt directory (relative to the crate).
pub fn receipt_seed_file(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(dir)
        .join(".seal-receipt-ed25519.key")
}

/// The public key of a receipt directory's seed as an operator keeps it, apart from the
/// directory (`testdata/keys/`): what tests pin, since a key read from inside the evidence
/// authenticates nothing independent (`receipt-key-in-evidence`).
pub fn receipt_key_file(dir: &str) -> PathBuf {
    let name = match dir.trim_end_matches('/') {
        NEW_RECEIPTS => "legacy-vs-current-receipt.pub",
        "testdata/receipts/fixture-dir" => "fixture-dir-receipt.pub",
        other => panic!("no public key kept for {other}"),
    };
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/keys")
        .join(name)
}

/// The 32-byte receipt-signing seed of a receipt directory.
pub fn receipt_seed(dir: &str) -> [u8; 32] {
    std::fs::read(receipt_seed_file(dir))
        .unwrap()
        .try_into()
        .unwrap()
}

/// The project's documentation as one text: README.md, then every page under docs/ in name
/// order. Tests that re-run documented output or look for documented codes read this, so a
/// block or a table row may live on whichever page suits the reader.
pub fn documentation() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    for page in pages {
        text.push('\n');
        text.push_str(&std::fs::read_to_string(page).unwrap());
    }
    text
}

/// The payload of a one-line token file without its `shown_sha256` and `shown_length`, and
/// those two apart: the screens of renderer versions 2 and 3 name where the signing key
/// lives, so two storages of one key differ in exactly these members.
pub fn payload_and_shown(token_file: &Path) -> (serde_json::Value, (String, u64)) {
    let text = std::fs::read_to_string(token_file).unwrap();
    let line: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
    let mut payload: serde_json::Value =
        serde_json::from_str(line["payload"].as_str().unwrap()).unwrap();
    let object = payload.as_object_mut().unwrap();
    let sha256 = object.remove("shown_sha256").unwrap();
    let length = object.remove("shown_length").unwrap();
    assert_ne!(object["renderer"]["version"], "1");
    (
        payload,
        (
            sha256.as_str().unwrap().to_owned(),
            length.as_u64().unwrap(),
        ),
    )
}

/// The `SHA256:…` fingerprint of an OpenSSH public key file, as `ssh-keygen -l` prints it.
pub fn ssh_keygen_fingerprint(public: &Path) -> String {
    let output = std::process::Command::new("ssh-keygen")
        .arg("-lf")
        .arg(public)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    text.split_whitespace().nth(1).unwrap().to_owned()
}

/// The text of the fenced code block in `text` whose first line is `first_line`.
pub fn fenced_block<'t>(text: &'t str, first_line: &str) -> &'t str {
    let at = text
        .find(&format!("```\n{first_line}\n"))
        .unwrap_or_else(|| panic!("no code block starting {first_line:?}"));
    let block = &text[at + 4..];
    &block[..block.find("```").unwrap()]
}

/// The records of a `--format jsonl` output, one JSON value per line.
pub fn jsonl_records(stdout: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}
