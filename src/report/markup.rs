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

/// Characters that would act on the display instead of being read: controls (LF excepted,
/// which `<pre>` shows as a line break), bidi controls, zero-width and separator characters.
/// The page script applies the same list to text it inserts.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{9}' | '\u{B}'..='\u{1F}' | '\u{7F}'..='\u{9F}' | '\u{AD}' | '\u{61C}'
        | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{2069}'
        | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
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
    }
}
