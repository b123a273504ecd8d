//! `verify approval` throughput over a control file of 100,000 varied token lines made by the
//! benches' seeded generator (`support/evidence`; docs/performance.md, "Benchmark inputs"):
//! the approvals and signed declines a host's approvers gave over many sessions, each for its
//! own frame and guard target, shown by `sealkit approve`'s renderer or seal's approve CLI,
//! by several approvers, all under the installation's approval key, with five planted
//! problems (an edited payload, leading whitespace, a replayed nonce, a line signed by
//! another key, a decline beside an approval), so the binary exits 1. Measured against the
//! raw single-signature ed25519-dalek verification rate over the same lines' preimages in
//! the same run (issue 40's goal: 50,000 tokens/s per core, end to end).
//!
//! Each measurement is the best of [`ROUNDS`] rounds, timed by the clock and by the CPU time
//! it used (this process's user + system time for work in the bench, the child's for the
//! binary), with the load average beside it: on a loaded machine the clock also counts waiting
//! for a core, so the CPU time is the measure of work per line.
//!
//! - the limits: `VerifyingKey::verify` over the lines' precomputed (preimage, signature)
//!   pairs, one thread; and the same pairs checked together by `signature::batch` in
//!   batches of 2,048 (the command's), one thread: what checking the signatures alone costs
//!   `verify approval` (issue 40's goal is about 0.93 of it);
//! - the pipeline: the whole per-line pipeline of `sealkit verify approval` (line splitting,
//!   seal-host's token checks, batched signatures, nonce reuse, report records; output
//!   excluded) on a one-thread rayon pool;
//! - end to end: the benchmark build of `sealkit verify approval --pubkey KEY` over the same
//!   lines written to a file (no `--frame` or `--target`: every line is for its own call),
//!   once per output format (human, json, jsonl) with output to `/dev/null`: tokens/s per
//!   core = lines / (user + system time), µs of CPU per line, the ratio to the raw verify
//!   rate, wall time on the machine's cores, and peak resident memory (VmHWM; goal: no more
//!   than before, ~29 MB, and never growing with the file); with `SEALKIT_BENCH_BEFORE`, the
//!   same for the other build and this build's CPU and clock time over its.
//!
//! Run: `cargo bench --bench verify_approval` (a few minutes). `SEALKIT_BENCH_TOKENS=N`
//! changes the number of lines, `SEALKIT_BENCH_SEED` the seed;
//! `SEALKIT_BENCH_BINARY=DIR/sealkit` measures another build instead of this one;
//! `SEALKIT_BENCH_BEFORE=DIR/sealkit` measures a second build (e.g. the one before a change)
//! in alternate rounds with it and prints the CPU and clock ratios of the two;
//! `SEALKIT_BENCH_WRITE=DIR` writes the corpus (`tokens.ndjson`, `pubkey.hex`) for profiling
//! and exits.

#![allow(clippy::unwrap_used, clippy::expect_used)]

// Not every shared helper is used here (not `per_second`).
#[allow(dead_code)]
#[path = "support/child.rs"]
mod child;
#[path = "support/evidence/mod.rs"]
mod evidence;

use child::Best;
use ed25519_dalek::{Signature, Verifier};
use sealkit::approval::binding::Expectations;
use sealkit::approval::line_reports::{Checker, TokenStatus};
use sealkit::signature::batch::{verify_each, BatchKey, Claim};
use sealkit::tokenfile::{Batch, LineReader};
use std::hint::black_box;
use std::io::Cursor;
use std::time::{Duration, Instant};

/// Rounds of each measurement; the best is kept.
const ROUNDS: usize = 3;
/// The goal of issue 40, tokens per second per core.
const GOAL_PER_CORE: f64 = 50_000.0;

struct Corpus {
    public: sealkit::keys::PublicKey,
    file: Vec<u8>,
    lines: usize,
    /// Lines `verify approval` must accept.
    accepted: u64,
    raw: Vec<(Vec<u8>, Signature)>,
}

fn corpus() -> Corpus {
    let tokens: usize = std::env::var("SEALKIT_BENCH_TOKENS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    let installation = evidence::Installation::new(evidence::seed_from_env());
    // About one decision in seven gets an approver's answer.
    let plan = evidence::plan::plan(&installation, tokens * 8 + 1_000, 0.0);
    let started = Instant::now();
    let file = evidence::tokens::file(&installation, &plan, tokens, true);
    let raw = file
        .signed
        .iter()
        .map(|(message, signature)| (message.clone(), Signature::from_bytes(signature)))
        .collect();
    let expected = &file.expected;
    println!(
        "generated {} token lines ({} signed declines; planted rejections {:?}, conflicts {}) in {:.1} s",
        expected.lines,
        expected.accepted_declines,
        expected.rejected,
        expected.conflicts.len(),
        started.elapsed().as_secs_f64()
    );
    Corpus {
        public: installation.approval.public.clone(),
        lines: expected.lines,
        accepted: (expected.lines - expected.rejected.len()) as u64,
        file: file.bytes,
        raw,
    }
}

fn pipeline(corpus: &Corpus) -> u64 {
    let expected = Expectations {
        subject: None,
        target: None,
        now_ms: None,
        ttl_ms: 120_000,
    };
    let mut checker = Checker::new(&corpus.public, expected);
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
        LINES.load(std::sync::atomic::Ordering::Relaxed) as f64 / seconds.as_secs_f64()
    }
}

/// The number of lines the rates are per (set once the corpus is made).
static LINES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(1);

fn write_corpus(corpus: &Corpus, dir: &std::path::Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("tokens.ndjson"), &corpus.file).unwrap();
    std::fs::write(dir.join("pubkey.hex"), &corpus.public.hex).unwrap();
}

fn main() {
    let corpus = corpus();
    LINES.store(corpus.lines, std::sync::atomic::Ordering::Relaxed);
    if let Some(dir) = std::env::var_os("SEALKIT_BENCH_WRITE") {
        let dir = std::path::PathBuf::from(dir);
        write_corpus(&corpus, &dir);
        println!(
            "wrote {}; run: sealkit verify approval --pubkey {} {}",
            dir.display(),
            corpus.public.hex,
            dir.join("tokens.ndjson").display()
        );
        return;
    }
    assert_eq!(
        pipeline(&corpus),
        corpus.accepted,
        "every line but the planted ones is accepted"
    );
    let verifying = corpus.public.verifying;
    let raw = Best::in_process(|| {
        // Every approval line as it was signed (the planted edits come after): all verify.
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
    // The batch limit: the same signatures checked together as `verify approval` checks them
    // (`signature::batch`, batches of the command's 2,048 lines), one thread, nothing else.
    let key = BatchKey::new(&verifying);
    let batched = Best::in_process(|| {
        pool.install(|| {
            for chunk in corpus.raw.chunks(2048) {
                let messages: Vec<[&[u8]; 1]> = chunk
                    .iter()
                    .map(|(message, _)| [message.as_slice()])
                    .collect();
                let signatures: Vec<[u8; 64]> = chunk
                    .iter()
                    .map(|(_, signature)| signature.to_bytes())
                    .collect();
                let claims: Vec<Claim> = messages
                    .iter()
                    .zip(&signatures)
                    .map(|(message, signature)| Claim {
                        message: &message[..],
                        signature: &signature[..],
                    })
                    .collect();
                let results = verify_each(&key, &claims);
                assert!(black_box(results).iter().all(Result::is_ok));
            }
        });
    });
    let batch_cpu = Best::rate(batched.cpu);
    println!(
        "batch limit (signature::batch, 2,048 a batch), one thread: {batch_cpu:.0} signatures/s \
         by CPU time ({:.1} µs each, {:.2} x raw), {:.0}/s by the clock (load average {:.2})",
        1e6 / batch_cpu,
        batch_cpu / raw_cpu,
        Best::rate(batched.time),
        batched.load
    );
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
    end_to_end(&corpus, raw_cpu, raw_clock, batch_cpu);
}

/// The release binary over the corpus, per output format: CPU per line, tokens/s per core,
/// wall time and peak memory.
fn end_to_end(corpus: &Corpus, raw_cpu: f64, raw_clock: f64, batch_cpu: f64) {
    let dir = tempfile::tempdir().unwrap();
    write_corpus(corpus, dir.path());
    let binary = std::env::var("SEALKIT_BENCH_BINARY")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sealkit").to_owned());
    println!(
        "end to end: {binary} over {} lines ({:.1} MB), output to /dev/null; goal \
         {GOAL_PER_CORE:.0} tokens/s per core (20 µs of CPU per line)",
        corpus.lines,
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
                .arg(&corpus.public.hex)
                .arg(dir.path().join("tokens.ndjson"));
            let run = child::run(command, Duration::from_millis(20));
            assert_eq!(run.status, 1, "the planted lines are rejected");
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
                 a line, {:.2} x raw verify, {:.2} x the batch limit, {}) ; {:.2} s by the \
                 clock = {:.0} tokens/s = {:.2} x raw verify's clock rate (load average {:.2}); \
                 peak RSS {:.1} MB",
                1e6 / per_core,
                per_core / raw_cpu,
                per_core / batch_cpu,
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
