//! What `--help` shows (issue 38 item 7): every usage line fits 80 columns, every command's
//! `--help` ends with two or three examples, and a command that prints codes lists them
//! there (the same ones its man page's CODES section lists), so nothing sends a reader to a
//! section only the man pages have.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use clap::CommandFactory;
use sealkit::cli::Cli;

/// Every command of the tree with the words that run it (`["verify", "approval"]`) and its
/// man page's name.
fn commands() -> Vec<(Vec<String>, String, clap::Command)> {
    fn walk(
        command: &clap::Command,
        words: Vec<String>,
        out: &mut Vec<(Vec<String>, String, clap::Command)>,
    ) {
        let page = std::iter::once("sealkit".to_owned())
            .chain(words.iter().cloned())
            .collect::<Vec<_>>()
            .join("-");
        out.push((words.clone(), page, command.clone()));
        for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
            let mut words = words.clone();
            words.push(sub.get_name().to_owned());
            walk(sub, words, out);
        }
    }
    let mut command = Cli::command();
    command.build();
    let mut out = Vec::new();
    walk(&command, Vec::new(), &mut out);
    out
}

fn help(words: &[String], flag: &str) -> String {
    let output = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .args(words)
        .arg(flag)
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{words:?}: {output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Seen red on 5027bf8 (run with the binary built from 5027bf8 in place of target/debug/sealkit): `verify approval`, `verify bundle` and
/// `evidence verify` printed usage lines of 96, 129 and 106 columns.
#[test]
fn every_usage_line_fits_80_columns() {
    let mut checked = 0;
    for (words, _, mut command) in commands() {
        // The usage block `--help` prints (to the blank line after it), as the binary shows it.
        let shown = help(&words, "--help");
        let at = shown.find("Usage: ").expect(&shown);
        let block = shown[at..].split("\n\n").next().unwrap();
        for line in block.lines() {
            assert!(
                line.chars().count() <= 80,
                "{words:?}: {} columns: {line}",
                line.chars().count()
            );
        }
        // The same lines errors print (clap's rendering of the command's usage).
        assert_eq!(
            command.render_usage().to_string().trim_end(),
            block,
            "{words:?}"
        );
        checked += 1;
    }
    assert!(checked >= 20, "{checked} commands");
}

/// Seen red on 5027bf8 (run with the binary built from 5027bf8 in place of target/debug/sealkit), whose `--help` had no examples (only the man
/// pages did).
#[test]
fn every_help_ends_with_two_or_three_examples() {
    for (words, page, _) in commands() {
        let shown = help(&words, "--help");
        let at = shown
            .rfind("\nExamples:\n")
            .unwrap_or_else(|| panic!("{words:?}: no examples in\n{shown}"));
        let examples = &shown[at..];
        let commands = examples
            .lines()
            .filter(|l| l.trim_start().starts_with("$ sealkit "))
            .count();
        assert!((2..=3).contains(&commands), "{words:?}: {examples}");
        // Each is the man page's example (clap wraps long ones), and the examples end the help.
        let words_of = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        let flowing = words_of(examples);
        for (what, command) in sealkit::cli::examples(&page) {
            assert!(
                flowing.contains(&words_of(what)) && flowing.contains(&words_of(command)),
                "{page}: {what} {command} in {examples}"
            );
        }
        let (_, last) = sealkit::cli::examples(&page).last().unwrap();
        assert!(flowing.ends_with(&words_of(last)), "{words:?}: {examples}");
        let short = help(&words, "-h");
        assert!(short.trim_end().ends_with("--help"), "{words:?}: {short}");
    }
}

/// A command that prints codes lists every one its man page's CODES section lists, with its
/// meaning, at the end of `--help`; no help says "see CODES". Seen red on 5027bf8
/// (run with the binary built from 5027bf8 in place of target/debug/sealkit), whose `target --help` and `audit --help` said "(see CODES)", a section only the man pages have.
#[test]
fn the_codes_a_command_prints_are_in_its_help() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut with_codes = 0;
    for (words, page, _) in commands() {
        let shown = help(&words, "--help");
        assert!(!shown.contains("see CODES"), "{words:?}: {shown}");
        let man = std::fs::read_to_string(root.join("man").join(format!("{page}.1"))).unwrap();
        let Some(section) = man.split(".SH CODES\n").nth(1) else {
            assert!(!shown.contains("Codes it can print"), "{words:?}");
            continue;
        };
        let section = section.split("\n.SH ").next().unwrap();
        let listed: Vec<String> = section
            .lines()
            .filter_map(|l| l.strip_prefix("\\fB")?.strip_suffix("\\fR"))
            .map(|code| code.replace("\\-", "-").replace("\\e", "\\"))
            .collect();
        assert!(!listed.is_empty(), "{page}");
        let codes = &shown[shown.find("Codes it can print").expect(&page)..];
        for code in &listed {
            assert!(
                codes.contains(&format!("\n  {code}\n")),
                "{page}: {code} is not in --help"
            );
        }
        with_codes += 1;
    }
    assert!(with_codes >= 10, "{with_codes}");
}
