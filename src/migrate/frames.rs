//! The frames migration can recover receipts' frames from (DESIGN.md §6): every frame of the
//! supplied captures (split by [`crate::frame::FrameReader`] exactly as seal-host reads
//! them) and, in `diff`, the object A of receipts that passed their integrity checks.
//!
//! Frames are found by exact-frame subject (SHA-256 and length of the bytes including the
//! delimiter), by `request_sha256`, or by `canonical_request_sha256` under a record version's
//! rule; the first occurrence of a subject wins, and each frame keeps the era its capture's
//! session had at that point, so it is validated as it was sent. Memory: the frames' bytes
//! plus hash maps from digests to the first frame; the canonical maps are built only when a lookup needs them.

use super::{FrameRef, FrameSource, Link};
use crate::digest::{hex_decode, hex_lower};
use crate::frame::{request_line, FrameReader};
use crate::receipt::recompute::{self, Rule};
use crate::request::{self, Era, Session};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::{self, Read};
use std::sync::OnceLock;

/// One indexed frame.
#[derive(Debug)]
pub struct Entry {
    pub bytes: Box<[u8]>,
    pub sha256: [u8; 32],
    /// Index into the file names.
    file: u32,
    source: FrameSource,
    /// 1-based position inside a capture.
    frame_number: Option<u64>,
    /// The era the capture's session had when this frame was sent (`None`: no entry call).
    pub era: Option<Era>,
}

/// A frame found by a lookup.
#[derive(Debug, Clone, Copy)]
pub struct Located<'i> {
    pub position: u32,
    pub entry: &'i Entry,
}

/// What reading one capture gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureStats {
    /// SHA-256 of the whole capture.
    pub sha256: String,
    pub frames: u64,
    /// Frames not already indexed under the same subject.
    pub new_frames: u64,
}

/// Digest → the first indexed frame with it (lookups only ever want the first).
type FirstBy = HashMap<[u8; 32], u32>;

/// Frames by subject, request hash and (lazily) canonical request hash.
#[derive(Debug, Default)]
pub struct FrameIndex {
    files: Vec<String>,
    entries: Vec<Entry>,
    by_subject: HashMap<[u8; 32], u32>,
    by_request: FirstBy,
    canonical_v2: OnceLock<FirstBy>,
    canonical_v3: OnceLock<FirstBy>,
}

impl FrameIndex {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Reads a capture (or a single `.frame` file). `name` is how records refer to it.
    pub fn add_capture(&mut self, name: &str, reader: impl Read) -> io::Result<CaptureStats> {
        let file = self.file_id(name);
        let mut hashing = HashingReader {
            inner: reader,
            hasher: Sha256::new(),
        };
        let mut reader = FrameReader::new(io::BufReader::with_capacity(1 << 16, &mut hashing));
        let mut session = Session::default();
        let options = request::Options::default();
        let (mut frames, mut new_frames) = (0, 0);
        while let Some(frame) = reader.next_frame()? {
            frames += 1;
            if frame.is_oversized() {
                continue;
            }
            if may_begin_session(frame.bytes) {
                // Only `initialize` / `server/discover` requests change the session's era.
                let _ = request::analyze(frame.bytes, &options, &mut session);
            }
            let line = request_line(frame.bytes);
            if line
                .iter()
                .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            {
                continue;
            }
            let added = self.insert(Entry {
                bytes: frame.bytes.into(),
                sha256: Sha256::digest(frame.bytes).into(),
                file,
                source: FrameSource::Capture,
                frame_number: Some(frame.line),
                era: session.era(),
            });
            new_frames += u64::from(added);
        }
        drop(reader);
        Ok(CaptureStats {
            sha256: hex_lower(&hashing.hasher.finalize()),
            frames,
            new_frames,
        })
    }

    /// Adds a receipt's object A (after its integrity checks passed).
    pub fn add_object_a(&mut self, receipt: &str, bytes: &[u8]) {
        let file = self.file_id(receipt);
        self.insert(Entry {
            bytes: bytes.into(),
            sha256: Sha256::digest(bytes).into(),
            file,
            source: FrameSource::ObjectA,
            frame_number: None,
            era: None,
        });
    }

    /// Keeps the first frame of each subject; a later copy from a session fills in its era.
    fn insert(&mut self, entry: Entry) -> bool {
        if let Some(&position) = self.by_subject.get(&entry.sha256) {
            let existing = &mut self.entries[position as usize];
            if existing.era.is_none() {
                existing.era = entry.era;
            }
            return false;
        }
        let position = self.entries.len() as u32;
        let request: [u8; 32] = Sha256::digest(request_line(&entry.bytes)).into();
        self.by_subject.insert(entry.sha256, position);
        self.by_request.entry(request).or_insert(position);
        self.entries.push(entry);
        self.canonical_v2 = OnceLock::new();
        self.canonical_v3 = OnceLock::new();
        true
    }

    fn file_id(&mut self, name: &str) -> u32 {
        match self.files.iter().position(|f| f == name) {
            Some(i) => i as u32,
            None => {
                self.files.push(name.to_owned());
                (self.files.len() - 1) as u32
            }
        }
    }

    /// The frame with this exact subject.
    pub fn by_subject(&self, sha256: &str, length: u64) -> Option<(u32, &Entry)> {
        let key = digest_key(sha256)?;
        let position = *self.by_subject.get(&key)?;
        let entry = &self.entries[position as usize];
        (entry.bytes.len() as u64 == length).then_some((position, entry))
    }

    /// The first frame whose request line hashes to `sha256`.
    pub fn by_request(&self, sha256: &str) -> Option<Located<'_>> {
        self.located(*self.by_request.get(&digest_key(sha256)?)?)
    }

    /// The first frame whose `canonical_request_sha256` under `rule` is `sha256`.
    pub fn by_canonical(&self, sha256: &str, rule: Rule) -> Option<Located<'_>> {
        let cell = if rule.context {
            &self.canonical_v3
        } else {
            &self.canonical_v2
        };
        let map = cell.get_or_init(|| self.canonical_map(rule));
        self.located(*map.get(&digest_key(sha256)?)?)
    }

    fn located(&self, position: u32) -> Option<Located<'_>> {
        Some(Located {
            position,
            entry: self.entries.get(position as usize)?,
        })
    }

    fn canonical_map(&self, rule: Rule) -> FirstBy {
        let mut map = FirstBy::new();
        for (position, entry) in self.entries.iter().enumerate() {
            if let Some(key) = canonical_sha256(&entry.bytes, rule).and_then(|s| digest_key(&s)) {
                map.entry(key).or_insert(position as u32);
            }
        }
        map
    }

    /// How a record names an indexed frame.
    pub fn reference(&self, entry: &Entry, link: Link) -> FrameRef {
        FrameRef {
            source: entry.source,
            file: self
                .files
                .get(entry.file as usize)
                .cloned()
                .unwrap_or_default(),
            frame_number: entry.frame_number,
            link,
            sha256: hex_lower(&entry.sha256),
            length: entry.bytes.len() as u64,
        }
    }
}

/// seal-host's `canonical_request_sha256` of a frame under a record version's rule, when
/// the line projects (seal-host parses `line.trim()`).
pub fn canonical_sha256(frame: &[u8], rule: Rule) -> Option<String> {
    let line = std::str::from_utf8(request_line(frame)).ok()?;
    let node = recompute::read_request_line(line).ok()?;
    recompute::project(node.value.get("params"), rule)
        .ok()
        .map(|p| p.canonical_request_sha256)
}

/// Whether a frame could be an `initialize` or `server/discover` request: its bytes hold one
/// of the names, or an escape that could spell one.
fn may_begin_session(frame: &[u8]) -> bool {
    memchr::memchr(b'\\', frame).is_some()
        || memchr::memmem::find(frame, b"initialize").is_some()
        || memchr::memmem::find(frame, b"server/discover").is_some()
}

fn digest_key(hex: &str) -> Option<[u8; 32]> {
    hex_decode(hex)?.try_into().ok()
}

/// Hashes everything read through it.
struct HashingReader<R> {
    inner: R,
    hasher: Sha256,
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    const LEGACY: &[u8] =
        b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}\n";
    const CALL: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{}}}\n";

    #[test]
    fn frames_keep_their_session_era_and_are_found_by_each_link() {
        let mut index = FrameIndex::new();
        let mut capture = LEGACY.to_vec();
        capture.extend_from_slice(CALL);
        let stats = index.add_capture("c", &capture[..]).unwrap();
        assert_eq!(stats.frames, 2);
        assert_eq!(stats.sha256, crate::digest::sha256_hex(&capture));
        let sha = crate::digest::sha256_hex(CALL);
        let (_, entry) = index.by_subject(&sha, CALL.len() as u64).unwrap();
        assert_eq!(entry.era, Some(Era::Legacy));
        assert!(index.by_subject(&sha, CALL.len() as u64 + 1).is_none());
        let request = crate::digest::sha256_hex(request_line(CALL));
        assert_eq!(
            index.by_request(&request).unwrap().entry.sha256,
            entry.sha256
        );
        let canonical = canonical_sha256(CALL, recompute::V2).unwrap();
        let found = index.by_canonical(&canonical, recompute::V2).unwrap();
        assert_eq!(found.entry.frame_number, Some(2));
        assert_eq!(index.reference(found.entry, Link::FramedSubject).file, "c");
    }

    #[test]
    fn a_single_frame_file_has_no_session() {
        let mut index = FrameIndex::new();
        index.add_capture("f", CALL).unwrap();
        index.add_capture("g", CALL).unwrap();
        assert_eq!(index.len(), 1);
        let sha = crate::digest::sha256_hex(CALL);
        assert_eq!(
            index.by_subject(&sha, CALL.len() as u64).unwrap().1.era,
            None
        );
    }
}
