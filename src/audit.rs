//! Audits whole receipt directories (docs/receipts.md, docs/formats.md):
//! walks each root in sorted order without following any symbolic link (a link loop cannot
//! hang it), checks every receipt with [`crate::receipt`] plus its file name, and reports
//! files seal-host does not leave behind, modes, files that change under the audit, and the
//! directory-level checks of [`dir`]. Per-file problems become findings; only an unreadable
//! root stops the audit.
//!
//! Results are streamed to a sink in walk order while receipts are checked in parallel
//! batches, so memory stays bounded by the batch, not by the number of receipts.

pub mod approval_credit;
mod copies;
pub mod dir;
pub mod names;
mod read_ahead;
mod walk;

use crate::finding::{Code, Finding, Severity};
use crate::receipt::{self, pin::Pin, ReceiptReport, Scratch};
use crate::signature::batch::{self, BatchKey};
use crate::signature::{Challenge, Failure};
use dir::Observed;
use ed25519_dalek::VerifyingKey;
use names::NameKind;
use rayon::prelude::*;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs::{File, Metadata};
use std::io;
use std::path::{Path, PathBuf};
use walk::{Item, ItemKind, Walk};

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

    /// The worst severity found.
    pub fn worst(&self) -> Option<Severity> {
        self.counts.keys().map(|c| c.severity()).max()
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
}

impl crate::error_code::Coded for AuditError {
    fn code(&self) -> &'static str {
        match self {
            AuditError::Root(..) => "unreadable-root",
            AuditError::Sink(_) => "io-error",
        }
    }
}

/// Audits `roots`, streaming every result to `sink`.
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
    // The walk reads the entries' metadata on the pool, comparing each file with the pinned
    // key's.
    let pin_file = options.pin.as_ref().and_then(Pin::file);
    let walk = pool.install(|| walk::walk(roots, pin_file.as_ref()))?;
    let pin_inside = pin_file.as_ref().and_then(|pin| {
        let under = roots.iter().find_map(|root| pin.under(&evidence_dir(root)));
        Some(pin.finding(&under.or_else(|| walk.pin_found.clone())?))
    });
    let mut summary = Summary::default();
    let checked = walk
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::File)
        .count();
    observer.walked(checked as u64);
    let mut emit = |event: Event<'_>, summary: &mut Summary| -> Result<(), AuditError> {
        match &event {
            Event::Receipt(entry) => entry.file_findings.iter().for_each(|f| summary.count(f)),
            Event::Finding(finding) => summary.count(finding),
        }
        sink(event).map_err(AuditError::Sink)
    };
    let walk_findings = (pin_inside.into_iter())
        .chain(walk.repeated.iter().cloned())
        .chain(walk.mode_findings());
    for finding in walk_findings {
        emit(Event::Finding(&finding), &mut summary)?;
    }
    let mut seen = copies::Seen::default();
    // The receipts' directory facts are gathered apart from the walk, which the workers
    // read while they are added.
    let mut receipts: Vec<dir::Receipts> = walk.dirs.iter().map(|_| Default::default()).collect();
    // Room for every file of each directory at once: growing by doubling would leave up to
    // half of the largest list unused, and copy it at each step.
    let mut files_per_dir = vec![0usize; walk.dirs.len()];
    for item in walk.items.iter().filter(|i| i.kind == ItemKind::File) {
        files_per_dir[item.dir as usize] += 1;
    }
    for (receipts, files) in receipts.iter_mut().zip(files_per_dir) {
        receipts.facts.reserve_exact(files);
    }
    // The receipts' signatures under the pinned key are checked together, a batch at a time.
    let pinned = options
        .pin
        .as_ref()
        .and_then(|pin| VerifyingKey::from_bytes(&pin.public_key).ok());
    let pinned = pinned.as_ref().map(BatchKey::new);
    {
        // Batch n+1 is checked on the pool while batch n is written out on this thread.
        // Also says whether the batch's sampled reads found the page cache cold.
        let check_batch = |batch: &[u32]| -> (Vec<Checked>, bool) {
            let (mut read, sampled): (Vec<Read>, Vec<Option<std::time::Duration>>) = batch
                .par_iter()
                .enumerate()
                .map(|(position, &index)| {
                    let result = check_item(&walk, index, options, observer);
                    let took = read_ahead::take_last_read();
                    observer.checked();
                    (result, took.filter(|_| position < read_ahead::SAMPLE))
                })
                .unzip();
            settle_signatures(&mut read, pinned.as_ref());
            let checked = read
                .into_par_iter()
                .map(|read| match read {
                    Read::Unsettled(receipt) => finish_receipt(&walk, receipt, options),
                    Read::Done(checked) => checked,
                })
                .collect();
            (checked, read_ahead::is_cold(sampled.into_iter().flatten()))
        };
        // Each step checks one batch on the pool while this thread writes out the batch checked
        // in the step before; the kernel is asked meanwhile to read the next batch's files if
        // the batch checked last found the page cache cold (before the first: unknown, so yes),
        // so the disk and the workers work at once.
        let batches: Vec<&[u32]> = walk.order.chunks(BATCH).collect();
        let walk = &walk;
        let mut written: Option<(&[u32], Vec<Checked>)> = None;
        let mut cold = true;
        for number in 0..=batches.len() {
            let current = batches.get(number).copied();
            let ahead = batches.get(number + 1).copied().filter(|_| cold);
            let mut current_results = None;
            let emitted = pool.in_place_scope(|scope| {
                if let Some(ahead) = ahead {
                    scope.spawn(move |_| read_ahead::read_ahead(walk, ahead));
                }
                if let Some(current) = current {
                    let slot = &mut current_results;
                    let check_batch = &check_batch;
                    scope.spawn(move |_| *slot = Some(check_batch(current)));
                }
                let mut emitted = Ok(());
                if let Some((batch, results)) = written.take() {
                    for (&index, result) in batch.iter().zip(results) {
                        emitted = record(
                            walk,
                            index,
                            result,
                            &mut Tallies {
                                receipts: &mut receipts,
                                seen: &mut seen,
                                summary: &mut summary,
                            },
                            &mut emit,
                        );
                        if emitted.is_err() {
                            break;
                        }
                    }
                }
                emitted
            });
            emitted?;
            written = current
                .zip(current_results)
                .map(|(batch, (results, was_cold))| {
                    cold = was_cold;
                    (batch, results)
                });
        }
    }
    for (dir, receipts) in walk.dirs.iter().zip(&receipts) {
        if dir.is_receipt_dir {
            for finding in dir::check(&dir.path, &dir.state, receipts, &walk) {
                emit(Event::Finding(&finding), &mut summary)?;
            }
        }
    }
    if summary.receipts == 0 {
        // Nothing checked is not a clean audit: a responder pointed at the wrong place must
        // not be told all is well.
        let named: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
        let finding = Finding::new(
            Code::NoReceipts,
            None,
            format!(
                "no receipt file under {}: nothing was checked",
                named.join(", ")
            ),
        );
        emit(Event::Finding(&finding), &mut summary)?;
    }
    summary.finish();
    Ok(summary)
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

type Emit<'e> = dyn FnMut(Event<'_>, &mut Summary) -> Result<(), AuditError> + 'e;

/// What [`record`] adds each checked item to.
struct Tallies<'t> {
    receipts: &'t mut [dir::Receipts],
    seen: &'t mut copies::Seen,
    summary: &'t mut Summary,
}

/// Counts one checked item, keeps its directory facts, and emits it. A receipt file whose
/// bytes were read before at another path is not counted again: it is a `duplicate-receipt`
/// finding (with the findings only its own path or name can have), and its facts join its
/// directory's unless it is the very entry met before.
fn record(
    walk: &Walk,
    index: u32,
    result: Checked,
    tallies: &mut Tallies<'_>,
    emit: &mut Emit<'_>,
) -> Result<(), AuditError> {
    let item = &walk.items[index as usize];
    let summary = &mut *tallies.summary;
    summary.files += u64::from(item.kind == ItemKind::File);
    match result {
        Checked::Receipt(entry, observed, content) => {
            let dir = item.dir as usize;
            let first = content.and_then(|key| {
                let same = tallies
                    .seen
                    .candidates(key)
                    .iter()
                    .copied()
                    .find(|&first| copies::same_bytes(walk, first, index));
                if same.is_none() {
                    tallies.seen.add(key, index);
                }
                same
            });
            if let Some(first) = first {
                let again = copies::again(walk, first, index);
                if let (Some(observed), false) = (observed, again == copies::Again::SameEntry) {
                    tallies.receipts[dir].add(index, *observed, &walk.dirs[dir].state);
                }
                let finding = copies::duplicate(&entry.file, &walk.path(first), again);
                emit(Event::Finding(&finding), summary)?;
                let own = |f: &&Finding| {
                    matches!(f.code, Code::MisnamedReceipt | Code::ChangedDuringAudit)
                };
                for finding in entry.file_findings.iter().filter(own) {
                    emit(Event::Finding(finding), summary)?;
                }
                return Ok(());
            }
            summary.receipts += 1;
            *summary.statuses.entry(entry.status).or_default() += 1;
            if entry.report.is_none() {
                summary.unverifiable += 1;
            }
            if let Some(decision) = entry
                .report
                .as_ref()
                .and_then(|r| r.reported.verdict.clone())
            {
                // Only a receipt authenticated under the pinned key has a verdict.
                let tally = if entry.status == "authenticated" {
                    &mut summary.verdicts
                } else {
                    &mut summary.claims
                };
                *tally.entry(decision).or_default() += 1;
            }
            let conflict = match (dir::Files::counter(walk, index), observed.as_deref()) {
                (
                    Some(counter),
                    Some(Observed {
                        session: Some(session),
                        ..
                    }),
                ) => tallies
                    .seen
                    .counter(index, item.dir, counter, session)
                    .map(|first| {
                        copies::conflict(&entry.file, &walk.path(first), counter, session)
                    }),
                _ => None,
            };
            if let Some(observed) = observed {
                tallies.receipts[dir].add(index, *observed, &walk.dirs[dir].state);
            }
            emit(Event::Receipt(&entry), summary)?;
            match conflict {
                Some(finding) => emit(Event::Finding(&finding), summary),
                None => Ok(()),
            }
        }
        Checked::Findings(findings) => {
            for finding in &findings {
                emit(Event::Finding(finding), summary)?;
            }
            Ok(())
        }
    }
}

enum Checked {
    /// A receipt file's entry, its facts for the directory checks, and the key of its bytes
    /// (when they were read: [`copies::content_key`]).
    Receipt(Box<ReceiptEntry>, Option<Box<Observed>>, Option<u64>),
    Findings(Vec<Finding>),
}

/// An item as its worker leaves it.
enum Read {
    Done(Checked),
    /// A receipt read and checked whose signature under the pinned key may still wait for
    /// the curve check of its batch ([`settle_signatures`], then [`finish_receipt`]).
    Unsettled(Unsettled),
}

struct Unsettled {
    /// The receipt's entry with its report; its status and findings are [`finish_receipt`]'s
    /// (made here already, so a receipt costs one such allocation, not two).
    entry: Box<ReceiptEntry>,
    dir: u32,
    kind: NameKind,
    challenge: Option<Challenge>,
    /// The file-level findings so far (a change under the audit).
    findings: Vec<Finding>,
    /// The key of the file's bytes ([`copies::content_key`]).
    content: u64,
}

/// Checks the curve equation of every signature of a batch that waits for it, all together
/// under the pinned key (each gets exactly the result it would get alone), and settles each
/// receipt's report with its own result.
fn settle_signatures(read: &mut [Read], pinned: Option<&BatchKey<'_>>) {
    let mut waiting: Vec<&mut Unsettled> = read
        .iter_mut()
        .filter_map(|read| match read {
            Read::Unsettled(receipt) if receipt.challenge.is_some() => Some(receipt),
            _ => None,
        })
        .collect();
    let challenges: Vec<Challenge> = waiting
        .iter_mut()
        .filter_map(|receipt| receipt.challenge.take())
        .collect();
    let results = match pinned {
        Some(pinned) => batch::verify_challenges(pinned, &challenges),
        // A challenge is made only under a pinned key that decompressed.
        None => vec![Err(Failure::BadPublicKey); challenges.len()],
    };
    for (receipt, result) in waiting.into_iter().zip(results) {
        if let Some(report) = &mut receipt.entry.report {
            receipt::settle(report, result);
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// A walked file being checked: its path and the fingerprint of the walk's metadata.
struct Walked {
    path: PathBuf,
    stamp: u64,
    dir: u32,
}

fn check_item(walk: &Walk, index: u32, options: &Options, observer: &dyn Observer) -> Read {
    let item: &Item = &walk.items[index as usize];
    let file = Walked {
        path: walk.path(index),
        stamp: item.stamp,
        dir: item.dir,
    };
    let one = |code: Code, message: String| {
        Read::Done(Checked::Findings(vec![Finding::new(
            code,
            Some(file.path.clone()),
            message,
        )]))
    };
    match item.kind {
        ItemKind::Unreadable => one(Code::UnreadableFile, walk.unreadable(index).to_owned()),
        ItemKind::Symlink => one(Code::SymlinkSkipped, symlink_message(&file.path)),
        ItemKind::Special => one(
            Code::NotRegularFile,
            "not a regular file; not opened".into(),
        ),
        ItemKind::File => match walk.name_kind(index) {
            kind @ (NameKind::Receipt { .. } | NameKind::MisnamedReceipt) => {
                check_receipt_file(walk, &file, &kind, options, observer)
            }
            NameKind::OtherJson => check_other_json(walk, &file, options, observer),
            NameKind::SigningKey => one(Code::SigningKeyExposed, signing_key_message(&file.path)),
            NameKind::Temp => one(
                Code::LeftoverTempFile,
                "a seal-host temporary file left by an interrupted write".into(),
            ),
            NameKind::HeadState | NameKind::OperationState => {
                Read::Done(Checked::Findings(Vec::new()))
            }
            NameKind::Other if walk.dirs[item.dir as usize].is_receipt_dir => one(
                Code::UnexpectedFile,
                "seal-host does not write this file into receipt directories".into(),
            ),
            NameKind::Other => Read::Done(Checked::Findings(Vec::new())),
        },
    }
}

fn symlink_message(path: &Path) -> String {
    match std::fs::read_link(path) {
        Ok(target) => format!("symbolic link to {}: not followed", target.display()),
        Err(_) => "symbolic link: not followed".into(),
    }
}

fn signing_key_message(path: &Path) -> String {
    let public = crate::input::read_file_capped(path, 32)
        .ok()
        .and_then(|b| <[u8; 32]>::try_from(b.as_slice()).ok())
        .map(|seed| receipt::key_hex(&crate::signature::public_key_of_seed(&seed)));
    match public {
        Some(public) => format!("the receipt-signing seed (public key {public}) lies beside the receipts it signs: anyone who can read it can forge receipts; pin the installation key from a separate record with --receipt-key"),
        None => "a receipt-signing key file that is not a 32-byte seed lies beside the receipts".into(),
    }
}

thread_local! {
    /// Each worker's read buffer, reused for every receipt it reads (a fresh 10 KB buffer per
    /// file costs more in the allocator than the read itself).
    static READ_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A read buffer that grew beyond this for an unusually large file is not kept.
const KEPT_BUFFER_BYTES: usize = 1 << 20;

/// Reads a file into `bytes` (cleared first), noticing a replacement or modification since
/// the walk saw it. Returns the metadata of the opened file and whether it changed.
fn read_stable(
    walk: &Walk,
    walked: &Walked,
    bytes: &mut Vec<u8>,
) -> Result<(Option<Metadata>, bool), String> {
    let mut file = File::open(&walked.path).map_err(|e| e.to_string())?;
    let opened = file.metadata().map_err(|e| e.to_string())?;
    if opened.len() > MAX_RECEIPT_BYTES {
        return Err(format!(
            "{} bytes: larger than {MAX_RECEIPT_BYTES}, not read",
            opened.len()
        ));
    }
    crate::input::read_into(&mut file, opened.len() as usize, usize::MAX, bytes)
        .map_err(|e| e.to_string())?;
    let changed = (walked.stamp != 0 && walked.stamp != walk.stamp(&opened))
        || bytes.len() as u64 != opened.len();
    Ok((Some(opened), changed))
}

fn same_file_state(a: &Metadata, b: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.ino() == b.ino()
            && a.dev() == b.dev()
            && a.len() == b.len()
            && a.mtime() == b.mtime()
            && a.mtime_nsec() == b.mtime_nsec()
            && a.ctime() == b.ctime()
            && a.ctime_nsec() == b.ctime_nsec()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.modified().ok() == b.modified().ok()
    }
}

fn check_receipt_file(
    walk: &Walk,
    item: &Walked,
    kind: &NameKind,
    options: &Options,
    observer: &dyn Observer,
) -> Read {
    let path = Some(item.path.clone());
    let read = READ_BUFFER.with(|buffer| {
        let mut buffer = buffer.borrow_mut();
        let started = std::time::Instant::now();
        let read = read_stable(walk, item, &mut buffer);
        read_ahead::note_read(started.elapsed());
        let read = read.map(|(opened, changed)| {
            observer.read(&item.path);
            let content = copies::content_key(walk, &buffer);
            let verified = SCRATCH.with(|scratch| {
                let scratch = &mut scratch.borrow_mut();
                receipt::verify_bytes_deferred(&buffer, options.pin.as_ref(), scratch)
            });
            (opened, changed, verified, content)
        });
        if buffer.capacity() > KEPT_BUFFER_BYTES {
            *buffer = Vec::new();
        }
        read
    });
    let (opened, mut changed, verified, content) = match read {
        Ok(read) => read,
        Err(why) => {
            return Read::Done(Checked::Receipt(
                Box::new(ReceiptEntry {
                    file: item.path.clone(),
                    status: "unreadable",
                    signed_by: None,
                    report: None,
                    file_findings: vec![Finding::new(Code::UnreadableFile, path, why)],
                }),
                None,
                None,
            ))
        }
    };
    changed |= match (&opened, std::fs::symlink_metadata(&item.path)) {
        (Some(opened), Ok(now)) => !same_file_state(opened, &now),
        _ => true,
    };
    let mut findings = Vec::new();
    if changed {
        findings.push(Finding::new(
            Code::ChangedDuringAudit,
            path.clone(),
            "the file was replaced or modified while it was audited; the result describes the bytes read, rerun the audit",
        ));
    }
    let (report, challenge) = match verified {
        Ok(verified) => verified,
        Err(problem) => {
            findings.insert(0, Finding::new(problem.code, path, problem.message));
            return Read::Done(Checked::Receipt(
                Box::new(ReceiptEntry {
                    file: item.path.clone(),
                    status: "unreadable",
                    signed_by: None,
                    report: None,
                    file_findings: findings,
                }),
                None,
                Some(content),
            ));
        }
    };
    Read::Unsettled(Unsettled {
        entry: Box::new(ReceiptEntry {
            file: item.path.clone(),
            status: "failed",
            signed_by: None,
            report: Some(report),
            file_findings: Vec::new(),
        }),
        dir: item.dir,
        kind: kind.clone(),
        challenge,
        findings,
        content,
    })
}

/// The rest of a receipt file's checks once its signature is settled: its name, the
/// approver its statement credits, and its status with the file-level findings.
fn finish_receipt(walk: &Walk, receipt: Unsettled, options: &Options) -> Checked {
    let Unsettled {
        mut entry,
        dir,
        kind,
        challenge: _,
        mut findings,
        content,
    } = receipt;
    let Some(report) = &entry.report else {
        return Checked::Receipt(entry, None, Some(content));
    };
    let path = Some(entry.file.clone());
    let name_hash = report.facts.name_hash.as_deref().unwrap_or("(none)");
    match &kind {
        NameKind::Receipt { hash, .. } if hash == name_hash => {}
        NameKind::Receipt { hash, .. } => findings.push(Finding::new(
            Code::MisnamedReceipt,
            path.clone(),
            format!("the name carries {hash}, the receipt's own request hash is {name_hash}"),
        )),
        _ => findings.push(Finding::new(
            Code::MisnamedReceipt,
            path.clone(),
            format!("seal-host names it receipt-<20-digit counter>-{name_hash}.json"),
        )),
    }
    let mut file_findings: Vec<Finding> = report
        .findings
        .iter()
        .map(|f| Finding {
            path: path.clone(),
            ..f.clone()
        })
        .collect();
    file_findings.extend(findings);
    let attribution = options
        .approvers
        .as_ref()
        .map(|list| approval_credit::attribute(report, list, &entry.file))
        .unwrap_or_default();
    file_findings.extend(attribution.finding);
    let observed = Observed {
        session: report.facts.session.clone(),
        canonical_request_sha256: report.reported.canonical_request_sha256.clone(),
        framed_subject_sha256: report.facts.framed_subject_sha256.clone(),
        now: report.facts.now,
        // Only a head state is compared with the chain of audit lines.
        audit_line: (walk.dirs[dir as usize].state.head_state.is_some())
            .then(|| report.facts.audit_line.clone())
            .flatten(),
        released: released(report),
        operation_id: report.facts.operation_id.clone(),
    };
    let trust_only = |f: &Finding| matches!(f.code, Code::SignerUnpinned | Code::UnsignedReceipt);
    let status = if file_findings
        .iter()
        .any(|f| f.severity == Severity::Error && !trust_only(f))
    {
        "failed"
    } else {
        report.status.as_str()
    };
    entry.status = status;
    entry.signed_by = attribution.signed_by;
    entry.file_findings = file_findings;
    Checked::Receipt(entry, Some(Box::new(observed)), Some(content))
}

fn released(report: &ReceiptReport) -> Option<(String, String)> {
    let facts = &report.facts;
    match (facts.verdict.as_deref(), facts.release_status.as_deref()) {
        (Some("ALLOW"), Some("UNKNOWN" | "RELEASED")) => Some((
            facts.operation_id.clone()?,
            facts.release_frame_sha256.clone()?,
        )),
        _ => None,
    }
}

/// A `.json` file that is not named as a receipt: a receipt under another name is misnamed.
fn check_other_json(
    walk: &Walk,
    item: &Walked,
    options: &Options,
    observer: &dyn Observer,
) -> Read {
    let mut bytes = Vec::new();
    let looks_like_receipt = read_stable(walk, item, &mut bytes)
        .ok()
        .and_then(|_| receipt::parse(&bytes).ok())
        .is_some_and(|map| {
            map.get("record_type").and_then(|t| t.as_str()) == Some("seal.authorization-decision")
        });
    if looks_like_receipt {
        check_receipt_file(walk, item, &NameKind::MisnamedReceipt, options, observer)
    } else {
        Read::Done(Checked::Findings(Vec::new()))
    }
}
