//! Migration of `_meta`-blind receipts to the committed identity (docs/migration.md): for one
//! receipt, check it with the receipt checks of [`crate::receipt`], recover its exact frame
//! (its own signed object A, or a supplied capture, see [`frames`]), validate the frame under
//! today's rules ([`crate::request`]), compute every profile ([`crate::identity`]), and say
//! in one [`Record`] what changes: a primary [`Label`] (the first of docs/migration.md's table that
//! applies) and every [`Change`] that moves the identity.
//!
//! Guarantees: the label precedence and the change list follow docs/migration.md exactly
//! ([`assess`]); `_meta` is called `absent` only when the frame's bytes show no `_meta`
//! member, `unknown` whenever the bytes are not available, and a present key is always
//! listed ([`Presence`]); a frame found through a link weaker than the exact-frame subject,
//! or one that contradicts the receipt's digests, is never used (`frame-mismatch`); object A
//! is trusted only after the receipt passes its own integrity checks; when the captures sent
//! the frame in sessions of both eras and the eras give different records, neither is chosen
//! (`frame-conflict`, naming both), so a record never depends on the order of the captures.
//! Nothing here prints or panics on any input.

mod analyse;
pub mod diff;
pub mod frames;
pub mod inputs;
pub mod output;
mod recover;
pub mod run;

use crate::digest::sha256_hex;
use crate::identity::Profile;
use crate::receipt::{self, ReceiptReport, ReceiptStatus, Scratch};
use crate::request;
use analyse::{analyse, analyse_each_era, profile_from_checks, reusable};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use frames::{FrameIndex, SessionEra};
use recover::{recover, Recovery};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use strum::{IntoStaticStr, VariantArray};

/// The primary migration label of a receipt, in docs/migration.md's precedence order (the first
/// that applies wins; `Ord` follows that order).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    IntoStaticStr,
    VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Label {
    ReceiptInvalid,
    FrameUnrecoverable,
    FrameMismatch,
    FrameConflict,
    RefusedNow,
    MetaNowCommitted,
    ContextNowCommitted,
    LayoutChanged,
    IdentityUnchanged,
}

impl Label {
    pub const ALL: &'static [Label] = Label::VARIANTS;

    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// docs/migration.md's meaning of the label.
    pub fn meaning(self) -> &'static str {
        match self {
            Label::ReceiptInvalid => "the old receipt fails its own integrity checks",
            Label::FrameUnrecoverable => "neither the receipt nor a supplied capture yields bytes matching its digests; whether _meta was present is unknown",
            Label::FrameMismatch => "a supplied frame contradicts the receipt's digests",
            Label::FrameConflict => "captures sent the frame in a legacy and in a 2026-07-28 session, and the eras disagree: both named, neither chosen",
            Label::RefusedNow => "the frame fails today's validation (the refusal code is given)",
            Label::MetaNowCommitted => "_meta present: the committed identity differs from the old one, old approvals do not carry over",
            Label::ContextNowCommitted => "requestState or inputResponses present (and no _meta)",
            Label::LayoutChanged => "no _meta or context, but the old target was computed under the legacy layout, so the committed target differs anyway",
            Label::IdentityUnchanged => "the committed identity equals the one the receipt recorded",
        }
    }

    /// Everything but `identity-unchanged` needs an operator's attention (exit status 1).
    pub fn needs_attention(self) -> bool {
        self != Label::IdentityUnchanged
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A reason the identity moves (docs/migration.md `changes`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Change {
    /// `_meta` is present: the committed identity commits it.
    Meta,
    /// `requestState` or `inputResponses` is present.
    Context,
    /// The old target was not computed under the tagged (`host` / `committed`) layout.
    Layout,
}

impl Change {
    /// A fixed-size array (not strum's slice): the tallies index by it.
    pub const ALL: [Change; 3] = [Change::Meta, Change::Context, Change::Layout];

    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// Whether a member is in the frame, in the only words docs/migration.md allows: `absent` only for a
/// structural absence seen in the bytes, `unknown` when the bytes are not available.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Presence {
    Absent,
    Present,
    Unknown,
}

impl Presence {
    pub fn as_str(self) -> &'static str {
        match self {
            Presence::Absent => "absent",
            Presence::Present => "present",
            Presence::Unknown => "unknown",
        }
    }

    fn of(present: bool) -> Self {
        if present {
            Presence::Present
        } else {
            Presence::Absent
        }
    }
}

/// An identity profile name as it appears in records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProfileName {
    Committed,
    Host,
    Legacy,
}

impl From<Profile> for ProfileName {
    fn from(profile: Profile) -> Self {
        match profile {
            Profile::Committed => ProfileName::Committed,
            Profile::Host => ProfileName::Host,
            Profile::Legacy => ProfileName::Legacy,
        }
    }
}

impl ProfileName {
    pub fn as_str(self) -> &'static str {
        match self {
            ProfileName::Committed => "committed",
            ProfileName::Host => "host",
            ProfileName::Legacy => "legacy",
        }
    }

    /// Whether targets of this profile use the tagged layout the committed target uses.
    fn tagged(self) -> bool {
        matches!(self, ProfileName::Committed | ProfileName::Host)
    }
}

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
    /// The receipt's path as given on the command line (joined with the walked name).
    pub receipt: String,
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

/// Operator settings.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The server identity to compute identities under; by default each receipt's own
    /// (its `kernel_config`, as the receipt checks use), else empty.
    pub server: Option<String>,
}

/// Whether a frame is available for the label rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameState {
    Recovered,
    Unrecoverable,
    Mismatch,
    /// Recovered, but the captures disagree on the session era it was sent in.
    Conflict,
}

/// What the label rules look at (docs/migration.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assessment {
    pub receipt_valid: bool,
    pub frame: FrameState,
    /// Today's validation refuses the recovered frame.
    pub refused: bool,
    pub meta: Presence,
    /// `requestState` or `inputResponses` present.
    pub context: Presence,
    /// The receipt recorded a guard target.
    pub guarded: bool,
    /// The profile of the recorded target, when known.
    pub old_profile: Option<ProfileName>,
}

/// docs/migration.md: every reason the identity moves, and the first label that applies. Without a
/// usable frame nothing is known about the frame, so no change is claimed (a conflicting
/// frame's bytes are known, so its changes are). F07-like frames (both `_meta` and context)
/// get `meta-now-committed`: the table puts it first, and `changes` still lists `context`.
pub fn assess(a: &Assessment) -> (Label, Vec<Change>) {
    let mut changes = Vec::new();
    if a.receipt_valid && matches!(a.frame, FrameState::Recovered | FrameState::Conflict) {
        if a.meta == Presence::Present {
            changes.push(Change::Meta);
        }
        if a.context == Presence::Present {
            changes.push(Change::Context);
        }
        if a.guarded && !a.old_profile.is_some_and(ProfileName::tagged) {
            changes.push(Change::Layout);
        }
    }
    let label = if !a.receipt_valid {
        Label::ReceiptInvalid
    } else if a.frame == FrameState::Unrecoverable {
        Label::FrameUnrecoverable
    } else if a.frame == FrameState::Mismatch {
        Label::FrameMismatch
    } else if a.frame == FrameState::Conflict {
        Label::FrameConflict
    } else if a.refused {
        Label::RefusedNow
    } else if changes.contains(&Change::Meta) {
        Label::MetaNowCommitted
    } else if changes.contains(&Change::Context) {
        Label::ContextNowCommitted
    } else if changes.contains(&Change::Layout) {
        Label::LayoutChanged
    } else {
        Label::IdentityUnchanged
    };
    (label, changes)
}

/// A receipt read and checked, before its frame is looked for. `diff` prepares every
/// receipt first so object A of one can serve as the frame of another.
#[derive(Debug)]
pub struct Prepared {
    record: Record,
    receipt: Option<Map<String, Value>>,
    report: Option<ReceiptReport>,
    object_a: Option<Vec<u8>>,
    /// The receipt checks' analysis of object A, reused when it applies unchanged.
    frame_call: Option<receipt::FrameCall>,
}

impl Prepared {
    /// Object A, when the receipt passed its integrity checks.
    pub fn trusted_object_a(&self) -> Option<&[u8]> {
        self.object_a.as_deref()
    }

    pub fn receipt(&self) -> &str {
        &self.record.receipt
    }
}

/// Reads and checks one receipt. `bytes` is the file's content or why it could not be read.
pub fn prepare(
    receipt_path: &str,
    counter: Option<u64>,
    bytes: Result<&[u8], String>,
    scratch: &mut Scratch,
) -> Prepared {
    let mut record = Record::blank(receipt_path, counter);
    let bytes = match bytes {
        Ok(bytes) => bytes,
        Err(why) => {
            record.stop_invalid("unreadable", format!("cannot read the receipt: {why}"));
            return Prepared::stopped(record);
        }
    };
    record.receipt_sha256 = Some(sha256_hex(bytes));
    let map = match receipt::parse(bytes) {
        Ok(map) => map,
        Err(problem) => {
            record.stop_invalid(
                "unreadable",
                format!("{}: {}", problem.code, problem.message),
            );
            return Prepared::stopped(record);
        }
    };
    let (report, frame_call) = receipt::verify_parsed_with_frame(&map, bytes, None, scratch);
    record.record_version = report.record_version;
    record.receipt_check = report.status.as_str().to_owned();
    record.fill_reported(&map, &report);
    if report.status == ReceiptStatus::Failed {
        let codes: Vec<String> = report
            .findings
            .iter()
            .filter(|f| f.severity == crate::finding::Severity::Error)
            .map(|f| format!("{}: {}", f.code, f.message))
            .collect();
        record.stop_invalid("failed", codes.join("; "));
        return Prepared::stopped(record);
    }
    let object_a = (report.record_version == Some(3))
        .then(|| decode_object_a(&map))
        .flatten();
    Prepared {
        record,
        receipt: Some(map),
        report: Some(report),
        object_a,
        frame_call,
    }
}

/// Recovers the frame, validates it and labels the receipt.
pub fn finish(prepared: Prepared, index: &FrameIndex, options: &Options) -> Record {
    let Prepared {
        mut record,
        receipt,
        report,
        object_a,
        frame_call,
    } = prepared;
    let (Some(map), Some(report)) = (receipt, report) else {
        return record;
    };
    let server = options
        .server
        .clone()
        .unwrap_or_else(|| server_identity(&map));
    // Object A was analysed by the receipt checks; that call is this frame's call too.
    let mut known_call = frame_call.filter(|known| known.server == server);
    let recovered = match object_a {
        Some(bytes) => {
            let sha256 = sha256_hex(&bytes);
            let era = index
                .by_subject(&sha256, bytes.len() as u64)
                .map_or(SessionEra::Unknown, |entry| index.session_era(entry));
            Recovery::Frame {
                reference: FrameRef {
                    source: FrameSource::ObjectA,
                    file: record.receipt.clone(),
                    frame_number: None,
                    link: Link::FramedSubject,
                    sha256,
                    length: bytes.len() as u64,
                },
                bytes: std::borrow::Cow::Owned(bytes),
                era,
            }
        }
        None => {
            known_call = None;
            recover(&record.reported, record.record_version, index)
        }
    };
    match recovered {
        Recovery::None(detail) => {
            record.old_profile = profile_from_checks(&report);
            record.detail = Some(detail);
            record.apply(FrameState::Unrecoverable, false);
        }
        Recovery::Mismatch(reference, detail) => {
            record.old_profile = profile_from_checks(&report);
            record.frame = Some(reference);
            record.detail = Some(detail);
            record.apply(FrameState::Mismatch, false);
        }
        Recovery::Frame {
            reference,
            bytes,
            era,
        } => {
            record.frame = Some(reference);
            match era {
                SessionEra::Conflict { legacy, modern } => {
                    let candidates = [
                        (legacy, request::Era::Legacy),
                        (modern, request::Era::Modern),
                    ];
                    analyse_each_era(&mut record, &report, &bytes, &server, candidates);
                }
                SessionEra::Unknown | SessionEra::Known(_) => {
                    let era = era.agreed().flatten();
                    let known = known_call.and_then(|known| reusable(known.call, era));
                    analyse(&mut record, &report, &bytes, era, &server, known);
                }
            }
        }
    }
    record
}

/// [`prepare`] then [`finish`].
pub fn migrate_receipt(
    receipt_path: &str,
    counter: Option<u64>,
    bytes: Result<&[u8], String>,
    index: &FrameIndex,
    options: &Options,
    scratch: &mut Scratch,
) -> Record {
    finish(
        prepare(receipt_path, counter, bytes, scratch),
        index,
        options,
    )
}

fn decode_object_a(map: &Map<String, Value>) -> Option<Vec<u8>> {
    map.get("signed_artifacts")?
        .get("object_a")?
        .as_str()
        .and_then(|text| STANDARD.decode(text).ok())
}

/// The operator's server identity a receipt was decided under (as the receipt checks read
/// it): `server` at the top of `kernel_config` or in its `safety` section.
fn server_identity(map: &Map<String, Value>) -> String {
    let config = map.get("kernel_config");
    config
        .and_then(|c| c.get("server"))
        .or_else(|| config.and_then(|c| c.pointer("/safety/server")))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

impl Record {
    fn blank(receipt: &str, counter: Option<u64>) -> Self {
        Record {
            kind: RecordType::Record,
            receipt: receipt.to_owned(),
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

    fn stop_invalid(&mut self, check: &str, detail: String) {
        self.receipt_check = check.to_owned();
        self.detail = Some(detail);
        self.apply(FrameState::Unrecoverable, false);
        self.label = Label::ReceiptInvalid;
        self.changes.clear();
    }

    fn fill_reported(&mut self, map: &Map<String, Value>, report: &ReceiptReport) {
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
    fn apply(&mut self, frame: FrameState, refused: bool) {
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

impl Prepared {
    fn stopped(record: Record) -> Self {
        Prepared {
            record,
            receipt: None,
            report: None,
            object_a: None,
            frame_call: None,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn base() -> Assessment {
        Assessment {
            receipt_valid: true,
            frame: FrameState::Recovered,
            refused: false,
            meta: Presence::Absent,
            context: Presence::Absent,
            guarded: true,
            old_profile: Some(ProfileName::Host),
        }
    }

    #[test]
    fn precedence_follows_the_design_table() {
        let all = Assessment {
            receipt_valid: false,
            frame: FrameState::Unrecoverable,
            refused: true,
            meta: Presence::Present,
            context: Presence::Present,
            guarded: true,
            old_profile: Some(ProfileName::Legacy),
        };
        assert_eq!(assess(&all).0, Label::ReceiptInvalid);
        let valid = Assessment {
            receipt_valid: true,
            ..all
        };
        assert_eq!(assess(&valid).0, Label::FrameUnrecoverable);
        let mismatch = Assessment {
            frame: FrameState::Mismatch,
            ..valid
        };
        assert_eq!(assess(&mismatch).0, Label::FrameMismatch);
        let recovered = Assessment {
            frame: FrameState::Recovered,
            ..valid
        };
        assert_eq!(
            assess(&recovered),
            (
                Label::RefusedNow,
                vec![Change::Meta, Change::Context, Change::Layout]
            )
        );
        let accepted = Assessment {
            refused: false,
            ..recovered
        };
        assert_eq!(assess(&accepted).0, Label::MetaNowCommitted);
        let context = Assessment {
            meta: Presence::Absent,
            ..accepted
        };
        assert_eq!(
            assess(&context),
            (
                Label::ContextNowCommitted,
                vec![Change::Context, Change::Layout]
            )
        );
        let layout = Assessment {
            context: Presence::Absent,
            ..context
        };
        assert_eq!(
            assess(&layout),
            (Label::LayoutChanged, vec![Change::Layout])
        );
        assert_eq!(assess(&base()), (Label::IdentityUnchanged, vec![]));
    }

    #[test]
    fn unguarded_calls_have_no_layout_change_and_unknown_frames_no_changes() {
        let unguarded = Assessment {
            guarded: false,
            old_profile: None,
            ..base()
        };
        assert_eq!(assess(&unguarded), (Label::IdentityUnchanged, vec![]));
        let unknown = Assessment {
            frame: FrameState::Unrecoverable,
            meta: Presence::Unknown,
            context: Presence::Unknown,
            old_profile: Some(ProfileName::Legacy),
            ..base()
        };
        assert_eq!(assess(&unknown), (Label::FrameUnrecoverable, vec![]));
    }
}
