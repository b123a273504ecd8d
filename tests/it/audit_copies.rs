//! The same receipts reached twice (issue 36, item 5), through the real binary: a copied
//! directory, the same directory under another spelling, a linked root, a root inside another
//! root, a file given beside its directory and a hard link are each checked and counted once
//! — in `audit`'s summary, its JSON and the report's verdict, summary and rows — and named
//! (`duplicate-receipt`, `directory-repeated`, warnings); one host session's counter carried
//! with other content in another directory is a `counter-conflict` error. Every test here
//! was seen red on 5027bf8 (the copy and every repeated path counted twice, exit 0, no
//! finding).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::cli_audit::{full_new_dir, write_private, L1_ALLOW};
use crate::support::{self, NEW_RECEIPTS as NEW};
use assert_cmd::Command;
use sealkit::finding::{Code, Severity};
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The fixture's receipt key, kept apart from every directory audited here.
fn key() -> String {
    let seed = support::receipt_seed(NEW);
    sealkit::digest::hex_lower(&sealkit::signature::public_key_of_seed(&seed))
}

/// `audit --format json` over `roots`: the document and the exit status.
fn audit(roots: &[&Path], extra: &[&str]) -> (Value, i32) {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .arg("audit")
        .args(roots)
        .args(["--format", "json", "--jobs", "2", "--receipt-key", &key()])
        .args(extra)
        .output()
        .unwrap();
    let document = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    (document, output.status.code().unwrap())
}

/// `report --format json` over `roots`: the model and the exit status.
fn report(roots: &[&Path]) -> (Value, i32) {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("report.json");
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args([
            "--format",
            "json",
            "report",
            "--receipt-key",
            &key(),
            "--out",
        ])
        .arg(&file)
        .args(roots)
        .output()
        .unwrap();
    let model = serde_json::from_slice(&std::fs::read(&file).unwrap())
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stderr)));
    (model, output.status.code().unwrap())
}

/// Finding codes and how often each is reported, over receipts' and lone findings.
fn codes(document: &Value) -> BTreeMap<String, usize> {
    let mut codes = BTreeMap::new();
    let receipts = document["receipts"].as_array().unwrap();
    let findings = receipts
        .iter()
        .flat_map(|r| r["file_findings"].as_array().unwrap())
        .chain(document["findings"].as_array().unwrap());
    for finding in findings {
        *codes
            .entry(finding["code"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    codes
}

/// The receipt files' paths the audit lists as receipts.
fn listed(document: &Value) -> Vec<String> {
    let mut files: Vec<String> = (document["receipts"].as_array().unwrap().iter())
        .map(|r| r["file"].as_str().unwrap().to_owned())
        .collect();
    files.sort();
    files
}

/// A copy of `dir` (files and modes) at `to`, as `cp -a` makes it.
fn copy_dir(dir: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o700)).unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        write_private(
            &to.join(entry.file_name()),
            &std::fs::read(entry.path()).unwrap(),
        );
    }
}

/// Asserts the audit counted the 13 receipts of `dir` once each, listed under `dir`.
fn counted_once(document: &Value, dir: &Path) {
    let summary = &document["summary"];
    assert_eq!(summary["receipts"], 13, "{summary}");
    assert_eq!(summary["statuses"]["authenticated"], 13, "{summary}");
    assert_eq!(summary["verdicts"]["ALLOW"], 6, "{summary}");
    assert_eq!(summary["verdicts"]["BLOCK"], 7, "{summary}");
    let listed = listed(document);
    assert_eq!(listed.len(), 13);
    assert!(
        listed.iter().all(|f| Path::new(f).starts_with(dir)),
        "{listed:?}"
    );
}

/// `cp -a receipts copy; sealkit audit receipts copy` (and `report`): 13 receipts, not 26;
/// each copy named, exit 0 as the evidence holds (1 under --deny-warnings).
#[test]
fn a_copied_directory_is_counted_once_and_each_copy_named() {
    let dir = full_new_dir();
    let copy = tempfile::tempdir().unwrap();
    let copy = copy.path().join("copy");
    copy_dir(dir.path(), &copy);
    let (document, status) = audit(&[dir.path(), &copy], &[]);
    assert_eq!(status, 0, "{:?}", codes(&document));
    counted_once(&document, dir.path());
    assert_eq!(document["summary"]["files"], 30);
    assert_eq!(codes(&document)[Code::DuplicateReceipt.as_str()], 13);
    let duplicate = (document["findings"].as_array().unwrap().iter())
        .find(|f| f["code"] == "duplicate-receipt")
        .unwrap();
    let first = dir.path().join(L1_ALLOW);
    assert_eq!(
        duplicate["severity"],
        Code::DuplicateReceipt.severity().as_str()
    );
    assert_eq!(Code::DuplicateReceipt.severity(), Severity::Warning);
    assert_eq!(duplicate["path"], copy.join(L1_ALLOW).display().to_string());
    assert_eq!(
        duplicate["message"],
        format!(
            "a copy of {} (the same signed content): checked and counted once, as {}",
            first.display(),
            first.display()
        )
    );
    // The copy's own directory checks still run on what it holds (no chain or operation
    // finding: it is complete).
    for code in [
        "chain-state-mismatch",
        "operation-receipt-missing",
        "counter-duplicate",
    ] {
        assert!(!codes(&document).contains_key(code), "{code}");
    }
    let (_, status) = audit(&[dir.path(), &copy], &["--deny-warnings"]);
    assert_eq!(status, 1);

    let (model, status) = report(&[dir.path(), &copy]);
    assert_eq!(status, 0);
    let verdict = &model["verdict"];
    assert_eq!(verdict["receipts"], 13, "{verdict}");
    assert_eq!(verdict["authenticated"], 13);
    assert!(
        verdict["headline"]
            .as_str()
            .unwrap()
            .starts_with("All 13 receipts authenticated"),
        "{verdict}"
    );
    assert_eq!(model["summary"]["receipts"], 13);
    assert_eq!(model["summary"]["verdicts"]["block"], 7);
    assert_eq!(
        model["summary"]["findings_by_code"]["duplicate-receipt"],
        13
    );
    let rows = model["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 13);
}

/// One directory reached again by another path: given twice, spelled `dir/`, through a
/// symbolic link given as a root, and as a root inside another root. Walked once: 13
/// receipts, one `directory-repeated` for each path that reached it again, and none of the
/// findings counting the receipts twice would raise (`counter-duplicate`, a chain state
/// that no longer matches).
#[test]
fn one_directory_reached_by_several_paths_is_walked_once() {
    let dir = full_new_dir();
    let outer = tempfile::tempdir().unwrap();
    let link = outer.path().join("link");
    std::os::unix::fs::symlink(dir.path(), &link).unwrap();
    let slashed = PathBuf::from(format!("{}/", dir.path().display()));
    let dotted = dir.path().join(".");
    let (document, status) = audit(&[dir.path(), dir.path(), &slashed, &link, &dotted], &[]);
    assert_eq!(status, 0, "{:?}", codes(&document));
    counted_once(&document, dir.path());
    let repeated: Vec<&str> = (document["findings"].as_array().unwrap().iter())
        .filter(|f| f["code"] == "directory-repeated")
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    let expected = [
        dir.path().display().to_string(),
        slashed.display().to_string(),
        link.display().to_string(),
        dotted.display().to_string(),
    ];
    assert_eq!(repeated, expected);
    let codes = codes(&document);
    assert_eq!(codes[Code::DirectoryRepeated.as_str()], 4);
    assert_eq!(Code::DirectoryRepeated.severity(), Severity::Warning);
    assert!(!codes.contains_key("duplicate-receipt"), "{codes:?}");

    // A root inside another: the outer root first, then the inner one; and the other way.
    let outer = tempfile::tempdir().unwrap();
    std::fs::set_permissions(outer.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let inner = outer.path().join("receipts");
    copy_dir(dir.path(), &inner);
    for roots in [[outer.path(), &inner], [&inner, outer.path()]] {
        let (document, status) = audit(&roots, &[]);
        assert_eq!(
            status,
            0,
            "{roots:?}: {:?}",
            crate::audit_copies::codes(&document)
        );
        counted_once(&document, &inner);
        assert_eq!(
            crate::audit_copies::codes(&document)["directory-repeated"],
            1
        );
    }
}

/// A receipt given as a file beside its directory (before it or after it), and a hard link
/// to it elsewhere: counted once; the file given twice is not a counter reused in its own
/// directory, and the hard link's own misnaming is still reported.
#[test]
fn a_file_beside_its_directory_and_a_hard_link_are_counted_once() {
    let dir = full_new_dir();
    let file = dir.path().join(L1_ALLOW);
    let elsewhere = tempfile::tempdir().unwrap();
    let linked = elsewhere.path().join("kept.json");
    std::fs::hard_link(&file, &linked).unwrap();
    for roots in [[&file, dir.path()], [dir.path(), &file]] {
        let (document, status) = audit(&roots, &[]);
        assert_eq!(status, 0, "{:?}", codes(&document));
        assert_eq!(document["summary"]["receipts"], 13);
        let codes = codes(&document);
        assert_eq!(codes["duplicate-receipt"], 1, "{codes:?}");
        assert!(!codes.contains_key("counter-duplicate"), "{codes:?}");
        assert!(!codes.contains_key("chain-state-mismatch"), "{codes:?}");
    }
    let (document, status) = audit(&[dir.path(), &linked], &[]);
    assert_eq!(status, 1);
    assert_eq!(document["summary"]["receipts"], 13);
    let findings = document["findings"].as_array().unwrap();
    let duplicate = findings
        .iter()
        .find(|f| f["code"] == "duplicate-receipt")
        .unwrap();
    assert_eq!(duplicate["path"], linked.display().to_string());
    assert!(
        duplicate["message"].as_str().unwrap().starts_with(&format!(
            "the same file as {} under another name (a hard link)",
            file.display()
        )),
        "{duplicate}"
    );
    let misnamed = findings
        .iter()
        .find(|f| f["code"] == "misnamed-receipt")
        .unwrap();
    assert_eq!(misnamed["path"], linked.display().to_string());
}

/// One host session's counter 0 carried by two different receipts in two directories (the
/// session's L2 BLOCK renamed to counter 0 beside a directory with its L1 ALLOW): an error,
/// both receipts counted (they are two receipts).
#[test]
fn one_sessions_counter_with_other_content_in_another_directory_is_a_conflict() {
    let first = tempfile::tempdir().unwrap();
    let second = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(NEW);
    write_private(
        &first.path().join(L1_ALLOW),
        &std::fs::read(root.join(L1_ALLOW)).unwrap(),
    );
    let block = "receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
    let renamed = second.path().join(block.replacen("0001-", "0000-", 1));
    write_private(&renamed, &std::fs::read(root.join(block)).unwrap());
    let (document, status) = audit(&[first.path(), second.path()], &[]);
    assert_eq!(status, 1, "{:?}", codes(&document));
    assert_eq!(document["summary"]["receipts"], 2);
    let conflict = (document["findings"].as_array().unwrap().iter())
        .find(|f| f["code"] == Code::CounterConflict.as_str())
        .unwrap();
    assert_eq!(conflict["severity"], "error");
    assert_eq!(conflict["path"], renamed.display().to_string());
    let message = conflict["message"].as_str().unwrap();
    assert!(
        message.starts_with("counter 00000000000000000000 of host session ")
            && message.contains(&first.path().join(L1_ALLOW).display().to_string()),
        "{message}"
    );
    // Each directory alone is clean of it.
    for dir in [first.path(), second.path()] {
        let (document, _) = audit(&[dir], &[]);
        assert!(!codes(&document).contains_key("counter-conflict"));
    }
}

/// A copy of a receipt with its JSON re-spaced (indented further, as a pretty-printer or an
/// editor leaves it; signature unchanged) in a copied directory is the same receipt: counted
/// once, a `duplicate-receipt` naming the first; the same copy with one signed value changed
/// is another receipt, whose signature fails. The identity is the signed content, not the
/// bytes (issue 36's leftover; issue 39). Seen red on 642f4e5: the re-spaced copy was a
/// second receipt (14 receipts, 12 duplicate-receipt findings).
#[test]
fn a_respaced_copy_in_another_directory_is_counted_once() {
    let dir = full_new_dir();
    let other = tempfile::tempdir().unwrap();
    let copy = other.path().join("copy");
    copy_dir(dir.path(), &copy);
    let original = std::fs::read_to_string(dir.path().join(L1_ALLOW)).unwrap();
    // JSON strings carry no raw line feed: this changes whitespace between tokens only.
    let respaced = original.replace('\n', "\n  ");
    assert_ne!(respaced, original);
    write_private(&copy.join(L1_ALLOW), respaced.as_bytes());
    let (document, status) = audit(&[dir.path(), &copy], &[]);
    assert_eq!(status, 0, "{:?}", codes(&document));
    counted_once(&document, dir.path());
    assert_eq!(codes(&document)["duplicate-receipt"], 13);
    let respaced_duplicate = (document["findings"].as_array().unwrap().iter())
        .find(|f| f["path"] == copy.join(L1_ALLOW).display().to_string());
    assert_eq!(
        respaced_duplicate.unwrap()["code"],
        "duplicate-receipt",
        "{:?}",
        codes(&document)
    );

    // One signed value changed in the copy: not a duplicate, and it fails.
    let altered = respaced.replacen("\"now\": ", "\"now\": 1", 1);
    assert_ne!(altered, respaced);
    write_private(&copy.join(L1_ALLOW), altered.as_bytes());
    let (document, status) = audit(&[dir.path(), &copy], &[]);
    assert_eq!(status, 1);
    assert_eq!(document["summary"]["receipts"], 14);
    assert_eq!(codes(&document)["duplicate-receipt"], 12);
    assert!(codes(&document).contains_key("signature-invalid"));
}
