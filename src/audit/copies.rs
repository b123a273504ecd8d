//! Receipts an audit meets more than once (docs/receipts.md): a receipt file whose signed
//! content (its signature and what it signs, however the JSON around it is spaced; the bytes
//! of a file that is no signed receipt) was already met at another path (a copy, a re-spaced
//! copy, a hard link, one file reached twice) is counted once, under the path met first, and
//! named as a `duplicate-receipt`; a host session's file counter carried with other content
//! by a receipt in another directory is a `counter-conflict`. Both hold across every root and
//! directory of one audit; within one directory, counters are [`super::dir`]'s.

use super::walk::Walk;
use crate::finding::{Code, Finding};
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::path::Path;

/// A file of the walk, with the device and inode of what was read (when known).
pub type Met = (u32, Option<(u64, u64)>);

/// What the audit has seen of the receipts so far: 48 bytes a distinct receipt and 8 for
/// each named as seal-host names receipts with a known session, in vectors sized once for
/// the listing's files, plus a table of 4-byte slots over each, at most half full (8 to 16
/// bytes a receipt each). Hash maps of the same entries cost 64 and 24 bytes an entry at up
/// to twice their size, and both copies at once while they grow.
#[derive(Debug)]
pub struct Seen {
    /// Keys the slots' hash (random per audit, so contents cannot be made to collide).
    keys: std::hash::RandomState,
    /// Each distinct content met, in the order met, with the first file that had it.
    firsts: Vec<First>,
    by_content: Slots,
    /// Devices of the files met, interned (a directory tree has few), both ways.
    devices: Vec<u64>,
    device_ids: HashMap<u64, u32>,
    sessions: HashMap<Box<str>, u32>,
    /// The first file met with each (file counter, session), and its session; its counter
    /// and directory are the walk's.
    counters: Vec<(u32, u32)>,
    by_counter: Slots,
}

/// One distinct content's identity and the first file met with it: 48 bytes.
#[derive(Debug)]
struct First {
    identity: [u8; 32],
    /// The inode of what was read (meaningful with a device).
    inode: u64,
    file: u32,
    /// Index into [`Seen::devices`], or [`NO_DEVICE`] when the file's identity is unknown.
    device: u32,
}

const NO_DEVICE: u32 = u32::MAX;

impl Default for Seen {
    fn default() -> Self {
        Seen::with_room(0)
    }
}

impl Seen {
    /// Room for `files` receipts without growing (more still fit: the vectors and tables
    /// then grow).
    pub fn with_room(files: usize) -> Seen {
        Seen {
            keys: std::hash::RandomState::new(),
            firsts: Vec::with_capacity(files),
            by_content: Slots::with_room(files),
            devices: Vec::new(),
            device_ids: HashMap::new(),
            sessions: HashMap::new(),
            counters: Vec::with_capacity(files),
            by_counter: Slots::with_room(files),
        }
    }

    /// The first file met with this content identity, if it is not `file`'s own; else
    /// records `file` as the first.
    pub fn first(
        &mut self,
        identity: [u8; 32],
        file: u32,
        file_id: Option<(u64, u64)>,
    ) -> Option<Met> {
        let keys = &self.keys;
        let firsts = &self.firsts;
        let hash = |identity: &[u8; 32]| keys.hash_one(identity);
        let new = firsts.len() as u32;
        let found = self.by_content.find_or_insert(
            hash(&identity),
            new,
            |entry| firsts[entry as usize].identity == identity,
            |entry| hash(&firsts[entry as usize].identity),
        );
        if let Some(entry) = found {
            let first = &self.firsts[entry as usize];
            let device = self.devices.get(first.device as usize);
            return Some((first.file, device.map(|&device| (device, first.inode))));
        }
        let (device, inode) = match file_id {
            Some((device, inode)) => {
                let next = self.devices.len() as u32;
                let id = *self.device_ids.entry(device).or_insert(next);
                if id == next {
                    self.devices.push(device);
                }
                (id, inode)
            }
            None => (NO_DEVICE, 0),
        };
        self.firsts.push(First {
            identity,
            inode,
            file,
            device,
        });
        None
    }

    /// Records that the receipt file `file`, in directory `dir`, carries `counter` in its name
    /// and was written in host session `session`; hands back the first file of that session
    /// with that counter when it lies in another directory (in the same directory the
    /// directory's own counter check names them). `walked` gives a recorded file's counter and
    /// directory, as they were when it was recorded.
    pub fn counter(
        &mut self,
        file: u32,
        dir: u32,
        counter: u64,
        session: &str,
        walked: &dyn Fn(u32) -> (Option<u64>, u32),
    ) -> Option<u32> {
        let next = self.sessions.len() as u32;
        let session = match self.sessions.get(session) {
            Some(&id) => id,
            None => {
                self.sessions.insert(session.into(), next);
                next
            }
        };
        let keys = &self.keys;
        let counters = &self.counters;
        let hash = |counter: Option<u64>, session: u32| keys.hash_one((counter, session));
        let found = self.by_counter.find_or_insert(
            hash(Some(counter), session),
            counters.len() as u32,
            |entry| {
                let (first, first_session) = counters[entry as usize];
                first_session == session && walked(first).0 == Some(counter)
            },
            |entry| {
                let (first, first_session) = counters[entry as usize];
                hash(walked(first).0, first_session)
            },
        );
        match found {
            Some(entry) => {
                let (first_file, _) = self.counters[entry as usize];
                (walked(first_file).1 != dir).then_some(first_file)
            }
            None => {
                self.counters.push((file, session));
                None
            }
        }
    }
}

/// An open-addressing index over entries kept in a vector beside it: each slot holds an
/// entry's number or [`Slots::EMPTY`], found from the entry's keyed hash by linear probing;
/// at most half the slots are used, so a probe ends soon.
#[derive(Debug)]
struct Slots {
    slots: Vec<u32>,
    used: usize,
}

impl Slots {
    const EMPTY: u32 = u32::MAX;

    /// Room for `entries` entries without growing.
    fn with_room(entries: usize) -> Slots {
        Slots {
            slots: vec![Slots::EMPTY; (entries.max(4) * 2).next_power_of_two()],
            used: 0,
        }
    }

    /// The entry, among those whose hash is `hash`, that `is` accepts; else `new` is put in
    /// the table and `None` comes back. `rehash` gives an entry's hash when the table grows.
    fn find_or_insert(
        &mut self,
        hash: u64,
        new: u32,
        is: impl Fn(u32) -> bool,
        rehash: impl Fn(u32) -> u64,
    ) -> Option<u32> {
        if (self.used + 1) * 2 > self.slots.len() {
            self.grow(&rehash);
        }
        let mask = self.slots.len() - 1;
        let mut at = hash as usize & mask;
        loop {
            match self.slots[at] {
                Slots::EMPTY => {
                    self.slots[at] = new;
                    self.used += 1;
                    return None;
                }
                entry if is(entry) => return Some(entry),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Twice the slots, every entry put back.
    fn grow(&mut self, hash: &dyn Fn(u32) -> u64) {
        let room = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![Slots::EMPTY; room]);
        let mask = self.slots.len() - 1;
        for entry in old.into_iter().filter(|&entry| entry != Slots::EMPTY) {
            let mut at = hash(entry) as usize & mask;
            while self.slots[at] != Slots::EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = entry;
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
        assert_eq!(seen.first([4; 32], 7, Some((2, 9))), None);
        assert_eq!(seen.first([1; 32], 5, None), Some((3, Some((1, 9)))));
        assert_eq!(seen.first([1; 32], 6, None), Some((3, Some((1, 9)))));
        assert_eq!(seen.first([2; 32], 8, Some((1, 1))), Some((4, None)));
        assert_eq!(seen.first([4; 32], 9, None), Some((7, Some((2, 9)))));
    }

    /// Many identities (differing in one byte anywhere, so every part of the key counts),
    /// with far less room than they need: the table grows, and each one's first file is
    /// found again, with its own device and inode, and no other's. Seen red with the slot
    /// table growing without putting its entries back.
    #[test]
    fn identities_beyond_the_room_given_are_all_found_again() {
        let mut seen = Seen::with_room(3);
        let identity = |i: u32| {
            let mut identity = [0xff; 32];
            identity[(i % 32) as usize] = (i / 32) as u8;
            identity
        };
        let file_id =
            |i: u32| (!i.is_multiple_of(3)).then_some((u64::from(i % 5), u64::from(i) * 11));
        for i in 0..2_000u32 {
            let first = seen.first(identity(i), i, file_id(i));
            // Distinct: one byte is i / 32 (below 0xff for i < 8,160) at i % 32.
            assert_eq!(first, None, "{i}");
        }
        for i in 0..2_000u32 {
            assert_eq!(
                seen.first(identity(i), 10_000 + i, None),
                Some((i, file_id(i))),
                "{i}"
            );
        }
        assert_eq!(seen.firsts.len(), 2_000);
        assert!(seen.by_content.used * 2 <= seen.by_content.slots.len());
    }

    #[test]
    fn a_sessions_counter_conflicts_only_across_directories() {
        let mut seen = Seen::default();
        // File n is in directory dirs[n], named with counter counters[n].
        let dirs = [0, 0, 1, 1, 1, 2];
        let counters = [7, 7, 7, 8, 7, 7];
        let walked = |file: u32| (Some(counters[file as usize]), dirs[file as usize]);
        let mut counter = |file: u32, session: &str| {
            seen.counter(
                file,
                dirs[file as usize],
                counters[file as usize],
                session,
                &walked,
            )
        };
        assert_eq!(counter(0, "s1"), None);
        // Same directory: the directory's own check.
        assert_eq!(counter(1, "s1"), None);
        // Another session, or another counter.
        assert_eq!(counter(2, "s2"), None);
        assert_eq!(counter(3, "s1"), None);
        assert_eq!(counter(4, "s1"), Some(0));
        assert_eq!(counter(5, "s2"), Some(2));
    }

    /// Many (counter, session) pairs past the room given: each pair's first file comes back
    /// for a file of another directory, none for a new pair. Seen red with the session left
    /// out of the comparison.
    #[test]
    fn counters_beyond_the_room_given_are_all_found_again() {
        let mut seen = Seen::with_room(1);
        let sessions = ["a", "b", "c"];
        // File f carries counter f / 3 of session f % 3, in directory 0; file f + 10,000 the
        // same in directory 1.
        let walked = |file: u32| (Some(u64::from(file % 10_000 / 3)), file / 10_000);
        for file in 0..1_500u32 {
            let session = sessions[(file % 3) as usize];
            let found = seen.counter(file, 0, u64::from(file / 3), session, &walked);
            assert_eq!(found, None, "{file}");
        }
        for file in 0..1_500u32 {
            let session = sessions[(file % 3) as usize];
            let again = file + 10_000;
            let found = seen.counter(again, 1, u64::from(file / 3), session, &walked);
            assert_eq!(found, Some(file), "{file}");
        }
    }
}
