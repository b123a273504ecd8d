//! Ed25519 signature checks exactly as seal-host makes them (reference/seal-host-formats.md
//! §1.4): the token's signature is base64url without padding and must re-encode to the very
//! same text; the scalar S (bytes 32..64, little-endian) must be below the group order L
//! (`non_canonical_signature_scalar`); then ed25519-dalek's `verify` — RFC 8032 cofactorless
//! verification, deliberately not `verify_strict` — decides (`bad_signature`).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ed25519_dalek::ed25519::signature::MultipartVerifier;
use ed25519_dalek::{Signature, Verifier, VerifyingKey};

/// The Ed25519 group order L, little-endian.
const GROUP_ORDER: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
];

/// Why a signature did not verify.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// S ≥ L.
    NonCanonicalScalar,
    /// Not 64 bytes, or the verification equation does not hold.
    Mismatch,
}

/// Decodes a base64url-nopad signature; `None` unless re-encoding gives back the same text.
pub fn decode_base64url_nopad(text: &str) -> Option<Vec<u8>> {
    let bytes = URL_SAFE_NO_PAD.decode(text.as_bytes()).ok()?;
    (URL_SAFE_NO_PAD.encode(&bytes) == text).then_some(bytes)
}

/// [`decode_base64url_nopad`] for a signature: the decoded bytes, `None` when the text is
/// not canonical base64url-nopad. Texts up to 128 characters are handled without allocating.
pub fn decode_signature(text: &str) -> Option<SignatureBytes> {
    if text.len() > 128 {
        return decode_base64url_nopad(text).map(SignatureBytes::Heap);
    }
    let mut bytes = [0u8; 96];
    let length = URL_SAFE_NO_PAD
        .decode_slice(text.as_bytes(), &mut bytes)
        .ok()?;
    let mut again = [0u8; 128];
    let written = URL_SAFE_NO_PAD
        .encode_slice(&bytes[..length], &mut again)
        .ok()?;
    (&again[..written] == text.as_bytes()).then_some(SignatureBytes::Inline(bytes, length))
}

/// Decoded signature bytes.
pub enum SignatureBytes {
    Inline([u8; 96], usize),
    Heap(Vec<u8>),
}

impl SignatureBytes {
    pub fn as_slice(&self) -> &[u8] {
        match self {
            SignatureBytes::Inline(bytes, length) => &bytes[..*length],
            SignatureBytes::Heap(bytes) => bytes,
        }
    }
}

pub fn encode_base64url_nopad(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// True when the little-endian scalar is below L.
pub fn scalar_is_canonical(scalar: &[u8; 32]) -> bool {
    scalar.iter().rev().lt(GROUP_ORDER.iter().rev())
}

/// Verifies `signature` (raw bytes) over `message` with seal-host's scalar rule first.
pub fn verify(key: &VerifyingKey, message: &[u8], signature: &[u8]) -> Result<(), Failure> {
    verify_parts(key, &[message], signature)
}

/// [`verify`] over a message given in consecutive parts (hashed as their concatenation, so
/// the preimage `domain || 0x00 || payload` need not be copied into one buffer).
pub fn verify_parts(
    key: &VerifyingKey,
    message: &[&[u8]],
    signature: &[u8],
) -> Result<(), Failure> {
    let bytes: &[u8; 64] = signature.try_into().map_err(|_| Failure::Mismatch)?;
    let mut scalar = [0u8; 32];
    scalar.copy_from_slice(&bytes[32..]);
    if !scalar_is_canonical(&scalar) {
        return Err(Failure::NonCanonicalScalar);
    }
    let signature = Signature::from_bytes(bytes);
    let result = match message {
        [whole] => key.verify(whole, &signature),
        parts => key.multipart_verify(parts, &signature),
    };
    result.map_err(|_| Failure::Mismatch)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    #[test]
    fn group_order_itself_is_not_canonical_and_one_below_is() {
        assert!(!scalar_is_canonical(&GROUP_ORDER));
        let mut below = GROUP_ORDER;
        below[0] -= 1;
        assert!(scalar_is_canonical(&below));
        assert!(scalar_is_canonical(&[0u8; 32]));
        assert!(!scalar_is_canonical(&[0xff; 32]));
    }

    #[test]
    fn s_plus_l_is_reported_as_non_canonical_not_as_mismatch() {
        let key = SigningKey::from_bytes(&[23u8; 32]);
        let signature = key.sign(b"m").to_bytes();
        verify(&key.verifying_key(), b"m", &signature).unwrap();
        let mut bumped = signature;
        let mut carry = 0u16;
        for (s, l) in bumped[32..].iter_mut().zip(GROUP_ORDER) {
            let sum = u16::from(*s) + u16::from(l) + carry;
            *s = sum as u8;
            carry = sum >> 8;
        }
        assert_eq!(carry, 0);
        assert_eq!(
            verify(&key.verifying_key(), b"m", &bumped),
            Err(Failure::NonCanonicalScalar)
        );
        assert_eq!(
            verify(&key.verifying_key(), b"n", &signature),
            Err(Failure::Mismatch)
        );
        assert_eq!(
            verify(&key.verifying_key(), b"m", &signature[..63]),
            Err(Failure::Mismatch)
        );
    }

    /// seal-host uses `verify`, not `verify_strict`: a small-order public key with the
    /// identity as R and S = 0 "verifies" any message. Matching the host means accepting it
    /// (only the key the user pins is ever trusted, and keygen never makes such a key).
    #[test]
    fn verification_is_dalek_verify_not_verify_strict() {
        let mut identity = [0u8; 32];
        identity[0] = 1;
        let key = VerifyingKey::from_bytes(&identity).unwrap();
        let mut signature = [0u8; 64];
        signature[0] = 1;
        assert_eq!(verify(&key, b"any message", &signature), Ok(()));
        assert!(key
            .verify_strict(b"any message", &Signature::from_bytes(&signature))
            .is_err());
    }

    #[test]
    fn multipart_message_verifies_as_its_concatenation() {
        let key = SigningKey::from_bytes(&[5u8; 32]);
        let signature = key.sign(b"abc\0def").to_bytes();
        verify_parts(&key.verifying_key(), &[b"abc\0", b"def"], &signature).unwrap();
        assert_eq!(
            verify_parts(&key.verifying_key(), &[b"abc", b"def"], &signature),
            Err(Failure::Mismatch)
        );
    }

    #[test]
    fn signature_decoding_agrees_with_the_allocating_decoder() {
        for length in [0usize, 1, 63, 64, 65, 96, 97, 200] {
            let text = encode_base64url_nopad(&vec![0xa5; length]);
            let fast = decode_signature(&text).map(|b| b.as_slice().to_vec());
            assert_eq!(fast, decode_base64url_nopad(&text), "{length}");
            let padded = format!("{text}=");
            assert!(decode_signature(&padded).is_none());
        }
    }

    #[test]
    fn base64url_must_be_canonical_and_unpadded() {
        let bytes = [0xfbu8; 64];
        let text = encode_base64url_nopad(&bytes);
        assert_eq!(decode_base64url_nopad(&text).unwrap(), bytes);
        assert!(decode_signature(&text.replace('-', "+")).is_none());
        assert!(decode_base64url_nopad(&format!("{text}==")).is_none());
        assert!(decode_base64url_nopad(&text.replace('-', "+")).is_none());
        // The last character carries 2 spare bits for 64 bytes: set one of them.
        let mut tweaked = text.clone();
        let last = tweaked.pop().unwrap();
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        let index = alphabet.find(last).unwrap();
        tweaked.push(alphabet.as_bytes()[index ^ 1] as char);
        assert!(decode_base64url_nopad(&tweaked).is_none());
    }
}
