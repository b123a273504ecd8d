//! `sealkit diff` through the real binary (docs/migration.md): pairing by exact-frame subject and
//! session order, the fixture README's migration facts in the output, labels of both sides,
//! migration outputs as input, one-sided receipts and exit codes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixtures() -> PathBuf {
    root().join("testdata/receipts/legacy-vs-current")
}

fn sealkit() -> Command {
    let mut cmd = Command::cargo_bin("sealkit").unwrap();
    cmd.current_dir(fixtures());
    cmd
}

fn expected() -> BTreeMap<String, Value> {
    let bytes =
        std::fs::read(root().join("testdata/legacy-vs-current/expected-labels.json")).unwrap();
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    value["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["file"].as_str().unwrap().to_owned(), e.clone()))
        .collect()
}

fn jsonl(args: &[&str]) -> (i32, Vec<Value>) {
    let output = sealkit()
        .arg("diff")
        .args(args)
        .args(["--format", "jsonl"])
        .output()
        .unwrap();
    let lines = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (output.status.code().unwrap(), lines)
}

fn of_type<'a>(lines: &'a [Value], kind: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["type"] == kind).collect()
}

/// The step of each receipt (L1…M8) from the manifest, to check session-order pairing.
fn steps() -> BTreeMap<String, String> {
    let bytes = std::fs::read(root().join("testdata/legacy-vs-current/manifest.json")).unwrap();
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    value["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["file"].as_str().unwrap().to_owned(),
                r["step"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn pairs_follow_frames_and_session_order_with_expected_labels() {
    for frames in [
        vec![
            "--frames",
            "frames/session-L.capture",
            "frames/session-M.capture",
        ],
        // Without captures the new receipts' object A frames serve the old receipts.
        vec![],
    ] {
        let mut args = vec!["old/receipts", "new/receipts"];
        args.extend(&frames);
        let (code, lines) = jsonl(&args);
        assert_eq!(code, 1);
        let pairs = of_type(&lines, "pair");
        assert_eq!(pairs.len(), 13);
        let (expected, steps) = (expected(), steps());
        let mut order = Vec::new();
        for pair in &pairs {
            let old = pair["old"]["receipt"].as_str().unwrap();
            let new = pair["new"]["receipt"].as_str().unwrap();
            assert_eq!(steps[old], steps[new], "{old} paired with {new}");
            assert_eq!(pair["key"]["link"], "framed-subject");
            assert_eq!(
                pair["label"], expected[old]["with_capture"]["label"],
                "{old}"
            );
            assert_eq!(pair["changes"], expected[old]["with_capture"]["changes"]);
            assert_eq!(
                pair["new"]["label"], expected[new]["with_capture"]["label"],
                "{new}"
            );
            order.push(steps[old].clone());
        }
        assert_eq!(
            order,
            ["L1", "L2", "L3", "L4", "L5", "M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8"]
        );
        assert!(of_type(&lines, "old-only").is_empty());
        assert!(of_type(&lines, "new-only").is_empty());
    }
}

#[test]
fn pair_values_show_what_changed() {
    let (_, lines) = jsonl(&["old/receipts", "new/receipts"]);
    let pairs = of_type(&lines, "pair");
    // L2: F02 BLOCK, legacy target → host target, canonical hash unchanged.
    let l2 = pairs[1];
    assert_eq!(
        l2["old"]["target"],
        "58309503cc30803da92ad66ba02f9b3e182d6513fad532dea18d37d3f25eb39d"
    );
    assert_eq!(l2["old"]["target_profile"], "legacy");
    assert_eq!(
        l2["new"]["target"],
        "85545fe075783b72f2703c8b4769da0b5ef1962bc2e8ecf62e3c9bf366a65aca"
    );
    assert_eq!(l2["new"]["target_profile"], "host");
    assert_eq!(l2["changed"]["target"], true);
    assert_eq!(l2["changed"]["canonical_request_sha256"], false);
    assert_eq!(l2["changed"]["verdict"], false);
    assert_eq!(l2["changed"]["meta_keys"], false);
    assert_eq!(
        (l2["position"].as_u64(), l2["of"].as_u64()),
        (Some(1), Some(2))
    );
    // L5: F09, old hash ignores its _meta, the new one includes it.
    let l5 = pairs[4];
    assert_eq!(
        l5["old"]["canonical_request_sha256"],
        "a095bd51e8bc3c51940b984890079f749a81e3a11ea16e6f893374ecf5c0e9d3"
    );
    assert_eq!(
        l5["new"]["canonical_request_sha256"],
        "a6e43f544e76d609185c1aafc6734ed363b7d146cc64abe8b86b99f5562ead31"
    );
    assert_eq!(l5["old"]["refusal"], "invalid-traceparent");
    assert_eq!(
        l5["old"]["meta_keys"],
        serde_json::json!(["progressToken", "traceparent"])
    );
    // M4: F06, committed target differs from both recorded ones.
    let m4 = pairs[8];
    assert_eq!(
        m4["committed_target"],
        "22fc496a39f69a29c9081faf6cbb20687fa51aa228331daa96d922b1e374e797"
    );
    assert_eq!(m4["old"]["counter"], 5);
    assert_eq!(m4["new"]["counter"], 3);
}

#[test]
fn the_readme_migration_facts_are_in_the_notes() {
    let (_, lines) = jsonl(&[
        "old/receipts",
        "new/receipts",
        "--frames",
        "frames/session-L.capture",
        "frames/session-M.capture",
    ]);
    let notes = of_type(&lines, "note");
    let with = |code: &str, side: Option<&str>| -> Vec<&Value> {
        notes
            .iter()
            .copied()
            .filter(|n| n["code"] == code && n["side"].as_str() == side)
            .collect()
    };
    // 1. Old targets are the legacy profile, new ones host.
    assert_eq!(
        with("target-profiles", Some("old"))[0]["items"],
        serde_json::json!(["legacy"])
    );
    assert_eq!(
        with("target-profiles", Some("new"))[0]["items"],
        serde_json::json!(["host"])
    );
    // 2. id-1 collisions: F02, F05 and F06 share 460d746b… in the old receipts only.
    let shared = with("shared-canonical-hash", Some("old"));
    assert_eq!(shared.len(), 1);
    assert_eq!(
        shared[0]["items"][0],
        "460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793"
    );
    assert_eq!(shared[0]["items"].as_array().unwrap().len(), 4);
    assert!(with("shared-canonical-hash", Some("new")).is_empty());
    // 5. Counter reuse across restarts.
    assert_eq!(
        with("counter-reused", Some("old"))[0]["items"],
        serde_json::json!([
            "00000000000000000000",
            "00000000000000000003",
            "00000000000000000004"
        ])
    );
    assert_eq!(
        with("counter-reused", Some("new"))[0]["items"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    // 4. BLOCK then approved retry (and BLOCK then budget BLOCK) pair in session order.
    let several = with("several-receipts-per-frame", None);
    assert_eq!(several.len(), 4);
    assert!(several.iter().any(|n| n["message"]
        .as_str()
        .unwrap()
        .ends_with("BLOCK → BLOCK, ALLOW → ALLOW")));
    // The human transcript says the same in words (tests/cmd/diff/legacy-vs-current.stdout).
    let human =
        std::fs::read_to_string(root().join("tests/cmd/diff/legacy-vs-current.stdout")).unwrap();
    for fact in [
        "9 legacy profile (untagged [server?, tool, args])",
        "9 host profile",
        "forces id 1",
        "counters never identify a receipt",
        "paired in session order (now, then counter): BLOCK → BLOCK, ALLOW → ALLOW",
        "58309503cc30803da92ad66ba02f9b3e182d6513fad532dea18d37d3f25eb39d legacy",
        "→ 85545fe075783b72f2703c8b4769da0b5ef1962bc2e8ecf62e3c9bf366a65aca host",
    ] {
        assert!(human.contains(fact), "{fact}");
    }
}

#[test]
fn a_migration_output_diffs_against_its_old_receipts() {
    let out = tempfile::tempdir().unwrap();
    sealkit()
        .args(["migrate", "old/receipts", "--frames", "frames/", "--out"])
        .arg(out.path())
        .assert()
        .code(1);
    let (code, lines) = jsonl(&["old/receipts", out.path().to_str().unwrap()]);
    assert_eq!(code, 1);
    let pairs = of_type(&lines, "pair");
    assert_eq!(pairs.len(), 13);
    let expected = expected();
    for pair in &pairs {
        let old = pair["old"]["receipt"].as_str().unwrap();
        // No captures given to diff: the label comes from the migration of the same bytes,
        // shown as reported by it, not verified.
        assert_eq!(
            pair["label"], expected[old]["with_capture"]["label"],
            "{old}"
        );
        assert_eq!(pair["old"]["label_check"], "unverified");
        assert_eq!(pair["new"]["label_check"], "unverified");
        assert_eq!(pair["new"]["origin"], "migration-record");
        assert_eq!(pair["new"]["verdict"], Value::Null);
        if pair["old"]["target"].is_string() {
            assert_eq!(pair["new"]["target_profile"], "committed");
            assert_eq!(pair["new"]["target"], pair["committed_target"]);
        }
    }
    // The records file alone works too; an edited output is refused.
    let (code, lines) = jsonl(&[
        "old/receipts",
        out.path().join("migration.jsonl").to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert_eq!(of_type(&lines, "pair").len(), 13);
    // A summary that miscounts its records, and records without their summary, are pinned in
    // regression.rs (miscounted_migration_summary_accepted, unsummarised_migration_output_diffed).
    let records = out.path().join("migration.jsonl");
    let mut bytes = std::fs::read(&records).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&records, bytes).unwrap();
    sealkit()
        .args(["diff", "old/receipts", "--format", "jsonl"])
        .arg(out.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("does not match the SHA-256"));
}

const NEW_L1: &str = "new/receipts/receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json";

#[test]
fn one_sided_receipts_and_exit_codes() {
    sealkit().args(["diff", NEW_L1, NEW_L1]).assert().code(0);
    let (code, lines) = jsonl(&["old/receipts", NEW_L1]);
    assert_eq!(code, 1);
    assert_eq!(of_type(&lines, "pair").len(), 1);
    assert_eq!(of_type(&lines, "old-only").len(), 12);
    let summary = of_type(&lines, "summary")[0];
    assert_eq!(summary["old_only"], 12);
    assert_eq!(summary["needs_attention"], true);
    let human = sealkit()
        .args(["diff", "old/receipts", NEW_L1])
        .output()
        .unwrap();
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.contains("only in old"));
    assert!(text.contains("1 pair, 12 only in old, 0 only in new"));
    sealkit()
        .args(["diff", "no/such/dir", NEW_L1])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unreadable-input"));
    assert!(Path::new(&fixtures().join(NEW_L1)).is_file());
}
