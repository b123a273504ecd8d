//! The invariants every fuzz target checks (issue 5): one function per target, each taking
//! arbitrary bytes and panicking only when sealkit breaks a stated property. Nothing here
//! depends on libFuzzer, so `tests/fuzz_corpus.rs` in the main crate includes this file and
//! replays the committed seed corpora and regression inputs through the same checks in
//! every `cargo test`.
//!
//! Properties beyond "no panic": identities are 64 lowercase hex digits and agree with a
//! recomputation; committed equals host when no context value is present; Lean compress
//! is a fixpoint (its output re-parses and re-renders to itself); the wire guards agree
//! with slow reference definitions on every text that parses; the V2 reader accepts
//! exactly the serializer's output; the envelope message decodes back to its fields.

use sealkit::canonical::{self, KeyOrder, RenderError};
use sealkit::digest::{is_sha256_hex, sha256_hex};
use sealkit::envelope::{self, EffectChoice, Params, DOMAIN_TAG};
use sealkit::frame::{self, FrameReader, MAX_FRAME_BYTES};
use sealkit::identity;
use sealkit::json::{self, Node, Value};
use sealkit::meta;
use sealkit::request::{self, Call, EraMode, MetaState, Options, Session, Verdict};
use sealkit::typed::{self, ToolSpecs};
use sealkit::v2;
use sealkit::wire::{self, WireCheck};

/// A target's check: panics exactly when an invariant breaks.
pub type Check = fn(&[u8]);

/// Every target, by name, for corpus replay.
pub const TARGETS: &[(&str, Check)] = &[
    ("frame_pipeline", frame_pipeline),
    ("canonical", canonical),
    ("wire_guards", wire_guards),
    ("v2_reader", v2_reader),
    ("envelope", envelope),
    ("meta_values", meta_values),
];

// ---------------------------------------------------------------------------------------
// frame_pipeline: bytes → frames → request::analyze → identities

/// The input as one frame under every era mode, then as a capture split into frames that
/// share one session.
pub fn frame_pipeline(data: &[u8]) {
    for (era, server) in [
        (EraMode::Auto, ""),
        (EraMode::Legacy, "srv"),
        (EraMode::Modern, "\u{e9}\u{1F600}"),
    ] {
        let options = Options {
            server: server.to_owned(),
            era,
        };
        let verdict = request::analyze(data, &options, &mut Session::default());
        check_verdict(data, &verdict, &options);
        let again = request::analyze(data, &options, &mut Session::default());
        assert_eq!(
            summary(&verdict),
            summary(&again),
            "analyze is not deterministic"
        );
    }
    capture(data);
}

fn capture(data: &[u8]) {
    let options = Options::default();
    let mut session = Session::default();
    let mut frames = FrameReader::new(data);
    let mut offset = 0u64;
    let mut rebuilt = Vec::with_capacity(data.len());
    while let Some(frame) = frames
        .next_frame()
        .unwrap_or_else(|e| panic!("in-memory read: {e}"))
    {
        assert_eq!(frame.offset, offset, "frame offsets must be contiguous");
        assert!(frame.length > 0);
        assert!(frame.bytes.len() as u64 <= frame.length);
        assert!(frame.bytes.len() <= MAX_FRAME_BYTES);
        let body = &frame.bytes[..frame.bytes.len().saturating_sub(1)];
        assert!(
            !body.contains(&b'\n'),
            "a frame holds at most one LF, at its end"
        );
        offset += frame.length;
        rebuilt.extend_from_slice(frame.bytes);
        let verdict = request::analyze_frame(&frame, &options, &mut session);
        if !frame.is_oversized() {
            check_verdict(frame.bytes, &verdict, &options);
        }
    }
    assert_eq!(offset, data.len() as u64, "frames must cover the capture");
    if data.len() <= MAX_FRAME_BYTES {
        assert_eq!(rebuilt, data, "frames must concatenate to the capture");
    }
}

fn summary(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Call(call) => format!(
            "call {} {} {:?}",
            call.identities.committed.effect, call.identities.legacy.target, call.canonical_request
        ),
        Verdict::Refused(r) => format!("refused {} {:?}", r.code.as_str(), r.span),
        Verdict::Skipped(s) => format!("skipped {:?}", s),
    }
}

fn check_verdict(frame_bytes: &[u8], verdict: &Verdict, options: &Options) {
    match verdict {
        Verdict::Call(call) => check_call(frame_bytes, call, options),
        Verdict::Refused(refusal) => {
            assert!(refusal.span.start <= refusal.span.end, "{refusal:?}");
            assert!(refusal.span.end <= frame_bytes.len(), "{refusal:?}");
            assert!(!refusal.message.is_empty());
            assert_eq!(refusal.jsonrpc_code(), refusal.code.jsonrpc_code());
        }
        Verdict::Skipped(_) => {}
    }
}

fn check_call(frame_bytes: &[u8], call: &Call, options: &Options) {
    let line = frame::request_line(frame_bytes);
    let text = std::str::from_utf8(line).unwrap_or_else(|_| panic!("a call's line is UTF-8"));
    assert_eq!(wire::check(text), Ok(()), "a call passed every wire guard");
    assert!(!call.tool.is_empty());
    assert_eq!(call.subject.length, frame_bytes.len() as u64);
    assert_eq!(call.subject.sha256, sha256_hex(frame_bytes));
    assert_eq!(call.request_sha256, sha256_hex(line));
    for pair in [
        &call.identities.committed,
        &call.identities.host,
        &call.identities.legacy,
    ] {
        assert!(is_lower_hex64(&pair.effect), "{pair:?}");
        assert!(is_lower_hex64(&pair.target), "{pair:?}");
    }
    assert_eq!(
        identity::compute(&call.inputs(&options.server)),
        call.identities,
        "identities must be a function of the canonical inputs"
    );
    let no_context = matches!(call.meta, MetaState::Absent)
        && call.request_state.is_none()
        && call.input_responses.is_none();
    if no_context {
        assert_eq!(call.identities.committed, call.identities.host);
    }
    lean_fixpoint(&call.canonical_arguments);
    for text in [
        call.meta.canonical(),
        call.request_state.as_deref(),
        call.input_responses.as_deref(),
    ]
    .into_iter()
    .flatten()
    {
        lean_fixpoint(text);
    }
    if let MetaState::Present { keys, entries, .. } = &call.meta {
        assert!(keys.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()));
        assert_eq!(keys.len(), entries.len());
    }
    match (&call.canonical_request, &call.canonical_request_sha256) {
        (Some(text), Some(digest)) => {
            assert_eq!(*digest, sha256_hex(text.as_bytes()));
            serde_json::from_str::<serde_json::Value>(text)
                .unwrap_or_else(|e| panic!("canonical_request is not JSON ({e}): {text}"));
            assert!(call.args_hash.as_deref().is_some_and(is_lower_hex64));
        }
        (None, None) => {}
        other => panic!("canonical_request and its digest disagree: {other:?}"),
    }
    let specs = ToolSpecs::parse(TOOL_SPECS).unwrap_or_else(|e| panic!("fixed specs: {e}"));
    if let Some(typed) = typed::typed_target_of_line(line, &specs) {
        let _ = typed.summary();
    }
}

fn is_lower_hex64(text: &str) -> bool {
    is_sha256_hex(text) && !text.bytes().any(|b| b.is_ascii_uppercase())
}

const TOOL_SPECS: &str = r#"{"db.execute":{"version":"v1","manifest_digest":"manifest-001"},"t":{"version":"2","manifest_digest":"d"}}"#;

// ---------------------------------------------------------------------------------------
// canonical: json::parse → lean_compress / serde_compact / lean_number

/// Deepest nesting the renderer targets parse (deeper than any guard allows).
const PARSE_DEPTH: usize = 512;

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

/// serde_json's reader refuses more nesting than this.
const SERDE_JSON_DEPTH: usize = 128;

fn depth(node: &Node<'_>) -> usize {
    match &node.value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(members) => 1 + members.iter().map(|m| depth(&m.value)).max().unwrap_or(0),
        _ => 0,
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
        json::parse(&rendered, 1).is_ok_and(|n| matches!(n.value, Value::Number(_))),
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
        Value::Number(literal) => f(literal),
        Value::Array(items) => items.iter().for_each(|item| for_each_number(item, f)),
        Value::Object(members) => members
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
        (Value::Null, S::Null) => true,
        (Value::Bool(a), S::Bool(b)) => a == b,
        (Value::Number(literal), S::Number(n)) => {
            serde_json::from_str::<serde_json::Number>(literal).is_ok_and(|m| m == *n)
        }
        (Value::String(a), S::String(b)) => a == b,
        (Value::Array(a), S::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y))
        }
        (Value::Object(members), S::Object(map)) => {
            map.iter().all(|(key, value)| {
                ours.value
                    .get(key)
                    .is_some_and(|node| same_value(node, value))
            }) && members.iter().all(|m| map.contains_key(m.key.as_ref()))
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------
// wire_guards: wire::check against slow reference definitions

/// `wire::check` never panics; on every text that parses as JSON its verdict equals the
/// first violation found by straightforward tree-walking definitions of the guards.
pub fn wire_guards(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let found = wire::check(text);
    if let Err(violation) = &found {
        assert!(violation.span.start <= violation.span.end);
        assert!(violation.span.end <= text.len(), "{violation:?}");
    }
    let Ok(node) = json::parse(text, PARSE_DEPTH) else {
        return;
    };
    let expected = reference::first_violation(text, &node);
    assert_eq!(
        found.map_err(|v| v.check),
        expected.map_or(Ok(()), Err),
        "wire::check disagrees with the reference guards"
    );
}

mod reference {
    //! Each guard written as plainly as possible over the parsed tree and the raw text.

    use super::*;
    use num_bigint::BigUint;
    use unicode_normalization::UnicodeNormalization;

    /// One violation found by a reference guard, with the byte where it occurs.
    struct Found {
        check: WireCheck,
        at: usize,
    }

    pub(super) fn first_violation(text: &str, root: &Node<'_>) -> Option<WireCheck> {
        let mut found = Vec::new();
        walk(text, root, 1, &mut found);
        // Guards in Seal's order; caps share one slot, the first in byte order wins.
        let order = |check: WireCheck| match check {
            WireCheck::ExponentDigits => 0,
            WireCheck::DuplicateKey | WireCheck::EscapedKey | WireCheck::StrayCloser => 1,
            WireCheck::CanonicalDuplicateKey => 2,
            WireCheck::SignificantDigits => 3,
            WireCheck::Binary64Disagreement => 4,
            WireCheck::LoneSurrogate => 5,
            WireCheck::NestingDepth => 6,
            WireCheck::CapDepth | WireCheck::CapStringBytes | WireCheck::CapCollectionItems => 7,
        };
        found
            .into_iter()
            .min_by_key(|f| (order(f.check), f.at))
            .map(|f| f.check)
    }

    fn walk(text: &str, node: &Node<'_>, depth: usize, found: &mut Vec<Found>) {
        let at = node.span.start;
        match &node.value {
            Value::Number(literal) => number(literal, at, found),
            Value::String(_) => string(&text[node.span.start..node.span.end], at, found),
            Value::Array(items) => {
                container(depth, at, items.len(), found);
                if items.len() > wire::MAX_JSON_COLLECTION_ITEMS {
                    // The 4097th item starts after the 4096th comma.
                    let comma = items[wire::MAX_JSON_COLLECTION_ITEMS - 1].span.end;
                    found.push(Found {
                        check: WireCheck::CapCollectionItems,
                        at: comma,
                    });
                }
                for item in items {
                    walk(text, item, depth + 1, found);
                }
            }
            Value::Object(members) => {
                container(depth, at, members.len(), found);
                if members.len() > wire::MAX_JSON_COLLECTION_ITEMS {
                    let comma = members[wire::MAX_JSON_COLLECTION_ITEMS - 1].value.span.end;
                    found.push(Found {
                        check: WireCheck::CapCollectionItems,
                        at: comma,
                    });
                }
                for (i, member) in members.iter().enumerate() {
                    let raw = &text[member.key_span.start + 1..member.key_span.end - 1];
                    let key_at = member.key_span.start;
                    if raw.contains('\\') {
                        found.push(Found {
                            check: WireCheck::EscapedKey,
                            at: key_at,
                        });
                    }
                    let earlier = members[..i]
                        .iter()
                        .map(|m| &text[m.key_span.start + 1..m.key_span.end - 1]);
                    let mut duplicate = false;
                    let mut nfd_duplicate = false;
                    let nfd: String = raw.nfd().collect();
                    for other in earlier {
                        if other == raw {
                            duplicate = true;
                        } else if other.nfd().collect::<String>() == nfd {
                            nfd_duplicate = true;
                        }
                    }
                    if duplicate {
                        found.push(Found {
                            check: WireCheck::DuplicateKey,
                            at: key_at,
                        });
                    }
                    if nfd_duplicate {
                        found.push(Found {
                            check: WireCheck::CanonicalDuplicateKey,
                            at: key_at,
                        });
                    }
                    string(
                        &text[member.key_span.start..member.key_span.end],
                        key_at,
                        found,
                    );
                    walk(text, &member.value, depth + 1, found);
                }
            }
            Value::Null | Value::Bool(_) => {}
        }
    }

    fn container(depth: usize, at: usize, _items: usize, found: &mut Vec<Found>) {
        if depth > wire::MAX_WIRE_NESTING {
            found.push(Found {
                check: WireCheck::NestingDepth,
                at,
            });
        }
        if depth > wire::MAX_JSON_DEPTH {
            found.push(Found {
                check: WireCheck::CapDepth,
                at,
            });
        }
    }

    /// A string token including its quotes.
    fn string(token: &str, at: usize, found: &mut Vec<Found>) {
        let body = &token.as_bytes()[1..token.len() - 1];
        if body.len() > wire::MAX_JSON_STRING_BYTES {
            found.push(Found {
                check: WireCheck::CapStringBytes,
                at,
            });
        }
        // UTF-16 units of the \u escapes, each with whether the next escape follows directly.
        let mut i = 0;
        let mut pending_high = false;
        while i < body.len() {
            if body[i] != b'\\' {
                if pending_high {
                    return lone(at, found);
                }
                i += 1;
                continue;
            }
            if body[i + 1] != b'u' {
                if pending_high {
                    return lone(at, found);
                }
                i += 2;
                continue;
            }
            let hex = std::str::from_utf8(&body[i + 2..i + 6]).unwrap_or("");
            let unit = u32::from_str_radix(hex, 16).unwrap_or(0);
            i += 6;
            match (pending_high, unit) {
                (true, 0xDC00..=0xDFFF) => pending_high = false,
                (true, _) => return lone(at, found),
                (false, 0xD800..=0xDBFF) => pending_high = true,
                (false, 0xDC00..=0xDFFF) => return lone(at, found),
                (false, _) => {}
            }
        }
        if pending_high {
            lone(at, found);
        }
    }

    fn lone(at: usize, found: &mut Vec<Found>) {
        found.push(Found {
            check: WireCheck::LoneSurrogate,
            at,
        });
    }

    fn number(literal: &str, at: usize, found: &mut Vec<Found>) {
        let body = literal.strip_prefix('-').unwrap_or(literal);
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        if let Some(exponent) = exponent {
            let digits = exponent.trim_start_matches(['+', '-']);
            if digits.len() > wire::MAX_EXPONENT_DIGITS {
                found.push(Found {
                    check: WireCheck::ExponentDigits,
                    at,
                });
            }
        }
        let mantissa_digits = mantissa.bytes().filter(u8::is_ascii_digit).count();
        if mantissa_digits > wire::MAX_SIGNIFICANT_DIGITS {
            found.push(Found {
                check: WireCheck::SignificantDigits,
                at,
            });
        }
        if !agrees(mantissa, exponent) {
            found.push(Found {
                check: WireCheck::Binary64Disagreement,
                at,
            });
        }
    }

    /// Guard 5 by brute force. The literal's exact value as digits × 10^exp10, with
    /// trailing zeros moved into the exponent.
    fn agrees(mantissa: &str, exponent: Option<&str>) -> bool {
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all: String = format!("{whole}{fraction}");
        let significant = all.trim_start_matches('0');
        let kept = significant.trim_end_matches('0');
        if kept.is_empty() {
            return true; // a zero
        }
        let exp: i64 = match exponent {
            None => 0,
            Some(e) => {
                let digits = e.trim_start_matches(['+', '-']).trim_start_matches('0');
                if digits.len() > 7 {
                    return false; // astronomically large or small, never a binary64 value
                }
                let magnitude: i64 = digits.parse().unwrap_or(0);
                if e.starts_with('-') {
                    -magnitude
                } else {
                    magnitude
                }
            }
        };
        let exp10 = exp - fraction.len() as i64 + (significant.len() - kept.len()) as i64;
        if exponent.is_none() && fraction.is_empty() && !mantissa.contains('.') {
            // Integer syntax: at most 16 significant digits, at most 2^53 - 1 once trailing
            // zeros are taken off, and the value exactly a binary64 value.
            if kept.len() > 16 {
                return false;
            }
            let coefficient: u64 = kept.parse().unwrap_or(u64::MAX);
            if coefficient > (1 << 53) - 1 || exp10 > 400 {
                return false;
            }
            let value = BigUint::from(coefficient) * BigUint::from(10u8).pow(exp10 as u32);
            let float: f64 = value.to_string().parse().unwrap_or(f64::INFINITY);
            return float.is_finite() && exact_integer(float) == Some(value);
        }
        if kept.len() > 17 {
            return false;
        }
        // Nearest binary64, then its shortest round-trip decimal by trying 1 to 17 digits.
        if !(-400..=400).contains(&exp10) {
            return false;
        }
        let float: f64 = format!("{kept}e{exp10}").parse().unwrap_or(f64::INFINITY);
        if !float.is_finite() || float == 0.0 {
            return false;
        }
        for digits in 1..=17usize {
            let candidate = format!("{:.*e}", digits - 1, float);
            if candidate.parse::<f64>() == Ok(float) {
                return same_decimal(&candidate, kept, exp10);
            }
        }
        false
    }

    /// `d.ddde±x` (Rust's `{:e}`) equals kept × 10^exp10.
    fn same_decimal(candidate: &str, kept: &str, exp10: i64) -> bool {
        let (mantissa, exponent) = candidate.split_once('e').unwrap_or((candidate, "0"));
        let exponent: i64 = exponent.parse().unwrap_or(0);
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{whole}{fraction}");
        let stripped = digits.trim_end_matches('0');
        let candidate_exp10 =
            exponent - fraction.len() as i64 + (digits.len() - stripped.len()) as i64;
        stripped == kept && candidate_exp10 == exp10
    }

    /// The exact integer value of an integral binary64 value.
    fn exact_integer(float: f64) -> Option<BigUint> {
        if float.fract() != 0.0 {
            return None;
        }
        if float == 0.0 {
            return Some(BigUint::from(0u8));
        }
        let bits = float.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as i64 - 1075;
        let significand = (bits & ((1 << 52) - 1)) | (1 << 52);
        Some(if exponent >= 0 {
            BigUint::from(significand) << exponent as usize
        } else {
            BigUint::from(significand >> (-exponent) as u32)
        })
    }
}

// ---------------------------------------------------------------------------------------
// v2_reader: v2::read / serialize / compress, typed requests and targets

/// The canonical V2 reader accepts exactly the serializer's output: an accepted line
/// serializes back to its own bytes, and a value built from any JSON text serializes to a
/// line the reader accepts as the same value.
pub fn v2_reader(data: &[u8]) {
    match v2::read(data) {
        Ok(value) => {
            let line = v2::serialize(&value);
            assert_eq!(
                line.as_bytes(),
                data,
                "an accepted V2 line must be canonical"
            );
            let text = std::str::from_utf8(data).unwrap_or_else(|_| panic!("accepted is ASCII"));
            let plain = json::parse(text, PARSE_DEPTH)
                .unwrap_or_else(|e| panic!("an accepted V2 line is not JSON: {e:?}"));
            match (v2::compress(&value), canonical::lean_compress(&plain)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "V2 compress and Lean compress differ"),
                (Err(_), Err(_)) => {}
                (a, b) => panic!("V2 compress {a:?} but Lean compress {b:?}"),
            }
        }
        Err(refusal) => {
            assert!(refusal.offset <= data.len(), "{refusal:?}");
            assert!(v2::RefusalCode::ALL.contains(&refusal.code));
        }
    }
    let specs = ToolSpecs::parse(TOOL_SPECS).unwrap_or_else(|e| panic!("fixed specs: {e}"));
    if let Some(typed) = typed::typed_target_of_line(data, &specs) {
        let _ = typed.summary();
        if let typed::Typed::Computed(target) = &typed {
            assert!(is_lower_hex64(&target.committed.sha256));
            assert_eq!(target.host.sha256, sha256_hex(target.host.key.as_bytes()));
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = ToolSpecs::parse(text);
        if let Ok(node) = json::parse(text, v2::MAX_DEPTH) {
            let value = to_v2(&node);
            let line = v2::serialize(&value);
            let back = v2::read(line.as_bytes())
                .unwrap_or_else(|r| panic!("serializer output refused: {r} in {line}"));
            assert_eq!(back, value, "V2 round trip changed the value");
        }
    }
}

/// A V2 value holding the same strings and structure as a parsed JSON value; numbers
/// that are not canonical V2 literals become their canonical neighbour `0`.
fn to_v2(node: &Node<'_>) -> v2::Value {
    match &node.value {
        Value::Null => v2::Value::Null,
        Value::Bool(b) => v2::Value::Bool(*b),
        Value::Number(literal) => {
            let canonical = v2::read(literal.as_bytes()).is_ok();
            v2::Value::Number(if canonical {
                (*literal).to_owned()
            } else {
                "0".into()
            })
        }
        Value::String(s) => v2::Value::String(s.to_string()),
        Value::Array(items) => v2::Value::Array(items.iter().map(to_v2).collect()),
        Value::Object(members) => {
            let mut out: Vec<(String, v2::Value)> = Vec::new();
            for member in members {
                if out.iter().all(|(k, _)| k != member.key.as_ref()) {
                    out.push((member.key.to_string(), to_v2(&member.value)));
                }
            }
            v2::Value::Object(out)
        }
    }
}

// ---------------------------------------------------------------------------------------
// envelope: parameter files, claims and the signed message

const FIXED_PARAMS: &str = r#"{"authority_hex":"abababababababababababababababababababababababababababababababab","key_id":"alice","nonce_hex":"0707070707070707070707070707070707070707070707070707070707070707","issued_at":1786000000,"expires_at":1786000300,"session":"s","policy_version":"p"}"#;

/// The input as a frame (judged line) and as a parameter file: the signed message
/// decodes back to exactly the envelope's fields, and the gates never panic.
pub fn envelope(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(params) = Params::from_json(text) {
            let _ = params.resolve(r#"{"method":"tools/call"}"#);
        }
    }
    let Some(line) = envelope::single_frame_line(data) else {
        return;
    };
    let Ok(line) = std::str::from_utf8(line) else {
        return;
    };
    let _ = envelope::host_effect(line);
    let base = Params::from_json(FIXED_PARAMS).unwrap_or_else(|e| panic!("fixed params: {e}"));
    for effect in [EffectChoice::Derive, EffectChoice::Absent] {
        let params = Params {
            effect: Some(effect),
            ..base.clone()
        };
        let Ok((authority, built)) = params.resolve(line) else {
            continue;
        };
        let message = envelope::signed_message(&authority, &built, line);
        decode::check(&message, &authority, &built, line);
        let _ = envelope::findings(&built, line);
        if data.len() >= 96 {
            let mut signature = [0u8; 64];
            signature.copy_from_slice(&data[..64]);
            let mut key = [0u8; 32];
            key.copy_from_slice(&data[64..96]);
            let _ = envelope::verify_signature(&message, &signature, &key);
        }
        if let Some(claim) = &built.effect {
            assert_eq!(
                envelope::derive_effect(line).as_ref(),
                Ok(claim),
                "the derived claim is deterministic"
            );
            v2::read(claim.args.as_bytes())
                .unwrap_or_else(|r| panic!("derived args are not canonical V2: {r}"));
        }
    }
}

mod decode {
    //! Reads a `seal.effect/v2` message back, field by field, independently of the
    //! writer.

    use super::*;
    use sealkit::envelope::Envelope;

    struct Cursor<'m> {
        bytes: &'m [u8],
    }

    impl<'m> Cursor<'m> {
        fn take(&mut self, n: usize) -> &'m [u8] {
            assert!(self.bytes.len() >= n, "message ends early");
            let (head, tail) = self.bytes.split_at(n);
            self.bytes = tail;
            head
        }

        fn u64(&mut self) -> u64 {
            let mut raw = [0u8; 8];
            raw.copy_from_slice(self.take(8));
            u64::from_be_bytes(raw)
        }

        fn framed(&mut self) -> &'m [u8] {
            let n = usize::try_from(self.u64()).unwrap_or(usize::MAX);
            self.take(n)
        }

        fn byte(&mut self) -> u8 {
            self.take(1)[0]
        }
    }

    pub(super) fn check(message: &[u8], authority: &[u8; 32], e: &Envelope, line: &str) {
        let mut c = Cursor { bytes: message };
        assert_eq!(c.take(DOMAIN_TAG.len()), DOMAIN_TAG);
        assert_eq!(c.take(32), authority);
        assert_eq!(c.framed(), e.key_id.as_bytes());
        assert_eq!(c.take(32), e.nonce);
        assert_eq!(c.u64(), e.issued_at);
        assert_eq!(c.u64(), e.expires_at);
        assert_eq!(c.framed(), line.as_bytes());
        assert_eq!(c.framed(), e.adapter_type.as_bytes());
        assert_eq!(c.framed(), e.adapter_version.as_bytes());
        assert_eq!(c.framed(), e.session.as_bytes());
        assert_eq!(c.framed(), e.policy_version.as_bytes());
        match &e.effect {
            None => assert_eq!(c.byte(), 0),
            Some(claim) => {
                assert_eq!(c.byte(), 1);
                assert_eq!(c.framed(), claim.resource.as_bytes());
                assert_eq!(c.framed(), claim.action.as_bytes());
                assert_eq!(c.framed(), claim.args.as_bytes());
                match &claim.metadata {
                    None => assert_eq!(c.byte(), 0),
                    Some(m) => {
                        assert_eq!(c.byte(), 1);
                        assert_eq!(c.framed(), m.as_bytes());
                    }
                }
                match (&claim.request_state, &claim.input_responses) {
                    (None, None) => {}
                    (Some(s), None) => {
                        assert_eq!(c.byte(), 1);
                        assert_eq!(c.framed(), s.as_bytes());
                    }
                    (None, Some(r)) => {
                        assert_eq!(c.byte(), 2);
                        assert_eq!(c.framed(), r.as_bytes());
                    }
                    (Some(s), Some(r)) => {
                        assert_eq!(c.byte(), 3);
                        assert_eq!(c.framed(), s.as_bytes());
                        assert_eq!(c.framed(), r.as_bytes());
                    }
                }
            }
        }
        assert!(c.bytes.is_empty(), "bytes after the last field");
    }
}

// ---------------------------------------------------------------------------------------
// meta_values: the W3C header grammars and the MCP key grammar of `_meta`

/// The whole input and each of its lines through every `_meta` value validator: what is
/// accepted has the shape each grammar promises.
pub fn meta_values(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for value in std::iter::once(text).chain(text.lines()) {
        if meta::check_traceparent(value).is_ok() {
            let bytes = value.as_bytes();
            assert_eq!(bytes.len(), 55, "{value}");
            assert!(value.starts_with("00-") && bytes[35] == b'-' && bytes[52] == b'-');
            assert!(value
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f' | b'-')));
        }
        if meta::check_tracestate(value).is_ok() {
            let members: Vec<&str> = value
                .split(',')
                .map(|m| m.trim_matches([' ', '\t']))
                .filter(|m| !m.is_empty())
                .collect();
            assert!(members.len() <= meta::MAX_TRACESTATE_MEMBERS);
            assert!(members.iter().all(|m| m.contains('=') && m.is_ascii()));
        }
        if meta::check_baggage(value).is_ok() {
            assert!(value.split(',').count() <= meta::MAX_BAGGAGE_MEMBERS);
            assert!(value.is_ascii(), "{value:?}");
        }
        if meta::key_warning(value).is_none() {
            assert!(value.is_ascii(), "{value:?}");
            assert!(!value.contains("//") && !value.starts_with('/'));
        }
    }
}
