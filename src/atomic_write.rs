//! File writes that never lose data: atomic replace (temp file in the same directory,
//! fsync, rename, fsync of the directory) and private file modes. Used by every command
//! that writes outputs (docs/migration.md: "outputs are written atomically", "no command
//! modifies its inputs"). Reading inputs is [`crate::input`]'s job.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: readers see either the old file or the complete new
/// one, never a partial write. The temporary file lives beside the target and is removed on
/// failure. `mode` (Unix permission bits) is applied before the rename.
pub fn write_atomic(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let dir = parent_dir(path);
    let temp = temp_path(path);
    let result = (|| {
        let mut file = create_temp(&temp, mode)?;
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
        let file = create_temp(&temp, mode)?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            temp,
            writer: Some(io::BufWriter::with_capacity(1 << 16, file)),
        })
    }

    /// The temporary file being written.
    pub fn temp_path(&self) -> &Path {
        &self.temp
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

/// Creates this process's temporary file. One already there under this process's id was left
/// by an earlier process that had the same id (no running process has it): it is stale, and
/// replaced.
fn create_temp(temp: &Path, mode: u32) -> io::Result<File> {
    match create_new_with_mode(temp, mode) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            fs::remove_file(temp)?;
            create_new_with_mode(temp, mode)
        }
        other => other,
    }
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

/// An output path that names one of the command's own inputs: writing it would replace or
/// land among the evidence being read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--out {} {} {} {}", .out.display(), if *.inside { "is inside" } else { "is" }, .option, .input.display())]
pub struct OutputIsInput {
    pub out: PathBuf,
    /// The option (or argument) that names the input.
    pub option: String,
    pub input: PathBuf,
    /// The output lies inside an input directory (rather than being an input file).
    pub inside: bool,
}

impl crate::error_code::Coded for OutputIsInput {
    fn code(&self) -> &'static str {
        "output-inside-input"
    }

    fn help(&self) -> Option<String> {
        Some("write the output somewhere that is not one of the inputs: nothing was written".into())
    }
}

/// The one rule for "is this output one of my inputs": `out` must not be an input file by
/// any name (the same device and inode, so a symbolic or hard link to it counts, or the same
/// canonical path), nor a link pointing at one, nor lie inside an input directory. Inputs
/// are `(option, path as given)`; one that does not exist (a key given as hex, standard
/// input `-`) cannot be overwritten and is skipped.
pub fn refuse_input_as_output<'a>(
    out: &Path,
    inputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
) -> Result<(), OutputIsInput> {
    let out_file = fs::metadata(out).ok().and_then(|m| file_identity(&m));
    let out_canonical = canonical_output(out);
    for (option, input) in inputs {
        if crate::input::Input::new(input).is_stdin() {
            continue;
        }
        let Ok(metadata) = fs::metadata(input) else {
            continue;
        };
        let canonical = fs::canonicalize(input).ok();
        let refused = |inside| OutputIsInput {
            out: out.to_path_buf(),
            option: option.to_owned(),
            input: input.to_path_buf(),
            inside,
        };
        let same_file = out_file.is_some_and(|id| file_identity(&metadata) == Some(id))
            || (canonical.is_some() && canonical == out_canonical);
        if same_file {
            return Err(refused(false));
        }
        let inside = metadata.is_dir()
            && canonical
                .as_ref()
                .zip(out_canonical.as_ref())
                .is_some_and(|(dir, out)| out.starts_with(dir));
        if inside {
            return Err(refused(true));
        }
    }
    Ok(())
}

/// What makes two names one file: device and inode on Unix (the length and modification
/// time elsewhere cannot tell, so there only canonical paths compare).
fn file_identity(metadata: &fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((metadata.dev(), metadata.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        None
    }
}

/// The canonical form of an output path that may not exist yet: its directory canonicalized,
/// then its name (a symbolic link at the name itself is followed).
fn canonical_output(out: &Path) -> Option<PathBuf> {
    if let Ok(path) = fs::canonicalize(out) {
        return Some(path);
    }
    let name = out.file_name()?;
    fs::canonicalize(parent_dir(out))
        .ok()
        .map(|dir| dir.join(name))
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
}
