//! A byte stream read as the text a whole-file lossy UTF-8 decoding of it would give
//! (`String::from_utf8_lossy`, which is also how Node's `readFileSync(…, "utf8")` decodes):
//! each maximal invalid subsequence becomes one U+FFFD, a sequence cut by the end of the
//! input becomes one U+FFFD, and a sequence split between two reads is decoded whole. Offsets
//! are counted in the decoded text, so they equal offsets into the whole decoded file.
//! Memory is one read chunk plus whatever the caller keeps unconsumed. The input comes from a
//! [`Source`]: the reader read on the caller's thread ([`Direct`]), or read ahead on a thread
//! of its own ([`ReadAhead`]), which also checks each piece as UTF-8 there.

use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};

/// How much is read from the input at a time, at most; reads start at [`FIRST_CHUNK`] and
/// double, so a small input costs a small buffer.
const CHUNK: usize = 256 * 1024;
const FIRST_CHUNK: usize = 4 * 1024;

/// Pieces read ahead and not yet taken, at most.
const AHEAD: usize = 2;

/// One read's worth of input, in order.
pub(super) enum Piece<'a> {
    /// Known to be UTF-8 as a whole.
    Text(&'a str),
    /// Not checked, or not UTF-8 as a whole (an invalid byte, or a sequence the read cut).
    Bytes(&'a [u8]),
}

/// Where a [`Text`] gets its input.
pub(super) trait Source {
    /// The next piece of the input; `None` at its end.
    fn next_piece(&mut self) -> io::Result<Option<Piece<'_>>>;
}

/// The reader, read on the caller's thread.
pub(super) struct Direct<R> {
    reader: R,
    /// The read buffer.
    chunk: Vec<u8>,
}

impl<R: Read> Direct<R> {
    pub(super) fn new(reader: R) -> Self {
        Direct {
            reader,
            chunk: vec![0; FIRST_CHUNK],
        }
    }
}

/// Reads once into `chunk`, retrying an interrupted read, and doubles `chunk` (up to
/// [`CHUNK`]) when the read filled it; the bytes read.
fn read_into(reader: &mut impl Read, chunk: &mut Vec<u8>) -> io::Result<usize> {
    let n = loop {
        match reader.read(chunk) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => break other?,
        }
    };
    if n == chunk.len() && n < CHUNK {
        chunk.resize(2 * n, 0);
    }
    Ok(n)
}

impl<R: Read> Source for Direct<R> {
    fn next_piece(&mut self) -> io::Result<Option<Piece<'_>>> {
        let n = read_into(&mut self.reader, &mut self.chunk)?;
        Ok((n > 0).then(|| Piece::Bytes(&self.chunk[..n])))
    }
}

/// What the read-ahead thread hands over.
enum Ahead {
    Text(String),
    Bytes(Vec<u8>),
    /// The input ended.
    End,
}

/// The reader, read on a thread of its own, [`AHEAD`] pieces ahead of the caller: the kernel's
/// copy of the input and the UTF-8 check of each piece run there, beside the caller's work.
/// The thread is not joined: it ends at the end of the input, at a read error, or at its next
/// piece once the source is dropped (a reader that blocks, standard input left open, keeps it
/// waiting until the process ends, never the caller), which is why the reader is `'static`.
pub(super) struct ReadAhead {
    pieces: Receiver<io::Result<Ahead>>,
    /// Buffers taken, for the thread to read into again.
    spent: Sender<Vec<u8>>,
    /// The piece being lent out.
    current: Option<Ahead>,
    ended: bool,
}

impl ReadAhead {
    pub(super) fn spawn(mut reader: impl Read + Send + 'static) -> io::Result<Self> {
        let (sender, pieces) = mpsc::sync_channel(AHEAD);
        let (spent, buffers) = mpsc::channel::<Vec<u8>>();
        std::thread::Builder::new()
            .name("sealed-log-input".into())
            .spawn(move || read_ahead(&mut reader, &sender, &buffers))?;
        Ok(ReadAhead {
            pieces,
            spent,
            current: None,
            ended: false,
        })
    }
}

/// The read-ahead thread: reads, checks and hands over pieces until the end, an error, or a
/// caller that stopped taking them.
fn read_ahead(
    reader: &mut impl Read,
    sender: &SyncSender<io::Result<Ahead>>,
    buffers: &Receiver<Vec<u8>>,
) {
    let mut size = FIRST_CHUNK;
    loop {
        let mut chunk = buffers.try_recv().unwrap_or_default();
        chunk.resize(size, 0);
        let piece = match read_into(reader, &mut chunk) {
            Ok(0) => Ok(Ahead::End),
            Ok(n) => {
                size = chunk.len();
                chunk.truncate(n);
                Ok(match String::from_utf8(chunk) {
                    Ok(text) => Ahead::Text(text),
                    Err(e) => Ahead::Bytes(e.into_bytes()),
                })
            }
            Err(e) => Err(e),
        };
        let last = !matches!(piece, Ok(Ahead::Text(_) | Ahead::Bytes(_)));
        if sender.send(piece).is_err() || last {
            return;
        }
    }
}

impl Source for ReadAhead {
    fn next_piece(&mut self) -> io::Result<Option<Piece<'_>>> {
        match self.current.take() {
            Some(Ahead::Text(text)) => {
                // The thread may be gone (the input ended): then the buffer is dropped.
                let _ = self.spent.send(text.into_bytes());
            }
            Some(Ahead::Bytes(bytes)) => {
                let _ = self.spent.send(bytes);
            }
            Some(Ahead::End) | None => {}
        }
        if self.ended {
            return Ok(None);
        }
        // A thread that stopped without saying the input ended is an error, not an end.
        let piece = self
            .pieces
            .recv()
            .map_err(|_| io::Error::other("the sealed-log input thread stopped"))??;
        self.ended = matches!(piece, Ahead::End);
        Ok(match self.current.insert(piece) {
            Ahead::Text(text) => Some(Piece::Text(text)),
            Ahead::Bytes(bytes) => Some(Piece::Bytes(bytes)),
            Ahead::End => None,
        })
    }
}

pub(super) struct Text<S> {
    source: S,
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

impl<S: Source> Text<S> {
    pub(super) fn new(source: S) -> Self {
        Text {
            source,
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
            let piece = self.source.next_piece()?;
            self.eof = piece.is_none();
            let bytes = match piece {
                // Whole and checked, nothing pending before it: taken as it is.
                Some(Piece::Text(text)) if self.raw.is_empty() => {
                    self.text.push_str(text);
                    continue;
                }
                Some(Piece::Text(text)) => text.as_bytes(),
                Some(Piece::Bytes(bytes)) => bytes,
                None => &[],
            };
            if self.raw.is_empty() {
                let kept = decode(bytes, self.eof, &mut self.text, &mut self.lossy);
                self.raw.extend_from_slice(kept);
            } else {
                self.raw.extend_from_slice(bytes);
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

    /// Hands out at most `step` bytes per read of `bytes`, to split every sequence somewhere
    /// (a slice, or a `Cursor` over bytes of its own for [`ReadAhead`]'s thread).
    struct Trickle<B> {
        bytes: B,
        step: usize,
    }

    impl<B: Read> Read for Trickle<B> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len());
            self.bytes.read(&mut out[..n])
        }
    }

    fn decoded(bytes: &[u8], step: usize) -> (String, bool) {
        let mut text = Text::new(Direct::new(Trickle { bytes, step }));
        while text.more().unwrap() {}
        (text.text, text.lossy)
    }

    fn read_ahead(bytes: &[u8], step: usize) -> (String, bool) {
        let reader = Trickle {
            bytes: io::Cursor::new(bytes.to_vec()),
            step,
        };
        let mut text = Text::new(ReadAhead::spawn(reader).unwrap());
        while text.more().unwrap() {}
        // The end stays the end.
        assert!(!text.more().unwrap());
        (text.text, text.lossy)
    }

    /// Read directly and read ahead on a thread (pieces that are UTF-8 whole, and pieces cut
    /// inside a sequence or holding an invalid one), the text is the lossy decoding of the
    /// whole input.
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
                for (text, lossy) in [decoded(bytes, step), read_ahead(bytes, step)] {
                    assert_eq!(text, expected, "{bytes:?} in reads of {step}");
                    assert_eq!(lossy, std::str::from_utf8(bytes).is_err(), "{bytes:?}");
                }
            }
        }
    }

    /// Inputs of many reads, where the reads grow and pieces that are UTF-8 whole follow
    /// pieces cut inside a sequence: the same text both ways.
    #[test]
    fn long_inputs_decode_alike_read_directly_and_read_ahead() {
        let mut bytes = Vec::new();
        for i in 0..40_000 {
            match i % 997 {
                0 => bytes.extend_from_slice("\u{e9}".as_bytes()),
                1 => bytes.push(0xff),
                2 => bytes.extend_from_slice("\u{1F600}".as_bytes()),
                _ => bytes.push(b'a' + (i % 26) as u8),
            }
        }
        let ascii = vec![b'x'; 600_000];
        for input in [&bytes[..], &ascii[..]] {
            let expected = String::from_utf8_lossy(input);
            for step in [1_000, 4_096, 4_097, 65_536, 1 << 20] {
                assert_eq!(decoded(input, step).0, expected, "reads of {step}");
                assert_eq!(read_ahead(input, step).0, expected, "reads of {step}");
            }
        }
    }
}
