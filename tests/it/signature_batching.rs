//! Why receipt signatures are verified one by one (src/signature.rs module docs), and that
//! the faster single-signature path of the receipt checks (streamed preimage, cached keys)
//! classifies every signature exactly as seal-host's `verify` does:
//! - a signature whose R carries a point of order 2 while its prime-order part is right is
//!   rejected (a batch equation would accept it for every even coefficient);
//! - every Wycheproof vector gets the same result streamed, in any split, as from `verify`;
//! - in an audit of more receipts than one parallel batch holds, a bad signature, an S ≥ L
//!   signature and the crafted one are each reported for that receipt and only that receipt;
//! - object B is read off the file only when it is in seal-host's layout, else re-serialized.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use ed25519_dalek::{SigningKey, VerifyingKey};
use num_bigint::BigUint;
use sealkit::digest::hex_decode;
use sealkit::receipt::{self, preimage};
use sealkit::signature::{self, Failure, KeyCache, GROUP_ORDER};
use serde_json::{Map, Value};
use sha2::{Digest, Sha512};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use support::NEW_RECEIPTS as NEW;
const BLOCK: &str = "receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
const WYCHEPROOF: &str = "testdata/wycheproof/ed25519_test.json";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn order() -> BigUint {
    BigUint::from_bytes_le(&GROUP_ORDER)
}

/// The secret scalar RFC 8032 derives from a seed.
fn secret_scalar(seed: &[u8; 32]) -> BigUint {
    let hash = Sha512::digest(seed);
    let mut scalar = [0u8; 32];
    scalar.copy_from_slice(&hash[..32]);
    scalar[0] &= 248;
    scalar[31] &= 127;
    scalar[31] |= 64;
    BigUint::from_bytes_le(&scalar)
}

/// (0, −1), the point of order 2: y = p − 1.
fn order_two_point() -> VerifyingKey {
    let mut y = [0xffu8; 32];
    y[0] = 0xec;
    y[31] = 0x7f;
    VerifyingKey::from_bytes(&y).unwrap()
}

/// A signature by `key_seed` over `message` with nonce point R = [r]B (+ T of order 2 when
/// `torsion`), r the secret scalar of `nonce_seed`, and S = r + k·a mod L: the prime-order
/// part of the verification equation holds either way.
fn crafted(key_seed: &[u8; 32], nonce_seed: &[u8; 32], message: &[u8], torsion: bool) -> [u8; 64] {
    let public = SigningKey::from_bytes(key_seed).verifying_key();
    let nonce_point = SigningKey::from_bytes(nonce_seed)
        .verifying_key()
        .to_edwards();
    let r_point = if torsion {
        nonce_point + order_two_point().to_edwards()
    } else {
        nonce_point
    };
    let r_bytes = r_point.compress().to_bytes();
    let mut hash = Sha512::new();
    hash.update(r_bytes);
    hash.update(public.as_bytes());
    hash.update(message);
    let k = BigUint::from_bytes_le(&hash.finalize()) % order();
    let s = (secret_scalar(nonce_seed) + k * secret_scalar(key_seed)) % order();
    let mut signature = [0u8; 64];
    signature[..32].copy_from_slice(&r_bytes);
    let s_bytes = s.to_bytes_le();
    signature[32..32 + s_bytes.len()].copy_from_slice(&s_bytes);
    signature
}

#[test]
fn an_r_with_a_small_order_component_is_rejected_although_a_batch_equation_would_pass() {
    let (key_seed, nonce_seed) = ([0x41u8; 32], [0x42u8; 32]);
    let public = SigningKey::from_bytes(&key_seed).verifying_key();
    let message = b"seal.object-b/v2\x00 preimage";
    // The construction is right: without the torsion point it is an ordinary signature.
    let honest = crafted(&key_seed, &nonce_seed, message, false);
    assert_eq!(signature::verify(&public, message, &honest), Ok(()));
    let mixed = crafted(&key_seed, &nonce_seed, message, true);
    assert_eq!(
        signature::verify(&public, message, &mixed),
        Err(Failure::Mismatch)
    );
    assert_eq!(
        signature::verify_streamed(&public, &mixed, |m| m.update(message)),
        Err(Failure::Mismatch)
    );
    // [S]B − [k]A − R is −T, and 2·T is the identity: a random combination Σ zᵢ(…) of a
    // batch check vanishes for this signature whenever its coefficient is even.
    let t = order_two_point().to_edwards();
    assert_eq!((t + t).compress().to_bytes(), {
        let mut identity = [0u8; 32];
        identity[0] = 1;
        identity
    });
}

#[test]
fn streamed_verification_and_cached_keys_classify_every_wycheproof_vector_as_verify() {
    let corpus: Value =
        serde_json::from_slice(&std::fs::read(root().join(WYCHEPROOF)).unwrap()).unwrap();
    let mut cache = KeyCache::default();
    let mut vectors = 0;
    for group in corpus["testGroups"].as_array().unwrap() {
        let key_bytes: [u8; 32] = hex_decode(group["publicKey"]["pk"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        for test in group["tests"].as_array().unwrap() {
            let message = hex_decode(test["msg"].as_str().unwrap()).unwrap();
            let signature = hex_decode(test["sig"].as_str().unwrap()).unwrap();
            let expected = signature::verify_key_bytes(&key_bytes, &message, &signature);
            for split in [0, 1.min(message.len()), message.len() / 2, message.len()] {
                let streamed = cache.get(&key_bytes).and_then(|key| {
                    signature::verify_streamed(key, &signature, |m| {
                        m.update(&message[..split]);
                        m.update(&message[split..]);
                    })
                });
                assert_eq!(streamed, expected, "tcId {}", test["tcId"]);
            }
            assert_eq!(
                expected.is_ok(),
                test["result"] == "valid",
                "tcId {}",
                test["tcId"]
            );
            vectors += 1;
        }
    }
    assert_eq!(vectors, 150);
}

/// The bytes a receipt's signature covers, rebuilt from the receipt.
fn preimage(map: &Map<String, Value>) -> Vec<u8> {
    let object_a = STANDARD
        .decode(map["signed_artifacts"]["object_a"].as_str().unwrap())
        .unwrap();
    let text = |name: &str| map[name].as_str().unwrap();
    let parts = preimage::LockParts {
        object_a: &object_a,
        approval_statement: None,
        release_tag: preimage::release_tag(text("release_status")).unwrap(),
        operation_id: text("operation_id"),
        durability_tag: preimage::durability_tag(text("durability_class")).unwrap(),
    };
    let mut object_b = Vec::new();
    preimage::write_object_b(map, &mut object_b).unwrap();
    let mut message = Vec::new();
    preimage::preimage(&parts, &object_b, &mut message);
    message
}

fn set_signature(map: &mut Map<String, Value>, signature: &[u8]) {
    map["signature"]["value"] = Value::String(URL_SAFE_NO_PAD.encode(signature));
}

fn write_private(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
}

/// More receipts than one parallel batch of the audit (512), with damaged signatures in the
/// middle of the first batch, right after its end, and at the very end.
#[test]
fn each_bad_signature_among_many_is_reported_for_its_own_receipt_only() {
    const COUNT: usize = 600;
    let seed = support::receipt_seed(NEW);
    let template = receipt::parse(&std::fs::read(root().join(NEW).join(BLOCK)).unwrap()).unwrap();
    let hash = template["canonical_request_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let expected: BTreeMap<usize, &str> = [
        (300, "signature does not verify"),
        (301, "signature scalar S is not below the group order"),
        (512, "signature does not verify"),
        (599, "signature does not verify"),
    ]
    .into();
    for i in 0..COUNT {
        let mut map = template.clone();
        map["now"] = Value::from(template["now"].as_u64().unwrap() + i as u64);
        preimage::sign(&mut map, &seed).unwrap();
        let good = URL_SAFE_NO_PAD
            .decode(map["signature"]["value"].as_str().unwrap())
            .unwrap();
        match i {
            300 | 599 => {
                let mut bad = good.clone();
                bad[7] ^= 0x20;
                set_signature(&mut map, &bad);
            }
            301 => {
                // S + L: the same point equation, a non-canonical scalar.
                let s = BigUint::from_bytes_le(&good[32..]) + order();
                let mut bumped = good.clone();
                bumped[32..].copy_from_slice(&s.to_bytes_le());
                set_signature(&mut map, &bumped);
            }
            512 => {
                let mixed = crafted(&seed, &[0x99; 32], &preimage(&map), true);
                set_signature(&mut map, &mixed);
            }
            _ => {}
        }
        write_private(
            &dir.path().join(format!("receipt-{i:020}-{hash}.json")),
            &preimage::to_file_bytes(&map),
        );
    }
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .arg("audit")
        .arg(dir.path())
        .args(["--format", "jsonl", "--jobs", "2", "--receipt-key"])
        .arg(support::receipt_seed_file(NEW))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let mut seen = 0;
    let mut summary = None;
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        match event["type"].as_str().unwrap() {
            "receipt" => {
                let receipt = &event;
                let name = Path::new(receipt["file"].as_str().unwrap())
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                let index: usize = name[8..28].parse().unwrap();
                assert_eq!(index, seen, "walk order");
                seen += 1;
                let codes: Vec<&str> = receipt["file_findings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|f| f["code"].as_str().unwrap())
                    .collect();
                match expected.get(&index) {
                    Some(detail) => {
                        assert_eq!(receipt["status"], "failed", "{index}");
                        assert_eq!(receipt["signature"]["status"], "invalid", "{index}");
                        assert_eq!(receipt["signature"]["detail"], *detail, "{index}");
                        assert_eq!(codes, ["signature-invalid"], "{index}");
                    }
                    None => {
                        assert_eq!(receipt["status"], "authenticated", "{index}");
                        assert_eq!(receipt["signature"]["status"], "verified", "{index}");
                        assert!(codes.is_empty(), "{index}: {codes:?}");
                    }
                }
            }
            "summary" => summary = Some(event.clone()),
            _ => {}
        }
    }
    assert_eq!(seen, COUNT);
    let summary = summary.unwrap();
    assert_eq!(summary["statuses"]["failed"], 4);
    assert_eq!(summary["statuses"]["authenticated"], COUNT - 4);
    assert_eq!(
        summary["findings"],
        serde_json::json!([{"code": "signature-invalid", "severity": "error", "count": 4}])
    );
}

/// A receipt whose bytes are not seal-host's layout (re-indented, compact, an escaped
/// character) still verifies: its object B is then re-serialized from the parsed receipt,
/// as seal-host's verifier does, and only the layout check reports it.
#[test]
fn object_b_of_a_receipt_not_in_host_layout_is_reserialized() {
    let bytes = std::fs::read(root().join(NEW).join(BLOCK)).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    let map = receipt::parse(&bytes).unwrap();
    let pin = receipt::pin::load(
        &root()
            .join(NEW)
            .join(".seal-receipt-ed25519.key")
            .display()
            .to_string(),
    )
    .unwrap();
    let variants = [
        text.replace("\": ", "\":  "),
        text.replace("\n  \"signature\": ", "\n    \"signature\": "),
        serde_json::to_string(&map).unwrap(),
        text.replacen(
            "\"record_type\": \"seal",
            "\"record_type\": \"\\u0073eal",
            1,
        ),
    ];
    let mut scratch = receipt::Scratch::default();
    let layout = |report: &receipt::ReceiptReport| {
        report
            .checks
            .iter()
            .find(|c| c.check == "layout")
            .map(|c| c.status)
    };
    let host = receipt::verify_bytes(&bytes, Some(&pin), &mut scratch).unwrap();
    assert_eq!(host.signature.status, receipt::SignatureStatus::Verified);
    assert_eq!(layout(&host), Some(receipt::CheckStatus::Pass));
    for variant in variants {
        assert_ne!(variant.as_bytes(), bytes.as_slice());
        let report = receipt::verify_bytes(variant.as_bytes(), Some(&pin), &mut scratch).unwrap();
        assert_eq!(
            report.signature.status,
            receipt::SignatureStatus::Verified,
            "{}",
            &variant[..80]
        );
        assert_eq!(layout(&report), Some(receipt::CheckStatus::Fail));
    }
}
