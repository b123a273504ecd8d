//! The invariants every fuzz target checks: one function per target, each taking
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

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ed25519_dalek::Signer;
use sealkit::approval::binding::{freshness, Expectations, Freshness, Subject as BoundSubject};
use sealkit::approval::limits::{first_exceeded_cap, MAX_APPROVAL_LINE_BYTES};
use sealkit::approval::payload::Payload;
use sealkit::approval::report::{Checker, Signed, Status as ReportStatus};
use sealkit::approval::verify::Verdict as TokenVerdict;
use sealkit::approval::{self};
use sealkit::audit::names::{classify, is_temp, NameKind};
use sealkit::bundle::Trust;
use sealkit::canonical::{self, KeyOrder, RenderError};
use sealkit::digest::{is_sha256_hex, sha256_hex};
use sealkit::envelope::{self, EffectChoice, Params, DOMAIN_TAG};
use sealkit::finding::{Code, Severity};
use sealkit::frame::{self, FrameReader, MAX_FRAME_BYTES};
use sealkit::identity;
use sealkit::json::{self, Node, Value};
use sealkit::keys::{self, PublicKey, SecretKey};
use sealkit::meta;
use sealkit::migrate::frames::FrameIndex;
use sealkit::migrate::{diff, Change, Label, Link, Options as MigrateOptions, Presence, Record};
use sealkit::receipt::pin::Pin;
use sealkit::receipt::{
    ReadProblem, ReceiptReport, Scratch, SignatureStatus, Status as ReceiptStatus,
};
use sealkit::request::{self, Call, EraMode, MetaState, Options, Session, Verdict};
use sealkit::signature::GROUP_ORDER;
use sealkit::tokenfile::{Batch, LineReader};
use sealkit::typed::{self, ToolSpecs};
use sealkit::v2;
use sealkit::wire::{self, WireCheck};
use sha2::{Digest, Sha256};
use std::sync::OnceLock;

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
    ("approval_token", approval_token),
    ("approval_verify", approval_verify),
    ("receipt", receipt),
    ("chain", chain),
    ("migration_record", migration_record),
    ("bundle", bundle),
    ("audit_names", audit_names),
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

// =======================================================================================
// Phase 2: approvals, receipts, chains, migration outputs, bundles, directory names.
// The fixtures below are the throwaway keys and signed artifacts of testdata/, compiled in
// so that the checks need no files at run time.

/// 64 lowercase hex digits (written independently of `digest::is_sha256_hex`).
fn lower_hex64(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A number in `0..n` picked by the input bytes and a salt, so that one input drives
/// several independent choices deterministically (FNV-1a).
fn pick(data: &[u8], salt: u64, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let mut hash = 0xcbf2_9ce4_8422_2325u64 ^ salt;
    for &b in data {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (hash % n as u64) as usize
}

/// The first `n` lines of a text, as `str::lines` splits it.
fn first_lines(text: &str, n: usize) -> impl Iterator<Item = &str> {
    text.lines().take(n)
}

// ---------------------------------------------------------------------------------------
// approval_token: token files, the ApprovalRecord v2 payload and its canonical rendering

/// The approval key of every fixture token: seed 0x17 repeated (testdata/approvals).
const APPROVAL_SEED: [u8; 32] = [0x17; 32];

fn approval_key() -> &'static SecretKey {
    static KEY: OnceLock<SecretKey> = OnceLock::new();
    KEY.get_or_init(|| SecretKey::from_seed(&APPROVAL_SEED))
}

/// A key that is not the approval key but claims its key id: only the signature can tell
/// them apart.
fn impostor_key() -> &'static PublicKey {
    static KEY: OnceLock<PublicKey> = OnceLock::new();
    KEY.get_or_init(|| {
        let other = SecretKey::from_seed(&[0x18; 32]).public;
        PublicKey {
            key_id: approval_key().public.key_id.clone(),
            ..other
        }
    })
}

/// Lines of the token file, rebuilt by a reference splitter (LF ends a line, one CR before
/// it is dropped, a last line without LF is still a line); then each line (up to eight) and
/// the whole input as payload text and as a token line.
pub fn approval_token(data: &[u8]) {
    token_file_lines(data);
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for candidate in std::iter::once(text).chain(first_lines(text, 8)) {
        payload_round_trip(candidate);
        signed_payload(candidate);
        for key in [&approval_key().public, impostor_key()] {
            let verdict = approval::verify::verify_line(candidate, key);
            check_token_verdict(&verdict);
            if std::ptr::eq(key, impostor_key()) {
                assert!(
                    matches!(verdict, TokenVerdict::Rejected(_)),
                    "a line verified under a key that did not sign it: {candidate}"
                );
            }
        }
    }
}

fn token_file_lines(data: &[u8]) {
    let mut reader = LineReader::new(data);
    let mut batch = Batch::default();
    let mut ours: Vec<(u64, Vec<u8>)> = Vec::new();
    loop {
        reader
            .next_batch(&mut batch, 3)
            .unwrap_or_else(|e| panic!("in-memory read: {e}"));
        if batch.lines.is_empty() {
            break;
        }
        for line in &batch.lines {
            ours.push((line.number, batch.line(line).to_vec()));
        }
    }
    assert_eq!(reader.total_bytes(), data.len() as u64);
    let mut pieces: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if pieces.last().is_some_and(|p| p.is_empty()) {
        pieces.pop();
    }
    let terminated = pieces
        .len()
        .saturating_sub(usize::from(!data.ends_with(b"\n")));
    let expected: Vec<(u64, Vec<u8>)> = pieces
        .iter()
        .enumerate()
        .map(|(i, piece)| {
            let piece = match piece.strip_suffix(b"\r") {
                Some(stripped) if i < terminated => stripped,
                _ => piece,
            };
            (i as u64 + 1, piece.to_vec())
        })
        .collect();
    assert_eq!(
        ours, expected,
        "token file lines differ from the reference split"
    );
    if let Ok(text) = std::str::from_utf8(data) {
        let std_lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
        let our_lines: Vec<&[u8]> = ours.iter().map(|(_, l)| l.as_slice()).collect();
        assert_eq!(
            our_lines, std_lines,
            "token file lines differ from str::lines"
        );
    }
}

/// A payload that parses and validates renders to canonical bytes that parse back to the
/// same payload, render to themselves, equal an independent rendering, and are the only
/// text `is_canonical_text` accepts.
fn payload_round_trip(text: &str) {
    let Ok(payload) = Payload::parse(text) else {
        return;
    };
    if payload.validate().is_err() {
        return;
    }
    let bytes = payload
        .canonical_bytes()
        .unwrap_or_else(|e| panic!("a validated payload does not render: {e}"));
    let rendered =
        std::str::from_utf8(&bytes).unwrap_or_else(|_| panic!("canonical text is UTF-8"));
    let again = Payload::parse(rendered)
        .unwrap_or_else(|e| panic!("canonical text does not parse back ({e}): {rendered}"));
    assert_eq!(again, payload, "canonical text parses to another payload");
    assert_eq!(
        again.canonical_bytes().ok().as_deref(),
        Some(bytes.as_slice())
    );
    let value = serde_json::to_value(&payload).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        reference_canonical(&value).as_deref(),
        Some(rendered),
        "the canonical renderer disagrees with the reference rendering"
    );
    assert_eq!(payload.is_canonical_text(&bytes), Ok(true));
    assert_eq!(
        payload.is_canonical_text(text.as_bytes()),
        Ok(text.as_bytes() == bytes.as_slice()),
        "is_canonical_text accepts a text that is not the rendering"
    );
}

/// docs/formats.md (the payload) written out plainly: members sorted by key bytes, integers up to
/// 2^53-1 as digits, strings escaping `"`, `\` and U+0000–U+001F (as `\u00xx`) only.
fn reference_canonical(value: &serde_json::Value) -> Option<String> {
    use serde_json::Value as S;
    Some(match value {
        S::Number(n) => {
            let n = n.as_u64().filter(|n| *n <= 9_007_199_254_740_991)?;
            n.to_string()
        }
        S::String(s) => {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }
        S::Object(map) => {
            let mut members: Vec<(&String, &S)> = map.iter().collect();
            members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            let mut out = String::from("{");
            for (i, (key, value)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&reference_canonical(&S::String(key.clone()))?);
                out.push(':');
                out.push_str(&reference_canonical(value)?);
            }
            out.push('}');
            out
        }
        _ => return None,
    })
}

/// The token line seal-host's producers write for a payload text, signed by the fixture
/// approval key (or with another signature text).
fn token_line(payload: &str, signature: &str) -> String {
    let key_id = &approval_key().public.key_id;
    format!(
        "{{\"payload\":{},\"signature_algorithm\":\"Ed25519\",\"signature_encoding\":\"base64url-nopad\",\"signer_key_id\":\"{key_id}\",\"signature\":\"{signature}\"}}",
        serde_json::Value::String(payload.to_owned())
    )
}

fn sign_payload(payload: &str) -> [u8; 64] {
    let preimage = approval::preimage(payload.as_bytes());
    approval_key().signing.sign(&preimage).to_bytes()
}

/// The input as payload text, signed with the right key: seal-host accepts the line exactly
/// when the payload parses, validates, names the signing key and algorithm, and is its own
/// canonical rendering (reference decision below); then padding, surrounding whitespace and
/// a second use of the nonce are refused with their reasons.
fn signed_payload(text: &str) {
    let signature = sign_payload(text);
    let encoded = URL_SAFE_NO_PAD.encode(signature);
    let line = token_line(text, &encoded);
    let parsed = Payload::parse(text).ok();
    let within_caps = line.len() <= MAX_APPROVAL_LINE_BYTES
        && first_exceeded_cap(line.as_bytes()).is_none()
        && first_exceeded_cap(text.as_bytes()).is_none();
    let expected = parsed.as_ref().filter(|p| {
        within_caps
            && p.validate().is_ok()
            && p.authorization_signer_key_id == approval_key().public.key_id
            && p.authorization_signature_algorithm == "Ed25519"
            && serde_json::to_value(p)
                .ok()
                .and_then(|v| reference_canonical(&v))
                .is_some_and(|c| c == text)
    });
    let verdict = approval::verify::verify_line(&line, &approval_key().public);
    check_token_verdict(&verdict);
    match (&verdict, expected) {
        (TokenVerdict::Approval(approval), Some(payload)) => {
            assert_eq!(&approval.payload, payload)
        }
        (TokenVerdict::Rejected(_), None) => return,
        (verdict, expected) => panic!(
            "verdict {verdict:?} where the reference {} the signed line",
            if expected.is_some() {
                "accepts"
            } else {
                "refuses"
            }
        ),
    }
    // Accepted: only the exact line, its CRLF-terminated form in a file, and inner JSON
    // whitespace (not signed, as in seal-host) are accepted.
    let refused_with = |variant: &str, reason: &str| match approval::verify::verify_line(
        variant,
        &approval_key().public,
    ) {
        TokenVerdict::Rejected(r) => assert_eq!(r.reason.code(), reason, "{variant}"),
        other => panic!("{reason} expected for {variant}: {other:?}"),
    };
    for variant in [
        format!(" {line}"),
        format!("{line} "),
        format!("\t{line}"),
        format!("{line}\r"),
    ] {
        refused_with(&variant, "approval_v2_surrounding_whitespace");
    }
    // Whitespace that is not JSON whitespace fails the host's first parse.
    refused_with(&format!("{line}\u{a0}"), "parse_error");
    for padded in [format!("{encoded}="), format!("{encoded}==")] {
        refused_with(
            &token_line(text, &padded),
            "approval_v2_bad_signature_encoding",
        );
    }
    let spaced = line.replacen("\",\"signature\":", "\" , \"signature\" :", 1);
    assert!(matches!(
        approval::verify::verify_line(&spaced, &approval_key().public),
        TokenVerdict::Approval(_)
    ));
    let file = format!("{line}\r\n\n{spaced}\r\n");
    let key = &approval_key().public;
    let mut checker = Checker::new(key, Expectations::default());
    let mut reader = LineReader::new(file.as_bytes());
    let mut batch = Batch::default();
    reader
        .next_batch(&mut batch, 16)
        .unwrap_or_else(|e| panic!("{e}"));
    let reports = checker.check_batch(&batch);
    assert_eq!(reports.len(), 2, "the blank line is skipped");
    assert_eq!(reports[0].status, ReportStatus::Accepted);
    assert_eq!(reports[1].status, ReportStatus::Rejected);
    assert_eq!(reports[1].reason.as_deref(), Some("replayed_nonce"));
}

// ---------------------------------------------------------------------------------------
// approval_verify: the verifier on (mutated) fixture tokens, binding and key files

/// Every reason code seal-host logs for a token line (docs/approvals.md),
/// written out here rather than taken from `Reason::ALL`.
const HOST_REASONS: &[&str] = &[
    "token_file_bytes_exceeded",
    "token_file_not_utf8",
    "approval_line_bytes_exceeded",
    "approval_json_depth_exceeded",
    "approval_json_string_bytes_exceeded",
    "approval_json_collection_items_exceeded",
    "parse_error",
    "approval_payload_bytes_exceeded",
    "approval_payload_json_depth_exceeded",
    "approval_payload_json_string_bytes_exceeded",
    "approval_payload_json_collection_items_exceeded",
    "unsupported_approval_record_version",
    "approval_v2_surrounding_whitespace",
    "approval_v2_token_parse_error",
    "approval_v2_bad_signature_algorithm",
    "approval_v2_bad_signature_encoding",
    "approval_v2_wrong_signer_key_id",
    "approval_v2_payload_parse_error",
    "approval_v2_payload_validation_error",
    "approval_v2_signer_key_id_mismatch",
    "approval_v2_signature_algorithm_mismatch",
    "approval_v2_canonicalization_error",
    "approval_v2_payload_not_canonical",
    "non_canonical_signature_scalar",
    "bad_signature",
    "missing_required_field",
    "approval_record_v1_not_supported",
    "target_or_subject_mismatch",
    "expired",
    "future_issued_at",
    "replayed_nonce",
];

/// Codes no token line can reach in seal-host's order (docs-approvals.md lists them).
const UNREACHABLE_REASONS: &[&str] = &[
    "approval_json_string_bytes_exceeded",
    "approval_payload_bytes_exceeded",
    "approval_payload_json_string_bytes_exceeded",
    "approval_v2_signature_algorithm_mismatch",
    "approval_v2_canonicalization_error",
];

fn documented_reason(code: &str) -> bool {
    HOST_REASONS.contains(&code) || code.starts_with("unknown_decision:")
}

/// A verdict's reason is one seal-host logs, reachable, with its source and a record id of
/// seal-host's shape.
fn check_token_verdict(verdict: &TokenVerdict) {
    let TokenVerdict::Rejected(rejection) = verdict else {
        return;
    };
    let code = rejection.reason.code();
    assert!(documented_reason(&code), "undocumented reason {code}");
    assert!(
        !UNREACHABLE_REASONS.contains(&code.as_ref()),
        "reason {code} is documented as unreachable"
    );
    assert!(
        ["ed25519-token", "approval-v2-context", "a3"].contains(&rejection.reason.host_source())
    );
    let id = &rejection.host_record_id;
    assert!(
        id.len() == 23
            && id.starts_with("sha256:")
            && id[7..]
                .bytes()
                .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
        "record id {id}"
    );
}

/// Signed fixture lines: the ApprovalRecord v2 tokens of testdata/approvals and one
/// signed decline made with the same key.
fn fixture_tokens() -> &'static [String] {
    static LINES: OnceLock<Vec<String>> = OnceLock::new();
    LINES.get_or_init(|| {
        let files = [
            include_str!("../../testdata/approvals/approve-cli-getting-started.token.ndjson"),
            include_str!("../../testdata/approvals/fixture-run-allow.token.ndjson"),
            include_str!("../../testdata/approvals/rust-unit-row40.token.ndjson"),
            include_str!("../../testdata/approvals/legacy-vs-current/new/approvals-L.ndjson"),
            include_str!("../../testdata/approvals/legacy-vs-current/new/approvals-M.ndjson"),
            include_str!("../../testdata/approvals/legacy-vs-current/old/approvals-L.ndjson"),
            include_str!("../../testdata/approvals/legacy-vs-current/old/approvals-M.ndjson"),
        ];
        let mut lines: Vec<String> = files
            .iter()
            .flat_map(|f| f.lines())
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect();
        lines.push(
            approval::sign::sign_decline(
                approval_key(),
                FIXTURE_TARGET,
                1_786_000_000_000,
                "decline-1",
            )
            .unwrap_or_else(|e| panic!("{e}")),
        );
        lines
    })
}

/// The challenged target of the getting-started frame (testdata/approvals/PROVENANCE.md).
const FIXTURE_TARGET: &str = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";
const FIXTURE_FRAME: &[u8] = include_bytes!("../../testdata/approvals/getting-started-call.frame");

/// What a token's signature covers, read by serde_json as seal-host reads it: the payload
/// text and the decoded signature bytes.
fn signed_content(line: &str) -> Option<(String, Vec<u8>)> {
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    let payload = value.get("payload")?.as_str()?.to_owned();
    let signature = value.get("signature")?.as_str()?;
    let bytes = URL_SAFE_NO_PAD
        .decode(signature)
        .ok()
        .or_else(|| sealkit::digest::hex_decode(signature))?;
    Some((payload, bytes))
}

fn fixture_signed_contents() -> &'static [(String, Vec<u8>)] {
    static CONTENTS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    CONTENTS.get_or_init(|| {
        fixture_tokens()
            .iter()
            .map(|line| signed_content(line).unwrap_or_else(|| panic!("fixture {line}")))
            .collect()
    })
}

/// Lines (up to eight) of the input through the verifier with the fixture key: whatever is
/// accepted carries exactly a fixture's signed content; an accepted line stops verifying
/// when cut, when one of its bytes changes its signed content, or when its signature scalar
/// is replaced by S + L; reasons are always documented ones. Then the whole input as a
/// token file bound to the fixture frame and target, key files, and A3 freshness against
/// a reference.
pub fn approval_verify(data: &[u8]) {
    let key = &approval_key().public;
    if let Ok(text) = std::str::from_utf8(data) {
        for line in first_lines(text, 8) {
            let verdict = approval::verify::verify_line(line, key);
            check_token_verdict(&verdict);
            if matches!(verdict, TokenVerdict::Rejected(_)) {
                continue;
            }
            let content = signed_content(line)
                .unwrap_or_else(|| panic!("an accepted line has no signed content: {line}"));
            assert!(
                fixture_signed_contents().contains(&content),
                "accepted a token whose signed content no fixture carries: {line}"
            );
            mutations_of_an_accepted_line(data, line, &content);
        }
    }
    token_file_report(data);
    key_text(data);
    freshness_reference(data);
}

fn mutations_of_an_accepted_line(data: &[u8], line: &str, content: &(String, Vec<u8>)) {
    let key = &approval_key().public;
    let accepted = |text: &str| {
        !matches!(
            approval::verify::verify_line(text, key),
            TokenVerdict::Rejected(_)
        )
    };
    let bytes = line.as_bytes();
    let cut = pick(data, 1, bytes.len());
    if let Ok(prefix) = std::str::from_utf8(&bytes[..cut]) {
        assert!(!accepted(prefix), "a cut token line verifies: {prefix}");
    }
    let at = pick(data, 2, bytes.len());
    let mask = 1u8 << pick(data, 3, 8);
    let mut flipped = bytes.to_vec();
    flipped[at] ^= mask;
    if let Ok(text) = std::str::from_utf8(&flipped) {
        if accepted(text) {
            assert_eq!(
                signed_content(text).as_ref(),
                Some(content),
                "byte {at} ^ {mask:#04x} changed the signed content and still verifies"
            );
        }
    }
    // S + L: the same signature point with a non-canonical scalar.
    let (_, signature) = content;
    if signature.len() == 64 && line.contains("\"signature_algorithm\"") {
        let mut high = signature.clone();
        let mut carry = 0u16;
        for (byte, l) in high[32..].iter_mut().zip(GROUP_ORDER) {
            let sum = u16::from(*byte) + u16::from(l) + carry;
            *byte = sum as u8;
            carry = sum >> 8;
        }
        let original = URL_SAFE_NO_PAD.encode(signature);
        let replaced = line.replacen(&original, &URL_SAFE_NO_PAD.encode(&high), 1);
        if replaced != line {
            match approval::verify::verify_line(&replaced, key) {
                TokenVerdict::Rejected(r) => {
                    assert_eq!(r.reason.code(), "non_canonical_signature_scalar")
                }
                other => panic!("S + L verifies: {other:?}"),
            }
        }
    }
}

/// The input as a token file, bound to the fixture frame, target and a fixed time: every
/// report is accepted exactly when it carries signed fields and no reason, reasons are
/// documented, and reports serialize.
fn token_file_report(data: &[u8]) {
    let key = &approval_key().public;
    let expected = Expectations {
        subject: Some(BoundSubject::of(FIXTURE_FRAME)),
        target: Some(FIXTURE_TARGET.to_owned()),
        now_ms: Some(1_786_000_060_000),
        ttl_ms: 120_000,
    };
    let mut checker = Checker::new(key, expected);
    let mut reader = LineReader::new(data);
    let mut batch = Batch::default();
    let mut accepted_nonces = std::collections::HashSet::new();
    loop {
        reader
            .next_batch(&mut batch, 4)
            .unwrap_or_else(|e| panic!("{e}"));
        if batch.lines.is_empty() {
            break;
        }
        for report in checker.check_batch(&batch) {
            serde_json::to_string(&report).unwrap_or_else(|e| panic!("report: {e}"));
            match report.status {
                ReportStatus::Accepted => {
                    assert!(report.reason.is_none() && report.reported.is_none());
                    assert!(report.binding.first_failure().is_none());
                    match &report.signed {
                        Some(Signed::Approval(a)) => {
                            assert_eq!(a.target, FIXTURE_TARGET);
                            assert!(accepted_nonces.insert(a.nonce.clone()), "nonce reused");
                        }
                        Some(Signed::Decline(d)) => assert_eq!(d.target, FIXTURE_TARGET),
                        None => panic!("accepted without signed fields"),
                    }
                }
                ReportStatus::Rejected => {
                    let reason = report
                        .reason
                        .as_deref()
                        .unwrap_or_else(|| panic!("no reason"));
                    assert!(documented_reason(reason), "undocumented reason {reason}");
                    assert!(report.signed.is_none() || report.reported.is_none());
                }
            }
        }
    }
}

/// Key file text: accepted exactly when it is 64 hex digits and an optional LF or CRLF;
/// the key id is the SHA-256 of the key bytes.
fn key_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let digits = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text);
    let well_formed = digits.len() == 64 && digits.bytes().all(|b| b.is_ascii_hexdigit());
    match keys::parse_key_text(text, "fuzz") {
        Ok(bytes) => {
            assert!(well_formed, "accepted key text {text:?}");
            assert_eq!(
                sealkit::digest::hex_lower(&bytes),
                digits.to_ascii_lowercase()
            );
            if let Ok(key) = PublicKey::from_bytes(&bytes) {
                assert_eq!(key.key_id, sha256_hex(&bytes));
                assert_eq!(key.hex, digits.to_ascii_lowercase());
            }
        }
        Err(_) => assert!(!well_formed, "refused key text {text:?}"),
    }
}

/// A3 freshness against the host's rules written with wide integers.
fn freshness_reference(data: &[u8]) {
    if data.len() < 32 {
        return;
    }
    let word = |i: usize| {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(&data[i * 8..i * 8 + 8]);
        u64::from_le_bytes(raw)
    };
    let (authorized_at, expiry, now, ttl) = (word(0), word(1), word(2), word(3));
    let (a, e, n, t) = (
        u128::from(authorized_at),
        u128::from(expiry),
        u128::from(now),
        u128::from(ttl),
    );
    let expected = if n > e {
        Freshness::PastExpiry
    } else if a > n + 5_000 {
        Freshness::FutureIssuedAt
    } else if n > a && n - a > t {
        Freshness::PastTtl
    } else {
        Freshness::Fresh
    };
    assert_eq!(freshness(authorized_at, expiry, now, ttl), expected);
}

// ---------------------------------------------------------------------------------------
// receipt: the receipt reader and verifier on (mutated) fixture receipts

/// The public keys of the two receipt-signing seeds in testdata/receipts.
const RECEIPT_KEYS: [&str; 2] = [
    "3e249cf1656c5e8c9e4e863766145dbfbef6ebe55f62490b63fe6898ac0d6fa4",
    "bb336a2b50b912e2e0f054f8932eae5ea333f076735fa33655e906ef3302af6d",
];
const RECEIPT_SEEDS: [&[u8]; 2] = [
    include_bytes!(
        "../../testdata/receipts/legacy-vs-current/new/receipts/.seal-receipt-ed25519.key"
    ),
    include_bytes!("../../testdata/receipts/fixture-dir/.seal-receipt-ed25519.key"),
];

macro_rules! receipts {
    ($dir:literal: $($hash:literal),* $(,)?) => {
        [$(include_bytes!(concat!("../../testdata/receipts/", $dir, "/receipt-", $hash, ".json")).as_slice()),*]
    };
}

/// Every signed (record_version 3) fixture receipt.
const SIGNED_RECEIPTS: [&[u8]; 15] = {
    let new = receipts!("legacy-vs-current/new/receipts":
        "00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29",
        "00000000000000000000-66c0a42e1ddc967685057dba1483943b85b11b6348f8b3881a76b31fe4ed6694",
        "00000000000000000001-120d377234da4be343ce9be68bdb03ac0002724f693c465b75b5812b46344918",
        "00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
        "00000000000000000002-120d377234da4be343ce9be68bdb03ac0002724f693c465b75b5812b46344918",
        "00000000000000000002-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
        "00000000000000000003-471f4bad0480adddf6f79b515277613b5ac4735bfeb7e098a4ccb0718b5c26dc",
        "00000000000000000003-fbf2ff479c278ef79666dbaedfd8c078391d172d5a15f47d9c7e58b198c271e0",
        "00000000000000000004-16c05a919829fd917f6e506a4b7fd5782444c8872e451d1efd8b16e9e5695a40",
        "00000000000000000004-a6e43f544e76d609185c1aafc6734ed363b7d146cc64abe8b86b99f5562ead31",
        "00000000000000000005-16c05a919829fd917f6e506a4b7fd5782444c8872e451d1efd8b16e9e5695a40",
        "00000000000000000006-002adba72104f7b771b53bbdb8a8b612b0f477001f1de0d8ad89c220adf910c0",
        "00000000000000000007-002adba72104f7b771b53bbdb8a8b612b0f477001f1de0d8ad89c220adf910c0",
    );
    let dir = receipts!("fixture-dir":
        "00000000000000000000-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
        "00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
    );
    [
        new[0], new[1], new[2], new[3], new[4], new[5], new[6], new[7], new[8], new[9], new[10],
        new[11], new[12], dir[0], dir[1],
    ]
};

/// Two unsigned (record_version 2) fixture receipts.
const UNSIGNED_RECEIPTS: [&[u8]; 2] = receipts!("legacy-vs-current/old/receipts":
    "00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
    "00000000000000000008-672dbedb52b41ef6f733483e4a32d161be2f9672fef33581843e5057213af390",
);

fn receipt_pins() -> &'static [Pin; 2] {
    static PINS: OnceLock<[Pin; 2]> = OnceLock::new();
    PINS.get_or_init(|| {
        RECEIPT_KEYS.map(|hex| {
            sealkit::receipt::pin::load(hex).unwrap_or_else(|e| panic!("fixture key: {e}"))
        })
    })
}

/// What a receipt's signature covers, computed plainly: the receipt without `signature`,
/// serde_json compact in stored order (seal-host signs this only when `signature` is last,
/// which an accepted receipt needs), and the signature block itself.
fn receipt_signed_content(
    map: &serde_json::Map<String, serde_json::Value>,
) -> Option<(Vec<u8>, serde_json::Value)> {
    let signature = map.get("signature")?.clone();
    let rest: serde_json::Map<String, serde_json::Value> = map
        .iter()
        .filter(|(k, _)| *k != "signature")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some((serde_json::to_vec(&rest).ok()?, signature))
}

fn fixture_receipt_maps() -> &'static [serde_json::Map<String, serde_json::Value>] {
    static MAPS: OnceLock<Vec<serde_json::Map<String, serde_json::Value>>> = OnceLock::new();
    MAPS.get_or_init(|| {
        SIGNED_RECEIPTS
            .iter()
            .chain(UNSIGNED_RECEIPTS.iter())
            .map(|bytes| sealkit::receipt::parse(bytes).unwrap_or_else(|e| panic!("{}", e.message)))
            .collect()
    })
}

fn fixture_receipt_contents() -> &'static [(Vec<u8>, serde_json::Value)] {
    static CONTENTS: OnceLock<Vec<(Vec<u8>, serde_json::Value)>> = OnceLock::new();
    CONTENTS.get_or_init(|| {
        fixture_receipt_maps()[..SIGNED_RECEIPTS.len()]
            .iter()
            .filter_map(receipt_signed_content)
            .collect()
    })
}

thread_local! {
    /// A scratch that has verified every fixture, as an audit's worker scratch has verified
    /// earlier receipts: its caches must never change a verdict.
    static WARM: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
}

fn with_warm_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    WARM.with(|cell| {
        let mut slot = cell.borrow_mut();
        let scratch = slot.get_or_insert_with(|| {
            let mut scratch = Scratch::default();
            for bytes in SIGNED_RECEIPTS.iter().chain(UNSIGNED_RECEIPTS.iter()) {
                let _ =
                    sealkit::receipt::verify_bytes(bytes, Some(&receipt_pins()[0]), &mut scratch);
            }
            scratch
        });
        f(scratch)
    })
}

/// The input as a receipt file, unpinned and under each fixture key, with a fresh and a
/// warm scratch; then as a value replacing one member of a fixture receipt, as is and
/// re-signed; then, when it is a record_version 3 receipt, re-signed with the fixture seed
/// so that the content checks run behind a valid signature.
pub fn receipt(data: &[u8]) {
    let pins = receipt_pins();
    for pin in [None, Some(&pins[0]), Some(&pins[1])] {
        let result = sealkit::receipt::verify_bytes(data, pin, &mut Scratch::default());
        check_receipt_result(data, &result, pin);
        if pin.is_some_and(|p| std::ptr::eq(p, &pins[0])) {
            let warm = with_warm_scratch(|s| sealkit::receipt::verify_bytes(data, pin, s));
            assert_eq!(result, warm, "a warm scratch changed the verdict");
        }
    }
    member_replaced(data);
    resigned_member_replaced(data);
    resigned(data);
}

fn check_receipt_result(
    data: &[u8],
    result: &Result<ReceiptReport, ReadProblem>,
    pin: Option<&Pin>,
) {
    let report = match result {
        // A member name written twice, in the file or a JSON text it carries, is refused
        // whatever else the file holds; the one reader must really see the repeat.
        Err(problem) if problem.code == Code::DuplicateMember => {
            let text = std::str::from_utf8(data)
                .unwrap_or_else(|_| panic!("a refused repeat is in UTF-8 text"));
            let carried = problem.message.contains(": member \"");
            assert!(
                carried || matches!(sealkit::json::find_duplicate(text), Ok(Some(_))),
                "duplicate-member without a repeat: {}",
                problem.message
            );
            return;
        }
        Err(problem) => {
            assert!(
                matches!(
                    problem.code,
                    Code::NotUtf8 | Code::TruncatedJson | Code::InvalidJson
                ),
                "read problem {}",
                problem.code
            );
            let object = std::str::from_utf8(data)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok())
                .is_some_and(|v| v.is_object());
            assert!(!object, "a JSON object was refused as unreadable");
            return;
        }
        Ok(report) => report,
    };
    serde_json::to_string(report).unwrap_or_else(|e| panic!("report: {e}"));
    let errors: Vec<Code> = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.code)
        .collect();
    for finding in &report.findings {
        assert!(Code::ALL.contains(&finding.code));
        let code = finding.code.as_str();
        assert!(
            code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{code}"
        );
    }
    let content_error = errors
        .iter()
        .any(|c| !matches!(c, Code::SignerUnpinned | Code::UnsignedReceipt));
    match report.status {
        ReceiptStatus::Authenticated => {
            assert!(pin.is_some() && report.signature.status == SignatureStatus::Verified);
            assert!(errors.is_empty(), "authenticated with errors {errors:?}");
            assert_eq!(report.record_version, Some(3));
        }
        ReceiptStatus::Unpinned => {
            assert!(pin.is_none() && report.signature.status == SignatureStatus::SignerUnpinned);
            assert!(!content_error, "unpinned with errors {errors:?}");
        }
        ReceiptStatus::Unsigned => {
            assert_ne!(report.record_version, Some(3));
            assert!(!content_error, "unsigned with errors {errors:?}");
        }
        ReceiptStatus::Failed => assert!(
            content_error
                || matches!(
                    report.signature.status,
                    SignatureStatus::Invalid | SignatureStatus::SignerMismatch
                ),
            "failed without a reason"
        ),
    }
    if matches!(
        report.status,
        ReceiptStatus::Authenticated | ReceiptStatus::Unpinned
    ) {
        let map = sealkit::receipt::parse(data).unwrap_or_else(|e| panic!("{}", e.message));
        let content = receipt_signed_content(&map);
        assert!(
            content.is_some_and(|c| fixture_receipt_contents().contains(&c)),
            "a receipt whose signed content no fixture carries verified"
        );
    }
}

/// One member of a fixture receipt replaced by the input's JSON value: unless the value is
/// the same, the receipt is never authenticated nor valid under its own key, whatever the
/// value's type.
fn member_replaced(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let maps = fixture_receipt_maps();
    let index = pick(data, 10, maps.len());
    let mut map = maps[index].clone();
    let Some(name) = map.keys().nth(pick(data, 11, map.len())).cloned() else {
        return;
    };
    if map.get(&name) == Some(&value) {
        return;
    }
    map.insert(name.clone(), value);
    let bytes = sealkit::receipt::lock::to_file_bytes(&map);
    let pins = receipt_pins();
    for pin in [None, Some(&pins[0]), Some(&pins[1])] {
        let result = sealkit::receipt::verify_bytes(&bytes, pin, &mut Scratch::default());
        check_receipt_result(&bytes, &result, pin);
        let report =
            result.unwrap_or_else(|e| panic!("a pretty receipt is unreadable: {}", e.message));
        assert!(
            !matches!(
                report.status,
                ReceiptStatus::Authenticated | ReceiptStatus::Unpinned
            ),
            "receipt {index} with {name} replaced still verifies"
        );
    }
}

/// Members whose whole value sealkit recomputes from object A, the audit line, the
/// certificates or the signed config: no other value is ever authenticated. The others
/// (the producer's claims about its binaries and provenance, the pending approvals it held,
/// its clock) are reported: any value of seal-host's type may be authenticated there.
const RECOMPUTED: [&str; 18] = [
    "record_type",
    "record_version",
    "tool",
    "arguments",
    "args_hash",
    "canonical_request",
    "canonical_request_sha256",
    "request_sha256",
    "framed_subject_sha256",
    "framed_subject_length",
    "bypass",
    "verdict",
    "authorization",
    "reason",
    "deny_kernel",
    "certs",
    "kernel_config",
    "release_status",
];

fn json_type(value: &serde_json::Value) -> u8 {
    use serde_json::Value as S;
    match value {
        S::Null => 0,
        S::Bool(_) => 1,
        S::Number(_) => 2,
        S::String(_) => 3,
        S::Array(_) => 4,
        S::Object(_) => 5,
    }
}

/// One member of a signed fixture receipt replaced by the input's JSON value (or removed),
/// then the receipt re-signed by its own key, so that only the content checks stand
/// between it and "authenticated": a recomputed member never authenticates with another
/// value, and no member authenticates with a value of another JSON type or when it is
/// removed (seal-host writes every member it writes with one type).
fn resigned_member_replaced(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let index = pick(data, 13, SIGNED_RECEIPTS.len());
    let mut map = fixture_receipt_maps()[index].clone();
    let Some(name) = map
        .keys()
        .filter(|k| *k != "signature")
        .nth(pick(data, 14, map.len() - 1))
        .cloned()
    else {
        return;
    };
    let old = map[&name].clone();
    let removed = pick(data, 15, 8) == 0;
    let what = if removed {
        map.shift_remove(&name);
        "removed".to_owned()
    } else {
        let bound = RECOMPUTED.contains(&name.as_str()) || json_type(&old) != json_type(&value);
        if old == value || !bound {
            return;
        }
        map.insert(name.clone(), value);
        "replaced".to_owned()
    };
    let key = usize::from(index >= 13);
    let seed: [u8; 32] = RECEIPT_SEEDS[key]
        .try_into()
        .unwrap_or_else(|_| panic!("fixture seeds are 32 bytes"));
    if sealkit::receipt::lock::sign(&mut map, &seed).is_err() {
        return;
    }
    let bytes = sealkit::receipt::lock::to_file_bytes(&map);
    let pin = &receipt_pins()[key];
    let report = sealkit::receipt::verify_bytes(&bytes, Some(pin), &mut Scratch::default())
        .unwrap_or_else(|e| panic!("a pretty receipt is unreadable: {}", e.message));
    assert_ne!(
        report.status,
        ReceiptStatus::Authenticated,
        "receipt {index} re-signed with {name} {what} is authenticated"
    );
}

fn resigned(data: &[u8]) {
    let Ok(mut map) = sealkit::receipt::parse(data) else {
        return;
    };
    if map
        .get("record_version")
        .and_then(serde_json::Value::as_u64)
        != Some(3)
    {
        return;
    }
    let seed: [u8; 32] = RECEIPT_SEEDS[pick(data, 12, 2)]
        .try_into()
        .unwrap_or_else(|_| panic!("fixture seeds are 32 bytes"));
    if sealkit::receipt::lock::sign(&mut map, &seed).is_err() {
        return;
    }
    let bytes = sealkit::receipt::lock::to_file_bytes(&map);
    let pin = &receipt_pins()[pick(data, 12, 2)];
    let result = sealkit::receipt::verify_bytes(&bytes, Some(pin), &mut Scratch::default());
    let report = result
        .as_ref()
        .unwrap_or_else(|e| panic!("a re-signed receipt is unreadable: {}", e.message));
    assert_ne!(
        report.signature.status,
        SignatureStatus::Invalid,
        "a receipt signed by lock::sign does not verify: {}",
        report.signature.detail
    );
    let errors = report
        .findings
        .iter()
        .any(|f| f.severity == Severity::Error);
    assert_eq!(report.status == ReceiptStatus::Authenticated, !errors);
    let warm = with_warm_scratch(|s| sealkit::receipt::verify_bytes(&bytes, Some(pin), s));
    assert_eq!(result, warm, "a warm scratch changed the verdict");
}

// ---------------------------------------------------------------------------------------
// chain: sealed logs, audit lines and head state files against a plain reference chain

/// `sha256(prev_head ‖ 0x1f ‖ payload)` from the genesis, written directly on sha2.
fn reference_head<'a>(payloads: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let mut head = hex(&Sha256::digest(b"seal-verifiable-record/genesis/v1"));
    let mut heads = vec![head.clone()];
    for payload in payloads {
        let mut hasher = Sha256::new();
        hasher.update(head.as_bytes());
        hasher.update([0x1f]);
        hasher.update(payload.as_bytes());
        head = hex(&hasher.finalize());
        heads.push(head.clone());
    }
    heads
}

/// JavaScript's `trim` set: Unicode White_Space without U+0085, plus U+FEFF.
fn js_whitespace(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// The input as audit lines, as a sealed log and as a head state file, each against a
/// reference reading; an intact sealed log stops verifying when an entry is cut out,
/// duplicated or swapped with its neighbour, or when its genesis changes.
pub fn chain(data: &[u8]) {
    audit_lines_reference(data);
    if let Ok(text) = std::str::from_utf8(data) {
        sealed_log_reference(data, text);
    }
    if let Ok(state) = sealkit::chain::parse_state(data) {
        assert!(lower_hex64(&state.head), "{}", state.head);
        let value: serde_json::Value = serde_json::from_slice(data)
            .unwrap_or_else(|e| panic!("accepted state is not JSON: {e}"));
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("accepted state is not an object"));
        assert_eq!(object.len(), 3, "accepted state with other members");
        assert_eq!(
            object.get("seal_audit_state").and_then(|v| v.as_str()),
            Some("v1")
        );
        assert_eq!(
            object.get("session").and_then(|v| v.as_str()),
            Some(state.session.as_str())
        );
        assert_eq!(
            object.get("head").and_then(|v| v.as_str()),
            Some(state.head.as_str())
        );
    }
}

fn audit_lines_reference(data: &[u8]) {
    let mut chained = Vec::new();
    let lines = sealkit::chain::lines::chain_lines(data, |p| chained.push(p.to_owned()))
        .unwrap_or_else(|e| panic!("lines of a fuzz input refused: {e}"));
    let text = String::from_utf8_lossy(data);
    assert_eq!(lines.lossy, std::str::from_utf8(data).is_err());
    let pieces: Vec<&str> = text.split('\n').collect();
    let payloads: Vec<&str> = pieces
        .iter()
        .map(|p| p.trim_matches(js_whitespace))
        .filter(|p| !p.is_empty())
        .collect();
    assert_eq!(
        chained, payloads,
        "audit lines differ from the reference split"
    );
    assert_eq!(lines.payloads, payloads.len());
    assert_eq!(lines.dropped + payloads.len(), pieces.len());
    let heads = reference_head(payloads.iter().copied());
    assert_eq!(
        Some(&sealkit::chain::head_from(
            &sealkit::chain::genesis(),
            chained.iter().map(String::as_str)
        )),
        heads.last(),
        "head_from differs from the reference chain"
    );
    assert_eq!(
        Some(&lines.head),
        heads.last(),
        "the streamed head differs from the reference chain"
    );
}

fn sealed_log_reference(data: &[u8], text: &str) {
    let report = sealkit::chain::verify_sealed(text);
    // The reference reads the log with serde_json (the last of repeated members wins, as in
    // JavaScript's JSON.parse); it does not read lone surrogates or nesting past 128, and
    // sealkit stops at 64 levels, so only texts both read are compared.
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    if json::parse(text, 64).is_err() {
        assert!(report.is_err(), "a text json::parse refuses was verified");
        return;
    }
    let entries = value.get("entries").and_then(|e| e.as_array());
    let payloads: Option<Vec<&str>> = entries.map(|entries| {
        entries
            .iter()
            .map_while(|e| e.get("payload").and_then(|p| p.as_str()))
            .collect()
    });
    let complete = entries.is_some_and(|e| payloads.as_ref().is_some_and(|p| p.len() == e.len()));
    let report = match report {
        Ok(report) => {
            assert!(
                complete,
                "verified a log whose entries are missing or lack string payloads"
            );
            report
        }
        Err(_) => {
            assert!(
                !complete,
                "refused a log with an entries array of string payloads"
            );
            return;
        }
    };
    let entries = entries.unwrap_or_else(|| panic!("checked above"));
    let payloads = payloads.unwrap_or_default();
    let heads = reference_head(payloads.iter().copied());
    let bad: Vec<usize> = entries
        .iter()
        .enumerate()
        .filter(|(i, e)| e.get("head").and_then(|h| h.as_str()) != Some(heads[i + 1].as_str()))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(report.entries, entries.len());
    assert_eq!(report.head, heads[heads.len() - 1]);
    assert_eq!(report.bad_entries, bad.len());
    assert_eq!(
        report.first_bad_entry.as_ref().map(|b| b.index),
        bad.first().copied()
    );
    let genesis_ok = value.get("genesis").and_then(|g| g.as_str()) == Some(heads[0].as_str());
    assert_eq!(report.genesis.ok, genesis_ok);
    assert_eq!(report.intact(), genesis_ok && bad.is_empty());
    if report.intact() {
        tampered_logs(data, &value);
    }
}

/// Cut, duplicated and swapped entries and another genesis never verify.
fn tampered_logs(data: &[u8], value: &serde_json::Value) {
    let verifies = |v: &serde_json::Value| {
        sealkit::chain::verify_sealed(&v.to_string()).is_ok_and(|r| r.intact())
    };
    let n = value["entries"].as_array().map_or(0, Vec::len);
    let mut variants = Vec::new();
    if n >= 2 {
        let i = pick(data, 20, n - 1);
        let mut cut = value.clone();
        if let Some(entries) = cut["entries"].as_array_mut() {
            entries.remove(i);
        }
        variants.push(("cut", cut));
        let mut swapped = value.clone();
        if let Some(entries) = swapped["entries"].as_array_mut() {
            entries.swap(i, i + 1);
        }
        variants.push(("swapped", swapped));
    }
    if n >= 1 {
        let i = pick(data, 21, n);
        let mut duplicated = value.clone();
        if let Some(entries) = duplicated["entries"].as_array_mut() {
            let copy = entries[i].clone();
            entries.insert(i, copy);
        }
        variants.push(("duplicated", duplicated));
    }
    let mut genesis = value.clone();
    genesis["genesis"] = serde_json::Value::String("0".repeat(64));
    variants.push(("genesis", genesis));
    for (what, variant) in variants {
        assert!(
            !verifies(&variant),
            "a sealed log with a {what} entry verifies"
        );
    }
}

// ---------------------------------------------------------------------------------------
// bundle: detached statement bundles (receipt-verifier/verify.mjs input)

/// The statement keys of testdata/receipts/bundles/trust.env and the seeds they come from.
const BUNDLE_TRUST: Trust<'static> = Trust {
    issuer: "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
    request: "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
    approval: "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
};
const BUNDLE_SEEDS: [u8; 3] = [0x01, 0x02, 0x03];
const BUNDLES: [&str; 4] = [
    include_str!("../../testdata/receipts/bundles/bundle-closed.json"),
    include_str!("../../testdata/receipts/bundles/bundle-noprofile.json"),
    include_str!("../../testdata/receipts/bundles/bundle-stateful.json"),
    include_str!("../../testdata/receipts/bundles/bundle-unknown.json"),
];

/// (role, payload, signature value) of every fixture statement.
fn fixture_statements() -> &'static [(String, String, String)] {
    static STATEMENTS: OnceLock<Vec<(String, String, String)>> = OnceLock::new();
    STATEMENTS.get_or_init(|| {
        let mut out = Vec::new();
        for bundle in BUNDLES {
            let value: serde_json::Value =
                serde_json::from_str(bundle).unwrap_or_else(|e| panic!("{e}"));
            for role in sealkit::bundle::ROLES {
                out.extend(statement_content(&value, role).map(|(p, s)| (role.to_owned(), p, s)));
            }
        }
        out
    })
}

fn statement_content(bundle: &serde_json::Value, role: &str) -> Option<(String, String)> {
    let statement = bundle.get(format!("{role}_statement"))?;
    let payload = statement.get("payload")?.as_str()?.to_owned();
    let value = statement
        .get("signature")?
        .get("value")?
        .as_str()?
        .to_owned();
    Some((payload, value))
}

/// The bundle as given and with every statement re-signed by its role's fixture seed: a
/// statement verifies exactly when a reference reading says its fields are right and its
/// signature holds (for the bundle as given, only with a fixture's signed content); the
/// decision is always one of the documented states and never claims a reproduction.
pub fn bundle(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_bundle(text, false);
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let mut signed_any = false;
    for (role, seed) in sealkit::bundle::ROLES.iter().zip(BUNDLE_SEEDS) {
        let key = ed25519_dalek::SigningKey::from_bytes(&[seed; 32]);
        let Some(statement) = value.get_mut(format!("{role}_statement")) else {
            continue;
        };
        let Some(payload) = statement.get("payload").and_then(|p| p.as_str()) else {
            continue;
        };
        let signature = key
            .sign(&sealkit::bundle::preimage(role, payload))
            .to_bytes();
        if let Some(value) = statement
            .get_mut("signature")
            .and_then(|s| s.get_mut("value"))
        {
            *value = serde_json::Value::String(URL_SAFE_NO_PAD.encode(signature));
            signed_any = true;
        }
    }
    if signed_any {
        check_bundle(&value.to_string(), true);
    }
}

fn check_bundle(text: &str, resigned: bool) {
    let result = sealkit::bundle::evaluate(text, &BUNDLE_TRUST);
    let is_object = json::parse(text, 128).is_ok_and(|n| matches!(n.value, Value::Object(_)));
    let report = match result {
        Ok(report) => {
            assert!(is_object, "evaluated a bundle that is not a JSON object");
            report
        }
        Err(_) => {
            assert!(!is_object, "refused a JSON object");
            return;
        }
    };
    serde_json::to_string(&report).unwrap_or_else(|e| panic!("{e}"));
    let value = serde_json::from_str::<serde_json::Value>(text).ok();
    let trusted = [
        BUNDLE_TRUST.issuer,
        BUNDLE_TRUST.request,
        BUNDLE_TRUST.approval,
    ];
    assert_eq!(report.statements.len(), 3);
    for ((statement, role), trusted) in report
        .statements
        .iter()
        .zip(sealkit::bundle::ROLES)
        .zip(trusted)
    {
        assert_eq!(statement.role, role);
        assert_eq!(statement.verified, statement.reason.is_empty());
        assert_eq!(
            statement.verified,
            !statement.line.contains(" NOT "),
            "{}",
            statement.line
        );
        let Some(value) = &value else {
            continue;
        };
        let expected = reference_statement(value, role, trusted);
        assert_eq!(statement.verified, expected, "{role}: {}", statement.reason);
        if statement.verified && !resigned {
            let (payload, signature) =
                statement_content(value, role).unwrap_or_else(|| panic!("verified"));
            assert!(
                fixture_statements().contains(&(role.to_owned(), payload, signature)),
                "{role} statement verified with content no fixture signed"
            );
        }
    }
    let decision = &report.decision;
    assert!(
        [
            "profile-absent",
            "trace-required",
            "unknown-profile",
            "not-reproduced",
            "wasm-absent"
        ]
        .contains(&decision.state),
        "{}",
        decision.state
    );
    assert!(
        decision.line.contains("NOT") || decision.line == "TRACE REQUIRED",
        "the decision claims more than sealkit can check: {}",
        decision.line
    );
    assert_eq!(
        decision.profile.is_none(),
        decision.state == "profile-absent"
    );
}

/// verify.mjs's statement rule, read with serde_json: Ed25519 / base64url-nopad, the
/// trusted key, a canonical 64-byte signature with S < L over
/// `"seal.<role>-statement/v1" 0x00 ‖ u64_be(len) ‖ payload`.
fn reference_statement(bundle: &serde_json::Value, role: &str, trusted: &str) -> bool {
    (|| {
        let statement = bundle.get(format!("{role}_statement"))?;
        let payload = statement.get("payload")?.as_str()?;
        let signature = statement.get("signature")?.as_object()?;
        let field = |name: &str| signature.get(name).and_then(|v| v.as_str());
        if field("algorithm")? != "Ed25519" || field("encoding")? != "base64url-nopad" {
            return None;
        }
        let public_key = field("public_key")?;
        if public_key != trusted || !lower_hex64(public_key) {
            return None;
        }
        let text = field("value")?;
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        if URL_SAFE_NO_PAD.encode(&bytes) != text {
            return None;
        }
        let bytes: [u8; 64] = bytes.try_into().ok()?;
        if !bytes[32..].iter().rev().lt(GROUP_ORDER.iter().rev()) {
            return None;
        }
        let key_bytes: [u8; 32] = sealkit::digest::hex_decode(public_key)?.try_into().ok()?;
        let key = ed25519_dalek::VerifyingKey::from_bytes(&key_bytes).ok()?;
        let mut message = format!("seal.{role}-statement/v1\0").into_bytes();
        message.extend_from_slice(&(payload.len() as u64).to_be_bytes());
        message.extend_from_slice(payload.as_bytes());
        use ed25519_dalek::Verifier;
        key.verify(&message, &ed25519_dalek::Signature::from_bytes(&bytes))
            .ok()
    })()
    .is_some()
}

// ---------------------------------------------------------------------------------------
// migration_record: migration outputs as `diff` reads them, captures, and receipts migrated

/// A migration output over the fixture receipts, made by `sealkit migrate` (see
/// make-seeds.py): `summary.json`, a NUL byte, `migration.jsonl`.
const CAPTURES: [(&str, &[u8]); 2] = [
    (
        "session-L.capture",
        include_bytes!("../../testdata/receipts/legacy-vs-current/frames/session-L.capture"),
    ),
    (
        "session-M.capture",
        include_bytes!("../../testdata/receipts/legacy-vs-current/frames/session-M.capture"),
    ),
];

fn fixture_frame_index() -> &'static FrameIndex {
    static INDEX: OnceLock<FrameIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut index = FrameIndex::new();
        for (name, bytes) in CAPTURES {
            index
                .add_capture(name, bytes)
                .unwrap_or_else(|e| panic!("fixture capture: {e}"));
        }
        index
    })
}

/// The input split at its first NUL into `summary.json` and `migration.jsonl` (without a
/// NUL: `migration.jsonl` alone, as `diff` reads a bare `.jsonl`): an accepted output is
/// bound by its summary, and any edit, cut or added line is refused. Then the input as a
/// capture, and as a receipt migrated with the fixture captures.
pub fn migration_record(data: &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(nul) => migration_output(data, &data[..nul], &data[nul + 1..]),
        None => {
            if let Ok(records) = diff::parse_records(data) {
                records_round_trip(&records);
            }
        }
    }
    capture_index(data);
    migrated_receipt(data);
}

fn migration_output(data: &[u8], summary: &[u8], records: &[u8]) {
    let Ok(parsed) = diff::read_migration_output(summary, records) else {
        return;
    };
    let value: serde_json::Value =
        serde_json::from_slice(summary).unwrap_or_else(|e| panic!("accepted summary: {e}"));
    assert_eq!(value["format"], "sealkit-migration/v1");
    assert_eq!(
        value["records"]["sha256"].as_str(),
        Some(sha256_hex(records).as_str())
    );
    assert_eq!(
        value["records"]["count"].as_u64(),
        Some(parsed.len() as u64),
        "count"
    );
    let lines = records
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(parsed.len(), lines);
    records_round_trip(&parsed);
    // Edited outputs.
    let refused = |edited: &[u8], what: &str| {
        assert!(
            diff::read_migration_output(summary, edited).is_err(),
            "an output with {what} was accepted as complete"
        );
    };
    if !records.is_empty() {
        let at = pick(data, 30, records.len());
        let mut flipped = records.to_vec();
        flipped[at] ^= 1 << pick(data, 31, 8);
        refused(&flipped, "an edited byte");
        refused(&records[..pick(data, 32, records.len())], "a cut");
    }
    let first_line = records.split(|&b| b == b'\n').find(|l| !l.is_empty());
    if let Some(line) = first_line {
        let mut extended = records.to_vec();
        if !extended.ends_with(b"\n") {
            extended.push(b'\n');
        }
        extended.extend_from_slice(line);
        extended.push(b'\n');
        refused(&extended, "an added record");
    }
}

fn records_round_trip(records: &[Record]) {
    for record in records {
        let text = serde_json::to_string(record).unwrap_or_else(|e| panic!("{e}"));
        let again: Record = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(&again, record, "a record does not round-trip");
    }
}

/// A capture read into the frame index: counted frames, the capture's SHA-256, and every
/// frame found again by its exact subject.
fn capture_index(data: &[u8]) {
    let mut index = FrameIndex::new();
    let stats = index
        .add_capture("fuzz", data)
        .unwrap_or_else(|e| panic!("in-memory capture: {e}"));
    assert_eq!(stats.sha256, sha256_hex(data));
    assert!(stats.new_frames <= stats.frames);
    assert_eq!(index.len() as u64, stats.new_frames);
    let mut reader = FrameReader::new(data);
    while let Some(frame) = reader.next_frame().unwrap_or_else(|e| panic!("{e}")) {
        if frame.is_oversized()
            || frame::request_line(frame.bytes)
                .iter()
                .all(|b| b" \t\r\n".contains(b))
        {
            continue;
        }
        let found = index.by_subject(&sha256_hex(frame.bytes), frame.bytes.len() as u64);
        let entry = found.unwrap_or_else(|| panic!("frame {} is not indexed", frame.line));
        assert_eq!(&*entry.bytes, frame.bytes);
    }
}

/// The input as a receipt migrated with the fixture captures: the record round-trips, names
/// the receipt's SHA-256, follows the label rules, and bases every label past
/// `frame-mismatch` on a frame linked by the exact-frame subject the receipt records.
fn migrated_receipt(data: &[u8]) {
    let options = MigrateOptions::default();
    let record = WARM_MIGRATE.with(|cell| {
        sealkit::migrate::migrate_receipt(
            "fuzz.json",
            None,
            Ok(data),
            fixture_frame_index(),
            &options,
            &mut cell.borrow_mut(),
        )
    });
    records_round_trip(std::slice::from_ref(&record));
    assert_eq!(
        record.receipt_sha256.as_deref(),
        Some(sha256_hex(data).as_str())
    );
    let stopped = matches!(
        record.label,
        Label::ReceiptInvalid | Label::FrameUnrecoverable | Label::FrameMismatch
    );
    if stopped {
        assert!(record.changes.is_empty(), "{:?} with changes", record.label);
    }
    if record.label == Label::ReceiptInvalid {
        assert!(
            record.receipt_check == "failed" || record.receipt_check == "unreadable",
            "{}",
            record.receipt_check
        );
        return;
    }
    assert!(["unsigned", "unpinned"].contains(&record.receipt_check.as_str()));
    if stopped {
        return;
    }
    let frame = record
        .frame
        .as_ref()
        .unwrap_or_else(|| panic!("{:?} without a frame", record.label));
    assert_eq!(
        frame.link,
        Link::FramedSubject,
        "a label from a weaker link"
    );
    assert_eq!(
        (Some(frame.sha256.as_str()), Some(frame.length)),
        (
            record.reported.framed_subject_sha256.as_deref(),
            record.reported.framed_subject_length
        ),
        "the frame is not the one the receipt records"
    );
    if record.meta == Presence::Present {
        assert!(record.changes.contains(&Change::Meta));
        assert!(record.meta_keys.is_some());
    }
    if record.label == Label::IdentityUnchanged {
        assert!(record.changes.is_empty());
    }
}

thread_local! {
    static WARM_MIGRATE: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

// ---------------------------------------------------------------------------------------
// audit_names: what a receipt directory entry is, by its name, and the operation state

/// Each line of the input as a file name: a receipt name formats back to itself, the other
/// kinds match plain reference definitions of seal-host's names. The whole input as
/// `.seal-operation-state.json`.
pub fn audit_names(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        for name in std::iter::once(text).chain(text.split(['\n', '/'])) {
            check_name(name);
        }
    }
    if let Ok(operations) = sealkit::audit::dir::parse_operation_state(data) {
        let value: serde_json::Value =
            serde_json::from_slice(data).unwrap_or_else(|e| panic!("accepted state: {e}"));
        assert_eq!(value["schema"], "seal.operation-state/v1");
        let listed = value["operations"]
            .as_object()
            .unwrap_or_else(|| panic!("accepted operations that are not an object"));
        assert_eq!(listed.len(), operations.len());
        for (id, sha) in &operations {
            assert_eq!(listed[id]["operation_id"].as_str(), Some(id.as_str()));
            assert_eq!(
                listed[id]["release_frame_sha256"].as_str(),
                Some(sha.as_str())
            );
        }
    }
}

fn check_name(name: &str) {
    let kind = classify(name);
    assert_eq!(is_temp(name), reference_temp(name), "is_temp({name:?})");
    let expected = match name {
        ".seal-audit-head.state" => Some(NameKind::HeadState),
        ".seal-operation-state.json" => Some(NameKind::OperationState),
        ".seal-receipt-ed25519.key" => Some(NameKind::SigningKey),
        _ if reference_temp(name) => Some(NameKind::Temp),
        _ => None,
    };
    match (&kind, expected) {
        (kind, Some(expected)) => assert_eq!(*kind, expected, "{name:?}"),
        (NameKind::Receipt { counter, hash }, None) => {
            assert_eq!(format!("receipt-{counter:020}-{hash}.json"), name);
            assert!(lower_hex64(hash));
        }
        (NameKind::MisnamedReceipt, None) => {
            assert!(name.starts_with("receipt-") && name.ends_with(".json") && name.len() >= 13);
            assert!(
                !reference_receipt_name(name),
                "a well-formed receipt name: {name:?}"
            );
        }
        (NameKind::OtherJson, None) => {
            assert!(name.ends_with(".json"));
            assert!(!(name.starts_with("receipt-") && name.len() >= 13));
        }
        (NameKind::Other, None) => assert!(!name.ends_with(".json")),
        (kind, None) => panic!("{name:?} classified {kind:?}"),
    }
    if reference_receipt_name(name) {
        assert!(
            matches!(kind, NameKind::Receipt { .. }),
            "{name:?} is a receipt name"
        );
    }
}

/// `receipt-` + 20 digits (a u64) + `-` + 64 lowercase hex + `.json`.
fn reference_receipt_name(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() == 8 + 20 + 1 + 64 + 5
        && name.starts_with("receipt-")
        && name.ends_with(".json")
        && b[8..28].iter().all(u8::is_ascii_digit)
        && name[8..28].parse::<u64>().is_ok()
        && b[28] == b'-'
        && lower_hex64(&name[29..93])
}

/// seal-host's transient names, one pattern each.
fn reference_temp(name: &str) -> bool {
    fn digits(s: &str) -> bool {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
    }
    fn digits_dash_digits(s: &str) -> bool {
        match s.find('-') {
            Some(i) => digits(&s[..i]) && digits(&s[i + 1..]),
            None => false,
        }
    }
    type Shape = (&'static str, &'static str, fn(&str) -> bool);
    let shapes: [Shape; 5] = [
        (".receipt-", ".tmp", digits_dash_digits),
        (".seal-audit-head-", ".tmp", digits_dash_digits),
        (".authorization-decision-rewrite-", ".tmp", digits),
        (".operation-state-", ".tmp", digits),
        (".seal-receipt-probe-", "", digits),
    ];
    shapes.iter().any(|(prefix, suffix, middle)| {
        name.len() >= prefix.len() + suffix.len()
            && name.starts_with(prefix)
            && name.ends_with(suffix)
            && middle(&name[prefix.len()..name.len() - suffix.len()])
    })
}
