//! Ed25519 checks exactly as seal-host makes them, for every signed artifact sealkit reads
//! (docs/formats.md approval tokens, §3.4 receipts, §3.5 statement
//! bundles; the V2.3 envelope rule is the same): base64url signatures without padding must
//! re-encode to the very same text; the scalar S (bytes 32..64, little-endian) must be below
//! the group order L (`non_canonical_signature_scalar`); then ed25519-dalek's `verify` —
//! RFC 8032 cofactorless verification, deliberately not `verify_strict` — decides
//! (`bad_signature`). Keys are 32 raw bytes shown as 64 lowercase hex.
//!
//! [`verify_streamed`] is the same check over a message fed in pieces (dalek's
//! `verify_stream` hashes `R ‖ A ‖ M` incrementally and compares the recomputed R exactly as
//! `verify` does), so long preimages need not be assembled; [`KeyCache`] keeps decompressed
//! keys, which every receipt of one installation shares.
//!
//! [`batch::verify_each`] checks many signatures under one key together (approval token files)
//! and gives each exactly the result [`verify_parts`] gives it alone: a plain batch equation
//! cannot see a small-order part of R (whoever holds the key can sign with `R = [r]B + T`, T
//! of order 2, which `verify` and seal-host reject), so the batch first establishes that the
//! key and every R are torsion-free, and falls back to one-by-one for any chunk that fails
//! (the proof is in that module's docs; `tests/it/signature_batching.rs` keeps such
//! signatures rejected on both paths). Receipt signatures are split in two for it: a worker
//! streams the preimage into [`challenge_streamed`] (the scalar rule and `k = H(R ‖ A ‖ M)`),
//! and the audit checks the curve equations of a batch of receipts under the pinned key
//! together with [`batch::verify_challenges`], each getting what [`verify_challenge`] alone
//! (and so [`verify_streamed`]) gives it.

pub mod batch;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use curve25519_dalek::edwards::EdwardsPoint;
use curve25519_dalek::scalar::Scalar;
use ed25519_dalek::ed25519::signature::MultipartVerifier;
use ed25519_dalek::{Signature, StreamVerifier, Verifier, VerifyingKey};
use sha2::{Digest, Sha512};

/// The Ed25519 group order L, little-endian.
pub const GROUP_ORDER: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
];

/// Why a signature did not verify.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The text is not canonical base64url-nopad of exactly 64 bytes.
    BadEncoding,
    /// S ≥ L.
    NonCanonicalScalar,
    /// The public key bytes are not a valid curve point.
    BadPublicKey,
    /// Not 64 bytes, or the verification equation does not hold.
    Mismatch,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Failure::BadEncoding => "signature is not canonical base64url-nopad of 64 bytes",
            Failure::NonCanonicalScalar => "signature scalar S is not below the group order",
            Failure::BadPublicKey => "public key is not a valid Ed25519 point",
            Failure::Mismatch => "signature does not verify",
        })
    }
}

impl std::error::Error for Failure {}

/// A base64url-nopad signature of exactly 64 bytes.
pub fn decode_signature_64(text: &str) -> Result<[u8; 64], Failure> {
    let bytes = decode_signature(text).ok_or(Failure::BadEncoding)?;
    bytes
        .as_slice()
        .try_into()
        .map_err(|_| Failure::BadEncoding)
}

/// [`verify`] with the public key given as raw bytes.
pub fn verify_key_bytes(
    public_key: &[u8; 32],
    message: &[u8],
    signature: &[u8],
) -> Result<(), Failure> {
    let key = VerifyingKey::from_bytes(public_key).map_err(|_| Failure::BadPublicKey)?;
    verify(&key, message, signature)
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
    let signature = checked_signature(signature)?;
    let result = match message {
        [whole] => key.verify(whole, &signature),
        parts => key.multipart_verify(parts, &signature),
    };
    result.map_err(|_| Failure::Mismatch)
}

/// seal-host's rules before the curve check: 64 bytes, and S below the group order L.
fn checked_signature(signature: &[u8]) -> Result<Signature, Failure> {
    let bytes: &[u8; 64] = signature.try_into().map_err(|_| Failure::Mismatch)?;
    let mut scalar = [0u8; 32];
    scalar.copy_from_slice(&bytes[32..]);
    if !scalar_is_canonical(&scalar) {
        return Err(Failure::NonCanonicalScalar);
    }
    Ok(Signature::from_bytes(bytes))
}

/// The message of a [`verify_streamed`] or [`challenge_streamed`] check, fed in consecutive
/// pieces into the verifier or the challenge hash the check made.
pub struct MessageStream<'s> {
    into: &'s mut dyn Absorb,
}

/// What a message piece goes into: dalek's stream verifier, or the challenge hash.
trait Absorb {
    fn absorb(&mut self, piece: &[u8]);
}

impl Absorb for StreamVerifier {
    fn absorb(&mut self, piece: &[u8]) {
        self.update(piece);
    }
}

impl Absorb for Sha512 {
    fn absorb(&mut self, piece: &[u8]) {
        self.update(piece);
    }
}

impl MessageStream<'_> {
    /// Appends the next piece of the message.
    pub fn update(&mut self, piece: &[u8]) {
        self.into.absorb(piece);
    }
}

/// [`verify`] over a message that `feed` writes piece by piece: the same scalar rule first,
/// then the same cofactorless check (`R` recomputed from `H(R ‖ A ‖ M)` and compared byte
/// for byte).
pub fn verify_streamed(
    key: &VerifyingKey,
    signature: &[u8],
    feed: impl FnOnce(&mut MessageStream),
) -> Result<(), Failure> {
    let mut verifier = key
        .verify_stream(&checked_signature(signature)?)
        .map_err(|_| Failure::Mismatch)?;
    feed(&mut MessageStream {
        into: &mut verifier,
    });
    verifier
        .finalize_and_verify()
        .map_err(|_| Failure::Mismatch)
}

/// A signature that passed seal-host's scalar rule, with its challenge `k = H(R ‖ A ‖ M)`
/// under one key: all that its curve check still needs ([`verify_challenge`] alone, or
/// [`batch::verify_challenges`] with others under the same key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub signature: [u8; 64],
    pub k: Scalar,
}

/// The first half of [`verify_streamed`]: the same scalar rule (so the same
/// `NonCanonicalScalar`), then the same hash of `R ‖ A ‖ M` as dalek's `verify_stream`, and
/// no curve arithmetic.
pub fn challenge_streamed(
    key: &VerifyingKey,
    signature: &[u8],
    feed: impl FnOnce(&mut MessageStream),
) -> Result<Challenge, Failure> {
    let checked = checked_signature(signature)?;
    let mut hash = Sha512::new();
    hash.update(checked.r_bytes());
    hash.update(key.as_bytes());
    feed(&mut MessageStream { into: &mut hash });
    Ok(Challenge {
        signature: checked.to_bytes(),
        k: Scalar::from_bytes_mod_order_wide(&hash.finalize().into()),
    })
}

/// The second half of [`verify_streamed`], exactly as dalek's `verify` ends: R recomputed
/// as `[S]B − [k]A` and compared with the signature's R bytes.
pub fn verify_challenge(key: &VerifyingKey, challenge: &Challenge) -> Result<(), Failure> {
    let checked = checked_signature(&challenge.signature)?;
    // `checked_signature` established S < L, so this is S itself.
    let s = Scalar::from_bytes_mod_order(*checked.s_bytes());
    let minus_a = -key.to_edwards();
    let recomputed =
        EdwardsPoint::vartime_double_scalar_mul_basepoint(&challenge.k, &minus_a, &s).compress();
    if recomputed.as_bytes() == checked.r_bytes() {
        Ok(())
    } else {
        Err(Failure::Mismatch)
    }
}

/// Public keys already decompressed, by their bytes. Decompression costs about a tenth of a
/// verification, and the receipts of one installation all carry the same key.
#[derive(Debug, Default)]
pub struct KeyCache {
    keys: Vec<([u8; 32], Result<VerifyingKey, Failure>)>,
}

impl KeyCache {
    /// Keys remembered at once (a directory rarely holds more than a couple).
    const CAPACITY: usize = 8;

    /// The key for these bytes, or [`Failure::BadPublicKey`].
    pub fn get(&mut self, public_key: &[u8; 32]) -> Result<&VerifyingKey, Failure> {
        let position = match self.keys.iter().position(|(bytes, _)| bytes == public_key) {
            Some(position) => position,
            None => {
                if self.keys.len() == Self::CAPACITY {
                    let _evicted = self.keys.remove(0);
                }
                let key = VerifyingKey::from_bytes(public_key).map_err(|_| Failure::BadPublicKey);
                self.keys.push((*public_key, key));
                self.keys.len() - 1
            }
        };
        self.keys[position].1.as_ref().map_err(|failure| *failure)
    }
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
    fn seed_17_gives_the_documented_public_key() {
        let public = public_key_of_seed(&[0x17; 32]);
        assert_eq!(
            crate::digest::hex_lower(&public),
            "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc"
        );
        assert_eq!(
            parse_key_hex("31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc"),
            Some(public)
        );
        assert_eq!(
            parse_key_hex("31DEBE55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc"),
            None
        );
    }

    #[test]
    fn byte_keys_and_64_byte_decoding() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let signature = key.sign(b"message").to_bytes();
        let text = encode_base64url_nopad(&signature);
        let decoded = decode_signature_64(&text).unwrap();
        let public = key.verifying_key().to_bytes();
        assert_eq!(verify_key_bytes(&public, b"message", &decoded), Ok(()));
        assert_eq!(
            verify_key_bytes(&public, b"messagf", &decoded),
            Err(Failure::Mismatch)
        );
        assert_eq!(
            decode_signature_64(&format!("{text}==")),
            Err(Failure::BadEncoding)
        );
        assert_eq!(
            decode_signature_64(&encode_base64url_nopad(&[1u8; 63])),
            Err(Failure::BadEncoding)
        );
        let mut off_curve = [0u8; 32];
        off_curve[0] = 2;
        off_curve[31] = 0x80;
        assert!(matches!(
            verify_key_bytes(&off_curve, b"m", &decoded),
            Err(Failure::BadPublicKey) | Err(Failure::Mismatch)
        ));
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

    /// The challenge and the curve check apart give what `verify_streamed` gives at once:
    /// good, a changed message, a changed R, a changed S, S ≥ L, a short signature, another
    /// key. Seen red with the key's bytes left out of the challenge's hash.
    #[test]
    fn a_challenge_checked_later_gives_what_streamed_verification_gives() {
        let key = SigningKey::from_bytes(&[9u8; 32]);
        let other = SigningKey::from_bytes(&[10u8; 32]).verifying_key();
        let message: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let good = key.sign(&message).to_bytes();
        let public = key.verifying_key();
        let mut tampered = message.clone();
        tampered[10] ^= 1;
        let changed = |at: usize, mask: u8| {
            let mut bytes = good;
            bytes[at] ^= mask;
            bytes
        };
        let cases: [(&VerifyingKey, Vec<u8>, &[u8]); 7] = [
            (&public, good.to_vec(), &message),
            (&public, good.to_vec(), &tampered),
            (&public, changed(3, 0x01).to_vec(), &message),
            (&public, changed(40, 0x01).to_vec(), &message),
            (&public, changed(63, 0xf0).to_vec(), &message),
            (&public, good[..63].to_vec(), &message),
            (&other, good.to_vec(), &message),
        ];
        let mut verified = 0;
        for (key, signature, message) in cases {
            let feed = |stream: &mut MessageStream| {
                stream.update(&message[..100]);
                stream.update(&message[100..]);
            };
            let at_once = verify_streamed(key, &signature, feed);
            let later = challenge_streamed(key, &signature, feed)
                .and_then(|challenge| verify_challenge(key, &challenge));
            assert_eq!(later, at_once);
            verified += usize::from(at_once.is_ok());
        }
        assert_eq!(verified, 1);
    }

    #[test]
    fn streamed_verification_agrees_with_verify_for_any_split() {
        let key = SigningKey::from_bytes(&[9u8; 32]);
        let message: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let signature = key.sign(&message).to_bytes();
        let public = key.verifying_key();
        for split in [0usize, 1, 127, 128, 500, 999, 1000] {
            let feed = |stream: &mut MessageStream| {
                stream.update(&message[..split]);
                stream.update(&message[split..]);
            };
            assert_eq!(verify_streamed(&public, &signature, feed), Ok(()));
        }
        let mut tampered = message.clone();
        tampered[10] ^= 1;
        assert_eq!(
            verify_streamed(&public, &signature, |s| s.update(&tampered)),
            Err(Failure::Mismatch)
        );
        let mut bumped = signature;
        bumped[63] |= 0xf0;
        assert_eq!(
            verify_streamed(&public, &bumped, |s| s.update(&message)),
            Err(Failure::NonCanonicalScalar)
        );
        assert_eq!(
            verify_streamed(&public, &signature[..63], |s| s.update(&message)),
            Err(Failure::Mismatch)
        );
    }

    #[test]
    fn key_cache_remembers_good_and_bad_keys() {
        let mut cache = KeyCache::default();
        let good = SigningKey::from_bytes(&[3u8; 32]).verifying_key();
        let mut off_curve = [0u8; 32];
        off_curve[0] = 2;
        for _ in 0..2 {
            assert_eq!(cache.get(&good.to_bytes()).unwrap(), &good);
        }
        let bad = cache.get(&off_curve).map(|_| ());
        assert_eq!(
            bad,
            VerifyingKey::from_bytes(&off_curve)
                .map(|_| ())
                .map_err(|_| Failure::BadPublicKey)
        );
        for seed in 0..20u8 {
            let key = SigningKey::from_bytes(&[seed; 32]).verifying_key();
            assert_eq!(cache.get(&key.to_bytes()).unwrap(), &key);
        }
        assert!(cache.keys.len() <= KeyCache::CAPACITY);
    }
}
