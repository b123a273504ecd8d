//! Splits a capture (a byte stream of JSON-RPC frames) into frames exactly as seal-host
//! reads its client's stdin (docs/formats.md, §4): a frame is the bytes
//! up to and including the first LF (so a CRLF frame keeps its `\r\n`); a last frame without
//! a terminator is still a frame. Each frame keeps its exact bytes, and [`digests`] gives
//! their exact-frame subject and `request_sha256`, which every frame has, refused or not.
//! Memory stays bounded: a frame over [`MAX_FRAME_BYTES`] is drained to its LF, keeping
//! only its first bytes and its true length.

use crate::digest::hex_lower;
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
