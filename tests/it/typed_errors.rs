//! Library errors through the real binary: the JSON error object carries the library error's
//! stable code and its I/O cause (the error's `source`), not only a flattened message; people
//! see the same code and the cause under the message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use std::path::Path;

/// The JSON error object `args` (run with `--format json` in `cwd`) prints, with exit 2.
fn json_error(cwd: &Path, args: &[&str]) -> serde_json::Value {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(cwd)
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    serde_json::from_slice(&output.stderr).unwrap()
}

/// The cause an `ENOENT` leaves, as the standard library words it on every platform we test.
fn no_such_file() -> String {
    std::io::Error::from(std::io::ErrorKind::NotFound).to_string()
}

fn assert_code_and_io_cause(error: &serde_json::Value, code: &str, message_has: &str) {
    assert_eq!(error["type"], "error", "{error}");
    assert_eq!(error["code"], code, "{error}");
    assert!(
        error["message"].as_str().unwrap().contains(message_has),
        "{error}"
    );
    let causes = error["causes"].as_array().unwrap();
    assert_eq!(causes.len(), 1, "{error}");
    let cause = causes[0].as_str().unwrap();
    // The OS text carries an `(os error N)` suffix the kind's own text lacks.
    assert!(
        cause.starts_with(&no_such_file()) || cause.contains("No such file"),
        "{error}"
    );
}

// Seen red on 1d4d3e5 (main before the typed errors): `"causes":[]` for each of these, the
// I/O error only inside the message.
#[test]
fn a_missing_key_file_keeps_its_code_and_io_cause() {
    let dir = tempfile::tempdir().unwrap();
    let error = json_error(dir.path(), &["key", "show", "missing.key"]);
    assert_code_and_io_cause(&error, "key-file-unreadable", "missing.key");
}

#[test]
fn a_missing_audit_root_keeps_its_code_and_io_cause() {
    let dir = tempfile::tempdir().unwrap();
    let error = json_error(dir.path(), &["audit", "no-such-receipts"]);
    assert_code_and_io_cause(&error, "unreadable-root", "cannot audit no-such-receipts");
}

#[test]
fn a_missing_migrate_input_keeps_its_code_and_io_cause() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("frames.jsonl"), b"").unwrap();
    let error = json_error(
        dir.path(),
        &[
            "migrate",
            "no-such-receipts",
            "--frames",
            "frames.jsonl",
            "--out",
            "new",
        ],
    );
    assert_code_and_io_cause(&error, "unreadable-input", "cannot read no-such-receipts");
}

#[test]
fn a_missing_chain_file_keeps_its_code_and_io_cause() {
    let dir = tempfile::tempdir().unwrap();
    let error = json_error(dir.path(), &["verify", "chain", "no-such-log.jsonl"]);
    // Seen red before `Input::open_named`: the open error was formatted into the message only
    // ("causes":[]).
    assert_code_and_io_cause(&error, "unreadable-file", "no-such-log.jsonl");
}

#[test]
fn people_see_the_code_and_the_cause_too() {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(dir.path())
        .args(["--color", "never", "key", "show", "missing.key"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let text = String::from_utf8(output.stderr).unwrap();
    assert!(text.contains("key-file-unreadable"), "{text}");
    // The message quotes the operating system's error, so people read it once: a cause the
    // message already shows is not repeated under it (JSON keeps it in `causes`, above).
    assert_eq!(
        text.lines()
            .filter(|line| line.contains("No such file"))
            .count(),
        1,
        "{text}"
    );
}

/// The token file append's write error (EFBIG under a file-size limit standing in for a full
/// disk) stays a cause of `token-file-append-rolled-back`, not only words in its message.
/// Seen red on 1d4d3e5: same code and message, `"causes":[]`.
#[cfg(target_os = "linux")]
#[test]
fn a_failed_token_append_keeps_the_write_error_as_its_cause() {
    use crate::support::{fixture_line, frame_path, key_file, TARGET};
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    let existing = format!("{}\n", fixture_line());
    std::fs::write(&tokens, &existing).unwrap();
    let limit = existing.len() + 10;
    let output = std::process::Command::new("prlimit")
        .arg(format!("--fsize={limit}"))
        .args(["--", "sh", "-c", "trap '' XFSZ; exec \"$0\" \"$@\""])
        .arg(assert_cmd::cargo::cargo_bin("sealkit"))
        .arg("approve")
        .arg("--token-file")
        .arg(&tokens)
        .arg("--key-file")
        .arg(key_file(dir.path()))
        .arg("--frame")
        .arg(frame_path())
        .args(["--target", TARGET, "--yes", "--format", "json"])
        .output()
        .expect("prlimit (util-linux) is installed");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let error: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["type"], "error", "{error}");
    assert_eq!(error["code"], "token-file-append-rolled-back", "{error}");
    let too_large = std::io::Error::from_raw_os_error(27).to_string();
    assert_eq!(error["causes"], serde_json::json!([too_large]), "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains(&format!("({too_large})")),
        "{error}"
    );
    assert_eq!(std::fs::read_to_string(&tokens).unwrap(), existing);
}

/// `--receipt-key` naming no file: the key error under it (and its I/O error) are causes.
/// Seen red on 1d4d3e5: same code and message, `"causes":[]`.
#[test]
fn a_missing_receipt_key_file_keeps_the_key_error_as_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("receipts")).unwrap();
    let error = json_error(
        dir.path(),
        &["audit", "receipts", "--receipt-key", "no-such.pub"],
    );
    assert_eq!(error["code"], "bad-receipt-key", "{error}");
    let causes = error["causes"].as_array().unwrap();
    assert_eq!(causes.len(), 2, "{error}");
    assert!(
        causes[0].as_str().unwrap().starts_with("no-such.pub: "),
        "{error}"
    );
    assert!(
        causes[1].as_str().unwrap().contains("No such file"),
        "{error}"
    );
}

/// The codes `verify chain` gives when a log or an audit-line file cannot be verified at all
/// (exit 2), each from the reader's own error: a document that is not a sealed log, a value
/// past the per-value cap, and an audit line past the per-line cap. (A repeated member name
/// is a finding, exit 1, not an error.) Seen red under the cargo-mutants mutant `LinesError::code` → `""` (the line case),
/// which the chain tests did not notice.
#[test]
fn a_log_that_cannot_be_verified_names_why_in_its_code() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    };
    write("empty-object.json", b"{}\n");
    let mut huge_value = b"{\"entries\":[\"".to_vec();
    huge_value.resize(huge_value.len() + 17 * 1024 * 1024, b'a');
    huge_value.extend_from_slice(b"\"]}");
    write("huge-value.json", &huge_value);
    let mut huge_line = vec![b'a'; 17 * 1024 * 1024];
    huge_line.push(b'\n');
    write("huge-line.lines", &huge_line);
    for (args, code, message_has) in [
        (
            &["verify", "chain", "empty-object.json"][..],
            "not-a-sealed-log",
            "entries is missing",
        ),
        (
            &["verify", "chain", "huge-value.json"][..],
            "unreadable-file",
            "larger than 16777216 bytes",
        ),
        (
            &["verify", "chain", "--audit-lines", "huge-line.lines"][..],
            "unreadable-file",
            "line 1 is longer than 16777216 bytes",
        ),
    ] {
        let error = json_error(dir.path(), args);
        assert_eq!(error["type"], "error", "{args:?}: {error}");
        assert_eq!(error["code"], code, "{args:?}: {error}");
        assert!(
            error["message"].as_str().unwrap().contains(message_has),
            "{args:?}: {error}"
        );
    }
}

/// A directory given to `verify receipt` is could-not-check with the hint that names the
/// command for a directory, in the JSON error object's `help` and for people. Seen red under
/// the cargo-mutants mutant "delete field help from struct Unreadable expression in
/// Unreadable::with_help" (the hint was dropped; code and exit status unchanged).
#[test]
fn a_directory_given_to_verify_receipt_says_to_audit_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("receipts")).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(dir.path())
        .args(["--format", "json", "verify", "receipt", "receipts"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    // Nothing checked: the document is the empty array, the error on stderr.
    assert_eq!(output.stdout, b"[]\n");
    let error: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["code"], "unreadable-file", "{error}");
    assert_eq!(
        error["help"],
        "verify receipt checks receipt files; for a whole directory run `sealkit audit receipts`"
    );
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(dir.path())
        .args(["verify", "receipt", "receipts"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("sealkit audit receipts"), "{stderr}");
}
