//! Signing, from explicit inputs only, so the same inputs always give the same bytes
//! (Ed25519 is deterministic): an ApprovalRecord v2 token line as seal-host's own producers
//! emit it (docs/formats.md–§1.4: members `payload`,
//! `signature_algorithm`, `signature_encoding`, `signer_key_id`, `signature` in that order,
//! compact, non-ASCII raw), and seal-host's signed decline (§1.8: a v1 envelope
//! `{"payload":…,"signature":<hex>}` whose payload is `{"target","issuedAt","nonce",
//! "decision":"deny"}`, both in Python's compact `json.dumps` form with ASCII escapes, signed
//! over the payload bytes with no domain). Every line is checked by this crate's verifier
//! before it is returned.

use super::binding::Subject;
use super::limits::MAX_APPROVAL_LINE_BYTES;
use super::payload::{Payload, Renderer, ValidationError};
use super::verify::{verify_line, TokenVerdict};
use super::{preimage, ALGORITHM, DOMAIN, SIGNATURE_ENCODING, SUBJECT_SCOPE};
use crate::digest::{hex_lower, is_sha256_hex};
use crate::error_code::Coded as _;
#[cfg(test)]
use crate::keys::SecretKey;
use crate::keys::Signer;
use crate::signature::encode_base64url_nopad;

/// Everything an ApprovalRecord v2 commits to besides the signer's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalInputs {
    pub target: String,
    pub authorized_at: u64,
    pub expiry: u64,
    pub nonce: String,
    pub session: String,
    /// SHA-256 and length of the exact frame, delimiter included.
    pub subject: Subject,
    /// SHA-256 and length of the exact text shown to the approver.
    pub shown: Subject,
    pub renderer: Renderer,
    pub approver: String,
}

/// A signed token line (without its LF) and what it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedApproval {
    pub line: String,
    pub payload: Payload,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignError {
    /// The inputs would make a payload seal-host refuses.
    #[error("cannot sign: {0}")]
    Invalid(ValidationError),
    /// The line would exceed seal-host's 16 KiB token line limit.
    #[error("the token line would be {0} bytes, over seal-host's {MAX_APPROVAL_LINE_BYTES}")]
    TooLong(usize),
    /// The decline target is not 64 lowercase hex.
    #[error("the target must be 64 lowercase hex digits")]
    BadTarget,
    /// Our own verifier refused what we signed (never expected).
    #[error("internal error: the signed line fails verification ({0})")]
    SelfCheck(String),
    /// The signer (key file or ssh-agent) could not sign: its code and message.
    #[error("{1}")]
    Signer(&'static str, String),
}

impl crate::error_code::Coded for SignError {
    fn code(&self) -> &'static str {
        match self {
            SignError::Invalid(_) => "invalid-approval-inputs",
            SignError::TooLong(_) => "token-line-too-long",
            SignError::BadTarget => "bad-target",
            SignError::SelfCheck(_) => "self-check-failed",
            SignError::Signer(code, _) => code,
        }
    }
}

/// The payload the inputs make under `key`.
pub fn approval_payload(key: &dyn Signer, inputs: &ApprovalInputs) -> Payload {
    Payload {
        approval_record_version: 2,
        target: inputs.target.clone(),
        authorized_at: inputs.authorized_at,
        expiry: inputs.expiry,
        nonce: inputs.nonce.clone(),
        session: inputs.session.clone(),
        subject_sha256: inputs.subject.sha256.clone(),
        subject_length: inputs.subject.length,
        subject_scope: SUBJECT_SCOPE.to_owned(),
        subject_encoding: super::SUBJECT_ENCODING.to_owned(),
        shown_sha256: inputs.shown.sha256.clone(),
        shown_length: inputs.shown.length,
        shown_media_type: "text/plain".to_owned(),
        shown_character_encoding: "utf-8".to_owned(),
        renderer: inputs.renderer.clone(),
        approver: inputs.approver.clone(),
        authorization_signer_key_id: key.public().key_id.clone(),
        authorization_signature_algorithm: ALGORITHM.to_owned(),
        authorization_domain: DOMAIN.to_owned(),
    }
}

/// Signs an ApprovalRecord v2 and returns its token line.
pub fn sign_approval(
    key: &dyn Signer,
    inputs: &ApprovalInputs,
) -> Result<SignedApproval, SignError> {
    let payload = approval_payload(key, inputs);
    payload.validate().map_err(SignError::Invalid)?;
    if !is_sha256_hex(&payload.target) {
        return Err(SignError::BadTarget);
    }
    let canonical = payload
        .canonical_bytes()
        .map_err(|e| SignError::SelfCheck(e.to_string()))?;
    let signature = key
        .sign_bytes(&preimage(&canonical))
        .map_err(|e| SignError::Signer(e.code(), e.to_string()))?;
    let payload_text =
        String::from_utf8(canonical).map_err(|e| SignError::SelfCheck(e.to_string()))?;
    let line = format!(
        "{{\"payload\":{},\"signature_algorithm\":\"{ALGORITHM}\",\"signature_encoding\":\"{SIGNATURE_ENCODING}\",\"signer_key_id\":\"{}\",\"signature\":\"{}\"}}",
        json_string(&payload_text),
        key.public().key_id,
        encode_base64url_nopad(&signature),
    );
    check_line(&line, key)?;
    Ok(SignedApproval { line, payload })
}

/// Signs seal-host's explicit decline for `target` and returns its token line.
pub fn sign_decline(
    key: &dyn Signer,
    target: &str,
    issued_at: u64,
    nonce: &str,
) -> Result<String, SignError> {
    if !is_sha256_hex(target) {
        return Err(SignError::BadTarget);
    }
    let mut payload = String::from("{\"target\":");
    python_ascii_string(target, &mut payload);
    payload.push_str(&format!(",\"issuedAt\":{issued_at},\"nonce\":"));
    python_ascii_string(nonce, &mut payload);
    payload.push_str(",\"decision\":\"deny\"}");
    let signature = hex_lower(
        &key.sign_bytes(payload.as_bytes())
            .map_err(|e| SignError::Signer(e.code(), e.to_string()))?,
    );
    let mut line = String::from("{\"payload\":");
    python_ascii_string(&payload, &mut line);
    line.push_str(&format!(",\"signature\":\"{signature}\"}}"));
    check_line(&line, key)?;
    Ok(line)
}

fn check_line(line: &str, key: &dyn Signer) -> Result<(), SignError> {
    if line.len() > MAX_APPROVAL_LINE_BYTES {
        return Err(SignError::TooLong(line.len()));
    }
    match verify_line(line, key.public()) {
        TokenVerdict::Approval(_) | TokenVerdict::Decline(_) => Ok(()),
        TokenVerdict::Rejected(rejection) => {
            Err(SignError::SelfCheck(rejection.reason.code().into_owned()))
        }
    }
}

/// serde_json's compact string form (`"` `\` escaped, controls escaped, non-ASCII raw), which
/// is also Python's `json.dumps(…, ensure_ascii=False)` for text without raw controls.
fn json_string(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len() + 16);
    crate::canonical::serde_string(text, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Python's `json.dumps` string form with `ensure_ascii=True`: `"` `\` and the five short
/// control escapes, every other character outside printable ASCII as lowercase `\uxxxx`
/// (UTF-16 surrogate pairs above the BMP).
fn python_ascii_string(text: &str, out: &mut String) {
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(ch),
            _ => {
                let mut units = [0u16; 2];
                for unit in ch.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn python_ascii_escapes_match_json_dumps() {
        let mut out = String::new();
        python_ascii_string("a\"\\\n\u{1}\u{7f}é😀~", &mut out);
        assert_eq!(out, r#""a\"\\\n\u0001\u007f\u00e9\ud83d\ude00~""#);
    }

    #[test]
    fn decline_has_seal_hosts_shape_and_verifies() {
        let key = SecretKey::from_seed(&[0x17u8; 32]);
        let target = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";
        let line = sign_decline(&key, target, 1786000000000, "nonce-1").unwrap();
        assert!(line.starts_with(&format!(
            "{{\"payload\":\"{{\\\"target\\\":\\\"{target}\\\",\\\"issuedAt\\\":1786000000000,\\\"nonce\\\":\\\"nonce-1\\\",\\\"decision\\\":\\\"deny\\\"}}\",\"signature\":\""
        )), "{line}");
        match verify_line(&line, &key.public) {
            TokenVerdict::Decline(decline) => {
                assert_eq!(decline.target, target);
                assert_eq!(decline.issued_at, 1786000000000);
                assert_eq!(decline.nonce, "nonce-1");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            sign_decline(&key, &target.to_uppercase(), 1, "n").unwrap_err(),
            SignError::BadTarget
        );
    }
}
