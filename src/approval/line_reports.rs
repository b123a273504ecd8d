//! Checks a token file batch by batch and reports every non-blank line: seal-host's token
//! verdict (checked in parallel; under one key the batch's signatures are verified together,
//! each with exactly the result `verify_line` gives the line alone), then — in file order — the binding to the given frame,
//! target and time, and nonce reuse across the file. Facts are kept in three separate places:
//! `signed` (fields authenticated by a valid signature of the trusted key), `binding` (this
//! crate's comparisons of those fields with the caller's inputs) and `reported` (fields read
//! from a line that failed verification, never authenticated).

use super::binding::{bind_approval, bind_decline, Binding, Expectations, NonceUse, Subject};
use super::listed::verify_listed;
use super::payload::{Payload, Renderer};
use super::reason::{host_record_id, Reason};
use super::verify::{
    check_line, line_too_long, LineCheck, PendingSignature, TokenKind, TokenVerdict,
};
use crate::approvers::{Approvers, Credit, SignedBy, VerifiedSignature};
use crate::keys::PublicKey;
use crate::signature::batch::{verify_each, BatchKey, Claim};
use crate::signature::{self, Failure};
use crate::tokenfile::{is_blank, Batch, LineReader, RawLine};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashSet;
use std::io::{self, BufRead};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TokenStatus {
    Accepted,
    Rejected,
}

/// What a verified record says, authenticated by its signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Signed {
    Approval(SignedApproval),
    Decline(SignedDecline),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignedApproval {
    pub target: String,
    pub subject: Subject,
    pub authorized_at: u64,
    pub expiry: u64,
    pub nonce: String,
    pub session: String,
    pub approver: String,
    pub shown: Subject,
    pub renderer: Renderer,
    pub signer_key_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignedDecline {
    pub decision: &'static str,
    pub target: String,
    pub issued_at: u64,
    pub nonce: String,
}

/// Fields read from a rejected line, as written there (not authenticated).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Reported {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signer_key_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nonce: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub authorized_at: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approver: Option<String>,
}

/// The report for one non-blank token line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineReport {
    /// 1-based physical line number in the file.
    pub line: u64,
    pub status: TokenStatus,
    /// `approval-record-v2`, `signed-decline`, `signed-v1` or `undetermined`.
    pub kind: &'static str,
    /// seal-host's reason for the first failure, token checks before binding checks.
    pub reason: Option<String>,
    /// The `source` seal-host logs with that reason.
    pub host_source: Option<&'static str>,
    /// The `record_id` seal-host logs with that drop.
    pub host_record_id: Option<String>,
    pub detail: Option<String>,
    pub signed: Option<Signed>,
    pub binding: Binding,
    pub reported: Option<Reported>,
    /// The approver the trusted-approvers list credits with the record: its signature verified
    /// under that approver's key, inside the key's window ([`Approvers::credit`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<SignedBy>,
}

/// Checks batches of one file in order, remembering nonces across batches.
pub struct Checker<'k> {
    key: &'k PublicKey,
    /// When set, lines are verified under the listed keys instead of `key`.
    approvers: Option<&'k Approvers>,
    expected: Expectations,
    reserved: ReservedNonces,
}

impl<'k> Checker<'k> {
    pub fn new(key: &'k PublicKey, expected: Expectations) -> Self {
        Checker {
            key,
            approvers: None,
            expected,
            reserved: ReservedNonces::default(),
        }
    }

    /// Verifies under a trusted-approvers list: each line under the listed key it names,
    /// accepted only inside that key's window, and attributed to its approver.
    pub fn with_approvers(mut self, approvers: &'k Approvers) -> Self {
        self.approvers = Some(approvers);
        self
    }

    /// Reports every non-blank line of the batch, in order. Everything that depends on one
    /// line only runs on the current rayon pool (under one key, the signatures of the batch
    /// are checked together, each with exactly its own result: `signature::batch`); then
    /// nonce reuse is decided in file order.
    pub fn check_batch(&mut self, batch: &Batch) -> Vec<LineReport> {
        let (key, expected) = (self.key, &self.expected);
        let mut reports: Vec<LineReport> = match self.approvers {
            None => check_under_key(batch, key, expected),
            Some(approvers) => batch
                .lines
                .par_iter()
                .filter_map(|line| match classify(batch, line, expected)? {
                    Line::Reported(report) => Some(*report),
                    Line::Text(text) => {
                        let (verdict, signer) = verify_listed(text, approvers);
                        let mut report = report(line.number, text.as_bytes(), verdict, expected);
                        credit(&mut report, signer, approvers);
                        Some(report)
                    }
                })
                .collect(),
        };
        for report in &mut reports {
            self.check_nonce(report);
        }
        reports
    }

    /// seal-host reserves a nonce when a record passes every earlier check, and refuses a
    /// later record with the same nonce as `replayed_nonce`.
    fn check_nonce(&mut self, report: &mut LineReport) {
        let Some(Signed::Approval(signed)) = &report.signed else {
            return;
        };
        if report.status != TokenStatus::Accepted {
            report.binding.nonce = NonceUse::NotApplicable;
            return;
        }
        if self.reserved.reserve(&signed.nonce) {
            return;
        }
        let material = super::reason::record_material(
            &signed.target,
            Some(signed.authorized_at),
            Some(&signed.nonce),
        );
        report.binding.nonce = NonceUse::Repeated;
        report.status = TokenStatus::Rejected;
        report.reason = Some(Reason::ReplayedNonce.code().into_owned());
        report.host_source = Some(Reason::ReplayedNonce.host_source());
        report.host_record_id = Some(host_record_id(material.as_bytes()));
        report.detail = Some(binding_detail(&Reason::ReplayedNonce));
    }
}

/// The nonces reserved so far, each exactly and in little memory: this is what a file's
/// replay check has to remember, one nonce per accepted approval (it cannot be forgotten: a
/// replay may come on any later line). A nonce of 32 lowercase hex digits — what seal's
/// approve CLI (uuid4 hex) and `sealkit approve` (128 random bits) write — is kept as the 16
/// bytes it spells; any other nonce as its text. The two forms never meet: which set a nonce
/// belongs to depends on its text alone, and within each the mapping is one to one.
#[derive(Default)]
struct ReservedNonces {
    hex: HashSet<u128>,
    other: HashSet<Box<str>>,
}

impl ReservedNonces {
    /// Reserves `nonce`; false when it was reserved already.
    fn reserve(&mut self, nonce: &str) -> bool {
        match lowercase_hex_128(nonce) {
            Some(value) => self.hex.insert(value),
            None => self.other.insert(nonce.into()),
        }
    }
}

/// The value of exactly 32 lowercase hex digits (no other spelling of it is accepted, so
/// distinct texts never share a value).
fn lowercase_hex_128(text: &str) -> Option<u128> {
    if text.len() != 32 {
        return None;
    }
    text.bytes().try_fold(0u128, |value, byte| {
        let digit = match byte {
            b'0'..=b'9' => byte - b'0',
            b'a'..=b'f' => byte - b'a' + 10,
            _ => return None,
        };
        Some(value << 4 | u128::from(digit))
    })
}

/// The first line of a token file holding an approval that passes seal-host's token checks
/// under `key` with this nonce: the host reserves the nonce for that line, so another record
/// with it would be dropped as `replayed_nonce`. The same checks as `verify approval`.
pub fn line_reserving_nonce(
    reader: impl BufRead,
    key: &PublicKey,
    nonce: &str,
) -> io::Result<Option<u64>> {
    let mut lines = LineReader::new(reader);
    let mut checker = Checker::new(key, Expectations::default());
    let mut batch = Batch::default();
    loop {
        lines.next_batch(&mut batch, 1024)?;
        if batch.lines.is_empty() {
            return Ok(None);
        }
        let found = checker.check_batch(&batch).into_iter().find(|report| {
            report.status == TokenStatus::Accepted
                && matches!(&report.signed, Some(Signed::Approval(a)) if a.nonce == nonce)
        });
        if let Some(report) = found {
            return Ok(Some(report.line));
        }
    }
}

/// A non-blank line before its token checks.
enum Line<'b> {
    /// Reported from its length or bytes alone (rare: boxed).
    Reported(Box<LineReport>),
    Text(&'b str),
}

/// `None` for a blank line; a report for a line cut at the read limit or not UTF-8.
fn classify<'b>(batch: &'b Batch, line: &RawLine, expected: &Expectations) -> Option<Line<'b>> {
    let bytes = batch.line(line);
    if line.is_cut() {
        // Longer than all seal-host reads of a file: its length decides.
        let verdict = line_too_long(line.length, bytes);
        let report = report(line.number, bytes, verdict, expected);
        return Some(Line::Reported(Box::new(report)));
    }
    match std::str::from_utf8(bytes) {
        Err(_) => Some(Line::Reported(Box::new(not_utf8(line.number, bytes)))),
        Ok(text) if is_blank(text) => None,
        Ok(text) => Some(Line::Text(text)),
    }
}

/// One line of [`check_under_key`] between its checks and its report.
enum Stage<'b> {
    Reported(LineReport),
    Checked(u64, &'b str, LineCheck<'b>),
}

impl<'b> Stage<'b> {
    fn pending(&self) -> Option<&PendingSignature<'b>> {
        match self {
            Stage::Checked(_, _, LineCheck::Signature(pending)) => Some(pending),
            _ => None,
        }
    }
}

/// The batch's lines under one key: every check before the signature line by line, then the
/// signatures of all lines that got that far together, each with its own result.
fn check_under_key(batch: &Batch, key: &PublicKey, expected: &Expectations) -> Vec<LineReport> {
    let stages: Vec<Stage> = batch
        .lines
        .par_iter()
        .filter_map(|line| match classify(batch, line, expected)? {
            Line::Reported(report) => Some(Stage::Reported(*report)),
            Line::Text(text) => Some(Stage::Checked(line.number, text, check_line(text, key))),
        })
        .collect();
    let messages: Vec<[&[u8]; 3]> = stages
        .iter()
        .filter_map(Stage::pending)
        .map(PendingSignature::message)
        .collect();
    let claims: Vec<Claim> = stages
        .iter()
        .filter_map(Stage::pending)
        .zip(&messages)
        .map(|(pending, message)| Claim {
            message,
            signature: pending.signature(),
        })
        .collect();
    let mut results = verify_each(&BatchKey::new(&key.verifying), &claims).into_iter();
    let staged: Vec<(Stage, Option<Result<(), Failure>>)> = stages
        .into_iter()
        .map(|stage| {
            let result = stage.pending().and_then(|_| results.next());
            (stage, result)
        })
        .collect();
    staged
        .into_par_iter()
        .map(|(stage, result)| match stage {
            Stage::Reported(report) => report,
            Stage::Checked(number, text, LineCheck::Done(verdict)) => {
                report(number, text.as_bytes(), verdict, expected)
            }
            Stage::Checked(number, text, LineCheck::Signature(pending)) => {
                // `verify_each` returns one result per claim, so `result` is always there.
                let result = result.unwrap_or_else(|| {
                    signature::verify_parts(&key.verifying, &pending.message(), pending.signature())
                });
                report(number, text.as_bytes(), pending.verdict(result), expected)
            }
        })
        .collect()
}

/// sealkit's reason for a record signed by a listed key outside that key's window.
pub const OUTSIDE_WINDOW: &str = "approver-key-outside-window";

/// Credits a verified record to the approver the list names for `key` at the record's time
/// ([`Approvers::credit`]); a record verified under a listed key outside its windows is
/// rejected and credited to no one. A line whose signature did not verify is never looked up.
fn credit(report: &mut LineReport, key: &PublicKey, approvers: &Approvers) {
    let at = match &report.signed {
        Some(Signed::Approval(approval)) => approval.authorized_at,
        Some(Signed::Decline(decline)) => decline.issued_at,
        None => {
            // The verifier compared the line's key id with one listed key; say what it means
            // for the list as a whole.
            if report.reason.as_deref() == Some(&*Reason::WrongSignerKeyId.code()) {
                report.detail =
                    Some("signer_key_id names no key in the trusted-approvers list".to_owned());
            }
            return;
        }
    };
    let credit = approvers.credit(VerifiedSignature {
        key_id: &key.key_id,
        at,
    });
    if let Some(detail) = credit.outside_window_detail() {
        if report.status == TokenStatus::Accepted {
            report.status = TokenStatus::Rejected;
            report.reason = Some(OUTSIDE_WINDOW.to_owned());
            report.host_source = None;
            report.host_record_id = None;
            report.detail = Some(detail);
        }
    }
    if let Credit::Credited(signed_by) = credit {
        report.signed_by = Some(signed_by);
    }
}

/// The report of one line from its verdict and the line-local binding checks.
fn report(number: u64, bytes: &[u8], verdict: TokenVerdict, expected: &Expectations) -> LineReport {
    match verdict {
        TokenVerdict::Approval(approval) => {
            let binding = bind_approval(&approval.payload, expected);
            let payload = approval.payload;
            let failure = binding.first_failure().map(|reason| {
                let material = super::reason::record_material(
                    &payload.target,
                    Some(payload.authorized_at),
                    Some(&payload.nonce),
                );
                (reason, material)
            });
            finish(
                number,
                "approval-record-v2",
                Some(Signed::Approval(signed_approval(payload))),
                binding,
                failure,
            )
        }
        TokenVerdict::Decline(decline) => {
            let binding = bind_decline(&decline.target, expected);
            // seal-host logs nothing for a decline naming another target: it ignores it.
            let mut report = finish(
                number,
                "signed-decline",
                Some(Signed::Decline(SignedDecline {
                    decision: "deny",
                    target: decline.target,
                    issued_at: decline.issued_at,
                    nonce: decline.nonce,
                })),
                binding,
                binding
                    .first_failure()
                    .map(|reason| (reason, String::new())),
            );
            if report.status == TokenStatus::Rejected {
                report.host_source = None;
                report.host_record_id = None;
                report.detail = Some(
                    "the decline names another target; seal-host acts on a decline only for \
                     the blocked target"
                        .to_owned(),
                );
            }
            report
        }
        TokenVerdict::Rejected(rejection) => LineReport {
            line: number,
            status: TokenStatus::Rejected,
            kind: rejection.kind.as_str(),
            reason: Some(rejection.reason.code().into_owned()),
            host_source: Some(rejection.reason.host_source()),
            host_record_id: Some(rejection.host_record_id),
            detail: Some(rejection.detail),
            signed: None,
            binding: Binding::unchecked(),
            reported: reported(bytes),
            signed_by: None,
        },
    }
}

fn finish(
    number: u64,
    kind: &'static str,
    signed: Option<Signed>,
    binding: Binding,
    failure: Option<(Reason, String)>,
) -> LineReport {
    let (status, reason, source, record_id, detail) = match failure {
        None => (TokenStatus::Accepted, None, None, None, None),
        Some((reason, material)) => (
            TokenStatus::Rejected,
            Some(reason.code().into_owned()),
            Some(reason.host_source()),
            Some(host_record_id(material.as_bytes())),
            Some(binding_detail(&reason)),
        ),
    };
    LineReport {
        line: number,
        status,
        kind,
        reason,
        host_source: source,
        host_record_id: record_id,
        detail,
        signed,
        binding,
        reported: None,
        signed_by: None,
    }
}

fn binding_detail(reason: &Reason) -> String {
    match reason {
        Reason::TargetOrSubjectMismatch => {
            "the signed record names another frame or target than the one given".to_owned()
        }
        Reason::Expired => "the record is past its expiry or the policy TTL at --now".to_owned(),
        Reason::FutureIssuedAt => "authorized_at is more than 5 s after --now".to_owned(),
        Reason::ReplayedNonce => {
            "an earlier verified line of this file carries the same nonce".to_owned()
        }
        other => other.code().into_owned(),
    }
}

/// What an ApprovalRecord v2 payload says, in the form a verified token line reports it.
pub fn signed_approval(payload: Payload) -> SignedApproval {
    SignedApproval {
        target: payload.target,
        subject: Subject {
            sha256: payload.subject_sha256,
            length: payload.subject_length,
        },
        authorized_at: payload.authorized_at,
        expiry: payload.expiry,
        nonce: payload.nonce,
        session: payload.session,
        approver: payload.approver,
        shown: Subject {
            sha256: payload.shown_sha256,
            length: payload.shown_length,
        },
        renderer: payload.renderer,
        signer_key_id: payload.authorization_signer_key_id,
    }
}

fn not_utf8(number: u64, bytes: &[u8]) -> LineReport {
    LineReport {
        line: number,
        status: TokenStatus::Rejected,
        kind: TokenKind::Undetermined.as_str(),
        reason: Some(Reason::TokenFileNotUtf8.code().into_owned()),
        host_source: Some(Reason::TokenFileNotUtf8.host_source()),
        host_record_id: Some(host_record_id(b"non-utf8-ed25519-token-file")),
        detail: Some(format!(
            "line is not UTF-8 ({} bytes); seal-host ignores the whole file",
            bytes.len()
        )),
        signed: None,
        binding: Binding::unchecked(),
        reported: None,
        signed_by: None,
    }
}

/// Best-effort, unauthenticated fields of a rejected line.
fn reported(bytes: &[u8]) -> Option<Reported> {
    let outer: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let text = |value: &serde_json::Value, key: &str| {
        value.get(key).and_then(|v| v.as_str()).map(str::to_owned)
    };
    let payload: serde_json::Value = outer
        .get("payload")
        .and_then(|p| p.as_str())
        .and_then(|p| serde_json::from_str(p).ok())
        .unwrap_or(serde_json::Value::Null);
    let reported = Reported {
        signer_key_id: text(&outer, "signer_key_id"),
        target: text(&payload, "target"),
        nonce: text(&payload, "nonce"),
        authorized_at: payload
            .get("authorized_at")
            .or_else(|| payload.get("issuedAt"))
            .and_then(serde_json::Value::as_u64),
        approver: text(&payload, "approver"),
    };
    (reported != Reported::default()).then_some(reported)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_32_lowercase_hex_digits_are_kept_as_their_value() {
        let hex = "0123456789abcdef0f1e2d3c4b5a6978";
        assert_eq!(
            lowercase_hex_128(hex),
            Some(0x0123456789abcdef0f1e2d3c4b5a6978)
        );
        assert_eq!(lowercase_hex_128(&"f".repeat(32)), Some(u128::MAX));
        assert_eq!(lowercase_hex_128(&"0".repeat(32)), Some(0));
        // Another spelling of the same value, or another length, is not this form.
        for other in [
            "0123456789ABCDEF0F1E2D3C4B5A6978",
            "0123456789abcdef0f1e2d3c4b5a697",
            "0123456789abcdef0f1e2d3c4b5a69780",
            "0123456789abcdef0f1e2d3c4b5a697g",
            "0123456789abcdef0f1e2d3c4b5a697/",
            "0123456789abcdef0f1e2d3c4b5a697:",
            "0123456789abcdef0f1e2d3c4b5a697`",
            "",
        ] {
            assert_eq!(lowercase_hex_128(other), None, "{other}");
        }
    }

    #[test]
    fn a_nonce_is_reserved_once_whatever_its_form_and_distinct_texts_never_meet() {
        let mut reserved = ReservedNonces::default();
        let hex = "d9e47d04f3726be69a5903fd6412e350";
        let upper = hex.to_uppercase();
        for nonce in [hex, upper.as_str(), "demo-1", "", "d9e47d04"] {
            assert!(reserved.reserve(nonce), "{nonce:?} first");
        }
        for nonce in [hex, upper.as_str(), "demo-1", "", "d9e47d04"] {
            assert!(!reserved.reserve(nonce), "{nonce:?} again");
        }
        assert!(reserved.reserve("d9e47d04f3726be69a5903fd6412e351"));
        assert_eq!((reserved.hex.len(), reserved.other.len()), (2, 4));
    }
}
