//! What the joined rows add up to: the report's verdict (the same conclusion the exit status
//! gives, with the findings that cause it, most serious first), the summary counts, the
//! timeline's bins and the bounded set of rows a report carries. Guarantees: only an
//! authenticated receipt's decision is counted as a verdict (every other decision is counted
//! apart, as a claim); the verdict is `problems` exactly when an error finding (or, with
//! `--deny-warnings`, a warning) is in the report (an empty input is the `no-receipts`
//! error, as `audit` says), `could-not-check` when no receipt was found and no finding
//! says why, else `good`; every receipt is counted in the summary and the timeline, and every
//! row with an error finding or without authentication is kept whole, however many receipts
//! there are, while the other rows beyond a fixed sample are only counted.

use super::counts::{Aggregate, Cause, Conclusion, Summary, Timeline, BINS};
use super::model::{Chain, Model, Row, Token};
use crate::approval::line_reports::{Signed, TokenStatus};
use crate::finding::{Code, Finding, Severity};
use std::collections::BTreeMap;

/// Rows kept beyond those that must be (the sample of good receipts, with details).
pub const SAMPLE_ROWS: usize = 200;
/// Causes named by the verdict (one per finding code).
const CAUSES: usize = 12;

/// Adds up the joined model: its summary, verdict and timeline over every row, then the
/// rows it keeps (all of them with `every_row`).
pub fn conclude(model: &mut Model, deny_warnings: bool, every_row: bool) {
    model.summary = summarize(
        &model.rows,
        &model.tokens,
        &model.chains,
        &model.findings,
        model.summary.frames_captured,
        model.summary.frames_joined,
    );
    model.verdict = verdict(&model.rows, &model.findings, &model.summary, deny_warnings);
    model.timeline = timeline(&model.rows);
    if !every_row {
        let rows = std::mem::take(&mut model.rows);
        let (rows, omitted) = sample(rows, &mut model.tokens, &mut model.chains);
        model.rows = rows;
        model.summary.rows_omitted = omitted.iter().map(|a| a.receipts).sum();
        model.omitted = omitted;
    }
}

pub fn summarize(
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
        match &row.claimed_verdict {
            Some(claim) => *summary.claims.entry(claim.clone()).or_default() += 1,
            None if row.class == "unauthenticated" => {}
            None => *summary.verdicts.entry(row.class).or_default() += 1,
        }
        summary.frames_not_captured += u64::from(row.frame.status == "not-captured");
    }
    for finding in rows.iter().flat_map(|r| &r.findings).chain(findings) {
        *summary
            .findings_by_severity
            .entry(finding.severity.as_str())
            .or_default() += 1;
        *summary.findings_by_code.entry(finding.code).or_default() += 1;
        summary.released_without_token += u64::from(finding.code == Code::ReleasedWithoutToken);
    }
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
    summary
}

/// The verdict the exit status gives, and the findings it rests on.
pub fn verdict(
    rows: &[Row],
    findings: &[Finding],
    summary: &Summary,
    deny_warnings: bool,
) -> Conclusion {
    let severity = |name: &str| summary.findings_by_severity.get(name).copied().unwrap_or(0);
    let (errors, warnings) = (severity("error"), severity("warning"));
    let authenticated = summary.statuses.get("authenticated").copied().unwrap_or(0);
    let threshold = if deny_warnings {
        Severity::Warning
    } else {
        Severity::Error
    };
    let mut causes: BTreeMap<Code, Cause> = BTreeMap::new();
    let from_rows = rows
        .iter()
        .flat_map(|r| r.findings.iter().map(move |f| (f, Some(r))));
    for (finding, row) in from_rows.chain(findings.iter().map(|f| (f, None))) {
        if finding.severity < threshold {
            continue;
        }
        let cause = causes.entry(finding.code).or_insert_with(|| Cause {
            code: finding.code,
            severity: finding.severity,
            count: 0,
            rows: 0,
            first_time: None,
            example: finding.clone(),
        });
        cause.count += 1;
        if let Some(row) = row {
            cause.rows += 1;
            if row.time.is_some() && (cause.first_time.is_none() || row.time < cause.first_time) {
                cause.first_time = row.time;
                cause.example = finding.clone();
            }
        }
    }
    let mut causes: Vec<Cause> = causes.into_values().collect();
    causes.sort_by_key(|c| {
        (
            std::cmp::Reverse(c.severity),
            c.first_time.is_none(),
            c.first_time,
            c.code,
        )
    });
    causes.truncate(CAUSES);
    let receipts = summary.receipts;
    let (outcome, headline) = if !causes.is_empty() {
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
                "{what}; {authenticated} of {receipts} receipt{} authenticated.",
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
                "All {receipts} receipt{} authenticated; no error finding ({warnings} warning{}).",
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

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The timeline's bins over every row: one lane per verdict, claims of receipts that do
/// not authenticate in their own lane, approvals at their `authorized_at`, rows with error
/// findings and chain entries whose head does not recompute.
pub fn timeline(rows: &[Row]) -> Option<Timeline> {
    const LANES: [(&str, &str); 7] = [
        ("ALLOW", "allow"),
        ("released", "released"),
        ("BLOCK", "block"),
        ("claims (not authenticated)", "claim"),
        ("approvals", "approval"),
        ("error findings", "error"),
        ("chain breaks", "chainbreak"),
    ];
    let times = rows.iter().filter_map(|r| r.time).chain(
        rows.iter()
            .filter_map(|r| r.approval.as_ref().map(|a| a.authorized_at)),
    );
    let (start, end) = times.fold(None, |range: Option<(u64, u64)>, t| match range {
        None => Some((t, t)),
        Some((a, b)) => Some((a.min(t), b.max(t))),
    })?;
    let span = (end - start).max(1);
    let bin = |t: u64| (((t - start) as u128 * (BINS as u128 - 1)) / span as u128) as usize;
    let mut counts = vec![vec![0u64; BINS]; LANES.len()];
    for row in rows {
        if let Some(t) = row.time {
            let lane = match row.class {
                "allow" => Some(0),
                "released" => Some(1),
                "block" => Some(2),
                "unauthenticated" => Some(3),
                _ => None,
            };
            if let Some(lane) = lane {
                counts[lane][bin(t)] += 1;
            }
            if row.severity == Some(Severity::Error) {
                counts[5][bin(t)] += 1;
            }
            if row.chain.as_ref().is_some_and(|c| !c.head_ok) {
                counts[6][bin(t)] += 1;
            }
        }
        if let Some(approval) = &row.approval {
            counts[4][bin(approval.authorized_at)] += 1;
        }
    }
    Some(Timeline {
        start,
        end,
        lanes: LANES
            .iter()
            .zip(counts)
            .map(|(&(label, class), counts)| (label, class, counts))
            .collect(),
    })
}

/// (tool, class, start of the hour) → (receipts, warnings) of the rows not kept.
type OmittedCounts = BTreeMap<(Option<String>, &'static str, Option<u64>), (u64, u64)>;

/// Keeps every row with an error finding or without authentication, and the first
/// [`SAMPLE_ROWS`] of the others (those with warnings first, then in time order); the rest
/// are counted by tool, verdict and hour. Row indexes in tokens and chains follow the kept
/// rows; chain entries joined to a row not kept are counted in the chain, not listed.
pub fn sample(
    rows: Vec<Row>,
    tokens: &mut [Token],
    chains: &mut [Chain],
) -> (Vec<Row>, Vec<Aggregate>) {
    let must = |row: &Row| row.class == "unauthenticated" || row.severity == Some(Severity::Error);
    let mut optional: Vec<usize> = (0..rows.len()).filter(|&i| !must(&rows[i])).collect();
    if optional.len() <= SAMPLE_ROWS {
        return (rows, Vec::new());
    }
    // Stable: ties stay in time order.
    optional.sort_by_key(|&i| std::cmp::Reverse(rows[i].severity));
    let mut keep = vec![true; rows.len()];
    for &i in &optional[SAMPLE_ROWS..] {
        keep[i] = false;
    }
    let mut omitted: OmittedCounts = BTreeMap::new();
    let mut new_index = vec![None; rows.len()];
    let mut kept = Vec::new();
    for (i, row) in rows.into_iter().enumerate() {
        if keep[i] {
            new_index[i] = Some(kept.len());
            kept.push(row);
        } else {
            let hour = row.time.map(|t| t - t % 3_600_000);
            let counts = omitted.entry((row.tool, row.class, hour)).or_default();
            counts.0 += 1;
            counts.1 += row
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Warning)
                .count() as u64;
        }
    }
    for token in tokens.iter_mut() {
        token.used_by = token.used_by.iter().filter_map(|&r| new_index[r]).collect();
    }
    for chain in chains.iter_mut() {
        chain.entries.retain_mut(|entry| {
            entry.row = entry.row.and_then(|r| new_index[r]);
            !entry.head_ok || !entry.joined || entry.row.is_some()
        });
    }
    let aggregates = omitted
        .into_iter()
        .map(|((tool, class, hour), (receipts, warnings))| Aggregate {
            tool,
            class,
            hour,
            receipts,
            warnings,
        })
        .collect();
    (kept, aggregates)
}
