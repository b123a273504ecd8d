//! The `_meta` rules at their edges (issue 24, items 11–12), through `sealkit target`:
//! client and server info are MCP `Implementation` objects member by member (§2.2), each
//! pinned bound accepts exactly its limit and refuses one more (§4), a key-typing error wins
//! over a bound breach in the same frame (§3.1's order), and a changed protocol version moves
//! the committed identity where more than one version is accepted (`--era legacy`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use sealkit::meta;
use serde_json::{json, Value};

fn frame(meta: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{}},"_meta":{meta}}}}}"#
    )
}

/// `sealkit target --era legacy --format jsonl` over one frame per line.
fn target(frames: &[String], era: &str) -> Vec<Value> {
    let capture: String = frames.iter().map(|f| format!("{f}\n")).collect();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["target", "--format", "jsonl", "--era", era, "-"])
        .write_stdin(capture)
        .output()
        .unwrap();
    let records = crate::support::jsonl_records(&output.stdout);
    assert_eq!(records.len(), frames.len(), "{output:?}");
    records
}

fn code(record: &Value) -> &str {
    record["code"].as_str().unwrap_or("")
}

/// Seen red on 0c6405b: the eleven refused cases before `"version": 1` were accepted
/// ("status":"ok") and committed.
#[test]
fn client_and_server_info_are_implementation_objects_member_by_member() {
    let good = json!({
        "name": "c", "title": "Client", "version": "1.0", "description": "d",
        "websiteUrl": "https://example.com",
        "icons": [{"src": "https://example.com/i.png", "mimeType": "image/png",
                   "sizes": ["48x48", "any"], "theme": "dark"}, {"src": "data:,"}],
        "vendor-extension": 5
    });
    let bad = [
        json!({"name": "c", "version": "1", "title": 5}),
        json!({"name": "c", "version": "1", "description": ["d"]}),
        json!({"name": "c", "version": "1", "websiteUrl": 7}),
        json!({"name": "c", "version": "1", "icons": "x"}),
        json!({"name": "c", "version": "1", "icons": [5]}),
        json!({"name": "c", "version": "1", "icons": [{}]}),
        json!({"name": "c", "version": "1", "icons": [{"src": 1}]}),
        json!({"name": "c", "version": "1", "icons": [{"src": "a", "mimeType": 3}]}),
        json!({"name": "c", "version": "1", "icons": [{"src": "a", "sizes": "48x48"}]}),
        json!({"name": "c", "version": "1", "icons": [{"src": "a", "sizes": [48]}]}),
        json!({"name": "c", "version": "1", "icons": [{"src": "a", "theme": "blue"}]}),
        json!({"name": "c", "version": 1}),
        json!({"version": "1"}),
    ];
    for (key, refusal) in [
        (meta::KEY_CLIENT_INFO, "invalid-client-info"),
        (meta::KEY_SERVER_INFO, "invalid-server-info"),
    ] {
        let mut frames = vec![frame(&json!({ key: good }).to_string())];
        frames.extend(
            bad.iter()
                .map(|value| frame(&json!({ key: value }).to_string())),
        );
        let records = target(&frames, "legacy");
        assert_eq!(records[0]["status"], "ok", "{}", records[0]);
        for (value, record) in bad.iter().zip(&records[1..]) {
            assert_eq!(code(record), refusal, "{key} {value}: {record}");
        }
    }
}

/// A `_meta` object text of exactly `bytes` bytes: string members of at most 8,000 bytes.
fn meta_of_bytes(bytes: usize) -> String {
    let mut members = Vec::new();
    let mut text = String::from("{}");
    let mut index = 0;
    while text.len() < bytes {
        let room = bytes - text.len();
        let overhead = format!(",\"p{index}\":\"\"").len() - usize::from(members.is_empty());
        let pad = room.saturating_sub(overhead).min(8000);
        members.push(format!("\"p{index}\":\"{}\"", "x".repeat(pad)));
        text = format!("{{{}}}", members.join(","));
        index += 1;
    }
    assert_eq!(text.len(), bytes);
    text
}

fn nested(depth: usize) -> String {
    format!("{{\"k\":{}{}}}", "[".repeat(depth), "]".repeat(depth))
}

/// Each pinned bound accepts its limit and refuses one more. Seen red with the size check
/// mutated to `>=` (`meta.span.len() >= MAX_META_BYTES`): the 32,768-byte `_meta` was
/// refused as `meta-too-large`.
#[test]
fn every_meta_bound_accepts_its_limit_and_refuses_one_more() {
    let string = |len: usize| {
        format!(
            "{{\"k\":\"{}\"}}",
            "é".repeat(len / 2) + &"x".repeat(len % 2)
        )
    };
    let key = |len: usize| format!("{{\"{}\":1}}", "k".repeat(len));
    let items = |n: usize| {
        let elements = vec!["0"; n - 1].join(",");
        format!("{{\"k\":[{elements}]}}")
    };
    let cases = [
        (
            "bytes",
            meta_of_bytes(meta::MAX_META_BYTES),
            meta_of_bytes(meta::MAX_META_BYTES + 1),
            "meta-too-large",
        ),
        (
            "string",
            string(meta::MAX_META_STRING_BYTES),
            string(meta::MAX_META_STRING_BYTES + 1),
            "meta-string-too-long",
        ),
        (
            "key",
            key(meta::MAX_META_STRING_BYTES),
            key(meta::MAX_META_STRING_BYTES + 1),
            "meta-string-too-long",
        ),
        (
            "nesting",
            nested(meta::MAX_META_NESTING),
            nested(meta::MAX_META_NESTING + 1),
            "meta-too-deep",
        ),
        (
            "items",
            items(meta::MAX_META_ITEMS),
            items(meta::MAX_META_ITEMS + 1),
            "meta-too-many-items",
        ),
    ];
    let frames: Vec<String> = cases
        .iter()
        .flat_map(|(_, at, over, _)| [frame(at), frame(over)])
        .collect();
    let records = target(&frames, "legacy");
    for (index, (what, _, _, refusal)) in cases.iter().enumerate() {
        let (at, over) = (&records[2 * index], &records[2 * index + 1]);
        assert_eq!(at["status"], "ok", "{what} at its limit: {at}");
        assert_eq!(code(over), *refusal, "{what} over its limit: {over}");
    }
}

/// §3.1: every known key's type is checked before the bounds, so a frame with both a
/// key-typing error and a bound breach is refused for the key, in either member order.
/// Seen red with `check_bounds` moved before the key checks in `meta::validate`: the frame
/// came out `meta-string-too-long`.
#[test]
fn a_key_typing_error_wins_over_a_bound_breach() {
    let long = "x".repeat(meta::MAX_META_STRING_BYTES + 1);
    let frames = vec![
        frame(&format!(
            r#"{{"com.example/long":"{long}","{}":5}}"#,
            meta::KEY_CLIENT_INFO
        )),
        frame(&format!(
            r#"{{"{}":5,"com.example/long":"{long}"}}"#,
            meta::KEY_CLIENT_INFO
        )),
        frame(&format!(
            r#"{{"{}":"loud","k":{}}}"#,
            meta::KEY_LOG_LEVEL,
            nested(40)
        )),
    ];
    let records = target(&frames, "legacy");
    assert_eq!(code(&records[0]), "invalid-client-info", "{}", records[0]);
    assert_eq!(code(&records[1]), "invalid-client-info", "{}", records[1]);
    assert_eq!(code(&records[2]), "invalid-log-level", "{}", records[2]);
}

/// Where more than one protocol version is accepted (`--era legacy` takes any string), a
/// changed version moves the committed identity only. Seen red with the protocol-version key
/// skipped when `request::meta_state` collects the committed entries.
#[test]
fn a_changed_protocol_version_moves_the_committed_identity_only() {
    let versions = ["2025-06-18", "2025-11-25", "2026-07-28"];
    let frames: Vec<String> = versions
        .iter()
        .map(|version| {
            frame(
                &json!({
                    meta::KEY_PROTOCOL_VERSION: version,
                    meta::KEY_CLIENT_CAPABILITIES: {},
                })
                .to_string(),
            )
        })
        .collect();
    let records = target(&frames, "legacy");
    let ids = |r: &Value| r["identities"].clone();
    for record in &records {
        assert_eq!(record["status"], "ok", "{record}");
        assert_eq!(record["era"], "legacy", "{record}");
    }
    for pair in records.windows(2) {
        let (a, b) = (ids(&pair[0]), ids(&pair[1]));
        assert_ne!(a["committed"]["target"], b["committed"]["target"]);
        assert_ne!(a["committed"]["effect"], b["committed"]["effect"]);
        assert_eq!(a["host"], b["host"]);
        assert_eq!(a["legacy"], b["legacy"]);
    }
}
