//! The audit's reduce step: the checks that span receipts, over the map's [`FileFacts`] in
//! the listing's order. A receipt whose signed content was met before (a copy, a hard link,
//! a file reached twice, a copy re-spaced) is counted once, under the path met first, as a
//! `duplicate-receipt`; a host session's counter carried by another receipt in another
//! directory is a `counter-conflict`; each receipt directory's checks ([`super::dir`]) run
//! over its receipts' facts at the end. Memory grows by a few dozen bytes a receipt (the
//! facts the directory checks keep, and one identity each), not by the receipts' size.
//!
//! The command's audit and an audit mapped elsewhere (`sealkit.dask`) reduce through this
//! one path, so their findings cannot differ.

use super::copies::{self, Again, Seen};
use super::dir::{self, Files};
use super::map::{path_check, FileFacts, Outcome};
use super::walk::ItemKind;
use super::{AuditError, Event, Plan, Summary};
use crate::finding::{Code, Finding};
use std::io;

/// Where findings and receipt records go, in order.
pub type Sink<'s> = dyn FnMut(Event<'_>) -> io::Result<()> + 's;

/// The state of one audit's reduce.
#[derive(Debug)]
pub struct Reduce {
    /// The position in the listing's order of the next file's facts.
    next: usize,
    seen: Seen,
    receipts: Vec<dir::Receipts>,
    summary: Summary,
}

impl Reduce {
    /// A reduce over `plan`'s files; its own findings (the walk's) go to `sink` first.
    pub fn begin(plan: &Plan, sink: &mut Sink<'_>) -> Result<Reduce, AuditError> {
        let walk = &plan.walk;
        let mut receipts: Vec<dir::Receipts> =
            walk.dirs.iter().map(|_| Default::default()).collect();
        // Room for every file of each directory at once: growing by doubling would leave up to
        // half of the largest list unused, and copy it at each step.
        let mut files_per_dir = vec![0usize; walk.dirs.len()];
        for item in walk.items.iter().filter(|i| i.kind == ItemKind::File) {
            files_per_dir[item.dir as usize] += 1;
        }
        for ((receipts, files), dir) in receipts.iter_mut().zip(&files_per_dir).zip(&walk.dirs) {
            receipts.reserve(*files, &dir.state);
        }
        let mut reduce = Reduce {
            next: 0,
            seen: Seen::with_room(files_per_dir.iter().sum()),
            receipts,
            summary: Summary::default(),
        };
        let walk_findings = (plan.pin_inside.iter().cloned())
            .chain(walk.repeated.iter().cloned())
            .chain(walk.mode_findings());
        for finding in walk_findings {
            reduce.finding(&finding, sink)?;
        }
        Ok(reduce)
    }

    fn finding(&mut self, finding: &Finding, sink: &mut Sink<'_>) -> Result<(), AuditError> {
        self.summary.count(finding);
        sink(Event::Finding(finding)).map_err(AuditError::Sink)
    }

    /// How many files' facts have been added.
    pub fn added(&self) -> usize {
        self.next
    }

    /// Adds the facts of the listing's next file, with its `receipt` record when there is one
    /// to write (the command's; a reduce of facts mapped elsewhere has none).
    pub fn add(
        &mut self,
        plan: &Plan,
        facts: FileFacts,
        record: Option<&super::ReceiptEntry>,
        sink: &mut Sink<'_>,
    ) -> Result<(), AuditError> {
        let walk = &plan.walk;
        let Some(&index) = walk.order.get(self.next) else {
            return Err(AuditError::Facts(format!(
                "facts of more files than the {} the audit listed",
                walk.order.len()
            )));
        };
        let path = walk.path(index);
        if facts.path_check != path_check(&path) {
            return Err(AuditError::Facts(format!(
                "the facts of file {} of the listing are not those of {}: partitions reduced out of order, or mapped from another listing",
                self.next + 1,
                path.display()
            )));
        }
        self.next += 1;
        let item = &walk.items[index as usize];
        self.summary.files += u64::from(item.kind == ItemKind::File);
        let outcome = match item.kind {
            // What the walk could not list, whatever a mapper found there since.
            ItemKind::Unreadable => Outcome::Findings(vec![Finding::new(
                Code::UnreadableFile,
                Some(path.clone()),
                walk.unreadable(index).to_owned(),
            )]),
            _ => facts.outcome,
        };
        let receipt = match outcome {
            Outcome::Findings(findings) => {
                for finding in &findings {
                    self.finding(finding, sink)?;
                }
                return Ok(());
            }
            Outcome::Other if walk.dirs[item.dir as usize].is_receipt_dir => {
                let finding = Finding::new(
                    Code::UnexpectedFile,
                    Some(path.clone()),
                    "seal-host does not write this file into receipt directories",
                );
                return self.finding(&finding, sink);
            }
            Outcome::Other => return Ok(()),
            Outcome::Receipt(receipt) => receipt,
        };
        let dir = item.dir as usize;
        let state = &walk.dirs[dir].state;
        let first = receipt
            .identity
            .and_then(|identity| self.seen.first(identity, index, facts.file_id));
        if let Some((first, first_id)) = first {
            let again = copies::again(walk, (first, first_id), (index, facts.file_id));
            if let (Some(observed), false) = (receipt.observed, again == Again::SameEntry) {
                self.receipts[dir].add(index, walk.name_hash(index).as_ref(), observed, state);
            }
            let finding = copies::duplicate(&path, &walk.path(first), again);
            self.finding(&finding, sink)?;
            let own =
                |f: &&Finding| matches!(f.code, Code::MisnamedReceipt | Code::ChangedDuringAudit);
            for finding in receipt.findings.iter().filter(own) {
                self.finding(finding, sink)?;
            }
            return Ok(());
        }
        let summary = &mut self.summary;
        summary.receipts += 1;
        *summary.statuses.entry(receipt.status).or_default() += 1;
        if !receipt.verifiable {
            summary.unverifiable += 1;
        }
        if let Some(decision) = receipt.decision {
            // Only a receipt authenticated under the pinned key has a verdict.
            let tally = if receipt.status == "authenticated" {
                &mut summary.verdicts
            } else {
                &mut summary.claims
            };
            *tally.entry(decision).or_default() += 1;
        }
        for finding in &receipt.findings {
            summary.count(finding);
        }
        let session = receipt.observed.as_ref().and_then(|o| o.session.as_deref());
        let conflict = match (walk.counter(index), session) {
            (Some(counter), Some(session)) => self
                .seen
                .counter(index, item.dir, counter, session, &|file| {
                    (walk.counter(file), walk.items[file as usize].dir)
                })
                .map(|first| copies::conflict(&path, &walk.path(first), counter, session)),
            _ => None,
        };
        if let Some(observed) = receipt.observed {
            self.receipts[dir].add(index, walk.name_hash(index).as_ref(), observed, state);
        }
        match record {
            Some(record) => sink(Event::Receipt(record)).map_err(AuditError::Sink)?,
            // Reduced without its record (mapped elsewhere): its findings stand alone.
            None => {
                for finding in &receipt.findings {
                    sink(Event::Finding(finding)).map_err(AuditError::Sink)?;
                }
            }
        }
        match conflict {
            Some(finding) => self.finding(&finding, sink),
            None => Ok(()),
        }
    }

    /// The directory checks, once every file's facts are in; the audit's summary.
    pub fn finish(mut self, plan: &Plan, sink: &mut Sink<'_>) -> Result<Summary, AuditError> {
        let walk = &plan.walk;
        if self.next != walk.order.len() {
            return Err(AuditError::Facts(format!(
                "facts of {} of the {} files the audit listed: a partition is missing",
                self.next,
                walk.order.len()
            )));
        }
        // What was kept to find copies and conflicts as receipts arrived is not needed
        // for the directory checks: freed before they make their own.
        self.seen = Seen::with_room(0);
        let mut receipts = std::mem::take(&mut self.receipts);
        for (dir, receipts) in walk.dirs.iter().zip(&mut receipts) {
            if dir.is_receipt_dir {
                dir::check(&dir.path, &dir.state, receipts, walk, &mut |finding| {
                    self.finding(finding, sink)
                })?;
            }
            // Each directory's facts are freed once its checks are done.
            *receipts = dir::Receipts::default();
        }
        if self.summary.receipts == 0 {
            // Nothing checked is not a clean audit: a responder pointed at the wrong place must
            // not be told all is well.
            let named: Vec<String> = plan.roots.iter().map(|r| r.display().to_string()).collect();
            let finding = Finding::new(
                Code::NoReceipts,
                None,
                format!(
                    "no receipt file under {}: nothing was checked",
                    named.join(", ")
                ),
            );
            self.finding(&finding, sink)?;
        }
        self.summary.finish();
        Ok(self.summary)
    }
}
