//! A sealed log verified as a stream, with the verdicts and messages of one whole-text parse
//! (`json::parse` of the lossily decoded file, 64 levels deep): the document's outer object
//! and its `entries` array are framed here, and every value inside them (each entry, each other
//! member's value, and the top-level value when it is not an object) is read by `json::parse`
//! itself, positioned at the same offset and depth as the whole-text parse would reach it, or,
//! for an entry in seal_log.mjs's shape, by a scan that reads what `json::parse` reads
//! ([`super::entry_scan`]). The reading runs on its own thread and hands the entries' decoded
//! payloads and heads over in batches; the caller's thread runs the head chain over them in
//! order ([`super::batch`]). Memory is one read chunk plus the largest value plus a fixed
//! number of batches, whatever the number of entries. What JSON.parse keeps, this keeps too:
//! the last of repeated members (`format`, `genesis`, `entries`, an entry's `payload` and
//! `head`) decides. A syntax error anywhere, even after the entries, is the result, as it is
//! for a whole-text parse; the reader stops at it.

use super::batch::{Batch, Entry, Filling, HeadChain};
use super::entry_scan::scan_entry;
use super::text::{Direct, ReadAhead, Source, Text};
use super::{genesis, GenesisCheck, SealedReport};
use crate::json::{self, JsonValue, Node, ParseError};
use std::io::{self, Read};
use std::sync::mpsc::{self, Receiver, SyncSender};

/// The largest single value in a sealed log (an entry, or another member's value); the log
/// itself has no size limit.
pub const MAX_VALUE_BYTES: usize = 16 * 1024 * 1024;

/// Batches handed over and not yet taken by the chaining thread, at most.
const IN_FLIGHT: usize = 2;

/// The nesting limit of the whole-text parse seal_log.mjs's output is checked against.
const MAX_DEPTH: usize = 64;

/// Past this many bytes before the end of what was read, a parse error cannot be an effect
/// of the text being cut there (the parser looks at most 6 bytes ahead: `false`, `\uXXXX`).
const LOOKAHEAD: usize = 8;

/// Why a sealed log could not be verified.
#[derive(Debug, thiserror::Error)]
pub enum SealedError {
    /// Reading the input failed.
    #[error("{0}")]
    Io(#[source] io::Error),
    /// Not a sealed log: the message the whole-text verifier gives.
    #[error("{0}")]
    NotSealed(String),
    /// One value is larger than [`MAX_VALUE_BYTES`]; it starts at this offset.
    #[error("the value at byte {0} is larger than {MAX_VALUE_BYTES} bytes, not read further")]
    ValueTooLarge(usize),
    /// A well-formed log in which one object writes a member name twice: different readers
    /// see different logs, whatever the chain says.
    #[error("{0}")]
    Duplicate(json::Duplicate),
}

impl crate::error_code::Coded for SealedError {
    fn code(&self) -> &'static str {
        match self {
            SealedError::Io(_) | SealedError::ValueTooLarge(_) => "unreadable-file",
            SealedError::NotSealed(_) => "not-a-sealed-log",
            SealedError::Duplicate(_) => "duplicate-member",
        }
    }
}

/// Verifies a sealed log read from `reader`.
pub fn verify_stream(reader: impl Read + Send) -> Result<SealedReport, SealedError> {
    verify(Direct::new(reader), None::<&mut fn(usize, &str, bool)>)
}

/// [`verify_stream`], with `reader` read on a third thread of its own, ahead of the reader
/// thread: the kernel's copy of the input and its UTF-8 check come off the reader thread, which
/// frames and decodes (the slower of the two halves; docs/performance.md, "Issue 40, phase 4").
/// Verdicts and messages are [`verify_stream`]'s. That thread is not joined (a reader that
/// blocks would keep this call waiting): it stops at the end of the input, at a read error, or
/// at its next read once this call has returned, so `reader` is `'static`.
pub fn verify_stream_read_ahead(
    reader: impl Read + Send + 'static,
) -> Result<SealedReport, SealedError> {
    let source = ReadAhead::spawn(reader).map_err(SealedError::Io)?;
    verify(source, None::<&mut fn(usize, &str, bool)>)
}

/// [`verify_stream`], also handing every chained entry to `each` as it is read: its index, its
/// payload, and whether its recorded head equals the one recomputed from the genesis.
///
/// Two threads share the work: a reader thread decodes, frames and parses the log and hands
/// entries over in [`Batch`]es ([`IN_FLIGHT`] at most waiting), while this thread runs the head
/// chain over them in order and calls `each`. The reader stops at the first error, which is
/// then the result; entries handed over before it are still chained.
pub fn verify_stream_each(
    reader: impl Read + Send,
    mut each: impl FnMut(usize, &str, bool),
) -> Result<SealedReport, SealedError> {
    verify(Direct::new(reader), Some(&mut each))
}

/// [`verify_stream_each`], with no one to tell of each entry when `each` is `None` (then the
/// decoded payloads are only hashed, never looked at as text).
fn verify(
    source: impl Source + Send,
    mut each: Option<&mut impl FnMut(usize, &str, bool)>,
) -> Result<SealedReport, SealedError> {
    let (full, full_batches) = mpsc::sync_channel::<Batch>(IN_FLIGHT);
    let (empty, empty_batches) = mpsc::channel::<Batch>();
    std::thread::scope(|scope| {
        let reading = std::thread::Builder::new()
            .name("sealed-log-reader".into())
            .spawn_scoped(scope, move || read_log(source, full, empty_batches))
            .map_err(SealedError::Io)?;
        let mut chain = HeadChain::new();
        // Ends when the reader is done, at the end of the log or at its first error.
        let mut not_utf8 = None;
        for batch in full_batches {
            if let Err(e) = chain.chain(&batch, each.as_deref_mut()) {
                // Never seen (see `Batch::text`); the reader is stopped by the closed channel.
                not_utf8 = Some(e);
                break;
            }
            // The reader may be done already; a batch it does not take back is dropped.
            let _ = empty.send(batch.cleared());
        }
        let framed = reading
            .join()
            .map_err(|_| SealedError::Io(io::Error::other("the sealed-log reader stopped")))?;
        if let Some(e) = not_utf8 {
            return Err(SealedError::Io(io::Error::new(
                io::ErrorKind::InvalidData,
                e,
            )));
        }
        let (document, duplicate) = framed.map_err(|stop| match stop {
            Stop::Io(e) => SealedError::Io(e),
            Stop::Syntax(e) => {
                SealedError::NotSealed(format!("not JSON: {} at byte {}", e.message, e.offset))
            }
            Stop::TooLarge(offset) => SealedError::ValueTooLarge(offset),
        })?;
        if let Some(duplicate) = duplicate {
            return Err(SealedError::Duplicate(duplicate));
        }
        document.report(chain).map_err(SealedError::NotSealed)
    })
}

/// The reader thread: the whole log framed, its entries handed over on `full`.
fn read_log(
    source: impl Source,
    full: SyncSender<Batch>,
    empty: Receiver<Batch>,
) -> Result<(Document, Option<json::Duplicate>), Stop> {
    let mut framer = Framer {
        src: Text::new(source),
        batch: Filling::default(),
        full,
        empty,
        duplicate: None,
        top_level_names: std::collections::HashSet::new(),
    };
    let document = framer.document()?;
    Ok((document, framer.duplicate))
}

/// Verifies a sealed log's text. `Err` when it is not a sealed log at all.
pub fn verify_sealed(text: &str) -> Result<SealedReport, String> {
    verify_stream(text.as_bytes()).map_err(|e| e.to_string())
}

enum Stop {
    Io(io::Error),
    Syntax(ParseError),
    TooLarge(usize),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Self {
        Stop::Io(e)
    }
}

/// What the members read so far say; the last of repeated members replaces the earlier.
struct Document {
    format: Option<String>,
    genesis: String,
    entries: EntriesMember,
}

enum EntriesMember {
    Absent,
    NotArray,
    Array(EntriesArray),
}

/// What the reader thread establishes about one `entries` array; its head chain is run on
/// the chaining thread ([`HeadChain`]).
struct EntriesArray {
    count: usize,
    /// The first entry without a string payload ends the check of this array.
    refused: Option<String>,
}

impl EntriesArray {
    /// The entry at `index` has no string payload: the first such one is the refusal.
    fn refuse(&mut self, index: usize) {
        self.refused
            .get_or_insert_with(|| format!("entries[{index}].payload is missing or not a string"));
    }
}

impl Document {
    fn member(&mut self, key: &str, value: &JsonValue<'_>) {
        match key {
            "format" => self.format = value.as_str().map(str::to_owned),
            "genesis" => {
                self.genesis = match value {
                    JsonValue::String(s) => s.to_string(),
                    other => format!("({})", other.type_name()),
                }
            }
            "entries" => self.entries = EntriesMember::NotArray,
            _ => {}
        }
    }

    /// The report, with the head chain of the last `entries` array read.
    fn report(self, chain: HeadChain) -> Result<SealedReport, String> {
        let EntriesMember::Array(array) = self.entries else {
            return Err("entries is missing or not an array".into());
        };
        if let Some(refused) = array.refused {
            return Err(refused);
        }
        let expected = genesis();
        Ok(SealedReport {
            format: self.format,
            genesis: GenesisCheck {
                ok: self.genesis == expected,
                recorded: self.genesis,
                expected,
            },
            entries: array.count,
            head: chain.head(),
            first_bad_entry: chain.first_bad_entry,
            bad_entries: chain.bad_entries,
        })
    }
}

/// Where a value read whole ends, by its first byte.
#[derive(PartialEq)]
enum Shape {
    /// An object or array: at its matching bracket.
    Container,
    /// A string: at its closing quote.
    String,
    /// A number or literal: at the first byte no number or literal can hold.
    Scalar,
}

struct Framer<S> {
    src: Text<S>,
    /// Entries read and not yet handed over.
    batch: Filling,
    /// To the chaining thread.
    full: SyncSender<Batch>,
    /// Batches the chaining thread is done with, for reuse.
    empty: Receiver<Batch>,
    /// The first repeated member name, at its offset in the file (the one a whole-text
    /// `json::find_duplicate` reports).
    duplicate: Option<json::Duplicate>,
    /// The top-level member names read so far (the only object the framer reads itself).
    top_level_names: std::collections::HashSet<String>,
}

impl<S: Source> Framer<S> {
    fn peek(&mut self) -> io::Result<Option<u8>> {
        self.src.byte_at(self.src.pos)
    }

    fn error(&self, message: &str) -> Stop {
        Stop::Syntax(ParseError {
            offset: self.src.offset(self.src.pos),
            message: message.to_owned(),
        })
    }

    fn skip_ws(&mut self) -> io::Result<()> {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek()? {
            self.src.pos += 1;
        }
        Ok(())
    }

    /// The whole input: one value surrounded by optional whitespace.
    fn document(&mut self) -> Result<Document, Stop> {
        let mut document = Document {
            format: None,
            genesis: "(absent)".to_owned(),
            entries: EntriesMember::Absent,
        };
        self.skip_ws()?;
        if self.peek()? == Some(b'{') {
            self.object(&mut document)?;
        } else {
            // Not an object: nothing of a sealed log, but still the whole-text parse's verdict.
            self.value(0, |_| ())?;
        }
        self.skip_ws()?;
        if self.peek()?.is_some() {
            return Err(self.error("unexpected content after the JSON value"));
        }
        Ok(document)
    }

    /// The top-level object, its members in order.
    fn object(&mut self, document: &mut Document) -> Result<(), Stop> {
        self.src.pos += 1;
        self.skip_ws()?;
        if self.peek()? == Some(b'}') {
            self.src.pos += 1;
            return Ok(());
        }
        loop {
            if self.peek()? != Some(b'"') {
                return Err(self.error("expected a string object key"));
            }
            let key_at = self.src.offset(self.src.pos);
            let key = self.value(1, |node| node.value.as_str().map(str::to_owned))?;
            let key = key.unwrap_or_default();
            if !self.top_level_names.insert(key.clone()) {
                self.note_duplicate(json::Duplicate {
                    name: key.clone(),
                    offset: key_at,
                });
            }
            self.skip_ws()?;
            if self.peek()? != Some(b':') {
                return Err(self.error("expected ':' after an object key"));
            }
            self.src.pos += 1;
            self.skip_ws()?;
            if key == "entries" && self.peek()? == Some(b'[') {
                document.entries = EntriesMember::Array(self.entries()?);
            } else {
                self.value(1, |node| document.member(&key, &node.value))?;
            }
            self.skip_ws()?;
            match self.peek()? {
                Some(b',') => {
                    self.src.pos += 1;
                    self.skip_ws()?;
                }
                Some(b'}') => {
                    self.src.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.error("expected ',' or '}' in an object")),
            }
        }
    }

    /// One `entries` array (two levels deep), its entries handed over in batches, the first
    /// one marked as starting the array (and handed over even when the array is empty).
    fn entries(&mut self) -> Result<EntriesArray, Stop> {
        let mut array = EntriesArray {
            count: 0,
            refused: None,
        };
        self.hand_over()?;
        self.batch.new_array = true;
        self.src.pos += 1;
        self.skip_ws()?;
        if self.peek()? == Some(b']') {
            self.src.pos += 1;
            self.hand_over()?;
            return Ok(array);
        }
        loop {
            self.entry(&mut array)?;
            if self.batch.full() {
                self.hand_over()?;
            }
            self.skip_ws()?;
            match self.peek()? {
                Some(b',') => {
                    self.src.pos += 1;
                    self.skip_ws()?;
                }
                Some(b']') => {
                    self.src.pos += 1;
                    self.hand_over()?;
                    return Ok(array);
                }
                _ => return Err(self.error("expected ',' or ']' in an array")),
            }
        }
    }

    /// Reads the entry at the cursor into the batch, unless the array's check has stopped.
    /// An entry in seal_log.mjs's shape that is whole in the buffer is scanned in place
    /// ([`scan_entry`]); anything else is read as any other value.
    fn entry(&mut self, array: &mut EntriesArray) -> Result<(), Stop> {
        let index = array.count;
        array.count += 1;
        self.src.compact();
        let start = self.src.pos;
        let mark = self.batch.text.len();
        let text = &self.src.text[start..];
        if let Some(scanned) = scan_entry(text, &mut self.batch.text) {
            if scanned.used < text.len() && scanned.used <= MAX_VALUE_BYTES {
                self.src.pos = start + scanned.used;
                match scanned.payload {
                    Some(payload) if array.refused.is_none() => {
                        self.batch.entries.push(Entry {
                            payload,
                            head: scanned.head,
                        });
                    }
                    _ => {
                        self.batch.text.truncate(mark);
                        array.refuse(index);
                    }
                }
                return Ok(());
            }
        }
        self.batch.text.truncate(mark);
        // Taken out while the value is read (and put back whatever the outcome).
        let mut batch = std::mem::take(&mut self.batch);
        let refused = array.refused.is_some();
        let read = self.value(2, |node| {
            let field = |name: &str| node.value.get(name).and_then(|n| n.value.as_str());
            let mut keep = |value: &str| {
                let start = batch.text.len();
                batch.text.extend_from_slice(value.as_bytes());
                start..batch.text.len()
            };
            let payload = keep(field("payload").filter(|_| !refused)?);
            let head = field("head").map(keep);
            batch.entries.push(Entry { payload, head });
            Some(())
        });
        self.batch = batch;
        if read?.is_none() {
            array.refuse(index);
        }
        Ok(())
    }

    /// Hands the batch to the chaining thread (unless there is nothing to tell it) and takes
    /// an emptied one back, or a new one while the first ones are still in flight.
    fn hand_over(&mut self) -> Result<(), Stop> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let reused = self.empty.try_recv().unwrap_or_default();
        let batch = self.batch.hand_over(reused);
        // Fails only once the chaining thread has stopped listening.
        self.full
            .send(batch)
            .map_err(|_| Stop::Io(io::Error::other("the chain check stopped")))
    }

    /// Reads the value at the cursor, `depth` containers deep, with `json::parse`, and hands
    /// it to `take`.
    fn value<T>(&mut self, depth: usize, take: impl FnOnce(&Node<'_>) -> T) -> Result<T, Stop> {
        self.src.compact();
        let start = self.src.pos;
        let max_depth = MAX_DEPTH - depth;
        // The fast path, taken for nearly every entry: an object, array or string that is
        // whole in the buffer parses as a prefix of it. Such a value ends where its matching
        // bracket or closing quote is, which is where `extent` would end it, so the result is
        // the one the general path below gives; anything else (a scalar, a value cut by the
        // end of the buffer, a syntax error, a value over the cap) takes the general path.
        if matches!(
            self.src.text.as_bytes().get(start),
            Some(b'{' | b'[' | b'"')
        ) {
            let text = &self.src.text[start..];
            if let Ok((node, used)) = json::parse_prefix(text, max_depth) {
                if used < text.len() && used <= MAX_VALUE_BYTES {
                    let duplicate = json::first_duplicate(&node);
                    let taken = take(&node);
                    self.consumed(start, used, duplicate);
                    return Ok(taken);
                }
            }
        }
        let (end, shape) = self.extent(depth)?;
        let text = &self.src.text[start..end];
        let (node, used) = match json::parse(text, max_depth) {
            Ok(node) => (node, end - start),
            Err(e) => {
                // A number or literal followed by other letters or digits: the value is the
                // part the parser took, and the framing reports what follows it.
                let prefix = (shape == Shape::Scalar && e.offset > 0)
                    .then(|| json::parse(&text[..e.offset], max_depth).ok())
                    .flatten();
                match prefix {
                    Some(node) => (node, e.offset),
                    None => {
                        return Err(Stop::Syntax(ParseError {
                            offset: self.src.offset(start) + e.offset,
                            message: e.message,
                        }))
                    }
                }
            }
        };
        let duplicate = json::first_duplicate(&node);
        let taken = take(&node);
        self.consumed(start, used, duplicate);
        Ok(taken)
    }

    /// Moves past the `used` bytes of a value read at `start`, keeping the first repeated
    /// member name inside it (its offset made absolute).
    fn consumed(&mut self, start: usize, used: usize, duplicate: Option<json::Duplicate>) {
        if let Some(mut duplicate) = duplicate {
            duplicate.offset += self.src.offset(start);
            self.note_duplicate(duplicate);
        }
        self.src.pos = start + used;
    }

    /// Keeps the repeated name that comes first in the file.
    fn note_duplicate(&mut self, duplicate: json::Duplicate) {
        if self
            .duplicate
            .as_ref()
            .is_none_or(|first| duplicate.offset < first.offset)
        {
            self.duplicate = Some(duplicate);
        }
    }

    /// Where the value at the cursor ends (or the end of the input), reading as needed.
    fn extent(&mut self, depth: usize) -> Result<(usize, Shape), Stop> {
        let start = self.src.pos;
        let Some(first) = self.peek()? else {
            return Ok((start, Shape::Scalar));
        };
        let shape = match first {
            b'{' | b'[' => Shape::Container,
            b'"' => Shape::String,
            _ => Shape::Scalar,
        };
        let mut i = start;
        if shape == Shape::Scalar {
            while let Some(b) = self.src.byte_at(i)? {
                if !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')) {
                    break;
                }
                i = self.within_cap(start, i + 1, depth)?;
            }
            if i == start {
                // Not a value's first byte: one character, which the parser refuses.
                let width = self.src.text[start..]
                    .chars()
                    .next()
                    .map_or(1, char::len_utf8);
                return Ok((start + width, shape));
            }
            return Ok((i, shape));
        }
        let mut open = 0usize;
        let mut in_string = false;
        while let Some(b) = self.src.byte_at(i)? {
            if in_string {
                match b {
                    b'"' => in_string = false,
                    b'\\' => i += 1,
                    _ => {
                        // Skip the body up to the next quote or backslash in what is read.
                        let rest = &self.src.text.as_bytes()[i + 1..];
                        let skip = json::string_run(rest, false);
                        if skip < rest.len() {
                            i = self.within_cap(start, i + 1 + skip, depth)?;
                            continue;
                        }
                        i = self.within_cap(start, self.src.text.len(), depth)?;
                        continue;
                    }
                }
            } else {
                match b {
                    b'"' => in_string = true,
                    b'{' | b'[' => open += 1,
                    b'}' | b']' => open = open.saturating_sub(1),
                    _ => {}
                }
            }
            i = self.within_cap(start, i + 1, depth)?;
            if !in_string && open == 0 {
                break;
            }
        }
        // A backslash as the last byte of the input steps one past it.
        Ok((i.min(self.src.text.len()), shape))
    }

    /// `i` when the value from `start` to `i` is within [`MAX_VALUE_BYTES`]. Past it, an error
    /// the parser finds well before the cut is still the whole-text parse's verdict (deep
    /// nesting, say); anything else is a value too large to read.
    #[inline]
    fn within_cap(&self, start: usize, i: usize, depth: usize) -> Result<usize, Stop> {
        if i - start <= MAX_VALUE_BYTES {
            return Ok(i);
        }
        self.over_cap(start, i, depth)
    }

    /// [`Framer::within_cap`] past the cap: which error the value gives.
    #[cold]
    fn over_cap(&self, start: usize, i: usize, depth: usize) -> Result<usize, Stop> {
        let mut cut = i.min(self.src.text.len());
        while !self.src.text.is_char_boundary(cut) {
            cut -= 1;
        }
        let text = &self.src.text[start..cut];
        if let Err(e) = json::parse(text, MAX_DEPTH - depth) {
            if e.offset + LOOKAHEAD <= text.len() {
                return Err(Stop::Syntax(ParseError {
                    offset: self.src.offset(start) + e.offset,
                    message: e.message,
                }));
            }
        }
        Err(Stop::TooLarge(self.src.offset(start)))
    }
}
