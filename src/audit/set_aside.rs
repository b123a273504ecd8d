//! Fixed-size records a directory check needs only once the directory ends, kept out of
//! memory while receipts stream in: appended in blocks to an unnamed temporary file that no
//! other process can open by name (made when the first block fills, so a small directory
//! never touches the disk; in memory when no such file can be made or written), read back
//! once, in the order added, when the check runs (the bytes kept by [`Spill`], which also
//! keeps the audit lines' bytes; here with a count, so that a record that does not come back
//! is an error). What comes back is what was added, never the evidence read again; when it
//! cannot come back, the caller says the check was not made.

use super::spill::Spill;
use std::io;

/// Records are written to the file in blocks of at least this size (one `pwrite` each).
const BLOCK_BYTES: usize = 256 << 10;

/// Records of `N` bytes each, in the order added.
#[derive(Debug)]
pub struct SetAside<const N: usize> {
    store: Spill,
    count: usize,
}

impl<const N: usize> Default for SetAside<N> {
    fn default() -> Self {
        SetAside {
            store: Spill::lazy(BLOCK_BYTES),
            count: 0,
        }
    }
}

impl<const N: usize> SetAside<N> {
    /// Records kept in memory only (as when no temporary file can be made).
    #[cfg(test)]
    fn in_memory() -> Self {
        SetAside {
            store: Spill::in_memory(),
            count: 0,
        }
    }

    /// How many records were added.
    pub fn len(&self) -> usize {
        self.count
    }

    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether the records are in a file (not in this process's memory).
    #[cfg(test)]
    pub fn in_file(&self) -> bool {
        self.store.uses_file()
    }

    pub fn push(&mut self, record: &[u8; N]) {
        self.count += 1;
        self.store.append(record);
    }

    /// Hands every record to `each` in the order added (the file read back a block at a
    /// time), and frees the store.
    pub fn drain(&mut self, mut each: impl FnMut(&[u8; N])) -> io::Result<()> {
        let store = std::mem::replace(&mut self.store, Spill::lazy(BLOCK_BYTES));
        let count = std::mem::take(&mut self.count);
        let mut handed = 0usize;
        // Every append is one record and the pieces are whole records, so no record is split
        // between two pieces; any that were would not be handed, and the count says so.
        let piece = (BLOCK_BYTES / N).max(1) * N;
        store.drain(piece, |bytes| {
            for record in bytes.chunks_exact(N) {
                if let Ok(record) = <&[u8; N]>::try_from(record) {
                    handed += 1;
                    each(record);
                }
            }
        })?;
        match handed == count {
            true => Ok(()),
            false => Err(io::Error::other(format!(
                "{handed} of the {count} records set aside came back"
            ))),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn record(i: u32) -> [u8; 36] {
        let mut record = [0u8; 36];
        record[..4].copy_from_slice(&i.to_le_bytes());
        record[4..].copy_from_slice(&[(i % 251) as u8; 32]);
        record
    }

    fn drained(records: &mut SetAside<36>) -> Vec<[u8; 36]> {
        let mut all = Vec::new();
        records.drain(|r| all.push(*r)).unwrap();
        all
    }

    /// Records come back whole and in order from the file (several blocks, and a block not
    /// yet written) and from memory, and the store is empty after. Seen red with the last
    /// block's length taken as a whole block (records past the end) and with the pending
    /// block not handed back.
    #[test]
    fn records_come_back_in_the_order_added_from_the_file_and_from_memory() {
        let n = 3 * BLOCK_BYTES / 36 + 17;
        let expected: Vec<[u8; 36]> = (0..n as u32).map(record).collect();
        let mut in_file = SetAside::<36>::default();
        let mut in_memory = SetAside::<36>::in_memory();
        for record in &expected {
            in_file.push(record);
            in_memory.push(record);
        }
        assert!(in_file.in_file() && !in_memory.in_file());
        assert_eq!((in_file.len(), in_memory.len()), (n, n));
        assert_eq!(drained(&mut in_file), expected);
        assert_eq!(drained(&mut in_memory), expected);
        assert!(in_file.is_empty() && drained(&mut in_file).is_empty());
        // A few records never fill a block: no file is made.
        let mut few = SetAside::<36>::default();
        few.push(&record(1));
        assert!(!few.in_file());
        assert_eq!(drained(&mut few), vec![record(1)]);
    }

    #[test]
    fn a_failed_file_moves_what_it_held_into_memory() {
        // A file opened read-only: the first block's write fails.
        let path = tempfile::NamedTempFile::new().unwrap();
        let read_only = std::fs::File::open(path.path()).unwrap();
        let mut records = SetAside::<36> {
            store: Spill::in_file(BLOCK_BYTES, read_only),
            count: 0,
        };
        let n = 2 * BLOCK_BYTES / 36;
        let expected: Vec<[u8; 36]> = (0..n as u32).map(record).collect();
        for record in &expected {
            records.push(record);
        }
        assert!(!records.in_file());
        assert_eq!(drained(&mut records), expected);
    }
}
