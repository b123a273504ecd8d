//! The direct reads of `exact_form` held to serde_json's: whenever a direct read of a written
//! line (or of a text one or two bytes away from it) succeeds, serde_json's strict reads give
//! the same fields. Test-only, and a module of its own because it signs its lines with
//! `approval::sign`, which imports `approval::verify`: inside `verify` that would be an
//! import circle.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::exact_form::{canonical_payload, envelope, v1_envelope};
use super::payload::Payload;
use super::sign::{sign_approval, ApprovalInputs};
use super::verify::{outer_payload, Envelope, EnvelopeV1};
use crate::approval::Renderer;
use crate::frame::Subject;
use crate::keys::SecretKey;

/// The written form, texts one byte away from it, and texts with two raw controls added.
fn variants(text: &str) -> Vec<String> {
    const BYTES: &[u8] = b" \"\\/0019Aaeu{}[],:\n\x01\x7f";
    let bytes = text.as_bytes();
    let mut out = vec![text.to_owned()];
    for at in 0..=bytes.len() {
        let mut edit = |edited: Vec<u8>| {
            if let Ok(edited) = String::from_utf8(edited) {
                out.push(edited);
            }
        };
        if at < bytes.len() {
            edit([&bytes[..at], &bytes[at + 1..]].concat());
        }
        // Two raw controls: an even count, which a parity slip in `has_control` would
        // let through (its `|` as `^`).
        edit([&bytes[..at], b"\x01\x1f", &bytes[at..]].concat());
        for &byte in BYTES {
            edit([&bytes[..at], &[byte], &bytes[at..]].concat());
            if at < bytes.len() && bytes[at] != byte {
                edit([&bytes[..at], &[byte], &bytes[at + 1..]].concat());
            }
        }
    }
    out
}

fn signed_lines() -> Vec<String> {
    let key = SecretKey::from_seed(&[0x42; 32]);
    let approvers = [
        "ops",
        "Bob Müller",
        "q\"uote\\back",
        "tab\there\u{1}",
        "日本",
    ];
    approvers
        .iter()
        .enumerate()
        .map(|(index, approver)| {
            let inputs = ApprovalInputs {
                target: format!("{index:x}").repeat(64)[..64].to_owned(),
                authorized_at: 1_786_000_000_000 + index as u64,
                expiry: 1_786_000_120_000 + index as u64 * 10,
                nonce: format!("{index:032x}"),
                session: "sealkit-approve/eb4d525fc706".to_owned(),
                subject: Subject::of(b"frame\n"),
                shown: Subject::of(b"shown"),
                renderer: Renderer {
                    name: "sealkit-approve-terminal".to_owned(),
                    version: "1".to_owned(),
                    manifest_sha256: "0".repeat(64),
                },
                approver: (*approver).to_owned(),
            };
            sign_approval(&key, &inputs).unwrap().line
        })
        .collect()
}

/// Whenever the direct read of the written form succeeds, serde_json's strict reads give
/// the same envelope and payload, and the payload is its own canonical rendering; over the
/// written lines (approver names that need escapes and that need none) and every text one
/// byte away from their envelope or their payload; and the same for signed declines' v1
/// envelopes (which are never v2 envelopes). The direct reads must succeed on the
/// written forms (else this would test nothing) and refuse some variations of them. Seen
/// red with `Reader::integer` taking a leading zero (`"approval_record_version":02`).
#[test]
fn the_direct_read_gives_what_serde_json_gives_whenever_it_reads() {
    let (mut direct, mut refused) = ((0, 0, 0), (0, 0, 0));
    for line in signed_lines() {
        assert!(envelope(&line).is_some(), "{line}");
        let written: Envelope = serde_json::from_str(&line).unwrap();
        let needs_no_escape = !written.payload.contains('\\');
        assert_eq!(
            canonical_payload(&written.payload).is_some(),
            needs_no_escape,
            "{}",
            written.payload
        );
        for variant in variants(&line) {
            let Some(text) = envelope(&variant) else {
                refused.0 += 1;
                continue;
            };
            direct.0 += 1;
            let parsed: Envelope = serde_json::from_str(&variant)
                .unwrap_or_else(|e| panic!("{variant}: serde refuses it: {e}"));
            let text = Envelope::from(text);
            assert_eq!(
                (
                    &text.payload,
                    &text.signature_algorithm,
                    &text.signature_encoding,
                    &text.signer_key_id,
                    &text.signature
                ),
                (
                    &parsed.payload,
                    &parsed.signature_algorithm,
                    &parsed.signature_encoding,
                    &parsed.signer_key_id,
                    &parsed.signature
                ),
                "{variant}"
            );
        }
        for variant in variants(&written.payload) {
            let Some(read) = canonical_payload(&variant) else {
                refused.1 += 1;
                continue;
            };
            direct.1 += 1;
            let parsed = Payload::parse(&variant)
                .unwrap_or_else(|e| panic!("{variant}: serde refuses it: {e}"));
            assert_eq!(read, parsed, "{variant}");
            assert_eq!(parsed.is_canonical_text(variant.as_bytes()), Ok(true));
        }
    }
    let key = SecretKey::from_seed(&[0x42; 32]);
    for nonce in ["d-1", "d\"2", "d\u{e9}3"] {
        let line = super::sign::sign_decline(&key, &"7".repeat(64), 17, nonce).unwrap();
        assert!(v1_envelope(&line).is_some(), "{line}");
        for variant in variants(&line) {
            let Some(text) = v1_envelope(&variant) else {
                refused.2 += 1;
                continue;
            };
            direct.2 += 1;
            let parsed: EnvelopeV1 = serde_json::from_str(&variant)
                .unwrap_or_else(|e| panic!("{variant}: serde refuses it: {e}"));
            assert_eq!(
                (&*text.payload, text.signature),
                (parsed.payload.as_str(), parsed.signature.as_str()),
                "{variant}"
            );
            assert_eq!(outer_payload(&variant), Ok(parsed.payload), "{variant}");
            assert!(serde_json::from_str::<Envelope>(&variant).is_err());
        }
    }
    // Some variations are still the written form (another digit, another letter).
    assert!(
        direct.0 > 1000 && direct.1 > 1000 && direct.2 > 100,
        "{direct:?}"
    );
    assert!(
        refused.0 > 1000 && refused.1 > 1000 && refused.2 > 100,
        "{refused:?}"
    );
}
