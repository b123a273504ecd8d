//! The contract where inputs are each readable but stand in a relation that decides the outcome:
//! evidence given twice (the same directory, a copy beside it, one host session's counter with
//! other content elsewhere), a receipt key read from inside the evidence it pins, and a trust
//! annotation whose reference could not be checked. [`RELATIONS`] is the one list of expected
//! outcomes; docs/exit-status.md shows the same table, and
//! [`the_documented_relations_are_the_tested_ones`] keeps the two equal.
//!
//! Every row runs in `human`, `json` and `jsonl` and must: exit with the row's status in every
//! format, name the row's code (on stdout, on stderr, or in the page or JSON model `report`
//! writes), print only valid JSON in the JSON modes, write its output only when the row says
//! so, and leave every input as it was.
//!
//! Seen red after the merge of main at 642f4e5, before `report --format jsonl` wrote its
//! findings about no one receipt: its rows for a copy and for a key from the evidence named
//! neither `duplicate-receipt` nor `receipt-key-in-evidence` anywhere (exit 0 and 1 with
//! nothing to say why). On 5027bf8 none of these codes existed (a copy and a key from the
//! evidence gave exit 0: main's `audit_copies`, `receipt_key_in_evidence` and
//! `evidence_hostile` record those runs).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::{bin, root, FORMATS};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One relation between inputs, the command line that meets it (run in the fixture directory),
/// and what the contract gives.
pub(super) struct Relation {
    pub(super) case: &'static str,
    pub(super) command: &'static str,
    pub(super) exit: i32,
    pub(super) code: &'static str,
    /// Whether the command's output (`out/page`) is written.
    pub(super) writes: bool,
}

/// Each row: the relation, the command line (words split on spaces), the exit status, the code
/// and whether `out/page` is written (`report --format jsonl` writes its findings about no one
/// receipt there after the rows). The page is written whatever the verdict once the run
/// completed: it says the verdict the exit status gives.
pub(super) const RELATIONS: &[Relation] = &[
    Relation {
        case: "the same directory given twice",
        command: "audit --receipt-key receipt.key receipts receipts",
        exit: 0,
        code: "directory-repeated",
        writes: false,
    },
    Relation {
        case: "the same directory given twice",
        command: "report --receipt-key receipt.key receipts receipts --out out/page",
        exit: 0,
        code: "directory-repeated",
        writes: true,
    },
    Relation {
        case: "a copy of the directory beside it",
        command: "audit --receipt-key receipt.key receipts copy",
        exit: 0,
        code: "duplicate-receipt",
        writes: false,
    },
    Relation {
        case: "a copy of the directory beside it",
        command: "report --receipt-key receipt.key receipts copy --out out/page",
        exit: 0,
        code: "duplicate-receipt",
        writes: true,
    },
    Relation {
        case: "one host session's counter with other content in another directory",
        command: "audit --receipt-key receipt.key one conflict",
        exit: 1,
        code: "counter-conflict",
        writes: false,
    },
    Relation {
        case: "one host session's counter with other content in another directory",
        command: "report --receipt-key receipt.key one conflict --out out/page",
        exit: 1,
        code: "counter-conflict",
        writes: true,
    },
    Relation {
        case: "`--receipt-key` read from inside the evidence",
        command: "audit --receipt-key inside/.seal-receipt-ed25519.key inside",
        exit: 1,
        code: "receipt-key-in-evidence",
        writes: false,
    },
    Relation {
        case: "`--receipt-key` read from inside the evidence",
        command: "report --receipt-key inside/.seal-receipt-ed25519.key inside --out out/page",
        exit: 1,
        code: "receipt-key-in-evidence",
        writes: true,
    },
    Relation {
        case: "`--receipt-key` read from inside the evidence",
        command: "verify receipt --receipt-key beside/receipt.key beside/receipt.json",
        exit: 1,
        code: "receipt-key-in-evidence",
        writes: false,
    },
    Relation {
        case: "a trust annotation whose reference could not be checked",
        command: "report --receipt-key receipt.key receipts --frames gone.capture --out out/page",
        exit: 2,
        code: "annotation-evidence-not-checked",
        writes: true,
    },
    Relation {
        case: "a trust annotation whose reference could not be checked",
        command:
            "evidence verify --frames gone.capture --evidence receipts --receipt-key receipt.key",
        exit: 2,
        code: "evidence-not-found",
        writes: false,
    },
];

const NEW: &str = "testdata/receipts/legacy-vs-current/new/receipts";
const KEY: &str = ".seal-receipt-ed25519.key";

/// Copies the receipts (not their key) into `to`.
fn copy_receipts(to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(root().join(NEW)).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != KEY {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

fn make_fixtures(dir: &Path) {
    let new = root().join(NEW);
    copy_receipts(&dir.join("receipts"));
    copy_receipts(&dir.join("copy"));
    std::fs::copy(new.join(KEY), dir.join("receipt.key")).unwrap();
    // Host session 61402's block at counter 1, filed under counter 0: that session's counter 0
    // is another receipt, alone in `one`.
    let first =
        "receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json";
    std::fs::create_dir(dir.join("one")).unwrap();
    std::fs::copy(new.join(first), dir.join("one").join(first)).unwrap();
    let block =
        "receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
    std::fs::create_dir(dir.join("conflict")).unwrap();
    std::fs::copy(
        new.join(block),
        dir.join("conflict")
            .join(block.replacen("0001-", "0000-", 1)),
    )
    .unwrap();
    copy_receipts(&dir.join("inside"));
    std::fs::copy(new.join(KEY), dir.join("inside").join(KEY)).unwrap();
    std::fs::create_dir(dir.join("beside")).unwrap();
    std::fs::copy(new.join(first), dir.join("beside/receipt.json")).unwrap();
    std::fs::copy(new.join(KEY), dir.join("beside/receipt.key")).unwrap();
    // The annotated capture with its first reference naming a receipt that is nowhere.
    let capture =
        std::fs::read_to_string(root().join("testdata/evidence/annotated.capture")).unwrap();
    let gone: Vec<String> = capture
        .lines()
        .enumerate()
        .map(|(index, line)| {
            if index != 3 {
                return line.to_owned();
            }
            let mut frame: serde_json::Value = serde_json::from_str(line).unwrap();
            let reference = &mut frame["result"]["_meta"]
                ["io.modelcontextprotocol/trust-annotations"]["evidenceRef"];
            assert!(reference.is_object(), "{line}");
            reference["digest"] = format!("sha256:{}", "a".repeat(64)).into();
            reference["ref"] = "receipt-gone.json".into();
            frame.to_string()
        })
        .collect();
    std::fs::write(dir.join("gone.capture"), gone.join("\n") + "\n").unwrap();
}

/// Every file under `dir` but `out/`, with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        let path = entry.path().strip_prefix(dir).unwrap().to_path_buf();
        if entry.file_type().is_file() && !path.starts_with("out") {
            files.insert(path, std::fs::read(entry.path()).unwrap());
        }
    }
    files
}

#[test]
fn evidence_met_twice_keys_from_the_evidence_and_references_not_checked_keep_the_contract() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path();
    make_fixtures(dir);
    let before = snapshot(dir);
    let mut failures = Vec::new();
    for relation in RELATIONS {
        for format in FORMATS {
            let _ = std::fs::remove_dir_all(dir.join("out"));
            std::fs::create_dir(dir.join("out")).unwrap();
            let done = Command::new(bin())
                .current_dir(dir)
                .env_remove("SSH_AUTH_SOCK")
                .args(["--format", format, "--color", "never"])
                .args(relation.command.split(' '))
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&done.stdout);
            let stderr = String::from_utf8_lossy(&done.stderr);
            let written = std::fs::read(dir.join("out/page")).ok();
            let shown = format!("--format {format} {}", relation.command);
            if done.status.code() != Some(relation.exit) {
                failures.push(format!(
                    "{shown}: exit {:?}, expected {}\n{stderr}",
                    done.status.code(),
                    relation.exit
                ));
            }
            if stderr.contains("panicked") {
                failures.push(format!("{shown}: panicked\n{stderr}"));
            }
            let page = written
                .as_deref()
                .map(String::from_utf8_lossy)
                .unwrap_or_default();
            if ![&stdout, &stderr, &page]
                .iter()
                .any(|text| text.contains(relation.code))
            {
                failures.push(format!("{shown}: `{}` is named nowhere", relation.code));
            }
            if written.is_some() != relation.writes {
                failures.push(format!(
                    "{shown}: out/page {}written",
                    if written.is_some() { "" } else { "not " }
                ));
            }
            let json_ok = match format {
                "json" if !stdout.trim().is_empty() => {
                    serde_json::from_str::<serde_json::Value>(&stdout).is_ok()
                }
                "json" | "jsonl" => stdout
                    .lines()
                    .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()),
                _ => true,
            };
            if !json_ok {
                failures.push(format!("{shown}: stdout is not valid JSON"));
            }
        }
    }
    assert_eq!(snapshot(dir), before, "an input was changed");
    println!(
        "contract relations: {} runs ({} rows in {} formats)",
        RELATIONS.len() * FORMATS.len(),
        RELATIONS.len(),
        FORMATS.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// docs/exit-status.md lists the same relations, in the same order, with the same outcomes.
#[test]
fn the_documented_relations_are_the_tested_ones() {
    let doc = std::fs::read_to_string(root().join("docs/exit-status.md")).unwrap();
    let documented: Vec<Vec<String>> = doc
        .lines()
        .skip_while(|l| !l.starts_with("| relation |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|line| {
            line.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect();
    let tested: Vec<Vec<String>> = RELATIONS
        .iter()
        .map(|r| {
            vec![
                r.case.to_owned(),
                format!("`sealkit {}`", r.command),
                r.exit.to_string(),
                format!("`{}`", r.code),
                if r.writes { "yes" } else { "no" }.to_owned(),
            ]
        })
        .collect();
    assert_eq!(
        documented, tested,
        "docs/exit-status.md and RELATIONS differ"
    );
}
