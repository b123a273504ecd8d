//! The `approval_verify` fuzz target: the verifier on (mutated) fixture tokens, binding and key files.

use super::approval_token::approval_key;
use super::{first_lines, pick};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use sealkit::approval;
use sealkit::approval::binding::{freshness, Expectations, Freshness, Subject};
use sealkit::approval::line_reports::{Checker, Signed, TokenStatus};
use sealkit::approval::verify::TokenVerdict;
use sealkit::digest::sha256_hex;
use sealkit::keys::{self, PublicKey};
use sealkit::signature::GROUP_ORDER;
use sealkit::tokenfile::{Batch, LineReader};
use std::sync::OnceLock;

/// Every reason code seal-host logs for a token line (docs/approvals.md),
/// written out here rather than taken from `Reason::ALL`.
const HOST_REASONS: &[&str] = &[
    "token_file_bytes_exceeded",
    "token_file_not_utf8",
    "approval_line_bytes_exceeded",
    "approval_json_depth_exceeded",
    "approval_json_string_bytes_exceeded",
    "approval_json_collection_items_exceeded",
    "parse_error",
    "approval_payload_bytes_exceeded",
    "approval_payload_json_depth_exceeded",
    "approval_payload_json_string_bytes_exceeded",
    "approval_payload_json_collection_items_exceeded",
    "unsupported_approval_record_version",
    "approval_v2_surrounding_whitespace",
    "approval_v2_token_parse_error",
    "approval_v2_bad_signature_algorithm",
    "approval_v2_bad_signature_encoding",
    "approval_v2_wrong_signer_key_id",
    "approval_v2_payload_parse_error",
    "approval_v2_payload_validation_error",
    "approval_v2_signer_key_id_mismatch",
    "approval_v2_signature_algorithm_mismatch",
    "approval_v2_canonicalization_error",
    "approval_v2_payload_not_canonical",
    "non_canonical_signature_scalar",
    "bad_signature",
    "missing_required_field",
    "approval_record_v1_not_supported",
    "target_or_subject_mismatch",
    "expired",
    "future_issued_at",
    "replayed_nonce",
];

/// Codes no token line can reach in seal-host's order (docs-approvals.md lists them).
const UNREACHABLE_REASONS: &[&str] = &[
    "approval_json_string_bytes_exceeded",
    "approval_payload_bytes_exceeded",
    "approval_payload_json_string_bytes_exceeded",
    "approval_v2_signature_algorithm_mismatch",
    "approval_v2_canonicalization_error",
];

fn documented_reason(code: &str) -> bool {
    HOST_REASONS.contains(&code) || code.starts_with("unknown_decision:")
}

/// A verdict's reason is one seal-host logs, reachable, with its source and a record id of
/// seal-host's shape.
pub(super) fn check_token_verdict(verdict: &TokenVerdict) {
    let TokenVerdict::Rejected(rejection) = verdict else {
        return;
    };
    let code = rejection.reason.code();
    assert!(documented_reason(&code), "undocumented reason {code}");
    assert!(
        !UNREACHABLE_REASONS.contains(&code.as_ref()),
        "reason {code} is documented as unreachable"
    );
    assert!(
        ["ed25519-token", "approval-v2-context", "a3"].contains(&rejection.reason.host_source())
    );
    let id = &rejection.host_record_id;
    assert!(
        id.len() == 23
            && id.starts_with("sha256:")
            && id[7..]
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
        "record id {id}"
    );
}

/// Signed fixture lines: the ApprovalRecord v2 tokens of testdata/approvals and one
/// signed decline made with the same key.
fn fixture_tokens() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let files = [
            include_str!("../../testdata/approvals/approve-cli-getting-started.token.ndjson"),
            include_str!("../../testdata/approvals/fixture-run-allow.token.ndjson"),
            include_str!("../../testdata/approvals/rust-unit-row40.token.ndjson"),
            include_str!("../../testdata/approvals/legacy-vs-current/new/approvals-L.ndjson"),
            include_str!("../../testdata/approvals/legacy-vs-current/new/approvals-M.ndjson"),
            include_str!("../../testdata/approvals/legacy-vs-current/old/approvals-L.ndjson"),
            include_str!("../../testdata/approvals/legacy-vs-current/old/approvals-M.ndjson"),
        ];
        let mut lines: Vec<String> = files
            .iter()
            .flat_map(|f| f.lines())
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect();
        lines.push(
            approval::sign::sign_decline(
                approval_key(),
                FIXTURE_TARGET,
                1_786_000_000_000,
                "decline-1",
            )
            .unwrap_or_else(|e| panic!("{e}")),
        );
        lines
    })
}

/// The challenged target of the getting-started frame (testdata/approvals/PROVENANCE.md).
const FIXTURE_TARGET: &str = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";
const FIXTURE_FRAME: &[u8] = include_bytes!("../../testdata/approvals/getting-started-call.frame");

/// What a token's signature covers, read by serde_json as seal-host reads it: the payload
/// text and the decoded signature bytes.
fn signed_content(line: &str) -> Option<(String, Vec<u8>)> {
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    let payload = value.get("payload")?.as_str()?.to_owned();
    let signature = value.get("signature")?.as_str()?;
    let bytes = URL_SAFE_NO_PAD
        .decode(signature)
        .ok()
        .or_else(|| sealkit::digest::hex_decode(signature))?;
    Some((payload, bytes))
}

fn fixture_signed_contents() -> &'static [(String, Vec<u8>)] {
    static CONTENTS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    CONTENTS.get_or_init(|| {
        fixture_tokens()
            .iter()
            .map(|line| signed_content(line).unwrap_or_else(|| panic!("fixture {line}")))
            .collect()
    })
}

/// Lines (up to eight) of the input through the verifier with the fixture key: whatever is
/// accepted carries exactly a fixture's signed content; an accepted line stops verifying
/// when cut, when one of its bytes changes its signed content, or when its signature scalar
/// is replaced by S + L; reasons are always documented ones. Then the whole input as a
/// token file bound to the fixture frame and target, key files, and A3 freshness against
/// a reference.
pub fn approval_verify(data: &[u8]) {
    let key = &approval_key().public;
    if let Ok(text) = std::str::from_utf8(data) {
        for line in first_lines(text, 8) {
            let verdict = approval::verify::verify_line(line, key);
            check_token_verdict(&verdict);
            if matches!(verdict, TokenVerdict::Rejected(_)) {
                continue;
            }
            let content = signed_content(line)
                .unwrap_or_else(|| panic!("an accepted line has no signed content: {line}"));
            assert!(
                fixture_signed_contents().contains(&content),
                "accepted a token whose signed content no fixture carries: {line}"
            );
            mutations_of_an_accepted_line(data, line, &content);
        }
    }
    token_file_report(data);
    key_text(data);
    freshness_reference(data);
}

fn mutations_of_an_accepted_line(data: &[u8], line: &str, content: &(String, Vec<u8>)) {
    let key = &approval_key().public;
    let accepted = |text: &str| {
        !matches!(
            approval::verify::verify_line(text, key),
            TokenVerdict::Rejected(_)
        )
    };
    let bytes = line.as_bytes();
    let cut = pick(data, 1, bytes.len());
    if let Ok(prefix) = std::str::from_utf8(&bytes[..cut]) {
        assert!(!accepted(prefix), "a cut token line verifies: {prefix}");
    }
    let at = pick(data, 2, bytes.len());
    let mask = 1u8 << pick(data, 3, 8);
    let mut flipped = bytes.to_vec();
    flipped[at] ^= mask;
    if let Ok(text) = std::str::from_utf8(&flipped) {
        if accepted(text) {
            assert_eq!(
                signed_content(text).as_ref(),
                Some(content),
                "byte {at} ^ {mask:#04x} changed the signed content and still verifies"
            );
        }
    }
    // S + L: the same signature point with a non-canonical scalar.
    let (_, signature) = content;
    if signature.len() == 64 && line.contains("\"signature_algorithm\"") {
        let mut high = signature.clone();
        let mut carry = 0u16;
        for (byte, l) in high[32..].iter_mut().zip(GROUP_ORDER) {
            let sum = u16::from(*byte) + u16::from(l) + carry;
            *byte = sum as u8;
            carry = sum >> 8;
        }
        let original = URL_SAFE_NO_PAD.encode(signature);
        let replaced = line.replacen(&original, &URL_SAFE_NO_PAD.encode(&high), 1);
        if replaced != line {
            match approval::verify::verify_line(&replaced, key) {
                TokenVerdict::Rejected(r) => {
                    assert_eq!(r.reason.code(), "non_canonical_signature_scalar")
                }
                other => panic!("S + L verifies: {other:?}"),
            }
        }
    }
}

/// The input as a token file, bound to the fixture frame, target and a fixed time: every
/// report is accepted exactly when it carries signed fields and no reason, reasons are
/// documented, and reports serialize.
fn token_file_report(data: &[u8]) {
    let key = &approval_key().public;
    let expected = Expectations {
        subject: Some(Subject::of(FIXTURE_FRAME)),
        target: Some(FIXTURE_TARGET.to_owned()),
        now_ms: Some(1_786_000_060_000),
        ttl_ms: 120_000,
    };
    let mut checker = Checker::new(key, expected);
    let mut reader = LineReader::new(data);
    let mut batch = Batch::default();
    let mut accepted_nonces = std::collections::HashSet::new();
    loop {
        reader
            .next_batch(&mut batch, 4)
            .unwrap_or_else(|e| panic!("{e}"));
        if batch.lines.is_empty() {
            break;
        }
        for report in checker.check_batch(&batch) {
            serde_json::to_string(&report).unwrap_or_else(|e| panic!("report: {e}"));
            match report.status {
                TokenStatus::Accepted => {
                    assert!(report.reason.is_none() && report.reported.is_none());
                    assert!(report.binding.first_failure().is_none());
                    match &report.signed {
                        Some(Signed::Approval(a)) => {
                            assert_eq!(a.target, FIXTURE_TARGET);
                            assert!(accepted_nonces.insert(a.nonce.clone()), "nonce reused");
                        }
                        Some(Signed::Decline(d)) => assert_eq!(d.target, FIXTURE_TARGET),
                        None => panic!("accepted without signed fields"),
                    }
                }
                TokenStatus::Rejected => {
                    let reason = report
                        .reason
                        .as_deref()
                        .unwrap_or_else(|| panic!("no reason"));
                    assert!(documented_reason(reason), "undocumented reason {reason}");
                    assert!(report.signed.is_none() || report.reported.is_none());
                }
            }
        }
    }
}

/// Key file text: accepted exactly when it is 64 hex digits and an optional LF or CRLF;
/// the key id is the SHA-256 of the key bytes.
fn key_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let digits = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text);
    let well_formed = digits.len() == 64 && digits.bytes().all(|b| b.is_ascii_hexdigit());
    match keys::parse_key_text(text, "fuzz") {
        Ok(bytes) => {
            assert!(well_formed, "accepted key text {text:?}");
            assert_eq!(
                sealkit::digest::hex_lower(&bytes),
                digits.to_ascii_lowercase()
            );
            if let Ok(key) = PublicKey::from_bytes(&bytes) {
                assert_eq!(key.key_id, sha256_hex(&bytes));
                assert_eq!(key.hex, digits.to_ascii_lowercase());
            }
        }
        Err(_) => assert!(!well_formed, "refused key text {text:?}"),
    }
}

/// A3 freshness against the host's rules written with wide integers.
fn freshness_reference(data: &[u8]) {
    if data.len() < 32 {
        return;
    }
    let word = |i: usize| {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(&data[i * 8..i * 8 + 8]);
        u64::from_le_bytes(raw)
    };
    let (authorized_at, expiry, now, ttl) = (word(0), word(1), word(2), word(3));
    let (a, e, n, t) = (
        u128::from(authorized_at),
        u128::from(expiry),
        u128::from(now),
        u128::from(ttl),
    );
    let expected = if n > e {
        Freshness::PastExpiry
    } else if a > n + 5_000 {
        Freshness::FutureIssuedAt
    } else if n > a && n - a > t {
        Freshness::PastTtl
    } else {
        Freshness::Fresh
    };
    assert_eq!(freshness(authorized_at, expiry, now, ttl), expected);
}
