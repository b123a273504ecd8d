//! Trust-annotation evidence references (`evidenceRef`, docs/evidence.md): making one for an
//! authenticated Seal receipt, and checking one against local evidence. Every assumption
//! about the unsettled wire format is a constant or a function here (the annotation key, the
//! digest syntax, the canonicalization names, the `type` and `schema` sealkit writes), so a
//! change of the draft is a change in one place.
//!
//! Guarantees: a reference is `verified` only when its digest was recomputed from evidence
//! found under the given roots under a canonicalization sealkit knows and equals it; a
//! reference to a Seal receipt also needs the receipt to authenticate under the pinned key,
//! and when the call it annotates is known, to be that call's receipt. Every other outcome
//! has a stable [`EvidenceCode`] whose [`Outcome`] is "found a problem" or "could not check".
//! Evidence that is a Seal receipt is checked as one whatever `type` the reference declares;
//! a `type` that only looks like one sealkit knows is refused; any other unknown `type` is
//! never refused (its digest is checked, its meaning is not evaluated). Nothing here prints.

pub mod capture;
pub mod checked;
mod made;
pub mod refs;
pub mod store;
mod types;

pub use made::{receipt_ref, reference_for, Made};
pub use types::{confusable_type, is_seal_receipt, shown_type, KNOWN_TYPES};

use crate::digest::sha256_hex;
use crate::frame::Subject;
use crate::jcs::{self, JcsError};
use crate::json::{JsonValue, Node};
use crate::outcome::Outcome;
use crate::receipt::{self, pin::Pin, ReceiptStatus, Scratch};
use serde::Serialize;
use std::path::PathBuf;
use strum::{IntoStaticStr, VariantArray};

/// Where a response carries its trust annotations: `result._meta[KEY]` (assumed; `--annotation-key`).
pub const DEFAULT_ANNOTATION_KEY: &str = "io.modelcontextprotocol/trust-annotations";
/// The member of the annotation object holding one reference or an array of them.
pub const EVIDENCE_REF_MEMBER: &str = "evidenceRef";
/// The coarse flag of the annotation object the report shows when present.
pub const SENSITIVE_MEMBER: &str = "sensitive";
/// The `type` sealkit writes for a Seal receipt, in the registry's `name.vN` style:
/// seal-host's `record_type` and its `record_version`.
pub const SEAL_RECEIPT_TYPE: &str = "seal.authorization-decision.v3";
/// The `schema` sealkit writes for a Seal receipt: the record sealkit documents in
/// docs/formats.md "Receipts" (`record_type`/`record_version`).
pub const SEAL_RECEIPT_SCHEMA: &str = "seal.authorization-decision/3";
/// The one digest syntax sealkit knows: this prefix, then 64 lowercase hex digits.
pub const DIGEST_PREFIX: &str = "sha256:";

/// How the evidence bytes are made canonical before they are hashed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Canonicalization {
    /// RFC 8785 over the evidence read as JSON (`rfc8785`, alias `jcs`).
    Rfc8785,
    /// The evidence bytes exactly as stored (`none`).
    None,
}

impl Canonicalization {
    /// The canonicalization a reference names, if sealkit knows it.
    pub fn named(name: &str) -> Option<Canonicalization> {
        match name {
            "rfc8785" | "jcs" => Some(Canonicalization::Rfc8785),
            "none" => Some(Canonicalization::None),
            _ => None,
        }
    }

    /// The name sealkit writes.
    pub fn name(self) -> &'static str {
        match self {
            Canonicalization::Rfc8785 => "rfc8785",
            Canonicalization::None => "none",
        }
    }

    /// The bytes hashed for `bytes` under this canonicalization.
    pub fn apply(self, bytes: &[u8]) -> Result<Vec<u8>, JcsError> {
        match self {
            Canonicalization::Rfc8785 => jcs::canonicalize_bytes(bytes).map(String::into_bytes),
            Canonicalization::None => Ok(bytes.to_vec()),
        }
    }
}

/// `sha256:<hex>` of `bytes` under `canonicalization`.
pub fn digest(canonicalization: Canonicalization, bytes: &[u8]) -> Result<String, JcsError> {
    let canonical = canonicalization.apply(bytes)?;
    Ok(format!("{DIGEST_PREFIX}{}", sha256_hex(&canonical)))
}

/// Whether `text` is a digest in the one syntax sealkit knows.
pub fn is_known_digest(text: &str) -> bool {
    text.strip_prefix(DIGEST_PREFIX).is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

macro_rules! evidence_codes {
    ($($variant:ident => ($outcome:ident, $what:literal),)*) => {
        /// Every verdict code of `sealkit evidence`; the kebab-case text is the stable interface.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, IntoStaticStr, VariantArray,
        )]
        #[strum(serialize_all = "kebab-case")]
        pub enum EvidenceCode { $($variant,)* }

        impl EvidenceCode {
            /// Every code, in documentation order.
            pub const ALL: &'static [EvidenceCode] = EvidenceCode::VARIANTS;

            pub fn as_str(self) -> &'static str {
                self.into()
            }

            /// What a reference with this code does to the exit status.
            pub fn outcome(self) -> Outcome {
                match self { $(EvidenceCode::$variant => Outcome::$outcome,)* }
            }

            /// One line saying what the code means.
            pub fn meaning(self) -> &'static str {
                match self { $(EvidenceCode::$variant => $what,)* }
            }
        }
    };
}

evidence_codes! {
    EvidenceRefMalformed => (Problems, "the reference is not an object with string `type`, `digest` and `canonicalization` (and string `schema` / `ref` when present), or the annotation holding it is not an object"),
    EvidenceDigestUnsupported => (Unchecked, "the digest is not `sha256:` and 64 lowercase hex digits, the one syntax sealkit knows"),
    EvidenceCanonicalizationUnsupported => (Unchecked, "the canonicalization is none of `rfc8785`, `jcs` or `none`"),
    EvidenceRefOutsideRoots => (Problems, "the `ref` is absolute, climbs with `..`, or leads (through a symbolic link) outside every evidence root"),
    EvidenceNotFound => (Unchecked, "no evidence under the given roots: none at `ref`, and no file with the digest"),
    EvidenceUnreadable => (Unchecked, "the evidence file `ref` names could not be read"),
    EvidenceNotCanonicalizable => (Unchecked, "the evidence has no RFC 8785 form (not one UTF-8 JSON value, a member name twice, an unpaired surrogate, a number outside binary64)"),
    EvidenceDigestMismatch => (Problems, "the digest recomputed from the evidence under the named canonicalization differs from the reference's"),
    EvidenceReceiptNotAuthenticated => (Problems, "the evidence is named a Seal receipt but does not authenticate under the pinned receipt key"),
    EvidenceForAnotherCall => (Problems, "the receipt authenticates but is the receipt of another request than the one the annotated response answers"),
    EvidenceTypeNotEvaluated => (Good, "the `type` is not one sealkit evaluates and the evidence is not a Seal receipt: the digest was checked, the evidence's meaning was not"),
    EvidenceTypeConfusable => (Problems, "the `type` is not a type sealkit knows but looks like one (a look-alike letter from another script, another case, surrounding space or invisible characters): refused, never read as either"),
    EvidenceFrameUnreadable => (Unchecked, "a captured frame is not one JSON object (or is over the frame limit), so a reference it may carry was not read"),
    EvidenceFrameUnclassifiable => (Unchecked, "a captured frame is a JSON object but neither a request, a notification nor a response (`method` not a string, `method` beside `result` or `error`, both or neither of `result` and `error`), so a reference it may carry was not read"),
    DuplicateKey => (Problems, "a captured frame writes one member name twice (at any depth): readers disagree on which copy counts, so the frame is refused and nothing in it is read"),
}

impl std::fmt::Display for EvidenceCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for EvidenceCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// The members of a reference, each kept when it is a string (exact values for output).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct EvidenceRef {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonicalization: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// A reference as read, with why its shape is wrong when it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRef {
    pub fields: EvidenceRef,
    pub malformed: Option<String>,
}

/// Reads one reference value: its string members, and the first shape problem (`digest`,
/// `canonicalization` and `type` present and strings, `schema` and `ref` strings when
/// present; a member named twice is refused, as readers disagree on which copy counts).
pub fn read_ref(node: &Node<'_>) -> ReadRef {
    let Some(members) = node.value.as_object() else {
        return ReadRef {
            fields: EvidenceRef::default(),
            malformed: Some(format!(
                "an evidenceRef is an object, found {}",
                node.value.type_name()
            )),
        };
    };
    let text = |name: &str| {
        node.value
            .get(name)
            .and_then(|n| n.value.as_str())
            .map(str::to_owned)
    };
    let fields = EvidenceRef {
        kind: text("type"),
        digest: text("digest"),
        canonicalization: text("canonicalization"),
        schema: text("schema"),
        reference: text("ref"),
    };
    let mut malformed = None;
    let mut seen = std::collections::HashSet::new();
    if let Some(repeated) = members.iter().find(|m| !seen.insert(m.key.as_ref())) {
        malformed = Some(format!("member \"{}\" is written twice", repeated.key));
    }
    for (name, required) in [
        ("type", true),
        ("digest", true),
        ("canonicalization", true),
        ("schema", false),
        ("ref", false),
    ] {
        if malformed.is_some() {
            break;
        }
        malformed = match node.value.get(name) {
            None if required => Some(format!("\"{name}\" is missing")),
            Some(value) if value.value.as_str().is_none() => Some(format!(
                "\"{name}\" must be a string, found {}",
                value.value.type_name()
            )),
            _ => None,
        };
    }
    ReadRef { fields, malformed }
}

/// What a trust-annotation value holds: its coarse `sensitive` flag and its references.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotation {
    pub sensitive: Option<bool>,
    pub refs: Vec<ReadRef>,
}

/// Reads the annotation object found under the annotation key: `evidenceRef` is one
/// reference or an array of them. Anything but an object is one malformed reference, so it
/// is reported rather than passed over.
pub fn read_annotation(node: &Node<'_>) -> Annotation {
    let malformed = |why: String| ReadRef {
        fields: EvidenceRef::default(),
        malformed: Some(why),
    };
    if node.value.as_object().is_none() {
        return Annotation {
            sensitive: None,
            refs: vec![malformed(format!(
                "the trust annotation is an object, found {}",
                node.value.type_name()
            ))],
        };
    }
    let sensitive = match node.value.get(SENSITIVE_MEMBER).map(|n| &n.value) {
        Some(JsonValue::Bool(flag)) => Some(*flag),
        _ => None,
    };
    let refs = match node.value.get(EVIDENCE_REF_MEMBER) {
        None => Vec::new(),
        Some(Node {
            value: JsonValue::Array(items),
            ..
        }) => items.iter().map(read_ref).collect(),
        Some(one) => vec![read_ref(one)],
    };
    Annotation { sensitive, refs }
}

/// A JSON-RPC `id` by which a response names its request: a string or an integer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequestId {
    /// The decoded string.
    String(String),
    /// The integer literal exactly as written.
    Integer(String),
}

impl RequestId {
    /// The id a JSON value is, when it is a string or an integer literal.
    pub fn of(value: &JsonValue<'_>) -> Option<RequestId> {
        match value {
            JsonValue::String(text) => Some(RequestId::String(text.to_string())),
            JsonValue::Number(literal) if value.is_integer() => {
                Some(RequestId::Integer((*literal).to_owned()))
            }
            _ => None,
        }
    }
}

impl Serialize for RequestId {
    /// As JSON-RPC writes it: a string, or the integer (its literal, exactly).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestId::String(text) => serializer.serialize_str(text),
            RequestId::Integer(literal) => match literal.parse::<i64>() {
                Ok(n) => serializer.serialize_i64(n),
                Err(_) => serializer.serialize_str(literal),
            },
        }
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestId::String(text) => write!(f, "{text:?}"),
            RequestId::Integer(literal) => f.write_str(literal),
        }
    }
}

/// The request a response answers, as the capture holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CapturedRequest {
    /// 1-based frame number of the request in its capture.
    pub line: u64,
    pub tool: String,
    /// The exact-frame subject of the request frame.
    pub subject: Subject,
}

/// Whether the evidence is the receipt of the annotated call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Binding {
    /// The receipt's verified exact-frame subject is the captured request's.
    Bound,
    /// It is another request's.
    AnotherCall,
    /// The response's request is not in the capture (same id, same session): not checked.
    RequestNotCaptured,
    /// The response's request is in the capture, but the validation pipeline refuses it, so
    /// it has no identity to bind to: not checked.
    RequestRefused,
    /// Not a Seal receipt checked against a call (a reference from `--refs`, an unknown
    /// `type`, or a check that stopped before).
    NotApplicable,
}

impl Binding {
    pub fn as_str(self) -> &'static str {
        match self {
            Binding::Bound => "bound",
            Binding::AnotherCall => "another-call",
            Binding::RequestNotCaptured => "request-not-captured",
            Binding::RequestRefused => "request-refused",
            Binding::NotApplicable => "not-applicable",
        }
    }
}

/// A captured response's trust annotation, as the incident report shows it with the row of
/// the request it answers: each reference with its verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowAnnotation {
    pub capture: String,
    /// 1-based frame number of the response.
    pub line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sensitive: Option<bool>,
    pub references: Vec<CheckedRef>,
}

/// One reference (its string members, exactly) and its verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckedRef {
    #[serde(rename = "evidenceRef")]
    pub evidence_ref: EvidenceRef,
    #[serde(flatten)]
    pub verdict: Verdict,
}

impl CheckedRef {
    /// The reference as people read it: `TYPE STATUS (CODE), binding B: MESSAGE` (the type
    /// with everything outside printable ASCII escaped, [`shown_type`]; the message for the
    /// caller to escape). The one human line of a checked reference, on the report's rows and
    /// in its findings.
    pub fn line(&self) -> String {
        let verdict = &self.verdict;
        format!(
            "{} {}{}, binding {}: {}",
            self.evidence_ref
                .kind
                .as_deref()
                .map_or("(no type)".into(), shown_type),
            verdict.status(),
            verdict.code.map(|c| format!(" ({c})")).unwrap_or_default(),
            verdict.binding.as_str(),
            verdict.message
        )
    }
}

/// How the evidence was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Located {
    /// The file, as under the root given on the command line.
    pub file: PathBuf,
    /// `ref` or `digest`.
    pub by: &'static str,
}

/// The verdict on one reference. Its status is not stored: it is what the code does to the
/// exit status ([`Verdict::status`]), written first in JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub code: Option<EvidenceCode>,
    pub message: String,
    pub evidence: Option<Located>,
    /// `seal-receipt` when the `type` is sealkit's, else `not-evaluated`.
    pub profile: &'static str,
    /// The receipt's status when the evidence was checked as a Seal receipt.
    pub receipt: Option<ReceiptStatus>,
    pub binding: Binding,
}

impl Serialize for Verdict {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut record = serializer.serialize_struct("Verdict", 7)?;
        record.serialize_field("status", self.status())?;
        if let Some(code) = &self.code {
            record.serialize_field("code", code)?;
        }
        record.serialize_field("message", &self.message)?;
        if let Some(evidence) = &self.evidence {
            record.serialize_field("evidence", evidence)?;
        }
        record.serialize_field("profile", self.profile)?;
        if let Some(receipt) = &self.receipt {
            record.serialize_field("receipt", receipt)?;
        }
        record.serialize_field("binding", &self.binding)?;
        record.end()
    }
}

impl Verdict {
    /// `verified`, `failed` or `not-checked` (exit status 0, 1, 2): what the code does to the
    /// exit status.
    pub fn status(&self) -> &'static str {
        match self.outcome() {
            Outcome::Good => "verified",
            Outcome::Problems => "failed",
            Outcome::Unchecked => "not-checked",
        }
    }

    pub fn outcome(&self) -> Outcome {
        self.code.map_or(Outcome::Good, EvidenceCode::outcome)
    }
}

/// `verdict` ended with `code`.
fn stop(mut verdict: Verdict, code: EvidenceCode, message: String) -> Verdict {
    verdict.code = Some(code);
    verdict.message = message;
    verdict
}

/// What a check needs besides the reference.
pub struct Context<'a> {
    pub store: &'a mut store::Store,
    pub pin: Option<&'a Pin>,
    pub scratch: &'a mut Scratch,
}

/// Where the reference was read, as far as binding goes.
#[derive(Debug, Clone, Copy)]
pub enum Call<'a> {
    /// From a captured response whose request is in the capture.
    Captured(&'a CapturedRequest),
    /// From a captured response whose request the pipeline refuses (its frame, its code).
    Refused(u64, &'a str),
    /// From a captured response whose request is not in the capture.
    NotCaptured,
    /// From a file of references: no call.
    None,
}

/// Checks one reference, in the order of docs/evidence.md.
pub fn check(read: &ReadRef, call: Call<'_>, context: &mut Context<'_>) -> Verdict {
    let ours = read.fields.kind.as_deref() == Some(SEAL_RECEIPT_TYPE);
    let mut verdict = Verdict {
        code: None,
        message: String::new(),
        evidence: None,
        profile: if ours {
            "seal-receipt"
        } else {
            "not-evaluated"
        },
        receipt: None,
        binding: Binding::NotApplicable,
    };
    if let Some(why) = &read.malformed {
        return stop(verdict, EvidenceCode::EvidenceRefMalformed, why.clone());
    }
    let fields = &read.fields;
    if let Some((kind, known)) =
        (fields.kind.as_deref()).and_then(|kind| confusable_type(kind).map(|known| (kind, known)))
    {
        return stop(
            verdict,
            EvidenceCode::EvidenceTypeConfusable,
            format!(
                "type \"{}\" is not {known:?} but looks like it",
                shown_type(kind)
            ),
        );
    }
    let (Some(digest), Some(name)) = (&fields.digest, &fields.canonicalization) else {
        return stop(
            verdict,
            EvidenceCode::EvidenceRefMalformed,
            "digest or canonicalization is missing".to_owned(),
        );
    };
    if !is_known_digest(digest) {
        return stop(
            verdict,
            EvidenceCode::EvidenceDigestUnsupported,
            format!("digest {digest:?} is not {DIGEST_PREFIX} and 64 lowercase hex digits"),
        );
    }
    let Some(canonicalization) = Canonicalization::named(name) else {
        return stop(
            verdict,
            EvidenceCode::EvidenceCanonicalizationUnsupported,
            format!("canonicalization {name:?} is none of rfc8785, jcs, none"),
        );
    };
    let found = match &fields.reference {
        Some(reference) => match context.store.resolve(reference) {
            Err(why) => return stop(verdict, EvidenceCode::EvidenceRefOutsideRoots, why),
            Ok(Some(found)) => Some((found, "ref")),
            Ok(None) => None,
        },
        None => None,
    };
    let found = match found {
        Some(found) => found,
        None => match context.store.find(canonicalization, digest) {
            Some(found) => (found, "digest"),
            None => {
                let what = match &fields.reference {
                    Some(reference) => {
                        format!("no file {reference:?} under the evidence roots, and ")
                    }
                    None => String::new(),
                };
                return stop(
                    verdict,
                    EvidenceCode::EvidenceNotFound,
                    format!(
                        "{what}no evidence file has digest {digest} under {}",
                        canonicalization.name()
                    ),
                );
            }
        },
    };
    let (file, by) = found;
    verdict.evidence = Some(Located {
        file: file.shown.clone(),
        by,
    });
    let bytes = match store::read(&file.real) {
        Ok(bytes) => bytes,
        Err(error) => {
            return stop(
                verdict,
                EvidenceCode::EvidenceUnreadable,
                format!("{}: {error}", file.shown.display()),
            )
        }
    };
    let recomputed = match self::digest(canonicalization, &bytes) {
        Ok(recomputed) => recomputed,
        Err(error) => {
            return stop(
                verdict,
                EvidenceCode::EvidenceNotCanonicalizable,
                format!("{}: {error}", file.shown.display()),
            )
        }
    };
    if &recomputed != digest {
        return stop(
            verdict,
            EvidenceCode::EvidenceDigestMismatch,
            format!(
                "recomputed {recomputed} under {}, the reference says {digest}",
                canonicalization.name()
            ),
        );
    }
    if !ours {
        let kind = fields.kind.as_deref().unwrap_or_default();
        if !is_seal_receipt(&bytes) {
            return stop(
                verdict,
                EvidenceCode::EvidenceTypeNotEvaluated,
                format!(
                    "digest verified; type \"{}\" is not one sealkit evaluates",
                    shown_type(kind)
                ),
            );
        }
        // A receipt under another name is still a receipt: authenticated as one.
        verdict.profile = "seal-receipt";
    }
    receipt_profile(verdict, &bytes, call, context)
}

/// The Seal receipt profile: authenticated under the pinned key, and the receipt of the call.
fn receipt_profile(
    mut verdict: Verdict,
    bytes: &[u8],
    call: Call<'_>,
    context: &mut Context<'_>,
) -> Verdict {
    let report = match receipt::verify_bytes(bytes, context.pin, context.scratch) {
        Ok(report) => report,
        Err(problem) => {
            return stop(
                verdict,
                EvidenceCode::EvidenceReceiptNotAuthenticated,
                format!("not a receipt: {} ({})", problem.message, problem.code),
            )
        }
    };
    verdict.receipt = Some(report.status);
    if report.status != ReceiptStatus::Authenticated {
        let codes: Vec<&str> = report.findings.iter().map(|f| f.code.as_str()).collect();
        return stop(
            verdict,
            EvidenceCode::EvidenceReceiptNotAuthenticated,
            format!(
                "digest verified; the receipt is {} ({})",
                report.status.as_str(),
                codes.join(", ")
            ),
        );
    }
    let request = match call {
        Call::Captured(request) => request,
        Call::Refused(line, code) => {
            verdict.binding = Binding::RequestRefused;
            verdict.message = format!("digest verified; receipt authenticated; the annotated response's request (frame {line}) is refused ({code}), so it has no identity to bind the receipt to");
            return verdict;
        }
        Call::NotCaptured => {
            verdict.binding = Binding::RequestNotCaptured;
            verdict.message = "digest verified; receipt authenticated; the annotated response's request is not in the capture, so the call binding was not checked".to_owned();
            return verdict;
        }
        Call::None => {
            verdict.message = "digest verified; receipt authenticated".to_owned();
            return verdict;
        }
    };
    let subject = (
        report
            .verified
            .get("framed_subject_sha256")
            .and_then(|v| v.as_str()),
        report
            .verified
            .get("framed_subject_length")
            .and_then(|v| v.as_u64()),
    );
    if subject
        == (
            Some(request.subject.sha256.as_str()),
            Some(request.subject.length),
        )
    {
        verdict.binding = Binding::Bound;
        verdict.message = format!(
            "receipt authenticated; the receipt of request frame {}",
            request.line
        );
        verdict
    } else {
        verdict.binding = Binding::AnotherCall;
        stop(
            verdict,
            EvidenceCode::EvidenceForAnotherCall,
            format!(
                "the receipt is for the frame with subject {}, not the request at frame {} ({})",
                subject.0.unwrap_or("?"),
                request.line,
                request.subject.sha256
            ),
        )
    }
}

/// The verdict on a captured frame no reference was read from, though it may carry one:
/// `code` says why (unreadable, unclassifiable, or a member name written twice).
pub fn frame_verdict(code: EvidenceCode, why: String) -> Verdict {
    stop(
        Verdict {
            code: None,
            message: String::new(),
            evidence: None,
            profile: "not-evaluated",
            receipt: None,
            binding: Binding::NotApplicable,
        },
        code,
        why,
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn digest_syntax_is_sha256_and_64_lowercase_hex() {
        let hex = "a".repeat(64);
        assert!(is_known_digest(&format!("sha256:{hex}")));
        assert!(!is_known_digest(&format!("sha256:{}", "A".repeat(64))));
        assert!(!is_known_digest(&format!("sha256:{}", "a".repeat(63))));
        assert!(!is_known_digest(&format!("sha256:{}g", "a".repeat(63))));
        assert!(!is_known_digest(&format!("SHA256:{hex}")));
        assert!(!is_known_digest(&format!("sha512:{hex}")));
        assert!(!is_known_digest(&hex));
    }

    #[test]
    fn canonicalization_names_and_the_jcs_alias() {
        assert_eq!(
            Canonicalization::named("rfc8785"),
            Some(Canonicalization::Rfc8785)
        );
        assert_eq!(
            Canonicalization::named("jcs"),
            Some(Canonicalization::Rfc8785)
        );
        assert_eq!(
            Canonicalization::named("none"),
            Some(Canonicalization::None)
        );
        assert_eq!(Canonicalization::named("RFC8785"), None);
        assert_eq!(Canonicalization::named(""), None);
        assert_eq!(
            digest(Canonicalization::None, b"{ }").unwrap(),
            format!("sha256:{}", sha256_hex(b"{ }"))
        );
        assert_eq!(
            digest(Canonicalization::Rfc8785, b"{ }").unwrap(),
            format!("sha256:{}", sha256_hex(b"{}"))
        );
    }

    #[test]
    fn a_reference_needs_string_digest_canonicalization_and_type() {
        let read = |text: &str| read_ref(&crate::json::parse(text, 16).unwrap()).malformed;
        let good = r#"{"type":"x","digest":"d","canonicalization":"c"}"#;
        assert_eq!(read(good), None);
        assert_eq!(
            read(r#"{"type":"x","canonicalization":"c"}"#).unwrap(),
            "\"digest\" is missing"
        );
        assert_eq!(
            read(r#"{"digest":"d","canonicalization":"c"}"#).unwrap(),
            "\"type\" is missing"
        );
        assert_eq!(
            read(r#"{"type":"x","digest":"d","canonicalization":7}"#).unwrap(),
            "\"canonicalization\" must be a string, found number"
        );
        assert_eq!(
            read(r#"{"type":"x","digest":"d","canonicalization":"c","ref":null}"#).unwrap(),
            "\"ref\" must be a string, found null"
        );
        assert_eq!(
            read(r#"{"type":"x","digest":"d","digest":"e","canonicalization":"c"}"#).unwrap(),
            "member \"digest\" is written twice"
        );
        assert!(read("[]").is_some());
    }

    #[test]
    fn an_annotation_holds_one_reference_or_an_array() {
        let annotation = |text: &str| read_annotation(&crate::json::parse(text, 16).unwrap());
        let one = annotation(r#"{"sensitive":true,"evidenceRef":{"type":"x"}}"#);
        assert_eq!(one.sensitive, Some(true));
        assert_eq!(one.refs.len(), 1);
        assert_eq!(one.refs[0].fields.kind.as_deref(), Some("x"));
        assert_eq!(annotation(r#"{"evidenceRef":[{},{}]}"#).refs.len(), 2);
        assert_eq!(annotation(r#"{"sensitive":"yes"}"#), Annotation::default());
        let bad = annotation("[1]");
        assert_eq!(bad.refs.len(), 1);
        assert!(bad.refs[0].malformed.is_some());
    }
}
