//! Human output fits the terminal: `audit`, `migrate`, `diff`, `target`, `verify receipt` and
//! `verify approval`, run in a pseudo-terminal 80 and 120 columns wide, print no line wider
//! than the terminal (piped, their layout is unchanged: the transcripts in tests/cmd pin it).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::approval_screen::{spawn_at, too_wide};
use expectrl::{Eof, Expect};
use std::path::Path;

const LEGACY: &str = "testdata/receipts/legacy-vs-current";

/// What the command printed at a terminal `columns` wide, and the lines wider than it.
fn at_width(columns: u16, cwd: &Path, args: &[&str]) -> (String, Vec<String>) {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let mut session = spawn_at(columns, cwd, &args);
    let shown = session.expect(Eof).unwrap();
    let shown = shown.as_bytes().to_vec();
    (
        String::from_utf8_lossy(&shown).into_owned(),
        too_wide(&shown, usize::from(columns)),
    )
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_table_fits_80_and_120_columns() {
    let out = tempfile::tempdir().unwrap();
    let migrate_out = out.path().join("migrated").display().to_string();
    let hostile = "testdata/receipts/hostile/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
    let key = "testdata/receipts/fixture-dir/.seal-receipt-ed25519.key";
    let legacy = root().join(LEGACY);
    let commands: Vec<(&Path, Vec<&str>, &str)> = vec![
        (
            root(),
            vec![
                "audit",
                "--color",
                "never",
                "testdata/receipts/legacy-vs-current/old/receipts",
            ],
            "summary",
        ),
        (
            &legacy,
            vec![
                "migrate",
                "--color",
                "never",
                "old/receipts",
                "--frames",
                "frames/session-L.capture",
                "frames/session-M.capture",
                "--out",
                &migrate_out,
            ],
            "label",
        ),
        (
            &legacy,
            vec![
                "diff",
                "--color",
                "never",
                "old/receipts",
                "new/receipts",
                "--frames",
                "frames/session-L.capture",
                "frames/session-M.capture",
            ],
            "pairs",
        ),
        (
            root(),
            vec![
                "target",
                "--color",
                "never",
                "testdata/captures/sample.jsonl",
            ],
            "committed",
        ),
        (
            root(),
            vec![
                "verify",
                "receipt",
                "--color",
                "never",
                hostile,
                "--receipt-key",
                key,
            ],
            "check",
        ),
        (
            root(),
            vec![
                "verify",
                "approval",
                "--color",
                "never",
                "testdata/approvals/fixture-run-allow.token.ndjson",
                "--pubkey",
                crate::support::PUBKEY,
            ],
            "line",
        ),
    ];
    for columns in [80u16, 120] {
        for (cwd, args, expected) in &commands {
            let _ = std::fs::remove_dir_all(&migrate_out);
            let (text, wide) = at_width(columns, cwd, args);
            assert!(text.contains(expected), "{args:?}: {text}");
            // Seen red with layout::table printing the caller's layout at a terminal too.
            assert_eq!(wide, Vec::<String>::new(), "{args:?} at {columns}:\n{text}");
        }
    }
}

/// Under `--color always` the verdict words are coloured (good green, failures red) and a
/// count of zero problems is not; `--color never` prints the same words without colour.
/// Seen red with `layout::count` colouring every count.
#[test]
fn verdict_words_are_coloured_and_zero_counts_are_not() {
    let run = |args: &[&str]| {
        let output = assert_cmd::Command::cargo_bin("sealkit")
            .unwrap()
            .current_dir(root())
            .args(args)
            .output()
            .unwrap();
        String::from_utf8(output.stdout).unwrap()
    };
    let green = "\u{1b}[1;32m";
    let red = "\u{1b}[1;31m";
    let ok = run(&[
        "verify",
        "chain",
        "--color",
        "always",
        "testdata/receipts/chain/sealed.json",
    ]);
    assert!(ok.contains(&format!("{green}VERIFY OK\u{1b}[0m:")), "{ok}");
    let fail = run(&[
        "verify",
        "chain",
        "--color",
        "always",
        "testdata/receipts/chain/tampered.json",
    ]);
    assert!(
        fail.contains(&format!("{red}VERIFY FAIL\u{1b}[0m:")),
        "{fail}"
    );
    let plain = run(&[
        "verify",
        "chain",
        "--color",
        "never",
        "testdata/receipts/chain/tampered.json",
    ]);
    assert!(
        plain.contains("VERIFY FAIL:") && !plain.contains('\u{1b}'),
        "{plain}"
    );
    let tokens = run(&[
        "verify",
        "approval",
        "--color",
        "always",
        "testdata/approvals/fixture-run-allow.token.ndjson",
        "--pubkey",
        crate::support::PUBKEY,
    ]);
    assert!(tokens.contains(", 0 rejected"), "{tokens}");
    assert!(!tokens.contains(red), "{tokens}");
}

/// `audit` at a terminal `columns` wide with `SEALKIT_PROGRESS_AFTER_MS` set to `after`: what
/// the terminal showed (stdout and stderr, as one screen) and the lines wider than it.
fn audit_at(columns: u16, after: Option<&str>) -> (String, Vec<String>) {
    use expectrl::session::OsSession as Session;
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg(format!(
            "stty cols {columns} rows 500 && [ \"$(stty size)\" = \"500 {columns}\" ] && \
             exec \"$0\" \"$@\""
        ))
        .arg(assert_cmd::cargo::cargo_bin("sealkit"))
        .args(["audit", "--color", "never", "--jobs", "1"])
        .arg(root().join(LEGACY).join("old/receipts"))
        .env("NO_COLOR", "1");
    match after {
        Some(after) => command.env("SEALKIT_PROGRESS_AFTER_MS", after),
        None => command.env_remove("SEALKIT_PROGRESS_AFTER_MS"),
    };
    let mut session = Session::spawn(command).unwrap();
    session.set_expect_timeout(Some(std::time::Duration::from_secs(60)));
    let shown = session.expect(Eof).unwrap().as_bytes().to_vec();
    let text = String::from_utf8_lossy(&shown).into_owned();
    // Every drawing counts, not only the last one of a line redrawn in place: a drawing
    // wider than the terminal wraps and leaves a line behind.
    let drawings = text.replace('\r', "\n").into_bytes();
    (text, too_wide(&drawings, usize::from(columns)))
}

/// Issue 38 item 3: the progress bar is no wider than the terminal (a redraw that wraps leaves
/// lines behind), and a run that lasts milliseconds draws none. Seen red on 07add1e, whose bar
/// (40 columns of bar and its words) was drawn at once, 84 columns wide on an 80-column
/// terminal.
#[test]
fn the_progress_bar_fits_the_terminal_and_only_a_long_run_draws_it() {
    for columns in [40u16, 80, 120] {
        // Drawn at once (the delay set to nothing), every drawing within the width.
        let (text, wide) = audit_at(columns, Some("0"));
        assert!(text.contains("/14 "), "{columns}: {text:?}");
        assert_eq!(wide, Vec::<String>::new(), "{columns}: {text:?}");
    }
    // The default second: this run of milliseconds draws no bar at all.
    let (text, _) = audit_at(80, None);
    assert!(text.contains("Problems found"), "{text}");
    assert!(!text.contains("/14 "), "{text:?}");
    assert!(!text.contains('\r') || !text.contains("[2K"), "{text:?}");
}
