//! Receipts an audit meets more than once (docs/receipts.md): a receipt file whose exact bytes
//! were already read at another path (a copy, a hard link, one file reached twice) is counted
//! once, under the path met first, and named as a `duplicate-receipt`; a host session's file
//! counter carried with other content by a receipt in another directory is a
//! `counter-conflict`. Both hold across every root and directory of one audit; within one
//! directory, counters are [`super::dir`]'s.

use crate::finding::{Code, Finding};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::path::Path;

/// What the audit has seen of the receipts so far: 36 bytes a receipt file, plus 12 for each
/// one named as seal-host names receipts with a known session.
#[derive(Debug, Default)]
pub struct Seen {
    /// The SHA-256 of each receipt file's bytes → the walk's index of the first file.
    by_bytes: HashMap<[u8; 32], u32>,
    sessions: HashMap<Box<str>, u32>,
    /// (file counter, interned session) → the first file and its directory.
    by_counter: HashMap<(u64, u32), (u32, u32)>,
}

impl Seen {
    /// Records the receipt file `file` read as bytes with this SHA-256; hands back the first
    /// file with the same bytes when there was one (this one is then not recorded).
    pub fn bytes(&mut self, file: u32, sha256: [u8; 32]) -> Option<u32> {
        match self.by_bytes.entry(sha256) {
            Entry::Occupied(first) => Some(*first.get()),
            Entry::Vacant(slot) => {
                slot.insert(file);
                None
            }
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
    fn the_first_of_equal_bytes_is_kept_and_named() {
        let mut seen = Seen::default();
        assert_eq!(seen.bytes(3, [1; 32]), None);
        assert_eq!(seen.bytes(4, [2; 32]), None);
        assert_eq!(seen.bytes(5, [1; 32]), Some(3));
        assert_eq!(seen.bytes(6, [1; 32]), Some(3));
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
