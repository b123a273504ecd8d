//! The joined evidence model of `sealkit report`, built from what the library's own readers
//! and verifiers established (no second parser or verifier): receipts as the directory audit
//! checked them, token lines as seal-host's acceptance pipeline judged them, chain entries as
//! the chain verifier recomputed them, and frames as the frame index split them.
//!
//! Guarantees: every receipt the audit reported is counted, and is one row unless it is a
//! good receipt beyond the sample (`tally`); rows in decision-time order (ties in
//! audit order); only an authenticated receipt has a verdict (any other receipt's decision
//! is a claim, counted apart); a token is "the approval that released" a receipt only when
//! its signed payload is exactly the approval statement the authenticated receipt signs
//! (approver, nonce, `authorized_at`, expiry, target, subject, session, shown text,
//! renderer, key id), and only when it was accepted under a trusted key; other accepted
//! approvals of the same call are listed as such; chain entries are joined by request hash,
//! the n-th receipt of a hash (in time order) to the n-th entry of that hash; captured
//! frames by canonical request hash under the receipt's record version. Whatever cannot be
//! joined is reported as such, never dropped. Values from inputs are kept exactly; rendering
//! escapes them. Nothing here prints or reads files.

pub use super::counts::{Aggregate, Conclusion, Summary, Timeline};
use crate::approval::binding::{freshness, Freshness, Subject};
use crate::approval::line_reports::{LineReport, Signed, SignedApproval, TokenStatus};
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
use std::collections::HashMap;
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
    pub approval: Option<ApprovalJoin>,
    /// The approval statement an authenticated released receipt signs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval_statement: Option<SignedApproval>,
    /// Accepted approvals of the same call (target and exact-frame subject) that are not
    /// the statement this receipt signs: indexes into [`Model::tokens`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_approvals: Vec<usize>,
    /// With a trusted-approvers list: the approver the receipt's signed approval statement
    /// names (the directory audit's attribution).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<crate::approvers::SignedBy>,
    pub chain: Option<ChainJoin>,
    pub frame: FrameJoin,
    /// Trust annotations of captured responses to this receipt's request (same exact-frame
    /// subject), each reference checked by `evidence verify`'s rules.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<crate::evidence::RowAnnotation>,
    /// Receipt, file and join findings about this receipt, most serious first. Findings are
    /// the row's per-request annotations: whatever else is learnt about one request joins
    /// them here.
    pub findings: Vec<Finding>,
    pub details: Option<Details>,
    /// The frame bytes the details come from (kept out of the JSON; `details.frame` has them).
    #[serde(skip)]
    frame_bytes: Option<Vec<u8>>,
    #[serde(skip)]
    server: String,
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
#[derive(Debug, Clone, Serialize)]
pub struct Model {
    pub title: String,
    /// Only with `--timestamp`: the page is otherwise the same bytes for the same inputs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated_at: Option<String>,
    /// What the exit status says, and why: the first thing the page shows.
    pub verdict: Conclusion,
    pub summary: Summary,
    /// Every row with an error finding or without authentication, and a sample of the rest,
    /// in decision-time order.
    pub rows: Vec<Row>,
    /// The receipts not among the rows, counted by tool, verdict and hour.
    pub omitted: Vec<Aggregate>,
    pub tokens: Vec<Token>,
    pub chains: Vec<Chain>,
    /// Findings not about one receipt (directory checks, tokens, chains), most serious first.
    pub findings: Vec<Finding>,
    pub inputs: Vec<Input>,
    pub trust: Trust,
    /// Decisions over time, binned over every receipt (drawn, not part of the JSON model).
    #[serde(skip)]
    pub timeline: Option<Timeline>,
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
    Row {
        file: entry.file.display().to_string(),
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
            .map(crate::approval::line_reports::signed_approval),
        other_approvals: Vec::new(),
        signed_by: entry.signed_by.clone(),
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
            self.details = Some(details_of(frame, server.unwrap_or(&self.server)));
        }
        same
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

/// Joins the evidence into the model: every row, findings most serious first; the counts,
/// the verdict and the sample come after ([`super::build`]).
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
            uses: 0,
            used_by: Vec::new(),
        })
        .collect();
    join_tokens(&mut rows, &mut tokens, trust.ttl_seconds, tokens_given);
    join_chains(&mut rows, &mut chains);
    let frames_captured = frames.as_ref().map_or(0, |f| f.len() as u64);
    let frames_joined = join_frames(&mut rows, frames.as_ref());
    findings.extend(token_findings(&tokens));
    findings.extend(chain_findings(&chains));
    // Most serious first everywhere (stable: ties keep their order).
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    for row in &mut rows {
        row.findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
        row.severity = row.findings.first().map(|f| f.severity);
    }
    Model {
        title,
        generated_at: None,
        verdict: Conclusion::default(),
        summary: Summary {
            frames_captured,
            frames_joined,
            ..Summary::default()
        },
        rows,
        omitted: Vec::new(),
        tokens,
        chains,
        findings,
        inputs,
        trust,
        timeline: None,
    }
}

/// Analyses the exact frame of every row that holds one (each on its own, so the rows are
/// shared out across the cores), under `--server` when given.
pub fn analyse_frames(model: &mut Model) {
    let server = model.trust.server.as_deref();
    model.rows.par_iter_mut().for_each(|row| {
        row.details = row
            .frame_bytes
            .take()
            .map(|bytes| details_of(&bytes, server.unwrap_or(&row.server)));
    });
}

/// Joins each authenticated released receipt to the accepted token whose signed payload is
/// exactly the approval statement the receipt signs. Accepted approvals of the same call
/// that are not that statement are listed on the row as other approvals, never as the one
/// used.
fn join_tokens(rows: &mut [Row], tokens: &mut [Token], ttl_seconds: u64, given: bool) {
    // (target, subject sha256, subject length) → accepted approvals, in file order.
    let mut by_call: HashMap<(&str, &str, u64), Vec<usize>> = HashMap::new();
    for (index, token) in tokens.iter().enumerate() {
        if let (TokenStatus::Accepted, Some(Signed::Approval(signed))) =
            (token.report.status, &token.report.signed)
        {
            by_call
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
        let same_call: &[usize] = match (&row.target, &row.subject) {
            (Some(target), Some(subject)) => by_call
                .get(&(target.as_str(), subject.sha256.as_str(), subject.length))
                .map_or(&[], Vec::as_slice),
            _ => &[],
        };
        let signed_of = |index: usize| match &tokens[index].report.signed {
            Some(Signed::Approval(signed)) => Some(signed),
            _ => None,
        };
        let matching = row.approval_statement.as_ref().and_then(|statement| {
            same_call
                .iter()
                .copied()
                .find(|&i| signed_of(i) == Some(statement))
        });
        row.other_approvals = same_call
            .iter()
            .copied()
            .filter(|&i| Some(i) != matching)
            .collect();
        match matching.and_then(|i| signed_of(i).map(|signed| (i, signed))) {
            Some((index, signed)) => {
                let fresh = row
                    .time
                    .map(|now| freshness(signed.authorized_at, signed.expiry, now, ttl_ms));
                if fresh.is_some_and(|f| f != Freshness::Fresh) {
                    row.findings.push(Finding::new(
                        Code::TokenNotFresh,
                        Some(PathBuf::from(&row.file)),
                        format!(
                            "the matching token ({} line {}) was not fresh at the decision time {}",
                            tokens[index].file,
                            tokens[index].report.line,
                            row.time.unwrap_or_default()
                        ),
                    ));
                }
                row.approval = Some(ApprovalJoin {
                    token: index,
                    file: tokens[index].file.clone(),
                    line: tokens[index].report.line,
                    approver: signed.approver.clone(),
                    signer_key_id: signed.signer_key_id.clone(),
                    authorized_at: signed.authorized_at,
                    expiry: signed.expiry,
                    fresh_when_used: fresh,
                });
                used.push((index, row_index));
            }
            None if given => {
                let signed = match &row.approval_statement {
                    Some(s) => format!(
                        "approver {}, nonce {}, authorized_at {}",
                        s.approver, s.nonce, s.authorized_at
                    ),
                    None => "no statement".to_owned(),
                };
                let others = match row.other_approvals.len() {
                    0 => String::new(),
                    n => format!(
                        "; {n} other approval(s) of the same call are not the one used: {}",
                        row.other_approvals
                            .iter()
                            .map(|&i| format!("{} line {}", tokens[i].file, tokens[i].report.line))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                row.findings.push(Finding::new(
                    Code::ReleasedWithoutToken,
                    Some(PathBuf::from(&row.file)),
                    format!(
                        "released without a matching token: no accepted token is the approval statement this receipt signs ({signed}){others}"
                    ),
                ));
            }
            None => {}
        }
    }
    for (token, row) in used {
        tokens[token].uses += 1;
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
                entry.joined = true;
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
    for chain in chains.iter_mut() {
        chain.length = chain.entries.len() as u64;
        chain.joined = chain.entries.iter().filter(|e| e.joined).count() as u64;
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
                if row.frame.status != "object-a" {
                    row.frame.status = "captured";
                    row.frame_bytes = Some(located.entry.bytes.to_vec());
                }
            }
            None => {
                if row.frame.status != "object-a" {
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
