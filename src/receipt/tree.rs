//! A JSON text read by serde_json's own deserializer into a tree that borrows from the text:
//! it accepts exactly the texts `serde_json::from_str::<Value>` accepts and fails with the same
//! error at the same byte (the same deserializer, driven through `deserialize_any` at every
//! level as serde_json's `Value` visitor drives it), and it holds the same values in the same
//! order, rendering byte for byte as that `Value` renders (with `preserve_order`: an object
//! that writes a name twice keeps the first member's place and the last one's value, and the
//! count of members so dropped is handed back).
//!
//! Why not `Value`: a receipt's tree was 18 % of the audit's CPU (docs/performance.md, issue
//! 40 phase 7): every member name hashed with SipHash into an `IndexMap`, every string copied.
//! Here a string without an escape is a slice of the text, an object is its members in a
//! vector searched by name (a receipt object has a few dozen), and nothing is hashed.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Number, Value};
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

/// A JSON value as serde_json reads it, strings borrowed from the text where they can be.
#[derive(Debug, Clone)]
pub(crate) enum Json<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Members<'a>),
}

/// An object's members in the order serde_json's `Map` keeps them, each name once.
#[derive(Debug, Clone, Default)]
pub(crate) struct Members<'a> {
    members: Vec<(Cow<'a, str>, Json<'a>)>,
}

/// `text` as serde_json reads it, and the number of times a member replaced an earlier one of
/// the same name (0 exactly when no object in it writes a name twice).
pub(crate) fn read(text: &str) -> Result<(Json<'_>, usize), serde_json::Error> {
    let lost = Cell::new(0);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = Reading { lost: &lost }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok((value, lost.get()))
}

impl<'a> Json<'a> {
    /// `Value::get` with a name: the member of an object, else nothing.
    pub(crate) fn get(&self, name: &str) -> Option<&Json<'a>> {
        self.as_object()?.get(name)
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(number) => number.as_u64(),
            _ => None,
        }
    }

    pub(crate) fn as_object(&self) -> Option<&Members<'a>> {
        match self {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub(crate) fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }

    pub(crate) fn is_string(&self) -> bool {
        matches!(self, Json::String(_))
    }

    pub(crate) fn is_array(&self) -> bool {
        matches!(self, Json::Array(_))
    }

    /// `Value::pointer`: RFC 6901, `~1` and `~0` unescaped, array indices in canonical decimal.
    pub(crate) fn pointer(&self, pointer: &str) -> Option<&Json<'a>> {
        if pointer.is_empty() {
            return Some(self);
        }
        let tokens = pointer.strip_prefix('/')?;
        tokens.split('/').try_fold(self, |target, token| {
            let token = token.replace("~1", "/").replace("~0", "~");
            match target {
                Json::Object(members) => members.get(&token),
                Json::Array(items) => parse_index(&token).and_then(|i| items.get(i)),
                _ => None,
            }
        })
    }

    /// The same tree owning all its strings (for a text that does not outlive the read).
    pub(crate) fn into_owned(self) -> Json<'static> {
        match self {
            Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(b),
            Json::Number(n) => Json::Number(n),
            Json::String(text) => Json::String(Cow::Owned(text.into_owned())),
            Json::Array(items) => Json::Array(items.into_iter().map(Json::into_owned).collect()),
            Json::Object(members) => Json::Object(Members {
                members: members
                    .members
                    .into_iter()
                    .map(|(name, value)| (Cow::Owned(name.into_owned()), value.into_owned()))
                    .collect(),
            }),
        }
    }

    /// The very `Value` serde_json would have read.
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(text) => Value::String(text.as_ref().to_owned()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(members) => Value::Object(members.to_map()),
        }
    }
}

/// serde_json's array index rule for pointers: no sign, no leading zero.
fn parse_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

impl<'a> Members<'a> {
    pub(crate) fn get(&self, name: &str) -> Option<&Json<'a>> {
        self.members
            .iter()
            .find(|(member, _)| member == name)
            .map(|(_, value)| value)
    }

    pub(crate) fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub(crate) fn len(&self) -> usize {
        self.members.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = (&str, &Json<'a>)> {
        self.members
            .iter()
            .map(|(name, value)| (name.as_ref(), value))
    }

    pub(crate) fn keys(&self) -> impl DoubleEndedIterator<Item = &str> {
        self.members.iter().map(|(name, _)| name.as_ref())
    }

    /// The very `Map` serde_json would have read.
    pub(crate) fn to_map(&self) -> Map<String, Value> {
        self.iter()
            .map(|(name, value)| (name.to_owned(), value.to_value()))
            .collect()
    }

    /// Members as read, each name once: a repeated name keeps the first member's place and
    /// takes the last one's value, as `Map::insert` does under `preserve_order`; the count
    /// says how many members were dropped.
    fn from_read(mut members: Vec<(Cow<'a, str>, Json<'a>)>, lost: &Cell<usize>) -> Self {
        if repeats_a_name(&members) {
            let mut kept: Vec<(Cow<'a, str>, Json<'a>)> = Vec::with_capacity(members.len());
            for (name, value) in members.drain(..) {
                match kept.iter_mut().find(|(seen, _)| *seen == name) {
                    Some((_, earlier)) => {
                        *earlier = value;
                        lost.set(lost.get() + 1);
                    }
                    None => kept.push((name, value)),
                }
            }
            members = kept;
        }
        Members { members }
    }
}

/// Whether two members have the same name: pair by pair for a few, by sorting the names for
/// many (an argument object can have thousands).
fn repeats_a_name(members: &[(Cow<'_, str>, Json<'_>)]) -> bool {
    const PAIRWISE: usize = 16;
    if members.len() <= PAIRWISE {
        members
            .iter()
            .enumerate()
            .any(|(i, (name, _))| members[..i].iter().any(|(other, _)| other == name))
    } else {
        let mut names: Vec<&str> = members.iter().map(|(name, _)| name.as_ref()).collect();
        names.sort_unstable();
        names.windows(2).any(|pair| pair[0] == pair[1])
    }
}

/// `Value`'s equality: numbers as serde_json compares them (1 and 1.0 differ), objects equal
/// when they have the same names with equal values, in whatever order (`IndexMap`'s equality).
impl PartialEq for Json<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Number(a), Json::Number(b)) => a == b,
            (Json::String(a), Json::String(b)) => a == b,
            (Json::Array(a), Json::Array(b)) => a == b,
            (Json::Object(a), Json::Object(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(name, value)| b.get(name).is_some_and(|other| other == value))
            }
            _ => false,
        }
    }
}

/// `Value`'s rendering, piece for piece (serde_json's `impl Serialize for Value`).
impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(text) => serializer.serialize_str(text),
            Json::Array(items) => items.serialize(serializer),
            Json::Object(members) => members.serialize(serializer),
        }
    }
}

impl Serialize for Members<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (name, value) in self.iter() {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

/// serde_json's `Value` visitor (serde_json 1.x, `src/value/de.rs`, without the
/// `arbitrary_precision` and `raw_value` features), keeping borrowed strings borrowed and
/// counting the members a repeated name drops.
#[derive(Clone, Copy)]
struct Reading<'c> {
    lost: &'c Cell<usize>,
}

impl<'de> DeserializeSeed<'de> for Reading<'_> {
    type Value = Json<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Reading<'_> {
    type Value = Json<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Json<'de>, E> {
        Ok(Number::from_f64(value).map_or(Json::Null, Json::Number))
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(value)))
    }

    fn visit_str<E>(self, value: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(value.to_owned())))
    }

    fn visit_string<E>(self, value: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(value)))
    }

    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json<'de>, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Json<'de>, A::Error> {
        let mut members = Vec::new();
        while let Some(name) = access.next_key_seed(Name)? {
            members.push((name, access.next_value_seed(self)?));
        }
        Ok(Json::Object(Members::from_read(members, self.lost)))
    }
}

/// A member name, borrowed when it has no escape.
struct Name;

impl<'de> DeserializeSeed<'de> for Name {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Name {
    type Value = Cow<'de, str>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a string key")
    }

    fn visit_borrowed_str<E>(self, value: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(value))
    }

    // serde_json's reader of a `&str` hands a name over borrowed, or copied when it holds an
    // escape, never as a `String` (so no `visit_string`: its default, this with a copy, would
    // be unreachable; cargo-mutants found its replacements surviving, session 8).
    fn visit_str<E>(self, value: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(value.to_owned()))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The tree of `text` against serde_json's `Value` of it (through the counting read the
    /// checks used before, which is serde_json's own visitor): the same acceptance, the same
    /// error (so the same byte), the same count of dropped members, the same value, the same
    /// compact and pretty renderings, and the same answers to what the checks ask.
    fn agrees(text: &str) {
        match (read(text), super::super::counting_read::read(text)) {
            (Ok((tree, lost)), Ok((value, value_lost))) => {
                assert_eq!(lost, value_lost, "{text}");
                assert_eq!(tree.to_value(), value, "{text}");
                assert_eq!(tree.clone().into_owned().to_value(), value, "{text}");
                assert_eq!(
                    serde_json::to_string(&tree).unwrap(),
                    serde_json::to_string(&value).unwrap(),
                    "{text}"
                );
                assert_eq!(
                    serde_json::to_string_pretty(&tree).unwrap(),
                    serde_json::to_string_pretty(&value).unwrap(),
                    "{text}"
                );
                asks_the_same(&tree, &value, text);
            }
            (Err(error), Err(expected)) => {
                assert_eq!(error.to_string(), expected.to_string(), "{text}");
                assert_eq!(error.classify(), expected.classify(), "{text}");
            }
            (got, want) => panic!("{text}: {got:?} against serde_json's {want:?}"),
        }
    }

    /// `get`, the typed readers, `pointer` and equality, at every level.
    fn asks_the_same(tree: &Json<'_>, value: &Value, text: &str) {
        assert_eq!(tree.as_str(), value.as_str(), "{text}");
        assert_eq!(tree.as_u64(), value.as_u64(), "{text}");
        assert_eq!(tree.is_object(), value.is_object(), "{text}");
        assert_eq!(tree.is_array(), value.is_array(), "{text}");
        assert_eq!(tree.is_string(), value.is_string(), "{text}");
        assert!(*tree == tree.clone(), "{text}");
        for name in ["a", "b", "", "a/b", "~"] {
            assert_eq!(
                tree.get(name).map(Json::to_value).as_ref(),
                value.get(name),
                "{text}"
            );
        }
        for pointer in [
            "", "/a", "/a/b", "/0", "/b/1", "/a~1b", "/~0", "a", "/00", "/+1",
        ] {
            assert_eq!(
                tree.pointer(pointer).map(Json::to_value).as_ref(),
                value.pointer(pointer),
                "{text} {pointer}"
            );
        }
        match (tree, value) {
            (Json::Object(members), Value::Object(map)) => {
                assert_eq!(members.len(), map.len());
                assert_eq!(members.is_empty(), map.is_empty());
                assert!(members.keys().eq(map.keys().map(String::as_str)), "{text}");
                for ((name, tree), (key, value)) in members.iter().zip(map) {
                    assert_eq!(name, key);
                    assert!(members.contains_key(key));
                    asks_the_same(tree, value, text);
                }
            }
            (Json::Array(items), Value::Array(values)) => {
                assert_eq!(items.len(), values.len());
                for (tree, value) in items.iter().zip(values) {
                    asks_the_same(tree, value, text);
                }
            }
            _ => {}
        }
    }

    /// Equality as `Value` has it, between two texts' trees.
    fn equal_as_values(a: &str, b: &str) {
        let (Ok((x, _)), Ok((y, _))) = (read(a), read(b)) else {
            return;
        };
        let (u, v): (Value, Value) = (
            serde_json::from_str(a).unwrap(),
            serde_json::from_str(b).unwrap(),
        );
        assert_eq!(x == y, u == v, "{a} {b}");
    }

    /// Seen red with a repeated name keeping the first value, and with the sorted check of
    /// many members never finding a repeat.
    #[test]
    fn repeated_names_keep_the_first_place_and_the_last_value() {
        for (text, lost) in [
            (r#"{"a":1,"b":2}"#, 0),
            (r#"{"a":1,"a":2}"#, 1),
            (r#"{"a":1,"b":2,"a":3}"#, 1),
            (r#"{"a":1,"a":2,"a":3,"b":{"c":[{"d":0,"d":1}]}}"#, 3),
            (r#"{"a":"\":","\u0061":2}"#, 1),
            (r#"[{"x":[]},{"x":{}}]"#, 0),
        ] {
            assert_eq!(read(text).unwrap().1, lost, "{text}");
            agrees(text);
        }
        let many = |repeat: &str| {
            let members: Vec<String> = (0..40).map(|n| format!("\"m{n}\":{n}")).collect();
            format!("{{{},{repeat}}}", members.join(","))
        };
        for (text, lost) in [
            (many("\"x\":0"), 0),
            (many("\"m7\":0"), 1),
            (many("\"m\\u0037\":0"), 1),
        ] {
            assert_eq!(read(&text).unwrap().1, lost, "{text}");
            agrees(&text);
        }
    }

    #[test]
    fn numbers_strings_errors_and_equality_are_serde_jsons() {
        let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
        for text in [
            "0",
            "-0",
            "-0.0",
            "1e400",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
            "1.0e+228",
            "0.1",
            "[1,2",
            "{\"a\":1} x",
            "{\"a\" 1}",
            "\"\\ud800\"",
            "{\"\\ud800\":1}",
            "\"tab\tinside\"",
            "{\"a\":\"\\u00e9\\n\",\"a/b\":{\"~\":[0,1]},\"b\":[true,null,{\"1\":2}]}",
            "{\"a\":{\"b\":7},\"~\":1,\"b\":[1,[2]]}",
            "",
            " {} ",
            &deep(127),
            &deep(128),
            &deep(129),
        ] {
            agrees(text);
        }
        for (a, b) in [
            (r#"{"a":1,"b":2}"#, r#"{"b":2,"a":1}"#),
            (r#"{"a":1,"b":2}"#, r#"{"a":1}"#),
            (r#"{"a":1}"#, r#"{"b":1}"#),
            ("1", "1.0"),
            ("0.0", "-0.0"),
            ("[1,2]", "[2,1]"),
            ("\"x\"", "\"\\u0078\""),
            ("null", "false"),
        ] {
            equal_as_values(a, b);
            equal_as_values(b, a);
        }
    }

    /// Every text of the JSONTestSuite parsing corpus that is UTF-8 (a receipt is read as
    /// text once it passed its UTF-8 check).
    #[test]
    fn the_json_test_suite_reads_as_serde_json_reads_it() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/JSONTestSuite/test_parsing");
        let mut texts = 0;
        for entry in std::fs::read_dir(corpus).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            if let Ok(text) = std::str::from_utf8(&bytes) {
                agrees(text);
                texts += 1;
            }
        }
        assert!(texts > 250, "{texts}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// Short names that repeat (also spelt with escapes), escapes, numbers at the edges.
        #[test]
        fn any_text_reads_as_serde_json_reads_it(text in json_text(), other in json_text()) {
            agrees(&text);
            equal_as_values(&text, &other);
        }
    }

    /// The receipts in testdata (seal-host's fixtures, the hostile and legacy sets), and the
    /// JSON texts they carry as strings: the step output, its audit line, the config payload.
    fn receipt_texts() -> &'static [String] {
        static TEXTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
        TEXTS.get_or_init(read_receipt_texts)
    }

    fn read_receipt_texts() -> Vec<String> {
        let mut texts = Vec::new();
        let mut dirs =
            vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/receipts")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "json") {
                    if let Ok(text) = String::from_utf8(std::fs::read(&path).unwrap()) {
                        texts.push(text);
                    }
                }
            }
        }
        let carried: Vec<String> = texts
            .iter()
            .filter_map(|text| serde_json::from_str::<Value>(text).ok())
            .flat_map(|receipt| {
                let step = receipt["emitted_bytes"].as_str().map(str::to_owned);
                let audit = step
                    .as_deref()
                    .and_then(|s| serde_json::from_str::<Value>(s).ok())
                    .and_then(|s| s["audit"].as_str().map(str::to_owned));
                let payload = receipt["signed_config"]["payload"]
                    .as_str()
                    .map(str::to_owned);
                [step, audit, payload].into_iter().flatten()
            })
            .collect();
        texts.extend(carried);
        texts.sort();
        texts.dedup();
        texts
    }

    /// Every receipt of testdata and every text it carries reads as serde_json reads it.
    #[test]
    fn the_receipts_of_testdata_read_as_serde_json_reads_them() {
        let texts = receipt_texts();
        assert!(texts.len() > 60, "{}", texts.len());
        for text in texts {
            agrees(text);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(160))]
        /// A receipt (or a text it carries) with one to three edits: a byte inserted, removed
        /// or replaced by one that matters to a JSON reader, or a stretch repeated (a member
        /// written twice, a value cut short): accepted or refused as serde_json does, with the
        /// same error at the same byte, the same dropped members and the same value.
        #[test]
        fn edited_receipts_read_as_serde_json_reads_them(
            pick in proptest::prelude::any::<proptest::sample::Index>(),
            edits in proptest::collection::vec(
                (
                    proptest::prelude::any::<proptest::sample::Index>(),
                    proptest::prelude::any::<proptest::sample::Index>(),
                    0..4u8,
                    proptest::sample::select(b" \n\"\\,:{}[]0e.-u1a".to_vec()),
                ),
                1..4,
            ),
        ) {
            let texts = receipt_texts();
            let mut text = texts[pick.index(texts.len())].clone().into_bytes();
            for (at, to, edit, byte) in edits {
                if text.is_empty() {
                    break;
                }
                let at = at.index(text.len());
                match edit {
                    0 => text.insert(at, byte),
                    1 => {
                        text.remove(at);
                    }
                    2 => text[at] = byte,
                    _ => {
                        let end = (at + 1 + to.index(200)).min(text.len());
                        let stretch = text[at..end].to_vec();
                        text.splice(end..end, stretch);
                    }
                }
            }
            if let Ok(text) = std::str::from_utf8(&text) {
                agrees(text);
            }
        }
    }

    fn json_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let name = prop_oneof![
            Just("\"a\"".to_owned()),
            Just("\"\\u0061\"".to_owned()),
            Just("\"b\"".to_owned()),
            Just("\"a/b\"".to_owned()),
            Just("\"~\"".to_owned()),
            Just("\"0\"".to_owned()),
        ];
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("true".to_owned()),
            Just("1e400".to_owned()),
            Just("-0".to_owned()),
            Just("1.0".to_owned()),
            Just("1".to_owned()),
            Just("1.7976931348623157e308".to_owned()),
            Just("\"\\ud83d\\ude00\"".to_owned()),
            Just("\"\\udc00\"".to_owned()),
            Just("\"x\\\"y\"".to_owned()),
            any::<i64>().prop_map(|n| n.to_string()),
            any::<u64>().prop_map(|n| n.to_string()),
            name.clone(),
        ];
        leaf.prop_recursive(4, 64, 6, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                proptest::collection::vec((name.clone(), inner), 0..6).prop_map(|members| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(n, v)| format!("{n} : {v}"))
                        .collect();
                    format!("{{ {} }}", members.join(" ,"))
                }),
            ]
        })
    }
}
