//! The exit-status contract (docs/exit-status.md) over every subcommand and every argument that
//! names an input, found by walking clap's command tree (`sealkit::cli::Cli`), so a new
//! subcommand or input argument is in the matrix without anyone listing it: a subcommand with
//! no [`BASELINES`] entry fails the test, and an input argument no baseline gives is tried by
//! appending it to its subcommand's first baseline, held to [`DEFAULT_ROW`].
//!
//! Each argument is given, in turn, each of [`Case`]'s inputs (a missing path, an empty file,
//! an empty directory, a directory where a file is expected or a file where a directory is, a
//! file of random bytes, a file that cannot be read, a FIFO with no writer, a symbolic link
//! loop, `-` with empty standard input, `-` with a valid input on standard input), the rest of
//! the command line being a run that works ([`BASELINES`]). In `human`, `json` and `jsonl`
//! every run must: end (a timeout catches a hang), not panic, exit with the status [`TABLE`]
//! gives (so the same in every format), show the stable code the table gives (on stderr when
//! the command could not check: in JSON modes as the error object's `code`), print only valid
//! JSON in JSON modes (one document, or JSON Lines, or nothing) and only error or warning
//! objects on stderr, leave every input as it was, and leave the output location untouched
//! when the table says nothing may be written (exit 2, or nothing to check).
//!
//! [`TABLE`] is the one list of expected outcomes; docs/exit-status.md shows the same table to
//! users, and [`the_documented_table_is_the_tested_table`] keeps the two equal.
//! `SEALKIT_MATRIX_OBSERVE=1` prints the outcomes observed, in the table's form, instead of
//! asserting (for a new row). `CARGO_BIN_EXE_sealkit=PATH` runs the matrix against another
//! binary (with `SEALKIT_MATRIX_TIMEOUT=SECONDS` when it hangs).
//!
//! Without read permission the file is still readable by root: when the test runs as root
//! (as CI does) that case runs the binary as `nobody` through `setpriv`; when it cannot drop
//! root, the case is skipped with a printed message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod baselines;
mod relations;
mod run;
mod table;

use clap::CommandFactory;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A run that has not ended after this long is a hang (a FIFO opened for reading blocks
/// until a writer comes; none will). Every run takes well under a second on a quiet
/// machine; the margin is for a machine shared with other builds.
const TIMEOUT: Duration = Duration::from_secs(120);

/// [`TIMEOUT`], or `SEALKIT_MATRIX_TIMEOUT` seconds (to run the matrix against an older
/// binary that hangs on FIFOs without waiting two minutes for each).
pub(super) fn timeout() -> Duration {
    std::env::var("SEALKIT_MATRIX_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(TIMEOUT, Duration::from_secs)
}

use baselines::{make_fixtures, BASELINES};
use run::{can_drop_root, is_root, run_plan, Outcome, Plan};
use table::{Case, DEFAULT_ROW, OUTPUTS, TABLE};

pub(super) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const FORMATS: [&str; 3] = ["human", "json", "jsonl"];

pub(super) fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

pub(super) fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sealkit")
}

/// One input argument of one subcommand, as clap defines it.
#[derive(Debug, Clone)]
struct InputArg {
    /// `verify receipt FILE`, `migrate --frames`: the table's name for it.
    name: String,
    command: String,
    /// `FILE` for a positional, `--frames` for an option.
    arg: String,
}

/// Every leaf subcommand (by its words) and its arguments' names, from clap.
fn leaves() -> BTreeMap<String, Vec<(String, bool)>> {
    fn walk(command: &clap::Command, words: &str, out: &mut BTreeMap<String, Vec<(String, bool)>>) {
        let subcommands: Vec<&clap::Command> = command
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .collect();
        if subcommands.is_empty() {
            let args = command
                .get_arguments()
                .filter(|a| !a.is_global_set())
                .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
                .map(|a| (arg_name(a), is_input(a)))
                .collect();
            out.insert(words.to_owned(), args);
            return;
        }
        for sub in subcommands {
            let words = if words.is_empty() {
                sub.get_name().to_owned()
            } else {
                format!("{words} {}", sub.get_name())
            };
            walk(sub, &words, out);
        }
    }
    let mut command = sealkit::cli::Cli::command();
    command.build();
    let mut out = BTreeMap::new();
    walk(&command, "", &mut out);
    out
}

fn arg_name(arg: &clap::Arg) -> String {
    if arg.is_positional() {
        arg.get_value_names()
            .and_then(|names| names.first())
            .map(|n| n.to_string())
            .unwrap_or_else(|| arg.get_id().to_string().to_uppercase())
    } else {
        format!("--{}", arg.get_long().unwrap_or(arg.get_id().as_str()))
    }
}

/// An argument names an input when its value is a path, or when it takes a key or a file
/// (`HEX|FILE`); never a choice among named values.
fn is_input(arg: &clap::Arg) -> bool {
    if !arg.get_action().takes_values() || !arg.get_possible_values().is_empty() {
        return false;
    }
    let path = arg.get_value_parser().type_id() == std::any::TypeId::of::<PathBuf>();
    let file = arg
        .get_value_names()
        .is_some_and(|names| names.iter().any(|n| n.contains("FILE")));
    path || file
}

fn input_args() -> Vec<InputArg> {
    let mut out = Vec::new();
    for (command, args) in leaves() {
        for (arg, input) in args {
            let name = format!("{command} {arg}");
            if input && !OUTPUTS.contains(&name.as_str()) {
                out.push(InputArg {
                    name,
                    command: command.clone(),
                    arg,
                });
            }
        }
    }
    out
}

/// The expected outcome of one cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Expect {
    Baseline,
    Exit(i32, String),
}

fn parse_cell(cell: &str) -> Expect {
    if cell == "=" {
        return Expect::Baseline;
    }
    let (exit, code) = cell
        .split_once(' ')
        .unwrap_or_else(|| panic!("cell {cell:?}: `=` or `EXIT CODE`"));
    Expect::Exit(exit.parse().unwrap(), code.to_owned())
}

/// The cells of a row (`CELL | CELL | …`, one per [`Case`]).
fn row_cells(row: &str) -> Vec<&str> {
    let cells: Vec<&str> = row.split(" | ").collect();
    assert_eq!(cells.len(), Case::ALL.len(), "a cell per case: {row}");
    cells
}

fn row_of(name: &str) -> Option<&'static str> {
    TABLE.iter().find(|(n, _)| *n == name).map(|(_, row)| *row)
}

/// Every run of the matrix: each baseline in every format, then each input argument in each
/// case in every format (the case without read permission only when root can be dropped or
/// is not held).
fn plans(drop_root: bool) -> (Vec<Plan>, Vec<String>) {
    let leaves = leaves();
    let mut plans = Vec::new();
    let mut notes = Vec::new();
    for command in leaves.keys() {
        assert!(
            BASELINES.iter().any(|b| b.command == command),
            "the subcommand `{command}` has no working command line in BASELINES: add one, \
             and the matrix covers every input argument it takes"
        );
    }
    for (index, baseline) in BASELINES.iter().enumerate() {
        let known = &leaves[baseline.command];
        for (name, _) in baseline.args {
            assert!(
                known.iter().any(|(arg, _)| arg == name),
                "BASELINES: `{} {name}` is no argument of the command",
                baseline.command
            );
        }
        for format in FORMATS {
            plans.push(Plan {
                baseline: index,
                replaced: None,
                format,
            });
        }
    }
    let skip_unreadable = is_root() && !drop_root;
    if skip_unreadable {
        notes.push(
            "skipped: the cases without read permission (running as root, and setpriv cannot \
             run the binary as nobody)"
                .to_owned(),
        );
    }
    for input in input_args() {
        let (index, appended) = BASELINES
            .iter()
            .position(|b| b.command == input.command && b.args.iter().any(|(n, _)| *n == input.arg))
            .map(|i| (i, false))
            .unwrap_or_else(|| {
                (
                    BASELINES
                        .iter()
                        .position(|b| b.command == input.command)
                        .unwrap(),
                    true,
                )
            });
        if appended {
            notes.push(format!(
                "`{}` is in no baseline: tried appended to the first, held to the default row",
                input.name
            ));
        }
        for case in Case::ALL {
            if case == Case::Unreadable && skip_unreadable {
                continue;
            }
            // A good input on standard input needs a good input: the baselines give them.
            if case == Case::StdinValid && appended {
                continue;
            }
            for format in FORMATS {
                plans.push(Plan {
                    baseline: index,
                    replaced: Some((input.arg.clone(), case)),
                    format,
                });
            }
        }
    }
    (plans, notes)
}

#[test]
fn every_input_of_every_command_keeps_the_exit_status_contract() {
    let drop_root = can_drop_root();
    let (plans, notes) = plans(drop_root);
    let work = tempfile::tempdir().unwrap();
    set_mode(work.path(), 0o755);
    let fixtures = work.path().join("fixtures");
    std::fs::create_dir(&fixtures).unwrap();
    set_mode(&fixtures, 0o755);
    make_fixtures(&fixtures);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let serial = next.fetch_add(1, Ordering::Relaxed);
                let Some(plan) = plans.get(serial) else {
                    break;
                };
                let outcome = run_plan(plan, &fixtures, work.path(), serial, drop_root);
                results.lock().unwrap().push(outcome);
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|o| {
        (
            o.plan.baseline,
            o.plan.replaced.clone(),
            FORMATS.iter().position(|f| *f == o.plan.format),
        )
    });
    for note in &notes {
        println!("contract matrix: {note}");
    }
    println!(
        "contract matrix: {} runs ({} subcommand baselines and {} input arguments × {} cases, \
         each in {} formats) in {:.1} s",
        results.len(),
        BASELINES.len(),
        input_args().len(),
        Case::ALL.len(),
        FORMATS.len(),
        started.elapsed().as_secs_f64()
    );
    if std::env::var_os("SEALKIT_MATRIX_OBSERVE").is_some() {
        print_observed(&results);
        return;
    }
    let mut failures = Vec::new();
    for outcome in &results {
        let baseline = &BASELINES[outcome.plan.baseline];
        let expect = match &outcome.plan.replaced {
            None => Expect::Baseline,
            Some((arg, case)) => {
                let name = format!("{} {arg}", baseline.command);
                // A new argument is held to the default row until its own is written (and
                // documented: `the_documented_table_is_the_tested_table` asks for it).
                let row = row_of(&name).unwrap_or(DEFAULT_ROW);
                let column = Case::ALL.iter().position(|c| c == case).unwrap();
                parse_cell(row_cells(row)[column])
            }
        };
        for problem in outcome.problems(&expect, baseline) {
            failures.push(format!(
                "{} [{}]: {problem}",
                outcome.shown,
                outcome
                    .plan
                    .replaced
                    .as_ref()
                    .map_or("baseline".to_owned(), |(_, c)| c.heading().to_owned())
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} runs break the contract:\n{}",
        failures.len(),
        results.len(),
        failures.join("\n")
    );
}

/// The observed outcome of every argument and case, in the table's form (a cell whose
/// formats disagree shows each).
fn print_observed(results: &[Outcome]) {
    let mut cells: BTreeMap<String, BTreeMap<Case, Vec<String>>> = BTreeMap::new();
    for outcome in results {
        let baseline = &BASELINES[outcome.plan.baseline];
        let Some((arg, case)) = &outcome.plan.replaced else {
            let observed = outcome.observed();
            println!(
                "baseline {} [{}]: {observed}",
                baseline.command, outcome.plan.format
            );
            continue;
        };
        cells
            .entry(format!("{} {arg}", baseline.command))
            .or_default()
            .entry(*case)
            .or_default()
            .push(format!(
                "{}:{}",
                &outcome.plan.format[..2],
                outcome.observed()
            ));
    }
    for (name, row) in cells {
        let shown: Vec<String> = Case::ALL
            .iter()
            .map(|case| {
                let all = row.get(case).cloned().unwrap_or_default();
                let plain: BTreeSet<String> = all.iter().map(|c| c[3..].to_owned()).collect();
                if plain.len() == 1 {
                    plain.into_iter().next().unwrap()
                } else {
                    all.join(" / ")
                }
            })
            .collect();
        println!("| {name} | {} |", shown.join(" | "));
    }
}

/// docs/exit-status.md shows users the same table the matrix runs: the same columns, the
/// same rows in the same order, the same cells; and the table names no argument clap does
/// not define as an input (a row left behind by a removed argument).
#[test]
fn the_documented_table_is_the_tested_table() {
    let doc = std::fs::read_to_string(root().join("docs/exit-status.md")).unwrap();
    let mut lines = doc
        .lines()
        .skip_while(|l| !l.starts_with("| argument |"))
        .take_while(|l| l.starts_with('|'));
    let cells = |line: &str| -> Vec<String> {
        line.trim_matches('|')
            .split(" | ")
            .map(|c| c.trim().to_owned())
            .collect()
    };
    let header = cells(lines.next().expect("docs/exit-status.md has the table"));
    let headings: Vec<String> = std::iter::once("argument")
        .chain(Case::ALL.iter().map(|c| c.heading()))
        .map(str::to_owned)
        .collect();
    assert_eq!(header, headings);
    let _rule = lines.next();
    let documented: Vec<(String, Vec<String>)> = lines
        .map(|line| {
            let cells = cells(line);
            let name = cells[0].trim_matches('`').to_owned();
            let expect = cells[1..]
                .iter()
                .map(|c| c.replace('`', ""))
                .collect::<Vec<_>>();
            (name, expect)
        })
        .collect();
    let tested: Vec<(String, Vec<String>)> = TABLE
        .iter()
        .map(|(name, row)| {
            let cells = row_cells(row).into_iter().map(str::to_owned).collect();
            ((*name).to_owned(), cells)
        })
        .collect();
    assert_eq!(documented, tested, "docs/exit-status.md and TABLE differ");
    let inputs: BTreeSet<String> = input_args().into_iter().map(|a| a.name).collect();
    for (name, _) in TABLE {
        assert!(
            inputs.contains(*name),
            "TABLE row `{name}` is no input argument of the command line any more"
        );
    }
    for name in &inputs {
        assert!(
            TABLE.iter().any(|(n, _)| n == name),
            "`{name}` has no row: the matrix holds it to DEFAULT_ROW; write its own row in TABLE \
             and in docs/exit-status.md"
        );
    }
}
