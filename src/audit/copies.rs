//! Receipts an audit meets more than once (docs/receipts.md): a receipt file whose exact bytes
//! (compared whole, files with the same content key only) were already read at another path (a copy, a hard link, one file reached twice) is counted
//! once, under the path met first, and named as a `duplicate-receipt`; a host session's file
//! counter carried with other content by a receipt in another directory is a
//! `counter-conflict`. Both hold across every root and directory of one audit; within one
//! directory, counters are [`super::dir`]'s.

use super::walk::Walk;
use super::MAX_RECEIPT_BYTES;
use crate::finding::{Code, Finding};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::Hasher;
use std::path::Path;

/// What the audit has seen of the receipts so far: 12 bytes a receipt file, plus 12 for each
/// one named as seal-host names receipts with a known session.
#[derive(Debug, Default)]
pub struct Seen {
    /// The key of each distinct content read (`Walk::content_key`) → the first files with it
    /// (more than one only when distinct contents share a key).
    by_content: HashMap<u64, Vec<u32>>,
    sessions: HashMap<Box<str>, u32>,
    /// (file counter, interned session) → the first file and its directory.
    by_counter: HashMap<(u64, u32), (u32, u32)>,
}

/// Distinct contents compared under one key at most: a file whose key many prepared files
/// share is compared with the first few (each comparison reads two files).
const CANDIDATES: usize = 8;

impl Seen {
    /// The files already seen whose content has this key (each to be compared whole).
    pub fn candidates(&self, key: u64) -> &[u32] {
        self.by_content.get(&key).map_or(&[], Vec::as_slice)
    }

    /// Records the file `file` as the first with its content, under its key.
    pub fn add(&mut self, key: u64, file: u32) {
        let files = self.by_content.entry(key).or_default();
        if files.len() < CANDIDATES {
            files.push(file);
        }
    }

    /// Records that the receipt file `file`, in directory `dir`, carries `counter` in its name
    /// and was written in host session `session`; hands back the first file of that session
    /// with that counter when it lies in another directory (in the same directory the
    /// directory's own counter check names them).
    pub fn counter(&mut self, file: u32, dir: u32, counter: u64, session: &str) -> Option<u32> {
        let next = self.sessions.len() as u32;
        let session = match self.sessions.get(session) {
            Some(&id) => id,
            None => {
                self.sessions.insert(session.into(), next);
                next
            }
        };
        match self.by_counter.entry((counter, session)) {
            Entry::Occupied(first) => {
                let (first_file, first_dir) = *first.get();
                (first_dir != dir).then_some(first_file)
            }
            Entry::Vacant(slot) => {
                slot.insert((file, dir));
                None
            }
        }
    }
}

/// A keyed 64-bit key of a file's bytes (its length, its first 256 and last 1,024 bytes,
/// where a seal-host receipt carries its signature), keyed per audit: equal bytes have equal
/// keys, and a file cannot be prepared to share another's key without sharing those bytes.
/// Files with equal keys are compared whole ([`same_bytes`]) before one is taken for a copy.
pub fn content_key(walk: &Walk, bytes: &[u8]) -> u64 {
    let mut hasher = walk.keyed_hasher();
    hasher.write_usize(bytes.len());
    hasher.write(&bytes[..bytes.len().min(256)]);
    hasher.write(&bytes[bytes.len().saturating_sub(1024)..]);
    hasher.finish()
}

/// Whether the walk's files `first` and `index` hold the same bytes: read again whole and
/// compared, each unchanged since the walk saw it (a file replaced since is never taken for a
/// copy of another, whatever it holds now).
pub fn same_bytes(walk: &Walk, first: u32, index: u32) -> bool {
    let read = |file: u32| {
        let path = walk.path(file);
        if !walk.unchanged(file, &path) {
            return None;
        }
        crate::input::read_file_capped(&path, MAX_RECEIPT_BYTES).ok()
    };
    match (read(first), read(index)) {
        (Some(a), Some(b)) => a == b && walk.unchanged(first, &walk.path(first)),
        _ => false,
    }
}

/// How the walk's file `index` relates to the file `first` whose bytes it has.
pub fn again(walk: &Walk, first: u32, index: u32) -> Again {
    let (a, b) = (walk.path(first), walk.path(index));
    if walk.items[first as usize].dir == walk.items[index as usize].dir
        && a.file_name() == b.file_name()
    {
        return Again::SameEntry;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(a), Ok(b)) = (std::fs::symlink_metadata(&a), std::fs::symlink_metadata(&b)) {
            if (a.dev(), a.ino()) == (b.dev(), b.ino()) {
                return Again::SameFile;
            }
        }
    }
    Again::Copy
}

/// How a file with the bytes of one read before relates to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Again {
    /// The same directory entry, reached twice (a file given beside its directory).
    SameEntry,
    /// The same file on disk under another name or directory (a hard link).
    SameFile,
    /// Another file with identical bytes (a copy).
    Copy,
}

/// The `duplicate-receipt` finding for `path`, whose bytes are those of `first`.
pub fn duplicate(path: &Path, first: &Path, again: Again) -> Finding {
    let first = first.display();
    let message = match again {
        Again::SameEntry => format!("the same file as {first}, given twice"),
        Again::SameFile => format!("the same file as {first} under another name (a hard link)"),
        Again::Copy => format!("a copy of {first} (identical bytes)"),
    };
    Finding::new(
        Code::DuplicateReceipt,
        Some(path.to_path_buf()),
        format!("{message}: checked and counted once, as {first}"),
    )
}

/// The `counter-conflict` finding for `path`, which carries the counter and session of
/// `first` (in another directory) with other bytes.
pub fn conflict(path: &Path, first: &Path, counter: u64, session: &str) -> Finding {
    Finding::new(
        Code::CounterConflict,
        Some(path.to_path_buf()),
        format!(
            "counter {counter:020} of host session {session} is also carried, with other content, by {}: a session writes each counter once, so at most one of them is what the host wrote",
            first.display()
        ),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn the_first_files_of_a_key_are_kept_in_order_and_bounded() {
        let mut seen = Seen::default();
        assert_eq!(seen.candidates(1), &[] as &[u32]);
        seen.add(1, 3);
        seen.add(2, 4);
        seen.add(1, 5);
        assert_eq!(seen.candidates(1), &[3, 5]);
        for file in 10..20 {
            seen.add(7, file);
        }
        assert_eq!(seen.candidates(7), &[10, 11, 12, 13, 14, 15, 16, 17]);
    }

    #[test]
    fn a_sessions_counter_conflicts_only_across_directories() {
        let mut seen = Seen::default();
        assert_eq!(seen.counter(0, 0, 7, "s1"), None);
        // Same directory: the directory's own check.
        assert_eq!(seen.counter(1, 0, 7, "s1"), None);
        // Another session, or another counter.
        assert_eq!(seen.counter(2, 1, 7, "s2"), None);
        assert_eq!(seen.counter(3, 1, 8, "s1"), None);
        assert_eq!(seen.counter(4, 1, 7, "s1"), Some(0));
        assert_eq!(seen.counter(5, 2, 7, "s2"), Some(2));
    }
}
