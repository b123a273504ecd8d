//! sealkit's approval renderer `sealkit-approve-terminal`, version 1: the exact text a person
//! reads before `sealkit approve` signs (docs/approvals.md). The bytes returned are the bytes
//! shown, and the bytes an ApprovalRecord v2 commits to in `shown_sha256` / `shown_length`;
//! the renderer's name, version and manifest digest go into the record's `renderer`.
//!
//! Nothing is hidden or summarised: the tool, the canonical arguments, every `_meta` key with
//! its canonical value (Seal's value bytes, keys in code-point order, unknown keys included),
//! `requestState` and `inputResponses`, the target with every profile it matches, and the
//! exact frame with its length and SHA-256. So that no byte can disguise itself on a
//! terminal, every character outside printable ASCII (U+0020–U+007E), except the frame's
//! final delimiter, is written as `\u{HEX}`; a line says when that happened.

use crate::digest::sha256_hex;
use crate::identity::Profile;
use crate::request::{Call, MetaState};

pub mod v2;
pub mod v3;
pub mod v4;

pub const RENDERER_NAME: &str = "sealkit-approve-terminal";
pub const RENDERER_VERSION: &str = "1";
/// The renderer manifest; `manifest_sha256` is the SHA-256 of exactly these bytes.
pub const RENDERER_MANIFEST: &str = concat!(
    "{\"name\":\"sealkit-approve-terminal\",\"version\":\"1\",",
    "\"format\":\"UTF-8 text, LF line ends: a heading naming the renderer; the decision; ",
    "the target and each identity profile (committed, host, legacy) it matches, with what that ",
    "profile commits to; the server identity; the era; the tool; the arguments as Seal's ",
    "canonical value bytes; every _meta key with its canonical value in code-point key order, ",
    "or absent; requestState and inputResponses as canonical values, or absent; then the exact ",
    "frame with its byte length and sha256, ending with the frame's own delimiter. Every ",
    "character outside U+0020-U+007E, other than the frame's final delimiter, is written as ",
    "\\\\u{HEX} and a line says so.\"}"
);

/// What the person is asked to sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Deny,
}

/// Everything the renderer shows.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub decision: Decision,
    pub target: &'a str,
    pub profiles: &'a [Profile],
    pub server: &'a str,
    pub call: &'a Call,
    pub frame: &'a [u8],
}

/// The renderer's manifest digest.
pub fn manifest_sha256() -> String {
    sha256_hex(RENDERER_MANIFEST.as_bytes())
}

/// Renders the text shown to the approver; these bytes are what `shown_sha256` commits to.
pub fn render(request: &Request<'_>) -> Vec<u8> {
    let mut text = Text::default();
    text.raw(&format!(
        "Seal approval request ({RENDERER_NAME} {RENDERER_VERSION})\n"
    ));
    text.raw(match request.decision {
        Decision::Allow => "decision: ALLOW exactly this call, once\n",
        Decision::Deny => "decision: DECLINE this call (signed decline for the target)\n",
    });
    text.raw(&format!("target: {}\n", request.target));
    for profile in request.profiles {
        text.raw(&format!(
            "  matches profile {}: {}\n",
            profile.name(),
            profile_meaning(*profile)
        ));
    }
    text.raw("server identity: ");
    text.quoted(request.server);
    text.raw("\n");
    text.raw(&format!("era: {}\n", request.call.era().as_str()));
    text.raw("tool: ");
    text.quoted(request.call.tool());
    text.raw("\narguments: ");
    text.visible(request.call.canonical_arguments());
    text.raw("\n");
    write_meta(&mut text, request.call.meta());
    write_context(&mut text, "requestState", request.call.request_state());
    write_context(&mut text, "inputResponses", request.call.input_responses());
    write_frame(&mut text, request.frame);
    text.finish()
}

fn profile_meaning(profile: Profile) -> &'static str {
    match profile {
        Profile::Committed => {
            "Option A: tool, arguments and the complete _meta, requestState and inputResponses"
        }
        Profile::Host => {
            "seal-host v0.1.6's challenge: tool and arguments; _meta, requestState and \
             inputResponses are not in this target (the signed record still binds the exact \
             frame below)"
        }
        Profile::Legacy => {
            "pre-2026-07-28 layout [server, tool, arguments]; _meta is not in this target (the \
             signed record still binds the exact frame below)"
        }
    }
}

/// What each profile's target binds, in plain words (renderer version 2).
fn profile_meaning_plain(profile: Profile) -> &'static str {
    match profile {
        Profile::Committed => {
            "the tool, its arguments and everything else the call carries (_meta, \
             requestState, inputResponses)"
        }
        Profile::Host => {
            "the tool and its arguments, as this host checks them (the signed record also binds \
             the exact frame below)"
        }
        Profile::Legacy => {
            "the server, tool and arguments in the older layout (the signed record also binds \
             the exact frame below)"
        }
    }
}

fn write_meta(text: &mut Text, meta: &MetaState) {
    match meta {
        MetaState::Absent => text.raw("_meta: absent\n"),
        MetaState::Present { .. } => {
            let entries = meta.entries();
            text.raw(&format!(
                "_meta: present, {} key{}, every one shown and committed by the frame:\n",
                entries.len(),
                if entries.len() == 1 { "" } else { "s" }
            ));
            for (key, value) in entries {
                text.raw("  ");
                text.quoted(key);
                text.raw(": ");
                text.visible(value);
                text.raw("\n");
            }
        }
    }
}

fn write_context(text: &mut Text, name: &str, value: Option<&str>) {
    text.raw(&format!("{name}: "));
    match value {
        None => text.raw("absent"),
        Some(value) => text.visible(value),
    }
    text.raw("\n");
}

fn write_frame(text: &mut Text, frame: &[u8]) {
    let (body, delimiter) = split_delimiter(frame);
    let ending = match delimiter {
        b"\r\n" => "ends with CRLF",
        b"\n" => "ends with LF",
        _ => "no delimiter: the client's last frame before EOF",
    };
    text.raw(&format!(
        "exact MCP request frame ({} bytes including delimiter, sha256 {}, {ending}):\n",
        frame.len(),
        sha256_hex(frame)
    ));
    text.visible(&String::from_utf8_lossy(body));
    text.bytes(delimiter);
}

fn split_delimiter(frame: &[u8]) -> (&[u8], &[u8]) {
    if let Some(body) = frame.strip_suffix(b"\r\n") {
        (body, b"\r\n")
    } else if let Some(body) = frame.strip_suffix(b"\n") {
        (body, b"\n")
    } else {
        (frame, b"")
    }
}

/// Shown text under construction; remembers whether any character was escaped.
#[derive(Default)]
struct Text {
    bytes: Vec<u8>,
    escaped: bool,
}

impl Text {
    fn raw(&mut self, text: &str) {
        self.bytes.extend_from_slice(text.as_bytes());
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Writes text with every character outside printable ASCII as `\u{HEX}`: the one
    /// escaping function, with this screen's stricter (pinned) set of escaped characters.
    fn visible(&mut self, text: &str) {
        let shown = crate::inert::escape_where(text, |ch| !(' '..='~').contains(&ch));
        self.escaped |= matches!(shown, std::borrow::Cow::Owned(_));
        self.raw(&shown);
    }

    /// A name or string shown in double quotes, visible-escaped.
    fn quoted(&mut self, text: &str) {
        self.bytes.push(b'"');
        self.visible(text);
        self.bytes.push(b'"');
    }

    fn finish(self) -> Vec<u8> {
        if !self.escaped {
            return self.bytes;
        }
        // Say so before the frame, so the note is read before the bytes it explains.
        let note = b"note: characters outside printable ASCII are shown as \\u{HEX}\n";
        let marker = b"exact MCP request frame (";
        let at = self
            .bytes
            .windows(marker.len())
            .rposition(|w| w == marker)
            .unwrap_or(self.bytes.len());
        let mut out = Vec::with_capacity(self.bytes.len() + note.len());
        out.extend_from_slice(&self.bytes[..at]);
        out.extend_from_slice(note);
        out.extend_from_slice(&self.bytes[at..]);
        out
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::request::{analyze, Options, Session, Verdict};

    /// The validated call of one frame (shared with the version-2 renderer's tests).
    pub(super) fn call(frame: &[u8]) -> Call {
        match analyze(frame, &Options::default(), &mut Session::default()) {
            Verdict::Call(call) => *call,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn manifest_digest_is_pinned() {
        assert_eq!(
            manifest_sha256(),
            "4f00766d867014ce487c1575469e494d7d955ba044c422d5886e4660a6be9a6a"
        );
    }

    #[test]
    fn every_meta_key_is_shown_and_odd_characters_are_escaped() {
        let frame = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"arguments\":{\"sql\":\"drop\u{202e}\"},\"_meta\":{\"z.example/x\":{\"b\":1,\"a\":[true]},\"progressToken\":\"t\"}}}\r\n";
        let call = call(frame.as_bytes());
        let profiles = call
            .identities()
            .profiles_with_target(&call.identities().host.target);
        let text = render(&Request {
            decision: Decision::Allow,
            target: &call.identities().host.target,
            profiles: &profiles,
            server: "",
            call: &call,
            frame: frame.as_bytes(),
        });
        let text = String::from_utf8(text).unwrap();
        assert!(text.contains("_meta: present, 2 keys"), "{text}");
        assert!(text.contains("  \"progressToken\": \"t\"\n"), "{text}");
        assert!(
            text.contains("  \"z.example/x\": {\"a\":[true],\"b\":1}\n"),
            "{text}"
        );
        assert!(
            text.contains("arguments: {\"sql\":\"drop\\u{202E}\"}\n"),
            "{text}"
        );
        assert!(
            text.contains("note: characters outside printable ASCII"),
            "{text}"
        );
        assert!(text.contains("matches profile host"), "{text}");
        assert!(!text.contains('\u{202e}'));
        assert!(text.ends_with("}}}\r\n"), "{text:?}");
    }
}
