//! One file per subcommand: each wires the pure modules to output. Shared here: dispatch
//! from parsed arguments, the settings every command reads ([`Global`]), stdout handling
//! that stops quietly on a closed pipe, and how errors that stop a command are shown.

use crate::cli::{Cli, ColorChoice, Command, Format};
use crate::outcome::Outcome;
use serde::Serialize;
use std::io::{self, IsTerminal, Write};

pub mod approve;
pub mod audit;
pub mod diff;
pub mod envelope;
pub mod keygen;
pub mod migrate;
pub mod report;
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
        Command::Approve(args) => approve::run(args, &global),
        Command::Report(args) => report::run(*args, &global),
    };
    match result {
        Ok(outcome) => outcome,
        Err(error) if is_broken_pipe(&error) => Outcome::Good,
        Err(error) => {
            report_error(&error, &global);
            Outcome::Unchecked
        }
    }
}

fn is_broken_pipe(error: &miette::Report) -> bool {
    error
        .downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// Prints an error that stopped a command: a miette report for people, one JSON object
/// (`{"status":"error","message":…}`) on stderr for scripts.
pub fn report_error(error: &miette::Report, global: &Global) {
    match global.format {
        Format::Human => eprintln!("{error:?}"),
        Format::Json | Format::Jsonl => {
            let line = serde_json::json!({"status": "error", "message": format!("{error}")});
            eprintln!("{line}");
        }
    }
}

/// Buffered stdout for reports. JSON documents and lines go through here so a closed pipe
/// surfaces as `BrokenPipe`, which [`run`] treats as a quiet stop.
pub struct Out {
    inner: io::BufWriter<io::StdoutLock<'static>>,
}

impl Out {
    pub fn new() -> Self {
        Out {
            inner: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()),
        }
    }

    /// Writes one value as a single JSON line.
    pub fn json_line<T: Serialize + ?Sized>(&mut self, value: &T) -> io::Result<()> {
        serde_json::to_writer(&mut self.inner, value).map_err(io::Error::from)?;
        self.inner.write_all(b"\n")
    }

    pub fn text(&mut self, text: &str) -> io::Result<()> {
        self.inner.write_all(text.as_bytes())
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl Default for Out {
    fn default() -> Self {
        Self::new()
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
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
