//! ApprovalRecord v2 exactly as seal-host ingests it (docs/formats.md,
//! docs/approvals.md): the 19-field payload and its own canonical rendering, the five-member token
//! line, Ed25519 over `"seal.approval-record/v2" 0x00 payload`, seal-host's acceptance pipeline
//! with its reason codes in its order, the binding of a verified record to a frame, a target
//! and a time, and seal-host's signed decline. Nothing here prints or touches files.
//!
//! Data flows one way: token line bytes → [`verify::verify_line`] (seal-host's checks, first
//! failure wins) → [`binding`] (frame, target, freshness) → a report built by the caller.
//! Signing ([`sign`]) builds the same payload from explicit inputs and is checked by the same
//! verifier.

pub mod binding;
pub mod canonical;
pub mod conflict;
mod exact_form;
#[cfg(test)]
mod exact_form_agreement;
pub mod limits;
pub mod line_reports;
pub mod listed;
pub mod payload;
pub mod reason;
pub mod sign;
pub mod verify;

pub use payload::{Payload, Renderer};
pub use reason::Reason;

/// The signature domain: the preimage is this tag, one 0x00 byte, then the canonical payload.
pub const DOMAIN: &str = "seal.approval-record/v2";
/// The only subject scope seal-host accepts: the exact client frame with its delimiter.
pub const SUBJECT_SCOPE: &str = "mcp-jsonrpc-request-frame-including-delimiter";
/// The ApprovalRecord v2 `subject_encoding`: the subject is the frame's bytes as sent.
pub const SUBJECT_ENCODING: &str = "bytes";
/// The only signature algorithm.
pub const ALGORITHM: &str = "Ed25519";
/// The only signature encoding: base64url without padding.
pub const SIGNATURE_ENCODING: &str = "base64url-nopad";
/// Largest integer the payload may carry (2^53 − 1).
pub const MAX_INTEGER: u64 = 9_007_199_254_740_991;
/// seal-host's future skew allowance for `authorized_at` (A3).
pub const FUTURE_SKEW_MS: u64 = 5_000;
/// seal-host's default approval TTL (`safety.approval.ttl_seconds` absent).
pub const DEFAULT_TTL_SECONDS: u64 = 120;
/// seal-host caps the policy TTL at 300 s.
pub const MAX_TTL_SECONDS: u64 = 300;

/// The signature preimage: `DOMAIN || 0x00 || canonical payload bytes`.
pub fn preimage(canonical_payload: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(DOMAIN.len() + 1 + canonical_payload.len());
    bytes.extend_from_slice(DOMAIN.as_bytes());
    bytes.push(0);
    bytes.extend_from_slice(canonical_payload);
    bytes
}

/// The policy TTL in milliseconds seal-host would use for `ttl_seconds` (capped at 300 s).
pub fn effective_ttl_ms(ttl_seconds: u64) -> u64 {
    ttl_seconds.min(MAX_TTL_SECONDS) * 1000
}
