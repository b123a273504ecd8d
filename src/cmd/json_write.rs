//! Pieces of JSON written straight into an output buffer, byte for byte as serde_json's compact
//! writer renders them, for the records a command writes for every line or frame (serde_json
//! scans each string byte by byte for escapes; most of these strings are hex digests). Strings
//! go through the one serde_json-compatible string writer, [`serde_string`].

pub use crate::canonical::serde_string;

/// A string or `null`, as serde_json writes an `Option<&str>`.
pub fn optional(text: Option<&str>, out: &mut Vec<u8>) {
    match text {
        Some(text) => serde_string(text, out),
        None => out.extend_from_slice(b"null"),
    }
}

/// An unsigned integer in decimal, as serde_json writes it (the canonical renderer's digits).
pub fn integer(n: u64, out: &mut Vec<u8>) {
    crate::approval::canonical::write_integer(n, out);
}

/// An exact-frame subject, `{"sha256":…,"length":…}`, as serde_json writes a
/// [`crate::frame::Subject`].
pub fn subject(subject: &crate::frame::Subject, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"sha256\":");
    serde_string(&subject.sha256, out);
    out.extend_from_slice(b",\"length\":");
    integer(subject.length, out);
    out.push(b'}');
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_optional_strings_are_serde_jsons_bytes() {
        for n in [0, 7, 10, 649, 1_786_000_000_000, u64::MAX] {
            let mut out = Vec::new();
            integer(n, &mut out);
            assert_eq!(out, serde_json::to_vec(&n).unwrap());
        }
        for text in [None, Some(""), Some("a\"b\\c\u{1}é")] {
            let mut out = Vec::new();
            optional(text, &mut out);
            assert_eq!(out, serde_json::to_vec(&text).unwrap());
        }
        let digest = crate::frame::Subject {
            sha256: "ab\"c".to_owned(),
            length: 139,
        };
        let mut out = Vec::new();
        subject(&digest, &mut out);
        assert_eq!(out, serde_json::to_vec(&digest).unwrap());
    }
}
