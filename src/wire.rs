//! Seal's seven raw-wire guards and seal-host's lexical caps, evaluated on the frame text
//! before any parse (docs/target.md; docs/formats.md and §4).
//!
//! The guards, in Seal's perimeter order (the first one that fails is the one reported):
//! 1. no unquoted number with an exponent of more than 6 digits;
//! 2. no duplicate object key (raw text), no escape inside an object key, no stray closer;
//! 3. no two keys of one object equal under Unicode canonical equivalence (NFD);
//! 4. no unquoted number with more than 18 mantissa digits;
//! 5. every number reads the same as an exact decimal and as IEEE binary64 (integers:
//!    at most 16 significant digits, ≤ 2^53−1, exactly representable; others: the
//!    shortest round-trip decimal of their binary64 value);
//! 6. no unpaired UTF-16 surrogate escape inside a string;
//! 7. nesting depth at most 128.
//!
//! Then seal-host's caps (first violation in byte order): depth 64, 256 KiB inside one
//! quoted token (escape characters counted), 4096 items (commas + 1) per container.
//!
//! All checks run in one pass over the bytes; each keeps its own state exactly as its
//! reference definition does and records its first violation, so the result equals running
//! them one after another. Structural characters are ASCII, so scanning UTF-8 bytes is the
//! same as scanning characters.

use crate::json::{JsonValue, Member, Node, Span};
use num_bigint::BigUint;
use std::collections::HashSet;
use unicode_normalization::UnicodeNormalization;

pub const MAX_EXPONENT_DIGITS: usize = 6;
pub const MAX_SIGNIFICANT_DIGITS: usize = 18;
pub const MAX_WIRE_NESTING: usize = 128;
pub const MAX_JSON_DEPTH: usize = 64;
pub const MAX_JSON_STRING_BYTES: usize = 256 * 1024;
pub const MAX_JSON_COLLECTION_ITEMS: usize = 4096;

/// Which check refused the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireCheck {
    /// Guard 1.
    ExponentDigits,
    /// Guard 2: a raw duplicate key.
    DuplicateKey,
    /// Guard 2: an escape sequence inside a key.
    EscapedKey,
    /// Guard 2: a closer that does not match the open container.
    StrayCloser,
    /// Guard 3.
    CanonicalDuplicateKey,
    /// Guard 4.
    SignificantDigits,
    /// Guard 5.
    Binary64Disagreement,
    /// Guard 6.
    LoneSurrogate,
    /// Guard 7.
    NestingDepth,
    /// seal-host cap `json_depth`.
    CapDepth,
    /// seal-host cap `json_string_bytes`.
    CapStringBytes,
    /// seal-host cap `json_collection_items`.
    CapCollectionItems,
}

/// The first failing check, the bytes it points at, and what was seen there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireViolation {
    pub check: WireCheck,
    pub span: Span,
    pub detail: String,
}

/// Runs every guard and cap over `text`; `Err` carries the violation Seal reports first.
pub fn check(text: &str) -> Result<(), WireViolation> {
    let mut scanner = Scanner::new(text.as_bytes());
    scanner.run();
    scanner
        .found
        .into_iter()
        .flatten()
        .next()
        .map_or(Ok(()), Err)
}

// Slots in report order: guards 1-7, then the caps (which share one slot: seal-host stops
// at its first cap violation in byte order).
const GUARD_EXPONENT: usize = 0;
const GUARD_KEYS: usize = 1;
const GUARD_NFD: usize = 2;
const GUARD_DIGITS: usize = 3;
const GUARD_AGREEMENT: usize = 4;
const GUARD_SURROGATE: usize = 5;
const GUARD_NESTING: usize = 6;
const CAPS: usize = 7;

struct Scanner<'a> {
    bytes: &'a [u8],
    found: [Option<WireViolation>; 8],
    // Guard 1: inside an exponent, and the length of its digit run.
    exp_active: bool,
    exp_len: usize,
    // Guards 2 and 3: the container stack, and the keys of the open objects.
    containers: Vec<Container<'a>>,
    key_arena: Vec<&'a [u8]>,
    // Guard 4: inside an exponent, and the current mantissa digit run.
    digits_in_exp: bool,
    digit_run: usize,
    // Guard 5: start of the current numeric-looking run.
    number_start: Option<usize>,
    // Guard 7.
    nesting: usize,
    // Caps: items per open container.
    cap_items: Vec<usize>,
}

enum Container<'a> {
    Array,
    Object(ObjectKeys<'a>),
}

struct ObjectKeys<'a> {
    expect_key: bool,
    /// Where this object's keys begin in the scanner's key arena (objects nest strictly,
    /// so the open object's keys are always the arena's tail).
    start: usize,
    /// Wide objects switch to a hash set so that 100,000 keys stay linear (boxed for the
    /// same reason as `nfd`).
    #[allow(clippy::box_collection)]
    wide: Option<Box<HashSet<&'a [u8]>>>,
    /// NFD forms, built only once a non-ASCII key appears (ASCII text is its own NFD, and
    /// raw duplicates are guard 2's). Boxed so that the million open containers of a
    /// hostile 1 MiB frame cost one pointer each here, not a whole empty set.
    #[allow(clippy::box_collection)]
    nfd: Option<Box<HashSet<String>>>,
}

/// Objects with more keys than this use a hash set for duplicate checks.
const LINEAR_KEYS: usize = 16;

fn is_numeric_token_char(b: u8) -> bool {
    b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')
}

impl<'a> Scanner<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Scanner {
            bytes,
            found: Default::default(),
            exp_active: false,
            exp_len: 0,
            containers: Vec::new(),
            key_arena: Vec::new(),
            digits_in_exp: false,
            digit_run: 0,
            number_start: None,
            nesting: 0,
            cap_items: Vec::new(),
        }
    }

    fn record(&mut self, slot: usize, check: WireCheck, span: Span, detail: String) {
        if self.found[slot].is_none() {
            self.found[slot] = Some(WireViolation {
                check,
                span,
                detail,
            });
        }
    }

    fn alive(&self, slot: usize) -> bool {
        self.found[slot].is_none()
    }

    fn run(&mut self) {
        let mut i = 0;
        while i < self.bytes.len() {
            if self.bytes[i] == b'"' {
                i = self.string(i);
            } else {
                self.outside(self.bytes[i], i);
                i += 1;
            }
        }
        if let Some(start) = self.number_start.take() {
            self.finish_number(start, self.bytes.len());
        }
    }

    /// One byte outside any string.
    fn outside(&mut self, b: u8, i: usize) {
        if is_numeric_token_char(b) {
            self.exponent_guard(b, i);
            self.digit_guard(b, i);
            self.agreement_guard(b, i);
            return;
        }
        // Any other byte ends an exponent run (guard 1), a digit run (guard 4) and a
        // numeric token (guard 5), exactly as each guard's own step does for it.
        self.exp_active = false;
        self.exp_len = 0;
        self.digits_in_exp = false;
        self.digit_run = 0;
        if let Some(start) = self.number_start.take() {
            self.finish_number(start, i);
        }
        if matches!(b, b'{' | b'[' | b'}' | b']' | b',') {
            self.structure(b, i);
        }
    }

    fn exponent_guard(&mut self, b: u8, i: usize) {
        if self.exp_active {
            if b.is_ascii_digit() {
                self.exp_len += 1;
                if self.exp_len > MAX_EXPONENT_DIGITS && self.alive(GUARD_EXPONENT) {
                    let span = self.numeric_run_around(i);
                    let detail = format!(
                        "number {} has an exponent longer than {MAX_EXPONENT_DIGITS} digits",
                        self.text(span)
                    );
                    self.record(GUARD_EXPONENT, WireCheck::ExponentDigits, span, detail);
                }
            } else if b != b'+' && b != b'-' {
                self.exp_active = false;
                self.exp_len = 0;
            }
        } else if b == b'e' || b == b'E' {
            self.exp_active = true;
            self.exp_len = 0;
        }
    }

    fn digit_guard(&mut self, b: u8, i: usize) {
        match b {
            b'e' | b'E' => self.digits_in_exp = true,
            b'+' | b'-' | b'.' => {}
            b'0'..=b'9' => {
                if !self.digits_in_exp {
                    self.digit_run += 1;
                    if self.digit_run > MAX_SIGNIFICANT_DIGITS && self.alive(GUARD_DIGITS) {
                        let span = self.numeric_run_around(i);
                        let detail = format!(
                            "number {} has more than {MAX_SIGNIFICANT_DIGITS} mantissa digits",
                            self.text(span)
                        );
                        self.record(GUARD_DIGITS, WireCheck::SignificantDigits, span, detail);
                    }
                }
            }
            _ => {
                self.digits_in_exp = false;
                self.digit_run = 0;
            }
        }
    }

    fn agreement_guard(&mut self, b: u8, i: usize) {
        if let Some(start) = self.number_start {
            if is_numeric_token_char(b) {
                return;
            }
            self.number_start = None;
            self.finish_number(start, i);
        }
        if b == b'-' || b.is_ascii_digit() {
            self.number_start = Some(i);
        }
    }

    fn finish_number(&mut self, start: usize, end: usize) {
        if !self.alive(GUARD_AGREEMENT) {
            return;
        }
        let literal = &self.bytes[start..end];
        if number_agrees_with_binary64(literal) == Some(false) {
            let span = Span { start, end };
            let detail = format!(
                "number {} does not read the same as an exact decimal and as an IEEE binary64 value",
                self.text(span)
            );
            self.record(
                GUARD_AGREEMENT,
                WireCheck::Binary64Disagreement,
                span,
                detail,
            );
        }
    }

    /// Brackets and commas: guard 2/3 structure, guard 7 depth, the caps.
    fn structure(&mut self, b: u8, i: usize) {
        let span = Span {
            start: i,
            end: i + 1,
        };
        match b {
            b'{' | b'[' => {
                if self.alive(GUARD_KEYS) {
                    let container = if b == b'{' {
                        Container::Object(ObjectKeys {
                            expect_key: true,
                            start: self.key_arena.len(),
                            wide: None,
                            nfd: None,
                        })
                    } else {
                        Container::Array
                    };
                    self.containers.push(container);
                }
                self.nesting += 1;
                if self.nesting > MAX_WIRE_NESTING {
                    self.record(
                        GUARD_NESTING,
                        WireCheck::NestingDepth,
                        span,
                        format!("containers nested deeper than {MAX_WIRE_NESTING} levels"),
                    );
                }
                if self.alive(CAPS) {
                    if self.cap_items.len() >= MAX_JSON_DEPTH {
                        self.record(
                            CAPS,
                            WireCheck::CapDepth,
                            span,
                            format!("containers nested deeper than {MAX_JSON_DEPTH} levels"),
                        );
                    } else {
                        self.cap_items.push(1);
                    }
                }
            }
            b'}' | b']' => {
                if self.alive(GUARD_KEYS) {
                    let matches = matches!(
                        (self.containers.last(), b),
                        (Some(Container::Object(_)), b'}') | (Some(Container::Array), b']')
                    );
                    if matches {
                        if let Some(Container::Object(keys)) = self.containers.pop() {
                            self.key_arena.truncate(keys.start);
                        }
                    } else {
                        let detail = format!("'{}' does not close the open container", b as char);
                        self.record(GUARD_KEYS, WireCheck::StrayCloser, span, detail);
                    }
                }
                self.nesting = self.nesting.saturating_sub(1);
                self.cap_items.pop();
            }
            b',' => {
                if let Some(Container::Object(keys)) = self.containers.last_mut() {
                    keys.expect_key = true;
                }
                if self.alive(CAPS) {
                    if let Some(items) = self.cap_items.last_mut() {
                        *items += 1;
                        if *items > MAX_JSON_COLLECTION_ITEMS {
                            self.record(
                                CAPS,
                                WireCheck::CapCollectionItems,
                                span,
                                format!(
                                    "more than {MAX_JSON_COLLECTION_ITEMS} items in one container"
                                ),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// A string starting at its opening quote `open`; returns the index after it.
    fn string(&mut self, open: usize) -> usize {
        // What the quote means to the guards that look outside strings.
        self.exp_active = false;
        self.exp_len = 0;
        self.digits_in_exp = false;
        self.digit_run = 0;
        if let Some(start) = self.number_start.take() {
            self.finish_number(start, open);
        }
        let is_key = self.alive(GUARD_KEYS)
            && matches!(self.containers.last(), Some(Container::Object(keys)) if keys.expect_key);

        let body = open + 1;
        let mut i = body;
        let close = loop {
            // Most strings are short: the parser's word-at-a-time scan beats memchr's setup.
            let k = i + crate::json::string_run(&self.bytes[i..], false);
            if k >= self.bytes.len() {
                break None;
            }
            if self.bytes[k] == b'"' {
                break Some(k);
            }
            if is_key && self.alive(GUARD_KEYS) {
                let span = Span {
                    start: k,
                    end: (k + 2).min(self.bytes.len()),
                };
                self.record(
                    GUARD_KEYS,
                    WireCheck::EscapedKey,
                    span,
                    "object key contains an escape sequence".to_owned(),
                );
            }
            i = self.escape(k);
            if i >= self.bytes.len() {
                break None;
            }
        };
        let end = close.unwrap_or(self.bytes.len());
        if end - body > MAX_JSON_STRING_BYTES && self.alive(CAPS) {
            let at = body + MAX_JSON_STRING_BYTES;
            let detail = format!("a string longer than {MAX_JSON_STRING_BYTES} bytes");
            self.record(
                CAPS,
                WireCheck::CapStringBytes,
                Span {
                    start: open,
                    end: at + 1,
                },
                detail,
            );
        }
        if is_key && self.alive(GUARD_KEYS) {
            if let Some(close) = close {
                self.key(Span {
                    start: open,
                    end: close + 1,
                });
            }
        }
        close.map_or(self.bytes.len(), |c| c + 1)
    }

    /// An escape at `k` (a backslash) inside a string; returns the index after it. Checks
    /// guard 6 on `\u` escapes.
    fn escape(&mut self, k: usize) -> usize {
        let Some(&code) = self.bytes.get(k + 1) else {
            return self.bytes.len();
        };
        if code != b'u' {
            return k + 2;
        }
        let Some(UnicodeEscape { next, lone }) = unicode_escape(self.bytes, k) else {
            // Not a complete \uXXXX: the `u` was the escaped character; rescan from there.
            return k + 2;
        };
        if let Some(surrogate) = lone {
            let escape_span = Span {
                start: k,
                end: k + 6,
            };
            let detail = match surrogate {
                Surrogate::High => format!(
                    "high surrogate escape {} is not followed by a low surrogate escape",
                    self.text(escape_span)
                ),
                Surrogate::Low => format!(
                    "low surrogate escape {} has no high surrogate before it",
                    self.text(escape_span)
                ),
            };
            self.record(
                GUARD_SURROGATE,
                WireCheck::LoneSurrogate,
                escape_span,
                detail,
            );
        }
        next
    }

    /// An object key (span including quotes): guard 2 raw duplicates, guard 3 NFD duplicates.
    fn key(&mut self, span: Span) {
        let bytes = self.bytes;
        let raw = &bytes[span.start + 1..span.end - 1];
        let nfd_alive = self.alive(GUARD_NFD);
        let Some(Container::Object(keys)) = self.containers.last_mut() else {
            return;
        };
        keys.expect_key = false;
        let fresh = match keys.wide.as_mut() {
            Some(set) => set.insert(raw),
            None => {
                let seen = &self.key_arena[keys.start..];
                let fresh = !seen.contains(&raw);
                if fresh && seen.len() >= LINEAR_KEYS {
                    let mut set: HashSet<&[u8]> = seen.iter().copied().collect();
                    set.insert(raw);
                    keys.wide = Some(Box::new(set));
                    self.key_arena.truncate(keys.start);
                } else if fresh {
                    self.key_arena.push(raw);
                }
                fresh
            }
        };
        if !fresh {
            let detail = format!(
                "object key {} appears more than once in one object",
                String::from_utf8_lossy(&bytes[span.start..span.end])
            );
            self.record(GUARD_KEYS, WireCheck::DuplicateKey, span, detail);
            return;
        }
        if !nfd_alive || (raw.is_ascii() && keys.nfd.is_none()) {
            return;
        }
        if keys.nfd.is_none() {
            // Every key before the first non-ASCII one is ASCII, its own NFD.
            let earlier: Vec<&[u8]> = match &keys.wide {
                Some(set) => set.iter().copied().filter(|k| *k != raw).collect(),
                None => self.key_arena[keys.start..]
                    .iter()
                    .copied()
                    .filter(|k| *k != raw)
                    .collect(),
            };
            keys.nfd = Some(Box::new(
                earlier
                    .into_iter()
                    .map(|k| String::from_utf8_lossy(k).into_owned())
                    .collect(),
            ));
        }
        let normalized: String = String::from_utf8_lossy(raw).nfd().collect();
        if keys.nfd.as_mut().is_some_and(|set| !set.insert(normalized)) {
            let detail = format!(
                "object key {} equals an earlier key of the same object under Unicode canonical equivalence (NFD)",
                String::from_utf8_lossy(&bytes[span.start..span.end])
            );
            self.record(GUARD_NFD, WireCheck::CanonicalDuplicateKey, span, detail);
        }
    }

    fn text(&self, span: Span) -> String {
        String::from_utf8_lossy(&self.bytes[span.start..span.end]).into_owned()
    }

    /// The numeric-looking run containing byte `i`, for pointing at a number.
    fn numeric_run_around(&self, i: usize) -> Span {
        let mut start = i;
        while start > 0 && is_numeric_token_char(self.bytes[start - 1]) {
            start -= 1;
        }
        let mut end = i + 1;
        while end < self.bytes.len() && is_numeric_token_char(self.bytes[end]) {
            end += 1;
        }
        Span { start, end }
    }
}

/// Half of a UTF-16 surrogate pair, written alone in a `\u` escape (guard 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Surrogate {
    High,
    Low,
}

/// A complete `\uXXXX` escape: where the scan resumes after it (after both escapes of a
/// surrogate pair), and the surrogate it leaves unpaired, if any.
struct UnicodeEscape {
    next: usize,
    lone: Option<Surrogate>,
}

/// Reads the `\u` escape whose backslash is at `k`; `None` when four hex digits do not
/// follow. The one reading of guard 6, for the scan and for [`passes_on_tree`].
fn unicode_escape(bytes: &[u8], k: usize) -> Option<UnicodeEscape> {
    let unit = hex4(bytes, k + 2)?;
    let (next, lone) = if (0xD800..0xDC00).contains(&unit) {
        let paired = bytes.get(k + 6..k + 8) == Some(b"\\u")
            && hex4(bytes, k + 8).is_some_and(|low| (0xDC00..0xE000).contains(&low));
        if paired {
            (k + 12, None)
        } else {
            (k + 6, Some(Surrogate::High))
        }
    } else if (0xDC00..0xE000).contains(&unit) {
        (k + 6, Some(Surrogate::Low))
    } else {
        (k + 6, None)
    };
    Some(UnicodeEscape { next, lone })
}

/// Whether `root`, the tree [`crate::json::parse`] read from `text`, already shows that
/// [`check`] finds nothing in `text`, so the frame needs no scan of its own: every number
/// passes guards 1, 4 and 5, every key is ASCII, written without an escape and unique in
/// its object (guards 2 and 3), no `\u` escape leaves a surrogate unpaired (guard 6), and
/// the caps hold (depth, string bytes, items; guard 7 follows from the depth cap).
///
/// `false` proves nothing: the caller then runs [`check`], which decides and reports, so
/// what is refused, and for which guard first, stays the scan's. `true` is sound because on
/// a JSON text the guards read exactly the tokens the parse has: a numeric run outside
/// strings is one number literal (or the `e` of `true` / `false`, on which no guard acts),
/// brackets balance, and a string is a key exactly where the parse has a key. The
/// `wire_guards` fuzz target checks that `true` implies `check` passes.
pub fn passes_on_tree(text: &str, root: &Node<'_>) -> bool {
    tree_passes(text.as_bytes(), root, 0)
}

/// [`passes_on_tree`] for `node`, inside `depth` containers.
fn tree_passes(text: &[u8], node: &Node<'_>, depth: usize) -> bool {
    match &node.value {
        JsonValue::Null | JsonValue::Bool(_) => true,
        JsonValue::Number(literal) => number_passes(literal.as_bytes()),
        JsonValue::String(decoded) => string_passes(text, node.span, decoded),
        JsonValue::Array(items) => {
            depth < MAX_JSON_DEPTH
                && items.len() <= MAX_JSON_COLLECTION_ITEMS
                && items.iter().all(|item| tree_passes(text, item, depth + 1))
        }
        JsonValue::Object(members) => {
            depth < MAX_JSON_DEPTH
                && members.len() <= MAX_JSON_COLLECTION_ITEMS
                && members.iter().all(|member| {
                    // An escape always shortens what it decodes to, so a key as long as its
                    // raw text has none.
                    member.key.len() + 2 == member.key_span.len()
                        && member.key.is_ascii()
                        && member.key.len() <= MAX_JSON_STRING_BYTES
                        && tree_passes(text, &member.value, depth + 1)
                })
                && keys_are_distinct(members)
        }
    }
}

/// Guards 1, 4 and 5 on one number literal.
fn number_passes(literal: &[u8]) -> bool {
    let marker = literal.iter().position(|&b| b == b'e' || b == b'E');
    let (mantissa, exponent) = match marker {
        Some(m) => (&literal[..m], &literal[m + 1..]),
        None => (literal, &[][..]),
    };
    let digits = |part: &[u8]| part.iter().filter(|b| b.is_ascii_digit()).count();
    digits(exponent) <= MAX_EXPONENT_DIGITS
        && digits(mantissa) <= MAX_SIGNIFICANT_DIGITS
        && number_agrees_with_binary64(literal) == Some(true)
}

/// The string cap and guard 6 on one string value (`span` includes its quotes).
fn string_passes(text: &[u8], span: Span, decoded: &str) -> bool {
    let raw = &text[span.start + 1..span.end - 1];
    if raw.len() > MAX_JSON_STRING_BYTES {
        return false;
    }
    if decoded.len() == raw.len() {
        return true; // no escape at all
    }
    // The escapes in order, as the scan reads them: a backslash and the byte after it, or a
    // whole `\u` escape (a pair of them for a surrogate pair).
    let mut k = 0;
    while let Some(at) = raw.get(k..).and_then(|rest| memchr::memchr(b'\\', rest)) {
        let backslash = k + at;
        if raw.get(backslash + 1) != Some(&b'u') {
            k = backslash + 2;
            continue;
        }
        match unicode_escape(raw, backslash) {
            Some(UnicodeEscape { next, lone: None }) => k = next,
            _ => return false,
        }
    }
    true
}

/// Guard 2's duplicate test on the keys of one object (already known to be ASCII and
/// unescaped, so each key is its raw text).
fn keys_are_distinct(members: &[Member<'_>]) -> bool {
    if members.len() <= LINEAR_KEYS {
        return members
            .iter()
            .enumerate()
            .all(|(i, m)| members[..i].iter().all(|earlier| earlier.key != m.key));
    }
    let mut seen = HashSet::with_capacity(members.len());
    members.iter().all(|m| seen.insert(m.key.as_ref()))
}

fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    let mut value = 0u32;
    for &d in digits {
        value = value * 16 + (d as char).to_digit(16)?;
    }
    Some(value)
}

/// Guard 5 for one numeric-looking run: `None` when the run is not a JSON number (left to
/// the parser), otherwise whether Seal accepts it.
pub fn number_agrees_with_binary64(literal: &[u8]) -> Option<bool> {
    // Fast path: an integer of at most 15 digits is below 2^53 and exact in binary64.
    let digits = literal.strip_prefix(b"-").unwrap_or(literal);
    if !digits.is_empty()
        && digits.len() <= 15
        && digits.iter().all(u8::is_ascii_digit)
        && (digits[0] != b'0' || digits.len() == 1)
    {
        return Some(true);
    }
    let parsed = WireDecimal::parse(literal)?;
    if parsed.integer_syntax {
        if parsed.digit_count > 16 || parsed.coefficient > MAX_SAFE_INTEGER {
            return Some(false);
        }
        return Some(integer_is_exact(parsed.coefficient, parsed.exp10));
    }
    if parsed.digit_count > 17 {
        return Some(false);
    }
    if round_trips_by_digit_count(parsed.digit_count, parsed.exp10) {
        return Some(true);
    }
    let value = Decimal {
        coeff: parsed.coefficient,
        exp10: parsed.exp10,
    };
    let Some(binary) = value.to_binary64() else {
        return Some(false);
    };
    Some(shortest_decimal(binary) == Some(value))
}

const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Whether a decimal of `digit_count` significant digits times 10^`exp10` is, without
/// computing it, the shortest decimal of its binary64 (guard 5's answer). A decimal of at
/// most 15 significant digits (DBL_DIG) whose magnitude is in the normal binary64 range
/// reads to a binary64 that rounds back to it at 15 digits (Matula's round-trip bound:
/// 10^15 < 2^52), so no other decimal of at most 15 digits reads to the same binary64:
/// the search of `shortest_decimal` stops at this decimal's own length and finds it. Taken
/// only well inside the normal range (10^-300 to 10^300; subnormals round coarser);
/// everything else is computed. The unit test below holds the shortcut to the computation.
fn round_trips_by_digit_count(digit_count: usize, exp10: i64) -> bool {
    // The decimal's magnitude is 10^(exp10 + digit_count - 1) up to a factor below 10.
    let magnitude = exp10 + digit_count as i64 - 1;
    (1..=15).contains(&digit_count) && (-300..=300).contains(&magnitude)
}

/// A JSON number as Seal's agreement guard reads it: significant digits (leading and
/// trailing zeros removed) times a power of ten.
struct WireDecimal {
    digit_count: usize,
    /// The significant digits' value; meaningful when `digit_count` ≤ 17.
    coefficient: u64,
    exp10: i64,
    /// No `.`, `e` or `E` in the literal.
    integer_syntax: bool,
}

impl WireDecimal {
    fn parse(literal: &[u8]) -> Option<Self> {
        let body = literal.strip_prefix(b"-").unwrap_or(literal);
        let marker = body.iter().position(|&c| c == b'e' || c == b'E');
        let (mantissa, exponent) = match marker {
            Some(m) => (&body[..m], Some(parse_exponent(&body[m + 1..])?)),
            None => (body, None),
        };
        let dot = mantissa.iter().position(|&c| c == b'.');
        let (integer_part, fraction) = match dot {
            Some(d) => (&mantissa[..d], &mantissa[d + 1..]),
            None => (mantissa, &[][..]),
        };
        let valid_integer = integer_part == b"0"
            || (integer_part
                .first()
                .is_some_and(|c| (b'1'..=b'9').contains(c))
                && integer_part.iter().all(u8::is_ascii_digit));
        if !valid_integer
            || (dot.is_some() && (fraction.is_empty() || !fraction.iter().all(u8::is_ascii_digit)))
        {
            return None;
        }
        let digits = || integer_part.iter().chain(fraction.iter()).copied();
        let total = integer_part.len() + fraction.len();
        let leading = digits().take_while(|&c| c == b'0').count();
        let trailing = if leading == total {
            0
        } else {
            fraction
                .iter()
                .rev()
                .chain(integer_part.iter().rev())
                .take_while(|&&c| c == b'0')
                .count()
        };
        let digit_count = total - leading - trailing;
        let coefficient = if digit_count <= 17 {
            digits()
                .skip(leading)
                .take(digit_count)
                .fold(0u64, |acc, d| acc * 10 + u64::from(d - b'0'))
        } else {
            0
        };
        let exp10 = exponent.unwrap_or(0) - fraction.len() as i64 + trailing as i64;
        Some(WireDecimal {
            digit_count,
            coefficient,
            exp10: if digit_count == 0 { 0 } else { exp10 },
            integer_syntax: dot.is_none() && marker.is_none(),
        })
    }
}

/// Exponent digits after `e`/`E`: optional sign, then at least one digit. Longer than six
/// significant digits counts as a huge magnitude (guard 1 has already refused it in order).
fn parse_exponent(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let significant: &[u8] = &digits[digits.iter().take_while(|&&c| c == b'0').count()..];
    let magnitude: i64 = if significant.len() > MAX_EXPONENT_DIGITS {
        1_000_000
    } else if significant.is_empty() {
        0
    } else {
        std::str::from_utf8(significant).ok()?.parse().ok()?
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// coeff × 10^k (k ≥ 0) is exactly a binary64 value iff its odd part, odd(coeff) × 5^k,
/// fits 53 bits (the power of two then lands far inside the exponent range).
fn integer_is_exact(coeff: u64, k: i64) -> bool {
    if coeff == 0 {
        return true;
    }
    if k > 400 {
        return false;
    }
    let mut odd = u128::from(coeff >> coeff.trailing_zeros());
    for _ in 0..k {
        odd *= 5;
        if odd >= 1 << 53 {
            return false;
        }
    }
    odd < 1 << 53
}

/// A non-negative decimal coeff × 10^exp10 (the guard compares magnitudes only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Decimal {
    coeff: u64,
    exp10: i64,
}

impl Decimal {
    fn normalized(coeff: &BigUint, exp10: i64) -> Option<Decimal> {
        let mut coeff: u64 = u64::try_from(coeff).ok()?;
        let mut exp10 = exp10;
        if coeff == 0 {
            return Some(Decimal { coeff: 0, exp10: 0 });
        }
        while coeff.is_multiple_of(10) {
            coeff /= 10;
            exp10 += 1;
        }
        Some(Decimal { coeff, exp10 })
    }

    /// Correctly rounded (ties to even) binary64, `None` on overflow. Seal's shortcut bounds
    /// (|exp10| > 400) agree with IEEE rounding for coefficients of at most 17 digits.
    fn to_binary64(self) -> Option<f64> {
        if self.coeff == 0 || self.exp10 < -400 {
            return Some(0.0);
        }
        if self.exp10 > 400 {
            return None;
        }
        let value: f64 = format!("{}e{}", self.coeff, self.exp10).parse().ok()?;
        value.is_finite().then_some(value)
    }
}

/// Seal's shortest round-trip decimal of a finite non-negative binary64: for 1 to 17
/// digits, the nearest decimal of that many digits (ties to even), the first that reads
/// back to the same binary64.
fn shortest_decimal(value: f64) -> Option<Decimal> {
    if value == 0.0 {
        return Some(Decimal { coeff: 0, exp10: 0 });
    }
    let (numerator, denominator) = exact_ratio(value);
    let decimal_exponent = floor_log10(&numerator, &denominator)?;
    for digits in 1..=17i64 {
        let candidate_exponent = decimal_exponent - (digits - 1);
        let coeff = nearest_coefficient(&numerator, &denominator, candidate_exponent);
        let candidate = Decimal::normalized(&coeff, candidate_exponent)?;
        if candidate.to_binary64() == Some(value) {
            return Some(candidate);
        }
    }
    None
}

/// value = numerator / denominator exactly.
fn exact_ratio(value: f64) -> (BigUint, BigUint) {
    let bits = value.to_bits();
    let exponent_bits = ((bits >> 52) & 0x7ff) as i64;
    let fraction = bits & ((1 << 52) - 1);
    let (significand, exp2) = if exponent_bits == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), exponent_bits - 1075)
    };
    let significand = BigUint::from(significand);
    if exp2 >= 0 {
        (significand << exp2 as usize, BigUint::from(1u8))
    } else {
        (significand, BigUint::from(1u8) << (-exp2) as usize)
    }
}

fn floor_log10(numerator: &BigUint, denominator: &BigUint) -> Option<i64> {
    if numerator >= denominator {
        let integer_part = numerator / denominator;
        return Some(integer_part.to_string().len() as i64 - 1);
    }
    let ten = BigUint::from(10u8);
    let mut scaled = numerator.clone();
    for k in 1..=400i64 {
        scaled *= &ten;
        if &scaled >= denominator {
            return Some(-k);
        }
    }
    None
}

fn nearest_coefficient(numerator: &BigUint, denominator: &BigUint, exp10: i64) -> BigUint {
    let power = BigUint::from(10u8).pow(exp10.unsigned_abs() as u32);
    if exp10 >= 0 {
        round_half_even(numerator, &(denominator * power))
    } else {
        round_half_even(&(numerator * power), denominator)
    }
}

fn round_half_even(numerator: &BigUint, denominator: &BigUint) -> BigUint {
    let quotient = numerator / denominator;
    let twice_remainder = (numerator % denominator) * 2u8;
    let one = BigUint::from(1u8);
    match twice_remainder.cmp(denominator) {
        std::cmp::Ordering::Less => quotient,
        std::cmp::Ordering::Greater => quotient + one,
        std::cmp::Ordering::Equal if quotient.bit(0) => quotient + one,
        std::cmp::Ordering::Equal => quotient,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violation(text: &str) -> Option<WireCheck> {
        check(text).err().map(|v| v.check)
    }

    #[test]
    fn ordinary_traffic_passes() {
        let frame = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"db.execute","arguments":{"sql":"SELECT 1","n":[1,-2,0.5,1e2,true,null]}}}"#;
        assert_eq!(violation(frame), None);
    }

    #[test]
    fn each_guard_fires_on_its_own_class() {
        assert_eq!(
            violation(r#"{"n":1e9999999}"#),
            Some(WireCheck::ExponentDigits)
        );
        assert_eq!(violation(r#"{"a":1,"a":2}"#), Some(WireCheck::DuplicateKey));
        assert_eq!(
            violation(r#"{"o":{"k":1,"k":2}}"#),
            Some(WireCheck::DuplicateKey)
        );
        assert_eq!(violation(r#"{"\u0061":1}"#), Some(WireCheck::EscapedKey));
        assert_eq!(violation(r#"{"a":1}}"#), Some(WireCheck::StrayCloser));
        assert_eq!(
            violation("{\"\u{e9}\":1,\"e\u{301}\":2}"),
            Some(WireCheck::CanonicalDuplicateKey)
        );
        assert_eq!(
            violation(r#"{"n":9999999999999999999}"#),
            Some(WireCheck::SignificantDigits)
        );
        assert_eq!(
            violation(r#"{"n":999999999999999999}"#),
            Some(WireCheck::Binary64Disagreement)
        );
        assert_eq!(
            violation(r#"{"n":1e309}"#),
            Some(WireCheck::Binary64Disagreement)
        );
        assert_eq!(violation(r#"{"n":0.30000000000000004}"#), None);
        assert_eq!(violation(r#"{"n":0.1000}"#), None);
        assert_eq!(
            violation(r#"{"n":0.10000000000000001}"#),
            Some(WireCheck::Binary64Disagreement)
        );
        assert_eq!(violation(r#"["\ud800"]"#), Some(WireCheck::LoneSurrogate));
        assert_eq!(
            violation(r#"["\udc00\ud800"]"#),
            Some(WireCheck::LoneSurrogate)
        );
        assert_eq!(violation(r#"["\ud834\udd1e"]"#), None);
        assert_eq!(
            violation(&format!("{}{}", "[".repeat(129), "]".repeat(129))),
            Some(WireCheck::NestingDepth)
        );
        assert_eq!(
            violation(&format!("{}{}", "[".repeat(65), "]".repeat(65))),
            Some(WireCheck::CapDepth)
        );
        assert_eq!(
            violation(&format!("{}{}", "[".repeat(64), "]".repeat(64))),
            None
        );
        assert_eq!(
            violation(&format!("[\"{}\"]", "a".repeat(MAX_JSON_STRING_BYTES + 1))),
            Some(WireCheck::CapStringBytes)
        );
        assert_eq!(
            violation(&format!("[\"{}\"]", "a".repeat(MAX_JSON_STRING_BYTES))),
            None
        );
        assert_eq!(
            violation(&format!("[{}]", vec!["0"; 4097].join(","))),
            Some(WireCheck::CapCollectionItems)
        );
        assert_eq!(violation(&format!("[{}]", vec!["0"; 4096].join(","))), None);
    }

    #[test]
    fn guard_order_decides_which_violation_is_reported() {
        // A duplicate key (guard 2) after a 19-digit number (guard 4): guard 2 wins.
        assert_eq!(
            violation(r#"{"n":9999999999999999999,"n":1}"#),
            Some(WireCheck::DuplicateKey)
        );
        // A huge exponent (guard 1) after a duplicate key: guard 1 wins.
        assert_eq!(
            violation(r#"{"a":1,"a":1e9999999}"#),
            Some(WireCheck::ExponentDigits)
        );
        // Depth 200 (guard 7) with a duplicate key at depth 150: guard 2 wins.
        let deep = format!("{}{{\"k\":1,\"k\":2}}{}", "[".repeat(150), "]".repeat(150));
        assert_eq!(violation(&deep), Some(WireCheck::DuplicateKey));
    }

    /// The scan goes on right after a lone surrogate's escape (guard 6 is recorded, the other
    /// guards still read the rest), so a later duplicate key (guard 2) is the violation
    /// reported, wherever the escape is. Seen red under cargo-mutants' `k + 6` → `k * 6` for
    /// the high and for the low surrogate in `unicode_escape` (the scan jumped past the key).
    #[test]
    fn the_scan_resumes_right_after_a_lone_surrogate() {
        for surrogate in ["\\ud800", "\\udc00"] {
            for pad in [0, 1, 40] {
                let text = format!(r#"{{"s":"{}{surrogate}x","k":1,"k":2}}"#, "p".repeat(pad));
                assert_eq!(violation(&text), Some(WireCheck::DuplicateKey), "{text}");
            }
            let alone = format!(r#"{{"s":"{surrogate}x","k":1}}"#);
            assert_eq!(violation(&alone), Some(WireCheck::LoneSurrogate), "{alone}");
        }
    }

    /// A string cut off by the end of the text (after a plain run, or after a backslash) ends
    /// the scan without a violation: the parse refuses it next (checked red, as a panic on an
    /// index past the end, under the mutant `>=` → `<` on the end test in `Scanner::string`:
    /// docs/mutants.md).
    #[test]
    fn strings_cut_off_by_the_end_of_the_text_end_the_scan() {
        for text in ["[\"abc", "[\"a\\", "[\"", "{\"k\":\"v\\\""] {
            assert_eq!(violation(text), None, "{text:?}");
        }
        // A key's escape is still seen when the key is the last thing in the text, a lone
        // backslash included.
        assert_eq!(violation("{\"a\\n"), Some(WireCheck::EscapedKey));
        assert_eq!(violation("{\"a\\"), Some(WireCheck::EscapedKey));
    }

    #[test]
    fn strings_are_inert_for_number_and_bracket_guards() {
        assert_eq!(
            violation(r#"{"s":"1e9999999 [[[[ 99999999999999999999 \" ]]"}"#),
            None
        );
    }

    #[test]
    fn wide_objects_stay_linear() {
        let keys: Vec<String> = (0..100_000).map(|i| format!("\"k{i}\":0")).collect();
        let wide = format!("{{{}}}", keys.join(","));
        assert_eq!(violation(&wide), Some(WireCheck::CapCollectionItems));
        let with_dup = format!("{{{},\"k5\":1}}", keys.join(","));
        assert_eq!(violation(&with_dup), Some(WireCheck::DuplicateKey));
    }

    /// `passes_on_tree` (the parse's shortcut past the scan) against the scan: on texts the
    /// scan refuses, one for every guard and cap and their edges, it never says the text
    /// passes; on ordinary traffic and on the edges the scan lets through, it does (where it
    /// is not merely cautious, noted). Seen red with `member.key.is_ascii()` dropped from
    /// `tree_passes` (the NFD pair passed) and with `keys_are_distinct` returning true; the
    /// object depth cases were added for two mutants that missed without them
    /// (docs/mutants.md).
    #[test]
    fn the_tree_shortcut_never_passes_what_the_scan_refuses() {
        let on_tree = |text: &str| {
            let root = crate::json::parse(text, MAX_WIRE_NESTING + 1).unwrap();
            passes_on_tree(text, &root)
        };
        let wide = |n: usize, last: &str| {
            let keys: Vec<String> = (0..n).map(|i| format!("\"k{i}\":0")).collect();
            format!("{{{}{last}}}", keys.join(","))
        };
        let refused = [
            r#"{"n":1e9999999}"#.to_owned(),
            r#"{"n":1e-0000001}"#.to_owned(),
            r#"{"a":1,"a":2}"#.to_owned(),
            r#"{"o":{"k":1,"k":2}}"#.to_owned(),
            r#"{"\u0061":1}"#.to_owned(),
            r#"{"a\n":1}"#.to_owned(),
            "{\"\u{e9}\":1,\"e\u{301}\":2}".to_owned(),
            r#"{"n":9999999999999999999}"#.to_owned(),
            r#"{"n":-1.000000000000000000}"#.to_owned(),
            r#"{"n":999999999999999999}"#.to_owned(),
            r#"{"n":1e309}"#.to_owned(),
            r#"{"n":0.10000000000000001}"#.to_owned(),
            r#"["\ud800"]"#.to_owned(),
            r#"["\ud800x"]"#.to_owned(),
            r#"["\ud800\n"]"#.to_owned(),
            r#"["\udc00\ud800"]"#.to_owned(),
            r#"["a\u00e9\udfff"]"#.to_owned(),
            format!("{}{}", "[".repeat(65), "]".repeat(65)),
            format!("{}{}", "[".repeat(129), "]".repeat(129)),
            // An object as the 65th level, and 65 levels of objects alone.
            format!("{}{{}}{}", "[".repeat(64), "]".repeat(64)),
            format!("{}1{}", "{\"a\":".repeat(65), "}".repeat(65)),
            format!("[\"{}\"]", "a".repeat(MAX_JSON_STRING_BYTES + 1)),
            format!("[\"\\n{}\"]", "a".repeat(MAX_JSON_STRING_BYTES - 1)),
            format!("{{\"{}\":1}}", "k".repeat(MAX_JSON_STRING_BYTES + 1)),
            format!("[{}]", vec!["0"; 4097].join(",")),
            wide(4097, ""),
            wide(16, ",\"k3\":1"),
            wide(40, ",\"k39\":1"),
        ];
        for text in &refused {
            assert!(check(text).is_err(), "the scan refuses {text:.80}");
            assert!(!on_tree(text), "the shortcut passed {text:.80}");
        }
        let passed = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"db.execute","arguments":{"sql":"SELECT 1","n":[1,-2,0.5,1e2,1E+006,true,false,null,{}]}}}"#.to_owned(),
            r#"{"n":1.00000000000000000,"m":-0,"e":1e-000001,"x":123456789012345}"#.to_owned(),
            r#"["\ud834\udd1e","\\ud800","\u00e9\n\"\\\/"]"#.to_owned(),
            "[\"caf\u{e9} \u{2014}\"]".to_owned(),
            format!("{}{}", "[".repeat(64), "]".repeat(64)),
            format!("{}{{}}{}", "[".repeat(63), "]".repeat(63)),
            format!("{}1{}", "{\"a\":".repeat(64), "}".repeat(64)),
            format!("[\"{}\"]", "a".repeat(MAX_JSON_STRING_BYTES)),
            format!("[{}]", vec!["0"; 4096].join(",")),
            wide(4096, ""),
            wide(16, ",\"x\":1"),
        ];
        for text in &passed {
            assert!(check(text).is_ok(), "the scan passes {text:.80}");
            assert!(on_tree(text), "the shortcut missed {text:.80}");
        }
        // Merely cautious: a non-ASCII key, which the scan passes, goes to the scan.
        let accented = "{\"\u{e9}\":1,\"e\":2}";
        assert!(check(accented).is_ok() && !on_tree(accented));
    }

    #[test]
    fn agreement_matches_seal_on_edges() {
        for (literal, expected) in [
            ("0", Some(true)),
            ("-0", Some(true)),
            ("9007199254740991", Some(true)),
            ("9007199254740992", Some(false)),
            ("100000000000000000000", Some(true)),
            ("1e22", Some(true)),
            ("1.5", Some(true)),
            ("1.50", Some(true)),
            ("5e-324", Some(true)),
            ("1e-400", Some(false)),
            ("2.2250738585072014e-308", Some(true)),
            ("1.7976931348623157e308", Some(true)),
            ("1.7976931348623159e308", Some(false)),
            ("0.1", Some(true)),
            ("123456789012345678", Some(false)),
            ("-", None),
            ("1.2.3", None),
            ("01", None),
        ] {
            assert_eq!(
                number_agrees_with_binary64(literal.as_bytes()),
                expected,
                "{literal}"
            );
        }
    }

    /// The short-decimal shortcut of guard 5 against the computation it skips (nearest
    /// binary64, then the shortest decimal that reads back to it): on decimals of 1 to 15
    /// significant digits at magnitudes on both sides of the shortcut's bounds, with
    /// coefficients drawn at random and at the edges of each length (all nines, one followed
    /// by zeros and a last digit). Seen red with the bound widened to ±330 (subnormals) and
    /// with 16 digits let in.
    #[test]
    fn short_decimals_shortcut_agrees_with_the_computation() {
        let computed = |coeff: u64, exp10: i64| {
            let value = Decimal { coeff, exp10 };
            value
                .to_binary64()
                .is_some_and(|binary| shortest_decimal(binary) == Some(value))
        };
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0;
        for digits in 1..=16usize {
            let low = 10u64.pow(digits as u32 - 1);
            let mut coefficients = vec![low + 1, 10 * low - 1, low * 9 + 7];
            for _ in 0..12 {
                coefficients.push(low + next() % (9 * low));
            }
            for mut coeff in coefficients {
                if coeff % 10 == 0 {
                    coeff += 1;
                }
                if coeff < low || coeff >= 10 * low {
                    continue;
                }
                for magnitude in (-330i64..=330)
                    .step_by(7)
                    .chain([-301, -300, 300, 301, 308, 309])
                {
                    let exp10 = magnitude - (digits as i64 - 1);
                    if round_trips_by_digit_count(digits, exp10) {
                        assert!(computed(coeff, exp10), "{coeff}e{exp10}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
        // The literal path: decimals with trailing zeros and signs take the shortcut too.
        for literal in [
            "12.50",
            "-0.000123",
            "1234567890.12345",
            "9.99999999999999e299",
        ] {
            assert_eq!(
                number_agrees_with_binary64(literal.as_bytes()),
                Some(true),
                "{literal}"
            );
        }
    }
}
