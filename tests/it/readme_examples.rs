//! The documentation's "real output" blocks (README and docs/) are what the binary prints today: each block named here
//! is re-run (stdout and stderr in one stream, as a terminal shows them) and compared, whole
//! or — where the README shows only some rows (`diff`) — line by line in order. Blocks run
//! elsewhere (keygen, approve in a scratch directory; the audit tail, whose modes depend on
//! the checkout) are not re-run here.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;

/// The README and the pages under docs/, in one text.
static README: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(crate::support::documentation);

/// The first fenced block after the line starting with `marker`.
fn block_after(marker: &str) -> &'static str {
    let at = README
        .find(marker)
        .unwrap_or_else(|| panic!("README lost {marker:?}"));
    let rest = &README[at..];
    let open = rest.find("```").unwrap();
    let body = &rest[open..];
    let body = &body[body.find('\n').unwrap() + 1..];
    &body[..body.find("```").unwrap()]
}

/// `sealkit ARGS` run in `dir` (relative to the crate), stderr merged into stdout.
fn run(dir: &str, args: &[&str]) -> String {
    run_with(dir, args, None)
}

/// [`run`] with `COLUMNS` set to `columns`, or removed.
fn run_with(dir: &str, args: &[&str], columns: Option<&str>) -> String {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(r#"exec "$0" "$@" 2>&1"#)
        .arg(assert_cmd::cargo::cargo_bin("sealkit"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir));
    match columns {
        Some(columns) => command.env("COLUMNS", columns),
        None => command.env_remove("COLUMNS"),
    };
    let output = command.output().unwrap();
    String::from_utf8(output.stdout).unwrap()
}

/// The README's `$ sealkit …` commands of a block (with their `\` continuation lines, and
/// a `COLUMNS=N` before `sealkit` where the block shows output fitted to a width), each
/// followed by what it prints today.
fn transcript(block: &str) -> String {
    let mut out = String::new();
    let mut lines = block.lines();
    while let Some(line) = lines.next() {
        let Some(command) = line.strip_prefix("$ ") else {
            continue;
        };
        let (columns, command) = match command.strip_prefix("COLUMNS=") {
            Some(rest) => {
                let (columns, rest) = rest.split_once(' ').unwrap();
                (Some(columns), rest)
            }
            None => (None, command),
        };
        let Some(first) = command.strip_prefix("sealkit ") else {
            continue;
        };
        out.push_str(line);
        out.push('\n');
        let mut command = first.to_owned();
        while let Some(joined) = command.strip_suffix('\\') {
            command = joined.to_owned();
            let next = lines.next().unwrap();
            out.push_str(next);
            out.push('\n');
            command.push_str(next);
        }
        out.push_str(&run_with(
            ".",
            &command.split_whitespace().collect::<Vec<_>>(),
            columns,
        ));
    }
    assert!(!out.is_empty(), "no `$ sealkit` command in the block");
    out
}

/// Every line of `shown` but `…` appears in `actual`, in order.
fn assert_rows_in_order(shown: &str, actual: &str) {
    let mut actual_lines = actual.lines();
    for line in shown.lines().filter(|l| *l != "…") {
        assert!(
            actual_lines.any(|a| a == line),
            "README line not printed (in this order):\n{line}\n--- actual ---\n{actual}"
        );
    }
}

#[test]
fn the_first_command_prints_the_readme_block() {
    let block = block_after(
        "Real output (`cargo run --release -- target --color never testdata/captures/sample.jsonl`)",
    );
    let actual = run(
        ".",
        &[
            "target",
            "--color",
            "never",
            "testdata/captures/sample.jsonl",
        ],
    );
    assert_eq!(block, actual);
}

#[test]
fn chain_transcripts() {
    let block = block_after("`--state` compares a `.seal-audit-head.state`");
    assert_eq!(block, transcript(block));
}

#[test]
fn typed_target_transcript() {
    let block = block_after("Human output adds `typed/committed`");
    assert_eq!(block, transcript(block));
}

#[test]
fn envelope_transcript_with_its_hex_line_shortened() {
    let block = block_after("Real output (`testdata/typed/`; the signature was made");
    let mut actual = transcript(block);
    let shortened = block
        .lines()
        .find(|l| l.contains("hex digits in full)"))
        .unwrap();
    let (prefix, _) = shortened.split_once('…').unwrap();
    let full = actual
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap()
        .to_owned();
    assert!(shortened.ends_with(&format!("…({} hex digits in full)", full.len())));
    actual = actual.replace(&full, shortened);
    assert_eq!(block, actual);
}

#[test]
fn verify_receipt_block_is_its_transcript() {
    let block = block_after("Real output (`tests/cmd/verify/receipt-authenticated.*`)");
    let recorded = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cmd/verify/receipt-authenticated.stdout"),
    )
    .unwrap();
    // The transcript keeps the blank line that ends each receipt's report.
    assert_eq!(block, recorded.strip_suffix('\n').unwrap());
}

#[test]
fn diff_rows_and_the_whole_migrate_output_are_printed() {
    let dir = "testdata/receipts/legacy-vs-current";
    let captures = ["frames/session-L.capture", "frames/session-M.capture"];
    let diff = block_after("Real output (`tests/cmd/diff/legacy-vs-current.*`");
    let mut args = vec!["diff", "old/receipts", "new/receipts", "--frames"];
    args.extend(captures);
    // The page shows it fitted to 100 columns (one record per pair).
    assert_rows_in_order(diff, &run_with(dir, &args, Some("100")));
    let out = tempfile::tempdir().unwrap();
    let out = out.path().join("out");
    let migrate = block_after(
        "Real output (`cd testdata/receipts/legacy-vs-current; COLUMNS=100 sealkit migrate",
    );
    let mut args = vec!["migrate", "old/receipts", "--frames"];
    args.extend(captures);
    args.extend(["--out", out.to_str().unwrap()]);
    let actual = run_with(dir, &args, Some("100")).replace(out.to_str().unwrap(), "/tmp/out");
    // The temporary NEW_DIR is longer than `/tmp/out`, so a line naming it wraps elsewhere:
    // compared with wrapped lines joined.
    let joined = |text: &str| text.replace("\n    ", " ");
    assert_eq!(
        joined(migrate),
        joined(&actual),
        "the whole migrate output, its digest included"
    );
}

#[test]
fn the_readme_tour_is_what_the_commands_print() {
    let block = block_after("Tour output");
    assert_eq!(transcript(block), block);
}

#[test]
fn evidence_transcripts() {
    for marker in [
        "Real output (`testdata/receipts/fixture-dir/`):",
        "Real output (the bundled annotated capture",
    ] {
        let block = block_after(marker);
        assert_eq!(block, transcript(block));
    }
}
