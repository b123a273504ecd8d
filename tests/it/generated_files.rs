//! `man/` and `completions/` are generated from the clap definitions in src/cli.rs. This
//! test regenerates them in memory and fails when the committed files are stale.
//! Refresh them with `SEALKIT_REGENERATE=1 cargo test --test it generated_files`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use clap::CommandFactory;
use clap_complete::Shell;
use sealkit::cli::Cli;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The generated help text of every command's codes (compiled into the binary).
const CODES_HELP_FILE: &str = "src/cli/codes.rs";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every generated file, by path relative to the repository root.
fn generated() -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut command = Cli::command();
    command.build();
    man_pages(&command, "sealkit", &mut files);
    files.insert(
        PathBuf::from(CODES_HELP_FILE),
        codes_help_source().into_bytes(),
    );
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::PowerShell,
    ] {
        let mut buffer = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "sealkit", &mut buffer);
        let name = match shell {
            Shell::Bash => "sealkit.bash",
            Shell::Zsh => "_sealkit",
            Shell::Fish => "sealkit.fish",
            Shell::Elvish => "sealkit.elv",
            _ => "_sealkit.ps1",
        };
        files.insert(Path::new("completions").join(name), buffer);
    }
    files
}

fn man_pages(command: &clap::Command, name: &str, files: &mut BTreeMap<PathBuf, Vec<u8>>) {
    // clap adds a `help` subcommand; it has no page of its own, so no page may name one.
    let command = command
        .clone()
        .disable_help_subcommand(true)
        .name(name.to_owned());
    let man = clap_mangen::Man::new(command.clone());
    let mut buffer = Vec::new();
    man.render_title(&mut buffer).unwrap();
    man.render_name_section(&mut buffer).unwrap();
    man.render_synopsis_section(&mut buffer).unwrap();
    man.render_description_section(&mut buffer).unwrap();
    if command.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut buffer).unwrap();
    }
    let subcommands: Vec<_> = command
        .get_subcommands()
        .filter(|s| s.get_name() != "help")
        .collect();
    if !subcommands.is_empty() {
        man.render_subcommands_section(&mut buffer).unwrap();
    }
    buffer.extend_from_slice(manual_sections(name).as_bytes());
    man.render_version_section(&mut buffer).unwrap();
    files.insert(Path::new("man").join(format!("{name}.1")), buffer);
    for sub in subcommands {
        man_pages(sub, &format!("{name}-{}", sub.get_name()), files);
    }
}

/// Text for roff: a line may not start with `.` or `'`, and `\` and `-` are escaped.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// The codes each command can print, by man page: which code enums apply to which command,
/// in this one place. Each page's CODES section lists them from the enums themselves, so a
/// code added to an enum appears on the next regeneration (and the staleness test fails until
/// then); its one line is the code's row in the documentation's code tables.
fn codes(page: &str) -> Vec<String> {
    use sealkit::approval::reason::Reason;
    use sealkit::finding::{Code, Scope};
    use sealkit::migrate::{diff::verify::FindingCode, Change, Label};
    use sealkit::refusal::RefusalCode;
    let refusals = || RefusalCode::ALL.iter().map(|c| c.as_str().to_owned());
    let findings = |scopes: &[Scope]| {
        (Code::ALL.iter())
            .filter(|c| scopes.contains(&c.scope()))
            .map(|c| c.as_str().to_owned())
            .collect()
    };
    let labels = || Label::ALL.iter().map(|l| l.as_str().to_owned());
    match page {
        "sealkit-target" | "sealkit-approve" | "sealkit-envelope" => refusals().collect(),
        "sealkit-audit" => findings(&[
            Scope::Receipt,
            Scope::Anchor,
            Scope::ApprovalAnchor,
            Scope::File,
            Scope::Directory,
        ]),
        "sealkit-report" => findings(&[
            Scope::Receipt,
            Scope::Anchor,
            Scope::ApprovalAnchor,
            Scope::File,
            Scope::Directory,
            Scope::ReportJoin,
        ]),
        "sealkit-verify-receipt" => findings(&[Scope::Receipt, Scope::Anchor, Scope::File]),
        // A head state file that names a member twice; the chain's own errors are diagnostics.
        "sealkit-verify-chain" => vec![Code::DuplicateMember.as_str().to_owned()],
        "sealkit-verify-approval" => Reason::ALL
            .iter()
            .map(|r| r.code().into_owned())
            .chain(["allow-beside-signed-decline".to_owned()])
            .chain(findings(&[Scope::ApprovalAnchor, Scope::TokenFile]))
            .collect(),
        "sealkit-migrate" => labels()
            .chain(Change::ALL.iter().map(|c| c.as_str().to_owned()))
            .collect(),
        // `evidence ref` names no reference for a receipt that does not authenticate and
        // prints its receipt findings instead.
        "sealkit-evidence-ref" => findings(&[Scope::Receipt, Scope::File]),
        "sealkit-evidence-verify" => sealkit::evidence::EvidenceCode::ALL
            .iter()
            .map(|c| c.as_str().to_owned())
            .collect(),
        "sealkit-diff" => FindingCode::ALL
            .iter()
            .map(|c| c.as_str().to_owned())
            .chain(labels())
            .collect(),
        _ => Vec::new(),
    }
}

/// A code's one line: the last cell of its row in the documentation's code tables (the first
/// table row whose first cell names the code in backticks, else the first with any cell
/// naming it: a table of outcomes, docs/exit-status.md's, names codes in other columns).
fn documented_meaning(docs: &str, code: &str) -> String {
    let quoted = format!("`{code}");
    let names = |cell: &str| {
        let cell = cell.trim();
        cell == format!("{quoted}`") || (code.ends_with(':') && cell.starts_with(&quoted))
    };
    let rows = || docs.lines().filter(|l| l.starts_with('|'));
    let row = rows()
        .find(|l| l.split('|').nth(1).is_some_and(names))
        .or_else(|| rows().find(|l| l.split('|').any(names)))
        .unwrap_or_else(|| {
            panic!("code {code} has no row in the documentation's code tables: add one")
        });
    let cells: Vec<&str> = row
        .split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    cells.last().unwrap().replace('`', "").replace("**", "")
}

/// CODES: every code the command can print, one line each.
fn codes_section(page: &str) -> String {
    let codes = codes(page);
    if codes.is_empty() {
        return String::new();
    }
    let docs = crate::support::documentation();
    let mut roff = String::from(".SH CODES\n");
    for code in codes {
        roff.push_str(&format!(
            ".TP\n\\fB{}\\fR\n{}\n",
            roff_text(&code),
            roff_text(&documented_meaning(&docs, &code))
        ));
    }
    roff
}

/// CODES, EXIT STATUS, ENVIRONMENT and EXAMPLES, which clap has no place for.
fn manual_sections(page: &str) -> String {
    let mut roff = codes_section(page);
    roff.push_str(".SH \"EXIT STATUS\"\n");
    for (status, meaning) in EXIT_STATUS {
        roff.push_str(&format!(".TP\n{status}\n{}\n", roff_text(meaning)));
    }
    roff.push_str(".SH ENVIRONMENT\n");
    for (variable, meaning) in ENVIRONMENT {
        roff.push_str(&format!(
            ".TP\n\\fB{variable}\\fR\n{}\n",
            roff_text(meaning)
        ));
    }
    let examples = examples(page);
    assert!(
        (2..=3).contains(&examples.len()),
        "man page {page} has {} EXAMPLES, not two or three: see examples() in src/cli.rs",
        examples.len()
    );
    roff.push_str(".SH EXAMPLES\n");
    for (what, command) in examples {
        roff.push_str(&format!(
            ".PP\n{}\n.PP\n.RS 4\n\\fB{}\\fR\n.RE\n",
            roff_text(what),
            roff_text(command)
        ));
    }
    roff.push_str(
        ".SH \"SEE ALSO\"\nThe README and the pages under docs/ in sealkit's source tree.\n",
    );
    roff
}

const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "Everything was checked and is good."),
    (
        "1",
        "Checked and found a problem: a refused frame, a rejected token, a receipt that does not verify, an error finding, an identity that changes in migration, an evidence reference that fails (warnings count with --deny-warnings).",
    ),
    (
        "2",
        "Could not check: bad usage, an unreadable input or key, a limit reached, an I/O failure.",
    ),
];

const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "SEALKIT_APPROVAL_KEY_FILE",
        "The approval secret key file used by sealkit approve when --key-file is not given.",
    ),
    (
        "NO_COLOR",
        "When set, --color auto prints no colour (--color always still does).",
    ),
    (
        "COLUMNS",
        "When standard output is not a terminal, the width human output is fitted to (tables become one record per block where they do not fit); unset, piped output is never wrapped.",
    ),
    (
        "SEALKIT_PROGRESS_AFTER_MS",
        "How long an audit runs before its progress bar is drawn on a terminal's stderr, in milliseconds (default 1000).",
    ),
];

/// Examples for each page (shown at the end of its `--help` too); every page must have two
/// or three.
fn examples(page: &str) -> &'static [(&'static str, &'static str)] {
    sealkit::cli::examples(page)
}

/// Every man page's name, walking the command tree (`sealkit`, `sealkit-verify-approval`, …).
fn pages() -> Vec<String> {
    fn walk(command: &clap::Command, name: &str, out: &mut Vec<String>) {
        out.push(name.to_owned());
        for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
            walk(sub, &format!("{name}-{}", sub.get_name()), out);
        }
    }
    let mut command = Cli::command();
    command.build();
    let mut out = Vec::new();
    walk(&command, "sealkit", &mut out);
    out
}

/// `src/cli/codes.rs`: each command's codes as the end of its `--help` shows them, one entry
/// each (the code, then its meaning from the documentation's code tables, indented as clap
/// indents an option's help so that it wraps under itself).
fn codes_help_source() -> String {
    let docs = crate::support::documentation();
    let mut source = String::from(CODES_HELP_HEAD);
    for page in pages() {
        let codes = codes(&page);
        if codes.is_empty() {
            continue;
        }
        let mut text = format!("Codes it can print (also in `man {page}`):");
        for code in codes {
            text.push_str(&format!(
                "\n  {code}\n          {}",
                documented_meaning(&docs, &code)
            ));
        }
        source.push_str(&format!("        {page:?} => {text:?},\n"));
    }
    source.push_str("        _ => \"\",\n    }\n}\n");
    source
}

const CODES_HELP_HEAD: &str = "\
//! The codes each command can print, as the end of its `--help` shows them (the CODES section
//! of its man page lists the same): one entry each, its meaning from the documentation's code
//! tables. Generated by tests/it/generated_files.rs from docs/; refresh with
//! `SEALKIT_REGENERATE=1 cargo test --test it generated_files` (a test fails when it is stale).

/// The codes the command of man page `page` (`sealkit-target`) can print, as help text; empty
/// for a command that prints none.
#[rustfmt::skip]
pub fn help(page: &str) -> &'static str {
    match page {
";

#[test]
fn man_pages_and_completions_are_current() {
    let files = generated();
    if std::env::var_os("SEALKIT_REGENERATE").is_some() {
        for dir in ["man", "completions"] {
            let _ = std::fs::remove_dir_all(root().join(dir));
            std::fs::create_dir_all(root().join(dir)).unwrap();
        }
        for (path, bytes) in &files {
            std::fs::write(root().join(path), bytes).unwrap();
        }
        return;
    }
    let mut on_disk = BTreeMap::new();
    on_disk.insert(
        PathBuf::from(CODES_HELP_FILE),
        std::fs::read(root().join(CODES_HELP_FILE)).unwrap(),
    );
    for dir in ["man", "completions"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            on_disk.insert(
                path.strip_prefix(root()).unwrap().to_path_buf(),
                std::fs::read(&path).unwrap(),
            );
        }
    }
    let stale: Vec<_> = files
        .keys()
        .chain(on_disk.keys())
        .filter(|p| files.get(*p) != on_disk.get(*p))
        .collect();
    assert!(stale.is_empty(), "stale generated files {stale:?}: run SEALKIT_REGENERATE=1 cargo test --test it generated_files");
}

/// A code added to an enum without its line in the documentation stops the generation (so
/// the staleness test above cannot pass), and every listed code is on its committed page.
/// Seen red when `allow-beside-signed-decline` was listed before its documentation row existed.
#[test]
fn every_code_a_command_prints_has_its_line_on_the_man_page() {
    let docs = crate::support::documentation();
    let missing = std::panic::catch_unwind(|| documented_meaning(&docs, "no-such-code"));
    assert!(missing.is_err());
    for page in [
        "sealkit-target",
        "sealkit-audit",
        "sealkit-verify-approval",
        "sealkit-migrate",
        "sealkit-diff",
    ] {
        let committed =
            std::fs::read_to_string(root().join("man").join(format!("{page}.1"))).unwrap();
        let section = &committed[committed.find(".SH CODES").expect(page)..];
        let listed = codes(page);
        assert!(!listed.is_empty(), "{page}");
        for code in listed {
            assert!(
                section.contains(&format!("\\fB{}\\fR", roff_text(&code))),
                "{page} lacks {code}"
            );
        }
    }
}
