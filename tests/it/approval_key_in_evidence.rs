//! An approval key (`--pubkey FILE`) or trusted-approvers list (`--trusted-approvers FILE`)
//! read from inside the evidence it vouches for (issue 36, the approval half of item 6),
//! through the real binary: `verify approval` with the key kept with its token file,
//! `audit` with the list under the audited directory, `report` with the key beside its
//! `--tokens` or the list under a receipt directory, by path, through a link, as a hard link
//! or as a copy of its bytes: an `approval-key-in-evidence` error finding in every output
//! format, a verdict line that says the approvals rest "under an approval key found in the
//! evidence itself", exit 1. The same key kept apart is a clean check, exit 0. Seen red on
//! 5a800d2: every case below exited 0 with no finding (the code did not exist).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::cli_audit::{full_new_dir, write_private};
use crate::report_support::{self, fixture, APPROVAL_PUBKEY};
use crate::support::{self, NEW_RECEIPTS as NEW};
use assert_cmd::Command;
use sealkit::finding::Code;
use serde_json::Value;
use std::path::{Path, PathBuf};

const PHRASE: &str = "under an approval key found in the evidence itself";
const CODE: &str = "approval-key-in-evidence";

fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

/// The fixture's approval token file, as the host wrote it.
fn tokens() -> PathBuf {
    fixture("new/approvals-L.ndjson")
}

/// A public key file of the fixture's approval key.
fn public_key_text() -> String {
    format!("{APPROVAL_PUBKEY}\n")
}

/// A trusted-approvers list naming the fixture's approval key.
fn list_text() -> String {
    format!("alice {APPROVAL_PUBKEY}\n")
}

/// A token file in a directory of its own, and a directory elsewhere.
struct Tokens {
    dir: tempfile::TempDir,
    elsewhere: tempfile::TempDir,
}

impl Tokens {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(tokens(), dir.path().join("tokens.ndjson")).unwrap();
        Tokens {
            dir,
            elsewhere: tempfile::tempdir().unwrap(),
        }
    }

    fn file(&self) -> PathBuf {
        self.dir.path().join("tokens.ndjson")
    }

    /// Every way of giving a key (file text `text`, named `name`) kept with the tokens:
    /// (what, the path given).
    fn inside(&self, name: &str, text: &str) -> Vec<(&'static str, PathBuf)> {
        let beside = self.dir.path().join(name);
        std::fs::write(&beside, text).unwrap();
        let elsewhere = self.elsewhere.path();
        let symlink = elsewhere.join(format!("symlink-{name}"));
        std::os::unix::fs::symlink(&beside, &symlink).unwrap();
        let linked_dir = elsewhere.join(format!("linked-dir-{name}"));
        std::os::unix::fs::symlink(self.dir.path(), &linked_dir).unwrap();
        let hard = elsewhere.join(format!("hard-{name}"));
        std::fs::hard_link(&beside, &hard).unwrap();
        let copy = elsewhere.join(format!("copy-{name}"));
        std::fs::write(&copy, text).unwrap();
        vec![
            ("by its path beside the tokens", beside),
            ("a symbolic link to it", symlink),
            ("through a linked directory", linked_dir.join(name)),
            ("a hard link to it", hard),
            ("a copy of its bytes", copy),
        ]
    }

    /// The same key kept apart from the tokens (and no copy of it left beside them).
    fn apart(&self, name: &str, text: &str) -> PathBuf {
        let _ = std::fs::remove_file(self.dir.path().join(name));
        let dir = self.elsewhere.path().join("apart");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

/// `verify approval` in every format: (human stdout, the JSON summary, the JSON Lines
/// summary, exit statuses).
fn verify_approval(tokens: &Path, option: &str, key: &Path) -> (String, Value, Value, Vec<i32>) {
    let run = |format: &str| {
        let output = sealkit()
            .args(["--format", format, "verify", "approval"])
            .arg(tokens)
            .arg(option)
            .arg(key)
            .output()
            .unwrap();
        (
            String::from_utf8(output.stdout).unwrap(),
            output.status.code().unwrap(),
        )
    };
    let (human, human_status) = run("human");
    let (json, json_status) = run("json");
    let (jsonl, jsonl_status) = run("jsonl");
    let json: Value = serde_json::from_str(&json).unwrap();
    let last = support::jsonl_records(jsonl.as_bytes()).pop().unwrap();
    assert_eq!(last["type"], "summary");
    (
        human,
        json["summary"].clone(),
        last,
        vec![human_status, json_status, jsonl_status],
    )
}

fn codes(findings: &Value) -> Vec<String> {
    (findings.as_array().unwrap().iter())
        .map(|f| f["code"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn verify_approval_says_so_for_a_key_kept_with_the_tokens() {
    let tokens = Tokens::new();
    let cases = [
        ("--pubkey", "approval.pub", public_key_text()),
        ("--trusted-approvers", "approvers.txt", list_text()),
    ];
    for (option, name, text) in &cases {
        for (how, key) in tokens.inside(name, text) {
            let (human, json, jsonl, statuses) = verify_approval(&tokens.file(), option, &key);
            assert_eq!(statuses, [1, 1, 1], "{option} {how}: {human}");
            let summary_line = (human.lines())
                .find(|l| l.contains(" token line"))
                .unwrap_or_else(|| panic!("{option} {how}: {human}"));
            assert!(
                summary_line.contains(&format!("1 accepted {PHRASE}, 0 rejected")),
                "{option} {how}: {summary_line}"
            );
            assert!(
                human.contains(&format!("error [{CODE}]: ")),
                "{option} {how}: {human}"
            );
            for summary in [&json, &jsonl] {
                let findings = &summary["file_findings"];
                assert_eq!(codes(findings)[0], CODE, "{option} {how}: {summary}");
                assert_eq!(findings[0]["severity"], "error");
                assert!(findings[0]["message"]
                    .as_str()
                    .unwrap()
                    .contains(&key.display().to_string()));
                assert_eq!(summary["accepted"], 1, "the tokens keep their status");
            }
        }
        // Kept apart: a clean check.
        let apart = tokens.apart(name, text);
        let (human, json, jsonl, statuses) = verify_approval(&tokens.file(), option, &apart);
        assert_eq!(statuses, [0, 0, 0], "{option} kept apart: {human}");
        assert!(!human.contains(PHRASE) && !human.contains(CODE), "{human}");
        assert!(!codes(&json["file_findings"]).contains(&CODE.to_owned()));
        assert!(!codes(&jsonl["file_findings"]).contains(&CODE.to_owned()));
    }
    // A key given as hex is never in the evidence; one in a subdirectory of the token file's
    // directory is not "kept with" the tokens (docs/trust-model.md: a token file lies at a
    // path its operator chooses, so only its directory's entries count).
    let sub = tokens.dir.path().join("keys");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("approval.pub"), public_key_text()).unwrap();
    for key in [PathBuf::from(APPROVAL_PUBKEY), sub.join("approval.pub")] {
        let (human, .., statuses) = verify_approval(&tokens.file(), "--pubkey", &key);
        assert_eq!(statuses, [0, 0, 0], "{}: {human}", key.display());
    }
}

/// `audit` in human, JSON and JSON Lines form: (first human line, the key findings' paths
/// in JSON and in JSON Lines, exit statuses).
fn audit(dir: &Path, list: &Path) -> (String, Vec<String>, Vec<String>, Vec<i32>) {
    let run = |format: &str| {
        sealkit()
            .args(["--format", format, "audit", "--receipt-key"])
            .arg(support::receipt_key_file(NEW))
            .arg("--trusted-approvers")
            .arg(list)
            .arg(dir)
            .output()
            .unwrap()
    };
    let human = run("human");
    let json = run("json");
    let jsonl = run("jsonl");
    let first = String::from_utf8(human.stdout.clone())
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_owned();
    let paths = |findings: Vec<&Value>| -> Vec<String> {
        (findings.into_iter())
            .filter(|f| f["code"] == CODE)
            .map(|f| f["path"].as_str().unwrap().to_owned())
            .collect()
    };
    let document: Value = serde_json::from_slice(&json.stdout).unwrap();
    let from_json = paths(document["findings"].as_array().unwrap().iter().collect());
    let records = support::jsonl_records(&jsonl.stdout);
    let from_jsonl = paths(records.iter().filter(|r| r["type"] == "finding").collect());
    (
        first,
        from_json,
        from_jsonl,
        [human, json, jsonl]
            .iter()
            .map(|o| o.status.code().unwrap())
            .collect(),
    )
}

#[test]
fn audit_says_so_for_a_trusted_approvers_list_inside_the_audited_directory() {
    assert_eq!(Code::ApprovalKeyInEvidence.as_str(), CODE);
    let dir = full_new_dir();
    let elsewhere = tempfile::tempdir().unwrap();
    let inside = dir.path().join("approvers.txt");
    write_private(&inside, list_text().as_bytes());
    let symlink = elsewhere.path().join("symlink.txt");
    std::os::unix::fs::symlink(&inside, &symlink).unwrap();
    let hard = elsewhere.path().join("hard.txt");
    std::fs::hard_link(&inside, &hard).unwrap();
    let copy = elsewhere.path().join("copy.txt");
    std::fs::write(&copy, list_text()).unwrap();
    for (how, list) in [
        ("by its path", inside.clone()),
        ("a symbolic link to it", symlink),
        ("a hard link to it", hard),
        ("a copy of its bytes", copy),
    ] {
        let (first, json, jsonl, statuses) = audit(dir.path(), &list);
        assert_eq!(statuses, [1, 1, 1], "{how}: {first}");
        assert!(first.starts_with("Problems found"), "{how}: {first}");
        assert!(
            first.contains(&format!("; approvers named {PHRASE}.")),
            "{how}: {first}"
        );
        assert!(first.contains(CODE), "{how}: {first}");
        assert_eq!(json, [list.display().to_string()], "{how}");
        assert_eq!(jsonl, json, "{how}");
    }
    // The same list kept apart (and no copy of it inside): a clean audit.
    std::fs::remove_file(&inside).unwrap();
    let apart = elsewhere.path().join("apart.txt");
    std::fs::write(&apart, list_text()).unwrap();
    let (first, json, jsonl, statuses) = audit(dir.path(), &apart);
    assert_eq!(statuses, [0, 0, 0], "{first}");
    assert!(!first.contains(PHRASE), "{first}");
    assert!(json.is_empty() && jsonl.is_empty());
}

/// `report` in JSON (the model), JSON Lines and page form: (the model's verdict, the
/// model's key-finding paths, the JSON Lines key-finding paths, the page, exit statuses).
fn report(
    dirs: &[&Path],
    extra: &[&std::ffi::OsStr],
) -> (Value, Vec<String>, Vec<String>, String, Vec<i32>) {
    let out = tempfile::tempdir().unwrap();
    let run = |format: &str, file: &Path| {
        let mut command = sealkit();
        command
            .args(["--format", format, "report", "--out"])
            .arg(file)
            .arg("--receipt-key")
            .arg(report_support::receipt_key())
            .args(extra)
            .args(dirs);
        command.output().unwrap().status.code().unwrap()
    };
    let (json, jsonl, page) = (
        out.path().join("m.json"),
        out.path().join("m.jsonl"),
        out.path().join("page.html"),
    );
    let statuses = vec![
        run("json", &json),
        run("jsonl", &jsonl),
        run("human", &page),
    ];
    let model: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let paths = |findings: Vec<&Value>| -> Vec<String> {
        (findings.into_iter())
            .filter(|f| f["code"] == CODE)
            .map(|f| f["path"].as_str().unwrap().to_owned())
            .collect()
    };
    let from_model = paths(model["findings"].as_array().unwrap().iter().collect());
    let records = support::jsonl_records(&std::fs::read(&jsonl).unwrap());
    let from_jsonl = paths(records.iter().filter(|r| r["type"] == "finding").collect());
    let verdict = records.last().unwrap();
    assert_eq!(verdict["type"], "report-verdict");
    assert_eq!(verdict["headline"], model["verdict"]["headline"]);
    (
        model["verdict"].clone(),
        from_model,
        from_jsonl,
        std::fs::read_to_string(&page).unwrap(),
        statuses,
    )
}

#[test]
fn report_says_so_for_a_key_beside_its_tokens_or_a_list_under_a_receipt_directory() {
    let tokens = Tokens::new();
    let receipts = fixture("new/receipts");
    let token_arg = tokens.file();
    let mut cases: Vec<(String, PathBuf, Vec<&Path>)> = Vec::new();
    for (how, key) in tokens.inside("approval.pub", &public_key_text()) {
        cases.push((format!("--pubkey {how}"), key, vec![receipts.as_path()]));
    }
    // A list under a receipt directory (a copy of the fixture's, with the list inside).
    let dir = full_new_dir();
    let inside = dir.path().join("approvers.txt");
    write_private(&inside, list_text().as_bytes());
    cases.push((
        "--trusted-approvers under a receipt directory".into(),
        inside,
        vec![dir.path()],
    ));
    for (how, key, dirs) in &cases {
        let option = if how.starts_with("--pubkey") {
            "--pubkey"
        } else {
            "--trusted-approvers"
        };
        let extra = [
            option.as_ref(),
            key.as_os_str(),
            "--tokens".as_ref(),
            token_arg.as_os_str(),
        ];
        let (verdict, model, jsonl, page, statuses) = report(dirs, &extra);
        assert_eq!(statuses, [1, 1, 1], "{how}: {verdict}");
        assert_eq!(verdict["outcome"], "problems", "{how}");
        let headline = verdict["headline"].as_str().unwrap();
        assert!(
            headline.contains(&format!("; approvals accepted {PHRASE}.")),
            "{how}: {headline}"
        );
        assert_eq!(model, [key.display().to_string()], "{how}");
        assert_eq!(jsonl, model, "{how}");
        // The page says it in its verdict and on its approvals card.
        assert!(
            page.contains(&format!("approvals accepted {PHRASE}")),
            "{how}"
        );
        assert!(
            page.contains(&format!("tokens accepted and approvers named {PHRASE}")),
            "{how}"
        );
        assert!(page.contains(CODE), "{how}");
    }
    // The key kept apart: the fixture's report as it was.
    let apart = tokens.apart("approval.pub", &public_key_text());
    let extra = [
        "--pubkey".as_ref(),
        apart.as_os_str(),
        "--tokens".as_ref(),
        token_arg.as_os_str(),
    ];
    let (verdict, model, jsonl, page, _) = report(&[receipts.as_path()], &extra);
    assert!(model.is_empty() && jsonl.is_empty(), "{verdict}");
    assert!(!verdict["headline"].as_str().unwrap().contains(PHRASE));
    assert!(!page.contains(PHRASE));
}
