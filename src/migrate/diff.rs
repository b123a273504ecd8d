//! Old evidence against new (docs/migration.md "Pairing old with new evidence"): each side is
//! receipts (files or directories) or a migration output; every receipt is migrated with
//! the same rules as `migrate` (frames from the supplied captures and from the object A of
//! any receipt on either side that passed its integrity checks: a frame is matched by its
//! exact-frame subject, so its source need not be trusted). Receipts are paired by
//! exact-frame subject first, then by `request_sha256`; several receipts of one frame (a
//! BLOCK then its approved retry) pair in session order (`now`, then the file counter).
//! Counters are shown but never pair anything: hosts reuse them across restarts.
//!
//! Guarantees: every receipt ends up in exactly one pair or in one side's list; the report
//! says what changed per pair (target and its profile, canonical request hash, verdict,
//! `_meta` keys) and which migration facts the evidence shows ([`Note`]); every label says
//! whether this diff recomputed it or only read it from a migration output ([`verify`]), and
//! an unverified label or a [`verify::Finding`] always needs attention. Nothing here
//! prints; memory holds both sides' records (pairing needs them all).

pub mod verify;

use super::frames::FrameIndex;
use super::output::{FORMAT, RECORDS_FILE, SUMMARY_FILE};
use super::run::{self, Summary};
use super::{
    inputs, prepare, Change, Label, Link, Options, Prepared, Presence, ProfileName, Record,
};
use crate::input::{Items, NothingToCheck, Unreadable};
use crate::receipt::Scratch;
use rayon::prelude::*;
use serde::Serialize;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use verify::{Finding, LabelCheck};

/// Where an item came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// A receipt file, migrated by this diff.
    Receipt,
    /// A record of a `sealkit migrate` output.
    MigrationRecord,
}

/// Which side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Old,
    New,
}

impl Side {
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Old => "old",
            Side::New => "new",
        }
    }
}

/// One receipt (or migration record) with its migration.
#[derive(Debug, Clone)]
pub struct Item {
    pub record: Record,
    pub origin: Origin,
    /// Whether this diff recomputed the record's migration facts.
    pub check: LabelCheck,
}

/// What one side shows for an item. For a migration record on the new side, the target,
/// profile and canonical request hash are the migrated (`committed`) ones and there is no
/// verdict; everywhere else they are what the receipt recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    pub receipt: String,
    /// The receipt's exact path in hex, only when it is not UTF-8 ([`crate::path_json`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receipt_hex: Option<String>,
    pub origin: Origin,
    pub record_version: Option<u64>,
    pub counter: Option<u64>,
    pub session: Option<String>,
    pub now: Option<u64>,
    pub verdict: Option<String>,
    pub target: Option<String>,
    pub target_profile: Option<ProfileName>,
    pub canonical_request_sha256: Option<String>,
    pub meta: Presence,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta_keys: Option<Vec<String>>,
    /// This receipt's own migration label and changes.
    pub label: Label,
    pub changes: Vec<Change>,
    /// Whether this diff recomputed the label (`recomputed`, `confirmed`, `contradicted`) or
    /// only read it from a migration output (`unverified`).
    pub label_check: LabelCheck,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    #[serde(skip)]
    framed_subject: Option<(String, u64)>,
}

/// Which of the compared values differ (`null`: unknown on a side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Changed {
    pub target: bool,
    pub canonical_request_sha256: bool,
    pub verdict: Option<bool>,
    pub meta_keys: Option<bool>,
}

/// The frame a pair shares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairKey {
    pub link: Link,
    /// SHA-256 of the frame (`framed-subject`) or of its request line (`request-sha256`).
    pub sha256: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<u64>,
}

/// An old item and the new item it pairs with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pair {
    pub key: PairKey,
    /// 1-based place of this pair among the pairs of the same frame, in session order.
    pub position: usize,
    pub of: usize,
    /// The old receipt's migration label and changes.
    pub label: Label,
    pub changes: Vec<Change>,
    /// The committed target of the frame (null when unguarded or unknown).
    pub committed_target: Option<String>,
    pub changed: Changed,
    pub old: View,
    pub new: View,
}

/// A migration fact the evidence shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoteCode {
    /// Which profile the recorded targets of a side belong to.
    TargetProfiles,
    /// Distinct frames share one `canonical_request_sha256` (record_version 2 forces `id` 1
    /// and drops `_meta`).
    SharedCanonicalHash,
    /// One file counter names several receipts.
    CounterReused,
    /// One frame has several receipts, paired in session order.
    SeveralReceiptsPerFrame,
}

impl NoteCode {
    /// The code as JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            NoteCode::TargetProfiles => "target-profiles",
            NoteCode::SharedCanonicalHash => "shared-canonical-hash",
            NoteCode::CounterReused => "counter-reused",
            NoteCode::SeveralReceiptsPerFrame => "several-receipts-per-frame",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Note {
    pub code: NoteCode,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    pub message: String,
    /// The values the note is about, in full (digests, counters, profiles).
    pub items: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiffSummary {
    pub old_receipts: usize,
    pub new_receipts: usize,
    pub pairs: usize,
    pub old_only: usize,
    pub new_only: usize,
    /// Labels of the old side's receipts.
    pub labels: BTreeMap<Label, usize>,
    /// Labels of the new side's receipts.
    pub new_labels: BTreeMap<Label, usize>,
    /// Labels on each side reported by a migration output and not verified.
    pub old_unverified: usize,
    pub new_unverified: usize,
    /// Error findings (migration records that disagree with the recomputation).
    pub findings: usize,
    /// A receipt on either side is not `identity-unchanged`, one side has receipts the other
    /// lacks, a label is not verified, or there is a finding.
    pub needs_attention: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiffReport {
    pub pairs: Vec<Pair>,
    pub old_only: Vec<View>,
    pub new_only: Vec<View>,
    pub notes: Vec<Note>,
    pub findings: Vec<Finding>,
    pub summary: DiffSummary,
}

/// Why a diff could not run.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// A side, a directory under it or one of its receipts cannot be read: not checked.
    #[error(transparent)]
    Unreadable(Unreadable),
    /// A side is a migration output that cannot be taken (interrupted, damaged, edited).
    #[error("{}: {message}", path.display())]
    Output { path: PathBuf, message: String },
    /// A side holds no receipt: there is nothing to compare.
    #[error(transparent)]
    NothingToCheck(NothingToCheck),
}

impl crate::error_code::Coded for DiffError {
    fn code(&self) -> &'static str {
        match self {
            DiffError::Unreadable(error) => error.code(),
            DiffError::Output { .. } => "unreadable-input",
            DiffError::NothingToCheck(error) => error.code(),
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            DiffError::NothingToCheck(error) => error.help(),
            _ => None,
        }
    }

    fn outcome(&self) -> crate::outcome::Outcome {
        match self {
            DiffError::Unreadable(error) => error.outcome(),
            DiffError::Output { .. } => crate::outcome::Outcome::Unchecked,
            DiffError::NothingToCheck(error) => error.outcome(),
        }
    }
}

/// One side's input, read.
enum Loaded {
    Receipts(Vec<Prepared>),
    Records(Vec<Record>),
}

impl Loaded {
    fn is_empty(&self) -> bool {
        match self {
            Loaded::Receipts(receipts) => receipts.is_empty(),
            Loaded::Records(records) => records.is_empty(),
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Reads both sides, migrates their receipts with `index` (plus every trusted object A) and
/// pairs them.
pub fn diff_paths(
    old: &Path,
    new: &Path,
    mut index: FrameIndex,
    options: &Options,
) -> Result<DiffReport, DiffError> {
    let old_loaded = load(old)?;
    let new_loaded = load(new)?;
    // Comparing with nothing checks nothing: a side pointed at the wrong place must not pass.
    for (side, path, loaded) in [("OLD", old, &old_loaded), ("NEW", new, &new_loaded)] {
        if loaded.is_empty() {
            return Err(DiffError::NothingToCheck(NothingToCheck {
                evidence: Items::Receipts,
                where_: format!("{side} {}", path.display()),
                written: false,
            }));
        }
    }
    for loaded in [&old_loaded, &new_loaded] {
        if let Loaded::Receipts(prepared) = loaded {
            for p in prepared {
                if let Some(frame) = p.trusted_object_a() {
                    index.add_object_a(p.receipt(), frame);
                }
            }
        }
    }
    let items = |loaded: Loaded| -> Vec<Item> {
        match loaded {
            Loaded::Receipts(prepared) => prepared
                .into_par_iter()
                .map(|p| Item {
                    record: super::finish(p, &index, options),
                    origin: Origin::Receipt,
                    check: LabelCheck::Recomputed,
                })
                .collect(),
            Loaded::Records(records) => records
                .into_iter()
                .map(|record| Item {
                    record,
                    origin: Origin::MigrationRecord,
                    check: LabelCheck::Unverified,
                })
                .collect(),
        }
    };
    let mut old_items = items(old_loaded);
    let mut new_items = items(new_loaded);
    let mut findings = verify::check_records(&mut old_items, Side::Old, &new_items);
    findings.extend(verify::check_records(&mut new_items, Side::New, &old_items));
    verify::adopt_unverified(&mut old_items, &new_items);
    verify::adopt_unverified(&mut new_items, &old_items);
    Ok(diff(&old_items, &new_items, findings))
}

fn load(path: &Path) -> Result<Loaded, DiffError> {
    let error = |message: String| DiffError::Output {
        path: path.to_path_buf(),
        message,
    };
    if path.is_dir() && path.join(RECORDS_FILE).is_file() {
        if !path.join(SUMMARY_FILE).is_file() {
            return Err(error(format!(
                "{RECORDS_FILE} without {SUMMARY_FILE}: an interrupted migration; rerun sealkit migrate"
            )));
        }
        return load_migration_output(path).map(Loaded::Records);
    }
    if path.is_file() && path.extension().is_some_and(|e| e == "jsonl") {
        let bytes = read_output(path).map_err(|e| error(e.to_string()))?;
        return parse_records(&bytes).map(Loaded::Records).map_err(error);
    }
    let walk = inputs::receipt_files(&[path.to_path_buf()]).map_err(DiffError::Unreadable)?;
    let prepared = walk
        .receipts
        .par_iter()
        .map(|file| {
            let bytes = run::read_receipt(file)?;
            Ok(SCRATCH.with(|scratch| {
                prepare(
                    &file.shown(),
                    file.counter,
                    Ok(&bytes),
                    &mut scratch.borrow_mut(),
                )
                .named(&file.path)
            }))
        })
        .collect::<Result<Vec<_>, Unreadable>>()
        .map_err(DiffError::Unreadable)?;
    Ok(Loaded::Receipts(prepared))
}

/// The largest migration output file `diff` reads whole (100,000 records are ≈ 100 MB).
pub const MAX_OUTPUT_BYTES: u64 = 1024 * 1024 * 1024;

fn read_output(path: &Path) -> std::io::Result<Vec<u8>> {
    crate::input::read_file_capped(path, MAX_OUTPUT_BYTES)
}

/// A complete migration output: `summary.json` of this format whose record count and
/// SHA-256 match `migration.jsonl`.
fn load_migration_output(dir: &Path) -> Result<Vec<Record>, DiffError> {
    let error = |message: String| DiffError::Output {
        path: dir.to_path_buf(),
        message,
    };
    let summary = read_output(&dir.join(SUMMARY_FILE)).map_err(|e| error(e.to_string()))?;
    let records = read_output(&dir.join(RECORDS_FILE)).map_err(|e| error(e.to_string()))?;
    read_migration_output(&summary, &records).map_err(error)
}

/// The records of a migration output given the bytes of its `summary.json` and
/// `migration.jsonl`: accepted only when the summary is of this format and binds exactly
/// these records (their SHA-256 and their count), so a truncated, extended or stale
/// `migration.jsonl` is never taken for a complete output. The binding is unsigned: it
/// cannot tell an edit from the original, which is why records are then checked
/// ([`verify`]).
pub fn read_migration_output(summary: &[u8], records: &[u8]) -> Result<Vec<Record>, String> {
    refuse_duplicates(SUMMARY_FILE, summary)?;
    let summary: Summary = serde_json::from_slice(summary)
        .map_err(|e| format!("{SUMMARY_FILE} is not a migration summary: {e}"))?;
    if summary.format != FORMAT {
        return Err(format!(
            "{SUMMARY_FILE} has format {:?}, expected {FORMAT:?}",
            summary.format
        ));
    }
    // A check against accidents (a partial copy, a stale summary), not against edits:
    // whoever can edit the records can recompute this hash. Labels are recomputed instead.
    if crate::digest::sha256_hex(records) != summary.records.sha256 {
        return Err(format!(
            "{RECORDS_FILE} does not match the SHA-256 in {SUMMARY_FILE}: an incomplete or damaged migration output (the hash guards against accidents, not edits); rerun sealkit migrate"
        ));
    }
    let parsed = parse_records(records)?;
    if parsed.len() as u64 != summary.records.count {
        return Err(format!(
            "{RECORDS_FILE} holds {} records but {SUMMARY_FILE} counts {}: an edited migration output; rerun sealkit migrate",
            parsed.len(),
            summary.records.count
        ));
    }
    Ok(parsed)
}

/// The records of a `migration.jsonl` (one JSON record per non-empty line).
pub fn parse_records(bytes: &[u8]) -> Result<Vec<Record>, String> {
    bytes
        .split(|b| *b == b'\n')
        .enumerate()
        .filter(|(_, line)| !line.is_empty())
        .map(|(i, line)| {
            refuse_duplicates(&format!("{RECORDS_FILE} line {}", i + 1), line)?;
            serde_json::from_slice(line)
                .map_err(|e| format!("line {} is not a migration record: {e}", i + 1))
        })
        .collect()
}

/// A repeated member name in a migration output file or record is refused, as everywhere.
fn refuse_duplicates(what: &str, bytes: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(bytes);
    match crate::json::find_duplicate(&text) {
        Ok(Some(duplicate)) => Err(format!(
            "{what}: {}: {duplicate}",
            crate::finding::Code::DuplicateMember
        )),
        _ => Ok(()),
    }
}

/// Session order: `now`, then the file counter, then the path.
fn session_order(view: &View) -> (u64, u64, &str) {
    (
        view.now.unwrap_or(u64::MAX),
        view.counter.unwrap_or(u64::MAX),
        &view.receipt,
    )
}

fn view(item: &Item, side: Side) -> View {
    let r = &item.record;
    let migrated = item.origin == Origin::MigrationRecord && side == Side::New;
    let (target, target_profile, canonical, verdict) = if migrated {
        (
            r.committed_target.clone(),
            r.committed_target.as_ref().map(|_| ProfileName::Committed),
            r.current_canonical_request_sha256.clone(),
            None,
        )
    } else {
        (
            r.old_target.clone(),
            r.old_profile,
            r.reported.canonical_request_sha256.clone(),
            r.reported.verdict.clone(),
        )
    };
    View {
        receipt: r.receipt.clone(),
        receipt_hex: r.receipt_hex.clone(),
        origin: item.origin,
        record_version: r.record_version,
        counter: r.reported.counter,
        session: r.reported.session.clone(),
        now: r.reported.now,
        verdict,
        target,
        target_profile,
        canonical_request_sha256: canonical,
        meta: r.meta,
        meta_keys: r.meta_keys.clone(),
        label: r.label,
        changes: r.changes.clone(),
        label_check: item.check,
        refusal: r.refusal.as_ref().map(|x| x.code.clone()),
        detail: r.detail.clone(),
        framed_subject: r.subject().map(|(s, l)| (s.to_owned(), l)),
    }
}

/// Pairs two sides' items and reports what changed, with the findings about them.
pub fn diff(old: &[Item], new: &[Item], findings: Vec<Finding>) -> DiffReport {
    let old_views: Vec<(View, &Record)> = old
        .iter()
        .map(|i| (view(i, Side::Old), &i.record))
        .collect();
    let new_views: Vec<(View, &Record)> = new
        .iter()
        .map(|i| (view(i, Side::New), &i.record))
        .collect();
    let mut old_left: BTreeSet<usize> = (0..old_views.len()).collect();
    let mut new_left: BTreeSet<usize> = (0..new_views.len()).collect();
    let mut pairs = Vec::new();
    let mut notes = Vec::new();
    for link in [Link::FramedSubject, Link::RequestSha256] {
        let key_of = |record: &Record| -> Option<(String, Option<u64>)> {
            match link {
                Link::FramedSubject => record.subject().map(|(s, l)| (s.to_owned(), Some(l))),
                _ => record.reported.request_sha256.clone().map(|s| (s, None)),
            }
        };
        let group = |views: &[(View, &Record)], left: &BTreeSet<usize>| {
            let mut groups: BTreeMap<(String, Option<u64>), Vec<usize>> = BTreeMap::new();
            for &i in left {
                if let Some(key) = key_of(views[i].1) {
                    groups.entry(key).or_default().push(i);
                }
            }
            for members in groups.values_mut() {
                members
                    .sort_by(|a, b| session_order(&views[*a].0).cmp(&session_order(&views[*b].0)));
            }
            groups
        };
        let old_groups = group(&old_views, &old_left);
        let new_groups = group(&new_views, &new_left);
        for (key, old_members) in &old_groups {
            let Some(new_members) = new_groups.get(key) else {
                continue;
            };
            let of = old_members.len().min(new_members.len());
            for (position, (&o, &n)) in old_members.iter().zip(new_members).enumerate() {
                old_left.remove(&o);
                new_left.remove(&n);
                pairs.push(pair(
                    PairKey {
                        link,
                        sha256: key.0.clone(),
                        length: key.1,
                    },
                    position + 1,
                    of,
                    &old_views[o],
                    &new_views[n],
                ));
            }
            if old_members.len() > 1 || new_members.len() > 1 {
                notes.push(several_per_frame(
                    key,
                    link,
                    old_members,
                    new_members,
                    &old_views,
                    &new_views,
                ));
            }
        }
    }
    pairs.sort_by(|a, b| session_order(&a.old).cmp(&session_order(&b.old)));
    let old_only: Vec<View> = old_left.iter().map(|&i| old_views[i].0.clone()).collect();
    let new_only: Vec<View> = new_left.iter().map(|&i| new_views[i].0.clone()).collect();
    let old_all: Vec<&View> = old_views.iter().map(|(v, _)| v).collect();
    let new_all: Vec<&View> = new_views.iter().map(|(v, _)| v).collect();
    let mut side_notes = Vec::new();
    for (side, views) in [(Side::Old, &old_all), (Side::New, &new_all)] {
        side_notes.extend(target_profiles(side, views));
        // A migration output on the new side describes the old receipts again.
        let receipts: Vec<&View> = views
            .iter()
            .copied()
            .filter(|v| side == Side::Old || v.origin == Origin::Receipt)
            .collect();
        side_notes.extend(shared_canonical(side, &receipts));
        side_notes.extend(counters(side, &receipts));
    }
    side_notes.extend(notes);
    side_notes.sort_by_key(|n| (n.code, n.side.map(|s| s == Side::New)));
    let labels = |views: &[&View]| {
        let mut counts: BTreeMap<Label, usize> = Label::ALL.iter().map(|&l| (l, 0)).collect();
        for v in views {
            *counts.entry(v.label).or_default() += 1;
        }
        counts
    };
    let unverified = |views: &[&View]| {
        views
            .iter()
            .filter(|v| v.label_check == LabelCheck::Unverified)
            .count()
    };
    let (old_unverified, new_unverified) = (unverified(&old_all), unverified(&new_all));
    let needs_attention = old_all
        .iter()
        .chain(&new_all)
        .any(|v| v.label.needs_attention())
        || !old_only.is_empty()
        || !new_only.is_empty()
        || old_unverified + new_unverified > 0
        || !findings.is_empty();
    let summary = DiffSummary {
        old_receipts: old_views.len(),
        new_receipts: new_views.len(),
        pairs: pairs.len(),
        old_only: old_only.len(),
        new_only: new_only.len(),
        labels: labels(&old_all),
        new_labels: labels(&new_all),
        old_unverified,
        new_unverified,
        findings: findings.len(),
        needs_attention,
    };
    DiffReport {
        pairs,
        old_only,
        new_only,
        notes: side_notes,
        findings,
        summary,
    }
}

fn pair(
    key: PairKey,
    position: usize,
    of: usize,
    old: &(View, &Record),
    new: &(View, &Record),
) -> Pair {
    let (o, n) = (&old.0, &new.0);
    let known = |v: &View| v.meta != Presence::Unknown;
    Pair {
        key,
        position,
        of,
        label: o.label,
        changes: o.changes.clone(),
        committed_target: old
            .1
            .committed_target
            .clone()
            .or_else(|| new.1.committed_target.clone()),
        changed: Changed {
            target: o.target != n.target,
            canonical_request_sha256: o.canonical_request_sha256 != n.canonical_request_sha256,
            verdict: match (&o.verdict, &n.verdict) {
                (Some(a), Some(b)) => Some(a != b),
                _ => None,
            },
            meta_keys: (known(o) && known(n))
                .then(|| (o.meta, &o.meta_keys) != (n.meta, &n.meta_keys)),
        },
        old: o.clone(),
        new: n.clone(),
    }
}

fn several_per_frame(
    key: &(String, Option<u64>),
    link: Link,
    old: &[usize],
    new: &[usize],
    old_views: &[(View, &Record)],
    new_views: &[(View, &Record)],
) -> Note {
    let verdicts = |members: &[usize], views: &[(View, &Record)]| -> Vec<String> {
        members
            .iter()
            .map(|&i| views[i].0.verdict.clone().unwrap_or_else(|| "—".into()))
            .collect()
    };
    let (ov, nv) = (verdicts(old, old_views), verdicts(new, new_views));
    let steps: Vec<String> = ov
        .iter()
        .zip(&nv)
        .map(|(a, b)| format!("{a} → {b}"))
        .collect();
    let frame = match (link, key.1) {
        (Link::FramedSubject, Some(length)) => format!("frame {} ({length} bytes)", key.0),
        _ => format!("request {}", key.0),
    };
    let mut message = format!(
        "{frame} has {} old and {} new receipts, paired in session order (now, then counter): {}",
        old.len(),
        new.len(),
        steps.join(", ")
    );
    if old.len() != new.len() {
        message.push_str("; the rest are on one side only");
    }
    Note {
        code: NoteCode::SeveralReceiptsPerFrame,
        side: None,
        message,
        items: vec![key.0.clone()],
    }
}

fn target_profiles(side: Side, views: &[&View]) -> Option<Note> {
    let mut by_profile: BTreeMap<&str, usize> = BTreeMap::new();
    let mut guarded = 0;
    for v in views.iter().filter(|v| v.target.is_some()) {
        guarded += 1;
        let name = v.target_profile.map_or("unmatched", ProfileName::as_str);
        *by_profile.entry(name).or_default() += 1;
    }
    if guarded == 0 {
        return None;
    }
    let describe = |name: &str| match name {
        "legacy" => "legacy profile (untagged [server?, tool, args])",
        "host" => "host profile (tagged, _meta / requestState / inputResponses forced absent)",
        "committed" => "committed profile (tagged, _meta and context from the frame)",
        _ => "no profile of the frame (or the frame is unknown)",
    };
    let parts: Vec<String> = by_profile
        .iter()
        .map(|(name, count)| format!("{count} {}", describe(name)))
        .collect();
    Some(Note {
        code: NoteCode::TargetProfiles,
        side: Some(side),
        message: format!(
            "{}: {guarded} of {} {} a guard target: {}",
            side.as_str(),
            crate::outcome::count(views.len() as u64, "receipt", "receipts"),
            if guarded == 1 { "carries" } else { "carry" },
            parts.join(", ")
        ),
        items: by_profile.keys().map(|k| (*k).to_owned()).collect(),
    })
}

fn shared_canonical(side: Side, views: &[&View]) -> Vec<Note> {
    let mut groups: BTreeMap<&str, (BTreeSet<&str>, usize, bool)> = BTreeMap::new();
    for v in views {
        if let (Some(canonical), Some((subject, _))) =
            (&v.canonical_request_sha256, &v.framed_subject)
        {
            let entry = groups.entry(canonical).or_default();
            entry.0.insert(subject);
            entry.1 += 1;
            entry.2 |= v.record_version != Some(2);
        }
    }
    groups
        .into_iter()
        .filter(|(_, (subjects, _, _))| subjects.len() > 1)
        .map(|(canonical, (subjects, count, not_only_v2))| {
            let why = if not_only_v2 {
                "so the file name does not identify the request"
            } else {
                "record_version 2's canonical_request drops _meta, requestState and inputResponses and forces id 1, so the file name does not identify the request"
            };
            Note {
                code: NoteCode::SharedCanonicalHash,
                side: Some(side),
                message: format!(
                    "{}: canonical_request_sha256 {} names {count} receipts of {} distinct frames ({}): {why}",
                    side.as_str(),
                    canonical,
                    subjects.len(),
                    subjects.iter().map(|s| &**s).collect::<Vec<&str>>().join(", ")
                ),
                items: std::iter::once(canonical.to_owned())
                    .chain(subjects.iter().map(|s| (*s).to_owned()))
                    .collect(),
            }
        })
        .collect()
}

fn counters(side: Side, views: &[&View]) -> Vec<Note> {
    let mut groups: BTreeMap<(PathBuf, u64), Vec<&View>> = BTreeMap::new();
    for v in views {
        if let Some(counter) = v.counter {
            let dir = Path::new(&v.receipt)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            groups.entry((dir, counter)).or_default().push(v);
        }
    }
    let mut by_dir: BTreeMap<PathBuf, Vec<(u64, usize, bool)>> = BTreeMap::new();
    for ((dir, counter), members) in groups.into_iter().filter(|(_, m)| m.len() > 1) {
        let sessions: BTreeSet<Option<&str>> =
            members.iter().map(|v| v.session.as_deref()).collect();
        by_dir.entry(dir).or_default().push((
            counter,
            members.len(),
            sessions.len() == members.len(),
        ));
    }
    by_dir
        .into_iter()
        .map(|(dir, reused)| {
            let list: Vec<String> = reused
                .iter()
                .map(|(counter, count, distinct)| {
                    format!(
                        "{counter} ×{count}{}",
                        if *distinct { "" } else { " (same session)" }
                    )
                })
                .collect();
            Note {
                code: NoteCode::CounterReused,
                side: Some(side),
                message: format!(
                    "{}: in {} the file counters {} name several receipts (host sessions restart counters at 0): counters never identify a receipt",
                    side.as_str(),
                    dir.display(),
                    list.join(", ")
                ),
                items: reused.iter().map(|(c, _, _)| format!("{c:020}")).collect(),
            }
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::NoteCode;

    #[test]
    fn a_note_code_reads_as_json_writes_it() {
        for code in [
            NoteCode::TargetProfiles,
            NoteCode::SharedCanonicalHash,
            NoteCode::CounterReused,
            NoteCode::SeveralReceiptsPerFrame,
        ] {
            assert_eq!(
                serde_json::to_string(&code).unwrap(),
                format!("\"{}\"", code.as_str())
            );
        }
    }
}
