//! One file per subcommand: each wires the pure modules to output. Shared here: dispatch
//! from parsed arguments, the settings every command reads ([`Global`]), stdout handling
//! that stops quietly on a closed pipe, and how errors that stop a command are shown.
//!
//! A closed stdout (`| head -1`) is one rule for every command, kept here at the output
//! boundary: [`Out`] stops writing, without a word, and the command runs to its end, so its
//! exit status is the verdict over every input (0 only if all were checked and good) and
//! files it writes (migrate's NEW_DIR) are completed as without the pipe.

use crate::cli::{Cli, ColorChoice, Command, Format};
use crate::outcome::Outcome;
use serde::Serialize;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

pub mod approve;
pub mod audit;
pub mod diagnostic;
pub mod diff;
pub mod envelope;
pub mod evidence;
mod grid;
pub mod in_process;
mod json_write;
pub mod key;
pub mod keygen;
pub mod layout;
pub mod migrate;
pub mod passphrase;
mod progress;
pub mod report;
pub mod slips;
pub mod target;
mod target_record;
pub mod terminal;
pub mod verify;
pub mod verify_approval;
mod verify_approval_json;
pub mod verify_bundle;
pub mod verify_chain;
pub mod verify_receipt;

/// Settings shared by every subcommand.
#[derive(Debug, Clone, Copy)]
pub struct Global {
    pub format: Format,
    pub deny_warnings: bool,
    /// Colour for stdout, resolved against the terminal and NO_COLOR.
    pub color: bool,
    /// Colour for diagnostics on stderr, resolved the same way against stderr.
    pub color_stderr: bool,
    /// `-q`: nothing but errors is printed (see [`Out`]).
    pub quiet: bool,
}

impl Global {
    fn from_cli(cli: &Cli) -> Self {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let resolve = |terminal: bool| match cli.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !no_color && terminal,
        };
        Global {
            format: cli.format,
            deny_warnings: cli.deny_warnings,
            color: resolve(io::stdout().is_terminal()),
            color_stderr: resolve(io::stderr().is_terminal()),
            quiet: cli.quiet,
        }
    }
}

/// Set once, before any command runs, from `-q`: every [`Out`] made afterwards drops what it
/// is given. Process-wide because every stdout writer is an [`Out`] and the setting never
/// changes during a run; a flag threaded through each command would be one more thing a new
/// writer could forget.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Whether `-q` is in force (for the few things printed to stderr that are not errors); a
/// command run in-process ([`in_process`]) prints nothing on stderr either.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed) || in_process::active()
}

/// The program as the `sealkit` binary runs it: parses `args` (the program name first), runs
/// the command and returns the exit status. `src/main.rs` and the Python package's `sealkit`
/// command both call this, so they are one program.
pub fn main(args: Vec<std::ffi::OsString>) -> u8 {
    use clap::Parser;
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error, &args),
    };
    run(cli).exit_code()
}

/// Runs the parsed command line and returns its outcome. Errors that stop a command
/// (unreadable input, bad usage the parser could not see) are printed to stderr and become
/// [`Outcome::Unchecked`], except one that says there was nothing to check
/// ([`diagnostic::outcome_of`]: [`Outcome::Problems`]); a closed stdout ends the run quietly.
pub fn run(cli: Cli) -> Outcome {
    let global = Global::from_cli(&cli);
    QUIET.store(global.quiet, Ordering::Relaxed);
    layout::set_color(global.color);
    dispatch(cli.command, &global)
}

/// Runs one command under `global`; an error that stops it is shown through the one error
/// boundary ([`report_error`]) and makes the outcome [`Outcome::Unchecked`].
fn dispatch(command: Command, global: &Global) -> Outcome {
    let result = match command {
        Command::Target(args) => target::run(args, global),
        Command::Envelope(args) => envelope::run(*args, global),
        Command::Verify(args) => verify::run(args, global),
        Command::Audit(args) => audit::run(args, global),
        Command::Migrate(args) => migrate::run(args, global),
        Command::Diff(args) => diff::run(args, global),
        Command::Keygen(args) => keygen::run(args, global),
        Command::Key(args) => key::run(args, global),
        Command::Approve(args) => approve::run(args, global),
        Command::Report(args) => report::run(*args, global),
        Command::Evidence(args) => evidence::run(args, global),
    };
    match result {
        Ok(outcome) => outcome,
        // Only a writer other than [`Out`] can get here: quiet too, but the run did not end,
        // so what it would have found is unknown.
        Err(error) if is_broken_pipe(&error) => Outcome::Unchecked,
        Err(error) => {
            report_error(&error, global);
            diagnostic::outcome_of(&error)
        }
    }
}

fn is_broken_pipe(error: &miette::Report) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    }) || error
        .downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// A command line the parser refused (or `--help`/`--version`, which it reports the same way):
/// printed as clap prints it, except that in JSON modes a refusal is the JSON error object
/// (code `usage`), so a script asking for JSON gets JSON on every path. The format is read
/// from the raw arguments, as the parse did not finish. Returns the exit status (clap's: 0
/// for help and version, 2 otherwise).
pub fn usage_error(error: &clap::Error, args: &[std::ffi::OsString]) -> u8 {
    use clap::error::ErrorKind;
    let informational = matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    // A known slip on the command line (a flag that swallowed a positional, say).
    let hint = slips::hint(error, args);
    if informational || !json_requested(args.iter().skip(1).cloned()) {
        // Printing help or a usage text to a closed stream has nowhere else to go.
        let _ = error.print();
        if let Some(hint) = hint {
            eprintln!("\nhint: {hint}");
        }
        return u8::try_from(error.exit_code()).unwrap_or(2);
    }
    eprintln!("{}", usage_json(error, hint));
    2
}

/// The JSON error object (code `usage`) of a command line the parser refused, with the hint
/// for a known slip.
fn usage_json(error: &clap::Error, hint: Option<String>) -> serde_json::Value {
    let text = error.render().to_string();
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more"));
    let message = lines
        .next()
        .map(|l| l.strip_prefix("error: ").unwrap_or(l).to_owned())
        .unwrap_or_default();
    let causes: Vec<&str> = lines.collect();
    let mut line =
        serde_json::json!({"type": "error", "code": "usage", "message": message, "causes": causes});
    if let Some(hint) = hint {
        line["help"] = serde_json::Value::from(hint);
    }
    line
}

/// Whether the arguments ask for `--format json` or `jsonl` (the last `--format` wins, as in
/// the parser).
fn json_requested(args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    let mut format = None;
    let mut args = args.map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = args.next() {
        if arg == "--" {
            break;
        }
        if arg == "--format" {
            format = args.next();
        } else if let Some(value) = arg.strip_prefix("--format=") {
            format = Some(value.to_owned());
        }
    }
    matches!(format.as_deref(), Some("json" | "jsonl"))
}

/// Prints an error that stopped a command, on stderr: a miette report for people (its texts
/// escaped, coloured only as `--color` and NO_COLOR allow; see [`diagnostic`]), one JSON
/// object for scripts (`{"type":"error","code":…,"message":…,"causes":[…]}`, exact values).
/// Every error a command shows goes through here, so code and causes reach both forms.
pub fn report_error(error: &miette::Report, global: &Global) {
    let io = error.downcast_ref::<io::Error>().is_some();
    show(error.as_ref(), io, global);
}

/// [`report_error`] for a diagnostic that is not (yet) a report.
pub fn show_diagnostic(error: &dyn miette::Diagnostic, global: &Global) {
    show(error, false, global);
}

fn show(error: &dyn miette::Diagnostic, io: bool, global: &Global) {
    if in_process::keep_error(error, io) {
        return;
    }
    match global.format {
        Format::Human => eprint!(
            "{}",
            diagnostic::Inert::new(error).for_stderr(global.color_stderr)
        ),
        Format::Json | Format::Jsonl => eprintln!("{}", diagnostic::json(error, io)),
    }
}

/// Shows an error about one input that the command goes on past (another input is still
/// checked), through the error boundary, and returns the exit status it gives: could not
/// check ([`crate::input::InputError`]), or nothing to check.
pub fn stopped_input<E>(error: E, global: &Global) -> Outcome
where
    E: std::error::Error + crate::error_code::Coded + Send + Sync + 'static,
{
    let outcome = error.outcome();
    report_error(&diagnostic::report(error), global);
    outcome
}

/// A file refused before any check because a JSON object in it writes one member name twice
/// (see [`crate::json::find_duplicate`]): reported as a `duplicate-member` finding, exit 1.
pub fn refused_duplicate(
    file: &std::path::Path,
    message: String,
    global: &Global,
) -> miette::Result<Outcome> {
    let finding =
        crate::finding::Finding::new(crate::finding::Code::DuplicateMember, None, message);
    #[derive(Serialize)]
    struct Refused<'a> {
        #[serde(flatten, serialize_with = "crate::path_json::file")]
        file: &'a std::path::Path,
        status: &'static str,
        findings: [&'a crate::finding::Finding; 1],
    }
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => out.json_line(
            "refused-file",
            &Refused {
                file,
                status: "fail",
                findings: [&finding],
            },
        ),
        Format::Human => out.human(&format!(
            "{}\n  REFUSED  {}\n",
            crate::inert::escape(&file.display().to_string()),
            finding_line(&finding)
        )),
    }
    .and_then(|()| out.flush())
    .map_err(io_report)?;
    Ok(Outcome::Problems)
}

/// A finding as people read it after a label: `CODE (severity): message`, the message
/// escaped. The one human form of a finding in the commands' text reports.
pub(crate) fn finding_line(finding: &crate::finding::Finding) -> String {
    format!(
        "{} ({}): {}",
        finding.code,
        finding.severity.as_str(),
        crate::inert::escape(&finding.message)
    )
}

/// Buffered stdout for reports; every command writes stdout through here. Once the reader
/// has gone (`BrokenPipe`), output is dropped and writes report success, so the command goes
/// on to its true outcome (see the module notes); any other write error is returned. Under
/// `-q` it is closed from the start: the command runs the same and prints nothing.
pub struct Out {
    inner: io::BufWriter<in_process::Stdout>,
    closed: bool,
    /// One JSON object is serialized here, then written in one piece: serde_json writes a
    /// record in dozens of small pieces, each of which would otherwise go through the
    /// closed-pipe check and the buffered writer. Reused across objects.
    scratch: Vec<u8>,
}

/// [`Out::scratch`] keeps at most this much capacity between objects, so one huge record
/// (a refused megabyte frame) does not stay resident for the rest of a stream.
const SCRATCH_KEPT: usize = 1 << 16;

impl Out {
    pub fn new() -> Self {
        let stdout = in_process::Stdout::new();
        Out {
            // A command run in-process writes for its caller, who asked for the records.
            closed: !stdout.is_captured() && QUIET.load(Ordering::Relaxed),
            inner: io::BufWriter::with_capacity(1 << 16, stdout),
            scratch: Vec::new(),
        }
    }

    /// Writes one object as a single JSON line, `"type": kind` first (see [`typed`]).
    pub fn json_line<T: Serialize + ?Sized>(&mut self, kind: &str, value: &T) -> io::Result<()> {
        self.typed(kind, value)?;
        self.write_all(b"\n")
    }

    /// Writes one object with `"type": kind` first (see [`Typed`]), no newline: an element of a
    /// JSON document being streamed.
    pub fn typed<T: Serialize + ?Sized>(&mut self, kind: &str, value: &T) -> io::Result<()> {
        self.record(|scratch| {
            serde_json::to_writer(scratch, &Typed { kind, value }).map_err(io::Error::from)
        })
    }

    /// Writes what `write` puts into the reused buffer, in one piece (see [`Out::typed`]): for
    /// records written without serde.
    pub fn record(&mut self, write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>) -> io::Result<()> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let written = write(&mut scratch).and_then(|()| self.write_all(&scratch));
        scratch.shrink_to(SCRATCH_KEPT);
        self.scratch = scratch;
        written
    }

    pub fn text(&mut self, text: &str) -> io::Result<()> {
        self.write_all(text.as_bytes())
    }

    /// Human output, fitted to where it is printed by the one layout rule
    /// ([`layout::text`]: word-wrapped to the terminal or `COLUMNS`, never wrapped when piped
    /// without it). Every command writes its human text through here, tables drawn by
    /// [`layout::table`] first; `text` is for JSON and for the one line made to be pasted whole
    /// (`evidence ref`'s evidenceRef).
    pub fn human(&mut self, text: &str) -> io::Result<()> {
        self.text(&layout::text(text))
    }

    pub fn flush(&mut self) -> io::Result<()> {
        Write::flush(self)
    }

    fn closed_on_broken_pipe<T>(&mut self, result: io::Result<T>, done: T) -> io::Result<T> {
        match result {
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(done)
            }
            other => other,
        }
    }
}

impl Default for Out {
    fn default() -> Self {
        Self::new()
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let result = self.inner.write(buf);
        self.closed_on_broken_pipe(result, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let result = self.inner.flush();
        self.closed_on_broken_pipe(result, ())
    }
}

/// Streams a JSON array one element at a time, so `--format json` needs no more memory
/// than `--format jsonl`.
pub struct JsonArray {
    first: bool,
}

impl JsonArray {
    pub fn begin(out: &mut Out) -> io::Result<Self> {
        out.text("[")?;
        Ok(JsonArray { first: true })
    }

    /// One element, an object with `"type": kind` first (see [`typed`]).
    pub fn item<T: Serialize + ?Sized>(
        &mut self,
        out: &mut Out,
        kind: &str,
        value: &T,
    ) -> io::Result<()> {
        self.item_with(out, |buffer| {
            serde_json::to_writer(buffer, &Typed { kind, value }).map_err(io::Error::from)
        })
    }

    /// One element written by `write` (see [`Out::record`]).
    pub fn item_with(
        &mut self,
        out: &mut Out,
        write: impl FnOnce(&mut Vec<u8>) -> io::Result<()>,
    ) -> io::Result<()> {
        out.text(if self.first { "\n" } else { ",\n" })?;
        self.first = false;
        out.record(write)
    }

    pub fn end(self, out: &mut Out) -> io::Result<()> {
        out.text(if self.first { "]\n" } else { "\n]\n" })
    }
}

/// An object with `"type": kind` as its first member, then `value`'s own members: the one way
/// the JSON contract's `type` is written (docs/json.md), for JSON Lines records, documents and
/// the typed objects nested in documents alike. `value` must serialize to an object without a
/// `type` member of its own (the schema tests refuse a record that names a member twice).
#[derive(Serialize)]
pub struct Typed<'a, T: ?Sized> {
    #[serde(rename = "type")]
    pub kind: &'a str,
    #[serde(flatten)]
    pub value: &'a T,
}

/// [`Typed`] as bytes.
pub fn typed<T: Serialize + ?Sized>(kind: &str, value: &T) -> io::Result<Vec<u8>> {
    serde_json::to_vec(&Typed { kind, value }).map_err(io::Error::from)
}

/// Wraps an I/O error so [`run`] can still recognise a closed pipe.
pub fn io_report(error: io::Error) -> miette::Report {
    miette::Report::msg(error)
}

/// The pinned receipt key of `--receipt-key`, if given, read by the one key-pin rule; a key
/// that cannot be used stops the command through the error boundary.
pub fn receipt_pin(key: Option<&str>) -> miette::Result<Option<crate::receipt::pin::Pin>> {
    key.map(crate::receipt::pin::load)
        .transpose()
        .map_err(diagnostic::report)
}

/// How a command over receipt files starts (`verify receipt`, `evidence ref`): the pinned key,
/// standard input claimed by at most one file (named `name` in the error), and the output with
/// a JSON array begun when the format is JSON.
pub fn receipt_files_start(
    key: Option<&str>,
    files: &[std::path::PathBuf],
    name: &str,
    global: &Global,
) -> miette::Result<(Option<crate::receipt::pin::Pin>, Out, Option<JsonArray>)> {
    let pin = receipt_pin(key)?;
    crate::input::stdin_once(files.iter().map(|file| (name, file.as_path())))
        .map_err(diagnostic::report)?;
    let mut out = Out::new();
    let array = match global.format {
        Format::Json => Some(JsonArray::begin(&mut out).map_err(io_report)?),
        _ => None,
    };
    Ok((pin, out, array))
}
