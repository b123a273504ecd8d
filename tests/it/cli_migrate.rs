//! `sealkit migrate` through the real binary (docs/migration.md): every expected label and change
//! list of the legacy-vs-current fixtures, the exact old and committed targets, the wording
//! rules, damaged receipts, exit codes, byte-identical reruns, an interrupted run, and the
//! old directory left untouched.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The receipts copy of the fixtures (old/, new/, frames/).
pub(crate) fn fixtures() -> PathBuf {
    root().join("testdata/receipts/legacy-vs-current")
}

fn json_file(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn expected() -> BTreeMap<String, Value> {
    let labels = json_file(&root().join("testdata/legacy-vs-current/expected-labels.json"));
    labels["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["file"].as_str().unwrap().to_owned(), e.clone()))
        .collect()
}

fn manifest() -> BTreeMap<String, Value> {
    let manifest = json_file(&root().join("testdata/legacy-vs-current/manifest.json"));
    manifest["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["file"].as_str().unwrap().to_owned(), e.clone()))
        .collect()
}

pub(crate) fn sealkit(cwd: &Path) -> Command {
    let mut cmd = Command::cargo_bin("sealkit").unwrap();
    cmd.current_dir(cwd);
    cmd
}

/// Runs migrate with `--format jsonl` in the fixture directory; returns exit code, records
/// and summary line.
fn migrate_jsonl(args: &[&str], out: &Path) -> (i32, Vec<Value>, Value) {
    let output = sealkit(&fixtures())
        .arg("migrate")
        .args(args)
        .arg("--out")
        .arg(out)
        .args(["--format", "jsonl"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let mut lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let summary = lines.pop().unwrap();
    assert_eq!(summary["type"], "summary");
    (output.status.code().unwrap(), lines, summary)
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

pub(crate) const CAPTURES: [&str; 3] = [
    "--frames",
    "frames/session-L.capture",
    "frames/session-M.capture",
];

#[test]
fn every_expected_label_and_target_through_the_binary_with_captures() {
    let dir = tempfile::tempdir().unwrap();
    let mut args = vec!["old/receipts", "new/receipts"];
    args.extend(CAPTURES);
    let (code, records, summary) = migrate_jsonl(&args, dir.path());
    assert_eq!(code, 1);
    assert_eq!(records.len(), 26);
    let (expected, manifest) = (expected(), manifest());
    for record in &records {
        let file = record["receipt"].as_str().unwrap();
        let want = &expected[file]["with_capture"];
        assert_eq!(record["label"], want["label"], "{file}");
        assert_eq!(record["changes"], want["changes"], "{file}");
        assert_eq!(
            record["old_profile"], expected[file]["old_target_profile"],
            "{file}"
        );
        let m = &manifest[file];
        let recorded = m["target_legacy"]
            .as_str()
            .filter(|_| m["record_version"] == 2)
            .or_else(|| m["target_host"].as_str());
        assert_eq!(record["old_target"].as_str(), recorded, "{file}");
        let refused = want["label"] == "refused-now";
        let committed = m["target_committed_option_a"].as_str().filter(|_| !refused);
        assert_eq!(record["committed_target"].as_str(), committed, "{file}");
        // The wording rule against the frame's own bytes.
        match &m["meta_in_frame"] {
            Value::String(word) if word == "absent" => {
                assert_eq!(record["meta"], "absent", "{file}");
                assert!(record.get("meta_keys").is_none());
            }
            keys => {
                assert_eq!(record["meta"], "present", "{file}");
                let mut want = strings(keys);
                want.sort();
                assert_eq!(strings(&record["meta_keys"]), want, "{file}");
            }
        }
        let context = |name: &str| if m[name] == true { "present" } else { "absent" };
        assert_eq!(record["request_state"], context("requestState_in_frame"));
        assert_eq!(
            record["input_responses"],
            context("inputResponses_in_frame")
        );
        if refused {
            assert_eq!(record["refusal"]["code"], "invalid-traceparent", "{file}");
        } else {
            assert!(record.get("refusal").is_none(), "{file}");
        }
        for key in [
            "receipt",
            "label",
            "changes",
            "meta",
            "old_target",
            "old_profile",
            "committed_target",
        ] {
            assert!(record.get(key).is_some(), "{file} lacks {key}");
        }
    }
    assert_eq!(summary["receipts"], 26);
    assert_eq!(summary["labels"]["identity-unchanged"], 6);
}

#[test]
fn without_captures_old_receipts_are_unrecoverable_and_meta_unknown_never_absent() {
    let dir = tempfile::tempdir().unwrap();
    let (code, records, summary) = migrate_jsonl(&["old/receipts", "new/receipts"], dir.path());
    assert_eq!(code, 1);
    let expected = expected();
    for record in &records {
        let file = record["receipt"].as_str().unwrap();
        let want = &expected[file]["without_capture"];
        assert_eq!(record["label"], want["label"], "{file}");
        assert_eq!(record["changes"], want["changes"], "{file}");
        if record["label"] == "frame-unrecoverable" {
            assert_eq!(record["meta"], "unknown", "{file}");
            assert_eq!(record["request_state"], "unknown");
            assert_eq!(record["input_responses"], "unknown");
            assert_eq!(record["committed_target"], Value::Null);
            assert_eq!(record["frame"], Value::Null);
            assert!(record["detail"].as_str().unwrap().starts_with("no frame: "));
        }
    }
    assert_eq!(summary["meta"]["unknown"], 13);
    // Human output uses the same words.
    let human = sealkit(&fixtures())
        .args(["migrate", "old/receipts", "--out"])
        .arg(dir.path().join("h"))
        .output()
        .unwrap();
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.contains("frame-unrecoverable"));
    assert!(text.contains("unknown"));
    for banned in ["not present", "inert"] {
        assert!(!text.contains(banned), "{banned} in {text}");
    }
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("│ receipt-0000"))
        .collect();
    assert_eq!(rows.len(), 13, "{text}");
    for row in rows {
        assert!(
            row.contains("frame-unrecoverable") && row.contains("unknown"),
            "{row}"
        );
        assert!(!row.contains("absent"), "{row}");
    }
    assert!(
        text.contains("_meta: absent 0, present 0, unknown 13"),
        "{text}"
    );
}

#[test]
fn present_keys_are_never_called_absent_in_any_output() {
    let dir = tempfile::tempdir().unwrap();
    let mut all = Vec::new();
    for (i, format) in ["human", "json", "jsonl"].iter().enumerate() {
        let out = dir.path().join(i.to_string());
        let output = sealkit(&fixtures())
            .args([
                "migrate",
                "old/receipts",
                "new/receipts",
                "--format",
                format,
            ])
            .args(CAPTURES)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        all.push(String::from_utf8(output.stdout).unwrap());
        all.push(std::fs::read_to_string(out.join("migration.jsonl")).unwrap());
    }
    for text in &all {
        for banned in ["not present", "inert", "Not present"] {
            assert!(!text.contains(banned));
        }
    }
    // Every record whose frame shows _meta says present and lists every key.
    for line in all[1].lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        if record["meta"] == "present" {
            assert!(!record["meta_keys"].as_array().unwrap().is_empty());
        }
    }
}

/// Every file under `dir` with its bytes' digest, length, mode and modification time.
pub(crate) fn tree_state(dir: &Path) -> Vec<(PathBuf, String, u64, u32, i128)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        let metadata = entry.metadata().unwrap();
        let mtime = metadata
            .modified()
            .unwrap()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as i128;
        let digest = if metadata.is_file() {
            sealkit::digest::sha256_hex(&std::fs::read(entry.path()).unwrap())
        } else {
            String::new()
        };
        let mode = sealkit::atomic_write::unix_mode(&metadata).unwrap_or(0);
        out.push((
            entry.path().to_path_buf(),
            digest,
            metadata.len(),
            mode,
            mtime,
        ));
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn old_dir_is_untouched_and_reruns_are_byte_identical() {
    let work = tempfile::tempdir().unwrap();
    copy_tree(&fixtures(), work.path());
    let old = work.path().join("old/receipts");
    let before = tree_state(work.path());
    let run = |out: &str| {
        let output = sealkit(work.path())
            .args(["migrate", "old/receipts", "--format", "jsonl"])
            .args(CAPTURES)
            .args(["--out", out])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        let read = |name: &str| std::fs::read(work.path().join(out).join(name)).unwrap();
        (output.stdout, read("migration.jsonl"), read("summary.json"))
    };
    let first = run("../first");
    let second = run("../first");
    let elsewhere = run("../second");
    assert_eq!(first, second, "rerun into the same NEW_DIR");
    assert_eq!(first, elsewhere, "another NEW_DIR: no output names it");
    assert_eq!(tree_state(work.path()), before, "the old tree changed");
    // The records file is bound into the summary.
    let summary: Value = serde_json::from_slice(&first.2).unwrap();
    assert_eq!(
        summary["records"]["sha256"],
        sealkit::digest::sha256_hex(&first.1)
    );
    assert_eq!(summary["inputs"]["old"][0], "old/receipts");
    // A NEW_DIR inside an OLD_DIR is refused before anything is written.
    sealkit(work.path())
        .args(["migrate", "old/receipts", "--out", "old/receipts/migrated"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("output-inside-input"));
    assert!(!old.join("migrated").exists());
    assert_eq!(tree_state(work.path()), before);
}

#[test]
fn an_interrupted_run_is_completed_by_a_rerun() {
    let work = tempfile::tempdir().unwrap();
    let clean = work.path().join("clean");
    let args = |out: &Path| {
        let mut cmd = sealkit(&fixtures());
        cmd.args(["migrate", "old/receipts", "new/receipts"])
            .args(CAPTURES)
            .arg("--out")
            .arg(out);
        cmd
    };
    args(&clean).assert().code(1);
    let clean_records = std::fs::read(clean.join("migration.jsonl")).unwrap();
    let clean_summary = std::fs::read(clean.join("summary.json")).unwrap();

    // What a kill leaves: a partial temporary file of records (another pid), an old
    // complete summary of a different run and a records file with only some receipts.
    let killed = work.path().join("killed");
    std::fs::create_dir(&killed).unwrap();
    let half = &clean_records[..clean_records.len() / 2];
    std::fs::write(killed.join(".migration.jsonl.sealkit-4242.tmp"), half).unwrap();
    std::fs::write(killed.join(".summary.json.sealkit-4243.tmp"), b"{").unwrap();
    let subset: Vec<&[u8]> = clean_records.split(|b| *b == b'\n').take(5).collect();
    std::fs::write(killed.join("migration.jsonl"), subset.join(&b'\n')).unwrap();
    std::fs::write(
        killed.join("summary.json"),
        b"{\"format\":\"sealkit-migration/v1\",\"receipts\":5}\n",
    )
    .unwrap();
    std::fs::write(killed.join("notes.txt"), b"operator's file\n").unwrap();
    args(&killed).assert().code(1);
    assert_eq!(
        std::fs::read(killed.join("migration.jsonl")).unwrap(),
        clean_records
    );
    assert_eq!(
        std::fs::read(killed.join("summary.json")).unwrap(),
        clean_summary
    );
    let mut names: Vec<String> = std::fs::read_dir(&killed)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["migration.jsonl", "notes.txt", "summary.json"]);
}

/// A diagnostic as one line: the report's wrapping and frame drawn away.
pub(crate) fn flat(stderr: &[u8]) -> String {
    String::from_utf8_lossy(stderr)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_run_stopped_midway_in_process_leaves_the_previous_output_and_reruns_cleanly() {
    use sealkit::migrate::frames::FrameIndex;
    use sealkit::migrate::run::{migrate, Plan};
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let old = vec![fixtures().join("old/receipts")];
    let plan = Plan {
        old: &old,
        out: &out,
        captures: Vec::new(),
        options: Default::default(),
    };
    let index = FrameIndex::new();
    // A clean run first, so the interrupted one has a previous output it could damage.
    migrate(&plan, &index, &mut |_| Ok(())).unwrap();
    let clean = std::fs::read(out.join("migration.jsonl")).unwrap();
    let clean_summary = std::fs::read(out.join("summary.json")).unwrap();
    let mut seen = 0;
    let stopped = migrate(&plan, &index, &mut |_| {
        seen += 1;
        if seen == 7 {
            Err(std::io::Error::other("killed"))
        } else {
            Ok(())
        }
    });
    assert!(stopped.is_err());
    // A run that cannot complete writes nothing (issue 37): the previous output, a complete
    // pair whose summary binds its records, is left exactly as it was.
    assert_eq!(
        std::fs::read(out.join("summary.json")).unwrap(),
        clean_summary
    );
    assert_eq!(std::fs::read(out.join("migration.jsonl")).unwrap(), clean);
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let summary = migrate(&plan, &index, &mut |_| Ok(())).unwrap();
    assert_eq!(summary.receipts, 13);
    assert_eq!(std::fs::read(out.join("migration.jsonl")).unwrap(), clean);
}

const M4_OLD: &str = "old/receipts/receipt-00000000000000000005-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";

#[test]
fn m4_with_only_the_f05_frame_is_a_frame_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let (code, records, _) = migrate_jsonl(&[M4_OLD, "--frames", "frames/F05.frame"], dir.path());
    assert_eq!(code, 1);
    let record = &records[0];
    assert_eq!(record["label"], "frame-mismatch");
    assert_eq!(record["changes"], serde_json::json!([]));
    assert_eq!(record["meta"], "unknown");
    assert_eq!(record["frame"]["link"], "canonical-request-sha256");
    assert_eq!(record["frame"]["file"], "frames/F05.frame");
    assert_eq!(
        record["frame"]["sha256"],
        "89e602a7026aaa649fceb45f70baf7f94ea407a7250c316d1b0a7ce39d960161"
    );
    assert!(record["detail"]
        .as_str()
        .unwrap()
        .ends_with("(same length, other digest)"));
    // With its own frame it migrates.
    let (_, records, _) = migrate_jsonl(
        &[M4_OLD, "--frames", "frames/F06.frame"],
        &dir.path().join("b"),
    );
    assert_eq!(records[0]["label"], "meta-now-committed");
    assert_eq!(
        records[0]["committed_target"],
        "22fc496a39f69a29c9081faf6cbb20687fa51aa228331daa96d922b1e374e797"
    );
    // A frame found by request_sha256 whose terminator differs is a mismatch too.
    let work = tempfile::tempdir().unwrap();
    let mut crlf = std::fs::read(fixtures().join("frames/F06.frame")).unwrap();
    crlf.pop();
    crlf.extend_from_slice(b"\r\n");
    let crlf_path = work.path().join("F06-crlf.frame");
    std::fs::write(&crlf_path, crlf).unwrap();
    let (_, records, _) = migrate_jsonl(
        &[M4_OLD, "--frames", crlf_path.to_str().unwrap()],
        &dir.path().join("c"),
    );
    assert_eq!(records[0]["label"], "frame-mismatch");
    assert_eq!(records[0]["frame"]["link"], "request-sha256");
    assert!(records[0]["detail"]
        .as_str()
        .unwrap()
        .ends_with("(other length)"));
}

const NEW_M2: &str = "receipt-00000000000000000001-120d377234da4be343ce9be68bdb03ac0002724f693c465b75b5812b46344918.json";
const NEW_M4: &str = "receipt-00000000000000000003-471f4bad0480adddf6f79b515277613b5ac4735bfeb7e098a4ccb0718b5c26dc.json";
const NEW_M6: &str = "receipt-00000000000000000005-16c05a919829fd917f6e506a4b7fd5782444c8872e451d1efd8b16e9e5695a40.json";
const NEW_L1: &str = "receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json";
const NEW_L3: &str = "receipt-00000000000000000002-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
const NEW_M8: &str = "receipt-00000000000000000007-002adba72104f7b771b53bbdb8a8b612b0f477001f1de0d8ad89c220adf910c0.json";

/// The manifest's `damaged` receipts, built from the NEW receipts as described there.
fn damaged_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let new = fixtures().join("new/receipts");
    let read = |name: &str| std::fs::read(new.join(name)).unwrap();
    let text = String::from_utf8(read(NEW_M2)).unwrap();
    assert!(text.contains("\"verdict\": \"BLOCK\""));
    let flipped = text.replacen("\"verdict\": \"BLOCK\"", "\"verdict\": \"ALLOW\"", 1);
    std::fs::write(dir.path().join(NEW_M2), flipped).unwrap();

    let mut map = sealkit::receipt::parse(&read(NEW_M4)).unwrap();
    let f05 = std::fs::read(fixtures().join("frames/F05.frame")).unwrap();
    map.insert(
        "framed_subject_sha256".into(),
        Value::from(sealkit::digest::sha256_hex(&f05)),
    );
    let seed: [u8; 32] = read(".seal-receipt-ed25519.key").try_into().unwrap();
    sealkit::receipt::preimage::sign(&mut map, &seed).unwrap();
    std::fs::write(
        dir.path().join(NEW_M4),
        sealkit::receipt::preimage::to_file_bytes(&map),
    )
    .unwrap();

    std::fs::write(dir.path().join(NEW_M6), &read(NEW_M6)[..4096]).unwrap();

    let mut bytes = read(NEW_L1);
    let at = find(&bytes, b"\"reason\": \"every") + 11;
    bytes[at] = 0xFF;
    std::fs::write(dir.path().join(NEW_L1), bytes).unwrap();

    std::fs::write(
        dir.path().join(".receipt-61519-00000000000000000008.tmp"),
        &read(NEW_M8)[..2048],
    )
    .unwrap();
    std::fs::write(
        dir.path().join("receipt-00000000000000000009-1b6be7d58323ae7ef5bd08f35f677b0f6e60055903c5c05e6b84d775dc35f7f0.json"),
        read(NEW_L3),
    )
    .unwrap();
    dir
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .unwrap()
}

#[test]
fn damaged_receipts_are_receipt_invalid_and_the_misnamed_one_migrates() {
    let damaged = damaged_dir();
    let out = tempfile::tempdir().unwrap();
    let (code, records, summary) = migrate_jsonl(&[damaged.path().to_str().unwrap()], out.path());
    assert_eq!(code, 1);
    let by_name: BTreeMap<String, &Value> = records
        .iter()
        .map(|r| {
            let path = PathBuf::from(r["receipt"].as_str().unwrap());
            (path.file_name().unwrap().to_string_lossy().into_owned(), r)
        })
        .collect();
    assert_eq!(by_name.len(), 5, "the temporary file is not a receipt");
    assert_eq!(summary["other_files"], 1);
    let invalid = |name: &str, check: &str, code: &str| {
        let r = by_name[name];
        assert_eq!(r["label"], "receipt-invalid", "{name}");
        assert_eq!(r["receipt_check"], check, "{name}");
        assert_eq!(r["meta"], "unknown", "{name}");
        assert_eq!(r["changes"], serde_json::json!([]));
        assert!(r["detail"].as_str().unwrap().contains(code), "{name}: {r}");
    };
    invalid(NEW_M2, "failed", "signature-invalid");
    invalid(NEW_M4, "failed", "object-a-mismatch");
    invalid(NEW_M6, "unreadable", "truncated-json");
    invalid(NEW_L1, "unreadable", "not-utf8");
    // Intact bytes under a wrong name: naming is an audit finding, not receipt integrity.
    let misnamed = by_name["receipt-00000000000000000009-1b6be7d58323ae7ef5bd08f35f677b0f6e60055903c5c05e6b84d775dc35f7f0.json"];
    assert_eq!(misnamed["label"], "identity-unchanged");
    assert_eq!(misnamed["receipt_check"], "unpinned");
}

#[test]
fn exit_codes_zero_one_two() {
    let work = tempfile::tempdir().unwrap();
    let unchanged = work.path().join("unchanged");
    std::fs::create_dir(&unchanged).unwrap();
    for name in [NEW_L1, NEW_L3] {
        std::fs::copy(
            fixtures().join("new/receipts").join(name),
            unchanged.join(name),
        )
        .unwrap();
    }
    sealkit(work.path())
        .args(["migrate", "unchanged", "--out", "out0"])
        .assert()
        .code(0)
        .stdout(predicates::str::contains("2 receipts, 0 need attention"));
    sealkit(&fixtures())
        .args(["migrate", "new/receipts", "--out"])
        .arg(work.path().join("out1"))
        .assert()
        .code(1);
    sealkit(work.path())
        .args(["migrate", "missing-dir", "--out", "out2"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unreadable-input"));
    assert!(!work.path().join("out2").exists());
    sealkit(work.path())
        .args([
            "migrate",
            "unchanged",
            "--frames",
            "no-such.capture",
            "--out",
            "out3",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unreadable-capture"));
    sealkit(work.path())
        .args(["migrate", "unchanged"])
        .assert()
        .code(2);
}
