//! The receipts' audit lines a head check folds, kept at a size that does not grow with the
//! lines: each line's decision-order key (`now`, the walk's file number) and its length (16
//! bytes a line: the lines are stored one after the other, so where each one is follows from
//! the lengths before it), set aside ([`SetAside`]) until the directory ends, when they are
//! read back and sorted; the bytes themselves ([`Spill`]) in an unnamed temporary file that
//! no other process can open by name (in memory only when no such file can be made or
//! written), read back once, in decision order, when the directory ends. The bytes read back
//! are the bytes the audit verified, not the receipt files again: a file changed after its
//! check changes nothing here, and receipts mapped elsewhere (`sealkit.dask`) need no second
//! read of the evidence.

use super::set_aside::SetAside;
use super::spill::Spill;
use std::fs::File;
use std::io;

/// Lines are written to the file in blocks of this size (one `pwrite` each).
const BLOCK_BYTES: usize = 1 << 20;

/// Bit of [`Key::flags`] set when the receipt states its decision time.
const NOW_KNOWN: u32 = 1 << 31;

/// One line's key and length: 16 bytes.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    now: u64,
    /// The walk's file number of its receipt.
    pub file: u32,
    /// The line's length, with [`NOW_KNOWN`].
    flags: u32,
}

impl Key {
    /// The decision time the receipt states (`None` sorts first, as `Option` does).
    pub fn now(&self) -> Option<u64> {
        (self.flags & NOW_KNOWN != 0).then_some(self.now)
    }

    fn len(&self) -> usize {
        (self.flags & !NOW_KNOWN) as usize
    }

    /// As set aside: `now`, the file and the flags, little-endian.
    fn encode(&self) -> [u8; 16] {
        let mut record = [0u8; 16];
        record[..8].copy_from_slice(&self.now.to_le_bytes());
        record[8..12].copy_from_slice(&self.file.to_le_bytes());
        record[12..].copy_from_slice(&self.flags.to_le_bytes());
        record
    }

    fn decode(record: &[u8; 16]) -> Key {
        let (mut now, mut file, mut flags) = ([0u8; 8], [0u8; 4], [0u8; 4]);
        now.copy_from_slice(&record[..8]);
        file.copy_from_slice(&record[8..12]);
        flags.copy_from_slice(&record[12..]);
        Key {
            now: u64::from_le_bytes(now),
            file: u32::from_le_bytes(file),
            flags: u32::from_le_bytes(flags),
        }
    }
}

/// A directory's audit lines, as they stream in.
#[derive(Debug)]
pub struct ChainLines {
    /// The lines' keys ([`Key::encode`]), in the order added.
    keys: SetAside<16>,
    /// How many lines were kept.
    lines: usize,
    /// Receipts whose audit line could not be read (their chain cannot be recomputed).
    lineless: usize,
    /// The lines' bytes, one after the other.
    store: Spill,
}

impl Default for ChainLines {
    fn default() -> Self {
        ChainLines::new(tempfile::tempfile().ok())
    }
}

impl ChainLines {
    /// Lines kept in `file` (an unnamed temporary file), or in memory without one.
    pub fn new(file: Option<File>) -> ChainLines {
        ChainLines {
            keys: SetAside::default(),
            lines: 0,
            lineless: 0,
            store: match file {
                Some(file) => Spill::in_file(BLOCK_BYTES, file),
                None => Spill::in_memory(),
            },
        }
    }

    /// Whether the bytes are in a file (not in this process's memory).
    #[cfg(test)]
    pub fn in_file(&self) -> bool {
        self.store.uses_file()
    }

    /// How many receipts were added, with a line or without.
    pub fn receipts(&self) -> usize {
        self.lines + self.lineless
    }

    /// How many receipts had no readable audit line.
    pub fn lineless(&self) -> usize {
        self.lineless
    }

    /// Keeps receipt `file`'s line (`None`: it has none that could be read).
    pub fn add(&mut self, file: u32, now: Option<u64>, line: Option<&str>) {
        let Some(line) = line else {
            self.lineless += 1;
            return;
        };
        let len = u32::try_from(line.len())
            .ok()
            .filter(|len| len & NOW_KNOWN == 0);
        let Some(len) = len else {
            // Longer than any receipt the audit reads (it reads none over 16 MiB).
            self.lineless += 1;
            return;
        };
        self.store.append(line.as_bytes());
        let flags = len | if now.is_some() { NOW_KNOWN } else { 0 };
        let key = Key {
            now: now.unwrap_or(0),
            file,
            flags,
        };
        self.keys.push(&key.encode());
        self.lines += 1;
    }

    /// Folds `step` over the lines in decision order: `now` (unknown first), then what `tie`
    /// orders (the file counter, then the path). The keys come back as added (once: a second
    /// fold has none); the order is an index of 4 bytes a line and the lines' offsets 8 bytes
    /// a line, made here.
    pub fn fold_in_order<T>(
        &mut self,
        mut tie: impl FnMut(&Key, &Key) -> std::cmp::Ordering,
        start: T,
        mut step: impl FnMut(T, &str) -> T,
    ) -> io::Result<T> {
        let mut keys: Vec<Key> = Vec::with_capacity(self.keys.len());
        self.keys.drain(|record| keys.push(Key::decode(record)))?;
        let mut order: Vec<u32> = (0..keys.len() as u32).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&keys[a as usize], &keys[b as usize]);
            a.now().cmp(&b.now()).then_with(|| tie(a, b))
        });
        let offsets: Vec<u64> = (keys.iter())
            .scan(0u64, |next, key| {
                let at = *next;
                *next += key.len() as u64;
                Some(at)
            })
            .collect();
        let mut line = Vec::new();
        let mut state = start;
        for (key, at) in order
            .iter()
            .map(|&i| (&keys[i as usize], offsets[i as usize]))
        {
            let bytes = self.store.bytes_at(at, key.len(), &mut line)?;
            let text = std::str::from_utf8(bytes)
                .map_err(|_| io::Error::other("a kept line is not the text written"))?;
            state = step(state, text);
        }
        Ok(state)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn lines(n: usize) -> Vec<String> {
        // Lengths 0 to ~5 KB so that lines straddle the 1 MiB blocks.
        (0..n)
            .map(|i| format!("{i}:{}", "x".repeat((i * 7919) % 5000)))
            .collect()
    }

    /// Keeps `lines` with `now` = a permutation, folds in key order: each line comes back
    /// whole, in the order of its `now`.
    fn round_trip(mut chain: ChainLines, n: usize) {
        let lines = lines(n);
        for (i, line) in lines.iter().enumerate() {
            // i ↦ (i * 7) mod n is a permutation for n not a multiple of 7.
            chain.add(i as u32, Some(((i * 7) % n) as u64), Some(line));
        }
        let read = chain
            .fold_in_order(
                |a, b| a.file.cmp(&b.file),
                Vec::new(),
                |mut all, line| {
                    all.push(line.to_owned());
                    all
                },
            )
            .unwrap();
        let mut expected: Vec<(usize, &String)> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| ((i * 7) % n, l))
            .collect();
        expected.sort();
        let expected: Vec<String> = expected.into_iter().map(|(_, l)| l.clone()).collect();
        assert_eq!(read, expected);
    }

    #[test]
    fn lines_come_back_whole_in_decision_order_from_the_file_and_from_memory() {
        let chain = ChainLines::default();
        assert!(chain.in_file());
        round_trip(chain, 1_500);
        round_trip(ChainLines::new(None), 1_500);
    }

    #[test]
    fn a_key_is_16_bytes_and_unknown_times_sort_first() {
        assert_eq!(std::mem::size_of::<Key>(), 16);
        let mut chain = ChainLines::new(None);
        chain.add(0, Some(5), Some("five"));
        chain.add(1, None, Some("unknown"));
        chain.add(2, Some(0), Some("zero"));
        chain.add(3, Some(5), Some("five again"));
        chain.add(4, Some(u64::MAX), Some("last"));
        chain.add(5, Some(1), None);
        assert_eq!((chain.receipts(), chain.lineless()), (6, 1));
        // Ties by file number, reversed, to show the tie order is the caller's.
        let order = chain.fold_in_order(
            |a, b| b.file.cmp(&a.file),
            String::new(),
            |all, line| all + line + "|",
        );
        assert_eq!(order.unwrap(), "unknown|zero|five again|five|last|");
    }

    #[test]
    fn a_failed_file_moves_what_it_held_into_memory() {
        // A file opened read-only: the first block's write fails.
        let path = tempfile::NamedTempFile::new().unwrap();
        let read_only = File::open(path.path()).unwrap();
        let mut chain = ChainLines::new(Some(read_only));
        let long = "y".repeat(BLOCK_BYTES / 3 + 1);
        for i in 0..4u32 {
            chain.add(i, Some(u64::from(3 - i)), Some(&format!("{i}{long}")));
        }
        assert!(!chain.in_file());
        let firsts = chain.fold_in_order(
            |a, b| a.file.cmp(&b.file),
            String::new(),
            |all, line| all + &line[..1],
        );
        assert_eq!(firsts.unwrap(), "3210");
    }
}
