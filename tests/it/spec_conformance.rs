//! The `_meta` partition rules `target` states, through the real binary: reserved keys are
//! typed in every era, `-32022` answers only an otherwise well-formed request, evidence says
//! which unknown-key policy was applied, and the human table shows every context value the
//! committed identity covers.
//!
//! Seen red on 08828c0: with `--era legacy` both reserved-key frames were accepted (ok
//! records); every `*_before_unsupported_version` frame got unsupported-protocol-version
//! (-32022); ok records had no `meta.unknown_keys` and the human output never named the
//! policy; a frame carrying `requestState` and `inputResponses` showed neither.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::Value;

const PV: &str = "io.modelcontextprotocol/protocolVersion";
const CC: &str = "io.modelcontextprotocol/clientCapabilities";

fn call_meta(meta: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{}},"_meta":{meta}}}}}"#
    )
}

fn jsonl(capture: &str, args: &[&str]) -> (Vec<Value>, i32) {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["target", "--format", "jsonl"])
        .args(args)
        .arg("-")
        .write_stdin(capture.to_owned())
        .output()
        .unwrap();
    let records = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (records, output.status.code().unwrap())
}

fn human(capture: &str, args: &[&str]) -> String {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["target", "--color", "never"])
        .args(args)
        .arg("-")
        .write_stdin(capture.to_owned())
        .output()
        .unwrap();
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn reserved_keys_are_typed_in_every_era() {
    for (meta, code, needle) in [
        (
            format!(r#"{{"{PV}":20260728,"{CC}":{{}}}}"#),
            "invalid-protocol-version",
            "20260728",
        ),
        (
            format!(r#"{{"{CC}":"x"}}"#),
            "invalid-client-capabilities",
            "\"x\"",
        ),
    ] {
        let frame = call_meta(&meta);
        let offset = frame.find(needle).unwrap();
        for era in ["legacy", "2026-07-28", "auto"] {
            let (records, status) = jsonl(&format!("{frame}\n"), &["--era", era]);
            let r = &records[0];
            assert_eq!(status, 1, "{era} {meta}");
            assert_eq!(r["code"], code, "{era} {meta}: {r}");
            assert_eq!(r["jsonrpc_code"], -32602);
            assert_eq!(r["offset"], offset);
        }
    }
    // Only the supported-version check belongs to 2026-07-28: a well-typed version string
    // sealkit does not support is accepted and committed under --era legacy.
    let frame = call_meta(&format!(r#"{{"{PV}":"2099-01-01","{CC}":{{}}}}"#));
    let (records, status) = jsonl(&format!("{frame}\n"), &["--era", "legacy"]);
    assert_eq!((status, &records[0]["status"]), (0, &Value::from("ok")));
    let (records, _) = jsonl(&format!("{frame}\n"), &["--era", "2026-07-28"]);
    assert_eq!(records[0]["jsonrpc_code"], -32022);
}

#[test]
fn malformed_keys_answer_before_unsupported_version() {
    let unsupported = format!(r#""{PV}":"2099-01-01""#);
    for (extra, code) in [
        (format!(r#","{CC}":"x""#), "invalid-client-capabilities"),
        (String::new(), "missing-client-capabilities"),
        (
            format!(r#","{CC}":{{}},"io.modelcontextprotocol/logLevel":"loud""#),
            "invalid-log-level",
        ),
        (
            format!(r#","{CC}":{{}},"progressToken":1.5"#),
            "invalid-progress-token",
        ),
        (
            format!(r#","{CC}":{{}},"traceparent":"00-x""#),
            "invalid-traceparent",
        ),
        (
            format!(r#","{CC}":{{}},"s":"{}""#, "z".repeat(8 * 1024 + 1)),
            "meta-string-too-long",
        ),
    ] {
        let frame = call_meta(&format!("{{{unsupported}{extra}}}"));
        let (records, status) = jsonl(&format!("{frame}\n"), &[]);
        assert_eq!(status, 1);
        assert_eq!(records[0]["code"], code, "{}", records[0]);
        assert_ne!(records[0]["jsonrpc_code"], -32022, "{code}");
        assert!(records[0].get("data").is_none(), "{code}: no -32022 data");
    }
    // Well-formed otherwise: -32022 with its data.
    let frame = call_meta(&format!("{{{unsupported},\"{CC}\":{{}}}}"));
    let (records, _) = jsonl(&format!("{frame}\n"), &[]);
    assert_eq!(records[0]["code"], "unsupported-protocol-version");
    assert_eq!(records[0]["jsonrpc_code"], -32022);
    assert_eq!(records[0]["data"]["requested"], "2099-01-01");
}

#[test]
fn evidence_states_the_unknown_key_policy() {
    let frames = [
        call_meta(r#"{"vendor.example/x":{"y":1}}"#),
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}"#.to_owned(),
    ];
    let capture = format!("{}\n{}\n", frames[0], frames[1]);
    let (records, status) = jsonl(&capture, &[]);
    assert_eq!(status, 0);
    for record in &records {
        assert_eq!(record["meta"]["unknown_keys"], "committed", "{record}");
    }
    assert_eq!(records[0]["meta"]["keys"][0], "vendor.example/x");
    // Human output says it once per run, however many captures and frames (standard input
    // can be read once, so the second capture is a file).
    let dir = tempfile::tempdir().unwrap();
    let second = dir.path().join("second.capture");
    std::fs::write(&second, &capture).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["target", "--color", "never", "-"])
        .arg(&second)
        .write_stdin(capture)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        text.matches("unknown _meta keys: committed").count(),
        1,
        "{text}"
    );
}

#[test]
fn human_table_shows_every_context_value_the_commitment_covers() {
    let frame = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{},"requestState":"s-1","inputResponses":{"q":{"action":"accept"}}}}"#;
    let text = human(&format!("{frame}\n"), &[]);
    assert!(text.contains("requestState: present"), "{text}");
    assert!(text.contains("inputResponses: present"), "{text}");
    let explained = human(&format!("{frame}\n"), &["--explain"]);
    assert!(
        explained.contains(r#"requestState (canonical): "\"s-1\"""#),
        "{explained}"
    );
    assert!(
        explained.contains(r#"inputResponses (canonical): "{\"q\":{\"action\":\"accept\"}}""#),
        "{explained}"
    );
    // Without them the rows say nothing of them, and --explain says they are absent.
    let bare =
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}"#;
    let text = human(&format!("{bare}\n"), &["--explain"]);
    assert!(!text.contains(": present"), "{text}");
    assert!(text.contains("requestState: absent") && text.contains("inputResponses: absent"));
}
