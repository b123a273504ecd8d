//! One receipt's migration record (a line of `migration.jsonl`) and its parts: how and by
//! which digest the frame was found, a refusal under today's rules, the values read from the
//! old receipt (reported, not established) and, for a `frame-conflict`, each era's outcome.

use super::{assess, Assessment, Change, FrameState, Label, Presence, ProfileName};
use crate::receipt::ReceiptReport;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// How the frame was recovered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameSource {
    /// `signed_artifacts.object_a` of a record_version 3 receipt (its own, or in `diff` any
    /// receipt on either side) that passed its integrity checks.
    ObjectA,
    /// A frame of a supplied capture.
    Capture,
}

/// Which recorded digest linked the frame to the receipt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Link {
    /// `framed_subject_sha256` and `framed_subject_length`: the exact frame.
    FramedSubject,
    /// `request_sha256` only (the terminator may differ).
    RequestSha256,
    /// `canonical_request_sha256` only (record_version 2 drops `_meta` and forces `id` 1, so
    /// distinct frames share it).
    CanonicalRequestSha256,
}

/// The frame a record is based on (or, for `frame-mismatch`, the contradicting one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameRef {
    pub source: FrameSource,
    /// The capture, or the receipt whose object A it is (paths as given).
    pub file: String,
    /// 1-based frame number inside a capture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_number: Option<u64>,
    pub link: Link,
    pub sha256: String,
    pub length: u64,
}

/// A refusal under today's validation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusalInfo {
    pub code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jsonrpc_code: Option<i32>,
    pub message: String,
}

/// Values read from the old receipt (not established by sealkit).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reported {
    pub verdict: Option<String>,
    pub tool: Option<String>,
    pub session: Option<String>,
    pub now: Option<u64>,
    /// The 20-digit counter of the file name (not an identifier: hosts reuse counters).
    pub counter: Option<u64>,
    pub framed_subject_sha256: Option<String>,
    pub framed_subject_length: Option<u64>,
    pub request_sha256: Option<String>,
    pub canonical_request_sha256: Option<String>,
}

/// The tag of a migration record line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordType {
    Record,
}

/// One receipt's migration (a line of `migration.jsonl`, README.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    #[serde(rename = "type")]
    pub kind: RecordType,
    /// The receipt's path as given on the command line (joined with the walked name), as
    /// [`crate::path_json`] writes a name: lossy when it is not UTF-8, with `receipt_hex`.
    pub receipt: String,
    /// The path's exact bytes in hex, only when it is not UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt_hex: Option<String>,
    /// SHA-256 of the receipt file's bytes (null when unreadable).
    pub receipt_sha256: Option<String>,
    pub record_version: Option<u64>,
    /// The receipt checks' status without a pinned key: `unsigned` (record_version 2),
    /// `unpinned` (signature valid under its own key), `failed`, `unreadable`.
    pub receipt_check: String,
    pub label: Label,
    pub changes: Vec<Change>,
    pub meta: Presence,
    /// The `_meta` keys in code-point order, when `meta` is `present`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta_keys: Option<Vec<String>>,
    pub request_state: Presence,
    pub input_responses: Presence,
    /// The guard target the receipt recorded (its safety certificate); null when unguarded.
    pub old_target: Option<String>,
    /// The profile the old target belongs to.
    pub old_profile: Option<ProfileName>,
    /// The committed guard target of the frame; null when unguarded or not computed.
    pub committed_target: Option<String>,
    /// The committed effect commitment of the frame, when computed.
    pub committed_effect: Option<String>,
    /// seal-host's record_version 3 `canonical_request_sha256` of the frame, when computed.
    pub current_canonical_request_sha256: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<RefusalInfo>,
    pub frame: Option<FrameRef>,
    /// For `frame-conflict`: what each session era gives (legacy first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_conflict: Option<Vec<EraOutcome>>,
    /// Why the label applies, for labels that stop migration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    pub reported: Reported,
}

/// What validating a frame in one session era gives, for a `frame-conflict`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EraOutcome {
    /// `legacy` or `2026-07-28`.
    pub session_era: String,
    /// The preferred capture frame sent in a session of that era.
    pub frame: FrameRef,
    pub label: Label,
    pub changes: Vec<Change>,
    /// The refusal code, when that era refuses the frame.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
}

impl Record {
    pub(super) fn blank(receipt: &str, counter: Option<u64>) -> Self {
        Record {
            kind: RecordType::Record,
            receipt: receipt.to_owned(),
            receipt_hex: None,
            receipt_sha256: None,
            record_version: None,
            receipt_check: "unreadable".to_owned(),
            label: Label::ReceiptInvalid,
            changes: Vec::new(),
            meta: Presence::Unknown,
            meta_keys: None,
            request_state: Presence::Unknown,
            input_responses: Presence::Unknown,
            old_target: None,
            old_profile: None,
            committed_target: None,
            committed_effect: None,
            current_canonical_request_sha256: None,
            refusal: None,
            frame: None,
            frame_conflict: None,
            detail: None,
            reported: Reported {
                counter,
                ..Reported::default()
            },
        }
    }

    /// Names the receipt by its exact path: `receipt` as [`crate::path_json`] writes a name,
    /// `receipt_hex` beside it when the name is not UTF-8.
    pub fn name(&mut self, path: &std::path::Path) {
        let shown = crate::path_json::Shown::of(path);
        self.receipt = shown.text;
        self.receipt_hex = shown.hex;
    }

    pub(super) fn stop_invalid(&mut self, check: &str, detail: String) {
        self.receipt_check = check.to_owned();
        self.detail = Some(detail);
        self.apply(FrameState::Unrecoverable, false);
        self.label = Label::ReceiptInvalid;
        self.changes.clear();
    }

    pub(super) fn fill_reported(&mut self, map: &Map<String, Value>, report: &ReceiptReport) {
        let r = &report.reported;
        self.reported = Reported {
            verdict: r.verdict.clone(),
            tool: r.tool.clone(),
            session: r.session.clone(),
            now: r.now,
            counter: self.reported.counter,
            framed_subject_sha256: r.framed_subject_sha256.clone(),
            framed_subject_length: map.get("framed_subject_length").and_then(Value::as_u64),
            request_sha256: r.request_sha256.clone(),
            canonical_request_sha256: r.canonical_request_sha256.clone(),
        };
        self.old_target = r
            .safety_certificate_reason
            .as_deref()
            .filter(|reason| crate::digest::is_sha256_hex(reason))
            .map(str::to_owned);
    }

    /// Fills the label and changes from what is known so far.
    pub(super) fn apply(&mut self, frame: FrameState, refused: bool) {
        // Keys are listed exactly when `_meta` is present.
        if self.meta != Presence::Present {
            self.meta_keys = None;
        }
        let context = match (self.request_state, self.input_responses) {
            (Presence::Present, _) | (_, Presence::Present) => Presence::Present,
            (Presence::Absent, Presence::Absent) => Presence::Absent,
            _ => Presence::Unknown,
        };
        let (label, changes) = assess(&Assessment {
            receipt_valid: self.receipt_check != "failed" && self.receipt_check != "unreadable",
            frame,
            refused,
            meta: self.meta,
            context,
            guarded: self.old_target.is_some(),
            old_profile: self.old_profile,
        });
        self.label = label;
        self.changes = changes;
    }

    /// The frame subject the receipt reports, for pairing.
    pub fn subject(&self) -> Option<(&str, u64)> {
        self.reported
            .framed_subject_sha256
            .as_deref()
            .zip(self.reported.framed_subject_length)
    }
}
