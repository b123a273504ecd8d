//! `verify approval` throughput over 100,000 token lines signed by one key, against the raw
//! single-signature ed25519-dalek verification rate measured in the same run.
//!
//! - `raw_ed25519_verify`: `VerifyingKey::verify` over the 100,000 precomputed
//!   (preimage, signature) pairs, one core — the limit.
//! - `pipeline_1_thread` / `pipeline_2_threads`: the whole per-line pipeline of
//!   `sealkit verify approval` (line splitting, seal-host's token checks, binding to a frame
//!   and target, nonce reuse, report records) on a rayon pool of that size; output
//!   serialisation excluded.
//!
//! After the measurements the ratios pipeline / raw are printed from criterion's estimates.
//!
//! Then the release binary runs `sealkit verify approval` over the same 100,000 lines written
//! to a file, once per output format (human, json, jsonl), and its peak resident memory
//! (VmHWM) is printed with the load average around each run. Goal: at most 64 MB in every
//! format (memory must not grow with the number of lines).
//!
//! Run: `cargo bench --bench verify_approval`; `SEALKIT_BENCH_MEMORY_ONLY=1` skips the
//! criterion measurements.

#![allow(clippy::unwrap_used, clippy::expect_used)]

// Only `run` is used here (not `per_second`).
#[allow(dead_code)]
#[path = "support/child.rs"]
mod child;

use criterion::{criterion_group, Criterion, Throughput};
use ed25519_dalek::{Signature, Verifier};
use sealkit::approval::binding::{Expectations, Subject};
use sealkit::approval::line_reports::{Checker, TokenStatus};
use sealkit::approval::sign::{sign_approval, ApprovalInputs};
use sealkit::approval::{preimage, Renderer};
use sealkit::keys::SecretKey;
use sealkit::tokenfile::{Batch, LineReader};
use std::hint::black_box;
use std::io::Cursor;
use std::time::Duration;

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

fn bench(c: &mut Criterion) {
    let corpus = corpus();
    assert_eq!(
        pipeline(&corpus),
        LINES as u64,
        "every bench token is accepted"
    );
    let mut group = c.benchmark_group("verify_approval_100k");
    group.throughput(Throughput::Elements(LINES as u64));
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(40));
    let verifying = corpus.key.public.verifying;
    group.bench_function("raw_ed25519_verify", |b| {
        b.iter(|| {
            for (message, signature) in &corpus.raw {
                black_box(verifying.verify(message, signature)).expect("valid");
            }
        })
    });
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        let name = format!(
            "pipeline_{threads}_thread{}",
            if threads == 1 { "" } else { "s" }
        );
        group.bench_function(name, |b| {
            b.iter(|| pool.install(|| black_box(pipeline(&corpus))))
        });
    }
    group.finish();
}

/// Mean time per iteration of one benchmark from criterion's saved estimates.
fn mean_seconds(name: &str) -> Option<f64> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/criterion/verify_approval_100k")
        .join(name)
        .join("new/estimates.json");
    let estimates: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    Some(estimates["mean"]["point_estimate"].as_f64()? / 1e9)
}

fn ratios() {
    let Some(raw) = mean_seconds("raw_ed25519_verify") else {
        return;
    };
    let rate = |seconds: f64| LINES as f64 / seconds;
    println!(
        "raw ed25519-dalek verify: {:.0} signatures/s (one core)",
        rate(raw)
    );
    for name in ["pipeline_1_thread", "pipeline_2_threads"] {
        if let Some(seconds) = mean_seconds(name) {
            println!(
                "{name}: {:.0} tokens/s = {:.1}% of the raw single-verify rate",
                rate(seconds),
                100.0 * raw / seconds
            );
        }
    }
}

criterion_group!(benches, bench);

/// Peak memory of the release binary over the corpus, per output format.
fn memory(corpus: &Corpus) {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    let frame = dir.path().join("call.frame");
    std::fs::write(&tokens, &corpus.file).unwrap();
    std::fs::write(&frame, FRAME).unwrap();
    for format in ["human", "json", "jsonl"] {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_sealkit"));
        command
            .args(["verify", "approval", "--format", format, "--pubkey"])
            .arg(&corpus.key.public.hex)
            .args(["--target", TARGET, "--frame"])
            .arg(&frame)
            .arg(&tokens);
        let run = child::run(command, Duration::from_millis(20));
        println!(
            "sealkit verify approval --format {format}: {LINES} lines ({:.1} MB) in {:.2} s \
             (CPU {:.2} s), exit {}, peak RSS {:.1} MB (load average {} before, {} after)",
            corpus.file.len() as f64 / 1e6,
            run.elapsed.as_secs_f64(),
            run.cpu_seconds,
            run.status,
            run.peak_kb as f64 / 1024.0,
            run.load_before,
            run.load_after
        );
        assert_eq!(run.status, 0, "every bench token is accepted");
    }
}

fn main() {
    if std::env::var_os("SEALKIT_BENCH_MEMORY_ONLY").is_none() {
        benches();
        Criterion::default().configure_from_args().final_summary();
        ratios();
    }
    memory(&corpus());
}
