//! Watched mutations through the real binary: one capture holds a 2026-07-28 base frame
//! carrying every kind of `_meta` key sealkit accepts (both reserved keys, client and server
//! info, log level, subscription id, progress token, trace context, baggage, unknown keys
//! with flat and nested values) plus `requestState` and `inputResponses`, then one frame per
//! watched value with only that value changed. Each change must move the committed effect
//! and target and leave the host and legacy identities where they were.
//!
//! Mutation run (recorded by hand): dropping one key from the commitment — in
//! `request::meta_state`, skipping the member named `tracestate` when the entries are
//! collected — turns `every_watched_value_moves_the_committed_identity_only` red with
//! "tracestate: committed target must move"; with the mutation reverted it is green.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use sealkit::meta;
use serde_json::{json, Value};

/// The base `params`: every accepted key kind, with nested values where the type allows.
fn base() -> Value {
    json!({
        "name": "db.execute",
        "arguments": {"sql": "drop table users"},
        "requestState": "opaque-1",
        "inputResponses": {"q1": {"action": "accept", "content": {"ok": true}}},
        "_meta": {
            meta::KEY_PROTOCOL_VERSION: "2026-07-28",
            meta::KEY_CLIENT_CAPABILITIES: {"elicitation": {"form": {}}, "roots": {"listChanged": true}},
            meta::KEY_CLIENT_INFO: {"name": "c", "version": "1"},
            meta::KEY_SERVER_INFO: {"name": "s", "version": "1"},
            meta::KEY_LOG_LEVEL: "info",
            meta::KEY_SUBSCRIPTION_ID: "sub-1",
            meta::KEY_PROGRESS_TOKEN: 7,
            meta::KEY_TRACEPARENT: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            meta::KEY_TRACESTATE: "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
            meta::KEY_BAGGAGE: "userId=alice",
            "com.example/run": "r-1",
            "example.com/invocation": {"a": {"b": [1, {"c": "deep"}]}},
            "odd key!": null
        }
    })
}

/// (what, JSON pointer into `params`, changed value)
fn watched() -> Vec<(&'static str, String, Value)> {
    let m = |key: &str| format!("/_meta/{}", key.replace('~', "~0").replace('/', "~1"));
    vec![
        (
            "clientCapabilities (nested)",
            m(meta::KEY_CLIENT_CAPABILITIES) + "/roots/listChanged",
            json!(false),
        ),
        (
            "clientInfo",
            m(meta::KEY_CLIENT_INFO) + "/version",
            json!("2"),
        ),
        (
            "serverInfo",
            m(meta::KEY_SERVER_INFO) + "/name",
            json!("s2"),
        ),
        ("logLevel", m(meta::KEY_LOG_LEVEL), json!("debug")),
        ("subscriptionId", m(meta::KEY_SUBSCRIPTION_ID), json!(42)),
        ("progressToken", m(meta::KEY_PROGRESS_TOKEN), json!("t-8")),
        (
            "traceparent",
            m(meta::KEY_TRACEPARENT),
            json!("00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01"),
        ),
        (
            "tracestate",
            m(meta::KEY_TRACESTATE),
            json!("rojo=00f067aa0ba902b8,congo=t61rcWkgMzE"),
        ),
        ("baggage", m(meta::KEY_BAGGAGE), json!("userId=bob")),
        ("unknown key", m("com.example/run"), json!("r-2")),
        (
            "unknown key (nested leaf)",
            m("example.com/invocation") + "/a/b/1/c",
            json!("deeper"),
        ),
        (
            "unknown key outside the grammar",
            m("odd key!"),
            json!(false),
        ),
        (
            "requestState",
            "/requestState".to_owned(),
            json!("opaque-2"),
        ),
        (
            "inputResponses (nested)",
            "/inputResponses/q1/content/ok".to_owned(),
            json!(false),
        ),
    ]
}

fn frame(params: &Value) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).to_string()
}

#[test]
fn every_watched_value_moves_the_committed_identity_only() {
    let base = base();
    let mut capture = frame(&base) + "\n";
    let watched = watched();
    for (what, pointer, value) in &watched {
        let mut params = base.clone();
        let slot = params
            .pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{what}"));
        assert_ne!(slot, value, "{what}: the change must change something");
        *slot = value.clone();
        capture.push_str(&frame(&params));
        capture.push('\n');
    }
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["target", "--format", "jsonl", "-"])
        .write_stdin(capture)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let records: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), watched.len() + 1);
    let ids = |r: &Value| r["identities"].clone();
    let base_ids = ids(&records[0]);
    assert_eq!(records[0]["era"], "2026-07-28");
    for ((what, _, _), record) in watched.iter().zip(&records[1..]) {
        assert_eq!(record["status"], "ok", "{what}: {record}");
        let moved = ids(record);
        assert_ne!(
            moved["committed"]["target"], base_ids["committed"]["target"],
            "{what}: committed target must move"
        );
        assert_ne!(
            moved["committed"]["effect"], base_ids["committed"]["effect"],
            "{what}: committed effect must move"
        );
        assert_eq!(
            moved["host"], base_ids["host"],
            "{what}: host must not move"
        );
        assert_eq!(
            moved["legacy"], base_ids["legacy"],
            "{what}: legacy must not move"
        );
    }
}

#[test]
fn the_watch_list_covers_every_known_key() {
    // Every known key sealkit types, except the protocol version, whose only supported
    // value leaves nothing to change it to (its presence is covered by the era rules).
    let known = [
        meta::KEY_CLIENT_CAPABILITIES,
        meta::KEY_CLIENT_INFO,
        meta::KEY_SERVER_INFO,
        meta::KEY_LOG_LEVEL,
        meta::KEY_SUBSCRIPTION_ID,
        meta::KEY_PROGRESS_TOKEN,
        meta::KEY_TRACEPARENT,
        meta::KEY_TRACESTATE,
        meta::KEY_BAGGAGE,
    ];
    let pointers: Vec<String> = watched().into_iter().map(|w| w.1).collect();
    for key in known {
        let escaped = key.replace('~', "~0").replace('/', "~1");
        assert!(
            pointers.iter().any(|p| p == &format!("/_meta/{escaped}")
                || p.starts_with(&format!("/_meta/{escaped}/"))),
            "{key} is not watched"
        );
    }
}
