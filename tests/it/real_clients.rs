//! Frames real MCP clients wrote, recorded byte for byte (testdata/real-clients/, see its
//! README): the official Python SDK (mcp 2.3.0) in 2026-07-28 mode (`server/discover`,
//! per-request `_meta`, a `requestState` / `inputResponses` round trip) and in legacy mode,
//! and the TypeScript SDK (@modelcontextprotocol/sdk 1.32.2, 2025-11-25). Through the real
//! binary: every tool call is accepted, its identities are pinned, its evidence is the
//! digest of the recorded bytes, and `envelope` accepts exactly the same frames.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use sealkit::digest::sha256_hex;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn capture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/real-clients")
        .join(format!("{name}.client.jsonl"))
}

/// (capture, frame, era, tool, committed target, host target, committed effect)
const PINS: &[(&str, u64, &str, &str, &str, &str, &str)] = &[
    (
        "py-2026-07-28",
        3,
        "2026-07-28",
        "query",
        "55ed2e6a597244f6d60693059c3127eb4d86f5eb869ceba7f1be698380807cb2",
        "28d16fbd4d71cba8a670db00417b804183256caefaaf4148ad8acf36a6bdef3f",
        "6fe3eecda74acb2b8998d5559852a480338e3fa6437979858e78df0f7e31de7c",
    ),
    (
        "py-2026-07-28",
        4,
        "2026-07-28",
        "query",
        "02cea0cc0fb6807f5787532bf783d331af7cdd2263b158cde5205d4498952b52",
        "963ddb8d79cb4894ae3be978264993ae3468eeef6b81a1d79e3e59b76f5dd2be",
        "435ef9fb5ef299668f079585b4ed372cdd23bc4cf998f0e7e4b3746f6cec8743",
    ),
    (
        "py-2026-07-28",
        5,
        "2026-07-28",
        "drop_table",
        "deb5e6fd2c02516b2bc41a238b7db8608f4ada0711b701a67bd08fb43c1d3eca",
        "78ab0fbd0452131d88627e98f1659ab6836e4f94fc11390ac7aa669e270186d8",
        "99b5b54604617cc8de262db8bded28bc03204e6cc62563eb65d88f33ea2978c4",
    ),
    (
        "py-2026-07-28",
        6,
        "2026-07-28",
        "drop_table",
        "8c403133ffdd3bbfa9b5f3ab299310003a777d629896cf5b39c9bf5dc8c1685e",
        "78ab0fbd0452131d88627e98f1659ab6836e4f94fc11390ac7aa669e270186d8",
        "25425090c6687a9f9b432f7502617246e50d94f3986cf00291e5e576e559a05b",
    ),
    (
        "py-legacy",
        4,
        "legacy",
        "query",
        "99f72830893c200ff16404faa284239852d2b2ec2cb90a8211207516b6a3f649",
        "28d16fbd4d71cba8a670db00417b804183256caefaaf4148ad8acf36a6bdef3f",
        "fe8c1b56ee65abea81d7eb3e1ad12368180ba44015e4b6e00197f46cd5849b00",
    ),
    (
        "py-legacy",
        5,
        "legacy",
        "query",
        "5e636dce09cd0566c7e352f6e4e9fe8f367db8965c058744a7e4e58d5212156f",
        "963ddb8d79cb4894ae3be978264993ae3468eeef6b81a1d79e3e59b76f5dd2be",
        "c45cfbe7ec4297cbb0c8e0f80bbf029d6f01a6a3d1aae845302d7568944ecd77",
    ),
    (
        "py-legacy",
        6,
        "legacy",
        "drop_table",
        "78ab0fbd0452131d88627e98f1659ab6836e4f94fc11390ac7aa669e270186d8",
        "78ab0fbd0452131d88627e98f1659ab6836e4f94fc11390ac7aa669e270186d8",
        "55a52cfd27fc50037d652a016b10ff5131c0fa82c6b41346f41ee6f4c5eeaf6f",
    ),
    (
        "ts-2025-11-25",
        4,
        "legacy",
        "query",
        "28d16fbd4d71cba8a670db00417b804183256caefaaf4148ad8acf36a6bdef3f",
        "28d16fbd4d71cba8a670db00417b804183256caefaaf4148ad8acf36a6bdef3f",
        "2130ddc370fcd155c0761a7b41f7b803d1caaba8c497c946151f8e43ff4dbcf9",
    ),
    (
        "ts-2025-11-25",
        5,
        "legacy",
        "query",
        "f4850ac0f982cd21a64aa1c2c65dc90b643ff2f881a5cc0d575b755afab7564e",
        "963ddb8d79cb4894ae3be978264993ae3468eeef6b81a1d79e3e59b76f5dd2be",
        "249f776514194714257140dedd611e4b589b0abe575b2264edb918435d4891ea",
    ),
    (
        "ts-2025-11-25",
        6,
        "legacy",
        "query",
        "ba438735b5609e401e4d967c0756f442e03382063869b15abdb8854f114e4819",
        "e0c80101526f16d1b4b27670271688e9b43ac44ea8b9dcf3451c82342a7d1b2e",
        "194c1da9adc80bacb3a51b17c20cf5ba6fa556e7a706067eef5930195b5fb4ab",
    ),
];

fn records(name: &str) -> Vec<Value> {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["target", "--format", "jsonl"])
        .arg(capture(name))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{name}: nothing refused");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn real_client_tool_calls_are_accepted_with_pinned_identities() {
    let mut seen = 0;
    for name in ["py-2026-07-28", "py-legacy", "ts-2025-11-25"] {
        let bytes = std::fs::read(capture(name)).unwrap();
        let frames: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
        let records = records(name);
        assert_eq!(records.len(), frames.len(), "{name}");
        for record in records.iter().filter(|r| r["status"] == "ok") {
            let line = record["line"].as_u64().unwrap();
            let pin = PINS
                .iter()
                .find(|p| p.0 == name && p.1 == line)
                .unwrap_or_else(|| panic!("{name}:{line} has no pin"));
            assert_eq!(record["era"], pin.2, "{name}:{line}");
            assert_eq!(record["tool"], pin.3, "{name}:{line}");
            let ids = &record["identities"];
            assert_eq!(ids["committed"]["target"], pin.4, "{name}:{line}");
            assert_eq!(ids["host"]["target"], pin.5, "{name}:{line}");
            assert_eq!(ids["committed"]["effect"], pin.6, "{name}:{line}");
            // The evidence is the recorded bytes themselves.
            let frame = frames[line as usize - 1];
            assert_eq!(record["subject"]["sha256"], sha256_hex(frame));
            assert_eq!(record["subject"]["length"], frame.len());
            assert_eq!(
                record["request_sha256"],
                sha256_hex(frame.strip_suffix(b"\n").unwrap())
            );
            assert_eq!(record["meta"]["unknown_keys"], "committed");
            seen += 1;
        }
    }
    assert_eq!(seen, PINS.len());
}

#[test]
fn the_same_call_has_one_host_target_across_sdks_and_eras() {
    // `query {"sql":"select 1","limit":5}`: the Python client in both modes and the
    // TypeScript client (no `_meta`) send the same name and arguments; the host profile
    // ignores `_meta`, so all three agree, and without `_meta` committed = host.
    let host = |name: &str, line: u64| {
        PINS.iter()
            .find(|p| p.0 == name && p.1 == line)
            .map(|p| (p.4, p.5))
            .unwrap()
    };
    let (modern_committed, modern_host) = host("py-2026-07-28", 3);
    let (legacy_committed, legacy_host) = host("py-legacy", 4);
    let (ts_committed, ts_host) = host("ts-2025-11-25", 4);
    assert_eq!(modern_host, legacy_host);
    assert_eq!(legacy_host, ts_host);
    assert_eq!(ts_committed, ts_host);
    assert_ne!(
        modern_committed, legacy_committed,
        "_meta differs, so does the commitment"
    );
    // The input-required retry carries requestState and inputResponses: its committed
    // target moves, its host target does not.
    let (first, first_host) = host("py-2026-07-28", 5);
    let (retry, retry_host) = host("py-2026-07-28", 6);
    assert_ne!(first, retry);
    assert_eq!(first_host, retry_host);
}

#[test]
fn the_2026_07_28_capture_is_what_the_sdk_claims_to_speak() {
    let records = records("py-2026-07-28");
    assert_eq!(records[0]["method"], "server/discover");
    let retry = &records[5];
    assert_eq!(retry["status"], "ok");
    let keys: Vec<&str> = retry["meta"]["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert!(keys.contains(&"io.modelcontextprotocol/protocolVersion"));
    assert!(keys.contains(&"io.modelcontextprotocol/clientCapabilities"));
    let text = std::fs::read_to_string(capture("py-2026-07-28")).unwrap();
    let retry_frame: Value = serde_json::from_str(text.lines().nth(5).unwrap()).unwrap();
    assert!(retry_frame["params"]["requestState"].is_string());
    assert!(retry_frame["params"]["inputResponses"].is_object());
}

#[test]
fn envelope_accepts_every_real_tool_call_target_accepts() {
    let params = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/typed/envelope-params.json");
    let dir = tempfile::tempdir().unwrap();
    for name in ["py-2026-07-28", "py-legacy", "ts-2025-11-25"] {
        let text = std::fs::read_to_string(capture(name)).unwrap();
        let records = records(name);
        for (frame, record) in text.split_inclusive('\n').zip(&records) {
            if record["status"] != "ok" {
                continue;
            }
            let path = dir.path().join("frame.jsonl");
            std::fs::write(&path, frame).unwrap();
            let output = Command::cargo_bin("sealkit")
                .unwrap()
                .args([
                    "envelope", "--format", "json", "--effect", "absent", "--params",
                ])
                .arg(&params)
                .arg(&path)
                .output()
                .unwrap();
            let report: Value = serde_json::from_slice(&output.stdout).unwrap();
            assert_eq!(output.status.code(), Some(0), "{name}: {report}");
            assert_eq!(report["status"], "built");
            assert_eq!(report["reported"]["line_sha256"], record["request_sha256"]);
        }
    }
}
