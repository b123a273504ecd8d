//! `sealkit._native`: the one bridge from Python into sealkit. It runs sealkit's own commands
//! in-process ([`sealkit::cmd::in_process`]): the records a caller gets are the bytes
//! `sealkit --format jsonl` prints, and its errors the JSON error objects the binary prints on
//! stderr, so the Python API (`sealkit/_api.py`) has no renderer of its own. Every call runs
//! with the GIL released, so Python threads run sealkit in parallel.
//!
//! Like the core crate, this crate forbids unsafe code (PyO3's macros need none in it).

#![forbid(unsafe_code)]

/// jemalloc, as the `sealkit` binary has it: why is beside the dependency in Cargo.toml.
#[cfg(unix)]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

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

pyo3::create_exception!(
    _native,
    Failure,
    pyo3::exceptions::PyException,
    "An error of the audit's map or reduce: args are the JSON error object (text) and whether an I/O failure is under it."
);

/// The JSON error object of `report`, as the binary prints it in JSON modes.
fn failure(report: &miette::Report, io: bool) -> PyErr {
    let object = sealkit::cmd::diagnostic::json(report.as_ref(), io);
    Failure::new_err((object.to_string(), io))
}

fn audit_failure(error: sealkit::audit::AuditError) -> PyErr {
    let io = matches!(error, sealkit::audit::AuditError::Root(..));
    failure(&sealkit::cmd::diagnostic::report(error), io)
}

/// The audit options of a map or a plan: the pinned key (hex or a key file, as
/// `--receipt-key` takes it), a trusted-approvers file, and the worker threads.
fn audit_options(
    receipt_key: Option<&str>,
    trusted_approvers: Option<&std::path::Path>,
    jobs: usize,
) -> PyResult<sealkit::audit::Options> {
    let pin = sealkit::cmd::receipt_pin(receipt_key).map_err(|report| failure(&report, false))?;
    let approvers = trusted_approvers
        .map(sealkit::approvers::Approvers::read)
        .transpose()
        .map_err(|error| failure(&sealkit::cmd::diagnostic::report(error), false))?;
    Ok(sealkit::audit::Options {
        pin,
        approvers,
        approval_key_files: trusted_approvers.map(Into::into).into_iter().collect(),
        token_files: Vec::new(),
        jobs: jobs.max(1),
    })
}

fn pool(jobs: usize) -> PyResult<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start worker threads: {e}")))
}

/// The listing of an archive audit (`sealkit.audit_plan`): its files in walk order, its
/// directories with their state files, and what the walk found. Lives on the driver.
#[pyclass(module = "sealkit._native", frozen)]
struct AuditPlan {
    plan: sealkit::audit::Plan,
    /// The pinned key as hex, for mappers elsewhere (they may not have its file).
    key_hex: Option<String>,
}

#[pymethods]
impl AuditPlan {
    /// Walks `roots` as `sealkit audit` does (without following links), comparing each file
    /// with the pinned key's.
    #[staticmethod]
    #[pyo3(signature = (roots, receipt_key=None, jobs=1))]
    fn walk(
        py: Python<'_>,
        roots: Vec<std::path::PathBuf>,
        receipt_key: Option<String>,
        jobs: usize,
    ) -> PyResult<Self> {
        py.detach(|| {
            let options = audit_options(receipt_key.as_deref(), None, jobs)?;
            let plan = sealkit::audit::Plan::walk(&roots, &options, &pool(jobs)?)
                .map_err(audit_failure)?;
            Ok(AuditPlan {
                plan,
                key_hex: options.pin.map(|pin| pin.public_key_hex()),
            })
        })
    }

    /// A plan over files listed elsewhere (URLs), in the order given; `read(path, limit)`
    /// returns a state file's bytes.
    #[staticmethod]
    #[pyo3(signature = (roots, files, read, receipt_key=None))]
    fn listed(
        py: Python<'_>,
        roots: Vec<std::path::PathBuf>,
        files: Vec<std::path::PathBuf>,
        read: Bound<'_, PyAny>,
        receipt_key: Option<String>,
    ) -> PyResult<Self> {
        let options = audit_options(receipt_key.as_deref(), None, 1)?;
        let mut reader = |path: &std::path::Path, limit: u64| -> Result<Vec<u8>, String> {
            read.call1((path.as_os_str().to_os_string(), limit))
                .and_then(|bytes| bytes.extract::<Vec<u8>>())
                .map_err(|e| format!("cannot read: {e}"))
        };
        let _ = py;
        Ok(AuditPlan {
            plan: sealkit::audit::Plan::listed(&roots, &files, &mut reader),
            key_hex: options.pin.map(|pin| pin.public_key_hex()),
        })
    }

    fn __len__(&self) -> usize {
        self.plan.len()
    }

    /// The paths of the listing's entries `start..end`, in order.
    fn paths(&self, start: usize, end: usize) -> Vec<OsString> {
        (start..end.min(self.plan.len()))
            .map(|p| self.plan.path(p).into_os_string())
            .collect()
    }

    /// The pinned key as 64 hex digits (for mappers elsewhere), if one was given.
    #[getter]
    fn receipt_key_hex(&self) -> Option<String> {
        self.key_hex.clone()
    }
}

/// The map: verifies `paths` (with their `contents` when read elsewhere) and returns their
/// facts as bytes.
#[pyfunction]
#[pyo3(signature = (paths, contents=None, receipt_key=None, trusted_approvers=None, jobs=1))]
fn audit_partition(
    py: Python<'_>,
    paths: Vec<std::path::PathBuf>,
    contents: Option<Vec<Vec<u8>>>,
    receipt_key: Option<String>,
    trusted_approvers: Option<std::path::PathBuf>,
    jobs: usize,
) -> PyResult<Py<PyBytes>> {
    let facts = py.detach(|| {
        let options = audit_options(receipt_key.as_deref(), trusted_approvers.as_deref(), jobs)?;
        let mut contents = contents.map(Vec::into_iter);
        let entries: Vec<sealkit::audit::map::Entry> = paths
            .into_iter()
            .map(|path| {
                let given = contents.as_mut().and_then(Iterator::next);
                sealkit::audit::map::Entry::from_path(path, given)
            })
            .collect();
        let facts = sealkit::audit::map_entries(&entries, &options, &pool(jobs)?);
        Ok::<_, PyErr>(sealkit::audit::facts_codec::encode(&facts))
    })?;
    Ok(PyBytes::new(py, &facts).unbind())
}

/// The reduce of one audit (`sealkit.audit_reduce`): facts in, finding records out.
#[pyclass(module = "sealkit._native", frozen)]
struct AuditReducer {
    plan: Py<AuditPlan>,
    state: Mutex<Option<sealkit::audit::reduce::Reduce>>,
    /// Records written by `begin`, handed out with the first `add` or `finish`.
    pending: Mutex<Vec<u8>>,
}

/// Writes an event as the JSON line `sealkit audit --format jsonl` prints for it.
fn write_event(records: &mut Vec<u8>, event: sealkit::audit::Event<'_>) -> io::Result<()> {
    let line = match event {
        sealkit::audit::Event::Receipt(entry) => sealkit::cmd::typed("receipt", entry)?,
        sealkit::audit::Event::Finding(finding) => sealkit::cmd::typed("finding", finding)?,
    };
    records.extend_from_slice(&line);
    records.push(b'\n');
    Ok(())
}

#[pymethods]
impl AuditReducer {
    #[new]
    fn new(py: Python<'_>, plan: Py<AuditPlan>) -> PyResult<Self> {
        let mut records = Vec::new();
        let reduce = {
            let listing = &plan.get().plan;
            py.detach(|| {
                sealkit::audit::reduce::Reduce::begin(listing, &mut |event| {
                    write_event(&mut records, event)
                })
            })
            .map_err(audit_failure)?
        };
        Ok(AuditReducer {
            plan,
            state: Mutex::new(Some(reduce)),
            pending: Mutex::new(records),
        })
    }

    /// Reduces the facts of the next partition; the JSON lines of the findings it makes.
    fn add(&self, py: Python<'_>, facts: &[u8]) -> PyResult<Py<PyBytes>> {
        let listing = &self.plan.get().plan;
        let records = py.detach(|| {
            let mut records = self.take_pending();
            let decoded = sealkit::audit::facts_codec::decode(facts).map_err(audit_failure)?;
            let mut state = self
                .state
                .lock()
                .map_err(|_| PyRuntimeError::new_err("the reduce failed before"))?;
            let reduce = state
                .as_mut()
                .ok_or_else(|| PyRuntimeError::new_err("the reduce is finished"))?;
            for facts in decoded {
                reduce
                    .add(listing, facts, None, &mut |event| {
                        write_event(&mut records, event)
                    })
                    .map_err(audit_failure)?;
            }
            Ok::<_, PyErr>(records)
        })?;
        Ok(PyBytes::new(py, &records).unbind())
    }

    /// The directory checks and the summary: the last JSON lines, and the exit status the
    /// command gives (with `deny_warnings` as `--deny-warnings`).
    #[pyo3(signature = (deny_warnings=false))]
    fn finish(&self, py: Python<'_>, deny_warnings: bool) -> PyResult<(Py<PyBytes>, u8)> {
        let listing = &self.plan.get().plan;
        let (records, status) = py.detach(|| {
            let mut records = self.take_pending();
            let reduce = self
                .state
                .lock()
                .map_err(|_| PyRuntimeError::new_err("the reduce failed before"))?
                .take()
                .ok_or_else(|| PyRuntimeError::new_err("the reduce is finished"))?;
            let summary = reduce
                .finish(listing, &mut |event| write_event(&mut records, event))
                .map_err(audit_failure)?;
            let line = sealkit::cmd::typed("summary", &summary)
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
            records.extend_from_slice(&line);
            records.push(b'\n');
            // The command's own rule (a file that could not be read: exit 2).
            let status = summary.outcome(deny_warnings).exit_code();
            Ok::<_, PyErr>((records, status))
        })?;
        Ok((PyBytes::new(py, &records).unbind(), status))
    }

    /// How many files' facts have been reduced.
    fn added(&self) -> usize {
        self.state
            .lock()
            .ok()
            .and_then(|state| state.as_ref().map(|r| r.added()))
            .unwrap_or(0)
    }
}

impl AuditReducer {
    fn take_pending(&self) -> Vec<u8> {
        self.pending
            .lock()
            .map(|mut pending| std::mem::take(&mut *pending))
            .unwrap_or_default()
    }
}

/// sealkit's engine, run in-process; the API is in `sealkit` (this module is its bridge).
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(audit_partition, module)?)?;
    module.add_class::<AuditPlan>()?;
    module.add_class::<AuditReducer>()?;
    module.add("Failure", module.py().get_type::<Failure>())?;
    module.add_function(wrap_pyfunction!(main, module)?)?;
    module.add_function(wrap_pyfunction!(run, module)?)?;
    module.add_class::<Stream>()?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
