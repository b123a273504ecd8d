//! What the approval screen of renderer version 3 shows, and that it fits the terminal: every
//! value the signed record vouches for is on the screen the person saw; at 80 and 120 columns
//! (an approval and a decline, in a pseudo-terminal as a person answers) no line is wider than
//! the terminal; a window that passed while the person read is said in words and drawn again
//! only when asked, and the record signed then carries the window shown last.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::*;
use expectrl::session::OsSession as Session;
use expectrl::{Eof, Expect};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// `sealkit ARGS…` in a pseudo-terminal `columns` wide (set before sealkit starts).
pub fn spawn_at(columns: u16, dir: &Path, args: &[String]) -> Session {
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        // sealkit starts only once the pty has the size the test sets below. The size is set
        // from this side, after the spawn: ptyprocess sets its default 80x24 on the master
        // once the child runs, which undid a size the child set itself whenever it came late
        // (a loaded run drew the screen at 80 columns in the 120-column case).
        .arg(format!(
            "for _ in $(seq 100); do [ \"$(stty size)\" = \"500 {columns}\" ] && \
             exec \"$0\" \"$@\"; sleep 0.1; done; \
             echo 'the pty did not take the size' >&2; exit 99"
        ))
        .arg(assert_cmd::cargo::cargo_bin("sealkit"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1");
    let mut session = Session::spawn(command).unwrap();
    session
        .get_process_mut()
        .set_window_size(columns, 500)
        .unwrap();
    session.set_expect_timeout(Some(Duration::from_secs(60)));
    session
}

/// The lines wider than `columns` in what a terminal showed (CR LF line ends). The pty does
/// not echo the answer typed after a question, so what follows it starts a line of its own.
/// A line redrawn in place (a progress bar: CR, escape sequences) counts as its last drawing.
pub fn too_wide(shown: &[u8], columns: usize) -> Vec<String> {
    String::from_utf8_lossy(shown)
        .replace("[y/N] ", "[y/N] \n")
        .split('\n')
        .map(|l| visible(l.trim_end_matches('\r')))
        .filter(|l| l.chars().count() > columns)
        .collect()
}

/// What stays of a line on the screen: the text after its last CR, without escape sequences.
fn visible(line: &str) -> String {
    let last = line.rsplit('\r').next().unwrap_or("");
    let mut out = String::new();
    let mut chars = last.chars();
    while let Some(ch) = chars.next() {
        if ch == '\u{1b}' {
            // CSI: ESC [ parameters, then one final byte in @..~.
            if chars.next() == Some('[') {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(ch);
    }
    out
}

fn approve_args(dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "approve",
        "--color",
        "never",
        "--token-file",
        "tokens.ndjson",
    ]
    .map(str::to_owned)
    .to_vec();
    args.extend(["--key-file".to_owned(), key_file(dir).display().to_string()]);
    args.extend(["--frame".to_owned(), frame_path().display().to_string()]);
    args.extend(["--target".to_owned(), TARGET.to_owned()]);
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

/// An answer typed once the question has been on the screen a moment (input within 200 ms of
/// the question is discarded as typed ahead).
fn answer(session: &mut Session, text: &str) {
    std::thread::sleep(Duration::from_millis(400));
    session.send_line(text).unwrap();
}

#[test]
fn the_screen_and_the_result_fit_80_and_120_columns() {
    for columns in [80u16, 120] {
        for decision in [&[][..], &["--deny"][..]] {
            let dir = tempfile::tempdir().unwrap();
            let mut extra = vec!["--approver", "alice-oncall", "--session", "inc-4711"];
            extra.extend_from_slice(decision);
            let mut session = spawn_at(columns, dir.path(), &approve_args(dir.path(), &extra));
            let screen = session.expect("[y/N] ").unwrap();
            let mut shown = screen.before().to_vec();
            shown.extend_from_slice(screen.get(0).unwrap());
            answer(&mut session, "y");
            let rest = session.expect(Eof).unwrap();
            shown.extend_from_slice(rest.as_bytes());
            let text = String::from_utf8_lossy(&shown).into_owned();
            assert!(
                text.contains(&format!("(sealkit-approve-terminal 4, {columns} columns)")),
                "{text}"
            );
            assert!(text.contains("signed "), "{text}");
            // Seen red with the renderer's cutting pass removed (the frame line ran past).
            assert_eq!(
                too_wide(&shown, usize::from(columns)),
                Vec::<String>::new(),
                "{text}"
            );
        }
    }
}

/// Every member of the payload `approve` signed appears on the screen it showed, except the
/// digests and descriptions of the screen itself. Seen red with the approver line left out
/// of the screen.
#[test]
fn every_signed_field_is_on_the_screen_that_was_shown() {
    let dir = tempfile::tempdir().unwrap();
    let output = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(dir.path())
        .args(approve_args(dir.path(), &["--yes", "--format", "json"]))
        .args(["--approver", "alice-oncall", "--session", "inc-4711"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let screen = report["shown"]["text"].as_str().unwrap();
    // A value cut to fit is joined again (the `+ ` pieces continue the line before).
    let joined = screen.replace("\n+ ", "");
    let line: Value = serde_json::from_str(report["token_line"].as_str().unwrap()).unwrap();
    let payload: Value = serde_json::from_str(line["payload"].as_str().unwrap()).unwrap();
    let about_the_screen = [
        "shown_sha256",
        "shown_length",
        "shown_media_type",
        "shown_character_encoding",
    ];
    let mut checked = 0;
    for (name, value) in payload.as_object().unwrap() {
        if about_the_screen.contains(&name.as_str()) {
            continue;
        }
        let expected: Vec<String> = match (name.as_str(), value) {
            ("renderer", renderer) => vec![format!(
                "{} {}",
                renderer["name"].as_str().unwrap(),
                renderer["version"].as_str().unwrap()
            )],
            ("approval_record_version", v) => vec![format!("ApprovalRecord v{v}")],
            ("authorized_at" | "expiry", Value::Number(ms)) => vec![format!("({ms} ms)")],
            ("subject_length", Value::Number(n)) => vec![format!("{n} bytes")],
            ("subject_encoding", Value::String(text)) => vec![format!("  encoding   {text}\n")],
            (_, Value::String(text)) => vec![text.clone()],
            (name, other) => panic!("{name}: {other} has no expected form"),
        };
        for text in expected {
            assert!(joined.contains(&text), "{name}: {text:?} not on\n{screen}");
        }
        checked += 1;
    }
    assert_eq!(checked, 15, "{payload}");
    for label in [
        "  approver   \"alice-oncall\" (from --approver)\n",
        "  session    inc-4711\n",
    ] {
        assert!(screen.contains(label), "{screen}");
    }
}

/// The window passes while the person reads (TTL 2 s, answered after 3 s): nothing is signed,
/// the person is told in words and UTC times and asked whether to draw it again; "yes" draws
/// a new screen with a new window, and the record signed carries that window. Seen red with
/// the expired answer signed as it stood (the window shown had passed).
#[test]
fn a_window_that_passed_while_reading_is_drawn_again_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let args = approve_args(dir.path(), &["--ttl", "2", "--format", "json"]);
    let mut session = spawn_at(80, dir.path(), &args);
    let first = session.expect("valid 2 s? [y/N] ").unwrap();
    let first_screen = String::from_utf8_lossy(first.before()).into_owned();
    std::thread::sleep(Duration::from_millis(3000));
    answer(&mut session, "y");
    session
        .expect("The approval window passed while you read.")
        .unwrap();
    session.expect("  it ended at  ").unwrap();
    session.expect(" UTC (").unwrap();
    session.expect("Nothing was signed").unwrap();
    session
        .expect("Draw the request again with a new 2 s window starting now? [y/N] ")
        .unwrap();
    assert!(!dir.path().join("tokens.ndjson").exists());
    answer(&mut session, "y");
    let second = session.expect("valid 2 s? [y/N] ").unwrap();
    let second_screen = String::from_utf8_lossy(second.before()).into_owned();
    answer(&mut session, "y");
    let rest = session.expect(Eof).unwrap();
    let rest = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    let from = |screen: &str| {
        let at = screen.rfind("  from       ").unwrap();
        screen[at..].lines().next().unwrap().to_owned()
    };
    assert_ne!(from(&first_screen), from(&second_screen));
    let json = rest.lines().find(|l| l.starts_with('{')).expect(&rest);
    let report: Value = serde_json::from_str(json).unwrap();
    let shown_from = format!("({} ms)", report["authorized_at"]);
    assert!(
        from(&second_screen).contains(&shown_from),
        "{second_screen}"
    );
    assert_eq!(report["status"], "signed");
}

/// With the window given (`--authorized-at`), it is not drawn again: the refusal says when it
/// ended in readable times and how to sign, and nothing is written.
#[test]
fn a_given_window_that_passed_is_refused_in_readable_times() {
    let dir = tempfile::tempdir().unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        .to_string();
    let args = approve_args(dir.path(), &["--ttl", "1", "--authorized-at", &now]);
    let mut session = spawn_at(80, dir.path(), &args);
    session.expect("valid 1 s? [y/N] ").unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    answer(&mut session, "y");
    let rest = session.expect(Eof).unwrap();
    let rest = String::from_utf8_lossy(rest.as_bytes()).into_owned();
    assert!(rest.contains("approval-expired-at-signing"), "{rest}");
    assert!(rest.contains(" UTC ("), "{rest}");
    assert!(rest.contains("help"), "{rest}");
    assert!(!dir.path().join("tokens.ndjson").exists());
}

/// The documented version 3 and 4 screens (docs/approvals.md) and the README's excerpt of the
/// default one are what `approve --yes` shows for the getting-started frame at 80 columns.
#[test]
fn the_documented_version_3_and_4_screens_are_the_real_ones() {
    let docs = crate::support::documentation();
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("keys")).unwrap();
    key_file(&dir.path().join("keys"));
    let runs = std::cell::Cell::new(0);
    let screen = |version: &str| {
        runs.set(runs.get() + 1);
        let output = assert_cmd::Command::cargo_bin("sealkit")
            .unwrap()
            .current_dir(dir.path())
            .args(["approve", "--yes", "--format", "json"])
            .args(["--token-file", &format!("t{}.ndjson", runs.get())])
            .args(["--renderer-version", version])
            .args(["--key-file", "keys/approval.key", "--target", TARGET])
            .arg("--frame")
            .arg(frame_path())
            .args(["--authorized-at", "1786000000000", "--now", "1786000000500"])
            .args(["--nonce", "demo-1", "--session", "demo-session"])
            .args(["--approver", "alice-oncall"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        report["shown"]["text"].as_str().unwrap().to_owned()
    };
    for version in ["3", "4"] {
        let block = fenced_block(
            &docs,
            &format!("Seal approval request (sealkit-approve-terminal {version}, 80 columns)"),
        );
        assert_eq!(
            screen(version).trim_end(),
            block.trim_end(),
            "version {version}"
        );
    }
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let excerpt = fenced_block(&readme, "You vouch for:");
    let default = screen("4");
    let mut lines = default.lines().map(str::trim_end);
    for line in excerpt.lines() {
        assert!(
            lines.any(|shown| shown == line),
            "README excerpt line not on the screen (in this order): {line}"
        );
    }
}

/// Versions 1 and 2 keep their fixed layouts (their records stay byte for byte what they
/// were); drawn on a terminal narrower than their widest line, a note before the screen says
/// so, fitted to the terminal, and names version 3.
#[test]
fn the_fixed_layouts_say_when_they_do_not_fit() {
    for version in ["1", "2"] {
        let dir = tempfile::tempdir().unwrap();
        let args = approve_args(dir.path(), &["--renderer-version", version]);
        let mut session = spawn_at(80, dir.path(), &args);
        // The note comes first, before the screen's heading.
        let note = session
            .expect(format!("note: the version {version} screen has lines up to").as_str())
            .unwrap();
        assert!(!String::from_utf8_lossy(note.before()).contains("Seal approval request"));
        let rest = session.expect("[y/N] ").unwrap();
        let before = String::from_utf8_lossy(rest.before()).into_owned();
        assert!(before.contains("version 4 (the default) fits"), "{before}");
        let note_lines: Vec<&str> = before
            .split("Seal approval request")
            .next()
            .unwrap()
            .lines()
            .collect();
        assert!(
            note_lines
                .iter()
                .all(|l| l.trim_end_matches('\r').chars().count() <= 80),
            "{note_lines:?}"
        );
        answer(&mut session, "n");
        session.expect(Eof).unwrap();
        assert!(!dir.path().join("tokens.ndjson").exists());
    }
}

/// Each renderer's manifest, as docs/approvals.md prints it, is byte for byte the manifest
/// the records name, and the digest printed beside it is its SHA-256: a person can check a
/// record's `manifest_sha256` from the page alone.
#[test]
fn every_renderer_manifest_on_the_page_is_the_one_signed() {
    use sealkit::renderer::{self, v2, v3, v4};
    let docs = crate::support::documentation();
    for (version, manifest, digest) in [
        (
            "1",
            renderer::RENDERER_MANIFEST,
            renderer::manifest_sha256(),
        ),
        ("2", v2::RENDERER_MANIFEST, v2::manifest_sha256()),
        ("3", v3::RENDERER_MANIFEST, v3::manifest_sha256()),
        ("4", v4::RENDERER_MANIFEST, v4::manifest_sha256()),
    ] {
        assert_eq!(sealkit::digest::sha256_hex(manifest.as_bytes()), digest);
        assert!(
            docs.lines().any(|line| line == manifest),
            "version {version}'s manifest is not on the page as it is signed"
        );
        let named = format!("\"version\":\"{version}\",\n\"manifest_sha256\":\"{digest}\"}}`");
        assert!(docs.contains(&named), "version {version}: {named}");
    }
}
