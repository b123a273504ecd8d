//! The frames migration can recover receipts' frames from (docs/migration.md): every frame of the
//! supplied captures (split by [`crate::frame::FrameReader`] exactly as seal-host reads
//! them) and, in `diff`, the object A of receipts that passed their integrity checks.
//!
//! Frames are found by exact-frame subject (SHA-256 and length of the bytes including the
//! delimiter), by `request_sha256`, or by `canonical_request_sha256` under a record version's
//! rule. Each frame keeps the era its capture's session had when it was sent, so it is
//! validated as it was sent; when captures sent the same bytes in sessions of both eras, the
//! index keeps both ([`SessionEra::Conflict`]) and lets the caller decide, never the order.
//!
//! Guarantees: every answer is independent of the order captures were added: where several
//! sightings or frames qualify, the preferred one is the least by (captures before object A,
//! file name, frame number). Memory: the frames' bytes plus hash maps from digests to frames;
//! the request and canonical maps are built only when a lookup needs them.

use super::{FrameRef, FrameSource, Link};
use crate::digest::{hex_decode, hex_lower};
use crate::era::Era;
use crate::frame::{request_line, FrameReader};
use crate::receipt::recompute::{self, Rule};
use crate::request::{self, Session};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::{self, Read};
use std::sync::OnceLock;

/// One place a frame was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sighting {
    /// Index into the file names.
    file: u32,
    source: FrameSource,
    /// 1-based position inside a capture.
    frame_number: Option<u64>,
}

/// One indexed frame.
#[derive(Debug)]
pub struct Entry {
    pub bytes: Box<[u8]>,
    pub sha256: [u8; 32],
    /// The preferred sighting of these bytes.
    best: Sighting,
    /// The preferred sighting in a legacy session (`initialize` first), when there is one.
    legacy: Option<Sighting>,
    /// The preferred sighting in a 2026-07-28 session (`server/discover` first).
    modern: Option<Sighting>,
}

/// The era of the session a frame was sent in, as the captures show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionEra {
    /// No capture shows the frame in a session: its own `_meta` markers decide.
    Unknown,
    Known(Era),
    /// Captures sent the very same bytes in a legacy and in a 2026-07-28 session.
    Conflict {
        legacy: FrameRef,
        modern: FrameRef,
    },
}

impl SessionEra {
    /// The era to validate in, when the captures agree.
    pub fn agreed(&self) -> Option<Option<Era>> {
        match self {
            SessionEra::Unknown => Some(None),
            SessionEra::Known(era) => Some(Some(*era)),
            SessionEra::Conflict { .. } => None,
        }
    }
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

/// Digest → the preferred indexed frame with it (lookups only ever want one).
type FirstBy = HashMap<[u8; 32], u32>;

/// Frames by subject and (lazily) request hash and canonical request hash.
#[derive(Debug, Default)]
pub struct FrameIndex {
    files: Vec<String>,
    entries: Vec<Entry>,
    by_subject: HashMap<[u8; 32], u32>,
    by_request: OnceLock<FirstBy>,
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
            let added = self.insert(
                frame.bytes,
                Sighting {
                    file,
                    source: FrameSource::Capture,
                    frame_number: Some(frame.line),
                },
                session.era(),
            );
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
        let sighting = Sighting {
            file,
            source: FrameSource::ObjectA,
            frame_number: None,
        };
        self.insert(bytes, sighting, None);
    }

    /// Whether sighting `a` is preferred to `b`: captures before object A, then file name,
    /// then frame number (a total order on what was given, so the order of giving is moot).
    fn preferred(&self, a: &Sighting, b: &Sighting) -> bool {
        let key = |s: &Sighting| {
            (
                s.source == FrameSource::ObjectA,
                self.files.get(s.file as usize),
                s.frame_number,
            )
        };
        key(a) < key(b)
    }

    /// Keeps one entry per subject, with its preferred sighting overall and per era.
    fn insert(&mut self, bytes: &[u8], sighting: Sighting, era: Option<Era>) -> bool {
        let sha256: [u8; 32] = Sha256::digest(bytes).into();
        if let Some(&position) = self.by_subject.get(&sha256) {
            let entry = &self.entries[position as usize];
            let best = if self.preferred(&sighting, &entry.best) {
                sighting
            } else {
                entry.best
            };
            let slot = match era {
                Some(Era::Legacy) => Some(entry.legacy),
                Some(Era::Modern) => Some(entry.modern),
                None => None,
            };
            let slot = slot.map(|kept| match kept {
                Some(kept) if !self.preferred(&sighting, &kept) => kept,
                _ => sighting,
            });
            let entry = &mut self.entries[position as usize];
            entry.best = best;
            match era {
                Some(Era::Legacy) => entry.legacy = slot,
                Some(Era::Modern) => entry.modern = slot,
                None => {}
            }
            self.reset_lazy_maps();
            return false;
        }
        let position = self.entries.len() as u32;
        self.by_subject.insert(sha256, position);
        self.entries.push(Entry {
            bytes: bytes.into(),
            sha256,
            best: sighting,
            legacy: (era == Some(Era::Legacy)).then_some(sighting),
            modern: (era == Some(Era::Modern)).then_some(sighting),
        });
        self.reset_lazy_maps();
        true
    }

    /// The lazy maps pick preferred frames, which a new sighting can change.
    fn reset_lazy_maps(&mut self) {
        self.by_request = OnceLock::new();
        self.canonical_v2 = OnceLock::new();
        self.canonical_v3 = OnceLock::new();
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
    pub fn by_subject(&self, sha256: &str, length: u64) -> Option<&Entry> {
        let key = digest_key(sha256)?;
        let position = *self.by_subject.get(&key)?;
        let entry = &self.entries[position as usize];
        (entry.bytes.len() as u64 == length).then_some(entry)
    }

    /// The era of the session(s) the captures sent this frame in.
    pub fn session_era(&self, entry: &Entry) -> SessionEra {
        match (&entry.legacy, &entry.modern) {
            (None, None) => SessionEra::Unknown,
            (Some(_), None) => SessionEra::Known(Era::Legacy),
            (None, Some(_)) => SessionEra::Known(Era::Modern),
            (Some(legacy), Some(modern)) => SessionEra::Conflict {
                legacy: self.reference_to(entry, legacy, Link::FramedSubject),
                modern: self.reference_to(entry, modern, Link::FramedSubject),
            },
        }
    }

    /// The preferred frame whose request line hashes to `sha256`.
    pub fn by_request(&self, sha256: &str) -> Option<Located<'_>> {
        let map = self.by_request.get_or_init(|| {
            self.preferred_map(|entry| Some(Sha256::digest(request_line(&entry.bytes)).into()))
        });
        self.located(*map.get(&digest_key(sha256)?)?)
    }

    /// The preferred frame whose `canonical_request_sha256` under `rule` is `sha256`.
    pub fn by_canonical(&self, sha256: &str, rule: Rule) -> Option<Located<'_>> {
        let cell = if rule.context {
            &self.canonical_v3
        } else {
            &self.canonical_v2
        };
        let map = cell.get_or_init(|| {
            self.preferred_map(|entry| {
                canonical_sha256(&entry.bytes, rule).and_then(|s| digest_key(&s))
            })
        });
        self.located(*map.get(&digest_key(sha256)?)?)
    }

    fn located(&self, position: u32) -> Option<Located<'_>> {
        Some(Located {
            position,
            entry: self.entries.get(position as usize)?,
        })
    }

    /// Digest → the entry with the preferred sighting among the entries with that digest.
    fn preferred_map(&self, digest: impl Fn(&Entry) -> Option<[u8; 32]>) -> FirstBy {
        let mut map = FirstBy::new();
        for (position, entry) in self.entries.iter().enumerate() {
            let Some(key) = digest(entry) else { continue };
            let position = position as u32;
            map.entry(key)
                .and_modify(|kept| {
                    let current = &self.entries[*kept as usize].best;
                    if self.preferred(&entry.best, current) {
                        *kept = position;
                    }
                })
                .or_insert(position);
        }
        map
    }

    /// How a record names an indexed frame: by its preferred sighting.
    pub fn reference(&self, entry: &Entry, link: Link) -> FrameRef {
        self.reference_to(entry, &entry.best, link)
    }

    fn reference_to(&self, entry: &Entry, sighting: &Sighting, link: Link) -> FrameRef {
        FrameRef {
            source: sighting.source,
            file: self
                .files
                .get(sighting.file as usize)
                .cloned()
                .unwrap_or_default(),
            frame_number: sighting.frame_number,
            link,
            sha256: hex_lower(&entry.sha256),
            length: entry.bytes.len() as u64,
        }
    }
}

/// seal-host's `canonical_request_sha256` of a frame under a record version's rule, when
/// the line projects (seal-host parses `line.trim()`). A frame that writes a member name
/// twice has none: the one strict frame reader refuses it, so it is never found by the hash
/// of one of its readings (only by its exact bytes, and then the pipeline refuses it).
pub fn canonical_sha256(frame: &[u8], rule: Rule) -> Option<String> {
    if let Err(crate::frame::Unread::Repeated(_)) = crate::frame::read_line_strict(frame) {
        return None;
    }
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

    const MODERN: &[u8] =
        b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"server/discover\",\"params\":{}}\n";

    /// A line serde_json refuses (a lone surrogate escape) has no `canonical_request_sha256`,
    /// as seal-host records none for it; the same line with a pair has one.
    #[test]
    fn a_line_serde_refuses_has_no_canonical_request_hash() {
        let lone = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"s":"\ud83dx"}}}"#;
        let pair = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"s":"\ud83d\ude00"}}}"#;
        assert_eq!(canonical_sha256(lone, recompute::V3), None);
        assert!(canonical_sha256(pair, recompute::V3).is_some());
        // The same call with `params` written twice: no reading of it is looked up.
        let twice: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"},\"params\":{\"name\":\"t\",\"arguments\":{}}}\n";
        assert_eq!(canonical_sha256(twice, recompute::V3), None);
    }

    #[test]
    fn frames_keep_their_session_era_and_are_found_by_each_link() {
        let mut index = FrameIndex::new();
        let mut capture = LEGACY.to_vec();
        capture.extend_from_slice(CALL);
        let stats = index.add_capture("c", &capture[..]).unwrap();
        assert_eq!(stats.frames, 2);
        assert_eq!(stats.sha256, crate::digest::sha256_hex(&capture));
        let sha = crate::digest::sha256_hex(CALL);
        let entry = index.by_subject(&sha, CALL.len() as u64).unwrap();
        assert_eq!(index.session_era(entry), SessionEra::Known(Era::Legacy));
        assert!(index.by_subject(&sha, CALL.len() as u64 + 1).is_none());
        let request = crate::digest::sha256_hex(request_line(CALL));
        assert_eq!(
            index.by_request(&request).unwrap().entry.sha256,
            entry.sha256
        );
        let canonical = canonical_sha256(CALL, recompute::V2).unwrap();
        let found = index.by_canonical(&canonical, recompute::V2).unwrap();
        let reference = index.reference(found.entry, Link::FramedSubject);
        assert_eq!(reference.frame_number, Some(2));
        assert_eq!(reference.file, "c");
    }

    #[test]
    fn a_single_frame_file_has_no_session() {
        let mut index = FrameIndex::new();
        index.add_capture("f", CALL).unwrap();
        index.add_capture("g", CALL).unwrap();
        assert_eq!(index.len(), 1);
        let sha = crate::digest::sha256_hex(CALL);
        let entry = index.by_subject(&sha, CALL.len() as u64).unwrap();
        assert_eq!(index.session_era(entry), SessionEra::Unknown);
    }

    fn index_of(captures: &[(&str, Vec<u8>)]) -> FrameIndex {
        let mut index = FrameIndex::new();
        for (name, bytes) in captures {
            index.add_capture(name, &bytes[..]).unwrap();
        }
        index
    }

    /// The same bytes in a legacy and a modern session are a conflict naming both, and every
    /// answer of the index is the same whichever capture came first.
    #[test]
    fn answers_do_not_depend_on_the_order_of_captures() {
        let legacy = [LEGACY, CALL].concat();
        let modern = [MODERN, CALL].concat();
        let single = CALL.to_vec();
        let captures = [
            ("b-legacy", legacy),
            ("a-modern", modern),
            ("0.frame", single),
        ];
        let sha = crate::digest::sha256_hex(CALL);
        let request = crate::digest::sha256_hex(request_line(CALL));
        let canonical = canonical_sha256(CALL, recompute::V3).unwrap();
        let mut seen = Vec::new();
        for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2], [1, 2, 0]] {
            let given: Vec<(&str, Vec<u8>)> = order
                .iter()
                .map(|&i| (captures[i].0, captures[i].1.clone()))
                .collect();
            let index = index_of(&given);
            let entry = index.by_subject(&sha, CALL.len() as u64).unwrap();
            let era = index.session_era(entry);
            let SessionEra::Conflict { legacy, modern } = &era else {
                panic!("{era:?}");
            };
            assert_eq!(
                (legacy.file.as_str(), legacy.frame_number),
                ("b-legacy", Some(2))
            );
            assert_eq!(
                (modern.file.as_str(), modern.frame_number),
                ("a-modern", Some(2))
            );
            let by_request = index.by_request(&request).unwrap().entry;
            let by_canonical = index.by_canonical(&canonical, recompute::V3).unwrap().entry;
            seen.push((
                era.clone(),
                index.reference(entry, Link::FramedSubject),
                index.reference(by_request, Link::RequestSha256),
                index.reference(by_canonical, Link::CanonicalRequestSha256),
            ));
        }
        assert_eq!(
            seen[1].1.file, "0.frame",
            "the least file name is preferred"
        );
        assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:#?}");
    }

    /// Frames that differ only in their terminator share a request hash: the preferred one
    /// answers, whichever was given first.
    #[test]
    fn weak_links_prefer_the_same_frame_in_any_order() {
        let crlf = [&CALL[..CALL.len() - 1], b"\r\n"].concat();
        let request = crate::digest::sha256_hex(request_line(CALL));
        let first = |captures: &[(&str, Vec<u8>)]| {
            let index = index_of(captures);
            let found = index.by_request(&request).unwrap().entry;
            index.reference(found, Link::RequestSha256)
        };
        let a = first(&[("z.frame", CALL.to_vec()), ("y.frame", crlf.clone())]);
        let b = first(&[("y.frame", crlf), ("z.frame", CALL.to_vec())]);
        assert_eq!(a, b);
        assert_eq!(a.file, "y.frame");
    }
}
