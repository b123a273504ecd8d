//! The `_meta` rules a `tools/call` must pass before it gets an identity (docs/target.md):
//! the era markers, the 2026-07-28 required keys and supported version, the types and
//! formats of the known keys (W3C Trace Context and Baggage included), the MCP key-name
//! grammar (a warning only: unknown keys are committed whole, whatever their name), and
//! sealkit's pinned resource bounds.

use crate::era::Era;
use crate::json::{JsonValue, Member, Node, Span};
use crate::refusal::{Refusal, RefusalCode};

/// Protocol versions a 2026-07-28 request may name.
pub const SUPPORTED_PROTOCOL_VERSIONS: &[&str] = &["2026-07-28"];

pub const KEY_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
pub const KEY_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
pub const KEY_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
pub const KEY_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
pub const KEY_LOG_LEVEL: &str = "io.modelcontextprotocol/logLevel";
pub const KEY_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
pub const KEY_PROGRESS_TOKEN: &str = "progressToken";
pub const KEY_TRACEPARENT: &str = "traceparent";
pub const KEY_TRACESTATE: &str = "tracestate";
pub const KEY_BAGGAGE: &str = "baggage";

/// The eight MCP logging levels (RFC 5424 names).
pub const LOG_LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

/// sealkit's pinned `_meta` bounds (the ruling leaves the numbers open).
pub const MAX_META_BYTES: usize = 32 * 1024;
pub const MAX_META_NESTING: usize = 16;
pub const MAX_META_ITEMS: usize = 1024;
pub const MAX_META_STRING_BYTES: usize = 8 * 1024;
pub const MAX_TRACESTATE_MEMBERS: usize = 32;
pub const MAX_BAGGAGE_MEMBERS: usize = 180;

/// What happens to `_meta` keys sealkit does not know: they are committed whole, like the
/// known ones, into every identity that covers `_meta` (never dropped, never refused for
/// their name). Evidence states it: ok records carry it as `meta.unknown_keys`.
pub const UNKNOWN_KEY_POLICY: &str = "committed";

/// Something worth telling the operator that does not refuse the frame.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Warning {
    pub code: &'static str,
    pub key: String,
    pub message: String,
}

/// True when a `_meta` value carries a 2026-07-28 marker key.
pub fn has_modern_markers(meta: &JsonValue<'_>) -> bool {
    meta.get(KEY_PROTOCOL_VERSION).is_some() || meta.get(KEY_CLIENT_CAPABILITIES).is_some()
}

/// Checks a present `_meta` value (the whole member value, `null` included) under `era`.
/// Returns the warnings for key names outside the MCP grammar.
///
/// Order, the same in every era: `_meta` is an object → every known key has its type and
/// format (the reserved protocol-version and client-capabilities keys included, whatever
/// the era) → a 2026-07-28 request carries both reserved keys → the pinned bounds → a
/// 2026-07-28 request names a supported version. The unsupported-version refusal
/// (`-32022`) therefore only ever answers an otherwise well-formed request.
pub fn validate(meta: &Node<'_>, era: Era) -> Result<Vec<Warning>, Refusal> {
    let JsonValue::Object(members) = &meta.value else {
        return Err(Refusal::new(
            RefusalCode::MetaNotObject,
            meta.span,
            format!(
                "_meta must be an object, found {} (null is never absence)",
                meta.value.type_name()
            ),
        ));
    };
    for member in members {
        check_known_key(member)?;
    }
    if era == Era::Modern {
        check_modern_required(meta, members)?;
    }
    check_bounds(meta)?;
    if era == Era::Modern {
        check_supported_version(members)?;
    }
    Ok(members.iter().filter_map(|m| key_warning(&m.key)).collect())
}

/// The member a key names (the last one, should a duplicate ever get this far).
fn find<'m, 'a>(members: &'m [Member<'a>], key: &str) -> Option<&'m Member<'a>> {
    members.iter().rev().find(|m| m.key == key)
}

/// A 2026-07-28 request carries both reserved keys (their types were checked with the
/// other known keys).
fn check_modern_required(meta: &Node<'_>, members: &[Member<'_>]) -> Result<(), Refusal> {
    let opening = Span {
        start: meta.span.start,
        end: meta.span.start + 1,
    };
    if find(members, KEY_PROTOCOL_VERSION).is_none() {
        return Err(Refusal::new(
            RefusalCode::MissingProtocolVersion,
            opening,
            format!("a 2026-07-28 request needs _meta \"{KEY_PROTOCOL_VERSION}\""),
        ));
    }
    if find(members, KEY_CLIENT_CAPABILITIES).is_none() {
        return Err(Refusal::new(
            RefusalCode::MissingClientCapabilities,
            opening,
            format!("a 2026-07-28 request needs _meta \"{KEY_CLIENT_CAPABILITIES}\""),
        ));
    }
    Ok(())
}

/// The last check of a 2026-07-28 `_meta`: the named version is one sealkit supports.
fn check_supported_version(members: &[Member<'_>]) -> Result<(), Refusal> {
    let Some(version) = find(members, KEY_PROTOCOL_VERSION) else {
        return Ok(());
    };
    let Some(requested) = version.value.value.as_str() else {
        return Ok(());
    };
    if SUPPORTED_PROTOCOL_VERSIONS.contains(&requested) {
        return Ok(());
    }
    let mut refusal = Refusal::new(
        RefusalCode::UnsupportedProtocolVersion,
        version.value.span,
        format!(
            "protocol version \"{requested}\" is not supported (supported: {})",
            SUPPORTED_PROTOCOL_VERSIONS.join(", ")
        ),
    );
    refusal.data =
        Some(serde_json::json!({"supported": SUPPORTED_PROTOCOL_VERSIONS, "requested": requested}));
    Err(refusal)
}

/// Types and formats of the known keys, in every era: a reserved key of the wrong type is
/// malformed whether or not the request is read as 2026-07-28.
fn check_known_key(member: &Member<'_>) -> Result<(), Refusal> {
    let value = &member.value;
    let fail = |code, why: String| {
        Err(Refusal::new(
            code,
            value.span,
            format!("_meta \"{}\" {why}", member.key),
        ))
    };
    match member.key.as_ref() {
        KEY_PROTOCOL_VERSION if value.value.as_str().is_none() => fail(
            RefusalCode::InvalidProtocolVersion,
            format!("must be a string, found {}", describe(&value.value)),
        ),
        KEY_CLIENT_CAPABILITIES if !matches!(value.value, JsonValue::Object(_)) => fail(
            RefusalCode::InvalidClientCapabilities,
            format!("must be an object, found {}", describe(&value.value)),
        ),
        KEY_PROGRESS_TOKEN if !is_string_or_integer(&value.value) => fail(
            RefusalCode::InvalidProgressToken,
            format!(
                "must be a string or an integer, found {}",
                describe(&value.value)
            ),
        ),
        KEY_SUBSCRIPTION_ID if !is_string_or_integer(&value.value) => fail(
            RefusalCode::InvalidSubscriptionId,
            format!(
                "must be a string or an integer, found {}",
                describe(&value.value)
            ),
        ),
        KEY_CLIENT_INFO => {
            check_implementation(value).or_else(|why| fail(RefusalCode::InvalidClientInfo, why))
        }
        KEY_SERVER_INFO => {
            check_implementation(value).or_else(|why| fail(RefusalCode::InvalidServerInfo, why))
        }
        KEY_LOG_LEVEL => match value.value.as_str() {
            Some(level) if LOG_LEVELS.contains(&level) => Ok(()),
            _ => fail(
                RefusalCode::InvalidLogLevel,
                format!(
                    "must be one of {}, found {}",
                    LOG_LEVELS.join(", "),
                    describe(&value.value)
                ),
            ),
        },
        KEY_TRACEPARENT => match value.value.as_str() {
            Some(text) => {
                check_traceparent(text).or_else(|why| fail(RefusalCode::InvalidTraceparent, why))
            }
            None => fail(
                RefusalCode::InvalidTraceparent,
                format!("must be a string, found {}", describe(&value.value)),
            ),
        },
        KEY_TRACESTATE => match value.value.as_str() {
            Some(text) => {
                check_tracestate(text).or_else(|why| fail(RefusalCode::InvalidTracestate, why))
            }
            None => fail(
                RefusalCode::InvalidTracestate,
                format!("must be a string, found {}", describe(&value.value)),
            ),
        },
        KEY_BAGGAGE => match value.value.as_str() {
            Some(text) => check_baggage(text).or_else(|why| fail(RefusalCode::InvalidBaggage, why)),
            None => fail(
                RefusalCode::InvalidBaggage,
                format!("must be a string, found {}", describe(&value.value)),
            ),
        },
        _ => Ok(()),
    }
}

fn describe(value: &JsonValue<'_>) -> String {
    match value {
        JsonValue::String(s) => format!("\"{s}\""),
        JsonValue::Number(n) => (*n).to_owned(),
        other => other.type_name().to_owned(),
    }
}

fn is_string_or_integer(value: &JsonValue<'_>) -> bool {
    matches!(value, JsonValue::String(_)) || value.is_integer()
}

/// MCP `Implementation` (2025-11-25 revision): an object with string `name` and `version`,
/// and — when present — string `title`, `description` and `websiteUrl` and an `icons` array of
/// `Icon` objects ([`check_icon`]). Members the revision does not define are left free.
fn check_implementation(node: &Node<'_>) -> Result<(), String> {
    if !matches!(node.value, JsonValue::Object(_)) {
        return Err(format!(
            "must be an Implementation object, found {}",
            node.value.type_name()
        ));
    }
    for field in ["name", "version"] {
        if node.value.get(field).is_none() {
            return Err(format!("needs a string member \"{field}\""));
        }
    }
    for field in ["name", "version", "title", "description", "websiteUrl"] {
        if let Some(member) = node.value.get(field) {
            if !matches!(member.value, JsonValue::String(_)) {
                return Err(format!(
                    "member \"{field}\" must be a string, found {}",
                    member.value.type_name()
                ));
            }
        }
    }
    match node.value.get("icons").map(|icons| &icons.value) {
        None => Ok(()),
        Some(JsonValue::Array(icons)) => icons.iter().enumerate().try_for_each(|(index, icon)| {
            check_icon(icon).map_err(|why| format!("icons[{index}] {why}"))
        }),
        Some(other) => Err(format!(
            "member \"icons\" must be an array of Icon objects, found {}",
            other.type_name()
        )),
    }
}

/// MCP `Icon`: an object with a string `src`, and when present a string `mimeType`, an
/// array of strings `sizes` and a `theme` of `"light"` or `"dark"`.
fn check_icon(node: &Node<'_>) -> Result<(), String> {
    if !matches!(node.value, JsonValue::Object(_)) {
        return Err(format!(
            "must be an Icon object, found {}",
            node.value.type_name()
        ));
    }
    match node.value.get("src").map(|src| &src.value) {
        Some(JsonValue::String(_)) => {}
        Some(other) => {
            return Err(format!(
                "member \"src\" must be a string, found {}",
                other.type_name()
            ))
        }
        None => return Err("needs a string member \"src\"".to_owned()),
    }
    if let Some(mime) = node.value.get("mimeType") {
        if !matches!(mime.value, JsonValue::String(_)) {
            return Err(format!(
                "member \"mimeType\" must be a string, found {}",
                mime.value.type_name()
            ));
        }
    }
    match node.value.get("sizes").map(|sizes| &sizes.value) {
        None => {}
        Some(JsonValue::Array(sizes))
            if sizes
                .iter()
                .all(|s| matches!(s.value, JsonValue::String(_))) => {}
        Some(_) => return Err("member \"sizes\" must be an array of strings".to_owned()),
    }
    match node.value.get("theme").map(|theme| theme.value.as_str()) {
        None | Some(Some("light" | "dark")) => Ok(()),
        Some(_) => Err("member \"theme\" must be \"light\" or \"dark\"".to_owned()),
    }
}

/// W3C Trace Context `traceparent`, version 00 only: `00-<32 hex>-<16 hex>-<2 hex>`, all
/// lowercase, trace id and parent id not all zeros.
pub fn check_traceparent(text: &str) -> Result<(), String> {
    let fields: Vec<&str> = text.split('-').collect();
    let lower_hex = |s: &str, n: usize| {
        s.len() == n && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    };
    match fields.as_slice() {
        [version, trace_id, parent_id, flags] => {
            if *version != "00" {
                return Err(format!(
                    "has version \"{version}\"; only W3C version 00 is accepted"
                ));
            }
            if !lower_hex(trace_id, 32) || !lower_hex(parent_id, 16) || !lower_hex(flags, 2) {
                return Err(
                    "must be 00-<32 lowercase hex>-<16 lowercase hex>-<2 lowercase hex>".to_owned(),
                );
            }
            if trace_id.bytes().all(|b| b == b'0') {
                return Err("has an all-zero trace id".to_owned());
            }
            if parent_id.bytes().all(|b| b == b'0') {
                return Err("has an all-zero parent id".to_owned());
            }
            Ok(())
        }
        _ => Err("must be 00-<trace id>-<parent id>-<flags>".to_owned()),
    }
}

/// W3C Trace Context `tracestate`: comma-separated `key=value` members (empty members
/// allowed), at most 32, keys unique.
pub fn check_tracestate(text: &str) -> Result<(), String> {
    let mut keys: Vec<&str> = Vec::new();
    for member in text
        .split(',')
        .map(|m| m.trim_matches([' ', '\t']))
        .filter(|m| !m.is_empty())
    {
        let Some((key, value)) = member.split_once('=') else {
            return Err(format!("member \"{member}\" is not key=value"));
        };
        if !is_tracestate_key(key) {
            return Err(format!("member key \"{key}\" breaks the W3C key grammar"));
        }
        if !is_tracestate_value(value) {
            return Err(format!(
                "member value \"{value}\" breaks the W3C value grammar"
            ));
        }
        if keys.contains(&key) {
            return Err(format!("member key \"{key}\" appears twice"));
        }
        keys.push(key);
    }
    if keys.len() > MAX_TRACESTATE_MEMBERS {
        return Err(format!(
            "has {} members; at most {MAX_TRACESTATE_MEMBERS} are allowed",
            keys.len()
        ));
    }
    Ok(())
}

fn is_tracestate_key_char(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'*' | b'/')
}

fn is_tracestate_key(key: &str) -> bool {
    let bytes = key.as_bytes();
    match key.split_once('@') {
        None => {
            bytes.first().is_some_and(u8::is_ascii_lowercase)
                && bytes.len() <= 256
                && bytes.iter().all(|&b| is_tracestate_key_char(b))
        }
        Some((tenant, system)) => {
            let (t, s) = (tenant.as_bytes(), system.as_bytes());
            t.first()
                .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && t.len() <= 241
                && t.iter().all(|&b| is_tracestate_key_char(b))
                && s.first().is_some_and(u8::is_ascii_lowercase)
                && s.len() <= 14
                && s.iter().all(|&b| is_tracestate_key_char(b))
        }
    }
}

fn is_tracestate_value(value: &str) -> bool {
    let bytes = value.as_bytes();
    let nblk = |b: u8| matches!(b, 0x21..=0x2B | 0x2D..=0x3C | 0x3E..=0x7E);
    !bytes.is_empty()
        && bytes.len() <= 256
        && bytes.iter().all(|&b| b == b' ' || nblk(b))
        && bytes.last().is_some_and(|&b| nblk(b))
}

/// W3C Baggage: `key=value` members separated by commas, optional `;` properties,
/// at most 180 members.
pub fn check_baggage(text: &str) -> Result<(), String> {
    let ows = |s: &str| s.trim_matches([' ', '\t']).to_owned();
    let members: Vec<&str> = text.split(',').collect();
    if members.len() > MAX_BAGGAGE_MEMBERS {
        return Err(format!(
            "has {} members; at most {MAX_BAGGAGE_MEMBERS} are allowed",
            members.len()
        ));
    }
    for member in members {
        let mut pieces = member.split(';');
        let head = ows(pieces.next().unwrap_or(""));
        let Some((key, value)) = head.split_once('=') else {
            return Err(format!("member \"{head}\" is not key=value"));
        };
        let (key, value) = (ows(key), ows(value));
        if !is_token(&key) {
            return Err(format!("member key \"{key}\" is not an HTTP token"));
        }
        if !value.bytes().all(is_baggage_octet) {
            return Err(format!(
                "member value \"{value}\" has characters baggage values may not carry"
            ));
        }
        for property in pieces {
            let property = ows(property);
            let (pkey, pvalue) = match property.split_once('=') {
                Some((k, v)) => (ows(k), Some(ows(v))),
                None => (property.clone(), None),
            };
            if !is_token(&pkey) || !pvalue.is_none_or(|v| v.bytes().all(is_baggage_octet)) {
                return Err(format!(
                    "property \"{property}\" breaks the W3C baggage grammar"
                ));
            }
        }
    }
    Ok(())
}

fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn is_baggage_octet(b: u8) -> bool {
    matches!(b, 0x21 | 0x23..=0x2B | 0x2D..=0x3A | 0x3C..=0x5B | 0x5D..=0x7E)
}

/// sealkit's pinned bounds: raw size, nesting below `_meta`, total members and elements,
/// longest string (keys included, decoded UTF-8 bytes).
fn check_bounds(meta: &Node<'_>) -> Result<(), Refusal> {
    if meta.span.len() > MAX_META_BYTES {
        return Err(Refusal::new(
            RefusalCode::MetaTooLarge,
            meta.span,
            format!(
                "_meta is {} bytes; sealkit's bound is {MAX_META_BYTES}",
                meta.span.len()
            ),
        ));
    }
    let mut items = 0usize;
    walk_bounds(meta, 0, &mut items)
}

fn walk_bounds(node: &Node<'_>, depth: usize, items: &mut usize) -> Result<(), Refusal> {
    let too_long = |span: Span, len: usize| {
        Refusal::new(
            RefusalCode::MetaStringTooLong,
            span,
            format!(
                "a string of {len} bytes inside _meta; sealkit's bound is {MAX_META_STRING_BYTES}"
            ),
        )
    };
    // The node's children counted (and its keys' lengths checked) before they are walked,
    // without a list of them.
    let children = match &node.value {
        JsonValue::String(s) if s.len() > MAX_META_STRING_BYTES => {
            return Err(too_long(node.span, s.len()))
        }
        JsonValue::Array(elements) => elements.len(),
        JsonValue::Object(members) => {
            for member in members {
                if member.key.len() > MAX_META_STRING_BYTES {
                    return Err(too_long(member.key_span, member.key.len()));
                }
            }
            members.len()
        }
        _ => return Ok(()),
    };
    if depth > MAX_META_NESTING {
        return Err(Refusal::new(
            RefusalCode::MetaTooDeep,
            Span { start: node.span.start, end: node.span.start + 1 },
            format!("containers nested {depth} levels below _meta; sealkit's bound is {MAX_META_NESTING}"),
        ));
    }
    *items += children;
    if *items > MAX_META_ITEMS {
        return Err(Refusal::new(
            RefusalCode::MetaTooManyItems,
            node.span,
            format!(
                "_meta holds more than {MAX_META_ITEMS} members and elements (sealkit's bound)"
            ),
        ));
    }
    match &node.value {
        JsonValue::Array(elements) => {
            for element in elements {
                walk_bounds(element, depth + 1, items)?;
            }
        }
        JsonValue::Object(members) => {
            for member in members {
                walk_bounds(&member.value, depth + 1, items)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// MCP `_meta` key grammar: `[prefix/]name`; prefix = dot-separated labels (letter first,
/// letter or digit last, letters, digits and hyphens inside); name empty, or alphanumeric
/// at both ends with alphanumerics, `-`, `_`, `.` inside.
pub fn key_warning(key: &str) -> Option<Warning> {
    // On the bytes: `/` and `.` are ASCII, so splitting the bytes at them splits the text
    // where splitting its characters would (and every byte the grammar allows is ASCII).
    let bytes = key.as_bytes();
    let (prefix, name) = match bytes.iter().rposition(|&b| b == b'/') {
        Some(slash) => (Some(&bytes[..slash]), &bytes[slash + 1..]),
        None => (None, bytes),
    };
    let label_ok = |b: &[u8]| {
        b.first().is_some_and(u8::is_ascii_alphabetic)
            && b.last().is_some_and(u8::is_ascii_alphanumeric)
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
    };
    let prefix_ok = prefix.is_none_or(|p| p.split(|&b| b == b'.').all(label_ok));
    let n = name;
    let name_ok = n.is_empty()
        || (n.first().is_some_and(u8::is_ascii_alphanumeric)
            && n.last().is_some_and(u8::is_ascii_alphanumeric)
            && n.iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.')));
    (!(prefix_ok && name_ok)).then(|| Warning {
        code: "meta-key-grammar",
        key: key.to_owned(),
        message: format!("_meta key \"{key}\" does not follow the MCP key-name grammar; it is committed whole like any other key"),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn check(meta: &str, era: Era) -> Result<Vec<Warning>, RefusalCode> {
        let node = parse(meta, 128).unwrap();
        validate(&node, era).map_err(|r| r.code)
    }

    const MODERN: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}"#;

    #[test]
    fn modern_requests_need_version_and_capabilities() {
        assert_eq!(check(&format!("{{{MODERN}}}"), Era::Modern), Ok(vec![]));
        assert_eq!(
            check("{}", Era::Modern),
            Err(RefusalCode::MissingProtocolVersion)
        );
        assert_eq!(
            check(
                r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#,
                Era::Modern
            ),
            Err(RefusalCode::MissingClientCapabilities)
        );
        assert_eq!(
            check(
                r#"{"io.modelcontextprotocol/protocolVersion":"2025-06-18","io.modelcontextprotocol/clientCapabilities":{}}"#,
                Era::Modern
            ),
            Err(RefusalCode::UnsupportedProtocolVersion)
        );
        assert_eq!(
            check(
                r#"{"io.modelcontextprotocol/protocolVersion":7}"#,
                Era::Modern
            ),
            Err(RefusalCode::InvalidProtocolVersion)
        );
        assert_eq!(
            check(
                r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}"#,
                Era::Modern
            ),
            Err(RefusalCode::InvalidClientCapabilities)
        );
        assert_eq!(check("{}", Era::Legacy), Ok(vec![]));
        assert_eq!(check("null", Era::Legacy), Err(RefusalCode::MetaNotObject));
        assert_eq!(check("[]", Era::Modern), Err(RefusalCode::MetaNotObject));
    }

    #[test]
    fn known_keys_are_typed() {
        let with = |kv: &str| check(&format!("{{{MODERN},{kv}}}"), Era::Modern);
        assert_eq!(with(r#""progressToken":7"#), Ok(vec![]));
        assert_eq!(with(r#""progressToken":"t""#), Ok(vec![]));
        assert_eq!(
            with(r#""progressToken":1.5"#),
            Err(RefusalCode::InvalidProgressToken)
        );
        assert_eq!(
            with(r#""io.modelcontextprotocol/clientInfo":{"name":"a","version":"1"}"#),
            Ok(vec![])
        );
        assert_eq!(
            with(r#""io.modelcontextprotocol/clientInfo":{"name":"a"}"#),
            Err(RefusalCode::InvalidClientInfo)
        );
        assert_eq!(
            with(r#""io.modelcontextprotocol/serverInfo":"x""#),
            Err(RefusalCode::InvalidServerInfo)
        );
        assert_eq!(
            with(r#""io.modelcontextprotocol/logLevel":"warning""#),
            Ok(vec![])
        );
        assert_eq!(
            with(r#""io.modelcontextprotocol/logLevel":"warn""#),
            Err(RefusalCode::InvalidLogLevel)
        );
        assert_eq!(
            with(r#""io.modelcontextprotocol/subscriptionId":{}"#),
            Err(RefusalCode::InvalidSubscriptionId)
        );
        assert_eq!(
            with(r#""traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01""#),
            Ok(vec![])
        );
        assert_eq!(
            with(r#""traceparent":"00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01""#),
            Err(RefusalCode::InvalidTraceparent)
        );
        assert_eq!(
            with(r#""tracestate":"rojo=00f067aa0ba902b7, congo=t61rcWkgMzE""#),
            Ok(vec![])
        );
        assert_eq!(
            with(r#""tracestate":"Rojo=1""#),
            Err(RefusalCode::InvalidTracestate)
        );
        assert_eq!(
            with(r#""baggage":"userId=alice, isProduction=false;p=1""#),
            Ok(vec![])
        );
        assert_eq!(
            with(r#""baggage":"user id=alice""#),
            Err(RefusalCode::InvalidBaggage)
        );
    }

    #[test]
    fn traceparent_rules() {
        assert!(
            check_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").is_ok()
        );
        assert!(
            check_traceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01").is_err()
        );
        assert!(
            check_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01").is_err()
        );
        assert!(
            check_traceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").is_err()
        );
        assert!(
            check_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x").is_err()
        );
    }

    #[test]
    fn tracestate_member_limit() {
        let members: Vec<String> = (0..33).map(|i| format!("k{i}=v")).collect();
        assert!(check_tracestate(&members[..32].join(",")).is_ok());
        assert!(check_tracestate(&members.join(",")).is_err());
        assert!(check_tracestate("a=1,a=2").is_err());
        assert!(check_tracestate("tenant@sys=v, ,x=y").is_ok());
    }

    #[test]
    fn unknown_keys_with_odd_names_are_warnings_not_refusals() {
        let warnings = check(
            &format!("{{{MODERN},\"-bad key-\":1,\"com.example/run\":\"r\"}}"),
            Era::Modern,
        )
        .unwrap();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].key, "-bad key-");
        assert!(key_warning("io.modelcontextprotocol/protocolVersion").is_none());
        assert!(key_warning("").is_none());
        assert!(key_warning("1abc/x").is_some());
    }

    #[test]
    fn bounds_are_enforced() {
        let deep = format!("{{{MODERN},\"d\":{}1{}}}", "[".repeat(17), "]".repeat(17));
        assert_eq!(check(&deep, Era::Modern), Err(RefusalCode::MetaTooDeep));
        let ok_depth = format!("{{{MODERN},\"d\":{}1{}}}", "[".repeat(16), "]".repeat(16));
        assert_eq!(check(&ok_depth, Era::Modern), Ok(vec![]));
        let long = format!(
            "{{{MODERN},\"s\":\"{}\"}}",
            "x".repeat(MAX_META_STRING_BYTES + 1)
        );
        assert_eq!(
            check(&long, Era::Modern),
            Err(RefusalCode::MetaStringTooLong)
        );
        let many = format!(
            "{{{MODERN},\"a\":[{}]}}",
            vec!["0"; MAX_META_ITEMS].join(",")
        );
        assert_eq!(
            check(&many, Era::Modern),
            Err(RefusalCode::MetaTooManyItems)
        );
        let big = format!(
            "{{{MODERN},{}}}",
            (0..40)
                .map(|i| format!("\"k{i}\":\"{}\"", "y".repeat(1000)))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert_eq!(check(&big, Era::Modern), Err(RefusalCode::MetaTooLarge));
    }
}
