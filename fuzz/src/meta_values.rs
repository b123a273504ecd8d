//! The `meta_values` fuzz target: the W3C header grammars and the MCP key grammar of `_meta`.

use sealkit::meta;

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
