//! The one escaping function for text shown to people: whatever an input carries (tool names,
//! `_meta` keys, file names, unverified receipt fields, error messages quoting them) reaches a
//! terminal only as visible characters. A character that could move the cursor, recolour,
//! erase, reorder or hide text is written as `\u{HEX}` (its code point in upper-case hex), so
//! the escaped text contains none of them and every escaped character can still be read off
//! the screen. JSON output never goes through here: it keeps exact values.
//!
//! Escaped: C0 controls (U+0000–U+001F, including ESC, CR, LF, TAB and BEL), DEL and the C1
//! controls (U+007F–U+009F), bidirectional embeddings, overrides, isolates and marks,
//! zero-width and other invisible format characters (joiners, word joiner, BOM, soft hyphen,
//! invisible operators, Hangul fillers, interlinear annotation, tag characters, variation
//! selectors), and the line and paragraph separators.

use std::borrow::Cow;

/// True for a character that can change or hide what a terminal shows: the characters
/// [`escape`] replaces.
pub fn is_unsafe(ch: char) -> bool {
    matches!(
        ch,
        // C0 controls, DEL, C1 controls.
        '\u{0}'..='\u{1F}'
            | '\u{7F}'..='\u{9F}'
            // Soft hyphen: invisible unless a line breaks at it.
            | '\u{AD}'
            // Arabic letter mark (a bidi mark).
            | '\u{61C}'
            // Hangul fillers: blank.
            | '\u{115F}'
            | '\u{1160}'
            // Mongolian variation selectors and vowel separator; variation selectors change
            // the glyph of the character before them.
            | '\u{180B}'..='\u{180F}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{E0100}'..='\u{E01EF}'
            // Zero-width space, non-joiner, joiner; LRM and RLM.
            | '\u{200B}'..='\u{200F}'
            // Line and paragraph separators; LRE, RLE, PDF, LRO, RLO.
            | '\u{2028}'..='\u{202E}'
            // Word joiner, invisible operators, LRI, RLI, FSI, PDI, deprecated format controls.
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            // Interlinear annotation controls.
            | '\u{FFF9}'..='\u{FFFB}'
            // Tag characters (invisible; once used to smuggle text).
            | '\u{E0000}'..='\u{E007F}'
    )
}

/// `text` for a terminal: every [`is_unsafe`] character written as `\u{HEX}`, everything else
/// unchanged. Borrows when nothing needed escaping.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_where(text, is_unsafe)
}

/// The escaping itself, with the set of escaped characters as a parameter: [`escape`] passes
/// [`is_unsafe`]; the approval screen, whose rule is pinned in its renderer manifest, passes
/// "outside printable ASCII". Same notation either way.
pub fn escape_where(text: &str, escaped: impl Fn(char) -> bool) -> Cow<'_, str> {
    let Some(first) = text.find(|ch: char| escaped(ch)) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for ch in text[first..].chars() {
        if escaped(ch) {
            out.push_str(&format!("\\u{{{:X}}}", u32::from(ch)));
        } else {
            out.push(ch);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_controls_become_visible_code_points() {
        assert_eq!(
            escape("db.drop_all\r\u{1b}[2K\u{1b}[8m\u{7}"),
            "db.drop_all\\u{D}\\u{1B}[2K\\u{1B}[8m\\u{7}"
        );
        assert_eq!(escape("a\nb\tc\u{0}"), "a\\u{A}b\\u{9}c\\u{0}");
        assert_eq!(
            escape("\u{7f}\u{80}\u{9b}\u{9f}"),
            "\\u{7F}\\u{80}\\u{9B}\\u{9F}"
        );
        assert_eq!(
            escape("x\u{202e}y\u{2066}z\u{2069}\u{200b}\u{200d}\u{feff}\u{2060}"),
            "x\\u{202E}y\\u{2066}z\\u{2069}\\u{200B}\\u{200D}\\u{FEFF}\\u{2060}"
        );
        assert_eq!(
            escape("\u{e0041}\u{2028}\u{ad}"),
            "\\u{E0041}\\u{2028}\\u{AD}"
        );
    }

    #[test]
    fn printable_text_is_borrowed_unchanged() {
        for text in ["", "plain ascii ~!", "é 😀 日本 → — …", "back\\slash"] {
            assert!(
                matches!(escape(text), Cow::Borrowed(t) if t == text),
                "{text}"
            );
        }
    }

    #[test]
    fn the_escaped_set_is_exactly_the_listed_ranges() {
        let unsafe_count = (0..=0x10FFFFu32)
            .filter_map(char::from_u32)
            .filter(|ch| is_unsafe(*ch))
            .count();
        // 32 C0 + 33 DEL/C1 + AD + 61C + 115F + 1160 + 5 (180B–180F) + 16 (FE00–FE0F)
        // + 240 (E0100–E01EF) + 5 (200B–200F) + 7 (2028–202E) + 16 (2060–206F) + 3164 + FEFF
        // + FFA0 + 3 (FFF9–FFFB) + 128 (E0000–E007F).
        assert_eq!(
            unsafe_count,
            32 + 33 + 1 + 1 + 1 + 1 + 5 + 16 + 240 + 5 + 7 + 16 + 1 + 1 + 1 + 3 + 128
        );
        for ch in [
            ' ', '~', '\u{a0}', '\u{ae}', '\u{2027}', '\u{202f}', '\u{205f}', '\u{fff8}',
        ] {
            assert!(!is_unsafe(ch), "{ch:?}");
        }
    }

    #[test]
    fn escape_where_uses_the_given_set() {
        let ascii_only = |ch: char| !(' '..='~').contains(&ch);
        assert_eq!(escape_where("aé\u{1b}", ascii_only), "a\\u{E9}\\u{1B}");
        assert_eq!(escape_where("abc", ascii_only), "abc");
    }
}
