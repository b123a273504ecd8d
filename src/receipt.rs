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

pub mod duplicates;
pub mod lock;
pub mod pin;
pub mod recompute;

use crate::digest::{hex_lower, is_sha256_hex, sha256_hex};
use crate::finding::{Code, Finding, Severity};
use crate::signature;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use recompute::{FrameFacts, Projection};
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// What a receipt amounts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
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

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Authenticated => "authenticated",
            Status::Unpinned => "unpinned",
            Status::Unsigned => "unsigned",
            Status::Failed => "failed",
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
}

/// Everything sealkit established about one receipt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReceiptReport {
    pub record_version: Option<u64>,
    /// Printed by the caller beside the file name (an audit can make it worse).
    #[serde(skip)]
    pub status: Status,
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
}

#[derive(Debug, Clone)]
struct ConfigFacts {
    /// The parsed payload, or why it does not parse.
    payload: Result<Value, String>,
    /// sha256 of the payload's serde compact rendering.
    policy_hash: Option<String>,
    signature: Result<(), String>,
}

/// Parses receipt bytes: UTF-8, then JSON, then an object.
pub fn parse(bytes: &[u8]) -> Result<Map<String, Value>, ReadProblem> {
    let text = std::str::from_utf8(bytes).map_err(|e| ReadProblem {
        code: Code::NotUtf8,
        message: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
    })?;
    let value: Value = serde_json::from_str(text).map_err(|e| ReadProblem {
        code: if e.classify() == serde_json::error::Category::Eof {
            Code::TruncatedJson
        } else {
            Code::InvalidJson
        },
        message: format!("JSON: {e}"),
    })?;
    match value {
        // serde_json keeps the last of two same-named members while the signature covers
        // both: a repeated name anywhere is refused before any member is read.
        Value::Object(map) => duplicates::refuse(text, &map).map(|()| map),
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
    let receipt = parse(bytes)?;
    Ok(verify_parsed(&receipt, bytes, pin, scratch))
}

/// Verifies a parsed receipt; `bytes` are the file's bytes (for the layout check).
pub fn verify_parsed(
    receipt: &Map<String, Value>,
    bytes: &[u8],
    pin: Option<&pin::Pin>,
    scratch: &mut Scratch,
) -> ReceiptReport {
    verify_parsed_with_frame(receipt, bytes, pin, scratch).0
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

/// [`verify_parsed`], also handing back the analysis of object A when the engine accepted it.
pub fn verify_parsed_with_frame(
    receipt: &Map<String, Value>,
    bytes: &[u8],
    pin: Option<&pin::Pin>,
    scratch: &mut Scratch,
) -> (ReceiptReport, Option<FrameCall>) {
    let mut ctx = Ctx::new(receipt, scratch);
    let version = ctx.version;
    let mut checks = vec![ctx.check_shape()];
    // Object B comes straight from the file's bytes when they are seal-host's layout.
    let layout = check_layout(receipt, bytes);
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
    let facts = ctx.facts();
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
    (report, frame_call)
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

fn status_of(findings: &[Finding], signature: &SignatureReport) -> Status {
    let content_error = findings.iter().any(|f| {
        f.severity == Severity::Error
            && !matches!(f.code, Code::SignerUnpinned | Code::UnsignedReceipt)
    });
    match signature.status {
        _ if content_error => Status::Failed,
        SignatureStatus::Verified => Status::Authenticated,
        SignatureStatus::SignerUnpinned => Status::Unpinned,
        SignatureStatus::Absent => Status::Unsigned,
        SignatureStatus::SignerMismatch | SignatureStatus::Invalid => Status::Failed,
    }
}

/// seal-host writes `serde_json::to_string_pretty(receipt) + "\n"`; anything else was edited.
fn check_layout(receipt: &Map<String, Value>, bytes: &[u8]) -> Check {
    let mut compare = CompareWriter {
        expected: bytes,
        pos: 0,
        equal: true,
    };
    let written = serde_json::to_writer_pretty(&mut compare, receipt).is_ok();
    let equal = written && compare.equal && bytes.get(compare.pos..) == Some(b"\n".as_slice());
    if equal {
        pass("layout", "")
    } else {
        fail(
            "layout",
            Code::NotHostLayout,
            "the bytes differ from seal-host's pretty rendering of the same JSON",
        )
    }
}

/// An `io::Write` that compares what is written with expected bytes, allocating nothing.
struct CompareWriter<'a> {
    expected: &'a [u8],
    pos: usize,
    equal: bool,
}

impl std::io::Write for CompareWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.equal {
            let end = self.pos + buf.len();
            self.equal = self.expected.get(self.pos..end) == Some(buf);
            self.pos = end;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
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

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json compact bytes of a value (writing into a Vec cannot fail).
fn compact(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

/// Whether `compact(a) == compact(b)`, decided without rendering either: the same kinds,
/// strings and integers equal, floats with the same bits (serde_json renders each finite f64
/// in its own shortest form, `-0.0` apart from `0.0`), arrays element by element, objects
/// member by member in stored order.
fn same_compact(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => match (x.is_f64(), y.is_f64()) {
            (true, true) => x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits),
            (false, false) => x.as_u64() == y.as_u64() && x.as_i64() == y.as_i64(),
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_compact(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
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
type MemberRule = fn(&Value) -> bool;

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
    receipt: &'a Map<String, Value>,
    version: Option<u64>,
    scratch: &'a mut Scratch,
    object_a: Option<Vec<u8>>,
    statement: Option<Vec<u8>>,
    frame: Option<FrameFacts>,
    verified: Map<String, Value>,
    release_frame_sha256: Option<String>,
    step: Option<Result<ParsedStep, String>>,
    /// sha256(compact kernel_config), known once the config check matched it to the payload.
    policy_hash: Option<String>,
}

/// The step output object and its parsed audit line.
type StepParts<'s> = (&'s Map<String, Value>, &'s Map<String, Value>);

/// The kernel step output inside `emitted_bytes` and its audit line.
struct ParsedStep {
    step: Map<String, Value>,
    audit: Map<String, Value>,
    audit_line: String,
}

fn parse_step(emitted: &str) -> Result<ParsedStep, String> {
    let step: Value =
        serde_json::from_str(emitted).map_err(|e| format!("emitted_bytes is not JSON: {e}"))?;
    let Value::Object(step) = step else {
        return Err("emitted_bytes is not a JSON object".into());
    };
    let audit_line = step
        .get("audit")
        .and_then(Value::as_str)
        .ok_or("emitted_bytes has no audit line")?
        .to_owned();
    let audit: Value = serde_json::from_str(&audit_line)
        .map_err(|e| format!("the audit line is not JSON: {e}"))?;
    let Value::Object(audit) = audit else {
        return Err("the audit line is not a JSON object".into());
    };
    Ok(ParsedStep {
        step,
        audit,
        audit_line,
    })
}

impl<'a> Ctx<'a> {
    fn new(receipt: &'a Map<String, Value>, scratch: &'a mut Scratch) -> Self {
        let version = receipt.get("record_version").and_then(Value::as_u64);
        let artifacts = receipt.get("signed_artifacts").and_then(Value::as_object);
        let decode = |name: &str| {
            artifacts
                .and_then(|a| a.get(name))
                .and_then(Value::as_str)
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
            frame: None,
            verified: Map::new(),
            release_frame_sha256: None,
            policy_hash: None,
            step: receipt
                .get("emitted_bytes")
                .and_then(Value::as_str)
                .map(parse_step),
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

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.receipt.get(name)
    }

    fn str_of(&self, name: &str) -> Option<&'a str> {
        self.get(name).and_then(Value::as_str)
    }

    fn is_object(&self, name: &str) -> bool {
        self.get(name).is_some_and(Value::is_object)
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
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    }

    fn certs(&self) -> Option<&'a Vec<Value>> {
        self.get("certs").and_then(Value::as_array)
    }

    /// The safety kernel's certificate reason: the target when it is 64 hex digits.
    fn safety_reason(&self) -> Option<&'a str> {
        self.certs()?
            .iter()
            .find(|c| c.get("kernel").and_then(Value::as_str) == Some("safety"))?
            .get("reason")?
            .as_str()
    }

    fn check_shape(&self) -> Check {
        let mut problems = Vec::new();
        if self.str_of("record_type") != Some("seal.authorization-decision") {
            problems.push("record_type is not \"seal.authorization-decision\"".to_owned());
        }
        match self.version {
            Some(2 | 3) => {}
            _ => problems.push("record_version is not 2 or 3".to_owned()),
        }
        let hex = |name: &str, problems: &mut Vec<String>| {
            if !self.str_of(name).is_some_and(is_sha256_hex) {
                problems.push(format!("{name} is not 64 lowercase hex digits"));
            }
        };
        hex("request_sha256", &mut problems);
        hex("framed_subject_sha256", &mut problems);
        if self
            .get("framed_subject_length")
            .and_then(Value::as_u64)
            .is_none()
        {
            problems.push("framed_subject_length is not an unsigned integer".into());
        }
        if self.get("now").and_then(Value::as_u64).is_none() {
            problems.push("now is not an unsigned integer".into());
        }
        if !matches!(self.str_of("verdict"), Some("ALLOW" | "BLOCK")) {
            problems.push("verdict is not ALLOW or BLOCK".into());
        }
        if self.get("bypass") != Some(&Value::Bool(false)) {
            problems.push("bypass is not false".into());
        }
        for (name, ok) in [
            ("reason", self.str_of("reason").is_some()),
            ("certs", self.certs().is_some()),
            ("emitted_bytes", self.str_of("emitted_bytes").is_some()),
            ("signed_config", self.is_object("signed_config")),
            ("kernel_config", self.get("kernel_config").is_some()),
            (
                "deny_kernel",
                matches!(
                    self.get("deny_kernel"),
                    Some(Value::String(_) | Value::Null)
                ),
            ),
            ("kernel_identity", self.is_object("kernel_identity")),
            ("host_identity", self.is_object("host_identity")),
            ("asserted_provenance", self.is_object("asserted_provenance")),
            (
                "granted_capabilities",
                self.get("granted_capabilities")
                    .is_some_and(Value::is_array),
            ),
        ] {
            if !ok {
                problems.push(format!("{name} is missing or mistyped"));
            }
        }
        problems.extend(self.request_member_problems());
        if self.version == Some(3) {
            problems.extend(self.v3_shape_problems());
        }
        if problems.is_empty() {
            pass(
                "shape",
                format!("record_version {}", self.version.unwrap_or(0)),
            )
        } else {
            fail("shape", Code::MalformedReceipt, problems.join("; "))
        }
    }

    /// seal-host writes the request members exactly when serde parsed the line, and
    /// `request_parse_error` exactly when it did not (docs/formats.md): a receipt
    /// with neither, or with a member of another type, was not written by seal-host, and a
    /// check that would otherwise find the member "missing" must not pass it silently.
    fn request_member_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let parse_error = self.get("request_parse_error");
        let typed: [(&str, MemberRule); 6] = [
            ("tool", Value::is_string),
            ("arguments", |_| true),
            ("args_hash", |v| v.as_str().is_some_and(is_sha256_hex)),
            ("effect_view", Value::is_object),
            ("canonical_request", Value::is_string),
            ("canonical_request_sha256", |v| {
                v.as_str().is_some_and(is_sha256_hex)
            }),
        ];
        match parse_error {
            None => {
                for (name, ok) in typed {
                    if !self.get(name).is_some_and(ok) {
                        problems.push(format!(
                            "{name} is missing or mistyped (and there is no request_parse_error)"
                        ));
                    }
                }
            }
            Some(Value::String(_)) => {
                let present: Vec<&str> = typed
                    .iter()
                    .map(|(name, _)| *name)
                    .filter(|name| self.get(name).is_some())
                    .collect();
                if !present.is_empty() {
                    problems.push(format!(
                        "request_parse_error is present together with {}",
                        present.join(", ")
                    ));
                }
            }
            Some(_) => problems.push("request_parse_error is not a string".into()),
        }
        problems
    }

    fn v3_shape_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        match self.get("signed_artifacts").and_then(Value::as_object) {
            None => problems.push("signed_artifacts is missing".to_owned()),
            Some(artifacts) => {
                let known = ["encoding", "object_a", "approval_statement"];
                if artifacts.keys().any(|k| !known.contains(&k.as_str())) {
                    problems.push("signed_artifacts has unknown members".into());
                }
                if artifacts.get("encoding").and_then(Value::as_str) != Some("base64") {
                    problems.push("signed_artifacts.encoding is not \"base64\"".into());
                }
                if self.object_a.is_none() {
                    problems.push("signed_artifacts.object_a is not standard base64".into());
                }
                match artifacts.get("approval_statement") {
                    None | Some(Value::Null) => {}
                    Some(_) if self.statement.is_some() => {}
                    Some(_) => problems
                        .push("signed_artifacts.approval_statement is not standard base64".into()),
                }
            }
        }
        if self
            .str_of("release_status")
            .and_then(lock::release_tag)
            .is_none()
        {
            problems.push("release_status is not a known status".into());
        }
        if self
            .str_of("durability_class")
            .and_then(lock::durability_tag)
            .is_none()
        {
            problems.push("durability_class is not a known class".into());
        }
        if self.str_of("operation_id").is_none() {
            problems.push("operation_id is missing".into());
        }
        problems
    }

    /// `host_layout`: the file's bytes when they passed the layout check.
    fn check_signature(
        &mut self,
        pin: Option<&pin::Pin>,
        host_layout: Option<&[u8]>,
    ) -> SignatureReport {
        let mut report = SignatureReport {
            status: SignatureStatus::Invalid,
            reported_public_key: None,
            reported_key_id: None,
            pinned_public_key: pin.map(pin::Pin::public_key_hex),
            pin_source: pin.map(|p| p.source.kind()),
            detail: String::new(),
        };
        let block = match lock::signature_block(self.receipt) {
            Ok(block) => block,
            Err(detail) => {
                report.detail = detail;
                return report;
            }
        };
        report.reported_public_key = Some(block.public_key.clone());
        report.reported_key_id = Some(block.key_id.clone());
        let Some(embedded) = signature::parse_key_hex(&block.public_key) else {
            report.detail = "signature.public_key is not 64 lowercase hex digits".into();
            return report;
        };
        if block.key_id != sha256_hex(&embedded) {
            report.detail = "signature.key_id is not the SHA-256 of signature.public_key".into();
            return report;
        }
        if self.receipt.keys().next_back().map(String::as_str) != Some("signature") {
            report.detail =
                "signature is not the last member (seal-host always writes it last)".into();
            return report;
        }
        let result = self.verify_lock(&embedded, &block.value, host_layout);
        match (result, pin) {
            (Err(detail), _) => {
                report.detail = detail;
            }
            (Ok(()), Some(pin)) if pin.public_key == embedded => {
                report.status = SignatureStatus::Verified;
                report.detail = format!(
                    "seal.object-b/v2 signature verified under the pinned key ({})",
                    pin.source.describe()
                );
            }
            (Ok(()), Some(pin)) => {
                report.status = SignatureStatus::SignerMismatch;
                report.detail = format!(
                    "signed by {} (valid under that key), not by the pinned key {}",
                    block.public_key,
                    pin.public_key_hex()
                );
            }
            (Ok(()), None) => {
                report.status = SignatureStatus::SignerUnpinned;
                report.detail = format!(
                    "valid under the receipt's own key {}, which is not trusted: pin the installation's receipt key with --receipt-key",
                    block.public_key
                );
            }
        }
        report
    }

    /// Verifies the preimage under `key`, hashing it as it is produced. Object B is read off
    /// `host_layout` (the file's bytes, when in seal-host's layout), else re-serialized.
    fn verify_lock(
        &mut self,
        key: &[u8; 32],
        value: &str,
        host_layout: Option<&[u8]>,
    ) -> Result<(), String> {
        let signature = signature::decode_signature_64(value).map_err(|e| e.to_string())?;
        let object_a = self
            .object_a
            .as_deref()
            .ok_or("signed_artifacts.object_a is missing or not base64")?;
        let artifacts_statement = self
            .get("signed_artifacts")
            .and_then(|a| a.get("approval_statement"));
        let statement = match artifacts_statement {
            None | Some(Value::Null) => None,
            Some(_) => Some(
                self.statement
                    .as_deref()
                    .ok_or("approval_statement is not base64")?,
            ),
        };
        let parts = lock::LockParts {
            object_a,
            approval_statement: statement,
            release_tag: self
                .str_of("release_status")
                .and_then(lock::release_tag)
                .ok_or("bad release_status")?,
            operation_id: self
                .str_of("operation_id")
                .ok_or("signed receipt lacks operation_id")?,
            durability_tag: self
                .str_of("durability_class")
                .and_then(lock::durability_tag)
                .ok_or("bad durability_class")?,
        };
        let scratch = &mut *self.scratch;
        let object_b = match host_layout.and_then(lock::host_layout_members) {
            Some(members) => lock::ObjectB::HostLayout(members),
            None => {
                scratch.object_b.clear();
                lock::write_object_b(self.receipt, &mut scratch.object_b)?;
                lock::ObjectB::Compact(&scratch.object_b)
            }
        };
        let key = scratch.keys.get(key).map_err(|e| e.to_string())?;
        signature::verify_streamed(key, &signature, |message| {
            lock::stream_preimage(&parts, object_b, &mut |piece| message.update(piece))
        })
        .map_err(|e| e.to_string())
    }

    fn check_object_a(&mut self) -> Check {
        if self.version == Some(2) {
            return not_evaluated(
                "object-a",
                "record_version 2 receipts do not carry the frame; framed_subject_* are reported only",
            );
        }
        let result = (|| {
            let frame = self.frame.as_ref().ok_or_else(|| {
                Miss::Missing("signed_artifacts.object_a is missing or not base64".into())
            })?;
            let recorded = self.need_str("framed_subject_sha256")?;
            let length = self.get("framed_subject_length").and_then(Value::as_u64);
            if recorded != frame.subject_sha256 || length != Some(frame.subject_length) {
                return mismatch(format!(
                    "object A is {} bytes with sha256 {}, the receipt says {} bytes with sha256 {}",
                    frame.subject_length,
                    frame.subject_sha256,
                    length.map_or("?".into(), |l| l.to_string()),
                    recorded
                ));
            }
            Ok((frame.subject_sha256.clone(), frame.subject_length))
        })();
        match result {
            Ok((sha, len)) => {
                self.verify("framed_subject_sha256", sha);
                self.verify("framed_subject_length", len);
                pass(
                    "object-a",
                    "object A hashes to framed_subject_sha256 and length",
                )
            }
            Err(miss) => conclude("object-a", Code::ObjectAMismatch, Err(miss)),
        }
    }

    fn check_request_hash(&mut self) -> Check {
        if self.version == Some(2) {
            return not_evaluated(
                "request-hash",
                "no frame in record_version 2; request_sha256 is only compared with the kernel audit line",
            );
        }
        let Some(frame) = &self.frame else {
            return not_evaluated("request-hash", "object A is missing");
        };
        let recomputed = frame.request_sha256.clone();
        match self.str_of("request_sha256") {
            Some(recorded) if recorded == recomputed => {
                self.verify("request_sha256", recomputed);
                pass("request-hash", "request_sha256 recomputed from object A")
            }
            recorded => fail(
                "request-hash",
                Code::RequestHashMismatch,
                format!(
                    "object A's request line hashes to {recomputed}, the receipt says {}",
                    recorded.unwrap_or("nothing")
                ),
            ),
        }
    }

    /// The projection to compare with: from object A (v3) or from the receipt's own request
    /// members under the `_meta`-blind rule (v2).
    fn projection(&self) -> Step<Projection> {
        match self.version {
            Some(3) => match &self.frame {
                Some(frame) => frame.projection.clone().map_err(Miss::Mismatch),
                None => Err(Miss::Missing("object A is missing".into())),
            },
            _ => self.v2_projection(),
        }
    }

    fn v2_projection(&self) -> Step<Projection> {
        let (Some(tool), Some(arguments)) = (self.get("tool"), self.get("arguments")) else {
            return Err(Miss::Missing(
                "record_version 2 receipt without tool/arguments (request_parse_error)".into(),
            ));
        };
        let text = format!(
            r#"{{"name":{},"arguments":{}}}"#,
            String::from_utf8_lossy(&compact(tool)),
            String::from_utf8_lossy(&compact(arguments))
        );
        let node = crate::json::parse(&text, 256)
            .map_err(|e| Miss::Mismatch(format!("receipt request members: {}", e.message)))?;
        recompute::project(Some(&node), recompute::V2).map_err(Miss::Mismatch)
    }

    fn check_canonical_request(&mut self) -> Check {
        let parse_error = self.str_of("request_parse_error");
        let result = match self.projection() {
            Err(Miss::Mismatch(why)) if self.version == Some(3) => match parse_error {
                Some(_) if self.get("canonical_request").is_none() => {
                    return pass(
                        "canonical-request",
                        format!("seal-host could not project the line either ({why}); the file is named by request_sha256"),
                    )
                }
                _ => mismatch(format!(
                    "object A does not project to a canonical request ({why}) but the receipt has one"
                )),
            },
            Err(miss) => Err(miss),
            Ok(projection) => (|| {
                let text = self.need_str("canonical_request")?;
                let sha = self.need_str("canonical_request_sha256")?;
                if text != projection.canonical_request {
                    return mismatch(format!(
                        "canonical_request differs from the recomputed {}",
                        projection.canonical_request
                    ));
                }
                if sha != projection.canonical_request_sha256 {
                    return mismatch(format!(
                        "canonical_request_sha256 is {sha}, the canonical request hashes to {}",
                        projection.canonical_request_sha256
                    ));
                }
                if parse_error.is_some() {
                    return mismatch("request_parse_error is present although the line projects");
                }
                Ok(projection.canonical_request_sha256)
            })(),
        };
        match result {
            Ok(sha) => {
                self.verify("canonical_request_sha256", sha);
                let rule = if self.version == Some(2) {
                    "record_version 2 rule: no _meta / requestState / inputResponses, id 1, from the receipt's tool and arguments"
                } else {
                    "record_version 3 rule from object A: sorted _meta and context members, id 1"
                };
                match self.frame.as_ref().and_then(|f| f.refused_now.as_deref()) {
                    Some(code) => pass(
                        "canonical-request",
                        format!("{rule} (today's validation refuses this frame: {code}; seal-host's own rule applied)"),
                    ),
                    None => pass("canonical-request", rule),
                }
            }
            Err(miss) => conclude(
                "canonical-request",
                Code::CanonicalRequestMismatch,
                Err(miss),
            ),
        }
    }

    fn check_args_hash(&mut self) -> Check {
        let result = (|| {
            let projection = self.projection()?;
            let recorded = self.need_str("args_hash")?;
            if recorded != projection.args_hash {
                return mismatch(format!(
                    "args_hash is {recorded}, the arguments hash to {}",
                    projection.args_hash
                ));
            }
            Ok(projection.args_hash)
        })();
        match result {
            Ok(sha) => {
                self.verify("args_hash", sha);
                pass("args-hash", "")
            }
            Err(miss) => conclude("args-hash", Code::ArgsHashMismatch, Err(miss)),
        }
    }

    fn check_request_fields(&self) -> Check {
        let result = (|| {
            let projection = self.projection()?;
            let request_sha256 = self.need_str("request_sha256")?;
            let view = self
                .get("effect_view")
                .and_then(Value::as_object)
                .ok_or_else(|| Miss::Missing("effect_view is missing".into()))?;
            let effect = view.get("effect").and_then(Value::as_object);
            let same = |value: Option<&Value>, expected: Option<&str>| {
                value.map(compact).as_deref() == expected.map(str::as_bytes)
            };
            let mut wrong = Vec::new();
            if self.str_of("tool") != Some(projection.tool.as_str()) {
                wrong.push("tool");
            }
            if effect
                .and_then(|e| e.get("resource"))
                .and_then(Value::as_str)
                != Some(projection.tool.as_str())
            {
                wrong.push("effect_view.effect.resource");
            }
            let context = self.version == Some(3);
            for (name, expected) in [
                ("arguments", Some(projection.arguments.as_str())),
                ("_meta", projection.meta.as_deref().filter(|_| context)),
                (
                    "requestState",
                    projection.request_state.as_deref().filter(|_| context),
                ),
                (
                    "inputResponses",
                    projection.input_responses.as_deref().filter(|_| context),
                ),
            ] {
                if !same(self.get(name), expected) {
                    wrong.push(name);
                }
                if !same(effect.and_then(|e| e.get(name)), expected) {
                    wrong.push(match name {
                        "arguments" => "effect_view.effect.arguments",
                        "_meta" => "effect_view.effect._meta",
                        "requestState" => "effect_view.effect.requestState",
                        _ => "effect_view.effect.inputResponses",
                    });
                }
            }
            if view.get("raw_preimage_sha256").and_then(Value::as_str) != Some(request_sha256) {
                wrong.push("effect_view.raw_preimage_sha256");
            }
            let session = view.get("session").and_then(Value::as_str).unwrap_or("");
            if view.get("idempotency_key").and_then(Value::as_str)
                != Some(format!("{session}:{request_sha256}").as_str())
            {
                wrong.push("effect_view.idempotency_key");
            }
            if wrong.is_empty() {
                Ok(if context {
                    "tool, arguments, _meta, requestState, inputResponses and effect_view match object A".to_owned()
                } else {
                    "effect_view matches the receipt's tool and arguments".to_owned()
                })
            } else {
                mismatch(format!("differs from the request: {}", wrong.join(", ")))
            }
        })();
        conclude("request-fields", Code::RequestFieldsMismatch, result)
    }

    fn check_target(&mut self) -> Check {
        let Some(reason) = self.safety_reason() else {
            return not_applicable("target", "no safety certificate");
        };
        if !is_sha256_hex(reason) {
            return not_applicable("target", format!("no guard target (safety: {reason})"));
        }
        let server = self.server_identity();
        let (profile, recomputed) = if self.version == Some(3) {
            let Some(frame) = &self.frame else {
                return not_evaluated("target", "object A is missing");
            };
            (
                "host",
                frame
                    .host_target
                    .clone()
                    .ok_or("object A has no tool name to derive a target from".to_owned()),
            )
        } else {
            match self.v2_target(&server) {
                Ok(target) => ("legacy", target),
                Err(why) => return not_evaluated("target", why),
            }
        };
        match recomputed {
            Ok(target) if target == reason => {
                let key = if profile == "host" { "host_target" } else { "legacy_target" };
                self.verify(key, target);
                pass("target", format!("the safety certificate's target is the {profile}-profile target"))
            }
            Ok(target) => fail(
                "target",
                Code::TargetMismatch,
                format!("the safety certificate names {reason}; the {profile}-profile target of the request is {target}"),
            ),
            Err(why) => fail("target", Code::TargetMismatch, why),
        }
    }

    /// The legacy target of a v2 receipt's own tool and arguments. Arguments holding a
    /// non-integer number are not evaluated: the receipt keeps serde's rendering, not the
    /// literal the kernel saw.
    fn v2_target(&self, server: &str) -> Result<Result<String, String>, String> {
        let tool = self.str_of("tool").ok_or("the receipt has no tool")?;
        let arguments = self
            .get("arguments")
            .ok_or("the receipt has no arguments")?;
        if has_float(arguments) {
            return Err("the arguments hold a non-integer number whose original literal is not in the receipt".into());
        }
        let text = String::from_utf8_lossy(&compact(arguments)).into_owned();
        let node = crate::json::parse(&text, 256).map_err(|e| e.message)?;
        Ok(recompute::legacy_target(server, tool, Some(&node)))
    }

    /// The step output and its audit line, parsed once in [`Ctx::new`].
    fn step(&self) -> Step<StepParts<'_>> {
        match &self.step {
            None => Err(Miss::Missing(
                "emitted_bytes is missing or not a string".into(),
            )),
            Some(Err(why)) => Err(Miss::Mismatch(why.clone())),
            Some(Ok(parsed)) => Ok((&parsed.step, &parsed.audit)),
        }
    }

    fn check_audit(&self) -> Check {
        let result = (|| {
            let (step, audit) = self.step()?;
            let request_sha256 = self.need_str("request_sha256")?;
            let certs = self
                .certs()
                .ok_or_else(|| Miss::Missing("certs is missing".into()))?;
            let mut wrong = Vec::new();
            if audit.get("request_sha256").and_then(Value::as_str) != Some(request_sha256) {
                wrong.push("the audit's request_sha256 is not the receipt's".to_owned());
            }
            let same_certs = audit
                .get("certs")
                .and_then(Value::as_array)
                .is_some_and(|a| {
                    a.len() == certs.len() && a.iter().zip(certs).all(|(x, y)| same_compact(x, y))
                });
            if !same_certs {
                wrong.push("the audit's certs are not the receipt's".into());
            }
            if let (Some(tool), Some(audit_tool)) = (self.str_of("tool"), audit.get("tool")) {
                if audit_tool.as_str() != Some(tool) {
                    wrong.push("the audit's tool is not the receipt's".into());
                }
            }
            for (i, cert) in certs.iter().enumerate() {
                if let Some(problem) = cert_hash_problem(cert) {
                    wrong.push(format!("certs[{i}]: {problem}"));
                }
            }
            let route = step.get("route").and_then(Value::as_str);
            let expected = match route {
                Some("forward") => "ALLOW",
                Some("block") => "BLOCK",
                _ => "",
            };
            if self.str_of("verdict") != Some(expected) {
                wrong.push(format!(
                    "route {} does not give verdict {}",
                    route.unwrap_or("(none)"),
                    self.str_of("verdict").unwrap_or("(none)")
                ));
            }
            if wrong.is_empty() {
                Ok("request_sha256, certs, certificate hashes and route agree with the kernel audit line".to_owned())
            } else {
                mismatch(wrong.join("; "))
            }
        })();
        conclude("audit", Code::AuditMismatch, result)
    }

    fn check_decision(&self) -> Check {
        let result = (|| {
            let (step, _) = self.step()?;
            let certs = self
                .certs()
                .ok_or_else(|| Miss::Missing("certs is missing".into()))?;
            let route = step.get("route").and_then(Value::as_str);
            let denied = certs
                .iter()
                .find(|c| c.get("verdict").and_then(Value::as_str) == Some("deny"));
            let (verdict, reason, deny_kernel) = match (route, denied) {
                (Some("block"), Some(cert)) => {
                    let kernel = cert.get("kernel").and_then(Value::as_str).unwrap_or("");
                    let why = cert.get("reason").and_then(Value::as_str).unwrap_or("");
                    (
                        "BLOCK",
                        format!("{kernel} kernel: {why}"),
                        Value::String(kernel.into()),
                    )
                }
                (Some("block"), None) => ("BLOCK", "no kernel gated this call".into(), Value::Null),
                _ => ("ALLOW", "every gating kernel allows".into(), Value::Null),
            };
            let mut wrong = Vec::new();
            if self.str_of("verdict") != Some(verdict) {
                wrong.push(format!("verdict should be {verdict}"));
            }
            if self.str_of("reason") != Some(reason.as_str()) {
                wrong.push(format!("reason should be {reason:?}"));
            }
            if self.get("deny_kernel") != Some(&deny_kernel) {
                wrong.push(format!("deny_kernel should be {deny_kernel}"));
            }
            let explicit = self.safety_reason() == Some("explicit policy allow");
            let authorization = (verdict == "ALLOW").then_some(if explicit {
                "explicit_policy_allow"
            } else {
                "approval"
            });
            if self.str_of("authorization") != authorization {
                wrong.push(format!(
                    "authorization should be {}",
                    authorization.unwrap_or("absent")
                ));
            }
            if let Some(problem) = self.approval_member_problem(authorization) {
                wrong.push(problem);
            }
            if wrong.is_empty() {
                Ok("verdict, reason, deny_kernel, authorization and approval follow from the route and certificates".to_owned())
            } else {
                mismatch(wrong.join("; "))
            }
        })();
        conclude("decision", Code::DecisionMismatch, result)
    }

    /// An approval-authorized ALLOW carries `approval` with `expiry = issued_at + policy TTL`;
    /// nothing else carries it.
    fn approval_member_problem(&self, authorization: Option<&str>) -> Option<String> {
        let approval = self.get("approval");
        if authorization != Some("approval") {
            return approval
                .map(|_| "approval is present without an approval-authorized ALLOW".into());
        }
        let Some(approval) = approval.and_then(Value::as_object) else {
            return Some("an approval-authorized ALLOW lacks the approval member".into());
        };
        if let (Some(issued), Some(expiry)) = (
            approval.get("issued_at").and_then(Value::as_u64),
            approval.get("expiry").and_then(Value::as_u64),
        ) {
            let ttl = self.approval_ttl_ms();
            if Some(expiry) != issued.checked_add(ttl) {
                return Some(format!(
                    "approval.expiry is not issued_at + the policy TTL ({ttl} ms)"
                ));
            }
        }
        None
    }

    /// `safety.approval.ttl_seconds` × 1000, default 120 s, capped at 300 s.
    fn approval_ttl_ms(&self) -> u64 {
        let seconds = self
            .get("kernel_config")
            .and_then(|c| c.pointer("/safety/approval/ttl_seconds"))
            .and_then(Value::as_u64)
            .unwrap_or(120);
        seconds.min(300) * 1000
    }

    /// The facts of the receipt's signed config, worked out once per distinct config.
    fn config_facts(&mut self) -> Step<&ConfigFacts> {
        let signed = self
            .get("signed_config")
            .and_then(Value::as_object)
            .ok_or_else(|| Miss::Missing("signed_config is missing".into()))?;
        let field = |name: &str| signed.get(name).and_then(Value::as_str).unwrap_or("");
        let (payload, signature, pubkey) = (field("payload"), field("signature"), field("pubkey"));
        let key = cache_key(&[payload, signature, pubkey]);
        let configs = &mut self.scratch.configs;
        if !configs.contains_key(&key) {
            let parsed = serde_json::from_str::<Value>(payload)
                .map_err(|e| format!("signed_config.payload is not JSON: {e}"));
            let facts = ConfigFacts {
                policy_hash: parsed.as_ref().ok().map(|v| sha256_hex(&compact(v))),
                payload: parsed,
                signature: config_signature(payload, signature, pubkey),
            };
            if configs.len() > 64 {
                configs.clear();
            }
            configs.insert(key, facts);
        }
        configs
            .get(&key)
            .ok_or_else(|| Miss::Missing("signed_config facts".into()))
    }

    fn check_config(&mut self) -> Check {
        let receipt = self.receipt;
        let result = (|| {
            let facts = self.config_facts()?;
            let kernel_config = receipt
                .get("kernel_config")
                .ok_or_else(|| Miss::Missing("kernel_config is missing".into()))?;
            let payload = facts
                .payload
                .as_ref()
                .map_err(|e| Miss::Mismatch(e.clone()))?;
            if !same_compact(kernel_config, payload) {
                return mismatch("kernel_config is not the parsed signed_config.payload");
            }
            let (policy_hash, signature) = (facts.policy_hash.clone(), facts.signature.clone());
            self.policy_hash = policy_hash;
            signature.map_err(Miss::Mismatch)?;
            let pubkey = receipt
                .get("signed_config")
                .and_then(|s| s.get("pubkey"))
                .and_then(Value::as_str)
                .unwrap_or("");
            Ok(format!("kernel_config is the signed payload; its signature verifies under the config key the receipt names ({pubkey}, reported, not pinned)"))
        })();
        conclude("config", Code::ConfigMismatch, result)
    }

    fn check_policy_hash(&mut self) -> Check {
        let result = (|| {
            let kernel_config = self
                .get("kernel_config")
                .ok_or_else(|| Miss::Missing("kernel_config is missing".into()))?;
            // Equal to the signed payload's hash when the config check matched them.
            let policy_hash = match &self.policy_hash {
                Some(hash) => hash.clone(),
                None => sha256_hex(&compact(kernel_config)),
            };
            let mut places = 0;
            for pointer in ["/effect_view/policy_hash", "/approval/policy_hash"] {
                if let Some(value) = pointer_in(self.receipt, pointer) {
                    places += 1;
                    if value.as_str() != Some(policy_hash.as_str()) {
                        return mismatch(format!(
                            "{} is not sha256(compact kernel_config) = {policy_hash}",
                            &pointer[1..].replace('/', ".")
                        ));
                    }
                }
            }
            if let (Some(version), Some(epoch)) = (
                pointer_in(self.receipt, "/effect_view/policy_version"),
                kernel_config.get("epoch"),
            ) {
                if version != epoch {
                    return mismatch("effect_view.policy_version is not kernel_config.epoch");
                }
            }
            if places == 0 {
                return Err(Miss::Missing("no policy_hash in this receipt".into()));
            }
            Ok(policy_hash)
        })();
        match result {
            Ok(hash) => {
                self.verify("policy_hash", hash);
                pass("policy-hash", "")
            }
            Err(miss) => conclude("policy-hash", Code::PolicyHashMismatch, Err(miss)),
        }
    }

    fn check_approval_statement(&mut self) -> Check {
        if self.version == Some(2) {
            return not_applicable(
                "approval-statement",
                "record_version 2 receipts carry no signed artifacts",
            );
        }
        let approval_allow = self.str_of("authorization") == Some("approval");
        let Some(bytes) = self.statement.clone() else {
            return if approval_allow {
                fail(
                    "approval-statement",
                    Code::ApprovalStatementInvalid,
                    "an approval-authorized ALLOW signs no approval statement",
                )
            } else {
                not_applicable(
                    "approval-statement",
                    "no approval statement (not an approval-authorized ALLOW)",
                )
            };
        };
        let result = (|| {
            let statement = approval_statement(&bytes).map_err(Miss::Mismatch)?;
            let mut wrong = Vec::new();
            if Some(statement.target.as_str()) != self.safety_reason() {
                wrong.push("target is not the safety certificate's target");
            }
            if Some(statement.subject_sha256.as_str()) != self.str_of("framed_subject_sha256")
                || Some(statement.subject_length)
                    != self.get("framed_subject_length").and_then(Value::as_u64)
            {
                wrong.push("subject_sha256/subject_length are not the framed subject");
            }
            let approval = self.get("approval");
            let field = |name: &str| approval.and_then(|a| a.get(name));
            if field("nonce").and_then(Value::as_str) != Some(statement.nonce.as_str()) {
                wrong.push("nonce is not approval.nonce");
            }
            if field("issued_at").and_then(Value::as_u64) != Some(statement.authorized_at) {
                wrong.push("authorized_at is not approval.issued_at");
            }
            if approval
                .and_then(|a| a.pointer("/approval_identity/key_id"))
                .and_then(Value::as_str)
                != Some(statement.authorization_signer_key_id.as_str())
            {
                wrong.push("authorization_signer_key_id is not approval.approval_identity.key_id");
            }
            if !approval_allow {
                wrong.push(
                    "a statement is signed into a receipt that is not an approval-authorized ALLOW",
                );
            }
            if wrong.is_empty() {
                Ok(statement)
            } else {
                mismatch(wrong.join("; "))
            }
        })();
        match result {
            Ok(statement) => {
                self.verify("approval_statement_target", statement.target);
                // Who authorized the call and when, for a trusted-approvers check: as signed
                // into the receipt, so only as trustworthy as the receipt's signature.
                self.verify(
                    "approval_statement_signer_key_id",
                    statement.authorization_signer_key_id,
                );
                self.verify("approval_statement_authorized_at", statement.authorized_at);
                pass("approval-statement", "a canonical ApprovalRecord v2 payload bound to this frame, target, nonce and approval key (its token signature is not in the receipt)")
            }
            Err(miss) => conclude(
                "approval-statement",
                Code::ApprovalStatementInvalid,
                Err(miss),
            ),
        }
    }

    fn check_release(&mut self) -> Check {
        if self.version == Some(2) {
            return not_applicable(
                "release",
                "record_version 2 receipts have no release fields",
            );
        }
        let result = self.release_result();
        match result {
            Ok(detail) => {
                if let Some(sha) = self.release_frame_sha256.clone() {
                    self.verify("release_frame_sha256", sha);
                    if let Some(post) = self.str_of("post_state_hash") {
                        self.verify("post_state_hash", post.to_owned());
                    }
                }
                match self.str_of("release_status") {
                    Some(status @ ("PENDING" | "UNKNOWN")) => fail(
                        "release",
                        Code::ReleaseUnconfirmed,
                        format!("release_status is {status}: the host never confirmed the release ({detail})"),
                    ),
                    _ => pass("release", detail),
                }
            }
            Err(miss) => conclude("release", Code::ReleaseMismatch, Err(miss)),
        }
    }

    fn release_result(&mut self) -> Step<String> {
        let verdict = self.need_str("verdict")?;
        let status = self.need_str("release_status")?;
        let operation_id = self.need_str("operation_id")?;
        if !is_sha256_hex(operation_id) {
            return mismatch("operation_id is not 64 lowercase hex digits");
        }
        let release_members = ["release_valid_until", "post_state_hash", "release_frame"];
        if verdict == "BLOCK" {
            if status != "NOT_APPLICABLE" {
                return mismatch(format!("a BLOCK has release_status {status}"));
            }
            if release_members.iter().any(|m| self.get(m).is_some()) {
                return mismatch("a BLOCK carries release fields");
            }
            return Ok("BLOCK: NOT_APPLICABLE, no release".into());
        }
        if status == "NOT_APPLICABLE" {
            return mismatch("an ALLOW has release_status NOT_APPLICABLE");
        }
        let frame_object = self
            .get("release_frame")
            .and_then(Value::as_object)
            .ok_or(Miss::Mismatch("an ALLOW lacks release_frame".into()))?;
        if frame_object.get("encoding").and_then(Value::as_str) != Some("base64") {
            return mismatch("release_frame.encoding is not base64");
        }
        let frame = frame_object
            .get("base64")
            .and_then(Value::as_str)
            .and_then(|b| STANDARD.decode(b).ok())
            .ok_or(Miss::Mismatch(
                "release_frame.base64 is not standard base64".into(),
            ))?;
        let frame_sha256 = sha256_hex(&frame);
        if frame_object.get("length").and_then(Value::as_u64) != Some(frame.len() as u64)
            || frame_object.get("sha256").and_then(Value::as_str) != Some(frame_sha256.as_str())
        {
            return mismatch("release_frame length or digest mismatch");
        }
        let object_a = self
            .object_a
            .as_deref()
            .ok_or_else(|| Miss::Missing("object A is missing".into()))?;
        match splice_operation_id(object_a, operation_id) {
            Some(expected) if expected == frame => {}
            Some(_) => return mismatch(
                "release_frame is not object A with \"operation_id\" spliced before its final }",
            ),
            None => return mismatch("object A cannot carry an operation_id (not a JSON object)"),
        }
        if self
            .get("release_valid_until")
            .and_then(Value::as_u64)
            .is_none()
        {
            return mismatch("an ALLOW lacks release_valid_until");
        }
        let expected_post = sha256_hex(&compact(&serde_json::json!({
            "operation_id": operation_id,
            "release_frame_sha256": frame_sha256,
        })));
        if self.str_of("post_state_hash") != Some(expected_post.as_str()) {
            return mismatch(format!(
                "post_state_hash is not the hash of the operation state ({expected_post})"
            ));
        }
        self.release_frame_sha256 = Some(frame_sha256);
        Ok(format!(
            "{status}: release_frame is object A with the operation id, post_state_hash binds it"
        ))
    }

    fn reported(&self) -> Reported {
        let text = |name: &str| self.str_of(name).map(str::to_owned);
        Reported {
            verdict: text("verdict"),
            authorization: text("authorization"),
            reason: text("reason"),
            tool: text("tool"),
            now: self.get("now").and_then(Value::as_u64),
            session: pointer_in(self.receipt, "/effect_view/session")
                .and_then(Value::as_str)
                .map(str::to_owned),
            safety_certificate_reason: self.safety_reason().map(str::to_owned),
            release_status: text("release_status"),
            operation_id: text("operation_id"),
            framed_subject_sha256: text("framed_subject_sha256"),
            request_sha256: text("request_sha256"),
            canonical_request_sha256: text("canonical_request_sha256"),
            kernel_wasm_sha256: pointer_in(self.receipt, "/kernel_identity/wasm_sha256")
                .and_then(Value::as_str)
                .map(str::to_owned),
        }
    }

    fn facts(&self) -> Facts {
        let text = |name: &str| self.str_of(name).map(str::to_owned);
        Facts {
            name_hash: text("canonical_request_sha256").or_else(|| text("request_sha256")),
            framed_subject_sha256: text("framed_subject_sha256"),
            session: pointer_in(self.receipt, "/effect_view/session")
                .and_then(Value::as_str)
                .map(str::to_owned),
            now: self.get("now").and_then(Value::as_u64),
            audit_line: match &self.step {
                Some(Ok(parsed)) => Some(parsed.audit_line.clone()),
                _ => None,
            },
            verdict: text("verdict"),
            release_status: text("release_status"),
            operation_id: text("operation_id"),
            release_frame_sha256: self.release_frame_sha256.clone(),
            object_a: self.object_a.clone(),
            server: self.server_identity(),
        }
    }
}

fn pointer_in<'v>(map: &'v Map<String, Value>, pointer: &str) -> Option<&'v Value> {
    let mut parts = pointer.trim_start_matches('/').split('/');
    let first = map.get(parts.next()?)?;
    parts.try_fold(first, |value, part| value.get(part))
}

fn has_float(value: &Value) -> bool {
    match value {
        Value::Number(n) => n.is_f64(),
        Value::Array(items) => items.iter().any(has_float),
        Value::Object(map) => map.values().any(has_float),
        _ => false,
    }
}

fn cache_key(parts: &[&str]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part.as_bytes());
    }
    hasher.finalize().into()
}

/// The config envelope's Ed25519 signature (128 hex) over the exact payload bytes, under the
/// key the envelope names.
fn config_signature(payload: &str, signature: &str, pubkey: &str) -> Result<(), String> {
    let key = signature::parse_key_hex(pubkey)
        .ok_or("signed_config.pubkey is not 64 lowercase hex digits")?;
    let signature: [u8; 64] = crate::digest::hex_decode(signature)
        .and_then(|b| b.try_into().ok())
        .ok_or("signed_config.signature is not 128 hex digits")?;
    signature::verify_key_bytes(&key, payload.as_bytes(), &signature)
        .map_err(|e| format!("signed_config signature: {e}"))
}

/// The release frame seal-host forwards: the frame with `"operation_id":"<id>"` spliced
/// before the final `}` of its body (a comma first unless the object is empty), terminator
/// kept.
pub fn splice_operation_id(frame: &[u8], operation_id: &str) -> Option<Vec<u8>> {
    let (body, terminator) = if let Some(body) = frame.strip_suffix(b"\r\n") {
        (body, b"\r\n".as_slice())
    } else if let Some(body) = frame.strip_suffix(b"\n") {
        (body, b"\n".as_slice())
    } else {
        (frame, b"".as_slice())
    };
    let request: Value = serde_json::from_slice(body).ok()?;
    let object = request.as_object()?;
    if object.contains_key("operation_id") {
        return None;
    }
    let brace = body.iter().rposition(|b| !b.is_ascii_whitespace())?;
    if body[brace] != b'}' {
        return None;
    }
    let mut out = Vec::with_capacity(frame.len() + operation_id.len() + 20);
    out.extend_from_slice(&body[..brace]);
    if !object.is_empty() {
        out.push(b',');
    }
    out.extend_from_slice(b"\"operation_id\":");
    out.extend_from_slice(&compact(&Value::String(operation_id.to_owned())));
    out.extend_from_slice(&body[brace..]);
    out.extend_from_slice(terminator);
    Some(out)
}

/// A certificate's `certHash`: the 64-bit rolling hash of `encodeParts([kernel, verdict,
/// reason])`, decimal (docs/formats.md).
pub fn cert_hash(kernel: &str, verdict: &str, reason: &str) -> String {
    let mut h: u64 = 14_695_981_039_346_656_037;
    let mut step = |c: char| {
        h = h
            .wrapping_mul(1_099_511_628_211)
            .wrapping_add(u64::from(u32::from(c)));
    };
    for part in [kernel, verdict, reason] {
        part.chars().count().to_string().chars().for_each(&mut step);
        step(':');
        part.chars().for_each(&mut step);
    }
    h.to_string()
}

fn cert_hash_problem(cert: &Value) -> Option<String> {
    let field = |name: &str| cert.get(name).and_then(Value::as_str);
    let (Some(kernel), Some(verdict), Some(reason), Some(recorded)) = (
        field("kernel"),
        field("verdict"),
        field("reason"),
        field("certHash"),
    ) else {
        return Some("certificate members missing".into());
    };
    let expected = cert_hash(kernel, verdict, reason);
    (recorded != expected).then(|| format!("certHash {recorded} should be {expected}"))
}

/// Hex of a public key for messages.
pub fn key_hex(key: &[u8; 32]) -> String {
    hex_lower(key)
}

/// The approval statement a record_version 3 receipt signs must be a valid, canonical
/// ApprovalRecord v2 payload (docs/formats.md, §1.3), checked with
/// `crate::approval` exactly as seal-host checks a token's payload; its token signature
/// is not in the receipt.
fn approval_statement(bytes: &[u8]) -> Result<crate::approval::payload::Payload, String> {
    use crate::approval::payload::Payload;
    let text = std::str::from_utf8(bytes).map_err(|_| "statement is not UTF-8".to_owned())?;
    let payload = Payload::parse(text)
        .map_err(|e| format!("statement is not an ApprovalRecord v2 payload: {e}"))?;
    payload
        .validate()
        .map_err(|e| format!("statement field {e}"))?;
    match payload.is_canonical_text(bytes) {
        Ok(true) => Ok(payload),
        _ => Err("statement is not the canonical rendering of its own payload".to_owned()),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn cert_hash_matches_the_fact_sheet_vector() {
        assert_eq!(
            cert_hash("safety", "allow", "explicit policy allow"),
            "15988675559853727781"
        );
    }

    #[test]
    fn operation_id_splices_before_the_final_brace() {
        assert_eq!(
            splice_operation_id(b"{\"a\":1} \r\n", "x").unwrap(),
            b"{\"a\":1,\"operation_id\":\"x\"} \r\n".to_vec()
        );
        assert_eq!(
            splice_operation_id(b"{}", "x").unwrap(),
            b"{\"operation_id\":\"x\"}".to_vec()
        );
        assert!(splice_operation_id(b"[1]\n", "x").is_none());
        assert!(splice_operation_id(b"{\"operation_id\":1}\n", "x").is_none());
    }

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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
        /// Small alphabets make equal and nearly equal pairs common.
        #[test]
        fn same_compact_is_equality_of_compact_renderings(a in any_json(), b in any_json()) {
            proptest::prop_assert_eq!(same_compact(&a, &b), compact(&a) == compact(&b));
            proptest::prop_assert!(same_compact(&a, &a.clone()));
        }
    }

    #[test]
    fn same_compact_tells_apart_what_renders_apart() {
        let v = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        assert!(same_compact(
            &v(r#"{"a":1,"b":[1.5,"x",null]}"#),
            &v(r#"{"a":1,"b":[1.5,"x",null]}"#)
        ));
        assert!(!same_compact(
            &v(r#"{"a":1,"b":2}"#),
            &v(r#"{"b":2,"a":1}"#)
        ));
        assert!(!same_compact(&v("1"), &v("1.0")));
        assert!(!same_compact(&v("0.0"), &v("-0.0")));
        assert!(!same_compact(&v("-1"), &v("18446744073709551615")));
        assert!(same_compact(&v("1e2"), &v("100.0")));
    }

    #[test]
    fn parse_classifies_utf8_truncation_and_syntax() {
        assert_eq!(parse(b"{\"a\":\xff}").unwrap_err().code, Code::NotUtf8);
        assert_eq!(parse(b"{\"a\":").unwrap_err().code, Code::TruncatedJson);
        assert_eq!(parse(b"{\"a\" 1}").unwrap_err().code, Code::InvalidJson);
        assert_eq!(parse(b"[1]").unwrap_err().code, Code::InvalidJson);
    }
}
