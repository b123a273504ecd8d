//! RFC 8785 (JSON Canonicalization Scheme) bytes of a JSON text read by the one JSON reader
//! (`src/json.rs`), exactly: object members sorted by their names' UTF-16 code units, no
//! whitespace, strings with only the escapes §3.2.2.2 allows (`\"`, `\\`, `\b`, `\f`, `\n`,
//! `\r`, `\t`, other controls as `\u00xx` in lowercase hex, everything else raw UTF-8), and
//! each number as ECMAScript's Number-to-String writes the binary64 it denotes (§3.2.2.3).
//! What RFC 8785 cannot canonicalize is refused with a [`JcsError`], never guessed: text that
//! is not one UTF-8 JSON value, a member name written twice in one object, an unpaired
//! surrogate escape, a number no binary64 holds (its magnitude rounds to infinity).
//!
//! Written here rather than taken from a crate (`serde_jcs`, `serde_json_canonicalizer`):
//! both canonicalize serde values, in which a repeated member name has already been merged
//! away, so they cannot refuse it; this module reads the bytes with sealkit's own reader,
//! which keeps every member and every number literal. The number digits are the standard
//! library's shortest round-trip rendering of the binary64 (what ECMAScript's algorithm also
//! picks); only the notation rules are ECMAScript's, written out below. Checked against the
//! reference implementation's vectors and 100,000 ECMAScript number cases
//! (`testdata/jcs/`, tests/it/jcs_vectors.rs).

use crate::json::{self, Duplicate, JsonValue, Member, Node};
use std::cmp::Ordering;

/// Deepest nesting read: the one limit sealkit's readers share for evidence
/// ([`json::DUPLICATE_SCAN_DEPTH`]).
pub const MAX_DEPTH: usize = json::DUPLICATE_SCAN_DEPTH;

/// Why a text has no RFC 8785 canonical form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JcsError {
    /// Not UTF-8 (RFC 8785 §3.2.4: the input is UTF-8 JSON text).
    #[error("not UTF-8: invalid byte at offset {offset}")]
    NotUtf8 { offset: usize },
    /// Not one JSON value (RFC 8259 grammar).
    #[error("not one JSON value: {message} at byte {offset}")]
    NotJson { offset: usize, message: String },
    /// A member name written twice in one object (I-JSON, RFC 7493 §2.3).
    #[error("{0}")]
    DuplicateMember(Duplicate),
    /// A `\uD800`–`\uDFFF` escape that is not half of a surrogate pair (I-JSON §2.1).
    #[error("unpaired surrogate escape {escape} at byte {offset}")]
    LoneSurrogate { offset: usize, escape: String },
    /// A number whose magnitude rounds past the largest binary64 (I-JSON §2.2).
    #[error("number {literal} at byte {offset} is outside the binary64 range")]
    NumberOutOfRange { offset: usize, literal: String },
}

impl crate::error_code::Coded for JcsError {
    fn code(&self) -> &'static str {
        "evidence-not-canonicalizable"
    }

    fn help(&self) -> Option<String> {
        Some("RFC 8785 canonicalizes I-JSON only: one UTF-8 JSON value with unique member names, paired surrogates and binary64 numbers".to_owned())
    }
}

/// The RFC 8785 canonical bytes of `bytes`.
pub fn canonicalize_bytes(bytes: &[u8]) -> Result<String, JcsError> {
    let text = std::str::from_utf8(bytes).map_err(|e| JcsError::NotUtf8 {
        offset: e.valid_up_to(),
    })?;
    canonicalize(text)
}

/// The RFC 8785 canonical text of `text`.
pub fn canonicalize(text: &str) -> Result<String, JcsError> {
    let root = json::parse(text, MAX_DEPTH).map_err(|e| JcsError::NotJson {
        offset: e.offset,
        message: e.message,
    })?;
    if let Some(duplicate) = json::first_duplicate(&root) {
        return Err(JcsError::DuplicateMember(duplicate));
    }
    let mut out = String::with_capacity(root.span.len());
    write_value(text, &root, &mut out)?;
    Ok(out)
}

fn write_value(text: &str, node: &Node<'_>, out: &mut String) -> Result<(), JcsError> {
    match &node.value {
        JsonValue::Null => out.push_str("null"),
        JsonValue::Bool(true) => out.push_str("true"),
        JsonValue::Bool(false) => out.push_str("false"),
        JsonValue::Number(literal) => {
            let value = number_value(literal).ok_or_else(|| JcsError::NumberOutOfRange {
                offset: node.span.start,
                literal: (*literal).to_owned(),
            })?;
            out.push_str(&ecmascript_number(value));
        }
        JsonValue::String(decoded) => {
            refuse_lone_surrogate(text, node.span.start, node.span.end)?;
            write_string(decoded, out);
        }
        JsonValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(text, item, out)?;
            }
            out.push(']');
        }
        JsonValue::Object(members) => {
            let mut sorted: Vec<&Member<'_>> = members.iter().collect();
            sorted.sort_by(|a, b| utf16_order(&a.key, &b.key));
            out.push('{');
            for (i, member) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                refuse_lone_surrogate(text, member.key_span.start, member.key_span.end)?;
                write_string(&member.key, out);
                out.push(':');
                write_value(text, &member.value, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// RFC 8785 §3.2.3: member names compared as arrays of UTF-16 code units.
fn utf16_order(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// RFC 8785 §3.2.2.2 string serialization.
fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The raw string token `text[start..end]` (quotes included) holds no unpaired surrogate
/// escape. The reader decodes such an escape to U+FFFD, which RFC 8785 must not accept as if
/// it had been written.
fn refuse_lone_surrogate(text: &str, start: usize, end: usize) -> Result<(), JcsError> {
    let raw = text.as_bytes();
    let unit = |at: usize| -> Option<u32> {
        let digits = raw.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let mut i = start + 1;
    while i + 1 < end {
        if raw[i] != b'\\' {
            i += 1;
            continue;
        }
        if raw[i + 1] != b'u' {
            i += 2;
            continue;
        }
        let Some(first) = unit(i + 2) else {
            // The reader accepted the token, so every \u has four hex digits.
            i += 2;
            continue;
        };
        let lone = match first {
            0xD800..=0xDBFF => {
                let paired = raw.get(i + 6..i + 8) == Some(b"\\u")
                    && unit(i + 8).is_some_and(|low| (0xDC00..=0xDFFF).contains(&low));
                if paired {
                    i += 12;
                    continue;
                }
                true
            }
            0xDC00..=0xDFFF => true,
            _ => false,
        };
        if lone {
            return Err(JcsError::LoneSurrogate {
                offset: i,
                escape: text[i..i + 6].to_owned(),
            });
        }
        i += 6;
    }
    Ok(())
}

/// The binary64 a JSON number literal denotes (correctly rounded), or `None` when its
/// magnitude rounds to infinity.
pub fn number_value(literal: &str) -> Option<f64> {
    literal.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// ECMAScript's Number::toString(x) for a finite binary64 (ECMA-262 §6.1.6.1.20), with
/// negative zero written `0` as RFC 8785 requires. The standard library gives the shortest
/// digits `s` (k of them) that read back as `x`, and the decimal exponent `n` with
/// `x = s × 10^(n−k)`; the notation then follows the specification's steps.
pub fn ecmascript_number(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    // The shortest round-trip rendering fixes k and is the closest k-digit decimal that
    // reads back as x, except where two are equally close: there it may take the upper one
    // and ECMAScript takes the even one. x correctly rounded to k digits (ties to even) is
    // that even one whenever it reads back as x; below a power of two it may not (the
    // interval of values that read back as x is narrower below x than above), and the
    // shortest rendering stands.
    let shortest = format!("{:e}", x.abs());
    let k = split_scientific(&shortest).0.len();
    let rounded = format!("{:.*e}", k.saturating_sub(1), x.abs());
    let chosen = if rounded.parse::<f64>() == Ok(x.abs()) {
        rounded
    } else {
        shortest
    };
    let (digits, exponent) = split_scientific(&chosen);
    let k = digits.len() as i64;
    let n = exponent + 1;
    let mut out = String::with_capacity(k as usize + 8);
    if x < 0.0 {
        out.push('-');
    }
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-n) as usize));
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        if k > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if n - 1 < 0 { '-' } else { '+' });
        out.push_str(&(n - 1).abs().to_string());
    }
    out
}

/// The digits (without the point) and the decimal exponent of Rust's `{:e}` rendering of a
/// non-negative finite number (`d.ddde-N`).
fn split_scientific(text: &str) -> (String, i64) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let digits = mantissa.chars().filter(|c| *c != '.').collect();
    (digits, exponent.parse().unwrap_or(0))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_ecmascript_notation_at_every_boundary() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123456789012345680000.0, "123456789012345680000"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            // values.json's 333333333.33333329, as the reader rounds it.
            (
                number_value("333333333.33333329").unwrap(),
                "333333333.3333333",
            ),
            (4.5, "4.5"),
            (0.002, "0.002"),
            (1e30, "1e+30"),
            (9007199254740992.0, "9007199254740992"),
            // Exactly halfway between two 17-digit decimals: ECMAScript takes the even one.
            (f64::from_bits(0x3e60000000000000), "2.9802322387695312e-8"),
            (f64::from_bits(0x4310000000000001), "1125899906842624.2"),
        ];
        for (value, expected) in cases {
            assert_eq!(ecmascript_number(value), expected, "{value:e}");
        }
    }

    #[test]
    fn refuses_what_rfc_8785_cannot_canonicalize() {
        let code = |text: &str| match canonicalize(text) {
            Ok(_) => "ok",
            Err(JcsError::NotUtf8 { .. }) => "utf8",
            Err(JcsError::NotJson { .. }) => "json",
            Err(JcsError::DuplicateMember(_)) => "duplicate",
            Err(JcsError::LoneSurrogate { .. }) => "surrogate",
            Err(JcsError::NumberOutOfRange { .. }) => "range",
        };
        assert_eq!(code(r#"{"a":1,"a":1}"#), "duplicate");
        assert_eq!(code(r#"[{"x":{"a":1,"\u0061":2}}]"#), "duplicate");
        assert_eq!(code(r#""\ud800""#), "surrogate");
        assert_eq!(code(r#""\udc00\ud800""#), "surrogate");
        assert_eq!(code(r#"{"\ud83d x":1}"#), "surrogate");
        assert_eq!(code(r#""\\ud800""#), "ok");
        assert_eq!(code(r#""\ud83d\ude02""#), "ok");
        assert_eq!(code("1e309"), "range");
        assert_eq!(code("-1e400"), "range");
        assert_eq!(code("1e-400"), "ok");
        assert_eq!(code("{"), "json");
        assert!(matches!(
            canonicalize_bytes(b"\"\xff\""),
            Err(JcsError::NotUtf8 { offset: 1 })
        ));
    }

    #[test]
    fn sorts_by_utf16_code_units_not_code_points() {
        // By code point U+1F602 comes after U+FB33; by UTF-16 code units (D83D DE02 < FB33) first.
        let text = "{\"\u{fb33}\":1,\"\u{1f602}\":2,\"\u{e9}\":3}";
        assert_eq!(
            canonicalize(text).unwrap(),
            "{\"\u{e9}\":3,\"\u{1f602}\":2,\"\u{fb33}\":1}"
        );
    }

    #[test]
    fn escapes_only_what_the_rfc_escapes() {
        assert_eq!(
            canonicalize("\"\\u0000\\u001f\\u007f\\u2028/\\/\\b\\f\\n\\r\\t\"").unwrap(),
            "\"\\u0000\\u001f\u{7f}\u{2028}//\\b\\f\\n\\r\\t\""
        );
    }
}
