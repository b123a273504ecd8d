//! Where a file input comes from, and reading it within bounds. Every file a command reads
//! may be given as `-` for standard input ([`Input`]); standard input can be read once per
//! run, so a command line naming it twice is refused before anything is read
//! ([`stdin_once`]). Whole-input reads stop at a size limit ([`Input::read_capped`],
//! [`read_into`]), so that no input (a FIFO, `/dev/zero`, a planted multi-gigabyte file) can
//! exhaust memory; streaming inputs get a reader ([`Input::open`]) and keep their own bounds.

use std::cell::RefCell;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

thread_local! {
    /// Standard input as a command run in-process on this thread reads it ([`with_stdin`]).
    static STDIN: RefCell<Option<Vec<u8>>> = const { RefCell::new(None) };
}

/// Runs `f` with `-` reading `bytes` on this thread instead of the process's standard input
/// (for a command run inside another program: `cmd::in_process`); `None` leaves standard input
/// as it is. Read once, as standard input is: a second read of `-` finds it empty.
pub fn with_stdin<T>(bytes: Option<Vec<u8>>, f: impl FnOnce() -> T) -> T {
    let Some(bytes) = bytes else {
        return f();
    };
    STDIN.with(|stdin| *stdin.borrow_mut() = Some(bytes));
    let result = f();
    STDIN.with(|stdin| stdin.borrow_mut().take());
    result
}

/// This thread's standard input: the bytes given to [`with_stdin`] (taken, so read once), else
/// the process's.
fn stdin() -> Box<dyn Read + Send> {
    match STDIN.with(|stdin| stdin.borrow_mut().as_mut().map(std::mem::take)) {
        Some(bytes) => Box::new(io::Cursor::new(bytes)),
        None => Box::new(io::stdin()),
    }
}

/// The largest file read whole that holds one frame, one refusal line (a frame of at most
/// 1 MiB in base64), a tool specification or an envelope parameter file.
pub const MAX_SMALL_INPUT_BYTES: u64 = 16 * 1024 * 1024;

/// One file input of a command: standard input (`-`) or a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Stdin,
    Path(PathBuf),
}

impl Input {
    /// `-` is standard input; anything else is a path (`./-` names a file called `-`).
    pub fn new(path: &Path) -> Self {
        if path.as_os_str() == "-" {
            Input::Stdin
        } else {
            Input::Path(path.to_path_buf())
        }
    }

    /// An optional input that defaults to standard input when not given.
    pub fn or_stdin(path: Option<&Path>) -> Self {
        path.map_or(Input::Stdin, Input::new)
    }

    pub fn is_stdin(&self) -> bool {
        matches!(self, Input::Stdin)
    }

    /// The path, for a file.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Input::Stdin => None,
            Input::Path(path) => Some(path),
        }
    }

    /// The name as given on the command line (`-` for standard input), for records.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "-".to_owned(),
            Input::Path(path) => path.display().to_string(),
        }
    }

    /// A reader over the whole input, for inputs read as a stream (bounded by their reader).
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        match self {
            Input::Stdin => Ok(stdin()),
            Input::Path(path) => {
                if path.is_dir() {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "is a directory, not a file",
                    ));
                }
                Ok(Box::new(File::open(path)?))
            }
        }
    }

    /// Reads the whole input, refusing with [`io::ErrorKind::InvalidData`] once it holds
    /// more than `limit` bytes: at most `limit + 1` bytes are ever read.
    pub fn read_capped(&self, limit: u64) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        match self {
            Input::Stdin => stdin().take(limit + 1).read_to_end(&mut bytes)?,
            Input::Path(path) => File::open(path)?.take(limit + 1).read_to_end(&mut bytes)?,
        };
        if bytes.len() as u64 > limit {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("larger than {limit} bytes, not read further"),
            ));
        }
        Ok(bytes)
    }

    /// [`Input::read_capped`] for text: the bytes must be UTF-8.
    pub fn read_capped_text(&self, limit: u64) -> io::Result<String> {
        String::from_utf8(self.read_capped(limit)?).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "not UTF-8 (first bad byte at offset {})",
                    e.utf8_error().valid_up_to()
                ),
            )
        })
    }
}

/// For diagnostics: the path, or the words "standard input".
impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Input::Stdin => f.write_str("standard input"),
            Input::Path(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Reads the file at `path` whole (no `-`: for files found by walking a directory or named
/// by a configuration), with [`Input::read_capped`]'s bound.
pub fn read_file_capped(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    Input::Path(path.to_path_buf()).read_capped(limit)
}

/// [`read_file_capped`] for text.
pub fn read_file_capped_text(path: &Path, limit: u64) -> io::Result<String> {
    Input::Path(path.to_path_buf()).read_capped_text(limit)
}

/// Two options of one command line that both name standard input: a usage error (exit
/// status 2, nothing was read), with its code and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{first} and {second} both read standard input (`-`)")]
pub struct StdinTwice {
    pub first: String,
    pub second: String,
}

impl StdinTwice {
    pub const CODE: &'static str = "stdin-given-twice";
    pub const HELP: &'static str =
        "standard input can be read once: give `-` to at most one input and save the other to a file";
}

impl crate::error_code::Coded for StdinTwice {
    fn code(&self) -> &'static str {
        Self::CODE
    }

    fn help(&self) -> Option<String> {
        Some(Self::HELP.to_owned())
    }
}

/// An input that could not be opened or read: which one, with the operating system's error
/// kept as the cause.
#[derive(Debug, thiserror::Error)]
#[error("{input}: {source}")]
pub struct Unreadable {
    /// The input as diagnostics name it (`-` is standard input).
    pub input: String,
    #[source]
    pub source: io::Error,
}

impl crate::error_code::Coded for Unreadable {
    fn code(&self) -> &'static str {
        "unreadable-file"
    }
}

impl Input {
    /// [`Input::open`] with the failure as an [`Unreadable`] naming this input.
    pub fn open_named(&self) -> Result<Box<dyn Read + Send>, Unreadable> {
        self.open().map_err(|source| Unreadable {
            input: self.to_string(),
            source,
        })
    }
}

/// Refuses a command line where more than one input (`(option name, path as given)`) is
/// standard input, before anything is read: the second reader would see an empty or partial
/// stream. An input that defaults to standard input is passed as `-`.
pub fn stdin_once<'a>(
    inputs: impl IntoIterator<Item = (&'a str, &'a Path)>,
) -> Result<(), StdinTwice> {
    let mut first: Option<&str> = None;
    for (name, path) in inputs {
        if !Input::new(path).is_stdin() {
            continue;
        }
        match first {
            None => first = Some(name),
            Some(first) => {
                return Err(StdinTwice {
                    first: first.to_owned(),
                    second: name.to_owned(),
                })
            }
        }
    }
    Ok(())
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn dash_alone_is_standard_input() {
        assert_eq!(Input::new(Path::new("-")), Input::Stdin);
        assert_eq!(
            Input::new(Path::new("./-")),
            Input::Path(PathBuf::from("./-"))
        );
        assert_eq!(Input::or_stdin(None), Input::Stdin);
        assert_eq!(Input::Stdin.name(), "-");
        assert_eq!(Input::Stdin.to_string(), "standard input");
        assert_eq!(Input::new(Path::new("a/b")).to_string(), "a/b");
    }

    #[test]
    fn standard_input_may_be_named_once() {
        let (a, b, c) = (Path::new("-"), Path::new("x"), Path::new("-"));
        assert_eq!(stdin_once([("FILE", a), ("--frame", b)]), Ok(()));
        assert_eq!(
            stdin_once([("FILE", a), ("--frame", b), ("--state", c)]),
            Err(StdinTwice {
                first: "FILE".to_owned(),
                second: "--state".to_owned()
            })
        );
        assert_eq!(
            StdinTwice {
                first: "FILE".into(),
                second: "--state".into()
            }
            .to_string(),
            "FILE and --state both read standard input (`-`)"
        );
    }

    #[test]
    fn read_capped_reads_up_to_the_limit_and_refuses_one_byte_more() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input");
        fs::write(&path, vec![b'x'; 100]).unwrap();
        assert_eq!(read_file_capped(&path, 100).unwrap().len(), 100);
        let error = read_file_capped(&path, 99).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        assert_eq!(error.to_string(), "larger than 99 bytes, not read further");
        fs::write(&path, b"ok\xff").unwrap();
        assert_eq!(
            read_file_capped_text(&path, 10).unwrap_err().to_string(),
            "not UTF-8 (first bad byte at offset 2)"
        );
        assert!(read_file_capped(Path::new("/dev/zero"), 1 << 20).is_err());
        assert_eq!(
            Input::new(dir.path()).open().err().map(|e| e.kind()),
            Some(io::ErrorKind::InvalidInput)
        );
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
