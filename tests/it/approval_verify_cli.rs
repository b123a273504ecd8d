//! `sealkit verify approval` through the real binary: one test per seal-host reason code that
//! a token line can reach (the others are unreachable in seal-host's own order and are
//! listed at the end), the binding checks, exit codes and the JSON shapes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use serde_json::{json, Value};
use support::*;

struct Run {
    code: i32,
    records: Vec<Value>,
    stderr: String,
}

fn run_verify(content: &[u8], args: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.ndjson");
    std::fs::write(&path, content).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval"])
        .arg(&path)
        .args(["--format", "jsonl"])
        .args(args)
        .args(if args.contains(&"--pubkey") {
            vec![]
        } else {
            vec!["--pubkey", PUBKEY]
        })
        .output()
        .unwrap();
    let records = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Run {
        code: output.status.code().unwrap(),
        records,
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// Runs one line and asserts it is rejected with `code` (exit status 1).
fn assert_reason(line: &str, args: &[&str], code: &str) -> Value {
    let run = run_verify(format!("{line}\n").as_bytes(), args);
    assert_eq!(run.code, 1, "{code}: stderr {}", run.stderr);
    let record = &run.records[0];
    assert_eq!(record["reason"], code, "{record}");
    assert_eq!(record["status"], "rejected");
    assert_eq!(run.records.last().unwrap()["rejected"], 1);
    record.clone()
}

fn frame_arg() -> String {
    frame_path().display().to_string()
}

#[test]
fn fixture_token_is_accepted_with_its_binding() {
    let frame = frame_arg();
    let run = run_verify(
        format!("{}\n", fixture_line()).as_bytes(),
        &[
            "--frame",
            &frame,
            "--target",
            TARGET,
            "--now",
            "1786000001000",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let record = &run.records[0];
    assert_eq!(record["status"], "accepted");
    assert_eq!(record["kind"], "approval-record-v2");
    assert_eq!(record["reason"], Value::Null);
    assert_eq!(
        record["binding"],
        json!({"subject": "match", "target": "match", "freshness": "fresh", "nonce": "first-in-file"})
    );
    assert_eq!(record["signed"]["target"], TARGET);
    assert_eq!(record["signed"]["signer_key_id"], KEY_ID);
    assert_eq!(
        record["signed"]["subject"],
        json!({"sha256": "ee5b38595d6f9524149c102174d8cbed1913a8f965d30e63cf67fc57e8fc7cd4", "length": 139})
    );
    assert_eq!(record["reported"], Value::Null);
    let summary = run.records.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["lines"], 1);
    assert_eq!(summary["accepted"], 1);
    assert_eq!(summary["trusted_key"]["key_id"], KEY_ID);
    assert_eq!(summary["checked"]["ttl_ms"], 120000);
}

#[test]
fn reason_approval_line_bytes_exceeded() {
    assert_reason(
        &"x".repeat(16 * 1024 + 1),
        &[],
        "approval_line_bytes_exceeded",
    );
}

#[test]
fn reason_approval_json_depth_exceeded() {
    assert_reason(&"[".repeat(65), &[], "approval_json_depth_exceeded");
}

#[test]
fn reason_approval_json_collection_items_exceeded() {
    let line = format!("[{}0]", "0,".repeat(4096));
    assert_reason(&line, &[], "approval_json_collection_items_exceeded");
}

#[test]
fn reason_parse_error_for_a_line_that_is_not_json() {
    let record = assert_parse_error("{\"payload\":");
    assert_eq!(record["kind"], "undetermined");
    assert_eq!(record["host_source"], "ed25519-token");
    assert!(record["host_record_id"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));
}

#[test]
fn reason_parse_error_for_a_payload_that_is_not_json() {
    let line = json!({"payload": "not json", "signature": "00"}).to_string();
    assert_parse_error(&line);
}

/// A line that is no token record is rejected as `parse_error` in a token file (one with a
/// record: a file with none is not a token file, see `empty_evidence`).
fn assert_parse_error(line: &str) -> Value {
    let run = run_verify(format!("{line}\n{}\n", fixture_line()).as_bytes(), &[]);
    assert_eq!(run.code, 1, "stderr {}", run.stderr);
    let record = &run.records[0];
    assert_eq!(record["reason"], "parse_error", "{record}");
    assert_eq!(record["status"], "rejected");
    assert_eq!(run.records[1]["status"], "accepted");
    assert_eq!(run.records.last().unwrap()["rejected"], 1);
    record.clone()
}

#[test]
fn reason_approval_payload_json_depth_exceeded() {
    let line = json!({"payload": "[".repeat(65)}).to_string();
    assert_reason(&line, &[], "approval_payload_json_depth_exceeded");
}

#[test]
fn reason_approval_payload_json_collection_items_exceeded() {
    let line = json!({"payload": format!("[{}0]", "0,".repeat(4096))}).to_string();
    assert_reason(
        &line,
        &[],
        "approval_payload_json_collection_items_exceeded",
    );
}

#[test]
fn reason_unsupported_approval_record_version() {
    let line = edited_v2_line(|p| p["approval_record_version"] = json!(3));
    assert_reason(&line, &[], "unsupported_approval_record_version");
}

#[test]
fn reason_approval_v2_surrounding_whitespace() {
    let line = format!(" {}", fixture_line());
    assert_reason(&line, &[], "approval_v2_surrounding_whitespace");
}

#[test]
fn reason_approval_v2_token_parse_error() {
    let mut token: Value = serde_json::from_str(&fixture_line()).unwrap();
    token["comment"] = json!("extra member");
    assert_reason(&token.to_string(), &[], "approval_v2_token_parse_error");
}

#[test]
fn reason_approval_v2_bad_signature_algorithm() {
    let mut token: Value = serde_json::from_str(&fixture_line()).unwrap();
    token["signature_algorithm"] = json!("ed25519");
    assert_reason(
        &token.to_string(),
        &[],
        "approval_v2_bad_signature_algorithm",
    );
}

#[test]
fn reason_approval_v2_bad_signature_encoding() {
    let mut token: Value = serde_json::from_str(&fixture_line()).unwrap();
    token["signature_encoding"] = json!("base64url");
    assert_reason(
        &token.to_string(),
        &[],
        "approval_v2_bad_signature_encoding",
    );
    // The same reason for a padded (non-canonical) signature, checked after the payload.
    let mut token: Value = serde_json::from_str(&fixture_line()).unwrap();
    let padded = format!("{}==", token["signature"].as_str().unwrap());
    token["signature"] = json!(padded);
    assert_reason(
        &token.to_string(),
        &[],
        "approval_v2_bad_signature_encoding",
    );
}

#[test]
fn reason_approval_v2_wrong_signer_key_id() {
    let other = "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29";
    let record = assert_reason(
        &fixture_line(),
        &["--pubkey", other],
        "approval_v2_wrong_signer_key_id",
    );
    assert_eq!(record["reported"]["signer_key_id"], KEY_ID);
    assert_eq!(record["reported"]["target"], TARGET);
    assert_eq!(record["signed"], Value::Null);
}

#[test]
fn reason_approval_v2_payload_parse_error() {
    let line = edited_v2_line(|p| {
        p.as_object_mut().unwrap().remove("session");
    });
    assert_reason(&line, &[], "approval_v2_payload_parse_error");
    // An uppercase target fails while parsing, as in seal-host.
    let line = edited_v2_line(|p| p["target"] = json!(TARGET.to_uppercase()));
    assert_reason(&line, &[], "approval_v2_payload_parse_error");
}

#[test]
fn reason_approval_v2_payload_validation_error() {
    let line = edited_v2_line(|p| p["expiry"] = json!(1));
    let record = assert_reason(&line, &[], "approval_v2_payload_validation_error");
    assert_eq!(record["detail"], "expiry: precedes authorized_at");
}

#[test]
fn reason_approval_v2_signer_key_id_mismatch() {
    let line = edited_v2_line(|p| p["authorization_signer_key_id"] = json!("someone-else"));
    assert_reason(&line, &[], "approval_v2_signer_key_id_mismatch");
}

#[test]
fn reason_approval_v2_payload_not_canonical() {
    // Same fields, declaration order instead of byte order.
    let text = serde_json::to_string(&fixture_payload()).unwrap();
    let reordered: Value = serde_json::from_str(&text).unwrap();
    let mut members: Vec<(String, Value)> =
        reordered.as_object().unwrap().clone().into_iter().collect();
    members.reverse();
    let body: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap(), v))
        .collect();
    let line = v2_line(&format!("{{{}}}", body.join(",")));
    assert_reason(&line, &[], "approval_v2_payload_not_canonical");
}

#[test]
fn reason_non_canonical_signature_scalar() {
    let mut token: Value = serde_json::from_str(&fixture_line()).unwrap();
    let bumped = with_scalar_plus_order(token["signature"].as_str().unwrap());
    token["signature"] = json!(bumped);
    assert_reason(&token.to_string(), &[], "non_canonical_signature_scalar");
}

#[test]
fn reason_bad_signature() {
    let payload = canonical(&fixture_payload());
    let other = canonical(&{
        let mut p = fixture_payload();
        p["nonce"] = json!("another nonce");
        p
    });
    let line = v2_line_with(&payload, &sign_v2(&other));
    let record = assert_reason(&line, &[], "bad_signature");
    assert_eq!(record["kind"], "approval-record-v2");
}

#[test]
fn reason_missing_required_field() {
    let payload = format!("{{\"target\":\"{TARGET}\",\"issuedAt\":1786000000000}}");
    let record = assert_reason(&v1_line(&payload), &[], "missing_required_field");
    assert_eq!(record["kind"], "signed-v1");
}

#[test]
fn reason_approval_record_v1_not_supported() {
    let payload =
        format!("{{\"target\":\"{TARGET}\",\"issuedAt\":1786000000000,\"nonce\":\"n-1\"}}");
    assert_reason(&v1_line(&payload), &[], "approval_record_v1_not_supported");
}

#[test]
fn reason_unknown_decision() {
    let payload = format!(
        "{{\"target\":\"{TARGET}\",\"issuedAt\":1786000000000,\"nonce\":\"n-1\",\"decision\":\"maybe\"}}"
    );
    assert_reason(&v1_line(&payload), &[], "unknown_decision:maybe");
}

#[test]
fn reason_target_or_subject_mismatch() {
    let other = "0".repeat(64);
    let record = assert_reason(
        &fixture_line(),
        &["--target", &other],
        "target_or_subject_mismatch",
    );
    assert_eq!(record["binding"]["target"], "mismatch");
    assert_eq!(record["host_source"], "approval-v2-context");
    assert_eq!(
        record["signed"]["target"], TARGET,
        "still reported as signed"
    );
    let wrong_frame = data("rust-unit-row40.frame").display().to_string();
    let record = assert_reason(
        &fixture_line(),
        &["--frame", &wrong_frame],
        "target_or_subject_mismatch",
    );
    assert_eq!(record["binding"]["subject"], "mismatch");
}

#[test]
fn reason_expired() {
    // Past the signed expiry.
    let record = assert_reason(&fixture_line(), &["--now", "1786000120001"], "expired");
    assert_eq!(record["binding"]["freshness"], "past-expiry");
    assert_eq!(record["host_source"], "a3");
    // Within the expiry but past a shorter policy TTL.
    let record = assert_reason(
        &fixture_line(),
        &["--now", "1786000061000", "--ttl", "60"],
        "expired",
    );
    assert_eq!(record["binding"]["freshness"], "past-ttl");
}

#[test]
fn reason_future_issued_at() {
    assert_reason(
        &fixture_line(),
        &["--now", "1785999994999"],
        "future_issued_at",
    );
    let run = run_verify(
        format!("{}\n", fixture_line()).as_bytes(),
        &["--now", "1785999995000"],
    );
    assert_eq!(run.code, 0, "5 s of skew is allowed");
}

#[test]
fn reason_replayed_nonce() {
    let line = fixture_line();
    let run = run_verify(format!("{line}\n\n{line}\n").as_bytes(), &[]);
    assert_eq!(run.code, 1);
    assert_eq!(run.records[0]["status"], "accepted");
    assert_eq!(
        run.records[1]["line"], 3,
        "physical line numbers, blank lines skipped"
    );
    assert_eq!(run.records[1]["reason"], "replayed_nonce");
    assert_eq!(run.records[1]["binding"]["nonce"], "repeated");
    // A record dropped earlier (here: another target) reserves no nonce, as in seal-host.
    let other = edited_v2_line(|p| p["target"] = json!("0".repeat(64)));
    let run = run_verify(
        format!("{other}\n{line}\n").as_bytes(),
        &["--target", TARGET],
    );
    assert_eq!(run.records[0]["reason"], "target_or_subject_mismatch");
    assert_eq!(run.records[0]["binding"]["nonce"], "not-applicable");
    assert_eq!(run.records[1]["status"], "accepted");
}

#[test]
fn reason_token_file_not_utf8() {
    let mut content = format!("{}\n", fixture_line()).into_bytes();
    content.extend_from_slice(b"{\"payload\":\"\xff\"}\n");
    let run = run_verify(&content, &[]);
    assert_eq!(run.code, 1);
    assert_eq!(run.records[1]["reason"], "token_file_not_utf8");
    let summary = run.records.last().unwrap();
    assert_eq!(summary["file_findings"][0]["code"], "token_file_not_utf8");
    assert_eq!(summary["file_findings"][0]["severity"], "error");
}

#[test]
fn reason_token_file_bytes_exceeded_is_a_warning() {
    let line = fixture_line();
    let copies = (4 * 1024 * 1024) / (line.len() - 10) + 10;
    let mut content = String::new();
    for index in 0..copies {
        let edited = edited_v2_line(|p| p["nonce"] = json!(format!("nonce-{index}")));
        content.push_str(&edited);
        content.push('\n');
    }
    let run = run_verify(content.as_bytes(), &[]);
    assert_eq!(run.code, 0, "a warning leaves the exit status alone");
    let summary = run.records.last().unwrap();
    assert_eq!(summary["accepted"], copies as u64);
    assert_eq!(
        summary["file_findings"][0]["code"],
        "token_file_bytes_exceeded"
    );
    assert_eq!(summary["file_findings"][0]["severity"], "warning");
    let run = run_verify(content.as_bytes(), &["--deny-warnings"]);
    assert_eq!(run.code, 1);
}

#[test]
fn signed_decline_is_accepted_and_bound_by_target_only() {
    let payload = format!(
        "{{\"target\":\"{TARGET}\",\"issuedAt\":1786000000000,\"nonce\":\"n-1\",\"decision\":\"deny\"}}"
    );
    let frame = frame_arg();
    let run = run_verify(
        format!("{}\n", v1_line(&payload)).as_bytes(),
        &["--target", TARGET, "--frame", &frame, "--now", "1"],
    );
    assert_eq!(run.code, 0);
    let record = &run.records[0];
    assert_eq!(record["kind"], "signed-decline");
    assert_eq!(
        record["signed"],
        json!({"decision": "deny", "target": TARGET, "issued_at": 1786000000000u64, "nonce": "n-1"})
    );
    assert_eq!(
        record["binding"],
        json!({"subject": "not-applicable", "target": "match", "freshness": "not-applicable", "nonce": "not-applicable"})
    );
    assert_eq!(run.records.last().unwrap()["declines"], 1);
}

#[test]
fn json_format_is_one_document_with_tokens_and_summary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.ndjson");
    std::fs::write(&path, format!("{}\nnot json\n", fixture_line())).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval"])
        .arg(&path)
        .args(["--pubkey", PUBKEY, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let document: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(document["tokens"].as_array().unwrap().len(), 2);
    assert_eq!(document["tokens"][1]["reason"], "parse_error");
    assert_eq!(document["summary"]["reasons"], json!({"parse_error": 1}));
}

#[test]
fn stdin_and_pubkey_file_work_and_unreadable_inputs_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let pubkey = dir.path().join("approval.pub");
    std::fs::write(&pubkey, format!("{PUBKEY}\n")).unwrap();
    Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval", "-", "--pubkey-file"])
        .arg(&pubkey)
        .write_stdin(format!("{}\n", fixture_line()))
        .assert()
        .code(0)
        .stdout(predicates::str::contains("1 accepted, 0 rejected"));
    Command::cargo_bin("sealkit")
        .unwrap()
        .args([
            "verify",
            "approval",
            "/nonexistent/tokens",
            "--pubkey",
            PUBKEY,
        ])
        .assert()
        .code(2);
    Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval", "-", "--pubkey", "abcd"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("key-file-format"));
    Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval", "-"])
        .write_stdin("")
        .assert()
        .code(2);
}

#[test]
fn human_output_has_a_table_diagnostics_and_says_what_was_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.ndjson");
    std::fs::write(&path, format!("{}\n[[\n", fixture_line())).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval"])
        .arg(&path)
        .args(["--pubkey", PUBKEY, "--color", "never"])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    // Piped, each row is one line, its target whole and the approver shown as what the
    // record claims, with its times as dates (issue 38 item 6; seen red on 5027bf8, its binary
    // in place of target/debug/sealkit: `2a01d254…c565` and no approver, times or session).
    let row = text
        .lines()
        .find(|l| l.starts_with("│ 1    ┆ accepted ┆ approval-record-v2 ┆ "))
        .expect(&text);
    for cell in [
        TARGET,
        "\"local CLI operator\" (claim)",
        "2026-08-06T07:06:40Z",
        "2026-08-06T07:08:40Z",
        "approve-cli/fixture",
    ] {
        assert!(row.contains(cell), "{cell} in {row}");
    }
    assert!(
        text.contains("approver names are claims: each was signed by the trusted key's holder"),
        "{text}"
    );
    assert!(
        text.contains("line 2: parse_error (seal-host logs source ed25519-token"),
        "{text}"
    );
    assert!(
        text.contains("2 token lines, 1 accepted, 1 rejected"),
        "{text}"
    );
    assert!(text.contains("frame not checked (no --frame)"), "{text}");
}

/// Reason codes seal-host defines that no single token line can reach in its order:
/// the string cap is 256 KiB but lines and payloads stop at 16 KiB; a payload is never
/// longer than the line it is decoded from; payload and envelope algorithms are both
/// pinned to "Ed25519" before they are compared; and validation bounds every integer
/// before rendering. Each is still implemented (unit tests cover the checks themselves).
#[test]
fn unreachable_reason_codes_are_the_documented_five() {
    let unreachable = [
        "approval_json_string_bytes_exceeded",
        "approval_payload_bytes_exceeded",
        "approval_payload_json_string_bytes_exceeded",
        "approval_v2_signature_algorithm_mismatch",
        "approval_v2_canonicalization_error",
    ];
    let readme = crate::support::documentation();
    for code in unreachable {
        assert!(readme.contains(code), "{code} is documented");
    }
    for reason in sealkit::approval::Reason::ALL {
        let code = reason.code();
        let code = if code.starts_with("unknown_decision:") {
            "unknown_decision:<value>".into()
        } else {
            code
        };
        assert!(
            readme.contains(&format!("`{code}`")),
            "{code} is in the reason table"
        );
    }
}

/// Line endings and blank lines as seal-host's `str::lines` reads them (hostile input):
/// CRLF endings are dropped, blank and whitespace-only lines are skipped, a CR
/// that is not part of the line ending stays in the line (and is surrounding whitespace),
/// a last line without LF is still a line, and line numbers are physical lines.
#[test]
fn crlf_blank_lines_stray_cr_and_a_missing_final_newline() {
    let token = |nonce: &str| edited_v2_line(|p| p["nonce"] = json!(nonce));
    let content = format!(
        "{}\r\n\n \t \n\r\n{}\r\r\n{}\n\u{0}\n{}",
        token("crlf"),
        token("stray-cr"),
        token("lf"),
        token("unterminated")
    );
    let run = run_verify(content.as_bytes(), &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let tokens: Vec<(u64, &str, &str)> = run.records[..run.records.len() - 1]
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["status"].as_str().unwrap(),
                r["reason"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        tokens,
        vec![
            (1, "accepted", "-"),
            (5, "rejected", "approval_v2_surrounding_whitespace"),
            (6, "accepted", "-"),
            (7, "rejected", "parse_error"),
            (8, "accepted", "-"),
        ]
    );
    let summary = run.records.last().unwrap();
    assert_eq!(summary["accepted"], 3);
    assert_eq!(summary["rejected"], 2);
}

/// seal-host's 16 KiB line cap counts the line without its ending: a correctly signed token
/// padded with insignificant whitespace inside its JSON object (which seal-host's serde read
/// accepts) to exactly 16384 bytes is accepted, with LF or CRLF; one byte more is
/// `approval_line_bytes_exceeded` before anything else is looked at.
#[test]
fn a_token_line_at_the_16_kib_cap_and_one_byte_over() {
    let line = fixture_line();
    let pad = |total: usize| {
        let inner = &line[..line.len() - 1];
        format!("{inner}{}}}", " ".repeat(total - line.len()))
    };
    let at_cap = pad(16 * 1024);
    assert_eq!(at_cap.len(), 16384);
    for ending in ["\n", "\r\n", ""] {
        let run = run_verify(format!("{at_cap}{ending}").as_bytes(), &[]);
        assert_eq!(run.code, 0, "{ending:?}: {}", run.stderr);
        assert_eq!(run.records[0]["status"], "accepted");
    }
    assert_reason(&pad(16 * 1024 + 1), &[], "approval_line_bytes_exceeded");
}

/// A line longer than the 4 MiB seal-host reads of a file is not held in memory: sealkit
/// keeps its first 4 MiB, counts the rest, reports `approval_line_bytes_exceeded` with the
/// true length, and reads on (the next token is checked as usual).
#[test]
fn a_line_longer_than_seal_host_reads_is_measured_not_held() {
    let length = 5 * 1024 * 1024 + 3;
    let mut content = "x".repeat(length);
    content.push_str("\r\n");
    content.push_str(&fixture_line());
    content.push('\n');
    let run = run_verify(content.as_bytes(), &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.records[0]["reason"], "approval_line_bytes_exceeded");
    assert_eq!(
        run.records[0]["detail"],
        format!("line is {length} bytes, over seal-host's 16384")
    );
    assert_eq!(run.records[1]["line"], 2);
    assert_eq!(run.records[1]["status"], "accepted");
    let summary = run.records.last().unwrap();
    assert_eq!(
        summary["file_findings"][0]["code"],
        "token_file_bytes_exceeded"
    );
}

/// Issue 38 item 6: for each accepted token, who approved and when, as minisign prints its
/// trusted comment and `ssh-keygen -Y verify` its principal. Under one key the signed
/// approver is shown as the claim it is; under a trusted-approvers list the name the list
/// gives the key comes first, the record's own name beside it. Times are dates. Fitted to
/// 80 columns (`COLUMNS`), each token is a record with every value whole. Seen red on
/// 5027bf8 (run with the binary built from 5027bf8 in place of target/debug/sealkit), which showed status, kind and a shortened target only.
#[test]
fn accepted_tokens_say_who_approved_what_and_when() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.ndjson");
    std::fs::write(&path, format!("{}\n", fixture_line())).unwrap();
    // Kept apart from the tokens: a list beside them is approval-key-in-evidence.
    let keys = tempfile::tempdir().unwrap();
    let list = keys.path().join("approvers.txt");
    std::fs::write(&list, format!("alice {PUBKEY}\n")).unwrap();
    let run = |trust: &[&str]| {
        let output = Command::cargo_bin("sealkit")
            .unwrap()
            .args(["verify", "approval", "--color", "never"])
            .arg(&path)
            .args(trust)
            .env("COLUMNS", "80")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let list_arg = list.display().to_string();
    for (trust, approver) in [
        (
            vec!["--pubkey", PUBKEY],
            "approver    \"local CLI operator\" (claim)\n",
        ),
        (
            vec!["--trusted-approvers", list_arg.as_str()],
            "approver    alice (trusted list); record claims \"local CLI operator\"\n",
        ),
    ] {
        let text = run(&trust);
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        for line in [
            "line        1\n",
            "status      accepted\n",
            &format!("target      {TARGET}\n"),
            approver,
            "authorized  2026-08-06T07:06:40Z\n",
            "expiry      2026-08-06T07:08:40Z\n",
            "session     approve-cli/fixture\n",
        ] {
            assert!(text.contains(line), "{line:?} in\n{text}");
        }
        let claims = text.contains("approver names are claims");
        assert_eq!(claims, trust[0] == "--pubkey", "{text}");
    }
}
