//! The audit's map step: every check that needs one file alone. Each entry (a file the walk,
//! or a listing made elsewhere, names) is read, a receipt verified in full (its signature
//! under the pinned key settled with the others of its batch), and reduced to [`FileFacts`]:
//! its findings, status and claimed verdict, what the directory checks need
//! ([`Observed`]), and the identity of its signed content. Nothing here depends on another
//! file: the checks that span receipts are [`super::reduce`]'s, over these facts, so a batch
//! may be mapped anywhere (a worker thread, or another process or machine) and reduced in
//! order on one.

use super::dir::Observed;
use super::names::NameKind;
use super::walk::ItemKind;
use super::{approval_credit, Observer, Options, ReceiptEntry, MAX_RECEIPT_BYTES};
use crate::finding::{Code, Finding, Severity};
use crate::receipt::{self, ReceiptReport, Scratch};
use crate::signature::batch::{self, BatchKey};
use crate::signature::{Challenge, Failure};
use rayon::prelude::*;
use std::cell::RefCell;
use std::fs::{File, Metadata};
use std::path::{Path, PathBuf};

/// One entry to check, as its listing knows it.
#[derive(Debug)]
pub struct Entry {
    pub path: PathBuf,
    pub kind: ItemKind,
    /// The listing's fingerprint of the file's metadata (0: none, no comparison).
    pub stamp: u64,
    pub name_kind: NameKind,
    /// Why an [`ItemKind::Unreadable`] entry could not be listed.
    pub unreadable: String,
    /// Whether the directory checks will want the receipt's audit line (its directory has a
    /// head state, or the mapper cannot know).
    pub keep_audit_line: bool,
    /// The file's bytes, when they were read elsewhere (object storage): not read again.
    pub contents: Option<Vec<u8>>,
}

impl Entry {
    /// An entry known by its path alone (a map run away from the walk): its kind from its
    /// metadata (a link is not followed), its role from its name.
    pub fn from_path(path: PathBuf, contents: Option<Vec<u8>>) -> Entry {
        let name_kind =
            super::names::classify(&path.file_name().unwrap_or_default().to_string_lossy());
        let (kind, unreadable) = match (&contents, std::fs::symlink_metadata(&path)) {
            (Some(_), _) => (ItemKind::File, String::new()),
            (None, Ok(metadata)) if metadata.file_type().is_symlink() => {
                (ItemKind::Symlink, String::new())
            }
            (None, Ok(metadata)) if metadata.is_file() => (ItemKind::File, String::new()),
            (None, Ok(_)) => (ItemKind::Special, String::new()),
            (None, Err(error)) => (ItemKind::Unreadable, error.to_string()),
        };
        Entry {
            path,
            kind,
            stamp: 0,
            name_kind,
            unreadable,
            keep_audit_line: true,
            contents,
        }
    }
}

/// What the map hands the reduce for one entry.
#[derive(Debug, Clone, PartialEq)]
pub struct FileFacts {
    /// [`path_check`] of the entry's path: the reduce matches it with its listing's.
    pub path_check: u64,
    /// The device and inode of the file read (two names of one file are a hard link).
    pub file_id: Option<(u64, u64)>,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// An entry that is not a receipt: its findings (usually none).
    Findings(Vec<Finding>),
    /// A file seal-host does not write: unexpected where seal-host writes receipts.
    Other,
    Receipt(Box<ReceiptFacts>),
}

/// What the reduce needs of one receipt file.
#[derive(Debug, Clone, PartialEq)]
pub struct ReceiptFacts {
    /// `authenticated`, `unpinned`, `unsigned`, `failed`, or `unreadable`.
    pub status: &'static str,
    /// The decision the receipt states (a verdict only if authenticated).
    pub decision: Option<String>,
    /// Whether its bytes could be verified at all.
    pub verifiable: bool,
    /// Every finding about this file, with its path.
    pub findings: Vec<Finding>,
    /// What the directory checks need (none for a file that is not a readable receipt).
    pub observed: Option<Observed>,
    /// The identity of what it is: its signed content when its signature could be checked
    /// (`receipt::Facts::signed_content`), else its bytes; none when it could not be read.
    pub identity: Option<[u8; 32]>,
}

/// A 64-bit check of a path's bytes (FNV-1a): not a security boundary, only a guard against
/// facts reduced against another listing or out of order.
pub fn path_check(path: &Path) -> u64 {
    let bytes = path.as_os_str().as_encoded_bytes();
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// How to map: the audit's options, the listing's metadata fingerprint, and the observer.
pub struct Context<'c> {
    pub options: &'c Options,
    pub stamp: &'c (dyn Fn(&Metadata) -> u64 + Sync),
    pub observer: &'c dyn Observer,
}

/// One mapped entry: its facts, and for a receipt its full entry (the `receipt` record).
pub struct Mapped {
    pub entry: Option<Box<ReceiptEntry>>,
    pub facts: FileFacts,
}

/// Maps a batch of entries on the current rayon pool; the signatures under the pinned key
/// are checked together. `sampled` is called with each of the first `sample` entries' read
/// times (for the read-ahead's guess of a cold cache).
pub fn map_batch(
    entries: &[Entry],
    context: &Context<'_>,
    pinned: Option<&BatchKey<'_>>,
    sample: usize,
) -> (Vec<Mapped>, Vec<std::time::Duration>) {
    let (mut read, sampled): (Vec<Read>, Vec<Option<std::time::Duration>>) = entries
        .par_iter()
        .enumerate()
        .map(|(position, entry)| {
            let result = check_entry(entry, context);
            let took = super::read_ahead::take_last_read();
            context.observer.checked();
            (result, took.filter(|_| position < sample))
        })
        .unzip();
    settle_signatures(&mut read, pinned);
    let mapped = read
        .into_par_iter()
        .map(|read| match read {
            Read::Unsettled(receipt) => finish_receipt(receipt, context.options),
            Read::Done(mapped) => mapped,
        })
        .collect();
    (mapped, sampled.into_iter().flatten().collect())
}

/// An item as its worker leaves it.
enum Read {
    Done(Mapped),
    /// A receipt read and checked whose signature under the pinned key may still wait for
    /// the curve check of its batch ([`settle_signatures`], then [`finish_receipt`]).
    Unsettled(Unsettled),
}

struct Unsettled {
    /// The receipt's entry with its report; its status and findings are [`finish_receipt`]'s
    /// (made here already, so a receipt costs one such allocation, not two).
    entry: Box<ReceiptEntry>,
    kind: NameKind,
    keep_audit_line: bool,
    challenge: Option<Challenge>,
    /// The file-level findings so far (a change under the audit).
    findings: Vec<Finding>,
    file_id: Option<(u64, u64)>,
    /// The identity of its bytes, should its signature give none.
    bytes_identity: [u8; 32],
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

fn findings_only(entry: &Entry, findings: Vec<Finding>) -> Read {
    Read::Done(Mapped {
        entry: None,
        facts: FileFacts {
            path_check: path_check(&entry.path),
            file_id: None,
            outcome: Outcome::Findings(findings),
        },
    })
}

fn check_entry(entry: &Entry, context: &Context<'_>) -> Read {
    let one = |code: Code, message: String| {
        findings_only(
            entry,
            vec![Finding::new(code, Some(entry.path.clone()), message)],
        )
    };
    match entry.kind {
        ItemKind::Unreadable => one(Code::UnreadableFile, entry.unreadable.clone()),
        ItemKind::Symlink => one(Code::SymlinkSkipped, symlink_message(&entry.path)),
        ItemKind::Special => one(
            Code::NotRegularFile,
            "not a regular file; not opened".into(),
        ),
        ItemKind::File => match &entry.name_kind {
            kind @ (NameKind::Receipt { .. } | NameKind::MisnamedReceipt) => {
                check_receipt_file(entry, kind, context)
            }
            NameKind::OtherJson => check_other_json(entry, context),
            NameKind::SigningKey => one(Code::SigningKeyExposed, signing_key_message(entry)),
            NameKind::Temp => one(
                Code::LeftoverTempFile,
                "a seal-host temporary file left by an interrupted write".into(),
            ),
            // Read by the walk, with the directory they describe.
            NameKind::HeadState | NameKind::OperationState => findings_only(entry, Vec::new()),
            NameKind::Other => Read::Done(Mapped {
                entry: None,
                facts: FileFacts {
                    path_check: path_check(&entry.path),
                    file_id: None,
                    outcome: Outcome::Other,
                },
            }),
        },
    }
}

fn symlink_message(path: &Path) -> String {
    match std::fs::read_link(path) {
        Ok(target) => format!("symbolic link to {}: not followed", target.display()),
        Err(_) => "symbolic link: not followed".into(),
    }
}

fn signing_key_message(entry: &Entry) -> String {
    let seed = match &entry.contents {
        Some(bytes) => Some(bytes.clone()),
        None => crate::input::read_file_capped(&entry.path, 32).ok(),
    };
    let public = seed
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
/// the listing saw it. Returns the metadata of the opened file and whether it changed.
fn read_stable(
    entry: &Entry,
    context: &Context<'_>,
    bytes: &mut Vec<u8>,
) -> Result<(Option<Metadata>, bool), String> {
    if let Some(contents) = &entry.contents {
        bytes.clear();
        bytes.extend_from_slice(contents);
        return Ok((None, false));
    }
    let mut file = File::open(&entry.path).map_err(|e| e.to_string())?;
    let opened = file.metadata().map_err(|e| e.to_string())?;
    if opened.len() > MAX_RECEIPT_BYTES {
        return Err(format!(
            "{} bytes: larger than {MAX_RECEIPT_BYTES}, not read",
            opened.len()
        ));
    }
    // Read up to the length the stat gave, plus one byte: the call that would see the end is
    // not made. A file that grew shows here as a byte more than its stat, and any change after
    // the stat shows in the stat made after the checks (`check_receipt_file`); either is
    // reported as changed during the audit.
    let length = opened.len() as usize;
    crate::input::read_into(&mut file, length, length.saturating_sub(1), bytes)
        .map_err(|e| e.to_string())?;
    let changed = (entry.stamp != 0 && entry.stamp != (context.stamp)(&opened))
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

fn file_id(metadata: &Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((metadata.dev(), metadata.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        None
    }
}

/// The identity of a file's bytes (for a file whose signature gives none).
fn bytes_identity(bytes: &[u8]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(b"sealkit file bytes v1\0");
    hash.update(bytes);
    hash.finalize().into()
}

fn unreadable_receipt(entry: &Entry, findings: Vec<Finding>, identity: Option<[u8; 32]>) -> Read {
    let path = entry.path.clone();
    Read::Done(Mapped {
        facts: FileFacts {
            path_check: path_check(&path),
            file_id: None,
            outcome: Outcome::Receipt(Box::new(ReceiptFacts {
                status: "unreadable",
                decision: None,
                verifiable: false,
                findings: findings.clone(),
                observed: None,
                identity,
            })),
        },
        entry: Some(Box::new(ReceiptEntry {
            file: path,
            status: "unreadable",
            signed_by: None,
            report: None,
            file_findings: findings,
        })),
    })
}

fn check_receipt_file(entry: &Entry, kind: &NameKind, context: &Context<'_>) -> Read {
    let path = Some(entry.path.clone());
    let read = READ_BUFFER.with(|buffer| {
        let mut buffer = buffer.borrow_mut();
        let started = std::time::Instant::now();
        let read = read_stable(entry, context, &mut buffer);
        super::read_ahead::note_read(started.elapsed());
        let read = read.map(|(opened, changed)| {
            context.observer.read(&entry.path);
            let verified = SCRATCH.with(|scratch| {
                let scratch = &mut scratch.borrow_mut();
                receipt::verify_bytes_deferred(&buffer, context.options.pin.as_ref(), scratch)
            });
            // Hashed only when the signature gives no identity (a file that is no signed
            // receipt), so a good receipt is not hashed twice.
            let identity = match &verified {
                Ok((report, _)) if report.facts.signed_content.is_some() => [0; 32],
                _ => bytes_identity(&buffer),
            };
            (opened, changed, verified, identity)
        });
        if buffer.capacity() > KEPT_BUFFER_BYTES {
            *buffer = Vec::new();
        }
        read
    });
    let (opened, mut changed, verified, bytes_identity) = match read {
        Ok(read) => read,
        Err(why) => {
            return unreadable_receipt(
                entry,
                vec![Finding::new(Code::UnreadableFile, path, why)],
                None,
            )
        }
    };
    if entry.contents.is_none() {
        changed |= match (&opened, std::fs::symlink_metadata(&entry.path)) {
            (Some(opened), Ok(now)) => !same_file_state(opened, &now),
            _ => true,
        };
    }
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
            return unreadable_receipt(entry, findings, Some(bytes_identity));
        }
    };
    Read::Unsettled(Unsettled {
        entry: Box::new(ReceiptEntry {
            file: entry.path.clone(),
            status: "failed",
            signed_by: None,
            report: Some(report),
            file_findings: Vec::new(),
        }),
        kind: kind.clone(),
        keep_audit_line: entry.keep_audit_line,
        challenge,
        findings,
        file_id: opened.as_ref().and_then(file_id),
        bytes_identity,
    })
}

/// The rest of a receipt file's checks once its signature is settled: its name, the
/// approver its statement credits, and its status with the file-level findings.
fn finish_receipt(receipt: Unsettled, options: &Options) -> Mapped {
    let Unsettled {
        mut entry,
        kind,
        keep_audit_line,
        challenge: _,
        mut findings,
        file_id,
        bytes_identity,
    } = receipt;
    let Some(report) = &entry.report else {
        // Not reached: an unsettled receipt has its report.
        return Mapped {
            facts: FileFacts {
                path_check: path_check(&entry.file),
                file_id,
                outcome: Outcome::Findings(entry.file_findings.clone()),
            },
            entry: None,
        };
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
        audit_line: keep_audit_line
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
    let facts = ReceiptFacts {
        status,
        decision: report.reported.verdict.clone(),
        verifiable: true,
        findings: file_findings.clone(),
        observed: Some(observed),
        identity: Some(report.facts.signed_content.unwrap_or(bytes_identity)),
    };
    let check = path_check(&entry.file);
    entry.status = status;
    entry.signed_by = attribution.signed_by;
    entry.file_findings = file_findings;
    Mapped {
        entry: Some(entry),
        facts: FileFacts {
            path_check: check,
            file_id,
            outcome: Outcome::Receipt(Box::new(facts)),
        },
    }
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
fn check_other_json(entry: &Entry, context: &Context<'_>) -> Read {
    let mut bytes = Vec::new();
    let looks_like_receipt = read_stable(entry, context, &mut bytes)
        .ok()
        .and_then(|_| receipt::parse(&bytes).ok())
        .is_some_and(|map| {
            map.get("record_type").and_then(|t| t.as_str()) == Some("seal.authorization-decision")
        });
    if looks_like_receipt {
        check_receipt_file(entry, &NameKind::MisnamedReceipt, context)
    } else {
        findings_only(entry, Vec::new())
    }
}
