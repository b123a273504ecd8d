//! The flag conventions every command shares, through the binary: `-` reads standard input
//! for every file input (and only once per command line), public keys are 64 hex digits or a
//! file in the same option, times are `now`, RFC 3339 or Unix milliseconds, and the usual
//! slips get a hint.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{self, key_file, PUBKEY, TARGET};
use assert_cmd::Command;
use predicates::str::contains;
use serde_json::Value;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const SEALED: &str = "testdata/receipts/chain/fixture_run_sealed.json";
const LINES: &str = "testdata/receipts/chain/fixture_run_audit.lines";
const BUNDLE: &str = "testdata/receipts/bundles/bundle-closed.json";
const ISS: &str = "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c";
const REQ: &str = "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394";
const APP: &str = "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1";

fn sealkit() -> Command {
    let mut command = Command::cargo_bin("sealkit").unwrap();
    command.current_dir(ROOT);
    command
}

/// Runs `args`, feeding `stdin`; gives the exit status and the one JSON document printed
/// (`file` removed: it names the input as given, `-` or a path).
fn json_run(args: &[&str], stdin: Option<Vec<u8>>) -> (i32, Value) {
    let mut command = sealkit();
    command.args(args).args(["--format", "json"]);
    if let Some(bytes) = stdin {
        command.write_stdin(bytes);
    }
    let output = command.output().unwrap();
    let mut value: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    if let Some(object) = value.as_object_mut() {
        object.remove("file");
    }
    (output.status.code().unwrap(), value)
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(ROOT).join(path)).unwrap()
}

// --- `-` is standard input ---

/// Seen red before the input type: `verify chain -` was "No such file or directory" (exit 2).
#[test]
fn verify_chain_reads_a_sealed_log_from_stdin() {
    let from_file = json_run(&["verify", "chain", SEALED], None);
    let from_stdin = json_run(&["verify", "chain", "-"], Some(read(SEALED)));
    assert_eq!(from_file.0, 0);
    assert_eq!(from_stdin, from_file);
    assert_eq!(from_stdin.1["kind"], "sealed");
}

/// Seen red before the input type: `--audit-lines -` could not be opened (exit 2).
#[test]
fn verify_chain_reads_audit_lines_from_stdin() {
    let from_file = json_run(&["verify", "chain", "--audit-lines", LINES], None);
    let from_stdin = json_run(
        &["verify", "chain", "--audit-lines", "-"],
        Some(read(LINES)),
    );
    assert_eq!(from_stdin, from_file);
    assert_eq!(
        from_stdin.1["head"],
        "2b153a2b189dd1118b8378ac13c42de2420f40dc29af29fe4a2f4d4f42e0eef3"
    );
    assert_eq!(from_stdin.1["audit_lines"]["payloads"], 2);
}

/// Standard input is streamed like a file: lines far beyond any whole-input limit chain
/// through, one at a time (the reader never holds more than one line).
#[test]
fn audit_lines_from_stdin_stream() {
    let line = format!("{{\"n\":\"{}\"}}\n", "x".repeat(1000));
    let lines = line.repeat(40_000); // 40 MB: more than the 16 MiB whole-file reads allow
    let (code, value) = json_run(
        &["verify", "chain", "--audit-lines", "-"],
        Some(lines.into()),
    );
    assert_eq!(
        (code, &value["audit_lines"]["payloads"]),
        (0, &Value::from(40_000))
    );
}

/// Seen red before the input type: `verify bundle -` was "No such file or directory".
#[test]
fn verify_bundle_reads_stdin() {
    let keys = [
        "--issuer-pubkey",
        ISS,
        "--request-pubkey",
        REQ,
        "--approval-pubkey",
        APP,
    ];
    let mut args = vec!["verify", "bundle", BUNDLE];
    args.extend(keys);
    let from_file = json_run(&args, None);
    args[2] = "-";
    let from_stdin = json_run(&args, Some(read(BUNDLE)));
    assert_eq!(from_stdin, from_file);
    assert_eq!(from_stdin.1["statements"][0]["verified"], true);
}

/// Seen red before the input type: `approve --frame -` was "No such file or directory".
#[test]
fn approve_reads_the_frame_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    sealkit()
        .args(["approve", "--frame", "-", "--target", TARGET, "--yes"])
        .arg("--token-file")
        .arg(&tokens)
        .arg("--key-file")
        .arg(key_file(dir.path()))
        .write_stdin(std::fs::read(support::frame_path()).unwrap())
        .assert()
        .code(0)
        .stdout(contains(format!("signed allow for target={TARGET}")));
    sealkit()
        .args(["verify", "approval", "--pubkey", PUBKEY, "--target", TARGET])
        .arg(&tokens)
        .arg("--frame")
        .arg(support::frame_path())
        .assert()
        .code(0);
}

/// One command line can read standard input once: a second `-` is a usage error naming both
/// options, before anything is read (it used to see an empty stream: `verify receipt - -`
/// checked the second "file" as empty).
#[test]
fn standard_input_named_twice_is_refused() {
    for args in [
        &["verify", "chain", "--audit-lines", "-", "--state", "-"][..],
        &["verify", "receipt", "-", "-"],
        &["envelope", "--params", "-"],
        &["verify", "approval", "--pubkey", PUBKEY, "--frame", "-"],
    ] {
        sealkit()
            .args(args)
            .write_stdin("{}\n")
            .assert()
            .code(2)
            .stderr(contains("stdin-given-twice"))
            .stderr(contains("both read standard input"));
    }
}
