//! Renderer `sealkit-approve-terminal` version 4: version 3's screen with the parts a new
//! approver stumbled on said in words. Each profile the target matches is named and says what
//! it binds; the approver is quoted and says where the name came from (`--approver`, or the
//! default); an empty server identity says what it means; a line too long for the width is
//! cut where no word is split whenever a word fits on the next piece (so a frame reads
//! `"arguments":` whole). Everything version 3 guarantees holds: every value the record signs
//! is shown, no line is wider than the width the heading names, the pieces of a cut line
//! (their `+ ` marks removed) are the line, and every byte returned, question included, is
//! what `shown_sha256` commits to. Versions 1 to 3 stay as they were.

use super::v3::{
    self, field, fit_with, frame, join_question, prose, signed_with, Record, Signer, VALUE_COLUMN,
};
use super::{v2, Decision, Profile, Request, Text};
use crate::digest::sha256_hex;

pub const RENDERER_VERSION: &str = "4";

/// The renderer manifest; `manifest_sha256` is the SHA-256 of exactly these bytes.
pub const RENDERER_MANIFEST: &str = concat!(
    "{\"name\":\"sealkit-approve-terminal\",\"version\":\"4\",",
    "\"format\":\"UTF-8 text, LF line ends, at most W columns a line, W named in the heading ",
    "(40 to 160): a heading naming the renderer and W; one sentence saying what is decided; ",
    "what the record vouches for (an approval: approver in double quotes with where the name ",
    "came from, --approver or the default; session; server, with what an empty one means; ",
    "tool; target; the profiles it matches, each named with what it binds; validity as UTC ",
    "times with their Unix milliseconds; nonce; era. A decline: server, tool, target, ",
    "profiles, issue time, nonce, era); the signer (key id, where the key lives, the SSH ",
    "SHA256 fingerprint and comment of an ssh-agent key) and the record kind, algorithm and ",
    "domain; the arguments and every _meta value as canonical values with two-space ",
    "indentation inserted between tokens, _meta keys in code-point order, or absent; ",
    "requestState and inputResponses likewise; the exact frame's length, sha256, scope and ",
    "encoding, then the frame ending with its own delimiter; then the question ending in ",
    "[y/N] and a space, on one line or broken between its parts to fit. Sentences are ",
    "word-wrapped; a value longer than its line is moved to a line of its own indented by ",
    "four spaces; a line still longer than W is cut into pieces of at most W columns, each ",
    "piece after the first starting with '+ ': a cut falls between two characters that are ",
    "not both ASCII letters, digits or '_' and outside a \\\\u{HEX} escape, at the last such ",
    "place that leaves the piece non-empty, unless the word it would move to the next piece ",
    "does not fit there either, in which case the piece is filled to W (moved back before an ",
    "escape it would split); spaces that would end a piece start the next one. Every ",
    "character outside U+0020-U+007E, other than line ends the renderer writes and the ",
    "frame's final delimiter, is written as \\\\u{HEX} and a line before the frame says so.\"}"
);

/// Where the approver's name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApproverSource {
    /// `--approver NAME`.
    Flag,
    /// Not given: sealkit's default name.
    Default,
}

/// The renderer's manifest digest.
pub fn manifest_sha256() -> String {
    sha256_hex(RENDERER_MANIFEST.as_bytes())
}

/// Renders the text shown to the approver, question included, at most `width` columns a
/// line (clamped as version 3 clamps it).
pub fn render(
    request: &Request<'_>,
    signer: &Signer<'_>,
    record: &Record<'_>,
    approver: ApproverSource,
    width: usize,
) -> Vec<u8> {
    let width = width.clamp(v3::MIN_WIDTH, v3::MAX_WIDTH);
    let mut head = v3::opening(RENDERER_VERSION, width, request.decision);
    vouched(&mut head, width, request, record, approver);
    head.raw("\nSigned with:\n");
    signed_with(&mut head, width, signer, record);
    head.raw("\narguments:\n");
    v2::values(&mut head, request.call);
    let mut tail = Text::default();
    frame(&mut tail, width, request.frame);
    tail.raw("\n");
    question(&mut tail, width, request, record);
    if head.escaped || tail.escaped {
        head.raw("\n");
        prose(
            &mut head,
            width,
            "",
            "note: characters outside printable ASCII are shown as \\u{HEX}",
        );
    }
    let mut out = head.bytes;
    out.extend_from_slice(&tail.bytes);
    fit_with(&out, width, cut_between_words)
}

/// The request and record values the signature vouches for, in the order a person checks
/// them, each said in words where a bare value misleads.
fn vouched(
    text: &mut Text,
    width: usize,
    request: &Request<'_>,
    record: &Record<'_>,
    source: ApproverSource,
) {
    if let Some(approval) = &record.approval {
        let mut name = Text::default();
        name.quoted(approval.approver);
        let why = match source {
            ApproverSource::Flag => "from --approver",
            ApproverSource::Default => "the default; --approver NAME names you",
        };
        explained(text, width, "approver", name, why);
        field(text, width, "session", |t| t.visible(approval.session));
    }
    let mut server = Text::default();
    server.quoted(request.server);
    if request.server.is_empty() {
        explained(
            text,
            width,
            "server",
            server,
            "empty: no server identity is configured, and the target was computed without one",
        );
    } else {
        field(text, width, "server", |t| {
            t.escaped |= server.escaped;
            t.bytes.extend_from_slice(&server.bytes);
        });
    }
    field(text, width, "tool", |t| t.quoted(request.call.tool()));
    field(text, width, "target", |t| t.raw(request.target));
    profiles(text, width, request.profiles);
    match &record.approval {
        Some(approval) => {
            let validity = v2::Validity {
                authorized_at: record.authorized_at,
                expiry: approval.expiry,
            };
            field(text, width, "valid", |t| {
                t.raw(&format!("{} s", v2::ttl_seconds(validity)));
            });
            field(text, width, "from", |t| {
                t.raw(&v2::utc(record.authorized_at))
            });
            field(text, width, "until", |t| t.raw(&v2::utc(approval.expiry)));
        }
        None => field(text, width, "issued", |t| {
            t.raw(&v2::utc(record.authorized_at));
        }),
    }
    field(text, width, "nonce", |t| t.visible(record.nonce));
    field(text, width, "era", |t| t.raw(request.call.era().as_str()));
}

/// `  profiles   committed, host`, then one line per profile naming it and what its target
/// binds, continuation lines indented under the words.
fn profiles(text: &mut Text, width: usize, profiles: &[Profile]) {
    let names: Vec<&str> = profiles.iter().map(|p| p.name()).collect();
    let what = if profiles.len() == 1 {
        "the target is this call's identity under it"
    } else {
        "the target is this call's identity under each"
    };
    explained_words(text, width, "profiles", &names.join(", "), what);
    for profile in profiles {
        let label = format!("    {:<width$}", profile.name(), width = PROFILE_COLUMN - 4);
        hanging(
            text,
            width,
            &label,
            &format!("binds {}", super::profile_meaning_plain(*profile)),
        );
    }
}

/// Where a profile's words start (`    committed  binds …`).
const PROFILE_COLUMN: usize = 15;

/// A field whose value is followed by why it is what it is, in parentheses: on one line when
/// it fits, else the reason word-wrapped under the value.
fn explained(text: &mut Text, width: usize, label: &str, value: Text, why: &str) {
    let label_text = format!("  {label:<width$}", width = VALUE_COLUMN - 2);
    let why = format!("({why})");
    if label_text.len() + value.bytes.len() + 1 + why.len() <= width {
        text.raw(&label_text);
        text.escaped |= value.escaped;
        text.bytes.extend_from_slice(&value.bytes);
        text.raw(" ");
        text.raw(&why);
        text.raw("\n");
        return;
    }
    field(text, width, label, |t| {
        t.escaped |= value.escaped;
        t.bytes.extend_from_slice(&value.bytes);
    });
    prose(text, width, &" ".repeat(VALUE_COLUMN), &why);
}

/// [`explained`] for a value of our own words (printable ASCII).
fn explained_words(text: &mut Text, width: usize, label: &str, value: &str, why: &str) {
    let mut shown = Text::default();
    shown.raw(value);
    explained(text, width, label, shown, why);
}

/// Our own words after `first` (which sets the indent of the lines after it), word-wrapped
/// at `width`.
fn hanging(text: &mut Text, width: usize, first: &str, words: &str) {
    let indent = " ".repeat(first.len());
    let mut line = String::from(first);
    let mut empty = true;
    for word in words.split(' ') {
        if !empty && line.len() + 1 + word.len() > width {
            text.raw(&line);
            text.raw("\n");
            line.clone_from(&indent);
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    text.raw(&line);
    text.raw("\n");
}

/// The question, e.g. `Sign ALLOW for db.execute on server "prod", target 2a01...c565,
/// valid 120 s? [y/N] `; an empty server is said as `with no server identity`.
fn question(text: &mut Text, width: usize, request: &Request<'_>, record: &Record<'_>) {
    let mut parts = Vec::new();
    let mut part = Text::default();
    part.raw(match request.decision {
        Decision::Allow => "Sign ALLOW for ",
        Decision::Deny => "Sign DECLINE for ",
    });
    part.visible(request.call.tool());
    parts.push(part);
    let mut part = Text::default();
    if request.server.is_empty() {
        part.raw("with no server identity,");
    } else {
        part.raw("on server ");
        part.quoted(request.server);
        part.raw(",");
    }
    parts.push(part);
    let mut part = Text::default();
    part.raw(&format!("target {}", v2::short(request.target)));
    if let Some(approval) = &record.approval {
        let validity = v2::Validity {
            authorized_at: record.authorized_at,
            expiry: approval.expiry,
        };
        part.raw(&format!(", valid {} s", v2::ttl_seconds(validity)));
    }
    part.raw("? [y/N] ");
    parts.push(part);
    join_question(text, width, parts);
}

/// A byte of a word: an ASCII letter, digit or `_`.
fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The `\u{HEX}` escape a cut at `at` would split, as its start and end (exclusive).
fn escape_split_at(line: &[u8], at: usize) -> Option<(usize, usize)> {
    // An escape starting before `at` whose `}` is at or after it.
    let start = line[..(at + 2).min(line.len())]
        .windows(3)
        .rposition(|w| w == b"\\u{")?;
    let close = start + line[start..].iter().position(|&b| b == b'}')?;
    (close >= at).then_some((start, close + 1))
}

/// The word a cut at `at` would split (letters, digits or `_` on both sides of it), as its
/// start and end (exclusive).
fn word_split_at(line: &[u8], at: usize) -> Option<(usize, usize)> {
    if !(is_word(line[at - 1]) && line.get(at).copied().is_some_and(is_word)) {
        return None;
    }
    let start = line[..at]
        .iter()
        .rposition(|&b| !is_word(b))
        .map_or(0, |before| before + 1);
    let end = line[at..]
        .iter()
        .position(|&b| !is_word(b))
        .map_or(line.len(), |after| at + after);
    Some((start, end))
}

/// How many bytes of `line` go on a piece of at most `limit` columns: at the limit, unless
/// that splits an escape (the cut moves back to its start) or a word that fits on a piece of
/// `next` columns (back to the word's start); never to nothing (then at the limit). Spaces
/// that would end the piece start the next one.
fn cut_between_words(line: &[u8], limit: usize, next: usize) -> usize {
    let cut = match escape_split_at(line, limit) {
        Some((start, _)) if start > 0 => start,
        Some(_) => limit,
        None => match word_split_at(line, limit) {
            Some((start, end)) if start > 0 && end - start <= next => start,
            _ => limit,
        },
    };
    let kept = line[..cut]
        .iter()
        .rposition(|&b| b != b' ')
        .map_or(0, |at| at + 1);
    if kept > 0 {
        kept
    } else {
        cut
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::renderer::tests::call;
    use crate::renderer::v3::CONTINUED;

    fn screen(frame: &str, server: &str, source: ApproverSource, width: usize) -> String {
        let call = call(frame.as_bytes());
        let target = call.identities().host.target.clone();
        let profiles = call.identities().profiles_with_target(&target);
        let text = render(
            &Request {
                decision: Decision::Allow,
                target: &target,
                profiles: &profiles,
                server,
                call: &call,
                frame: frame.as_bytes(),
            },
            &Signer {
                key_id: "e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8",
                location: "key file keys/approval.key",
                fingerprint: None,
            },
            &Record {
                nonce: "n-1",
                authorized_at: 1_786_000_000_000,
                approval: Some(v3::Approval {
                    expiry: 1_786_000_120_000,
                    session: "inc-4711",
                    approver: "alice-oncall",
                }),
            },
            source,
            width,
        );
        String::from_utf8(text).unwrap()
    }

    const PLAIN: &str = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"arguments\":{\"database\":\"prod\",\"sql\":\"drop table customers\"}}}\n";

    const LONG: &str = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"arguments\":{\"sql\":\"drop table customers where the name is long enough to wrap \u{202e} twice over at eighty\",\"blob\":\"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODlBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWmFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6\"},\"_meta\":{\"z.example/x\":{\"b\":1,\"a\":[true]},\"progressToken\":\"t\"}}}\n";

    /// The frame's pieces, marks removed.
    fn joined_frame(text: &str) -> String {
        let at = text.find("\n{\"jsonrpc\"").unwrap() + 1;
        let mut lines = text[at..].lines();
        let mut joined = lines.next().unwrap().to_owned();
        for line in lines {
            match line.strip_prefix(CONTINUED) {
                Some(piece) => joined.push_str(piece),
                None => break,
            }
        }
        joined
    }

    #[test]
    fn profiles_are_named_with_what_each_binds() {
        let text = screen(PLAIN, "", ApproverSource::Default, 80);
        let expected =
            "  target     2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565\n\
             \x20 profiles   committed, host (the target is this call's identity under each)\n\
             \x20   committed  binds the tool, its arguments and everything else the call\n\
             \x20              carries (_meta, requestState, inputResponses)\n\
             \x20   host       binds the tool and its arguments, as this host checks them (the\n\
             \x20              signed record also binds the exact frame below)\n";
        assert!(text.contains(expected), "{text}");
    }

    #[test]
    fn the_approver_says_where_it_came_from_and_an_empty_server_what_it_means() {
        let text = screen(PLAIN, "", ApproverSource::Default, 80);
        assert!(
            text.contains(
                "  approver   \"alice-oncall\" (the default; --approver NAME names you)\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "  server     \"\"\n             (empty: no server identity is configured, and \
                 the target was\n             computed without one)\n"
            ),
            "{text}"
        );
        assert!(
            text.ends_with(
                "Sign ALLOW for db.execute with no server identity,\ntarget 2a01...c565, valid 120 s? [y/N] "
            ),
            "{text}"
        );
        let named = screen(PLAIN, "prod", ApproverSource::Flag, 80);
        assert!(
            named.contains("  approver   \"alice-oncall\" (from --approver)\n"),
            "{named}"
        );
        assert!(named.contains("  server     \"prod\"\n"), "{named}");
        assert!(named.contains("on server \"prod\","), "{named}");
    }

    #[test]
    fn every_line_fits_and_the_pieces_rejoin_to_the_frame() {
        let escaped = crate::inert::escape_where(LONG.trim_end(), |ch| !(' '..='~').contains(&ch));
        for width in [40, 41, 57, 72, 80, 97, 120, 160] {
            let text = screen(LONG, "prod", ApproverSource::Flag, width);
            assert!(text.lines().all(|l| l.len() <= width), "{width}: {text}");
            assert!(
                text.starts_with(&format!(
                    "Seal approval request (sealkit-approve-terminal 4, {width} columns)\n"
                )) || width < 60,
                "{text}"
            );
            assert_eq!(joined_frame(&text), escaped, "{width}");
        }
    }

    #[test]
    fn frames_are_cut_between_words_where_a_word_fits_the_next_piece() {
        // Version 3 cut `"arg` / `+ uments"` at 80 columns; version 4 keeps the word whole.
        let text = screen(PLAIN, "", ApproverSource::Default, 80);
        assert!(
            text.contains(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"\n+ arguments\":{\"database\":\"prod\",\"sql\":\"drop table customers\"}}}\n"
            ),
            "{text}"
        );
        // No piece ends inside a word when the word would have fitted the next piece.
        for width in [40, 57, 80, 120] {
            let text = screen(LONG, "prod", ApproverSource::Flag, width);
            let lines: Vec<&str> = text.lines().collect();
            for pair in lines.windows(2) {
                let Some(next) = pair[1].strip_prefix(CONTINUED) else {
                    continue;
                };
                let (end, start) = (pair[0].as_bytes(), next.as_bytes());
                let split = is_word(end[end.len() - 1]) && is_word(start[0]);
                let word: usize = start.iter().take_while(|&&b| is_word(b)).count()
                    + end.iter().rev().take_while(|&&b| is_word(b)).count();
                assert!(
                    !split || word > width - CONTINUED.len(),
                    "{width}: {:?} | {:?}",
                    pair[0],
                    pair[1]
                );
            }
        }
    }

    #[test]
    fn the_cut_rule_in_each_case() {
        // Inside a word that fits the next piece: back to the word's start.
        assert_eq!(cut_between_words(b"ab,cdef", 5, 10), 3);
        assert_eq!(cut_between_words(b"ab cdef", 5, 10), 2);
        // Between two non-word bytes, or at a word's edge: at the limit.
        assert_eq!(cut_between_words(b"ab\",\"cd", 4, 10), 4);
        assert_eq!(cut_between_words(b"abcd,ef", 4, 10), 4);
        // A word longer than the next piece: filled to the limit.
        assert_eq!(cut_between_words(b"ab cdefghijkl", 5, 4), 5);
        // A word from the line's start: nothing would be left, filled to the limit.
        assert_eq!(cut_between_words(b"abcdefgh", 5, 10), 5);
        // An escape is one unit, never split, even where it starts just before the cut.
        assert_eq!(cut_between_words(b"ab,\\u{202E}x", 6, 10), 3);
        assert_eq!(cut_between_words(b"abcd\\u{202E}x", 6, 3), 4);
        assert_eq!(cut_between_words(b"abcd,\\u{202E}x", 6, 10), 5);
        assert_eq!(cut_between_words(b"abcd,e\\u{202E}x", 7, 10), 6);
        // Spaces that would end the piece start the next one.
        assert_eq!(cut_between_words(b"ab   cdef", 7, 10), 2);
        assert_eq!(cut_between_words(b"ab  ,cd", 4, 10), 2);
        // An escape closed before the limit is not a unit around it.
        assert_eq!(cut_between_words(b"\\u{41},cdef", 7, 10), 7);
    }

    #[test]
    fn manifest_digest_is_pinned_and_differs_from_the_earlier_versions() {
        assert_ne!(manifest_sha256(), v3::manifest_sha256());
        assert_eq!(
            manifest_sha256(),
            "99097832bd99f478fe12bb7ecfc9ad44fee3f80254621efcef39397f1b5ba0bb"
        );
    }
}
