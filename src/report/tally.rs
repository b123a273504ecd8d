//! What the rows add up to, counted as the receipts stream in: the report's verdict (the
//! same conclusion the exit status gives, with the findings that cause it, most serious
//! first), the summary counts and the timeline's bins. Guarantees: only an authenticated
//! receipt's decision is counted as a verdict (every other decision is counted apart, as a
//! claim); the verdict is `could-not-check` when a finding says something could not be
//! checked (`Code::could_not_check`, whatever else is found, as "could not check" dominates
//! in every exit status), else `problems` exactly when an error finding (or, with
//! `--deny-warnings`, a warning) is in the report (an empty input is the `no-receipts`
//! error, as `audit` says), else `could-not-check` when no receipt was found, else
//! `good`; every receipt is counted in the summary and the timeline whatever
//! order it comes in, holding no more of it than its decision time and lane (9 bytes). The
//! rows a report keeps are [`super::sample`]'s.

use super::counts::{Cause, Conclusion, Summary, Timeline, BINS};
use super::model::{Chain, Row, Token};
use crate::approval::line_reports::{Signed, TokenStatus};
use crate::finding::{Code, Finding, Severity};
use crate::outcome::plural;
use std::collections::BTreeMap;

/// Causes named by the verdict (one per finding code).
const CAUSES: usize = 12;

/// The timeline's lanes, top to bottom: (label, CSS class).
const LANES: [(&str, &str); 7] = [
    ("ALLOW", "allow"),
    ("released", "released"),
    ("BLOCK", "block"),
    ("claims (not authenticated)", "claim"),
    ("approvals", "approval"),
    ("error findings", "error"),
    ("chain breaks", "chainbreak"),
];
/// A timeline point's flags: its decision lane (0 to 3, or none) and an error finding.
const NO_LANE: u8 = 0b111;
const ERROR: u8 = 0b1000;

/// The summary, the verdict's causes and the timeline's points, added up one receipt at a
/// time.
pub struct Tally {
    pub summary: Summary,
    /// Findings at or above this severity make the verdict `problems`.
    threshold: Severity,
    causes: BTreeMap<Code, Candidate>,
    /// Decision times of the receipts that have one, with their [`NO_LANE`] / [`ERROR`]
    /// flags (two vectors: 9 bytes a receipt).
    times: Vec<u64>,
    flags: Vec<u8>,
    /// `authorized_at` of every joined approval.
    approvals: Vec<u64>,
    /// Decision times of receipts whose chain entry's head does not recompute.
    chain_breaks: Vec<u64>,
}

/// One finding code behind the verdict, while the receipts come in.
struct Candidate {
    severity: Severity,
    count: u64,
    /// Rows carrying the code: a row's findings come together (a late chain finding is the
    /// only one of its code on its row), so a row is counted when it differs from the last.
    rows: u64,
    last_row: Option<usize>,
    /// The first such finding of the earliest row with a decision time: (time, walk
    /// position, finding).
    timed: Option<(u64, usize, Finding)>,
    /// Else the first of the earliest row in the walk without one.
    untimed: Option<(usize, Finding)>,
    /// Else the first finding not about one receipt (in the order the report lists them).
    other: Option<Finding>,
}

impl Tally {
    pub fn new(deny_warnings: bool) -> Self {
        Tally {
            summary: Summary::default(),
            threshold: if deny_warnings {
                Severity::Warning
            } else {
                Severity::Error
            },
            causes: BTreeMap::new(),
            times: Vec::new(),
            flags: Vec::new(),
            approvals: Vec::new(),
            chain_breaks: Vec::new(),
        }
    }

    /// Counts one receipt's row: its status, its decision (a verdict only when
    /// authenticated), its findings so far and its timeline point.
    pub fn row(&mut self, row: &Row) {
        let summary = &mut self.summary;
        summary.receipts += 1;
        *summary.statuses.entry(row.status).or_default() += 1;
        match &row.claimed_verdict {
            Some(claim) => *summary.claims.entry(claim.clone()).or_default() += 1,
            None if row.class == "unauthenticated" => {}
            None => *summary.verdicts.entry(row.class).or_default() += 1,
        }
        summary.frames_not_captured += u64::from(row.frame.status == "not-captured");
        for finding in &row.findings {
            self.row_finding(finding, row.time, row.seq);
        }
        if let Some(time) = row.time {
            let lane = match row.class {
                "allow" => 0,
                "released" => 1,
                "block" => 2,
                "unauthenticated" => 3,
                _ => NO_LANE,
            };
            let error = row.findings.iter().any(|f| f.severity == Severity::Error);
            self.times.push(time);
            self.flags.push(lane | if error { ERROR } else { 0 });
        }
        if let Some(approval) = &row.approval {
            self.approvals.push(approval.authorized_at);
        }
    }

    /// Counts a finding about the receipt at walk position `seq` with decision time `time`.
    pub fn row_finding(&mut self, finding: &Finding, time: Option<u64>, seq: usize) {
        self.count(finding);
        if let Some(candidate) = self.candidate(finding) {
            if candidate.last_row != Some(seq) {
                candidate.rows += 1;
                candidate.last_row = Some(seq);
            }
            match time {
                Some(time) => {
                    if candidate
                        .timed
                        .as_ref()
                        .is_none_or(|(t, s, _)| (time, seq) < (*t, *s))
                    {
                        candidate.timed = Some((time, seq, finding.clone()));
                    }
                }
                None => {
                    if candidate.untimed.as_ref().is_none_or(|(s, _)| seq < *s) {
                        candidate.untimed = Some((seq, finding.clone()));
                    }
                }
            }
        }
    }

    /// Counts a finding not about one receipt; these come in the order the report lists them.
    pub fn other_finding(&mut self, finding: &Finding) {
        self.count(finding);
        if let Some(candidate) = self.candidate(finding) {
            candidate.other.get_or_insert_with(|| finding.clone());
        }
    }

    /// A receipt whose chain entry's head does not recompute, at its decision time.
    pub fn chain_break(&mut self, time: Option<u64>) {
        self.chain_breaks.extend(time);
    }

    fn count(&mut self, finding: &Finding) {
        let summary = &mut self.summary;
        *summary
            .findings_by_severity
            .entry(finding.severity.as_str())
            .or_default() += 1;
        *summary.findings_by_code.entry(finding.code).or_default() += 1;
        summary.released_without_token += u64::from(finding.code == Code::ReleasedWithoutToken);
    }

    fn candidate(&mut self, finding: &Finding) -> Option<&mut Candidate> {
        if finding.severity < self.threshold && !finding.code.could_not_check() {
            return None;
        }
        let candidate = self
            .causes
            .entry(finding.code)
            .or_insert_with(|| Candidate {
                severity: finding.severity,
                count: 0,
                rows: 0,
                last_row: None,
                timed: None,
                untimed: None,
                other: None,
            });
        candidate.count += 1;
        Some(candidate)
    }

    /// The summary (with the tokens' and chains' counts), the verdict and the timeline.
    pub fn conclude(
        mut self,
        tokens: &[Token],
        chains: &[Chain],
        frames: (u64, u64),
    ) -> (Summary, Conclusion, Option<Timeline>) {
        let summary = &mut self.summary;
        (summary.frames_captured, summary.frames_joined) = frames;
        for token in tokens {
            match token.report.status {
                TokenStatus::Accepted => summary.tokens_accepted += 1,
                TokenStatus::Rejected => summary.tokens_rejected += 1,
            }
            if matches!(token.report.signed, Some(Signed::Approval(_))) {
                if token.uses == 0 {
                    summary.tokens_never_used +=
                        u64::from(token.report.status == TokenStatus::Accepted);
                } else {
                    summary.tokens_used += 1;
                }
            }
        }
        for chain in chains {
            summary.chain_entries += chain.length;
            summary.chain_entries_joined += chain.joined;
            summary.chain_breaks += u64::from(!chain.intact);
        }
        let verdict = verdict(&self.summary, std::mem::take(&mut self.causes));
        let timeline = self.timeline();
        (self.summary, verdict, timeline)
    }

    /// The timeline's bins over every receipt: one lane per verdict, claims of receipts that
    /// do not authenticate in their own lane, approvals at their `authorized_at`, receipts
    /// with error findings and chain entries whose head does not recompute.
    fn timeline(&self) -> Option<Timeline> {
        // Long pauses are compressed (`time_axis`), so bursts keep their width.
        let axis =
            super::time_axis::Axis::new(|| self.times.iter().chain(&self.approvals).copied())?;
        let bin = |t: u64| axis.slot(t);
        let mut counts = vec![vec![0u64; BINS]; LANES.len()];
        for (&time, &flags) in self.times.iter().zip(&self.flags) {
            let lane = usize::from(flags & NO_LANE);
            if lane < 4 {
                counts[lane][bin(time)] += 1;
            }
            if flags & ERROR != 0 {
                counts[5][bin(time)] += 1;
            }
        }
        for &time in &self.approvals {
            counts[4][bin(time)] += 1;
        }
        for &time in &self.chain_breaks {
            counts[6][bin(time)] += 1;
        }
        Some(Timeline {
            start: axis.start(),
            end: axis.end(),
            axis,
            lanes: LANES
                .iter()
                .zip(counts)
                .map(|(&(label, class), counts)| (label, class, counts))
                .collect(),
        })
    }
}

/// The verdict the exit status gives, and the findings it rests on: one cause per code,
/// its example the first such finding of the earliest row (rows with a decision time
/// first), else the first not about one receipt.
fn verdict(summary: &Summary, candidates: BTreeMap<Code, Candidate>) -> Conclusion {
    let severity = |name: &str| summary.findings_by_severity.get(name).copied().unwrap_or(0);
    let (errors, warnings) = (severity("error"), severity("warning"));
    let authenticated = summary.statuses.get("authenticated").copied().unwrap_or(0);
    let mut causes: Vec<Cause> = candidates
        .into_iter()
        .filter_map(|(code, c)| {
            let (first_time, example) = match (c.timed, c.untimed, c.other) {
                (Some((time, _, finding)), ..) => (Some(time), finding),
                (None, Some((_, finding)), _) => (None, finding),
                (None, None, Some(finding)) => (None, finding),
                (None, None, None) => return None,
            };
            Some(Cause {
                code,
                severity: c.severity,
                count: c.count,
                rows: c.rows,
                first_time,
                example,
            })
        })
        .collect();
    causes.sort_by_key(|c| {
        (
            std::cmp::Reverse(c.severity),
            c.first_time.is_none(),
            c.first_time,
            c.code,
        )
    });
    let unchecked: u64 = (causes.iter())
        .filter(|c| c.code.could_not_check())
        .map(|c| c.count)
        .sum();
    causes.truncate(CAUSES);
    let receipts = summary.receipts;
    // A pinned key found inside the evidence authenticates nothing independent: the verdict
    // line says so itself.
    let mut under = if summary
        .findings_by_code
        .contains_key(&Code::ReceiptKeyInEvidence)
    {
        format!(" {}", crate::receipt::pin::UNDER_KEY_IN_EVIDENCE)
    } else {
        String::new()
    };
    // So does an approval key or trusted-approvers list found there, of the approvals.
    if summary
        .findings_by_code
        .contains_key(&Code::ApprovalKeyInEvidence)
    {
        under.push_str(&format!(
            "; approvals accepted {}",
            crate::receipt::pin::UNDER_APPROVAL_KEY_IN_EVIDENCE
        ));
    }
    let (outcome, headline) = if unchecked > 0 {
        // What could not be checked comes first: the report cannot say the evidence holds.
        (
            "could-not-check",
            format!(
                "{unchecked} finding{} of a trust-annotation reference or captured frame that could not be checked; {errors} error finding{}; {authenticated} of {receipts} receipt{} authenticated{under}.",
                plural(unchecked),
                plural(errors),
                plural(receipts)
            ),
        )
    } else if !causes.is_empty() {
        let what = if errors > 0 {
            format!(
                "{errors} error finding{}",
                if errors == 1 { "" } else { "s" }
            )
        } else {
            format!("{warnings} warning{} (--deny-warnings)", plural(warnings))
        };
        (
            "problems",
            format!(
                "{what}; {authenticated} of {receipts} receipt{} authenticated{under}.",
                plural(receipts)
            ),
        )
    } else if receipts == 0 {
        (
            "could-not-check",
            "No receipt was found in the given directories: nothing was checked.".to_owned(),
        )
    } else {
        (
            "good",
            format!(
                "All {receipts} receipt{} authenticated{under}; no error finding ({warnings} warning{}).",
                plural(receipts),
                plural(warnings)
            ),
        )
    };
    Conclusion {
        outcome,
        headline,
        receipts,
        authenticated,
        not_authenticated: receipts - authenticated,
        errors,
        warnings,
        causes,
    }
}
