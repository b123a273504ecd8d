//! Seal's V2 canonical JSON: a strict reader that accepts a line only when its bytes are
//! already the canonical V2 serialization of the value they denote, and that serializer
//! (`serializeAstValue`). Nothing is ever normalised: a line that is not canonical is
//! refused with a stable code and the offset of the first offending byte (see
//! docs/v2-and-envelopes.md, recovered from the upstream sources in PROVENANCE.md).
//!
//! The canonical form, as facts read (never copied) from velvetmonkey/mcp-seal-dev
//! `SealV2/Parser.lean`, `SealV2/Escape.lean`, `SealV2/Canonical.lean`,
//! `SealV2/Serialization.lean`, the byte-equality rule of `signedParse` in
//! `SealV2/Validation.lean`, and the accept/reject corpora of `Test/V2Parse.lean` and
//! `Test/V2Serialize.lean`:
//!
//! * no whitespace anywhere outside strings; members and elements kept in wire order;
//! * strings are ASCII on the wire: printable `0x20..=0x7e` except `"` and `\` literal;
//!   `\"` `\\` and the five short escapes `\n` `\t` `\r` `\b` `\f` in short form only;
//!   other controls and `0x7f` as `\u00xx`; every non-ASCII scalar as `\uxxxx`
//!   (astral ones as a surrogate pair), lowercase hex only;
//! * numbers: optional `-`, integer part `0` or a non-zero digit followed by digits, an
//!   optional fraction with at least one digit whose last digit is not `0`; no exponent;
//!   no `-0`;
//! * no duplicate keys within an object.
//!
//! Seal's own V2 parser skips whitespace between tokens and then emits the canonical
//! serialization; sealkit deliberately refuses such lines instead, because a line whose
//! bytes differ from the canonical serialization is not the line Seal would forward.
//! Nesting is capped at [`MAX_DEPTH`] (Seal's raw-wire guard bound) so no input recurses
//! without limit.
//!
//! Reader and serializer are written by hand rather than taken from a JSON crate: whether a
//! line is accepted, and the bytes it serializes to, must match Seal's byte for byte.

use crate::canonical::RenderError;
use std::fmt::Write as _;
use strum::{IntoStaticStr, VariantArray};

/// Deepest container nesting the reader accepts (Seal's wire guard refuses deeper lines).
pub const MAX_DEPTH: usize = 128;

/// A value read from a canonical V2 line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum V2Value {
    Null,
    Bool(bool),
    /// The number's canonical literal (which is also its serialization), e.g. `-12.34`.
    Number(String),
    /// The decoded string (any Unicode scalar values).
    String(String),
    Array(Vec<V2Value>),
    /// Members in wire order; keys are unique.
    Object(Vec<(String, V2Value)>),
}

impl V2Value {
    /// The first member named `key` (Seal's `lookupObj`), if this is an object.
    pub fn get(&self, key: &str) -> Option<&V2Value> {
        match self {
            V2Value::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            V2Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The JSON type name, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            V2Value::Null => "null",
            V2Value::Bool(_) => "boolean",
            V2Value::Number(_) => "number",
            V2Value::String(_) => "string",
            V2Value::Array(_) => "array",
            V2Value::Object(_) => "object",
        }
    }
}

/// Why a line is not in canonical V2 form. Codes are stable (documented in README.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, IntoStaticStr, VariantArray)]
pub enum V2RefusalCode {
    /// Whitespace outside a string.
    #[strum(serialize = "v2-whitespace")]
    Whitespace,
    /// A literal byte of 0x80 or above inside a string (must be `\u`-escaped).
    #[strum(serialize = "v2-non-ascii")]
    NonAscii,
    /// A literal control byte or DEL inside a string.
    #[strum(serialize = "v2-control-character")]
    ControlCharacter,
    /// An escape that is not the canonical one for its character (`\/`, `\u0041`,
    /// `\u000a`, uppercase hex, an unknown or truncated escape).
    #[strum(serialize = "v2-escape-not-canonical")]
    EscapeNotCanonical,
    /// A surrogate escape that is not a high surrogate followed by a low one.
    #[strum(serialize = "v2-lone-surrogate")]
    LoneSurrogate,
    /// An integer part with a leading zero (`01`, `-00`).
    #[strum(serialize = "v2-leading-zero")]
    LeadingZero,
    /// `-0` without a fraction.
    #[strum(serialize = "v2-negative-zero")]
    NegativeZero,
    /// A fraction ending in `0` (`1.0`, `1.50`).
    #[strum(serialize = "v2-fraction-trailing-zero")]
    FractionTrailingZero,
    /// An exponent (`1e3`, `1E3`).
    #[strum(serialize = "v2-exponent")]
    Exponent,
    /// A key repeated within one object.
    #[strum(serialize = "v2-duplicate-key")]
    DuplicateKey,
    /// A comma directly before `]` or `}`.
    #[strum(serialize = "v2-trailing-comma")]
    TrailingComma,
    /// Nesting deeper than [`MAX_DEPTH`].
    #[strum(serialize = "v2-too-deep")]
    TooDeep,
    /// Anything else that is not JSON (truncation, unexpected byte, empty fraction).
    #[strum(serialize = "v2-syntax")]
    Syntax,
    /// Bytes after the value.
    #[strum(serialize = "v2-trailing-data")]
    TrailingData,
}

impl V2RefusalCode {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Every code, for documentation tests.
    pub const ALL: &'static [V2RefusalCode] = V2RefusalCode::VARIANTS;
}

/// A refused line: the code, the offset of the first offending byte, and what was wrong.
/// For `v2-negative-zero` and `v2-duplicate-key` the offset is where the offending number
/// or key starts; for `v2-fraction-trailing-zero` where the run of trailing zeros starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2Refusal {
    pub code: V2RefusalCode,
    pub offset: usize,
    pub message: String,
}

impl std::fmt::Display for V2Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at byte {}: {}",
            self.code.as_str(),
            self.offset,
            self.message
        )
    }
}

impl std::error::Error for V2Refusal {}

/// Reads one line that must be exactly the canonical V2 serialization of one value.
pub fn read(bytes: &[u8]) -> Result<V2Value, V2Refusal> {
    let mut reader = Reader { bytes, pos: 0 };
    let value = reader.value(0)?;
    match reader.peek() {
        None => Ok(value),
        Some(b) if is_whitespace(b) => Err(reader.refuse(
            V2RefusalCode::Whitespace,
            reader.pos,
            "whitespace after the value",
        )),
        Some(_) => Err(reader.refuse(
            V2RefusalCode::TrailingData,
            reader.pos,
            "bytes after the value",
        )),
    }
}

/// The canonical V2 serialization of a value (`serializeAstValue`): no whitespace,
/// members in stored order, strings escaped by [`write_string`].
pub fn serialize(value: &V2Value) -> String {
    let mut out = String::new();
    write_value(value, &mut out);
    out
}

/// Lean `Json.compress` of a value as Seal computes it for `_meta`, `requestState` and
/// `inputResponses` (`Lean.Json.parse (serializeAstValue v) |>.compress`): exactly that —
/// the value's canonical V2 text read back by the one JSON reader and rendered by the one
/// Lean renderer (`crate::canonical`), so V2 and frame identities share their value bytes.
pub fn compress(value: &V2Value) -> Result<String, RenderError> {
    let text = serialize(value);
    // A serialization is canonical JSON, nested no deeper than the reader's own bound.
    let node =
        crate::json::parse(&text, MAX_DEPTH + 1).map_err(|e| RenderError::NotJson(e.message))?;
    crate::canonical::lean_compress(&node)
}

fn write_value(value: &V2Value, out: &mut String) {
    match value {
        V2Value::Null => out.push_str("null"),
        V2Value::Bool(true) => out.push_str("true"),
        V2Value::Bool(false) => out.push_str("false"),
        V2Value::Number(literal) => out.push_str(literal),
        V2Value::String(text) => write_string(text, out),
        V2Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        V2Value::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                write_value(item, out);
            }
            out.push('}');
        }
    }
}

/// A string in its one canonical V2 form, quotes included (`escapeChar`).
pub fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{:04x}", unit);
                }
            }
        }
    }
    out.push('"');
}

fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// True for the scalars a lone `\uxxxx` may canonically denote (`uEscapeScalarOk`):
/// controls without a short escape, DEL, and non-ASCII BMP scalars outside the
/// surrogate range.
fn long_escape_is_canonical(n: u32) -> bool {
    match n {
        0x08 | 0x09 | 0x0a | 0x0c | 0x0d => false,
        0x00..=0x1f | 0x7f => true,
        0x80..=0xd7ff | 0xe000..=0xffff => true,
        _ => false,
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn refuse(&self, code: V2RefusalCode, offset: usize, message: impl Into<String>) -> V2Refusal {
        V2Refusal {
            code,
            offset,
            message: message.into(),
        }
    }

    /// The refusal for a byte where a token was expected.
    fn unexpected(&self, expected: &str) -> V2Refusal {
        match self.peek() {
            None => self.refuse(
                V2RefusalCode::Syntax,
                self.pos,
                format!("end of input, expected {expected}"),
            ),
            Some(b) if is_whitespace(b) => self.refuse(
                V2RefusalCode::Whitespace,
                self.pos,
                format!("whitespace where {expected} was expected"),
            ),
            Some(b) => self.refuse(
                V2RefusalCode::Syntax,
                self.pos,
                format!("unexpected byte 0x{b:02x}, expected {expected}"),
            ),
        }
    }

    fn value(&mut self, depth: usize) -> Result<V2Value, V2Refusal> {
        match self.peek() {
            Some(b'n') => self.literal(b"null", V2Value::Null),
            Some(b't') => self.literal(b"true", V2Value::Bool(true)),
            Some(b'f') => self.literal(b"false", V2Value::Bool(false)),
            Some(b'"') => self.string().map(V2Value::String),
            Some(b'[') => self.array(depth + 1),
            Some(b'{') => self.object(depth + 1),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.unexpected("a value")),
        }
    }

    fn literal(&mut self, word: &[u8], value: V2Value) -> Result<V2Value, V2Refusal> {
        for &expected in word {
            if self.peek() != Some(expected) {
                return Err(self.unexpected(&format!("the literal {}", ascii(word))));
            }
            self.pos += 1;
        }
        Ok(value)
    }

    fn enter(&self, depth: usize) -> Result<(), V2Refusal> {
        if depth > MAX_DEPTH {
            return Err(self.refuse(
                V2RefusalCode::TooDeep,
                self.pos,
                format!("nesting deeper than {MAX_DEPTH} containers"),
            ));
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<V2Value, V2Refusal> {
        self.enter(depth)?;
        self.pos += 1; // '['
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(V2Value::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            match self.peek() {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    if self.peek() == Some(b']') {
                        return Err(self.refuse(
                            V2RefusalCode::TrailingComma,
                            comma,
                            "comma before ']'",
                        ));
                    }
                }
                Some(b']') => {
                    self.pos += 1;
                    return Ok(V2Value::Array(items));
                }
                _ => return Err(self.unexpected("',' or ']'")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<V2Value, V2Refusal> {
        self.enter(depth)?;
        self.pos += 1; // '{'
        let mut members: Vec<(String, V2Value)> = Vec::new();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(V2Value::Object(members));
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.unexpected("a key"));
            }
            let key_start = self.pos;
            let key = self.string()?;
            if members.iter().any(|(k, _)| *k == key) {
                return Err(self.refuse(
                    V2RefusalCode::DuplicateKey,
                    key_start,
                    format!("key {key:?} repeats within this object"),
                ));
            }
            if self.peek() != Some(b':') {
                return Err(self.unexpected("':'"));
            }
            self.pos += 1;
            let value = self.value(depth)?;
            members.push((key, value));
            match self.peek() {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    if self.peek() == Some(b'}') {
                        return Err(self.refuse(
                            V2RefusalCode::TrailingComma,
                            comma,
                            "comma before '}'",
                        ));
                    }
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(V2Value::Object(members));
                }
                _ => return Err(self.unexpected("',' or '}'")),
            }
        }
    }

    fn string(&mut self) -> Result<String, V2Refusal> {
        self.pos += 1; // opening quote
        let mut text = String::new();
        loop {
            let at = self.pos;
            match self.peek() {
                None => return Err(self.unexpected("the closing '\"'")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(text);
                }
                Some(b'\\') => text.push(self.escape()?),
                Some(b @ 0x20..=0x7e) => {
                    text.push(char::from(b));
                    self.pos += 1;
                }
                Some(b @ (0x00..=0x1f | 0x7f)) => {
                    return Err(self.refuse(
                        V2RefusalCode::ControlCharacter,
                        at,
                        format!("literal control byte 0x{b:02x} in a string (must be escaped)"),
                    ))
                }
                Some(b) => {
                    return Err(self.refuse(
                        V2RefusalCode::NonAscii,
                        at,
                        format!(
                            "literal byte 0x{b:02x} in a string (non-ASCII must be \\u-escaped)"
                        ),
                    ))
                }
            }
        }
    }

    /// One escape starting at the backslash under the cursor.
    fn escape(&mut self) -> Result<char, V2Refusal> {
        let start = self.pos;
        let short = match self.bytes.get(start + 1) {
            Some(b'"') => Some('"'),
            Some(b'\\') => Some('\\'),
            Some(b'n') => Some('\n'),
            Some(b't') => Some('\t'),
            Some(b'r') => Some('\r'),
            Some(b'b') => Some('\u{8}'),
            Some(b'f') => Some('\u{c}'),
            Some(b'u') => None,
            None => {
                return Err(self.refuse(
                    V2RefusalCode::Syntax,
                    start + 1,
                    "input ends inside an escape",
                ))
            }
            Some(&b) => {
                return Err(self.refuse(
                    V2RefusalCode::EscapeNotCanonical,
                    start,
                    format!(
                        "escape \\{} is not a canonical V2 escape",
                        char::from(b).escape_default()
                    ),
                ))
            }
        };
        if let Some(c) = short {
            self.pos += 2;
            return Ok(c);
        }
        let unit = self.hex4(start)?;
        self.pos = start + 6;
        if long_escape_is_canonical(unit) {
            // Every non-surrogate BMP value is a scalar.
            return char::from_u32(unit).ok_or_else(|| {
                self.refuse(
                    V2RefusalCode::LoneSurrogate,
                    start,
                    "escape is not a scalar",
                )
            });
        }
        if (0xd800..=0xdbff).contains(&unit) {
            let low_start = self.pos;
            let low = if self.bytes.get(low_start) == Some(&b'\\')
                && self.bytes.get(low_start + 1) == Some(&b'u')
            {
                self.hex4(low_start).ok()
            } else {
                None
            };
            return match low {
                Some(low @ 0xdc00..=0xdfff) => {
                    self.pos = low_start + 6;
                    let scalar = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
                    char::from_u32(scalar).ok_or_else(|| {
                        self.refuse(
                            V2RefusalCode::LoneSurrogate,
                            start,
                            "surrogate pair is not a scalar",
                        )
                    })
                }
                _ => Err(self.refuse(
                    V2RefusalCode::LoneSurrogate,
                    start,
                    format!(
                        "high surrogate \\u{unit:04x} is not followed by a low surrogate escape"
                    ),
                )),
            };
        }
        if (0xdc00..=0xdfff).contains(&unit) {
            return Err(self.refuse(
                V2RefusalCode::LoneSurrogate,
                start,
                format!("low surrogate \\u{unit:04x} without a high surrogate before it"),
            ));
        }
        Err(self.refuse(
            V2RefusalCode::EscapeNotCanonical,
            start,
            format!("\\u{unit:04x} must be written {}", canonical_form_of(unit)),
        ))
    }

    /// The four lowercase hex digits after `\u` at `start`.
    fn hex4(&self, start: usize) -> Result<u32, V2Refusal> {
        let mut value = 0u32;
        for i in 0..4 {
            let digit = match self.bytes.get(start + 2 + i) {
                Some(&b @ b'0'..=b'9') => u32::from(b - b'0'),
                Some(&b @ b'a'..=b'f') => u32::from(b - b'a' + 10),
                Some(b'A'..=b'F') => {
                    return Err(self.refuse(
                        V2RefusalCode::EscapeNotCanonical,
                        start,
                        "\\u escape with uppercase hex (canonical form is lowercase)",
                    ))
                }
                None => {
                    return Err(self.refuse(
                        V2RefusalCode::Syntax,
                        self.bytes.len(),
                        "input ends inside a \\u escape",
                    ))
                }
                Some(_) => {
                    return Err(self.refuse(
                        V2RefusalCode::EscapeNotCanonical,
                        start,
                        "\\u escape without four hex digits",
                    ))
                }
            };
            value = value * 16 + digit;
        }
        Ok(value)
    }

    fn number(&mut self) -> Result<V2Value, V2Refusal> {
        let start = self.pos;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.pos += 1;
        }
        let int_start = self.pos;
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.refuse(
                        V2RefusalCode::LeadingZero,
                        self.pos,
                        "digit after a leading zero",
                    ));
                }
            }
            Some(b'1'..=b'9') => self.skip_digits(),
            _ => return Err(self.unexpected("a digit")),
        }
        let int_is_zero = self.pos - int_start == 1 && self.bytes[int_start] == b'0';
        let mut has_fraction = false;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            let frac_start = self.pos;
            self.skip_digits();
            if self.pos == frac_start {
                return Err(self.unexpected("a digit after '.'"));
            }
            let fraction = &self.bytes[frac_start..self.pos];
            let kept = fraction
                .iter()
                .rposition(|&d| d != b'0')
                .map_or(0, |i| i + 1);
            if kept < fraction.len() {
                return Err(self.refuse(
                    V2RefusalCode::FractionTrailingZero,
                    frac_start + kept,
                    "fraction ends in zero",
                ));
            }
            has_fraction = true;
        }
        if let Some(b'e' | b'E') = self.peek() {
            return Err(self.refuse(
                V2RefusalCode::Exponent,
                self.pos,
                "exponent (V2 numbers are plain decimals)",
            ));
        }
        if negative && int_is_zero && !has_fraction {
            return Err(self.refuse(V2RefusalCode::NegativeZero, start, "-0 is not canonical"));
        }
        let literal = String::from_utf8_lossy(&self.bytes[start..self.pos]).into_owned();
        Ok(V2Value::Number(literal))
    }

    fn skip_digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
    }
}

fn ascii(word: &[u8]) -> String {
    String::from_utf8_lossy(word).into_owned()
}

/// How a scalar that must not be `\u`-escaped is written instead, for messages.
fn canonical_form_of(unit: u32) -> String {
    match unit {
        0x08 => "\\b".into(),
        0x09 => "\\t".into(),
        0x0a => "\\n".into(),
        0x0c => "\\f".into(),
        0x0d => "\\r".into(),
        0x22 => "\\\"".into(),
        0x5c => "\\\\".into(),
        _ => match char::from_u32(unit) {
            Some(c) => format!("as the literal character {c:?}"),
            None => "differently".into(),
        },
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn refusal(line: &str) -> (&'static str, usize) {
        let r = read(line.as_bytes()).expect_err(line);
        (r.code.as_str(), r.offset)
    }

    #[test]
    fn accepts_the_upstream_accepted_corpus_and_round_trips_it() {
        for line in [
            "null",
            "true",
            "false",
            "\"prod.users\"",
            "0",
            "12",
            "-12",
            "0.5",
            "-0.5",
            "0.05",
            "{\"tool\":\"db.execute\",\"amount\":12.34}",
            "[null,true,\"x\",-12.34]",
            "{}",
            "[]",
            "\"a\\\"b\\\\c\\nd\\te\\rf\\bg\\fh\"",
            "\"\\u0000\\u001f\\u007f\\u00e9\\u2603\\ud83d\\ude00\\uffff\"",
            "{\"b\":1,\"a\":[{\"z\":{}}]}",
        ] {
            let value = read(line.as_bytes()).expect(line);
            assert_eq!(serialize(&value), line);
        }
    }

    #[test]
    fn decodes_escapes_to_scalars() {
        let value = read(b"\"\\u00e9\\ud83d\\ude00\\n\"").unwrap();
        assert_eq!(value, V2Value::String("é😀\n".into()));
    }

    #[test]
    fn refuses_the_upstream_rejected_corpus_with_the_first_offending_byte() {
        for (line, code, offset) in [
            ("", "v2-syntax", 0),
            ("{\"a\":1", "v2-syntax", 6),
            ("{\"a\":1}x", "v2-trailing-data", 7),
            ("{\"a\":1,\"a\":2}", "v2-duplicate-key", 7),
            ("\"prod.\u{fc}\"", "v2-non-ascii", 6),
            ("\"prod", "v2-syntax", 5),
            ("-0", "v2-negative-zero", 0),
            ("01", "v2-leading-zero", 1),
            ("00", "v2-leading-zero", 1),
            ("-01", "v2-leading-zero", 2),
            ("1.", "v2-syntax", 2),
            ("1.0", "v2-fraction-trailing-zero", 2),
            ("1.20", "v2-fraction-trailing-zero", 3),
            ("1.200", "v2-fraction-trailing-zero", 3),
            (".5", "v2-syntax", 0),
            ("1e3", "v2-exponent", 1),
            ("1E3", "v2-exponent", 1),
            ("-1e-9", "v2-exponent", 2),
            ("[1,]", "v2-trailing-comma", 2),
            ("{\"a\":1,}", "v2-trailing-comma", 6),
            ("{\"a\": 1}", "v2-whitespace", 5),
            (" {}", "v2-whitespace", 0),
            ("{} ", "v2-whitespace", 2),
            ("[1 ,2]", "v2-whitespace", 2),
            ("\"a\tb\"", "v2-control-character", 2),
            ("\"\u{7f}\"", "v2-control-character", 1),
            ("\"\\/\"", "v2-escape-not-canonical", 1),
            ("\"\\u0041\"", "v2-escape-not-canonical", 1),
            ("\"\\u000a\"", "v2-escape-not-canonical", 1),
            ("\"\\u0022\"", "v2-escape-not-canonical", 1),
            ("\"\\u00E9\"", "v2-escape-not-canonical", 1),
            ("\"\\u00g0\"", "v2-escape-not-canonical", 1),
            ("\"\\ud83d\"", "v2-lone-surrogate", 1),
            ("\"x\\ude00\"", "v2-lone-surrogate", 2),
            ("\"\\ud83d\\u0041\"", "v2-lone-surrogate", 1),
            ("\"\\u12", "v2-syntax", 5),
            ("nul", "v2-syntax", 3),
            ("+1", "v2-syntax", 0),
            ("-", "v2-syntax", 1),
            ("{1:2}", "v2-syntax", 1),
        ] {
            assert_eq!(refusal(line), (code, offset), "{line:?}");
        }
    }

    #[test]
    fn nesting_is_capped() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(read(ok.as_bytes()).is_ok());
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(refusal(&deep), ("v2-too-deep", MAX_DEPTH));
    }

    #[test]
    fn serializer_escapes_every_scalar_class() {
        let mut out = String::new();
        write_string(
            "\"\\\n\t\r\u{8}\u{c}\u{0}\u{1f}\u{7f}~ é\u{ffff}😀",
            &mut out,
        );
        assert_eq!(
            out,
            "\"\\\"\\\\\\n\\t\\r\\b\\f\\u0000\\u001f\\u007f~ \\u00e9\\uffff\\ud83d\\ude00\""
        );
    }

    #[test]
    fn compress_sorts_keys_and_writes_lean_forms() {
        let value = read(b"{\"z\":\"\\u00e9\\t\",\"a\":12.34,\"m\":[0.00000000001]}").unwrap();
        assert_eq!(
            compress(&value).unwrap(),
            "{\"a\":12.34,\"m\":[0.0000000001e-1],\"z\":\"é\\u0009\"}"
        );
    }

    #[test]
    fn every_code_is_distinct_kebab_case() {
        let mut seen = std::collections::BTreeSet::new();
        for code in V2RefusalCode::ALL {
            let s = code.as_str();
            assert!(
                s.starts_with("v2-")
                    && s.bytes()
                        .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit())
            );
            assert!(seen.insert(s));
        }
    }
}
