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
const CHUNK: usize = 1024 * 1024;
const FIRST_CHUNK: usize = 4 * 1024;

/// Pieces read ahead and not yet taken, at most.
const AHEAD: usize = 2;

/// Bytes kept free before each piece [`ReadAhead`] reads, so that [`Text::compact`] can put
/// the unread end of the text there and take the piece's buffer as the text, instead of
/// copying the piece onto the end of the text (a copy of the whole input, 4 % of a sealed
/// log's check; docs/performance.md, "Issue 40, phase 11"). An entry is a few hundred bytes
/// to tens of kilobytes, so the unread end nearly always fits.
pub(super) const HEADROOM: usize = 64 * 1024;

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

    /// The next piece as a buffer the caller keeps, when it is UTF-8 as a whole: its text
    /// starts at [`HEADROOM`], after as many NUL bytes. `None` when the source cannot hand
    /// pieces over, at the end of the input, or when what comes next is not such text (another
    /// piece, the end, a read error: [`Source::next_piece`] still gives it).
    fn next_text(&mut self) -> Option<String> {
        None
    }

    /// A buffer handed over by [`Source::next_text`] and no longer needed, to read into again.
    fn give_back(&mut self, _buffer: String) {}
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

/// Reads once into `chunk` past its first `kept` bytes (0, or [`HEADROOM`] for
/// [`ReadAhead`]'s pieces), retrying an interrupted read, and doubles that part of `chunk` (up
/// to [`CHUNK`]) when the read filled it; the bytes read.
fn read_into(reader: &mut impl Read, chunk: &mut Vec<u8>, kept: usize) -> io::Result<usize> {
    let n = loop {
        match reader.read(&mut chunk[kept..]) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => break other?,
        }
    };
    let size = chunk.len() - kept;
    if n == size && n < CHUNK {
        chunk.resize(kept + 2 * n, 0);
    }
    Ok(n)
}

impl<R: Read> Source for Direct<R> {
    fn next_piece(&mut self) -> io::Result<Option<Piece<'_>>> {
        let n = read_into(&mut self.reader, &mut self.chunk, 0)?;
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
/// Each piece is read into a buffer after [`HEADROOM`] NUL bytes, so that it can be handed
/// over whole ([`Source::next_text`]).
/// The thread is not joined: it ends at the end of the input, at a read error, or at its next
/// piece once the source is dropped (a reader that blocks, standard input left open, keeps it
/// waiting until the process ends, never the caller), which is why the reader is `'static`.
pub(super) struct ReadAhead {
    pieces: Receiver<io::Result<Ahead>>,
    /// Buffers taken, for the thread to read into again.
    spent: Sender<Vec<u8>>,
    /// The piece being lent out.
    current: Option<Ahead>,
    /// What was received and not yet lent out ([`Source::next_text`] declined it).
    pending: Option<io::Result<Ahead>>,
    /// The end of the input was received.
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
            pending: None,
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
        // A buffer given back holds old text: only its headroom is cleared, the read
        // overwrites the rest and the buffer is cut where the read ends.
        chunk.truncate(HEADROOM + size);
        let kept = chunk.len().min(HEADROOM);
        chunk[..kept].fill(0);
        chunk.resize(HEADROOM + size, 0);
        let piece = match read_into(reader, &mut chunk, HEADROOM) {
            Ok(0) => Ok(Ahead::End),
            Ok(n) => {
                size = chunk.len() - HEADROOM;
                chunk.truncate(HEADROOM + n);
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

impl ReadAhead {
    /// Gives the buffer of the piece lent out last back to the thread. The thread may be gone
    /// (the input ended): then the buffer is dropped.
    fn release_current(&mut self) {
        match self.current.take() {
            Some(Ahead::Text(text)) => {
                let _ = self.spent.send(text.into_bytes());
            }
            Some(Ahead::Bytes(bytes)) => {
                let _ = self.spent.send(bytes);
            }
            Some(Ahead::End) | None => {}
        }
    }

    /// The next piece: the one [`Source::next_text`] declined, or the thread's next; `None`
    /// once the end was received.
    fn next_ahead(&mut self) -> io::Result<Option<Ahead>> {
        let piece = match self.pending.take() {
            Some(received) => received?,
            None if self.ended => return Ok(None),
            // A thread that stopped without saying the input ended is an error, not an end.
            None => self
                .pieces
                .recv()
                .map_err(|_| io::Error::other("the sealed-log input thread stopped"))??,
        };
        self.ended = matches!(piece, Ahead::End);
        Ok(Some(piece))
    }
}

impl Source for ReadAhead {
    fn next_piece(&mut self) -> io::Result<Option<Piece<'_>>> {
        self.release_current();
        let Some(piece) = self.next_ahead()? else {
            return Ok(None);
        };
        Ok(match self.current.insert(piece) {
            Ahead::Text(text) => Some(Piece::Text(&text[HEADROOM..])),
            Ahead::Bytes(bytes) => Some(Piece::Bytes(&bytes[HEADROOM..])),
            Ahead::End => None,
        })
    }

    fn next_text(&mut self) -> Option<String> {
        self.release_current();
        if self.pending.is_some() || self.ended {
            return None;
        }
        match self.pieces.recv() {
            Ok(Ok(Ahead::Text(text))) => Some(text),
            Ok(other) => {
                self.pending = Some(other);
                None
            }
            // The thread is gone: the next read says so.
            Err(_) => None,
        }
    }

    fn give_back(&mut self, buffer: String) {
        let _ = self.spent.send(buffer.into_bytes());
    }
}

pub(super) struct Text<S> {
    source: S,
    /// Bytes read but not yet decoded: the start of a UTF-8 sequence the next read completes.
    raw: Vec<u8>,
    /// Decoded text not yet dropped; `text[pos..]` is unconsumed.
    pub(super) text: String,
    /// Offset in the whole decoded input of `text[0]`, modulo 2^64: a buffer taken over from
    /// the source ([`Text::compact`]) starts with headroom that stands before the input's
    /// first byte, so this can be "negative"; every index read is past the headroom.
    base: usize,
    pub(super) pos: usize,
    eof: bool,
    /// Some input was not UTF-8.
    pub(super) lossy: bool,
    /// Pieces whose buffer [`Text::compact`] took over.
    #[cfg(test)]
    taken_over: usize,
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
            #[cfg(test)]
            taken_over: 0,
        }
    }

    /// Offset in the whole decoded input of `text[index]`.
    pub(super) fn offset(&self, index: usize) -> usize {
        self.base.wrapping_add(index)
    }

    /// Called where no index into `text` is held: once the unread end of the text fits in a
    /// piece's headroom, takes the next piece's buffer as the text with that end copied just
    /// before it ([`Source::next_text`]); otherwise drops consumed text once there is a chunk
    /// of it. Either way the buffer stays about one chunk plus the value being read.
    pub(super) fn compact(&mut self) {
        let unread = self.text.len() - self.pos;
        if unread <= HEADROOM && !self.eof && self.raw.is_empty() && self.take_over_next(unread) {
            return;
        }
        if self.pos >= CHUNK {
            self.text.drain(..self.pos);
            self.base = self.base.wrapping_add(self.pos);
            self.pos = 0;
        }
    }

    /// [`Text::compact`]'s first way; false when the source hands over no piece (then nothing
    /// changed; a read error is the next read's to report).
    fn take_over_next(&mut self, unread: usize) -> bool {
        let Some(mut next) = self.source.next_text() else {
            return false;
        };
        let start = HEADROOM - unread;
        // Both ranges are at character boundaries: `pos` is one, and the headroom is NUL bytes.
        next.replace_range(start..HEADROOM, &self.text[self.pos..]);
        self.base = self.base.wrapping_add(self.pos).wrapping_sub(start);
        self.pos = start;
        let spent = std::mem::replace(&mut self.text, next);
        self.source.give_back(spent);
        #[cfg(test)]
        {
            self.taken_over += 1;
        }
        true
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
    if let Ok(valid) = crate::utf8::str_of(bytes) {
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

    /// Reads `text` the way the sealed-log framer does: `compact` where no index is held, then
    /// a value of the next length in `takes` (the last one shorter at the end), checking that
    /// each offset counts the text before it. The text read, and how many pieces were taken
    /// over.
    fn consume<S: Source>(mut text: Text<S>, takes: &[usize]) -> (String, usize) {
        let mut read = String::new();
        for &take in takes.iter().cycle() {
            text.compact();
            assert_eq!(
                text.offset(text.pos),
                read.len(),
                "the offset of the cursor"
            );
            let start = text.pos;
            let mut end = start;
            while end < start + take && text.byte_at(end).unwrap().is_some() {
                end += 1;
            }
            while !text.text.is_char_boundary(end) {
                end += 1;
            }
            if end == start {
                break;
            }
            read.push_str(&text.text[start..end]);
            text.pos = end;
        }
        (read, text.taken_over)
    }

    /// Read in values of mixed lengths with `compact` between them (some values longer than
    /// the headroom, so that one does not fit and the text grows instead), directly and read
    /// ahead, the text is the whole input and the offsets count it. Read ahead, pieces are
    /// taken over (never taking one over, `false &&` applied by hand to `compact`'s condition,
    /// turned this red); a piece that is not UTF-8 as a whole is decoded instead, to the same
    /// text.
    #[test]
    fn compacting_between_values_keeps_the_text_and_its_offsets() {
        let mut mixed = Vec::new();
        for i in 0..700_000 {
            match i % 99_991 {
                0 => mixed.extend_from_slice("\u{e9}".as_bytes()),
                1 => mixed.push(0xff),
                2 => mixed.extend_from_slice("\u{1F600}".as_bytes()),
                _ => mixed.push(b'a' + (i % 26) as u8),
            }
        }
        let ascii: Vec<u8> = (0..3_000_000).map(|i| b'a' + (i % 26) as u8).collect();
        let takes = [1, 700, 9_000, HEADROOM + 5_000, 40, 3 * HEADROOM];
        for input in [&mixed[..], &ascii[..]] {
            let expected = String::from_utf8_lossy(input);
            for step in [4_096, 65_537, 1 << 20] {
                let direct = Text::new(Direct::new(Trickle { bytes: input, step }));
                assert_eq!(consume(direct, &takes), (expected.to_string(), 0));
                let reader = Trickle {
                    bytes: io::Cursor::new(input.to_vec()),
                    step,
                };
                let (read, taken_over) =
                    consume(Text::new(ReadAhead::spawn(reader).unwrap()), &takes);
                assert_eq!(read, expected, "read ahead in reads of {step}");
                // Pieces of 4 KiB and up, doubling (17 to 66 of them taken over here).
                assert!(
                    taken_over >= 3,
                    "{taken_over} pieces taken over in reads of {step}"
                );
            }
        }
    }

    /// A reader that gives `ok` bytes and then fails.
    struct FailsAfter {
        ok: usize,
    }

    impl Read for FailsAfter {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.ok == 0 {
                return Err(io::Error::other("the disk went away"));
            }
            let n = self.ok.min(out.len()).min(1000);
            out[..n].fill(b'x');
            self.ok -= n;
            Ok(n)
        }
    }

    /// A read error met while `compact` looks for a piece to take over is not lost: the next
    /// read reports it, and the text before it was all read (`next_text` dropping what it
    /// declines, applied by hand, turned this red: another error, and 1,000 bytes lost).
    #[test]
    fn a_read_error_met_while_compacting_is_reported_by_the_next_read() {
        let mut text = Text::new(ReadAhead::spawn(FailsAfter { ok: 10_000 }).unwrap());
        let mut read = 0;
        let error = loop {
            text.compact();
            match text.byte_at(text.pos) {
                Ok(Some(_)) => {
                    text.pos += 1;
                    read += 1;
                }
                Ok(None) => panic!("the error was lost after {read} bytes"),
                Err(e) => break e,
            }
        };
        assert_eq!(read, 10_000);
        assert_eq!(error.to_string(), "the disk went away");
    }

    /// A reader interrupted by a signal before each of its reads.
    struct Interrupted {
        bytes: io::Cursor<Vec<u8>>,
        interrupt: bool,
    }

    impl Interrupted {
        fn new(bytes: &[u8]) -> Self {
            Interrupted {
                bytes: io::Cursor::new(bytes.to_vec()),
                interrupt: false,
            }
        }
    }

    impl Read for Interrupted {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = out.len().min(3_000);
            self.bytes.read(&mut out[..n])
        }
    }

    /// An interrupted read is read again, directly and read ahead: the text is the whole
    /// input (seen red with the retry's guard → `false` applied by hand to `read_into`,
    /// cargo-mutants' miss in session 10).
    #[test]
    fn an_interrupted_read_is_read_again() {
        let input: Vec<u8> = (0..50_000).map(|i| b'a' + (i % 26) as u8).collect();
        let expected = String::from_utf8(input.clone()).unwrap();
        let mut direct = Text::new(Direct::new(Interrupted::new(&input)));
        while direct.more().unwrap() {}
        assert_eq!(direct.text, expected);
        let reader = Interrupted::new(&input);
        let (read, _) = consume(Text::new(ReadAhead::spawn(reader).unwrap()), &[700]);
        assert_eq!(read, expected);
    }

    /// However long the input, the text read ahead stays about a piece of at most [`CHUNK`]
    /// after its headroom: the read size doubles up to [`CHUNK`] and no further (seen red with
    /// `read_into`'s `&&` → `||` applied by hand: the pieces then double without end,
    /// a cargo-mutants miss in session 10).
    #[test]
    fn the_text_read_ahead_stays_a_chunk_long_whatever_the_input() {
        let input: Vec<u8> = (0..9 << 20).map(|i| b'a' + (i % 26) as u8).collect();
        let mut text = Text::new(ReadAhead::spawn(io::Cursor::new(input.clone())).unwrap());
        let mut longest = 0;
        while text.byte_at(text.pos).unwrap().is_some() {
            text.compact();
            longest = longest.max(text.text.len());
            text.pos = (text.pos + 5_000).min(text.text.len());
        }
        assert_eq!(text.offset(text.pos), input.len());
        assert!(longest <= HEADROOM + CHUNK + 5_000, "{longest}");
    }
}
