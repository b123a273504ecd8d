//! The `approval_token` fuzz target: token files, the ApprovalRecord v2 payload and its canonical rendering.

use super::approval_verify::check_token_verdict;
use super::first_lines;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ed25519_dalek::Signer;
use sealkit::approval;
use sealkit::approval::binding::Expectations;
use sealkit::approval::limits::{first_exceeded_cap, MAX_APPROVAL_LINE_BYTES};
use sealkit::approval::line_reports::{Checker, TokenStatus};
use sealkit::approval::payload::Payload;
use sealkit::approval::verify::TokenVerdict;
use sealkit::keys::{PublicKey, SecretKey};
use sealkit::tokenfile::{Batch, LineReader};
use std::sync::OnceLock;

/// The approval key of every fixture token: seed 0x17 repeated (testdata/approvals).
const APPROVAL_SEED: [u8; 32] = [0x17; 32];

pub(super) fn approval_key() -> &'static SecretKey {
    static KEY: OnceLock<SecretKey> = OnceLock::new();
    KEY.get_or_init(|| SecretKey::from_seed(&APPROVAL_SEED))
}

/// A key that is not the approval key but claims its key id: only the signature can tell
/// them apart.
fn impostor_key() -> &'static PublicKey {
    static KEY: OnceLock<PublicKey> = OnceLock::new();
    KEY.get_or_init(|| {
        let other = SecretKey::from_seed(&[0x18; 32]).public;
        PublicKey {
            key_id: approval_key().public.key_id.clone(),
            ..other
        }
    })
}

/// Lines of the token file, rebuilt by a reference splitter (LF ends a line, one CR before
/// it is dropped, a last line without LF is still a line); then each line (up to eight) and
/// the whole input as payload text and as a token line.
pub fn approval_token(data: &[u8]) {
    token_file_lines(data);
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for candidate in std::iter::once(text).chain(first_lines(text, 8)) {
        payload_round_trip(candidate);
        signed_payload(candidate);
        for key in [&approval_key().public, impostor_key()] {
            let verdict = approval::verify::verify_line(candidate, key);
            check_token_verdict(&verdict);
            if std::ptr::eq(key, impostor_key()) {
                assert!(
                    matches!(verdict, TokenVerdict::Rejected(_)),
                    "a line verified under a key that did not sign it: {candidate}"
                );
            }
        }
    }
}

fn token_file_lines(data: &[u8]) {
    let mut reader = LineReader::new(data);
    let mut batch = Batch::default();
    let mut ours: Vec<(u64, Vec<u8>)> = Vec::new();
    loop {
        reader
            .next_batch(&mut batch, 3)
            .unwrap_or_else(|e| panic!("in-memory read: {e}"));
        if batch.lines.is_empty() {
            break;
        }
        for line in &batch.lines {
            ours.push((line.number, batch.line(line).to_vec()));
        }
    }
    assert_eq!(reader.total_bytes(), data.len() as u64);
    let mut pieces: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if pieces.last().is_some_and(|p| p.is_empty()) {
        pieces.pop();
    }
    let terminated = pieces
        .len()
        .saturating_sub(usize::from(!data.ends_with(b"\n")));
    let expected: Vec<(u64, Vec<u8>)> = pieces
        .iter()
        .enumerate()
        .map(|(i, piece)| {
            let piece = match piece.strip_suffix(b"\r") {
                Some(stripped) if i < terminated => stripped,
                _ => piece,
            };
            (i as u64 + 1, piece.to_vec())
        })
        .collect();
    assert_eq!(
        ours, expected,
        "token file lines differ from the reference split"
    );
    if let Ok(text) = std::str::from_utf8(data) {
        let std_lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
        let our_lines: Vec<&[u8]> = ours.iter().map(|(_, l)| l.as_slice()).collect();
        assert_eq!(
            our_lines, std_lines,
            "token file lines differ from str::lines"
        );
    }
}

/// A payload that parses and validates renders to canonical bytes that parse back to the
/// same payload, render to themselves, equal an independent rendering, and are the only
/// text `is_canonical_text` accepts.
fn payload_round_trip(text: &str) {
    let Ok(payload) = Payload::parse(text) else {
        return;
    };
    if payload.validate().is_err() {
        return;
    }
    let bytes = payload
        .canonical_bytes()
        .unwrap_or_else(|e| panic!("a validated payload does not render: {e}"));
    let rendered =
        std::str::from_utf8(&bytes).unwrap_or_else(|_| panic!("canonical text is UTF-8"));
    let again = Payload::parse(rendered)
        .unwrap_or_else(|e| panic!("canonical text does not parse back ({e}): {rendered}"));
    assert_eq!(again, payload, "canonical text parses to another payload");
    assert_eq!(
        again.canonical_bytes().ok().as_deref(),
        Some(bytes.as_slice())
    );
    let value = serde_json::to_value(&payload).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        reference_canonical(&value).as_deref(),
        Some(rendered),
        "the canonical renderer disagrees with the reference rendering"
    );
    assert_eq!(payload.is_canonical_text(&bytes), Ok(true));
    assert_eq!(
        payload.is_canonical_text(text.as_bytes()),
        Ok(text.as_bytes() == bytes.as_slice()),
        "is_canonical_text accepts a text that is not the rendering"
    );
}

/// docs/formats.md (the payload) written out plainly: members sorted by key bytes, integers up to
/// 2^53-1 as digits, strings escaping `"`, `\` and U+0000–U+001F (as `\u00xx`) only.
fn reference_canonical(value: &serde_json::Value) -> Option<String> {
    use serde_json::Value as S;
    Some(match value {
        S::Number(n) => {
            let n = n.as_u64().filter(|n| *n <= 9_007_199_254_740_991)?;
            n.to_string()
        }
        S::String(s) => {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }
        S::Object(map) => {
            let mut members: Vec<(&String, &S)> = map.iter().collect();
            members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            let mut out = String::from("{");
            for (i, (key, value)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&reference_canonical(&S::String(key.clone()))?);
                out.push(':');
                out.push_str(&reference_canonical(value)?);
            }
            out.push('}');
            out
        }
        _ => return None,
    })
}

/// The token line seal-host's producers write for a payload text, signed by the fixture
/// approval key (or with another signature text).
fn token_line(payload: &str, signature: &str) -> String {
    let key_id = &approval_key().public.key_id;
    format!(
        "{{\"payload\":{},\"signature_algorithm\":\"Ed25519\",\"signature_encoding\":\"base64url-nopad\",\"signer_key_id\":\"{key_id}\",\"signature\":\"{signature}\"}}",
        serde_json::Value::String(payload.to_owned())
    )
}

fn sign_payload(payload: &str) -> [u8; 64] {
    let preimage = approval::preimage(payload.as_bytes());
    approval_key().signing.sign(&preimage).to_bytes()
}

/// The input as payload text, signed with the right key: seal-host accepts the line exactly
/// when the payload parses, validates, names the signing key and algorithm, and is its own
/// canonical rendering (reference decision below); then padding, surrounding whitespace and
/// a second use of the nonce are refused with their reasons.
fn signed_payload(text: &str) {
    let signature = sign_payload(text);
    let encoded = URL_SAFE_NO_PAD.encode(signature);
    let line = token_line(text, &encoded);
    let parsed = Payload::parse(text).ok();
    let within_caps = line.len() <= MAX_APPROVAL_LINE_BYTES
        && first_exceeded_cap(line.as_bytes()).is_none()
        && first_exceeded_cap(text.as_bytes()).is_none();
    let expected = parsed.as_ref().filter(|p| {
        within_caps
            && p.validate().is_ok()
            && p.authorization_signer_key_id == approval_key().public.key_id
            && p.authorization_signature_algorithm == "Ed25519"
            && serde_json::to_value(p)
                .ok()
                .and_then(|v| reference_canonical(&v))
                .is_some_and(|c| c == text)
    });
    let verdict = approval::verify::verify_line(&line, &approval_key().public);
    check_token_verdict(&verdict);
    match (&verdict, expected) {
        (TokenVerdict::Approval(approval), Some(payload)) => {
            assert_eq!(&approval.payload, payload)
        }
        (TokenVerdict::Rejected(_), None) => return,
        (verdict, expected) => panic!(
            "verdict {verdict:?} where the reference {} the signed line",
            if expected.is_some() {
                "accepts"
            } else {
                "refuses"
            }
        ),
    }
    // Accepted: only the exact line, its CRLF-terminated form in a file, and inner JSON
    // whitespace (not signed, as in seal-host) are accepted.
    let refused_with = |variant: &str, reason: &str| match approval::verify::verify_line(
        variant,
        &approval_key().public,
    ) {
        TokenVerdict::Rejected(r) => assert_eq!(r.reason.code(), reason, "{variant}"),
        other => panic!("{reason} expected for {variant}: {other:?}"),
    };
    for variant in [
        format!(" {line}"),
        format!("{line} "),
        format!("\t{line}"),
        format!("{line}\r"),
    ] {
        refused_with(&variant, "approval_v2_surrounding_whitespace");
    }
    // Whitespace that is not JSON whitespace fails the host's first parse.
    refused_with(&format!("{line}\u{a0}"), "parse_error");
    for padded in [format!("{encoded}="), format!("{encoded}==")] {
        refused_with(
            &token_line(text, &padded),
            "approval_v2_bad_signature_encoding",
        );
    }
    let spaced = line.replacen("\",\"signature\":", "\" , \"signature\" :", 1);
    assert!(matches!(
        approval::verify::verify_line(&spaced, &approval_key().public),
        TokenVerdict::Approval(_)
    ));
    let file = format!("{line}\r\n\n{spaced}\r\n");
    let key = &approval_key().public;
    let mut checker = Checker::new(key, Expectations::default());
    let mut reader = LineReader::new(file.as_bytes());
    let mut batch = Batch::default();
    reader
        .next_batch(&mut batch, 16)
        .unwrap_or_else(|e| panic!("{e}"));
    let reports = checker.check_batch(&batch);
    assert_eq!(reports.len(), 2, "the blank line is skipped");
    assert_eq!(reports[0].status, TokenStatus::Accepted);
    assert_eq!(reports[1].status, TokenStatus::Rejected);
    assert_eq!(reports[1].reason.as_deref(), Some("replayed_nonce"));
}
