//! The report's frame join through the binary (issue 36 item 8): a receipt that carries its
//! own signed frame (object A) keeps it, whatever frame of the captures shares its canonical
//! request hash; a receipt without one takes the captured frame, or is `not-captured`.
//! Seen red under each mutant of the two `object-a` tests in `FrameJoins::join`
//! (src/report/joins.rs): `!=` → `==` in the found arm (the signed receipt's row showed the
//! captured frame of another id as its frame, status `captured`; the unsigned receipt's row
//! stayed `unknown`), and in the not-found arm (signed rows became `not-captured`, unsigned
//! ones stayed `unknown`, and the summary's `frames_not_captured` changed).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

const OLD: &str = "testdata/receipts/legacy-vs-current/old/receipts";
const NEW: &str = "testdata/receipts/legacy-vs-current/new/receipts";
const SESSION_L: &str = "testdata/receipts/legacy-vs-current/frames/session-L.capture";
/// Call id 1 of session L, whose receipts (old and new) have this canonical request hash.
const L1: &str = "103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_receipts_own_frame_is_kept_and_captured_frames_join_the_others() {
    let scratch = tempfile::tempdir().unwrap();
    // Session L without call id 1, and the same call sent again under id 99: the same
    // canonical request, other bytes.
    let session = std::fs::read_to_string(root().join(SESSION_L)).unwrap();
    let mut frames: Vec<&str> = session.lines().collect();
    let call_1 = frames.remove(1);
    assert!(call_1.contains("\"id\":1,"));
    let resent = call_1.replacen("\"id\":1,", "\"id\":99,", 1);
    frames.push(&resent);
    let capture = scratch.path().join("resent.capture");
    std::fs::write(&capture, frames.join("\n") + "\n").unwrap();
    let out = scratch.path().join("report.json");
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(root())
        .args(["report", "--format", "json", "--out"])
        .arg(&out)
        .args(["--receipt-key", &format!("{NEW}/.seal-receipt-ed25519.key")])
        .arg("--frames")
        .arg(&capture)
        .args([OLD, NEW])
        .output()
        .unwrap();
    assert!(output.status.code().unwrap() <= 1, "{output:?}");
    let model: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let rows = model["rows"].as_array().unwrap();
    let row = |dir: &str, hash: &str| {
        rows.iter()
            .find(|r| {
                let file = r["file"].as_str().unwrap();
                file.starts_with(dir)
                    && file.ends_with(&format!("00000000000000000000-{hash}.json"))
            })
            .unwrap_or_else(|| panic!("no row for {dir} {hash}"))
    };
    // The signed receipt keeps its object A, joined to the resent frame but never shown as it.
    let signed = row(NEW, L1);
    assert_eq!(signed["frame"]["status"], "object-a", "{}", signed["frame"]);
    assert_eq!(signed["frame"]["capture"]["frame_number"], 6);
    let shown = signed["details"]["frame"].as_str().unwrap();
    assert!(shown.contains("\"id\":1,"), "{shown}");
    // The unsigned one takes the captured frame.
    let unsigned = row(OLD, L1);
    assert_eq!(
        unsigned["frame"]["status"], "captured",
        "{}",
        unsigned["frame"]
    );
    // Every other signed row keeps object A; unsigned rows without a frame are not captured.
    let mut not_captured = 0;
    for row in rows {
        let status = row["frame"]["status"].as_str().unwrap();
        if row["record_version"] == 3 {
            assert_eq!(status, "object-a", "{}", row["file"]);
        } else if row["frame"].get("capture").is_none() {
            assert_eq!(status, "not-captured", "{}", row["file"]);
            not_captured += 1;
        }
    }
    assert!(not_captured > 0);
    assert_eq!(model["summary"]["frames_not_captured"], not_captured);
}
