//! Verification of seal-host authorization-decision receipts (docs/formats.md
//! §3.3, §3.4; docs/receipts.md). record_version 3: the `seal.object-b/v2` signature over the exact
//! preimage, then every binding seal-host's own verifier skips (object A = framed subject,
//! request hashes, canonical request, args hash, host-profile target, audit line, decision,
//! config and policy hash, approval statement, release frame and post-state). record_version 2
//! (unsigned, `_meta`-blind): every check that needs no signature or frame.
//!
//! Guarantees: the embedded public key is reported, never trusted (only a [`pin::Pin`]
//! authenticates); a receipt is `authenticated` only when the pinned key verifies it and no
//! error-severity check fails; nothing here panics on any input.

#[cfg(test)]
mod counting_read;
pub mod duplicates;
mod outline;
pub mod pin;
pub mod preimage;
pub mod recompute;

// The checks, one file per family; the order they run in is `verify_with_step`'s.
mod approval_statement;
mod audit_line;
mod config;
mod decision;
mod release;
mod request;
mod shape;
mod signature_check;
mod target;
mod tree;

// For the benchmarks' receipt generator (benches/support/evidence), which must derive these
// exactly as the checks do rather than keep a copy of either rule.
pub use audit_line::cert_hash;
pub use release::splice_operation_id;

use crate::digest::hex_lower;
use crate::finding::{Code, Finding, Severity};
use crate::signature;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use recompute::FrameFacts;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashMap;
use tree::{Json, Members};

/// What a receipt amounts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReceiptStatus {
    /// Signed by the pinned key and every check passes.
    Authenticated,
    /// Every check passes and the signature holds under the receipt's own key, but no key was
    /// pinned: the signer is unknown.
    Unpinned,
    /// record_version 2: no signature exists; every unsigned check passes.
    Unsigned,
    /// A check failed.
    Failed,
}

impl ReceiptStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ReceiptStatus::Authenticated => "authenticated",
            ReceiptStatus::Unpinned => "unpinned",
            ReceiptStatus::Unsigned => "unsigned",
            ReceiptStatus::Failed => "failed",
        }
    }
}

/// Result of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckStatus {
    Pass,
    Fail,
    /// The check does not apply to this receipt (e.g. a release frame on a BLOCK).
    NotApplicable,
    /// The check applies but could not be evaluated from this receipt's bytes.
    NotEvaluated,
}

/// One named check with what was seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    pub check: &'static str,
    pub status: CheckStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<Code>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// The signature verdict, with the embedded key reported apart from the pinned one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignatureStatus {
    /// Verified under the pinned key.
    Verified,
    /// Verifies under the receipt's own (reported) key; no key was pinned.
    SignerUnpinned,
    /// The receipt names another key than the pinned one.
    SignerMismatch,
    /// Malformed block or a signature that does not verify.
    Invalid,
    /// No signature (record_version 2).
    Absent,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignatureReport {
    pub status: SignatureStatus,
    /// The key the receipt names (reported, not trusted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reported_public_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reported_key_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned_public_key: Option<String>,
    /// `hex-argument`, `seed-file` or `public-key-file`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pin_source: Option<&'static str>,
    pub detail: String,
}

/// Fields read from the receipt and not established by sealkit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Reported {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorization: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub now: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub safety_certificate_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release_status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operation_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub framed_subject_sha256: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_sha256: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_request_sha256: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernel_wasm_sha256: Option<String>,
}

/// What a directory audit needs from each receipt (not part of the stable JSON).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// The hash seal-host names the file by: `canonical_request_sha256`, else `request_sha256`.
    pub name_hash: Option<String>,
    pub framed_subject_sha256: Option<String>,
    pub session: Option<String>,
    pub now: Option<u64>,
    /// The kernel audit line (the chained payload).
    pub audit_line: Option<String>,
    pub verdict: Option<String>,
    pub release_status: Option<String>,
    pub operation_id: Option<String>,
    pub release_frame_sha256: Option<String>,
    /// `signed_artifacts.object_a` as decoded: the exact frame, to be trusted only when the
    /// object-a check passed (`verified` then holds `framed_subject_sha256`).
    pub object_a: Option<Vec<u8>>,
    /// The operator's server identity the receipt's `kernel_config` names (else empty).
    pub server: String,
    /// The approval statement the receipt signs, when the approval-statement check found it
    /// a canonical ApprovalRecord v2 payload bound to this receipt (only as trustworthy as
    /// the receipt's signature).
    pub approval_statement: Option<crate::approval::payload::Payload>,
    /// What the signature signs, as one identity: SHA-256 over the signature and its challenge
    /// `k = H(R ‖ A ‖ M)` (which binds the key and the whole preimage), when the signature was
    /// decoded and its preimage built, whether or not it verifies. Two files with the same
    /// identity carry the same signed content, however their JSON is spaced; the audit counts
    /// them once ([`crate::audit`]).
    pub signed_content: Option<[u8; 32]>,
}

/// Everything sealkit established about one receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReceiptReport {
    pub record_version: Option<u64>,
    /// Printed by the caller beside the file name (an audit can make it worse).
    #[serde(skip)]
    pub status: ReceiptStatus,
    pub signature: SignatureReport,
    /// Values sealkit recomputed from bytes and found equal to the receipt's.
    pub verified: Map<String, Value>,
    pub reported: Reported,
    pub checks: Vec<Check>,
    pub findings: Vec<Finding>,
    #[serde(skip)]
    pub facts: Facts,
}

/// Why a file is not a receipt at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadProblem {
    pub code: Code,
    pub message: String,
}

/// Reusable buffers and per-config results, one per worker thread.
#[derive(Debug, Default)]
pub struct Scratch {
    /// Object B, when it has to be re-serialized (a file not in seal-host's layout).
    object_b: Vec<u8>,
    keys: signature::KeyCache,
    configs: HashMap<[u8; 32], ConfigFacts>,
    payloads: duplicates::PayloadMemo,
}

#[derive(Debug, Clone)]
struct ConfigFacts {
    /// The parsed payload, or why it does not parse.
    payload: Result<Json<'static>, String>,
    /// sha256 of the payload's serde compact rendering.
    policy_hash: Option<String>,
    signature: Result<(), String>,
}

/// Parses receipt bytes: UTF-8, then JSON, then an object.
pub fn parse(bytes: &[u8]) -> Result<Map<String, Value>, ReadProblem> {
    parse_with_step(bytes, &mut duplicates::PayloadMemo::default())
        .map(|(receipt, _)| receipt.to_map())
}

/// What a file that does not parse is, when it is no text at all: empty, binary data or
/// UTF-16, said in those words ([`crate::input::shape`]) rather than as a JSON error. Looked
/// at only once parsing failed, so a receipt that reads costs nothing here.
fn not_text(bytes: &[u8]) -> Option<ReadProblem> {
    use crate::input::Shape;
    let shape = crate::input::shape(bytes);
    let code = match shape {
        Shape::Empty => Code::EmptyFile,
        Shape::Binary { .. } => Code::BinaryFile,
        Shape::Utf16(_) => Code::NotUtf8,
        Shape::Text => return None,
    };
    Some(ReadProblem {
        code,
        message: format!("{}: not a receipt", shape.describe()),
    })
}

/// The kernel step output as [`audit_line::parse_step`] read it from `emitted_bytes`.
type StepRead = Option<Result<ParsedStep, String>>;

fn read_step(receipt: &Members<'_>) -> StepRead {
    receipt
        .get("emitted_bytes")
        .and_then(Json::as_str)
        .map(audit_line::parse_step)
}

/// [`parse`], also handing back the step output it read for the duplicate-member check, so
/// the checks do not read it again.
fn parse_with_step<'b>(
    bytes: &'b [u8],
    payloads: &mut duplicates::PayloadMemo,
) -> Result<(Members<'b>, StepRead), ReadProblem> {
    let text = crate::utf8::str_of(bytes).map_err(|e| {
        not_text(bytes).unwrap_or_else(|| ReadProblem {
            code: Code::NotUtf8,
            message: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
        })
    })?;
    let (value, lost) = tree::read(text).map_err(|e| {
        not_text(bytes).unwrap_or_else(|| ReadProblem {
            code: if e.classify() == serde_json::error::Category::Eof {
                Code::TruncatedJson
            } else {
                Code::InvalidJson
            },
            message: format!("JSON: {e}"),
        })
    })?;
    match value {
        // serde_json keeps the last of two same-named members while the signature covers
        // both: a repeated name anywhere is refused before any member is read.
        Json::Object(map) => {
            let step = read_step(&map);
            duplicates::refuse_parsed(text, lost, &map, step.as_ref(), payloads)
                .map(|()| (map, step))
        }
        other => Err(ReadProblem {
            code: Code::InvalidJson,
            message: format!("the JSON is {}, not an object", type_name(&other)),
        }),
    }
}

/// Verifies one receipt file's bytes.
pub fn verify_bytes(
    bytes: &[u8],
    pin: Option<&pin::Pin>,
    scratch: &mut Scratch,
) -> Result<ReceiptReport, ReadProblem> {
    verify_bytes_with_frame(bytes, pin, scratch).map(|(_, report, _)| report)
}

/// Why no signature was checked: only record_version 3 is signed; 2 never is; any other
/// version is one sealkit does not know, whatever it carries.
fn unsigned_detail(version: Option<u64>) -> String {
    match version {
        Some(2) => "record_version 2 receipts carry no signature".to_owned(),
        Some(other) => {
            format!("unsupported record_version {other}: no signature is checked")
        }
        None => "no record_version: no signature is checked".to_owned(),
    }
}

/// The identity engine's call for a record_version 3 receipt's object A, as the receipt
/// checks obtained it: analysed with no session entry call under `server`, the receipt's
/// own server identity. Lets a caller that analyses the same frame skip doing it again.
#[derive(Debug, Clone)]
pub struct FrameCall {
    pub server: String,
    pub call: Box<crate::request::Call>,
}

/// A receipt as read from its file, its report, and object A's analysis when it has one.
pub type Verified = (Map<String, Value>, ReceiptReport, Option<FrameCall>);

/// [`verify_bytes`], also handing back the receipt as read and the analysis of object A when
/// the engine accepted it. The file is read once: its step output is parsed with the
/// duplicate-member check and handed to the checks.
pub fn verify_bytes_with_frame(
    bytes: &[u8],
    pin: Option<&pin::Pin>,
    scratch: &mut Scratch,
) -> Result<Verified, ReadProblem> {
    let (receipt, step) = parse_with_step(bytes, &mut scratch.payloads)?;
    let (report, frame_call, _) = verify_with_step(&receipt, bytes, pin, scratch, step, false);
    Ok((receipt.to_map(), report, frame_call))
}

/// [`verify_bytes`], leaving the curve check of a signature under the pinned key to the
/// caller, who can check many of them together: the report then says what a verifying
/// signature makes of the receipt, and the [`signature::Challenge`] handed back must be
/// checked and its result given to [`settle`] before the report is read. Every other
/// signature verdict (no pin, another key, S ≥ L, a malformed block) is final, with no
/// challenge.
pub fn verify_bytes_deferred(
    bytes: &[u8],
    pin: Option<&pin::Pin>,
    scratch: &mut Scratch,
) -> Result<(ReceiptReport, Option<signature::Challenge>), ReadProblem> {
    let (receipt, step) = parse_with_step(bytes, &mut scratch.payloads)?;
    let (report, _, challenge) = verify_with_step(&receipt, bytes, pin, scratch, step, true);
    Ok((report, challenge))
}

/// Completes a report of [`verify_bytes_deferred`] with the result of its challenge's curve
/// check, making it what [`verify_bytes`] reports: a signature that does not verify is
/// `invalid` with the failure as its detail, and the findings and status follow from that.
pub fn settle(report: &mut ReceiptReport, curve_check: Result<(), signature::Failure>) {
    if let Err(failure) = curve_check {
        report.signature.status = SignatureStatus::Invalid;
        report.signature.detail = failure.to_string();
        report.findings = findings_of(&report.checks, &report.signature);
        report.status = status_of(&report.findings, &report.signature);
    }
}

/// The checks of a receipt read from `bytes`, with its step output already read; with
/// `defer_curve`, a signature under the pinned key is taken as verifying and its challenge
/// handed back instead (see [`verify_bytes_deferred`]).
fn verify_with_step(
    receipt: &Members<'_>,
    bytes: &[u8],
    pin: Option<&pin::Pin>,
    scratch: &mut Scratch,
    step: StepRead,
    defer_curve: bool,
) -> (
    ReceiptReport,
    Option<FrameCall>,
    Option<signature::Challenge>,
) {
    let mut ctx = Ctx::new(receipt, scratch, step);
    ctx.defer_curve = defer_curve;
    let version = ctx.version;
    let mut checks = vec![ctx.check_shape()];
    // Object B comes straight from the file's bytes when they are seal-host's layout.
    let layout = shape::check_layout(receipt, bytes);
    let host_layout = (layout.status == CheckStatus::Pass).then_some(bytes);
    let signature = if version == Some(3) {
        ctx.check_signature(pin, host_layout)
    } else {
        SignatureReport {
            status: SignatureStatus::Absent,
            reported_public_key: None,
            reported_key_id: None,
            pinned_public_key: pin.map(pin::Pin::public_key_hex),
            pin_source: pin.map(|p| p.source.kind()),
            detail: unsigned_detail(version),
        }
    };
    checks.push(layout);
    if matches!(version, Some(2 | 3)) {
        checks.extend([
            ctx.check_object_a(),
            ctx.check_request_hash(),
            ctx.check_canonical_request(),
            ctx.check_args_hash(),
            ctx.check_request_fields(),
            ctx.check_target(),
            ctx.check_audit(),
            ctx.check_decision(),
            ctx.check_config(),
            ctx.check_policy_hash(),
            ctx.check_approval_statement(),
            ctx.check_release(),
        ]);
    }
    let findings = findings_of(&checks, &signature);
    let status = status_of(&findings, &signature);
    let facts = ctx.take_facts();
    let report = ReceiptReport {
        record_version: version,
        status,
        signature,
        verified: std::mem::take(&mut ctx.verified),
        reported: ctx.reported(),
        checks,
        findings,
        facts,
    };
    let frame_call = ctx
        .frame
        .take()
        .and_then(|frame| frame.call)
        .map(|call| FrameCall {
            server: ctx.server_identity(),
            call,
        });
    (report, frame_call, ctx.challenge.take())
}

fn findings_of(checks: &[Check], signature: &SignatureReport) -> Vec<Finding> {
    let mut findings: Vec<Finding> = Vec::new();
    let signature_code = match signature.status {
        SignatureStatus::Verified => None,
        SignatureStatus::SignerUnpinned => Some(Code::SignerUnpinned),
        SignatureStatus::SignerMismatch => Some(Code::SignerMismatch),
        SignatureStatus::Invalid => Some(Code::SignatureInvalid),
        SignatureStatus::Absent => Some(Code::UnsignedReceipt),
    };
    if let Some(code) = signature_code {
        findings.push(Finding::new(code, None, signature.detail.clone()));
    }
    for check in checks {
        if let (CheckStatus::Fail, Some(code)) = (check.status, check.code) {
            findings.push(Finding::new(code, None, check.detail.clone()));
        }
    }
    findings
}

fn status_of(findings: &[Finding], signature: &SignatureReport) -> ReceiptStatus {
    let content_error = findings.iter().any(|f| {
        f.severity == Severity::Error
            && !matches!(f.code, Code::SignerUnpinned | Code::UnsignedReceipt)
    });
    match signature.status {
        _ if content_error => ReceiptStatus::Failed,
        SignatureStatus::Verified => ReceiptStatus::Authenticated,
        SignatureStatus::SignerUnpinned => ReceiptStatus::Unpinned,
        SignatureStatus::Absent => ReceiptStatus::Unsigned,
        SignatureStatus::SignerMismatch | SignatureStatus::Invalid => ReceiptStatus::Failed,
    }
}

fn pass(check: &'static str, detail: impl Into<String>) -> Check {
    Check {
        check,
        status: CheckStatus::Pass,
        code: None,
        detail: detail.into(),
    }
}

fn fail(check: &'static str, code: Code, detail: impl Into<String>) -> Check {
    Check {
        check,
        status: CheckStatus::Fail,
        code: Some(code),
        detail: detail.into(),
    }
}

fn not_applicable(check: &'static str, detail: impl Into<String>) -> Check {
    Check {
        check,
        status: CheckStatus::NotApplicable,
        code: None,
        detail: detail.into(),
    }
}

fn not_evaluated(check: &'static str, detail: impl Into<String>) -> Check {
    Check {
        check,
        status: CheckStatus::NotEvaluated,
        code: None,
        detail: detail.into(),
    }
}

fn type_name(value: &Json<'_>) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

/// serde_json compact bytes of a value (writing into a Vec cannot fail).
fn compact<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

/// Whether `compact(value) == expected`, decided while serde_json renders `value` piece by
/// piece against `expected`: nothing is allocated, and the rendering stops at the first
/// piece that differs.
fn renders_as(value: &Json<'_>, expected: &[u8]) -> bool {
    struct Against<'e> {
        rest: &'e [u8],
    }
    impl std::io::Write for Against<'_> {
        fn write(&mut self, piece: &[u8]) -> std::io::Result<usize> {
            match self.rest.strip_prefix(piece) {
                Some(rest) => {
                    self.rest = rest;
                    Ok(piece.len())
                }
                None => Err(std::io::ErrorKind::InvalidData.into()),
            }
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut against = Against { rest: expected };
    serde_json::to_writer(&mut against, value).is_ok() && against.rest.is_empty()
}

/// Whether `compact(a) == compact(b)`, decided without rendering either: the same kinds,
/// strings and integers equal, floats with the same bits (serde_json renders each finite f64
/// in its own shortest form, `-0.0` apart from `0.0`), arrays element by element, objects
/// member by member in stored order.
fn same_compact(a: &Json<'_>, b: &Json<'_>) -> bool {
    match (a, b) {
        (Json::Null, Json::Null) => true,
        (Json::Bool(x), Json::Bool(y)) => x == y,
        (Json::String(x), Json::String(y)) => x == y,
        (Json::Number(x), Json::Number(y)) => match (x.is_f64(), y.is_f64()) {
            (true, true) => x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits),
            (false, false) => x.as_u64() == y.as_u64() && x.as_i64() == y.as_i64(),
            _ => false,
        },
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_compact(x, y))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((kx, vx), (ky, vy))| kx == ky && same_compact(vx, vy))
        }
        _ => false,
    }
}

/// A check outcome while evaluating: either a mismatch (the check's code) or a missing input
/// (already reported by the shape check, so the check is "not evaluated").
enum Miss {
    Mismatch(String),
    Missing(String),
}

/// Whether a member's value has the type seal-host writes it with.
type MemberRule = fn(&Json<'_>) -> bool;

type Step<T> = Result<T, Miss>;

fn mismatch<T>(detail: impl Into<String>) -> Step<T> {
    Err(Miss::Mismatch(detail.into()))
}

fn conclude(check: &'static str, code: Code, result: Step<String>) -> Check {
    match result {
        Ok(detail) => pass(check, detail),
        Err(Miss::Mismatch(detail)) => fail(check, code, detail),
        Err(Miss::Missing(detail)) => not_evaluated(check, detail),
    }
}

/// Inputs shared by the checks of one receipt.
struct Ctx<'a> {
    receipt: &'a Members<'a>,
    version: Option<u64>,
    scratch: &'a mut Scratch,
    object_a: Option<Vec<u8>>,
    statement: Option<Vec<u8>>,
    /// The statement, once the approval-statement check passed.
    approval_statement: Option<crate::approval::payload::Payload>,
    frame: Option<FrameFacts>,
    verified: Map<String, Value>,
    release_frame_sha256: Option<String>,
    step: Option<Result<ParsedStep, String>>,
    /// sha256(compact kernel_config), known once the config check matched it to the payload.
    policy_hash: Option<String>,
    /// Whether a signature under the pinned key leaves its curve check to the caller.
    defer_curve: bool,
    /// That signature's challenge, when it did.
    challenge: Option<signature::Challenge>,
    /// [`Facts::signed_content`].
    signed_content: Option<[u8; 32]>,
}

/// The step output object and its parsed audit line.
type StepParts<'s> = (&'s Members<'static>, &'s Members<'static>);

/// The kernel step output inside `emitted_bytes` and its audit line, each with the number of
/// members serde_json dropped reading it (a repeated name).
struct ParsedStep {
    step: Members<'static>,
    step_lost: usize,
    audit: Members<'static>,
    audit_lost: usize,
    audit_line: String,
}

impl<'a> Ctx<'a> {
    fn new(receipt: &'a Members<'a>, scratch: &'a mut Scratch, step: StepRead) -> Self {
        let version = receipt.get("record_version").and_then(Json::as_u64);
        let artifacts = receipt.get("signed_artifacts").and_then(Json::as_object);
        let decode = |name: &str| {
            artifacts
                .and_then(|a| a.get(name))
                .and_then(Json::as_str)
                .and_then(|text| STANDARD.decode(text).ok())
        };
        let object_a = decode("object_a");
        let statement = decode("approval_statement");
        let mut ctx = Ctx {
            receipt,
            version,
            scratch,
            object_a,
            statement,
            approval_statement: None,
            frame: None,
            verified: Map::new(),
            release_frame_sha256: None,
            policy_hash: None,
            step,
            defer_curve: false,
            challenge: None,
            signed_content: None,
        };
        if version == Some(3) {
            let server = ctx.server_identity();
            ctx.frame = ctx
                .object_a
                .as_deref()
                .map(|frame| recompute::frame_facts(frame, &server));
        }
        ctx
    }

    fn get(&self, name: &str) -> Option<&'a Json<'a>> {
        self.receipt.get(name)
    }

    fn str_of(&self, name: &str) -> Option<&'a str> {
        self.get(name).and_then(Json::as_str)
    }

    fn is_object(&self, name: &str) -> bool {
        self.get(name).is_some_and(Json::is_object)
    }

    fn need_str(&self, name: &str) -> Step<&'a str> {
        self.str_of(name)
            .ok_or_else(|| Miss::Missing(format!("{name} is missing or not a string")))
    }

    fn verify(&mut self, name: &str, value: impl Into<Value>) {
        self.verified.insert(name.to_owned(), value.into());
    }

    /// The operator's server identity: `server` at the top of the config or in `safety`.
    fn server_identity(&self) -> String {
        let config = self.get("kernel_config");
        config
            .and_then(|c| c.get("server"))
            .or_else(|| {
                config
                    .and_then(|c| c.get("safety"))
                    .and_then(|s| s.get("server"))
            })
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_owned()
    }

    fn certs(&self) -> Option<&'a [Json<'a>]> {
        self.get("certs").and_then(Json::as_array)
    }

    /// The safety kernel's certificate reason: the target when it is 64 hex digits.
    fn safety_reason(&self) -> Option<&'a str> {
        self.certs()?
            .iter()
            .find(|c| c.get("kernel").and_then(Json::as_str) == Some("safety"))?
            .get("reason")?
            .as_str()
    }

    fn reported(&self) -> Reported {
        let text = |name: &str| self.str_of(name).map(str::to_owned);
        Reported {
            verdict: text("verdict"),
            authorization: text("authorization"),
            reason: text("reason"),
            tool: text("tool"),
            now: self.get("now").and_then(Json::as_u64),
            session: pointer_in(self.receipt, "/effect_view/session")
                .and_then(Json::as_str)
                .map(str::to_owned),
            safety_certificate_reason: self.safety_reason().map(str::to_owned),
            release_status: text("release_status"),
            operation_id: text("operation_id"),
            framed_subject_sha256: text("framed_subject_sha256"),
            request_sha256: text("request_sha256"),
            canonical_request_sha256: text("canonical_request_sha256"),
            kernel_wasm_sha256: pointer_in(self.receipt, "/kernel_identity/wasm_sha256")
                .and_then(Json::as_str)
                .map(str::to_owned),
        }
    }

    /// The facts, moving out what no check reads any more (object A, the audit line, the
    /// approval statement) rather than copying it.
    fn take_facts(&mut self) -> Facts {
        let audit_line = match &mut self.step {
            Some(Ok(parsed)) => Some(std::mem::take(&mut parsed.audit_line)),
            _ => None,
        };
        let object_a = self.object_a.take();
        let approval_statement = self.approval_statement.take();
        let text = |name: &str| self.str_of(name).map(str::to_owned);
        Facts {
            name_hash: text("canonical_request_sha256").or_else(|| text("request_sha256")),
            framed_subject_sha256: text("framed_subject_sha256"),
            session: pointer_in(self.receipt, "/effect_view/session")
                .and_then(Json::as_str)
                .map(str::to_owned),
            now: self.get("now").and_then(Json::as_u64),
            audit_line,
            verdict: text("verdict"),
            release_status: text("release_status"),
            operation_id: text("operation_id"),
            release_frame_sha256: self.release_frame_sha256.clone(),
            object_a,
            server: self.server_identity(),
            approval_statement,
            signed_content: self.signed_content,
        }
    }
}

fn pointer_in<'v, 'a>(map: &'v Members<'a>, pointer: &str) -> Option<&'v Json<'a>> {
    let mut parts = pointer.trim_start_matches('/').split('/');
    let first = map.get(parts.next()?)?;
    parts.try_fold(first, |value, part| value.get(part))
}

/// Hex of a public key for messages.
pub fn key_hex(key: &[u8; 32]) -> String {
    hex_lower(key)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            (-3i64..3).prop_map(Value::from),
            (0u64..3).prop_map(Value::from),
            prop_oneof![Just(0.0f64), Just(-0.0), Just(1.0), Just(0.1), Just(1e300)]
                .prop_map(Value::from),
            "[ab]{0,2}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 3, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
                proptest::collection::vec(("[ab]{0,1}", inner), 0..3)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// `value` as the checks read it: its compact text, read into the tree.
    fn read_back(value: &Value) -> String {
        String::from_utf8(compact(value)).unwrap()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
        /// Small alphabets make equal and nearly equal pairs common.
        #[test]
        fn same_compact_is_equality_of_compact_renderings(a in any_json(), b in any_json()) {
            let (a_text, b_text) = (read_back(&a), read_back(&b));
            let (read, _) = tree::read(&a_text).unwrap();
            let (other, _) = tree::read(&b_text).unwrap();
            proptest::prop_assert_eq!(compact(&read), compact(&a));
            proptest::prop_assert_eq!(same_compact(&read, &other), compact(&a) == compact(&b));
            // Seen red with `renders_as` not checking that all of `expected` was written.
            proptest::prop_assert_eq!(renders_as(&read, &compact(&b)), compact(&a) == compact(&b));
            let rendered = compact(&a);
            for end in 0..rendered.len() {
                proptest::prop_assert!(!renders_as(&read, &rendered[..end]));
            }
            proptest::prop_assert!(renders_as(&read, &rendered));
            proptest::prop_assert!(same_compact(&read, &read.clone()));
        }
    }

    #[test]
    fn same_compact_tells_apart_what_renders_apart() {
        let j = |text: &'static str| tree::read(text).unwrap().0;
        assert!(same_compact(
            &j(r#"{"a":1,"b":[1.5,"x",null]}"#),
            &j(r#"{"a":1,"b":[1.5,"x",null]}"#)
        ));
        assert!(!same_compact(
            &j(r#"{"a":1,"b":2}"#),
            &j(r#"{"b":2,"a":1}"#)
        ));
        assert!(!same_compact(&j("1"), &j("1.0")));
        assert!(!same_compact(&j("0.0"), &j("-0.0")));
        assert!(!same_compact(&j("-1"), &j("18446744073709551615")));
        assert!(same_compact(&j("1e2"), &j("100.0")));
    }

    #[test]
    fn parse_classifies_utf8_truncation_and_syntax() {
        assert_eq!(parse(b"{\"a\":\xff}").unwrap_err().code, Code::NotUtf8);
        assert_eq!(parse(b"{\"a\":").unwrap_err().code, Code::TruncatedJson);
        assert_eq!(parse(b"{\"a\" 1}").unwrap_err().code, Code::InvalidJson);
        assert_eq!(parse(b"[1]").unwrap_err().code, Code::InvalidJson);
    }
}
