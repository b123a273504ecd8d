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
mod assess;
pub mod diff;
pub mod frames;
pub mod inputs;
pub mod output;
mod record;
mod recover;
pub mod run;

use crate::digest::sha256_hex;
use crate::era::Era;
use crate::identity::Profile;
use crate::receipt::{self, ReceiptReport, ReceiptStatus, Scratch};
use analyse::{analyse, analyse_each_era, profile_from_checks, reusable};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use frames::{FrameIndex, SessionEra};
use recover::{recover, Recovery};

pub use assess::{assess, Assessment, FrameState};
pub use record::{
    EraOutcome, FrameRef, FrameSource, Link, Record, RecordType, RefusalInfo, Reported,
};
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

/// Operator settings.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The server identity to compute identities under; by default each receipt's own
    /// (its `kernel_config`, as the receipt checks use), else empty.
    pub server: Option<String>,
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
    /// Names the receipt by its exact path ([`crate::path_json`]: `receipt_hex` beside a
    /// name that is not UTF-8).
    pub fn named(mut self, path: &std::path::Path) -> Self {
        self.record.name(path);
        self
    }

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
    let (map, report, frame_call) = match receipt::verify_bytes_with_frame(bytes, None, scratch) {
        Ok(verified) => verified,
        Err(problem) => {
            record.stop_invalid(
                "unreadable",
                format!("{}: {}", problem.code, problem.message),
            );
            return Prepared::stopped(record);
        }
    };
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
                    let candidates = [(legacy, Era::Legacy), (modern, Era::Modern)];
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
