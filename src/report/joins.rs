//! The joins of one receipt's row against the inputs read before the receipts: tokens and
//! captured frames, each decided from the row alone, so the report joins every receipt as
//! the audit streams it (the chain join, which needs the receipts of a request hash in time
//! order, is [`super::chain_order`]). Guarantees: a token is "the approval that released" a
//! receipt only when its signed payload is exactly the approval statement the authenticated
//! receipt signs and it was accepted under a trusted key; other accepted approvals of the
//! same call (target and exact-frame subject) are listed as such, never as the one used;
//! captured frames join by canonical request hash under the receipt's record version.
//! Whatever cannot be joined is a finding on the row. Nothing here prints or reads files.

use super::model::{ApprovalJoin, Row, Token, TokenEvidence};
use crate::approval::binding::{freshness, Freshness};
use crate::approval::line_reports::{Signed, TokenStatus};
use crate::finding::{Code, Finding};
use crate::migrate::frames::FrameIndex;
use crate::migrate::Link;
use crate::receipt::recompute;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// The token lines as judged, with their accepted approvals by call.
pub struct TokenIndex {
    pub tokens: Vec<Token>,
    /// (target, subject sha256, subject length) → accepted approvals, in file order.
    by_call: HashMap<(String, String, u64), Vec<usize>>,
    ttl_ms: u64,
    /// Whether token files were given (else a release without a token is not a finding).
    given: bool,
}

impl TokenIndex {
    pub fn new(tokens: Option<Vec<TokenEvidence>>, ttl_seconds: u64) -> Self {
        let given = tokens.is_some();
        let tokens: Vec<Token> = (tokens.unwrap_or_default().into_iter())
            .map(|t| Token {
                file: t.file,
                report: t.report,
                uses: 0,
                used_by: Vec::new(),
            })
            .collect();
        let mut by_call: HashMap<(String, String, u64), Vec<usize>> = HashMap::new();
        for (index, token) in tokens.iter().enumerate() {
            if let (TokenStatus::Accepted, Some(Signed::Approval(signed))) =
                (token.report.status, &token.report.signed)
            {
                by_call
                    .entry((
                        signed.target.clone(),
                        signed.subject.sha256.clone(),
                        signed.subject.length,
                    ))
                    .or_default()
                    .push(index);
            }
        }
        TokenIndex {
            tokens,
            by_call,
            ttl_ms: crate::approval::effective_ttl_ms(ttl_seconds),
            given,
        }
    }

    /// Joins an authenticated released receipt to the accepted token whose signed payload is
    /// exactly the approval statement it signs (counting the token's use); accepted
    /// approvals of the same call that are not that statement are listed on the row.
    pub fn join(&mut self, row: &mut Row) {
        if row.class != "released" {
            return;
        }
        let tokens = &self.tokens;
        let same_call: &[usize] = match (&row.target, &row.subject) {
            (Some(target), Some(subject)) => self
                .by_call
                .get(&(target.clone(), subject.sha256.clone(), subject.length))
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
                    .map(|now| freshness(signed.authorized_at, signed.expiry, now, self.ttl_ms));
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
                row.approval = Some(Box::new(ApprovalJoin {
                    token: index,
                    file: tokens[index].file.clone(),
                    line: tokens[index].report.line,
                    approver: signed.approver.clone(),
                    signer_key_id: signed.signer_key_id.clone(),
                    authorized_at: signed.authorized_at,
                    expiry: signed.expiry,
                    fresh_when_used: fresh,
                }));
                self.tokens[index].uses += 1;
            }
            None if self.given => {
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

    /// Each token's rows among `rows` (the rows the report keeps, in their order).
    pub fn list_users(&mut self, rows: &[Row]) {
        for (position, row) in rows.iter().enumerate() {
            if let Some(approval) = &row.approval {
                self.tokens[approval.token].used_by.push(position);
            }
        }
    }
}

/// The captured frames, and which of them a receipt joined.
pub struct FrameJoins {
    pub index: Option<FrameIndex>,
    joined: HashSet<u32>,
}

impl FrameJoins {
    pub fn new(index: Option<FrameIndex>) -> Self {
        FrameJoins {
            index,
            joined: HashSet::new(),
        }
    }

    /// Frames captured, and how many distinct ones a receipt joined.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.index.as_ref().map_or(0, |f| f.len() as u64),
            self.joined.len() as u64,
        )
    }

    /// Joins the row to the captured frame with its canonical request hash (under its record
    /// version's rule); when that frame is the row's only one, the row takes its bytes if
    /// `take_bytes` (else [`FrameJoins::attach_bytes`] gives them to the rows kept).
    pub fn join(&mut self, row: &mut Row, take_bytes: bool) {
        let Some(index) = &self.index else {
            return;
        };
        match lookup(index, row) {
            Some(located) => {
                self.joined.insert(located.position);
                row.frame.capture = Some(Box::new(
                    index.reference(located.entry, Link::CanonicalRequestSha256),
                ));
                if row.frame.status != "object-a" {
                    row.frame.status = "captured";
                    if take_bytes {
                        row.frame_bytes = Some(located.entry.bytes.to_vec());
                    }
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

    /// Gives a kept row whose frame is a captured one the frame's bytes.
    pub fn attach_bytes(&self, row: &mut Row) {
        if row.frame.status != "captured" || row.frame_bytes.is_some() {
            return;
        }
        if let Some(located) = self.index.as_ref().and_then(|index| lookup(index, row)) {
            row.frame_bytes = Some(located.entry.bytes.to_vec());
        }
    }
}

fn lookup<'i>(index: &'i FrameIndex, row: &Row) -> Option<crate::migrate::frames::Located<'i>> {
    let rule = if row.record_version == Some(2) {
        recompute::V2
    } else {
        recompute::V3
    };
    row.canonical_request_sha256
        .as_deref()
        .and_then(|hash| index.by_canonical(hash, rule))
}
