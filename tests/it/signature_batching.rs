//! Batch verification (src/signature/batch.rs) and the single-signature fast paths give every
//! signature exactly the result seal-host's one-by-one `verify` gives it:
//! - a signature whose R carries a point of order 2 while its prime-order part is right is
//!   rejected, alone, streamed and in a batch (a plain batch equation accepts it whenever its
//!   coefficient is even), also when two such signatures share a chunk;
//! - under a key with a small-order part, batching gives way to one-by-one verification;
//! - every Wycheproof vector gets the same result streamed, in any split, and in a batch
//!   among good signatures under its key, as from `verify`;
//! - `verify approval` over token lines with random damage reports every line as verifying
//!   that line alone does;
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
use sealkit::signature::batch::{verify_each, BatchKey, Claim};
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

/// The receipt key's seed, the BLOCK receipt as a template, its request hash (the files'
/// names) and a private directory for the generated receipts.
fn receipt_setup() -> ([u8; 32], Map<String, Value>, String, tempfile::TempDir) {
    let seed = support::receipt_seed(NEW);
    let template = receipt::parse(&std::fs::read(root().join(NEW).join(BLOCK)).unwrap()).unwrap();
    let hash = template["canonical_request_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    (seed, template, hash, dir)
}

/// The template with `now` moved on by `i`, signed, and its signature's bytes.
fn signed_copy(
    template: &Map<String, Value>,
    seed: &[u8; 32],
    i: usize,
) -> (Map<String, Value>, Vec<u8>) {
    let mut map = template.clone();
    map["now"] = Value::from(template["now"].as_u64().unwrap() + i as u64);
    preimage::sign(&mut map, seed).unwrap();
    let good = URL_SAFE_NO_PAD
        .decode(map["signature"]["value"].as_str().unwrap())
        .unwrap();
    (map, good)
}

/// More receipts than one parallel batch of the audit (512), with damaged signatures in the
/// middle of the first batch, right after its end, and at the very end.
#[test]
fn each_bad_signature_among_many_is_reported_for_its_own_receipt_only() {
    const COUNT: usize = 600;
    let (seed, template, hash, dir) = receipt_setup();
    let expected: BTreeMap<usize, &str> = [
        (300, "signature does not verify"),
        (301, "signature scalar S is not below the group order"),
        (512, "signature does not verify"),
        (599, "signature does not verify"),
    ]
    .into();
    for i in 0..COUNT {
        let (mut map, good) = signed_copy(&template, &seed, i);
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

/// The audit checks the signatures under the pinned key of each parallel batch together
/// (`receipt::verify_bytes_deferred`, then `batch::verify_challenges`); every receipt must get
/// exactly the signature verdict, detail, findings and status that `receipt::verify_bytes`
/// gives it alone. Damaged receipts sit in the first two batches of 512 (checked together)
/// and in the last one (76 receipts: too few to batch, checked one by one): a changed
/// signature byte, S + L, an R with a point of order 2 (whose prime-order part verifies), a
/// signature by another key, a member changed after signing, and a receipt not in
/// seal-host's layout (object B re-serialized; its signature verifies). Seen red with
/// `receipt::settle` ignoring a failed curve check (receipt 100 was `verified`).
#[test]
fn batched_receipt_signatures_get_the_verdicts_one_by_one_verification_gives() {
    const COUNT: usize = 1100;
    let (seed, template, hash, dir) = receipt_setup();
    let mut files = Vec::new();
    for i in 0..COUNT {
        let (mut map, good) = signed_copy(&template, &seed, i);
        let mut bytes = None;
        match i {
            100 | 700 | 1050 => {
                let mut bad = good.clone();
                bad[5] ^= 0x04;
                set_signature(&mut map, &bad);
            }
            101 | 701 => {
                let s = BigUint::from_bytes_le(&good[32..]) + order();
                let mut bumped = good.clone();
                bumped[32..].copy_from_slice(&s.to_bytes_le());
                set_signature(&mut map, &bumped);
            }
            102 | 600 | 1060 => {
                let mixed = crafted(&seed, &[i as u8; 32], &preimage(&map), true);
                set_signature(&mut map, &mixed);
            }
            103 | 702 => preimage::sign(&mut map, &[0x55; 32]).unwrap(),
            104 => map["reason"] = Value::from("changed after signing"),
            105 | 703 => bytes = Some(serde_json::to_vec(&map).unwrap()),
            _ => {}
        }
        let bytes = bytes.unwrap_or_else(|| preimage::to_file_bytes(&map));
        let path = dir.path().join(format!("receipt-{i:020}-{hash}.json"));
        write_private(&path, &bytes);
        files.push(bytes);
    }
    let pin_file = support::receipt_seed_file(NEW);
    let pin = receipt::pin::load(&pin_file.display().to_string()).unwrap();
    let mut scratch = receipt::Scratch::default();
    let alone: Vec<receipt::ReceiptReport> = files
        .iter()
        .map(|bytes| receipt::verify_bytes(bytes, Some(&pin), &mut scratch).unwrap())
        .collect();
    let verified = alone
        .iter()
        .filter(|r| r.signature.status == receipt::SignatureStatus::Verified)
        .count();
    // 13 damaged, of which the two re-serialized receipts still verify.
    assert_eq!(verified, COUNT - 11);
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .arg("audit")
        .arg(dir.path())
        .args(["--format", "jsonl", "--jobs", "2", "--receipt-key"])
        .arg(&pin_file)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let mut seen = 0;
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        if event["type"] != "receipt" {
            continue;
        }
        let expected = &alone[seen];
        let codes = |findings: &Value| -> Vec<String> {
            findings
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["code"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(
            event["signature"],
            serde_json::to_value(&expected.signature).unwrap(),
            "{seen}"
        );
        assert_eq!(event["status"], expected.status.as_str(), "{seen}");
        assert_eq!(
            codes(&event["findings"]),
            codes(&serde_json::to_value(&expected.findings).unwrap()),
            "{seen}"
        );
        assert_eq!(
            codes(&event["file_findings"]),
            codes(&event["findings"]),
            "{seen}"
        );
        for finding in event["file_findings"].as_array().unwrap() {
            assert_eq!(finding["path"], event["file"], "{seen}");
        }
        seen += 1;
    }
    assert_eq!(seen, COUNT);
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

/// `verify_each` over (message, signature) pairs under one key, beside `verify` of each alone.
fn batch_and_alone(key: &VerifyingKey, pairs: &[(Vec<u8>, Vec<u8>)]) -> Vec<Result<(), Failure>> {
    let parts: Vec<[&[u8]; 1]> = pairs.iter().map(|(m, _)| [m.as_slice()]).collect();
    let claims: Vec<Claim> = parts
        .iter()
        .zip(pairs)
        .map(|(message, (_, signature))| Claim { message, signature })
        .collect();
    let batched = verify_each(&BatchKey::new(key), &claims);
    let alone: Vec<_> = pairs
        .iter()
        .map(|(m, s)| signature::verify(key, m, s))
        .collect();
    assert_eq!(batched.len(), alone.len());
    for (index, (batched, alone)) in batched.iter().zip(&alone).enumerate() {
        assert_eq!(batched, alone, "signature {index}");
    }
    batched
}

fn honest(seed: &[u8; 32], count: usize, tag: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    use ed25519_dalek::Signer;
    let key = SigningKey::from_bytes(seed);
    (0..count)
        .map(|i| {
            let message = format!("{tag} message {i}").into_bytes();
            let signature = key.sign(&message).to_bytes().to_vec();
            (message, signature)
        })
        .collect()
}

/// Each crafted signature sits in its own chunk of good ones, and two share the last chunk
/// (their order-2 parts cancel in any equation where both coefficients are odd). Seen red
/// with the torsion tests of `signature::batch` removed: a crafted signature whose
/// coefficient happened to be even was accepted.
#[test]
fn signatures_with_an_order_two_part_in_r_are_rejected_in_a_batch_as_alone() {
    let (key_seed, nonce_seed) = ([0x51u8; 32], [0x52u8; 32]);
    let public = SigningKey::from_bytes(&key_seed).verifying_key();
    let mut pairs = honest(&key_seed, 24 * 128, "torsion");
    let mut crafted_at: Vec<usize> = (0..24).map(|chunk| chunk * 128 + 17).collect();
    crafted_at.push(23 * 128 + 90);
    for &index in &crafted_at {
        let message = pairs[index].0.clone();
        pairs[index].1 = crafted(&key_seed, &nonce_seed, &message, true).to_vec();
    }
    let results = batch_and_alone(&public, &pairs);
    for (index, result) in results.iter().enumerate() {
        let expected = if crafted_at.contains(&index) {
            Err(Failure::Mismatch)
        } else {
            Ok(())
        };
        assert_eq!(*result, expected, "{index}");
    }
}

/// R the identity, S = k·a: `[S]B − [k]A` is the identity, so `verify` accepts when R is its
/// canonical encoding and rejects the same point encoded with the sign bit set (x = 0 has no
/// sign). A batch equation holds for both; the batch sends small-order R to be checked alone.
/// Seen red with the small-order check of `signature::batch::prepare` removed.
#[test]
fn an_identity_r_is_accepted_or_rejected_by_its_encoding_in_a_batch_as_alone() {
    let key_seed = [0x71u8; 32];
    let public = SigningKey::from_bytes(&key_seed).verifying_key();
    let mut pairs = honest(&key_seed, 300, "identity");
    for (index, sign_bit) in [(40, false), (200, true)] {
        let mut r_bytes = [0u8; 32];
        r_bytes[0] = 1;
        if sign_bit {
            r_bytes[31] = 0x80;
        }
        let message = pairs[index].0.clone();
        let mut hash = Sha512::new();
        hash.update(r_bytes);
        hash.update(public.as_bytes());
        hash.update(&message);
        let k = BigUint::from_bytes_le(&hash.finalize()) % order();
        let mut s_bytes = ((k * secret_scalar(&key_seed)) % order()).to_bytes_le();
        s_bytes.resize(32, 0);
        pairs[index].1 = [r_bytes.as_slice(), &s_bytes].concat();
    }
    let results = batch_and_alone(&public, &pairs);
    assert_eq!(results[40], Ok(()));
    assert_eq!(results[200], Err(Failure::Mismatch));
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 299);
}

/// A key with an order-2 part: seal-host's `verify` accepts a signature made with its secret
/// scalar exactly when k = H(R ‖ A ‖ M) is even; the batch must not decide otherwise.
#[test]
fn under_a_key_with_a_small_order_part_every_signature_is_checked_alone() {
    let key_seed = [0x61u8; 32];
    let key_point = SigningKey::from_bytes(&key_seed)
        .verifying_key()
        .to_edwards()
        + order_two_point().to_edwards();
    let public = VerifyingKey::from_bytes(&key_point.compress().to_bytes()).unwrap();
    let mut pairs = Vec::new();
    for i in 0..64u8 {
        let message = vec![i; 40];
        let nonce_point = SigningKey::from_bytes(&[i; 32]).verifying_key();
        let r_bytes = nonce_point.to_bytes();
        let mut hash = Sha512::new();
        hash.update(r_bytes);
        hash.update(public.as_bytes());
        hash.update(&message);
        let k = BigUint::from_bytes_le(&hash.finalize()) % order();
        let s = (secret_scalar(&[i; 32]) + k * secret_scalar(&key_seed)) % order();
        let mut signature = r_bytes.to_vec();
        let mut s_bytes = s.to_bytes_le();
        s_bytes.resize(32, 0);
        signature.extend_from_slice(&s_bytes);
        pairs.push((message, signature));
    }
    let results = batch_and_alone(&public, &pairs);
    let accepted = results.iter().filter(|r| r.is_ok()).count();
    assert!(accepted > 10 && accepted < 54, "{accepted} of 64 accepted");
}

/// Every Wycheproof vector, in a batch of its group's vectors and again amid 200 copies of
/// its group's valid vectors (the corpus has no secret keys), where a valid vector lets its
/// chunk pass the batch checks and an invalid one sends the chunk back to one by one.
#[test]
fn batch_and_alone_agree_on_every_wycheproof_vector_among_valid_ones() {
    let corpus: Value =
        serde_json::from_slice(&std::fs::read(root().join(WYCHEPROOF)).unwrap()).unwrap();
    let (mut vectors, mut accepted) = (0, 0);
    for group in corpus["testGroups"].as_array().unwrap() {
        let key_bytes: [u8; 32] = hex_decode(group["publicKey"]["pk"].as_str().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let key = VerifyingKey::from_bytes(&key_bytes).unwrap();
        let tests: Vec<(Vec<u8>, Vec<u8>)> = group["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|test| {
                (
                    hex_decode(test["msg"].as_str().unwrap()).unwrap(),
                    hex_decode(test["sig"].as_str().unwrap()).unwrap(),
                )
            })
            .collect();
        let alone = batch_and_alone(&key, &tests);
        let valid: Vec<&(Vec<u8>, Vec<u8>)> = tests
            .iter()
            .zip(&alone)
            .filter_map(|(test, result)| result.is_ok().then_some(test))
            .collect();
        for vector in &tests {
            let mut pairs: Vec<(Vec<u8>, Vec<u8>)> = if valid.is_empty() {
                Vec::new()
            } else {
                (0..200).map(|i| valid[i % valid.len()].clone()).collect()
            };
            pairs.insert(pairs.len() / 2, vector.clone());
            let results = batch_and_alone(&key, &pairs);
            accepted += usize::from(results[pairs.len() / 2].is_ok());
            vectors += 1;
        }
    }
    assert_eq!((vectors, accepted), (150, 88));
}

/// A small deterministic generator for the damage (xorshift64*).
struct Damage(u64);

impl Damage {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// 1,500 signed token lines (more than one parallel batch of lines and many equation chunks),
/// a fifth of them damaged at random: a byte of the signature text or of the payload changed,
/// the signature's R or S replaced, or a crafted torsion signature. The binary's report of
/// every line equals what verifying that line alone gives.
#[test]
fn verify_approval_reports_every_randomly_damaged_line_as_verifying_it_alone_does() {
    use sealkit::approval::binding::Subject;
    use sealkit::approval::sign::{sign_approval, ApprovalInputs};
    use sealkit::approval::verify::{verify_line, TokenVerdict};
    use sealkit::approval::{preimage as approval_preimage, Renderer};
    use sealkit::keys::SecretKey;
    const LINES: usize = 1500;
    let seed = [0x17u8; 32];
    let key = SecretKey::from_seed(&seed);
    let mut damage = Damage(0x05ee_d0fb_a7c4);
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut file = String::new();
    let mut expected = Vec::new();
    let mut kinds = [0usize; 5];
    for index in 0..LINES {
        let inputs = ApprovalInputs {
            target: "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565".to_owned(),
            authorized_at: 1_786_000_000_000 + index as u64,
            expiry: 1_786_000_120_000 + index as u64,
            nonce: format!("damage-nonce-{index}"),
            session: "damage-session".to_owned(),
            subject: Subject::of(b"frame"),
            shown: Subject::of(b"shown"),
            renderer: Renderer {
                name: "damage".to_owned(),
                version: "1".to_owned(),
                manifest_sha256: "0".repeat(64),
            },
            approver: "damage approver".to_owned(),
        };
        let signed = sign_approval(&key, &inputs).unwrap();
        let mut line = signed.line.clone();
        let token: Value = serde_json::from_str(&line).unwrap();
        let signature_text = token["signature"].as_str().unwrap().to_owned();
        let at = line.rfind(&signature_text).unwrap();
        if damage.below(5) == 0 {
            let kind = damage.below(5);
            kinds[kind] += 1;
            match kind {
                0 => {
                    // One character of the signature text.
                    let position = at + damage.below(signature_text.len());
                    let mut bytes = line.into_bytes();
                    bytes[position] = alphabet[damage.below(64)];
                    line = String::from_utf8(bytes).unwrap();
                }
                1 => {
                    // One character inside the payload text (often still canonical JSON).
                    let start = line.find("\"nonce\\\":").unwrap_or(20);
                    let mut bytes = line.into_bytes();
                    let position = start + 12 + damage.below(10);
                    bytes[position] = b"0123456789abcdef"[damage.below(16)];
                    line = String::from_utf8(bytes).unwrap();
                }
                2 | 3 => {
                    // R (kind 2) or S (kind 3) replaced by random bytes.
                    let mut raw = URL_SAFE_NO_PAD.decode(&signature_text).unwrap();
                    let range = if kind == 2 { 0..32 } else { 32..64 };
                    for byte in &mut raw[range] {
                        *byte = damage.next() as u8;
                    }
                    if kind == 3 && damage.below(2) == 0 {
                        raw[63] &= 0x0f; // often below L, so the equation decides
                    }
                    line.replace_range(at..at + signature_text.len(), &URL_SAFE_NO_PAD.encode(raw));
                }
                _ => {
                    let canonical = signed.payload.canonical_bytes().unwrap();
                    let mixed = crafted(
                        &seed,
                        &[index as u8; 32],
                        &approval_preimage(&canonical),
                        true,
                    );
                    line.replace_range(
                        at..at + signature_text.len(),
                        &URL_SAFE_NO_PAD.encode(mixed),
                    );
                }
            }
        }
        let verdict = verify_line(&line, &key.public);
        expected.push(match verdict {
            TokenVerdict::Approval(_) => ("accepted".to_owned(), Value::Null),
            TokenVerdict::Rejected(rejection) => (
                "rejected".to_owned(),
                Value::String(rejection.reason.code().into_owned()),
            ),
            TokenVerdict::Decline(_) => unreachable!("no declines here"),
        });
        file.push_str(&line);
        file.push('\n');
    }
    assert!(kinds.iter().all(|&k| k > 20), "{kinds:?}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.ndjson");
    std::fs::write(&path, &file).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval"])
        .arg(&path)
        .args(["--format", "jsonl", "--pubkey", &key.public.hex])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let records: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &Value| r.get("line").is_some())
        .collect();
    assert_eq!(records.len(), LINES);
    let mut rejected = 0;
    for (index, record) in records.iter().enumerate() {
        assert_eq!(record["line"], index + 1);
        let (status, reason) = &expected[index];
        assert_eq!(record["status"], *status, "line {}", index + 1);
        assert_eq!(record["reason"], *reason, "line {}", index + 1);
        rejected += usize::from(status == "rejected");
    }
    assert!(rejected > LINES / 6, "{rejected}");
}

/// Signed v1 lines (seal-host's signed declines, `{payload, signature}` with hex) are batched
/// too: their signature is checked before anything in the payload, so a line whose signature
/// verifies and whose payload is not JSON is `parse_error`, one whose signature does not is
/// `bad_signature` (or `non_canonical_signature_scalar`) whatever it holds. 1,500 lines with
/// random damage, among undamaged ApprovalRecord v2 lines: the binary reports every v1 line as
/// `signature::verify` over its payload alone decides (the oracle here does not go through
/// `check_line`, which the batch shares with `verify_line`). No damage gives R a small-order
/// part, so the batch's equations, not its fallback, decide. Seen red with check 5 made to
/// pass every part (`settle`: damaged lines accepted).
#[test]
fn signed_v1_lines_in_a_batch_get_the_verdict_their_signature_alone_gives() {
    use ed25519_dalek::Signer;
    use sealkit::approval::binding::Subject;
    use sealkit::approval::sign::{sign_approval, sign_decline, ApprovalInputs};
    use sealkit::approval::Renderer;
    use sealkit::digest::hex_lower;
    use sealkit::keys::SecretKey;
    const LINES: usize = 1500;
    let seed = [0x29u8; 32];
    let key = SecretKey::from_seed(&seed);
    let signing = SigningKey::from_bytes(&seed);
    let verifying = signing.verifying_key();
    let mut damage = Damage(0x0b1d_5eed_1234);
    let mut file = String::new();
    // Per line: None for a v2 line (accepted), else the v1 verdict expected.
    let mut expected: Vec<(String, Value)> = Vec::new();
    let mut kinds = [0usize; 7];
    for index in 0..LINES {
        let target = format!("{:064x}", index + 1);
        if index % 5 == 4 {
            let inputs = ApprovalInputs {
                target,
                authorized_at: 1_786_000_000_000 + index as u64,
                expiry: 1_786_000_120_000 + index as u64,
                nonce: format!("v2-nonce-{index}"),
                session: "v1-batch-session".to_owned(),
                subject: Subject::of(b"frame"),
                shown: Subject::of(b"shown"),
                renderer: Renderer {
                    name: "v1-batch".to_owned(),
                    version: "1".to_owned(),
                    manifest_sha256: "0".repeat(64),
                },
                approver: "v1 batch approver".to_owned(),
            };
            file.push_str(&sign_approval(&key, &inputs).unwrap().line);
            file.push('\n');
            expected.push(("accepted".to_owned(), Value::Null));
            continue;
        }
        let line = sign_decline(&key, &target, 1_786_000_000_000 + index as u64, "n").unwrap();
        let token: Value = serde_json::from_str(&line).unwrap();
        let mut payload = token["payload"].as_str().unwrap().to_owned();
        let mut signature_hex = token["signature"].as_str().unwrap().to_owned();
        let kind = damage.below(8);
        if kind < 7 {
            kinds[kind] += 1;
        }
        match kind {
            0 => {
                // One hex digit of S (sometimes the same digit again; a changed digit of R
                // would mostly give a point with a small-order part).
                let position = 64 + damage.below(64);
                let digit = b"0123456789abcdef"[damage.below(16)] as char;
                signature_hex.replace_range(position..=position, &digit.to_string());
            }
            1 => {
                // One digit of issuedAt, not signed again.
                let at = payload.find("\"issuedAt\":").unwrap() + 11 + damage.below(13);
                let digit = b"0123456789"[damage.below(10)] as char;
                payload.replace_range(at..=at, &digit.to_string());
            }
            2 => {
                // R of another message's signature: a point of prime order, so the batch's
                // torsion tests pass and only its equation can tell (random bytes for R
                // would have a small-order part and send the whole batch one by one).
                let mut raw = hex_decode(&signature_hex).unwrap();
                let other = signing.sign(format!("other {index}").as_bytes()).to_bytes();
                raw[..32].copy_from_slice(&other[..32]);
                signature_hex = hex_lower(&raw);
            }
            3 => {
                // S replaced by random bytes, half of them below L (the equation decides).
                let mut raw = hex_decode(&signature_hex).unwrap();
                for byte in &mut raw[32..] {
                    *byte = damage.next() as u8;
                }
                if damage.below(2) == 0 {
                    raw[63] &= 0x0f;
                }
                signature_hex = hex_lower(&raw);
            }
            4 => {
                // Not a signature: cut short, or not hex.
                if damage.below(2) == 0 {
                    signature_hex.truncate(damage.below(128));
                } else {
                    signature_hex.replace_range(0..1, "z");
                }
            }
            5 => {
                // Signed, but not a payload: the signature verifies, the payload then fails.
                payload = format!("not json {index}");
                signature_hex = hex_lower(&signing.sign(payload.as_bytes()).to_bytes());
            }
            6 => {
                // S + L: the same point equation, but seal-host refuses S ≥ L first.
                let mut raw = hex_decode(&signature_hex).unwrap();
                let s = BigUint::from_bytes_le(&raw[32..]) + order();
                let mut bytes = s.to_bytes_le();
                bytes.resize(32, 0);
                raw[32..].copy_from_slice(&bytes);
                signature_hex = hex_lower(&raw);
            }
            _ => {}
        }
        let line = serde_json::json!({"payload": payload, "signature": signature_hex}).to_string();
        let alone = signature::verify(
            &verifying,
            payload.as_bytes(),
            &hex_decode(&signature_hex).unwrap_or_default(),
        );
        expected.push(match alone {
            Err(Failure::NonCanonicalScalar) => (
                "rejected".to_owned(),
                Value::from("non_canonical_signature_scalar"),
            ),
            Err(_) => ("rejected".to_owned(), Value::from("bad_signature")),
            Ok(()) if serde_json::from_str::<Value>(&payload).is_ok() => {
                ("accepted".to_owned(), Value::Null)
            }
            Ok(()) => ("rejected".to_owned(), Value::from("parse_error")),
        });
        file.push_str(&line);
        file.push('\n');
    }
    assert!(kinds.iter().all(|&k| k > 60), "{kinds:?}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.ndjson");
    std::fs::write(&path, &file).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval"])
        .arg(&path)
        .args(["--format", "jsonl", "--pubkey", &key.public.hex])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let records: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|r: &Value| r.get("line").is_some())
        .collect();
    assert_eq!(records.len(), LINES);
    let mut counts = BTreeMap::new();
    for (index, record) in records.iter().enumerate() {
        let (status, reason) = &expected[index];
        assert_eq!(record["line"], index + 1);
        assert_eq!(record["status"], *status, "line {}: {record}", index + 1);
        assert_eq!(record["reason"], *reason, "line {}: {record}", index + 1);
        *counts.entry(reason.to_string()).or_insert(0) += 1;
    }
    // Every outcome is there in numbers: accepted, and each of the three rejections.
    assert!(counts.values().all(|&n| n > 60), "{counts:?}");
    assert_eq!(counts.len(), 4, "{counts:?}");
}

/// A batch of exactly `MAX_BATCH` (2,048) pending signatures, a full batch of lines, is one
/// batch: all accepted, exit 0. Catches `terms.len() > MAX_BATCH` → `==` in `batch_passes`
/// (the batch then splits into itself until the stack overflows). Seen red against the
/// binary a stopped mutation run left built, with `>` → `>=` (the same recursion): killed by
/// a signal, no exit status.
#[test]
fn a_full_batch_of_good_lines_is_accepted_in_one_batch() {
    use sealkit::approval::binding::Subject;
    use sealkit::approval::sign::{sign_approval, ApprovalInputs};
    use sealkit::approval::Renderer;
    use sealkit::keys::SecretKey;
    use sealkit::signature::batch::MAX_BATCH;
    let key = SecretKey::from_seed(&[0x31u8; 32]);
    let mut file = String::new();
    for index in 0..MAX_BATCH {
        let inputs = ApprovalInputs {
            target: format!("{:064x}", index + 1),
            authorized_at: 1_786_000_000_000,
            expiry: 1_786_000_120_000,
            nonce: format!("full-{index}"),
            session: "full".to_owned(),
            subject: Subject::of(b"frame"),
            shown: Subject::of(b"shown"),
            renderer: Renderer {
                name: "full".to_owned(),
                version: "1".to_owned(),
                manifest_sha256: "0".repeat(64),
            },
            approver: "full".to_owned(),
        };
        file.push_str(&sign_approval(&key, &inputs).unwrap().line);
        file.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tokens.ndjson");
    std::fs::write(&path, &file).unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval"])
        .arg(&path)
        .args(["--format", "jsonl", "--pubkey", &key.public.hex])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let accepted = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .filter(|l| l.contains("\"status\":\"accepted\""))
        .count();
    assert_eq!(accepted, MAX_BATCH);
}
