//! `sealkit migrate OLD_DIR… --out NEW_DIR` as a library call (docs/migration.md): every receipt
//! under the old directories becomes one [`Record`], streamed in walk order to
//! `NEW_DIR/migration.jsonl` and to a caller's sink, then `NEW_DIR/summary.json` is written.
//!
//! Guarantees: the old directories are only read (a NEW_DIR inside one is refused before
//! anything is written); an existing `migration.jsonl` or `summary.json` that is not
//! sealkit's own migration output is refused before anything is written
//! ([`super::output`]); a run with no receipt, or one that meets a receipt it cannot read,
//! leaves NEW_DIR as it found it (nothing to check is exit status 1, could not read 2); both
//! outputs are published atomically (temporary file, fsync, rename) once every receipt has
//! been migrated: then `summary.json` and the temporary files an interrupted run left are
//! removed, `migration.jsonl` is published and `summary.json` written last, so
//! `summary.json` exists exactly when its run completed and binds `migration.jsonl` by
//! SHA-256; the same inputs give the same bytes (walk order, no timestamps, paths as given).
//! Receipts are checked in parallel batches, so memory is bounded by the batch plus the
//! frame index and the sorted list of receipt paths.

use super::frames::FrameIndex;
use super::inputs::{self, ReceiptFile};
use super::output::{self, FORMAT, RECORDS_FILE, SUMMARY_FILE};
use super::{migrate_receipt, Change, Label, Options, Presence, Record};
use crate::atomic_write::{self, AtomicFile};
use crate::input::{Items, NothingToCheck, Unreadable};
use crate::receipt::Scratch;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

/// Output files are private, like the receipt directories they describe.
const OUTPUT_MODE: u32 = 0o600;
/// Receipts checked per parallel batch.
const BATCH: usize = 2048;

/// A capture the frames came from, as given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureInfo {
    pub path: String,
    pub sha256: String,
    pub frames: u64,
}

/// What the run read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummaryInputs {
    /// The OLD_DIR arguments as given.
    pub old: Vec<String>,
    pub frames: Vec<CaptureInfo>,
    pub server: Option<String>,
}

/// `migration.jsonl`, bound into the summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordsFile {
    pub file: String,
    pub count: u64,
    pub sha256: String,
}

/// `summary.json` (README.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub format: String,
    pub inputs: SummaryInputs,
    pub receipts: u64,
    /// Receipts whose label is not `identity-unchanged`.
    pub needs_attention: u64,
    /// Every label, in precedence order, with its count.
    pub labels: BTreeMap<Label, u64>,
    pub changes: BTreeMap<Change, u64>,
    pub meta: BTreeMap<Presence, u64>,
    /// Recorded targets by profile: `legacy`, `host`, `committed`, `unmatched` (guarded,
    /// profile not established), `unguarded`.
    pub old_profiles: BTreeMap<String, u64>,
    /// Files under the old directories that are not receipts.
    pub other_files: u64,
    pub records: RecordsFile,
}

impl Summary {
    fn new(inputs: SummaryInputs) -> Self {
        let mut old_profiles = BTreeMap::new();
        for name in ["committed", "host", "legacy", "unguarded", "unmatched"] {
            old_profiles.insert(name.to_owned(), 0);
        }
        Summary {
            format: FORMAT.to_owned(),
            inputs,
            receipts: 0,
            needs_attention: 0,
            labels: Label::ALL.iter().map(|&l| (l, 0)).collect(),
            changes: Change::ALL.into_iter().map(|c| (c, 0)).collect(),
            meta: [Presence::Absent, Presence::Present, Presence::Unknown]
                .into_iter()
                .map(|p| (p, 0))
                .collect(),
            old_profiles,
            other_files: 0,
            records: RecordsFile {
                file: RECORDS_FILE.to_owned(),
                count: 0,
                sha256: String::new(),
            },
        }
    }

    /// Counts one record.
    pub fn count(&mut self, record: &Record) {
        self.add(&Tally::of(record));
    }

    fn add(&mut self, tally: &Tally) {
        self.receipts += 1;
        self.needs_attention += u64::from(tally.label.needs_attention());
        *self.labels.entry(tally.label).or_default() += 1;
        for (change, on) in Change::ALL.iter().zip(tally.changes) {
            *self.changes.entry(*change).or_default() += u64::from(on);
        }
        *self.meta.entry(tally.meta).or_default() += 1;
        *self
            .old_profiles
            .entry(tally.profile.to_owned())
            .or_default() += 1;
    }
}

/// What the summary counts of one record.
#[derive(Debug, Clone, Copy)]
struct Tally {
    label: Label,
    /// Indexed like [`Change::ALL`].
    changes: [bool; 3],
    meta: Presence,
    profile: &'static str,
}

impl Tally {
    fn of(record: &Record) -> Self {
        Tally {
            label: record.label,
            changes: Change::ALL.map(|c| record.changes.contains(&c)),
            meta: record.meta,
            profile: match (&record.old_target, record.old_profile) {
                (None, _) => "unguarded",
                (Some(_), None) => "unmatched",
                (Some(_), Some(profile)) => profile.as_str(),
            },
        }
    }
}

/// One receipt's place in a batch. Slots (and their line buffers) are reused from batch to
/// batch, so a run does not allocate and release a batch's worth of memory each time.
struct Slot {
    line: Vec<u8>,
    tally: Option<Tally>,
    /// The receipt could not be read: the run stops there.
    unreadable: Option<Unreadable>,
}

/// Why a migration could not run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// An OLD_DIR (or a directory under it), or a receipt, that cannot be read.
    #[error(transparent)]
    Input(Unreadable),
    /// No receipt under the old directories.
    #[error(transparent)]
    NothingToCheck(NothingToCheck),
    /// NEW_DIR is an old directory or inside one.
    #[error(
        "{} is inside the old directory {}: migration never writes into its input",
        out.display(),
        old.display()
    )]
    OutInsideOld { out: PathBuf, old: PathBuf },
    /// NEW_DIR holds a `migration.jsonl` or `summary.json` that sealkit did not write.
    #[error(
        "{} exists and is not sealkit's migration output ({}): migrate replaces only its own files, so nothing was changed",
        .0.path.display(),
        .0.why
    )]
    ForeignOutput(output::Foreign),
    /// Writing NEW_DIR failed.
    #[error("cannot write {}: {}", .0.display(), .1)]
    Output(PathBuf, #[source] io::Error),
    /// The caller's sink failed (e.g. a closed stdout).
    #[error(transparent)]
    Sink(io::Error),
}

impl crate::error_code::Coded for RunError {
    fn code(&self) -> &'static str {
        match self {
            RunError::Input(error) => error.code(),
            RunError::NothingToCheck(error) => error.code(),
            RunError::OutInsideOld { .. } => "output-inside-input",
            RunError::ForeignOutput(_) => "foreign-output",
            RunError::Output(..) => "cannot-write-output",
            RunError::Sink(_) => "io-error",
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            RunError::ForeignOutput(_) => Some(
                "choose a new or empty --out directory, or move that file out of it first".into(),
            ),
            RunError::NothingToCheck(error) => error.help(),
            _ => None,
        }
    }

    fn outcome(&self) -> crate::outcome::Outcome {
        match self {
            RunError::Input(error) => error.outcome(),
            RunError::NothingToCheck(error) => error.outcome(),
            _ => crate::outcome::Outcome::Unchecked,
        }
    }
}

/// Everything a run needs besides the frames.
#[derive(Debug, Clone)]
pub struct Plan<'a> {
    pub old: &'a [PathBuf],
    pub out: &'a Path,
    pub captures: Vec<CaptureInfo>,
    pub options: Options,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Migrates every receipt under `plan.old`, writing NEW_DIR and streaming each record's JSON
/// line (newline excluded) to `sink` in walk order.
pub fn migrate(
    plan: &Plan<'_>,
    index: &FrameIndex,
    sink: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> Result<Summary, RunError> {
    let walk = inputs::receipt_files(plan.old).map_err(RunError::Input)?;
    refuse_out_inside_old(plan.out, plan.old)?;
    output::check_replaceable(plan.out).map_err(|e| match e {
        Ok(foreign) => RunError::ForeignOutput(foreign),
        Err((path, error)) => RunError::Output(path, error),
    })?;
    if walk.receipts.is_empty() {
        return Err(RunError::NothingToCheck(NothingToCheck {
            evidence: Items::Receipts,
            where_: plan
                .old
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            written: false,
        }));
    }
    let out_err = |path: &Path| {
        let path = path.to_path_buf();
        move |e| RunError::Output(path, e)
    };
    // NEW_DIR holds the temporary file while the run lasts; made here, it is removed again
    // when the run stops, so a run that cannot complete changes nothing.
    let made_out = !plan.out.exists();
    std::fs::create_dir_all(plan.out).map_err(out_err(plan.out))?;
    let result = migrate_into(plan, index, &walk, sink);
    if result.is_err() && made_out {
        let _ = std::fs::remove_dir(plan.out);
    }
    result
}

/// [`migrate`] once NEW_DIR exists: the records go to a temporary file that becomes
/// `migration.jsonl` only when every receipt has been migrated.
fn migrate_into(
    plan: &Plan<'_>,
    index: &FrameIndex,
    walk: &inputs::Walk,
    sink: &mut dyn FnMut(&[u8]) -> io::Result<()>,
) -> Result<Summary, RunError> {
    let out_err = |path: &Path| {
        let path = path.to_path_buf();
        move |e| RunError::Output(path, e)
    };
    let summary_path = plan.out.join(SUMMARY_FILE);
    let records_path = plan.out.join(RECORDS_FILE);
    let mut summary = Summary::new(SummaryInputs {
        old: plan.old.iter().map(|p| p.display().to_string()).collect(),
        frames: plan.captures.clone(),
        server: plan.options.server.clone(),
    });
    summary.other_files = walk.other_files;
    let mut records =
        AtomicFile::create(&records_path, OUTPUT_MODE).map_err(out_err(&records_path))?;
    let mut hasher = Sha256::new();
    let new_slots = || -> Vec<Slot> {
        (0..BATCH.min(walk.receipts.len()))
            .map(|_| Slot {
                line: Vec::with_capacity(2048),
                tally: None,
                unreadable: None,
            })
            .collect()
    };
    let migrate_batch = |batch: &[ReceiptFile], slots: &mut [Slot]| {
        slots
            .par_iter_mut()
            .zip(batch.par_iter())
            .for_each(|(slot, file)| migrate_file(file, index, &plan.options, slot));
    };
    // Batch n+1 is migrated on the pool while batch n is written out on this thread.
    let (mut current, mut spare) = (new_slots(), new_slots());
    let mut batches = walk.receipts.chunks(BATCH);
    let mut pending = batches.next();
    if let Some(batch) = pending {
        migrate_batch(batch, &mut current);
    }
    while let Some(batch) = pending.take() {
        let next = batches.next();
        let written = rayon::in_place_scope(|scope| {
            if let Some(next) = next {
                let slots = &mut spare;
                let migrate_batch = &migrate_batch;
                scope.spawn(move |_| migrate_batch(next, slots));
            }
            // A receipt that could not be read stops the run before any of its batch is
            // written out (a run of at most one batch prints nothing, then).
            if let Some(unreadable) = current[..batch.len()]
                .iter_mut()
                .find_map(|slot| slot.unreadable.take())
            {
                return Err(RunError::Input(unreadable));
            }
            for slot in &current[..batch.len()] {
                let line = &slot.line;
                records
                    .write_all(line)
                    .and_then(|()| records.write_all(b"\n"))
                    .map_err(out_err(&records_path))?;
                hasher.update(line);
                hasher.update(b"\n");
                if let Some(tally) = &slot.tally {
                    summary.add(tally);
                }
                sink(line).map_err(RunError::Sink)?;
            }
            Ok::<(), RunError>(())
        });
        written?;
        std::mem::swap(&mut current, &mut spare);
        pending = next;
    }
    // Every receipt is migrated: only now is the previous output replaced. Without
    // `summary.json` a reader sees an interrupted run, so it goes first.
    remove_leftovers(plan.out, &records).map_err(out_err(plan.out))?;
    match std::fs::remove_file(&summary_path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(out_err(&summary_path)(e)),
        _ => {}
    }
    records.commit().map_err(out_err(&records_path))?;
    summary.records.count = summary.receipts;
    summary.records.sha256 = crate::digest::hex_lower(&hasher.finalize());
    let mut bytes = serde_json::to_vec_pretty(&summary).unwrap_or_default();
    bytes.push(b'\n');
    atomic_write::write_atomic(&summary_path, &bytes, OUTPUT_MODE)
        .map_err(out_err(&summary_path))?;
    Ok(summary)
}

thread_local! {
    /// Each worker's read buffer, reused for every receipt it reads.
    static READ_BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Reads and migrates one file into its slot; a file that cannot be read leaves the slot
/// with why.
fn migrate_file(file: &ReceiptFile, index: &FrameIndex, options: &Options, slot: &mut Slot) {
    slot.line.clear();
    slot.tally = None;
    slot.unreadable = None;
    let record = READ_BUFFER.with(|buffer| {
        let mut buffer = buffer.borrow_mut();
        inputs::read(file, &mut buffer)?;
        let mut record = SCRATCH.with(|scratch| {
            migrate_receipt(
                &file.shown(),
                file.counter,
                Ok(buffer.as_slice()),
                index,
                options,
                &mut scratch.borrow_mut(),
            )
        });
        record.name(&file.path);
        Ok(record)
    });
    match record {
        Ok(record) => {
            // Writing a derived Serialize value into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut slot.line, &record);
            slot.tally = Some(Tally::of(&record));
        }
        Err(unreadable) => slot.unreadable = Some(unreadable),
    }
}

/// Reads one receipt (not larger than the audit's limit); see [`inputs::read`].
pub fn read_receipt(file: &ReceiptFile) -> Result<Vec<u8>, Unreadable> {
    let mut bytes = Vec::new();
    inputs::read(file, &mut bytes)?;
    Ok(bytes)
}

/// Temporary files an interrupted run of ours left in NEW_DIR (not this run's own, `ours`).
fn remove_leftovers(out: &Path, ours: &AtomicFile) -> io::Result<()> {
    for entry in std::fs::read_dir(out)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if entry.path() != ours.temp_path()
            && [RECORDS_FILE, SUMMARY_FILE]
                .iter()
                .any(|target| atomic_write::is_temp_for(&name, target))
        {
            std::fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

fn refuse_out_inside_old(out: &Path, old: &[PathBuf]) -> Result<(), RunError> {
    let out_resolved = resolve(out);
    for root in old {
        if !root.is_dir() {
            continue;
        }
        let root_resolved = resolve(root);
        if out_resolved.starts_with(&root_resolved) {
            return Err(RunError::OutInsideOld {
                out: out.to_path_buf(),
                old: root.clone(),
            });
        }
    }
    Ok(())
}

/// The absolute, symlink-free form of a path that may not exist yet: its longest existing
/// ancestor canonicalized, then the remaining components.
fn resolve(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            let mut resolved = canonical;
            for component in rest.iter().rev() {
                match component {
                    Component::ParentDir => {
                        resolved.pop();
                    }
                    Component::CurDir => {}
                    other => resolved.push(other),
                }
            }
            return resolved;
        }
        match (existing.parent(), existing.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                existing = parent;
            }
            _ => return absolute,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn an_output_inside_an_old_directory_is_refused_even_before_it_exists() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old");
        std::fs::create_dir(&old).unwrap();
        let inside = old.join("x/../new");
        assert!(refuse_out_inside_old(&inside, std::slice::from_ref(&old)).is_err());
        assert!(refuse_out_inside_old(&old, std::slice::from_ref(&old)).is_err());
        assert!(refuse_out_inside_old(&dir.path().join("new"), &[old]).is_ok());
    }
}
