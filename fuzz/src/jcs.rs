//! The `jcs` fuzz target: RFC 8785 canonicalization (`jcs::canonicalize_bytes`) and the
//! ECMAScript number form (`jcs::ecmascript_number`).

use super::{depth, PARSE_DEPTH, SERDE_JSON_DEPTH};
use sealkit::jcs::{self, JcsError};
use sealkit::json::{self, JsonValue, Node};

/// Canonicalizes the input; an accepted text's output is a fixpoint, holds the same value
/// (numbers as binary64) with members in UTF-16 order and no whitespace; a refusal is one a
/// second reading confirms. The first 8 bytes, as a binary64, format to a number that reads
/// back as that binary64 and is its own canonical form.
pub fn jcs(data: &[u8]) {
    if let Ok(bits) = <[u8; 8]>::try_from(data.get(..8).unwrap_or_default()) {
        let value = f64::from_le_bytes(bits);
        if value.is_finite() {
            let text = jcs::ecmascript_number(value);
            let back: f64 = text
                .parse()
                .unwrap_or_else(|_| panic!("{text} is not a number"));
            assert!(back == value, "{text} reads back as {back}, not {value:e}");
            assert_eq!(
                jcs::canonicalize(&text).ok().as_deref(),
                Some(text.as_str())
            );
        }
    }
    let result = jcs::canonicalize_bytes(data);
    let Ok(text) = std::str::from_utf8(data) else {
        assert!(
            matches!(result, Err(JcsError::NotUtf8 { .. })),
            "{result:?}"
        );
        return;
    };
    let parsed = json::parse(text, jcs::MAX_DEPTH);
    match (&result, &parsed) {
        (Ok(out), Ok(input)) => accepted(out, input),
        (Err(JcsError::NotJson { .. }), Err(_)) => {}
        (Err(JcsError::DuplicateMember(_)), Ok(input)) => {
            assert!(json::first_duplicate(input).is_some());
        }
        (Err(JcsError::LoneSurrogate { .. }), Ok(input)) => {
            if depth(input) < SERDE_JSON_DEPTH && json::first_duplicate(input).is_none() {
                // serde_json refuses unpaired surrogate escapes too.
                assert!(serde_json::from_str::<serde_json::Value>(text).is_err());
            }
        }
        (Err(JcsError::NumberOutOfRange { literal, .. }), Ok(_)) => {
            assert!(
                literal.parse::<f64>().is_ok_and(f64::is_infinite),
                "{literal}"
            );
        }
        (result, parsed) => panic!("canonicalize {result:?} against parse {parsed:?}"),
    }
}

fn accepted(out: &str, input: &Node<'_>) {
    assert_eq!(
        jcs::canonicalize(out).as_deref(),
        Ok(out),
        "RFC 8785 output is not a fixpoint"
    );
    let output = json::parse(out, PARSE_DEPTH).unwrap_or_else(|e| panic!("{e:?}: {out}"));
    same(input, &output);
    sorted_and_compact(out, &output);
}

/// The same value: containers alike, members matched by name, numbers equal as binary64.
fn same(a: &Node<'_>, b: &Node<'_>) {
    match (&a.value, &b.value) {
        (JsonValue::Number(x), JsonValue::Number(y)) => {
            let (x, y) = (x.parse::<f64>().ok(), y.parse::<f64>().ok());
            assert!(x.is_some() && x == y, "{x:?} became {y:?}");
        }
        (JsonValue::Array(x), JsonValue::Array(y)) => {
            assert_eq!(x.len(), y.len());
            x.iter().zip(y).for_each(|(x, y)| same(x, y));
        }
        (JsonValue::Object(x), JsonValue::Object(y)) => {
            assert_eq!(x.len(), y.len());
            for member in x {
                let other = b
                    .value
                    .get(&member.key)
                    .unwrap_or_else(|| panic!("{} lost", member.key));
                same(&member.value, other);
            }
        }
        (x, y) => assert_eq!(x, y),
    }
}

/// Members in UTF-16 code-unit order at every level, and no byte outside a string is
/// whitespace.
fn sorted_and_compact(text: &str, node: &Node<'_>) {
    let mut stack = vec![node];
    while let Some(node) = stack.pop() {
        match &node.value {
            JsonValue::Array(items) => stack.extend(items),
            JsonValue::Object(members) => {
                for pair in members.windows(2) {
                    let (a, b) = (&pair[0].key, &pair[1].key);
                    assert!(a.encode_utf16().lt(b.encode_utf16()), "{a:?} before {b:?}");
                }
                stack.extend(members.iter().map(|m| &m.value));
            }
            _ => {}
        }
    }
    let mut in_string = false;
    let mut escaped = false;
    for byte in text.bytes() {
        match (in_string, escaped, byte) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (_, false, b'"') => in_string = !in_string,
            (false, _, b' ' | b'\t' | b'\n' | b'\r') => panic!("whitespace in {text}"),
            _ => {}
        }
    }
}
