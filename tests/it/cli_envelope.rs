#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `sealkit envelope` through the real binary: the twin corpus, signature checks, gate
//! findings and exit codes. The twin corpus lines (`{"m":1}`, `0`, …) are not JSON-RPC
//! requests: the binary refuses them as `target` does (the one validation pipeline), so
//! their message bytes are pinned through the library's parameter path
//! (`tests/envelope_corpus.rs`) and the binary's through real tool calls here.

use assert_cmd::Command;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::Value;
use std::path::{Path, PathBuf};

const CORPUS: &str = include_str!("../../testdata/envelope/envelope_v23_twin_corpus.json");
const EXPECTED: &str = include_str!("../../testdata/envelope/envelope_v23_twin_expected.hex");
/// Ed25519 (seed 0x000102…1f) over the golden-fable message, made with Python
/// `cryptography`, independently of this crate.
const GOLDEN_SIG: &str = "ae1859447d11be31ff3e1f9c0e124b3af598f216a74f1ede28421554ea684fee82430383298ade756b9ee02bc0c06ebd037a84f1ec137c86fe5a876498a95800";
const TEST_PUBKEY: &str = "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8";
const CALL: &str = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"db.execute","action":"write","arguments":{"sql":"drop table t"},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}"#;

/// A JSON-RPC message that is not a tool call: validated, not refused, and an envelope may
/// declare its effect absent for it.
const NOTE: &str = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#;

fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn vector(index: usize) -> Value {
    let corpus: Value = serde_json::from_str(CORPUS).unwrap();
    corpus["vectors"][index].clone()
}

/// Parameter file and frame file for one corpus vector.
fn vector_files(dir: &Path, v: &Value) -> (PathBuf, PathBuf) {
    let mut params = v["envelope"].as_object().unwrap().clone();
    params.insert("authority_hex".into(), v["authority_hex"].clone());
    let params = write(dir, "params.json", &Value::Object(params).to_string());
    let frame = write(
        dir,
        "frame.jsonl",
        &format!("{}\n", v["line"].as_str().unwrap()),
    );
    (params, frame)
}

fn json_run(cmd: &mut Command, code: i32) -> Value {
    let output = cmd.arg("--format").arg("json").output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(code),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

fn codes(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_owned())
        .collect()
}

/// Flags for the CALL frame with every mandatory field good.
fn good_flags(cmd: &mut Command) -> &mut Command {
    cmd.args(["--authority", &"ab".repeat(32)])
        .args(["--key-id", "alice"])
        .args(["--nonce", &"07".repeat(32)])
        .args(["--issued-at", "1786000000", "--expires-at", "1786000300"])
        .args([
            "--session",
            "seal-session-v1:abc",
            "--policy-version",
            "pol-1",
        ])
}

#[test]
fn every_corpus_vector_line_is_refused_as_target_refuses_it() {
    // Seen red on 08828c0: every corpus line was built into a message (status "built").
    let dir = tempfile::tempdir().unwrap();
    for i in 0..EXPECTED.lines().count() {
        let v = vector(i);
        let (params, frame) = vector_files(dir.path(), &v);
        let report = json_run(
            sealkit()
                .arg("envelope")
                .arg(&frame)
                .arg("--params")
                .arg(&params),
            1,
        );
        let target = sealkit()
            .args(["target", "--format", "jsonl"])
            .arg(&frame)
            .output()
            .unwrap();
        let record: Value = serde_json::from_slice(&target.stdout).unwrap();
        assert_eq!(report["status"], "refused", "vector {}", v["name"]);
        assert_eq!(report["code"], record["code"], "vector {}", v["name"]);
        assert_eq!(report["offset"], record["offset"], "vector {}", v["name"]);
        assert!(report.get("message").is_some_and(Value::is_string));
    }
}

#[test]
fn golden_vector_line_gets_no_message() {
    let dir = tempfile::tempdir().unwrap();
    let (params, frame) = vector_files(dir.path(), &vector(0));
    let report = json_run(
        sealkit()
            .arg("envelope")
            .arg(&frame)
            .arg("--params")
            .arg(&params)
            .args(["--verify", GOLDEN_SIG, "--pubkey", TEST_PUBKEY]),
        1,
    );
    // A good signature over a frame sealkit refuses is never reported "verified".
    assert_eq!(report["status"], "refused");
    assert_eq!(report["code"], "missing-method");
    assert_eq!(report["jsonrpc_code"], -32600);
    assert_eq!(report["offset"], 0);
    assert_eq!(report["era"], Value::Null);
    assert_eq!(report["subject"]["length"], 8);
    assert_eq!(
        report["request_sha256"],
        sealkit::digest::sha256_hex(b"{\"m\":1}")
    );
    assert!(report.get("signature").is_none());
}

#[test]
fn verify_accepts_an_independent_signature_and_refuses_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let frame = write(dir.path(), "call.jsonl", &format!("{CALL}\n"));
    let built = json_run(good_flags(sealkit().arg("envelope").arg(&frame)), 0);
    let message = sealkit::digest::hex_decode(built["message"]["hex"].as_str().unwrap()).unwrap();
    let key = SigningKey::from_bytes(&[7u8; 32]);
    let sig = sealkit::digest::hex_lower(&key.sign(&message).to_bytes());
    let pubkey = sealkit::digest::hex_lower(key.verifying_key().as_bytes());
    let run = |sig: &str, extra: &[&str], code| {
        json_run(
            good_flags(sealkit().arg("envelope").arg(&frame))
                .args(extra)
                .args(["--verify", sig, "--pubkey", &pubkey]),
            code,
        )
    };
    // With the effect declared absent the message differs from the signed one.
    let report = run(&sig, &["--effect", "absent"], 1);
    assert_eq!(report["status"], "signature-invalid");
    assert_eq!(report["signature"]["code"], "signature-mismatch");

    let report = run(&sig, &[], 0);
    assert_eq!(report["status"], "verified");
    assert_eq!(report["signature"]["verified"], true);
    assert_eq!(report["signature"]["public_key"], pubkey);

    // S = L: refused before the curve check, as seal-host does.
    let mut high = sig[..64].to_owned();
    high.push_str("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");
    let report = run(&high, &[], 1);
    assert_eq!(
        report["signature"]["code"],
        "signature-scalar-not-canonical"
    );
}

#[test]
fn derived_envelope_signed_and_verified_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let frame = write(dir.path(), "call.jsonl", &format!("{CALL}\n"));
    let built = json_run(good_flags(sealkit().arg("envelope").arg(&frame)), 0);
    assert_eq!(built["reported"]["effect"]["source"], "derived");
    assert_eq!(
        built["reported"]["effect"]["args"],
        r#"{"sql":"drop table t"}"#
    );
    assert_eq!(
        built["reported"]["effect"]["metadata"],
        r#"{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}"#
    );
    assert_eq!(built["findings"], Value::Array(vec![]));
    let message = sealkit::digest::hex_decode(built["message"]["hex"].as_str().unwrap()).unwrap();
    let key = SigningKey::from_bytes(&[7u8; 32]);
    let sig = sealkit::digest::hex_lower(&key.sign(&message).to_bytes());
    let pubkey = sealkit::digest::hex_lower(key.verifying_key().as_bytes());
    let verified = json_run(
        good_flags(sealkit().arg("envelope").arg(&frame))
            .args(["--verify", &sig, "--pubkey", &pubkey]),
        0,
    );
    assert_eq!(verified["status"], "verified");
    assert_eq!(verified["message"], built["message"]);
    // Human output says the same.
    sealkit()
        .arg("envelope")
        .arg(&frame)
        .args(["--verify", &sig, "--pubkey", &pubkey])
        .args([
            "--authority",
            &"ab".repeat(32),
            "--key-id",
            "alice",
            "--nonce",
            &"07".repeat(32),
        ])
        .args(["--issued-at", "1786000000", "--expires-at", "1786000300"])
        .args([
            "--session",
            "seal-session-v1:abc",
            "--policy-version",
            "pol-1",
        ])
        .assert()
        .success()
        .stdout(predicates::str::contains("signature: verified"))
        .stdout(predicates::str::contains("findings: none"));
}

#[test]
fn frame_from_stdin_and_flags_override_the_parameter_file() {
    let dir = tempfile::tempdir().unwrap();
    let (params, _) = vector_files(dir.path(), &vector(0));
    let output = sealkit()
        .args(["envelope", "-", "--params"])
        .arg(&params)
        .args(["--key-id", "bob", "--effect", "absent", "--format", "json"])
        .write_stdin(format!("{NOTE}\r\n"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["reported"]["key_id"], "bob");
    assert_eq!(report["reported"]["line"], NOTE);
    assert_eq!(report["reported"]["effect"], Value::Null);
    assert!(report["message"]["hex"]
        .as_str()
        .unwrap()
        .ends_with("706f6c2d3100"));
}

#[test]
fn offline_gates_are_findings_and_warnings_obey_deny_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let frame = write(dir.path(), "call.jsonl", &format!("{CALL}\n"));
    let report = json_run(
        sealkit()
            .arg("envelope")
            .arg(&frame)
            .args(["--authority", &"ab".repeat(32), "--key-id", "alice"])
            .args(["--nonce", &"07".repeat(32), "--issued-at", "1"])
            .args(["--expires-at", "0", "--session", "", "--policy-version", ""]),
        1,
    );
    assert_eq!(
        codes(&report),
        ["expires-at-zero", "session-empty", "policy-version-empty"]
    );
    let warn = |deny: bool, code| {
        let mut cmd = sealkit();
        good_flags(cmd.arg("envelope").arg(&frame)).args(["--adapter-version", "2026-07-28"]);
        if deny {
            cmd.arg("--deny-warnings");
        }
        json_run(&mut cmd, code)
    };
    assert_eq!(codes(&warn(false, 0)), ["adapter-not-deployed"]);
    warn(true, 1);
}

#[test]
fn cannot_build_cases_exit_two() {
    let dir = tempfile::tempdir().unwrap();
    let two = write(dir.path(), "two.jsonl", &format!("{CALL}\n{CALL}\n"));
    good_flags(sealkit().args(["--format", "json", "envelope"]).arg(&two))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("envelope-multiple-frames"));
    let frame = write(dir.path(), "call.jsonl", &format!("{CALL}\n"));
    sealkit()
        .arg("envelope")
        .arg(&frame)
        .args(["--key-id", "alice", "--format", "json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "missing: authority, nonce, issued_at, expires_at, session, policy_version",
        ));
    // A frame that is not canonical V2 yields no derived claim: refused, not normalised.
    let spaced = write(
        dir.path(),
        "spaced.jsonl",
        &format!("{}\n", CALL.replacen(":", ": ", 1)),
    );
    good_flags(
        sealkit()
            .args(["--format", "json", "envelope"])
            .arg(&spaced),
    )
    .assert()
    .code(2)
    .stderr(predicates::str::contains("v2-whitespace at byte 11"));
    let no_action = write(
        dir.path(),
        "plain.jsonl",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{}}}\n",
    );
    good_flags(
        sealkit()
            .args(["--format", "json", "envelope"])
            .arg(&no_action),
    )
    .assert()
    .code(2)
    .stderr(predicates::str::contains("typed-action-not-string"));
    good_flags(sealkit().args(["--format", "json", "envelope"]).arg(&frame))
        .args(["--verify", "00", "--pubkey", TEST_PUBKEY])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("signature-malformed"));
    sealkit()
        .args(["envelope", "--verify", GOLDEN_SIG])
        .assert()
        .code(2);
}

/// The envelope follows the shared option conventions: `--issued-at`/`--expires-at` take RFC
/// 3339 as well as Unix seconds (the same signed bytes), and `--pubkey FILE` verifies as the
/// hex key does. Seen red before them: "invalid digit found in string" for the times, and
/// "--pubkey takes 64 hex digits" for the file.
#[test]
fn envelope_times_and_key_file_follow_the_conventions() {
    let dir = tempfile::tempdir().unwrap();
    let frame = write(dir.path(), "call.jsonl", &format!("{CALL}\n"));
    let build = |issued: &str, expires: &str, verify: &[&str]| {
        json_run(
            sealkit()
                .arg("envelope")
                .arg(&frame)
                .args(["--authority", &"ab".repeat(32), "--key-id", "alice"])
                .args(["--nonce", &"07".repeat(32)])
                .args(["--issued-at", issued, "--expires-at", expires])
                .args([
                    "--session",
                    "seal-session-v1:abc",
                    "--policy-version",
                    "pol-1",
                ])
                .args(verify),
            0,
        )
    };
    let seconds = build("1786000000", "1786000300", &[]);
    let rfc = build("2026-08-06T07:06:40Z", "2026-08-06T09:11:40+02:00", &[]);
    assert_eq!(rfc["message"], seconds["message"]);
    let message = sealkit::digest::hex_decode(seconds["message"]["hex"].as_str().unwrap()).unwrap();
    let key = SigningKey::from_bytes(&[7u8; 32]);
    let sig = sealkit::digest::hex_lower(&key.sign(&message).to_bytes());
    let pubkey = sealkit::digest::hex_lower(key.verifying_key().as_bytes());
    let key_file = write(dir.path(), "signer.pub", &format!("{pubkey}\n"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let verified = build(
        "1786000000",
        "1786000300",
        &["--verify", &sig, "--pubkey", key_file.to_str().unwrap()],
    );
    assert_eq!(verified["status"], "verified");
}
