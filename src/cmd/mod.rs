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

pub mod approve;
pub mod approve_key;
pub mod approve_prompt;
pub mod audit;
pub mod diagnostic;
pub mod diff;
pub mod envelope;
pub mod key;
pub mod keygen;
pub mod migrate;
pub mod passphrase;
pub mod report;
pub mod slips;
pub mod target;
pub mod verify;
pub mod verify_approval;
pub mod verify_bundle;
pub mod verify_chain;
pub mod verify_receipt;

/// Settings shared by every subcommand.
#[derive(Debug, Clone, Copy)]
pub struct Global {
    pub format: Format,
    pub deny_warnings: bool,
    /// Colour resolved against the terminal and NO_COLOR.
    pub color: bool,
}

impl Global {
    fn from_cli(cli: &Cli) -> Self {
        let color = match cli.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none() && io::stdout().is_terminal()
            }
        };
        Global {
            format: cli.format,
            deny_warnings: cli.deny_warnings,
            color,
        }
    }
}

/// Runs the parsed command line and returns its outcome. Errors that stop a command
/// (unreadable input, bad usage the parser could not see) are printed to stderr and
/// become [`Outcome::Unchecked`]; a closed stdout ends the run quietly.
pub fn run(cli: Cli) -> Outcome {
    let global = Global::from_cli(&cli);
    let result = match cli.command {
        Command::Target(args) => target::run(args, &global),
        Command::Envelope(args) => envelope::run(*args, &global),
        Command::Verify(args) => verify::run(args, &global),
        Command::Audit(args) => audit::run(args, &global),
        Command::Migrate(args) => migrate::run(args, &global),
        Command::Diff(args) => diff::run(args, &global),
        Command::Keygen(args) => keygen::run(args, &global),
        Command::Key(args) => key::run(args, &global),
        Command::Approve(args) => approve::run(args, &global),
        Command::Report(args) => report::run(*args, &global),
    };
    match result {
        Ok(outcome) => outcome,
        // Only a writer other than [`Out`] can get here: quiet too, but the run did not end,
        // so what it would have found is unknown.
        Err(error) if is_broken_pipe(&error) => Outcome::Unchecked,
        Err(error) => {
            report_error(&error, &global);
            Outcome::Unchecked
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

/// Prints an error that stopped a command: a miette report for people (its texts escaped,
/// see [`diagnostic`]), one JSON object (`{"status":"error","message":…}`, exact) on stderr
/// for scripts.
pub fn report_error(error: &miette::Report, global: &Global) {
    match global.format {
        Format::Human => eprintln!("{:?}", diagnostic::Inert::new(error.as_ref()).report()),
        Format::Json | Format::Jsonl => {
            let line = serde_json::json!({"status": "error", "message": format!("{error}")});
            eprintln!("{line}");
        }
    }
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
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => out.json_line(&serde_json::json!({
            "file": file,
            "status": "fail",
            "findings": [finding],
        })),
        Format::Human => out.text(&format!(
            "{}\n  REFUSED  {} ({}): {}\n",
            crate::inert::escape(&file.display().to_string()),
            finding.code,
            finding.severity.as_str(),
            crate::inert::escape(&finding.message)
        )),
    }
    .and_then(|()| out.flush())
    .map_err(io_report)?;
    Ok(Outcome::Problems)
}

/// Buffered stdout for reports; every command writes stdout through here. Once the reader
/// has gone (`BrokenPipe`), output is dropped and writes report success, so the command goes
/// on to its true outcome (see the module notes); any other write error is returned.
pub struct Out {
    inner: io::BufWriter<io::StdoutLock<'static>>,
    closed: bool,
}

impl Out {
    pub fn new() -> Self {
        Out {
            inner: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()),
            closed: false,
        }
    }

    /// Writes one value as a single JSON line.
    pub fn json_line<T: Serialize + ?Sized>(&mut self, value: &T) -> io::Result<()> {
        serde_json::to_writer(&mut *self, value).map_err(io::Error::from)?;
        self.write_all(b"\n")
    }

    pub fn text(&mut self, text: &str) -> io::Result<()> {
        self.write_all(text.as_bytes())
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

    pub fn item<T: Serialize + ?Sized>(&mut self, out: &mut Out, value: &T) -> io::Result<()> {
        out.text(if self.first { "\n" } else { ",\n" })?;
        self.first = false;
        serde_json::to_writer(&mut *out, value).map_err(io::Error::from)
    }

    pub fn end(self, out: &mut Out) -> io::Result<()> {
        out.text(if self.first { "]\n" } else { "\n]\n" })
    }
}

/// Wraps an I/O error so [`run`] can still recognise a closed pipe.
pub fn io_report(error: io::Error) -> miette::Report {
    miette::Report::msg(error)
}
