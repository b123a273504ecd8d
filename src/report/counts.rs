//! What a report adds up to, as data: the verdict (the exit status's conclusion and the
//! findings it rests on), the summary counts, the receipts counted but not listed, and the
//! timeline's bins. [`super::tally`] computes them from the joined rows; nothing here
//! computes or prints.

use crate::finding::{Code, Finding, Severity};
use crate::outcome::Outcome;
use serde::Serialize;
use std::collections::BTreeMap;

/// Time bins of the timeline (its drawing has the same size for ten receipts or a million).
pub use super::time_axis::BINS;

/// Counts for the summary.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub receipts: u64,
    pub statuses: BTreeMap<&'static str, u64>,
    /// Decisions of authenticated receipts, by [`Row::class`].
    pub verdicts: BTreeMap<&'static str, u64>,
    /// Decisions that receipts which do not authenticate claim (`ALLOW`, `BLOCK`): never
    /// verdicts.
    pub claims: BTreeMap<String, u64>,
    pub findings_by_severity: BTreeMap<&'static str, u64>,
    pub findings_by_code: BTreeMap<Code, u64>,
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
    /// Receipts counted here but not among the rows (good receipts beyond the sample).
    pub rows_omitted: u64,
}

/// The report's conclusion, as the exit status gives it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Conclusion {
    /// `good` (exit 0), `problems` (exit 1) or `could-not-check` (exit 2).
    pub outcome: &'static str,
    /// One sentence saying what the outcome rests on.
    pub headline: String,
    pub receipts: u64,
    pub authenticated: u64,
    pub not_authenticated: u64,
    pub errors: u64,
    pub warnings: u64,
    /// The findings that make the outcome `problems`, one per code, most serious first,
    /// then earliest.
    pub causes: Vec<Cause>,
}

impl Conclusion {
    /// The verdict in words, as the page's first heading says it.
    pub fn title(&self) -> &'static str {
        self.exit().title()
    }

    /// The exit status's outcome.
    pub fn exit(&self) -> Outcome {
        match self.outcome {
            "good" => Outcome::Good,
            "problems" => Outcome::Problems,
            _ => Outcome::Unchecked,
        }
    }
}

/// One finding code behind a `problems` verdict.
#[derive(Debug, Clone, Serialize)]
pub struct Cause {
    pub code: Code,
    pub severity: Severity,
    /// How many findings have this code.
    pub count: u64,
    /// How many rows carry it (0: it is about a directory, a token file or a chain).
    pub rows: u64,
    /// The decision time of the earliest row carrying it.
    pub first_time: Option<u64>,
    /// The first finding with this code, in the order above.
    pub example: Finding,
}

/// Good receipts not kept as rows, counted by tool, verdict and hour.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Aggregate {
    pub tool: Option<String>,
    pub class: &'static str,
    /// The start of the hour of their decision time (Unix milliseconds).
    pub hour: Option<u64>,
    pub receipts: u64,
    /// Warning findings among them.
    pub warnings: u64,
}

/// Decisions over time: per lane, counts in the bins of `axis` from `start` to `end` (long
/// pauses compressed).
#[derive(Debug, Clone)]
pub struct Timeline {
    pub start: u64,
    pub end: u64,
    pub axis: super::time_axis::Axis,
    /// (label, CSS class, counts per bin), top to bottom.
    pub lanes: Vec<(&'static str, &'static str, Vec<u64>)>,
}
