//! `sealkit approve` at a terminal, driven in a pseudo-terminal as a person would: the prompt
//! (renderer version 4 by default, version 1 on request) shows every `_meta` key of the
//! frame, "no" writes nothing, "yes" appends exactly one line.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use expectrl::session::OsSession as Session;
use expectrl::{Eof, Expect};
use sealkit::request::{analyze, Options, Session as EraSession, Verdict};
use std::path::Path;
use std::time::Duration;
use support::*;

const META_KEYS: [&str; 5] = [
    "\"com.example/run\": \"r-1\"",
    "\"io.modelcontextprotocol/clientCapabilities\": {}",
    "\"io.modelcontextprotocol/clientInfo\":",
    "\"io.modelcontextprotocol/protocolVersion\": \"2026-07-28\"",
    "\"traceparent\": \"00-",
];

fn f05() -> (std::path::PathBuf, String) {
    let path = data("legacy-vs-current/frames/F05.frame");
    let frame = std::fs::read(&path).unwrap();
    let call = match analyze(&frame, &Options::default(), &mut EraSession::default()) {
        Verdict::Call(call) => call,
        other => panic!("{other:?}"),
    };
    (path, call.identities().host.target.clone())
}

fn spawn_approve(dir: &Path, extra: &[&str]) -> Session {
    let (frame, target) = f05();
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("sealkit"));
    command
        .args(["approve", "--color", "never", "--token-file"])
        .arg(dir.join("tokens.ndjson"))
        .arg("--key-file")
        .arg(key_file(dir))
        .arg("--frame")
        .arg(frame)
        .args(["--target", &target])
        .args(extra);
    let mut session = Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(30)));
    session
}

/// Reads renderer version 4's screen up to its question.
fn read_prompt(session: &mut Session) {
    let (_, target) = f05();
    session.expect("  valid      120 s").unwrap();
    session.expect("  from       ").unwrap();
    session.expect("  key id     ").unwrap();
    session.expect("_meta: 5 keys, every one shown:").unwrap();
    for key in META_KEYS {
        session.expect(key).unwrap();
    }
    let question = format!(
        "Sign ALLOW for db.execute with no server identity,\r\ntarget {}...{}, valid 120 s? \
         [y/N] ",
        &target[..4],
        &target[60..]
    );
    session.expect(question.as_str()).unwrap();
}

/// Reads renderer version 1's screen and its question.
fn read_prompt_v1(session: &mut Session) {
    session.expect("matches profile host").unwrap();
    session.expect("_meta: present, 5 keys").unwrap();
    for key in META_KEYS {
        session.expect(key).unwrap();
    }
    session
        .expect("Sign an approval for exactly this request? [y/N] ")
        .unwrap();
}

fn exit_status(session: &Session) -> String {
    format!("{:?}", session.get_process().wait().unwrap())
}

/// An answer typed once the question has been on the screen a moment, as a person types it:
/// input that arrives within 200 ms of the question is discarded as typed ahead.
fn answer(session: &mut Session, text: &str) {
    std::thread::sleep(std::time::Duration::from_millis(400));
    session.send_line(text).unwrap();
}

#[test]
fn answering_no_at_the_terminal_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = spawn_approve(dir.path(), &[]);
    read_prompt(&mut session);
    answer(&mut session, "no");
    session
        .expect("Nothing signed: the answer was not yes.")
        .unwrap();
    session.expect(Eof).unwrap();
    assert!(exit_status(&session).ends_with(", 1)"), "exit status 1");
    assert!(!dir.path().join("tokens.ndjson").exists());
}

/// Version 1 stays available (and its records verifiable): its screen, its question, its
/// refusal on "no".
#[test]
fn the_version_1_prompt_still_asks_and_signs() {
    let dir = tempfile::tempdir().unwrap();
    let mut session = spawn_approve(dir.path(), &["--renderer-version", "1"]);
    read_prompt_v1(&mut session);
    answer(&mut session, "no");
    session.expect("not-approved").unwrap();
    session.expect(Eof).unwrap();
    assert!(exit_status(&session).ends_with(", 1)"), "exit status 1");
    assert!(!dir.path().join("tokens.ndjson").exists());

    let (frame, target) = f05();
    let mut session = spawn_approve(dir.path(), &["--renderer-version", "1"]);
    read_prompt_v1(&mut session);
    answer(&mut session, "y");
    // At the terminal's 80 columns the result line wraps after "for".
    session.expect("signed allow for").unwrap();
    session.expect(format!("target={target}").as_str()).unwrap();
    session.expect("sealkit-approve-terminal 1,").unwrap();
    session.expect(Eof).unwrap();
    assert!(exit_status(&session).ends_with(", 0)"), "exit status 0");
    assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval"])
        .arg(dir.path().join("tokens.ndjson"))
        .args(["--pubkey", PUBKEY, "--target", &target, "--frame"])
        .arg(frame)
        .assert()
        .code(0);
}

#[test]
fn answering_yes_at_the_terminal_appends_one_verified_line() {
    let dir = tempfile::tempdir().unwrap();
    let (frame, target) = f05();
    let mut session = spawn_approve(dir.path(), &[]);
    read_prompt(&mut session);
    answer(&mut session, "yes");
    // At the terminal's 80 columns the result line wraps after "for".
    session.expect("signed allow for").unwrap();
    session.expect(format!("target={target}").as_str()).unwrap();
    session.expect("sealkit-approve-terminal 4,").unwrap();
    session.expect(Eof).unwrap();
    assert!(exit_status(&session).ends_with(", 0)"), "exit status 0");
    let tokens = dir.path().join("tokens.ndjson");
    assert_eq!(std::fs::read_to_string(&tokens).unwrap().lines().count(), 1);
    assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval"])
        .arg(&tokens)
        .args(["--pubkey", PUBKEY, "--target", &target, "--frame"])
        .arg(frame)
        .assert()
        .code(0);
}

#[test]
fn an_answer_typed_before_the_request_is_shown_is_discarded() {
    // Seen red without the discard (tcflush before reading the answer): the `y` typed ahead
    // answered the question and a valid token was written, exit 0.
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    let mut session = spawn_approve(dir.path(), &[]);
    // Before the first byte of output: the line waits in the terminal's input queue.
    session.send_line("y").unwrap();
    read_prompt(&mut session);
    // Said, not silently swallowed (issue 38 item 5). Seen red on 5027bf8: its binary, driven in
    // a pty the same way with `--renderer-version 3` (it had no version 4, so this test stops
    // earlier on it), discarded the `y` without a word and left the person waiting.
    session
        .expect("input typed before the question was discarded; answer again [y/N] ")
        .unwrap();
    // The typed-ahead line must not have answered: the question still waits.
    std::thread::sleep(Duration::from_millis(500));
    assert!(!tokens.exists(), "a typed-ahead `y` signed the request");
    answer(&mut session, "n");
    session.expect("Nothing signed").unwrap();
    session.expect(Eof).unwrap();
    assert!(exit_status(&session).ends_with(", 1)"), "exit status 1");
    assert!(!tokens.exists());
}
