//! Property: flipping any byte of a fixture receipt's signed content is caught. A flip either
//! makes the file unparseable, changes the content (the pinned-key signature then fails), or
//! keeps the same content in other bytes (then `not-host-layout` fires). A fixed, modest case
//! count keeps the suite fast; a second test flips every byte of the signed content once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use sealkit::finding::Code;
use sealkit::receipt::{self, pin, ReceiptStatus, Scratch, SignatureStatus};
use std::path::Path;

const RECEIPT: &str = "testdata/receipts/fixture-dir/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
const SEED: &str = "testdata/receipts/fixture-dir/.seal-receipt-ed25519.key";

fn fixture() -> (Vec<u8>, pin::Pin) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(root.join(RECEIPT)).unwrap();
    let pin = pin::load(root.join(SEED).to_str().unwrap()).unwrap();
    (bytes, pin)
}

/// The signed content: everything before the `"signature"` member.
fn signed_len(bytes: &[u8]) -> usize {
    let text = std::str::from_utf8(bytes).unwrap();
    text.rfind("\n  \"signature\"").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_flip_of_signed_content_is_caught(position in any::<prop::sample::Index>(), mask in 1u8..=255) {
        let (original, pin) = fixture();
        let at = position.index(signed_len(&original));
        let mut damaged = original.clone();
        damaged[at] ^= mask;
        let original_content = receipt::parse(&original).unwrap();
        match receipt::verify_bytes(&damaged, Some(&pin), &mut Scratch::default()) {
            Err(problem) => prop_assert!(matches!(problem.code, Code::NotUtf8 | Code::InvalidJson | Code::TruncatedJson)),
            Ok(report) => {
                let same_content = receipt::parse(&damaged).unwrap() == original_content
                    && serde_json::to_vec(&receipt::parse(&damaged).unwrap()).unwrap()
                        == serde_json::to_vec(&original_content).unwrap();
                if same_content {
                    prop_assert!(report.findings.iter().any(|f| f.code == Code::NotHostLayout), "byte {at}");
                } else {
                    prop_assert_ne!(report.signature.status, SignatureStatus::Verified, "byte {} mask {}", at, mask);
                    prop_assert_ne!(report.status, ReceiptStatus::Authenticated);
                }
            }
        }
    }
}

/// Every byte of the signed content, each flipped in its lowest bit (the property test above
/// samples other masks): no flip leaves the receipt authenticated. Checked on all cores.
#[test]
fn each_byte_of_signed_content_flipped_is_caught() {
    let (original, pin) = fixture();
    let original_content = receipt::parse(&original).unwrap();
    let positions: Vec<usize> = (0..signed_len(&original)).collect();
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let missed: Vec<usize> = std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(positions.len().div_ceil(workers))
            .map(|chunk| {
                let (original, pin, original_content) = (&original, &pin, &original_content);
                scope.spawn(move || {
                    let mut scratch = Scratch::default();
                    chunk
                        .iter()
                        .copied()
                        .filter(|&at| {
                            let mut damaged = original.clone();
                            damaged[at] ^= 0x01;
                            let Ok(report) =
                                receipt::verify_bytes(&damaged, Some(pin), &mut scratch)
                            else {
                                return false;
                            };
                            let same = receipt::parse(&damaged).unwrap() == *original_content;
                            let layout = report
                                .findings
                                .iter()
                                .any(|f| f.code == Code::NotHostLayout);
                            report.status == ReceiptStatus::Authenticated || (same && !layout)
                        })
                        .collect::<Vec<usize>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(positions.len() > 8000, "{} bytes", positions.len());
    assert_eq!(missed, Vec::<usize>::new());
}
