//! SHA-256 and lowercase hex, the digest form every Seal identity uses
//! (docs/formats.md: "SHA-256, lowercase hex").

use sha2::{Digest, Sha256};

/// Lowercase hex of the SHA-256 of `bytes` (64 characters).
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex_lower(&Sha256::digest(bytes))
}

/// Lowercase hex of arbitrary bytes.
pub fn hex_lower(bytes: &[u8]) -> String {
    // A digest, the usual input (`target` writes about ten a frame), four bytes at a time.
    if let Ok(digest) = <&[u8; 32]>::try_from(bytes) {
        let mut out = [0u8; 64];
        hex_lower_into(digest, &mut out);
        return String::from_utf8(out.to_vec()).unwrap_or_else(|_| hex::encode(bytes));
    }
    // `encode_to_slice` is a table lookup per byte; `hex::encode` goes through a char
    // iterator several times slower, which showed in the chain check (one per entry).
    let mut out = vec![0u8; bytes.len() * 2];
    if hex::encode_to_slice(bytes, &mut out).is_err() {
        return hex::encode(bytes);
    }
    String::from_utf8(out).unwrap_or_else(|_| hex::encode(bytes))
}

/// A SHA-256 digest's lowercase hex written into `out`, as [`hex_lower`] writes it: four bytes
/// at a time in a word, with no table and no allocation. The sealed-log check writes one per
/// entry, where a byte-by-byte table encoder was 3 % of its CPU (docs/performance.md, "Issue
/// 40, phase 11").
pub fn hex_lower_into(digest: &[u8; 32], out: &mut [u8; 64]) {
    const LOW_NIBBLES: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    for (four, digits) in digest.chunks_exact(4).zip(out.chunks_exact_mut(8)) {
        let mut word = [0u8; 4];
        word.copy_from_slice(four);
        // Byte k of the four moved to bits 16k..16k+8 of the word.
        let mut spread = u64::from(u32::from_le_bytes(word));
        spread = (spread | spread << 16) & 0x0000_ffff_0000_ffff;
        spread = (spread | spread << 8) & 0x00ff_00ff_00ff_00ff;
        // Digit 2k (the high nibble of byte k) in byte 2k, digit 2k + 1 in byte 2k + 1.
        let nibbles = (spread >> 4 | spread << 8) & LOW_NIBBLES;
        // '0' + n, and 'a' - '0' - 10 more where n > 9 (n + 6 carries into bit 4 exactly
        // then; no byte carries into the next).
        let letters = ((nibbles + 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101;
        let ascii = nibbles + 0x3030_3030_3030_3030 + letters * 39;
        digits.copy_from_slice(&ascii.to_le_bytes());
    }
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

    /// [`hex_lower_into`] against `hex::encode` for every byte value at every position of a
    /// digest.
    #[test]
    fn hex_lower_into_writes_what_hex_encode_writes() {
        for at in 0..32 {
            for value in 0..=u8::MAX {
                let mut digest: [u8; 32] = std::array::from_fn(|k| (k * 37) as u8);
                digest[at] = value;
                let mut out = [0u8; 64];
                hex_lower_into(&digest, &mut out);
                assert_eq!(
                    std::str::from_utf8(&out).unwrap(),
                    hex::encode(digest),
                    "{value} at {at}"
                );
                // `hex_lower` of a digest is this same encoder; of any other length, the table.
                assert_eq!(hex_lower(&digest), hex::encode(digest), "{value} at {at}");
                assert_eq!(hex_lower(&digest[1..]), hex::encode(&digest[1..]));
            }
        }
    }
}
