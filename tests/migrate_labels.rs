//! Every entry of expected-labels.json (DESIGN.md §6 labels for the seal-host
//! legacy-vs-current fixtures) through the library: with the session captures, with the
//! single `.frame` files, and from the receipts alone.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sealkit::migrate::frames::FrameIndex;
use sealkit::migrate::{self, Label, Options, Presence, Record};
use sealkit::receipt::Scratch;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn expected() -> Vec<Value> {
    let text =
        std::fs::read_to_string(root().join("testdata/legacy-vs-current/expected-labels.json"))
            .unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    value["receipts"].as_array().unwrap().clone()
}

fn receipt_path(file: &str) -> PathBuf {
    root()
        .join("testdata/receipts/legacy-vs-current")
        .join(file)
}

fn index_of(files: &[&str]) -> FrameIndex {
    let mut index = FrameIndex::new();
    for file in files {
        let path = root().join("testdata/legacy-vs-current/frames").join(file);
        index
            .add_capture(file, std::fs::File::open(path).unwrap())
            .unwrap();
    }
    index
}

fn migrate_one(file: &str, index: &FrameIndex) -> Record {
    let bytes = std::fs::read(receipt_path(file)).unwrap();
    migrate::migrate_receipt(
        file,
        None,
        Ok(&bytes),
        index,
        &Options::default(),
        &mut Scratch::default(),
    )
}

fn check_all(index: &FrameIndex, case: &str) -> usize {
    let mut checked = 0;
    for entry in expected() {
        let file = entry["file"].as_str().unwrap();
        let want = &entry[case];
        let record = migrate_one(file, index);
        assert_eq!(
            record.label.as_str(),
            want["label"].as_str().unwrap(),
            "{case} {file}: {record:#?}"
        );
        let changes: Vec<&str> = record.changes.iter().map(|c| c.as_str()).collect();
        let want_changes: Vec<&str> = want["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(changes, want_changes, "{case} {file}");
        assert_eq!(
            record.old_profile.map(|p| p.as_str()),
            entry["old_target_profile"].as_str(),
            "{case} {file}"
        );
        if record.label == Label::FrameUnrecoverable {
            assert_eq!(record.meta, Presence::Unknown, "{file}");
            assert!(record.meta_keys.is_none());
        }
        checked += 1;
    }
    checked
}

#[test]
fn every_expected_label_with_the_session_captures() {
    let index = index_of(&["session-L.capture", "session-M.capture"]);
    assert_eq!(check_all(&index, "with_capture"), 26);
}

#[test]
fn every_expected_label_with_the_single_frame_files() {
    let index = index_of(&[
        "F01.frame",
        "F02.frame",
        "F03.frame",
        "F04.frame",
        "F05.frame",
        "F06.frame",
        "F07.frame",
        "F08.frame",
        "F09.frame",
    ]);
    assert_eq!(check_all(&index, "with_capture"), 26);
}

#[test]
fn every_expected_label_from_the_receipts_alone() {
    assert_eq!(check_all(&FrameIndex::new(), "without_capture"), 26);
}

#[test]
fn sanity_paths_exist() {
    assert!(Path::new(&receipt_path("old/receipts")).is_dir());
}
