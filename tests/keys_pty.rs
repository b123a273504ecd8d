//! Passphrases at a terminal, in a pseudo-terminal as a person types them: keygen asks twice
//! (a mismatch writes nothing), the passphrase is not echoed, and approve asks for it before
//! showing the request and signs with the decrypted key.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use expectrl::session::OsSession as Session;
use expectrl::{Eof, Expect};
use std::path::Path;
use std::time::Duration;
use support::*;

const PASSPHRASE: &str = "tired operator 42";

fn spawn(args: &[&str], dir: &Path) -> Session {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("sealkit"));
    command.args(args).current_dir(dir);
    let mut session = Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    session
}

fn exit_status(session: &Session) -> String {
    format!("{:?}", session.get_process().wait().unwrap())
}

#[test]
fn keygen_asks_twice_without_echo_and_approve_decrypts() {
    let dir = tempfile::tempdir().unwrap();
    // Two different entries: nothing written.
    let mut session = spawn(&["keygen", "--out-dir", "keys"], dir.path());
    session
        .expect("New passphrase for keys/approval.key: ")
        .unwrap();
    session.send_line(PASSPHRASE).unwrap();
    session.expect("Same passphrase again: ").unwrap();
    session.send_line("something else").unwrap();
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
    session.send_line(PASSPHRASE).unwrap();
    session.expect("Same passphrase again: ").unwrap();
    session.send_line(PASSPHRASE).unwrap();
    let rest = session.expect(Eof).unwrap();
    let text = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    assert!(!text.contains(PASSPHRASE), "echoed: {text}");
    assert!(text.contains("encrypted with your passphrase"), "{text}");
    assert!(exit_status(&session).ends_with(", 0)"));
    let secret = std::fs::read_to_string(dir.path().join("keys/approval.key")).unwrap();
    assert!(secret.starts_with("-----BEGIN AGE ENCRYPTED FILE-----"));

    // approve asks for the passphrase first, then shows the request.
    let frame = frame_path().display().to_string();
    let mut session = spawn(
        &[
            "approve",
            "--color",
            "never",
            "--token-file",
            "t.ndjson",
            "--key-file",
            "keys/approval.key",
            "--frame",
            &frame,
            "--target",
            TARGET,
        ],
        dir.path(),
    );
    session
        .expect("Passphrase for keys/approval.key: ")
        .unwrap();
    session.send_line(PASSPHRASE).unwrap();
    session.expect("[y/N] ").unwrap();
    session.send_line("y").unwrap();
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
