//! Bytes appended in order and read back exactly as appended, or an error — never other
//! bytes, fewer bytes or a panic: kept in an unnamed temporary file that no other process can
//! open by name (written a block at a time), in memory when no such file can be made or a
//! write to it fails (what the file held read back first), and lost — every later read an
//! error saying why — only when that read-back fails too. Read at an offset, in order as
//! often as wanted ([`Spill::reader`]), or once while freeing them ([`Spill::drain`]).

use std::fs::File;
use std::io;

/// Where the bytes are.
#[derive(Debug)]
enum Place {
    /// In memory: fewer than `file_from` bytes so far (a temporary file is made when that
    /// many are kept), or there is to be no file (`None`: none given, none could be made, or
    /// it failed).
    Memory {
        bytes: Vec<u8>,
        file_from: Option<usize>,
    },
    /// A temporary file: `written` bytes in it, `pending` after them.
    File {
        file: File,
        written: u64,
        pending: Vec<u8>,
    },
    /// Neither could keep them (the file failed and could not be read back).
    Lost(String),
}

/// Bytes set aside, in the order appended.
#[derive(Debug)]
pub struct Spill {
    /// Bytes gathered before each write to the file (one `pwrite`).
    block: usize,
    place: Place,
}

impl Spill {
    /// In memory until `block` bytes are appended, then in a temporary file made then (so
    /// that a few bytes never touch the disk), or in memory if none can be made.
    pub fn lazy(block: usize) -> Spill {
        Spill::lazy_after(block, block)
    }

    /// In memory until `threshold` bytes are appended, then in a temporary file made then
    /// (all of them written at once) and written `block` bytes at a time, or in memory if no
    /// file can be made.
    pub fn lazy_after(threshold: usize, block: usize) -> Spill {
        Spill {
            block,
            place: Place::Memory {
                bytes: Vec::new(),
                file_from: Some(threshold),
            },
        }
    }

    /// In `file` (an unnamed temporary file, empty), written `block` bytes at a time.
    pub fn in_file(block: usize, file: File) -> Spill {
        Spill {
            block,
            place: Place::File {
                file,
                written: 0,
                pending: Vec::new(),
            },
        }
    }

    /// In memory only.
    pub fn in_memory() -> Spill {
        Spill {
            // Never used: no file is made or given.
            block: usize::MAX,
            place: Place::Memory {
                bytes: Vec::new(),
                file_from: None,
            },
        }
    }

    /// Whether the bytes are in a file (not in this process's memory).
    pub fn uses_file(&self) -> bool {
        matches!(self.place, Place::File { .. })
    }

    /// Puts `file` where the file written so far was (to make its next write or read fail).
    #[cfg(test)]
    pub(super) fn replace_file(&mut self, with: File) {
        if let Place::File { file, .. } = &mut self.place {
            *file = with;
        }
    }

    /// The bytes in the file so far, and those in memory.
    #[cfg(test)]
    pub(super) fn kept(&self) -> (u64, usize) {
        match &self.place {
            Place::File {
                written, pending, ..
            } => (*written, pending.len()),
            Place::Memory { bytes, .. } => (0, bytes.len()),
            Place::Lost(_) => (0, 0),
        }
    }

    /// Why the bytes were lost (every read is then an error saying so), if they were.
    pub fn lost(&self) -> Option<&str> {
        match &self.place {
            Place::Lost(why) => Some(why),
            _ => None,
        }
    }

    /// Appends `bytes` after those before them.
    pub fn append(&mut self, bytes: &[u8]) {
        match &mut self.place {
            Place::Memory {
                bytes: memory,
                file_from,
            } => {
                memory.extend_from_slice(bytes);
                if file_from.is_some_and(|from| memory.len() >= from) {
                    self.place = match tempfile::tempfile() {
                        Ok(file) => Place::File {
                            file,
                            written: 0,
                            pending: std::mem::take(memory),
                        },
                        Err(_) => Place::Memory {
                            bytes: std::mem::take(memory),
                            file_from: None,
                        },
                    };
                    self.flush();
                }
            }
            Place::File { pending, .. } => {
                pending.extend_from_slice(bytes);
                if pending.len() >= self.block {
                    self.flush();
                }
            }
            // Nothing can be kept any more (every read reports why).
            Place::Lost(_) => {}
        }
    }

    /// Writes the pending block to the file (so the file always ends where an append ended);
    /// after a failed write, everything so far moves into memory (read back from the file),
    /// and stays there.
    fn flush(&mut self) {
        let Place::File {
            file,
            written,
            pending,
        } = &mut self.place
        else {
            return;
        };
        if write_at(file, pending, *written).is_ok() {
            *written += pending.len() as u64;
            pending.clear();
            if pending.capacity() > self.block.saturating_mul(2) {
                pending.shrink_to(self.block);
            }
            return;
        }
        let mut bytes = vec![0; *written as usize];
        self.place = match read_at(file, &mut bytes, 0) {
            Ok(()) => {
                bytes.extend_from_slice(pending);
                Place::Memory {
                    bytes,
                    file_from: None,
                }
            }
            Err(error) => Place::Lost(format!("the temporary file failed: {error}")),
        };
    }

    /// Where the bytes are: the file (if any) and how many were written to it, then those
    /// after them in memory; a store that was lost is an error saying why.
    fn parts(&self) -> io::Result<(Option<&File>, u64, &[u8])> {
        match &self.place {
            Place::File {
                file,
                written,
                pending,
            } => Ok((Some(file), *written, pending)),
            Place::Memory { bytes, .. } => Ok((None, 0, bytes)),
            Place::Lost(why) => Err(io::Error::other(why.clone())),
        }
    }

    /// The `len` bytes from offset `at`: borrowed where they are in memory, else read into
    /// `buffer`. Bytes past the end are an error, as is a store that was lost.
    pub fn bytes_at<'a>(
        &'a self,
        at: u64,
        len: usize,
        buffer: &'a mut Vec<u8>,
    ) -> io::Result<&'a [u8]> {
        let (file, written, tail) = self.parts()?;
        let kept = written + tail.len() as u64;
        let past_end = || {
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("{len} bytes at {at} asked of the {kept} kept: past the end"),
            )
        };
        let end = (at.checked_add(len as u64))
            .filter(|&end| end <= kept)
            .ok_or_else(past_end)?;
        if let Some(from) = at.checked_sub(written) {
            // All in the block not yet written, or in memory.
            let from = usize::try_from(from).map_err(|_| past_end())?;
            return tail.get(from..from + len).ok_or_else(past_end);
        }
        let Some(file) = file else {
            // Only a file has bytes before the tail.
            return Err(past_end());
        };
        // From the file, and any part past it from the block not yet written.
        let from_file = usize::try_from(written.min(end) - at).map_err(|_| past_end())?;
        buffer.clear();
        buffer.resize(len, 0);
        read_at(file, &mut buffer[..from_file], at)?;
        let rest = tail.get(..len - from_file).ok_or_else(past_end)?;
        buffer[from_file..].copy_from_slice(rest);
        Ok(buffer)
    }

    /// Every byte kept so far, in the order appended, without freeing them: the file's read
    /// at their offsets (so any number of readers, one after another or at once, each read
    /// them all), then those not in the file. Lost bytes are an error here.
    pub fn reader(&self) -> io::Result<Reader<'_>> {
        let (file, written, tail) = self.parts()?;
        Ok(Reader {
            file,
            at: 0,
            written,
            tail,
        })
    }

    /// Hands the bytes to `each` in the order appended, and frees them: the file's in pieces
    /// of `piece` bytes (the last may be shorter), then those not in the file in one piece. A
    /// piece of the file ends where an append ended when every append's length divides
    /// `piece` (the file ends where one did).
    pub fn drain(self, piece: usize, mut each: impl FnMut(&[u8])) -> io::Result<()> {
        let tail = match self.place {
            Place::Memory { bytes, .. } => bytes,
            Place::File {
                file,
                written,
                pending,
            } => {
                let piece = piece.max(1);
                let mut buffer = vec![0; usize::try_from(written).map_or(piece, |w| w.min(piece))];
                let mut at = 0u64;
                while at < written {
                    let len = usize::try_from(written - at).map_or(piece, |left| left.min(piece));
                    read_at(&file, &mut buffer[..len], at)?;
                    each(&buffer[..len]);
                    at += len as u64;
                }
                pending
            }
            Place::Lost(why) => return Err(io::Error::other(why)),
        };
        each(&tail);
        Ok(())
    }
}

/// The bytes of a [`Spill`] in order: `written` in `file` (read from `at` on), then `tail`.
#[derive(Debug)]
pub struct Reader<'a> {
    file: Option<&'a File>,
    at: u64,
    written: u64,
    tail: &'a [u8],
}

impl io::Read for Reader<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let in_file = usize::try_from(self.written - self.at).unwrap_or(usize::MAX);
        match (self.file, in_file.min(buffer.len())) {
            (Some(file), len @ 1..) => {
                // Exactly what the file was written with: a file found shorter is an error.
                read_at(file, &mut buffer[..len], self.at)?;
                self.at += len as u64;
                Ok(len)
            }
            // Past the file (or none), or nothing asked for: the bytes not in a file.
            _ => io::Read::read(&mut self.tail, buffer),
        }
    }
}

/// Writes all of `bytes` at offset `at` of `file`.
#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

/// Fills `bytes` from offset `at` of `file`.
#[cfg(unix)]
fn read_at(file: &File, bytes: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, bytes, at)
}

#[cfg(not(unix))]
fn write_at(_: &File, _: &[u8], _: u64) -> io::Result<()> {
    // Memory instead (a failed write moves the bytes there).
    Err(io::Error::other("positioned writes are unix-only here"))
}

#[cfg(not(unix))]
fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<()> {
    Err(io::Error::other("positioned reads are unix-only here"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::io::Read as _;

    /// Small blocks, so that a few hundred bytes cross several.
    const BLOCK: usize = 100;

    /// Appends of 0 to 36 bytes, each byte its offset (mod 251): `(at, len)` of each, and all.
    fn appends(spill: &mut Spill, n: usize) -> (Vec<(u64, usize)>, Vec<u8>) {
        let (mut ranges, mut all) = (Vec::new(), Vec::new());
        for i in 0..n {
            let len = (i * 13) % 37;
            let bytes: Vec<u8> = (all.len()..all.len() + len)
                .map(|b| (b % 251) as u8)
                .collect();
            ranges.push((all.len() as u64, len));
            spill.append(&bytes);
            all.extend_from_slice(&bytes);
        }
        (ranges, all)
    }

    fn drained(spill: Spill, piece: usize) -> io::Result<Vec<Vec<u8>>> {
        let mut pieces = Vec::new();
        spill.drain(piece, |bytes| pieces.push(bytes.to_vec()))?;
        Ok(pieces)
    }

    fn after_a_block_is_written(path: &std::path::Path) -> Spill {
        let write_only = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        let mut spill = Spill::in_file(BLOCK, write_only);
        spill.append(&[7; BLOCK + 1]);
        assert!(matches!(spill.place, Place::File { written, .. } if written == BLOCK as u64 + 1));
        spill
    }

    /// Every append comes back whole at its offset, every range of bytes (within the file,
    /// across its end into the block not yet written, within that block) is the bytes
    /// appended there, and a drain hands them all back in order: from a file made when the
    /// first block fills, from a file given, and from memory. Seen red with the block not yet
    /// written left out of `drain` and with `bytes_at` reading a range that crosses the
    /// file's end wholly from the file.
    #[test]
    fn bytes_come_back_as_appended_across_blocks_from_a_file_and_from_memory() {
        let given = Spill::in_file(BLOCK, tempfile::tempfile().unwrap());
        for mut spill in [Spill::lazy(BLOCK), given, Spill::in_memory()] {
            // 105 appends: 1,783 bytes written, 81 not yet.
            let (ranges, all) = appends(&mut spill, 105);
            assert!(all.len() > 15 * BLOCK);
            let in_file = spill.uses_file();
            if let Place::File {
                written, pending, ..
            } = &spill.place
            {
                // Several blocks written, some bytes not yet.
                assert!(*written > 10 * BLOCK as u64 && !pending.is_empty());
            }
            let mut buffer = Vec::new();
            for &(at, len) in &ranges {
                let bytes = spill.bytes_at(at, len, &mut buffer).unwrap();
                assert_eq!(bytes, &all[at as usize..at as usize + len]);
            }
            for at in (0..all.len()).step_by(7) {
                for len in [0, 1, 99, 100, 101, 250] {
                    let len = len.min(all.len() - at);
                    let bytes = spill.bytes_at(at as u64, len, &mut buffer).unwrap();
                    assert_eq!(bytes, &all[at..at + len], "{len} at {at}");
                }
            }
            let pieces = drained(spill, 36).unwrap();
            assert_eq!(pieces.concat(), all);
            if in_file {
                // The file's pieces are 36 bytes but its last one.
                let file_pieces = &pieces[..pieces.len() - 2];
                assert!(file_pieces.iter().all(|piece| piece.len() == 36));
            } else {
                assert_eq!(pieces.len(), 1);
            }
        }
    }

    /// Appends of one size that divides the piece: every piece ends where an append ended (as
    /// `SetAside` needs of its records).
    #[test]
    fn pieces_end_where_appends_ended() {
        let mut spill = Spill::lazy(BLOCK);
        for i in 0..200u8 {
            spill.append(&[i; 12]);
        }
        assert!(spill.uses_file());
        let pieces = drained(spill, 48).unwrap();
        assert!(pieces.iter().all(|piece| piece.len() % 12 == 0));
        let records: Vec<&[u8]> = pieces.iter().flat_map(|p| p.chunks_exact(12)).collect();
        assert_eq!(records.len(), 200);
        assert!((records.iter().enumerate()).all(|(i, r)| r == &[i as u8; 12]));
    }

    /// A lazy store makes its file only when a block fills: a few bytes never touch the disk.
    #[test]
    fn the_file_is_made_when_the_first_block_fills() {
        let mut spill = Spill::lazy(BLOCK);
        spill.append(&[1; BLOCK - 1]);
        assert!(!spill.uses_file());
        spill.append(&[2]);
        assert!(spill.uses_file());
        assert!(matches!(spill.place, Place::File { written, .. } if written == BLOCK as u64));
        let mut forced = Spill::in_memory();
        forced.append(&[3; 10 * BLOCK]);
        assert!(!forced.uses_file());
        assert_eq!(drained(forced, 1).unwrap(), vec![vec![3; 10 * BLOCK]]);
    }

    /// A write that fails after a block was written: that block is read back, everything is
    /// in memory after it, later appends stay there (no file again), and every byte comes
    /// back. Seen red with the read-back skipped (zeros in place of the block written).
    #[test]
    fn a_failed_write_moves_everything_into_memory_and_it_stays_there() {
        let path = tempfile::NamedTempFile::new().unwrap();
        let mut spill = after_a_block_is_written(path.path());
        // The same file, now read-only: the next block's write fails, the read-back works.
        if let Place::File { file, .. } = &mut spill.place {
            *file = File::open(path.path()).unwrap();
        }
        spill.append(&[8; BLOCK]);
        assert!(!spill.uses_file());
        spill.append(&[9; 5 * BLOCK]);
        assert!(!spill.uses_file());
        let mut expected = vec![7; BLOCK + 1];
        expected.extend_from_slice(&[8; BLOCK]);
        expected.extend_from_slice(&[9; 5 * BLOCK]);
        let mut buffer = Vec::new();
        let first = spill.bytes_at(0, 2 * BLOCK, &mut buffer).unwrap();
        assert_eq!(first, &expected[..2 * BLOCK]);
        assert_eq!(drained(spill, BLOCK).unwrap(), vec![expected]);

        // A file that fails its first write (read-only from the start): nothing to read back.
        let mut spill = Spill::in_file(BLOCK, File::open(path.path()).unwrap());
        spill.append(&[4; 3 * BLOCK]);
        assert!(!spill.uses_file());
        assert_eq!(drained(spill, BLOCK).unwrap(), vec![vec![4; 3 * BLOCK]]);
    }

    /// A write that fails and a read-back that fails too: every later read, at an offset or
    /// in order, is an error that says why, and hands nothing. Seen red with a failed
    /// read-back taken as read (`Ok` with the zeros it started as): the reads then succeed.
    #[test]
    fn a_lost_store_says_why_on_every_read() {
        let path = tempfile::NamedTempFile::new().unwrap();
        let directory = tempfile::tempdir().unwrap();
        let mut spill = after_a_block_is_written(path.path());
        // A directory: it can be neither written nor read.
        if let Place::File { file, .. } = &mut spill.place {
            *file = File::open(directory.path()).unwrap();
        }
        spill.append(&[8; BLOCK]);
        spill.append(&[9; 3 * BLOCK]);
        assert!(!spill.uses_file());
        let mut buffer = Vec::new();
        for (at, len) in [(0, 1), (0, 0), (BLOCK as u64 + 1, 10), (1 << 40, 1)] {
            let error = spill.bytes_at(at, len, &mut buffer).unwrap_err();
            assert!(
                error.to_string().starts_with("the temporary file failed: "),
                "{error}"
            );
        }
        let error = spill.reader().unwrap_err();
        assert!(error.to_string().starts_with("the temporary file failed: "));
        assert!(spill
            .lost()
            .unwrap()
            .starts_with("the temporary file failed: "));
        let mut handed = 0;
        let error = spill.drain(1, |_| handed += 1).unwrap_err();
        assert!(error.to_string().starts_with("the temporary file failed: "));
        assert_eq!(handed, 0);
    }

    /// Every byte in order, through readers made one after another and read at once, in
    /// reads of many sizes (within the file, across its end, within the bytes not yet
    /// written): from a file made once a threshold other than the block is reached, from a
    /// file given, and from memory. Seen red with the reader handing nothing past the file
    /// (`Ok(0)` in place of reading the tail): the bytes not yet written are missing.
    #[test]
    fn a_reader_hands_every_byte_in_order_as_often_as_asked() {
        let given = Spill::in_file(BLOCK, tempfile::tempfile().unwrap());
        let lazy = Spill::lazy_after(5 * BLOCK / 2, BLOCK);
        for mut spill in [lazy, given, Spill::in_memory()] {
            let (_, all) = appends(&mut spill, 105);
            if let Place::File {
                written, pending, ..
            } = &spill.place
            {
                assert!(*written > 10 * BLOCK as u64 && !pending.is_empty());
            }
            for size in [1, 7, 64, BLOCK, 4096] {
                let (mut first, mut second) = (spill.reader().unwrap(), spill.reader().unwrap());
                let (mut one, mut two) = (Vec::new(), Vec::new());
                let mut buffer = vec![0; size];
                loop {
                    let n = first.read(&mut buffer).unwrap();
                    one.extend_from_slice(&buffer[..n]);
                    let m = second.read(&mut buffer).unwrap();
                    two.extend_from_slice(&buffer[..m]);
                    if n == 0 && m == 0 {
                        break;
                    }
                }
                assert_eq!(one, all, "reads of {size}");
                assert_eq!(two, all, "reads of {size}");
            }
            // Reading does not use them up: they drain whole after.
            assert_eq!(drained(spill, 1 << 20).unwrap().concat(), all);
        }
    }

    /// A lazy store with a threshold other than its block makes its file once the threshold
    /// is reached (writing all it has), then writes whole blocks.
    #[test]
    fn the_file_is_made_at_the_threshold_then_written_in_blocks() {
        let mut spill = Spill::lazy_after(3 * BLOCK, BLOCK);
        spill.append(&[1; 3 * BLOCK - 1]);
        assert!(!spill.uses_file());
        spill.append(&[2]);
        assert!(matches!(spill.place, Place::File { written, .. } if written == 3 * BLOCK as u64));
        spill.append(&[3; BLOCK - 1]);
        assert!(matches!(spill.place, Place::File { written, .. } if written == 3 * BLOCK as u64));
        spill.append(&[4]);
        assert!(matches!(spill.place, Place::File { written, .. } if written == 4 * BLOCK as u64));
    }

    /// A file found shorter than what was written to it (cut by another hand): the reader
    /// says so, never handing fewer bytes as all of them.
    #[test]
    fn a_file_cut_short_is_an_error_to_its_reader() {
        let path = tempfile::NamedTempFile::new().unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path.path())
            .unwrap();
        let mut spill = Spill::in_file(BLOCK, file);
        spill.append(&[6; 3 * BLOCK]);
        spill.append(&[7; 10]);
        path.as_file().set_len(BLOCK as u64).unwrap();
        let mut read = Vec::new();
        let error = spill.reader().unwrap().read_to_end(&mut read).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
    }

    /// A read past the end (or whose end overflows) is an error from a file and from memory,
    /// never a panic or fewer bytes; an empty read at the end is empty.
    #[test]
    fn a_read_past_the_end_is_an_error() {
        let given = Spill::in_file(BLOCK, tempfile::tempfile().unwrap());
        for mut spill in [given, Spill::in_memory()] {
            spill.append(&[5; 3 * BLOCK]);
            spill.append(&[5; 10]);
            let kept = 3 * BLOCK as u64 + 10;
            let mut buffer = Vec::new();
            assert_eq!(spill.bytes_at(kept, 0, &mut buffer).unwrap(), b"");
            assert_eq!(spill.bytes_at(kept - 1, 1, &mut buffer).unwrap(), [5]);
            for (at, len) in [(kept, 1), (kept - 1, 2), (0, 4 * BLOCK), (u64::MAX, 2)] {
                let error = spill.bytes_at(at, len, &mut buffer).unwrap_err();
                assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof, "{len} at {at}");
            }
            // Past the file's end while the rest is not yet written: the file alone is short.
            if let Place::File { written, .. } = &spill.place {
                assert_eq!(*written, 3 * BLOCK as u64);
                assert!(spill
                    .bytes_at(2 * BLOCK as u64, BLOCK + 11, &mut buffer)
                    .is_err());
            }
        }
    }
}
