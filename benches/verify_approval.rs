//! `verify approval` throughput over 100,000 token lines signed by one key, against the raw
//! single-signature ed25519-dalek verification rate measured in the same run (issue 28's goal:
//! 40,000 tokens/s per core, end to end).
//!
//! Each measurement is the best of [`ROUNDS`] rounds, timed by the clock and by the CPU time
//! it used (this process's user + system time for work in the bench, the child's for the
//! binary), with the load average beside it: on a loaded machine the clock also counts waiting
//! for a core, so the CPU time is the measure of work per line.
//!
//! - the limit: `VerifyingKey::verify` over the 100,000 precomputed (preimage, signature)
//!   pairs, one thread;
//! - the pipeline: the whole per-line pipeline of `sealkit verify approval` (line splitting,
//!   seal-host's token checks, batched signatures, binding to a frame and target, nonce reuse,
//!   report records; output excluded) on a one-thread rayon pool;
//! - end to end: the release binary `sealkit verify approval --frame --target` over the same
//!   lines written to a file, once per output format (human, json, jsonl) with output to
//!   `/dev/null`: tokens/s per core = lines / (user + system time), µs of CPU per line, the
//!   ratio to the raw verify rate, wall time on the machine's cores, and peak resident memory
//!   (VmHWM; goal: no more than before, ~29 MB, and never growing with the file); with
//!   `SEALKIT_BENCH_BEFORE`, the same for the other build and this build's CPU and clock
//!   time over its.
//!
//! Run: `cargo bench --bench verify_approval` (a few minutes). `SEALKIT_BENCH_BINARY=DIR/sealkit`
//! measures another build instead of this one; `SEALKIT_BENCH_BEFORE=DIR/sealkit` measures a
//! second build (e.g. the one before a change) in alternate rounds with it and prints the CPU
//! and clock ratios of the two (either file named `sealkit`: the memory poll looks for that
//! process name); `SEALKIT_BENCH_WRITE=DIR` writes the corpus (`tokens.ndjson`, `call.frame`,
//! `pubkey.hex`) for profiling and exits.

#![allow(clippy::unwrap_used, clippy::expect_used)]

// Not every shared helper is used here (not `per_second`).
#[allow(dead_code)]
#[path = "support/child.rs"]
mod child;

use child::Best;
use ed25519_dalek::{Signature, Verifier};
use sealkit::approval::binding::{Expectations, Subject};
use sealkit::approval::line_reports::{Checker, TokenStatus};
use sealkit::approval::sign::{sign_approval, ApprovalInputs};
use sealkit::approval::{preimage, Renderer};
use sealkit::keys::SecretKey;
use sealkit::tokenfile::{Batch, LineReader};
use std::hint::black_box;
use std::io::Cursor;
use std::time::{Duration, Instant};

/// Rounds of each measurement; the best is kept.
const ROUNDS: usize = 3;
/// The goal of issue 28, tokens per second per core.
const GOAL_PER_CORE: f64 = 40_000.0;
const LINES: usize = 100_000;
const FRAME: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"arguments\":{\"database\":\"prod\",\"sql\":\"drop table customers\"}}}\n";
const TARGET: &str = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";

struct Corpus {
    key: SecretKey,
    file: Vec<u8>,
    raw: Vec<(Vec<u8>, Signature)>,
}

fn corpus() -> Corpus {
    let key = SecretKey::from_seed(&[0x17; 32]);
    let mut file = Vec::with_capacity(LINES * 1400);
    let mut raw = Vec::with_capacity(LINES);
    for index in 0..LINES {
        let inputs = ApprovalInputs {
            target: TARGET.to_owned(),
            authorized_at: 1_786_000_000_000 + index as u64,
            expiry: 1_786_000_120_000 + index as u64,
            nonce: format!("bench-nonce-{index}"),
            session: "bench-session".to_owned(),
            subject: Subject::of(FRAME),
            shown: Subject::of(b"shown text"),
            renderer: Renderer {
                name: "bench".to_owned(),
                version: "1".to_owned(),
                manifest_sha256: "0".repeat(64),
            },
            approver: "bench approver".to_owned(),
        };
        let signed = sign_approval(&key, &inputs).expect("bench token signs");
        file.extend_from_slice(signed.line.as_bytes());
        file.push(b'\n');
        let canonical = signed.payload.canonical_bytes().expect("renders");
        let token: serde_json::Value = serde_json::from_str(&signed.line).expect("json");
        let signature = sealkit::signature::decode_base64url_nopad(
            token["signature"].as_str().expect("signature"),
        )
        .expect("base64url");
        let signature = Signature::from_slice(&signature).expect("64 bytes");
        raw.push((preimage(&canonical), signature));
    }
    Corpus { key, file, raw }
}

fn pipeline(corpus: &Corpus) -> u64 {
    let expected = Expectations {
        subject: Some(Subject::of(FRAME)),
        target: Some(TARGET.to_owned()),
        now_ms: None,
        ttl_ms: 120_000,
    };
    let mut checker = Checker::new(&corpus.key.public, expected);
    let mut reader = LineReader::new(Cursor::new(corpus.file.as_slice()));
    let mut accepted = 0;
    let mut batch = Batch::default();
    loop {
        reader.next_batch(&mut batch, 4096).expect("in memory");
        if batch.lines.is_empty() {
            return accepted;
        }
        for report in checker.check_batch(&batch) {
            accepted += u64::from(report.status == TokenStatus::Accepted);
        }
    }
}

impl Best {
    /// The best of [`ROUNDS`] rounds.
    fn of(mut round: impl FnMut() -> (Duration, Duration)) -> Best {
        let mut best: Option<Best> = None;
        for _ in 0..ROUNDS {
            Best::keep(&mut best, round());
        }
        best.expect("at least one round")
    }

    /// Clock and CPU time of `work` in this process.
    fn in_process(mut work: impl FnMut()) -> Best {
        Best::of(|| {
            let (start, cpu) = (Instant::now(), child::own_cpu_seconds());
            work();
            (
                start.elapsed(),
                Duration::from_secs_f64(child::own_cpu_seconds() - cpu),
            )
        })
    }

    fn rate(seconds: Duration) -> f64 {
        LINES as f64 / seconds.as_secs_f64()
    }
}

fn write_corpus(corpus: &Corpus, dir: &std::path::Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("tokens.ndjson"), &corpus.file).unwrap();
    std::fs::write(dir.join("call.frame"), FRAME).unwrap();
    std::fs::write(dir.join("pubkey.hex"), &corpus.key.public.hex).unwrap();
}

fn main() {
    let corpus = corpus();
    if let Some(dir) = std::env::var_os("SEALKIT_BENCH_WRITE") {
        let dir = std::path::PathBuf::from(dir);
        write_corpus(&corpus, &dir);
        println!(
            "wrote {}; run: sealkit verify approval --pubkey {} --target {TARGET} --frame {} {}",
            dir.display(),
            corpus.key.public.hex,
            dir.join("call.frame").display(),
            dir.join("tokens.ndjson").display()
        );
        return;
    }
    assert_eq!(
        pipeline(&corpus),
        LINES as u64,
        "every bench token is accepted"
    );
    let verifying = corpus.key.public.verifying;
    let raw = Best::in_process(|| {
        for (message, signature) in &corpus.raw {
            black_box(verifying.verify(message, signature)).expect("valid");
        }
    });
    let (raw_clock, raw_cpu) = (Best::rate(raw.time), Best::rate(raw.cpu));
    println!(
        "raw ed25519-dalek verify, one thread: {raw_cpu:.0} signatures/s by CPU time \
         ({:.1} µs each), {raw_clock:.0}/s by the clock (load average {:.2})",
        1e6 / raw_cpu,
        raw.load
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("thread pool");
    let piped = Best::in_process(|| {
        pool.install(|| black_box(pipeline(&corpus)));
    });
    println!(
        "pipeline (output excluded), one thread: {:.0} tokens/s by CPU time = {:.2} x raw; \
         {:.0}/s by the clock = {:.2} x raw (load average {:.2})",
        Best::rate(piped.cpu),
        Best::rate(piped.cpu) / raw_cpu,
        Best::rate(piped.time),
        Best::rate(piped.time) / raw_clock,
        piped.load
    );
    end_to_end(&corpus, raw_cpu, raw_clock);
}

/// The release binary over the corpus, per output format: CPU per line, tokens/s per core,
/// wall time and peak memory.
fn end_to_end(corpus: &Corpus, raw_cpu: f64, raw_clock: f64) {
    let dir = tempfile::tempdir().unwrap();
    write_corpus(corpus, dir.path());
    let binary = std::env::var("SEALKIT_BENCH_BINARY")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sealkit").to_owned());
    println!(
        "end to end: {binary} over {LINES} lines ({:.1} MB), output to /dev/null; goal \
         {GOAL_PER_CORE:.0} tokens/s per core (25 µs of CPU per line)",
        corpus.file.len() as f64 / 1e6
    );
    // Another build (e.g. the one before a change), run in alternate rounds with this one so
    // both see the same load.
    let before = std::env::var("SEALKIT_BENCH_BEFORE").ok();
    if let Some(before) = &before {
        println!("  before: {before}, in alternate rounds");
    }
    for format in ["human", "json", "jsonl"] {
        let run = |binary: &str, peak_kb: &mut u64| {
            let mut command = std::process::Command::new(binary);
            command
                .args(["verify", "approval", "--format", format, "--pubkey"])
                .arg(&corpus.key.public.hex)
                .args(["--target", TARGET, "--frame"])
                .arg(dir.path().join("call.frame"))
                .arg(dir.path().join("tokens.ndjson"));
            let run = child::run(command, Duration::from_millis(20));
            assert_eq!(run.status, 0, "every bench token is accepted");
            *peak_kb = (*peak_kb).max(run.peak_kb);
            (run.elapsed, Duration::from_secs_f64(run.cpu_seconds))
        };
        let (mut best, mut best_before) = (None, None);
        let (mut peak_kb, mut peak_before_kb) = (0, 0);
        for _ in 0..ROUNDS {
            if let Some(before) = &before {
                Best::keep(&mut best_before, run(before, &mut peak_before_kb));
            }
            Best::keep(&mut best, run(&binary, &mut peak_kb));
        }
        let best = best.expect("at least one round");
        let line = |name: &str, best: Best, peak_kb: u64| {
            let per_core = Best::rate(best.cpu);
            println!(
                "  --format {format}{name}: {per_core:.0} tokens/s per core by CPU time ({:.1} µs \
                 a line, {:.2} x raw verify, {}) ; {:.2} s by the clock = {:.0} tokens/s = \
                 {:.2} x raw verify's clock rate (load average {:.2}); peak RSS {:.1} MB",
                1e6 / per_core,
                per_core / raw_cpu,
                if per_core >= GOAL_PER_CORE {
                    "goal met"
                } else {
                    "goal NOT met"
                },
                best.time.as_secs_f64(),
                Best::rate(best.time),
                Best::rate(best.time) / raw_clock,
                best.load,
                peak_kb as f64 / 1024.0
            );
        };
        line("", best, peak_kb);
        if let Some(old) = best_before {
            line(" (before)", old, peak_before_kb);
            println!(
                "  --format {format}: this build / before = {:.3} by CPU time, {:.3} by the \
                 clock (load average {:.2})",
                best.cpu.as_secs_f64() / old.cpu.as_secs_f64(),
                best.time.as_secs_f64() / old.time.as_secs_f64(),
                best.load
            );
        }
    }
}
