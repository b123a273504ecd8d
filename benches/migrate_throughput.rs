//! Migration throughput benchmark. Generates, with the benches' seeded generator
//! (`support/evidence`; docs/performance.md, "Benchmark inputs"), a receipt directory that
//! spans a host upgrade — the sessions of the first half written by the `_meta`-blind host
//! (record_version 2, unsigned), the rest by the current one (record_version 3, signed) —
//! with varied requests, tools, argument sizes, `_meta`, allows, blocks and released calls and
//! a few planted problems, and the capture of every session's frames; a second directory of a
//! quarter of the size with its own capture. Then it measures, in one run: the per-receipt
//! limits on one core (all receipt checks, frame analysis, the whole migration of one
//! receipt), and `sealkit migrate --format jsonl` on both: receipts/s by the wall clock, the
//! CPU time it used (user + system, from this process's `cutime` / `cstime` after the wait)
//! and the two-core rate that implies, peak resident memory read from the child's VmHWM, and
//! the load average around each run. Goal: ≥ 10,000 receipts/s on two cores; memory
//! independent of the number of receipts apart from the frame index. On a machine other work
//! is loading, the CPU-based rate is the figure to compare.
//!
//! `SEALKIT_BENCH_RECEIPTS=N` changes the count (default 100,000), `SEALKIT_BENCH_SEED` the
//! seed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/child.rs"]
mod child;
#[path = "support/evidence/mod.rs"]
mod evidence;

use sealkit::receipt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let count = evidence::count_from_env();
    let installation = evidence::Installation::new(evidence::seed_from_env());

    // SEALKIT_BENCH_DIR keeps the generated data (for profiling); default a temporary dir.
    let temp = tempfile::tempdir().unwrap();
    let work = evidence::dir_from_env(temp.path());
    let started = Instant::now();
    let (all, capture, plan, planted) = generate(&installation, &work, "all", count);
    let (quarter, quarter_capture, _, _) = generate(&installation, &work, "quarter", count / 4);
    let frames: Vec<Vec<u8>> = (0..plan.requests.len().min(20_000))
        .map(|r| evidence::frames::build(&plan, installation.seed, r))
        .collect();
    println!(
        "generated {count} receipts (the first half's sessions record_version 2, the rest record_version 3 signed) with the capture of every frame, and a quarter-size set, in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Per-receipt limits on one core, in memory.
    let sample: Vec<(String, Vec<u8>)> = std::fs::read_dir(&all)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("receipt-")
        })
        .take(4000)
        .map(|path| (path.display().to_string(), std::fs::read(&path).unwrap()))
        .collect();
    let checks = child::per_second(sample.len(), || {
        let mut scratch = receipt::Scratch::default();
        for (_, bytes) in &sample {
            std::hint::black_box(receipt::verify_bytes(bytes, None, &mut scratch).unwrap());
        }
    });
    let analysis = child::per_second(frames.len().min(20_000), || {
        let options = sealkit::request::Options::default();
        for frame in frames.iter().take(20_000) {
            std::hint::black_box(sealkit::request::analyze(
                frame,
                &options,
                &mut sealkit::request::Session::default(),
            ));
        }
    });
    let mut index = sealkit::migrate::frames::FrameIndex::new();
    index
        .add_capture("c", std::fs::File::open(&capture).unwrap())
        .unwrap();
    let whole = child::per_second(sample.len(), || {
        let mut scratch = receipt::Scratch::default();
        for (name, bytes) in &sample {
            let record = sealkit::migrate::migrate_receipt(
                name,
                None,
                Ok(bytes),
                &index,
                &Default::default(),
                &mut scratch,
            );
            // Only a receipt planted as damaged may be invalid.
            assert!(
                !matches!(
                    record.label,
                    sealkit::migrate::Label::ReceiptInvalid
                        | sealkit::migrate::Label::FrameUnrecoverable
                        | sealkit::migrate::Label::FrameMismatch
                ) || planted.iter().any(|p| p.to_str() == Some(name.as_str())),
                "{name}: {:?}",
                record.label
            );
            std::hint::black_box(serde_json::to_vec(&record).unwrap());
        }
    });
    drop(index);
    println!(
        "per-receipt limits on one core (receipts/s, in memory; load average {}):",
        child::load_average()
    );
    println!("  all receipt checks           {checks:>10.0}");
    println!("  frame validation + identities  {analysis:>10.0}");
    println!(
        "  whole migration of one receipt {whole:>10.0}  (checks, lookup, analysis, JSON record)"
    );

    // Warm the page cache so the runs read from memory.
    for dir in [&all, &quarter] {
        for entry in std::fs::read_dir(dir).unwrap() {
            std::hint::black_box(std::fs::read(entry.unwrap().path()).unwrap());
        }
    }
    for (dir, capture, n) in [
        (&quarter, &quarter_capture, receipts_in(&quarter)),
        (&all, &capture, receipts_in(&all)),
    ] {
        let out = work.join(format!("out-{n}"));
        let run = run_migrate(dir, capture, &out);
        let rate = n as f64 / run.elapsed.as_secs_f64();
        let cpu_us = run.cpu_seconds * 1e6 / n as f64;
        let capture_mb = std::fs::metadata(capture).unwrap().len() as f64 / 1e6;
        println!(
            "sealkit migrate: {n} receipts in {:.2} s = {rate:.0} receipts/s (load average {} before, {} after; exit {}), peak RSS {:.1} MB (capture {capture_mb:.1} MB)",
            run.elapsed.as_secs_f64(),
            run.load_before,
            run.load_after,
            run.status,
            run.peak_kb as f64 / 1024.0,
        );
        println!(
            "  CPU {cpu_us:.0} µs/receipt = {:.0} receipts/s on two idle cores; rate / (2 × one-core whole-migration limit) = {:.2} by the clock, {:.2} by CPU time",
            2e6 / cpu_us,
            rate / (2.0 * whole),
            1e6 / cpu_us / whole
        );
    }
}

/// Writes `count` receipts into `work/name` and their capture beside it; returns the
/// directory, the capture, the plan and the files planted as damaged.
fn generate(
    installation: &evidence::Installation,
    work: &Path,
    name: &str,
    count: usize,
) -> (PathBuf, PathBuf, evidence::plan::Plan, Vec<PathBuf>) {
    let plan = evidence::plan::plan(installation, count, 0.5);
    let dir = evidence::receipts::write(installation, &plan, &work.join(name), true);
    let capture = evidence::captures::capture(installation, &plan, true);
    let capture_path = work.join(format!("{name}.capture"));
    std::fs::write(&capture_path, &capture.bytes).unwrap();
    let damaged = dir
        .plants
        .iter()
        .filter(|(plant, _)| plant.fails())
        .map(|(_, path)| path.clone())
        .collect();
    (dir.path, capture_path, plan, damaged)
}

fn receipts_in(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            let name = e
                .as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .into_owned();
            name.starts_with("receipt-") && name.ends_with(".json")
        })
        .count()
}

/// Runs the release binary, polling the child's VmHWM while it runs.
fn run_migrate(dir: &Path, capture: &Path, out: &Path) -> child::Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sealkit"));
    command
        .arg("migrate")
        .arg(dir)
        .arg("--frames")
        .arg(capture)
        .arg("--out")
        .arg(out)
        .args(["--format", "jsonl"]);
    child::run(command, Duration::from_millis(5))
}
