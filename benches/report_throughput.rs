//! `sealkit report` benchmark: generates a directory of varied receipts with the benches'
//! seeded generator (`support/evidence`, as the audit benchmark does: 100,000 by default,
//! `SEALKIT_BENCH_RECEIPTS=N` to change, `SEALKIT_BENCH_SEED` for another seed; modes 0700 /
//! 0600 as seal-host writes them, head and operation state, a few planted problems; see
//! docs/performance.md, "Benchmark inputs"), then measures with the benchmark build of the
//! binary, one after the other on the same warm directory: `sealkit audit --format jsonl` and `sealkit report` (HTML and `--format json`):
//! wall time, CPU time, peak resident memory and the output size; then, when Chromium is
//! installed, the time until the page is interactive in headless Chromium (the page script
//! records `performance.now()` when its first page of rows is rendered and its filters are
//! live) and the same after a free-text search given in the URL fragment. The load average
//! is printed around each run: the machine may be shared. The planted problems include
//! receipts edited after signing (a BLOCK turned into ALLOW, an argument added), so the page
//! has a few failures among all the good receipts: one of them must be the first row. Goals (issue 23), checked in the same run: peak
//! memory at most 256 MB, page at most 25 MB, interactive in headless Chromium within 3 s,
//! generation within 1.1 x `audit` on the same directory (issue 40), and the report's own memory (its
//! peak resident set minus the audit's on the same directory) at most 100 bytes a receipt.
//! With `SEALKIT_BENCH_KEEP=DIR` it only generates the receipts into `DIR/receipts` (kept,
//! for measuring by hand) and stops; with `SEALKIT_BENCH_DIR=DIR` it measures an existing
//! directory of such receipts (made with the same seed) instead of generating one (read
//! only).
#![allow(clippy::unwrap_used, clippy::expect_used)]

// Only part of the shared measuring helpers is used here.
#[allow(dead_code)]
#[path = "support/child.rs"]
mod child;
#[path = "support/evidence/mod.rs"]
mod evidence;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let installation = evidence::Installation::new(evidence::seed_from_env());
    let count = evidence::count_from_env();
    let temp = tempfile::tempdir().unwrap();
    let dir = match std::env::var_os("SEALKIT_BENCH_DIR").map(PathBuf::from) {
        // An existing directory made by this generator (read only: nothing is written
        // there); the audit's run reads it first, so the report's runs find it as warm.
        Some(dir) => {
            println!("using {}", dir.display());
            dir
        }
        None => match generate(&installation, temp.path(), count) {
            Some(dir) => dir,
            None => return,
        },
    };
    let count = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|entry| {
            (entry.as_ref().ok()).is_some_and(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with("receipt-") && name.ends_with(".json")
            })
        })
        .count();
    let pin = installation.receipt_public_hex();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());

    let mut audit = Command::new(env!("CARGO_BIN_EXE_sealkit"));
    audit
        .args(["audit", "--format", "jsonl", "--receipt-key", &pin])
        .arg(&dir);
    let audit = child::run(audit, Duration::from_millis(20));
    line("sealkit audit --format jsonl", count, &audit, None);

    let page = temp.path().join("report.html");
    let html = report(&dir, &pin, &page, &[]);
    line(
        "sealkit report (HTML)",
        count,
        &html,
        Some(std::fs::metadata(&page).unwrap().len()),
    );
    let json = temp.path().join("report.json");
    let model = report(&dir, &pin, &json, &["--format", "json"]);
    line(
        "sealkit report --format json",
        count,
        &model,
        Some(std::fs::metadata(&json).unwrap().len()),
    );
    let ratio = html.elapsed.as_secs_f64() / audit.elapsed.as_secs_f64();
    println!(
        "report / audit: {ratio:.2} by the clock, {:.2} by CPU time ({jobs} jobs) (goal <= 1.1, issue 40)",
        html.cpu_seconds / audit.cpu_seconds
    );
    // The report's own memory over the audit it runs (the audit's per-receipt state is the
    // audit's to bound): goal at most 100 bytes a receipt.
    for (what, run) in [("HTML", &html), ("--format json", &model)] {
        let own = (run.peak_kb as f64 - audit.peak_kb as f64) * 1024.0;
        println!(
            "report ({what}) RSS - audit RSS: {:.1} MB = {:.0} bytes/receipt (goal <= 100) (load average {})",
            own / 1e6,
            own / count as f64,
            child::load_average()
        );
    }
    let page_bytes = std::fs::metadata(&page).unwrap().len();
    println!(
        "goals: peak RSS {:.0} MB (<= 256: {}), page {:.1} MB (<= 25: {}), report/audit {ratio:.2} (<= 1.1: {})",
        html.peak_kb as f64 / 1024.0,
        html.peak_kb <= 256 * 1024,
        page_bytes as f64 / 1e6,
        page_bytes <= 25_000_000,
        ratio <= 1.1
    );
    let html_text = std::fs::read_to_string(&page).unwrap();
    let first_row = html_text
        .find("<tr class=\"row")
        .map(|at| &html_text[at..at + html_text[at..].find("</tr>").unwrap_or(0)]);
    println!(
        "a receipt that fails is the first row: {}",
        first_row.is_some_and(|row| row.contains("class=\"st failed\""))
    );

    match chromium() {
        Some(browser) => {
            for fragment in ["", "#status=failed", "#order=time&q=db.execute&page=2"] {
                let (wall, ready) = interactive(&browser, &page, fragment);
                println!(
                    "headless Chromium {fragment:?}: interactive after {ready} ms (page script), process done in {:.1} s (goal <= 3 s) (load average {})",
                    wall.as_secs_f64(),
                    child::load_average()
                );
            }
        }
        None => println!("chromium not installed: time to interactive not measured"),
    }
}

/// Generates `count` varied receipts into `base/receipts` (or `SEALKIT_BENCH_KEEP/receipts`,
/// then stops: `None`), with the planted problems, and reads them once (warm).
fn generate(installation: &evidence::Installation, base: &Path, count: usize) -> Option<PathBuf> {
    let keep = std::env::var_os("SEALKIT_BENCH_KEEP").map(PathBuf::from);
    let dir = keep.as_deref().unwrap_or(base).join("receipts");
    let started = Instant::now();
    let plan = evidence::plan::plan(installation, count, 0.0);
    let generated = evidence::receipts::write(installation, &plan, &dir, true);
    println!(
        "generated {} receipts ({:.0} bytes each on average) in {:.1} s; planted: {}",
        generated.files.len(),
        generated.bytes as f64 / generated.files.len().max(1) as f64,
        started.elapsed().as_secs_f64(),
        generated
            .plants
            .iter()
            .map(|(p, _)| format!("{p:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(keep) = keep {
        println!("kept in {}", keep.display());
        return None;
    }
    for file in &generated.files {
        std::hint::black_box(std::fs::read(file).unwrap());
    }
    Some(dir)
}

fn report(dir: &Path, pin: &str, out: &Path, extra: &[&str]) -> child::Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sealkit"));
    command
        .args(extra)
        .arg("report")
        .arg("--out")
        .arg(out)
        .args(["--receipt-key", pin])
        .arg(dir);
    child::run(command, Duration::from_millis(20))
}

fn line(what: &str, count: usize, run: &child::Run, size: Option<u64>) {
    println!(
        "{what}: {count} receipts in {:.2} s = {:.0} receipts/s, CPU {:.1} s, exit {}, peak RSS {:.0} MB{} (load average {} before, {} after)",
        run.elapsed.as_secs_f64(),
        count as f64 / run.elapsed.as_secs_f64(),
        run.cpu_seconds,
        run.status,
        run.peak_kb as f64 / 1024.0,
        size.map(|s| format!(", {:.1} MB written ({:.0} bytes/receipt)", s as f64 / 1e6, s as f64 / count as f64))
            .unwrap_or_default(),
        run.load_before,
        run.load_after,
    );
}

fn chromium() -> Option<PathBuf> {
    let output = Command::new("sh")
        .args(["-c", "command -v chromium"])
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()))
}

/// Loads the page with `fragment`; returns the process's wall time and the page's own
/// `data-ready-ms`.
fn interactive(browser: &Path, page: &Path, fragment: &str) -> (Duration, String) {
    let profile = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{fragment}", page.display()))
        .output()
        .unwrap();
    let wall = started.elapsed();
    let dom = String::from_utf8_lossy(&output.stdout);
    let ready = dom
        .find("data-ready-ms=\"")
        .map(|i| {
            let rest = &dom[i + "data-ready-ms=\"".len()..];
            rest[..rest.find('"').unwrap_or(0)].to_owned()
        })
        .unwrap_or_else(|| "(never: the page script did not finish)".into());
    (wall, ready)
}
