//! The envelope's own checks, with access to the layout over any line: the message bytes of
//! seal-host's 18 twin vectors (whose lines are no JSON-RPC frames, so the validation
//! pipeline refuses them and no public function takes them), the context-block modes, the
//! two derivations, the signature rules and the parameter file.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use serde_json::Value;

const GOLDEN: &str = "7365616c2e6566666563742f763200a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf0000000000000005616c696365000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f00000000000004d2000000000000162e00000000000000077b226d223a317d00000000000000036d6370000000000000000a323032352d30362d31380000000000000006736573732d310000000000000005706f6c2d3101000000000000000a64622e65786563757465000000000000000463616c6c00000000000000077b2271223a317d00";

fn golden() -> ([u8; 32], Envelope) {
    let mut authority = [0u8; 32];
    for (i, b) in authority.iter_mut().enumerate() {
        *b = 0xa0 + i as u8;
    }
    let mut nonce = [0u8; 32];
    for (i, b) in nonce.iter_mut().enumerate() {
        *b = i as u8;
    }
    (
        authority,
        Envelope {
            key_id: "alice".into(),
            nonce,
            issued_at: 1234,
            expires_at: 5678,
            adapter_type: "mcp".into(),
            adapter_version: "2025-06-18".into(),
            session: "sess-1".into(),
            policy_version: "pol-1".into(),
            effect: Some(EffectClaim {
                resource: "db.execute".into(),
                action: "call".into(),
                args: "{\"q\":1}".into(),
                metadata: None,
                request_state: None,
                input_responses: None,
            }),
        },
    )
}

/// The public functions (which take only an accepted frame) are the line functions over
/// the frame's judged line; a line whose kernel and host claims differ shows each is wired.
#[test]
fn the_public_functions_are_the_line_functions_over_the_accepted_line() {
    let frame = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","action":"a","arguments":{"z":"\u00e9"},"_meta":{"b":"\t"}}}"#;
    let accepted = crate::request::accept(
        frame,
        &crate::request::Options::default(),
        &mut crate::request::Session::default(),
    )
    .unwrap();
    let line = accepted.line();
    assert_eq!(line.as_bytes(), frame);
    let kernel = derive_effect(&accepted).unwrap();
    assert_eq!(Ok(kernel.clone()), derive_effect_of_line(line));
    let host = host_effect(&accepted).unwrap();
    assert_eq!(Some(host.clone()), host_effect_of_line(line));
    assert_ne!(kernel, host);
    let (authority, envelope) = golden();
    assert_eq!(
        signed_message(&authority, &envelope, &accepted),
        message_of_line(&authority, &envelope, line)
    );
    let found = findings(&envelope, &accepted);
    assert!(found.iter().any(|f| f.code == "host-kernel-divergence"));
    assert_eq!(found, findings_of_line(&envelope, line));
    let params = Params::from_json(
        r#"{"authority_hex":"abababababababababababababababababababababababababababababababab","key_id":"k","nonce_hex":"0707070707070707070707070707070707070707070707070707070707070707","issued_at":1,"expires_at":2,"session":"s","policy_version":"p"}"#,
    )
    .unwrap();
    let resolved = params.clone().resolve(&accepted).unwrap();
    assert_eq!(resolved.1.effect.as_ref(), Some(&kernel));
    assert_eq!(resolved, params.resolve_line(line).unwrap());
}

#[test]
fn golden_vector_bytes() {
    let (authority, envelope) = golden();
    let message = message_of_line(&authority, &envelope, "{\"m\":1}");
    assert_eq!(crate::digest::hex_lower(&message), GOLDEN);
}

#[test]
fn context_block_modes() {
    let (authority, base) = golden();
    let base_bytes = message_of_line(&authority, &base, "x");
    let with = |state: Option<&str>, responses: Option<&str>| {
        let mut envelope = base.clone();
        if let Some(claim) = envelope.effect.as_mut() {
            claim.request_state = state.map(str::to_owned);
            claim.input_responses = responses.map(str::to_owned);
        }
        message_of_line(&authority, &envelope, "x")
    };
    let framed = |s: &str| [&(s.len() as u64).to_be_bytes()[..], s.as_bytes()].concat();
    assert_eq!(with(None, None), base_bytes);
    assert_eq!(
        with(Some("1"), None),
        [&base_bytes[..], &[1], &framed("1")].concat()
    );
    assert_eq!(
        with(None, Some("2")),
        [&base_bytes[..], &[2], &framed("2")].concat()
    );
    assert_eq!(
        with(Some("1"), Some("2")),
        [&base_bytes[..], &[3], &framed("1"), &framed("2")].concat()
    );
}

#[test]
fn derived_claim_uses_v2_args_and_compressed_context() {
    let line = r#"{"method":"tools/call","params":{"name":"t","action":"a","arguments":{"z":"\u00e9","a":1},"_meta":{"y":[],"b":"\t"}}}"#;
    let claim = derive_effect_of_line(line).unwrap();
    assert_eq!(claim.args, r#"{"z":"\u00e9","a":1}"#);
    assert_eq!(
        claim.metadata.as_deref(),
        Some("{\"b\":\"\\u0009\",\"y\":[]}")
    );
    // seal-host's serde_json gate writes é raw and \t short: the two disagree.
    let host = host_effect_of_line(line).unwrap();
    assert_eq!(host.args, "{\"z\":\"é\",\"a\":1}");
    assert_eq!(host.metadata.as_deref(), Some("{\"b\":\"\\t\",\"y\":[]}"));
}

#[test]
fn signature_rules() {
    let message = b"m";
    let mut sig = [0u8; 64];
    sig[32..].copy_from_slice(&crate::signature::GROUP_ORDER);
    let key = [0u8; 32];
    assert_eq!(
        verify_signature(message, &sig, &key),
        SignatureCheck::ScalarNotCanonical
    );
    sig[32] = 0xec; // S = L - 1
    assert_eq!(
        verify_signature(message, &sig, &key),
        SignatureCheck::Mismatch
    );
}

#[test]
fn single_frame_lines() {
    assert_eq!(single_frame_line(b"{}\r\n"), Some(&b"{}"[..]));
    assert_eq!(single_frame_line(b"{}"), Some(&b"{}"[..]));
    assert_eq!(single_frame_line(b"{}\n{}\n"), None);
}

#[test]
fn params_merge_and_refuse_unknown_members() {
    let file = Params::from_json(r#"{"key_id":"a","session":"s"}"#).unwrap();
    let flags = Params {
        key_id: Some("b".into()),
        ..Params::default()
    };
    let merged = file.overlaid(flags);
    assert_eq!(merged.key_id.as_deref(), Some("b"));
    assert_eq!(merged.session.as_deref(), Some("s"));
    let missing = merged.resolve_line("x").unwrap_err();
    assert_eq!(missing.code, "params-missing");
    assert_eq!(
        missing.message,
        "missing: authority, nonce, issued_at, expires_at, policy_version"
    );
    assert_eq!(
        Params::from_json(r#"{"audience":"x"}"#).unwrap_err().code,
        "params-invalid"
    );
    assert_eq!(
        Params::from_json(r#"{"issued_at":-1}"#).unwrap_err().code,
        "params-invalid"
    );
    assert_eq!(
        Params::from_json(r#"{"issued_at":18446744073709551616}"#)
            .unwrap_err()
            .code,
        "params-invalid"
    );
}

// The 18 seal-host/Lean `seal.effect/v2` twin vectors, read through the same parameter path
// `sealkit envelope --params` uses, must produce exactly the expected bytes.

const CORPUS: &str = include_str!("../../testdata/envelope/envelope_v23_twin_corpus.json");
const EXPECTED: &str = include_str!("../../testdata/envelope/envelope_v23_twin_expected.hex");

/// A vector as a parameter file: its envelope object plus the authority.
fn params_text(vector: &Value) -> String {
    let mut envelope = vector["envelope"].as_object().unwrap().clone();
    envelope.insert("authority_hex".into(), vector["authority_hex"].clone());
    serde_json::to_string(&Value::Object(envelope)).unwrap()
}

#[test]
fn all_eighteen_vectors_reproduce_the_expected_bytes() {
    let corpus: Value = serde_json::from_str(CORPUS).unwrap();
    let vectors = corpus["vectors"].as_array().unwrap();
    let expected: Vec<&str> = EXPECTED.lines().collect();
    assert_eq!(vectors.len(), 18);
    assert_eq!(expected.len(), 18);
    for (vector, expected) in vectors.iter().zip(expected) {
        let name = vector["name"].as_str().unwrap();
        let line = vector["line"].as_str().unwrap();
        let params = Params::from_json(&params_text(vector)).unwrap();
        let (authority, envelope) = params.resolve_line(line).unwrap();
        let message = message_of_line(&authority, &envelope, line);
        assert_eq!(
            crate::digest::hex_lower(&message),
            expected,
            "vector {name}"
        );
    }
}

#[test]
fn golden_vector_matches_the_upstream_guard_msgs_pin() {
    // The literal mcp-seal-dev pins for `golden-fable` (quoted in seal-host's twin test).
    assert!(EXPECTED.starts_with(
        "7365616c2e6566666563742f763200a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf0000000000000005616c696365"
    ));
}

#[test]
fn effect_null_and_empty_claim_are_different_bytes() {
    let corpus: Value = serde_json::from_str(CORPUS).unwrap();
    let by_name = |n: &str| {
        corpus["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == n)
            .unwrap()
            .clone()
    };
    let build = |v: &Value| {
        let line = v["line"].as_str().unwrap();
        let (authority, envelope) = Params::from_json(&params_text(v))
            .unwrap()
            .resolve_line(line)
            .unwrap();
        message_of_line(&authority, &envelope, line)
    };
    assert_eq!(*build(&by_name("effect-null")).last().unwrap(), 0x00);
    let empty = build(&by_name("empty-strings"));
    // 0x01, three empty frames, metadata absent.
    assert_eq!(
        empty[empty.len() - 26..],
        [&[1u8][..], &[0u8; 24], &[0]].concat()[..]
    );
}
