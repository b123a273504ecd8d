//! SHA-256 and lowercase hex, the digest form every Seal identity uses
//! (docs/formats.md: "SHA-256, lowercase hex").

use sha2::{Digest, Sha256};

/// Lowercase hex of the SHA-256 of `bytes` (64 characters).
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex_lower(&Sha256::digest(bytes))
}

/// Lowercase hex of arbitrary bytes.
pub fn hex_lower(bytes: &[u8]) -> String {
    // `encode_to_slice` is a table lookup per byte; `hex::encode` goes through a char
    // iterator several times slower, which showed in the chain check (one per entry).
    let mut out = vec![0u8; bytes.len() * 2];
    if hex::encode_to_slice(bytes, &mut out).is_err() {
        return hex::encode(bytes);
    }
    String::from_utf8(out).unwrap_or_else(|_| hex::encode(bytes))
}

/// Decodes lowercase or uppercase hex into bytes; `None` on odd length or a non-hex digit.
pub fn hex_decode(text: &str) -> Option<Vec<u8>> {
    hex::decode(text).ok()
}

/// True when `text` is exactly 64 lowercase hex digits, the shape of every Seal digest.
pub fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_empty_input_is_the_known_constant() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn hex_round_trips_and_rejects_bad_digits() {
        assert_eq!(hex_lower(&[0x00, 0xab, 0xff]), "00abff");
        assert_eq!(hex_decode("00abFF"), Some(vec![0x00, 0xab, 0xff]));
        assert_eq!(hex_decode("0g"), None);
        assert_eq!(hex_decode("abc"), None);
    }

    #[test]
    fn sha256_hex_shape_is_lowercase_only() {
        assert!(is_sha256_hex(&sha256_hex(b"x")));
        assert!(!is_sha256_hex(&sha256_hex(b"x").to_uppercase()));
        assert!(!is_sha256_hex("abc"));
    }
}
