//! A borrowed scan of one sealed-log entry in the shape seal_log.mjs writes: an object whose
//! members are all strings under distinct keys that hold no escape. The `payload` and `head`
//! strings are copied as written (into the caller's buffer) and decoded later by
//! [`decode_into`], on the thread that hashes them; no node tree is built. Whatever falls
//! outside that shape (another value type, a repeated or escaped key, a surrogate `\u` escape,
//! a syntax error, the end of the text) is `None`, and the caller reads the entry with
//! `json::parse_prefix` instead. What the scan accepts `json::parse_prefix` accepts too, with
//! the same length and the same decoded strings, so the fast path changes no verdict.

use crate::json::string_run;
use std::ops::Range;

/// The members an entry may have on the fast path (seal_log.mjs writes two).
const MAX_MEMBERS: usize = 8;

/// An entry read by [`scan_entry`].
#[derive(Debug, PartialEq, Eq)]
pub(super) struct ScannedEntry {
    /// Bytes of the text the entry takes.
    pub(super) used: usize,
    /// The payload as written, if the entry has one.
    pub(super) payload: Option<Written>,
    /// The recorded head as written, if the entry has one.
    pub(super) head: Option<Written>,
}

/// A string's text between its quotes as written, copied to a buffer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Written {
    /// Where it is in the buffer.
    pub(super) range: Range<usize>,
    /// It holds escapes: [`decode_into`] gives its value (otherwise the text is the value).
    pub(super) escaped: bool,
}

/// Reads the entry `text` starts with, appending its `payload` and `head` as written to `out`.
/// On `None` `out` may hold part of them past its former length; the caller cuts it.
pub(super) fn scan_entry(text: &str, out: &mut String) -> Option<ScannedEntry> {
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
    let mut keys: [&str; MAX_MEMBERS] = [""; MAX_MEMBERS];
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
        let key = &text[i + 1..i + 1 + run];
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
        let (end, escaped) = string(text, i)?;
        let kept = match key {
            "payload" => Some(&mut entry.payload),
            "head" => Some(&mut entry.head),
            _ => None,
        };
        if let Some(kept) = kept {
            let start = out.len();
            out.push_str(&text[i + 1..end - 1]);
            *kept = Some(Written {
                range: start..out.len(),
                escaped,
            });
        }
        i = end;
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

/// The string starting with the quote at `at`: where it ends (past its closing quote), and
/// whether it holds escapes.
fn string(text: &str, at: usize) -> Option<(usize, bool)> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    let mut escaped = false;
    loop {
        i += if escaped {
            // Past the first escape runs are short: a byte loop beats the word scan.
            let rest = &bytes[i..];
            rest.iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .unwrap_or(rest.len())
        } else {
            string_run(&bytes[i..], true)
        };
        match bytes.get(i)? {
            b'"' => return Some((i + 1, escaped)),
            b'\\' => {
                let (_, width) = escape(bytes.get(i + 1..)?)?;
                escaped = true;
                i += 1 + width;
            }
            // A raw control character: the parser's error to report.
            _ => return None,
        }
    }
}

/// The value of a string [`scan_entry`] took, from its text as written (`raw`).
pub(super) fn decode_into(raw: &str, out: &mut String) {
    let bytes = raw.as_bytes();
    let mut plain = 0;
    let mut i = 0;
    // Runs between escapes are short in a JSON text carried as a string: a byte loop beats
    // `memchr`'s setup per run.
    while let Some(&b) = bytes.get(i) {
        if b != b'\\' {
            i += 1;
            continue;
        }
        let Some((ch, width)) = escape(&bytes[i + 1..]) else {
            // Not in a string the scan took; kept as written rather than a panic.
            break;
        };
        out.push_str(&raw[plain..i]);
        out.push(ch);
        i += 1 + width;
        plain = i;
    }
    out.push_str(&raw[plain..]);
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
        let mut out = String::from("prior");
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
        let decoded = |written: &Option<Written>| {
            written.as_ref().map(|w| {
                let raw = &out[w.range.clone()];
                let mut value = String::new();
                decode_into(raw, &mut value);
                assert_eq!(w.escaped, value != raw, "{text:?}");
                value
            })
        };
        assert_eq!(
            decoded(&scanned.payload).as_deref(),
            field("payload"),
            "{text:?}"
        );
        assert_eq!(decoded(&scanned.head).as_deref(), field("head"), "{text:?}");
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
            let mut out = String::new();
            assert_eq!(scan_entry(text, &mut out), None, "{text:?}");
        }
    }
}
