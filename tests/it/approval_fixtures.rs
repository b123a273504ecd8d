//! ApprovalRecord v2 tokens written by seal-host's own producers (testdata/approvals): each
//! verifies against its frame and key; signing the same inputs gives the same bytes; and no
//! single-byte change to a token line survives verification.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sealkit::approval::binding::{bind_approval, Check, Expectations, Subject};
use sealkit::approval::sign::{sign_approval, ApprovalInputs};
use sealkit::approval::verify::{verify_line, TokenVerdict};
use sealkit::approval::{Payload, Renderer};
use sealkit::digest::sha256_hex;
use sealkit::keys::SecretKey;
use std::path::Path;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/approvals");

fn read(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(DATA).join(name)).unwrap()
}

fn key() -> SecretKey {
    SecretKey::from_seed(&[0x17; 32])
}

fn token_lines(name: &str) -> Vec<String> {
    String::from_utf8(read(name))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn verified(line: &str) -> Payload {
    match verify_line(line, &key().public) {
        TokenVerdict::Approval(approval) => approval.payload,
        other => panic!("fixture token refused: {other:?}"),
    }
}

/// seal-host's `demo/approve_cli.py` renderer: heading, target line, then the frame.
fn approve_cli_shown(target: &str, frame: &[u8]) -> Vec<u8> {
    let mut shown = format!(
        "Seal approval request\ntarget: {target}\nexact MCP request frame (including delimiter):\n"
    )
    .into_bytes();
    shown.extend_from_slice(frame);
    shown
}

fn approve_cli_renderer() -> Renderer {
    let manifest = b"{\"name\":\"seal-approve-cli-raw-mcp-frame\",\"version\":\"1.0.0\",\"format\":\"heading, target line, then exact UTF-8 MCP request frame including delimiter\"}";
    Renderer {
        name: "seal-approve-cli-raw-mcp-frame".into(),
        version: "1.0.0".into(),
        manifest_sha256: sha256_hex(manifest),
    }
}

/// (token file, frame file) pairs, one frame per token line.
fn fixtures() -> Vec<(String, Vec<u8>)> {
    let frame_run = [read("fixture-run-line.txt"), b"\n".to_vec()].concat();
    let mut pairs = vec![
        (
            token_lines("approve-cli-getting-started.token.ndjson").remove(0),
            read("getting-started-call.frame"),
        ),
        (
            token_lines("rust-unit-row40.token.ndjson").remove(0),
            read("rust-unit-row40.frame"),
        ),
        (
            token_lines("fixture-run-allow.token.ndjson").remove(0),
            frame_run,
        ),
    ];
    for era in ["old", "new"] {
        let l = token_lines(&format!("legacy-vs-current/{era}/approvals-L.ndjson"));
        let m = token_lines(&format!("legacy-vs-current/{era}/approvals-M.ndjson"));
        pairs.push((l[0].clone(), read("legacy-vs-current/frames/F02.frame")));
        for (line, frame) in m.into_iter().zip(["F05", "F07", "F08"]) {
            pairs.push((
                line,
                read(&format!("legacy-vs-current/frames/{frame}.frame")),
            ));
        }
    }
    pairs
}

#[test]
fn every_fixture_token_verifies_against_its_frame_target_and_key() {
    let pairs = fixtures();
    assert_eq!(pairs.len(), 11);
    for (line, frame) in pairs {
        let payload = verified(&line);
        let expected = Expectations {
            subject: Some(Subject::of(&frame)),
            target: Some(payload.target.clone()),
            now_ms: Some(payload.authorized_at + 1000),
            ttl_ms: 120_000,
        };
        let binding = bind_approval(&payload, &expected);
        assert_eq!(binding.subject, Check::Match, "{line}");
        assert_eq!(binding.target, Check::Match);
        assert_eq!(binding.first_failure(), None, "{line}");
        assert_eq!(
            payload.authorization_signer_key_id,
            "e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8"
        );
    }
}

#[test]
fn known_targets_and_subjects_of_the_main_fixtures() {
    let getting_started = verified(&token_lines("approve-cli-getting-started.token.ndjson")[0]);
    assert_eq!(
        getting_started.target,
        "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565"
    );
    assert_eq!(
        getting_started.subject_sha256,
        "ee5b38595d6f9524149c102174d8cbed1913a8f965d30e63cf67fc57e8fc7cd4"
    );
    assert_eq!(getting_started.subject_length, 139);
    let row40 = read("rust-unit-row40.token.ndjson");
    assert_eq!(
        sha256_hex(row40.strip_suffix(b"\n").unwrap_or(&row40)),
        "477364a0be9011a918357a1ec49f67a731c9fd236aea3bdcb277cb405d6a8a7f"
    );
}

fn assert_resigned(inputs: &ApprovalInputs, fixture_line: &str) {
    let signed = sign_approval(&key(), inputs).unwrap();
    assert_eq!(signed.line, fixture_line);
}

#[test]
fn approve_cli_fixture_is_reproduced_byte_for_byte() {
    let frame = read("getting-started-call.frame");
    let target = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";
    let shown = approve_cli_shown(target, &frame);
    assert_eq!(shown.len(), 281);
    let renderer = approve_cli_renderer();
    assert_eq!(
        renderer.manifest_sha256,
        "404afde7d2087ce8f67488d902e9b20c45084febe1aa68dabe5e4448cd397e06"
    );
    let inputs = ApprovalInputs {
        target: target.into(),
        authorized_at: 1_786_000_000_000,
        expiry: 1_786_000_120_000,
        nonce: "nonce-fixture-1".into(),
        session: "approve-cli/fixture".into(),
        subject: Subject::of(&frame),
        shown: Subject::of(&shown),
        renderer,
        approver: "local CLI operator".into(),
    };
    assert_resigned(
        &inputs,
        &token_lines("approve-cli-getting-started.token.ndjson")[0],
    );
}

#[test]
fn seal_host_rust_unit_fixture_is_reproduced_byte_for_byte() {
    let frame = read("rust-unit-row40.frame");
    let inputs = ApprovalInputs {
        target: sha256_hex(b"kernel approval target"),
        authorized_at: 1_720_000_000_000,
        expiry: 1_720_000_120_000,
        nonce: "approval-v2-nonce-1".into(),
        session: "approval-v2-session-1".into(),
        subject: Subject::of(&frame),
        shown: Subject::of(b"integer: 1234567890123456768"),
        renderer: Renderer {
            name: "seal-test-renderer".into(),
            version: "2.0.0".into(),
            manifest_sha256: sha256_hex(b"immutable renderer manifest"),
        },
        approver: "human@example.test".into(),
    };
    assert_resigned(&inputs, &token_lines("rust-unit-row40.token.ndjson")[0]);
}

#[test]
fn fixture_run_token_is_reproduced_byte_for_byte() {
    // The 151 shown bytes of this fixture were not kept; its shown commitment is the input.
    let frame = [read("fixture-run-line.txt"), b"\n".to_vec()].concat();
    let inputs = ApprovalInputs {
        target: "85545fe075783b72f2703c8b4769da0b5ef1962bc2e8ecf62e3c9bf366a65aca".into(),
        authorized_at: 1000,
        expiry: 121_000,
        nonce: "fixture-nonce-1".into(),
        session: "fixture-approval-session".into(),
        subject: Subject::of(&frame),
        shown: Subject {
            sha256: "f167a7a16820f5986c57ffa014c68f5eb853f320f378e94e4bfe7ac8157be1a0".into(),
            length: 151,
        },
        renderer: Renderer {
            name: "fixture-renderer".into(),
            version: "1.0.0".into(),
            manifest_sha256: sha256_hex(b"fixture renderer manifest"),
        },
        approver: "fixture approver".into(),
    };
    assert_resigned(&inputs, &token_lines("fixture-run-allow.token.ndjson")[0]);
}

#[test]
fn legacy_vs_current_approve_cli_tokens_are_reproduced_byte_for_byte() {
    // Times, nonces and sessions were chosen by the fixture's producer: take them from the
    // fixture; subject, shown text, renderer, key id, rendering and signature are rebuilt.
    for (line, frame) in fixtures().into_iter().skip(3) {
        let fixture = verified(&line);
        let shown = approve_cli_shown(&fixture.target, &frame);
        let inputs = ApprovalInputs {
            target: fixture.target.clone(),
            authorized_at: fixture.authorized_at,
            expiry: fixture.expiry,
            nonce: fixture.nonce.clone(),
            session: fixture.session.clone(),
            subject: Subject::of(&frame),
            shown: Subject::of(&shown),
            renderer: approve_cli_renderer(),
            approver: "fixture operator".into(),
        };
        assert_resigned(&inputs, &line);
    }
}

#[test]
fn flipping_any_single_byte_of_a_token_line_is_rejected() {
    let key = key();
    for (line, _) in fixtures().into_iter().take(2) {
        let bytes = line.as_bytes();
        for index in 0..bytes.len() {
            for mask in [0x01u8, 0x20] {
                let mut flipped = bytes.to_vec();
                flipped[index] ^= mask;
                let Ok(text) = std::str::from_utf8(&flipped) else {
                    continue; // not UTF-8: the whole file is refused (token_file_not_utf8)
                };
                if let TokenVerdict::Approval(_) = verify_line(text, &key.public) {
                    panic!("byte {index} ^ {mask:#04x} still verifies: {text}");
                }
            }
        }
    }
}
