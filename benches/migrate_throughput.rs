//! Migration throughput benchmark. Generates receipts shaped like the
//! legacy-vs-current fixtures — half record_version 3 (signed with sealkit's own
//! `receipt::preimage::sign`, from the NEW M2 receipt), half record_version 2 (from the OLD M2
//! receipt) — each for its own frame (F05 with a distinct `id`), plus one capture holding
//! every frame. Then it measures, in one run: the per-receipt limits on one core (all
//! receipt checks, frame analysis, the whole migration of one receipt), and
//! `sealkit migrate --format jsonl` on the whole set and on a quarter of it: receipts/s by
//! the wall clock, the CPU time it used (user + system, from this process's `cutime` /
//! `cstime` after the wait) and the two-core rate that implies, peak resident memory read
//! from the child's VmHWM, and the load average around each run. Goal: ≥ 10,000 receipts/s
//! on two cores; memory independent of the number of receipts apart from the frame index.
//! On a machine other work is loading, the CPU-based rate is the figure to compare.
//!
//! `SEALKIT_BENCH_RECEIPTS=N` changes the count (default 100,000).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "support/child.rs"]
mod child;

use base64::Engine as _;
use rayon::prelude::*;
use sealkit::digest::sha256_hex;
use sealkit::receipt::{self, preimage};
use serde_json::{Map, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const FIXTURES: &str = "testdata/receipts/legacy-vs-current";
const NEW_TEMPLATE: &str = "new/receipts/receipt-00000000000000000001-120d377234da4be343ce9be68bdb03ac0002724f693c465b75b5812b46344918.json";
const OLD_TEMPLATE: &str = "old/receipts/receipt-00000000000000000003-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
const SEED: &str = "new/receipts/.seal-receipt-ed25519.key";
const FRAME: &str = "frames/F05.frame";

struct Work(PathBuf);

impl Work {
    fn path(&self) -> &Path {
        &self.0
    }
}

struct Template {
    map: Map<String, Value>,
    frame: Vec<u8>,
}

fn main() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURES);
    let count: usize = std::env::var("SEALKIT_BENCH_RECEIPTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let seed: [u8; 32] = std::fs::read(fixtures.join(SEED))
        .unwrap()
        .try_into()
        .unwrap();
    let frame = std::fs::read(fixtures.join(FRAME)).unwrap();
    let template = |name: &str| Template {
        map: receipt::parse(&std::fs::read(fixtures.join(name)).unwrap()).unwrap(),
        frame: frame.clone(),
    };
    let (new, old) = (template(NEW_TEMPLATE), template(OLD_TEMPLATE));

    // SEALKIT_BENCH_DIR keeps the generated data (for profiling); default a temporary dir.
    let temp = tempfile::tempdir().unwrap();
    let work = Work(
        std::env::var_os("SEALKIT_BENCH_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| temp.path().to_path_buf()),
    );
    let started = Instant::now();
    let (all, quarter) = (work.path().join("all"), work.path().join("quarter"));
    std::fs::create_dir_all(&all).unwrap();
    std::fs::create_dir_all(&quarter).unwrap();
    let frames: Vec<Vec<u8>> = (0..count)
        .into_par_iter()
        .map(|i| {
            let (template, signed) = if i % 2 == 0 {
                (&new, true)
            } else {
                (&old, false)
            };
            let (bytes, frame, hash) = generate(template, i, signed.then_some(&seed));
            let name = format!("receipt-{i:020}-{hash}.json");
            std::fs::write(all.join(&name), &bytes).unwrap();
            if i < count / 4 {
                std::fs::write(quarter.join(&name), &bytes).unwrap();
            }
            frame
        })
        .collect();
    let capture = work.path().join("session.capture");
    let quarter_capture = work.path().join("quarter.capture");
    write_capture(&capture, &frames);
    write_capture(&quarter_capture, &frames[..count / 4]);
    println!(
        "generated {count} receipts (half record_version 3 signed, half record_version 2) and a capture of {count} frames in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Per-receipt limits on one core, in memory.
    let sample: Vec<(String, Vec<u8>)> = std::fs::read_dir(&all)
        .unwrap()
        .take(4000)
        .map(|e| {
            let path = e.unwrap().path();
            (path.display().to_string(), std::fs::read(&path).unwrap())
        })
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
            assert!(!matches!(
                record.label,
                sealkit::migrate::Label::ReceiptInvalid
                    | sealkit::migrate::Label::FrameUnrecoverable
                    | sealkit::migrate::Label::FrameMismatch
            ));
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
    for entry in std::fs::read_dir(&all).unwrap() {
        std::hint::black_box(std::fs::read(entry.unwrap().path()).unwrap());
    }
    for (dir, capture, n) in [
        (&quarter, &quarter_capture, count / 4),
        (&all, &capture, count),
    ] {
        let out = work.path().join(format!("out-{n}"));
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

/// One receipt for frame number `i`: the template's frame with `"id":"g-<i>"`, every digest
/// that depends on the frame replaced, signed when a seed is given.
fn generate(template: &Template, i: usize, seed: Option<&[u8; 32]>) -> (Vec<u8>, Vec<u8>, String) {
    let id = format!("\"g-{i:08}\"");
    let text = String::from_utf8(template.frame.clone()).unwrap();
    let frame = text.replacen("\"call-2\"", &id, 1).into_bytes();
    let line = sealkit::frame::request_line(&frame);
    let map = &template.map;
    let field = |name: &str| map[name].as_str().unwrap().to_owned();
    let mut json = serde_json::to_string(map).unwrap();
    json = json
        .replace(&field("request_sha256"), &sha256_hex(line))
        .replace(&field("framed_subject_sha256"), &sha256_hex(&frame));
    let length = map["framed_subject_length"].as_u64().unwrap();
    json = json.replace(
        &format!("\"framed_subject_length\":{length}"),
        &format!("\"framed_subject_length\":{}", frame.len()),
    );
    let b64 = base64::engine::general_purpose::STANDARD;
    if let Some(object_a) = map
        .get("signed_artifacts")
        .and_then(|a| a.get("object_a"))
        .and_then(Value::as_str)
    {
        json = json.replace(object_a, &b64.encode(&frame));
    }
    let mut receipt: Map<String, Value> = serde_json::from_str(&json).unwrap();
    receipt.insert(
        "now".into(),
        Value::from(map["now"].as_u64().unwrap() + i as u64),
    );
    if let Some(seed) = seed {
        preimage::sign(&mut receipt, seed).unwrap();
    }
    let hash = receipt["canonical_request_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    (preimage::to_file_bytes(&receipt), frame, hash)
}

fn write_capture(path: &Path, frames: &[Vec<u8>]) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    file.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"server/discover\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}}}\n").unwrap();
    for frame in frames {
        file.write_all(frame).unwrap();
    }
    file.flush().unwrap();
}

/// Runs the release binary, polling the child's VmHWM while it runs.
fn run_migrate(dir: &Path, capture: &Path, out: &PathBuf) -> child::Run {
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
