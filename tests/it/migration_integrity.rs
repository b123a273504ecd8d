//! Hostile migration inputs through the real binary: a migration output is unsigned data, so
//! `diff` recomputes every label it can and never lets one it could not recompute pass for
//! verified; and the order of `--frames` never decides a label (`migrate` and `diff`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn fixtures() -> PathBuf {
    root().join("testdata/receipts/legacy-vs-current")
}

pub(crate) const CAPTURES: [&str; 3] = [
    "--frames",
    "frames/session-L.capture",
    "frames/session-M.capture",
];
/// Old (record_version 2) receipts whose identity is unchanged with the captures (L1, M8).
const OLD_L1: &str = "receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json";
const OLD_M8: &str = "receipt-00000000000000000003-fbf2ff479c278ef79666dbaedfd8c078391d172d5a15f47d9c7e58b198c271e0.json";
/// The new (record_version 3) receipt of L1's frame F01.
const NEW_L1: &str = "receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json";

fn sealkit(cwd: &Path) -> Command {
    let mut cmd = Command::cargo_bin("sealkit").unwrap();
    cmd.current_dir(cwd);
    cmd
}

pub(crate) fn run(cwd: &Path, args: &[&str]) -> (i32, String) {
    let output = sealkit(cwd).args(args).output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

pub(crate) fn jsonl(cwd: &Path, args: &[&str]) -> (i32, Vec<Value>) {
    let mut all = args.to_vec();
    all.extend(["--format", "jsonl"]);
    let (code, stdout) = run(cwd, &all);
    (
        code,
        stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    )
}

pub(crate) fn of_type<'a>(lines: &'a [Value], kind: &str) -> Vec<&'a Value> {
    lines.iter().filter(|l| l["type"] == kind).collect()
}

/// The old receipts' labels with the captures, by file path.
pub(crate) fn expected() -> BTreeMap<String, Value> {
    let bytes =
        std::fs::read(root().join("testdata/legacy-vs-current/expected-labels.json")).unwrap();
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    value["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["file"].as_str().unwrap().to_owned(),
                e["with_capture"].clone(),
            )
        })
        .collect()
}

/// The attack: every label set to `identity-unchanged`, every change list cleared, and
/// `records.sha256` recomputed so the output still loads.
pub(crate) fn forge(out: &Path) {
    let records = std::fs::read_to_string(out.join("migration.jsonl")).unwrap();
    let mut forged = String::new();
    for line in records.lines() {
        let mut record: Value = serde_json::from_str(line).unwrap();
        record["label"] = "identity-unchanged".into();
        record["changes"] = serde_json::json!([]);
        forged.push_str(&serde_json::to_string(&record).unwrap());
        forged.push('\n');
    }
    reseal(out, &forged);
}

/// Writes `records` as the migration output's records, with `records.sha256` recomputed so
/// the output still loads (the digest guards against accidents, not edits).
fn reseal(out: &Path, records: &str) {
    std::fs::write(out.join("migration.jsonl"), records).unwrap();
    let mut summary: Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    summary["records"]["sha256"] = sealkit::digest::sha256_hex(records.as_bytes()).into();
    std::fs::write(
        out.join("summary.json"),
        serde_json::to_vec_pretty(&summary).unwrap(),
    )
    .unwrap();
}

/// A genuine migration of receipts that keep their identity, diffed with the captures, exits
/// 0 (every record confirmed); without the captures nothing can be recomputed: exit 1. Seen
/// red on 08828c0: there records carried no `label_check`, and the diff without captures
/// adopted the recorded labels and exited 0.
#[test]
fn a_genuine_unchanged_migration_diffed_with_its_frames_exits_0() {
    let work = tempfile::tempdir().unwrap();
    let old = work.path().join("old");
    std::fs::create_dir(&old).unwrap();
    for name in [OLD_L1, OLD_M8] {
        std::fs::copy(fixtures().join("old/receipts").join(name), old.join(name)).unwrap();
    }
    let frames = fixtures().join("frames");
    let (l, m) = (
        frames.join("session-L.capture"),
        frames.join("session-M.capture"),
    );
    let captures = ["--frames", l.to_str().unwrap(), m.to_str().unwrap()];
    let mut migrate = vec!["migrate", "old"];
    migrate.extend(captures);
    migrate.extend(["--out", "out"]);
    assert_eq!(run(work.path(), &migrate).0, 0);
    let mut diff = vec!["diff", "old", "out"];
    diff.extend(captures);
    let (code, lines) = jsonl(work.path(), &diff);
    assert_eq!(code, 0, "{lines:#?}");
    for pair in of_type(&lines, "pair") {
        assert_eq!(pair["label"], "identity-unchanged");
        assert_eq!(pair["new"]["label_check"], "confirmed");
    }
    assert!(of_type(&lines, "finding").is_empty());
    let (code, lines) = jsonl(work.path(), &["diff", "old", "out"]);
    assert_eq!(code, 1);
    assert_eq!(of_type(&lines, "summary")[0]["new_unverified"], 2);
}

/// A receipt this diff migrates itself keeps the label it recomputed (`recomputed`) whatever
/// the migration output says of the same bytes: a record that agrees (here both say
/// `frame-unrecoverable`, no capture on either side) is `confirmed`, and one whose facts were
/// edited is `unverified` on its own side only. Only a receipt without a frame may show a
/// record's label, and only a record neither confirmed nor itself frameless. Mutation check:
/// each of `adopt_unverified`'s three `&&` as `||` (cargo-mutants, migrate group, session 6)
/// let a receipt adopt a frameless or confirmed record, or one with a frame adopt a record at
/// all, marked `unverified`: this test turned red under each.
#[test]
fn a_receipt_this_diff_migrated_keeps_its_own_label() {
    let work = tempfile::tempdir().unwrap();
    let old = work.path().join("old");
    std::fs::create_dir(&old).unwrap();
    for name in [OLD_L1, OLD_M8] {
        std::fs::copy(fixtures().join("old/receipts").join(name), old.join(name)).unwrap();
    }
    assert_eq!(run(work.path(), &["migrate", "old", "--out", "out"]).0, 1);
    let checks = |lines: &[Value]| -> Vec<(String, String, String)> {
        of_type(lines, "pair")
            .iter()
            .map(|pair| {
                let field = |side: &str, name: &str| pair[side][name].as_str().unwrap().to_owned();
                (
                    field("old", "label"),
                    field("old", "label_check"),
                    field("new", "label_check"),
                )
            })
            .collect()
    };
    let (_, lines) = jsonl(work.path(), &["diff", "old", "out"]);
    let frameless = |new: &str| {
        vec![
            (
                "frame-unrecoverable".to_owned(),
                "recomputed".to_owned(),
                new.to_owned(),
            );
            2
        ]
    };
    assert_eq!(checks(&lines), frameless("confirmed"));
    // Each record's change list edited (its label left as it was), and the output resealed.
    let out = work.path().join("out");
    let records = std::fs::read_to_string(out.join("migration.jsonl")).unwrap();
    let mut edited = String::new();
    for line in records.lines() {
        let mut record: Value = serde_json::from_str(line).unwrap();
        assert_eq!(record["label"], "frame-unrecoverable");
        record["changes"] = serde_json::json!(["meta"]);
        edited.push_str(&serde_json::to_string(&record).unwrap());
        edited.push('\n');
    }
    reseal(&out, &edited);
    let (_, lines) = jsonl(work.path(), &["diff", "old", "out"]);
    assert_eq!(checks(&lines), frameless("unverified"));
    for pair in of_type(&lines, "pair") {
        assert_eq!(pair["old"]["changes"], serde_json::json!([]), "{pair}");
    }
    // A receipt whose supplied frame contradicts it (`frame-mismatch`, which settles nothing)
    // keeps that label beside a record made with its true frame (`meta-now-committed`).
    let m4 = "receipt-00000000000000000005-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
    let old = work.path().join("m4");
    std::fs::create_dir(&old).unwrap();
    std::fs::copy(fixtures().join("old/receipts").join(m4), old.join(m4)).unwrap();
    let frame = |name: &str| fixtures().join("frames").join(name);
    let (true_frame, wrong_frame) = (frame("F06.frame"), frame("F05.frame"));
    let migrate = ["migrate", "m4", "--frames", true_frame.to_str().unwrap()];
    assert_eq!(
        run(work.path(), &[&migrate[..], &["--out", "m4-out"]].concat()).0,
        1
    );
    let diff = [
        "diff",
        "m4",
        "m4-out",
        "--frames",
        wrong_frame.to_str().unwrap(),
    ];
    let (_, lines) = jsonl(work.path(), &diff);
    let pair = of_type(&lines, "pair")[0];
    assert_eq!(pair["old"]["label"], "frame-mismatch", "{pair}");
    assert_eq!(pair["old"]["label_check"], "recomputed", "{pair}");
    assert_eq!(pair["new"]["label"], "meta-now-committed", "{pair}");
    assert_eq!(pair["new"]["label_check"], "unverified", "{pair}");
}

/// Two captures that sent F01 in sessions of different eras (one begun with `initialize`,
/// one with `server/discover`), and the old and new receipts of F01, in `dir`.
fn era_captures(dir: &Path) {
    let frames = fixtures().join("frames");
    let read = |name: &str| std::fs::read(frames.join(name)).unwrap();
    let f01 = read("F01.frame");
    std::fs::write(
        dir.join("legacy.capture"),
        [read("L0-initialize.frame"), f01.clone()].concat(),
    )
    .unwrap();
    std::fs::write(
        dir.join("modern.capture"),
        [read("M0-server-discover.frame"), f01].concat(),
    )
    .unwrap();
    std::fs::copy(
        fixtures().join("old/receipts").join(OLD_L1),
        dir.join("old.json"),
    )
    .unwrap();
    std::fs::copy(
        fixtures().join("new/receipts").join(NEW_L1),
        dir.join("new.json"),
    )
    .unwrap();
}

/// Seen red on 08828c0 (the binary before conflicts were kept): `--frames legacy modern`
/// labelled L1 `identity-unchanged` (exit 0), `--frames modern legacy` `refused-now` (exit 1).
#[test]
fn the_order_of_frames_never_decides_a_migration_label() {
    let work = tempfile::tempdir().unwrap();
    era_captures(work.path());
    let orders = [
        ["legacy.capture", "modern.capture"],
        ["modern.capture", "legacy.capture"],
    ];
    let mut human = Vec::new();
    let mut records = Vec::new();
    for [first, second] in orders {
        // The same NEW_DIR each time, so the output names it alike (a rerun replaces it).
        let out = "out";
        let (code, stdout) = run(
            work.path(),
            &[
                "migrate", "old.json", "--frames", first, second, "--out", out,
            ],
        );
        assert_eq!(code, 1, "a conflict needs attention");
        human.push(stdout);
        records.push(std::fs::read(work.path().join(out).join("migration.jsonl")).unwrap());
        let (_, lines) = jsonl(
            work.path(),
            &[
                "migrate", "old.json", "--frames", first, second, "--out", out,
            ],
        );
        let summary = &of_type(&lines, "summary")[0];
        assert_eq!(summary["labels"]["frame-conflict"], 1);
        assert_eq!(summary["needs_attention"], 1);
    }
    assert_eq!(human[0], human[1], "identical human output in both orders");
    assert_eq!(records[0], records[1], "identical records in both orders");
    let record: Value = serde_json::from_slice(&records[0]).unwrap();
    assert_eq!(record["label"], "frame-conflict");
    let outcomes = record["frame_conflict"].as_array().unwrap();
    assert_eq!(outcomes.len(), 2);
    assert_eq!(outcomes[0]["session_era"], "legacy");
    assert_eq!(outcomes[0]["frame"]["file"], "legacy.capture");
    assert_eq!(outcomes[0]["frame"]["frame_number"], 2);
    assert_eq!(outcomes[0]["label"], "identity-unchanged");
    assert_eq!(outcomes[1]["session_era"], "2026-07-28");
    assert_eq!(outcomes[1]["frame"]["file"], "modern.capture");
    assert_eq!(outcomes[1]["label"], "refused-now");
    assert_eq!(outcomes[1]["refusal"], "meta-required");
    assert_eq!(
        record["detail"],
        "the captures sent this frame in sessions of different eras, and the eras disagree: legacy.capture frame 2 (legacy session) gives identity-unchanged; modern.capture frame 2 (2026-07-28 session) gives refused-now (meta-required); neither is chosen"
    );
    assert!(human[0].contains("frame-conflict"));
    assert!(human[0].contains("legacy.capture frame 2 (legacy session) gives identity-unchanged"));

    // One capture alone is no conflict: its era decides.
    let (code, lines) = jsonl(
        work.path(),
        &[
            "migrate",
            "old.json",
            "--frames",
            "legacy.capture",
            "--out",
            "out-l",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(of_type(&lines, "record")[0]["label"], "identity-unchanged");
}

/// Seen red on 08828c0: `diff` followed the first capture's era as `migrate` did.
#[test]
fn the_order_of_frames_never_decides_a_diff() {
    let work = tempfile::tempdir().unwrap();
    era_captures(work.path());
    for format in ["human", "jsonl"] {
        let outputs: Vec<(i32, String)> = [
            ["legacy.capture", "modern.capture"],
            ["modern.capture", "legacy.capture"],
        ]
        .iter()
        .map(|[a, b]| {
            run(
                work.path(),
                &[
                    "diff", "old.json", "new.json", "--frames", a, b, "--format", format,
                ],
            )
        })
        .collect();
        assert_eq!(outputs[0], outputs[1], "{format}: identical in both orders");
        assert_eq!(outputs[0].0, 1);
    }
    let (_, lines) = jsonl(
        work.path(),
        &[
            "diff",
            "old.json",
            "new.json",
            "--frames",
            "modern.capture",
            "legacy.capture",
        ],
    );
    let pair = of_type(&lines, "pair")[0];
    assert_eq!(pair["label"], "frame-conflict");
    assert_eq!(pair["old"]["label_check"], "recomputed");
    let detail = pair["old"]["detail"].as_str().unwrap();
    assert!(detail.contains("legacy.capture frame 2 (legacy session) gives identity-unchanged"));
    assert!(detail
        .contains("modern.capture frame 2 (2026-07-28 session) gives refused-now (meta-required)"));
}
