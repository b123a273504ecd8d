#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The 18 seal-host/Lean `seal.effect/v2` twin vectors, read through the same parameter
//! path `sealkit envelope --params` uses, must produce exactly the expected bytes.

use sealkit::digest::hex_lower;
use sealkit::envelope::{signed_message, Params};
use serde_json::Value;

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
        let (authority, envelope) = params.resolve(line).unwrap();
        let message = signed_message(&authority, &envelope, line);
        assert_eq!(hex_lower(&message), expected, "vector {name}");
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
            .resolve(line)
            .unwrap();
        signed_message(&authority, &envelope, line)
    };
    assert_eq!(*build(&by_name("effect-null")).last().unwrap(), 0x00);
    let empty = build(&by_name("empty-strings"));
    // 0x01, three empty frames, metadata absent.
    assert_eq!(
        empty[empty.len() - 26..],
        [&[1u8][..], &[0u8; 24], &[0]].concat()[..]
    );
}
