//! `sealkit target` throughput and memory, measured against limits taken in the
//! same run:
//! * a generated capture of 100,000 frames of about 1 KB (half with 2026-07-28 `_meta`);
//! * bare `serde_json::from_slice::<Value>` over the same frames (the parse limit);
//! * the real binary, `sealkit target --format jsonl CAPTURE > /dev/null` (one core: the
//!   command is single-threaded), best of three runs;
//! * peak resident memory of the binary reading a 1 GB capture streamed into its stdin.
//!
//! Run with `cargo bench --bench target_throughput`. Goals: ≥ 50,000 frames/s, ≥ 1/3 of
//! the bare-parse throughput, < 64 MB peak for 1 GB.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FRAMES: usize = 100_000;

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

fn best_of<F: FnMut()>(runs: usize, mut f: F) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let frames: Vec<Vec<u8>> = (0..FRAMES).map(frame).collect();
    let bytes: usize = frames.iter().map(Vec::len).sum();
    let dir = tempfile::tempdir().expect("temp dir");
    let capture = dir.path().join("capture.jsonl");
    std::fs::write(&capture, frames.concat()).expect("write capture");
    let binary = env!("CARGO_BIN_EXE_sealkit");

    let parse = best_of(3, || {
        for f in &frames {
            let value: serde_json::Value = serde_json::from_slice(f).expect("parse");
            std::hint::black_box(value);
        }
    });
    let target = best_of(3, || {
        let status = Command::new(binary)
            .args(["target", "--format", "jsonl"])
            .arg(&capture)
            .stdout(Stdio::null())
            .status()
            .expect("run sealkit");
        assert!(status.success(), "every generated frame is valid");
    });
    let peak_kib = peak_rss_for_gigabyte(binary, &frames);

    let rate = |d: Duration| FRAMES as f64 / d.as_secs_f64();
    let (parse_rate, target_rate) = (rate(parse), rate(target));
    println!(
        "capture: {FRAMES} frames, {:.0} bytes/frame on average",
        bytes as f64 / FRAMES as f64
    );
    println!(
        "bare serde_json::from_slice::<Value>: {parse_rate:>10.0} frames/s ({:.0} MB/s)",
        bytes as f64 / parse.as_secs_f64() / 1e6
    );
    println!(
        "sealkit target --format jsonl:        {target_rate:>10.0} frames/s ({:.0} MB/s)",
        bytes as f64 / target.as_secs_f64() / 1e6
    );
    println!(
        "ratio target / bare parse:            {:>10.2} (goal ≥ 0.33)",
        target_rate / parse_rate
    );
    println!(
        "goal ≥ 50,000 frames/s on one core:   {}",
        if target_rate >= 50_000.0 {
            "met"
        } else {
            "NOT met"
        }
    );
    println!(
        "peak RSS, 1 GB capture on stdin:      {:>10.1} MB (goal < 64 MB)",
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
