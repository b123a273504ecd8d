//! Renderer `sealkit-approve-terminal` version 3: version 2's screen for a tired person, made
//! to show every field the signed record vouches for and to fit the terminal it is drawn on.
//! Every value the record signs is on the screen (approver, session, server, tool, target,
//! validity as readable UTC times with their milliseconds, nonce, the signer's key id and
//! where the key lives, the record kind and domain, the exact frame with its length, digest
//! and scope), except the digests of the screen itself. No line is wider than the width the
//! heading names: our own sentences are word-wrapped; a value too long for its line gets a
//! line of its own; a line still too long is cut, and each piece after the first starts with
//! `+ ` (nothing else is added or lost). Every byte returned is shown, question included, and
//! is what `shown_sha256` commits to; characters outside printable ASCII are written `\u{HEX}`
//! exactly as in versions 1 and 2. Versions 1 and 2 stay as they were.

use super::{profile_meaning_plain, split_delimiter, v2, Decision, Request, Text, RENDERER_NAME};
use crate::approval::{ALGORITHM, DOMAIN, SUBJECT_ENCODING, SUBJECT_SCOPE};
use crate::digest::sha256_hex;

pub const RENDERER_VERSION: &str = "3";
/// The narrowest screen drawn (narrower terminals get this width).
pub const MIN_WIDTH: usize = 40;
/// The widest screen drawn (wider terminals get this width).
pub const MAX_WIDTH: usize = 160;
/// The width used when there is no terminal to measure (`--yes` into a pipe).
pub const DEFAULT_WIDTH: usize = 80;
/// Where a value starts after its label (`  approver   `).
pub(super) const VALUE_COLUMN: usize = 13;
/// The mark starting a line that continues the line before it.
pub(super) const CONTINUED: &str = "+ ";

/// The renderer manifest; `manifest_sha256` is the SHA-256 of exactly these bytes.
pub const RENDERER_MANIFEST: &str = concat!(
    "{\"name\":\"sealkit-approve-terminal\",\"version\":\"3\",",
    "\"format\":\"UTF-8 text, LF line ends, at most W columns a line, W named in the heading ",
    "(40 to 160): a heading naming the renderer and W; one sentence saying what is decided; ",
    "what the record vouches for (an approval: approver, session, server, tool, target with ",
    "what each matching profile binds, validity as UTC times with their Unix milliseconds, ",
    "nonce, era; a decline: server, tool, target, issue time, nonce, era); the signer (key id, ",
    "where the key lives, the SSH SHA256 fingerprint and comment of an ssh-agent key) and the ",
    "record kind, algorithm and domain; the arguments and every _meta value as canonical ",
    "values with two-space indentation inserted between tokens, _meta keys in code-point ",
    "order, or absent; requestState and inputResponses likewise; the exact frame's length, ",
    "sha256, scope and encoding, then the frame ending with its own delimiter; then the ",
    "question ending in [y/N] and a space, on one line or broken between its parts to fit. ",
    "Sentences are word-wrapped; a value longer than its line is moved to a line of its own ",
    "indented by four spaces; a line still longer than W is cut into pieces of at most W ",
    "columns, the cut moved back before a \\\\u{HEX} escape it would split and before spaces ",
    "that would end the piece, and each piece after the first starts with '+ '. Every character outside U+0020-U+007E, other ",
    "than line ends the renderer writes and the frame's final delimiter, is written as ",
    "\\\\u{HEX} and a line before the frame says so.\"}"
);

/// Who signs, shown before the question.
#[derive(Debug, Clone)]
pub struct Signer<'a> {
    pub key_id: &'a str,
    /// Where the key lives, in words (`key file keys/a.key`, `ssh-agent …`).
    pub location: &'a str,
    /// For an ssh-agent or OpenSSH key: `SHA256:… comment`, as `ssh-add -l` shows it.
    pub fingerprint: Option<&'a str>,
}

/// The signed values that are not in the request: fixed before the screen is drawn.
#[derive(Debug, Clone)]
pub struct Record<'a> {
    pub nonce: &'a str,
    /// An approval's `authorized_at`, a decline's `issuedAt`.
    pub authorized_at: u64,
    /// An approval's own values; `None` for a decline.
    pub approval: Option<Approval<'a>>,
}

/// What only an approval signs.
#[derive(Debug, Clone)]
pub struct Approval<'a> {
    pub expiry: u64,
    pub session: &'a str,
    pub approver: &'a str,
}

/// The renderer's manifest digest.
pub fn manifest_sha256() -> String {
    sha256_hex(RENDERER_MANIFEST.as_bytes())
}

/// The width a screen for a terminal of `columns` is drawn at.
pub fn width_for(columns: Option<usize>) -> usize {
    columns.unwrap_or(DEFAULT_WIDTH).clamp(MIN_WIDTH, MAX_WIDTH)
}

/// Renders the text shown to the approver, question included, at most `width` columns a
/// line (clamped to [`MIN_WIDTH`]..=[`MAX_WIDTH`]).
pub fn render(
    request: &Request<'_>,
    signer: &Signer<'_>,
    record: &Record<'_>,
    width: usize,
) -> Vec<u8> {
    let width = width.clamp(MIN_WIDTH, MAX_WIDTH);
    let mut head = opening(RENDERER_VERSION, width, request.decision);
    vouched(&mut head, width, request, record);
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
    fit(&out, width)
}

/// The request and record values the signature vouches for, in the order a person checks them.
fn vouched(text: &mut Text, width: usize, request: &Request<'_>, record: &Record<'_>) {
    if let Some(approval) = &record.approval {
        field(text, width, "approver", |t| t.visible(approval.approver));
        field(text, width, "session", |t| t.visible(approval.session));
    }
    field(text, width, "server", |t| t.quoted(request.server));
    field(text, width, "tool", |t| t.quoted(request.call.tool()));
    field(text, width, "target", |t| t.raw(request.target));
    for profile in request.profiles {
        let indent = " ".repeat(VALUE_COLUMN);
        prose(
            text,
            width,
            &indent,
            &format!("binds {}", profile_meaning_plain(*profile)),
        );
    }
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

/// The key that signs and the kind of record it makes.
pub(super) fn signed_with(text: &mut Text, width: usize, signer: &Signer<'_>, record: &Record<'_>) {
    field(text, width, "key id", |t| t.raw(signer.key_id));
    field(text, width, "key", |t| t.visible(signer.location));
    if let Some(fingerprint) = signer.fingerprint {
        field(text, width, "ssh key", |t| t.visible(fingerprint));
    }
    if record.approval.is_some() {
        field(text, width, "record", |t| {
            t.raw(&format!("ApprovalRecord v2, {ALGORITHM}"));
        });
        field(text, width, "domain", |t| t.raw(DOMAIN));
    } else {
        field(text, width, "record", |t| {
            t.raw(&format!(
                "signed decline (v1 envelope), {ALGORITHM}, no domain"
            ));
        });
    }
}

/// The exact frame: what the record binds it by, then its bytes, cut to fit.
pub(super) fn frame(text: &mut Text, width: usize, frame: &[u8]) {
    let (body, delimiter) = split_delimiter(frame);
    let ending = match delimiter {
        b"\r\n" => "ends with CRLF",
        b"\n" => "ends with LF",
        _ => "no delimiter: the client's last frame before EOF",
    };
    text.raw("\nexact request frame, as signed:\n");
    field(text, width, "length", |t| {
        t.raw(&format!("{} bytes, {ending}", frame.len()));
    });
    field(text, width, "sha256", |t| t.raw(&sha256_hex(frame)));
    field(text, width, "scope", |t| t.raw(SUBJECT_SCOPE));
    field(text, width, "encoding", |t| t.raw(SUBJECT_ENCODING));
    text.visible(&String::from_utf8_lossy(body));
    text.bytes(delimiter);
    if delimiter.is_empty() {
        text.raw("\n");
    }
}

/// The question, e.g. `Sign ALLOW for db.execute on server "prod", target 2a01...c565,
/// valid 120 s? [y/N] `: one line if it fits, else broken between its parts.
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
    part.raw("on server ");
    part.quoted(request.server);
    part.raw(",");
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

/// The question's parts on one line when they fit, else broken between parts.
pub(super) fn join_question(text: &mut Text, width: usize, parts: Vec<Text>) {
    let mut column = 0;
    for (index, part) in parts.into_iter().enumerate() {
        if index > 0 {
            // The last part's final space is counted, and a column after it for the answer.
            let length = part.bytes.len() + usize::from(part.bytes.ends_with(b" "));
            if column + 1 + length > width {
                text.raw("\n");
                column = 0;
            } else {
                text.raw(" ");
                column += 1;
            }
        }
        column += part.bytes.len();
        text.escaped |= part.escaped;
        text.bytes.extend_from_slice(&part.bytes);
    }
}

/// `  label      value`, or, when the value does not fit beside its label, the label alone
/// and the value on the next line indented by four spaces.
pub(super) fn field(text: &mut Text, width: usize, label: &str, value: impl FnOnce(&mut Text)) {
    let mut shown = Text::default();
    value(&mut shown);
    let label = format!("  {label:<width$}", width = VALUE_COLUMN - 2);
    if label.len() + shown.bytes.len() <= width {
        text.raw(&label);
    } else {
        text.raw(label.trim_end());
        text.raw("\n    ");
    }
    text.escaped |= shown.escaped;
    text.bytes.extend_from_slice(&shown.bytes);
    text.raw("\n");
}

/// Our own words (printable ASCII), word-wrapped at `width`, every line starting with
/// `indent`.
/// The screen's first lines, the same in versions 3 and 4 but for the version named: the
/// renderer and width, what is asked, and the heading of what the approver vouches for.
pub(super) fn opening(version: &str, width: usize, decision: Decision) -> Text {
    let mut head = Text::default();
    prose(
        &mut head,
        width,
        "",
        &format!("Seal approval request ({RENDERER_NAME} {version}, {width} columns)"),
    );
    head.raw("\n");
    prose(
        &mut head,
        width,
        "",
        match decision {
            Decision::Allow => "You are asked to ALLOW this one call, once.",
            Decision::Deny => {
                "You are asked to DECLINE this call (a signed \"no\" for its target)."
            }
        },
    );
    head.raw("\nYou vouch for:\n");
    head
}

pub(super) fn prose(text: &mut Text, width: usize, indent: &str, words: &str) {
    let mut line = String::from(indent);
    for word in words.split(' ') {
        if line.len() > indent.len() && line.len() + 1 + word.len() > width {
            text.raw(&line);
            text.raw("\n");
            line = String::from(indent);
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line.push_str(word);
    }
    text.raw(&line);
    text.raw("\n");
}

/// Cuts every line longer than `width` columns into pieces of at most `width` columns; each
/// piece after the first starts with [`CONTINUED`]. A cut never falls inside a `\u{HEX}`
/// escape. The text is ASCII (everything else is escaped), so a byte is a column; a line's
/// CR before its LF takes none.
fn fit(text: &[u8], width: usize) -> Vec<u8> {
    fit_with(text, width, |line, limit, _| {
        cut_outside_escape(line, limit)
    })
}

/// [`fit`] with another rule for where a line is cut: `cut(rest, limit, next)` says how
/// many bytes of `rest` go on a piece of at most `limit` columns (at least one), `next` being
/// the room on the pieces after it.
pub(super) fn fit_with(
    text: &[u8],
    width: usize,
    cut: impl Fn(&[u8], usize, usize) -> usize,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / width * 4);
    for line in text.split_inclusive(|&b| b == b'\n') {
        let content_end = line
            .iter()
            .rposition(|&b| b != b'\n' && b != b'\r')
            .map_or(0, |at| at + 1);
        let (mut rest, end) = line.split_at(content_end);
        let mut limit = width;
        while rest.len() > limit {
            let cut = cut(rest, limit, width - CONTINUED.len()).clamp(1, limit);
            out.extend_from_slice(&rest[..cut]);
            out.push(b'\n');
            out.extend_from_slice(CONTINUED.as_bytes());
            rest = &rest[cut..];
            limit = width - CONTINUED.len();
        }
        out.extend_from_slice(rest);
        out.extend_from_slice(end);
    }
    out
}

/// Where to cut a line longer than `limit`: at `limit`, moved back before a `\u{HEX}`
/// escape it would cut through, and before spaces that would end the piece (where nobody
/// could see them; they start the next piece instead).
pub(super) fn cut_outside_escape(line: &[u8], limit: usize) -> usize {
    let mut cut = limit;
    if let Some(start) = line[..limit].windows(3).rposition(|w| w == b"\\u{") {
        if start > 0 && !line[start..limit].contains(&b'}') {
            cut = start;
        }
    }
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

    fn screen(frame: &str, decision: Decision, width: usize, location: &str) -> String {
        let call = call(frame.as_bytes());
        let target = call.identities().host.target.clone();
        let profiles = call.identities().profiles_with_target(&target);
        let text = render(
            &Request {
                decision,
                target: &target,
                profiles: &profiles,
                server: "prod",
                call: &call,
                frame: frame.as_bytes(),
            },
            &Signer {
                key_id: "e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8",
                location,
                fingerprint: Some(
                    "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU alice@laptop",
                ),
            },
            &Record {
                nonce: "n-1",
                authorized_at: 1_786_000_000_000,
                approval: (decision == Decision::Allow).then_some(Approval {
                    expiry: 1_786_000_120_000,
                    session: "inc-4711",
                    approver: "alice-oncall",
                }),
            },
            width,
        );
        String::from_utf8(text).unwrap()
    }

    const FRAME: &str = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"arguments\":{\"sql\":\"drop table customers where the name is long enough to wrap \u{202e} twice over at eighty\"},\"_meta\":{\"z.example/x\":{\"b\":1,\"a\":[true]},\"progressToken\":\"t\"}}}\n";

    #[test]
    fn every_line_fits_and_the_cut_lines_rejoin_to_the_frame() {
        for width in [40, 72, 80, 120, 160] {
            let text = screen(FRAME, Decision::Allow, width, "key file keys/approval.key");
            assert!(text.lines().all(|l| l.len() <= width), "{width}: {text}");
            assert!(
                text.replacen('\n', " ", 1).starts_with(&format!(
                    "Seal approval request (sealkit-approve-terminal 3, {width} columns)\n"
                )) || text.starts_with(&format!(
                    "Seal approval request (sealkit-approve-terminal 3, {width} columns)\n"
                )),
                "{text}"
            );
            // The frame's pieces, marks removed, are the escaped frame line.
            let at = text.find("\n{\"jsonrpc\"").unwrap() + 1;
            let mut lines = text[at..].lines();
            let mut joined = lines.next().unwrap().to_owned();
            for line in lines.by_ref() {
                match line.strip_prefix(CONTINUED) {
                    Some(piece) => joined.push_str(piece),
                    None => break,
                }
            }
            let escaped =
                crate::inert::escape_where(FRAME.trim_end(), |ch| !(' '..='~').contains(&ch));
            assert_eq!(joined, escaped, "{width}");
        }

        // Wide enough, only the 246-character frame is cut (once).
        let wide = screen(FRAME, Decision::Allow, 160, "key file k");
        let cut = wide.lines().filter(|l| l.starts_with(CONTINUED)).count();
        assert_eq!(cut, 1, "{wide}");
    }

    #[test]
    fn every_vouched_value_is_shown() {
        let text = screen(FRAME, Decision::Allow, 80, "key file keys/approval.key");
        for expected in [
            "  approver   alice-oncall\n",
            "  session    inc-4711\n",
            "  server     \"prod\"\n",
            "  tool       \"db.execute\"\n",
            "  valid      120 s\n",
            "  from       2026-08-06 07:06:40 UTC (1786000000000 ms)\n",
            "  until      2026-08-06 07:08:40 UTC (1786000120000 ms)\n",
            "  nonce      n-1\n",
            "  key id     e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8\n",
            "  key        key file keys/approval.key\n",
            "  ssh key    SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU alice@laptop\n",
            "  record     ApprovalRecord v2, Ed25519\n",
            "  domain     seal.approval-record/v2\n",
            "  scope      mcp-jsonrpc-request-frame-including-delimiter\n",
            "  encoding   bytes\n",
            "note: characters outside printable ASCII are shown as \\u{HEX}\n",
        ] {
            assert!(text.contains(expected), "{expected:?} in {text}");
        }
        assert!(text.ends_with(", valid 120 s? [y/N] "), "{text}");
        let decline = screen(FRAME, Decision::Deny, 80, "key file k");
        assert!(
            decline.contains("  issued     2026-08-06 07:06:40 UTC (1786000000000 ms)\n")
                && !decline.contains("approver")
                && decline.contains("signed decline (v1 envelope)"),
            "{decline}"
        );
    }

    #[test]
    fn a_long_value_gets_its_own_line_and_a_longer_one_is_cut_with_marks() {
        let path = format!("key file /{}/k.key", "d".repeat(100));
        let text = screen(FRAME, Decision::Allow, 80, &path);
        let expected = format!(
            "  key\n    key file /{}\n+ {}/k.key\n",
            "d".repeat(66),
            "d".repeat(34)
        );
        assert!(text.contains(&expected), "{text}");
    }

    #[test]
    fn a_line_of_exactly_the_width_is_not_cut_and_its_line_end_takes_no_column() {
        // Caught the mutant that counted the LF (or CR LF) as part of the line.
        for end in ["\n", "\r\n"] {
            let line = format!("{}{end}", "a".repeat(80));
            assert_eq!(String::from_utf8(fit(line.as_bytes(), 80)).unwrap(), line);
        }
        // One column over: the last character goes to a piece of its own.
        let over = format!("{}\n", "a".repeat(81));
        assert_eq!(
            String::from_utf8(fit(over.as_bytes(), 80)).unwrap(),
            format!("{}\n+ a\n", "a".repeat(80))
        );
        let long = format!("{}\r\n", "a".repeat(158));
        assert_eq!(
            String::from_utf8(fit(long.as_bytes(), 80)).unwrap(),
            format!("{}\n+ {}\r\n", "a".repeat(80), "a".repeat(78))
        );
    }

    #[test]
    fn a_cut_never_splits_an_escape() {
        let line = format!("{}\\u{{202E}}tail", "a".repeat(75));
        let cut = fit(line.as_bytes(), 80);
        assert_eq!(
            String::from_utf8(cut).unwrap(),
            format!("{}\n+ \\u{{202E}}tail", "a".repeat(75))
        );
        // Spaces that would end a piece start the next one instead (missed mutants of the
        // `kept > 0` test), unless the piece would be nothing but spaces.
        assert_eq!(cut_outside_escape(b"aaaa  bbbb", 6), 4);
        assert_eq!(cut_outside_escape(b"      bbbb", 4), 4);
        let spaced = format!("{}   {}\n", "a".repeat(78), "b".repeat(10));
        assert_eq!(
            String::from_utf8(fit(spaced.as_bytes(), 80)).unwrap(),
            format!("{}\n+    {}\n", "a".repeat(78), "b".repeat(10))
        );
        // An escape closed before the limit is left alone.
        assert_eq!(cut_outside_escape(b"ab\\u{41}cdef", 9), 9);
    }

    #[test]
    fn manifest_digest_is_pinned_and_differs_from_the_earlier_versions() {
        assert_ne!(manifest_sha256(), v2::manifest_sha256());
        assert_eq!(
            manifest_sha256(),
            "35dc07c3e67049fc220c641cc4c8d11edc239ad5f0673fec936c08c04cc7b4ce"
        );
    }
}
