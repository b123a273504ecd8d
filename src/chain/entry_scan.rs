//! A borrowed scan of one sealed-log entry in the shape seal_log.mjs writes: an object whose
//! members are all strings under distinct keys that hold no escape. The `payload` and `head`
//! strings are decoded as they are scanned, in one pass, straight into the caller's buffer (the
//! batch the chaining thread hashes); no node tree is built. Whatever falls outside that shape
//! (another value type, a repeated or escaped key, a surrogate `\u` escape, a syntax error, the
//! end of the text) is `None`, and the caller reads the entry with `json::parse_prefix`
//! instead. What the scan accepts `json::parse_prefix` accepts too, with the same length and
//! the same decoded strings, so the fast path changes no verdict.

use super::decoded::Decoded;
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
pub(super) fn scan_entry(text: &str, out: &mut Decoded) -> Option<ScannedEntry> {
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

/// Decodes the string whose text starts at `i` (past its opening quote) onto `out`, checking it as
/// the parser does; returns where it ends (past its closing quote). A payload is JSON inside a
/// string: an escaped quote every eight bytes or so. So the text is taken 64 bytes at a time: the
/// positions of every quote, backslash and control character in the block are found at once, as one
/// bit each ([`block_stops`]: eight independent word tests, no dependence of one on the last),
/// those a backslash escapes are taken off ([`escaped`]), and the block is decoded stop by stop
/// from that mask ([`decode_block_by_stops`]), writing ahead into the room past `out`'s text. The
/// last bytes of the text, where a block and the bytes a copy reads past it no longer fit, go word
/// by word ([`decode_words`]).
fn decode_string(bytes: &[u8], mut i: usize, out: &mut Decoded) -> Option<usize> {
    // A block and the 64 bytes after it: every fixed copy reads within this window.
    while let Some(window) = bytes.get(i..).and_then(<[u8]>::first_chunk::<WINDOW>) {
        let w = out.len();
        // The block decodes to at most 64 bytes, and a copy writes at most 64 past that.
        let room = out.room(w + 2 * 64 + 8);
        let (stops, backslashes) = block_stops(window);
        let step = decode_block_by_stops(window, stops & !escaped(backslashes), room, w)?;
        out.set_len(step.w);
        i += step.used;
        if step.ended {
            return Some(i);
        }
    }
    decode_words(bytes, i, out)
}

/// What decoding one block did.
struct Step {
    /// Bytes of the text taken (past the closing quote when the string ended).
    used: usize,
    /// Where the decoded text ends in the buffer.
    w: usize,
    /// The string's closing quote was reached.
    ended: bool,
}

/// What [`decode_string`] reads at a time: a block and what a copy from its last byte reads.
const WINDOW: usize = 128;

/// Decodes the block at the start of `window` stop by stop, `stops` being its [`block_stops`] less
/// the [`escaped`] bytes, lowest first, into `room` from `w`. The run before each stop is copied as
/// a fixed 32 bytes (64 when it is longer) and the cursor moved by its length, so neither the copy
/// nor its length is a branch the processor has to guess (a run is 8 bytes or less about half the
/// time, 32 or less nearly always; cutting a word copy back at each, as before, made the run's
/// length a mispredicted branch and each copy a call); a one-letter escape is a table load and one
/// byte. `None` for what the parser refuses or decodes itself.
fn decode_block_by_stops(
    window: &[u8; WINDOW],
    mut stops: u64,
    room: &mut [u8],
    mut w: usize,
) -> Option<Step> {
    // Bytes of the block already decoded.
    let mut at = 0;
    loop {
        if stops == 0 {
            copy_ahead::<64>(window, at, room, w);
            return Some(Step {
                used: 64,
                w: w + 64 - at,
                ended: false,
            });
        }
        let stop = stops.trailing_zeros() as usize;
        let run = stop - at;
        if run <= 32 {
            copy_ahead::<32>(window, at, room, w);
        } else {
            copy_ahead::<64>(window, at, room, w);
        }
        w += run;
        let b = window[stop];
        if b == b'\\' {
            // The escape's letter is at most at 64, its `\u` digits at most at 69: in the
            // window.
            let short = SHORT_ESCAPES[usize::from(window[stop + 1])];
            if short != 0 {
                room[w] = short;
                w += 1;
                at = stop + 2;
                // The escaped letter is no stop ([`escaped`]): only this one is done. Taking
                // the lowest bit off keeps the mask's one-cycle dependence from stop to stop.
                stops &= stops - 1;
            } else {
                let (ch, width) = escape(&window[stop + 1..])?;
                let utf8 = ch.len_utf8();
                ch.encode_utf8(&mut room[w..w + utf8]);
                w += utf8;
                at = stop + 1 + width;
                if at < 64 {
                    stops &= u64::MAX << at;
                }
            }
            if at >= 64 {
                // The escape ends past the block: the next block starts after it.
                return Some(Step {
                    used: at,
                    w,
                    ended: false,
                });
            }
        } else if b == b'"' {
            return Some(Step {
                used: stop + 1,
                w,
                ended: true,
            });
        } else {
            // A raw control character: the parser's error to report.
            return None;
        }
    }
}

/// Copies the `N` bytes of `window` from `at` to `room` at `w`: `N` fixed, so the copy is a
/// few vector moves, not a call.
#[inline(always)]
fn copy_ahead<const N: usize>(window: &[u8; WINDOW], at: usize, room: &mut [u8], w: usize) {
    if let (Some(from), Some(to)) = (
        window.get(at..).and_then(<[u8]>::first_chunk::<N>),
        room.get_mut(w..).and_then(<[u8]>::first_chunk_mut::<N>),
    ) {
        *to = *from;
    }
}

/// Decodes the escape whose backslash is at `i` onto `out`; returns its width in bytes.
#[inline]
fn decode_escape(bytes: &[u8], i: usize, out: &mut Decoded) -> Option<usize> {
    // A one-letter escape by table: a `match` here is an indirect jump that a string of
    // mixed escapes keeps mispredicting.
    let short = SHORT_ESCAPES[usize::from(*bytes.get(i + 1)?)];
    if short != 0 {
        out.push(short);
        return Some(2);
    }
    let (ch, width) = escape(&bytes[i + 1..])?;
    out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
    Some(1 + width)
}

/// One bit per byte of the window's first 64 bytes (bit k for byte k) set exactly where the
/// byte is a quote, a backslash or a control character ([`is_stop`]), and the same for the
/// backslashes alone.
#[inline]
fn block_stops(window: &[u8; WINDOW]) -> (u64, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOWS: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    // The high bit of each zero byte of `x`, exactly (no borrow runs between bytes).
    let zero_bytes = |x: u64| !(((x & LOWS).wrapping_add(LOWS)) | x | LOWS);
    // Each byte's high bit gathered into the top byte, byte k at bit 56 + k.
    let gather = |highs: u64| ((highs >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56;
    let mut stops = 0;
    let mut backslashes = 0;
    for (k, chunk) in window.chunks_exact(8).take(8).enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let backslash = zero_bytes(word ^ (ONES * u64::from(b'\\')));
        let highs = zero_bytes(word ^ (ONES * u64::from(b'"')))
            | backslash
            // A byte below 0x20 has its top three bits clear.
            | zero_bytes(word & (ONES * 0xe0));
        stops |= gather(highs) << (8 * k);
        backslashes |= gather(backslash) << (8 * k);
    }
    (stops, backslashes)
}

/// The bytes of a block escaped by a backslash before them, given the block's backslashes (bit
/// k for byte k), when the block's first byte is escaped by nothing (a block starts after a
/// whole escape, [`decode_string`]): in each run of backslashes, every second one starting
/// with the second, and the byte after a run of odd length. Adding a run's first bit to the
/// run carries to the bit after it, so `b ^ (b + first)` is the run and that bit; the
/// escaped ones are at odd offsets from the run's start. A run that reaches the block's end
/// carries out of it, and the byte after it is the next block's (read at its escape).
fn escaped(backslashes: u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let firsts = backslashes & !(backslashes << 1);
    let from_even = backslashes ^ backslashes.wrapping_add(firsts & EVEN);
    let from_odd = backslashes ^ backslashes.wrapping_add(firsts & !EVEN);
    (from_even & !EVEN) | (from_odd & EVEN)
}

/// [`decode_string`] for the text's last bytes, eight at a time: each word is copied whole
/// and the copy cut back to its first stop byte, then that byte is decoded.
fn decode_words(bytes: &[u8], mut i: usize, out: &mut Decoded) -> Option<usize> {
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
        let mut out = Decoded::default();
        out.extend_from_slice(b"prior");
        let Some(scanned) = scan_entry(text, &mut out) else {
            return false;
        };
        let out = out.as_bytes();
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
            // Runs of backslashes: an escaped backslash before an escaped quote, two escaped
            // backslashes, an escaped backslash before the closing quote, and an escape
            // between two others.
            "\\\\\\\"",
            "\\\\\\\\",
            "\\\\\"",
            "\\\"\\n\\\"",
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
                                let mut out = Decoded::default();
                                assert_eq!(scan_entry(&text, &mut out), None, "{text:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// Long strings of many escapes, as payloads are (JSON inside a string), each piece drawn
    /// from plain runs of every length up to 70 and every escape, in strings long enough that
    /// block boundaries fall at every place relative to them: the scan decodes them as the
    /// parser does.
    #[test]
    fn decodes_strings_of_many_escapes_as_the_parser_does() {
        let pieces = [
            "\\\"",
            "\\\\",
            "\\\\\\\"",
            "\\/",
            "\\n",
            "\\t",
            "\\u00e9",
            "\\u20ac",
            "\u{e9}",
            "\u{1F600}",
            ":",
            ",",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        for round in 0..3000 {
            let mut body = " ".repeat(round % 64);
            while body.len() < 400 {
                if next(3) == 0 {
                    body.push_str(&"x".repeat(next(71)));
                } else {
                    // Plain and escape-only strings by turns: the plain-block path, and the
                    // stop-by-stop one.
                    let only_quotes = round % 2 == 0;
                    let piece = pieces[next(if only_quotes { 3 } else { pieces.len() })];
                    body.push_str(piece);
                }
            }
            for tail in ["", ",\n    {"] {
                let text = format!("{{\"head\":\"h\",\"payload\":\"{body}\"}}{tail}");
                assert!(agrees(&text), "{text:?} not taken by the scan");
            }
        }
    }

    /// The room the decoder writes ahead into is enough wherever the batch's buffer ends:
    /// text already in the batch at every length just below the buffer's first size (4,096
    /// bytes), and a string whose first block has one escape at every late position, so that
    /// the block's last copy reaches the buffer's end at every offset; each decodes as the
    /// parser decodes it (seen red with the room asked for cut by 8 bytes: a copy that did
    /// not fit was dropped).
    #[test]
    fn the_room_written_ahead_is_enough_wherever_the_buffer_ends() {
        for gap in 40..64 {
            let body = format!("{}\\\"{}", "x".repeat(gap), "y".repeat(150));
            let text = format!(
                "{{\"head\":\"h\",\"payload\":\"{body}\"}}{}",
                " ".repeat(200)
            );
            let (node, _) = json::parse_prefix(&text, 62).unwrap();
            let payload = node.value.get("payload").unwrap().value.as_str().unwrap();
            for prior in 3_850..4_000 {
                let mut out = Decoded::default();
                out.extend_from_slice(&vec![b'p'; prior]);
                let scanned = scan_entry(&text, &mut out).unwrap();
                let range = scanned.payload.unwrap();
                assert_eq!(
                    &out.as_bytes()[range],
                    payload.as_bytes(),
                    "gap {gap} after {prior}"
                );
            }
        }
    }

    /// The block mask is exact: every byte value at every position of a block, alone among
    /// plain bytes and beside stop bytes and bytes with the high bit set (where a word test
    /// that lets a borrow run between bytes flags the wrong one); the 64 bytes after the
    /// block never count.
    #[test]
    fn block_stops_flags_exactly_the_stop_bytes() {
        for fill in [b'a', 0x80, 0xff, b'"', 0x00, 0x20, 0xe0] {
            for value in 0..=u8::MAX {
                for at in 0..64 {
                    let mut window = [fill; WINDOW];
                    window[at] = value;
                    window[64..].fill(b'"');
                    let expected = (0..64)
                        .filter(|&k| is_stop(window[k]))
                        .fold(0u64, |m, k| m | 1 << k);
                    let backslashes = (0..64)
                        .filter(|&k| window[k] == b'\\')
                        .fold(0u64, |m, k| m | 1 << k);
                    assert_eq!(
                        block_stops(&window),
                        (expected, backslashes),
                        "{value:#x} at {at} in {fill:#x}"
                    );
                }
            }
        }
    }

    /// [`escaped`] against a walk over the block that takes a backslash and the byte after it
    /// together: every pattern of 16 bits at four places in the block, and 200,000 blocks of
    /// dense backslashes (seen red with `from_odd & EVEN` → `from_odd & !EVEN` applied by hand,
    /// and in the decoding tests with `escaped` → 0).
    #[test]
    fn escaped_is_what_a_walk_over_the_block_escapes() {
        let walk = |backslashes: u64| {
            let mut escaped = 0u64;
            let mut k = 0;
            while k < 64 {
                if backslashes >> k & 1 == 1 {
                    if k < 63 {
                        escaped |= 1 << (k + 1);
                    }
                    k += 2;
                } else {
                    k += 1;
                }
            }
            escaped
        };
        for shift in [0, 17, 40, 48] {
            for pattern in 0..=u64::from(u16::MAX) {
                let backslashes = pattern << shift;
                assert_eq!(
                    escaped(backslashes),
                    walk(backslashes),
                    "{backslashes:#066b}"
                );
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // About three bits in four set: long runs of every length.
            let backslashes = state | state.rotate_left(23);
            assert_eq!(
                escaped(backslashes),
                walk(backslashes),
                "{backslashes:#066b}"
            );
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
            let mut out = Decoded::default();
            assert_eq!(scan_entry(text, &mut out), None, "{text:?}");
        }
    }
}
