//! From the exact bytes of one frame to a validated `tools/call` with every identity, or a
//! refusal, in the order of docs/target.md: raw frame checks → Seal's wire guards → lexical
//! caps → one parse → JSON-RPC / `tools/call` shape → era → `_meta` shape and known keys →
//! `_meta` bounds → identities (§2) and seal-host's request hashes
//! (docs/formats.md). A refused frame gets no identity. The pipeline's steps live beside it:
//! what a parsed message is and its era ([`message`]), the validated call and everything
//! derived from it ([`call`]), and the refusals of the guards and the parser ([`refusals`]).

mod call;
mod message;
mod refusals;

pub use call::{Call, MetaState};

use crate::era::Era;
use crate::frame::{self, Frame, MAX_FRAME_BYTES};
use crate::json::{self, Span};
use crate::meta;
use crate::refusal::{Refusal, RefusalCode};
use crate::wire;
use call::validated_call;
use message::{classify, decide_era, Message};
use refusals::{parse_refusal, wire_refusal};

/// The most bytes Lean `Json.compress` writes per byte of the value it renders: a number
/// literal renders to at most 310 bytes (sign and the 309 integer digits of a binary64
/// near its maximum, which the wire guards let through as e.g. `1e308`, 5 bytes: 61.8
/// per byte), a string escape at most triples (`\t`, 2 bytes, becomes `\u0009`), and
/// nothing else grows.
pub const MAX_LEAN_EXPANSION: usize = 62;

/// The same for serde_json's compact text (seal-host's `canonical_request`): integers keep
/// their digits, other numbers are re-rendered by binary64 shortest form, the longest
/// growth being `1e15` (4 bytes) to `1000000000000000.0` (18 bytes); escapes never grow.
pub const MAX_SERDE_EXPANSION: usize = 5;

/// The canonical-work bound: the most canonical bytes one accepted frame can produce, in
/// all (`Call::canonical_bytes`). Lean renderings cover `arguments`, `requestState` and
/// `inputResponses` once and `_meta` twice (the whole object and its per-key entries; the
/// entries are places in the whole, not texts of their own, so this bounds more than is made),
/// seal-host's `canonical_request` covers the frame once more: so at most
/// 62 × (1 MiB frame + 32 KiB `_meta`) + 5 × 1 MiB = 72,286,208 bytes. It follows from the
/// frame and `_meta` bounds; no limit of its own is needed to hold it.
pub const MAX_CANONICAL_BYTES: usize = MAX_LEAN_EXPANSION
    * (MAX_FRAME_BYTES + meta::MAX_META_BYTES)
    + MAX_SERDE_EXPANSION * MAX_FRAME_BYTES;

/// How the era of each frame is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EraMode {
    /// From the session's entry call and the frame's own `_meta` markers.
    Auto,
    Legacy,
    Modern,
}

/// Operator settings for an analysis.
#[derive(Debug, Clone)]
pub struct Options {
    /// Seal's configured server identity (never read from a frame).
    pub server: String,
    pub era: EraMode,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            server: String::new(),
            era: EraMode::Auto,
        }
    }
}

/// Era state of one capture: set by `initialize` (legacy) or `server/discover`
/// (2026-07-28), each of which begins a session.
#[derive(Debug, Clone, Default)]
pub struct Session {
    era: Option<Era>,
}

impl Session {
    /// A session whose entry call was already read (`None`: no entry call seen), e.g. to
    /// analyse one frame taken out of a capture in the era it had there.
    pub fn begun(era: Option<Era>) -> Self {
        Session { era }
    }

    pub fn era(&self) -> Option<Era> {
        self.era
    }
}

/// What happened to one frame.
#[derive(Debug, Clone)]
pub enum Verdict {
    Call(Box<Call>),
    Refused(Refusal),
    Skipped(Skipped),
}

/// A frame that is not a `tools/call` request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub kind: SkipKind,
    pub method: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipKind {
    Request,
    Notification,
    Response,
    /// Only whitespace.
    Blank,
}

impl SkipKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SkipKind::Request => "request",
            SkipKind::Notification => "notification",
            SkipKind::Response => "response",
            SkipKind::Blank => "blank",
        }
    }
}

/// Analyses one frame read from a capture (an oversized frame is refused by its true length).
pub fn analyze_frame(frame: &Frame<'_>, options: &Options, session: &mut Session) -> Verdict {
    Verdict::from(accept_frame(frame, options, session))
}

/// Analyses the exact bytes of one frame (delimiter included).
pub fn analyze(frame: &[u8], options: &Options, session: &mut Session) -> Verdict {
    Verdict::from(accept(frame, options, session))
}

impl From<Result<Accepted<'_>, Refusal>> for Verdict {
    fn from(judged: Result<Accepted<'_>, Refusal>) -> Verdict {
        match judged {
            Ok(accepted) => match accepted.judged {
                Judged::Call(call) => Verdict::Call(call),
                Judged::Skipped(skipped) => Verdict::Skipped(skipped),
            },
            Err(refusal) => Verdict::Refused(refusal),
        }
    }
}

/// A frame the validation pipeline let through, with its judged line (the frame minus its
/// terminator): a validated `tools/call` ([`Accepted::call`]) or another JSON-RPC message
/// the pipeline does not refuse (a response, a notification, another request, a blank
/// line). It has no public constructor: [`accept`] is the only way to get one, so a library
/// function that takes an `Accepted` (the V2.3 envelope, typed targets) cannot be given a
/// frame the pipeline refuses, and its line cannot be swapped afterwards.
///
/// ```
/// use sealkit::request::{self, Options, Session};
/// let frame = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{}}}\n";
/// let accepted = request::accept(frame, &Options::default(), &mut Session::default()).unwrap();
/// assert_eq!(accepted.call().map(|call| call.tool()), Some("t"));
/// assert!(request::accept(b"{\"m\":1}\n", &Options::default(), &mut Session::default()).is_err());
/// ```
///
/// Building one by hand does not compile (the fields are private):
///
/// ```compile_fail,E0451
/// let forged = sealkit::request::Accepted { line: "{\"m\":1}", judged: todo!() };
/// ```
#[derive(Debug, Clone)]
pub struct Accepted<'f> {
    line: &'f str,
    judged: Judged,
}

/// What the pipeline made of a frame it did not refuse.
#[derive(Debug, Clone)]
enum Judged {
    Call(Box<Call>),
    Skipped(Skipped),
}

impl<'f> Accepted<'f> {
    /// The judged line: the frame's bytes minus one trailing LF, then one trailing CR.
    pub fn line(&self) -> &'f str {
        self.line
    }

    /// The validated `tools/call`, or `None` for another message the pipeline let through.
    pub fn call(&self) -> Option<&Call> {
        match &self.judged {
            Judged::Call(call) => Some(call),
            Judged::Skipped(_) => None,
        }
    }
}

/// Runs the validation pipeline over the exact bytes of one frame (delimiter included),
/// as [`analyze`] does: the frame if the pipeline lets it through, its refusal otherwise.
pub fn accept<'f>(
    frame: &'f [u8],
    options: &Options,
    session: &mut Session,
) -> Result<Accepted<'f>, Refusal> {
    let (line, judged) = judge(frame, options, session)?;
    Ok(Accepted { line, judged })
}

/// [`accept`] for one frame read from a capture: an oversized frame is refused by its true
/// length.
pub fn accept_frame<'f>(
    frame: &Frame<'f>,
    options: &Options,
    session: &mut Session,
) -> Result<Accepted<'f>, Refusal> {
    if frame.is_oversized() {
        return Err(Refusal::new(
            RefusalCode::FrameTooLarge,
            Span { start: MAX_FRAME_BYTES, end: MAX_FRAME_BYTES },
            format!("frame is {} bytes including its delimiter; seal-host reads at most {MAX_FRAME_BYTES}", frame.length),
        ));
    }
    accept(frame.bytes, options, session)
}

/// The frame's line as text, or its `invalid-utf8` refusal at std's first invalid byte.
fn utf8_line(line_bytes: &[u8]) -> Result<&str, Refusal> {
    crate::utf8::str_of(line_bytes).map_err(|e| {
        let at = e.valid_up_to();
        Refusal::new(
            RefusalCode::InvalidUtf8,
            Span {
                start: at,
                end: at + e.error_len().unwrap_or(1),
            },
            format!(
                "frame is not UTF-8: invalid byte 0x{:02X} at offset {at}",
                line_bytes[at]
            ),
        )
    })
}

/// The pipeline itself: the judged line and what it is, or the refusal.
fn judge<'f>(
    frame_bytes: &'f [u8],
    options: &Options,
    session: &mut Session,
) -> Result<(&'f str, Judged), Refusal> {
    if frame_bytes.len() > MAX_FRAME_BYTES {
        return Err(Refusal::new(
            RefusalCode::FrameTooLarge,
            Span { start: MAX_FRAME_BYTES, end: frame_bytes.len() },
            format!("frame is {} bytes including its delimiter; seal-host reads at most {MAX_FRAME_BYTES}", frame_bytes.len()),
        ));
    }
    let line_bytes = frame::request_line(frame_bytes);
    // A blank line is ASCII, so reading UTF-8 first refuses exactly the frames it refused
    // when it came second.
    let line = utf8_line(line_bytes)?;
    if line
        .bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        let blank = Skipped {
            kind: SkipKind::Blank,
            method: None,
        };
        return Ok((line, Judged::Skipped(blank)));
    }
    // The guards come before the parse: a frame both refuse is refused by its guard. The
    // parse runs first all the same, and the guards' own scan of the bytes only when the
    // parsed tree does not already show that it passes (`wire::passes_on_tree`): so clean
    // frames are read once, and what is refused, and why, stays the scan's.
    let parsed = json::parse(line, wire::MAX_WIRE_NESTING + 1);
    let root = match parsed {
        Ok(root) if wire::passes_on_tree(line, &root) => root,
        parsed => {
            wire::check(line).map_err(wire_refusal)?;
            parsed.map_err(|e| parse_refusal(line, e))?
        }
    };
    match classify(&root, session, options.era)? {
        Message::Skip(skipped) => Ok((line, Judged::Skipped(skipped))),
        Message::ToolsCall(params) => {
            let era = decide_era(options.era, session, params)?;
            let call = validated_call(frame_bytes, params, era, &options.server)
                .map_err(|refusal| refusal.in_era(era))?;
            Ok((line, Judged::Call(Box::new(call))))
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The whole-line UTF-8 check accepts exactly what std accepts and refuses at std's
    /// offset with std's span, on lines long enough for the SIMD path, with the bad byte at
    /// every position around a 64-byte block (seen red with `utf8_line`'s span ending at
    /// `at + 1` whatever std's error length: the truncated three-byte sequence followed by
    /// more text then ended a byte early).
    #[test]
    fn utf8_check_agrees_with_std_on_accept_and_on_the_refusal() {
        let bad: [&[u8]; 5] = [b"\xff", b"\xc3", b"\xe2\x82", b"\xc0\xaf", b"\xed\xa0\x80"];
        for prefix_len in (0..140).step_by(7) {
            for sequence in bad {
                let mut line = "é".repeat(prefix_len / 2).into_bytes();
                line.extend(b"a".repeat(prefix_len % 2));
                line.extend_from_slice(sequence);
                line.extend("ü tail".repeat(prefix_len % 11).as_bytes());
                let std_error = std::str::from_utf8(&line).unwrap_err();
                let mut frame = line.clone();
                frame.push(b'\n');
                let refusal =
                    accept(&frame, &Options::default(), &mut Session::default()).unwrap_err();
                assert_eq!(refusal.code, RefusalCode::InvalidUtf8);
                let at = std_error.valid_up_to();
                assert_eq!(refusal.span.start, at);
                assert_eq!(refusal.span.end, at + std_error.error_len().unwrap_or(1));
                assert_eq!(
                    refusal.message,
                    format!(
                        "frame is not UTF-8: invalid byte 0x{:02X} at offset {at}",
                        line[at]
                    )
                );
            }
        }
        let valid = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{\"x\":\"é\u{10FFFF}\u{FEFF}\"}}}\n";
        assert!(accept(
            valid.as_bytes(),
            &Options::default(),
            &mut Session::default()
        )
        .is_ok());
    }
}
