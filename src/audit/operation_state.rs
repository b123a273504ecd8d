//! `.seal-operation-state.json`, read (docs/formats.md): its burned operations as sorted
//! pairs, 80 bytes an operation, read straight from the bytes when the file is well formed
//! and through a JSON tree, for the message, when it is not. A state over
//! [`STREAMED_OVER`] bytes (a real host's passes 64 MiB at about 470,000 operations) is read
//! as a stream instead ([`read_streamed`]): never held whole nor as a tree, so only the
//! operations are kept, with limits of its own that a host's state never meets (at most
//! [`MAX_STREAMED_BYTES`], strings of at most [`MAX_STRING_BYTES`], nesting at most
//! [`MAX_DEPTH`] deep); a state past them is not read (not checked), never a verdict. The
//! audit's walk reads a smaller state as a stream too when the stream takes it (a state the
//! stream takes has no member named twice anywhere and is one the whole reading takes, with
//! the same operations), and whole, as above, when it does not.

use super::hex256::Hex256;
use std::io::{self, Read};

/// States larger than this are read as a stream ([`read_streamed`]).
pub const STREAMED_OVER: u64 = super::MAX_RECEIPT_BYTES;
/// A streamed state is not read past this: 1 GiB is about 3.7 million operations of a real
/// host (285 bytes each), 300 MB of pairs kept; a file that keeps growing (or is endless)
/// stops here.
pub const MAX_STREAMED_BYTES: u64 = 1 << 30;
/// The longest string a streamed state may hold: its ids and digests are 64 characters.
pub const MAX_STRING_BYTES: u64 = 4096;
/// The deepest nesting a streamed state may have: its own is 3 deep.
pub const MAX_DEPTH: u32 = 32;

/// A streamed state that is not read.
#[derive(Debug, PartialEq, Eq)]
pub enum Streamed {
    /// Past one of the limits, or the file could not be read: its operations are not
    /// checked (`unreadable-file`).
    NotRead(String),
    /// Read, and not a `seal.operation-state/v1` record: the first problem in the file's
    /// order, with where it is.
    Invalid(String),
}

/// Reads a state from `reader` as a stream (memory: the operations' pairs, a buffer, one
/// string at a time), with the limits above.
pub fn read_streamed(reader: impl Read) -> Result<Operations, Streamed> {
    read_streamed_capped(reader, MAX_STREAMED_BYTES)
}

/// [`read_streamed`], refusing past `limit` bytes.
pub(super) fn read_streamed_capped(reader: impl Read, limit: u64) -> Result<Operations, Streamed> {
    let guard = Guard {
        inner: reader,
        limit,
        read: 0,
        in_string: false,
        escaped: false,
        string: 0,
        depth: 0,
    };
    let mut reader =
        serde_json::Deserializer::from_reader(io::BufReader::with_capacity(64 << 10, guard));
    let why = |e: serde_json::Error| match e.classify() {
        serde_json::error::Category::Io => {
            Streamed::NotRead(format!("cannot read: {}", io::Error::from(e)))
        }
        serde_json::error::Category::Data => Streamed::Invalid(e.to_string()),
        _ => Streamed::Invalid(format!("not JSON: {e}")),
    };
    let operations =
        serde::Deserializer::deserialize_map(&mut reader, straight::State).map_err(why)?;
    reader.end().map_err(why)?;
    Operations::sorted(operations)
        .ok_or_else(|| Streamed::Invalid("an operation is named twice".to_owned()))
}

/// Passes the bytes on, refusing (an I/O error) past [`MAX_STREAMED_BYTES`], inside a
/// string longer than [`MAX_STRING_BYTES`], or nested deeper than [`MAX_DEPTH`]: JSON's
/// strings and nesting followed byte by byte (what is not JSON, the reader refuses).
struct Guard<R> {
    inner: R,
    limit: u64,
    read: u64,
    in_string: bool,
    escaped: bool,
    string: u64,
    depth: u32,
}

impl<R: Read> Read for Guard<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let refuse = |why: String| Err(io::Error::new(io::ErrorKind::InvalidData, why));
        for (at, &byte) in buf[..n].iter().enumerate() {
            let offset = self.read + at as u64;
            if self.in_string {
                self.string += 1;
                if self.string > MAX_STRING_BYTES {
                    return refuse(format!(
                        "a string longer than {MAX_STRING_BYTES} bytes at byte {offset}, not read further"
                    ));
                }
                match (self.escaped, byte) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => {
                    self.in_string = true;
                    self.string = 0;
                }
                b'{' | b'[' => {
                    self.depth += 1;
                    if self.depth > MAX_DEPTH {
                        return refuse(format!(
                            "nested deeper than {MAX_DEPTH} at byte {offset}, not read further"
                        ));
                    }
                }
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
        self.read += n as u64;
        if self.read > self.limit {
            return refuse(format!(
                "larger than {} bytes, not read further",
                self.limit
            ));
        }
        Ok(n)
    }
}

/// Burned operations: (operation id, release frame SHA-256), sorted by operation id, each id
/// once; 80 bytes an operation (a map of two strings cost about three times that, and the
/// state file has an operation for about every second receipt).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Operations(Vec<(Hex256, Hex256)>);

impl Operations {
    /// The operations given, sorted; `None` when an id comes twice.
    pub(super) fn sorted(mut operations: Vec<(Hex256, Hex256)>) -> Option<Operations> {
        operations.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        if operations.windows(2).any(|pair| pair[0].0 == pair[1].0) {
            return None;
        }
        operations.shrink_to_fit();
        Some(Operations(operations))
    }

    /// Where operation `id` is in the order of ids.
    pub fn position(&self, id: &str) -> Option<usize> {
        let id = Hex256::new(id);
        self.0.binary_search_by(|(other, _)| other.cmp(&id)).ok()
    }

    /// The release frame SHA-256 operation `id` is burned with.
    pub fn get(&self, id: &str) -> Option<&Hex256> {
        self.position(id).map(|at| &self.0[at].1)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// (operation id, release frame SHA-256) in the order of ids.
    pub fn iter(&self) -> impl Iterator<Item = &(Hex256, Hex256)> {
        self.0.iter()
    }
}

/// Reads `.seal-operation-state.json`: `{"schema":"seal.operation-state/v1","operations":{id:{operation_id,release_frame_sha256}}}`.
/// A state file that reads as one is read straight into [`Operations`] (no tree of every
/// member first: that was about 600 bytes an operation while the walk ran); any other is
/// read again as a JSON tree, and the tree's reading says what is wrong with it, so the
/// messages are those of one reading.
pub fn parse_operation_state(bytes: &[u8]) -> Result<Operations, String> {
    match straight::read(bytes) {
        Some(operations) => Ok(operations),
        None => read_as_a_tree(bytes),
    }
}

/// The operation state read as a JSON tree, then each member: the reading whose messages
/// [`parse_operation_state`] gives, and the one its straight reading must agree with.
fn read_as_a_tree(bytes: &[u8]) -> Result<Operations, String> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("schema").and_then(|s| s.as_str()) != Some("seal.operation-state/v1") {
        return Err("schema is not seal.operation-state/v1".into());
    }
    let operations = value
        .get("operations")
        .and_then(|o| o.as_object())
        .ok_or("operations is not an object")?;
    let operations: Vec<(Hex256, Hex256)> = operations
        .iter()
        .map(|(id, entry)| {
            let field = |name: &str| entry.get(name).and_then(|v| v.as_str());
            match (field("operation_id"), field("release_frame_sha256")) {
                (Some(op), Some(sha)) if op == id => Ok((Hex256::new(id), Hex256::new(sha))),
                _ => Err(format!("operation {id} is malformed")),
            }
        })
        .collect::<Result<_, String>>()?;
    // A tree's members are distinct.
    Operations::sorted(operations).ok_or_else(|| "an operation is named twice".to_owned())
}

/// The operation state read straight into [`Operations`]: `None` for anything the JSON
/// tree's reading would not accept as it is (any error, a member named twice, a wrong
/// schema, a malformed operation); members it ignores are read as JSON values and dropped,
/// so what is valid JSON is the tree's.
mod straight {
    use super::{Hex256, Operations};
    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
    use serde_json::Value;
    use std::collections::HashSet;
    use std::fmt;

    pub fn read(bytes: &[u8]) -> Option<Operations> {
        let mut reader = serde_json::Deserializer::from_slice(bytes);
        let operations = reader.deserialize_map(State).ok()?;
        reader.end().ok()?;
        Operations::sorted(operations)
    }

    fn refuse<E: de::Error>(why: impl fmt::Display) -> E {
        E::custom(why)
    }

    /// A member name not met before in its object (`names`: the object's so far).
    fn first_time<E: de::Error>(names: &mut HashSet<String>, name: &str) -> Result<(), E> {
        match names.insert(name.to_owned()) {
            true => Ok(()),
            false => Err(refuse(format_args!("member {name:?} is written twice"))),
        }
    }

    pub struct State;

    impl<'de> Visitor<'de> for State {
        type Value = Vec<(Hex256, Hex256)>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an operation state")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut schema = None;
            let mut operations = None;
            let mut names = HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                first_time(&mut names, &key)?;
                match key.as_str() {
                    "schema" => schema = Some(map.next_value::<Value>()?),
                    "operations" => operations = Some(map.next_value_seed(Entries)?),
                    _ => map.next_value_seed(Ignored)?,
                }
            }
            match (schema, operations) {
                (Some(Value::String(schema)), Some(operations))
                    if schema == "seal.operation-state/v1" =>
                {
                    Ok(operations)
                }
                (Some(_), Some(_)) => Err(refuse("schema is not seal.operation-state/v1")),
                (None, _) => Err(refuse("schema is not seal.operation-state/v1")),
                (_, None) => Err(refuse("operations is not an object")),
            }
        }
    }

    /// The `operations` object.
    struct Entries;

    impl<'de> DeserializeSeed<'de> for Entries {
        type Value = Vec<(Hex256, Hex256)>;

        fn deserialize<D: Deserializer<'de>>(self, reader: D) -> Result<Self::Value, D::Error> {
            reader.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for Entries {
        type Value = Vec<(Hex256, Hex256)>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("operations as an object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut operations = Vec::new();
            while let Some(id) = map.next_key::<String>()? {
                let frame = map.next_value_seed(Entry { id: &id })?;
                operations.push((Hex256::new(&id), frame));
            }
            Ok(operations)
        }
    }

    /// One operation: its `operation_id` must be its member name.
    struct Entry<'i> {
        id: &'i str,
    }

    impl<'de> DeserializeSeed<'de> for Entry<'_> {
        type Value = Hex256;

        fn deserialize<D: Deserializer<'de>>(self, reader: D) -> Result<Self::Value, D::Error> {
            reader.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for Entry<'_> {
        type Value = Hex256;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an operation")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let (mut operation, mut frame) = (None, None);
            let mut names = HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                first_time(&mut names, &key)?;
                let slot = match key.as_str() {
                    "operation_id" => &mut operation,
                    "release_frame_sha256" => &mut frame,
                    _ => {
                        map.next_value_seed(Ignored)?;
                        continue;
                    }
                };
                *slot = Some(map.next_value::<Value>()?);
            }
            match (operation, frame) {
                (Some(Value::String(operation)), Some(Value::String(frame)))
                    if operation == self.id =>
                {
                    Ok(Hex256::new(&frame))
                }
                _ => Err(refuse(format_args!("operation {} is malformed", self.id))),
            }
        }
    }

    /// A member no reading needs: checked as JSON (and for member names written twice)
    /// without being kept, so an ignored member costs no memory of its own.
    struct Ignored;

    impl<'de> DeserializeSeed<'de> for Ignored {
        type Value = ();

        fn deserialize<D: Deserializer<'de>>(self, reader: D) -> Result<(), D::Error> {
            reader.deserialize_any(self)
        }
    }

    impl<'de> Visitor<'de> for Ignored {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON value")
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
            Ok(())
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
            Ok(())
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
            Ok(())
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
            Ok(())
        }

        fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
            Ok(())
        }

        fn visit_unit<E: de::Error>(self) -> Result<(), E> {
            Ok(())
        }

        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Ignored)?.is_some() {}
            Ok(())
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let mut names = HashSet::new();
            while let Some(key) = map.next_key::<String>()? {
                first_time(&mut names, &key)?;
                map.next_value_seed(Ignored)?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
pub(super) mod tests {
    use super::*;

    /// State files good and bad, for the readings to agree on: extra members anywhere, a
    /// schema or operation that is wrong, not a string, missing or given twice, ids that are
    /// digests and ids that are not, bad JSON in an ignored member, trailing bytes, and
    /// (for the streamed reading's limits) an ignored string over 4096 bytes and an ignored
    /// member nested deeper than 32, with and without a name written twice inside them.
    pub(in crate::audit) fn state_texts() -> Vec<String> {
        let digest = |byte: u8| crate::digest::hex_lower(&[byte; 32]);
        let op = |id: &str, frame: &str| {
            format!(r#""{id}":{{"operation_id":"{id}","release_frame_sha256":"{frame}"}}"#)
        };
        let good = format!(
            "{},{},{}",
            op(&digest(9), &digest(1)),
            op("b", "F"),
            op(&digest(3), "x")
        );
        let state = |operations: &str| {
            format!(r#"{{"schema":"seal.operation-state/v1","operations":{{{operations}}}}}"#)
        };
        let mut texts = vec![
            state(&good),
            state(""),
            format!(
                r#"{{"x":[1,{{"y":null}}],"operations":{{{good}}},"schema":"seal.operation-state/v1","z":2.5e3}}"#
            ),
            state(&format!(
                r#"{good},"c":{{"more":1,"operation_id":"c","release_frame_sha256":"f"}}"#
            )),
            state(&format!(
                r#"{good},"c":{{"operation_id":"d","release_frame_sha256":"f"}}"#
            )),
            state(&format!(r#"{good},"c":{{"operation_id":"c"}}"#)),
            state(&format!(
                r#"{good},"c":{{"operation_id":"c","release_frame_sha256":7}}"#
            )),
            state(&format!(
                r#"{good},"c":{{"operation_id":1,"release_frame_sha256":"f"}}"#
            )),
            state(&format!(r#"{good},"c":[]"#)),
            state(&format!(
                r#"{good},"c":{{"operation_id":"c","operation_id":"c","release_frame_sha256":"f"}}"#
            )),
            state(&format!(r#"{},{good}"#, op("b", "G"))),
            format!(r#"{{"schema":"seal.operation-state/v2","operations":{{{good}}}}}"#),
            format!(r#"{{"schema":1,"operations":{{{good}}}}}"#),
            format!(r#"{{"operations":{{{good}}}}}"#),
            r#"{"schema":"seal.operation-state/v1","operations":[]}"#.to_owned(),
            r#"{"schema":"seal.operation-state/v1"}"#.to_owned(),
            r#"{"schema":"x","schema":"seal.operation-state/v1","operations":{}}"#.to_owned(),
            format!(
                r#"{{"schema":"seal.operation-state/v1","operations":{{}},"operations":{{{good}}}}}"#
            ),
            r#"{"schema":"seal.operation-state/v1","bad":"\ud800","operations":{}}"#.to_owned(),
            format!("{} x", state(&good)),
            format!("{} ", state(&good)),
            "[]".to_owned(),
            "{".to_owned(),
            String::new(),
        ];
        let long = "y".repeat(5000);
        let deep = format!("{}1{}", "[".repeat(40), "]".repeat(40));
        texts.push(format!(
            r#"{{"schema":"seal.operation-state/v1","note":"{long}","operations":{{{good}}}}}"#
        ));
        texts.push(format!(
            r#"{{"schema":"seal.operation-state/v1","note":{deep},"operations":{{{good}}}}}"#
        ));
        texts.push(format!(
            r#"{{"schema":"seal.operation-state/v1","note":{{"a":{deep},"a":1}},"operations":{{{good}}}}}"#
        ));
        texts.push(format!(
            r#"{{"schema":"seal.operation-state/v1","note":{{"a":"{long}","a":1}},"operations":{{{good}}}}}"#
        ));
        texts.push(format!(
            r#"{{"schema":"seal.operation-state/v1","x":{{"y":[{{"z":1,"z":2}}]}},"operations":{{{good}}}}}"#
        ));
        texts.push(format!(
            r#"{{"schema":"seal.operation-state/v1","operations":{{{good}}},"\u0073chema":"seal.operation-state/v1"}}"#
        ));
        texts
    }

    /// The operation state read straight into its sorted pairs gives what the JSON tree
    /// gave, and every state it does not take is read as a tree, with the tree's message:
    /// extra members anywhere, a schema or operation that is wrong, not a string, missing or
    /// given twice, ids that are digests and ids that are not, bad JSON in an ignored member,
    /// trailing bytes. Seen red with the check for bytes after the object
    /// left out.
    #[test]
    fn the_operation_state_read_straight_is_the_trees() {
        let digest = |byte: u8| crate::digest::hex_lower(&[byte; 32]);
        let texts = state_texts();
        for text in &texts {
            let tree = read_as_a_tree(text.as_bytes());
            if let Some(straight) = straight::read(text.as_bytes()) {
                assert_eq!(Ok(straight), tree, "{text}");
            }
            assert_eq!(parse_operation_state(text.as_bytes()), tree, "{text}");
            // Streamed, the same operations, or refused where the tree refuses (or where
            // the whole file's reading refuses a member named twice first).
            let twice = matches!(crate::json::find_duplicate(text), Ok(Some(_)));
            // A state the stream takes has no name written twice anywhere, so the audit may
            // take the streamed reading of a small state for the whole one (`walk`'s test
            // holds the two equal); past the stream's own limits it is not read.
            match read_streamed(text.as_bytes()) {
                Ok(streamed) => {
                    assert_eq!(Ok(streamed), tree, "{text}");
                    assert!(!twice, "{text}");
                }
                Err(Streamed::Invalid(_)) => assert!(tree.is_err() || twice, "{text}"),
                Err(Streamed::NotRead(why)) => assert!(
                    why.contains("longer than 4096") || why.contains("deeper than 32"),
                    "{text}: {why}"
                ),
            }
        }
        // The ids and frames come back as written, digests or not, in the ids' order.
        let read: Vec<(String, String)> = (straight::read(texts[0].as_bytes()).unwrap().iter())
            .map(|(id, frame)| (id.to_string(), frame.to_string()))
            .collect();
        let mut written = vec![
            (digest(9), digest(1)),
            ("b".to_owned(), "F".to_owned()),
            (digest(3), "x".to_owned()),
        ];
        written.sort();
        assert_eq!(read, written);
        assert_eq!(straight::read(texts[2].as_bytes()).unwrap().len(), 3);
        assert!(straight::read(texts[4].as_bytes()).is_none());
    }

    /// The streamed reading's limits: past its bytes (a file that keeps growing), inside a
    /// string longer than 4096 bytes, or nested deeper than 32, the state is not read
    /// (`NotRead`, so not checked); at each limit exactly, and for escaped quotes inside a
    /// string, it is read (each limit is tested at its value and one past it, so `>` turned to
    /// `>=` fails here). Seen red by hand (session 7) under the depth's `>` as `>=`, the string
    /// limit loosened by one byte, and a backslash not taken as an escape.
    #[test]
    fn a_streamed_state_is_not_read_past_its_limits() {
        let not_read = |result: Result<Operations, Streamed>, why: &str| match result {
            Err(Streamed::NotRead(message)) => assert!(message.contains(why), "{message}"),
            other => panic!("{why}: {other:?}"),
        };
        let head = r#"{"schema":"seal.operation-state/v1","operations":{},"note":"#;
        // Endless: a reader of spaces that never ends.
        let endless = std::io::repeat(b' ');
        let text = format!("{head}0");
        not_read(
            read_streamed_capped(text.as_bytes().chain(endless), 1 << 16),
            "larger than 65536 bytes",
        );
        let exact = format!("{head}0{}}}", " ".repeat(100));
        assert!(read_streamed_capped(exact.as_bytes(), exact.len() as u64).is_ok());
        not_read(
            read_streamed_capped(exact.as_bytes(), exact.len() as u64 - 1),
            "larger than",
        );
        let string = |n: usize| format!("{head}\"{}\"}}", "a".repeat(n));
        // The closing quote counts as the string's last byte.
        assert!(read_streamed(string(4095).as_bytes()).is_ok());
        not_read(
            read_streamed(string(4096).as_bytes()),
            "a string longer than 4096 bytes",
        );
        let escaped = format!("{head}\"{}\"}}", "\\\"".repeat(1000));
        assert!(read_streamed(escaped.as_bytes()).is_ok());
        let escaped_long = format!("{head}\"{}\"}}", "\\\"".repeat(3000));
        not_read(
            read_streamed(escaped_long.as_bytes()),
            "a string longer than",
        );
        // The root object is 1 deep: 31 more arrays are the limit.
        let deep = |n: usize| format!("{head}{}{}}}", "[".repeat(n), "]".repeat(n));
        assert!(read_streamed(deep(31).as_bytes()).is_ok());
        not_read(read_streamed(deep(32).as_bytes()), "nested deeper than 32");
        // Brackets inside strings are not nesting.
        let inside = format!("{head}\"{}\"}}", "[".repeat(100));
        assert!(read_streamed(inside.as_bytes()).is_ok());
    }

    /// An escape ends with the byte after its backslash: strings after an escaped one are
    /// their own, however much follows. And a string past the limit is placed at its byte in
    /// the file, past the first block read too. Seen red (session 8) under the cargo-mutants
    /// survivors "`(true, _)` arm deleted" (every byte after the first backslash counted as
    /// one string: this state refused) and "`self.read + at` → `*`" (the wrong byte named).
    #[test]
    fn a_streamed_state_ends_each_escape_and_names_the_byte_of_a_long_string() {
        let head = r#"{"schema":"seal.operation-state/v1","operations":{},"note":"#;
        let rest = |n: usize| {
            (0..n)
                .map(|i| format!(r#","more{i}":"{}""#, "x".repeat(3000)))
                .collect::<String>()
        };
        let after_escape = format!("{head}\"a\\\"b\"{}}}", rest(3));
        assert!(after_escape.len() > 9000);
        assert!(read_streamed(after_escape.as_bytes()).is_ok());

        let padded = format!("{head}{}\"{}\"}}", " ".repeat(70_000), "a".repeat(5000));
        let quote = head.len() + 70_000;
        let expected = format!("at byte {}", quote + 4097);
        match read_streamed(padded.as_bytes()) {
            Err(Streamed::NotRead(message)) => assert!(message.contains(&expected), "{message}"),
            other => panic!("{other:?}"),
        }
    }

    /// A streamed state names the first problem in it, with where it is. A value of the wrong
    /// type says what was expected there. Seen red (session 11) under the cargo-mutants
    /// survivor `State::expecting` → `Ok(())` (the message then ended in "expected "), and by
    /// hand under the same mutant of `Entries::expecting` and `Entry::expecting`.
    #[test]
    fn a_streamed_state_that_is_not_one_says_why() {
        let invalid = |text: &str| match read_streamed(text.as_bytes()) {
            Err(Streamed::Invalid(why)) => why,
            other => panic!("{text}: {other:?}"),
        };
        assert!(invalid("{").starts_with("not JSON: EOF"));
        assert_eq!(
            invalid("[]"),
            "invalid type: sequence, expected an operation state at line 1 column 1"
        );
        assert!(
            invalid(r#"{"schema":"seal.operation-state/v1","operations":[]}"#)
                .starts_with("invalid type: sequence, expected operations as an object")
        );
        assert!(
            invalid(r#"{"schema":"seal.operation-state/v1","operations":{"a":1}}"#)
                .starts_with("invalid type: integer `1`, expected an operation")
        );
        assert!(invalid(r#"{"schema":"x","operations":{}}"#)
            .starts_with("schema is not seal.operation-state/v1"));
        assert!(invalid(r#"{"schema":"seal.operation-state/v1","operations":{"a":{"operation_id":"b","release_frame_sha256":"f"}}}"#)
            .starts_with("operation a is malformed"));
        assert!(invalid(
            r#"{"schema":"seal.operation-state/v1","operations":{},"x":{"y":1,"y":2}}"#
        )
        .starts_with("member \"y\" is written twice"));
        assert_eq!(
            invalid(
                r#"{"schema":"seal.operation-state/v1","operations":{"a":{"operation_id":"a","release_frame_sha256":"f"},"a":{"operation_id":"a","release_frame_sha256":"f"}}}"#
            ),
            "an operation is named twice"
        );
    }
}
