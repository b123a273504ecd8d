//! Fixed-size records a directory check needs only once the directory ends, kept out of
//! memory while receipts stream in: appended in blocks to an unnamed temporary file that no
//! other process can open by name (made when the first block fills, so a small directory
//! never touches the disk; in memory when no such file can be made or written), read back
//! once, in the order added, when the check runs. What comes back is what was added, never
//! the evidence read again; when it cannot come back, the caller says the check was not made.

use std::fs::File;
use std::io;

/// Records are written to the file in blocks of at least this size (one `pwrite` each).
const BLOCK_BYTES: usize = 256 << 10;

/// Where the records are.
#[derive(Debug)]
enum Store {
    /// In memory: no block has filled yet, or no temporary file could be made or written.
    Memory { bytes: Vec<u8>, file_failed: bool },
    /// An unnamed temporary file: `written` bytes in it, `pending` after them.
    File {
        file: File,
        written: u64,
        pending: Vec<u8>,
    },
    /// Neither could keep them (the file failed and could not be read back).
    Lost(String),
}

/// Records of `N` bytes each, in the order added.
#[derive(Debug)]
pub struct SetAside<const N: usize> {
    store: Store,
    count: usize,
}

impl<const N: usize> Default for SetAside<N> {
    fn default() -> Self {
        SetAside {
            store: Store::Memory {
                bytes: Vec::new(),
                file_failed: false,
            },
            count: 0,
        }
    }
}

impl<const N: usize> SetAside<N> {
    /// Records kept in memory only (as when no temporary file can be made).
    #[cfg(test)]
    fn in_memory() -> Self {
        SetAside {
            store: Store::Memory {
                bytes: Vec::new(),
                file_failed: true,
            },
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
        matches!(self.store, Store::File { .. })
    }

    pub fn push(&mut self, record: &[u8; N]) {
        self.count += 1;
        match &mut self.store {
            Store::Memory { bytes, file_failed } => {
                bytes.extend_from_slice(record);
                if !*file_failed && bytes.len() >= BLOCK_BYTES {
                    self.store = match tempfile::tempfile() {
                        Ok(file) => Store::File {
                            file,
                            written: 0,
                            pending: std::mem::take(bytes),
                        },
                        Err(_) => Store::Memory {
                            bytes: std::mem::take(bytes),
                            file_failed: true,
                        },
                    };
                    self.flush();
                }
            }
            Store::File { pending, .. } => {
                pending.extend_from_slice(record);
                if pending.len() >= BLOCK_BYTES {
                    self.flush();
                }
            }
            // Nothing can be kept any more (reading back reports why).
            Store::Lost(_) => {}
        }
    }

    /// Writes the pending block to the file; after a failed write, everything so far moves
    /// into memory (read back from the file), and stays there.
    fn flush(&mut self) {
        let Store::File {
            file,
            written,
            pending,
        } = &mut self.store
        else {
            return;
        };
        if write_at(file, pending, *written).is_ok() {
            *written += pending.len() as u64;
            pending.clear();
            if pending.capacity() > 2 * BLOCK_BYTES {
                pending.shrink_to(BLOCK_BYTES);
            }
            return;
        }
        let mut bytes = vec![0; *written as usize];
        self.store = match read_at(file, &mut bytes, 0) {
            Ok(()) => {
                bytes.extend_from_slice(pending);
                Store::Memory {
                    bytes,
                    file_failed: true,
                }
            }
            Err(error) => Store::Lost(format!("the temporary file failed: {error}")),
        };
    }

    /// Hands every record to `each` in the order added (the file read back a block at a
    /// time), and frees the store.
    pub fn drain(&mut self, mut each: impl FnMut(&[u8; N])) -> io::Result<()> {
        let store = std::mem::replace(
            &mut self.store,
            Store::Memory {
                bytes: Vec::new(),
                file_failed: false,
            },
        );
        let count = std::mem::take(&mut self.count);
        let mut handed = 0usize;
        let mut records = |bytes: &[u8]| {
            for record in bytes.chunks_exact(N) {
                if let Ok(record) = <&[u8; N]>::try_from(record) {
                    handed += 1;
                    each(record);
                }
            }
        };
        let tail = match store {
            Store::Memory { bytes, .. } => bytes,
            Store::File {
                file,
                written,
                pending,
            } => {
                let block = (BLOCK_BYTES / N).max(1) * N;
                let mut buffer = vec![0; block];
                let mut at = 0u64;
                while at < written {
                    let len = usize::try_from(written - at).map_or(block, |left| left.min(block));
                    read_at(&file, &mut buffer[..len], at)?;
                    records(&buffer[..len]);
                    at += len as u64;
                }
                pending
            }
            Store::Lost(why) => return Err(io::Error::other(why)),
        };
        records(&tail);
        match handed == count {
            true => Ok(()),
            false => Err(io::Error::other(format!(
                "{handed} of the {count} records set aside came back"
            ))),
        }
    }
}

/// Writes all of `bytes` at offset `at` of `file` (the audit's set-aside files share it).
#[cfg(unix)]
pub(super) fn write_at(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

/// Fills `bytes` from offset `at` of `file`.
#[cfg(unix)]
pub(super) fn read_at(file: &File, bytes: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, bytes, at)
}

#[cfg(not(unix))]
pub(super) fn write_at(_: &File, _: &[u8], _: u64) -> io::Result<()> {
    // Memory instead (every caller falls back to it on a failed write).
    Err(io::Error::other("positioned writes are unix-only here"))
}

#[cfg(not(unix))]
pub(super) fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<()> {
    Err(io::Error::other("positioned reads are unix-only here"))
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
        let mut records = SetAside::<36> {
            store: Store::File {
                file: File::open(path.path()).unwrap(),
                written: 0,
                pending: Vec::new(),
            },
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
