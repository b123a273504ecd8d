//! What `sealkit approve` refuses before it signs, through the real binary: a nonce the token
//! file already reserves, a token file that is not a regular file, an approval already expired
//! at signing time; a TTL over the host's cap is warned about; an append that runs out of
//! space is cut back to the file's original length. Each was seen failing on the code before
//! these checks (noted per test).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use predicates::str::contains;
use std::path::Path;
use support::*;

fn approve(dir: &Path, tokens: &Path, extra: &[&str]) -> Command {
    let mut command = Command::cargo_bin("sealkit").unwrap();
    command
        .arg("approve")
        .arg("--token-file")
        .arg(tokens)
        .arg("--key-file")
        .arg(key_file(dir))
        .args(["--frame"])
        .arg(frame_path())
        .args(["--target", TARGET, "--yes"])
        .args(extra);
    command
}

/// Runs with `--format json` and returns the exit status and the refusal (or report) record;
/// human diagnostics wrap their lines, JSON keeps each message whole.
fn run_json(mut command: Command) -> (i32, serde_json::Value) {
    let output = command.args(["--format", "json"]).output().unwrap();
    let record = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&output.stderr));
    });
    (output.status.code().unwrap(), record)
}

#[test]
fn a_nonce_the_token_file_already_reserves_is_refused_before_signing() {
    // Seen red before the check: the second approval printed "signed … appended", exit 0.
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    approve(dir.path(), &tokens, &["--nonce", "n-1"])
        .assert()
        .code(0);
    let before = std::fs::read(&tokens).unwrap();
    // The fix is in `help`, not in the message.
    approve(dir.path(), &tokens, &["--nonce", "n-1"])
        .assert()
        .code(1)
        .stderr(contains("nonce-reserved"))
        .stderr(contains("help: choose another --nonce"));
    let (code, refusal) = run_json(approve(dir.path(), &tokens, &["--nonce", "n-1"]));
    assert_eq!(code, 1);
    assert_eq!(refusal["status"], "refused");
    assert_eq!(refusal["code"], "nonce-reserved");
    assert!(refusal["message"]
        .as_str()
        .unwrap()
        .contains("line 1 already holds an approval with nonce \"n-1\" under this key"));
    assert_eq!(std::fs::read(&tokens).unwrap(), before, "nothing appended");
    // A decline's nonce is never reserved by the host, and a decline may reuse one: both sign.
    approve(dir.path(), &tokens, &["--nonce", "n-1", "--deny"])
        .assert()
        .code(0);
    approve(dir.path(), &tokens, &["--nonce", "d-2", "--deny"])
        .assert()
        .code(0);
    approve(dir.path(), &tokens, &["--nonce", "d-2"])
        .assert()
        .code(0);
    assert_eq!(std::fs::read_to_string(&tokens).unwrap().lines().count(), 4);
}

#[test]
fn a_nonce_only_an_unverified_line_carries_is_not_reserved() {
    // A line that fails the token checks (here: signed by another key) reserves nothing.
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    let foreign =
        edited_v2_line(|payload| payload["nonce"] = "n-9".into()).replace(KEY_ID, &"0".repeat(64));
    std::fs::write(&tokens, format!("{foreign}\n")).unwrap();
    approve(dir.path(), &tokens, &["--nonce", "n-9"])
        .assert()
        .code(0);
    // The same nonce in a line that verifies under the key is reserved.
    let own = edited_v2_line(|payload| payload["nonce"] = "n-8".into());
    std::fs::write(&tokens, format!("{own}\n")).unwrap();
    approve(dir.path(), &tokens, &["--nonce", "n-8"])
        .assert()
        .code(1)
        .stderr(contains("nonce-reserved"));
}

#[cfg(unix)]
#[test]
fn a_token_file_that_is_not_a_regular_file_is_refused_before_signing() {
    // Seen red before the check: a FIFO or /dev/null took the line, then fsync failed and the
    // exit status was 2 ("could not run") although a reader could hold a valid token.
    // Issue 24 item 10: refused before signing, as an unusable input: exit 2 with the code
    // (seen red on 0c6405b: exit 1, which docs/exit-status.md keeps for checked problems).
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("tokens.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for (path, kind) in [
        (fifo.as_path(), "a FIFO"),
        (Path::new("/dev/null"), "a character device"),
        (dir.path(), "a directory"),
    ] {
        approve(dir.path(), path, &[])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("token-file-not-regular"));
        let output = approve(dir.path(), path, &[])
            .args(["--format", "json"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let error: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
        assert_eq!(error["type"], "error");
        assert_eq!(error["code"], "token-file-not-regular");
        let message = error["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("the token file is {kind}, not a regular file")),
            "{message}"
        );
    }
    // A symbolic link to a regular file is that file.
    let real = dir.path().join("real.ndjson");
    std::fs::write(&real, "").unwrap();
    let link = dir.path().join("link.ndjson");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    approve(dir.path(), &link, &[]).assert().code(0);
    assert_eq!(std::fs::read_to_string(&real).unwrap().lines().count(), 1);
}

#[test]
fn an_approval_already_expired_at_signing_is_refused() {
    // Seen red before the check: `--authorized-at 0` signed a token that expired in 1970.
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    approve(dir.path(), &tokens, &["--authorized-at", "0"])
        .assert()
        .code(1)
        .stderr(contains("approval-expired-at-signing"));
    let (code, refusal) = run_json(approve(dir.path(), &tokens, &["--authorized-at", "0"]));
    assert_eq!(
        (code, &refusal["code"]),
        (1, &"approval-expired-at-signing".into())
    );
    let message = refusal["message"].as_str().unwrap();
    assert!(
        message
            .contains("its expiry 1970-01-01 00:02:00 UTC (120000 ms) is before the signing time"),
        "{message}"
    );
    // Past its expiry at the given signing time, or older than the longest TTL (300 s).
    for (args, why) in [
        (
            [
                "--now",
                "1786000000000",
                "--expiry",
                "1785999999999",
                "--authorized-at",
                "1785999990000",
            ],
            "its expiry 2026-08-06 07:06:39 UTC (1785999999999 ms) is before the signing time 2026-08-06 07:06:40 UTC (1786000000000 ms)",
        ),
        (
            [
                "--now",
                "1786000300001",
                "--expiry",
                "1786000900000",
                "--authorized-at",
                "1786000000000",
            ],
            "authorized_at 2026-08-06 07:06:40 UTC (1786000000000 ms) is more than the host's longest TTL (300 s) before",
        ),
    ] {
        let (code, refusal) = run_json(approve(dir.path(), &tokens, &args));
        assert_eq!(
            (code, &refusal["code"]),
            (1, &"approval-expired-at-signing".into())
        );
        let message = refusal["message"].as_str().unwrap();
        assert!(message.contains(why), "{message}");
    }
    assert!(!tokens.exists());
    // At the edges it still signs: expiry equal to the signing time, 300 s old exactly.
    approve(
        dir.path(),
        &tokens,
        &[
            "--now",
            "1786000300000",
            "--expiry",
            "1786000300000",
            "--authorized-at",
            "1786000000000",
        ],
    )
    .assert()
    .code(0);
    // A decline has no expiry: an old issuedAt is what the person chose.
    approve(dir.path(), &tokens, &["--authorized-at", "0", "--deny"])
        .assert()
        .code(0);
}

#[test]
fn a_lifetime_over_the_hosts_ttl_cap_is_warned_about() {
    // Seen red before the warning: `--ttl 100000` signed without a word on stderr.
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    approve(dir.path(), &tokens, &["--ttl", "100000"])
        .assert()
        .code(0)
        .stderr(contains(
            "warning [ttl-over-host-cap]: the approval's lifetime is 100000000 ms, over the 300 s",
        ));
    let output = approve(dir.path(), &tokens, &["--ttl", "301", "--format", "jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let warning: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(warning["code"], "ttl-over-host-cap");
    // At the cap: no warning.
    approve(dir.path(), &tokens, &["--ttl", "300"])
        .assert()
        .code(0)
        .stderr("");
}

#[cfg(target_os = "linux")]
#[test]
fn an_append_that_runs_out_of_space_is_cut_back() {
    // Seen red before the cut-back: the file kept the first bytes of the token line (an
    // unterminated fragment at its end) and the message did not say so.
    // The file-size limit stands in for a full disk: the write stops part-way with EFBIG
    // (SIGXFSZ ignored by the shell, inherited across exec).
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    let existing = format!("{}\n", fixture_line());
    std::fs::write(&tokens, &existing).unwrap();
    let limit = existing.len() + 10;
    let bin = assert_cmd::cargo::cargo_bin("sealkit");
    let output = std::process::Command::new("prlimit")
        .arg(format!("--fsize={limit}"))
        .args(["--", "sh", "-c", "trap '' XFSZ; exec \"$0\" \"$@\""])
        .arg(&bin)
        .arg("approve")
        .arg("--token-file")
        .arg(&tokens)
        .arg("--key-file")
        .arg(key_file(dir.path()))
        .arg("--frame")
        .arg(frame_path())
        .args(["--target", TARGET, "--yes"])
        .output()
        .expect("prlimit (util-linux) is installed");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("token-file-append-rolled-back"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the token file was cut back to its original {} bytes",
            existing.len()
        )),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&tokens).unwrap(), existing);
}

/// A token file that is text but holds no token record (a sealed log, a receipt, notes given
/// by mistake) is refused before signing, exit 2 with `not-a-token-file`, and left as it was;
/// one with a token record after such lines is a token file and takes the new line. Seen red
/// (session 11) under the cargo-mutants survivor `lines += 1` → `*= 1` in
/// `tokenfile::check_is_token_file`: the line count stayed 0, the file was taken for an empty
/// token file, and the approval was appended to it with exit 0.
#[test]
fn a_text_file_without_a_token_record_is_refused_as_the_token_file() {
    let dir = tempfile::tempdir().unwrap();
    for (text, lines) in [
        (
            "{\"schema\":\"not a token\"}\n",
            "none of its 1 line is a token record",
        ),
        (
            "first note\n{\"payload_sha256\":\"x\"}\nlast note\n",
            "none of its 3 lines is a token record",
        ),
    ] {
        let tokens = dir.path().join("notes.ndjson");
        std::fs::write(&tokens, text).unwrap();
        approve(dir.path(), &tokens, &[])
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains("not-a-token-file"));
        let output = approve(dir.path(), &tokens, &["--format", "json"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let error: serde_json::Value = serde_json::from_slice(&output.stderr).unwrap();
        assert_eq!(error["code"], "not-a-token-file");
        let message = error["message"].as_str().unwrap();
        assert!(message.contains(lines), "{message}");
        assert_eq!(
            std::fs::read_to_string(&tokens).unwrap(),
            text,
            "nothing appended"
        );
    }
    // The same lines before a token record: a token file, and the approval is appended.
    let tokens = dir.path().join("tokens.ndjson");
    let text = format!("first note\n{}\n", fixture_line());
    std::fs::write(&tokens, &text).unwrap();
    approve(dir.path(), &tokens, &[]).assert().code(0);
    assert_eq!(std::fs::read_to_string(&tokens).unwrap().lines().count(), 3);
}
