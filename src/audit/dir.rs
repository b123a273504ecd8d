//! Checks that need a whole receipt directory (docs/receipts.md): counters reused across host
//! restarts (or twice in one session), distinct frames sharing one `canonical_request_sha256`,
//! `.seal-audit-head.state` against the chain recomputed from the receipts' own audit lines,
//! and `.seal-operation-state.json` against the released ALLOW receipts, both ways: a
//! released ALLOW missing from the state file, and an operation of the state file whose
//! receipt is gone (a deletion leaves exactly this trace when the host released the call).

use super::chain_lines::{ChainLines, Key};
pub use super::hex256::Hex256;
pub use super::operation_state::{parse_operation_state, Operations};
use super::set_aside::SetAside;
use crate::chain::{self, HeadState};
use crate::finding::{Code, Finding};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// What a receipt's checks report for the directory checks, as the worker hands it over
/// (owned strings, one receipt at a time; [`Receipts::add`] keeps a compact form).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observed {
    pub session: Option<String>,
    pub canonical_request_sha256: Option<String>,
    pub framed_subject_sha256: Option<String>,
    pub now: Option<u64>,
    pub audit_line: Option<String>,
    /// `(operation_id, release_frame_sha256)` of an ALLOW whose release went past PENDING.
    pub released: Option<(String, String)>,
    /// The receipt's `operation_id`, whatever its verdict and release status.
    pub operation_id: Option<String>,
}

/// What the directory checks keep of one receipt: 8 bytes (the audit lines a head state is
/// compared with are [`Receipts::chain`]'s, the operation state's comparison
/// [`Receipts::operations`]', the canonical hashes [`Receipts::named_frames`]').
#[derive(Debug, Clone, Copy)]
pub struct ReceiptFacts {
    /// The walk's index of the file (its path is re-derived for messages).
    pub file: u32,
    /// The index into [`Receipts::sessions`] plus one (0: no session), with
    /// [`ReceiptFacts::RELEASED`].
    session_released: u32,
}

impl ReceiptFacts {
    /// Bit of `session_released` set for an ALLOW whose release went past PENDING, with an
    /// operation id and a release frame.
    const RELEASED: u32 = 1 << 31;

    fn new(file: u32, session: Option<u32>, released: bool) -> ReceiptFacts {
        let session = session.map_or(0, |id| (id + 1) & !ReceiptFacts::RELEASED);
        ReceiptFacts {
            file,
            session_released: session | if released { ReceiptFacts::RELEASED } else { 0 },
        }
    }

    /// Index into [`Receipts::sessions`].
    pub fn session(&self) -> Option<u32> {
        (self.session_released & !ReceiptFacts::RELEASED).checked_sub(1)
    }

    /// An ALLOW whose release went past PENDING, with an operation id and a release frame.
    pub fn released(&self) -> bool {
        self.session_released & ReceiptFacts::RELEASED != 0
    }
}

/// A receipt's operation against the directory's operation state, compared as the receipt
/// streams in: what the check reports needs only the state's operations the receipts carry
/// and the released receipts that disagree with it, not a record per receipt.
#[derive(Debug, Default)]
pub struct OperationCheck {
    /// Whether some receipt carries each operation of the state file (by its place there).
    pub present: Vec<bool>,
    /// Released receipts the state does not burn as released: (file, message), in order.
    pub disagreeing: Vec<(u32, String)>,
}

impl OperationCheck {
    fn add(&mut self, file: u32, observed: &Observed, operations: &Operations) {
        if let Some(at) = (observed.operation_id.as_deref()).and_then(|id| operations.position(id))
        {
            if self.present.len() != operations.len() {
                self.present = vec![false; operations.len()];
            }
            self.present[at] = true;
        }
        let Some((operation, frame_sha)) = &observed.released else {
            return;
        };
        let message = match operations.get(operation) {
            Some(recorded) if *recorded == Hex256::new(frame_sha) => return,
            Some(recorded) => format!(
                "operation {operation} is burned with release_frame_sha256 {recorded}, the receipt's release frame hashes to {frame_sha}"
            ),
            None => format!("operation {operation} was released but is not burned in the operation state"),
        };
        self.disagreeing.push((file, message));
    }
}

/// The frames one `canonical_request_sha256` names: its distinct `framed_subject_sha256`
/// values (almost always one: kept in the entry itself, so a hash costs no allocation of
/// its own) and how many receipts carry it.
#[derive(Debug, Clone)]
struct Frames {
    first: Hex256,
    more: Vec<Hex256>,
    count: usize,
}

impl Frames {
    fn distinct(&self) -> impl Iterator<Item = &Hex256> {
        std::iter::once(&self.first).chain(&self.more)
    }
}

/// A receipt directory's receipts, kept compact as they stream in: sessions interned, the
/// canonical-hash check's frames beside the file whose name carries the hash, the audit
/// lines and operation facts only where a state file needs them.
#[derive(Debug, Default)]
pub struct Receipts {
    pub facts: Vec<ReceiptFacts>,
    /// Receipts named as seal-host names them whose `canonical_request_sha256` is the hash
    /// their name carries and whose `framed_subject_sha256` is a digest: the file (its
    /// canonical hash is the walk's) and the framed digest, 36 bytes ([`NamedFrame`]), set
    /// aside until the directory ends (not in memory while the receipts stream in, when the
    /// audit's other structures are largest), then sorted by canonical hash.
    named_frames: SetAside<36>,
    /// The audit lines in a directory with a head state (their keys and bytes set aside
    /// until the head check reads them back in decision order).
    pub chain: Option<ChainLines>,
    /// The comparison with the operation state, when the directory has one that reads.
    pub operations: OperationCheck,
    pub sessions: Vec<Box<str>>,
    session_ids: HashMap<Box<str>, u32>,
    /// Every other receipt's frames, aggregated per canonical hash (a directory seal-host
    /// wrote has none).
    frames: HashMap<Hex256, Frames>,
}

/// A named receipt's frame as set aside: the walk's file number (little-endian) and its
/// `framed_subject_sha256`.
struct NamedFrame;

impl NamedFrame {
    fn encode(file: u32, framed: &[u8; 32]) -> [u8; 36] {
        let mut record = [0u8; 36];
        record[..4].copy_from_slice(&file.to_le_bytes());
        record[4..].copy_from_slice(framed);
        record
    }

    fn decode(record: &[u8; 36]) -> (u32, [u8; 32]) {
        let mut file = [0u8; 4];
        let mut framed = [0u8; 32];
        file.copy_from_slice(&record[..4]);
        framed.copy_from_slice(&record[4..]);
        (u32::from_le_bytes(file), framed)
    }
}

impl Receipts {
    /// Room for `files` receipts in the vector that grows by one a receipt in memory (growing
    /// by doubling would leave up to half of it unused, and copy it at each step), and the
    /// audit lines' store when the directory has a head state.
    pub fn reserve(&mut self, files: usize, state: &DirState) {
        self.facts.reserve_exact(files);
        if state.head_state.is_some() {
            self.chain.get_or_insert_with(ChainLines::default);
        }
    }

    /// Keeps what the directory checks need of one receipt (file `file` of the walk, whose
    /// name carries `name_hash` when it is named as seal-host names receipts).
    pub fn add(
        &mut self,
        file: u32,
        name_hash: Option<&[u8; 32]>,
        observed: Observed,
        state: &DirState,
    ) {
        if let Some((_, Ok(operations))) = &state.operation_state {
            self.operations.add(file, &observed, operations);
        }
        let session = observed.session.map(|session| self.intern(session));
        if let (Some(canonical), Some(framed)) = (
            observed.canonical_request_sha256,
            observed.framed_subject_sha256,
        ) {
            let canonical = Hex256::new(&canonical);
            let framed = Hex256::new(&framed);
            match (&canonical, framed, name_hash) {
                (Hex256::Digest(canonical), Hex256::Digest(framed), Some(name))
                    if canonical == name =>
                {
                    self.named_frames.push(&NamedFrame::encode(file, &framed));
                }
                (_, framed, _) => self.add_frames(canonical, framed),
            }
        }
        if state.head_state.is_some() {
            self.chain.get_or_insert_with(ChainLines::default).add(
                file,
                observed.now,
                observed.audit_line.as_deref(),
            );
        }
        self.facts.push(ReceiptFacts::new(
            file,
            session,
            observed.released.is_some(),
        ));
    }

    /// Counts a receipt of `canonical` with the frame `framed` in [`Receipts::frames`].
    fn add_frames(&mut self, canonical: Hex256, framed: Hex256) {
        match self.frames.entry(canonical) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(Frames {
                    first: framed,
                    more: Vec::new(),
                    count: 1,
                });
            }
            std::collections::hash_map::Entry::Occupied(mut slot) => {
                let frames = slot.get_mut();
                if frames.first != framed && !frames.more.contains(&framed) {
                    frames.more.push(framed);
                }
                frames.count += 1;
            }
        }
    }

    fn intern(&mut self, session: String) -> u32 {
        if let Some(&id) = self.session_ids.get(session.as_str()) {
            return id;
        }
        let id = self.sessions.len() as u32;
        let session = session.into_boxed_str();
        self.sessions.push(session.clone());
        self.session_ids.insert(session, id);
        id
    }

    fn session(&self, facts: &ReceiptFacts) -> Option<&str> {
        facts.session().map(|id| &*self.sessions[id as usize])
    }
}

/// A directory's device and inode (following a link, as a linked root is walked), which the
/// walk finds each directory by, so another path to it reaches the same one; the parent of a
/// bare file name is the current directory.
pub fn dir_identity(path: &Path) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let path = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// The `directory-repeated` finding for `path`, the directory first walked as `first`.
pub fn repeated(path: &Path, first: &Path) -> Finding {
    Finding::new(
        Code::DirectoryRepeated,
        Some(path.to_path_buf()),
        format!(
            "the same directory as {} (reached again by another path: given twice, through a link, inside another root, or a mount): walked once, its receipts counted once",
            first.display()
        ),
    )
}

/// Why a state file's contents are not used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StateError {
    /// Read, and not a valid state (or refused for a member named twice): reported by the
    /// state's own check as a problem found.
    Invalid(String),
    /// Not read (gone, no permission, larger than the limit): its `unreadable-file` finding is
    /// in [`DirState::refused`], and nothing is checked against it.
    NotRead,
}

/// A receipt directory's state files, as read.
#[derive(Debug, Clone, Default)]
pub struct DirState {
    pub head_state: Option<(PathBuf, Result<HeadState, StateError>)>,
    pub operation_state: Option<(PathBuf, Result<Operations, StateError>)>,
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

/// What the walk knows of its file number `file`: its path, and the counter its name
/// carries when it is named as seal-host names receipts.
pub trait Files {
    fn path(&self, file: u32) -> PathBuf;
    fn counter(&self, file: u32) -> Option<u64>;
    /// The hash a receipt's name carries, when it is named as seal-host names receipts.
    fn name_hash(&self, file: u32) -> Option<[u8; 32]>;
}

/// Runs every directory-level check, handing each finding to `emit` as it is made (in
/// the order: refusals, counters, shared canonical hashes, head, operations), so a directory
/// whose findings name every one of its receipts (a `counter-reused` per counter of a host
/// that restarts often) never holds them all at once.
pub fn check<E>(
    dir: &Path,
    state: &DirState,
    receipts: &mut Receipts,
    files: &dyn Files,
    emit: &mut dyn FnMut(&Finding) -> Result<(), E>,
) -> Result<(), E> {
    for finding in &state.refused {
        emit(finding)?;
    }
    counters(receipts, files, emit)?;
    for finding in shared_canonical_hashes(dir, receipts, files) {
        emit(&finding)?;
    }
    for finding in head_state(state, receipts, files) {
        emit(&finding)?;
    }
    operation_state(dir, state, receipts, files, emit)
}

fn counters<E>(
    receipts: &Receipts,
    files: &dyn Files,
    emit: &mut dyn FnMut(&Finding) -> Result<(), E>,
) -> Result<(), E> {
    // The receipts named with a counter, by counter and then in the order added: 16 bytes
    // a receipt while the check runs (a map of groups cost a vector per counter).
    let mut by_counter: Vec<(u64, u32)> = (receipts.facts.iter().enumerate())
        .filter_map(|(at, receipt)| Some((files.counter(receipt.file)?, at as u32)))
        .collect();
    by_counter.sort_unstable();
    for run in by_counter
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|run| run.len() > 1)
    {
        let counter = run[0].0;
        let group: Vec<&ReceiptFacts> = (run.iter())
            .map(|&(_, at)| &receipts.facts[at as usize])
            .collect();
        let known: Vec<&str> = group.iter().filter_map(|r| receipts.session(r)).collect();
        let distinct: BTreeSet<&str> = known.iter().copied().collect();
        let names: Vec<String> = group
            .iter()
            .map(|r| file_name(&files.path(r.file)))
            .collect();
        let (code, message) = if distinct.len() == known.len() {
            (
                Code::CounterReused,
                format!(
                    "counter {counter:020} is used by {} receipts of different host sessions ({}): {}",
                    group.len(),
                    distinct.into_iter().collect::<Vec<_>>().join(", "),
                    names.join(", ")
                ),
            )
        } else {
            (
                Code::CounterDuplicate,
                format!(
                    "counter {counter:020} is used more than once within one host session: {}",
                    names.join(", ")
                ),
            )
        };
        let first = group.first().map(|r| files.path(r.file));
        // Handed on and dropped before the next counter's is made.
        emit(&Finding::new(code, first, message))?;
    }
    Ok(())
}

/// `shared-canonical-hash`: each canonical hash that names more than one distinct frame, in
/// the canonical hashes' order. The named receipts' frames are sorted in place by their
/// names' hash, then frame; each run of one hash is merged with that hash's other receipts.
fn shared_canonical_hashes(dir: &Path, receipts: &mut Receipts, files: &dyn Files) -> Vec<Finding> {
    let canonical_of = |file: u32| files.name_hash(file).unwrap_or_default();
    let mut named: Vec<(u32, [u8; 32])> = Vec::with_capacity(receipts.named_frames.len());
    let read_back = (receipts.named_frames).drain(|record| named.push(NamedFrame::decode(record)));
    if let Err(error) = read_back {
        return vec![Finding::new(
            Code::UnreadableFile,
            Some(dir.to_path_buf()),
            format!("the receipts' frames, set aside for this check, could not be read back ({error}): shared canonical hashes were not checked"),
        )];
    }
    named.sort_unstable_by(|a, b| {
        (canonical_of(a.0).cmp(&canonical_of(b.0))).then_with(|| a.1.cmp(&b.1))
    });
    let others = &receipts.frames;
    let mut shared: Vec<(Hex256, usize, Vec<Hex256>)> = Vec::new();
    let mut merged = std::collections::HashSet::new();
    for run in named.chunk_by(|a, b| canonical_of(a.0) == canonical_of(b.0)) {
        let canonical = Hex256::Digest(canonical_of(run[0].0));
        let other = others.get(&canonical);
        let distinct_here = 1 + run.windows(2).filter(|w| w[0].1 != w[1].1).count();
        if other.is_none() && distinct_here < 2 {
            continue;
        }
        let mut framed: Vec<Hex256> = Vec::new();
        for (_, frame) in run {
            if framed.last() != Some(&Hex256::Digest(*frame)) {
                framed.push(Hex256::Digest(*frame));
            }
        }
        let mut count = run.len();
        if let Some(other) = other {
            count += other.count;
            for frame in other.distinct() {
                if !framed.contains(frame) {
                    framed.push(frame.clone());
                }
            }
            merged.insert(canonical.clone());
        }
        if framed.len() > 1 {
            shared.push((canonical, count, framed));
        }
    }
    for (canonical, frames) in others {
        if !frames.more.is_empty() && !merged.contains(canonical) {
            let framed = frames.distinct().cloned().collect();
            shared.push((canonical.clone(), frames.count, framed));
        }
    }
    shared.sort_by(|a, b| a.0.cmp(&b.0));
    shared
        .into_iter()
        .map(|(canonical, count, mut framed)| {
            framed.sort();
            Finding::new(
                Code::SharedCanonicalHash,
                Some(dir.to_path_buf()),
                format!(
                    "canonical_request_sha256 {canonical} names {count} receipts of {} distinct frames (framed_subject_sha256 {})",
                    framed.len(),
                    framed.iter().map(|f| f.text()).collect::<Vec<_>>().join(", ")
                ),
            )
        })
        .collect()
}

/// The chain head over the receipts' audit lines in decision order (`now`, then counter):
/// what the host's head state should hold if the directory has every decision and the
/// chain began with it.
fn head_state(state: &DirState, receipts: &mut Receipts, files: &dyn Files) -> Vec<Finding> {
    let Some((state_path, parsed)) = &state.head_state else {
        return Vec::new();
    };
    let head = match parsed {
        Ok(head) => head,
        Err(StateError::NotRead) => return Vec::new(),
        Err(StateError::Invalid(why)) => {
            return vec![Finding::new(
                Code::ChainStateInvalid,
                Some(state_path.clone()),
                why.clone(),
            )]
        }
    };
    let mut none = ChainLines::new(None);
    // No receipt added, none to chain.
    let lines = receipts.chain.as_mut().unwrap_or(&mut none);
    if lines.lineless() > 0 {
        return vec![Finding::new(
            Code::ChainStateMismatch,
            Some(state_path.clone()),
            "some receipts have no readable audit line, so the chain cannot be recomputed",
        )];
    }
    let decision_order = |a: &Key, b: &Key| {
        files
            .counter(a.file)
            .cmp(&files.counter(b.file))
            .then_with(|| files.path(a.file).cmp(&files.path(b.file)))
    };
    let commit = |head: String, line: &str| chain::commit(&head, line);
    let recomputed = match lines.fold_in_order(decision_order, chain::genesis(), commit) {
        Ok(head) => head,
        Err(error) => {
            return vec![Finding::new(
                Code::UnreadableFile,
                Some(state_path.clone()),
                format!("the receipts' audit lines, set aside for this check, could not be read back ({error}): the head was not checked"),
            )]
        }
    };
    if recomputed == head.head {
        Vec::new()
    } else {
        vec![Finding::new(
            Code::ChainStateMismatch,
            Some(state_path.clone()),
            format!(
                "head {} (session {}) is not {recomputed}, the chain over the {} receipts' audit lines in decision order: receipts are missing or extra, the chain began earlier, or declines were chained",
                head.head,
                head.session,
                lines.receipts()
            ),
        )]
    }
}

fn operation_state<E>(
    dir: &Path,
    state: &DirState,
    receipts: &Receipts,
    files: &dyn Files,
    emit: &mut dyn FnMut(&Finding) -> Result<(), E>,
) -> Result<(), E> {
    let released = receipts.facts.iter().filter(|r| r.released()).count();
    let (state_path, operations) = match &state.operation_state {
        None if released == 0 => return Ok(()),
        None => {
            return emit(&Finding::new(
                Code::OperationStateMismatch,
                Some(dir.to_path_buf()),
                format!(
                    "{released} released ALLOW receipts but no {}",
                    super::names::OPERATION_STATE
                ),
            ))
        }
        Some((_, Err(StateError::NotRead))) => return Ok(()),
        Some((state_path, Err(StateError::Invalid(why)))) => {
            return emit(&Finding::new(
                Code::OperationStateMismatch,
                Some(state_path.clone()),
                why.clone(),
            ))
        }
        Some((state_path, Ok(operations))) => (state_path, operations),
    };
    for (file, message) in &receipts.operations.disagreeing {
        emit(&Finding::new(
            Code::OperationStateMismatch,
            Some(files.path(*file)),
            message.clone(),
        ))?;
    }
    missing_receipts(state_path, operations, receipts, emit)
}

/// Operations the state file records that no receipt of the directory carries: seal-host
/// releases a call only after writing its ALLOW receipt beside the state file, so each one
/// is a receipt that was deleted (or replaced by bytes that no longer read as a receipt). Sorted, so the output
/// does not depend on the state file's member order.
fn missing_receipts<E>(
    state_path: &Path,
    operations: &Operations,
    receipts: &Receipts,
    emit: &mut dyn FnMut(&Finding) -> Result<(), E>,
) -> Result<(), E> {
    let present = &receipts.operations.present;
    // In the order of ids: the texts' order, each id once.
    for (_, (operation, frame_sha)) in (operations.iter().enumerate())
        .filter(|(at, _)| !present.get(*at).copied().unwrap_or(false))
    {
        emit(&Finding::new(
            Code::OperationReceiptMissing,
            Some(state_path.to_path_buf()),
            format!(
                "operation {operation} (release_frame_sha256 {frame_sha}) was released, but no readable receipt in this directory carries it: its receipt was deleted or destroyed"
            ),
        ))?;
    }
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// Files named with the canonical hash given for each; a file past the list, or given
    /// none, has a name that carries no hash.
    struct Named(Vec<Option<[u8; 32]>>);
    impl Files for Named {
        fn path(&self, file: u32) -> PathBuf {
            PathBuf::from(format!("f{file}"))
        }
        fn counter(&self, _: u32) -> Option<u64> {
            None
        }
        fn name_hash(&self, file: u32) -> Option<[u8; 32]> {
            self.0.get(file as usize).copied().flatten()
        }
    }

    /// Files named as seal-host names none.
    const UNNAMED: Named = Named(Vec::new());

    #[test]
    fn what_is_kept_per_receipt_is_small() {
        assert_eq!(std::mem::size_of::<ReceiptFacts>(), 8);
        assert_eq!(std::mem::size_of::<Option<Hex256>>(), 40);
    }

    /// The operation state is compared as receipts stream in, keeping only the state's
    /// operations met and the disagreeing receipts (seen red with a released receipt's
    /// frame compared with `!=`, and with every receipt's operation kept as present).
    #[test]
    fn operations_are_compared_as_receipts_arrive_and_only_the_states_are_kept() {
        let operations = [("op3", "f3"), ("op1", "f1"), ("op2", "f2")]
            .into_iter()
            .map(|(a, b)| (Hex256::new(a), Hex256::new(b)))
            .collect();
        let operations = Operations::sorted(operations).unwrap();
        let state = DirState {
            operation_state: Some((PathBuf::from("s"), Ok(operations))),
            ..DirState::default()
        };
        let receipt = |operation: &str, released: Option<&str>| Observed {
            operation_id: Some(operation.into()),
            released: released.map(|frame| (operation.to_owned(), frame.to_owned())),
            ..Observed::default()
        };
        let mut receipts = Receipts::default();
        receipts.add(0, None, receipt("op1", Some("f1")), &state);
        receipts.add(1, None, receipt("op2", Some("other")), &state);
        receipts.add(2, None, receipt("op9", Some("f9")), &state);
        receipts.add(3, None, receipt("op8", None), &state);
        // op1, op2 and op3 in the order of ids.
        assert_eq!(receipts.operations.present, [true, true, false]);
        assert_eq!(
            receipts.operations.disagreeing,
            [
                (1, "operation op2 is burned with release_frame_sha256 f2, the receipt's release frame hashes to other".to_owned()),
                (2, "operation op9 was released but is not burned in the operation state".to_owned()),
            ]
        );
        assert_eq!(receipts.facts.iter().filter(|f| f.released()).count(), 3);
    }

    #[test]
    fn hex256_keeps_the_text_its_order_and_its_equality() {
        let digest = "00ff10a0000000000000000000000000000000000000000000000000000000ab";
        let texts = [
            digest,
            "00ff10a0000000000000000000000000000000000000000000000000000000aB",
            "00ff10a0000000000000000000000000000000000000000000000000000000a",
            "ff",
            "",
            "0g",
            "9",
            "a",
            "10ff10a0000000000000000000000000000000000000000000000000000000ab",
            "00ff10a0000000000000000000000000000000000000000000000000000000ac",
        ];
        assert!(
            matches!(Hex256::new(digest), Hex256::Digest(bytes) if bytes[1] == 0xff && bytes[31] == 0xab)
        );
        for a in texts {
            assert_eq!(Hex256::new(a).text(), a);
            assert_eq!(Hex256::new(a).to_string(), a);
            for b in texts {
                assert_eq!(Hex256::new(a).cmp(&Hex256::new(b)), a.cmp(b), "{a} {b}");
                assert_eq!(Hex256::new(a) == Hex256::new(b), a == b, "{a} {b}");
            }
        }
        assert!(matches!(Hex256::new(texts[1]), Hex256::Text(_)));
    }

    /// The canonical-hash check over receipts whose names carry their hash (sorted at the
    /// end) and others (aggregated in a map) finds what the map alone finds for every
    /// receipt: the same hashes in the same order, counts and frames, whether a hash's
    /// receipts are all named, none, or some (a hash shared only across the two kinds, one
    /// whose frames agree across them). Seen red with a named run's frames not merged with
    /// the map's.
    #[test]
    fn named_frames_give_the_findings_a_map_of_every_receipt_gives() {
        let digest = |byte: u8| crate::digest::hex_lower(&[byte; 32]);
        let receipts = |names: &[Option<[u8; 32]>]| {
            let state = DirState::default();
            let mut receipts = Receipts::default();
            receipts.reserve(names.len(), &state);
            for (file, name) in names.iter().enumerate() {
                let i = file as u8;
                let kind = i % 6;
                let canonical = match kind {
                    5 => "c-text".to_owned(),
                    _ => digest(kind),
                };
                // The frames do not depend on `names`: those of hash 2 differ between the
                // receipts named with it and the others.
                let framed = match (kind, i % 4 >= 2) {
                    (0, _) => digest(0x10),
                    (1, _) | (5, _) => digest(0x10 + (i / 6) % 2),
                    (2, true) => digest(0x10),
                    (2, false) => "F".to_owned(),
                    (3, _) => digest(0x11),
                    _ => digest(0x10 + (i / 6) % 3),
                };
                let observed = Observed {
                    canonical_request_sha256: Some(canonical),
                    framed_subject_sha256: Some(framed),
                    ..Observed::default()
                };
                receipts.add(file as u32, name.as_ref(), observed, &state);
            }
            receipts
        };
        let names: Vec<Option<[u8; 32]>> = (0..240u8)
            .map(|i| match i % 4 {
                0 => None,
                1 => Some([0xee; 32]),
                _ => Some([i % 6; 32]),
            })
            .collect();
        let mut named = receipts(&names);
        assert!(named.named_frames.len() > 80 && named.frames.len() == 6);
        let found = shared_canonical_hashes(Path::new("d"), &mut named, &Named(names.clone()));
        let unnamed = vec![None; names.len()];
        let mut all_in_map = receipts(&unnamed);
        assert!(all_in_map.named_frames.is_empty());
        let expected = shared_canonical_hashes(Path::new("d"), &mut all_in_map, &UNNAMED);
        let messages = |findings: &[Finding]| -> Vec<String> {
            findings.iter().map(|f| f.message.clone()).collect()
        };
        assert_eq!(messages(&found), messages(&expected));
        // Hashes 1, 2, 4 and the text one are shared; 0 and 3 are not.
        assert_eq!(found.len(), 4, "{:#?}", messages(&found));
        assert!(found[1].message.starts_with(&format!(
            "canonical_request_sha256 {} names 40 receipts of 2 distinct frames",
            digest(2)
        )));
    }

    /// A hash that only named receipts carry, with nothing in the map: two receipts of two
    /// distinct frames share it, two of one frame do not (seen red with each of cargo-mutants'
    /// session-10 misses in `distinct_here` applied by hand: `<` → `<=` or `==`, `1 +` → `1 *`,
    /// the frames' `!=` → `==`; each skipped the run of two frames, so the finding was lost).
    #[test]
    fn two_named_receipts_of_two_frames_share_their_hash() {
        let state = DirState::default();
        let hash = [7u8; 32];
        let frame = |byte: u8| crate::digest::hex_lower(&[byte; 32]);
        for (frames, distinct) in [(vec![1, 2], 2), (vec![1, 1], 1), (vec![2, 1, 2], 2)] {
            let mut receipts = Receipts::default();
            receipts.reserve(frames.len(), &state);
            for (file, &byte) in frames.iter().enumerate() {
                let observed = Observed {
                    canonical_request_sha256: Some(crate::digest::hex_lower(&hash)),
                    framed_subject_sha256: Some(frame(byte)),
                    ..Observed::default()
                };
                receipts.add(file as u32, Some(&hash), observed, &state);
            }
            assert!(receipts.frames.is_empty(), "every receipt is named");
            let names = Named(vec![Some(hash); frames.len()]);
            let found = shared_canonical_hashes(Path::new("d"), &mut receipts, &names);
            let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
            if distinct == 1 {
                assert!(messages.is_empty(), "{messages:?}");
            } else {
                let expected = format!(
                    "canonical_request_sha256 {} names {} receipts of 2 distinct frames",
                    crate::digest::hex_lower(&hash),
                    frames.len()
                );
                assert!(
                    messages.len() == 1 && messages[0].starts_with(&expected),
                    "{messages:?}"
                );
            }
        }
    }

    #[test]
    fn sessions_are_interned_and_frames_aggregated_per_canonical_hash() {
        let mut receipts = Receipts::default();
        let state = DirState::default();
        let observed = |session: &str, canonical: &str, framed: &str| Observed {
            session: Some(session.into()),
            canonical_request_sha256: Some(canonical.into()),
            framed_subject_sha256: Some(framed.into()),
            ..Observed::default()
        };
        receipts.add(0, None, observed("s1", "c", "f1"), &state);
        receipts.add(1, None, observed("s2", "c", "f2"), &state);
        receipts.add(2, None, observed("s1", "c", "f1"), &state);
        receipts.add(3, None, observed("s1", "d", "f1"), &state);
        assert_eq!(receipts.sessions.len(), 2);
        assert_eq!(receipts.facts[2].session(), Some(0));
        assert_eq!(receipts.session(&receipts.facts[1]), Some("s2"));
        assert!(receipts.chain.is_none());
        assert!(receipts.operations.present.is_empty());
        let findings = shared_canonical_hashes(Path::new("d"), &mut receipts, &UNNAMED);
        assert_eq!(findings.len(), 1);
        assert_eq!(
            findings[0].message,
            "canonical_request_sha256 c names 3 receipts of 2 distinct frames (framed_subject_sha256 f1, f2)"
        );
    }
}
