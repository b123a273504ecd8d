//! `sealkit target` throughput and memory, measured against limits taken in the
//! same run:
//! * a capture of 100,000 `tools/call` frames made by the benches' seeded generator
//!   (`support/evidence`; docs/performance.md, "Benchmark inputs"): host sessions of both
//!   eras with their opening frames, several tools, arguments from 200 B to 64 KB with a long
//!   tail, 2026-07-28 `_meta` with nested vendor keys and legacy frames with or without
//!   `_meta`, approved calls sent twice, and six planted frames a host must refuse (so the
//!   binary exits 1);
//! * the floor the issue sets (issue 28): a bare `serde_json::from_slice::<Value>` of each
//!   frame plus, for each accepted `tools/call`, SHA-256 over the exact bytes of the eight
//!   hashes Seal requires of it, on one core:
//!   1. the exact frame, delimiter included (the subject, `framed_subject_sha256`);
//!   2. the request line, the frame minus its terminator (`request_sha256`);
//!   3. seal-host's `canonical_request` (`canonical_request_sha256`);
//!   4. serde_json compact `arguments` in wire order (`args_hash`);
//!   5. to 8. the framed parts of the effect commitment and the guard target of the
//!      `committed` and `host` profiles (the host target is seal-host's approval target).
//!
//!   Each of the eight is hashed whole and on its own; each is checked to hash to the value
//!   `sealkit` reports, so the floor hashes exactly the bytes Seal does and nothing else. The
//!   preimages are built 256 frames at a time outside the clock, and that batch is then
//!   parsed and hashed on the clock: they are in cache, as bytes an implementation has just
//!   built would be (all of them at once would be hundreds of megabytes, and the floor would
//!   wait on memory). It leaves out work `sealkit target` does and a floor need not: the
//!   wire guards and caps, the strict parse with spans, the Lean and serde renderings, the
//!   `legacy` pair (two more hashes), hex, and writing JSON. In sealkit's favour, it hashes
//!   each preimage whole, where sealkit hashes the request line once as the frame's prefix
//!   and the committed/host common prefix once;
//! * a bare `serde_json::from_slice::<Value>` alone (the parse limit, kept for comparison
//!   with earlier runs);
//! * the benchmark build of the binary, `sealkit target --format jsonl CAPTURE > /dev/null`
//!   (one core: the command is single-threaded).
//!
//! Floor, parse and binary run in turn five times and the best of each counts, so they
//! see the same machine load; the 1-minute load average is printed beside each figure.
//! Each is timed by the clock and by the CPU time it used (the floor's thread, the
//! binary's user + system time): on a quiet machine the two agree; on a loaded one the
//! clock also counts time spent waiting for a core, unevenly between a loop in this process
//! and a child process, and the CPU-time ratio is the one that measures the work per frame.
//! Then the peak resident memory of the binary reading a 1 GB capture of other generated
//! traffic streamed into its stdin.
//!
//! Run with `cargo bench --bench target_throughput`. Goals: ≥ 0.9 of the floor (issue 40),
//! < 64 MB peak for 1 GB. `SEALKIT_BENCH_FRAMES=N` changes the number of calls,
//! `SEALKIT_BENCH_SEED` the seed;
//! `SEALKIT_TARGET_CAPTURE=PATH` writes the 100,000-frame capture to PATH and exits (for
//! profiling the binary on the same input); `SEALKIT_TARGET_BINARY=PATH` measures another
//! build of the binary against the same floor; `SEALKIT_TARGET_BEFORE=PATH` measures a second
//! build (e.g. the one before a change) in the same rounds and prints its ratio to the floor
//! and this build's time over its.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// `per_second` is not used here.
#[allow(dead_code)]
#[path = "support/child.rs"]
mod child;
#[path = "support/evidence/mod.rs"]
mod evidence;

use child::Best;
use sealkit::identity::{self, Kind, Profile};
use sealkit::request::{self, Options, Session, Verdict};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `tools/call` frames in the timed capture.
const FRAMES: usize = 100_000;
/// Rounds of floor, parse and binary; the best of each counts.
const ROUNDS: usize = 5;
/// Frames whose floor preimages are built together, outside the clock.
const BATCH: usize = 256;

/// The exact bytes of the eight hashes of one frame (see the module notes), each checked
/// against what the pipeline reports for the frame; `None` for a frame that is no accepted
/// `tools/call` (an opening frame, a planted refusal).
fn preimages(frame: &[u8]) -> Option<[Vec<u8>; 8]> {
    let Verdict::Call(call) = request::analyze(frame, &Options::default(), &mut Session::default())
    else {
        return None;
    };
    let line = sealkit::frame::request_line(frame).to_vec();
    let canonical_request = call
        .canonical_request()
        .map(str::to_owned)
        .expect("object arguments");
    let value: serde_json::Value = serde_json::from_slice(frame).unwrap();
    let arguments = serde_json::to_vec(&value["params"]["arguments"]).unwrap();
    let inputs = call.inputs("");
    let framed = |profile, kind| {
        identity::encode_parts(&identity::parts(&inputs, profile, kind)).into_bytes()
    };
    let all = [
        frame.to_vec(),
        line,
        canonical_request.into_bytes(),
        arguments,
        framed(Profile::Committed, Kind::Effect),
        framed(Profile::Committed, Kind::Target),
        framed(Profile::Host, Kind::Effect),
        framed(Profile::Host, Kind::Target),
    ];
    let reported = [
        &call.subject().sha256,
        call.request_sha256(),
        call.canonical_request_sha256().unwrap(),
        call.args_hash().unwrap(),
        &call.identities().committed.effect,
        &call.identities().committed.target,
        &call.identities().host.effect,
        &call.identities().host.target,
    ];
    for (bytes, hex) in all.iter().zip(reported) {
        assert_eq!(&sealkit::digest::sha256_hex(bytes), hex, "floor preimage");
    }
    Some(all)
}

/// One round of the floor: each batch's preimages built outside the clock, then the batch
/// parsed and hashed on it. Returns the clock and CPU time, and the bytes hashed.
fn floor_round(frames: &[&[u8]]) -> ((Duration, Duration), usize) {
    let (mut time, mut cpu, mut hashed) = (Duration::ZERO, Duration::ZERO, 0);
    for batch in frames.chunks(BATCH) {
        let built: Vec<Option<[Vec<u8>; 8]>> = batch.iter().map(|f| preimages(f)).collect();
        hashed += built
            .iter()
            .flatten()
            .map(|p| p.iter().map(Vec::len).sum::<usize>())
            .sum::<usize>();
        let (t, c) = timed(|| {
            for (frame, pre) in batch.iter().zip(&built) {
                let value: Option<serde_json::Value> = serde_json::from_slice(frame).ok();
                std::hint::black_box(value);
                for bytes in pre.iter().flatten() {
                    std::hint::black_box(Sha256::digest(bytes));
                }
            }
        });
        time += t;
        cpu += c;
    }
    ((time, cpu), hashed)
}

/// CPU time this thread has run, from `/proc/thread-self/schedstat` (nanoseconds).
fn thread_cpu() -> Duration {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let ns = text
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    Duration::from_nanos(ns)
}

/// Wall and CPU time of `f` on this thread.
fn timed(f: impl FnOnce()) -> (Duration, Duration) {
    let (start, cpu) = (Instant::now(), thread_cpu());
    f();
    (start.elapsed(), thread_cpu() - cpu)
}

fn main() {
    let installation = evidence::Installation::new(evidence::seed_from_env());
    let calls: usize = std::env::var("SEALKIT_BENCH_FRAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(FRAMES);
    let plan = evidence::plan::plan(&installation, calls, 0.0);
    let generated = evidence::captures::capture(&installation, &plan, true);
    let frames: Vec<&[u8]> = generated.bytes.split_inclusive(|&b| b == b'\n').collect();
    assert_eq!(frames.len(), generated.expected.frames);
    let bytes = generated.bytes.len();
    if let Some(path) = std::env::var_os("SEALKIT_TARGET_CAPTURE") {
        std::fs::write(&path, &generated.bytes).expect("write capture");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let capture = dir.path().join("capture.jsonl");
    std::fs::write(&capture, &generated.bytes).expect("write capture");
    let binary = std::env::var("SEALKIT_TARGET_BINARY")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sealkit").to_owned());
    let binary = binary.as_str();
    let mut hashed = 0;

    // Another build (e.g. the one before a change), run in the same rounds.
    let before = std::env::var("SEALKIT_TARGET_BEFORE").ok();
    let run_binary = |binary: &str| {
        let mut command = Command::new(binary);
        command.args(["target", "--format", "jsonl"]).arg(&capture);
        let run = child::run(command, Duration::from_millis(200));
        assert_eq!(run.status, 1, "the planted frames are refused");
        (run.elapsed, Duration::from_secs_f64(run.cpu_seconds))
    };
    let (mut floor, mut parse, mut target, mut target_before) = (None, None, None, None);
    for _ in 0..ROUNDS {
        let (round, bytes_hashed) = floor_round(&frames);
        hashed = bytes_hashed;
        Best::keep(&mut floor, round);
        Best::keep(
            &mut parse,
            timed(|| {
                for f in &frames {
                    let value: Option<serde_json::Value> = serde_json::from_slice(f).ok();
                    std::hint::black_box(value);
                }
            }),
        );
        if let Some(before) = &before {
            Best::keep(&mut target_before, run_binary(before));
        }
        Best::keep(&mut target, run_binary(binary));
    }
    let (floor, parse, target) = (floor.unwrap(), parse.unwrap(), target.unwrap());
    let peak_kib = peak_rss_for_gigabyte(binary, installation.seed);
    let peak_load = child::load_average();

    let count = frames.len() as f64;
    let rate = |b: Best| count / b.time.as_secs_f64();
    let cpu_rate = |b: Best| count / b.cpu.as_secs_f64();
    let mbps = |b: Best| bytes as f64 / b.time.as_secs_f64() / 1e6;
    println!(
        "capture: {} frames ({} tools/call accepted, {} opening, {} refused), {:.0} bytes/frame on average (largest {}); the floor hashes {:.0} bytes per accepted call in 8 SHA-256",
        frames.len(),
        generated.expected.ok,
        generated.expected.skipped,
        generated.expected.refused.len(),
        bytes as f64 / count,
        frames.iter().map(|f| f.len()).max().unwrap_or(0),
        hashed as f64 / generated.expected.ok as f64
    );
    for (name, best) in [
        ("floor: parse + 8 SHA-256 (one core)", floor),
        ("bare serde_json::from_slice::<Value>", parse),
        ("sealkit target --format jsonl", target),
    ] {
        println!(
            "{name:<38} {:>9.0} frames/s ({:>4.0} MB/s); by CPU time {:>9.0} frames/s  load {:.2}",
            rate(best),
            mbps(best),
            cpu_rate(best),
            best.load
        );
    }
    println!(
        "ratio target / floor:                  {:>9.2} by the clock, {:.2} by CPU time (goal ≥ 0.9, issue 40)",
        rate(target) / rate(floor),
        cpu_rate(target) / cpu_rate(floor)
    );
    if let (Some(before), Some(old)) = (&before, target_before) {
        println!(
            "before: {before}\n{:<38} {:>9.0} frames/s; by CPU time {:>9.0} frames/s  load {:.2}",
            "sealkit target --format jsonl (before)",
            rate(old),
            cpu_rate(old),
            old.load
        );
        println!(
            "ratio before / floor:                  {:>9.2} by the clock, {:.2} by CPU time",
            rate(old) / rate(floor),
            cpu_rate(old) / cpu_rate(floor)
        );
        println!(
            "this build / before, time:             {:>9.3} by the clock, {:.3} by CPU time",
            target.time.as_secs_f64() / old.time.as_secs_f64(),
            target.cpu.as_secs_f64() / old.cpu.as_secs_f64()
        );
    }
    println!(
        "ratio target / bare parse:             {:>9.2} by the clock, {:.2} by CPU time",
        rate(target) / rate(parse),
        cpu_rate(target) / cpu_rate(parse)
    );
    println!(
        "peak RSS, 1 GB capture on stdin:       {:>9.1} MB (goal < 64 MB)  load {peak_load}",
        peak_kib as f64 / 1024.0
    );
}

/// Streams ~1 GB of generated traffic (another plan than the timed capture's: sessions with
/// their opening frames and every call, built in parallel a chunk at a time) into
/// `sealkit target -` and returns the child's peak resident set (KiB): its `VmHWM`, read from
/// /proc just before its stdin closes (after exec the high-water mark is the binary's own;
/// rusage would also count the pre-exec fork).
fn peak_rss_for_gigabyte(binary: &str, seed: u64) -> i64 {
    use rayon::prelude::*;
    let mut child = Command::new(binary)
        .args(["target", "--format", "jsonl", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("run sealkit");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut written = 0usize;
    // Segments of traffic, each planned from the seed and its number, until 1 GB is fed.
    'feed: for segment in 1u64.. {
        let installation = evidence::Installation::new(seed ^ segment.wrapping_mul(0x1_6B));
        let plan = evidence::plan::plan(&installation, 200_000, 0.0);
        let mut session = u32::MAX;
        for chunk in plan.decisions.chunks(4096) {
            let built: Vec<Vec<u8>> = chunk
                .par_iter()
                .map(|d| evidence::frames::build(&plan, installation.seed, d.request))
                .collect();
            for (decision, frame) in chunk.iter().zip(built) {
                if decision.session != session {
                    session = decision.session;
                    for opening in evidence::frames::opening(&plan.sessions[session as usize]) {
                        stdin.write_all(&opening).expect("feed");
                    }
                }
                stdin.write_all(&frame).expect("feed");
                written += frame.len();
                if written >= 1 << 30 {
                    break 'feed;
                }
            }
        }
    }
    let peak = std::fs::read_to_string(format!("/proc/{}/status", child.id()))
        .ok()
        .and_then(|status| {
            status.lines().find_map(|l| {
                l.strip_prefix("VmHWM:").map(|v| {
                    v.trim()
                        .trim_end_matches(" kB")
                        .trim()
                        .parse()
                        .unwrap_or(-1)
                })
            })
        })
        .unwrap_or(-1);
    drop(stdin);
    let status = child.wait().expect("wait");
    assert!(status.success());
    peak
}
