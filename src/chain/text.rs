//! A byte stream read as the text a whole-file lossy UTF-8 decoding of it would give
//! (`String::from_utf8_lossy`, which is also how Node's `readFileSync(…, "utf8")` decodes):
//! each maximal invalid subsequence becomes one U+FFFD, a sequence cut by the end of the
//! input becomes one U+FFFD, and a sequence split between two reads is decoded whole. Offsets
//! are counted in the decoded text, so they equal offsets into the whole decoded file.
//! Memory is one read chunk plus whatever the caller keeps unconsumed.

use std::io::{self, Read};

/// How much is read from the input at a time, at most; reads start at [`FIRST_CHUNK`] and
/// double, so a small input costs a small buffer.
const CHUNK: usize = 256 * 1024;
const FIRST_CHUNK: usize = 4 * 1024;

pub(super) struct Text<R> {
    reader: R,
    /// The read buffer.
    chunk: Vec<u8>,
    /// Bytes read but not yet decoded: the start of a UTF-8 sequence the next read completes.
    raw: Vec<u8>,
    /// Decoded text not yet dropped; `text[pos..]` is unconsumed.
    pub(super) text: String,
    /// Offset in the whole decoded input of `text[0]`.
    base: usize,
    pub(super) pos: usize,
    eof: bool,
    /// Some input was not UTF-8.
    pub(super) lossy: bool,
}

impl<R: Read> Text<R> {
    pub(super) fn new(reader: R) -> Self {
        Text {
            reader,
            chunk: vec![0; FIRST_CHUNK],
            raw: Vec::new(),
            text: String::new(),
            base: 0,
            pos: 0,
            eof: false,
            lossy: false,
        }
    }

    /// Offset in the whole decoded input of `text[index]`.
    pub(super) fn offset(&self, index: usize) -> usize {
        self.base + index
    }

    /// Drops consumed text once there is a chunk of it, so the buffer stays about one chunk
    /// plus the value being read, and the copy of what is kept is paid once per chunk.
    pub(super) fn compact(&mut self) {
        if self.pos >= CHUNK {
            self.text.drain(..self.pos);
            self.base += self.pos;
            self.pos = 0;
        }
    }

    /// The byte at `index` of `text`, reading more input as needed; `None` at the end.
    #[inline]
    pub(super) fn byte_at(&mut self, index: usize) -> io::Result<Option<u8>> {
        // Called for nearly every byte of a log: the buffered case stays inline.
        match self.text.as_bytes().get(index) {
            Some(&byte) => Ok(Some(byte)),
            None => self.byte_after_reading(index),
        }
    }

    #[cold]
    fn byte_after_reading(&mut self, index: usize) -> io::Result<Option<u8>> {
        while index >= self.text.len() {
            if !self.more()? {
                return Ok(None);
            }
        }
        Ok(Some(self.text.as_bytes()[index]))
    }

    /// Appends more decoded text; false once the input is exhausted and nothing was added.
    pub(super) fn more(&mut self) -> io::Result<bool> {
        let before = self.text.len();
        while self.text.len() == before {
            if self.eof {
                return Ok(false);
            }
            let n = loop {
                match self.reader.read(&mut self.chunk) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    other => break other?,
                }
            };
            self.eof = n == 0;
            if n == self.chunk.len() && n < CHUNK {
                self.chunk.resize(2 * n, 0);
            }
            if self.raw.is_empty() {
                let kept = decode(&self.chunk[..n], self.eof, &mut self.text, &mut self.lossy);
                self.raw.extend_from_slice(kept);
            } else {
                self.raw.extend_from_slice(&self.chunk[..n]);
                let pending = std::mem::take(&mut self.raw);
                let kept = decode(&pending, self.eof, &mut self.text, &mut self.lossy);
                self.raw.extend_from_slice(kept);
            }
        }
        Ok(true)
    }
}

/// Appends the text of `bytes` to `text` and returns the bytes kept back: a sequence the next
/// read may complete (none at the end of the input).
fn decode<'b>(bytes: &'b [u8], eof: bool, text: &mut String, lossy: &mut bool) -> &'b [u8] {
    // The common case, valid UTF-8 throughout, validated in one pass (several times faster
    // than walking `utf8_chunks`); a chunk that is not takes the general path below.
    if let Ok(valid) = std::str::from_utf8(bytes) {
        text.push_str(valid);
        return &[];
    }
    let mut chunks = bytes.utf8_chunks().peekable();
    while let Some(chunk) = chunks.next() {
        text.push_str(chunk.valid());
        let invalid = chunk.invalid();
        if invalid.is_empty() {
            continue;
        }
        let incomplete = chunks.peek().is_none()
            && std::str::from_utf8(invalid).is_err_and(|e| e.error_len().is_none());
        if incomplete && !eof {
            return invalid;
        }
        text.push('\u{FFFD}');
        *lossy = true;
    }
    &[]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Hands out at most `step` bytes per read, to split every sequence somewhere.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len()).min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn decoded(bytes: &[u8], step: usize) -> (String, bool) {
        let mut text = Text::new(Trickle { bytes, step });
        while text.more().unwrap() {}
        (text.text, text.lossy)
    }

    #[test]
    fn decodes_like_from_utf8_lossy_whatever_the_read_sizes() {
        let samples: [&[u8]; 6] = [
            b"plain ascii",
            "caf\u{e9} \u{1F600} \u{fffd}".as_bytes(),
            b"a\xffb\xc3",
            b"\xf0\x9f\x98",
            b"\xe2\x82x\xed\xa0\x80\xf4\x90\x80\x80z",
            b"\xc3\xa9\xf0\x9f\x98\x80\xe2\x82",
        ];
        for bytes in samples {
            let expected = String::from_utf8_lossy(bytes);
            for step in 1..=bytes.len().max(1) {
                let (text, lossy) = decoded(bytes, step);
                assert_eq!(text, expected, "{bytes:?} in reads of {step}");
                assert_eq!(lossy, std::str::from_utf8(bytes).is_err(), "{bytes:?}");
            }
        }
    }
}
