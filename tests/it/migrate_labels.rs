//! Every entry of expected-labels.json (docs/migration.md labels for the seal-host
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

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Any damage to a receipt or to the captured frame gives a record, never a panic, and
    /// `_meta` is `unknown` whenever no usable frame was found.
    #[test]
    fn damaged_inputs_never_panic(receipt_at in 0usize..20_000, frame_at in 0usize..600, byte: u8) {
        let files = [
            "old/receipts/receipt-00000000000000000006-7417da373ccacf6c6dc11fddf26f46f9474ee167f9e3984b0c67ba955b080ae7.json",
            "new/receipts/receipt-00000000000000000004-16c05a919829fd917f6e506a4b7fd5782444c8872e451d1efd8b16e9e5695a40.json",
        ];
        let mut frame = std::fs::read(root().join("testdata/legacy-vs-current/frames/F07.frame")).unwrap();
        let at = frame_at % frame.len();
        frame[at] = byte;
        let mut index = FrameIndex::new();
        index.add_capture("f", &frame[..]).unwrap();
        for file in files {
            let mut bytes = std::fs::read(receipt_path(file)).unwrap();
            let at = receipt_at % bytes.len();
            bytes[at] = byte;
            let record = migrate::migrate_receipt(file, None, Ok(&bytes), &index, &Options::default(), &mut Scratch::default());
            if matches!(record.label, Label::ReceiptInvalid | Label::FrameUnrecoverable | Label::FrameMismatch) {
                proptest::prop_assert_eq!(record.meta, Presence::Unknown);
                proptest::prop_assert!(record.changes.is_empty());
            }
        }
    }
}
