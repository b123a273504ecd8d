//! The `canonical` fuzz target: json::parse → lean_compress / serde_compact / lean_number.

use super::{depth, PARSE_DEPTH, SERDE_JSON_DEPTH};
use sealkit::canonical::{self, KeyOrder, RenderError};
use sealkit::json::{self, JsonValue, Node};

/// Parses UTF-8 input and renders it every way; checks the fixpoints and, where
/// serde_json reads the text too, that both readers saw the same value.
pub fn canonical(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = json::parse(text, PARSE_DEPTH);
    agree_with_serde_json(text, parsed.as_ref().ok());
    let Ok(node) = parsed else {
        return;
    };
    for_each_number(&node, &mut |literal| check_lean_number(literal));
    if let Ok(lean) = canonical::lean_compress(&node) {
        lean_fixpoint(&lean);
    }
    for order in [KeyOrder::Wire, KeyOrder::Sorted] {
        let mut out = Vec::new();
        if canonical::serde_compact(&node, order, &mut out).is_err() {
            continue;
        }
        let rendered = String::from_utf8(out).unwrap_or_else(|_| panic!("serde text is UTF-8"));
        if depth(&node) < SERDE_JSON_DEPTH {
            serde_json::from_str::<serde_json::Value>(&rendered)
                .unwrap_or_else(|e| panic!("serde_compact output is not JSON ({e}): {rendered}"));
        }
        let reparsed = json::parse(&rendered, PARSE_DEPTH)
            .unwrap_or_else(|e| panic!("serde_compact output does not re-parse ({e:?})"));
        let mut again = Vec::new();
        canonical::serde_compact(&reparsed, order, &mut again)
            .unwrap_or_else(|e| panic!("serde_compact output does not re-render: {e}"));
        assert_eq!(
            rendered.as_bytes(),
            &again[..],
            "serde_compact is not a fixpoint"
        );
    }
}

/// Lean compress output re-parses and renders to itself. The one exception is Lean's own
/// rendering of a zero with a long negative exponent (`0.e-11`), which is not JSON: that
/// text is still exactly what Seal hashes, so it is only checked to come from a zero.
pub fn lean_fixpoint(text: &str) {
    if text.contains("0.e-") {
        return;
    }
    let node = json::parse(text, PARSE_DEPTH)
        .unwrap_or_else(|e| panic!("Lean compress output does not re-parse ({e:?}): {text}"));
    let again = canonical::lean_compress(&node)
        .unwrap_or_else(|e| panic!("Lean compress output does not re-render ({e}): {text}"));
    assert_eq!(again, text, "Lean compress is not a fixpoint");
}

fn check_lean_number(literal: &str) {
    let rendered = match canonical::lean_number(literal) {
        Ok(rendered) => rendered,
        Err(RenderError::NumberTooLarge(_)) => return,
        Err(other) => panic!("lean_number({literal}) failed: {other}"),
    };
    if let Some(exponent) = rendered.strip_prefix("0.e-") {
        assert!(
            exponent.bytes().all(|b| b.is_ascii_digit()) && literal_is_zero(literal),
            "only a zero renders as 0.e-N: {literal} -> {rendered}"
        );
        return;
    }
    assert!(
        json::parse(&rendered, 1).is_ok_and(|n| matches!(n.value, JsonValue::Number(_))),
        "lean_number({literal}) = {rendered} is not a JSON number"
    );
    assert_eq!(
        canonical::lean_number(&rendered).as_deref(),
        Ok(rendered.as_str()),
        "lean_number is not a fixpoint for {literal}"
    );
}

fn literal_is_zero(literal: &str) -> bool {
    let mantissa = literal.split(['e', 'E']).next().unwrap_or(literal);
    mantissa.bytes().all(|b| matches!(b, b'0' | b'-' | b'.'))
}

fn for_each_number<'a>(node: &Node<'a>, f: &mut dyn FnMut(&'a str)) {
    match &node.value {
        JsonValue::Number(literal) => f(literal),
        JsonValue::Array(items) => items.iter().for_each(|item| for_each_number(item, f)),
        JsonValue::Object(members) => members
            .iter()
            .for_each(|member| for_each_number(&member.value, f)),
        _ => {}
    }
}

/// Where serde_json (the reader seal-host uses) accepts a text, sealkit's parser must
/// accept it too and see the same value. serde_json is stricter in two places, which are
/// not compared: it refuses lone surrogate escapes and numbers outside binary64.
fn agree_with_serde_json(text: &str, ours: Option<&Node<'_>>) {
    let Ok(theirs) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let ours =
        ours.unwrap_or_else(|| panic!("serde_json reads this text but json::parse does not"));
    assert!(
        same_value(ours, &theirs),
        "json::parse and serde_json read different values"
    );
}

fn same_value(ours: &Node<'_>, theirs: &serde_json::Value) -> bool {
    use serde_json::Value as S;
    match (&ours.value, theirs) {
        (JsonValue::Null, S::Null) => true,
        (JsonValue::Bool(a), S::Bool(b)) => a == b,
        (JsonValue::Number(literal), S::Number(n)) => {
            serde_json::from_str::<serde_json::Number>(literal).is_ok_and(|m| m == *n)
        }
        (JsonValue::String(a), S::String(b)) => a == b,
        (JsonValue::Array(a), S::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y))
        }
        (JsonValue::Object(members), S::Object(map)) => {
            map.iter().all(|(key, value)| {
                ours.value
                    .get(key)
                    .is_some_and(|node| same_value(node, value))
            }) && members.iter().all(|m| map.contains_key(m.key.as_ref()))
        }
        _ => false,
    }
}
