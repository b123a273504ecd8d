//! The value bytes inside Seal's identities (docs/target.md; docs/formats.md
//! §2.2 and §2.5), rendered exactly:
//!
//! * [`lean_compress`]: Lean `Json.compress` as the pinned kernel renders arguments and
//!   present `_meta` / context values: object keys in code-point order, no whitespace,
//!   strings escaped with `\"` `\\` `\n` `\r` and `\u00xx` (lowercase) for the other
//!   controls, everything else raw UTF-8, and numbers by Lean's `JsonNumber.toString`
//!   (exact decimal, `1.0` → `1`, `1e2` → `100`, small magnitudes as `0.…e-N`). Not RFC 8785.
//! * [`serde_compact`]: seal-host's serde_json compact text (`canonical_request`,
//!   `args_hash`): members in wire order or recursively byte-sorted, scalars rendered by
//!   serde_json itself so escapes and float forms are its own.
//!
//! The Lean rendering is written by hand (no crate renders Lean's number and escape forms):
//! the identities hash these bytes, so they must equal the kernel's byte for byte.

use crate::json::{JsonValue, Member, Node};

/// Rendering refused: only reachable for values Seal's wire guards refuse first.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// A number whose exact decimal expansion would exceed [`MAX_NUMBER_DIGITS`] digits or
    /// whose exponent does not fit 18 digits (Seal refuses exponents over 6 digits).
    #[error("number {0} is too large to render exactly")]
    NumberTooLarge(String),
    /// serde_json refuses the literal (out of binary64 range); seal-host then records a
    /// parse error instead of a `canonical_request`.
    #[error("serde_json cannot read the number {0}")]
    SerdeRejectsNumber(String),
    /// The text to render is not one JSON value.
    #[error("not one JSON value: {0}")]
    NotJson(String),
}

impl crate::error_code::Coded for RenderError {
    fn code(&self) -> &'static str {
        "value-unrenderable"
    }
}

/// Longest exact digit string the Lean renderer is allowed to produce here.
pub const MAX_NUMBER_DIGITS: usize = 4096;

/// Lean `Json.compress` of a parsed value.
pub fn lean_compress(node: &Node<'_>) -> Result<String, RenderError> {
    let mut out = String::with_capacity(node.span.len());
    write_lean(&node.value, &mut out)?;
    Ok(out)
}

/// [`lean_compress`] appended to `out` (for a caller that renders several values into one
/// text and keeps where each is).
pub fn write_lean_compress(node: &Node<'_>, out: &mut String) -> Result<(), RenderError> {
    write_lean(&node.value, out)
}

fn write_lean(value: &JsonValue<'_>, out: &mut String) -> Result<(), RenderError> {
    match value {
        JsonValue::Null => out.push_str("null"),
        JsonValue::Bool(true) => out.push_str("true"),
        JsonValue::Bool(false) => out.push_str("false"),
        // A JSON integer literal is its own rendering (as in `lean_number`), written
        // without an intermediate string.
        JsonValue::Number(literal) if is_plain_integer(literal) && *literal != "-0" => {
            out.push_str(literal)
        }
        JsonValue::Number(literal) => out.push_str(&lean_number(literal)?),
        JsonValue::String(text) => write_lean_string(text, out),
        JsonValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_lean(&item.value, out)?;
            }
            out.push(']');
        }
        JsonValue::Object(members) => {
            out.push('{');
            for (i, member) in in_order_iter(members, KeyOrder::Sorted).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_lean_string(&member.key, out);
                out.push(':');
                write_lean(&member.value.value, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// Members in wire order, or in code-point (= UTF-8 byte) order of their keys. Objects
/// already in key order (most canonical input) and wire order are walked in place; an
/// unsorted object under [`KeyOrder::Sorted`] is walked in key order through references to its
/// members (on the stack up to [`SMALL_OBJECT`] members, the common case; a list otherwise).
/// The sort is stable, so members under equal keys keep their wire order.
pub(crate) fn in_order<'m, 'a>(
    members: &'m [Member<'a>],
    order: KeyOrder,
) -> impl Iterator<Item = &'m Member<'a>> {
    in_order_iter(members, order)
}

fn in_order_iter<'m, 'a>(members: &'m [Member<'a>], order: KeyOrder) -> InOrder<'m, 'a> {
    if order == KeyOrder::Wire || members.is_sorted_by(|a, b| a.key.as_bytes() <= b.key.as_bytes())
    {
        return InOrder::Slice(members.iter());
    }
    let by_key = |a: &&Member<'a>, b: &&Member<'a>| a.key.as_bytes().cmp(b.key.as_bytes());
    if let Some(first) = members.first().filter(|_| members.len() <= SMALL_OBJECT) {
        let mut sorted = [first; SMALL_OBJECT];
        for (slot, member) in sorted.iter_mut().zip(members) {
            *slot = member;
        }
        sorted[..members.len()].sort_by(by_key);
        return InOrder::Small {
            sorted,
            len: members.len(),
            next: 0,
        };
    }
    let mut sorted: Vec<&Member<'a>> = members.iter().collect();
    sorted.sort_by(by_key);
    InOrder::Sorted(sorted.into_iter())
}

/// Objects with at most this many members are put in key order on the stack.
const SMALL_OBJECT: usize = 16;

/// The iterator of [`in_order`].
enum InOrder<'m, 'a> {
    Slice(std::slice::Iter<'m, Member<'a>>),
    /// The first `len` of `sorted`, from `next` on.
    Small {
        sorted: [&'m Member<'a>; SMALL_OBJECT],
        len: usize,
        next: usize,
    },
    Sorted(std::vec::IntoIter<&'m Member<'a>>),
}

impl<'m, 'a> Iterator for InOrder<'m, 'a> {
    type Item = &'m Member<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            InOrder::Slice(members) => members.next(),
            InOrder::Small { sorted, len, next } => {
                let member = sorted[..*len].get(*next)?;
                *next += 1;
                Some(member)
            }
            InOrder::Sorted(members) => members.next(),
        }
    }
}

/// Lowercase hex digits, for `\u00xx` escapes.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Lean core `Json.escape` inside quotes. The plain runs between the bytes it escapes are
/// found with the parser's word-at-a-time scan and copied whole (arguments carry file
/// contents, scripts and mail bodies: long strings with a newline or quote every few dozen
/// bytes, where a byte loop was the renderer's largest cost).
pub fn write_lean_string(text: &str, out: &mut String) {
    out.reserve(text.len() + 2);
    out.push('"');
    runs_and_stops(
        text,
        out,
        |out, run| out.push_str(run),
        |out, b| match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            // Any other control character (a stop byte below 0x20): `\u00xx`, lowercase.
            _ => {
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        },
    );
    out.push('"');
}

/// Hands `text` to `run` as its plain runs, found with the parser's word-at-a-time scan
/// (copied whole by the caller), and each byte between them to `stop`: the loop both
/// escaping writers share. A stop byte is ASCII, so every run is whole characters.
#[inline]
fn runs_and_stops<O: ?Sized>(
    text: &str,
    out: &mut O,
    run: impl Fn(&mut O, &str),
    stop: impl Fn(&mut O, u8),
) {
    let bytes = text.as_bytes();
    let mut i = 0;
    loop {
        let len = crate::json::string_run(&bytes[i..], true);
        run(out, &text[i..i + len]);
        i += len;
        let Some(&b) = bytes.get(i) else {
            return;
        };
        stop(out, b);
        i += 1;
    }
}

/// Lean's exact decimal rendering of a JSON number literal (`JsonNumber` parse, then
/// `JsonNumber.toString`).
pub fn lean_number(literal: &str) -> Result<String, RenderError> {
    // A JSON integer literal (no leading zeros by grammar) is its own rendering, except -0.
    if is_plain_integer(literal) {
        return Ok(if literal == "-0" {
            "0".to_owned()
        } else {
            literal.to_owned()
        });
    }
    let too_large = || RenderError::NumberTooLarge(literal.to_owned());
    let (negative, body) = match literal.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, literal),
    };
    let (mantissa_part, exponent_part) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = mantissa_part.split_once('.').unwrap_or((mantissa_part, ""));
    // mantissa * 10^-exponent, with the fraction's digit count as the exponent (Lean keeps
    // trailing fraction zeros in the mantissa: "1.50" is 150 × 10^-2).
    let mut digits: String = whole
        .chars()
        .chain(fraction.chars())
        .skip_while(|&c| c == '0')
        .collect();
    let mut exponent = fraction.len() as u64;
    if let Some(exp) = exponent_part {
        let (shift_right, exp_digits) = match exp.as_bytes().first() {
            Some(b'-') => (true, &exp[1..]),
            Some(b'+') => (false, &exp[1..]),
            _ => (false, exp),
        };
        let significant = exp_digits.trim_start_matches('0');
        if significant.len() > 18 {
            return Err(too_large());
        }
        let shift: u64 = if significant.is_empty() {
            0
        } else {
            significant.parse().map_err(|_| too_large())?
        };
        if shift_right {
            exponent = exponent.checked_add(shift).ok_or_else(too_large)?;
        } else if shift > exponent {
            let zeros = usize::try_from(shift - exponent).map_err(|_| too_large())?;
            if !digits.is_empty() {
                if digits.len().saturating_add(zeros) > MAX_NUMBER_DIGITS {
                    return Err(too_large());
                }
                digits.extend(std::iter::repeat_n('0', zeros));
            }
            exponent = 0;
        } else {
            exponent -= shift;
        }
    }
    if digits.len() > MAX_NUMBER_DIGITS {
        return Err(too_large());
    }
    Ok(lean_number_to_string(
        negative && !digits.is_empty(),
        &digits,
        exponent,
    ))
}

/// `JsonNumber.toString` for mantissa digits `m` (no leading zeros; empty means 0) and
/// exponent `e` (the value is m × 10^-e).
fn lean_number_to_string(negative: bool, m: &str, e: u64) -> String {
    let sign = if negative { "-" } else { "" };
    let m = if m.is_empty() { "0" } else { m };
    if e == 0 {
        return format!("{sign}{m}");
    }
    let count = m.len() as u64;
    // Lean: exp = 9 + countDigits m - e; a negative exp switches to the `0.…e<exp>` form.
    if e > 9 + count {
        let exp = (9 + count) as i128 - e as i128;
        let right = format!("000000000{m}");
        let right = right.trim_end_matches('0');
        return format!("{sign}0.{right}e{exp}");
    }
    let e = e as usize;
    let (left, fraction) = if m.len() > e {
        (m[..m.len() - e].to_owned(), m[m.len() - e..].to_owned())
    } else {
        ("0".to_owned(), format!("{}{m}", "0".repeat(e - m.len())))
    };
    let right = fraction.trim_end_matches('0');
    if right.is_empty() {
        format!("{sign}{left}")
    } else {
        format!("{sign}{left}.{right}")
    }
}

/// Member order for [`serde_compact`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyOrder {
    /// As written on the wire (serde_json `preserve_order`).
    Wire,
    /// Every object's members sorted by key bytes, recursively (seal-host's
    /// `canonical_json` of `_meta`).
    Sorted,
}

/// Where the serde renderings write: bytes (records, signed payloads) or text (seal-host's
/// projection, kept as a `String` without checking as UTF-8 again what was written from text).
pub trait SerdeOut {
    /// Makes room for `additional` more bytes.
    fn reserve_bytes(&mut self, additional: usize);
    /// Appends text.
    fn text(&mut self, text: &str);
    /// Appends one ASCII byte (the renderings' punctuation and escapes; never above 0x7F).
    fn ascii(&mut self, byte: u8);
}

impl SerdeOut for Vec<u8> {
    fn reserve_bytes(&mut self, additional: usize) {
        self.reserve(additional);
    }
    fn text(&mut self, text: &str) {
        self.extend_from_slice(text.as_bytes());
    }
    fn ascii(&mut self, byte: u8) {
        self.push(byte);
    }
}

impl SerdeOut for String {
    fn reserve_bytes(&mut self, additional: usize) {
        self.reserve(additional);
    }
    fn text(&mut self, text: &str) {
        self.push_str(text);
    }
    fn ascii(&mut self, byte: u8) {
        // Every caller passes ASCII; a byte above it would be written as its own character
        // (two bytes), never as invalid UTF-8.
        self.push(char::from(byte));
    }
}

/// seal-host's serde_json compact text of a value.
pub fn serde_compact<O: SerdeOut + ?Sized>(
    node: &Node<'_>,
    order: KeyOrder,
    out: &mut O,
) -> Result<(), RenderError> {
    match &node.value {
        JsonValue::Null => out.text("null"),
        JsonValue::Bool(true) => out.text("true"),
        JsonValue::Bool(false) => out.text("false"),
        // serde_json prints an integer of at most 18 digits back unchanged (as in
        // `serde_number`), written without an intermediate string.
        JsonValue::Number(literal) if is_serde_integer(literal) => out.text(literal),
        JsonValue::Number(literal) => out.text(&serde_number(literal)?),
        JsonValue::String(text) => serde_string(text, out),
        JsonValue::Array(items) => {
            out.ascii(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.ascii(b',');
                }
                serde_compact(item, order, out)?;
            }
            out.ascii(b']');
        }
        JsonValue::Object(members) => {
            out.ascii(b'{');
            for (i, member) in in_order_iter(members, order).enumerate() {
                if i > 0 {
                    out.ascii(b',');
                }
                serde_string(&member.key, out);
                out.ascii(b':');
                serde_compact(&member.value, order, out)?;
            }
            out.ascii(b'}');
        }
    }
    Ok(())
}

/// serde_json's rendering of a number literal it reads (u64/i64 exact, otherwise binary64
/// printed in its shortest round-trip form, `-0` as `-0.0`).
pub fn serde_number(literal: &str) -> Result<String, RenderError> {
    // serde_json reads an integer of at most 18 digits as u64/i64 and prints it back
    // unchanged; -0 becomes the float -0.0, so it takes the general path.
    if is_serde_integer(literal) {
        return Ok(literal.to_owned());
    }
    serde_json::from_str::<serde_json::Number>(literal)
        .map(|n| n.to_string())
        .map_err(|_| RenderError::SerdeRejectsNumber(literal.to_owned()))
}

/// An integer literal serde_json reads as u64/i64 and prints back unchanged: at most 18
/// digits, and not `-0` (a float to serde_json).
fn is_serde_integer(literal: &str) -> bool {
    is_plain_integer(literal) && literal != "-0" && literal.trim_start_matches('-').len() <= 18
}

/// An optional minus sign followed by digits only (a JSON integer once the grammar holds).
fn is_plain_integer(literal: &str) -> bool {
    let digits = literal.strip_prefix('-').unwrap_or(literal);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// serde_json's escaped string (`format_escaped_str`, hand-written here to be byte-exact with
/// it: `\"` `\\` `\b` `\f` `\n` `\r` `\t`, other controls as `\u00xx` in lowercase hex,
/// everything else raw UTF-8). The plain runs between escapes are found with the parser's
/// word-at-a-time scan and copied whole; serde_json's own writer tests every byte against
/// a table. `serde_string_is_serde_jsons_escaping` holds it to serde_json on every byte.
pub fn serde_string<O: SerdeOut + ?Sized>(text: &str, out: &mut O) {
    out.reserve_bytes(text.len() + 2);
    out.ascii(b'"');
    runs_and_stops(
        text,
        out,
        |out, run| out.text(run),
        |out, b| {
            let short = match b {
                b'"' => b'"',
                b'\\' => b'\\',
                0x08 => b'b',
                0x0c => b'f',
                b'\n' => b'n',
                b'\r' => b'r',
                b'\t' => b't',
                _ => 0,
            };
            out.ascii(b'\\');
            if short != 0 {
                out.ascii(short);
            } else {
                out.text("u00");
                out.ascii(HEX[usize::from(b >> 4)]);
                out.ascii(HEX[usize::from(b & 0xf)]);
            }
        },
    );
    out.ascii(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn lean(text: &str) -> String {
        lean_compress(&parse(text, 128).unwrap()).unwrap()
    }

    fn serde(text: &str, order: KeyOrder) -> String {
        let mut out = Vec::new();
        serde_compact(&parse(text, 128).unwrap(), order, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// Unsorted objects of every size around the on-stack limit, nested, come out in key
    /// order under both renderers' sorted order and in wire order under serde's wire order.
    #[test]
    fn unsorted_objects_of_any_size_are_walked_in_key_order() {
        for size in [2, 5, SMALL_OBJECT - 1, SMALL_OBJECT, SMALL_OBJECT + 1, 40] {
            let keys: Vec<String> = (0..size).rev().map(|k| format!("k{k:02}")).collect();
            let wire = keys
                .iter()
                .map(|k| format!("\"{k}\":{{\"b\":1,\"a\":\"{k}\"}}"))
                .collect::<Vec<_>>()
                .join(",");
            let mut sorted_keys = keys.clone();
            sorted_keys.sort();
            let sorted = sorted_keys
                .iter()
                .map(|k| format!("\"{k}\":{{\"a\":\"{k}\",\"b\":1}}"))
                .collect::<Vec<_>>()
                .join(",");
            let text = format!("{{{wire}}}");
            assert_eq!(lean(&text), format!("{{{sorted}}}"), "{size}");
            assert_eq!(
                serde(&text, KeyOrder::Sorted),
                format!("{{{sorted}}}"),
                "{size}"
            );
            assert_eq!(serde(&text, KeyOrder::Wire), text, "{size}");
        }
    }

    #[test]
    fn lean_numbers_follow_json_number_to_string() {
        for (literal, rendered) in [
            ("0", "0"),
            ("-0", "0"),
            ("-0.0", "0"),
            ("1.0", "1"),
            ("1.50", "1.5"),
            ("1e2", "100"),
            ("1E+2", "100"),
            ("0.5", "0.5"),
            ("-0.5", "-0.5"),
            ("-7", "-7"),
            ("123.456e-2", "1.23456"),
            ("1.5e3", "1500"),
            ("1e-10", "0.0000000001"),
            ("1e-11", "0.0000000001e-1"),
            ("15e-20", "0.00000000015e-9"),
            ("0.0e-20", "0.e-11"),
            ("999999999999999999", "999999999999999999"),
            ("12.5e1", "125"),
            ("12.5e0", "12.5"),
            ("-12", "-12"),
            ("12345678901234567890123", "12345678901234567890123"),
            ("1e0", "1"),
        ] {
            assert_eq!(lean_number(literal).unwrap(), rendered, "{literal}");
        }
    }

    /// Integers written straight from their literal inside a value agree with the full
    /// renderers (checked red under the mutants `!=` → `==` in `write_lean`'s integer arm
    /// and `<=` → `>` in `is_serde_integer`: docs/mutants.md).
    #[test]
    fn integers_inside_values_render_as_the_number_renderers_do() {
        let literals = [
            "0",
            "-0",
            "7",
            "-7",
            "999999999999999999",
            "-999999999999999999",
            "1000000000000000000",
            "-9999999999999999999",
            "18446744073709551616",
        ];
        let array = format!("[{}]", literals.join(","));
        let lean_each: Vec<String> = literals.iter().map(|l| lean_number(l).unwrap()).collect();
        assert_eq!(lean(&array), format!("[{}]", lean_each.join(",")));
        assert_eq!(lean("[-0,-7]"), "[0,-7]");
        // serde_json itself is the oracle of seal-host's text.
        let value: serde_json::Value = serde_json::from_str(&array).unwrap();
        assert_eq!(serde(&array, KeyOrder::Wire), value.to_string());
        // A negative 19-digit integer does not fit i64: serde_json reads it as a float.
        assert!(!serde(&array, KeyOrder::Wire).contains("-9999999999999999999"));
    }

    /// Objects already in key order are walked in place, others sorted, and wire order kept
    /// when asked (checked red under the mutant `||` → `&&` in `in_order`: docs/mutants.md).
    #[test]
    fn member_order_follows_the_order_asked_for() {
        let text = r#"{"a":{"c":1,"b":2},"b":[{"y":1,"x":{"q":1,"p":2}}]}"#;
        assert_eq!(serde(text, KeyOrder::Wire), text);
        assert_eq!(
            serde(text, KeyOrder::Sorted),
            r#"{"a":{"b":2,"c":1},"b":[{"x":{"p":2,"q":1},"y":1}]}"#
        );
        assert_eq!(lean(text), serde(text, KeyOrder::Sorted));
        assert_eq!(lean(r#"{"b":1,"a":2}"#), r#"{"a":2,"b":1}"#);
        assert_eq!(
            serde(r#"{"b":1,"a":2}"#, KeyOrder::Wire),
            r#"{"b":1,"a":2}"#
        );
    }

    #[test]
    fn lean_numbers_refuse_unbounded_expansions() {
        assert!(matches!(
            lean_number("1e9999999"),
            Err(RenderError::NumberTooLarge(_))
        ));
        assert!(matches!(
            lean_number("1e99999999999999999999"),
            Err(RenderError::NumberTooLarge(_))
        ));
        assert_eq!(lean_number("0e9999999").unwrap(), "0");
        assert!(lean_number("1e-9999999").unwrap().ends_with("e-9999989"));
    }

    #[test]
    fn lean_strings_escape_only_quote_backslash_and_controls() {
        assert_eq!(
            lean(r#""a\"b\\c\nd\re\tf\u0000g\u001f\u007f/é😀""#),
            "\"a\\\"b\\\\c\\nd\\re\\u0009f\\u0000g\\u001f\u{7f}/é😀\""
        );
        assert_eq!(lean(r#""\b\f""#), r#""\u0008\u000c""#);
    }

    #[test]
    fn lean_objects_sort_by_code_point_and_drop_whitespace() {
        assert_eq!(
            lean(r#"{ "b" : 1 , "a" : [ 2 , { "z":0,"é":1,"Z":2 } ] }"#),
            r#"{"a":[2,{"Z":2,"z":0,"é":1}],"b":1}"#
        );
    }

    #[test]
    fn serde_side_uses_serde_forms() {
        assert_eq!(
            serde(r#"{"b":1e2,"a":-0,"c":"\t\u0001\u007f"}"#, KeyOrder::Wire),
            "{\"b\":100.0,\"a\":-0.0,\"c\":\"\\t\\u0001\u{7f}\"}"
        );
        assert_eq!(
            serde(
                r#"{"b":{"y":1,"x":2},"a":[{"d":1,"c":2}]}"#,
                KeyOrder::Sorted
            ),
            r#"{"a":[{"c":2,"d":1}],"b":{"x":2,"y":1}}"#
        );
        assert_eq!(
            serde_number("18446744073709551616").unwrap(),
            "1.8446744073709552e+19"
        );
        assert!(serde_number("1e400").is_err());
    }

    /// Every character that can stop a plain run (all of U+0000–U+007F), and non-ASCII ones,
    /// at every offset of a word and beside each other, in strings that end on a word and
    /// off one: the word-at-a-time writers against serde_json's own `to_string` and against
    /// Lean's `Json.escape` written character by character (its definition). Seen red with
    /// `write_lean_string` writing `\N` for a newline (by hand; the cargo-mutants run in
    /// docs/mutants.md, issue 40 phase 3, did not get to it).
    #[test]
    fn string_writers_match_their_definitions_at_every_offset() {
        let lean_by_definition = |text: &str| {
            let mut out = String::from('"');
            for ch in text.chars() {
                match ch {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        };
        let mut specials: Vec<String> = (0u8..0x80).map(|b| char::from(b).to_string()).collect();
        specials.extend(
            [
                "\u{e9}",
                "\u{7ff}",
                "\u{20ac}",
                "\u{1F600}",
                "\"\\",
                "\n\t\u{1}",
            ]
            .map(str::to_owned),
        );
        for filler in ["a", "\u{e9}", "\\"] {
            for len in 0..18 {
                for at in 0..=len {
                    for special in &specials {
                        let mut text = filler.repeat(len);
                        text.insert_str(at * filler.len(), special);
                        let mut serde = Vec::new();
                        serde_string(&text, &mut serde);
                        assert_eq!(
                            String::from_utf8(serde).unwrap(),
                            serde_json::to_string(&text).unwrap(),
                            "{text:?}"
                        );
                        let mut lean = String::new();
                        write_lean_string(&text, &mut lean);
                        assert_eq!(lean, lean_by_definition(&text), "{text:?}");
                    }
                }
            }
        }
    }
}
