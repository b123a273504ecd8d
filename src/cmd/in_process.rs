//! A command run inside another program (the Python package, `python/`): the same parse, the
//! same command code and the same writers as the binary, with what would go to the process's
//! stdout handed to the caller's writer, the errors the boundary would print on stderr handed
//! back as the JSON error objects `--format json` prints, and standard input (`-`) read from
//! bytes the caller gives. Nothing process-wide changes (no `-q`, no colour setting, no
//! signal handling), and the redirection holds for the calling thread only, so several
//! threads may each run a command at once.
//!
//! The records a caller gets are therefore the bytes `sealkit --format jsonl …` prints, from
//! the one renderer each command has; there is no second rendering of any record.

use super::{dispatch, slips, usage_json, Global};
use crate::cli::Cli;
use crate::outcome::Outcome;
use clap::Parser;
use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, Write};
use std::rc::Rc;

/// What a command run in-process concluded.
#[derive(Debug)]
pub struct Run {
    /// The outcome whose exit status the binary would exit with.
    pub outcome: Outcome,
    /// Every error the binary would have printed on stderr, as the JSON error object
    /// (`{"type":"error","code":…,"message":…,"causes":[…]}`, docs/json.md), in order.
    pub errors: Vec<serde_json::Value>,
    /// For each of [`Run::errors`], whether an I/O failure is among its causes (an input that
    /// could not be read, rather than one that was read and refused).
    pub io: Vec<bool>,
}

/// This thread's redirection while [`run`] runs a command.
struct Capture {
    records: Rc<RefCell<dyn Write>>,
    errors: Vec<serde_json::Value>,
    io: Vec<bool>,
}

thread_local! {
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

/// Runs the command line `args` (the program name first, as the binary gets it) on this
/// thread: records go to `records` (the caller keeps its own handle to read them), errors into
/// the returned [`Run`], and `-` reads `stdin` (or the process's standard input when `None`).
/// A command line the parser refuses is the `usage` error object, as in JSON modes.
pub fn run(args: Vec<OsString>, stdin: Option<Vec<u8>>, records: Rc<RefCell<dyn Write>>) -> Run {
    CAPTURE.with(|capture| {
        *capture.borrow_mut() = Some(Capture {
            records: records.clone(),
            errors: Vec::new(),
            io: Vec::new(),
        })
    });
    let outcome = match Cli::try_parse_from(&args) {
        Ok(cli) => {
            let global = Global {
                format: cli.format,
                deny_warnings: cli.deny_warnings,
                color: false,
                color_stderr: false,
                quiet: false,
            };
            crate::input::with_stdin(stdin, || dispatch(cli.command, &global))
        }
        Err(error) => {
            let hint = slips::hint(&error, &args);
            keep(usage_json(&error, hint), false);
            Outcome::Unchecked
        }
    };
    let capture = CAPTURE.with(|capture| capture.borrow_mut().take());
    let (errors, io) = capture.map_or_else(Default::default, |c| (c.errors, c.io));
    let mut run = Run {
        outcome,
        errors,
        io,
    };
    if let Err(error) = records.borrow_mut().flush() {
        run.outcome = Outcome::Unchecked;
        run.errors.push(super::diagnostic::json(
            &miette::MietteDiagnostic::new(error.to_string()),
            true,
        ));
        run.io.push(true);
    }
    run
}

/// Whether a command is running in-process on this thread.
pub fn active() -> bool {
    CAPTURE.with(|capture| capture.borrow().is_some())
}

/// Keeps `error` for the in-process caller, if a command runs in-process on this thread;
/// returns whether it did (else the boundary prints it).
pub(super) fn keep_error(error: &dyn miette::Diagnostic, io: bool) -> bool {
    if !active() {
        return false;
    }
    let mut io = io;
    let mut next = error.source();
    while let Some(cause) = next {
        io |= cause.is::<io::Error>();
        next = cause.source();
    }
    keep(super::diagnostic::json(error, io), io);
    true
}

fn keep(object: serde_json::Value, io: bool) {
    CAPTURE.with(|capture| {
        if let Some(capture) = capture.borrow_mut().as_mut() {
            capture.errors.push(object);
            capture.io.push(io);
        }
    });
}

/// Where an [`super::Out`] writes: the process's stdout, or the in-process caller's writer.
pub enum Stdout {
    Process(io::StdoutLock<'static>),
    Captured(Rc<RefCell<dyn Write>>),
}

impl Stdout {
    /// This thread's stdout: the caller's writer while a command runs in-process.
    pub fn new() -> Self {
        let captured = CAPTURE.with(|capture| {
            capture
                .borrow()
                .as_ref()
                .map(|capture| capture.records.clone())
        });
        match captured {
            Some(records) => Stdout::Captured(records),
            None => Stdout::Process(io::stdout().lock()),
        }
    }

    pub fn is_captured(&self) -> bool {
        matches!(self, Stdout::Captured(_))
    }
}

impl Default for Stdout {
    fn default() -> Self {
        Self::new()
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stdout::Process(stdout) => stdout.write(buf),
            Stdout::Captured(records) => records.borrow_mut().write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stdout::Process(stdout) => stdout.flush(),
            Stdout::Captured(records) => records.borrow_mut().flush(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn args(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    /// Runs `words` in-process; the records written and the run.
    fn run_words(words: &[&str], stdin: Option<&[u8]>) -> (String, Run) {
        let records = Rc::new(RefCell::new(Vec::new()));
        let run = run(args(words), stdin.map(<[u8]>::to_vec), records.clone());
        let text = String::from_utf8(records.take()).unwrap();
        (text, run)
    }

    const FRAME: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"arguments\":{\"database\":\"prod\",\"sql\":\"drop table customers\"}}}\n";

    /// Records reach the caller's writer, `-` reads the given bytes, and nothing of it
    /// outlives the run on this thread. Seen red with `Stdout::new` ignoring the capture (the
    /// record went to the test's stdout and the writer stayed empty).
    #[test]
    fn records_go_to_the_callers_writer_and_stdin_is_the_given_bytes() {
        let (text, run) = run_words(
            &["sealkit", "--format", "jsonl", "target", "-"],
            Some(FRAME),
        );
        assert_eq!((run.outcome, run.errors.len()), (Outcome::Good, 0));
        let record: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
        assert_eq!(record["type"], "frame");
        assert_eq!(record["source"], "-");
        assert_eq!(
            record["identities"]["host"]["target"],
            "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565"
        );
        assert!(!active());
        assert!(!Stdout::new().is_captured());
    }

    /// An error the binary prints on stderr comes back as its JSON object, with its code and
    /// whether an I/O failure is under it; a refused command line is the `usage` object.
    #[test]
    fn errors_come_back_as_the_json_error_objects() {
        let (text, run) = run_words(
            &[
                "sealkit",
                "--format",
                "jsonl",
                "verify",
                "chain",
                "/no/such/log",
            ],
            None,
        );
        assert_eq!((text.as_str(), run.outcome), ("", Outcome::Unchecked));
        assert_eq!(run.errors.len(), 1);
        assert_eq!(run.errors[0]["type"], "error");
        assert_eq!(run.errors[0]["code"], "unreadable-file");
        assert_eq!(run.io, vec![true]);
        let (_, run) = run_words(&["sealkit", "--format", "jsonl", "verify", "nothing"], None);
        assert_eq!(run.outcome, Outcome::Unchecked);
        assert_eq!(run.errors[0]["code"], "usage");
        assert_eq!(run.io, vec![false]);
    }

    /// Each thread's run is its own: two threads capture their own records at once.
    #[test]
    fn threads_capture_their_own_runs() {
        let runs: Vec<(String, Run)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        run_words(
                            &["sealkit", "--format", "jsonl", "target", "-"],
                            Some(FRAME),
                        )
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(runs[0].0, runs[1].0);
        assert_eq!(runs[0].0.lines().count(), 1);
    }
}
