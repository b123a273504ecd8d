//! The ApprovalRecord v2 canonical renderer (reference/seal-host-formats.md §1.3) — not JCS,
//! not Lean `compress`, not serde_json: no whitespace; object members sorted by the raw UTF-8
//! bytes of their keys (recursively); integers as plain decimal digits in 0 … 2^53−1, any
//! other number is an error; strings escape `"` and `\`, every U+0000–U+001F as `\u00xx` with
//! lowercase hex (LF is `\u000a`), and emit everything else (DEL, non-ASCII, `/`) raw.
//! seal-host re-renders the parsed payload and requires the signed text to equal it byte for
//! byte, so this renderer decides `approval_v2_payload_not_canonical`.

use super::payload::{Payload, Renderer};
use super::MAX_INTEGER;

/// The values an ApprovalRecord payload can hold.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Integer(u64),
    String(&'a str),
    Object(Vec<(&'a str, Value<'a>)>),
}

/// A number outside the renderer's integer range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntegerOutOfRange(pub u64);

impl std::fmt::Display for IntegerOutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "integer {} exceeds 2^53-1", self.0)
    }
}

/// Renders a value canonically, appending to `out`.
pub fn render(value: &Value<'_>, out: &mut Vec<u8>) -> Result<(), IntegerOutOfRange> {
    match value {
        Value::Integer(n) if *n > MAX_INTEGER => return Err(IntegerOutOfRange(*n)),
        Value::Integer(n) => out.extend_from_slice(n.to_string().as_bytes()),
        Value::String(text) => write_string(text, out),
        Value::Object(members) => {
            let mut sorted: Vec<&(&str, Value<'_>)> = members.iter().collect();
            sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push(b'{');
            for (index, (key, member)) in sorted.into_iter().enumerate() {
                if index > 0 {
                    out.push(b',');
                }
                write_string(key, out);
                out.push(b':');
                render(member, out)?;
            }
            out.push(b'}');
        }
    }
    Ok(())
}

/// The renderer's string form: `"` and `\` backslash-escaped, controls as lowercase `\u00xx`.
pub fn write_string(text: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = text.as_bytes();
    let mut start = 0;
    for (index, &byte) in bytes.iter().enumerate() {
        let escape: &[u8] = match byte {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            0x00..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..index]);
        if escape.is_empty() {
            out.extend_from_slice(b"\\u00");
            out.push(HEX[usize::from(byte >> 4)]);
            out.push(HEX[usize::from(byte & 0x0f)]);
        } else {
            out.extend_from_slice(escape);
        }
        start = index + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

impl Renderer {
    fn value(&self) -> Value<'_> {
        Value::Object(vec![
            ("name", Value::String(&self.name)),
            ("version", Value::String(&self.version)),
            ("manifest_sha256", Value::String(&self.manifest_sha256)),
        ])
    }
}

impl Payload {
    /// The payload as a renderer value, members in declaration order.
    pub fn value(&self) -> Value<'_> {
        Value::Object(vec![
            (
                "approval_record_version",
                Value::Integer(self.approval_record_version),
            ),
            ("target", Value::String(&self.target)),
            ("authorized_at", Value::Integer(self.authorized_at)),
            ("expiry", Value::Integer(self.expiry)),
            ("nonce", Value::String(&self.nonce)),
            ("session", Value::String(&self.session)),
            ("subject_sha256", Value::String(&self.subject_sha256)),
            ("subject_length", Value::Integer(self.subject_length)),
            ("subject_scope", Value::String(&self.subject_scope)),
            ("subject_encoding", Value::String(&self.subject_encoding)),
            ("shown_sha256", Value::String(&self.shown_sha256)),
            ("shown_length", Value::Integer(self.shown_length)),
            ("shown_media_type", Value::String(&self.shown_media_type)),
            (
                "shown_character_encoding",
                Value::String(&self.shown_character_encoding),
            ),
            ("renderer", self.renderer.value()),
            ("approver", Value::String(&self.approver)),
            (
                "authorization_signer_key_id",
                Value::String(&self.authorization_signer_key_id),
            ),
            (
                "authorization_signature_algorithm",
                Value::String(&self.authorization_signature_algorithm),
            ),
            (
                "authorization_domain",
                Value::String(&self.authorization_domain),
            ),
        ])
    }

    /// The canonical payload bytes that are signed and carried in the token's `payload`.
    pub fn canonical_bytes(&self) -> Result<Vec<u8>, IntegerOutOfRange> {
        let mut out = Vec::with_capacity(1024);
        render(&self.value(), &mut out)?;
        Ok(out)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn rendered(value: &Value<'_>) -> String {
        let mut out = Vec::new();
        render(value, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strings_escape_quote_backslash_and_every_control_in_lowercase() {
        let text = "a\"b\\c\nd\re\tf\u{0}\u{1f}\u{7f}é/😀";
        assert_eq!(
            rendered(&Value::String(text)),
            "\"a\\\"b\\\\c\\u000ad\\u000de\\u0009f\\u0000\\u001f\u{7f}é/😀\""
        );
    }

    #[test]
    fn members_sort_by_key_bytes_recursively_and_integers_are_bounded() {
        let value = Value::Object(vec![
            ("b", Value::Integer(MAX_INTEGER)),
            (
                "B",
                Value::Object(vec![
                    ("z", Value::Integer(0)),
                    ("é", Value::Integer(1)),
                    ("a", Value::Integer(2)),
                ]),
            ),
            ("a_", Value::String("")),
            ("a", Value::String("x")),
        ]);
        assert_eq!(
            rendered(&value),
            r#"{"B":{"a":2,"z":0,"é":1},"a":"x","a_":"","b":9007199254740991}"#
        );
        let mut out = Vec::new();
        assert_eq!(
            render(&Value::Integer(MAX_INTEGER + 1), &mut out),
            Err(IntegerOutOfRange(MAX_INTEGER + 1))
        );
    }

    #[test]
    fn payload_members_come_out_in_the_documented_order() {
        let payload = super::super::payload::tests_support::sample();
        let text = String::from_utf8(payload.canonical_bytes().unwrap()).unwrap();
        let order = [
            "approval_record_version",
            "approver",
            "authorization_domain",
            "authorization_signature_algorithm",
            "authorization_signer_key_id",
            "authorized_at",
            "expiry",
            "nonce",
            "renderer",
            "manifest_sha256",
            "name",
            "version",
            "session",
            "shown_character_encoding",
            "shown_length",
            "shown_media_type",
            "shown_sha256",
            "subject_encoding",
            "subject_length",
            "subject_scope",
            "subject_sha256",
            "target",
        ];
        let positions: Vec<usize> = order
            .iter()
            .map(|key| text.find(&format!("\"{key}\":")).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    }
}
