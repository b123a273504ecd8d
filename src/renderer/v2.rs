//! Renderer `sealkit-approve-terminal` version 2: the text a tired person reads before
//! `sealkit approve` signs, in plain words. Before anything else it says who signs (the key id
//! and where the key lives), what is being decided and for how long it is valid; arguments and
//! `_meta` values are pretty-printed from their canonical bytes (indentation added between
//! tokens only, every key still shown, values byte for byte); the exact frame follows; the
//! last line is the one-line question. Every byte returned is shown, question included, and is
//! what `shown_sha256` commits to. Characters outside printable ASCII are written `\u{HEX}`
//! exactly as in version 1, and a line says so. Version 1 stays as it was.

use super::{profile_meaning_plain, split_delimiter, Decision, Request, Text, RENDERER_NAME};
use crate::digest::sha256_hex;
use crate::request::MetaState;

pub const RENDERER_VERSION: &str = "2";
/// The renderer manifest; `manifest_sha256` is the SHA-256 of exactly these bytes.
pub const RENDERER_MANIFEST: &str = concat!(
    "{\"name\":\"sealkit-approve-terminal\",\"version\":\"2\",",
    "\"format\":\"UTF-8 text, LF line ends: a heading naming the renderer; one sentence saying ",
    "what is decided; the signer (key id and where the key lives), the validity (authorized_at, ",
    "expiry and TTL, for an approval), the server identity, the tool, the target with what each ",
    "matching profile binds, the era; the arguments and every _meta value as canonical values ",
    "with two-space indentation inserted between tokens, _meta keys in code-point order, or ",
    "absent; requestState and inputResponses likewise; the exact frame with its byte length and ",
    "sha256, ending with its own delimiter; then the one-line question ending in [y/N] and a ",
    "space. Every character outside U+0020-U+007E, other than line ends the renderer writes and ",
    "the frame's final delimiter, is written as \\\\u{HEX} and a line before the frame says so.\"}"
);

/// Who signs, shown before the question.
#[derive(Debug, Clone)]
pub struct Signer<'a> {
    pub key_id: &'a str,
    /// Where the key lives, in words (`passphrase-encrypted key file keys/a.key`, `ssh-agent`).
    pub location: &'a str,
}

/// The validity the record will carry (an approval; a decline has none).
#[derive(Debug, Clone, Copy)]
pub struct Validity {
    pub authorized_at: u64,
    pub expiry: u64,
}

/// The renderer's manifest digest.
pub fn manifest_sha256() -> String {
    sha256_hex(RENDERER_MANIFEST.as_bytes())
}

/// Renders the text shown to the approver, question included.
pub fn render(request: &Request<'_>, signer: &Signer<'_>, validity: Option<Validity>) -> Vec<u8> {
    let mut head = Text::default();
    head.raw(&format!(
        "Seal approval request ({RENDERER_NAME} {RENDERER_VERSION})\n\n"
    ));
    head.raw(match request.decision {
        Decision::Allow => "You are asked to ALLOW this one call, once.\n",
        Decision::Deny => "You are asked to DECLINE this call (a signed \"no\" for its target).\n",
    });
    head.raw("  signer     key id ");
    head.raw(signer.key_id);
    head.raw(", ");
    head.visible(signer.location);
    head.raw("\n");
    if let Some(validity) = validity {
        head.raw(&format!(
            "  valid      {} s: from {} until {}\n",
            ttl_seconds(validity),
            utc(validity.authorized_at),
            utc(validity.expiry)
        ));
    }
    head.raw("  server     ");
    head.quoted(request.server);
    head.raw("\n  tool       ");
    head.quoted(request.call.tool());
    head.raw(&format!("\n  target     {}\n", request.target));
    for profile in request.profiles {
        head.raw(&format!(
            "             binds {}\n",
            profile_meaning_plain(*profile)
        ));
    }
    head.raw(&format!(
        "  era        {}\n\narguments:\n",
        request.call.era().as_str()
    ));
    values(&mut head, request.call);
    let mut tail = Text::default();
    let (body, delimiter) = split_delimiter(request.frame);
    let ending = match delimiter {
        b"\r\n" => "ends with CRLF",
        b"\n" => "ends with LF",
        _ => "no delimiter: the client's last frame before EOF",
    };
    tail.raw(&format!(
        "\nexact request frame ({} bytes, sha256 {}, {ending}):\n",
        request.frame.len(),
        sha256_hex(request.frame)
    ));
    tail.visible(&String::from_utf8_lossy(body));
    tail.bytes(delimiter);
    if delimiter.is_empty() {
        tail.raw("\n");
    }
    tail.raw("\n");
    tail.raw(&question(request, validity));
    let escaped = head.escaped || tail.escaped;
    let mut out = head.bytes;
    if escaped {
        out.extend_from_slice(
            b"\nnote: characters outside printable ASCII are shown as \\u{HEX}\n",
        );
    }
    out.extend_from_slice(&tail.bytes);
    out
}

/// The arguments, every `_meta` value, `requestState` and `inputResponses`, pretty-printed
/// from their canonical bytes (after an `arguments:` line the caller writes); shared with
/// version 3, which shows them alike.
pub(super) fn values(head: &mut Text, call: &crate::request::Call) {
    pretty(head, call.canonical_arguments(), 1);
    head.raw("\n");
    match call.meta() {
        MetaState::Absent => head.raw("_meta: absent\n"),
        meta @ MetaState::Present { .. } => {
            let entries = meta.entries();
            head.raw(&format!(
                "_meta: {} key{}, every one shown:\n",
                entries.len(),
                if entries.len() == 1 { "" } else { "s" }
            ));
            for (key, value) in entries {
                head.raw("  ");
                head.quoted(key);
                head.raw(":");
                pretty_after_key(head, value);
                head.raw("\n");
            }
        }
    }
    for (name, value) in [
        ("requestState", call.request_state()),
        ("inputResponses", call.input_responses()),
    ] {
        head.raw(&format!("{name}:"));
        match value {
            None => head.raw(" absent"),
            Some(value) => pretty_after_key(head, value),
        }
        head.raw("\n");
    }
}

/// The one-line question, e.g. `Sign ALLOW for db.execute on server "prod", target
/// 2a01...c565, valid 120 s? [y/N] `.
fn question(request: &Request<'_>, validity: Option<Validity>) -> String {
    let mut text = Text::default();
    text.raw(match request.decision {
        Decision::Allow => "Sign ALLOW for ",
        Decision::Deny => "Sign DECLINE for ",
    });
    text.visible(request.call.tool());
    text.raw(" on server ");
    text.quoted(request.server);
    text.raw(&format!(", target {}", short(request.target)));
    if let Some(validity) = validity {
        text.raw(&format!(", valid {} s", ttl_seconds(validity)));
    }
    text.raw("? [y/N] ");
    String::from_utf8_lossy(&text.bytes).into_owned()
}

pub(super) fn ttl_seconds(validity: Validity) -> u64 {
    validity.expiry.saturating_sub(validity.authorized_at) / 1000
}

pub(super) fn short(hex: &str) -> String {
    match (hex.get(..4), hex.get(hex.len().saturating_sub(4)..)) {
        (Some(head), Some(tail)) if hex.len() > 8 => format!("{head}...{tail}"),
        _ => hex.to_owned(),
    }
}

/// Unix milliseconds as `YYYY-MM-DD HH:MM:SS UTC (N ms)`.
pub fn utc(ms: u64) -> String {
    format!("{} ({ms} ms)", crate::timestamp::utc_text(ms))
}

/// A value after `key:`: a scalar or empty container on the same line, otherwise the
/// pretty form on the following lines.
fn pretty_after_key(text: &mut Text, canonical: &str) {
    if is_flat(canonical) {
        text.raw(" ");
        text.visible(canonical);
    } else {
        text.raw("\n");
        pretty(text, canonical, 2);
    }
}

fn is_flat(canonical: &str) -> bool {
    !(canonical.starts_with('{') || canonical.starts_with('[')) || canonical.len() == 2
}

/// Writes a canonical JSON value (no whitespace outside strings) with two-space indentation
/// inserted between its tokens, starting at `level`; the value's own bytes are unchanged.
fn pretty(text: &mut Text, canonical: &str, level: usize) {
    let indent = |text: &mut Text, level: usize| text.raw(&"  ".repeat(level));
    indent(text, level);
    let mut depth = level;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = canonical.chars().peekable();
    while let Some(ch) = chars.next() {
        if in_string {
            text.visible(ch.encode_utf8(&mut [0u8; 4]));
            match (escaped, ch) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match ch {
            '"' => {
                in_string = true;
                text.raw("\"");
            }
            '{' | '[' => {
                text.raw(ch.encode_utf8(&mut [0u8; 4]));
                let close = if ch == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    continue;
                }
                depth += 1;
                text.raw("\n");
                indent(text, depth);
            }
            '}' | ']' => {
                let empty = text.bytes.last().is_some_and(|b| matches!(b, b'{' | b'['));
                if !empty {
                    depth = depth.saturating_sub(1);
                    text.raw("\n");
                    indent(text, depth);
                }
                text.raw(ch.encode_utf8(&mut [0u8; 4]));
            }
            ',' => {
                text.raw(",\n");
                indent(text, depth);
            }
            ':' => text.raw(": "),
            other => text.visible(other.encode_utf8(&mut [0u8; 4])),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::renderer::tests::call;

    #[test]
    fn pretty_printing_keeps_every_byte_of_the_value() {
        let canonical = r#"{"a":[1,{"b":"x,y:{"},[]],"c":{},"d":"q\"}"}"#;
        let mut text = Text::default();
        pretty(&mut text, canonical, 0);
        let shown = String::from_utf8(text.bytes).unwrap();
        assert_eq!(
            shown,
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": \"x,y:{\"\n    },\n    []\n  ],\n  \"c\": {},\n  \"d\": \"q\\\"}\"\n}"
        );
        let squeezed: String = shown
            .split('\n')
            .map(str::trim_start)
            .collect::<String>()
            .replace("\": ", "\":");
        assert_eq!(squeezed, canonical);
    }

    #[test]
    fn signer_validity_and_question_are_shown_and_escaped() {
        let frame = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"arguments\":{\"sql\":\"drop\u{202e}\"},\"_meta\":{\"z.example/x\":{\"b\":1,\"a\":[true]},\"progressToken\":\"t\"}}}\n";
        let call = call(frame.as_bytes());
        let target = call.identities().host.target.clone();
        let profiles = call.identities().profiles_with_target(&target);
        let text = render(
            &Request {
                decision: Decision::Allow,
                target: &target,
                profiles: &profiles,
                server: "prod",
                call: &call,
                frame: frame.as_bytes(),
            },
            &Signer {
                key_id: "e37a",
                location: "passphrase-encrypted key file k\u{1b}[2J.key",
            },
            Some(Validity {
                authorized_at: 1_786_000_000_000,
                expiry: 1_786_000_120_000,
            }),
        );
        let text = String::from_utf8(text).unwrap();
        assert!(
            text.contains(
                "  signer     key id e37a, passphrase-encrypted key file k\\u{1B}[2J.key\n"
            ),
            "{text}"
        );
        assert!(text.contains("  valid      120 s: from 2026-08-06 07:06:40 UTC (1786000000000 ms) until 2026-08-06 07:08:40 UTC (1786000120000 ms)\n"), "{text}");
        assert!(
            text.contains("arguments:\n  {\n    \"sql\": \"drop\\u{202E}\"\n  }\n"),
            "{text}"
        );
        assert!(
            text.contains("  \"z.example/x\":\n    {\n      \"a\": [\n"),
            "{text}"
        );
        assert!(
            text.contains("note: characters outside printable ASCII")
                && text.contains("  \"progressToken\": \"t\"\n")
                && text.contains("requestState: absent\n"),
            "{text}"
        );
        assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'));
        assert!(
            text.ends_with(&format!(
                "Sign ALLOW for db.execute on server \"prod\", target {}...{}, valid 120 s? [y/N] ",
                &target[..4],
                &target[60..]
            )),
            "{text}"
        );
        assert!(!text.contains("Option A"));
    }

    #[test]
    fn manifest_digest_is_pinned_and_differs_from_version_1() {
        assert_ne!(manifest_sha256(), super::super::manifest_sha256());
        assert_eq!(
            manifest_sha256(),
            "febae31a3ab13cedcc9e1882f1f1af99f7cc367dd8dba0e852cd67d66fe251e0"
        );
    }
}
