//! `sealkit._native`: the one bridge from Python into sealkit. It runs sealkit's own commands
//! in-process ([`sealkit::cmd::in_process`]): the records a caller gets are the bytes
//! `sealkit --format jsonl` prints, and its errors the JSON error objects the binary prints on
//! stderr, so the Python API (`sealkit/_api.py`) has no renderer of its own. Every call runs
//! with the GIL released, so Python threads run sealkit in parallel.
//!
//! Like the core crate, this crate forbids unsafe code (PyO3's macros need none in it).

#![forbid(unsafe_code)]

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sealkit::cmd::in_process;
use std::cell::RefCell;
use std::ffi::OsString;
use std::io::{self, Write};
use std::rc::Rc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::Duration;

/// One error of a run: the JSON error object (as text) and whether an I/O failure is among
/// its causes.
type Error = (String, bool);

/// What a finished command gives: its exit status and its errors.
type Ended = (u8, Vec<Error>);

/// The `sealkit` program, as the binary runs it, on the process's stdin, stdout and stderr:
/// `argv` is the whole command line, program name first. Returns the exit status.
#[pyfunction]
fn main(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    py.detach(|| sealkit::cmd::main(argv))
}

/// Runs one command line in-process (program name first; the Python API always asks for
/// `--format jsonl`), `-` reading `stdin`. Returns the exit status the binary would give, the
/// bytes it would print on stdout, and the errors it would print on stderr.
#[pyfunction]
#[pyo3(signature = (argv, stdin=None))]
fn run(
    py: Python<'_>,
    argv: Vec<OsString>,
    stdin: Option<Vec<u8>>,
) -> (u8, Py<PyBytes>, Vec<Error>) {
    let (status, records, errors) = py.detach(|| {
        let records = Rc::new(RefCell::new(Vec::new()));
        let run = in_process::run(argv, stdin, records.clone());
        let bytes = records.take();
        (run.outcome.exit_code(), bytes, errors_of(run))
    });
    (status, PyBytes::new(py, &records).unbind(), errors)
}

fn errors_of(run: in_process::Run) -> Vec<Error> {
    run.errors
        .iter()
        .map(|object| object.to_string())
        .zip(run.io)
        .collect()
}

/// Chunks of records handed from the command's thread to Python: at most this many wait,
/// so a consumer slower than the command holds it back instead of letting memory grow.
const CHUNKS_IN_FLIGHT: usize = 4;

/// The command's stdout for a [`Stream`]: whole lines, in chunks of at most about the size the
/// command's own output buffer writes (64 KiB).
struct LineSender {
    sender: SyncSender<Vec<u8>>,
    /// The start of a line not yet ended.
    pending: Vec<u8>,
}

impl LineSender {
    fn send(&mut self, chunk: Vec<u8>) -> io::Result<()> {
        self.sender.send(chunk).map_err(|_| {
            // Not a broken pipe: a closed stdout lets a command run to its end, but nobody
            // will read this one's records, so it stops at its next write.
            io::Error::other("the Python reader of the records is gone")
        })
    }
}

impl Write for LineSender {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match buf.iter().rposition(|&b| b == b'\n') {
            None => self.pending.extend_from_slice(buf),
            Some(last) => {
                let mut chunk = std::mem::take(&mut self.pending);
                chunk.extend_from_slice(&buf[..=last]);
                self.pending.extend_from_slice(&buf[last + 1..]);
                self.send(chunk)?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::take(&mut self.pending);
        self.send(chunk)
    }
}

/// A command running on a thread of its own, its records read as they are written (for
/// `sealkit.audit`, whose output grows with the archive): memory stays bounded by
/// [`CHUNKS_IN_FLIGHT`] chunks whatever the number of records.
#[pyclass(module = "sealkit._native", frozen)]
struct Stream {
    chunks: Mutex<Receiver<Vec<u8>>>,
    command: Mutex<Option<JoinHandle<Ended>>>,
}

#[pymethods]
impl Stream {
    /// Starts `argv` (as [`run`]) on a new thread.
    #[new]
    #[pyo3(signature = (argv, stdin=None))]
    fn new(argv: Vec<OsString>, stdin: Option<Vec<u8>>) -> PyResult<Self> {
        let (sender, chunks) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
        let command = std::thread::Builder::new()
            .name("sealkit".to_owned())
            // The binary's main thread gets the platform's 8 MiB; so does this one.
            .stack_size(8 << 20)
            .spawn(move || {
                let records = Rc::new(RefCell::new(LineSender {
                    sender,
                    pending: Vec::new(),
                }));
                let run = in_process::run(argv, stdin, records);
                (run.outcome.exit_code(), errors_of(run))
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        Ok(Stream {
            chunks: Mutex::new(chunks),
            command: Mutex::new(Some(command)),
        })
    }

    /// The next chunk of whole JSON lines, or `None` once the command has written its last.
    /// Waits without the GIL, and lets Python handle a signal (Ctrl-C) while it waits.
    fn next_chunk(&self, py: Python<'_>) -> PyResult<Option<Py<PyBytes>>> {
        loop {
            let next = py.detach(|| match self.chunks.lock() {
                Ok(chunks) => chunks.recv_timeout(Duration::from_millis(100)),
                Err(_) => Err(RecvTimeoutError::Disconnected),
            });
            match next {
                Ok(chunk) => return Ok(Some(PyBytes::new(py, &chunk).unbind())),
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// Waits for the command to end; its exit status and errors (as [`run`]'s). Call after
    /// [`Stream::next_chunk`] returned `None`.
    fn finish(&self, py: Python<'_>) -> PyResult<Ended> {
        let command = match self.command.lock() {
            Ok(mut command) => command.take(),
            Err(_) => None,
        };
        let Some(command) = command else {
            return Err(PyRuntimeError::new_err("the stream was already finished"));
        };
        py.detach(|| command.join())
            .map_err(|_| PyRuntimeError::new_err("the sealkit thread stopped abnormally"))
    }
}

/// sealkit's engine, run in-process; the API is in `sealkit` (this module is its bridge).
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(main, module)?)?;
    module.add_function(wrap_pyfunction!(run, module)?)?;
    module.add_class::<Stream>()?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
