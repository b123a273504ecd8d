//! Inputs for the `sealkit report` tests: the legacy-vs-current fixture (record_version 3
//! receipts, their tokens, sealed log and frames) and a hostile copy of it built at test
//! time: one extra receipt whose tool name, arguments and `_meta` carry markup, script,
//! a URL and bidi / control characters, re-signed with the fixture's receipt seed so it
//! authenticates and only its content checks fail; a file whose name is markup; and a token
//! line whose signed approver is markup.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use sealkit::digest::sha256_hex;
use sealkit::receipt::{self, preimage};
use std::path::{Path, PathBuf};
use std::process::Command;

pub const FIXTURE: &str = "testdata/receipts/legacy-vs-current";
pub const APPROVAL_PUBKEY: &str =
    "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc";
/// The released ALLOW receipt the hostile one is made from.
const TEMPLATE: &str = "new/receipts/receipt-00000000000000000002-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
/// What a script from the data would do if it ran: mark the document.
pub const PWNED: &str = "data-pwned";

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

pub fn fixture(rel: &str) -> PathBuf {
    root().join(FIXTURE).join(rel)
}

/// The fixture's receipt key as an operator keeps it, apart from the receipts (a key read
/// from inside them would authenticate nothing independent).
pub fn receipt_key() -> PathBuf {
    root().join("testdata/keys/legacy-vs-current-receipt.pub")
}

pub fn sealkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sealkit"))
}

/// The hostile tool name (markup that would run a script and load a URL).
pub fn hostile_tool(leak: &str) -> String {
    format!(
        "<img src={leak}/tool onerror=\"document.documentElement.setAttribute('{PWNED}','tool')\">"
    )
}

/// The exact hostile frame.
pub fn hostile_frame(leak: &str) -> String {
    let tool = serde_json::to_string(&hostile_tool(leak)).unwrap();
    let script = format!(
        "</script><script>document.documentElement.setAttribute('{PWNED}','args')</script><iframe src=\"{leak}/frame\"></iframe>"
    );
    let args = serde_json::json!({ "sql": script });
    // A raw bidi override, zero-width space and line separator, and an escaped BEL, in a
    // _meta key and value.
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{{\"name\":{tool},\"arguments\":{args},\"_meta\":{{\"x.example/\u{202e}evil\":\"exe.\u{202e}gnp\u{200b}\\u0007\u{2028}<b>bold</b>\"}}}}}}\n"
    )
}

/// Builds `dir/receipts` (the fixture's receipts plus the hostile receipt and file) and
/// `dir/tokens.ndjson` (the fixture's token lines plus one with a hostile approver).
pub fn hostile_inputs(dir: &Path, leak: &str) -> (PathBuf, PathBuf) {
    let receipts = dir.join("receipts");
    std::fs::create_dir_all(&receipts).unwrap();
    for entry in std::fs::read_dir(fixture("new/receipts")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), receipts.join(entry.file_name())).unwrap();
    }
    let seed: [u8; 32] = std::fs::read(fixture("new/receipts/.seal-receipt-ed25519.key"))
        .unwrap()
        .try_into()
        .unwrap();
    let mut map = receipt::parse(&std::fs::read(fixture(TEMPLATE)).unwrap()).unwrap();
    let frame = hostile_frame(leak);
    map["tool"] = hostile_tool(leak).into();
    map["now"] = (map["now"].as_u64().unwrap() + 60_000).into();
    map["framed_subject_sha256"] = sha256_hex(frame.as_bytes()).into();
    map["framed_subject_length"] = (frame.len() as u64).into();
    map["signed_artifacts"]["object_a"] = STANDARD.encode(frame.as_bytes()).into();
    preimage::sign(&mut map, &seed).unwrap();
    let hash = map["canonical_request_sha256"].as_str().unwrap().to_owned();
    std::fs::write(
        receipts.join(format!("receipt-00000000000000000099-{hash}.json")),
        preimage::to_file_bytes(&map),
    )
    .unwrap();
    std::fs::write(
        receipts.join(format!(
            "x<svg onload=\"document.documentElement.setAttribute('{PWNED}','name')\">.txt"
        )),
        b"{}",
    )
    .unwrap();
    let tokens = dir.join("tokens.ndjson");
    let mut text = std::fs::read_to_string(fixture("new/approvals-L.ndjson")).unwrap();
    text.push_str(&std::fs::read_to_string(fixture("new/approvals-M.ndjson")).unwrap());
    text.push_str(&hostile_token(leak));
    std::fs::write(&tokens, text).unwrap();
    (receipts, tokens)
}

/// A token line signed by the fixture approval key whose approver is markup.
fn hostile_token(leak: &str) -> String {
    let approver = format!("<script>document.documentElement.setAttribute('{PWNED}','token')</script><img src={leak}/token>\u{202e}");
    approval_of_the_same_call(&approver, "nonce-hostile")
}

/// Another valid approval of the call approvals-L.ndjson's token approves, signed by the
/// same trusted key, with its own approver and nonce.
pub fn approval_of_the_same_call(approver: &str, nonce: &str) -> String {
    use ed25519_dalek::{Signer, SigningKey};
    let line: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(fixture("new/approvals-L.ndjson"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    let mut payload: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(line["payload"].as_str().unwrap()).unwrap();
    payload.insert("approver".into(), approver.into());
    payload.insert("nonce".into(), nonce.into());
    // The payload's canonical rendering: keys sorted, compact (all values are strings,
    // integers or the sorted renderer object here).
    let sorted: std::collections::BTreeMap<_, _> = payload.into_iter().collect();
    let payload_text = serde_json::to_string(&sorted).unwrap();
    let mut message = b"seal.approval-record/v2\0".to_vec();
    message.extend_from_slice(payload_text.as_bytes());
    let signature = SigningKey::from_bytes(&[0x17; 32]).sign(&message);
    let signature = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(signature.to_bytes());
    let mut out = line.as_object().unwrap().clone();
    out.insert("payload".into(), payload_text.into());
    out.insert("signature".into(), signature.into());
    format!("{}\n", serde_json::to_string(&out).unwrap())
}

/// Runs `sealkit report` over the fixture (and `extra` arguments); returns the exit code.
pub fn report(out: &Path, receipts: &Path, tokens: &[PathBuf], extra: &[&str]) -> i32 {
    let mut command = sealkit();
    command
        .arg("report")
        .arg("--out")
        .arg(out)
        .arg("--receipt-key")
        .arg(receipt_key())
        .arg("--pubkey")
        .arg(APPROVAL_PUBKEY);
    for token in tokens {
        command.arg("--tokens").arg(token);
    }
    command.args(extra).arg(receipts);
    let output = command.output().unwrap();
    assert!(
        out.exists(),
        "no output: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.status.code().unwrap()
}

/// The BLOCK receipt the tampered copy turns into an ALLOW after signing.
pub const ALTERED: &str = "receipt-00000000000000000001-120d377234da4be343ce9be68bdb03ac0002724f693c465b75b5812b46344918.json";
/// The receipt the tampered copy deletes.
pub const DELETED: &str = "receipt-00000000000000000003-471f4bad0480adddf6f79b515277613b5ac4735bfeb7e098a4ccb0718b5c26dc.json";

/// The fixture as a responder finds it after an incident (issue 23): every file
/// world-readable; the BLOCK receipt [`ALTERED`] says ALLOW, changed after signing; the
/// receipt [`DELETED`] gone (the directory's head state no longer matches); and, first in
/// the token file, a second valid approval of the L session's released call by the same
/// trusted key ("Mallory", another nonce), which is not the approval that receipt signs.
/// Without `keep_used_token` the token that receipt does sign is left out.
pub fn tampered_inputs(dir: &Path, keep_used_token: bool) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let receipts = dir.join("receipts");
    std::fs::create_dir_all(&receipts).unwrap();
    for entry in std::fs::read_dir(fixture("new/receipts")).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() == DELETED {
            continue;
        }
        let to = receipts.join(entry.file_name());
        std::fs::copy(entry.path(), &to).unwrap();
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let altered = receipts.join(ALTERED);
    let text = std::fs::read_to_string(&altered).unwrap();
    assert!(text.contains("\"verdict\": \"BLOCK\""));
    std::fs::write(
        &altered,
        text.replacen("\"verdict\": \"BLOCK\"", "\"verdict\": \"ALLOW\"", 1),
    )
    .unwrap();
    let tokens = dir.join("tokens.ndjson");
    let mut text = approval_of_the_same_call("Mallory", "nonce-mallory");
    if keep_used_token {
        text.push_str(&std::fs::read_to_string(fixture("new/approvals-L.ndjson")).unwrap());
    }
    text.push_str(&std::fs::read_to_string(fixture("new/approvals-M.ndjson")).unwrap());
    std::fs::write(&tokens, text).unwrap();
    (receipts, tokens)
}

/// `count` signed copies of the generator's template receipt (only `now` differs) in a new
/// `receipts` directory under `parent`: the directory and the files.
pub fn generated_receipts(parent: &Path, count: usize) -> (PathBuf, Vec<PathBuf>) {
    let dir = parent.join("receipts");
    std::fs::create_dir(&dir).unwrap();
    let seed: [u8; 32] = std::fs::read(root().join(crate::generated_receipts::SEED))
        .unwrap()
        .try_into()
        .unwrap();
    let template = sealkit::receipt::parse(
        &std::fs::read(root().join(crate::generated_receipts::TEMPLATE)).unwrap(),
    )
    .unwrap();
    let files = crate::generated_receipts::generate(&dir, &template, &seed, count);
    (dir, files)
}
