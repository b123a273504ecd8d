//! The archive audit on Dask against the command (issue 39, item 7). Generates a directory of
//! varied receipts with the benches' seeded generator (`support/evidence`, as
//! `audit_throughput` does: host sessions of both eras, several tools, arguments from 200 B
//! to 64 KB, allows, blocks and released calls, the head and operation state, a few planted
//! problems), warms the page cache, then in one run: the release binary's
//! `sealkit audit --format jsonl --jobs 2` (the limit: receipts/s by the clock, CPU time,
//! peak memory), and `sealkit.dask.audit` on a LocalCluster of 1 and of 2 single-threaded
//! worker processes (`python/bench/dask_audit.py`, run by the Python named in
//! `SEALKIT_BENCH_PYTHON`, whose environment has the sealkit wheel built from the same sources
//! with the same profile, and dask[distributed]); receipts/s of each, the ratio of the
//! 2-worker rate to the command's `--jobs 2` (goal ≥ 0.9), the facts' size per receipt, and
//! the load average around every run. The summaries of the command and of both Dask runs
//! must be equal (the same audit).
//!
//! `cargo bench --profile release --bench dask_throughput` (the wheel: `maturin build
//! --release`); `SEALKIT_BENCH_RECEIPTS=N` (default 100,000), `SEALKIT_BENCH_SEED`,
//! `SEALKIT_BENCH_DIR` (keep the receipts there).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/child.rs"]
#[allow(dead_code)]
mod child;
#[path = "support/evidence/mod.rs"]
mod evidence;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn main() {
    let Some(python) = std::env::var_os("SEALKIT_BENCH_PYTHON") else {
        println!("dask_throughput: set SEALKIT_BENCH_PYTHON to a Python with the sealkit wheel and dask[distributed] (docs/performance.md)");
        return;
    };
    let count = evidence::count_from_env();
    let installation = evidence::Installation::new(evidence::seed_from_env());
    let temp = tempfile::tempdir().unwrap();
    let base = evidence::dir_from_env(temp.path());
    let plan = evidence::plan::plan(&installation, count, 0.0);
    let generated = evidence::receipts::write(&installation, &plan, &base.join("receipts"), true);
    let dir = generated.path.clone();
    let receipts = generated.files.len();
    println!(
        "{receipts} receipts ({:.0} bytes a receipt on average) in {}",
        generated.bytes as f64 / receipts as f64,
        dir.display()
    );
    for file in &generated.files {
        std::hint::black_box(std::fs::read(file).unwrap());
    }
    let pin = installation.receipt_public_hex();
    let this = PathBuf::from(env!("CARGO_BIN_EXE_sealkit"));

    let mut command = Command::new(&this);
    command
        .args([
            "--format",
            "jsonl",
            "audit",
            "--jobs",
            "2",
            "--receipt-key",
            &pin,
        ])
        .arg(&dir);
    let cli = child::run(command, Duration::from_millis(20));
    let cli_rate = receipts as f64 / cli.elapsed.as_secs_f64();
    println!(
        "sealkit audit --jobs 2: {:.2} s = {cli_rate:.0} receipts/s, CPU {:.1} s = {:.0} µs a receipt, peak RSS {:.1} MB, exit {} (load average {} before, {} after)",
        cli.elapsed.as_secs_f64(),
        cli.cpu_seconds,
        cli.cpu_seconds * 1e6 / receipts as f64,
        cli.peak_kb as f64 / 1024.0,
        cli.status,
        cli.load_before,
        cli.load_after,
    );
    let summary = cli_summary(&this, &dir, &pin);

    let mut rates = Vec::new();
    for workers in [1, 2] {
        let run = dask(&python, &dir, &pin, workers);
        let seconds = run["seconds"].as_f64().unwrap();
        let rate = receipts as f64 / seconds;
        let driver_cpu = run["driver_cpu_seconds"].as_f64().unwrap();
        let workers_cpu = run["workers_cpu_seconds"].as_f64().unwrap();
        println!(
            "sealkit.dask.audit, {workers} worker(s): {seconds:.2} s = {rate:.0} receipts/s, CPU {:.1} s = {:.0} µs a receipt (workers {workers_cpu:.1} s, driver {driver_cpu:.1} s), driver peak RSS {:.0} MB (load average {} before, {} after); facts {:.0} bytes a file; the reduce alone {:.1} µs CPU a file",
            driver_cpu + workers_cpu,
            (driver_cpu + workers_cpu) * 1e6 / receipts as f64,
            run["driver_peak_mb"].as_f64().unwrap(),
            run["load_before"].as_str().unwrap(),
            run["load_after"].as_str().unwrap(),
            run["facts_bytes_per_file"].as_f64().unwrap(),
            run["reduce_cpu_us_per_file"].as_f64().unwrap(),
        );
        assert_eq!(
            run["summary"], summary,
            "the Dask audit's summary is not the command's"
        );
        rates.push(rate);
    }
    println!(
        "2 workers / sealkit audit --jobs 2 = {:.2} (goal >= 0.90); 2 workers / 1 worker = {:.2}",
        rates[1] / cli_rate,
        rates[1] / rates[0]
    );
}

/// The summary record of `sealkit audit --format jsonl --jobs 2`.
fn cli_summary(sealkit: &Path, dir: &Path, pin: &str) -> serde_json::Value {
    let output = Command::new(sealkit)
        .args([
            "--format",
            "jsonl",
            "audit",
            "--jobs",
            "2",
            "--receipt-key",
            pin,
        ])
        .arg(dir)
        .output()
        .unwrap();
    let last = output
        .stdout
        .split(|&b| b == b'\n')
        .rfind(|l| !l.is_empty())
        .unwrap();
    serde_json::from_slice(last).unwrap()
}

/// One run of python/bench/dask_audit.py: its JSON line.
fn dask(python: &std::ffi::OsStr, dir: &Path, pin: &str, workers: usize) -> serde_json::Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/bench/dask_audit.py");
    let output = Command::new(python)
        .arg(script)
        .arg(dir)
        .arg(pin)
        .arg(workers.to_string())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let last = output
        .stdout
        .split(|&b| b == b'\n')
        .rfind(|l| !l.is_empty())
        .unwrap();
    serde_json::from_slice(last).unwrap()
}
