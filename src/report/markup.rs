//! The one escaping function of the report page: every string that came from an input
//! enters the markup through [`escape`], as inert text (HTML-escaped, and control, bidi
//! and invisible characters shown as `\u{HEX}`).

use std::fmt::Write as _;

/// The one escaping function for the page: HTML-escapes `&<>"'` (safe in text and in quoted
/// attributes) and writes every control, bidirectional and invisible character as a visible
/// `\u{HEX}`, so no input can reorder, hide or mark up what is shown.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if is_invisible(c) => {
                let _ = write!(out, "\\u{{{:X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Characters that would act on the display instead of being read: the characters the
/// terminal's escaping function escapes ([`crate::inert::is_unsafe`]: controls, bidi
/// controls, zero-width and other invisible format characters, tag characters, variation
/// selectors, separators), LF excepted (`<pre>` shows it as a line break). One list for
/// every human rendering; the page script applies the same list to text it inserts
/// (`INVISIBLE` in page.js, checked against this one).
pub fn is_invisible(c: char) -> bool {
    c != '\n' && crate::inert::is_unsafe(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_makes_markup_and_invisible_characters_inert() {
        assert_eq!(
            escape("<img src=x onerror=\"a('b')\">&"),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;"
        );
        assert_eq!(
            escape("a\u{202E}b\u{200B}c\u{7}\td\n"),
            "a\\u{202E}b\\u{200B}c\\u{7}\\u{9}d\n"
        );
        // Tag characters (hidden text), variation selectors, invisible operators, Hangul
        // fillers. Seen red on 07add1e: the page passed them through.
        assert_eq!(
            escape("x\u{E0041}\u{FE0F}\u{2062}\u{3164}y"),
            "x\\u{E0041}\\u{FE0F}\\u{2062}\\u{3164}y"
        );
    }

    /// The page script's list of characters it shows escaped is this one, code point by
    /// code point.
    #[test]
    fn the_page_script_escapes_the_same_characters() {
        let script = include_str!("page.js");
        let start = script.find("var INVISIBLE = /[").unwrap() + "var INVISIBLE = /[".len();
        let class = &script[start..start + script[start..].find("]/gu").unwrap()];
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        let mut rest = class;
        let point = |rest: &mut &str| -> u32 {
            let text = rest.strip_prefix("\\u").unwrap();
            let (hex, after) = match text.strip_prefix('{') {
                Some(braced) => {
                    let end = braced.find('}').unwrap();
                    (&braced[..end], &braced[end + 1..])
                }
                None => (&text[..4], &text[4..]),
            };
            *rest = after;
            u32::from_str_radix(hex, 16).unwrap()
        };
        while !rest.is_empty() {
            let low = point(&mut rest);
            let high = match rest.strip_prefix('-') {
                Some(after) => {
                    rest = after;
                    point(&mut rest)
                }
                None => low,
            };
            ranges.push((low, high));
        }
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let listed = ranges.iter().any(|&(a, b)| (a..=b).contains(&(c as u32)));
            assert_eq!(listed, is_invisible(c), "U+{:04X}", c as u32);
        }
    }
}
