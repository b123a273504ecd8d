//! The `migration_record` fuzz target: migration outputs as `diff` reads them, captures, and receipts migrated.

use super::pick;
use sealkit::digest::sha256_hex;
use sealkit::frame::{self, FrameReader};
use sealkit::migrate::frames::FrameIndex;
use sealkit::migrate::{diff, Change, Label, Link, Options, Presence, Record};
use sealkit::receipt::Scratch;
use std::sync::OnceLock;

/// A migration output over the fixture receipts, made by `sealkit migrate` (see
/// make-seeds.py): `summary.json`, a NUL byte, `migration.jsonl`.
const CAPTURES: [(&str, &[u8]); 2] = [
    (
        "session-L.capture",
        include_bytes!("../../testdata/receipts/legacy-vs-current/frames/session-L.capture"),
    ),
    (
        "session-M.capture",
        include_bytes!("../../testdata/receipts/legacy-vs-current/frames/session-M.capture"),
    ),
];

fn fixture_frame_index() -> &'static FrameIndex {
    static INDEX: OnceLock<FrameIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = FrameIndex::new();
        for (name, bytes) in CAPTURES {
            index
                .add_capture(name, bytes)
                .unwrap_or_else(|e| panic!("fixture capture: {e}"));
        }
        index
    })
}

/// The input split at its first NUL into `summary.json` and `migration.jsonl` (without a
/// NUL: `migration.jsonl` alone, as `diff` reads a bare `.jsonl`): an accepted output is
/// bound by its summary, and any edit, cut or added line is refused. Then the input as a
/// capture, and as a receipt migrated with the fixture captures.
pub fn migration_record(data: &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(nul) => migration_output(data, &data[..nul], &data[nul + 1..]),
        None => {
            if let Ok(records) = diff::parse_records(data) {
                records_round_trip(&records);
            }
        }
    }
    capture_index(data);
    migrated_receipt(data);
}

fn migration_output(data: &[u8], summary: &[u8], records: &[u8]) {
    let Ok(parsed) = diff::read_migration_output(summary, records) else {
        return;
    };
    let value: serde_json::Value =
        serde_json::from_slice(summary).unwrap_or_else(|e| panic!("accepted summary: {e}"));
    assert_eq!(value["format"], "sealkit-migration/v1");
    assert_eq!(
        value["records"]["sha256"].as_str(),
        Some(sha256_hex(records).as_str())
    );
    assert_eq!(
        value["records"]["count"].as_u64(),
        Some(parsed.len() as u64),
        "count"
    );
    let lines = records
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(parsed.len(), lines);
    records_round_trip(&parsed);
    // Edited outputs.
    let refused = |edited: &[u8], what: &str| {
        assert!(
            diff::read_migration_output(summary, edited).is_err(),
            "an output with {what} was accepted as complete"
        );
    };
    if !records.is_empty() {
        let at = pick(data, 30, records.len());
        let mut flipped = records.to_vec();
        flipped[at] ^= 1 << pick(data, 31, 8);
        refused(&flipped, "an edited byte");
        refused(&records[..pick(data, 32, records.len())], "a cut");
    }
    let first_line = records.split(|&b| b == b'\n').find(|l| !l.is_empty());
    if let Some(line) = first_line {
        let mut extended = records.to_vec();
        if !extended.ends_with(b"\n") {
            extended.push(b'\n');
        }
        extended.extend_from_slice(line);
        extended.push(b'\n');
        refused(&extended, "an added record");
    }
}

fn records_round_trip(records: &[Record]) {
    for record in records {
        let text = serde_json::to_string(record).unwrap_or_else(|e| panic!("{e}"));
        let again: Record = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(&again, record, "a record does not round-trip");
    }
}

/// A capture read into the frame index: counted frames, the capture's SHA-256, and every
/// frame found again by its exact subject.
fn capture_index(data: &[u8]) {
    let mut index = FrameIndex::new();
    let stats = index
        .add_capture("fuzz", data)
        .unwrap_or_else(|e| panic!("in-memory capture: {e}"));
    assert_eq!(stats.sha256, sha256_hex(data));
    assert!(stats.new_frames <= stats.frames);
    assert_eq!(index.len() as u64, stats.new_frames);
    let mut reader = FrameReader::new(data);
    while let Some(frame) = reader.next_frame().unwrap_or_else(|e| panic!("{e}")) {
        if frame.is_oversized()
            || frame::request_line(frame.bytes)
                .iter()
                .all(|b| b" \t\r\n".contains(b))
        {
            continue;
        }
        let found = index.by_subject(&sha256_hex(frame.bytes), frame.bytes.len() as u64);
        let entry = found.unwrap_or_else(|| panic!("frame {} is not indexed", frame.line));
        assert_eq!(&*entry.bytes, frame.bytes);
    }
}

/// The input as a receipt migrated with the fixture captures: the record round-trips, names
/// the receipt's SHA-256, follows the label rules, and bases every label past
/// `frame-mismatch` on a frame linked by the exact-frame subject the receipt records.
fn migrated_receipt(data: &[u8]) {
    let options = Options::default();
    let record = WARM_MIGRATE.with(|cell| {
        sealkit::migrate::migrate_receipt(
            "fuzz.json",
            None,
            Ok(data),
            fixture_frame_index(),
            &options,
            &mut cell.borrow_mut(),
        )
    });
    records_round_trip(std::slice::from_ref(&record));
    assert_eq!(
        record.receipt_sha256.as_deref(),
        Some(sha256_hex(data).as_str())
    );
    let stopped = matches!(
        record.label,
        Label::ReceiptInvalid | Label::FrameUnrecoverable | Label::FrameMismatch
    );
    if stopped {
        assert!(record.changes.is_empty(), "{:?} with changes", record.label);
    }
    if record.label == Label::ReceiptInvalid {
        assert!(
            record.receipt_check == "failed" || record.receipt_check == "unreadable",
            "{}",
            record.receipt_check
        );
        return;
    }
    assert!(["unsigned", "unpinned"].contains(&record.receipt_check.as_str()));
    if stopped {
        return;
    }
    let frame = record
        .frame
        .as_ref()
        .unwrap_or_else(|| panic!("{:?} without a frame", record.label));
    assert_eq!(
        frame.link,
        Link::FramedSubject,
        "a label from a weaker link"
    );
    assert_eq!(
        (Some(frame.sha256.as_str()), Some(frame.length)),
        (
            record.reported.framed_subject_sha256.as_deref(),
            record.reported.framed_subject_length
        ),
        "the frame is not the one the receipt records"
    );
    if record.meta == Presence::Present {
        assert!(record.changes.contains(&Change::Meta));
        assert!(record.meta_keys.is_some());
    }
    if record.label == Label::IdentityUnchanged {
        assert!(record.changes.is_empty());
    }
}

thread_local! {
    static WARM_MIGRATE: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}
