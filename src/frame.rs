//! Splits a capture (a byte stream of JSON-RPC frames) into frames exactly as seal-host
//! reads its client's stdin (docs/formats.md, §4): a frame is the bytes
//! up to and including the first LF (so a CRLF frame keeps its `\r\n`); a last frame without
//! a terminator is still a frame. Each frame keeps its exact bytes, and [`digests`] gives
//! their exact-frame subject and `request_sha256`, which every frame has, refused or not.
//! Memory stays bounded: a frame over [`MAX_FRAME_BYTES`] is drained to its LF, keeping
//! only its first bytes and its true length.
//!
//! [`read_strict`] is the one reading of a captured frame as JSON outside the validation
//! pipeline (responses, a frame given to `verify approval`, the structure of a refused
//! frame): the one JSON reader, then a member name written twice anywhere refuses the frame
//! (`duplicate-key`), so no reader of a frame keeps one copy of a repeated member while
//! another keeps the other. The pipeline refuses the same frames by Seal's guard 2 before
//! its own parse ([`crate::request`]).

use crate::digest::hex_lower;
use crate::json::{self, Duplicate, Node, ParseError};
use sha2::{Digest, Sha256};
use std::io::{self, BufRead};

/// seal-host's `MAX_WIRE_MESSAGE_BYTES`: a frame, delimiter included, may be this long.
pub const MAX_FRAME_BYTES: usize = 1024 * 1024;

/// One frame of a capture.
#[derive(Debug)]
pub struct Frame<'a> {
    /// 1-based frame number in the capture.
    pub line: u64,
    /// Byte offset of the frame's first byte in the capture.
    pub offset: u64,
    /// The exact frame bytes including the delimiter, or the first [`MAX_FRAME_BYTES`]
    /// of an oversized frame.
    pub bytes: &'a [u8],
    /// The full length of the frame in the capture (larger than `bytes.len()` only for an
    /// oversized frame).
    pub length: u64,
}

impl Frame<'_> {
    pub fn is_oversized(&self) -> bool {
        self.length > MAX_FRAME_BYTES as u64
    }
}

/// The request line inside a frame: the frame minus one trailing `\n`, then minus one
/// trailing `\r` (seal-host's `request_sha256` input).
pub fn request_line(frame: &[u8]) -> &[u8] {
    let line = frame.strip_suffix(b"\n").unwrap_or(frame);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The exact-frame subject: SHA-256 and length of the frame bytes including the delimiter.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Subject {
    pub sha256: String,
    pub length: u64,
}

impl Subject {
    /// The subject of `frame`, its bytes with the delimiter.
    pub fn of(frame: &[u8]) -> Self {
        Subject {
            sha256: crate::digest::sha256_hex(frame),
            length: frame.len() as u64,
        }
    }
}

/// The exact-frame subject and `request_sha256` of a frame (delimiter included), as an
/// accepted frame's record carries them; refusal records use the same digests.
pub fn digests(frame_bytes: &[u8]) -> (Subject, String) {
    let (request_sha256, subject_sha256) =
        line_and_frame_sha256(request_line(frame_bytes), frame_bytes);
    (
        Subject {
            sha256: subject_sha256,
            length: frame_bytes.len() as u64,
        },
        request_sha256,
    )
}

/// SHA-256 of the request line and of the whole frame: the frame is the line followed by
/// its terminator, so the line is hashed once and the terminator added to a copy.
fn line_and_frame_sha256(line: &[u8], frame: &[u8]) -> (String, String) {
    let mut hasher = Sha256::new();
    hasher.update(line);
    let line_digest = hasher.clone().finalize();
    hasher.update(&frame[line.len()..]);
    (hex_lower(&line_digest), hex_lower(&hasher.finalize()))
}

/// The code of a frame refused for a repeated member name: the pipeline's guard-2 refusal
/// code (`refusal::RefusalCode::DuplicateKey`, which a test there keeps equal to this).
pub const DUPLICATE_KEY: &str = "duplicate-key";

/// Why a captured frame was not read as one JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// Over [`MAX_FRAME_BYTES`]: its true length.
    Oversized(u64),
    /// Not UTF-8: the offset of the first invalid byte in the line.
    NotUtf8(usize),
    /// Not one JSON value to the one JSON reader (or nested deeper than it reads).
    NotJson(ParseError),
    /// A member name written twice in one object, at any depth: readers disagree on which
    /// copy counts, so the frame is refused, never read one way.
    Repeated(Duplicate),
}

impl Unread {
    /// The stable code of a refused frame ([`DUPLICATE_KEY`]), `None` for a frame that
    /// simply is not JSON.
    pub fn code(&self) -> Option<&'static str> {
        match self {
            Unread::Repeated(_) => Some(DUPLICATE_KEY),
            _ => None,
        }
    }
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::Oversized(length) => write!(
                f,
                "frame is {length} bytes, over the {MAX_FRAME_BYTES} byte frame limit"
            ),
            Unread::NotUtf8(at) => write!(f, "not UTF-8 at byte {at}"),
            Unread::NotJson(error) => {
                write!(f, "not JSON: {} at byte {}", error.message, error.offset)
            }
            Unread::Repeated(duplicate) => write!(f, "{duplicate}"),
        }
    }
}

/// The one strict reading of a frame's line (its bytes minus the delimiter): `Ok(None)` for a
/// blank line, else the one JSON value it holds, refused when any object in it writes a
/// member name twice.
pub fn read_line_strict(frame_bytes: &[u8]) -> Result<Option<Node<'_>>, Unread> {
    read_line_strict_within(frame_bytes, json::DUPLICATE_SCAN_DEPTH)
}

/// [`read_line_strict`] reading at most `max_depth` nested containers (deeper is not JSON
/// to it), for a caller that reads as a peer with that limit does.
pub fn read_line_strict_within(
    frame_bytes: &[u8],
    max_depth: usize,
) -> Result<Option<Node<'_>>, Unread> {
    let line = request_line(frame_bytes);
    if line
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        return Ok(None);
    }
    let text = std::str::from_utf8(line).map_err(|e| Unread::NotUtf8(e.valid_up_to()))?;
    let root = json::parse(text, max_depth).map_err(Unread::NotJson)?;
    match json::first_duplicate(&root) {
        Some(duplicate) => Err(Unread::Repeated(duplicate)),
        None => Ok(Some(root)),
    }
}

/// [`read_line_strict`] for a frame of a capture: an oversized frame is not read.
pub fn read_strict<'a>(frame: &Frame<'a>) -> Result<Option<Node<'a>>, Unread> {
    if frame.is_oversized() {
        return Err(Unread::Oversized(frame.length));
    }
    read_line_strict(frame.bytes)
}

/// Reads frames from a buffered byte stream: a frame already whole in the reader's buffer is
/// lent from it, any other is gathered in one reused buffer.
pub struct FrameReader<R> {
    reader: R,
    buffer: Vec<u8>,
    /// Bytes of the reader's buffer lent out as the last frame, to consume before the next.
    lent: usize,
    line: u64,
    offset: u64,
}

impl<R: BufRead> FrameReader<R> {
    pub fn new(reader: R) -> Self {
        FrameReader {
            reader,
            buffer: Vec::new(),
            lent: 0,
            line: 0,
            offset: 0,
        }
    }

    /// The next frame, or `None` at the end of the capture.
    pub fn next_frame(&mut self) -> io::Result<Option<Frame<'_>>> {
        // The last frame handed out from the reader's own buffer is consumed only now.
        self.reader.consume(std::mem::take(&mut self.lent));
        self.buffer.clear();
        // A frame whose LF is already buffered is lent from the reader's buffer, uncopied.
        let buffered = loop {
            match self.reader.fill_buf() {
                Ok(bytes) => break memchr::memchr(b'\n', bytes).map(|i| i + 1),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if let Some(take) = buffered.filter(|&take| take <= MAX_FRAME_BYTES) {
            self.lent = take;
            self.line += 1;
            let frame = Frame {
                line: self.line,
                offset: self.offset,
                // The same buffered bytes again: `fill_buf` reads only when it is empty.
                bytes: self
                    .reader
                    .fill_buf()?
                    .get(..take)
                    .ok_or_else(|| io::Error::other("the reader's buffer shrank"))?,
                length: take as u64,
            };
            self.offset += take as u64;
            return Ok(Some(frame));
        }
        let mut length: u64 = 0;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            let (take, terminated) = match memchr::memchr(b'\n', available) {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            let room = MAX_FRAME_BYTES.saturating_sub(self.buffer.len());
            self.buffer.extend_from_slice(&available[..take.min(room)]);
            length += take as u64;
            self.reader.consume(take);
            if terminated {
                break;
            }
        }
        if length == 0 {
            return Ok(None);
        }
        self.line += 1;
        let frame = Frame {
            line: self.line,
            offset: self.offset,
            bytes: &self.buffer,
            length,
        };
        self.offset += length;
        Ok(Some(frame))
    }
}

/// A capture in another encoding than UTF-8 (the one rule lives with every input's shape).
pub use crate::input::ForeignEncoding;

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<(u64, u64, Vec<u8>, u64)> {
        let mut reader = FrameReader::new(input);
        let mut out = Vec::new();
        while let Some(f) = reader.next_frame().unwrap() {
            out.push((f.line, f.offset, f.bytes.to_vec(), f.length));
        }
        out
    }

    #[test]
    fn keeps_delimiters_and_an_unterminated_last_frame() {
        let got = frames(b"a\nb\r\n\nc");
        assert_eq!(
            got,
            vec![
                (1, 0, b"a\n".to_vec(), 2),
                (2, 2, b"b\r\n".to_vec(), 3),
                (3, 5, b"\n".to_vec(), 1),
                (4, 6, b"c".to_vec(), 1),
            ]
        );
        assert!(frames(b"").is_empty());
    }

    /// Frames lent from the reader's buffer and frames gathered across its refills are the
    /// same frames, whatever the buffer's size (seen red with the lent frame consumed twice).
    #[test]
    fn frames_do_not_depend_on_how_the_reader_buffers() {
        let input: &[u8] = b"{\"a\":1}\nb\r\n\n\nlonger frame here\nc";
        let expected = frames(input);
        for capacity in 1..=input.len() + 1 {
            let mut reader = FrameReader::new(io::BufReader::with_capacity(capacity, input));
            let mut got = Vec::new();
            while let Some(f) = reader.next_frame().unwrap() {
                got.push((f.line, f.offset, f.bytes.to_vec(), f.length));
            }
            assert_eq!(got, expected, "buffer of {capacity} bytes");
        }
    }

    #[test]
    fn oversized_frames_are_bounded_and_drained() {
        let mut input = vec![b'x'; MAX_FRAME_BYTES + 1];
        input.push(b'\n');
        input.extend_from_slice(b"ok\n");
        let got = frames(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].2.len(), MAX_FRAME_BYTES);
        assert_eq!(got[0].3, MAX_FRAME_BYTES as u64 + 2);
        assert_eq!(got[1], (2, MAX_FRAME_BYTES as u64 + 2, b"ok\n".to_vec(), 3));
    }

    #[test]
    fn a_frame_of_exactly_the_limit_is_not_oversized() {
        let mut input = vec![b' '; MAX_FRAME_BYTES - 1];
        input.push(b'\n');
        let mut reader = FrameReader::new(&input[..]);
        let frame = reader.next_frame().unwrap().unwrap();
        assert!(!frame.is_oversized());
        assert_eq!(frame.bytes.len(), MAX_FRAME_BYTES);
    }

    #[test]
    fn request_line_strips_one_lf_then_one_cr() {
        assert_eq!(request_line(b"x\r\n"), b"x");
        assert_eq!(request_line(b"x\n"), b"x");
        assert_eq!(request_line(b"x\r"), b"x");
        assert_eq!(request_line(b"x\n\n"), b"x\n");
        assert_eq!(request_line(b"x"), b"x");
    }
}
