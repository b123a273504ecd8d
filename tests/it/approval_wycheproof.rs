//! All 150 Wycheproof Ed25519 vectors go through the signature check approvals use
//! (seal-host's rule: S < L first, then ed25519-dalek `verify`): every `valid` vector is
//! accepted and every `invalid` one rejected, as seal-host's own Wycheproof test requires.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use ed25519_dalek::VerifyingKey;
use sealkit::digest::{hex_decode, sha256_hex};
use sealkit::signature::{verify, Failure};

const CORPUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/testdata/wycheproof/ed25519_test.json"
);
const CORPUS_SHA256: &str = "70471c053c711731f2195ef4875b60ea7f5d6793939d99058ac12da810cb8e00";

#[test]
fn wycheproof_ed25519_vectors_are_classified_as_seal_host_classifies_them() {
    let bytes = std::fs::read(CORPUS).unwrap();
    assert_eq!(
        sha256_hex(&bytes),
        CORPUS_SHA256,
        "vendored corpus was changed"
    );
    let corpus: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let (mut valid, mut invalid, mut non_canonical) = (0, 0, 0);
    for group in corpus["testGroups"].as_array().unwrap() {
        let key_bytes = hex_decode(group["publicKey"]["pk"].as_str().unwrap()).unwrap();
        let key = <[u8; 32]>::try_from(key_bytes.as_slice())
            .ok()
            .and_then(|k| VerifyingKey::from_bytes(&k).ok());
        for test in group["tests"].as_array().unwrap() {
            let id = test["tcId"].as_u64().unwrap();
            let message = hex_decode(test["msg"].as_str().unwrap()).unwrap();
            let signature = hex_decode(test["sig"].as_str().unwrap()).unwrap();
            let outcome = match &key {
                Some(key) => verify(key, &message, &signature),
                None => Err(Failure::Mismatch),
            };
            match test["result"].as_str().unwrap() {
                "valid" => {
                    assert_eq!(outcome, Ok(()), "tcId {id} must verify");
                    valid += 1;
                }
                "invalid" => {
                    assert!(outcome.is_err(), "tcId {id} must be rejected");
                    if outcome == Err(Failure::NonCanonicalScalar) {
                        non_canonical += 1;
                    }
                    invalid += 1;
                }
                other => panic!("tcId {id}: unexpected result {other}"),
            }
        }
    }
    assert_eq!((valid, invalid), (88, 62));
    assert!(non_canonical > 0, "the corpus has S >= L vectors");
}
