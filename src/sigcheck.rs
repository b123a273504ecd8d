//! Ed25519 verification exactly as seal-host does it (reference/seal-host-formats.md §1.4,
//! §3.4, §3.5): signatures arrive as base64url without padding and must re-encode to the
//! same text, S must be below the group order L, then ed25519-dalek 3 `verify` (not
//! `verify_strict`). Keys are 32 raw bytes, shown as 64 lowercase hex; a key id is the
//! SHA-256 of those bytes.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ed25519_dalek::{Signature, Verifier, VerifyingKey};

/// Why a signature did not verify, with seal-host's vocabulary where it has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SigError {
    /// The text is not canonical base64url-nopad of exactly 64 bytes.
    BadEncoding,
    /// S (bytes 32..64, little-endian) is not below the group order.
    NonCanonicalScalar,
    /// The public key bytes are not a valid curve point.
    BadPublicKey,
    /// The equation does not hold for this key and message.
    Mismatch,
}

impl SigError {
    /// Stable kebab-case reason.
    pub fn as_str(self) -> &'static str {
        match self {
            SigError::BadEncoding => "bad-signature-encoding",
            SigError::NonCanonicalScalar => "non-canonical-signature-scalar",
            SigError::BadPublicKey => "bad-public-key",
            SigError::Mismatch => "bad-signature",
        }
    }
}

impl std::fmt::Display for SigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SigError::BadEncoding => "signature is not canonical base64url-nopad of 64 bytes",
            SigError::NonCanonicalScalar => "signature scalar S is not below the group order",
            SigError::BadPublicKey => "public key is not a valid Ed25519 point",
            SigError::Mismatch => "signature does not verify",
        })
    }
}

/// The group order L, little-endian.
const GROUP_ORDER_LE: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
];

/// Decodes a base64url-nopad signature, insisting that it re-encodes to the same text.
pub fn decode_signature(text: &str) -> Result<[u8; 64], SigError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(text.as_bytes())
        .map_err(|_| SigError::BadEncoding)?;
    let bytes: [u8; 64] = bytes.try_into().map_err(|_| SigError::BadEncoding)?;
    if URL_SAFE_NO_PAD.encode(bytes) != text {
        return Err(SigError::BadEncoding);
    }
    Ok(bytes)
}

/// True when the scalar half of a signature is below L.
pub fn scalar_is_canonical(signature: &[u8; 64]) -> bool {
    // Compare little-endian numbers from the most significant byte down.
    for i in (0..32).rev() {
        let s = signature[32 + i];
        let l = GROUP_ORDER_LE[i];
        if s != l {
            return s < l;
        }
    }
    false
}

/// Verifies `signature` over `message` with seal-host's rules.
pub fn verify(public_key: &[u8; 32], message: &[u8], signature: &[u8; 64]) -> Result<(), SigError> {
    if !scalar_is_canonical(signature) {
        return Err(SigError::NonCanonicalScalar);
    }
    let key = VerifyingKey::from_bytes(public_key).map_err(|_| SigError::BadPublicKey)?;
    key.verify(message, &Signature::from_bytes(signature))
        .map_err(|_| SigError::Mismatch)
}

/// The public key of a 32-byte seed.
pub fn public_key_of_seed(seed: &[u8; 32]) -> [u8; 32] {
    ed25519_dalek::SigningKey::from_bytes(seed)
        .verifying_key()
        .to_bytes()
}

/// Parses 64 lowercase hex digits into 32 key bytes.
pub fn parse_key_hex(text: &str) -> Option<[u8; 32]> {
    if !crate::digest::is_sha256_hex(text) {
        return None;
    }
    crate::digest::hex_decode(text)?.try_into().ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use ed25519_dalek::Signer;

    #[test]
    fn seed_17_gives_the_documented_public_key() {
        let public = public_key_of_seed(&[0x17; 32]);
        assert_eq!(
            crate::digest::hex_lower(&public),
            "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc"
        );
    }

    #[test]
    fn signatures_verify_and_reject_tampering_padding_and_high_scalars() {
        let key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
        let public = key.verifying_key().to_bytes();
        let signature = key.sign(b"message").to_bytes();
        let text = URL_SAFE_NO_PAD.encode(signature);
        let decoded = decode_signature(&text).unwrap();
        assert_eq!(verify(&public, b"message", &decoded), Ok(()));
        assert_eq!(
            verify(&public, b"messagf", &decoded),
            Err(SigError::Mismatch)
        );
        assert_eq!(
            decode_signature(&format!("{text}==")),
            Err(SigError::BadEncoding)
        );
        assert_eq!(decode_signature(&text[1..]), Err(SigError::BadEncoding));
        // S + L encodes the same scalar mod L but is refused before verification.
        let mut high = decoded;
        let mut carry = 0u16;
        for i in 0..32 {
            let sum = u16::from(high[32 + i]) + u16::from(GROUP_ORDER_LE[i]) + carry;
            high[32 + i] = sum as u8;
            carry = sum >> 8;
        }
        assert_eq!(
            verify(&public, b"message", &high),
            Err(SigError::NonCanonicalScalar)
        );
    }

    #[test]
    fn scalar_bound_is_exact() {
        let mut at_l = [0u8; 64];
        at_l[32..].copy_from_slice(&GROUP_ORDER_LE);
        assert!(!scalar_is_canonical(&at_l));
        at_l[32] -= 1;
        assert!(scalar_is_canonical(&at_l));
    }
}
