//! The joined evidence model of `sealkit report`, built from what the library's own readers
//! and verifiers established (no second parser or verifier): receipts as the directory audit
//! checked them, token lines as seal-host's acceptance pipeline judged them, chain entries as
//! the chain verifier recomputed them, and frames as the frame index split them.
//!
//! Guarantees: every receipt the audit reported is counted, and is one row unless it is a
//! good receipt beyond the sample (`sample`); rows in decision-time order (ties in
//! audit order); only an authenticated receipt has a verdict (any other receipt's decision
//! is a claim, counted apart); a token is "the approval that released" a receipt only when
//! its signed payload is exactly the approval statement the authenticated receipt signs
//! (approver, nonce, `authorized_at`, expiry, target, subject, session, shown text,
//! renderer, key id), and only when it was accepted under a trusted key; other accepted
//! approvals of the same call are listed as such (`joins`); chain entries are joined by
//! request hash, the n-th receipt of a hash (in time order) to the n-th entry of that hash
//! (`chain_order`); captured frames by canonical request hash under the receipt's record
//! version (`joins`). Whatever cannot be
//! joined is reported as such, never dropped. Values from inputs are kept exactly; rendering
//! escapes them. Nothing here prints or reads files.

use super::counts::{Aggregate, Conclusion, Summary, Timeline};
use crate::approval::binding::{Freshness, Subject};
use crate::approval::line_reports::{LineReport, Signed, SignedApproval, TokenStatus};
pub use crate::audit::finding_list::FindingList;
use crate::audit::ReceiptEntry;
use crate::finding::{Code, Finding, Severity};
use crate::identity::Identities;
use crate::migrate::FrameRef;
use crate::request::{self, Session, Verdict};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;

/// The finding codes only the joins of the report give (every other code comes from the
/// checks the report reuses).
pub const JOIN_CODES: &[Code] = &[
    Code::ReleasedWithoutToken,
    Code::TokenNotFresh,
    Code::TokenRejected,
    Code::TokenNeverUsed,
    Code::ChainBroken,
    Code::ChainEntryWithoutReceipt,
    Code::ReceiptNotInChain,
    Code::FrameNotCaptured,
    Code::AnnotationEvidenceFailed,
    Code::AnnotationEvidenceNotChecked,
];

/// One input file, named and fingerprinted.
#[derive(Debug, Clone, Serialize)]
pub struct Input {
    /// `receipts`, `tokens`, `chain`, `audit-lines`, `frames` or `trusted-approvers`.
    pub role: &'static str,
    pub path: String,
    /// Size in bytes (for a directory: the number of receipt files the audit checked).
    pub bytes: u64,
    /// SHA-256 of the file's bytes; `None` for a directory.
    pub sha256: Option<String>,
}

/// The keys evidence was checked against.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Trust {
    /// The pinned receipt key, or `None`: no receipt could be authenticated.
    pub receipt_key: Option<KeyAnchor>,
    /// Trusted approval keys.
    pub approvers: Vec<KeyAnchor>,
    /// The approval TTL freshness was judged with (seconds, capped as the host caps it).
    pub ttl_seconds: u64,
    /// `--server`, when it overrides each receipt's own server identity for identities.
    pub server: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct KeyAnchor {
    pub public_key: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_id: Option<String>,
    /// Where it came from (a flag, a file).
    pub source: String,
}

/// A token line as seal-host's pipeline judged it, and the key that accepted it.
#[derive(Debug, Clone)]
pub struct TokenEvidence {
    pub file: String,
    pub report: LineReport,
}

/// One chain entry (a kernel audit line).
#[derive(Debug, Clone, Serialize)]
pub struct ChainEntry {
    /// 0-based position in its chain.
    pub index: usize,
    pub request_sha256: Option<String>,
    pub tool: Option<String>,
    pub verdict: Option<String>,
    /// Whether its recorded head recomputes (always true for raw audit lines).
    pub head_ok: bool,
    /// Whether a receipt joined it.
    pub joined: bool,
    /// The row this entry was joined to, when that row is in the report.
    pub row: Option<usize>,
}

/// One chain input: a sealed log or raw audit lines.
#[derive(Debug, Clone, Serialize)]
pub struct Chain {
    pub file: String,
    /// `sealed` or `audit-lines`.
    pub kind: &'static str,
    /// The sealed log's verdict: genesis and every head recompute (raw lines: always true).
    pub intact: bool,
    pub genesis_ok: bool,
    pub first_bad_entry: Option<usize>,
    /// The head recomputed over every payload.
    pub head: String,
    /// Entries in the chain, and how many joined a receipt (kept or not).
    pub length: u64,
    pub joined: u64,
    /// The entries worth reading: broken, unjoined, or joined to a row of the report (the
    /// others are counted in `length` and `joined` only).
    pub entries: Vec<ChainEntry>,
}

/// How a row's approval was found.
#[derive(Debug, Clone, Serialize)]
pub struct ApprovalJoin {
    /// Index into [`Model::tokens`].
    pub token: usize,
    pub file: String,
    pub line: u64,
    pub approver: String,
    pub signer_key_id: String,
    pub authorized_at: u64,
    pub expiry: u64,
    /// Freshness at the receipt's decision time (`now`), as seal-host judges it.
    pub fresh_when_used: Option<Freshness>,
}

/// Where a row's chain entry is.
#[derive(Debug, Clone, Serialize)]
pub struct ChainJoin {
    pub file: String,
    pub entry: usize,
    pub head_ok: bool,
}

/// A receipt's frame and where it came from.
#[derive(Debug, Clone, Serialize)]
pub struct FrameJoin {
    /// `object-a` (the receipt's own signed frame, integrity-checked), `captured`,
    /// `not-captured` (captures given, none matches) or `unknown` (no frame available).
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<Box<FrameRef>>,
}

/// What the exact frame says, under the one frame pipeline.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Details {
    /// The exact frame as text when it is UTF-8 (exact bytes; rendering escapes them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
    /// Length of the frame in bytes.
    pub frame_length: u64,
    /// Lean compress of `params.arguments`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arguments: Option<String>,
    /// Every `_meta` key with its value's Lean compress, in code-point order.
    pub meta: Vec<(String, String)>,
    /// Identities under every profile, computed with `server`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identities: Option<Identities>,
    pub server: String,
    /// Why today's validation refuses the frame (no identities then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}

/// One receipt, joined.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub file: String,
    /// The file name's exact bytes in hex when `file` is not exact (a name that is not
    /// UTF-8, written lossily: [`crate::path_json`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_hex: Option<String>,
    /// `authenticated`, `unpinned`, `unsigned`, `failed` or `unreadable`.
    pub status: &'static str,
    pub record_version: Option<u64>,
    /// The decision time (`now`, Unix milliseconds) the receipt reports.
    pub time: Option<u64>,
    pub tool: Option<String>,
    /// `ALLOW` / `BLOCK`: the decision of an authenticated receipt (else `None`).
    pub verdict: Option<String>,
    /// The decision a receipt that does not authenticate claims: never a verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimed_verdict: Option<String>,
    /// `allow`, `block`, `released` (an approval-authorized ALLOW) or `unknown` for an
    /// authenticated receipt; `unauthenticated` for every other.
    pub class: &'static str,
    /// The most serious of the row's findings (`None`: none).
    pub severity: Option<Severity>,
    pub authorization: Option<String>,
    pub reason: Option<String>,
    pub session: Option<String>,
    /// The host-profile target sealkit recomputed (else the one the receipt reports).
    pub target: Option<String>,
    pub subject: Option<Subject>,
    pub request_sha256: Option<String>,
    pub canonical_request_sha256: Option<String>,
    pub approval: Option<Box<ApprovalJoin>>,
    /// The approval statement an authenticated released receipt signs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval_statement: Option<Box<SignedApproval>>,
    /// Accepted approvals of the same call (target and exact-frame subject) that are not
    /// the statement this receipt signs: indexes into [`Model::tokens`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_approvals: Vec<usize>,
    /// With a trusted-approvers list: the approver the receipt's signed approval statement
    /// names (the directory audit's attribution).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<Box<crate::approvers::SignedBy>>,
    pub chain: Option<Box<ChainJoin>>,
    pub frame: FrameJoin,
    /// Trust annotations of captured responses to this receipt's request (same exact-frame
    /// subject), each reference checked by `evidence verify`'s rules.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<crate::evidence::RowAnnotation>,
    /// Receipt, file and join findings about this receipt, most serious first. Findings are
    /// the row's per-request annotations: whatever else is learnt about one request joins
    /// them here.
    pub findings: Vec<Finding>,
    pub details: Option<Box<Details>>,
    /// The frame bytes the details come from (kept out of the JSON; `details.frame` has them).
    #[serde(skip)]
    pub(super) frame_bytes: Option<Vec<u8>>,
    #[serde(skip)]
    server: String,
    /// The receipt's place in the audit's walk (ties in time keep this order).
    #[serde(skip)]
    pub(super) seq: usize,
    /// Where among the findings the chain join's finding goes (after the file and token
    /// findings, before the frame join's), so the order is the same whenever it is found.
    #[serde(skip)]
    pub(super) chain_slot: usize,
}

/// A token line in the model.
#[derive(Debug, Clone, Serialize)]
pub struct Token {
    pub file: String,
    #[serde(flatten)]
    pub report: LineReport,
    /// How many receipts signed this token's payload as their approval statement.
    pub uses: u64,
    /// The rows among them that are in the report.
    pub used_by: Vec<usize>,
}

/// Everything the page shows.
#[derive(Debug, Serialize)]
pub struct Model {
    pub title: String,
    /// Only with `--timestamp`: the page is otherwise the same bytes for the same inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated_at: Option<String>,
    /// What the exit status says, and why: the first thing the page shows.
    pub verdict: Conclusion,
    /// What happened, in sentences built from the findings, most serious first (the page
    /// leads with them, under the verdict). Empty in `--format jsonl`'s model.
    pub sentences: Vec<Sentence>,
    pub summary: Summary,
    /// Every row with an error finding or without authentication, and a sample of the rest,
    /// in decision-time order.
    pub rows: Vec<Row>,
    /// The receipts not among the rows, counted by tool, verdict and hour.
    pub omitted: Vec<Aggregate>,
    pub tokens: Vec<Token>,
    pub chains: Vec<Chain>,
    /// Findings not about one receipt (directory checks, tokens, chains, trust annotations
    /// on no row), most serious first (set aside as they come: at 1,000,000 receipts the
    /// directory checks' can be over a hundred megabytes).
    pub findings: FindingList,
    /// The trust annotations of the captures that are on no row (their call has no receipt
    /// in the directories, their request is not captured or is refused) and the captured
    /// frames not read, each reference checked as on a row: every annotation of the
    /// captures is on a row or here.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<CaptureAnnotation>,
    /// Annotations on no row whose every reference verified, beyond those listed: counted.
    #[serde(skip_serializing_if = "is_zero")]
    pub annotations_omitted: u64,
    pub inputs: Vec<Input>,
    pub trust: Trust,
    /// Decisions over time, binned over every receipt (drawn, not part of the JSON model).
    #[serde(skip)]
    pub timeline: Option<Timeline>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One sentence of what happened ([`super::sentences`] builds them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Sentence {
    /// The severity of the findings it says (none: the sentence of a clean report).
    pub severity: Option<Severity>,
    /// The finding codes it says.
    pub codes: Vec<Code>,
    /// How many receipts, files, entries or tokens it is about.
    pub count: u64,
    /// Where the page shows them: a filter of the calls (`#finding=CODE`) or the findings
    /// not about one receipt (`#other-CODE`).
    pub link: String,
    /// The decision time of its example (Unix milliseconds), when it has one.
    pub time: Option<u64>,
    /// The sentence, with values from the evidence (shortened, never escaped: the page
    /// escapes it).
    pub text: String,
}

/// A captured frame's trust annotation (or a frame not read) that is on no row.
#[derive(Debug, Clone, Serialize)]
pub struct CaptureAnnotation {
    pub capture: String,
    #[serde(flatten)]
    pub frame: crate::evidence::checked::CheckedFrame,
    /// Why it is on no row: `no-receipt` (its call is captured and accepted, but no receipt
    /// of the directories is that call's), `request-not-captured`, `request-refused` (the
    /// validation pipeline refuses the request, so no receipt can be bound to it) or
    /// `frame-not-read`.
    pub unjoined: &'static str,
}

/// Turns one audited receipt into a row (before any join). The row holds its exact frame
/// only if `every_frame` or the report keeps it whatever the joins find (a receipt that does
/// not authenticate, an error finding): a good receipt's frame is read again only if it is
/// in the sample ([`Row::attach_frame`]), so memory does not grow with good receipts' frames.
pub fn row_of(entry: &ReceiptEntry, every_frame: bool) -> Row {
    let report = entry.report.as_ref();
    let reported = report.map(|r| &r.reported);
    let verified = report.map(|r| &r.verified);
    let verified_str = |name: &str| {
        verified
            .and_then(|v| v.get(name))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    // Only a receipt whose signature authenticates under the pinned key has a verdict;
    // whatever another says it decided is a claim.
    let authenticated = entry.status == "authenticated";
    let decided = reported.and_then(|r| r.verdict.clone());
    let authorization = reported.and_then(|r| r.authorization.clone());
    let class = match (authenticated, decided.as_deref(), authorization.as_deref()) {
        (false, ..) => "unauthenticated",
        (true, Some("ALLOW"), Some("approval")) => "released",
        (true, Some("ALLOW"), _) => "allow",
        (true, Some("BLOCK"), _) => "block",
        (true, ..) => "unknown",
    };
    let (verdict, claimed_verdict) = if authenticated {
        (decided, None)
    } else {
        (None, decided)
    };
    let subject = match (
        verified_str("framed_subject_sha256"),
        verified
            .and_then(|v| v.get("framed_subject_length"))
            .and_then(Value::as_u64),
    ) {
        (Some(sha256), Some(length)) => Some(Subject { sha256, length }),
        _ => None,
    };
    // Object A is the exact frame only when its digests were recomputed and matched.
    let object_a = subject
        .as_ref()
        .and_then(|_| report.and_then(|r| r.facts.object_a.as_ref()));
    let kept_whatever = entry.status != "authenticated"
        || (entry.file_findings.iter()).any(|f| f.severity == Severity::Error);
    let frame_bytes = object_a.filter(|_| every_frame || kept_whatever).cloned();
    // Join keys come from what sealkit recomputed. A record_version 2 receipt carries no
    // frame to recompute from, so its own (unsigned, and shown as such) values are all
    // there is; any other receipt whose check failed joins nothing by that value.
    let unsigned_v2 = report.is_some_and(|r| r.record_version == Some(2));
    let fallback = |value: Option<&String>| value.filter(|_| unsigned_v2).cloned();
    let target = verified_str("host_target").or_else(|| {
        fallback(reported.and_then(|r| r.safety_certificate_reason.as_ref()))
            .filter(|t| crate::digest::is_sha256_hex(t))
    });
    let (file, file_hex) = crate::path_json::text_and_hex(&entry.file);
    Row {
        file: file.into_owned(),
        file_hex,
        status: entry.status,
        record_version: report.and_then(|r| r.record_version),
        time: reported.and_then(|r| r.now),
        tool: reported.and_then(|r| r.tool.clone()),
        verdict,
        claimed_verdict,
        class,
        severity: None,
        authorization,
        reason: reported.and_then(|r| r.reason.clone()),
        session: reported.and_then(|r| r.session.clone()),
        target,
        subject,
        request_sha256: verified_str("request_sha256")
            .or_else(|| fallback(reported.and_then(|r| r.request_sha256.as_ref()))),
        canonical_request_sha256: verified_str("canonical_request_sha256")
            .or_else(|| fallback(reported.and_then(|r| r.canonical_request_sha256.as_ref()))),
        approval: None,
        approval_statement: report
            .and_then(|r| r.facts.approval_statement.clone())
            .filter(|_| authenticated)
            .map(|statement| Box::new(crate::approval::line_reports::signed_approval(statement))),
        other_approvals: Vec::new(),
        signed_by: entry.signed_by.clone().map(Box::new),
        chain: None,
        frame: FrameJoin {
            status: if object_a.is_some() {
                "object-a"
            } else {
                "unknown"
            },
            capture: None,
        },
        findings: entry.file_findings.clone(),
        details: None,
        frame_bytes,
        annotations: Vec::new(),
        server: report.map(|r| r.facts.server.clone()).unwrap_or_default(),
        seq: 0,
        chain_slot: 0,
    }
}

impl Row {
    /// Whether the row's exact frame is the receipt's object A but was not kept: the caller
    /// reads it again and gives it to [`Row::attach_frame`].
    pub fn wants_frame(&self) -> bool {
        self.frame.status == "object-a" && self.details.is_none()
    }

    /// Gives the row its exact frame, read again from the receipt: taken only if it is the
    /// frame the first reading established (the same SHA-256 and length); analysed under
    /// `server`, else the receipt's own server identity.
    pub fn attach_frame(&mut self, frame: &[u8], server: Option<&str>) -> bool {
        let same = self.subject.as_ref().is_some_and(|subject| {
            subject.length == frame.len() as u64
                && subject.sha256 == crate::digest::sha256_hex(frame)
        });
        if same {
            self.details = Some(Box::new(details_of(frame, server.unwrap_or(&self.server))));
        }
        same
    }
}

/// Analyses the exact frame of every row that holds one (each on its own, so the rows are
/// shared out across the cores), under `--server` when given.
pub fn analyse_frames(rows: &mut [Row], server: Option<&str>) {
    rows.par_iter_mut()
        .for_each(|row| row.analyse_frame(server));
}

impl Row {
    /// Analyses the exact frame the row holds, if any, under `server`, else the receipt's
    /// own server identity.
    pub fn analyse_frame(&mut self, server: Option<&str>) {
        if let Some(bytes) = self.frame_bytes.take() {
            self.details = Some(Box::new(details_of(&bytes, server.unwrap_or(&self.server))));
        }
    }

    /// The row as shown: its findings most serious first (stable: ties keep their order)
    /// and its severity the first one's.
    pub fn settle_findings(&mut self) {
        self.findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
        self.severity = self.findings.first().map(|f| f.severity);
    }

    /// Adds the chain join's finding in its place (see `chain_slot`).
    pub fn add_chain_finding(&mut self, finding: Finding) {
        let at = self.chain_slot.min(self.findings.len());
        self.findings.insert(at, finding);
    }

    /// The key that orders rows: decision time (receipts without one last), then the walk.
    pub fn time_order(&self) -> (bool, Option<u64>, usize) {
        (self.time.is_none(), self.time, self.seq)
    }
}

/// The frame under the one frame pipeline: arguments, `_meta`, identities or a refusal.
fn details_of(frame: &[u8], server: &str) -> Details {
    let options = request::Options {
        server: server.to_owned(),
        ..request::Options::default()
    };
    let mut details = Details {
        frame: std::str::from_utf8(frame).ok().map(str::to_owned),
        frame_length: frame.len() as u64,
        server: server.to_owned(),
        ..Details::default()
    };
    match request::analyze(frame, &options, &mut Session::default()) {
        Verdict::Call(call) => {
            details.arguments = Some(call.canonical_arguments().to_owned());
            details.meta = call
                .meta()
                .entries()
                .map(|(key, value)| (key.to_owned(), value.to_owned()))
                .collect();
            details.identities = Some(call.identities().clone());
        }
        Verdict::Refused(refusal) => {
            details.refused = Some(format!("{}: {}", refusal.code.as_str(), refusal.message));
        }
        Verdict::Skipped(skipped) => {
            details.refused = Some(format!("not a tools/call ({})", skipped.kind.as_str()));
        }
    }
    details
}

pub fn token_findings(tokens: &[Token]) -> Vec<Finding> {
    let mut findings = Vec::new();
    for token in tokens {
        let path = Some(PathBuf::from(&token.file));
        match (token.report.status, &token.report.signed) {
            (TokenStatus::Rejected, _) => findings.push(Finding::new(
                Code::TokenRejected,
                path,
                format!(
                    "line {}: {}",
                    token.report.line,
                    token.report.reason.as_deref().unwrap_or("rejected")
                ),
            )),
            (TokenStatus::Accepted, Some(Signed::Approval(_))) if token.uses == 0 => {
                findings.push(Finding::new(
                    Code::TokenNeverUsed,
                    path,
                    format!(
                        "line {}: token never used: no authenticated approval-authorized ALLOW receipt signs its payload as its approval statement",
                        token.report.line
                    ),
                ))
            }
            _ => {}
        }
    }
    findings
}

pub fn chain_findings(chains: &[Chain]) -> Vec<Finding> {
    let mut findings = Vec::new();
    for chain in chains {
        let path = Some(PathBuf::from(&chain.file));
        if !chain.genesis_ok {
            findings.push(Finding::new(
                Code::ChainBroken,
                path.clone(),
                "the recorded genesis is not seal-verifiable-record/v1's",
            ));
        }
        if let Some(index) = chain.first_bad_entry {
            let bad = chain.entries.iter().filter(|e| !e.head_ok).count();
            findings.push(Finding::new(
                Code::ChainBroken,
                path.clone(),
                format!(
                    "entry {index} is the first of {bad} whose recorded head does not recompute"
                ),
            ));
        }
        for entry in chain.entries.iter().filter(|e| !e.joined) {
            findings.push(Finding::new(
                Code::ChainEntryWithoutReceipt,
                path.clone(),
                format!(
                    "entry {}: no receipt has its request hash {}",
                    entry.index,
                    entry.request_sha256.as_deref().unwrap_or("(none)")
                ),
            ));
        }
    }
    findings
}

/// Reads the fields the join needs from one kernel audit line (the chained payload).
pub fn chain_entry(index: usize, payload: &str, head_ok: bool) -> ChainEntry {
    let parsed: Option<serde_json::Map<String, Value>> = serde_json::from_str(payload).ok();
    let field = |name: &str| {
        parsed
            .as_ref()
            .and_then(|p| p.get(name))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    ChainEntry {
        index,
        request_sha256: field("request_sha256"),
        tool: field("tool"),
        verdict: field("verdict"),
        head_ok,
        joined: false,
        row: None,
    }
}

/// A model with nothing in it, for unit tests of what renders one.
#[cfg(test)]
pub mod tests_support {
    use super::*;

    pub fn empty_model() -> Model {
        Model {
            title: String::new(),
            generated_at: None,
            verdict: Conclusion::default(),
            sentences: Vec::new(),
            summary: Summary::default(),
            rows: Vec::new(),
            omitted: Vec::new(),
            tokens: Vec::new(),
            chains: Vec::new(),
            findings: FindingList::default(),
            annotations: Vec::new(),
            annotations_omitted: 0,
            inputs: Vec::new(),
            trust: Trust::default(),
            timeline: None,
        }
    }

    /// A row of `tool` at `time` of class `class` (`unauthenticated`: status `failed` and
    /// `decided` as its claim; else authenticated with `decided` as its verdict).
    pub fn row(
        file: &str,
        class: &'static str,
        tool: &str,
        time: u64,
        decided: &str,
        findings: Vec<Finding>,
    ) -> Row {
        let authenticated = class != "unauthenticated";
        let mut row = Row {
            file: file.to_owned(),
            file_hex: None,
            status: if authenticated {
                "authenticated"
            } else {
                "failed"
            },
            record_version: Some(3),
            time: Some(time),
            tool: Some(tool.to_owned()),
            verdict: authenticated.then(|| decided.to_owned()),
            claimed_verdict: (!authenticated).then(|| decided.to_owned()),
            class,
            severity: None,
            authorization: None,
            reason: None,
            session: None,
            target: None,
            subject: None,
            request_sha256: None,
            canonical_request_sha256: None,
            approval: None,
            approval_statement: None,
            other_approvals: Vec::new(),
            signed_by: None,
            chain: None,
            frame: FrameJoin {
                status: "unknown",
                capture: None,
            },
            annotations: Vec::new(),
            findings,
            details: None,
            frame_bytes: None,
            server: String::new(),
            seq: 0,
            chain_slot: 0,
        };
        row.settle_findings();
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Scope;

    /// The join codes are exactly the report-join section of the code list, so each man page
    /// lists the codes its command prints.
    #[test]
    fn join_codes_are_the_report_join_section() {
        let joins: Vec<Code> = (Code::ALL.iter().copied())
            .filter(|c| c.scope() == Scope::ReportJoin)
            .collect();
        assert_eq!(joins, JOIN_CODES);
    }
}
