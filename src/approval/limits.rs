//! seal-host's size limits for approval tokens (docs/formats.md, §4):
//! 16 KiB per token line and per payload string (4 MiB per token file is the token file's own
//! bound, [`crate::tokenfile::MAX_TOKEN_FILE_BYTES`]), and its conservative
//! lexical JSON pass — nesting depth 64, 256 KiB inside one quoted token (escape characters
//! counted), 4096 items (commas + 1) per container — which runs before any parse and is not a
//! validator. `crate::wire` runs the same caps interleaved with Seal's frame guards; this is
//! the standalone pass seal-host applies to token lines and payload texts.

/// Longest token line, and longest payload string, seal-host reads.
pub const MAX_APPROVAL_LINE_BYTES: usize = 16 * 1024;
pub const MAX_JSON_DEPTH: usize = 64;
pub const MAX_JSON_STRING_BYTES: usize = 256 * 1024;
pub const MAX_JSON_COLLECTION_ITEMS: usize = 4096;

/// Which lexical cap a text exceeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cap {
    Depth,
    StringBytes,
    CollectionItems,
}

/// The first cap `bytes` exceeds, in byte order, if any.
pub fn first_exceeded_cap(bytes: &[u8]) -> Option<Cap> {
    // Shortcut with the same answer: with at most 64 openers in the whole text no nesting
    // can pass 64, with at most 4095 commas no container can pass 4096 items, and a text no
    // longer than 256 KiB has no longer quoted token. Token lines almost always qualify.
    let openers = memchr::memchr2_iter(b'{', b'[', bytes).count();
    if bytes.len() <= MAX_JSON_STRING_BYTES
        && openers <= MAX_JSON_DEPTH
        && memchr::memchr_iter(b',', bytes).count() < MAX_JSON_COLLECTION_ITEMS
    {
        return None;
    }
    exact_scan(bytes)
}

/// seal-host's lexical pass, byte by byte.
fn exact_scan(bytes: &[u8]) -> Option<Cap> {
    let mut items: Vec<usize> = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut string_bytes = 0usize;
    for &byte in bytes {
        if in_string {
            if escaped {
                escaped = false;
                string_bytes += 1;
            } else if byte == b'\\' {
                escaped = true;
                string_bytes += 1;
            } else if byte == b'"' {
                in_string = false;
            } else {
                string_bytes += 1;
            }
            if string_bytes > MAX_JSON_STRING_BYTES {
                return Some(Cap::StringBytes);
            }
            continue;
        }
        match byte {
            b'"' => {
                in_string = true;
                string_bytes = 0;
            }
            b'{' | b'[' => {
                if items.len() >= MAX_JSON_DEPTH {
                    return Some(Cap::Depth);
                }
                items.push(1);
            }
            b',' => {
                if let Some(count) = items.last_mut() {
                    *count += 1;
                    if *count > MAX_JSON_COLLECTION_ITEMS {
                        return Some(Cap::CollectionItems);
                    }
                }
            }
            b'}' | b']' => {
                items.pop();
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn each_cap_trips_one_past_its_limit() {
        let nest = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(first_exceeded_cap(nest(64).as_bytes()), None);
        assert_eq!(first_exceeded_cap(nest(65).as_bytes()), Some(Cap::Depth));
        let wide = |n: usize| format!("[{}]", vec!["0"; n].join(","));
        assert_eq!(first_exceeded_cap(wide(4096).as_bytes()), None);
        assert_eq!(
            first_exceeded_cap(wide(4097).as_bytes()),
            Some(Cap::CollectionItems)
        );
        let long = |n: usize| format!("\"{}\"", "a".repeat(n));
        assert_eq!(
            first_exceeded_cap(long(MAX_JSON_STRING_BYTES).as_bytes()),
            None
        );
        assert_eq!(
            first_exceeded_cap(long(MAX_JSON_STRING_BYTES + 1).as_bytes()),
            Some(Cap::StringBytes)
        );
    }

    #[test]
    fn the_shortcut_agrees_with_the_exact_scan() {
        let texts = [
            format!("[\"{}\"]", "{".repeat(100)),
            format!("[\"{}\"]", ",".repeat(5000)),
            "[".repeat(64),
            "{".repeat(65),
            format!("[{}]", ",".repeat(4095)),
            format!("[{}]", ",".repeat(4096)),
        ];
        for text in texts {
            assert_eq!(
                first_exceeded_cap(text.as_bytes()),
                exact_scan(text.as_bytes()),
                "{text}"
            );
        }
    }

    #[test]
    fn brackets_and_commas_inside_strings_do_not_count() {
        let text = format!("[\"{}\\\"{}\"]", "[,".repeat(3000), "{".repeat(100));
        assert_eq!(first_exceeded_cap(text.as_bytes()), None);
    }
}
