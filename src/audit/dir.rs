//! Checks that need a whole receipt directory (docs/receipts.md): counters reused across host
//! restarts (or twice in one session), distinct frames sharing one `canonical_request_sha256`,
//! `.seal-audit-head.state` against the chain recomputed from the receipts' own audit lines,
//! and `.seal-operation-state.json` against the released ALLOW receipts, both ways: a
//! released ALLOW missing from the state file, and an operation of the state file whose
//! receipt is gone (a deletion leaves exactly this trace when the host released the call).

use crate::chain::{self, HeadState};
use crate::finding::{Code, Finding};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// What the directory checks keep of one receipt.
#[derive(Debug, Clone, Default)]
pub struct ReceiptFacts {
    pub file: PathBuf,
    pub counter: Option<u64>,
    pub session: Option<String>,
    pub canonical_request_sha256: Option<String>,
    pub framed_subject_sha256: Option<String>,
    pub now: Option<u64>,
    /// Kept only when the directory has a head state to compare with.
    pub audit_line: Option<Box<str>>,
    /// `(operation_id, release_frame_sha256)` of an ALLOW whose release went past PENDING.
    pub released: Option<(String, String)>,
    /// The receipt's `operation_id`, whatever its verdict and release status.
    pub operation_id: Option<String>,
}

/// Burned operations: operation id → release frame SHA-256.
pub type Operations = HashMap<String, String>;

/// A receipt directory's state files, as read.
#[derive(Debug, Clone, Default)]
pub struct DirState {
    pub head_state: Option<(PathBuf, Result<HeadState, String>)>,
    pub operation_state: Option<(PathBuf, Result<Operations, String>)>,
    /// `duplicate-member` findings for state files that write a member name twice (their
    /// content is not used).
    pub refused: Vec<Finding>,
}

/// The bytes of a state file, unless a JSON object in it writes one member name twice: then
/// a `duplicate-member` finding, and an error in place of its content.
pub fn refuse_duplicates(
    path: &Path,
    bytes: Vec<u8>,
    refused: &mut Vec<Finding>,
) -> Result<Vec<u8>, String> {
    let text = String::from_utf8_lossy(&bytes);
    match crate::json::find_duplicate(&text) {
        Ok(Some(duplicate)) => {
            refused.push(Finding::new(
                Code::DuplicateMember,
                Some(path.to_path_buf()),
                duplicate.to_string(),
            ));
            Err(format!("not read: {duplicate}"))
        }
        _ => Ok(bytes),
    }
}

/// Runs every directory-level check.
pub fn check(dir: &Path, state: &DirState, receipts: &[ReceiptFacts]) -> Vec<Finding> {
    let mut findings = state.refused.clone();
    findings.extend(counters(receipts));
    findings.extend(shared_canonical_hashes(dir, receipts));
    findings.extend(head_state(state, receipts));
    findings.extend(operation_state(dir, state, receipts));
    findings
}

fn counters(receipts: &[ReceiptFacts]) -> Vec<Finding> {
    let mut by_counter: BTreeMap<u64, Vec<&ReceiptFacts>> = BTreeMap::new();
    for receipt in receipts {
        if let Some(counter) = receipt.counter {
            by_counter.entry(counter).or_default().push(receipt);
        }
    }
    let mut findings = Vec::new();
    for (counter, group) in by_counter.into_iter().filter(|(_, g)| g.len() > 1) {
        let known: Vec<&str> = group.iter().filter_map(|r| r.session.as_deref()).collect();
        let distinct: BTreeSet<&str> = known.iter().copied().collect();
        let files: Vec<String> = group.iter().map(|r| file_name(&r.file)).collect();
        let (code, message) = if distinct.len() == known.len() {
            (
                Code::CounterReused,
                format!(
                    "counter {counter:020} is used by {} receipts of different host sessions ({}): {}",
                    group.len(),
                    distinct.into_iter().collect::<Vec<_>>().join(", "),
                    files.join(", ")
                ),
            )
        } else {
            (
                Code::CounterDuplicate,
                format!(
                    "counter {counter:020} is used more than once within one host session: {}",
                    files.join(", ")
                ),
            )
        };
        let path = group.first().map(|r| r.file.clone());
        findings.push(Finding::new(code, path, message));
    }
    findings
}

fn shared_canonical_hashes(dir: &Path, receipts: &[ReceiptFacts]) -> Vec<Finding> {
    let mut frames: BTreeMap<&str, (BTreeSet<&str>, usize)> = BTreeMap::new();
    for receipt in receipts {
        if let (Some(canonical), Some(framed)) = (
            receipt.canonical_request_sha256.as_deref(),
            receipt.framed_subject_sha256.as_deref(),
        ) {
            let entry = frames.entry(canonical).or_default();
            entry.0.insert(framed);
            entry.1 += 1;
        }
    }
    frames
        .into_iter()
        .filter(|(_, (framed, _))| framed.len() > 1)
        .map(|(canonical, (framed, count))| {
            Finding::new(
                Code::SharedCanonicalHash,
                Some(dir.to_path_buf()),
                format!(
                    "canonical_request_sha256 {canonical} names {count} receipts of {} distinct frames (framed_subject_sha256 {})",
                    framed.len(),
                    framed.into_iter().collect::<Vec<_>>().join(", ")
                ),
            )
        })
        .collect()
}

/// The chain head over the receipts' audit lines in decision order (`now`, then counter):
/// what the host's head state should hold if the directory has every decision and the
/// chain began with it.
fn head_state(state: &DirState, receipts: &[ReceiptFacts]) -> Vec<Finding> {
    let Some((path, parsed)) = &state.head_state else {
        return Vec::new();
    };
    let head = match parsed {
        Ok(head) => head,
        Err(why) => {
            return vec![Finding::new(
                Code::ChainStateInvalid,
                Some(path.clone()),
                why.clone(),
            )]
        }
    };
    let mut ordered: Vec<&ReceiptFacts> = receipts.iter().collect();
    ordered.sort_by(|a, b| (a.now, a.counter, &a.file).cmp(&(b.now, b.counter, &b.file)));
    if ordered.iter().any(|r| r.audit_line.is_none()) {
        return vec![Finding::new(
            Code::ChainStateMismatch,
            Some(path.clone()),
            "some receipts have no readable audit line, so the chain cannot be recomputed",
        )];
    }
    let recomputed = chain::head_from(
        &chain::genesis(),
        ordered.iter().filter_map(|r| r.audit_line.as_deref()),
    );
    if recomputed == head.head {
        Vec::new()
    } else {
        vec![Finding::new(
            Code::ChainStateMismatch,
            Some(path.clone()),
            format!(
                "head {} (session {}) is not {recomputed}, the chain over the {} receipts' audit lines in decision order: receipts are missing or extra, the chain began earlier, or declines were chained",
                head.head,
                head.session,
                ordered.len()
            ),
        )]
    }
}

fn operation_state(dir: &Path, state: &DirState, receipts: &[ReceiptFacts]) -> Vec<Finding> {
    let released: Vec<&ReceiptFacts> = receipts.iter().filter(|r| r.released.is_some()).collect();
    let (state_path, operations) = match &state.operation_state {
        None if released.is_empty() => return Vec::new(),
        None => {
            return vec![Finding::new(
                Code::OperationStateMismatch,
                Some(dir.to_path_buf()),
                format!(
                    "{} released ALLOW receipts but no {}",
                    released.len(),
                    super::names::OPERATION_STATE
                ),
            )]
        }
        Some((path, Err(why))) => {
            return vec![Finding::new(
                Code::OperationStateMismatch,
                Some(path.clone()),
                why.clone(),
            )]
        }
        Some((path, Ok(operations))) => (path, operations),
    };
    let mut findings: Vec<Finding> = released
        .into_iter()
        .filter_map(|receipt| {
            let (operation, frame_sha) = receipt.released.as_ref()?;
            let message = match operations.get(operation) {
                Some(recorded) if recorded == frame_sha => return None,
                Some(recorded) => format!(
                    "operation {operation} is burned with release_frame_sha256 {recorded}, the receipt's release frame hashes to {frame_sha}"
                ),
                None => format!("operation {operation} was released but is not burned in the operation state"),
            };
            Some(Finding::new(
                Code::OperationStateMismatch,
                Some(receipt.file.clone()),
                message,
            ))
        })
        .collect();
    findings.extend(missing_receipts(state_path, operations, receipts));
    findings
}

/// Operations the state file records that no receipt of the directory carries: seal-host
/// releases a call only after writing its ALLOW receipt beside the state file, so each one
/// is a receipt that was deleted (or replaced by bytes that no longer read as a receipt). Sorted, so the output
/// does not depend on the state file's member order.
fn missing_receipts(
    state_path: &Path,
    operations: &Operations,
    receipts: &[ReceiptFacts],
) -> Vec<Finding> {
    let present: BTreeSet<&str> = receipts
        .iter()
        .filter_map(|r| r.operation_id.as_deref())
        .collect();
    let mut missing: Vec<(&String, &String)> = operations
        .iter()
        .filter(|(operation, _)| !present.contains(operation.as_str()))
        .collect();
    missing.sort();
    missing
        .into_iter()
        .map(|(operation, frame_sha)| {
            Finding::new(
                Code::OperationReceiptMissing,
                Some(state_path.to_path_buf()),
                format!(
                    "operation {operation} (release_frame_sha256 {frame_sha}) was released, but no readable receipt in this directory carries it: its receipt was deleted or destroyed"
                ),
            )
        })
        .collect()
}

/// Reads `.seal-operation-state.json`: `{"schema":"seal.operation-state/v1","operations":{id:{operation_id,release_frame_sha256}}}`.
pub fn parse_operation_state(bytes: &[u8]) -> Result<HashMap<String, String>, String> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("schema").and_then(|s| s.as_str()) != Some("seal.operation-state/v1") {
        return Err("schema is not seal.operation-state/v1".into());
    }
    let operations = value
        .get("operations")
        .and_then(|o| o.as_object())
        .ok_or("operations is not an object")?;
    operations
        .iter()
        .map(|(id, entry)| {
            let field = |name: &str| entry.get(name).and_then(|v| v.as_str());
            match (field("operation_id"), field("release_frame_sha256")) {
                (Some(op), Some(sha)) if op == id => Ok((id.clone(), sha.to_owned())),
                _ => Err(format!("operation {id} is malformed")),
            }
        })
        .collect()
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
