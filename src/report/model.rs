//! The joined evidence model of `sealkit report`, built from what the library's own readers
//! and verifiers established (no second parser or verifier): receipts as the directory audit
//! checked them, token lines as seal-host's acceptance pipeline judged them, chain entries as
//! the chain verifier recomputed them, and frames as the frame index split them.
//!
//! Guarantees: every receipt the audit reported is one row, rows in decision-time order
//! (ties in audit order); a token is joined only to an approval-authorized ALLOW receipt with
//! the same target and the same exact-frame subject (SHA-256 and length), and only when the
//! token was accepted under a trusted key; chain entries are joined by request hash, the n-th
//! receipt of a hash (in time order) to the n-th entry of that hash; captured frames by
//! canonical request hash under the receipt's record version. Whatever cannot be joined is
//! reported as such, never dropped. Values from inputs are kept exactly; rendering escapes
//! them. Nothing here prints or reads files.

use crate::approval::binding::{freshness, Freshness, Subject};
use crate::approval::line_reports::{LineReport, Signed, TokenStatus};
use crate::audit::ReceiptEntry;
use crate::finding::{Code, Finding, Severity};
use crate::identity::Identities;
use crate::migrate::frames::FrameIndex;
use crate::migrate::{FrameRef, Link};
use crate::receipt::recompute;
use crate::request::{self, Session, Verdict};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
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
    /// The row this entry was joined to.
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
    pub capture: Option<FrameRef>,
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
    /// `authenticated`, `unpinned`, `unsigned`, `failed` or `unreadable`.
    pub status: &'static str,
    pub record_version: Option<u64>,
    /// The decision time (`now`, Unix milliseconds) the receipt reports.
    pub time: Option<u64>,
    pub tool: Option<String>,
    /// `ALLOW` / `BLOCK` as the receipt reports it.
    pub verdict: Option<String>,
    /// `allow`, `block`, `released` (an approval-authorized ALLOW) or `unknown`.
    pub class: &'static str,
    pub authorization: Option<String>,
    pub reason: Option<String>,
    pub session: Option<String>,
    /// The host-profile target sealkit recomputed (else the one the receipt reports).
    pub target: Option<String>,
    pub subject: Option<Subject>,
    pub request_sha256: Option<String>,
    pub canonical_request_sha256: Option<String>,
    pub approval: Option<ApprovalJoin>,
    /// With a trusted-approvers list: the approver the receipt's signed approval statement
    /// names (the directory audit's attribution).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<crate::approvers::SignedBy>,
    pub chain: Option<ChainJoin>,
    pub frame: FrameJoin,
    /// Receipt, file and join findings about this receipt.
    pub findings: Vec<Finding>,
    pub details: Option<Details>,
    /// The frame bytes the details come from (kept out of the JSON; `details.frame` has them).
    #[serde(skip)]
    frame_bytes: Option<Vec<u8>>,
    #[serde(skip)]
    server: String,
}

/// Counts for the summary.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub receipts: u64,
    pub statuses: BTreeMap<&'static str, u64>,
    /// By [`Row::class`].
    pub verdicts: BTreeMap<&'static str, u64>,
    pub findings_by_severity: BTreeMap<&'static str, u64>,
    pub findings_by_code: BTreeMap<String, u64>,
    pub tokens_accepted: u64,
    pub tokens_rejected: u64,
    pub tokens_used: u64,
    pub tokens_never_used: u64,
    pub released_without_token: u64,
    pub chain_entries: u64,
    pub chain_entries_joined: u64,
    pub chain_breaks: u64,
    pub frames_captured: u64,
    pub frames_joined: u64,
    pub frames_not_captured: u64,
}

/// A token line in the model.
#[derive(Debug, Clone, Serialize)]
pub struct Token {
    pub file: String,
    #[serde(flatten)]
    pub report: LineReport,
    /// Rows this token authorised.
    pub used_by: Vec<usize>,
}

/// Everything the page shows.
#[derive(Debug, Clone, Serialize)]
pub struct Model {
    pub title: String,
    /// Only with `--timestamp`: the page is otherwise the same bytes for the same inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated_at: Option<String>,
    pub inputs: Vec<Input>,
    pub trust: Trust,
    pub summary: Summary,
    pub rows: Vec<Row>,
    pub tokens: Vec<Token>,
    pub chains: Vec<Chain>,
    /// Findings not about one receipt: directory checks, tokens, chains.
    pub findings: Vec<Finding>,
}

impl Model {
    /// The worst severity anywhere in the report.
    pub fn worst(&self) -> Option<Severity> {
        self.rows
            .iter()
            .flat_map(|r| &r.findings)
            .chain(&self.findings)
            .map(|f| f.severity)
            .max()
    }
}

/// Turns one audited receipt into a row (before any join).
pub fn row_of(entry: &ReceiptEntry) -> Row {
    let report = entry.report.as_ref();
    let reported = report.map(|r| &r.reported);
    let verified = report.map(|r| &r.verified);
    let verified_str = |name: &str| {
        verified
            .and_then(|v| v.get(name))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let verdict = reported.and_then(|r| r.verdict.clone());
    let authorization = reported.and_then(|r| r.authorization.clone());
    let class = match (verdict.as_deref(), authorization.as_deref()) {
        (Some("ALLOW"), Some("approval")) => "released",
        (Some("ALLOW"), _) => "allow",
        (Some("BLOCK"), _) => "block",
        _ => "unknown",
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
    let frame_bytes = subject
        .as_ref()
        .and_then(|_| report.and_then(|r| r.facts.object_a.clone()));
    // Join keys come from what sealkit recomputed. A record_version 2 receipt carries no
    // frame to recompute from, so its own (unsigned, and shown as such) values are all
    // there is; any other receipt whose check failed joins nothing by that value.
    let unsigned_v2 = report.is_some_and(|r| r.record_version == Some(2));
    let fallback = |value: Option<&String>| value.filter(|_| unsigned_v2).cloned();
    let target = verified_str("host_target").or_else(|| {
        fallback(reported.and_then(|r| r.safety_certificate_reason.as_ref()))
            .filter(|t| crate::digest::is_sha256_hex(t))
    });
    Row {
        file: entry.file.display().to_string(),
        status: entry.status,
        record_version: report.and_then(|r| r.record_version),
        time: reported.and_then(|r| r.now),
        tool: reported.and_then(|r| r.tool.clone()),
        verdict,
        class,
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
        signed_by: entry.signed_by.clone(),
        chain: None,
        frame: FrameJoin {
            status: if frame_bytes.is_some() {
                "object-a"
            } else {
                "unknown"
            },
            capture: None,
        },
        findings: entry.file_findings.clone(),
        details: None,
        frame_bytes,
        server: report.map(|r| r.facts.server.clone()).unwrap_or_default(),
    }
}

/// Everything gathered from the inputs, ready to join.
#[derive(Debug, Default)]
pub struct Evidence {
    pub title: String,
    pub inputs: Vec<Input>,
    pub trust: Trust,
    pub rows: Vec<Row>,
    /// `None`: no token file was given.
    pub tokens: Option<Vec<TokenEvidence>>,
    pub chains: Vec<Chain>,
    /// `None`: no capture was given.
    pub frames: Option<FrameIndex>,
    /// Directory-level audit findings.
    pub findings: Vec<Finding>,
}

/// Joins the evidence into the model.
pub fn join(evidence: Evidence) -> Model {
    let Evidence {
        title,
        inputs,
        trust,
        mut rows,
        tokens,
        mut chains,
        frames,
        mut findings,
    } = evidence;
    // Calls in decision-time order (receipts without a time last), ties in audit order.
    rows.sort_by_key(|r| (r.time.is_none(), r.time));
    let tokens_given = tokens.is_some();
    let mut tokens: Vec<Token> = tokens
        .unwrap_or_default()
        .into_iter()
        .map(|t| Token {
            file: t.file,
            report: t.report,
            used_by: Vec::new(),
        })
        .collect();
    join_tokens(&mut rows, &mut tokens, trust.ttl_seconds, tokens_given);
    join_chains(&mut rows, &mut chains);
    let frames_captured = frames.as_ref().map_or(0, |f| f.len() as u64);
    let frames_joined = join_frames(&mut rows, frames.as_ref());
    // Each row's frame is analysed on its own, so the rows are shared out across the cores.
    rows.par_iter_mut().for_each(|row| {
        row.details = row
            .frame_bytes
            .take()
            .map(|bytes| details_of(&bytes, trust.server.as_deref().unwrap_or(&row.server)));
    });
    findings.extend(token_findings(&tokens));
    findings.extend(chain_findings(&chains));
    let summary = summarize(
        &rows,
        &tokens,
        &chains,
        &findings,
        frames_captured,
        frames_joined,
    );
    Model {
        title,
        generated_at: None,
        inputs,
        trust,
        summary,
        rows,
        tokens,
        chains,
        findings,
    }
}

fn join_tokens(rows: &mut [Row], tokens: &mut [Token], ttl_seconds: u64, given: bool) {
    // (target, subject sha256, subject length) → accepted approvals, in file order.
    let mut by_binding: HashMap<(&str, &str, u64), Vec<usize>> = HashMap::new();
    for (index, token) in tokens.iter().enumerate() {
        if let (TokenStatus::Accepted, Some(Signed::Approval(signed))) =
            (token.report.status, &token.report.signed)
        {
            by_binding
                .entry((
                    &signed.target,
                    &signed.subject.sha256,
                    signed.subject.length,
                ))
                .or_default()
                .push(index);
        }
    }
    let ttl_ms = crate::approval::effective_ttl_ms(ttl_seconds);
    let mut used: Vec<(usize, usize)> = Vec::new();
    for (row_index, row) in rows.iter_mut().enumerate() {
        if row.class != "released" {
            continue;
        }
        let candidates = match (&row.target, &row.subject) {
            (Some(target), Some(subject)) => by_binding
                .get(&(target.as_str(), subject.sha256.as_str(), subject.length))
                .map(Vec::as_slice)
                .unwrap_or_default(),
            _ => &[],
        };
        let fresh_at = |index: &usize| -> Option<Freshness> {
            let Some(Signed::Approval(signed)) = &tokens[*index].report.signed else {
                return None;
            };
            row.time
                .map(|now| freshness(signed.authorized_at, signed.expiry, now, ttl_ms))
        };
        // The token that was fresh when the receipt was decided, else the first that binds.
        let chosen = candidates
            .iter()
            .find(|i| fresh_at(i) == Some(Freshness::Fresh))
            .or_else(|| candidates.first());
        match chosen {
            Some(&index) => {
                let report = &tokens[index].report;
                if let Some(Signed::Approval(signed)) = &report.signed {
                    let fresh = fresh_at(&index);
                    if fresh.is_some_and(|f| f != Freshness::Fresh) {
                        row.findings.push(Finding::new(
                            Code::TokenNotFresh,
                            Some(PathBuf::from(&row.file)),
                            format!(
                                "the matching token ({} line {}) was not fresh at the decision time {}",
                                tokens[index].file,
                                report.line,
                                row.time.unwrap_or_default()
                            ),
                        ));
                    }
                    row.approval = Some(ApprovalJoin {
                        token: index,
                        file: tokens[index].file.clone(),
                        line: report.line,
                        approver: signed.approver.clone(),
                        signer_key_id: signed.signer_key_id.clone(),
                        authorized_at: signed.authorized_at,
                        expiry: signed.expiry,
                        fresh_when_used: fresh,
                    });
                    used.push((index, row_index));
                }
            }
            None if given => row.findings.push(Finding::new(
                Code::ReleasedWithoutToken,
                Some(PathBuf::from(&row.file)),
                "released without a matching token: no accepted token names this receipt's target and exact-frame subject",
            )),
            None => {}
        }
    }
    for (token, row) in used {
        tokens[token].used_by.push(row);
    }
}

fn join_chains(rows: &mut [Row], chains: &mut [Chain]) {
    // Receipts of one request hash in decision-time order, consumed in chain order.
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| (rows[i].time, i));
    let mut waiting: HashMap<String, std::collections::VecDeque<usize>> = HashMap::new();
    for i in order {
        if let Some(hash) = &rows[i].request_sha256 {
            waiting.entry(hash.clone()).or_default().push_back(i);
        }
    }
    for chain in chains.iter_mut() {
        let mut queues = waiting.clone();
        for entry in &mut chain.entries {
            let Some(hash) = &entry.request_sha256 else {
                continue;
            };
            // A row already joined to an earlier chain file keeps its first join.
            if let Some(row) = queues.get_mut(hash).and_then(|q| q.pop_front()) {
                entry.row = Some(row);
                if rows[row].chain.is_none() {
                    rows[row].chain = Some(ChainJoin {
                        file: chain.file.clone(),
                        entry: entry.index,
                        head_ok: entry.head_ok,
                    });
                }
            }
        }
    }
    if chains.is_empty() {
        return;
    }
    for row in rows.iter_mut().filter(|r| r.chain.is_none()) {
        let message = if row.request_sha256.is_some() {
            "no entry of the given chains has this receipt's request hash"
        } else {
            "the receipt's request hash could not be established, so no chain entry joins it"
        };
        row.findings.push(Finding::new(
            Code::ReceiptNotInChain,
            Some(PathBuf::from(&row.file)),
            message,
        ));
    }
}

fn join_frames(rows: &mut [Row], frames: Option<&FrameIndex>) -> u64 {
    let Some(index) = frames else {
        return 0;
    };
    let mut joined = std::collections::HashSet::new();
    for row in rows.iter_mut() {
        let rule = if row.record_version == Some(2) {
            recompute::V2
        } else {
            recompute::V3
        };
        let found = row
            .canonical_request_sha256
            .as_deref()
            .and_then(|hash| index.by_canonical(hash, rule));
        match found {
            Some(located) => {
                joined.insert(located.position);
                row.frame.capture =
                    Some(index.reference(located.entry, Link::CanonicalRequestSha256));
                if row.frame_bytes.is_none() {
                    row.frame.status = "captured";
                    row.frame_bytes = Some(located.entry.bytes.to_vec());
                }
            }
            None => {
                if row.frame_bytes.is_none() {
                    row.frame.status = "not-captured";
                }
                let message = if row.canonical_request_sha256.is_some() {
                    "no captured frame has this receipt's canonical request hash"
                } else {
                    "the receipt's canonical request hash could not be established, so no captured frame joins it"
                };
                row.findings.push(Finding::new(
                    Code::FrameNotCaptured,
                    Some(PathBuf::from(&row.file)),
                    message,
                ));
            }
        }
    }
    joined.len() as u64
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
            details.arguments = Some(call.canonical_arguments.clone());
            if let request::MetaState::Present { entries, .. } = &call.meta {
                details.meta = entries.clone();
            }
            details.identities = Some(call.identities.clone());
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

fn token_findings(tokens: &[Token]) -> Vec<Finding> {
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
            (TokenStatus::Accepted, Some(Signed::Approval(_))) if token.used_by.is_empty() => {
                findings.push(Finding::new(
                    Code::TokenNeverUsed,
                    path,
                    format!(
                        "line {}: token never used: no approval-authorized ALLOW receipt has its target and exact-frame subject",
                        token.report.line
                    ),
                ))
            }
            _ => {}
        }
    }
    findings
}

fn chain_findings(chains: &[Chain]) -> Vec<Finding> {
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
        for entry in chain.entries.iter().filter(|e| e.row.is_none()) {
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

fn summarize(
    rows: &[Row],
    tokens: &[Token],
    chains: &[Chain],
    findings: &[Finding],
    frames_captured: u64,
    frames_joined: u64,
) -> Summary {
    let mut summary = Summary {
        receipts: rows.len() as u64,
        frames_captured,
        frames_joined,
        ..Summary::default()
    };
    for row in rows {
        *summary.statuses.entry(row.status).or_default() += 1;
        *summary.verdicts.entry(row.class).or_default() += 1;
        summary.frames_not_captured += u64::from(row.frame.status == "not-captured");
    }
    for finding in rows.iter().flat_map(|r| &r.findings).chain(findings) {
        *summary
            .findings_by_severity
            .entry(finding.severity.as_str())
            .or_default() += 1;
        *summary
            .findings_by_code
            .entry(finding.code.to_string())
            .or_default() += 1;
        summary.released_without_token += u64::from(finding.code == Code::ReleasedWithoutToken);
    }
    for token in tokens {
        match token.report.status {
            TokenStatus::Accepted => summary.tokens_accepted += 1,
            TokenStatus::Rejected => summary.tokens_rejected += 1,
        }
        if matches!(token.report.signed, Some(Signed::Approval(_))) {
            if token.used_by.is_empty() {
                summary.tokens_never_used +=
                    u64::from(token.report.status == TokenStatus::Accepted);
            } else {
                summary.tokens_used += 1;
            }
        }
    }
    for chain in chains {
        summary.chain_entries += chain.entries.len() as u64;
        summary.chain_entries_joined +=
            chain.entries.iter().filter(|e| e.row.is_some()).count() as u64;
        summary.chain_breaks += u64::from(!chain.intact);
    }
    summary
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
        row: None,
    }
}
