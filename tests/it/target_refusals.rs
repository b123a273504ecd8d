//! Every refusal code of `sealkit target` through the real binary: each case is a capture
//! that must be refused with exactly that code, JSON-RPC code and byte offset, and exit 1.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use sealkit::refusal::RefusalCode;
use serde_json::Value;
use std::collections::BTreeSet;

const MODERN_META: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}"#;

fn call_with_args(args: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{args}}}}}"#
    )
}

fn call_with_meta(meta: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{}},"_meta":{meta}}}}}"#
    )
}

fn modern_with(extra: &str) -> String {
    call_with_meta(&format!("{{{MODERN_META},{extra}}}"))
}

/// Where a refusal must point: the `nth` (0-based) occurrence of a needle in the frame,
/// or an exact offset.
#[derive(Clone, Copy)]
enum Anchor {
    Needle(&'static str, usize),
    Offset(usize),
}

const NO_ANCHOR: Option<Anchor> = None;

fn at(needle: &'static str, nth: usize) -> Option<Anchor> {
    Some(Anchor::Needle(needle, nth))
}

fn find(haystack: &[u8], anchor: Anchor) -> usize {
    match anchor {
        Anchor::Offset(offset) => offset,
        Anchor::Needle(needle, nth) => {
            let positions: Vec<usize> = (0..haystack.len())
                .filter(|&i| haystack[i..].starts_with(needle.as_bytes()))
                .collect();
            positions[nth]
        }
    }
}

/// (code, capture, line of the refused frame, where the refusal points)
fn cases() -> Vec<(&'static str, Vec<u8>, u64, Option<Anchor>)> {
    let mut big = call_with_args(&format!(r#"{{"s":"{}"}}"#, "x".repeat(1024 * 1024))).into_bytes();
    big.push(b'\n');
    let mut bad_utf8 = call_with_args(r#"{"s":"caf"}"#).into_bytes();
    let bad_at = bad_utf8.len() - 4;
    bad_utf8.insert(bad_at, 0xE9);
    let items = vec!["0"; 4097].join(",");
    let meta_items = vec!["0"; 1030].join(",");
    let deep = |n: usize| format!(r#"{{"d":{}1{}}}"#, "[".repeat(n), "]".repeat(n));
    let text = |s: String| s.into_bytes();
    let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#;
    let discover = r#"{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}}"#;
    vec![
        ("frame-too-large", big, 1, Some(Anchor::Offset(1024 * 1024))),
        ("invalid-utf8", bad_utf8, 1, Some(Anchor::Offset(bad_at))),
        (
            "exponent-too-long",
            text(call_with_args(r#"{"n":1e1234567}"#)),
            1,
            at("1e1234567", 0),
        ),
        (
            "duplicate-key",
            text(call_with_args(r#"{"a":1,"a":2}"#)),
            1,
            at("\"a\"", 1),
        ),
        (
            "escaped-key",
            text(call_with_args(r#"{"\u0061":1}"#)),
            1,
            at("\\u0061", 0),
        ),
        (
            "unbalanced-bracket",
            text(call_with_args(r#"{"a":1}}"#)),
            1,
            at("}", 3),
        ),
        (
            "nfd-equal-keys",
            text(call_with_args("{\"\u{e9}\":1,\"e\u{301}\":2}")),
            1,
            at("\"e\u{301}\"", 0),
        ),
        (
            "too-many-digits",
            text(call_with_args(r#"{"n":9999999999999999999}"#)),
            1,
            at("9999999999999999999", 0),
        ),
        (
            "number-not-binary64",
            text(call_with_args(r#"{"n":0.10000000000000001}"#)),
            1,
            at("0.10000000000000001", 0),
        ),
        (
            "lone-surrogate",
            text(call_with_args(r#"{"s":"\ud800"}"#)),
            1,
            at("\\ud800", 0),
        ),
        (
            "nesting-too-deep",
            text(call_with_args(&deep(130))),
            1,
            at("[", 125),
        ),
        (
            "json-depth-exceeded",
            text(call_with_args(&deep(70))),
            1,
            at("[", 61),
        ),
        (
            "json-string-too-long",
            text(call_with_args(&format!(
                r#"{{"s":"{}"}}"#,
                "x".repeat(256 * 1024 + 1)
            ))),
            1,
            at("\"x", 0),
        ),
        (
            "json-collection-too-large",
            text(call_with_args(&format!(r#"{{"a":[{items}]}}"#))),
            1,
            at(",", 4099),
        ),
        (
            "parse-error",
            text(call_with_args(r#"{"a":tru}"#)),
            1,
            at("tru}", 0),
        ),
        (
            "not-an-object",
            text(r#"[{"jsonrpc":"2.0","id":1,"method":"tools/call"}]"#.to_owned()),
            1,
            at("[", 0),
        ),
        (
            "invalid-jsonrpc-version",
            text(
                r#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"t"}}"#
                    .to_owned(),
            ),
            1,
            at("\"1.0\"", 0),
        ),
        (
            "missing-method",
            text(r#"{"jsonrpc":"2.0","id":1}"#.to_owned()),
            1,
            at("{", 0),
        ),
        (
            "invalid-method",
            text(r#"{"jsonrpc":"2.0","id":1,"method":7}"#.to_owned()),
            1,
            at("7", 0),
        ),
        (
            "missing-id",
            text(r#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"t"}}"#.to_owned()),
            1,
            at("\"tools/call\"", 0),
        ),
        (
            "invalid-id",
            text(
                r#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"t"}}"#
                    .to_owned(),
            ),
            1,
            at("null", 0),
        ),
        (
            "params-not-object",
            text(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[]}"#.to_owned()),
            1,
            at("[]", 0),
        ),
        (
            "invalid-tool-name",
            text(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":""}}"#.to_owned(),
            ),
            1,
            at("\"\"", 0),
        ),
        (
            "arguments-not-object",
            text(call_with_args("[1]")),
            1,
            at("[1]", 0),
        ),
        (
            "era-conflict",
            text(format!(
                "{initialize}\n{}\n",
                call_with_meta(&format!("{{{MODERN_META}}}"))
            )),
            2,
            at("{\"io.", 0),
        ),
        (
            "meta-required",
            text(format!("{discover}\n{}\n", call_with_args("{}"))),
            2,
            at("{\"name\"", 0),
        ),
        (
            "meta-not-object",
            text(call_with_meta("null")),
            1,
            at("null", 0),
        ),
        (
            "missing-protocol-version",
            text(call_with_meta(
                r#"{"io.modelcontextprotocol/clientCapabilities":{}}"#,
            )),
            1,
            at("{\"io.", 0),
        ),
        (
            "invalid-protocol-version",
            text(call_with_meta(
                r#"{"io.modelcontextprotocol/protocolVersion":20260728}"#,
            )),
            1,
            at("20260728", 0),
        ),
        (
            "unsupported-protocol-version",
            text(call_with_meta(
                r#"{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}"#,
            )),
            1,
            at("\"2099-01-01\"", 0),
        ),
        (
            "missing-client-capabilities",
            text(call_with_meta(
                r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#,
            )),
            1,
            at("{\"io.", 0),
        ),
        (
            "invalid-client-capabilities",
            text(call_with_meta(
                r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":true}"#,
            )),
            1,
            at("true", 0),
        ),
        (
            "invalid-progress-token",
            text(modern_with(r#""progressToken":[1]"#)),
            1,
            at("[1]", 0),
        ),
        (
            "invalid-client-info",
            text(modern_with(
                r#""io.modelcontextprotocol/clientInfo":{"name":"c"}"#,
            )),
            1,
            at("{\"name\":\"c\"}", 0),
        ),
        (
            "invalid-log-level",
            text(modern_with(
                r#""io.modelcontextprotocol/logLevel":"verbose""#,
            )),
            1,
            at("\"verbose\"", 0),
        ),
        (
            "invalid-traceparent",
            text(modern_with(
                r#""traceparent":"00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01""#,
            )),
            1,
            at("\"00-", 0),
        ),
        (
            "invalid-tracestate",
            text(modern_with(r#""tracestate":"=nokey""#)),
            1,
            at("\"=nokey\"", 0),
        ),
        (
            "invalid-baggage",
            text(modern_with(r#""baggage":"no equals sign""#)),
            1,
            at("\"no equals", 0),
        ),
        (
            "invalid-subscription-id",
            text(modern_with(
                r#""io.modelcontextprotocol/subscriptionId":1.5"#,
            )),
            1,
            at("1.5", 0),
        ),
        (
            "invalid-server-info",
            text(modern_with(r#""io.modelcontextprotocol/serverInfo":[]"#)),
            1,
            at("[]", 0),
        ),
        (
            "meta-too-large",
            text(modern_with(
                &(0..40)
                    .map(|i| format!(r#""k{i}":"{}""#, "y".repeat(1000)))
                    .collect::<Vec<_>>()
                    .join(","),
            )),
            1,
            at("{\"io.", 0),
        ),
        (
            "meta-too-deep",
            text(modern_with(&format!(
                r#""d":{}1{}"#,
                "[".repeat(17),
                "]".repeat(17)
            ))),
            1,
            at("[", 16),
        ),
        (
            "meta-too-many-items",
            text(modern_with(&format!(r#""a":[{meta_items}]"#))),
            1,
            NO_ANCHOR,
        ),
        (
            "meta-string-too-long",
            text(modern_with(&format!(
                r#""s":"{}""#,
                "z".repeat(8 * 1024 + 1)
            ))),
            1,
            at("\"zz", 0),
        ),
    ]
}

fn run_jsonl(capture: &[u8]) -> (Vec<Value>, i32) {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["target", "--format", "jsonl", "-"])
        .write_stdin(capture.to_vec())
        .output()
        .unwrap();
    let records = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (records, output.status.code().unwrap())
}

#[test]
fn every_refusal_code_through_the_binary() {
    let mut covered = BTreeSet::new();
    for (code, capture, line, offset) in cases() {
        let (records, status) = run_jsonl(&capture);
        let record = records
            .iter()
            .find(|r| r["line"] == line)
            .unwrap_or_else(|| panic!("{code}: no record for line {line}"));
        assert_eq!(record["status"], "refused", "{code}: {record}");
        assert_eq!(record["code"], code, "{code}: {record}");
        let expected_rpc = RefusalCode::ALL
            .iter()
            .find(|c| c.as_str() == code)
            .unwrap()
            .jsonrpc_code();
        assert_eq!(record["jsonrpc_code"], expected_rpc, "{code}");
        let frame = capture
            .split_inclusive(|&b| b == b'\n')
            .nth(line as usize - 1)
            .unwrap();
        if let Some(anchor) = offset {
            assert_eq!(record["offset"], find(frame, anchor), "{code}: {record}");
        }
        assert!(!record["message"].as_str().unwrap().is_empty());
        assert_eq!(status, 1, "{code}: a refused frame exits 1");
        covered.insert(code);
    }
    let all: BTreeSet<&str> = RefusalCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(covered, all, "every refusal code has a case");
}

#[test]
fn unsupported_version_carries_supported_and_requested() {
    let (records, _) = run_jsonl(call_with_meta(r#"{"io.modelcontextprotocol/protocolVersion":"2025-06-18","io.modelcontextprotocol/clientCapabilities":{}}"#).as_bytes());
    assert_eq!(records[0]["jsonrpc_code"], -32022);
    assert_eq!(
        records[0]["data"],
        serde_json::json!({"supported": ["2026-07-28"], "requested": "2025-06-18"})
    );
}

#[test]
fn human_diagnostic_points_at_the_offending_bytes() {
    let frame = call_with_args(r#"{"sql":"drop","sql":"keep"}"#);
    let offset = find(frame.as_bytes(), Anchor::Needle(r#""sql""#, 1));
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["target", "--color", "never", "-"])
        .write_stdin(frame)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains("object key \"sql\" appears more than once in one object"),
        "{stdout}"
    );
    assert!(stdout.contains("duplicate-key"));
    assert!(
        stdout.contains(&format!(
            "JSON-RPC error -32602; byte offset {offset} in the frame"
        )),
        "{stdout}"
    );
    let marker_line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with('·') && l.contains('┬'))
        .expect("a label under the key");
    let source_line = stdout
        .lines()
        .find(|l| l.contains(r#""sql":"keep""#))
        .unwrap();
    let column = |line: &str, needle: &str| {
        line.char_indices()
            .position(|(i, _)| line[i..].starts_with(needle))
            .unwrap()
    };
    assert_eq!(
        column(marker_line, "─"),
        column(source_line, r#""sql":"keep""#),
        "label sits under the second key"
    );
}
