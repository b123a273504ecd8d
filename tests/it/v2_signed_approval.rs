#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Seal's V2 signed-approval bytes: the M5 test signatures (key `03a107bf…`) verify over
//! sealkit's rendering, and signatures minted over the earlier layout do not.

use sealkit::digest::hex_decode;
use sealkit::envelope::{verify_signature, SignatureCheck};
use sealkit::request::{self, Options, Session};
use sealkit::typed::{read_request, signed_approval_message, ToolSpecs};
use serde_json::Value;

const VECTORS: &str = include_str!("../../testdata/typed/v2_signed_approvals.json");

fn bytes<const N: usize>(hex: &str) -> [u8; N] {
    hex_decode(hex).unwrap().try_into().unwrap()
}

fn cases() -> (Value, ToolSpecs, [u8; 32]) {
    let doc: Value = serde_json::from_str(VECTORS).unwrap();
    let specs = ToolSpecs::parse(&doc["tool_spec"].to_string()).unwrap();
    let key = bytes::<32>(doc["public_key"].as_str().unwrap());
    (doc, specs, key)
}

/// The signed-approval bytes of a vector. Its V2 line is sent as a client frames it:
/// `jsonrpc` and `id` in front (members Seal's `requestFromAst` does not read), so that it
/// passes the validation pipeline, the only way to a typed request.
fn message(doc: &Value, vector: &Value, specs: &ToolSpecs) -> String {
    let line = vector["line"].as_str().unwrap();
    let frame = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,{}\n",
        line.strip_prefix('{').unwrap()
    );
    let accepted = request::accept(
        frame.as_bytes(),
        &Options::default(),
        &mut Session::default(),
    )
    .unwrap();
    let request = read_request(&accepted).unwrap();
    signed_approval_message(
        &request,
        specs.get(request.tool()).unwrap(),
        doc["session"].as_str().unwrap(),
        vector["issued_at"].as_u64().unwrap(),
        vector["expiry"].as_u64().unwrap(),
        vector["nonce"].as_str().unwrap(),
    )
    .unwrap()
}

#[test]
fn m5_signatures_verify_over_sealkit_rendering() {
    let (doc, specs, key) = cases();
    for vector in doc["vectors"].as_array().unwrap() {
        let message = message(&doc, vector, &specs);
        let signature = bytes::<64>(vector["signatures"]["metadata"].as_str().unwrap());
        assert_eq!(
            verify_signature(message.as_bytes(), &signature, &key),
            SignatureCheck::Verified,
            "{}: {message}",
            vector["name"]
        );
    }
}

#[test]
fn base_message_bytes_are_exact() {
    let (doc, specs, _) = cases();
    let base = &doc["vectors"][0];
    assert_eq!(
        message(&doc, base, &specs),
        format!(
            "{{\"target\":{{\"tool\":\"db.execute\",\"action\":\"write\",\"toolVersion\":\"v1\",\
             \"manifestDigest\":\"manifest-001\",\"arguments\":{{\"database\":\"prod\",\"table\":\"users\",\
             \"amount\":12.34}},\"metadata\":{{\"presence\":\"absent\"}}}},\"session\":\"session-1\",\
             \"issuedAt\":0,\"expiry\":120,\"nonce\":\"{}\"}}",
            "a".repeat(64)
        )
    );
}

#[test]
fn signatures_over_the_pre_metadata_layout_do_not_verify() {
    let (doc, specs, key) = cases();
    for vector in doc["vectors"].as_array().unwrap() {
        let message = message(&doc, vector, &specs);
        let signature = bytes::<64>(vector["signatures"]["pre-metadata"].as_str().unwrap());
        assert_eq!(
            verify_signature(message.as_bytes(), &signature, &key),
            SignatureCheck::Mismatch
        );
    }
}

#[test]
fn any_changed_field_breaks_the_signature() {
    let (doc, specs, key) = cases();
    let base = &doc["vectors"][0];
    let signature = bytes::<64>(base["signatures"]["metadata"].as_str().unwrap());
    let good = message(&doc, base, &specs);
    for (from, to) in [
        ("\"expiry\":120", "\"expiry\":121"),
        ("\"table\":\"users\"", "\"table\":\"userz\""),
        (
            "{\"presence\":\"absent\"}",
            "{\"presence\":\"present\",\"canonicalObject\":\"{}\"}",
        ),
    ] {
        let changed = good.replace(from, to);
        assert_ne!(changed, good);
        assert_eq!(
            verify_signature(changed.as_bytes(), &signature, &key),
            SignatureCheck::Mismatch
        );
    }
}
