//! File writes that never lose data: atomic replace (temp file in the same directory,
//! fsync, rename, fsync of the directory) and private file modes. Used by every command
//! that writes outputs (CLI conventions, docs/migration.md: "outputs are written
//! atomically", "no command modifies its inputs"). Also whole-file reads into a reused
//! buffer with no system call beyond the reads themselves ([`read_into`]), and whole-input
//! reads that stop at a size limit ([`read_capped`]), so that no input (a FIFO, `/dev/zero`, a
//! planted multi-gigabyte file) can exhaust memory.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Reads `reader` to its end into `buffer` (cleared first, its capacity reused), stopping
/// early once more than `limit` bytes have been read (the caller sees `buffer.len() >
/// limit`). `size_hint` (e.g. the length from an `fstat` the caller made anyway) sizes the
/// first read, so a file that has not changed is read in one call plus the call that sees
/// its end; unlike `read_to_end` on a `File`, no `fstat` or `lseek` of its own.
pub fn read_into(
    reader: &mut impl Read,
    size_hint: usize,
    limit: usize,
    buffer: &mut Vec<u8>,
) -> io::Result<()> {
    buffer.clear();
    // Only the part about to be read is zeroed (the capacity itself is kept).
    let mut want = size_hint.saturating_add(1).max(8192);
    loop {
        if buffer.len() > limit {
            return Ok(());
        }
        let filled = buffer.len();
        if filled == want {
            want = want.saturating_mul(2);
        }
        buffer.resize(want, 0);
        let read = reader.read(&mut buffer[filled..]);
        match read {
            Ok(0) => {
                buffer.truncate(filled);
                return Ok(());
            }
            Ok(n) => buffer.truncate(filled + n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => buffer.truncate(filled),
            Err(e) => {
                buffer.truncate(filled);
                return Err(e);
            }
        }
    }
}

/// The largest file read whole that holds one frame, one refusal line (a frame of at most
/// 1 MiB in base64), a tool specification or an envelope parameter file.
pub const MAX_SMALL_INPUT_BYTES: u64 = 16 * 1024 * 1024;

/// Reads all of `path` (standard input for `-` when `dash_is_stdin`), refusing with
/// [`io::ErrorKind::InvalidData`] once it holds more than `limit` bytes: at most `limit + 1`
/// bytes are ever read.
pub fn read_capped(path: &Path, dash_is_stdin: bool, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    if dash_is_stdin && path.as_os_str() == "-" {
        io::stdin().lock().take(limit + 1).read_to_end(&mut bytes)?;
    } else {
        File::open(path)?.take(limit + 1).read_to_end(&mut bytes)?;
    }
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {limit} bytes, not read further"),
        ));
    }
    Ok(bytes)
}

/// [`read_capped`] for text: the bytes must be UTF-8.
pub fn read_capped_text(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read_capped(path, false, limit)?).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 (first bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Writes `bytes` to `path` atomically: readers see either the old file or the complete new
/// one, never a partial write. The temporary file lives beside the target and is removed on
/// failure. `mode` (Unix permission bits) is applied before the rename.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let dir = parent_dir(path);
    let temp = temp_path(path);
    let result = (|| {
        let mut file = create_new_with_mode(&temp, mode)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)?;
        sync_dir(&dir)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// A file written in pieces and published atomically: the bytes go to a temporary file
/// beside `path` (same naming as [`write_atomic`]); [`AtomicFile::commit`] fsyncs it, renames
/// it over `path` and fsyncs the directory. Dropped without commit, the temporary file is
/// removed, so readers only ever see a complete file. For outputs too large to hold in memory.
pub struct AtomicFile {
    path: PathBuf,
    temp: PathBuf,
    writer: Option<io::BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing `path` (Unix `mode` applied to the temporary file, kept by the rename).
    pub fn create(path: &Path, mode: u32) -> io::Result<Self> {
        let temp = temp_path(path);
        let file = create_new_with_mode(&temp, mode)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            temp,
            writer: Some(io::BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// Flushes, fsyncs, renames into place and fsyncs the directory.
    pub fn commit(mut self) -> io::Result<()> {
        let result = (|| {
            let writer = self
                .writer
                .take()
                .ok_or_else(|| io::Error::other("already committed"))?;
            let file = writer.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            fs::rename(&self.temp, &self.path)?;
            sync_dir(&parent_dir(&self.path))
        })();
        if result.is_err() {
            let _ = fs::remove_file(&self.temp);
        }
        result
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.writer {
            Some(writer) => writer.write(buf),
            None => Err(io::Error::other("already committed")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.writer {
            Some(writer) => writer.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = fs::remove_file(&self.temp);
        }
    }
}

/// True for the temporary names [`write_atomic`] and [`AtomicFile`] use for `target_name`
/// (`.<name>.sealkit-<pid>.tmp`): leftovers of an interrupted writer, safe to remove before
/// rewriting the same outputs.
pub fn is_temp_for(file_name: &str, target_name: &str) -> bool {
    file_name
        .strip_prefix('.')
        .and_then(|rest| rest.strip_prefix(target_name))
        .and_then(|rest| rest.strip_prefix(".sealkit-"))
        .and_then(|rest| rest.strip_suffix(".tmp"))
        .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
}

/// Creates a file that must not exist yet, with the given Unix mode (ignored elsewhere).
pub fn create_new_with_mode(path: &Path, mode: u32) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    set_mode(&mut options, mode);
    options.open(path)
}

/// Flushes a directory entry to disk so a rename or create in it survives a crash.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// The Unix permission bits of a file or directory (`None` off Unix).
pub fn unix_mode(metadata: &fs::Metadata) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(metadata.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        None
    }
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    parent_dir(path).join(format!(".{name}.sealkit-{}.tmp", std::process::id()))
}

fn set_mode(options: &mut OpenOptions, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode);
    }
    #[cfg(not(unix))]
    {
        let _ = (options, mode);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_content_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.json");
        write_atomic(&path, b"first", 0o600).unwrap();
        write_atomic(&path, b"second", 0o600).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "only the target remains: {names:?}");
        #[cfg(unix)]
        assert_eq!(unix_mode(&fs::metadata(&path).unwrap()), Some(0o600));
    }

    #[test]
    fn streamed_file_appears_only_on_commit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("records.jsonl");
        let mut file = AtomicFile::create(&path, 0o644).unwrap();
        file.write_all(b"one\n").unwrap();
        assert!(!path.exists());
        file.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one\n");
        let mut abandoned = AtomicFile::create(&path, 0o644).unwrap();
        abandoned.write_all(b"partial").unwrap();
        drop(abandoned);
        assert_eq!(fs::read(&path).unwrap(), b"one\n");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn recognises_its_own_temporary_names() {
        assert!(is_temp_for(".summary.json.sealkit-123.tmp", "summary.json"));
        assert!(!is_temp_for(".summary.json.sealkit-.tmp", "summary.json"));
        assert!(!is_temp_for(".other.json.sealkit-1.tmp", "summary.json"));
        assert!(!is_temp_for("summary.json", "summary.json"));
    }

    #[test]
    fn read_capped_reads_up_to_the_limit_and_refuses_one_byte_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input");
        fs::write(&path, vec![b'x'; 100]).unwrap();
        assert_eq!(read_capped(&path, false, 100).unwrap().len(), 100);
        let error = read_capped(&path, false, 99).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert_eq!(error.to_string(), "larger than 99 bytes, not read further");
        fs::write(&path, b"ok\xff").unwrap();
        assert_eq!(
            read_capped_text(&path, 10).unwrap_err().to_string(),
            "not UTF-8 (first bad byte at offset 2)"
        );
        assert!(read_capped(Path::new("/dev/zero"), false, 1 << 20).is_err());
    }

    #[test]
    fn read_into_reads_everything_in_few_calls_and_stops_past_the_limit() {
        /// Hands out at most `step` bytes per call and counts the calls.
        struct Steps<'a> {
            data: &'a [u8],
            step: usize,
            calls: usize,
        }
        impl Read for Steps<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                self.calls += 1;
                let n = self.data.len().min(self.step).min(out.len());
                out[..n].copy_from_slice(&self.data[..n]);
                self.data = &self.data[n..];
                Ok(n)
            }
        }
        let data: Vec<u8> = (0..50_000u32).map(|i| i as u8).collect();
        let mut buffer = vec![9u8; 3];
        let mut whole = Steps {
            data: &data,
            step: usize::MAX,
            calls: 0,
        };
        read_into(&mut whole, data.len(), usize::MAX, &mut buffer).unwrap();
        assert_eq!((buffer.as_slice(), whole.calls), (data.as_slice(), 2));
        // A wrong (small) hint or short reads still give every byte.
        let mut short = Steps {
            data: &data,
            step: 1000,
            calls: 0,
        };
        read_into(&mut short, 10, usize::MAX, &mut buffer).unwrap();
        assert_eq!(buffer, data);
        let mut limited = Steps {
            data: &data,
            step: 4096,
            calls: 0,
        };
        read_into(&mut limited, 0, 10_000, &mut buffer).unwrap();
        assert!(buffer.len() > 10_000 && buffer.len() < data.len());
        assert_eq!(buffer[..], data[..buffer.len()]);
    }
}
