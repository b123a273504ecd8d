//! `sealkit target` throughput and memory, measured against limits taken in the
//! same run:
//! * a generated capture of 100,000 frames of about 1 KB (half with 2026-07-28 `_meta`);
//! * the floor the issue sets (issue 28): a bare `serde_json::from_slice::<Value>` of each
//!   frame plus SHA-256 over the exact bytes of the eight hashes Seal requires of a
//!   `tools/call`, on one core:
//!   1. the exact frame, delimiter included (the subject, `framed_subject_sha256`);
//!   2. the request line, the frame minus its terminator (`request_sha256`);
//!   3. seal-host's `canonical_request` (`canonical_request_sha256`);
//!   4. serde_json compact `arguments` in wire order (`args_hash`);
//!   5. to 8. the framed parts of the effect commitment and the guard target of the
//!      `committed` and `host` profiles (the host target is seal-host's approval target).
//!
//!   Each of the eight is hashed whole and on its own; the preimages are built before the
//!   clock starts and each is checked to hash to the value `sealkit` reports, so the floor
//!   hashes exactly the bytes Seal does and nothing else. Frame `i` hashes the preimages of
//!   the `i % 64`th of 64 frames spread over the capture (every 1,563rd: half with `_meta`,
//!   their lengths spread like all frames'): 64 frames' preimages stay in cache, as bytes
//!   an implementation has just built would be, where 100,000 of them (650 MB) would make
//!   the floor wait on memory. It leaves out work `sealkit target` does and a floor need
//!   not: the wire guards and caps, the strict parse with spans, the Lean and serde
//!   renderings, the `legacy` pair (two more hashes), hex, and writing JSON. In sealkit's
//!   favour, it hashes each preimage whole, where sealkit hashes the request line once as
//!   the frame's prefix and the committed/host common prefix once (about 2 KB a frame);
//! * a bare `serde_json::from_slice::<Value>` alone (the parse limit, kept for comparison
//!   with earlier runs);
//! * the real binary, `sealkit target --format jsonl CAPTURE > /dev/null` (one core: the
//!   command is single-threaded).
//!
//! Floor, parse and binary run in turn five times and the best of each counts, so they
//! see the same machine load; the 1-minute load average is printed beside each figure.
//! Each is timed by the clock and by the CPU time it used (the floor's thread, the
//! binary's user + system time): on a quiet machine the two agree; on a loaded one the
//! clock also counts time spent waiting for a core, unevenly between a loop in this process
//! and a child process, and the CPU-time ratio is the one that measures the work per frame.
//! Then the peak resident memory of the binary reading a 1 GB capture streamed into its
//! stdin.
//!
//! Run with `cargo bench --bench target_throughput`. Goals: ≥ 0.8 of the floor (issue 28),
//! < 64 MB peak for 1 GB. `SEALKIT_TARGET_CAPTURE=PATH` writes the 100,000-frame capture
//! to PATH and exits (for profiling the binary on the same input);
//! `SEALKIT_TARGET_BINARY=PATH` measures another build of the binary against the same floor;
//! `SEALKIT_TARGET_BEFORE=PATH` measures a second build (e.g. the one before a change) in the
//! same rounds and prints its ratio to the floor and this build's time over its.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// `per_second` is not used here.
#[allow(dead_code)]
#[path = "support/child.rs"]
mod child;

use child::Best;
use sealkit::identity::{self, Kind, Profile};
use sealkit::request::{self, Options, Session, Verdict};
use serde_json::json;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FRAMES: usize = 100_000;
/// Rounds of floor, parse and binary; the best of each counts.
const ROUNDS: usize = 5;
/// Frames whose floor preimages are kept (see the module notes), every `HOT_STRIDE`th: an
/// odd stride alternates frames with and without `_meta`.
const HOT_FRAMES: usize = 64;
const HOT_STRIDE: usize = 1_563;

fn frame(i: usize) -> Vec<u8> {
    let rows: Vec<_> = (0..6)
        .map(|k| json!({"id": i * 10 + k, "name": format!("item-{i}-{k}"), "price": k * 3 + i % 7, "ok": k % 2 == 0}))
        .collect();
    let arguments = json!({
        "database": format!("prod-{}", i % 17),
        "sql": format!("select * from orders where customer_id = {i} and status in ('open','pending') order by created_at desc limit 50"),
        "options": {"timeout_ms": 30000 + i % 1000, "retries": i % 5, "tags": ["alpha", "beta", format!("gamma-{}", i % 9)], "explain": false, "note": format!("café — résumé {i}")},
        "rows": rows,
    });
    let mut params = json!({"name": "db.execute", "arguments": arguments});
    if i % 2 == 1 {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
            "io.modelcontextprotocol/clientInfo": {"name": "ExampleClient", "version": format!("1.0.{}", i % 10)},
            "traceparent": format!("00-{:032x}-{:016x}-01", i + 1, i + 7),
            "tracestate": format!("vendor=v{i}"),
            "com.example/run": format!("r-{i}"),
        });
    }
    let mut bytes = json!({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params})
        .to_string()
        .into_bytes();
    bytes.push(b'\n');
    bytes
}

/// The exact bytes of the eight hashes of one frame (see the module notes), each checked
/// against what the pipeline reports for the frame.
fn preimages(frame: &[u8]) -> [Vec<u8>; 8] {
    let Verdict::Call(call) = request::analyze(frame, &Options::default(), &mut Session::default())
    else {
        panic!("every generated frame is a valid tools/call");
    };
    let line = frame.strip_suffix(b"\n").unwrap_or(frame).to_vec();
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
    all
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
    let frames: Vec<Vec<u8>> = (0..FRAMES).map(frame).collect();
    let bytes: usize = frames.iter().map(Vec::len).sum();
    if let Some(path) = std::env::var_os("SEALKIT_TARGET_CAPTURE") {
        std::fs::write(&path, frames.concat()).expect("write capture");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let capture = dir.path().join("capture.jsonl");
    std::fs::write(&capture, frames.concat()).expect("write capture");
    let binary = std::env::var("SEALKIT_TARGET_BINARY")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sealkit").to_owned());
    let binary = binary.as_str();
    let preimages: Vec<[Vec<u8>; 8]> = (0..HOT_FRAMES)
        .map(|k| preimages(&frames[k * HOT_STRIDE]))
        .collect();
    let hashed: usize = (0..FRAMES)
        .map(|i| {
            preimages[i % HOT_FRAMES]
                .iter()
                .map(Vec::len)
                .sum::<usize>()
        })
        .sum();

    // Another build (e.g. the one before a change), run in the same rounds.
    let before = std::env::var("SEALKIT_TARGET_BEFORE").ok();
    let run_binary = |binary: &str| {
        let mut command = Command::new(binary);
        command.args(["target", "--format", "jsonl"]).arg(&capture);
        let run = child::run(command, Duration::from_millis(200));
        assert_eq!(run.status, 0, "every generated frame is valid");
        (run.elapsed, Duration::from_secs_f64(run.cpu_seconds))
    };
    let (mut floor, mut parse, mut target, mut target_before) = (None, None, None, None);
    for _ in 0..ROUNDS {
        Best::keep(
            &mut floor,
            timed(|| {
                for (f, pre) in frames.iter().zip(preimages.iter().cycle()) {
                    let value: serde_json::Value = serde_json::from_slice(f).expect("parse");
                    std::hint::black_box(value);
                    for bytes in pre {
                        std::hint::black_box(Sha256::digest(bytes));
                    }
                }
            }),
        );
        Best::keep(
            &mut parse,
            timed(|| {
                for f in &frames {
                    let value: serde_json::Value = serde_json::from_slice(f).expect("parse");
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
    let peak_kib = peak_rss_for_gigabyte(binary, &frames);
    let peak_load = child::load_average();

    let rate = |b: Best| FRAMES as f64 / b.time.as_secs_f64();
    let cpu_rate = |b: Best| FRAMES as f64 / b.cpu.as_secs_f64();
    let mbps = |b: Best| bytes as f64 / b.time.as_secs_f64() / 1e6;
    println!(
        "capture: {FRAMES} frames, {:.0} bytes/frame on average; the floor hashes {:.0} bytes/frame in 8 SHA-256",
        bytes as f64 / FRAMES as f64,
        hashed as f64 / FRAMES as f64
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
        "ratio target / floor:                  {:>9.2} by the clock, {:.2} by CPU time (goal ≥ 0.8)",
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

/// Streams ~1 GB of frames into `sealkit target -` and returns the child's peak resident
/// set (KiB): its `VmHWM`, read from /proc just before its stdin closes (after exec the
/// high-water mark is the binary's own; rusage would also count the pre-exec fork).
fn peak_rss_for_gigabyte(binary: &str, frames: &[Vec<u8>]) -> i64 {
    let mut child = Command::new(binary)
        .args(["target", "--format", "jsonl", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .expect("run sealkit");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut written = 0usize;
    'feed: loop {
        for f in frames {
            if stdin.write_all(f).is_err() {
                break 'feed;
            }
            written += f.len();
            if written >= 1 << 30 {
                break 'feed;
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
