//! A borrowed scan of one sealed-log entry in the shape seal_log.mjs writes: an object whose
//! members are all strings under distinct keys that hold no escape. The `payload` and `head`
//! strings are decoded as they are scanned, in one pass, straight into the caller's buffer (the
//! batch the chaining thread hashes); no node tree is built. Whatever falls outside that shape
//! (another value type, a repeated or escaped key, a surrogate `\u` escape, a syntax error, the
//! end of the text) is `None`, and the caller reads the entry with `json::parse_prefix`
//! instead. What the scan accepts `json::parse_prefix` accepts too, with the same length and
//! the same decoded strings, so the fast path changes no verdict.

use crate::json::string_run;
use std::ops::Range;

/// The members an entry may have on the fast path (seal_log.mjs writes two).
const MAX_MEMBERS: usize = 8;

/// An entry read by [`scan_entry`].
#[derive(Debug, PartialEq, Eq)]
pub(super) struct ScannedEntry {
    /// Bytes of the text the entry takes.
    pub(super) used: usize,
    /// Where the decoded payload is in the buffer, if the entry has one.
    pub(super) payload: Option<Range<usize>>,
    /// Where the decoded recorded head is in the buffer, if the entry has one.
    pub(super) head: Option<Range<usize>>,
}

/// Reads the entry `text` starts with, appending its decoded `payload` and `head` to `out`.
/// On `None` `out` may hold part of them past its former length; the caller cuts it.
pub(super) fn scan_entry(text: &str, out: &mut Vec<u8>) -> Option<ScannedEntry> {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'{') {
        return None;
    }
    let mut i = skip_ws(bytes, 1);
    let mut entry = ScannedEntry {
        used: 0,
        payload: None,
        head: None,
    };
    if bytes.get(i) == Some(&b'}') {
        entry.used = i + 1;
        return Some(entry);
    }
    let mut keys: [&[u8]; MAX_MEMBERS] = [b""; MAX_MEMBERS];
    let mut members = 0;
    loop {
        // A key without escapes: its text is its name.
        if bytes.get(i) != Some(&b'"') {
            return None;
        }
        let run = string_run(&bytes[i + 1..], true);
        if bytes.get(i + 1 + run) != Some(&b'"') {
            return None;
        }
        let key = &bytes[i + 1..i + 1 + run];
        if members == MAX_MEMBERS || keys[..members].contains(&key) {
            return None;
        }
        keys[members] = key;
        members += 1;
        i = skip_ws(bytes, i + 2 + run);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(bytes, i + 1);
        if bytes.get(i) != Some(&b'"') {
            return None;
        }
        let start = out.len();
        i = decode_string(bytes, i + 1, out)?;
        let decoded = Some(start..out.len());
        match key {
            b"payload" => entry.payload = decoded,
            b"head" => entry.head = decoded,
            // Checked, not kept.
            _ => out.truncate(start),
        }
        i = skip_ws(bytes, i);
        match bytes.get(i) {
            Some(b',') => i = skip_ws(bytes, i + 1),
            Some(b'}') => {
                entry.used = i + 1;
                return Some(entry);
            }
            _ => return None,
        }
    }
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(i) {
        i += 1;
    }
    i
}

/// Decodes the string whose text starts at `i` (past its opening quote) onto `out`, checking
/// it as the parser does; returns where it ends (past its closing quote). A payload is JSON
/// inside a string: an escaped quote every eight bytes or so. So the text is taken 64 bytes
/// at a time: the positions of every quote, backslash and control character in the block are
/// found at once, as one bit each ([`block_stops`]: eight independent word tests, no
/// dependence of one on the last), and the stops are then taken from that mask lowest first,
/// each run before one copied as a whole word cut back to its length. Walking a word at a
/// time instead made every step wait on the one before (load, test, count, advance), about
/// twenty cycles an escape. The last bytes of the text, fewer than a block, go word by word
/// ([`decode_words`]).
fn decode_string(bytes: &[u8], mut i: usize, out: &mut Vec<u8>) -> Option<usize> {
    while let Some(block) = bytes.get(i..).and_then(<[u8]>::first_chunk::<64>) {
        let mut stops = block_stops(block);
        // Bytes of the block already decoded.
        let mut at = 0;
        loop {
            if stops == 0 {
                out.extend_from_slice(&block[at..]);
                i += 64;
                break;
            }
            let stop = stops.trailing_zeros() as usize;
            match block[at..].first_chunk::<8>() {
                // A short run: one whole word, cut back (no call to copy it).
                Some(word) if stop - at <= 8 => {
                    let kept = out.len();
                    out.extend_from_slice(word);
                    out.truncate(kept + stop - at);
                }
                _ => out.extend_from_slice(&block[at..stop]),
            }
            let b = block[stop];
            if b == b'\\' {
                let width = decode_escape(bytes, i + stop, out)?;
                at = stop + width;
                if at >= 64 {
                    // The escape ends past the block: the next block starts after it.
                    i += at;
                    break;
                }
                // The escaped character is no stop (`\"`, `\\`): take the mask past it.
                stops &= u64::MAX << at;
            } else if b == b'"' {
                return Some(i + stop + 1);
            } else {
                // A raw control character: the parser's error to report.
                return None;
            }
        }
    }
    decode_words(bytes, i, out)
}

/// Decodes the escape whose backslash is at `i` onto `out`; returns its width in bytes.
#[inline]
fn decode_escape(bytes: &[u8], i: usize, out: &mut Vec<u8>) -> Option<usize> {
    // A one-letter escape by table: a `match` here is an indirect jump that a string of
    // mixed escapes keeps mispredicting.
    let short = SHORT_ESCAPES[usize::from(*bytes.get(i + 1)?)];
    if short != 0 {
        out.push(short);
        return Some(2);
    }
    let (ch, width) = escape(&bytes[i + 1..])?;
    if ch.is_ascii() {
        out.push(ch as u8);
    } else {
        out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
    }
    Some(1 + width)
}

/// One bit per byte of `block` (bit k for byte k) set exactly where the byte is a quote, a
/// backslash or a control character ([`is_stop`]).
#[inline]
fn block_stops(block: &[u8; 64]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOWS: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The high bit of each zero byte of `x`, exactly (no borrow runs between bytes).
    let zero_bytes = |x: u64| !(((x & LOWS).wrapping_add(LOWS)) | x | LOWS);
    let mut mask = 0;
    for (k, chunk) in block.chunks_exact(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let highs = zero_bytes(word ^ (ONES * u64::from(b'"')))
            | zero_bytes(word ^ (ONES * u64::from(b'\\')))
            // A byte below 0x20 has its top three bits clear.
            | zero_bytes(word & (ONES * 0xe0));
        // Each byte's high bit gathered into the top byte, byte k at bit 56 + k.
        let bits = ((highs >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56;
        mask |= bits << (8 * k);
    }
    mask
}

/// [`decode_string`] for the text's last bytes, eight at a time: each word is copied whole
/// and the copy cut back to its first stop byte, then that byte is decoded.
fn decode_words(bytes: &[u8], mut i: usize, out: &mut Vec<u8>) -> Option<usize> {
    loop {
        if let Some(word) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            let kept = out.len();
            out.extend_from_slice(word);
            // 8 when the word holds no stop byte; otherwise the lowest flagged byte is a stop
            // byte (only bytes above one can be flagged wrongly), so the run ends exactly there.
            let run = (stop_bytes(u64::from_le_bytes(*word)).trailing_zeros() / 8) as usize;
            out.truncate(kept + run);
            i += run;
        } else {
            // The last bytes of the text: one at a time.
            let b = *bytes.get(i)?;
            if !is_stop(b) {
                out.push(b);
                i += 1;
                continue;
            }
        }
        let b = *bytes.get(i)?;
        if b == b'\\' {
            i += decode_escape(bytes, i, out)?;
        } else if b == b'"' {
            return Some(i + 1);
        } else if b < 0x20 {
            // A raw control character: the parser's error to report.
            return None;
        }
        // Otherwise the byte after a word without a stop byte, plain: the next word has it.
    }
}

/// What each one-letter escape stands for, by the letter (the parser's `short_escape`,
/// `short_escapes_are_the_parsers` holds them equal); 0 for `u` and for a byte no escape
/// starts with. A constant: a lazily built table costs a check of its state on every escape.
const SHORT_ESCAPES: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[b'/' as usize] = b'/';
    table[b'b' as usize] = 0x08;
    table[b'f' as usize] = 0x0c;
    table[b'n' as usize] = b'\n';
    table[b'r' as usize] = b'\r';
    table[b't' as usize] = b'\t';
    table
};

/// A byte that ends a plain run inside a string: a quote, a backslash or a control character.
fn is_stop(b: u8) -> bool {
    b == b'"' || b == b'\\' || b < 0x20
}

/// The high bit of each byte of `word` (little-endian) that may be a stop byte ([`is_stop`]);
/// zero when none is, and the lowest byte flagged always is one.
#[inline]
fn stop_bytes(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |w: u64| w.wrapping_sub(ONES) & !w & HIGHS;
    zero_byte(word ^ (ONES * u64::from(b'"')))
        | zero_byte(word ^ (ONES * u64::from(b'\\')))
        | (word.wrapping_sub(ONES * 0x20) & !word & HIGHS)
}

/// The escape after a backslash and how many bytes it takes; `None` for an invalid one and
/// for a surrogate `\u` escape (paired or not, those are the parser's to decode).
fn escape(after: &[u8]) -> Option<(char, usize)> {
    let code = *after.first()?;
    if code == b'u' {
        let hex = after.get(1..5)?;
        let mut unit = 0u32;
        for &b in hex {
            unit = unit * 16 + char::from(b).to_digit(16)?;
        }
        return char::from_u32(unit).map(|ch| (ch, 5));
    }
    crate::json::short_escape(code).map(|ch| (ch, 1))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::json::{self, JsonValue};

    /// The scan against `json::parse_prefix` on the same text: whenever the scan reads an
    /// entry, the parser reads the same length, the same decoded payload and head, and no
    /// repeated key.
    fn agrees(text: &str) -> bool {
        let mut out = b"prior".to_vec();
        let Some(scanned) = scan_entry(text, &mut out) else {
            return false;
        };
        let (node, used) = json::parse_prefix(text, 62).unwrap();
        assert_eq!(scanned.used, used, "{text:?}");
        assert_eq!(json::first_duplicate(&node), None, "{text:?}");
        let JsonValue::Object(members) = &node.value else {
            panic!("{text:?} is no object");
        };
        assert!(members.iter().all(|m| m.value.value.as_str().is_some()));
        let field = |name: &str| node.value.get(name).and_then(|n| n.value.as_str());
        let decoded = |range: &Option<Range<usize>>| {
            range
                .as_ref()
                .map(|r| std::str::from_utf8(&out[r.clone()]).unwrap())
        };
        assert_eq!(decoded(&scanned.payload), field("payload"), "{text:?}");
        assert_eq!(decoded(&scanned.head), field("head"), "{text:?}");
        // Nothing else is kept: the buffer holds what it held, then the two strings.
        let kept = scanned.payload.iter().chain(&scanned.head);
        assert_eq!(
            out.len(),
            5 + kept.map(ExactSizeIterator::len).sum::<usize>()
        );
        true
    }

    #[test]
    fn entries_in_seal_log_shape_read_as_the_parser_reads_them() {
        for text in [
            "{\n      \"payload\": \"{\\\"a\\\":1}\",\n      \"head\": \"ab\"\n    },",
            r#"{"head":"x","payload":"a\n\t\\\/\b\f\r\u00e9\u20AC z"} "#,
            r#"{"payload":"","other":"\u0041"}]"#,
            r#"{ }, "#,
            r#"{"head":"only"}x"#,
            "{\"payload\":\"caf\u{e9} \u{1F600}\"}\n",
        ] {
            assert!(agrees(text), "{text:?} not taken by the scan");
        }
    }

    /// Every kind of stop at every position of an eight-byte word, in strings that end deep in
    /// the text and at its very end (the byte-at-a-time tail): the scan takes what the parser
    /// takes, with the same decoding, and leaves to it what it refuses (seen red under
    /// cargo-mutants with `stop_bytes`'s control-character term joined by `&` instead of `|`,
    /// and with `is_stop`'s `< 0x20` turned into `> 0x20`: docs/mutants.md).
    #[test]
    fn decodes_every_stop_at_every_offset_as_the_parser_does() {
        let stops = [
            "\\\"",
            "\\\\",
            "\\/",
            "\\b",
            "\\f",
            "\\n",
            "\\r",
            "\\t",
            "\\u00e9",
            "\\u20AC",
            "\u{1}",
            "\t",
            "\\x",
            "\\u12",
            "\\ud800",
            "\"",
            "\u{e9}",
            "\u{1F600}",
        ];
        // Long texts after the entry put the string in whole 64-byte blocks, at every offset
        // of one and across the boundary between two.
        let far = format!(",\n{}{{", " ".repeat(140));
        for filler in ["a", "\u{e9}"] {
            for len in (0..20).chain([55, 56, 57, 63, 64, 65, 71]) {
                for at in 0..=len {
                    for stop in stops {
                        let mut body = filler.repeat(len);
                        body.insert_str(at * filler.len(), stop);
                        for tail in ["", ",\n    {", far.as_str()] {
                            let text = format!("{{\"head\":\"h\",\"payload\":\"{body}\"}}{tail}");
                            let parsed = json::parse_prefix(&text, 62).is_ok();
                            if parsed && !stop.starts_with("\\ud8") {
                                assert!(agrees(&text), "{text:?} not taken by the scan");
                            } else if !parsed {
                                let mut out = Vec::new();
                                assert_eq!(scan_entry(&text, &mut out), None, "{text:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// The block mask is exact: every byte value at every position of a block, alone among
    /// plain bytes and beside stop bytes and bytes with the high bit set (where a word test
    /// that lets a borrow run between bytes flags the wrong one).
    #[test]
    fn block_stops_flags_exactly_the_stop_bytes() {
        for fill in [b'a', 0x80, 0xff, b'"', 0x00, 0x20, 0xe0] {
            for value in 0..=u8::MAX {
                for at in 0..64 {
                    let mut block = [fill; 64];
                    block[at] = value;
                    let expected = (0..64)
                        .filter(|&k| is_stop(block[k]))
                        .fold(0u64, |m, k| m | 1 << k);
                    assert_eq!(
                        block_stops(&block),
                        expected,
                        "{value:#x} at {at} in {fill:#x}"
                    );
                }
            }
        }
    }

    /// The constant table against the parser's `short_escape`, byte by byte.
    #[test]
    fn short_escapes_are_the_parsers() {
        for code in 0..=u8::MAX {
            let parser = json::short_escape(code).map_or(0, |ch| ch as u8);
            assert_eq!(SHORT_ESCAPES[usize::from(code)], parser, "{code}");
        }
    }

    /// Each of these is left to the parser (seen red with the repeated-key test removed: the
    /// scan then kept the second payload without the duplicate finding).
    #[test]
    fn anything_else_is_left_to_the_parser() {
        for text in [
            r#"{"payload":"a","payload":"b"}"#,
            r#"{"payload":7,"head":"x"}"#,
            r#"{"p\u0061yload":"a"}"#,
            r#"{"payload":"\ud83d\ude00"}"#,
            r#"{"payload":"\ud800"}"#,
            r#"{"payload":"a\x"}"#,
            r#"{"payload":"a\u00g0"}"#,
            "{\"payload\":\"a\u{1}\"}",
            r#"{"payload":"a""#,
            r#"{"payload":"a"#,
            r#"{"payload" "a"}"#,
            r#"{"payload":"a",}"#,
            r#"{"payload":"a" "head":"b"}"#,
            r#"["payload","a"]"#,
            r#"{"a":"","b":"","c":"","d":"","e":"","f":"","g":"","h":"","i":""}"#,
            r#"{"#,
            "",
        ] {
            let mut out = Vec::new();
            assert_eq!(scan_entry(text, &mut out), None, "{text:?}");
        }
    }
}
