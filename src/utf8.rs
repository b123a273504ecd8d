//! Reading bytes as UTF-8: accepts exactly what `std::str::from_utf8` accepts and refuses
//! with std's own error (so the same offset), deciding acceptance with simdutf8's vector
//! validator, which reads a receipt or a request line several times faster than std's.

/// `bytes` as a string, or std's error for them.
pub fn str_of(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Ok(text),
        // simdutf8's basic error says nothing about where: std reads the refused bytes again
        // and places the refusal.
        Err(_) => std::str::from_utf8(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Acceptance and the refusal's offset are std's, for invalid sequences at every place
    /// around a 64-byte block and valid multi-byte characters across it.
    #[test]
    fn str_of_accepts_and_refuses_as_std_does() {
        let pieces: [&[u8]; 8] = [
            b"\xff",
            b"\xc3",
            b"\xe2\x82",
            b"\xed\xa0\x80",
            b"\xf4\x90\x80\x80",
            "é".as_bytes(),
            "€".as_bytes(),
            "😀".as_bytes(),
        ];
        for at in 0..80 {
            for piece in pieces {
                let mut bytes = vec![b'a'; at];
                bytes.extend_from_slice(piece);
                bytes.extend_from_slice(&[b'z'; 70]);
                assert_eq!(
                    str_of(&bytes),
                    std::str::from_utf8(&bytes),
                    "{at} {piece:?}"
                );
            }
        }
    }
}
