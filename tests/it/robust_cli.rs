//! Hostile inputs through the real binary: sizes at and past every limit,
//! nesting, wide objects, bytes that are not UTF-8 or not UTF-8 at all, and lines the V2
//! reader and the envelope builder must refuse. Large inputs are generated here, never
//! committed. Every case asserts the exact code, offset and exit status; smaller, readable
//! cases are trycmd transcripts under `tests/cmd/robust/`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::Value;

const MIB: usize = 1024 * 1024;

fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

/// A `tools/call` frame (LF included) with these `arguments`.
fn call(arguments: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{arguments}}}}}"#
    )
    .into_bytes()
    .into_iter()
    .chain([b'\n'])
    .collect()
}

/// `sealkit target --format jsonl -` over a capture: exit status and one record per frame.
fn target(capture: Vec<u8>) -> (i32, Vec<Value>) {
    let output = sealkit()
        .args(["target", "--format", "jsonl", "-"])
        .write_stdin(capture)
        .output()
        .unwrap();
    let records = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (output.status.code().unwrap(), records)
}

fn code(record: &Value) -> &str {
    record["code"].as_str().unwrap_or("call")
}

/// A frame padded with a string member so that it is exactly `length` bytes with its LF.
/// The padding is split into strings under seal-host's 256 KiB string cap.
fn frame_of_length(length: usize) -> Vec<u8> {
    let empty = call(r#"{"p":[]}"#).len();
    let mut pad = length - empty;
    let mut strings = Vec::new();
    while pad > 0 {
        // Each further string costs its quotes and a comma.
        let overhead = if strings.is_empty() { 2 } else { 3 };
        let body = (pad - overhead).min(200_000);
        strings.push(format!("\"{}\"", "x".repeat(body)));
        pad -= body + overhead;
    }
    let frame = call(&format!(r#"{{"p":[{}]}}"#, strings.join(",")));
    assert_eq!(frame.len(), length);
    frame
}

#[test]
fn a_frame_of_one_mib_passes_and_one_byte_more_is_refused_then_reading_goes_on() {
    let mut capture = frame_of_length(MIB);
    capture.extend(frame_of_length(MIB + 1));
    capture.extend(call("{}"));
    let (status, records) = target(capture);
    assert_eq!(status, 1);
    assert_eq!(records.len(), 3);
    assert_eq!(records[0]["status"], "ok");
    assert_eq!(records[0]["subject"]["length"], MIB);
    assert_eq!(code(&records[1]), "frame-too-large");
    assert_eq!(records[1]["jsonrpc_code"], -32001);
    assert_eq!(records[1]["capture_offset"], MIB + MIB);
    assert_eq!(records[2]["status"], "ok");
    assert_eq!(records[2]["line"], 3);
}

#[test]
fn an_unterminated_oversized_last_frame_is_refused_by_its_true_length() {
    let mut frame = frame_of_length(MIB + 1);
    frame.pop();
    frame.push(b' ');
    frame.extend(vec![b' '; 10]);
    let (status, records) = target(frame);
    assert_eq!(status, 1);
    assert_eq!(code(&records[0]), "frame-too-large");
    assert!(records[0]["message"]
        .as_str()
        .unwrap()
        .contains(&format!("{} bytes", MIB + 11)));
}

/// `arguments` holding arrays nested so that the frame's deepest container is `depth`
/// levels down (the frame object, `params` and `arguments` are the first three).
fn nested(depth: usize) -> Vec<u8> {
    let arrays = depth - 3;
    call(&format!(
        r#"{{"v":{}{}}}"#,
        "[".repeat(arrays),
        "]".repeat(arrays)
    ))
}

#[test]
fn nesting_64_passes_65_meets_the_host_cap_and_129_the_seal_guard() {
    let mut capture = nested(64);
    capture.extend(nested(65));
    capture.extend(nested(129));
    let (status, records) = target(capture);
    assert_eq!(status, 1);
    assert_eq!(records[0]["status"], "ok");
    assert_eq!(code(&records[1]), "json-depth-exceeded");
    // The opening bracket at depth 65: the first bracket, at offset 84, is at depth 4.
    let frame = nested(65);
    let at = records[1]["offset"].as_u64().unwrap() as usize;
    assert_eq!(frame[at], b'[');
    assert_eq!(at, 84 + 65 - 4);
    assert_eq!(records[1]["jsonrpc_code"], -32001);
    // Seal's guard 7 (depth 128) is checked before seal-host's cap.
    assert_eq!(code(&records[2]), "nesting-too-deep");
    assert_eq!(records[2]["jsonrpc_code"], -32602);
}

#[test]
fn a_hundred_thousand_keys_meet_the_item_cap_and_a_late_duplicate_the_key_guard() {
    // Three-letter keys keep 100,000 members (800 KB) under the 1 MiB frame limit.
    let name = |i: usize| -> String {
        let letters = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        [i / 3844, i / 62 % 62, i % 62]
            .iter()
            .map(|&d| letters[d] as char)
            .collect()
    };
    let keys: Vec<String> = (0..100_000)
        .map(|i| format!(r#""{}":0"#, name(i)))
        .collect();
    let wide = call(&format!("{{{}}}", keys.join(",")));
    let last = name(99_999);
    let with_duplicate = call(&format!(r#"{{{},"{last}":1}}"#, keys.join(",")));
    assert!(with_duplicate.len() < MIB);
    let mut capture = wide.clone();
    capture.extend(&with_duplicate);
    let (status, records) = target(capture);
    assert_eq!(status, 1);
    assert_eq!(code(&records[0]), "json-collection-too-large");
    // The 4096th comma of the object: right after the 4096th member.
    let at = records[0]["offset"].as_u64().unwrap() as usize;
    assert!(wide[..at].ends_with(format!(r#""{}":0"#, name(4095)).as_bytes()));
    assert_eq!(wide[at], b',');
    assert_eq!(code(&records[1]), "duplicate-key");
    let at = records[1]["offset"].as_u64().unwrap() as usize;
    assert!(with_duplicate[at..].starts_with(format!(r#""{last}":1}}"#).as_bytes()));
}

#[test]
fn invalid_utf8_is_refused_at_its_first_bad_byte() {
    let mut frame = call(r#"{"s":"caf?"}"#);
    let at = frame.iter().position(|&b| b == b'?').unwrap();
    frame[at] = 0xE9; // Latin-1 é
    let mut overlong = call(r#"{"s":"??"}"#);
    let at2 = overlong.iter().position(|&b| b == b'?').unwrap();
    overlong[at2] = 0xC0; // overlong encoding of '/'
    overlong[at2 + 1] = 0xAF;
    let mut capture = frame;
    capture.extend(&overlong);
    let (status, records) = target(capture);
    assert_eq!(status, 1);
    for (record, offset) in records.iter().zip([at, at2]) {
        assert_eq!(code(record), "invalid-utf8");
        assert_eq!(record["offset"], offset);
        assert_eq!(record["jsonrpc_code"], -32700);
    }
    assert!(records[0]["message"]
        .as_str()
        .unwrap()
        .contains("invalid byte 0xE9"));
}

fn utf16(text: &str, big_endian: bool, bom: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let units = bom.then_some(0xFEFF).into_iter().chain(text.encode_utf16());
    for unit in units {
        let bytes = if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        };
        out.extend(bytes);
    }
    out
}

#[test]
fn utf16_captures_are_named_as_such() {
    let text = String::from_utf8(call("{}")).unwrap();
    for (big_endian, name) in [
        (false, "UTF-16 little-endian (byte-order mark FF FE)"),
        (true, "UTF-16 big-endian (byte-order mark FE FF)"),
    ] {
        let output = sealkit()
            .args(["target", "--color", "never", "-"])
            .write_stdin(utf16(&text, big_endian, true))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "cannot check: exit 2");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(name), "{stderr}");
        assert!(stderr.contains("iconv -f UTF-16 -t UTF-8"), "{stderr}");
    }
    // Without a byte-order mark, ASCII text with every other byte NUL is named UTF-16 too,
    // before any frame is read (issue 37: it was read as frames, each refused, exit 1).
    for (big_endian, name) in [
        (false, "UTF-16 little-endian (no byte-order mark"),
        (true, "UTF-16 big-endian (no byte-order mark"),
    ] {
        let output = sealkit()
            .args(["target", "--color", "never", "-"])
            .write_stdin(utf16(&text, big_endian, false))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.contains(name), "{stderr}");
        assert!(stderr.contains("unsupported-encoding"), "{stderr}");
    }
}

#[test]
fn a_utf8_byte_order_mark_is_named() {
    let mut capture = b"\xEF\xBB\xBF".to_vec();
    capture.extend(call("{}"));
    let (status, records) = target(capture);
    assert_eq!(status, 1);
    assert_eq!(code(&records[0]), "parse-error");
    assert_eq!(records[0]["offset"], 0);
    assert!(records[0]["message"]
        .as_str()
        .unwrap()
        .contains("UTF-8 byte-order mark (EF BB BF)"));
}

#[test]
fn nul_bytes_outside_and_inside_strings_are_refused_and_escaped_nul_is_data() {
    let mut inside = call(r#"{"s":"a?b"}"#);
    let at = inside.iter().position(|&b| b == b'?').unwrap();
    inside[at] = 0;
    let mut outside = call(r#"{"s":1}"#);
    let at2 = outside.len() - 1;
    outside.insert(at2, 0);
    let escaped = call(r#"{"s":"a\u0000b"}"#);
    let mut capture = inside;
    capture.extend(&outside);
    capture.extend(&escaped);
    let (status, records) = target(capture);
    assert_eq!(status, 1);
    assert_eq!(code(&records[0]), "parse-error");
    assert_eq!(records[0]["offset"], at);
    assert_eq!(code(&records[1]), "parse-error");
    assert_eq!(records[1]["offset"], at2);
    assert_eq!(records[2]["status"], "ok");
}

#[test]
fn numbers_at_the_guard_edges() {
    let cases: [(&str, &str); 8] = [
        ("1e309", "number-not-binary64"),
        ("-1e309", "number-not-binary64"),
        ("1e-400", "number-not-binary64"),
        ("1e1000000", "exponent-too-long"),
        ("1234567890123456789", "too-many-digits"),
        ("123456789012345678", "number-not-binary64"),
        ("9007199254740993", "number-not-binary64"),
        ("-0.0000000000000000001", "too-many-digits"),
    ];
    let capture: Vec<u8> = cases
        .iter()
        .flat_map(|(n, _)| call(&format!(r#"{{"n":{n}}}"#)))
        .collect();
    let (status, records) = target(capture);
    assert_eq!(status, 1);
    for ((literal, expected), record) in cases.iter().zip(&records) {
        assert_eq!(code(record), *expected, "{literal}");
        assert_eq!(record["offset"], 84, "{literal}");
    }
}

#[test]
fn negative_zero_and_the_largest_safe_integer_are_data() {
    let capture: Vec<u8> = [r#"{"n":-0}"#, r#"{"n":9007199254740991}"#, r#"{"n":-0.0}"#]
        .iter()
        .flat_map(|a| call(a))
        .collect();
    let output = sealkit()
        .args(["target", "--format", "jsonl", "--explain", "-"])
        .write_stdin(capture)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let records: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    // Seal's canonical arguments: Lean renders -0 and -0.0 as 0; seal-host's serde_json
    // reads -0 as the float -0.0.
    let parts = |r: &Value| r["explain"]["effect"]["committed"].to_string();
    assert!(
        parts(&records[0]).contains(r#"{\"n\":0}"#),
        "{}",
        parts(&records[0])
    );
    assert!(parts(&records[1]).contains("9007199254740991"));
    assert!(parts(&records[2]).contains(r#"{\"n\":0}"#));
    assert_eq!(
        records[0]["identities"]["committed"],
        records[2]["identities"]["committed"]
    );
    assert_ne!(
        records[0]["canonical_request_sha256"],
        records[1]["canonical_request_sha256"]
    );
}

#[test]
fn empty_and_whitespace_lines_are_skipped_and_a_bare_cr_is_stripped_from_the_last_frame() {
    let mut capture = b"\n\r\n \t \n".to_vec();
    let mut last = call("{}");
    last.pop();
    let crlf: Vec<u8> = [&last[..], b"\r\n"].concat();
    capture.extend(&crlf);
    capture.extend(&last);
    capture.push(b'\r');
    let (status, records) = target(capture);
    assert_eq!(status, 0);
    assert_eq!(records.len(), 5);
    for record in &records[..3] {
        assert_eq!(record["status"], "skipped");
        assert_eq!(record["kind"], "blank");
    }
    // Same request line, different frames: same request_sha256, different subjects.
    assert_eq!(records[3]["request_sha256"], records[4]["request_sha256"]);
    assert_eq!(records[3]["subject"]["length"], last.len() + 2);
    assert_eq!(records[4]["subject"]["length"], last.len() + 1);
    assert_ne!(
        records[3]["subject"]["sha256"],
        records[4]["subject"]["sha256"]
    );
}

/// Blank lines are each reported, but they are no frames: a capture of nothing else, and an
/// empty one, checked nothing, which is never a clean run (exit 1, `no-frames`; exit 0
/// before issue 37).
#[test]
fn a_capture_of_only_lfs_and_an_empty_capture_check_nothing() {
    let (status, records) = target(vec![b'\n'; 10_000]);
    assert_eq!(status, 1);
    assert_eq!(records.len(), 10_000);
    let (status, records) = target(Vec::new());
    assert_eq!(status, 1);
    assert!(records.is_empty());
    let output = sealkit()
        .args(["target", "--format", "jsonl", "-"])
        .output()
        .unwrap();
    let error: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(error["code"], "no-frames");
}

/// `sealkit envelope` over a frame on stdin with the test parameter file.
fn envelope(frame: &[u8], extra: &[&str]) -> (i32, Value) {
    let output = sealkit()
        .args([
            "envelope",
            "--format",
            "json",
            "--params",
            "testdata/typed/envelope-params.json",
        ])
        .args(extra)
        .arg("-")
        .write_stdin(frame.to_vec())
        .output()
        .unwrap();
    // A report goes to stdout; a could-not-run error (exit 2) to stderr, as JSON too.
    let stream = if output.stdout.is_empty() {
        output.stderr
    } else {
        output.stdout
    };
    let text = String::from_utf8(stream).unwrap();
    let report = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    (output.status.code().unwrap(), report)
}

const TYPED: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"db.execute","action":"write","arguments":{"sql":"x"}}}"#;

#[test]
fn envelope_refuses_what_is_not_one_canonical_utf8_frame() {
    let two = format!("{TYPED}\n{TYPED}\n");
    let (status, report) = envelope(two.as_bytes(), &[]);
    assert_eq!(status, 2);
    assert!(report["message"]
        .as_str()
        .unwrap()
        .starts_with("envelope-multiple-frames:"));

    // Not UTF-8: refused by the validation pipeline, as `target` refuses it.
    let mut bad = TYPED.as_bytes().to_vec();
    bad.insert(40, 0xFF);
    let (status, report) = envelope(&bad, &[]);
    assert_eq!(status, 1);
    assert_eq!(report["code"], "invalid-utf8");
    assert_eq!(report["offset"], 40);

    // Frames the pipeline accepts but that are not canonical V2 yield no derived claim
    // (exit 2 with the V2 code); offsets count from the value that replaces "x" (at byte
    // 112 of TYPED).
    let at = |delta: usize| 112 + delta;
    for (line, code, offset) in [
        (format!("{TYPED} "), "v2-whitespace", 118),
        (
            TYPED.replace("\"x\"", "\"\\u00E9\""),
            "v2-escape-not-canonical",
            at(1),
        ),
        (
            TYPED.replace("\"x\"", "1.50"),
            "v2-fraction-trailing-zero",
            at(3),
        ),
        (TYPED.replace("\"x\"", "-0"), "v2-negative-zero", at(0)),
        (TYPED.replace("\"x\"", "1e2"), "v2-exponent", at(1)),
        (
            TYPED.replace("\"x\"", "\"caf\u{e9}\""),
            "v2-non-ascii",
            at(4),
        ),
        (String::new(), "v2-syntax", 0),
    ] {
        let refusal = format!("{code} at byte {offset}:");
        let (status, report) = envelope(line.as_bytes(), &[]);
        assert_eq!(status, 2, "{line}");
        let message = report["message"].as_str().unwrap();
        assert!(
            message.starts_with("effect-underivable:") && message.contains(&refusal),
            "{line}: {message}"
        );
    }
    // Frames the pipeline refuses never reach the V2 reader: exit 1 with `target`'s code.
    for (line, code) in [
        (TYPED.replace("\"x\"", "\"\\ud800\""), "lone-surrogate"),
        (
            TYPED.replace("\"x\"", &format!("{}{}", "[".repeat(130), "]".repeat(130))),
            "nesting-too-deep",
        ),
    ] {
        let (status, report) = envelope(line.as_bytes(), &[]);
        assert_eq!((status, report["code"].as_str()), (1, Some(code)), "{line}");
    }
}

#[test]
fn envelope_with_a_declared_absent_effect_reports_smuggled_and_empty_lines() {
    let (status, report) = envelope(b"", &["--effect", "absent"]);
    assert_eq!(status, 1);
    assert_eq!(report["findings"][0]["code"], "line-empty");

    // A raw NUL inside a string is not JSON: refused before any message is built.
    let smuggled = TYPED.replace("\"x\"", "\"a\0b\"");
    let (status, report) = envelope(smuggled.as_bytes(), &["--effect", "absent"]);
    assert_eq!(status, 1);
    assert_eq!(report["code"], "parse-error");
}

/// Inputs that never end (`/dev/zero` stands for a FIFO or a planted huge file): every file
/// a command reads whole is read only up to its limit plus one byte, then the command says
/// which limit and exits 2 (could not check); nothing is written.
#[test]
fn endless_inputs_stop_at_their_limit_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("approval.key");
    std::fs::write(&key, format!("{}\n", "17".repeat(32))).unwrap();
    std::fs::set_permissions(&key, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    let hex = "a".repeat(64);
    let receipt_key = "testdata/receipts/fixture-dir/.seal-receipt-ed25519.key";
    let small = format!("larger than {} bytes, not read further", 16 * MIB);
    let receipt = format!("larger than {} bytes, not read further", 64 * MIB);
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "verify",
                "receipt",
                "/dev/zero",
                "--receipt-key",
                receipt_key,
            ],
            &receipt,
        ),
        (
            vec!["verify", "receipt", "-", "--receipt-key", receipt_key],
            &receipt,
        ),
        (
            vec![
                "verify",
                "bundle",
                "/dev/zero",
                "--issuer-pubkey",
                &hex,
                "--request-pubkey",
                &hex,
                "--approval-pubkey",
                &hex,
            ],
            &receipt,
        ),
        (
            vec![
                "verify",
                "chain",
                "testdata/receipts/chain/sealed.json",
                "--state",
                "/dev/zero",
            ],
            "larger than 16384 bytes, not read further",
        ),
        (
            vec![
                "target",
                "--tool-spec",
                "/dev/zero",
                "testdata/captures/sample.jsonl",
            ],
            &small,
        ),
        (vec!["envelope", "/dev/zero"], &small),
        (vec!["envelope", "-"], &small),
        (
            vec![
                "verify",
                "approval",
                "testdata/approvals/fixture-run-allow.token.ndjson",
                "--pubkey",
                &hex,
                "--frame",
                "/dev/zero",
            ],
            &small,
        ),
        (
            vec![
                "approve",
                "--token-file",
                tokens.to_str().unwrap(),
                "--frame",
                "/dev/zero",
                "--target",
                &hex,
                "--key-file",
                key.to_str().unwrap(),
                "--yes",
            ],
            &small,
        ),
    ];
    for (args, message) in cases {
        let output = std::process::Command::new(assert_cmd::cargo::cargo_bin("sealkit"))
            .args(&args)
            .stdin(std::fs::File::open("/dev/zero").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr)
            .replace(" │ ", " ")
            .replace('\n', " ");
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains(message),
            "{args:?}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    assert!(!tokens.exists(), "approve wrote a token file");
}
