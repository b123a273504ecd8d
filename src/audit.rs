//! Audits whole receipt directories (docs/receipts.md, docs/formats.md):
//! walks each root in sorted order without following any symbolic link (a link loop cannot
//! hang it), checks every receipt with [`crate::receipt`] plus its file name, and reports
//! files seal-host does not leave behind, modes, files that change under the audit, and the
//! directory-level checks of [`dir`]. Per-file problems become findings; only an unreadable
//! root stops the audit. A file that cannot be read is an `unreadable-file` finding that
//! makes the whole audit one that could not check everything ([`Summary::outcome`]).
//!
//! Results are streamed to a sink in walk order while receipts are checked in parallel
//! batches, so memory stays bounded by the batch, not by the number of receipts.

pub mod approval_credit;
mod chain_lines;
mod copies;
pub mod dir;
pub mod facts_codec;
pub mod finding_list;
mod hex256;
pub mod map;
pub mod names;
mod operation_state;
mod read_ahead;
pub mod reduce;
mod set_aside;
mod spill;
mod walk;

use crate::finding::{Code, Finding, Severity};
use crate::receipt::pin::{KeyPlacement, KeyRole, Pin, PinFile};
use crate::receipt::ReceiptReport;
use crate::signature::batch::BatchKey;
use ed25519_dalek::VerifyingKey;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fs::Metadata;
use std::io;
use std::path::{Path, PathBuf};
use walk::{ItemKind, Walk};

/// Receipts larger than this are not read (seal-host's frames are at most 1 MiB).
pub const MAX_RECEIPT_BYTES: u64 = 64 * 1024 * 1024;
/// Receipts checked per parallel batch.
const BATCH: usize = 512;

/// How to audit.
#[derive(Debug, Clone)]
pub struct Options {
    pub pin: Option<Pin>,
    /// A trusted-approvers list: approval-authorized ALLOWs are attributed to its approvers.
    pub approvers: Option<crate::approvers::Approvers>,
    /// The files the approval keys were read from (a `--trusted-approvers` list, a `--pubkey`
    /// file): each is looked for in the evidence as the pinned receipt key's file is
    /// (`approval-key-in-evidence`).
    pub approval_key_files: Vec<PathBuf>,
    /// Token files given beside the directories (`report --tokens`): an approval key file
    /// directly beside one is in the evidence too ([`KeyPlacement::beside`]).
    pub token_files: Vec<PathBuf>,
    /// Worker threads (at least 1).
    pub jobs: usize,
}

/// Hooks for progress display (and tests).
pub trait Observer: Sync {
    /// The walk is done: this many files will be checked.
    fn walked(&self, _files: u64) {}
    /// One file has been read (before its checks run).
    fn read(&self, _path: &Path) {}
    /// One file is done.
    fn checked(&self) {}
}

/// An observer that does nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// One checked file that is or claims to be a receipt.
#[derive(Debug, Clone, Serialize)]
pub struct ReceiptEntry {
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    pub file: PathBuf,
    /// `authenticated`, `unpinned`, `unsigned`, `failed`, or `unreadable`.
    pub status: &'static str,
    /// With a trusted-approvers list: the approver whose key the receipt's signed approval
    /// statement names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signed_by: Option<crate::approvers::SignedBy>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub report: Option<ReceiptReport>,
    /// Every finding about this file (receipt checks and file-level), with its path.
    pub file_findings: Vec<Finding>,
}

/// What the audit streams out, in walk order.
#[derive(Debug)]
pub enum Event<'a> {
    Receipt(&'a ReceiptEntry),
    Finding(&'a Finding),
}

/// Totals for the summary table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Summary {
    pub files: u64,
    pub receipts: u64,
    /// Receipt statuses: authenticated, unpinned, unsigned, failed, unreadable.
    pub statuses: BTreeMap<&'static str, u64>,
    /// Decisions of authenticated receipts (ALLOW / BLOCK).
    pub verdicts: BTreeMap<String, u64>,
    /// Decisions that receipts which do not authenticate claim: never counted as verdicts.
    pub claims: BTreeMap<String, u64>,
    pub findings: Vec<CodeCount>,
    /// Receipt files whose bytes could not be verified at all (unreadable, not UTF-8, not
    /// JSON, truncated).
    pub unverifiable: u64,
    #[serde(skip)]
    counts: BTreeMap<Code, u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CodeCount {
    pub code: Code,
    pub severity: Severity,
    pub count: u64,
}

impl Summary {
    fn count(&mut self, finding: &Finding) {
        *self.counts.entry(finding.code).or_default() += 1;
    }

    fn finish(&mut self) {
        self.findings = self
            .counts
            .iter()
            .map(|(code, count)| CodeCount {
                code: *code,
                severity: code.severity(),
                count: *count,
            })
            .collect();
        // Most serious first (ties in code order).
        self.findings
            .sort_by_key(|count| std::cmp::Reverse(count.severity));
    }

    /// The exit status the findings give ([`crate::finding::outcome_of`]): a file that could
    /// not be read makes the audit one that could not check everything.
    pub fn outcome(&self, deny_warnings: bool) -> crate::outcome::Outcome {
        crate::finding::outcome_of(self.counts.keys().copied(), deny_warnings)
    }

    /// How many findings have this code.
    pub fn count_of(&self, code: Code) -> u64 {
        self.counts.get(&code).copied().unwrap_or(0)
    }
}

/// Why the audit could not run.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// A root given on the command line cannot be read.
    #[error("cannot audit {}: {}", .0.display(), .1)]
    Root(PathBuf, #[source] io::Error),
    /// The sink failed (e.g. a closed stdout).
    #[error(transparent)]
    Sink(io::Error),
    /// Facts mapped elsewhere do not match the listing they are reduced against.
    #[error("{0}")]
    Facts(String),
    /// Facts mapped elsewhere could not be read back.
    #[error("the facts of a partition are not sealkit's: {0}")]
    FactsFormat(String),
}

impl crate::error_code::Coded for AuditError {
    fn code(&self) -> &'static str {
        match self {
            AuditError::Root(..) => "unreadable-root",
            AuditError::Sink(_) => "io-error",
            AuditError::Facts(_) | AuditError::FactsFormat(_) => "facts-mismatch",
        }
    }
}

/// The listing an audit maps and reduces over: the walk of its roots (the files in the order
/// a sorted walk yields them, each directory with its state files and mode), and what the
/// walk itself found.
#[derive(Debug)]
pub struct Plan {
    walk: Walk,
    roots: Vec<PathBuf>,
    /// `receipt-key-in-evidence` and `approval-key-in-evidence`: each key file that lies in
    /// the evidence.
    pin_inside: Vec<Finding>,
}

impl Plan {
    /// Walks `roots` (on `pool`, which reads the entries' metadata), comparing each file with
    /// the key files (the pinned receipt key's, then the approval keys').
    pub fn walk(
        roots: &[PathBuf],
        options: &Options,
        pool: &rayon::ThreadPool,
    ) -> Result<Plan, AuditError> {
        let key_files: Vec<PinFile> = (options.pin.as_ref().and_then(Pin::file).into_iter())
            .chain(
                (options.approval_key_files.iter())
                    .map(|path| PinFile::at(path, KeyRole::Approval)),
            )
            .collect();
        let walk = pool.install(|| walk::walk(roots, &key_files))?;
        // Each key file once: under a root, else a file of the walk, else (an approval key)
        // beside a token file.
        let pin_inside = (key_files.iter().zip(&walk.keys_found))
            .filter_map(|(key, found)| {
                let beside = || {
                    let mut placement = KeyPlacement::new(key);
                    (options.token_files.iter())
                        .filter(|_| key.role == KeyRole::Approval)
                        .find_map(|file| placement.beside(file))
                };
                let inside = (roots.iter())
                    .find_map(|root| key.under(&evidence_dir(root)))
                    .or_else(|| found.clone())
                    .or_else(beside)?;
                Some(key.finding(&inside))
            })
            .collect();
        Ok(Plan {
            walk,
            roots: roots.to_vec(),
            pin_inside,
        })
    }

    /// A plan over files listed elsewhere (object storage), in the order given; `read` reads
    /// a state file's bytes (at most the limit given). `roots` only name what was listed.
    pub fn listed(roots: &[PathBuf], files: &[PathBuf], read: &mut walk::ReadListed<'_>) -> Plan {
        Plan {
            walk: walk::listed(files, read),
            roots: roots.to_vec(),
            pin_inside: Vec::new(),
        }
    }

    /// How many entries the listing holds (the map's facts come one per entry).
    pub fn len(&self) -> usize {
        self.walk.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.walk.order.is_empty()
    }

    /// The path of the listing's entry at `position`, as the walk saw it.
    pub fn path(&self, position: usize) -> PathBuf {
        self.walk.path(self.walk.order[position])
    }

    /// The listing's entry at `position`, for [`map::map_batch`].
    pub fn entry(&self, position: usize) -> map::Entry {
        let walk = &self.walk;
        let index = walk.order[position];
        let item = &walk.items[index as usize];
        map::Entry {
            path: walk.path(index),
            kind: item.kind,
            stamp: item.stamp,
            name_kind: walk.name_kind(index),
            unreadable: walk.unreadable(index).to_owned(),
            keep_audit_line: walk.dirs[item.dir as usize].state.head_state.is_some(),
            contents: None,
        }
    }
}

/// The pinned key, ready for checking a batch of signatures.
fn batch_key(options: &Options) -> Option<VerifyingKey> {
    options
        .pin
        .as_ref()
        .and_then(|pin| VerifyingKey::from_bytes(&pin.public_key).ok())
}

/// Maps a list of entries (files mapped apart from the walk: another process, another
/// machine) into their facts, a batch at a time on `pool`; the facts are the same as the
/// audit's own for the same files.
pub fn map_entries(
    entries: &[map::Entry],
    options: &Options,
    pool: &rayon::ThreadPool,
) -> Vec<map::FileFacts> {
    let key = batch_key(options);
    let pinned = key.as_ref().map(BatchKey::new);
    let context = map::Context {
        options,
        stamp: &|_| 0,
        observer: &Quiet,
    };
    let mut facts = Vec::with_capacity(entries.len());
    for batch in entries.chunks(BATCH) {
        let (mapped, _) = pool.install(|| map::map_batch(batch, &context, pinned.as_ref(), 0));
        facts.extend(mapped.into_iter().map(|mapped| mapped.facts));
    }
    facts
}

/// Audits `roots`, streaming every result to `sink`: the walk, then each batch of files
/// mapped to its facts on the pool ([`map`]) while the batch before is reduced in walk order on
/// this thread ([`reduce`]).
pub fn audit(
    roots: &[PathBuf],
    options: &Options,
    observer: &dyn Observer,
    sink: &mut dyn FnMut(Event<'_>) -> io::Result<()>,
) -> Result<Summary, AuditError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .build()
        .map_err(|e| AuditError::Sink(io::Error::other(e)))?;
    let plan = Plan::walk(roots, options, &pool)?;
    let walk = &plan.walk;
    let checked = walk
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::File)
        .count();
    observer.walked(checked as u64);
    let mut reduce = reduce::Reduce::begin(&plan, sink)?;
    // The receipts' signatures under the pinned key are checked together, a batch at a time.
    let key = batch_key(options);
    let pinned = key.as_ref().map(BatchKey::new);
    let stamp = |metadata: &Metadata| walk.stamp(metadata);
    let context = map::Context {
        options,
        stamp: &stamp,
        observer,
    };
    // Batch n+1 is mapped on the pool while batch n is reduced and written out on this thread.
    // Also says whether the batch's sampled reads found the page cache cold.
    let map_batch = |positions: std::ops::Range<usize>| -> (Vec<map::Mapped>, bool) {
        let entries: Vec<map::Entry> = positions.map(|p| plan.entry(p)).collect();
        let (mapped, sampled) =
            map::map_batch(&entries, &context, pinned.as_ref(), read_ahead::SAMPLE);
        (mapped, read_ahead::is_cold(sampled))
    };
    // Each step maps one batch on the pool while this thread reduces the batch mapped in the
    // step before; the kernel is asked meanwhile to read the next batch's files if the batch
    // mapped last found the page cache cold (before the first: unknown, so yes), so the disk
    // and the workers work at once.
    let batches: Vec<std::ops::Range<usize>> = (0..walk.order.len())
        .step_by(BATCH)
        .map(|start| start..(start + BATCH).min(walk.order.len()))
        .collect();
    let mut written: Option<Vec<map::Mapped>> = None;
    let mut cold = true;
    for number in 0..=batches.len() {
        let current = batches.get(number).cloned();
        let ahead = batches
            .get(number + 1)
            .map(|range| &walk.order[range.clone()])
            .filter(|_| cold);
        let mut current_results = None;
        let reduced = pool.in_place_scope(|scope| {
            if let Some(ahead) = ahead {
                scope.spawn(move |_| read_ahead::read_ahead(walk, ahead));
            }
            if let Some(current) = current {
                let slot = &mut current_results;
                let map_batch = &map_batch;
                scope.spawn(move |_| *slot = Some(map_batch(current)));
            }
            for mapped in written.take().into_iter().flatten() {
                reduce.add(&plan, mapped.facts, mapped.entry.as_deref(), sink)?;
            }
            Ok::<(), AuditError>(())
        });
        reduced?;
        written = current_results.map(|(results, was_cold)| {
            cold = was_cold;
            results
        });
    }
    reduce.finish(&plan, sink)
}

/// The directory whose contents are the evidence of a root: the root, or a file's directory.
fn evidence_dir(root: &Path) -> PathBuf {
    if root.is_dir() {
        return root.to_path_buf();
    }
    match root.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}
