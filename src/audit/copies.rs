//! Receipts an audit meets more than once (docs/receipts.md): a receipt file whose signed
//! content (its signature and what it signs, however the JSON around it is spaced; the bytes
//! of a file that is no signed receipt) was already met at another path (a copy, a re-spaced
//! copy, a hard link, one file reached twice) is counted once, under the path met first, and
//! named as a `duplicate-receipt`; a host session's file counter carried with other content
//! by a receipt in another directory is a `counter-conflict`. Both hold across every root and
//! directory of one audit; within one directory, counters are [`super::dir`]'s.

use super::walk::Walk;
use crate::finding::{Code, Finding};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::path::Path;

/// A file of the walk, with the device and inode of what was read (when known).
pub type Met = (u32, Option<(u64, u64)>);

/// What the audit has seen of the receipts so far: 60 bytes a distinct receipt, plus 12
/// for each one named as seal-host names receipts with a known session.
#[derive(Debug, Default)]
pub struct Seen {
    /// The identity of each distinct content met → the first file with it.
    by_content: HashMap<[u8; 32], Met>,
    sessions: HashMap<Box<str>, u32>,
    /// (file counter, interned session) → the first file and its directory.
    by_counter: HashMap<(u64, u32), (u32, u32)>,
}

impl Seen {
    /// The first file met with this content identity, if it is not `file`'s own; else
    /// records `file` as the first.
    pub fn first(
        &mut self,
        identity: [u8; 32],
        file: u32,
        file_id: Option<(u64, u64)>,
    ) -> Option<Met> {
        match self.by_content.entry(identity) {
            Entry::Occupied(first) => Some(*first.get()),
            Entry::Vacant(slot) => {
                slot.insert((file, file_id));
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

/// How the walk's file `again` relates to the file `first` whose content it has.
pub fn again(walk: &Walk, first: Met, again: Met) -> Again {
    let (a, b) = (walk.path(first.0), walk.path(again.0));
    if walk.items[first.0 as usize].dir == walk.items[again.0 as usize].dir
        && a.file_name() == b.file_name()
    {
        return Again::SameEntry;
    }
    match (first.1, again.1) {
        (Some(a), Some(b)) if a == b => Again::SameFile,
        _ => Again::Copy,
    }
}

/// How a file with the content of one read before relates to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Again {
    /// The same directory entry, reached twice (a file given beside its directory).
    SameEntry,
    /// The same file on disk under another name or directory (a hard link).
    SameFile,
    /// Another file with the same signed content (a copy, byte for byte or re-spaced).
    Copy,
}

/// The `duplicate-receipt` finding for `path`, whose bytes are those of `first`.
pub fn duplicate(path: &Path, first: &Path, again: Again) -> Finding {
    let first = first.display();
    let message = match again {
        Again::SameEntry => format!("the same file as {first}, given twice"),
        Again::SameFile => format!("the same file as {first} under another name (a hard link)"),
        Again::Copy => format!("a copy of {first} (the same signed content)"),
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
    fn the_first_file_of_an_identity_is_kept() {
        let mut seen = Seen::default();
        assert_eq!(seen.first([1; 32], 3, Some((1, 9))), None);
        assert_eq!(seen.first([2; 32], 4, None), None);
        assert_eq!(seen.first([1; 32], 5, None), Some((3, Some((1, 9)))));
        assert_eq!(seen.first([1; 32], 6, None), Some((3, Some((1, 9)))));
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
