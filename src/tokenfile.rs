//! The NDJSON token file seal-host polls (docs/formats.md): lines are
//! split as Rust's `str::lines` splits them (at LF; one CR before a LF is dropped; a last
//! line without LF is still a line), blank lines are skipped, and seal-host reads at most
//! 4 MiB of UTF-8. Reading streams in batches so files of any size can be checked.
//!
//! Appending follows the approver's side of the contract (docs/approvals.md): exactly one line per
//! call, under an exclusive lock on the file, written in a single `write` at the end and
//! fsync'd; earlier bytes are never rewritten; a new file is created mode 0600. If the file
//! does not end with LF, one LF is written first so the new token stays its own line. Only a
//! regular file (or a new path) is ever written: a FIFO or a device would take the line and
//! then fail the fsync, so a reader could hold a token the approver was told was not written.
//! An append that fails part-way (a full disk) is cut back to the file's original length under
//! the same lock, so no fragment of a token is left behind.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::Path;

/// Largest token file seal-host reads; a larger file is ignored whole.
pub const MAX_TOKEN_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// The longest line kept whole: seal-host reads at most 4 MiB of the file, so no line it
/// reads is longer. Of a longer line only this many bytes (and one more) are kept, and its
/// length is counted; memory stays bounded whatever the input (one endless line included).
pub const MAX_KEPT_LINE_BYTES: usize = MAX_TOKEN_FILE_BYTES as usize;

/// A batch stops growing once it holds this many bytes.
const MAX_BATCH_BYTES: usize = 8 * 1024 * 1024;

/// One physical line of a batch: its 1-based line number, its byte range in the batch
/// buffer, without LF (and without the CR of a CRLF ending), and its length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLine {
    pub number: u64,
    pub range: Range<usize>,
    /// The line's length without its ending; more than the range holds when it was cut.
    pub length: u64,
}

impl RawLine {
    /// Only the first [`MAX_KEPT_LINE_BYTES`] + 1 bytes of the line were kept.
    pub fn is_cut(&self) -> bool {
        self.length > self.range.len() as u64
    }
}

/// A batch of consecutive lines sharing one buffer.
#[derive(Debug, Default)]
pub struct Batch {
    pub bytes: Vec<u8>,
    pub lines: Vec<RawLine>,
}

impl Batch {
    pub fn line(&self, line: &RawLine) -> &[u8] {
        &self.bytes[line.range.clone()]
    }
}

/// Reads a token file in batches of lines.
pub struct LineReader<R: BufRead> {
    reader: R,
    next_number: u64,
    total_bytes: u64,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(reader: R) -> Self {
        LineReader {
            reader,
            next_number: 1,
            total_bytes: 0,
        }
    }

    /// Bytes read so far.
    pub fn total_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Replaces the batch's contents (reusing its buffers) with up to `max_lines` lines (fewer
    /// once it holds 8 MiB); an empty batch means end of input.
    pub fn next_batch(&mut self, batch: &mut Batch, max_lines: usize) -> io::Result<()> {
        batch.bytes.clear();
        batch.lines.clear();
        while batch.lines.len() < max_lines && batch.bytes.len() < MAX_BATCH_BYTES {
            let start = batch.bytes.len();
            let Some(line) = self.read_line(&mut batch.bytes)? else {
                break;
            };
            let mut length = line.length;
            if line.ended {
                length -= 1 + u64::from(line.cr_before_lf);
            }
            // A cut line keeps MAX_KEPT_LINE_BYTES + 1 bytes; a whole one, all but its ending.
            let kept =
                (batch.bytes.len() - start).min(usize::try_from(length).unwrap_or(usize::MAX));
            batch.lines.push(RawLine {
                number: self.next_number,
                range: start..start + kept,
                length,
            });
            self.next_number += 1;
        }
        Ok(())
    }

    /// Appends the next line (with its LF, if it has one) to `out`, keeping at most
    /// [`MAX_KEPT_LINE_BYTES`] + 1 bytes of it; `None` at end of input.
    fn read_line(&mut self, out: &mut Vec<u8>) -> io::Result<Option<LineRead>> {
        let start = out.len();
        let keep = MAX_KEPT_LINE_BYTES + 1;
        // The common case: the whole line, LF included, in one memchr-driven read.
        let read = (&mut self.reader)
            .take(keep as u64 + 1)
            .read_until(b'\n', out)?;
        let mut line = LineRead {
            length: read as u64,
            ended: read > 0 && out.last() == Some(&b'\n'),
            cr_before_lf: false,
        };
        if line.ended {
            line.cr_before_lf = read >= 2 && out[out.len() - 2] == b'\r';
        } else if read > keep {
            // Longer than seal-host ever reads: keep `keep` bytes, count the rest.
            let mut last = out.last().copied();
            out.truncate(start + keep);
            self.skip_rest(&mut line, &mut last)?;
        }
        self.total_bytes += line.length;
        Ok((line.length > 0).then_some(line))
    }

    /// Consumes the rest of a cut line (through its LF), counting it into `line`.
    fn skip_rest(&mut self, line: &mut LineRead, last: &mut Option<u8>) -> io::Result<()> {
        while !line.ended {
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            let take = match available.iter().position(|&b| b == b'\n') {
                Some(lf) => {
                    line.ended = true;
                    line.cr_before_lf =
                        lf.checked_sub(1).map_or(*last, |i| Some(available[i])) == Some(b'\r');
                    lf + 1
                }
                None => available.len(),
            };
            *last = available[..take].last().copied();
            line.length += take as u64;
            self.reader.consume(take);
        }
        Ok(())
    }
}

/// What [`LineReader::read_line`] saw of one line.
struct LineRead {
    /// Bytes of the line, its LF included.
    length: u64,
    /// It ended with LF (not at end of input).
    ended: bool,
    /// The byte before the LF was CR.
    cr_before_lf: bool,
}

/// True for a line seal-host skips: empty or only whitespace.
pub fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// What an append did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    /// Byte offset at which the token line starts.
    pub offset: u64,
    /// The file did not end with LF, so one was written before the line.
    pub added_line_break: bool,
    /// The file was created by this append.
    pub created: bool,
    /// Permission bits of the file after the append.
    pub mode: Option<u32>,
}

#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The line contains a line break (never a single token line).
    #[error("a token must be exactly one line")]
    NotOneLine,
    /// Appending would push the file over the 4 MiB seal-host reads; it would then ignore
    /// every token in it.
    #[error(
        "the token file is {current} bytes; appending would make it {after}, over the \
         {MAX_TOKEN_FILE_BYTES} bytes seal-host reads (it would then ignore every token \
         in it); start a new token file"
    )]
    TooLarge { current: u64, after: u64 },
    /// The path names something other than a regular file (a FIFO, a device, a directory).
    #[error("the token file is {kind}, not a regular file; nothing was signed or written")]
    NotRegular { kind: &'static str },
    /// The caller's check, run under the lock, refused the append.
    #[error("{message}")]
    Refused { code: &'static str, message: String },
    /// The write or its fsync failed; the file was cut back to its original length.
    #[error(
        "the append failed ({error}); the token file was cut back to its original \
         {length} bytes, so no part of the token is in it"
    )]
    RolledBack {
        #[source]
        error: io::Error,
        length: u64,
    },
    /// The write or its fsync failed and cutting the file back failed too.
    #[error(
        "the append failed ({error}) and cutting the token file back to its original \
         {length} bytes failed too ({rollback}): its end may hold part of a token line"
    )]
    RollbackFailed {
        #[source]
        error: io::Error,
        rollback: io::Error,
        length: u64,
    },
}

impl crate::error_code::Coded for AppendError {
    fn code(&self) -> &'static str {
        match self {
            AppendError::Io(_) => "token-file-append",
            AppendError::NotOneLine => "token-not-one-line",
            AppendError::TooLarge { .. } => "token-file-too-large",
            AppendError::NotRegular { .. } => "token-file-not-regular",
            AppendError::Refused { code, .. } => code,
            AppendError::RolledBack { .. } => "token-file-append-rolled-back",
            AppendError::RollbackFailed { .. } => "token-file-append-partial",
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            AppendError::NotRegular { .. } => Some("give a regular file or a new path".to_owned()),
            _ => None,
        }
    }
}

impl AppendError {
    /// A refusal that follows from checking (the caller exits 1), not a failure to run.
    pub fn is_refusal(&self) -> bool {
        matches!(self, AppendError::Refused { .. })
    }
}

/// Appends `line` and one LF to the token file at `path` (see the module docs).
pub fn append_line(path: &Path, line: &str) -> Result<Appended, AppendError> {
    append_line_checked(path, line, |_| Ok(()))
}

/// [`append_line`], running `check` on the file (positioned anywhere; it may read) once the
/// exclusive lock is held and before anything is written, so what it checks cannot change
/// before the line lands.
pub fn append_line_checked(
    path: &Path,
    line: &str,
    check: impl FnOnce(&mut File) -> Result<(), AppendError>,
) -> Result<Appended, AppendError> {
    if line.contains(['\n', '\r']) {
        return Err(AppendError::NotOneLine);
    }
    check_kind(path)?;
    let (mut file, created) = open_for_append(path)?;
    // The path may have been swapped since it was looked at: the opened file decides.
    if let Some(kind) = not_regular(&file.metadata()?) {
        return Err(AppendError::NotRegular { kind });
    }
    file.lock()?;
    let result = check(&mut file).and_then(|()| append_locked(&mut file, line, created));
    let unlock = file.unlock();
    let appended = result?;
    unlock?;
    if created {
        let dir = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        crate::atomic_write::sync_dir(dir)?;
    }
    Ok(appended)
}

/// Refuses an existing file that is not a token file before a line is appended to it: binary
/// data, or text none of whose non-blank lines is a token record (a JSON object with a
/// `payload` member: every ApprovalRecord, v1 or v2, signed or not) — a sealed log or a
/// receipt given by mistake would otherwise be written into. A missing or empty file (or one
/// of blank lines) is a token file with no token yet. Call [`check_kind`] first: this opens it.
pub fn check_is_token_file(path: &Path) -> Result<(), crate::input::InputError> {
    use crate::input::{Input, InputError, Kind, NotThisKind};
    if !path.exists() {
        return Ok(());
    }
    let input = Input::Path(path.to_path_buf());
    let mut reader = LineReader::new(input.open_text(Kind::TokenFile, 1 << 16)?);
    let mut batch = Batch::default();
    let mut lines = 0u64;
    loop {
        reader
            .next_batch(&mut batch, 1024)
            .map_err(|e| InputError::Unreadable(crate::input::Unreadable::new(&input, e)))?;
        if batch.lines.is_empty() {
            break;
        }
        for line in &batch.lines {
            // Blank lines (as the reader skips them) are no content: a file of them is a token
            // file with no token yet. A line that is not UTF-8 is content.
            if crate::utf8::str_of(batch.line(line)).is_ok_and(is_blank) {
                continue;
            }
            lines += 1;
            let is_record = serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(
                batch.line(line),
            )
            .is_ok_and(|object| object.contains_key("payload"));
            if is_record {
                return Ok(());
            }
        }
    }
    match lines {
        0 => Ok(()),
        n => Err(InputError::NotThisKind(NotThisKind::new(
            &input,
            Kind::TokenFile,
            format!(
                "none of its {n} line{} is a token record, so no token is appended to it",
                if n == 1 { "" } else { "s" }
            ),
        ))),
    }
}

/// Refuses a path that exists and is not a regular file (symbolic links followed); a path
/// that does not exist yet is fine. Nothing is opened, so a FIFO is never touched.
pub fn check_kind(path: &Path) -> Result<(), AppendError> {
    match std::fs::metadata(path) {
        Ok(metadata) => match not_regular(&metadata) {
            Some(kind) => Err(AppendError::NotRegular { kind }),
            None => Ok(()),
        },
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(AppendError::Io(error)),
    }
}

/// What a non-regular file is, for the message; `None` for a regular file.
fn not_regular(metadata: &std::fs::Metadata) -> Option<&'static str> {
    let file_type = metadata.file_type();
    if file_type.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a FIFO");
        }
        if file_type.is_char_device() {
            return Some("a character device");
        }
        if file_type.is_block_device() {
            return Some("a block device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some(if file_type.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    })
}

fn open_for_append(path: &Path) -> io::Result<(File, bool)> {
    let mut options = OpenOptions::new();
    options.read(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.clone().create_new(true).open(path) {
        Ok(file) => Ok((file, true)),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
            Ok((options.open(path)?, false))
        }
        Err(error) => Err(error),
    }
}

fn append_locked(file: &mut File, line: &str, created: bool) -> Result<Appended, AppendError> {
    let current = file.metadata()?.len();
    let added_line_break = current > 0 && last_byte(file, current)? != b'\n';
    let mut bytes = Vec::with_capacity(line.len() + 2);
    if added_line_break {
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(line.as_bytes());
    bytes.push(b'\n');
    let after = current + bytes.len() as u64;
    if after > MAX_TOKEN_FILE_BYTES {
        return Err(AppendError::TooLarge { current, after });
    }
    write_or_roll_back(file, &bytes, current)?;
    Ok(Appended {
        offset: current + u64::from(added_line_break),
        added_line_break,
        created,
        mode: crate::atomic_write::unix_mode(&file.metadata()?),
    })
}

/// Writes and fsyncs `bytes` at the end of `file` (which is `length` bytes long); when either
/// fails, cuts the file back to `length` and fsyncs that, so a failed append leaves the file
/// as it was. Generic so a test can make the write fail part-way.
fn write_or_roll_back<F: Write + Truncate>(
    file: &mut F,
    bytes: &[u8],
    length: u64,
) -> Result<(), AppendError> {
    let Err(error) = file.write_all(bytes).and_then(|()| file.sync()) else {
        return Ok(());
    };
    match file.truncate_to(length).and_then(|()| file.sync()) {
        Ok(()) => Err(AppendError::RolledBack { error, length }),
        Err(rollback) => Err(AppendError::RollbackFailed {
            error,
            rollback,
            length,
        }),
    }
}

/// What [`write_or_roll_back`] needs of a file besides writing.
trait Truncate {
    fn sync(&mut self) -> io::Result<()>;
    fn truncate_to(&mut self, length: u64) -> io::Result<()>;
}

impl Truncate for File {
    fn sync(&mut self) -> io::Result<()> {
        self.sync_all()
    }

    fn truncate_to(&mut self, length: u64) -> io::Result<()> {
        self.set_len(length)
    }
}

fn last_byte(file: &mut File, len: u64) -> io::Result<u8> {
    file.seek(SeekFrom::Start(len - 1))?;
    let mut byte = [0u8; 1];
    file.read_exact(&mut byte)?;
    Ok(byte[0])
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error_code::Coded as _;
    use proptest::prelude::*;

    /// The lines (kept bytes, true length) read through a buffer of `capacity` bytes, so
    /// that lines and CRLF endings straddle the buffer's refills.
    fn split_with(text: &[u8], capacity: usize) -> Vec<(Vec<u8>, u64)> {
        let cursor = io::Cursor::new(text.to_vec());
        let mut reader = LineReader::new(io::BufReader::with_capacity(capacity, cursor));
        let mut out = Vec::new();
        let mut batch = Batch::default();
        loop {
            reader.next_batch(&mut batch, 3).unwrap();
            if batch.lines.is_empty() {
                assert_eq!(reader.total_bytes(), text.len() as u64);
                return out;
            }
            for line in &batch.lines {
                out.push((batch.line(line).to_vec(), line.length));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn splitting_matches_str_lines(text in "[ab\r\n ]{0,40}", capacity in 1usize..5) {
            let std: Vec<(Vec<u8>, u64)> = text
                .lines()
                .map(|l| (l.as_bytes().to_vec(), l.len() as u64))
                .collect();
            prop_assert_eq!(split_with(text.as_bytes(), capacity), std.clone());
            prop_assert_eq!(split_with(text.as_bytes(), 8192), std);
        }
    }

    #[test]
    fn a_line_longer_than_any_seal_host_reads_is_cut_and_measured() {
        let long = MAX_KEPT_LINE_BYTES + 1;
        for (line, ending, length, cut) in [
            (vec![b'x'; long + 5], "\r\n", long as u64 + 5, true),
            (vec![b'x'; long + 5], "", long as u64 + 5, true),
            (vec![b'x'; long], "\n", long as u64, false),
            (vec![b'x'; long - 1], "\r\n", long as u64 - 1, false),
            (vec![b'x'; long], "\r\n", long as u64, false),
        ] {
            let mut text = line.clone();
            text.extend_from_slice(ending.as_bytes());
            if !ending.is_empty() {
                text.extend_from_slice(b"next\n");
            }
            for capacity in [7, 1 << 20] {
                let mut lines = split_with(&text, capacity);
                if ending.is_empty() {
                    lines.push((b"next".to_vec(), 4));
                }
                assert_eq!(lines.len(), 2);
                assert_eq!(lines[0].1, length, "{ending:?}");
                assert_eq!(lines[0].0.len() as u64 != length, cut, "{ending:?}");
                assert_eq!(lines[0].0.len(), (length as usize).min(long));
                assert_eq!(lines[1], (b"next".to_vec(), 4));
            }
        }
    }

    #[test]
    fn line_numbers_count_every_physical_line() {
        let mut reader = LineReader::new(io::Cursor::new(b"a\n\nb\r\nc".to_vec()));
        let mut batch = Batch::default();
        reader.next_batch(&mut batch, 10).unwrap();
        let numbers: Vec<u64> = batch.lines.iter().map(|l| l.number).collect();
        assert_eq!(numbers, [1, 2, 3, 4]);
        assert_eq!(batch.line(&batch.lines[2]), b"b");
        assert_eq!(reader.total_bytes(), 7);
    }

    #[test]
    fn append_creates_private_file_and_never_rewrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.ndjson");
        let first = append_line(&path, "{\"a\":1}").unwrap();
        assert!(first.created);
        #[cfg(unix)]
        assert_eq!(first.mode, Some(0o600));
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"partial")
            .unwrap();
        let second = append_line(&path, "{\"b\":2}").unwrap();
        assert!(second.added_line_break);
        assert!(!second.created);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"a\":1}\npartial\n{\"b\":2}\n"
        );
        assert_eq!(second.offset, 16);
        assert!(matches!(
            append_line(&path, "a\nb"),
            Err(AppendError::NotOneLine)
        ));
    }

    #[test]
    fn append_waits_for_the_exclusive_lock() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.ndjson");
        std::fs::write(&path, "").unwrap();
        let holder = File::open(&path).unwrap();
        holder.lock().unwrap();
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let writer_path = path.clone();
        let writer = std::thread::spawn(move || {
            append_line(&writer_path, "{}").unwrap();
            done_tx.send(()).unwrap();
        });
        let waited = done_rx.recv_timeout(std::time::Duration::from_millis(300));
        assert!(
            waited.is_err(),
            "append went ahead while another process held the lock"
        );
        assert_eq!(std::fs::read(&path).unwrap(), b"");
        holder.unlock().unwrap();
        done_rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .unwrap();
        writer.join().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"{}\n");
    }

    /// A file on a disk with `room` bytes left: writes past it fail, as on a full disk.
    struct FullDisk {
        bytes: Vec<u8>,
        room: usize,
        fail_truncate: bool,
    }

    impl Write for FullDisk {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let n = buf.len().min(self.room);
            if n == 0 {
                return Err(io::Error::other("No space left on device"));
            }
            self.room -= n;
            self.bytes.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Truncate for FullDisk {
        fn sync(&mut self) -> io::Result<()> {
            Ok(())
        }
        fn truncate_to(&mut self, length: u64) -> io::Result<()> {
            if self.fail_truncate {
                return Err(io::Error::other("read-only"));
            }
            self.bytes.truncate(length as usize);
            Ok(())
        }
    }

    #[test]
    fn a_short_write_is_cut_back_to_the_original_length() {
        // Without the cut-back the fragment `{"tok` would stay (the binary test
        // an_append_that_runs_out_of_space_is_cut_back was seen red on the code before it).
        let mut file = FullDisk {
            bytes: b"old\n".to_vec(),
            room: 5,
            fail_truncate: false,
        };
        let error = write_or_roll_back(&mut file, b"{\"token\":1}\n", 4).unwrap_err();
        assert_eq!(file.bytes, b"old\n");
        assert_eq!(error.code(), "token-file-append-rolled-back");
        assert!(error
            .to_string()
            .contains("cut back to its original 4 bytes"));
        let mut file = FullDisk {
            bytes: b"old\n".to_vec(),
            room: 5,
            fail_truncate: true,
        };
        let error = write_or_roll_back(&mut file, b"{\"token\":1}\n", 4).unwrap_err();
        assert_eq!(error.code(), "token-file-append-partial");
        assert!(error.to_string().contains("may hold part of a token line"));
        let mut file = FullDisk {
            bytes: Vec::new(),
            room: 100,
            fail_truncate: false,
        };
        write_or_roll_back(&mut file, b"{}\n", 0).unwrap();
        assert_eq!(file.bytes, b"{}\n");
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_or_new_paths_are_written() {
        let dir = tempfile::tempdir().unwrap();
        assert!(check_kind(&dir.path().join("new")).is_ok());
        let error = append_line(dir.path(), "{}").unwrap_err();
        assert!(matches!(
            error,
            AppendError::NotRegular {
                kind: "a directory"
            }
        ));
        let error = append_line(Path::new("/dev/null"), "{}").unwrap_err();
        assert!(matches!(
            error,
            AppendError::NotRegular {
                kind: "a character device"
            }
        ));
        // An unusable input (exit 2), not a finding about the file's content.
        assert!(!error.is_refusal());
    }

    #[test]
    fn append_refuses_to_grow_past_what_the_host_reads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens.ndjson");
        let filler = vec![b'x'; MAX_TOKEN_FILE_BYTES as usize - 4];
        std::fs::write(&path, [filler.as_slice(), b"\n"].concat()).unwrap();
        let before = std::fs::read(&path).unwrap();
        assert!(matches!(
            append_line(&path, "{}x"),
            Err(AppendError::TooLarge { .. })
        ));
        assert_eq!(std::fs::read(&path).unwrap(), before);
        append_line(&path, "{}").unwrap();
    }

    /// A file of blank lines is a token file with no token yet; one text line that is no
    /// token record among them makes it not a token file, and the refusal counts only the
    /// lines with content. Seen red (session 11) with blank lines counted as content, as they
    /// were before: the blank file was refused; and (session 12) with blank meaning ASCII
    /// whitespace only, a second rule beside `is_blank`.
    #[test]
    fn blank_lines_are_no_content_to_the_token_file_check() {
        let dir = tempfile::tempdir().unwrap();
        let blank = dir.path().join("blank.jsonl");
        // Blank as seal-host reads it (`is_blank`): Unicode whitespace too, here an
        // ideographic space and a no-break space.
        std::fs::write(&blank, "\n\n  \r\n\t\n\u{3000}\u{a0}\n").unwrap();
        assert!(check_is_token_file(&blank).is_ok());
        let text = dir.path().join("text.jsonl");
        std::fs::write(&text, "\n{\"entries\":[]}\n\n").unwrap();
        let refusal = check_is_token_file(&text).unwrap_err().to_string();
        assert!(
            refusal.contains("none of its 1 line is a token record"),
            "{refusal}"
        );
    }
}
