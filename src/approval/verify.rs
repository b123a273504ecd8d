//! seal-host's acceptance pipeline for one token line (docs/formats.md,
//! §1.8), first failure wins: size and lexical caps of the line; an outer JSON object with a
//! string `payload`; size and caps of the payload; payload JSON; version detection (an object
//! with `approval_record_version` takes the v2 path, anything else the signed-v1 path); then
//! the v2 checks in the host's order, or the v1 signature and decision checks. JSON is parsed
//! with serde_json, as seal-host parses it, so every input lands on the host's reason.
//!
//! The common case costs two strict parses: the five-member envelope and the 19-field payload
//! are tried first, and when either fails, the host's looser intermediate parses are run to
//! find the exact step that fails. A strict parse that succeeds implies the looser one would
//! have succeeded with the same values, so both routes give the same verdict.

use super::limits::{first_exceeded_cap, Cap, MAX_APPROVAL_LINE_BYTES};
use super::payload::Payload;
use super::reason::{host_record_id, record_material, Reason};
use super::{ALGORITHM, DOMAIN, SIGNATURE_ENCODING};
use crate::digest::{hex_decode, is_sha256_hex};
use crate::keys::PublicKey;
use crate::signature::{self, Failure};
use serde::{Deserialize, Deserializer};
use std::borrow::Cow;

/// Which of seal-host's paths a line took before it was accepted or dropped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// Dropped before the payload's version could be read.
    Undetermined,
    /// The payload is an object with `approval_record_version`.
    ApprovalRecordV2,
    /// A legacy `{"payload","signature":<hex>}` token (signed allow, decline, or other).
    SignedV1,
}

impl TokenKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenKind::Undetermined => "undetermined",
            TokenKind::ApprovalRecordV2 => "approval-record-v2",
            TokenKind::SignedV1 => "signed-v1",
        }
    }
}

/// A token line seal-host would accept as an ApprovalRecord v2 (before binding).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedApproval {
    pub payload: Payload,
}

/// A signed v1 decline seal-host would accept (`"decision":"deny"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedDecline {
    pub target: String,
    pub issued_at: u64,
    pub nonce: String,
}

/// A token line seal-host would drop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub kind: TokenKind,
    pub reason: Reason,
    /// What exactly failed, for a person.
    pub detail: String,
    /// The `record_id` seal-host would log for this drop.
    pub host_record_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenVerdict {
    Approval(Box<VerifiedApproval>),
    Decline(VerifiedDecline),
    Rejected(Box<Rejection>),
}

/// The v2 envelope: exactly five members.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Envelope<'a> {
    #[serde(borrow)]
    pub(super) payload: Cow<'a, str>,
    #[serde(borrow)]
    pub(super) signature_algorithm: Cow<'a, str>,
    #[serde(borrow)]
    pub(super) signature_encoding: Cow<'a, str>,
    #[serde(borrow)]
    pub(super) signer_key_id: Cow<'a, str>,
    #[serde(borrow)]
    pub(super) signature: Cow<'a, str>,
}

impl<'a> From<super::exact_form::EnvelopeText<'a>> for Envelope<'a> {
    fn from(text: super::exact_form::EnvelopeText<'a>) -> Self {
        Envelope {
            payload: text.payload,
            signature_algorithm: Cow::Borrowed(text.signature_algorithm),
            signature_encoding: Cow::Borrowed(text.signature_encoding),
            signer_key_id: Cow::Borrowed(text.signer_key_id),
            signature: Cow::Borrowed(text.signature),
        }
    }
}

/// The v1 envelope: `payload` and a hex `signature`; other members ignored.
#[derive(Deserialize)]
pub(super) struct EnvelopeV1 {
    pub(super) payload: String,
    pub(super) signature: String,
}

/// The fields seal-host reads from a signed v1 payload.
#[derive(Deserialize)]
struct PayloadV1 {
    #[serde(deserialize_with = "target_hex")]
    target: String,
    #[serde(rename = "issuedAt", default, deserialize_with = "u64_number_or_text")]
    issued_at: Option<u64>,
    #[serde(default)]
    nonce: Option<String>,
    #[serde(default)]
    decision: Option<String>,
}

fn target_hex<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    if is_sha256_hex(&text) {
        Ok(text)
    } else {
        Err(serde::de::Error::custom("target must be lowercase 64-hex"))
    }
}

fn u64_number_or_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    use serde::de::Error;
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::Number(n) => n
            .as_u64()
            .map(Some)
            .ok_or_else(|| D::Error::custom("not u64")),
        serde_json::Value::String(s) => s.parse().map(Some).map_err(D::Error::custom),
        _ => Err(D::Error::custom("issuedAt must be a number or string")),
    }
}

struct OnPath {
    kind: TokenKind,
}

impl OnPath {
    fn reject(&self, reason: Reason, detail: impl Into<String>, material: &[u8]) -> TokenVerdict {
        TokenVerdict::Rejected(Box::new(Rejection {
            kind: self.kind,
            reason,
            detail: detail.into(),
            host_record_id: host_record_id(material),
        }))
    }
}

/// seal-host's verdict on a line over its 16 KiB cap, from the line's length and its first
/// 16 KiB (all that seal-host's record id covers); nothing else about the line matters.
pub fn line_too_long(length: u64, prefix: &[u8]) -> TokenVerdict {
    let drop = OnPath {
        kind: TokenKind::Undetermined,
    };
    drop.reject(
        Reason::LineBytesExceeded,
        format!("line is {length} bytes, over seal-host's 16384"),
        &prefix[..prefix.len().min(MAX_APPROVAL_LINE_BYTES)],
    )
}

/// seal-host's payload limits (v1 and v2 alike): 16 KiB, then the lexical caps.
fn payload_over_limits(drop: &OnPath, payload_bytes: &[u8]) -> Option<TokenVerdict> {
    if payload_bytes.len() > MAX_APPROVAL_LINE_BYTES {
        return Some(drop.reject(
            Reason::PayloadBytesExceeded,
            format!(
                "payload is {} bytes, over seal-host's 16384",
                payload_bytes.len()
            ),
            &payload_bytes[..MAX_APPROVAL_LINE_BYTES],
        ));
    }
    let cap = first_exceeded_cap(payload_bytes)?;
    let reason = match cap {
        Cap::Depth => Reason::PayloadJsonDepthExceeded,
        Cap::StringBytes => Reason::PayloadJsonStringBytesExceeded,
        Cap::CollectionItems => Reason::PayloadJsonCollectionItemsExceeded,
    };
    Some(drop.reject(reason, cap_detail("payload", cap), payload_bytes))
}

/// Runs seal-host's checks on one non-blank token line (without its line break) against the
/// single trusted approval key.
pub fn verify_line(line: &str, key: &PublicKey) -> TokenVerdict {
    match check_line(line, key) {
        LineCheck::Done(verdict) => verdict,
        LineCheck::Signature(pending) => {
            let result =
                signature::verify_parts(&key.verifying, &pending.message(), pending.signature());
            pending.verdict(result)
        }
    }
}

/// Where one line stands after every check but its ApprovalRecord v2 signature.
// Most lines of a token file end up `Signature`, collected by the batch: boxing it would add
// an allocation per line and save nothing.
#[allow(clippy::large_enum_variant)]
pub enum LineCheck<'a> {
    /// The verdict needs no further signature check.
    Done(TokenVerdict),
    /// Every check before the signature passed; the signature check decides (so a caller
    /// may check many of them together, see `signature::batch`).
    Signature(PendingSignature<'a>),
}

impl From<TokenVerdict> for LineCheck<'_> {
    fn from(verdict: TokenVerdict) -> Self {
        LineCheck::Done(verdict)
    }
}

/// A line that passed every check before its signature: an ApprovalRecord v2, or a signed
/// v1 token (whose signature seal-host checks before anything in its payload).
pub struct PendingSignature<'a> {
    line: &'a str,
    signed: SignedText<'a>,
    signature: signature::SignatureBytes,
}

/// What a pending signature covers, by the path the line took.
// Nearly every pending line is a v2 record; boxing its payload would add an allocation per line.
#[allow(clippy::large_enum_variant)]
enum SignedText<'a> {
    /// `domain || 0x00 || payload`; the payload's fields are already read and checked.
    V2 {
        payload: Payload,
        text: Cow<'a, str>,
    },
    /// The payload text alone; its checks follow the signature's.
    V1 { payload: String },
}

impl PendingSignature<'_> {
    /// The signed bytes in the parts they are hashed from: for a v2 record the domain, 0x00
    /// and the payload text (which equals the canonical rendering of its fields, an earlier
    /// check); for a signed v1 token the payload text, after two empty parts (hashing the
    /// parts is hashing their concatenation).
    pub fn message(&self) -> [&[u8]; 3] {
        match &self.signed {
            SignedText::V2 { text, .. } => [DOMAIN.as_bytes(), b"\0", text.as_bytes()],
            SignedText::V1 { payload } => [b"", b"", payload.as_bytes()],
        }
    }

    /// The decoded signature bytes (any length; only 64 can verify).
    pub fn signature(&self) -> &[u8] {
        self.signature.as_slice()
    }

    /// The line's verdict once its signature check returned `result`.
    pub fn verdict(self, result: Result<(), Failure>) -> TokenVerdict {
        match self.signed {
            SignedText::V2 { payload, .. } => match result {
                Ok(()) => TokenVerdict::Approval(Box::new(VerifiedApproval { payload })),
                Err(failure) => signature_drop(
                    &OnPath {
                        kind: TokenKind::ApprovalRecordV2,
                    },
                    failure,
                    self.line.as_bytes(),
                ),
            },
            SignedText::V1 { payload } => v1_after_signature(self.line, payload, result),
        }
    }
}

/// [`verify_line`] up to the v2 signature check.
pub fn check_line<'a>(line: &'a str, key: &PublicKey) -> LineCheck<'a> {
    let drop = OnPath {
        kind: TokenKind::Undetermined,
    };
    if line.len() > MAX_APPROVAL_LINE_BYTES {
        return line_too_long(line.len() as u64, line.as_bytes()).into();
    }
    if let Some(cap) = first_exceeded_cap(line.as_bytes()) {
        let reason = match cap {
            Cap::Depth => Reason::LineJsonDepthExceeded,
            Cap::StringBytes => Reason::LineJsonStringBytesExceeded,
            Cap::CollectionItems => Reason::LineJsonCollectionItemsExceeded,
        };
        return drop
            .reject(reason, cap_detail("line", cap), line.as_bytes())
            .into();
    }
    // The written forms read directly; anything else by seal-host's serde_json parses
    // (`exact_form`'s docs: the same fields whenever the direct read succeeds). A line in the
    // written v1 form is no v2 envelope; serde's reason why is only asked for (below) if its
    // payload turns out to be a v2 record.
    let exact = super::exact_form::envelope(line).map(Envelope::from);
    let v1 = match exact {
        Some(_) => None,
        None => super::exact_form::v1_envelope(line),
    };
    let envelope: Option<Result<Envelope, _>> = match (exact, &v1) {
        (Some(envelope), _) => Some(Ok(envelope)),
        (None, Some(_)) => None,
        (None, None) => Some(serde_json::from_str(line)),
    };
    let payload_text: Cow<'_, str> = match (&envelope, &v1) {
        (Some(Ok(envelope)), _) => Cow::Borrowed(&envelope.payload),
        (_, Some(v1)) => Cow::Borrowed(&v1.payload),
        _ => match outer_payload(line) {
            Ok(text) => Cow::Owned(text),
            Err(detail) => {
                return drop
                    .reject(Reason::ParseError, detail, line.as_bytes())
                    .into()
            }
        },
    };
    if let Some(rejected) = payload_over_limits(&drop, payload_text.as_bytes()) {
        return rejected.into();
    }
    // A payload that is its own canonical rendering is read directly (and is known canonical);
    // any other by serde_json, and rendered again to compare.
    let canonical = super::exact_form::canonical_payload(&payload_text);
    let known_canonical = canonical.is_some();
    let parsed = canonical.map_or_else(|| Payload::parse(&payload_text), Ok);
    let version = match &parsed {
        Ok(payload) => Some(Some(payload.approval_record_version)),
        Err(_) => match payload_version(&payload_text) {
            Ok(version) => version,
            Err(error) => {
                return drop
                    .reject(
                        Reason::ParseError,
                        format!("payload is not JSON: {error}"),
                        payload_text.as_bytes(),
                    )
                    .into()
            }
        },
    };
    match version {
        None => verify_v1(line, v1),
        Some(Some(2)) => {
            let envelope = envelope.unwrap_or_else(|| serde_json::from_str(line));
            verify_v2(line, envelope, parsed, known_canonical, key)
        }
        Some(_) => OnPath {
            kind: TokenKind::ApprovalRecordV2,
        }
        .reject(
            Reason::UnsupportedApprovalRecordVersion,
            "approval_record_version is not the integer 2",
            payload_text.as_bytes(),
        )
        .into(),
    }
}

fn cap_detail(what: &str, cap: Cap) -> String {
    let limit = match cap {
        Cap::Depth => "nesting deeper than 64",
        Cap::StringBytes => "a quoted token over 262144 bytes",
        Cap::CollectionItems => "a container with more than 4096 items",
    };
    format!("{what} has {limit} (seal-host's lexical cap)")
}

/// The host's outer parse: any JSON value, then a string member `payload`.
pub(super) fn outer_payload(line: &str) -> Result<String, String> {
    let outer: serde_json::Value =
        serde_json::from_str(line).map_err(|e| format!("line is not JSON: {e}"))?;
    match outer.get("payload") {
        Some(serde_json::Value::String(text)) => Ok(text.clone()),
        Some(_) => Err("`payload` is not a string".to_owned()),
        None => Err("line has no `payload` member".to_owned()),
    }
}

/// The host's version probe: `None` when the payload is not an object holding
/// `approval_record_version` (v1 path), else `Some(value as u64)`.
fn payload_version(text: &str) -> Result<Option<Option<u64>>, serde_json::Error> {
    let value: serde_json::Value = serde_json::from_str(text)?;
    Ok(value
        .as_object()
        .and_then(|object| object.get("approval_record_version"))
        .map(serde_json::Value::as_u64))
}

fn verify_v2<'a>(
    line: &'a str,
    envelope: Result<Envelope<'a>, serde_json::Error>,
    parsed: Result<Payload, serde_json::Error>,
    known_canonical: bool,
    key: &PublicKey,
) -> LineCheck<'a> {
    let drop = OnPath {
        kind: TokenKind::ApprovalRecordV2,
    };
    let material = line.as_bytes();
    if line.trim() != line {
        return LineCheck::Done(drop.reject(
            Reason::SurroundingWhitespace,
            "line has leading or trailing whitespace",
            material,
        ));
    }
    let envelope = match envelope {
        Ok(envelope) => envelope,
        Err(error) => {
            return LineCheck::Done(drop.reject(
                Reason::TokenParseError,
                format!("token is not exactly the five v2 members: {error}"),
                material,
            ))
        }
    };
    if envelope.signature_algorithm != ALGORITHM {
        return LineCheck::Done(drop.reject(
            Reason::BadSignatureAlgorithm,
            format!(
                "signature_algorithm is {:?}, not \"Ed25519\"",
                envelope.signature_algorithm
            ),
            material,
        ));
    }
    if envelope.signature_encoding != SIGNATURE_ENCODING {
        return LineCheck::Done(drop.reject(
            Reason::BadSignatureEncoding,
            format!(
                "signature_encoding is {:?}, not \"base64url-nopad\"",
                envelope.signature_encoding
            ),
            material,
        ));
    }
    if *envelope.signer_key_id != *key.key_id {
        return LineCheck::Done(drop.reject(
            Reason::WrongSignerKeyId,
            format!(
                "signer_key_id {} is not the trusted key's id {}",
                envelope.signer_key_id, key.key_id
            ),
            material,
        ));
    }
    let payload = match parsed {
        Ok(payload) => payload,
        Err(error) => {
            return LineCheck::Done(drop.reject(
                Reason::PayloadParseError,
                format!("payload does not have the 19 v2 fields with their types: {error}"),
                material,
            ))
        }
    };
    if let Err(problem) = payload.validate() {
        return LineCheck::Done(drop.reject(
            Reason::PayloadValidationError,
            problem.to_string(),
            material,
        ));
    }
    if *payload.authorization_signer_key_id != *envelope.signer_key_id {
        return LineCheck::Done(drop.reject(
            Reason::SignerKeyIdMismatch,
            "payload authorization_signer_key_id differs from the token's signer_key_id",
            material,
        ));
    }
    if *payload.authorization_signature_algorithm != *envelope.signature_algorithm {
        return LineCheck::Done(drop.reject(
            Reason::SignatureAlgorithmMismatch,
            "payload authorization_signature_algorithm differs from the token's",
            material,
        ));
    }
    let canonical = if known_canonical {
        Ok(true)
    } else {
        payload.is_canonical_text(envelope.payload.as_bytes())
    };
    match canonical {
        Err(error) => {
            return LineCheck::Done(drop.reject(
                Reason::CanonicalizationError,
                error.to_string(),
                material,
            ))
        }
        Ok(false) => {
            return LineCheck::Done(drop.reject(
                Reason::PayloadNotCanonical,
                "payload text is not the canonical rendering of its own fields",
                material,
            ))
        }
        Ok(true) => {}
    }
    let Some(signature_bytes) = signature::decode_signature(&envelope.signature) else {
        return LineCheck::Done(drop.reject(
            Reason::BadSignatureEncoding,
            "signature is not canonical unpadded base64url",
            material,
        ));
    };
    LineCheck::Signature(PendingSignature {
        line,
        signed: SignedText::V2 {
            payload,
            text: envelope.payload,
        },
        signature: signature_bytes,
    })
}

fn signature_drop(drop: &OnPath, failure: Failure, material: &[u8]) -> TokenVerdict {
    match failure {
        Failure::NonCanonicalScalar => drop.reject(
            Reason::NonCanonicalSignatureScalar,
            "signature scalar S is not below the group order",
            material,
        ),
        Failure::BadEncoding => drop.reject(
            Reason::BadSignatureEncoding,
            "signature is not canonical base64url-nopad",
            material,
        ),
        // The trusted key was parsed before any token was read, so only the equation
        // can fail here.
        Failure::Mismatch | Failure::BadPublicKey => drop.reject(
            Reason::BadSignature,
            "signature does not verify under the trusted key",
            material,
        ),
    }
}

/// The signed v1 path up to its signature check, which comes first in seal-host's order (a
/// signature that does not verify is `bad_signature` whatever its payload holds).
fn verify_v1<'a>(line: &'a str, written: Option<super::exact_form::V1Text<'a>>) -> LineCheck<'a> {
    let drop = OnPath {
        kind: TokenKind::SignedV1,
    };
    let read = match written {
        Some(text) => Ok(EnvelopeV1 {
            payload: text.payload.into_owned(),
            signature: text.signature.to_owned(),
        }),
        None => serde_json::from_str(line),
    };
    let envelope: EnvelopeV1 = match read {
        Ok(envelope) => envelope,
        Err(error) => {
            return LineCheck::Done(drop.reject(
                Reason::ParseError,
                format!("not a signed token {{payload, signature}}: {error}"),
                line.as_bytes(),
            ))
        }
    };
    // Hex that does not decode is no signature: the empty one, which no key verifies.
    let signature = hex_decode(&envelope.signature).unwrap_or_default();
    LineCheck::Signature(PendingSignature {
        line,
        signed: SignedText::V1 {
            payload: envelope.payload,
        },
        signature: signature::SignatureBytes::Heap(signature),
    })
}

/// The rest of the signed v1 path once its signature check returned `result`: the payload's
/// limits, its fields, and its decision.
fn v1_after_signature(line: &str, text: String, result: Result<(), Failure>) -> TokenVerdict {
    let drop = OnPath {
        kind: TokenKind::SignedV1,
    };
    if let Err(failure) = result {
        return signature_drop(&drop, failure, line.as_bytes());
    }
    if let Some(rejected) = payload_over_limits(&drop, text.as_bytes()) {
        return rejected;
    }
    let payload: PayloadV1 = match serde_json::from_str(&text) {
        Ok(payload) => payload,
        Err(error) => {
            return drop.reject(
                Reason::ParseError,
                format!("signed payload is not {{target, issuedAt, nonce, decision}}: {error}"),
                text.as_bytes(),
            )
        }
    };
    let material = record_material(&payload.target, payload.issued_at, payload.nonce.as_deref());
    let (Some(issued_at), Some(nonce)) = (payload.issued_at, payload.nonce) else {
        return drop.reject(
            Reason::MissingRequiredField,
            "signed v1 payload lacks nonce or issuedAt",
            material.as_bytes(),
        );
    };
    match payload.decision.as_deref() {
        None | Some("allow") => drop.reject(
            Reason::ApprovalRecordV1NotSupported,
            "signed v1 approvals are refused; only ApprovalRecord v2 approves",
            material.as_bytes(),
        ),
        Some("deny") => TokenVerdict::Decline(VerifiedDecline {
            target: payload.target,
            issued_at,
            nonce,
        }),
        Some(other) => drop.reject(
            Reason::UnknownDecision(other.to_owned()),
            "decision is neither \"allow\" nor \"deny\"",
            material.as_bytes(),
        ),
    }
}
