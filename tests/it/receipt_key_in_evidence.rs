//! A pinned `--receipt-key` read from inside the evidence it checks (issue 36, item 6),
//! through the real binary: by its path, through a link to it or to its directory, as a hard
//! link, or as a copy of its bytes, `audit`, `report` and `verify receipt` say the receipts
//! authenticated only "under a key found in the evidence itself", in a
//! `receipt-key-in-evidence` error finding and in the verdict line, and exit 1; the same key
//! kept apart (the public key recorded at install time) is a clean check, exit 0. Seen red on
//! 5027bf8: every case below exited 0 with "The evidence holds" and no finding. The same for
//! `evidence verify` (a key under an `--evidence` root) and `evidence ref` (a key beside the
//! receipt), seen red on 642f4e5.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::cli_audit::{full_new_dir, write_private, L1_ALLOW};
use crate::support::{self, NEW_RECEIPTS as NEW};
use assert_cmd::Command;
use sealkit::finding::{Code, Severity};
use serde_json::Value;
use std::path::{Path, PathBuf};

const SEED: &str = ".seal-receipt-ed25519.key";
const PHRASE: &str = "under a key found in the evidence itself";

/// A receipt directory as seal-host leaves it (its seed beside the receipts), and a directory
/// elsewhere.
struct Evidence {
    dir: tempfile::TempDir,
    elsewhere: tempfile::TempDir,
}

impl Evidence {
    fn new() -> Self {
        let dir = full_new_dir();
        write_private(&dir.path().join(SEED), &support::receipt_seed(NEW));
        Evidence {
            dir,
            elsewhere: tempfile::tempdir().unwrap(),
        }
    }

    fn seed(&self) -> PathBuf {
        self.dir.path().join(SEED)
    }

    /// Every way of pinning a key that is the evidence's own: (what, the path given).
    fn pins_inside(&self) -> Vec<(&'static str, PathBuf)> {
        let elsewhere = self.elsewhere.path();
        let symlink = elsewhere.join("symlink.key");
        std::os::unix::fs::symlink(self.seed(), &symlink).unwrap();
        let linked_dir = elsewhere.join("linked-dir");
        std::os::unix::fs::symlink(self.dir.path(), &linked_dir).unwrap();
        let hard = elsewhere.join("hard.key");
        std::fs::hard_link(self.seed(), &hard).unwrap();
        let copy = elsewhere.join("copy.key");
        write_private(&copy, &support::receipt_seed(NEW));
        // A public key file inside, and a copy of it elsewhere.
        let public = std::fs::read(support::receipt_key_file(NEW)).unwrap();
        std::fs::write(self.dir.path().join("receipt.pub"), &public).unwrap();
        let public_copy = elsewhere.join("receipt.pub");
        std::fs::write(&public_copy, &public).unwrap();
        vec![
            ("the seed by its path", self.seed()),
            ("a symbolic link to the seed", symlink),
            ("the seed through a linked directory", linked_dir.join(SEED)),
            ("a hard link to the seed", hard),
            ("a copy of the seed", copy),
            (
                "a public key file inside",
                self.dir.path().join("receipt.pub"),
            ),
            ("a copy of a public key file inside", public_copy),
        ]
    }
}

fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

/// `audit` in human and JSON form: (first line, the key findings' paths, exit status).
fn audit(dir: &Path, key: &Path) -> (String, Vec<String>, i32) {
    let human = sealkit()
        .arg("audit")
        .arg(dir)
        .arg("--receipt-key")
        .arg(key)
        .output()
        .unwrap();
    let json = sealkit()
        .arg("audit")
        .arg(dir)
        .arg("--receipt-key")
        .arg(key)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(human.status.code(), json.status.code());
    let document: Value = serde_json::from_slice(&json.stdout).unwrap();
    let paths = (document["findings"].as_array().unwrap().iter())
        .filter(|f| f["code"] == Code::ReceiptKeyInEvidence.as_str())
        .map(|f| {
            assert_eq!(f["severity"], "error");
            f["path"].as_str().unwrap().to_owned()
        })
        .collect();
    let first = String::from_utf8(human.stdout)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    (first, paths, human.status.code().unwrap())
}

/// `report --format json`: (the verdict, exit status).
fn report(dir: &Path, key: &Path) -> (Value, i32) {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("report.json");
    let output = sealkit()
        .args(["--format", "json", "report", "--out"])
        .arg(&file)
        .arg("--receipt-key")
        .arg(key)
        .arg(dir)
        .output()
        .unwrap();
    let model: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    (model["verdict"].clone(), output.status.code().unwrap())
}

#[test]
fn audit_and_report_say_a_key_from_the_evidence_authenticates_nothing_independent() {
    assert_eq!(Code::ReceiptKeyInEvidence.severity(), Severity::Error);
    let evidence = Evidence::new();
    for (what, key) in evidence.pins_inside() {
        let (first, paths, status) = audit(evidence.dir.path(), &key);
        assert_eq!(status, 1, "{what}: {first}");
        assert_eq!(paths, [key.display().to_string()], "{what}");
        assert_eq!(
            first,
            format!(
                "Problems found: 1 error finding (receipt-key-in-evidence); 13 of 13 receipts authenticated {PHRASE}."
            ),
            "{what}"
        );
        let (verdict, status) = report(evidence.dir.path(), &key);
        assert_eq!(status, 1, "{what}");
        assert_eq!(verdict["outcome"], "problems");
        assert_eq!(verdict["causes"][0]["code"], "receipt-key-in-evidence");
        assert!(
            verdict["headline"]
                .as_str()
                .unwrap()
                .ends_with(&format!("13 of 13 receipts authenticated {PHRASE}.")),
            "{what}: {verdict}"
        );
    }
    // The same key kept apart from the evidence (the public key recorded at install time).
    let kept = evidence.elsewhere.path().join("kept.pub");
    let mut text = std::fs::read(support::receipt_key_file(NEW)).unwrap();
    text.pop();
    std::fs::write(&kept, &text).unwrap();
    let (first, paths, status) = audit(evidence.dir.path(), &kept);
    assert_eq!((paths.len(), status), (0, 0), "{first}");
    assert!(
        first.starts_with("The evidence holds: 13 of 13 receipts authenticated;"),
        "{first}"
    );
    let (verdict, status) = report(evidence.dir.path(), &kept);
    assert_eq!(status, 0, "{verdict}");
    assert!(!verdict["headline"].as_str().unwrap().contains(PHRASE));
}

/// The page says it too, before anything else it says in words: its first line is the
/// verdict the exit status gives, its first sentence is the pin's (with a link to the
/// finding), and the receipts card counts the receipts as authenticated under a key found
/// in the evidence, not drawn as good. Seen red on c855b0c merged with 642f4e5: the first
/// sentence was "1 finding receipt-key-in-evidence: …", and the card said
/// "13 authenticated" in the colour of good news.
#[test]
fn the_page_says_first_that_the_key_came_from_the_evidence() {
    let evidence = Evidence::new();
    let (_, key) = evidence.pins_inside().into_iter().next().unwrap();
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("report.html");
    let output = sealkit()
        .args(["report", "--out"])
        .arg(&file)
        .arg("--receipt-key")
        .arg(&key)
        .arg(evidence.dir.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let page = std::fs::read_to_string(&file).unwrap();
    let body = &page[page.find("<body").unwrap()..];
    // The first heading is the verdict.
    let heading = &body[body.find("<h").unwrap()..];
    assert!(
        heading.starts_with("<h1>") || heading.starts_with("<header"),
        "{}",
        &heading[..200]
    );
    let verdict = &body[body.find("<section id=\"verdict\"").unwrap()..];
    assert!(!body[..body.find("<section id=\"verdict\"").unwrap()].contains("<section"));
    assert!(
        verdict.starts_with(
            "<section id=\"verdict\" class=\"verdict problems\" data-outcome=\"problems\"><h2>Problems found</h2>"
        ),
        "{}",
        &verdict[..200]
    );
    let sentences = &body[body.find("<ul class=\"sentences\">").unwrap()..];
    assert!(
        sentences.starts_with("<ul class=\"sentences\"><li class=\"error\">The pinned receipt key was read from inside the evidence: "),
        "{}",
        &sentences[..300]
    );
    assert!(sentences[..sentences.find("</li>").unwrap()]
        .contains("href=\"#other-receipt-key-in-evidence\""));
    assert!(page.contains(&format!(
        "<li class=\"bad\"><span class=\"n\" data-k=\"authenticated\">13</span> authenticated {PHRASE}</li>"
    )));
}

/// A file given as a root: the key beside it is the evidence's own too.
#[test]
fn a_key_beside_a_receipt_given_as_a_file_is_the_evidences_own() {
    let evidence = Evidence::new();
    let (first, paths, status) = audit(&evidence.dir.path().join(L1_ALLOW), &evidence.seed());
    assert_eq!(status, 1, "{first}");
    assert_eq!(paths, [evidence.seed().display().to_string()]);
    assert!(
        first.contains(&format!("1 of 1 receipt authenticated {PHRASE}")),
        "{first}"
    );
}

/// A receipt given by its bare file name, from its own directory: the key beside it is the
/// evidence's own too. Seen red under cargo-mutants' match guard → `true` in `evidence_dir`
/// (the bare name's empty parent was taken for its directory, where no key was found).
#[test]
fn a_key_beside_a_receipt_given_by_its_bare_name_is_the_evidences_own() {
    let evidence = Evidence::new();
    let output = sealkit()
        .current_dir(evidence.dir.path())
        .args(["audit", L1_ALLOW, "--format", "json", "--receipt-key"])
        .arg(evidence.seed())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    let paths: Vec<&str> = (document["findings"].as_array().unwrap().iter())
        .filter(|f| f["code"] == Code::ReceiptKeyInEvidence.as_str())
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, [evidence.seed().display().to_string()]);
}

/// `verify receipt` with the key beside the receipt (or a copy of it): not a green
/// AUTHENTICATED, exit 1; the kept public key: AUTHENTICATED, exit 0.
#[test]
fn verify_receipt_says_so_for_a_key_beside_the_receipt() {
    let evidence = Evidence::new();
    let direct = evidence.dir.path().join(L1_ALLOW);
    // Also a receipt given through a link from elsewhere: its own directory is the evidence.
    let apart = tempfile::tempdir().unwrap();
    let linked = apart.path().join("linked-receipt.json");
    std::os::unix::fs::symlink(&direct, &linked).unwrap();
    let cases = evidence.pins_inside();
    let cases = (cases.iter().map(|(what, key)| (*what, key, &direct))).chain([(
        "the seed beside a linked receipt",
        &cases[0].1,
        &linked,
    )]);
    for (what, key, receipt) in cases {
        let human = sealkit()
            .args(["verify", "receipt"])
            .arg(receipt)
            .arg("--receipt-key")
            .arg(key)
            .output()
            .unwrap();
        assert_eq!(human.status.code(), Some(1), "{what}");
        let text = String::from_utf8(human.stdout).unwrap();
        assert!(
            text.contains(&format!("status     AUTHENTICATED {PHRASE} — ")),
            "{what}: {text}"
        );
        let json = sealkit()
            .args(["verify", "receipt", "--format", "jsonl"])
            .arg(receipt)
            .arg("--receipt-key")
            .arg(key)
            .output()
            .unwrap();
        assert_eq!(json.status.code(), Some(1), "{what}");
        let line: Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(line["status"], "authenticated");
        let finding = (line["findings"].as_array().unwrap().iter())
            .find(|f| f["code"] == Code::ReceiptKeyInEvidence.as_str())
            .unwrap_or_else(|| panic!("{what}: {line}"));
        let message = finding["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!(
                "the pinned receipt key {} was read from inside the evidence (",
                key.display()
            )),
            "{message}"
        );
    }
    // Not the bytes of the public key file now inside the directory: the key, as recorded.
    let kept = evidence.elsewhere.path().join("kept.pub");
    let mut text = std::fs::read(support::receipt_key_file(NEW)).unwrap();
    text.pop();
    std::fs::write(&kept, &text).unwrap();
    let output = sealkit()
        .args(["verify", "receipt"])
        .arg(&direct)
        .arg("--receipt-key")
        .arg(&kept)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("status     AUTHENTICATED — "), "{text}");
}

/// The annotated capture whose references name the receipts of `NEW` (testdata/evidence).
const CAPTURE: &str = "testdata/evidence/annotated.capture";

/// `evidence verify` of the bundled capture against `roots`: (first line of the human output,
/// the JSON Lines records, exit status).
fn evidence_verify(roots: &[&Path], key: &Path) -> (String, Vec<Value>, i32) {
    let capture = Path::new(env!("CARGO_MANIFEST_DIR")).join(CAPTURE);
    let run = |format: &str| {
        let mut command = sealkit();
        command
            .args(["--format", format, "evidence", "verify", "--frames"])
            .arg(&capture)
            .arg("--receipt-key")
            .arg(key)
            .arg("--evidence")
            .args(roots);
        command.output().unwrap()
    };
    let (human, json) = (run("human"), run("jsonl"));
    assert_eq!(human.status.code(), json.status.code());
    let records = (String::from_utf8(json.stdout).unwrap().lines())
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let first = (String::from_utf8(human.stdout).unwrap().lines().next())
        .unwrap_or_default()
        .to_owned();
    (first, records, human.status.code().unwrap())
}

/// `evidence verify` with the key under an `--evidence` root (by path, through links, as a
/// hard link or a copy of a file there, in a subdirectory) or beside a root given as a file:
/// not "EVIDENCE OK" but a problem (exit 1), the verdict line saying what "verified" rests on
/// and a `receipt-key-in-evidence` finding first in the JSON; the key kept apart: exit 0.
/// Seen red on 642f4e5 (main): every case exited 0 with "EVIDENCE OK" and no finding.
#[test]
fn evidence_verify_says_so_for_a_key_inside_an_evidence_root() {
    let evidence = Evidence::new();
    let nested = evidence.dir.path().join("keys");
    std::fs::create_dir(&nested).unwrap();
    let nested_key = nested.join("receipt.pub");
    std::fs::copy(support::receipt_key_file(NEW), &nested_key).unwrap();
    let mut cases = evidence.pins_inside();
    cases.push(("a public key in a subdirectory of the root", nested_key));
    let failing =
        format!("EVIDENCE FAIL: 5 references: 5 verified {PHRASE} (5 bound to their call), 0 failed, 0 not checked");
    for (what, key) in &cases {
        let (first, records, status) = evidence_verify(&[evidence.dir.path()], key);
        assert_eq!((status, first.as_str()), (1, failing.as_str()), "{what}");
        assert_eq!(records[0]["type"], "finding", "{what}");
        assert_eq!(records[0]["code"], Code::ReceiptKeyInEvidence.as_str());
        assert_eq!(records[0]["severity"], "error");
        assert_eq!(records[0]["path"], key.display().to_string());
        let checks = &records[1..];
        assert_eq!(checks.len(), 5);
        assert!(checks.iter().all(|r| r["status"] == "verified"), "{what}");
    }
    // Roots given as files (the receipts, one by one) with the seed beside them, and the
    // receipts' directory given after a clean root.
    let receipts = crate::support::receipt_files_in(evidence.dir.path());
    assert_eq!(receipts.len(), 13);
    let roots: Vec<&Path> = receipts.iter().map(PathBuf::as_path).collect();
    let (first, records, status) = evidence_verify(&roots, &evidence.seed());
    assert_eq!((status, first.as_str()), (1, failing.as_str()));
    assert_eq!(records[0]["code"], Code::ReceiptKeyInEvidence.as_str());
    let clean = tempfile::tempdir().unwrap();
    let (first, _, status) =
        evidence_verify(&[clean.path(), evidence.dir.path()], &evidence.seed());
    assert_eq!((status, first.as_str()), (1, failing.as_str()));
    // Kept apart (the public key recorded at install time): a clean check. A key beside the
    // capture alone is not flagged: the capture is unsigned claims, checked against the
    // receipts under the roots, and the man pages' examples keep `receipt.pub` beside
    // `session.capture` (docs/trust-model.md).
    // Not the bytes of the public key file now inside the directory: the key, as recorded.
    let kept = evidence.elsewhere.path().join("kept.pub");
    let mut text = std::fs::read(support::receipt_key_file(NEW)).unwrap();
    text.pop();
    std::fs::write(&kept, &text).unwrap();
    let (first, records, status) = evidence_verify(&[evidence.dir.path()], &kept);
    assert_eq!(status, 0, "{first}");
    assert_eq!(
        first,
        "EVIDENCE OK: 5 references: 5 verified (5 bound to their call), 0 failed, 0 not checked"
    );
    assert!(records.iter().all(|r| r["type"] == "evidence-check"));
}

/// `evidence ref` with the key beside the receipt (every way `verify receipt` is tested
/// with): no reference for a receipt only the evidence vouches for, its
/// `receipt-key-in-evidence` finding instead, exit 1; the kept key: a reference, exit 0.
/// Seen red on 642f4e5 (main): every case printed a reference and exited 0.
#[test]
fn evidence_ref_makes_no_reference_under_a_key_beside_the_receipt() {
    let evidence = Evidence::new();
    let receipt = evidence.dir.path().join(L1_ALLOW);
    let run = |format: &str, key: &Path| {
        sealkit()
            .args(["--format", format, "evidence", "ref", "--receipt-key"])
            .arg(key)
            .arg(&receipt)
            .output()
            .unwrap()
    };
    for (what, key) in evidence.pins_inside() {
        let json = run("jsonl", &key);
        assert_eq!(json.status.code(), Some(1), "{what}");
        let record: Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(record["status"], "authenticated", "{what}");
        assert!(record.get("evidenceRef").is_none(), "{what}: {record}");
        let codes: Vec<&Value> = (record["findings"].as_array().unwrap().iter())
            .map(|f| &f["code"])
            .collect();
        assert_eq!(codes, [Code::ReceiptKeyInEvidence.as_str()], "{what}");
        let human = run("human", &key);
        assert_eq!(human.status.code(), Some(1), "{what}");
        let text = String::from_utf8(human.stdout).unwrap();
        assert!(
            text.contains(&format!(
                "  NO REFERENCE  the receipt is authenticated only {PHRASE}, so it names nothing\n"
            )),
            "{what}: {text}"
        );
        assert!(!text.contains("evidenceRef"), "{what}: {text}");
    }
    // Not the bytes of the public key file now inside the directory: the key, as recorded.
    let kept = evidence.elsewhere.path().join("kept.pub");
    let mut text = std::fs::read(support::receipt_key_file(NEW)).unwrap();
    text.pop();
    std::fs::write(&kept, &text).unwrap();
    let json = run("jsonl", &kept);
    assert_eq!(json.status.code(), Some(0));
    let record: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(record["evidenceRef"]["ref"], L1_ALLOW);
    assert!(record.get("findings").is_none());
}
