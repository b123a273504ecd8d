//! `sealkit keygen` and `sealkit approve` through the real binary (scripted with `--yes`;
//! the terminal flow is in approval_pty.rs): what is signed verifies and is bound to the
//! frame, declines use seal-host's format, wrong targets and refused frames sign nothing,
//! concurrent approvals all land intact, and secret keys never come from arguments.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use serde_json::Value;
use std::path::Path;
use support::*;

fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

fn approve(dir: &Path, extra: &[&str]) -> Command {
    let mut command = sealkit();
    command
        .arg("approve")
        .arg("--token-file")
        .arg(dir.join("tokens.ndjson"))
        .arg("--key-file")
        .arg(key_file(dir))
        .args(extra);
    command
}

fn verify_jsonl(tokens: &Path, extra: &[&str]) -> (i32, Vec<Value>) {
    let output = sealkit()
        .args(["verify", "approval"])
        .arg(tokens)
        .args(["--pubkey", PUBKEY, "--format", "jsonl"])
        .args(extra)
        .output()
        .unwrap();
    let records = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (output.status.code().unwrap(), records)
}

#[test]
fn approve_from_frame_and_target_signs_a_bound_token() {
    let dir = tempfile::tempdir().unwrap();
    let frame = frame_path().display().to_string();
    let output = approve(
        dir.path(),
        &[
            "--frame",
            &frame,
            "--target",
            TARGET,
            "--yes",
            "--nonce",
            "n-1",
            "--authorized-at",
            "1786000000000",
            "--now",
            "1786000000500",
            "--session",
            "s-1",
            "--approver",
            "alice",
            "--renderer-version",
            "1",
        ],
    )
    .output()
    .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains(&format!("signed allow for target={TARGET}\n")),
        "{stdout}"
    );
    assert!(stdout.contains("matches profile committed"), "{stdout}");
    assert!(stdout.contains("matches profile host"), "{stdout}");
    let tokens = dir.path().join("tokens.ndjson");
    let text = std::fs::read_to_string(&tokens).unwrap();
    assert_eq!(text.lines().count(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&tokens).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
    let (code, records) = verify_jsonl(
        &tokens,
        &[
            "--frame",
            &frame,
            "--target",
            TARGET,
            "--now",
            "1786000001000",
        ],
    );
    assert_eq!(code, 0);
    let signed = &records[0]["signed"];
    assert_eq!(signed["approver"], "alice");
    assert_eq!(signed["nonce"], "n-1");
    assert_eq!(signed["expiry"], 1786000120000u64);
    assert_eq!(signed["renderer"]["name"], "sealkit-approve-terminal");
    assert_eq!(signed["renderer"]["version"], "1");
    assert_eq!(
        signed["renderer"]["manifest_sha256"],
        "4f00766d867014ce487c1575469e494d7d955ba044c422d5886e4660a6be9a6a"
    );
    // The shown text printed with --yes is exactly what shown_sha256 commits to.
    let shown_end = stdout.find("signed allow for").unwrap();
    let shown = &stdout.as_bytes()[..shown_end];
    assert_eq!(signed["shown"]["length"], shown.len() as u64);
    assert_eq!(
        signed["shown"]["sha256"],
        sealkit::digest::sha256_hex(shown)
    );
}

/// The default screen is renderer version 4; with --yes its closing question is answered
/// on the same line, and shown_sha256 commits to the screen exactly as printed before that
/// answer.
#[test]
fn approve_defaults_to_renderer_4_and_yes_answers_its_question() {
    let dir = tempfile::tempdir().unwrap();
    let frame = frame_path().display().to_string();
    let output = approve(
        dir.path(),
        &[
            "--frame",
            &frame,
            "--target",
            TARGET,
            "--yes",
            "--authorized-at",
            "1786000000000",
            "--now",
            "1786000000500",
        ],
    )
    .output()
    .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let question = "Sign ALLOW for db.execute with no server identity,\n\
                    target 2a01...c565, valid 120 s? [y/N] ";
    let answered = format!("{question}yes (--yes)\nsigned allow for target={TARGET}\n");
    let shown_end = stdout.find(&answered).expect(&stdout) + question.len();
    let shown = &stdout.as_bytes()[..shown_end];
    // Standard output is a pipe: the screen is drawn at the default 80 columns.
    assert!(stdout.starts_with("Seal approval request (sealkit-approve-terminal 4, 80 columns)\n"));
    let (code, records) = verify_jsonl(
        &dir.path().join("tokens.ndjson"),
        &[
            "--frame",
            &frame,
            "--target",
            TARGET,
            "--now",
            "1786000001000",
        ],
    );
    assert_eq!(code, 0);
    let signed = &records[0]["signed"];
    assert_eq!(signed["renderer"]["version"], "4");
    assert_eq!(signed["shown"]["length"], shown.len() as u64);
    assert_eq!(
        signed["shown"]["sha256"],
        sealkit::digest::sha256_hex(shown)
    );
}

#[test]
fn approve_from_the_hosts_refusal_line_reports_json() {
    let dir = tempfile::tempdir().unwrap();
    let frame = std::fs::read(frame_path()).unwrap();
    let refusal = dir.path().join("refusal.json");
    std::fs::write(
        &refusal,
        sealkit::host_refusal::render("1", TARGET, &frame) + "\n",
    )
    .unwrap();
    let output = approve(
        dir.path(),
        &[
            "--refusal",
            refusal.to_str().unwrap(),
            "--yes",
            "--ttl",
            "60",
            "--format",
            "json",
        ],
    )
    .output()
    .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["status"], "signed");
    assert_eq!(report["decision"], "allow");
    assert_eq!(report["profiles"], serde_json::json!(["committed", "host"]));
    assert_eq!(report["subject"]["length"], 139);
    assert_eq!(
        report["expiry"].as_u64().unwrap() - report["authorized_at"].as_u64().unwrap(),
        60_000
    );
    let line = std::fs::read_to_string(dir.path().join("tokens.ndjson")).unwrap();
    assert_eq!(
        line,
        format!("{}\n", report["token_line"].as_str().unwrap())
    );
    assert_eq!(
        report["shown"]["sha256"],
        sealkit::digest::sha256_hex(report["shown"]["text"].as_str().unwrap().as_bytes())
    );
}

#[test]
fn deny_writes_seal_hosts_signed_decline() {
    let dir = tempfile::tempdir().unwrap();
    let frame = frame_path().display().to_string();
    approve(
        dir.path(),
        &[
            "--frame",
            &frame,
            "--target",
            TARGET,
            "--yes",
            "--deny",
            "--nonce",
            "d-1",
            "--authorized-at",
            "1786000000000",
        ],
    )
    .assert()
    .code(0)
    .stdout(predicates::str::contains(format!(
        "signed deny for target={TARGET}"
    )));
    let tokens = dir.path().join("tokens.ndjson");
    let line = std::fs::read_to_string(&tokens).unwrap();
    let expected_payload = format!(
        "{{\\\"target\\\":\\\"{TARGET}\\\",\\\"issuedAt\\\":1786000000000,\\\"nonce\\\":\\\"d-1\\\",\\\"decision\\\":\\\"deny\\\"}}"
    );
    assert!(
        line.starts_with(&format!(
            "{{\"payload\":\"{expected_payload}\",\"signature\":\""
        )),
        "{line}"
    );
    let (code, records) = verify_jsonl(&tokens, &["--target", TARGET]);
    assert_eq!(code, 0);
    assert_eq!(records[0]["kind"], "signed-decline");
}

#[test]
fn a_target_matching_no_profile_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let frame = frame_path().display().to_string();
    let other = "1".repeat(64);
    approve(
        dir.path(),
        &["--frame", &frame, "--target", &other, "--yes"],
    )
    .assert()
    .code(1)
    .stderr(predicates::str::contains("target-matches-no-profile"));
    // With a server identity the host target changes too: the plain target no longer matches.
    approve(
        dir.path(),
        &[
            "--frame", &frame, "--target", TARGET, "--yes", "--server", "prod-db",
        ],
    )
    .assert()
    .code(1);
    assert!(!dir.path().join("tokens.ndjson").exists());
}

#[test]
fn the_legacy_target_of_a_frame_is_recognised() {
    let dir = tempfile::tempdir().unwrap();
    let frame = data("legacy-vs-current/frames/F02.frame")
        .display()
        .to_string();
    let legacy = "58309503cc30803da92ad66ba02f9b3e182d6513fad532dea18d37d3f25eb39d";
    let output = approve(
        dir.path(),
        &[
            "--frame", &frame, "--target", legacy, "--yes", "--format", "jsonl",
        ],
    )
    .output()
    .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["profiles"], serde_json::json!(["legacy"]));
}

#[test]
fn frames_sealkit_refuses_or_that_are_not_one_frame_are_not_signed() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.frame");
    std::fs::write(&bad, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"name\":\"y\"}}\n").unwrap();
    approve(
        dir.path(),
        &[
            "--frame",
            bad.to_str().unwrap(),
            "--target",
            TARGET,
            "--yes",
        ],
    )
    .assert()
    .code(1)
    .stderr(predicates::str::contains("duplicate-key"));
    let unterminated = dir.path().join("unterminated.frame");
    let frame = std::fs::read(frame_path()).unwrap();
    std::fs::write(&unterminated, &frame[..frame.len() - 1]).unwrap();
    approve(
        dir.path(),
        &[
            "--frame",
            unterminated.to_str().unwrap(),
            "--target",
            TARGET,
            "--yes",
        ],
    )
    .assert()
    .code(2)
    .stderr(predicates::str::contains("frame-unterminated"));
    let refusal = dir.path().join("budget.json");
    std::fs::write(
        &refusal,
        sealkit::host_refusal::render("1", "over budget db-calls (2+1>2): db.execute", &frame),
    )
    .unwrap();
    approve(
        dir.path(),
        &["--refusal", refusal.to_str().unwrap(), "--yes"],
    )
    .assert()
    .code(2)
    .stderr(predicates::str::contains(
        "refusal-not-an-approval-challenge",
    ));
    assert!(!dir.path().join("tokens.ndjson").exists());
}

#[cfg(unix)]
#[test]
fn without_a_terminal_nothing_is_signed_unless_yes() {
    let dir = tempfile::tempdir().unwrap();
    let frame = frame_path().display().to_string();
    let bin = assert_cmd::cargo::cargo_bin("sealkit");
    // setsid: a new session has no controlling terminal, as under CI or cron.
    let status = std::process::Command::new("setsid")
        .arg("--wait")
        .arg(&bin)
        .args(["approve", "--token-file"])
        .arg(dir.path().join("tokens.ndjson"))
        .arg("--key-file")
        .arg(key_file(dir.path()))
        .args(["--frame", &frame, "--target", TARGET])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("setsid (util-linux) is installed");
    assert_eq!(status.code(), Some(2));
    assert!(!dir.path().join("tokens.ndjson").exists());
}

#[test]
fn concurrent_approvals_on_one_token_file_all_land_intact() {
    let dir = tempfile::tempdir().unwrap();
    let frame = frame_path().display().to_string();
    let tokens = dir.path().join("tokens.ndjson");
    let key = key_file(dir.path());
    let bin = assert_cmd::cargo::cargo_bin("sealkit");
    let children: Vec<_> = (0..8)
        .map(|i| {
            std::process::Command::new(&bin)
                .args(["approve", "--yes", "--format", "jsonl", "--token-file"])
                .arg(&tokens)
                .arg("--key-file")
                .arg(&key)
                .args([
                    "--frame",
                    &frame,
                    "--target",
                    TARGET,
                    "--nonce",
                    &format!("concurrent-{i}"),
                ])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let text = std::fs::read_to_string(&tokens).unwrap();
    assert_eq!(text.lines().count(), 8);
    assert!(text.ends_with('\n'));
    let (code, records) = verify_jsonl(&tokens, &["--frame", &frame]);
    assert_eq!(code, 0);
    let mut nonces: Vec<String> = records[..8]
        .iter()
        .map(|r| r["signed"]["nonce"].as_str().unwrap().to_owned())
        .collect();
    nonces.sort();
    let expected: Vec<String> = (0..8).map(|i| format!("concurrent-{i}")).collect();
    assert_eq!(nonces, expected);
}

#[test]
fn approve_appends_and_never_rewrites_earlier_lines() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    // An earlier token whose line the last writer left without its LF.
    let earlier = fixture_line();
    std::fs::write(&tokens, &earlier).unwrap();
    let frame = frame_path().display().to_string();
    approve(
        dir.path(),
        &["--frame", &frame, "--target", TARGET, "--yes"],
    )
    .assert()
    .code(0)
    .stdout(predicates::str::contains("one was added first"));
    let text = std::fs::read_to_string(&tokens).unwrap();
    assert!(
        text.starts_with(&format!("{earlier}\n{{\"payload\":")),
        "{text}"
    );
    assert_eq!(text.lines().count(), 2);
}

#[test]
fn keygen_writes_seal_host_key_files_and_refuses_to_overwrite() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("keys");
    let output = sealkit()
        .args(["keygen", "--unencrypted", "--format", "json", "--out-dir"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let public = report["public_key"].as_str().unwrap();
    assert_eq!(
        std::fs::read_to_string(out.join("approval.pub")).unwrap(),
        format!("{public}\n")
    );
    let secret = std::fs::read_to_string(out.join("approval.key")).unwrap();
    assert_eq!(secret.len(), 65);
    let pub_bytes = sealkit::digest::hex_decode(public).unwrap();
    assert_eq!(report["key_id"], sealkit::digest::sha256_hex(&pub_bytes));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&out), 0o700);
        assert_eq!(mode(&out.join("approval.key")), 0o600);
    }
    sealkit()
        .args(["keygen", "--unencrypted", "--out-dir"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("key-file-exists"));
    assert_eq!(
        std::fs::read_to_string(out.join("approval.key")).unwrap(),
        secret
    );
    // The new key signs tokens that verify under its public key.
    let frame = frame_path().display().to_string();
    sealkit()
        .args(["approve", "--yes", "--token-file"])
        .arg(dir.path().join("t.ndjson"))
        .env("SEALKIT_APPROVAL_KEY_FILE", out.join("approval.key"))
        .args(["--frame", &frame, "--target", TARGET])
        .assert()
        .code(0);
    sealkit()
        .args(["verify", "approval"])
        .arg(dir.path().join("t.ndjson"))
        .arg("--pubkey-file")
        .arg(out.join("approval.pub"))
        .assert()
        .code(0);
}

#[test]
fn secret_keys_come_only_from_private_files() {
    let dir = tempfile::tempdir().unwrap();
    let frame = frame_path().display().to_string();
    // There is no flag that takes a key value.
    sealkit()
        .args([
            "approve",
            "--token-file",
            "t",
            "--key",
            SEED_HEX,
            "--frame",
            &frame,
            "--target",
            TARGET,
        ])
        .assert()
        .code(2);
    // No key file at all.
    sealkit()
        .args(["approve", "--yes", "--token-file"])
        .arg(dir.path().join("t.ndjson"))
        .args(["--frame", &frame, "--target", TARGET])
        .env_remove("SEALKIT_APPROVAL_KEY_FILE")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no-key-file"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let key = key_file(dir.path());
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        sealkit()
            .args(["approve", "--yes", "--token-file"])
            .arg(dir.path().join("t.ndjson"))
            .arg("--key-file")
            .arg(&key)
            .args(["--frame", &frame, "--target", TARGET])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("key-file-permissions"));
    }
    assert!(!dir.path().join("t.ndjson").exists());
}
