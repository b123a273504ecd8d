//! Every file input of every command, and the three ways it can fall short of being checked
//! ([`crate::outcome::Shortfall`]): it could not be read ([`Unreadable`]: missing, no
//! permission, a directory where a file belongs, a symbolic link loop), it is not the kind of
//! file the command reads ([`NotThisKind`]: empty where content is required, binary data,
//! UTF-16 where UTF-8 text is read), or there was nothing to check where evidence was expected
//! ([`NothingToCheck`]). Each carries its stable code and the exit status that follows, so no
//! command decides these on its own.
//!
//! Every file a command reads may be given as `-` for standard input ([`Input`]); standard
//! input can be read once per run, so a command line naming it twice is refused before
//! anything is read ([`stdin_once`]); an option that cannot read standard input says so
//! ([`StdinNotAccepted`]). Named files are opened without blocking ([`open_file`]): a FIFO with
//! no writer reads as empty instead of hanging the run. Whole-input reads stop at a size limit
//! ([`Input::read_capped`], [`read_into`]), so that no input (a FIFO, `/dev/zero`, a planted
//! multi-gigabyte file) can exhaust memory; streaming inputs get a reader ([`Input::open`])
//! and keep their own bounds.

use crate::outcome::{Outcome, Shortfall};
use std::cell::RefCell;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, Read};
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

/// The path an argument names when it is a file, none when it is `-` (standard input): the
/// one rule every command reads `-` by.
pub fn named_file(path: &Path) -> Option<&Path> {
    (path.as_os_str() != "-").then_some(path)
}

/// One file input of a command: standard input (`-`) or a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Stdin,
    Path(PathBuf),
}

impl Input {
    /// `-` is standard input; anything else is a path (`./-` names a file called `-`).
    pub fn new(path: &Path) -> Self {
        match named_file(path) {
            Some(path) => Input::Path(path.to_path_buf()),
            None => Input::Stdin,
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
    /// A named file is opened by [`open_file`]: a directory is refused, a FIFO does not block.
    pub fn open(&self) -> io::Result<Box<dyn Read + Send>> {
        match self {
            Input::Stdin => Ok(stdin()),
            Input::Path(path) => Ok(Box::new(open_file(path)?)),
        }
    }

    /// Reads the whole input, refusing with [`io::ErrorKind::InvalidData`] once it holds
    /// more than `limit` bytes: at most `limit + 1` bytes are ever read.
    pub fn read_capped(&self, limit: u64) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.open()?.take(limit + 1).read_to_end(&mut bytes)?;
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

    /// [`Input::open`] with the failure as an [`Unreadable`] naming this input.
    pub fn open_named(&self) -> Result<Box<dyn Read + Send>, Unreadable> {
        self.open().map_err(|source| Unreadable::new(self, source))
    }

    /// The whole input, which must be a file of `kind`: could not be read is [`Unreadable`];
    /// more than `limit` bytes, binary, UTF-16, or empty for a kind that cannot be
    /// ([`Kind::may_be_empty`]) is [`NotThisKind`].
    pub fn read_whole(&self, kind: Kind, limit: u64) -> Result<Vec<u8>, InputError> {
        let bytes = self.read_capped(limit).map_err(|source| {
            if source.kind() == io::ErrorKind::InvalidData {
                InputError::NotThisKind(NotThisKind::new(self, kind, source.to_string()))
            } else {
                InputError::Unreadable(Unreadable::new(self, source))
            }
        })?;
        match shape(&bytes) {
            Shape::Text => Ok(bytes),
            Shape::Empty if kind.may_be_empty() => Ok(bytes),
            other => Err(InputError::NotThisKind(NotThisKind::of_shape(
                self, kind, other,
            ))),
        }
    }

    /// A buffered reader over a text input of `kind` that is streamed: refused before any of
    /// it is used when its first bytes are binary or UTF-16 ([`shape`]), or when it is empty
    /// and `kind` cannot be; an empty stream of items is the caller's to count (nothing to
    /// check).
    pub fn open_text(
        &self,
        kind: Kind,
        capacity: usize,
    ) -> Result<io::BufReader<Box<dyn Read + Send>>, InputError> {
        let mut reader = io::BufReader::with_capacity(
            capacity.max(SNIFF_BYTES),
            self.open_named().map_err(InputError::Unreadable)?,
        );
        // The first read's bytes (a whole first block from a file; from a pipe, what its
        // writer had written), not consumed.
        let start = reader
            .fill_buf()
            .map_err(|source| InputError::Unreadable(Unreadable::new(self, source)))?;
        match shape(start) {
            Shape::Text => Ok(reader),
            Shape::Empty if kind.may_be_empty() => Ok(reader),
            other => Err(InputError::NotThisKind(NotThisKind::of_shape(
                self, kind, other,
            ))),
        }
    }
}

/// How many first bytes of an input [`shape`] looks at.
pub const SNIFF_BYTES: usize = 8192;

/// What an input's first bytes say it is, before it is read as the kind a command expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// No bytes at all.
    Empty,
    /// UTF-16 text (by its byte-order mark, or ASCII interleaved with NUL bytes): text, but
    /// not the UTF-8 every input is.
    Utf16(ForeignEncoding),
    /// Binary data: among the first [`SNIFF_BYTES`] there is a NUL or another control byte
    /// (not tab, line feed, form feed or carriage return), and one byte in eight or more is
    /// such a byte or not UTF-8. Text with a stray such byte (a hostile frame with a NUL in a
    /// string, a Latin-1 `é`) is still text, refused where the byte is by the reader of its
    /// kind.
    Binary {
        /// The first NUL or control byte.
        at: usize,
    },
    /// Anything else.
    Text,
}

/// The shape of an input from its first bytes (at most [`SNIFF_BYTES`] are looked at).
pub fn shape(start: &[u8]) -> Shape {
    if start.is_empty() {
        return Shape::Empty;
    }
    if let Some(encoding) = ForeignEncoding::sniff(start) {
        return Shape::Utf16(encoding);
    }
    let sample = &start[..start.len().min(SNIFF_BYTES)];
    let mut not_text = 0usize;
    let mut first_control = None;
    let mut offset = 0usize;
    for chunk in sample.utf8_chunks() {
        for (at, byte) in chunk.valid().bytes().enumerate() {
            if byte < 0x20 && !matches!(byte, b'\t' | b'\n' | b'\x0c' | b'\r') {
                not_text += 1;
                first_control.get_or_insert(offset + at);
            }
        }
        not_text += chunk.invalid().len();
        offset += chunk.valid().len() + chunk.invalid().len();
    }
    match first_control {
        Some(at) if not_text * 8 >= sample.len() => match utf16_without_mark(sample) {
            Some(encoding) => Shape::Utf16(encoding),
            None => Shape::Binary { at },
        },
        _ => Shape::Text,
    }
}

/// ASCII text written as UTF-16 without a byte-order mark: every other byte NUL.
fn utf16_without_mark(sample: &[u8]) -> Option<ForeignEncoding> {
    let pairs = sample.chunks_exact(2);
    if pairs.len() < 2 {
        return None;
    }
    let ascii = |b: u8| b != 0 && b.is_ascii();
    if pairs.clone().all(|p| ascii(p[0]) && p[1] == 0) {
        Some(ForeignEncoding::Utf16LittleEndianUnmarked)
    } else if pairs.clone().all(|p| p[0] == 0 && ascii(p[1])) {
        Some(ForeignEncoding::Utf16BigEndianUnmarked)
    } else {
        None
    }
}

impl Shape {
    /// What an input of this shape is, in words, for a message that says so.
    pub fn describe(self) -> String {
        match self {
            Shape::Empty => "the file is empty".to_owned(),
            Shape::Utf16(encoding) => format!("the file is {}", encoding.describe()),
            Shape::Binary { at } => {
                format!("the file holds binary data (a control byte at offset {at}), not text")
            }
            Shape::Text => "the file is text".to_owned(),
        }
    }
}

/// A text encoding other than UTF-8: UTF-16, recognised by its byte-order mark (or, for
/// ASCII text, by its NUL bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForeignEncoding {
    /// Starts with FF FE.
    Utf16LittleEndian,
    /// Starts with FE FF.
    Utf16BigEndian,
    /// ASCII, each character followed by a NUL byte.
    Utf16LittleEndianUnmarked,
    /// ASCII, each character after a NUL byte.
    Utf16BigEndianUnmarked,
}

impl ForeignEncoding {
    /// Recognises a UTF-16 byte-order mark at the start of an input.
    pub fn sniff(start: &[u8]) -> Option<Self> {
        match start {
            [0xFF, 0xFE, ..] => Some(ForeignEncoding::Utf16LittleEndian),
            [0xFE, 0xFF, ..] => Some(ForeignEncoding::Utf16BigEndian),
            _ => None,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            ForeignEncoding::Utf16LittleEndian => "UTF-16 little-endian (byte-order mark FF FE)",
            ForeignEncoding::Utf16BigEndian => "UTF-16 big-endian (byte-order mark FE FF)",
            ForeignEncoding::Utf16LittleEndianUnmarked => {
                "UTF-16 little-endian (no byte-order mark: every other byte is NUL)"
            }
            ForeignEncoding::Utf16BigEndianUnmarked => {
                "UTF-16 big-endian (no byte-order mark: every other byte is NUL)"
            }
        }
    }
}

/// The kinds of file commands read, by what they are called and the stable code that says a
/// file is not one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Lines of JSON-RPC frames (`target`, `--frames`).
    Capture,
    /// ApprovalRecord token lines (`verify approval`, `report --tokens`, `approve
    /// --token-file`).
    TokenFile,
    /// Raw kernel audit lines (`--audit-lines`).
    AuditLines,
    /// A seal-verifiable-record/v1 sealed log.
    SealedLog,
    /// A file holding exactly one JSON-RPC frame (`--frame`).
    Frame,
    /// The line an envelope is built for (`envelope FRAME`): one frame, or an empty line,
    /// which Seal's gate refuses and the envelope report says so.
    JudgedLine,
    /// A host refusal line (`approve --refusal`).
    Refusal,
    /// A JSON parameter or specification file (`envelope --params`, `target --tool-spec`).
    Parameters,
    /// A detached statement bundle.
    Bundle,
}

impl Kind {
    /// The kind with its article, as a message names it: "not a token file".
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Capture => "a capture of JSON-RPC frames",
            Kind::TokenFile => "a token file",
            Kind::AuditLines => "audit lines",
            Kind::SealedLog => "a sealed log",
            Kind::Frame | Kind::JudgedLine => "a frame",
            Kind::Refusal => "a refusal line",
            Kind::Parameters => "a JSON parameter file",
            Kind::Bundle => "a statement bundle",
        }
    }

    /// Whether an empty file is one of this kind with nothing in it (a stream of items: the
    /// command counts them, and none is nothing to check) rather than no file of the kind.
    pub fn may_be_empty(self) -> bool {
        matches!(
            self,
            Kind::Capture | Kind::TokenFile | Kind::AuditLines | Kind::JudgedLine
        )
    }

    /// The stable code of "this file is not one".
    pub fn code(self) -> &'static str {
        match self {
            Kind::Capture => "not-a-capture",
            Kind::TokenFile => "not-a-token-file",
            Kind::AuditLines => "not-audit-lines",
            Kind::SealedLog => "not-a-sealed-log",
            Kind::Frame | Kind::JudgedLine => "not-a-frame",
            Kind::Refusal => "not-a-refusal",
            Kind::Parameters => "not-a-parameter-file",
            Kind::Bundle => "not-a-bundle",
        }
    }
}

/// An input that is not the kind of file the command reads: not checked (exit status 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{input}: {found}: not {}", kind.noun())]
pub struct NotThisKind {
    /// The input as diagnostics name it.
    pub input: String,
    pub kind: Kind,
    /// What it is instead, in words.
    pub found: String,
    /// UTF-16 text has its own code (`unsupported-encoding`): converting it is the fix.
    pub utf16: bool,
}

impl NotThisKind {
    pub fn new(input: &Input, kind: Kind, found: impl Into<String>) -> Self {
        NotThisKind {
            input: input.to_string(),
            kind,
            found: found.into(),
            utf16: false,
        }
    }

    pub fn of_shape(input: &Input, kind: Kind, shape: Shape) -> Self {
        NotThisKind {
            utf16: matches!(shape, Shape::Utf16(_)),
            ..NotThisKind::new(input, kind, shape.describe())
        }
    }
}

impl crate::error_code::Coded for NotThisKind {
    fn code(&self) -> &'static str {
        if self.utf16 {
            "unsupported-encoding"
        } else {
            self.kind.code()
        }
    }

    fn help(&self) -> Option<String> {
        self.utf16
            .then(|| "sealkit reads UTF-8; convert with `iconv -f UTF-16 -t UTF-8`".into())
    }

    fn outcome(&self) -> Outcome {
        Shortfall::NotThisKind.outcome()
    }
}

/// The items of evidence a run expected and found none of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Items {
    Receipts,
    Tokens,
    Frames,
    /// Lines of a kernel audit log.
    AuditLines,
    /// Entries of a sealed log.
    ChainEntries,
}

impl Items {
    pub fn code(self) -> &'static str {
        match self {
            Items::Receipts => "no-receipts",
            Items::Tokens => "no-tokens",
            Items::Frames => "no-frames",
            Items::AuditLines => "no-audit-lines",
            Items::ChainEntries => "no-chain-entries",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Items::Receipts => "no receipt",
            Items::Tokens => "no token line",
            Items::Frames => "no frame",
            Items::AuditLines => "no audit line",
            Items::ChainEntries => "no chain entry",
        }
    }
}

/// Nothing to check where evidence was expected (an empty directory or file): a problem,
/// never a clean run (exit status 1), and nothing is written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} in {where_}: nothing was checked{}", evidence.noun(), if *written { "" } else { ", nothing written" })]
pub struct NothingToCheck {
    pub evidence: Items,
    /// Where it was looked for, as given.
    pub where_: String,
    /// Whether the command still wrote its (empty) report.
    pub written: bool,
}

impl crate::error_code::Coded for NothingToCheck {
    fn code(&self) -> &'static str {
        self.evidence.code()
    }

    fn help(&self) -> Option<String> {
        Some("check the path: an empty directory or file is no evidence that all is well".into())
    }

    fn outcome(&self) -> Outcome {
        Shortfall::NothingToCheck.outcome()
    }
}

/// Files a run met and could not read (its report names each): the run could not check
/// everything (exit status 2), and writes no output that would look complete.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{count} file{} could not be read, so not everything was checked (the first: {first})", if *count == 1 { "" } else { "s" })]
pub struct NotAllRead {
    pub count: u64,
    /// The first one, as the report names it, and why.
    pub first: String,
}

impl crate::error_code::Coded for NotAllRead {
    fn code(&self) -> &'static str {
        "unreadable-file"
    }

    fn help(&self) -> Option<String> {
        Some(
            "give sealkit read access to every file (the findings name them) and run it again"
                .into(),
        )
    }

    fn outcome(&self) -> Outcome {
        Shortfall::CouldNotRead.outcome()
    }
}

/// `-` given to an argument that cannot read standard input: a usage error (exit status 2),
/// before anything is read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{argument} cannot be `-`: {why}")]
pub struct StdinNotAccepted {
    pub argument: String,
    /// Why, and what to give instead.
    pub why: &'static str,
}

impl crate::error_code::Coded for StdinNotAccepted {
    fn code(&self) -> &'static str {
        "stdin-not-accepted"
    }

    fn help(&self) -> Option<String> {
        Some(
            "save standard input to a file and give its path (`./-` names a file called `-`)"
                .into(),
        )
    }
}

/// Refuses `-` for `argument` (see [`StdinNotAccepted`]).
pub fn refuse_stdin<'a>(
    argument: &str,
    paths: impl IntoIterator<Item = &'a Path>,
    why: &'static str,
) -> Result<(), StdinNotAccepted> {
    match paths.into_iter().any(|p| Input::new(p).is_stdin()) {
        true => Err(StdinNotAccepted {
            argument: argument.to_owned(),
            why,
        }),
        false => Ok(()),
    }
}

/// Why an input was not checked: it could not be read, or it is not the kind of file read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error(transparent)]
    Unreadable(Unreadable),
    #[error(transparent)]
    NotThisKind(NotThisKind),
}

impl InputError {
    /// The same error under a command's own documented code for an unreadable input.
    pub fn coded(self, code: &'static str) -> Self {
        match self {
            InputError::Unreadable(error) => InputError::Unreadable(error.coded(code)),
            other => other,
        }
    }
}

impl crate::error_code::Coded for InputError {
    fn code(&self) -> &'static str {
        match self {
            InputError::Unreadable(error) => error.code(),
            InputError::NotThisKind(error) => error.code(),
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            InputError::Unreadable(error) => error.help(),
            InputError::NotThisKind(error) => error.help(),
        }
    }

    fn outcome(&self) -> Outcome {
        match self {
            InputError::Unreadable(error) => error.outcome(),
            InputError::NotThisKind(error) => error.outcome(),
        }
    }
}

/// Opens a named file for reading without ever blocking on it: opened non-blocking (a FIFO
/// with no writer then reads as empty instead of waiting for one that never comes), then
/// switched back to blocking reads (a FIFO whose writer is there, `<(…)` in a shell, is read
/// to its end). A directory is refused (`Is a directory`), a symbolic link loop or a missing
/// file fails as the system says.
pub fn open_file(path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    let file = {
        use rustix::fs::OFlags;
        use std::os::unix::fs::OpenOptionsExt;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(OFlags::NONBLOCK.bits() as i32)
            .open(path)?;
        let flags = rustix::fs::fcntl_getfl(&file)?;
        rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK)?;
        file
    };
    #[cfg(not(unix))]
    let file = File::open(path)?;
    if file.metadata()?.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "is a directory, not a file",
        ));
    }
    Ok(file)
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

/// An input that could not be opened or read (missing, no permission, a directory where a
/// file belongs, a symbolic link loop): which one, with the operating system's error kept as
/// the cause. Not checked: exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {input}: {source}")]
pub struct Unreadable {
    /// The input as diagnostics name it (`-` is standard input).
    pub input: String,
    #[source]
    pub source: io::Error,
    /// The stable code: `unreadable-file`, or the one a command has always used.
    pub code: &'static str,
    /// What to do instead, when the command knows (a directory given where a file belongs).
    pub help: Option<String>,
}

impl Unreadable {
    pub fn new(input: &Input, source: io::Error) -> Self {
        Unreadable {
            input: input.to_string(),
            source,
            code: "unreadable-file",
            help: None,
        }
    }

    /// The same failure with what to do instead.
    pub fn with_help(self, help: String) -> Self {
        Unreadable {
            help: Some(help),
            ..self
        }
    }

    /// The same failure under a command's own documented code (`unreadable-input` for
    /// `target`, `unreadable-capture` for `--frames`).
    pub fn coded(self, code: &'static str) -> Self {
        Unreadable { code, ..self }
    }
}

impl crate::error_code::Coded for Unreadable {
    fn code(&self) -> &'static str {
        self.code
    }

    fn help(&self) -> Option<String> {
        self.help.clone()
    }

    fn outcome(&self) -> Outcome {
        Shortfall::CouldNotRead.outcome()
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
            Some(io::ErrorKind::IsADirectory)
        );
    }

    #[test]
    fn shape_names_empty_binary_and_utf16_and_leaves_text_with_a_stray_byte_text() {
        assert_eq!(shape(b""), Shape::Empty);
        assert_eq!(shape(b"{\"jsonrpc\":\"2.0\"}\n"), Shape::Text);
        // A hostile frame with one NUL in a string, Latin-1 text, DEL: text, refused (or
        // not) where the byte is by the reader of its kind.
        let frame = b"{\"method\":\"tools/call\",\"params\":{\"s\":\"a\x00b\"}}\n";
        assert_eq!(shape(frame), Shape::Text);
        assert_eq!(shape(b"caf\xe9 au lait, d\xe9j\xe0 vu\n"), Shape::Text);
        assert_eq!(shape(b"[\"\x7f\"]"), Shape::Text);
        // A picture's first bytes; pseudo-random bytes.
        assert_eq!(
            shape(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
            Shape::Binary { at: 6 }
        );
        let mut state = 7u32;
        let random: Vec<u8> = (0..4096)
            .map(|_| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (state >> 16) as u8
            })
            .collect();
        assert!(matches!(shape(&random), Shape::Binary { .. }));
        // One control byte in eight is binary; one fewer is not.
        assert!(matches!(shape(b"abcdefg\x01"), Shape::Binary { at: 7 }));
        assert_eq!(shape(b"abcdefgh\x01"), Shape::Text);
        assert_eq!(
            shape(b"\xff\xfe{\x00"),
            Shape::Utf16(ForeignEncoding::Utf16LittleEndian)
        );
        assert_eq!(
            shape(b"\xfe\xff\x00{"),
            Shape::Utf16(ForeignEncoding::Utf16BigEndian)
        );
        assert_eq!(
            shape(b"{\x00}\x00\n\x00"),
            Shape::Utf16(ForeignEncoding::Utf16LittleEndianUnmarked)
        );
        assert_eq!(
            shape(b"\x00{\x00}\x00\n"),
            Shape::Utf16(ForeignEncoding::Utf16BigEndianUnmarked)
        );
        // Only the first block is looked at.
        let mut late = vec![b'x'; SNIFF_BYTES];
        late.extend([0u8; 64]);
        assert_eq!(shape(&late), Shape::Text);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_with_no_writer_reads_as_empty_and_a_directory_or_a_loop_is_not_opened() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        // Would block for ever without the non-blocking open.
        assert_eq!(read_file_capped(&fifo, 100).unwrap(), b"");
        let looped = dir.path().join("loop");
        std::os::unix::fs::symlink(&looped, &looped).unwrap();
        assert!(open_file(&looped).is_err());
        let error = open_file(dir.path()).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::IsADirectory);
    }

    #[test]
    fn each_shortfall_has_its_code_and_exit_status() {
        use crate::error_code::Coded;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input");
        let input = Input::Path(path.clone());
        // Missing: could not read, under the command's own code when it has one.
        let missing = input.read_whole(Kind::Frame, 100).unwrap_err();
        assert_eq!(missing.code(), "unreadable-file");
        assert_eq!(missing.outcome(), Outcome::Unchecked);
        assert_eq!(missing.coded("unreadable-input").code(), "unreadable-input");
        assert!(missing_message(&input).starts_with("cannot read "));
        // Empty: no file of a kind that holds one thing; a stream of none for the others.
        fs::write(&path, b"").unwrap();
        let empty = input.read_whole(Kind::Frame, 100).unwrap_err();
        assert_eq!(empty.code(), "not-a-frame");
        assert_eq!(empty.outcome(), Outcome::Unchecked);
        assert_eq!(
            empty.to_string(),
            format!("{}: the file is empty: not a frame", path.display())
        );
        assert_eq!(input.read_whole(Kind::TokenFile, 100).unwrap(), b"");
        assert!(input.open_text(Kind::Capture, 10).is_ok());
        assert!(input.open_text(Kind::SealedLog, 10).is_err());
        // Binary data and UTF-16: not this kind, each with its code.
        fs::write(&path, b"\x00\x01\x02\x03binary").unwrap();
        let Err(binary) = input.open_text(Kind::TokenFile, 10) else {
            panic!("binary data opened as a token file")
        };
        assert_eq!(binary.code(), "not-a-token-file");
        assert_eq!(binary.coded("unreadable-input").code(), "not-a-token-file");
        fs::write(&path, b"\xff\xfe{\x00}\x00").unwrap();
        let utf16 = input.read_whole(Kind::Capture, 100).unwrap_err();
        assert_eq!(utf16.code(), "unsupported-encoding");
        assert!(utf16.help().is_some_and(|h| h.contains("iconv")));
        // Nothing to check is a problem, never a clean run.
        let nothing = NothingToCheck {
            evidence: Items::Receipts,
            where_: "dir".into(),
            written: false,
        };
        assert_eq!(
            (nothing.code(), nothing.outcome()),
            ("no-receipts", Outcome::Problems)
        );
        assert_eq!(
            nothing.to_string(),
            "no receipt in dir: nothing was checked, nothing written"
        );
        let refused = refuse_stdin("DIR", [Path::new("a"), Path::new("-")], "why").unwrap_err();
        assert_eq!(
            (refused.code(), refused.outcome()),
            ("stdin-not-accepted", Outcome::Unchecked)
        );
        assert!(refuse_stdin("DIR", [Path::new("./-")], "why").is_ok());
    }

    fn missing_message(input: &Input) -> String {
        Unreadable::new(input, io::Error::from(io::ErrorKind::NotFound)).to_string()
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
