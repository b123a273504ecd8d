//! The audit's memory on what grows with a host's history, measured in this process as the
//! peak of its resident set during one call (Linux: `VmHWM`, reset through `clear_refs`
//! before the call), so the figure is the library's own allocations under the system
//! allocator, not the binary's (docs/performance.md, issue 40 phase 8). One test at a time:
//! the peak is the whole process's.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sealkit::audit::dir::{DirState, Observed, Receipts, StateError};
use std::path::PathBuf;
use std::sync::Mutex;

/// One measurement at a time.
static ONE: Mutex<()> = Mutex::new(());

/// A line of `/proc/self/status`, in bytes.
fn status_bytes(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    let kib: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib * 1024
}

/// How far the resident set rose above where it was when `run` started, at its highest.
fn peak_during<T>(run: impl FnOnce() -> T) -> (T, usize) {
    // "5" resets the peak resident set to the current one (proc(5), since Linux 4.0).
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let before = status_bytes("VmRSS:");
    let result = run();
    (result, status_bytes("VmHWM:").saturating_sub(before))
}

fn digest(i: u64, salt: u8) -> String {
    sealkit::digest::sha256_hex(&[&i.to_le_bytes()[..], &[salt]].concat())
}

/// A host's operation state of 40,000 operations (10.7 MB, as seal-host writes it: about 270
/// bytes an operation) is read by the audit without holding the file: less than the file's
/// size in all at once. Seen red on 1a006d9, which read it whole and built a JSON tree of it
/// for the repeated-name check: 31.7 MB there, 3.8 MB here.
#[test]
fn an_operation_state_is_read_without_holding_the_file() {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("receipts");
    std::fs::create_dir(&dir).unwrap();
    let mut state =
        String::from("{\n  \"schema\": \"seal.operation-state/v1\",\n  \"operations\": {");
    for i in 0..40_000u64 {
        let (id, frame) = (digest(i, 0), digest(i, 1));
        if i > 0 {
            state.push(',');
        }
        state.push_str(&format!(
            "\n    \"{id}\": {{\n      \"operation_id\": \"{id}\",\n      \"release_frame_sha256\": \"{frame}\"\n    }}"
        ));
    }
    state.push_str("\n  }\n}\n");
    let path = dir.join(".seal-operation-state.json");
    std::fs::write(&path, &state).unwrap();
    let file_bytes = state.len();
    drop(state);
    assert!(file_bytes > 10_000_000, "{file_bytes}");

    let options = sealkit::audit::Options {
        pin: None,
        approvers: None,
        approval_key_files: Vec::new(),
        token_files: Vec::new(),
        jobs: 1,
    };
    let roots: Vec<PathBuf> = vec![dir];
    let mut missing = 0usize;
    let (summary, peak) = peak_during(|| {
        sealkit::audit::audit(&roots, &options, &sealkit::audit::Quiet, &mut |event| {
            if let sealkit::audit::Event::Finding(finding) = event {
                missing += usize::from(finding.code.as_str() == "operation-receipt-missing");
            }
            Ok(())
        })
    });
    summary.unwrap();
    // The state was read and checked: each of its operations is burned without a receipt.
    assert_eq!(missing, 40_000);
    println!("state of {file_bytes} bytes: peak {peak} bytes");
    assert!(
        peak < file_bytes,
        "{peak} bytes at the peak for a state of {file_bytes}"
    );
}

/// What a receipt directory keeps in memory while its receipts stream in, for each receipt
/// named as seal-host names them in a directory with a head state: its 8-byte facts, not its
/// frame (36 bytes) nor its audit line's key (16), which wait in a temporary file for the
/// directory's end. Seen red on 1a006d9: 26.3 MB for 400,000 receipts (about 64 bytes a
/// receipt), against 6.4 MB here (11.1 MB allowed).
#[test]
fn a_directory_keeps_few_bytes_a_receipt_while_receipts_stream_in() {
    let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
    let receipts = 400_000u32;
    let state = DirState {
        head_state: Some((
            PathBuf::from(".seal-audit-head.state"),
            Err(StateError::NotRead),
        )),
        ..DirState::default()
    };
    let frame = digest(7, 7);
    let line = "x".repeat(200);
    let (kept, peak) = peak_during(|| {
        let mut kept = Receipts::default();
        kept.reserve(receipts as usize, &state);
        for file in 0..receipts {
            let canonical = [(file % 251) as u8; 32];
            let observed = Observed {
                session: Some("s1".to_owned()),
                canonical_request_sha256: Some(sealkit::digest::hex_lower(&canonical)),
                framed_subject_sha256: Some(frame.clone()),
                now: Some(u64::from(file)),
                audit_line: Some(line.clone()),
                ..Observed::default()
            };
            kept.add(file, Some(&canonical), observed, &state);
        }
        kept
    });
    assert_eq!(kept.facts.len(), receipts as usize);
    println!("{receipts} receipts: peak {peak} bytes");
    // 8 bytes a receipt, and the blocks being filled (the audit lines' 1 MiB, the keys' and
    // frames' 256 KiB each, with the allocator's doubling).
    let allowed = 12 * receipts as usize + (6 << 20);
    assert!(
        peak < allowed,
        "{peak} bytes at the peak for {receipts} receipts (allowed {allowed})"
    );
}
