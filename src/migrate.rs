//! Migration of `_meta`-blind receipts to the committed identity (DESIGN.md §6): for one
//! receipt, check it with the receipt checks of [`crate::receipt`], recover its exact frame
//! (its own signed object A, or a supplied capture, see [`frames`]), validate the frame under
//! today's rules ([`crate::request`]), compute every profile ([`crate::identity`]), and say
//! in one [`Record`] what changes: a primary [`Label`] (the first of DESIGN §6's table that
//! applies) and every [`Change`] that moves the identity.
//!
//! Guarantees: the label precedence and the change list follow DESIGN §6 exactly
//! ([`assess`]); `_meta` is called `absent` only when the frame's bytes show no `_meta`
//! member, `unknown` whenever the bytes are not available, and a present key is always
//! listed ([`Presence`]); a frame found through a link weaker than the exact-frame subject,
//! or one that contradicts the receipt's digests, is never used (`frame-mismatch`); object A
//! is trusted only after the receipt passes its own integrity checks; when the captures sent
//! the frame in sessions of both eras and the eras give different records, neither is chosen
//! (`frame-conflict`, naming both), so a record never depends on the order of the captures.
//! Nothing here prints or panics on any input.

pub mod diff;
pub mod frames;
pub mod inputs;
pub mod output;
pub mod run;

use crate::digest::sha256_hex;
use crate::identity::Profile;
use crate::json;
use crate::receipt::recompute::{self, Rule};
use crate::receipt::{self, ReceiptReport, Scratch, Status};
use crate::request::{self, EraMode, Session, Verdict};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use frames::{FrameIndex, Located, SessionEra};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The primary migration label of a receipt, in DESIGN §6's precedence order (the first
/// that applies wins; `Ord` follows that order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
    pub const ALL: [Label; 9] = [
        Label::ReceiptInvalid,
        Label::FrameUnrecoverable,
        Label::FrameMismatch,
        Label::FrameConflict,
        Label::RefusedNow,
        Label::MetaNowCommitted,
        Label::ContextNowCommitted,
        Label::LayoutChanged,
        Label::IdentityUnchanged,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Label::ReceiptInvalid => "receipt-invalid",
            Label::FrameUnrecoverable => "frame-unrecoverable",
            Label::FrameMismatch => "frame-mismatch",
            Label::FrameConflict => "frame-conflict",
            Label::RefusedNow => "refused-now",
            Label::MetaNowCommitted => "meta-now-committed",
            Label::ContextNowCommitted => "context-now-committed",
            Label::LayoutChanged => "layout-changed",
            Label::IdentityUnchanged => "identity-unchanged",
        }
    }

    /// DESIGN §6's meaning of the label.
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

/// A reason the identity moves (DESIGN §6 `changes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    /// `_meta` is present: the committed identity commits it.
    Meta,
    /// `requestState` or `inputResponses` is present.
    Context,
    /// The old target was not computed under the tagged (`host` / `committed`) layout.
    Layout,
}

impl Change {
    pub const ALL: [Change; 3] = [Change::Meta, Change::Context, Change::Layout];

    pub fn as_str(self) -> &'static str {
        match self {
            Change::Meta => "meta",
            Change::Context => "context",
            Change::Layout => "layout",
        }
    }
}

/// Whether a member is in the frame, in the only words DESIGN §6 allows: `absent` only for a
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

/// What the label rules look at (DESIGN §6).
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

/// DESIGN §6: every reason the identity moves, and the first label that applies. Without a
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
    if report.status == Status::Failed {
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

/// The captures sent this frame in sessions of both eras. Each era is analysed; when both
/// give the same record that record stands (the era made no difference). Otherwise the
/// receipt is `frame-conflict` with both outcomes: choosing either would let the order or
/// the choice of captures decide the verdict.
fn analyse_each_era(
    record: &mut Record,
    report: &ReceiptReport,
    frame: &[u8],
    server: &str,
    candidates: [(FrameRef, request::Era); 2],
) {
    let outcomes = candidates.map(|(reference, era)| {
        let mut outcome = record.clone();
        analyse(&mut outcome, report, frame, Some(era), server, None);
        (reference, era, outcome)
    });
    let [(legacy_ref, legacy_era, legacy), (modern_ref, modern_era, modern)] = outcomes;
    if legacy == modern {
        *record = legacy;
        return;
    }
    let describe = |reference: &FrameRef, era: request::Era, outcome: &Record| {
        let refusal = outcome
            .refusal
            .as_ref()
            .map_or(String::new(), |r| format!(" ({})", r.code));
        format!(
            "{} frame {} ({} session) gives {}{refusal}",
            reference.file,
            reference
                .frame_number
                .map_or(String::new(), |n| n.to_string()),
            era.as_str(),
            outcome.label,
        )
    };
    record.detail = Some(format!(
        "the captures sent this frame in sessions of different eras, and the eras disagree: {}; {}; neither is chosen",
        describe(&legacy_ref, legacy_era, &legacy),
        describe(&modern_ref, modern_era, &modern),
    ));
    record.frame_conflict = Some(
        [
            (legacy_ref, legacy_era, legacy),
            (modern_ref, modern_era, modern),
        ]
        .into_iter()
        .map(|(frame, era, outcome)| EraOutcome {
            session_era: era.as_str().to_owned(),
            frame,
            label: outcome.label,
            changes: outcome.changes,
            refusal: outcome.refusal.map(|r| r.code),
        })
        .collect(),
    );
    let structure = Structure::of(frame);
    record.meta = structure.meta;
    record.meta_keys = structure.meta_keys;
    record.request_state = structure.request_state;
    record.input_responses = structure.input_responses;
    record.old_profile = profile_from_checks(report);
    record.apply(FrameState::Conflict, false);
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

/// A call analysed with no session entry call, when analysing the same frame in a session of
/// `era` gives the same call: the session's era only matters through the era decided for the
/// call, which is the same when no era is known, or when the known era is the one the frame's
/// own markers gave (a legacy session never turns a marker-less frame modern, a modern session
/// makes every frame modern).
fn reusable(call: Box<request::Call>, era: Option<request::Era>) -> Option<Box<request::Call>> {
    era.is_none_or(|era| era == call.era).then_some(call)
}

/// Validates the recovered frame under today's rules and fills identities and the label.
/// `known` is this frame's call already analysed in the same session era and server.
fn analyse(
    record: &mut Record,
    report: &ReceiptReport,
    frame: &[u8],
    era: Option<request::Era>,
    server: &str,
    known: Option<Box<request::Call>>,
) {
    let options = request::Options {
        server: server.to_owned(),
        era: EraMode::Auto,
    };
    let verdict = match known {
        Some(call) => Verdict::Call(call),
        None => request::analyze(frame, &options, &mut Session::begun(era)),
    };
    match verdict {
        Verdict::Call(call) => {
            record.meta = Presence::of(matches!(call.meta, request::MetaState::Present { .. }));
            if record.meta == Presence::Present {
                record.meta_keys = Some(call.meta.keys().to_vec());
            }
            record.request_state = Presence::of(call.request_state.is_some());
            record.input_responses = Presence::of(call.input_responses.is_some());
            let ids = &call.identities;
            record.old_profile = record.old_target.as_deref().and_then(|target| {
                let matching = ids.profiles_with_target(target);
                let natural = if record.record_version == Some(2) {
                    Profile::Legacy
                } else {
                    Profile::Host
                };
                if matching.contains(&natural) {
                    Some(natural.into())
                } else {
                    matching.first().map(|p| (*p).into())
                }
            });
            if record.old_target.is_some() {
                record.committed_target = Some(ids.committed.target.clone());
            }
            record.committed_effect = Some(ids.committed.effect.clone());
            record.current_canonical_request_sha256 = call.canonical_request_sha256.clone();
            record.apply(FrameState::Recovered, false);
        }
        Verdict::Refused(refusal) => {
            record.refusal = Some(RefusalInfo {
                code: refusal.code.as_str().to_owned(),
                jsonrpc_code: Some(refusal.jsonrpc_code()),
                message: refusal.message.clone(),
            });
            refused_structure(record, report, frame);
        }
        Verdict::Skipped(skipped) => {
            record.refusal = Some(RefusalInfo {
                code: "not-a-tools-call".to_owned(),
                jsonrpc_code: None,
                message: format!(
                    "the frame is a {}{}, not a tools/call request",
                    skipped.kind.as_str(),
                    skipped
                        .method
                        .map(|m| format!(" ({m})"))
                        .unwrap_or_default()
                ),
            });
            refused_structure(record, report, frame);
        }
    }
}

/// A refused frame gets no identity; what its bytes show structurally is still reported.
fn refused_structure(record: &mut Record, report: &ReceiptReport, frame: &[u8]) {
    let structure = Structure::of(frame);
    record.meta = structure.meta;
    record.meta_keys = structure.meta_keys;
    record.request_state = structure.request_state;
    record.input_responses = structure.input_responses;
    record.old_profile = profile_from_checks(report);
    record.apply(FrameState::Recovered, true);
}

/// Context members as the frame's bytes show them, without validation (for refused frames).
struct Structure {
    meta: Presence,
    meta_keys: Option<Vec<String>>,
    request_state: Presence,
    input_responses: Presence,
}

impl Structure {
    fn of(frame: &[u8]) -> Self {
        let unknown = Structure {
            meta: Presence::Unknown,
            meta_keys: None,
            request_state: Presence::Unknown,
            input_responses: Presence::Unknown,
        };
        let Ok(line) = std::str::from_utf8(crate::frame::request_line(frame)) else {
            return unknown;
        };
        // seal-host's own nesting limit; deeper frames stay `unknown`.
        let Ok(root) = json::parse(line.trim_matches([' ', '\t', '\r', '\n']), 128) else {
            return unknown;
        };
        let params = root.value.get("params");
        let member = |name: &str| params.and_then(|p| p.value.get(name));
        let meta = member("_meta");
        let meta_keys = meta.map(|m| {
            let mut keys: Vec<String> = m
                .value
                .as_object()
                .unwrap_or_default()
                .iter()
                .map(|member| member.key.to_string())
                .collect();
            keys.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            keys.dedup();
            keys
        });
        Structure {
            meta: Presence::of(meta.is_some()),
            meta_keys,
            request_state: Presence::of(member("requestState").is_some()),
            input_responses: Presence::of(member("inputResponses").is_some()),
        }
    }
}

/// The old target's profile as the receipt checks established it (without a frame).
fn profile_from_checks(report: &ReceiptReport) -> Option<ProfileName> {
    if report.verified.contains_key("host_target") {
        Some(ProfileName::Host)
    } else if report.verified.contains_key("legacy_target") {
        Some(ProfileName::Legacy)
    } else {
        None
    }
}

/// The result of looking for a receipt's frame.
enum Recovery<'i> {
    Frame {
        reference: FrameRef,
        bytes: std::borrow::Cow<'i, [u8]>,
        era: SessionEra,
    },
    Mismatch(FrameRef, String),
    None(String),
}

/// Searches the index: exact-frame subject first (and then the frame must agree with every
/// digest the receipt recorded), then `request_sha256`, then `canonical_request_sha256`; a
/// frame found through either weaker link contradicts the recorded subject.
fn recover<'i>(reported: &Reported, version: Option<u64>, index: &'i FrameIndex) -> Recovery<'i> {
    let subject = reported
        .framed_subject_sha256
        .as_deref()
        .zip(reported.framed_subject_length);
    if let Some((sha256, length)) = subject {
        if let Some(entry) = index.by_subject(sha256, length) {
            let reference = index.reference(entry, Link::FramedSubject);
            return match contradictions(reported, version, &entry.bytes) {
                None => Recovery::Frame {
                    reference,
                    bytes: std::borrow::Cow::Borrowed(&entry.bytes),
                    era: index.session_era(entry),
                },
                Some(why) => Recovery::Mismatch(
                    reference,
                    format!("the frame with the receipt's framed subject contradicts its other digests: {why}"),
                ),
            };
        }
    }
    let weaker = [
        (Link::RequestSha256, reported.request_sha256.as_deref()),
        (
            Link::CanonicalRequestSha256,
            reported.canonical_request_sha256.as_deref(),
        ),
    ];
    for (link, digest) in weaker {
        let Some(digest) = digest else { continue };
        let found = match link {
            Link::RequestSha256 => index.by_request(digest),
            _ => index.by_canonical(digest, rule_of(version)),
        };
        if let Some(Located { entry, .. }) = found {
            let reference = index.reference(entry, link);
            let detail = weak_link_detail(&reference, subject);
            return Recovery::Mismatch(reference, detail);
        }
    }
    let mut detail = String::from("no frame: ");
    detail.push_str(if version == Some(2) {
        "record_version 2 receipts carry no frame bytes, and "
    } else {
        ""
    });
    match subject {
        Some((sha256, length)) => detail.push_str(&format!(
            "no supplied capture holds a frame of {length} bytes with sha256 {sha256}, or one with the receipt's request_sha256 or canonical_request_sha256"
        )),
        None => detail.push_str("the receipt records no framed subject"),
    }
    Recovery::None(detail)
}

fn weak_link_detail(reference: &FrameRef, subject: Option<(&str, u64)>) -> String {
    let link = match reference.link {
        Link::RequestSha256 => "request_sha256",
        _ => "canonical_request_sha256",
    };
    let found = format!(
        "{} frame {} (found by {link} only) is {} bytes with sha256 {}",
        reference.file,
        reference
            .frame_number
            .map_or(String::new(), |n| n.to_string()),
        reference.length,
        reference.sha256
    );
    match subject {
        Some((sha256, length)) if length == reference.length => format!(
            "{found}; the receipt's framed subject is {length} bytes with sha256 {sha256} (same length, other digest)"
        ),
        Some((sha256, length)) => format!(
            "{found}; the receipt's framed subject is {length} bytes with sha256 {sha256} (other length)"
        ),
        None => format!("{found}; the receipt records no framed subject to confirm it"),
    }
}

/// The digests a subject-linked frame must reproduce; `None` when it agrees with all the
/// receipt recorded.
fn contradictions(reported: &Reported, version: Option<u64>, frame: &[u8]) -> Option<String> {
    let mut wrong = Vec::new();
    let request_sha256 = sha256_hex(crate::frame::request_line(frame));
    if let Some(recorded) = &reported.request_sha256 {
        if *recorded != request_sha256 {
            wrong.push(format!(
                "request_sha256 is {request_sha256}, the receipt says {recorded}"
            ));
        }
    }
    if let Some(recorded) = &reported.canonical_request_sha256 {
        match frames::canonical_sha256(frame, rule_of(version)) {
            Some(sha) if sha == *recorded => {}
            Some(sha) => wrong.push(format!(
                "canonical_request_sha256 is {sha}, the receipt says {recorded}"
            )),
            None => {
                wrong.push("the frame has no canonical request, the receipt records one".into())
            }
        }
    }
    (!wrong.is_empty()).then(|| wrong.join("; "))
}

fn rule_of(version: Option<u64>) -> Rule {
    if version == Some(2) {
        recompute::V2
    } else {
        recompute::V3
    }
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

    /// Reusing the receipt checks' call is the same as analysing again, in every era, for
    /// every fixture frame (compared through their full debug rendering).
    #[test]
    fn a_reused_call_is_the_call_a_fresh_analysis_gives() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/legacy-vs-current/frames"
        );
        let (mut reused, mut refused) = (0, 0);
        for entry in std::fs::read_dir(dir).unwrap() {
            let frame = std::fs::read(entry.unwrap().path()).unwrap();
            for server in ["", "srv"] {
                let options = request::Options {
                    server: server.to_owned(),
                    era: EraMode::Auto,
                };
                for era in [None, Some(request::Era::Legacy), Some(request::Era::Modern)] {
                    let Verdict::Call(call) =
                        request::analyze(&frame, &options, &mut Session::default())
                    else {
                        continue;
                    };
                    let fresh = request::analyze(&frame, &options, &mut Session::begun(era));
                    match reusable(call, era) {
                        Some(call) => {
                            assert_eq!(format!("{:?}", Verdict::Call(call)), format!("{fresh:?}"));
                            reused += 1;
                        }
                        None => refused += 1,
                    }
                }
            }
        }
        assert!(reused >= 20 && refused >= 2, "{reused} {refused}");
    }

    #[test]
    fn structure_of_a_refused_frame_lists_present_keys() {
        let s =
            Structure::of(b"{\"params\":{\"_meta\":{\"b\":1,\"a\":2},\"requestState\":\"x\"}}\n");
        assert_eq!(s.meta, Presence::Present);
        assert_eq!(s.meta_keys.unwrap(), vec!["a", "b"]);
        assert_eq!(s.request_state, Presence::Present);
        assert_eq!(s.input_responses, Presence::Absent);
        let broken = Structure::of(b"{\"params\":\n");
        assert_eq!(broken.meta, Presence::Unknown);
        let deep = format!("{}{}\n", "[".repeat(200), "]".repeat(200));
        assert_eq!(Structure::of(deep.as_bytes()).meta, Presence::Unknown);
    }
}
