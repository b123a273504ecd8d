//! The rows a page or JSON model keeps, chosen as the receipts stream in. Guarantees: every
//! row with an error finding or without authentication is kept whole, however many there
//! are; of the others, the first [`SAMPLE_ROWS`] (those with warnings first, then infos,
//! then the rest, each in decision-time order, ties in walk order) are kept whole and the
//! rest are counted by tool, verdict and hour, each with its warnings. Only the kept rows
//! and those counts are held: a row beyond the sample is dropped as soon as
//! [`SAMPLE_ROWS`] better ones are in. The order uses what is known of a receipt when it
//! is read (its own findings, its token and frame joins, and whether any chain has its
//! request hash); a receipt that joins no chain entry only because its hash has more
//! receipts than the chains have entries learns it later, is counted with that warning,
//! but keeps its place.

use super::counts::Aggregate;
use super::model::Row;
use crate::finding::{Finding, Severity};
use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};

/// Rows kept beyond those that must be (the sample of good receipts, with details).
pub const SAMPLE_ROWS: usize = 200;

/// Warnings first, then infos, then none; then decision time (none last), then the walk.
type Place = (Reverse<Option<Severity>>, bool, Option<u64>, usize);

/// (tool, class, start of the hour) → (receipts, warnings) of the rows not kept.
type OmittedCounts = BTreeMap<(Option<String>, &'static str, Option<u64>), (u64, u64)>;

#[derive(Default)]
pub struct Sample {
    /// Rows kept whatever the others are, and their positions by walk position.
    must: Vec<Row>,
    must_at: HashMap<usize, usize>,
    /// The best rows of the others so far, and their places by walk position.
    best: BTreeMap<Place, Row>,
    best_at: HashMap<usize, Place>,
    omitted: OmittedCounts,
}

impl Sample {
    /// Takes a row whose findings are all known but a late chain finding.
    pub fn offer(&mut self, row: Row) {
        let severity = row.findings.iter().map(|f| f.severity).max();
        if row.class == "unauthenticated" || severity == Some(Severity::Error) {
            self.must_at.insert(row.seq, self.must.len());
            self.must.push(row);
            return;
        }
        let place = (Reverse(severity), row.time.is_none(), row.time, row.seq);
        self.best_at.insert(row.seq, place);
        self.best.insert(place, row);
        if self.best.len() > SAMPLE_ROWS {
            if let Some((_, row)) = self.best.pop_last() {
                self.best_at.remove(&row.seq);
                let counts = self.omitted.entry(omitted_key(&row)).or_default();
                counts.0 += 1;
                counts.1 += (row.findings.iter())
                    .filter(|f| f.severity == Severity::Warning)
                    .count() as u64;
            }
        }
    }

    /// The kept row at walk position `seq`, if it is kept so far.
    pub fn kept(&mut self, seq: usize) -> Option<&mut Row> {
        if let Some(&at) = self.must_at.get(&seq) {
            return self.must.get_mut(at);
        }
        let place = self.best_at.get(&seq)?;
        self.best.get_mut(place)
    }

    /// A late chain finding (a warning) about the receipt at walk position `seq`: on its
    /// row if it is kept, else in its count.
    pub fn late_finding(
        &mut self,
        seq: usize,
        finding: Finding,
        tool: Option<String>,
        class: &'static str,
        time: Option<u64>,
    ) {
        let warning = u64::from(finding.severity == Severity::Warning);
        match self.kept(seq) {
            Some(row) => row.add_chain_finding(finding),
            None => {
                let counts = self.omitted.entry((tool, class, hour(time))).or_default();
                counts.1 += warning;
            }
        }
    }

    /// The kept rows in decision-time order (ties in walk order), and the others' counts.
    pub fn finish(self) -> (Vec<Row>, Vec<Aggregate>) {
        let mut rows = self.must;
        rows.extend(self.best.into_values());
        super::sort::sort_in_place(&mut rows, Row::time_order);
        let aggregates = (self.omitted.into_iter())
            .map(|((tool, class, hour), (receipts, warnings))| Aggregate {
                tool,
                class,
                hour,
                receipts,
                warnings,
            })
            .collect();
        (rows, aggregates)
    }
}

fn omitted_key(row: &Row) -> (Option<String>, &'static str, Option<u64>) {
    (row.tool.clone(), row.class, hour(row.time))
}

fn hour(time: Option<u64>) -> Option<u64> {
    time.map(|t| t - t % 3_600_000)
}
