//! The ApprovalRecord v2 canonical renderer (docs/formats.md) — not JCS,
//! not Lean `compress`, not serde_json: no whitespace; object members sorted by the raw UTF-8
//! bytes of their keys (recursively); integers as plain decimal digits in 0 … 2^53−1, any
//! other number is an error; strings escape `"` and `\`, every U+0000–U+001F as `\u00xx` with
//! lowercase hex (LF is `\u000a`), and emit everything else (DEL, non-ASCII, `/`) raw.
//! seal-host re-renders the parsed payload and requires the signed text to equal it byte for
//! byte, so this renderer decides `approval_v2_payload_not_canonical`.
//! Written by hand for that reason: no general-purpose serializer renders these bytes.

use super::payload::{Payload, Renderer};
use super::MAX_INTEGER;

/// The values an ApprovalRecord payload can hold.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Integer(u64),
    String(&'a str),
    Object(&'a [(&'a str, Value<'a>)]),
}

/// A number outside the renderer's integer range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntegerOutOfRange(pub u64);

impl std::fmt::Display for IntegerOutOfRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "integer {} exceeds 2^53-1", self.0)
    }
}

/// Where rendered bytes go.
pub trait Sink {
    fn put(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A sink that only checks whether the rendering equals `expected`, without building it.
pub struct Matches<'e> {
    expected: &'e [u8],
    at: usize,
    equal: bool,
}

impl<'e> Matches<'e> {
    pub fn new(expected: &'e [u8]) -> Self {
        Matches {
            expected,
            at: 0,
            equal: true,
        }
    }

    /// True when everything rendered equals `expected`, entirely.
    pub fn matched(&self) -> bool {
        self.equal && self.at == self.expected.len()
    }
}

impl Sink for Matches<'_> {
    fn put(&mut self, bytes: &[u8]) {
        if !self.equal {
            return;
        }
        let end = self.at + bytes.len();
        self.equal = self.expected.get(self.at..end) == Some(bytes);
        self.at = end;
    }
}

/// Renders a value canonically into `out`.
pub fn render<S: Sink>(value: &Value<'_>, out: &mut S) -> Result<(), IntegerOutOfRange> {
    match value {
        Value::Integer(n) if *n > MAX_INTEGER => return Err(IntegerOutOfRange(*n)),
        Value::Integer(n) => write_integer(*n, out),
        Value::String(text) => write_string(text, out),
        Value::Object(members) => {
            let mut inline = [0usize; 32];
            let mut heap = Vec::new();
            let order: &mut [usize] = if members.len() <= inline.len() {
                &mut inline[..members.len()]
            } else {
                heap.resize(members.len(), 0);
                &mut heap
            };
            for (index, slot) in order.iter_mut().enumerate() {
                *slot = index;
            }
            order.sort_unstable_by(|&a, &b| members[a].0.as_bytes().cmp(members[b].0.as_bytes()));
            out.put(b"{");
            for (position, &index) in order.iter().enumerate() {
                if position > 0 {
                    out.put(b",");
                }
                let (key, member) = &members[index];
                write_string(key, out);
                out.put(b":");
                render(member, out)?;
            }
            out.put(b"}");
        }
    }
    Ok(())
}

/// `n` in plain decimal digits (also how serde_json writes a `u64`).
pub(crate) fn write_integer<S: Sink>(mut n: u64, out: &mut S) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.put(&digits[at..]);
}

/// The renderer's string form: `"` and `\` backslash-escaped, controls as lowercase `\u00xx`.
pub fn write_string<S: Sink>(text: &str, out: &mut S) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.put(b"\"");
    let bytes = text.as_bytes();
    let mut start = 0;
    loop {
        // The plain run up to the next byte this renderer escapes (the parser's word-at-a-time
        // scan stops at exactly `"`, `\` and U+0000–U+001F).
        let stop = start + crate::json::string_run(&bytes[start..], true);
        out.put(&bytes[start..stop]);
        let Some(&byte) = bytes.get(stop) else {
            break;
        };
        match byte {
            b'"' => out.put(b"\\\""),
            b'\\' => out.put(b"\\\\"),
            _ => out.put(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0x0f)],
            ]),
        }
        start = stop + 1;
    }
    out.put(b"\"");
}

impl Payload {
    /// Renders the payload canonically into `out`.
    pub fn render_into<S: Sink>(&self, out: &mut S) -> Result<(), IntegerOutOfRange> {
        let renderer = renderer_members(&self.renderer);
        // Listed in the rendering's order (key bytes ascending), so the renderer's sort finds
        // them in place.
        let members = [
            (
                "approval_record_version",
                Value::Integer(self.approval_record_version),
            ),
            ("approver", Value::String(&self.approver)),
            (
                "authorization_domain",
                Value::String(&self.authorization_domain),
            ),
            (
                "authorization_signature_algorithm",
                Value::String(&self.authorization_signature_algorithm),
            ),
            (
                "authorization_signer_key_id",
                Value::String(&self.authorization_signer_key_id),
            ),
            ("authorized_at", Value::Integer(self.authorized_at)),
            ("expiry", Value::Integer(self.expiry)),
            ("nonce", Value::String(&self.nonce)),
            ("renderer", Value::Object(&renderer)),
            ("session", Value::String(&self.session)),
            (
                "shown_character_encoding",
                Value::String(&self.shown_character_encoding),
            ),
            ("shown_length", Value::Integer(self.shown_length)),
            ("shown_media_type", Value::String(&self.shown_media_type)),
            ("shown_sha256", Value::String(&self.shown_sha256)),
            ("subject_encoding", Value::String(&self.subject_encoding)),
            ("subject_length", Value::Integer(self.subject_length)),
            ("subject_scope", Value::String(&self.subject_scope)),
            ("subject_sha256", Value::String(&self.subject_sha256)),
            ("target", Value::String(&self.target)),
        ];
        render(&Value::Object(&members), out)
    }

    /// The canonical payload bytes that are signed and carried in the token's `payload`.
    pub fn canonical_bytes(&self) -> Result<Vec<u8>, IntegerOutOfRange> {
        let mut out = Vec::with_capacity(2048);
        self.render_into(&mut out)?;
        Ok(out)
    }

    /// Whether `text` is exactly the canonical rendering of this payload.
    pub fn is_canonical_text(&self, text: &[u8]) -> Result<bool, IntegerOutOfRange> {
        let mut matches = Matches::new(text);
        self.render_into(&mut matches)?;
        Ok(matches.matched())
    }
}

fn renderer_members(renderer: &Renderer) -> [(&'static str, Value<'_>); 3] {
    [
        ("manifest_sha256", Value::String(&renderer.manifest_sha256)),
        ("name", Value::String(&renderer.name)),
        ("version", Value::String(&renderer.version)),
    ]
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
        let inner = [
            ("z", Value::Integer(0)),
            ("é", Value::Integer(1)),
            ("a", Value::Integer(2)),
        ];
        let members = [
            ("b", Value::Integer(MAX_INTEGER)),
            ("B", Value::Object(&inner)),
            ("a_", Value::String("")),
            ("a", Value::String("x")),
        ];
        let value = Value::Object(&members);
        assert_eq!(
            rendered(&value),
            r#"{"B":{"a":2,"z":0,"é":1},"a":"x","a_":"","b":9007199254740991}"#
        );
        for n in [0u64, 7, 10, 1_786_000_120_000] {
            assert_eq!(rendered(&Value::Integer(n)), n.to_string());
        }
        let mut out = Vec::new();
        assert_eq!(
            render(&Value::Integer(MAX_INTEGER + 1), &mut out),
            Err(IntegerOutOfRange(MAX_INTEGER + 1))
        );
    }

    #[test]
    fn large_objects_sort_too_and_matching_needs_every_byte() {
        let keys: Vec<String> = (0..40).rev().map(|i| format!("k{i:02}")).collect();
        let members: Vec<(&str, Value<'_>)> = keys
            .iter()
            .map(|k| (k.as_str(), Value::Integer(1)))
            .collect();
        let text = rendered(&Value::Object(&members));
        assert!(text.starts_with("{\"k00\":1,\"k01\":1,"), "{text}");
        let payload = super::super::payload::tests_support::sample();
        let bytes = payload.canonical_bytes().unwrap();
        assert!(payload.is_canonical_text(&bytes).unwrap());
        assert!(!payload
            .is_canonical_text(&bytes[..bytes.len() - 1])
            .unwrap());
        assert!(!payload
            .is_canonical_text(&[bytes.as_slice(), b" "].concat())
            .unwrap());
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
