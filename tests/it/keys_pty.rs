//! Passphrases at a terminal, in a pseudo-terminal (echo on) as a person types them: keygen
//! asks twice (a mismatch writes nothing), the passphrase is never echoed, even typed the
//! instant its prompt appears; approve shows the request, asks, and only after a yes asks for
//! the passphrase and signs with the decrypted key (a "no" never asks for it).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use expectrl::session::OsSession as Session;
use expectrl::{Eof, Expect};
use std::path::Path;
use std::time::Duration;
use support::*;

const PASSPHRASE: &str = "tired operator 42";

/// sealkit in a pseudo-terminal with echo on, as a person's terminal has it (the pty starts
/// with echo off, under which no test could see a passphrase echoed).
fn spawn(args: &[&str], dir: &Path) -> Session {
    let mut command = std::process::Command::new("sh");
    command
        .args(["-c", "stty echo icanon isig && exec \"$0\" \"$@\""])
        .arg(assert_cmd::cargo::cargo_bin("sealkit"))
        .args(args)
        .current_dir(dir);
    let mut session = Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    session
}

fn exit_status(session: &Session) -> String {
    format!("{:?}", session.get_process().wait().unwrap())
}

/// `approve` of the getting-started frame at the terminal with the encrypted key
/// `keys/approval.key` (from `dir`), appending to `tokens`.
fn approve_encrypted(dir: &Path, tokens: &str) -> Session {
    let frame = frame_path().display().to_string();
    spawn(
        &[
            "approve",
            "--color",
            "never",
            "--token-file",
            tokens,
            "--key-file",
            "keys/approval.key",
            "--frame",
            &frame,
            "--target",
            TARGET,
        ],
        dir,
    )
}

/// An encrypted key in `dir/keys/approval.key` (the seed-0x17 key, under [`PASSPHRASE`]).
fn encrypted_key(dir: &Path) {
    let keys = dir.join("keys");
    std::fs::create_dir(&keys).unwrap();
    let key = key_file(&keys);
    let pass = dir.join("pass");
    std::fs::write(&pass, format!("{PASSPHRASE}\n")).unwrap();
    let protect = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(["key", "protect"])
        .arg(&key)
        .arg("--passphrase-file")
        .arg(&pass)
        .output()
        .unwrap();
    assert_eq!(protect.status.code(), Some(0), "{protect:?}");
}

/// An answer typed once the question has been on the screen a moment, as a person types it:
/// input that arrives within 200 ms of the question is discarded as typed ahead.
fn answer(session: &mut Session, text: &str) {
    std::thread::sleep(std::time::Duration::from_millis(400));
    session.send_line(text).unwrap();
}

#[test]
fn keygen_asks_twice_without_echo_and_approve_decrypts() {
    let dir = tempfile::tempdir().unwrap();
    // Two different entries: nothing written.
    let mut session = spawn(&["keygen", "--out-dir", "keys"], dir.path());
    session
        .expect("New passphrase for keys/approval.key: ")
        .unwrap();
    answer(&mut session, PASSPHRASE);
    session.expect("Same passphrase again: ").unwrap();
    answer(&mut session, "something else");
    let rest = session.expect(Eof).unwrap();
    let text = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    assert!(text.contains("bad-passphrase"), "{text}");
    assert!(!text.contains("something else"), "echoed: {text}");
    let status = exit_status(&session);
    assert!(status.ends_with(", 2)"), "{status}");
    assert!(!dir.path().join("keys").exists());

    let mut session = spawn(&["keygen", "--out-dir", "keys"], dir.path());
    session
        .expect("New passphrase for keys/approval.key: ")
        .unwrap();
    answer(&mut session, PASSPHRASE);
    session.expect("Same passphrase again: ").unwrap();
    answer(&mut session, PASSPHRASE);
    let rest = session.expect(Eof).unwrap();
    let text = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    assert!(!text.contains(PASSPHRASE), "echoed: {text}");
    assert!(text.contains("encrypted with your passphrase"), "{text}");
    assert!(exit_status(&session).ends_with(", 0)"));
    let secret = std::fs::read_to_string(dir.path().join("keys/approval.key")).unwrap();
    assert!(
        secret.starts_with("sealkit-public-key ")
            && secret.contains("\n-----BEGIN AGE ENCRYPTED FILE-----\n")
    );

    // approve shows the request, asks, and only then asks for the passphrase.
    let mut session = approve_encrypted(dir.path(), "t.ndjson");
    let screen = session.expect("[y/N] ").unwrap();
    assert!(
        !String::from_utf8_lossy(screen.before()).contains("Passphrase"),
        "the passphrase was asked before the request was shown"
    );
    answer(&mut session, "y");
    session
        .expect("Passphrase for keys/approval.key: ")
        .unwrap();
    session.send_line(PASSPHRASE).unwrap();
    session.expect(Eof).unwrap();
    assert!(exit_status(&session).ends_with(", 0)"));
    let verified = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args([
            "verify",
            "approval",
            "t.ndjson",
            "--pubkey-file",
            "keys/approval.pub",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(verified.status.code(), Some(0), "{verified:?}");
}

/// Renderer version 2 (the default) at a terminal: the signer (key id, encrypted key file),
/// the validity and the one-line question come first and last; "no" reads as a calm "nothing
/// signed"; "yes" signs a record naming renderer 2 whose shown_sha256 is the SHA-256 of the
/// screen.
#[test]
fn renderer_2_names_the_signer_and_asks_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path());
    let pass = dir.path().join("pass");
    std::fs::write(&pass, format!("{PASSPHRASE}\n")).unwrap();
    let protect = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(["key", "protect"])
        .arg(&key)
        .arg("--passphrase-file")
        .arg(&pass)
        .output()
        .unwrap();
    assert_eq!(protect.status.code(), Some(0), "{protect:?}");
    let frame = frame_path().display().to_string();
    let args = |tokens: &str| {
        vec![
            "approve".to_owned(),
            "--token-file".into(),
            tokens.into(),
            "--key-file".into(),
            "approval.key".into(),
            "--passphrase-file".into(),
            "pass".into(),
            "--frame".into(),
            frame.clone(),
            "--target".into(),
            TARGET.into(),
            "--authorized-at".into(),
            "1786000000000".into(),
            "--now".into(),
            "1786000000500".into(),
            "--renderer-version".into(),
            "2".into(),
        ]
    };
    let no_args = args("no.ndjson");
    let no_args: Vec<&str> = no_args.iter().map(String::as_str).collect();
    let mut session = spawn(&no_args, dir.path());
    session
        .expect(
            format!("  signer     key id {KEY_ID}, passphrase-encrypted key file approval.key")
                .as_str(),
        )
        .unwrap();
    session
        .expect("  valid      120 s: from 2026-08-06 07:06:40 UTC (1786000000000 ms)")
        .unwrap();
    session
        .expect("Sign ALLOW for db.execute on server \"\", target 2a01...c565, valid 120 s? [y/N] ")
        .unwrap();
    answer(&mut session, "n");
    let rest = session.expect(Eof).unwrap();
    let text = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    assert!(
        text.contains("Nothing signed: the answer was not yes."),
        "{text}"
    );
    assert!(!text.contains("×"), "no error styling: {text}");
    assert!(exit_status(&session).ends_with(", 1)"));
    assert!(!dir.path().join("no.ndjson").exists());

    // Scripted (--yes): the record names renderer 2 and commits to the screen it printed.
    let mut yes_args = args("yes.ndjson");
    yes_args.extend(["--yes".to_owned(), "--format".into(), "json".into()]);
    let output = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(&yes_args)
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["renderer"]["version"], "2");
    assert_eq!(
        report["renderer"]["manifest_sha256"],
        "febae31a3ab13cedcc9e1882f1f1af99f7cc367dd8dba0e852cd67d66fe251e0"
    );
    let screen = report["shown"]["text"].as_str().unwrap();
    assert!(screen.ends_with("valid 120 s? [y/N] "), "{screen}");
    assert_eq!(
        report["shown"]["sha256"].as_str().unwrap(),
        sealkit::digest::sha256_hex(screen.as_bytes())
    );
    assert_eq!(report["expiry"], 1786000120000u64);
    let verified = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args([
            "verify",
            "approval",
            "yes.ndjson",
            "--pubkey",
            PUBKEY,
            "--format",
            "jsonl",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(verified.status.code(), Some(0), "{verified:?}");
    let line: serde_json::Value = serde_json::from_str(
        String::from_utf8_lossy(&verified.stdout)
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(line["signed"]["shown"]["sha256"], report["shown"]["sha256"]);
    assert_eq!(line["signed"]["renderer"]["version"], "2");
}

/// Issue 38 item 4: a passphrase typed the instant its prompt appears is read, never shown.
/// Echo is turned off and typed-ahead input discarded before the prompt is drawn, so a
/// person (or a paste) who types as soon as the prompt shows is neither echoed in clear nor
/// silently dropped. Seen red on 5027bf8 (run with the binary built from 5027bf8 in place of target/debug/sealkit), where the prompt was drawn first and echo turned
/// off only after a 200 ms discard: the passphrase appeared on the screen, was discarded,
/// and the prompt waited without a word (this test then timed out waiting for the second
/// prompt).
#[test]
fn a_passphrase_typed_the_instant_the_prompt_appears_is_read_and_not_echoed() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = spawn(&["keygen", "--out-dir", "keys"], dir.path());
    session.set_expect_timeout(Some(Duration::from_secs(15)));
    let first = session
        .expect("New passphrase for keys/approval.key: ")
        .unwrap();
    assert!(
        !String::from_utf8_lossy(first.before()).contains("discarded"),
        "nothing was typed ahead"
    );
    session.send_line(PASSPHRASE).unwrap();
    let between = session.expect("Same passphrase again: ").unwrap();
    let between = String::from_utf8_lossy(between.before()).into_owned();
    assert!(!between.contains(PASSPHRASE), "echoed: {between:?}");
    assert!(!between.contains("discarded"), "{between:?}");
    session.send_line(PASSPHRASE).unwrap();
    let rest = session.expect(Eof).unwrap();
    let text = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    assert!(!text.contains(PASSPHRASE), "echoed: {text}");
    assert!(text.contains("encrypted with your passphrase"), "{text}");
    assert!(exit_status(&session).ends_with(", 0)"));
    // The passphrase typed is the one the key is encrypted under.
    std::fs::write(dir.path().join("pass"), format!("{PASSPHRASE}\n")).unwrap();
    let signed = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(["approve", "--yes", "--token-file", "t.ndjson"])
        .args([
            "--key-file",
            "keys/approval.key",
            "--passphrase-file",
            "pass",
        ])
        .arg("--frame")
        .arg(frame_path())
        .args(["--target", TARGET])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(signed.status.code(), Some(0), "{signed:?}");
}

/// A passphrase typed before its prompt is drawn is discarded, without echo, and the person
/// is told so before the prompt; what is typed after the prompt is the passphrase. The line
/// editing keys work as at a shell prompt (erase, kill-line).
#[test]
fn a_passphrase_typed_before_the_prompt_is_discarded_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = spawn(&["keygen", "--out-dir", "keys"], dir.path());
    session.set_expect_timeout(Some(Duration::from_secs(15)));
    // Before the first byte of output: waits in the terminal's queue (the terminal itself
    // echoes it now, before sealkit runs; that is not sealkit's to prevent).
    session.send("typed ahead").unwrap();
    session
        .expect("input typed before this prompt was discarded; type the passphrase now")
        .unwrap();
    session
        .expect("New passphrase for keys/approval.key: ")
        .unwrap();
    // "wrong" killed with ^U, one character erased with DEL.
    session
        .send(format!("wrong\x15{PASSPHRASE}x\x7f\n"))
        .unwrap();
    session.expect("Same passphrase again: ").unwrap();
    session.send_line(PASSPHRASE).unwrap();
    let rest = session.expect(Eof).unwrap();
    let text = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    assert!(text.contains("encrypted with your passphrase"), "{text}");
    assert!(exit_status(&session).ends_with(", 0)"));
}

/// Ctrl-C at a passphrase prompt stops the command as the signal does, nothing written, and
/// the terminal has its echo back.
#[test]
fn an_interrupt_at_the_passphrase_prompt_restores_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = spawn(&["keygen", "--out-dir", "keys"], dir.path());
    session.set_expect_timeout(Some(Duration::from_secs(15)));
    session
        .expect("New passphrase for keys/approval.key: ")
        .unwrap();
    // Half a passphrase typed a moment after the prompt (echo is off by then), then ^C.
    std::thread::sleep(Duration::from_millis(500));
    session.send("half\x03").unwrap();
    session.expect(Eof).unwrap();
    let status = exit_status(&session);
    if sigint_ignored() {
        // Inherited from a test run started with SIGINT ignored (a background job of a
        // shell without job control): sealkit cannot die of the signal and exits 130.
        assert!(status.ends_with(", 130)"), "{status}");
    } else {
        assert!(status.contains("SIGINT"), "{status}");
    }
    assert!(!dir.path().join("keys").exists());
    // Seen red on 5027bf8, its binary run by this test (the interrupt left echo off) and with the restore before the
    // signal left out.
    let master = session.get_process().get_raw_handle().unwrap();
    let modes = rustix::termios::tcgetattr(&master).unwrap().local_modes;
    use rustix::termios::LocalModes;
    assert!(
        modes.contains(LocalModes::ECHO | LocalModes::ICANON | LocalModes::ISIG),
        "{modes:?}"
    );
}

/// Issue 38 item 5: the approval flow shows the screen, asks, and only then unlocks the key.
/// A person who declines never types the passphrase; one who accepts types it after reading.
/// Seen red on 5027bf8 (run with the binary built from 5027bf8 in place of target/debug/sealkit), which asked for the passphrase before drawing
/// anything (this test timed out waiting for the question).
#[test]
fn declining_never_asks_for_the_passphrase() {
    let dir = tempfile::tempdir().unwrap();
    encrypted_key(dir.path());
    let mut session = approve_encrypted(dir.path(), "no.ndjson");
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    let screen = session.expect("[y/N] ").unwrap();
    let screen = String::from_utf8_lossy(screen.before()).into_owned();
    assert!(!screen.contains("Passphrase"), "{screen}");
    // The screen names the key it will sign with, read without the passphrase.
    assert!(screen.contains(KEY_ID), "{screen}");
    assert!(
        screen.contains("passphrase-encrypted key file keys/approval.key"),
        "{screen}"
    );
    answer(&mut session, "n");
    let rest = session.expect(Eof).unwrap();
    let rest = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    assert!(rest.contains("Nothing signed"), "{rest}");
    assert!(!rest.contains("Passphrase"), "{rest}");
    assert!(exit_status(&session).ends_with(", 1)"));
    assert!(!dir.path().join("no.ndjson").exists());

    // A yes, then a wrong passphrase: asked again (three tries), then signed.
    let mut session = approve_encrypted(dir.path(), "yes.ndjson");
    session.set_expect_timeout(Some(Duration::from_secs(20)));
    session.expect("[y/N] ").unwrap();
    answer(&mut session, "y");
    session
        .expect("Passphrase for keys/approval.key: ")
        .unwrap();
    session.send_line("not it").unwrap();
    session
        .expect("That passphrase does not decrypt keys/approval.key; try again (2 of 3).")
        .unwrap();
    session
        .expect("Passphrase for keys/approval.key: ")
        .unwrap();
    session.send_line(PASSPHRASE).unwrap();
    let rest = session.expect(Eof).unwrap();
    let rest = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    assert!(rest.contains("signed allow"), "{rest}");
    assert!(exit_status(&session).ends_with(", 0)"));
    let verified = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval", "yes.ndjson", "--pubkey", PUBKEY])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(verified.status.code(), Some(0), "{verified:?}");
}

/// Whether this process ignores SIGINT (`SigIgn` in /proc/self/status), which its children
/// inherit.
fn sigint_ignored() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    (status.lines())
        .find_map(|line| line.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (2 - 1)) != 0)
}
