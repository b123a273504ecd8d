//! A closed stdout (`| head -1`) ends a run quietly and never turns a failing run into a
//! success: every command, with its stdout a pipe whose reader is already gone, exits with the
//! status of the same run read to the end and prints nothing about the pipe; `migrate` still
//! completes NEW_DIR.
//!
//! Seen red on 08828c0: `verify receipt`, `audit`, `diff`, `migrate --format jsonl`, `verify
//! chain` and `verify bundle` exited 0 where the full run exits 1 (migrate left NEW_DIR
//! without its output files), and `target`, `verify approval` and `envelope` printed "Broken
//! pipe" and exited 2.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sealkit")
}

/// One run of `args` in `cwd`, stdin fed from `stdin`, stdout either read to the end or a
/// pipe whose read end is closed before the command starts.
fn run(cwd: &Path, args: &[String], stdin: &[u8], closed: bool) -> Output {
    let mut command = Command::new(bin());
    command
        .current_dir(cwd)
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped());
    if closed {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        command.stdout(writer);
    } else {
        command.stdout(Stdio::piped());
    }
    let mut child = command.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    // The command may not read stdin at all; a refused write is fine.
    let _ = input.write_all(stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

const HOSTILE_FRAMES: &str = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"s\":\"\\ud800\"}}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"n\":1}}}\n";

/// Every command, in human and JSON Lines modes, on inputs where the full run exits 1 (and
/// one where it exits 0): `(cwd, args, stdin, full-run exit status)`.
fn cases() -> Vec<(PathBuf, Vec<String>, Vec<u8>, i32)> {
    let crate_dir = root();
    let lvc = root().join("testdata/receipts/legacy-vs-current");
    let trust =
        std::fs::read_to_string(root().join("testdata/receipts/bundles/trust.env")).unwrap();
    let key = |name: &str| {
        trust
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap()
            .to_owned()
    };
    let mut receipts: Vec<String> = std::fs::read_dir(lvc.join("new/receipts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| p.display().to_string())
        .collect();
    receipts.sort();
    let mut out = Vec::new();
    for format in ["human", "jsonl"] {
        let with = |list: &[&str]| {
            let mut all = args(&["--format", format, "--color", "never"]);
            all.extend(args(list));
            all
        };
        out.push((
            crate_dir.clone(),
            with(&["target", "-"]),
            HOSTILE_FRAMES.into(),
            1,
        ));
        out.push((
            crate_dir.clone(),
            with(&[
                "verify",
                "approval",
                "testdata/approvals/fixture-run-allow.token.ndjson",
                "--pubkey",
                &key("ISS"),
            ]),
            Vec::new(),
            1,
        ));
        let mut verify_receipts = with(&["verify", "receipt"]);
        verify_receipts.extend(receipts.iter().cloned());
        out.push((crate_dir.clone(), verify_receipts, Vec::new(), 1));
        out.push((
            crate_dir.clone(),
            with(&["verify", "chain", "testdata/receipts/chain/tampered.json"]),
            Vec::new(),
            1,
        ));
        out.push((
            crate_dir.clone(),
            with(&[
                "verify",
                "bundle",
                "testdata/receipts/bundles/bundle-closed.json",
                "--issuer-pubkey",
                &key("REQ"),
                "--request-pubkey",
                &key("REQ"),
                "--approval-pubkey",
                &key("APP"),
            ]),
            Vec::new(),
            1,
        ));
        out.push((lvc.clone(), with(&["audit", "new/receipts"]), Vec::new(), 1));
        out.push((
            lvc.clone(),
            with(&[
                "diff",
                "old/receipts",
                "new/receipts",
                "--frames",
                "frames/session-L.capture",
                "frames/session-M.capture",
            ]),
            Vec::new(),
            1,
        ));
        let envelope = |signature: &str| {
            with(&[
                "envelope",
                "testdata/typed/envelope-call.jsonl",
                "--params",
                "testdata/typed/envelope-params.json",
                "--verify",
                signature,
                "--pubkey",
                "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8",
            ])
        };
        let good = "2f1ed3cc3485efc99a8c1a5dfcba2bef605bfec3d5b6e20d9f130cdbbb1b09db008a5e9c9a6caddacae87c480819117f57085a185b98cc5ffdb72e65d1353509";
        let bad = format!("3{}", &good[1..]);
        out.push((crate_dir.clone(), envelope(good), Vec::new(), 0));
        out.push((crate_dir.clone(), envelope(&bad), Vec::new(), 1));
    }
    out
}

#[test]
fn every_command_exits_as_the_full_run_and_says_nothing_about_the_pipe() {
    for (cwd, args, stdin, expected) in cases() {
        let full = run(&cwd, &args, &stdin, false);
        assert_eq!(full.status.code(), Some(expected), "full run of {args:?}");
        assert!(!full.stdout.is_empty(), "{args:?} prints something");
        let closed = run(&cwd, &args, &stdin, true);
        let stderr = String::from_utf8_lossy(&closed.stderr);
        assert_eq!(
            closed.status.code(),
            Some(expected),
            "{args:?} with stdout closed; stderr: {stderr}"
        );
        assert!(
            !stderr.to_lowercase().contains("pipe"),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            stderr,
            String::from_utf8_lossy(&full.stderr),
            "{args:?}: stderr as in the full run"
        );
    }
}

#[test]
fn migrate_completes_new_dir_when_stdout_closes() {
    let lvc = root().join("testdata/receipts/legacy-vs-current");
    for format in ["human", "jsonl"] {
        let full_dir = tempfile::tempdir().unwrap();
        let closed_dir = tempfile::tempdir().unwrap();
        let migrate = |out: &Path| {
            args(&[
                "--format",
                format,
                "migrate",
                "old/receipts",
                "--frames",
                "frames/",
                "--out",
                out.to_str().unwrap(),
            ])
        };
        let full = run(&lvc, &migrate(full_dir.path()), b"", false);
        assert_eq!(full.status.code(), Some(1));
        let closed = run(&lvc, &migrate(closed_dir.path()), b"", true);
        assert_eq!(
            closed.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&closed.stderr)
        );
        assert!(
            closed.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&closed.stderr)
        );
        let names = |dir: &Path| {
            let mut names: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        assert_eq!(names(closed_dir.path()), names(full_dir.path()));
        assert!(names(full_dir.path()).contains(&"summary.json".to_owned()));
        assert_eq!(
            std::fs::read(closed_dir.path().join("migration.jsonl")).unwrap(),
            std::fs::read(full_dir.path().join("migration.jsonl")).unwrap()
        );
    }
}

#[test]
fn head_dash_1_over_many_receipts_keeps_the_verdict() {
    // As a shell runs `sealkit verify receipt new/receipts/* | head -1`: read one line, close.
    let lvc = root().join("testdata/receipts/legacy-vs-current");
    let mut command = Command::new(bin());
    command
        .current_dir(&lvc)
        .args(["verify", "receipt", "--color", "never"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // The same files many times over, so the output outgrows the pipe's buffer.
    for _ in 0..40 {
        for entry in std::fs::read_dir(lvc.join("new/receipts")).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "json") {
                command.arg(path);
            }
        }
    }
    let mut child = command.spawn().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
    assert!(line.ends_with(".json\n"), "{line}");
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
