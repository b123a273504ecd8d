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

/// The maximal runs of lowercase hex digits at least 12 long in `text`.
fn hex_runs(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || ('a'..='f').contains(&c)))
        .filter(|run| run.len() >= 12)
        .map(str::to_owned)
        .collect()
}

/// The codes a JSON output names (every string under a `code`, `reason` or `label` member).
fn json_codes(value: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    match value {
        serde_json::Value::Object(members) => {
            for (name, member) in members {
                match (name.as_str(), member) {
                    ("code" | "reason" | "label", serde_json::Value::String(code))
                        if code.len() > 3
                            && code.bytes().all(|b| {
                                b.is_ascii_lowercase()
                                    || b.is_ascii_digit()
                                    || b == b'-'
                                    || b == b'_'
                            }) =>
                    {
                        out.insert(code.clone());
                    }
                    _ => json_codes(member, out),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|item| json_codes(item, out)),
        _ => {}
    }
}

/// Issue 38 item 1: every command with a table, in a pseudo-terminal 80 and 120 columns
/// wide, prints no line wider than the terminal, no digest cut or shortened (each hex run
/// shown is one its JSON output holds whole) and every code its JSON names whole on one
/// line. Seen red on 07add1e: digests shortened to `2a01d25406f…` and codes split mid-token
/// (`target_or_su|bject_mismat|ch`).
#[test]
fn every_table_fits_80_and_120_columns_with_every_digest_and_code_whole() {
    let out = tempfile::tempdir().unwrap();
    let migrate_out = out.path().join("migrated").display().to_string();
    let hostile = "testdata/receipts/hostile/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
    let key = "testdata/receipts/fixture-dir/.seal-receipt-ed25519.key";
    let new_key = "testdata/receipts/legacy-vs-current/new/receipts/.seal-receipt-ed25519.key";
    let legacy = root().join(LEGACY);
    // A token file with an accepted line and one rejected with a long reason code.
    let tokens = out.path().join("tokens.ndjson");
    let line = crate::support::fixture_line();
    std::fs::write(&tokens, format!("{line}\n {line}\n")).unwrap();
    let tokens = tokens.display().to_string();
    let commands: Vec<(&Path, Vec<&str>, &str)> = vec![
        (
            root(),
            vec!["audit", "testdata/receipts/legacy-vs-current/old/receipts"],
            "unsigned-receipt",
        ),
        (
            root(),
            vec!["target", "testdata/captures/sample.jsonl"],
            "duplicate-key",
        ),
        (
            root(),
            vec!["verify", "receipt", hostile, "--receipt-key", key],
            "malformed-receipt",
        ),
        (
            root(),
            vec![
                "verify",
                "approval",
                &tokens,
                "--pubkey",
                crate::support::PUBKEY,
            ],
            "approval_v2_surrounding_whitespace",
        ),
        (
            root(),
            vec![
                "evidence",
                "verify",
                "--frames",
                "testdata/evidence/annotated.capture",
                "--evidence",
                "testdata/receipts/legacy-vs-current/new/receipts",
                "--receipt-key",
                new_key,
            ],
            "verified",
        ),
        (
            &legacy,
            vec![
                "migrate",
                "old/receipts",
                "--frames",
                "frames/session-L.capture",
                "frames/session-M.capture",
                "--out",
                &migrate_out,
            ],
            "meta-now-committed",
        ),
        (
            &legacy,
            vec![
                "diff",
                "old/receipts",
                "new/receipts",
                "--frames",
                "frames/session-L.capture",
                "frames/session-M.capture",
            ],
            "layout-changed",
        ),
    ];
    for (cwd, args, expected) in &commands {
        let _ = std::fs::remove_dir_all(&migrate_out);
        let json = assert_cmd::Command::cargo_bin("sealkit")
            .unwrap()
            .current_dir(cwd)
            .args(args)
            .args(["--format", "json"])
            .output()
            .unwrap();
        let json_text = String::from_utf8(json.stdout).unwrap();
        let whole: std::collections::BTreeSet<String> = hex_runs(&json_text).into_iter().collect();
        let mut codes = std::collections::BTreeSet::new();
        for document in serde_json::Deserializer::from_str(&json_text).into_iter() {
            json_codes(&document.unwrap(), &mut codes);
        }
        assert!(
            codes.contains(*expected) || *expected == "verified",
            "{args:?}: {codes:?} in {json_text}"
        );
        for columns in [80u16, 120] {
            let _ = std::fs::remove_dir_all(&migrate_out);
            let mut human = args.clone();
            human.extend(["--color", "never"]);
            let (text, wide) = at_width(columns, cwd, &human);
            assert!(text.contains(expected), "{args:?}: {text}");
            // Seen red with layout::table printing the caller's layout at a terminal too.
            assert_eq!(wide, Vec::<String>::new(), "{args:?} at {columns}:\n{text}");
            for run in hex_runs(&text) {
                assert!(
                    whole.contains(&run),
                    "{args:?} at {columns}: {run} is cut:\n{text}"
                );
            }
            // No hex cut short with an ellipsis (a frame's excerpt in a diagnostic may be).
            let shortened = text.split('…').any(|piece| {
                let before = piece
                    .chars()
                    .rev()
                    .take_while(char::is_ascii_hexdigit)
                    .count();
                before >= 4
            });
            assert!(!shortened, "{args:?} at {columns}: shortened:\n{text}");
            for code in &codes {
                assert!(
                    text.lines().any(|l| l.contains(code.as_str())),
                    "{args:?} at {columns}: {code} not whole:\n{text}"
                );
            }
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

/// Issue 38 item 2: piped, human output never wraps a value, so `| grep` finds a receipt's
/// whole file name on the line of its finding; with `COLUMNS` set, piped output is fitted to
/// it like a terminal's. Seen red on 07add1e, whose piped `audit` wrapped its table at 140
/// columns (the name split over three lines, `grep` found nothing) and ignored `COLUMNS`.
#[test]
fn piped_output_keeps_every_value_on_its_line_and_honours_columns() {
    let name = "receipt-00000000000000000003-fbf2ff479c278ef79666dbaedfd8c078391d172d5a15f47d9c7e58b198c271e0.json";
    let dir = root().join(LEGACY).join("old/receipts");
    let grep = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "\"$0\" audit --color never \"$1\" | grep -F {name}"
        ))
        .arg(assert_cmd::cargo::cargo_bin("sealkit"))
        .arg(&dir)
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    assert_eq!(grep.status.code(), Some(0), "grep found nothing: {grep:?}");
    let found = String::from_utf8(grep.stdout).unwrap();
    assert!(
        found
            .lines()
            .any(|l| l.contains("unsigned-receipt") && l.contains(name)),
        "{found}"
    );
    for columns in [80usize, 120] {
        let fitted = assert_cmd::Command::cargo_bin("sealkit")
            .unwrap()
            .args(["audit", "--color", "never"])
            .arg(&dir)
            .env("COLUMNS", columns.to_string())
            .output()
            .unwrap();
        let text = String::from_utf8(fitted.stdout).unwrap();
        assert!(text.contains("unsigned-receipt"), "{text}");
        let wide: Vec<&str> = text
            .lines()
            .filter(|l| l.chars().count() > columns)
            .collect();
        assert_eq!(wide, Vec::<&str>::new(), "COLUMNS={columns}:\n{text}");
    }
}
