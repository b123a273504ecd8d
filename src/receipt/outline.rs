//! What `serde_json::from_str::<Value>` / `from_slice::<Value>` make of a JSON text, without
//! building the value: the same deserializer, driven through `deserialize_any` at every level
//! exactly as serde_json's `Value` visitor drives it, so it accepts the same texts and fails
//! with the same errors at the same bytes (nesting limit, number range, string escapes and
//! UTF-8 included), while keeping only what a caller asks about the top-level value.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The top-level value of a text serde_json reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outline {
    /// An object: how many members it writes (a repeated name counted each time it is
    /// written, so 0 exactly when serde_json's map is empty) and whether one of them is named
    /// the name asked about.
    Object { members: usize, named: bool },
    /// Any other value.
    Other,
}

/// `text` read as `serde_json::from_str::<Value>(text)` reads it; `name`: the member name
/// [`Outline::Object`] says whether the top-level object has.
pub(crate) fn outline_str(text: &str, name: &str) -> Result<Outline, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let outline = Top { name }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(outline)
}

/// `bytes` read as `serde_json::from_slice::<Value>(bytes)` reads them (UTF-8 checked inside
/// strings as it goes, as serde_json's slice reader does). Bytes that are UTF-8 throughout
/// are read by the str reader: the two readers differ only in that check, so the result and
/// any error are the same, without each string's UTF-8 read again.
pub(crate) fn outline_slice(bytes: &[u8], name: &str) -> Result<Outline, serde_json::Error> {
    if let Ok(text) = crate::utf8::str_of(bytes) {
        return outline_str(text, name);
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let outline = Top { name }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(outline)
}

/// The top-level value: an object's member names are compared with `name`.
struct Top<'n> {
    name: &'n str,
}

impl<'de> DeserializeSeed<'de> for Top<'_> {
    type Value = Outline;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Outline, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// Every value below the top, and every member name: read through `deserialize_any` (for a
/// name, serde_json's map-key reader parses the string whichever way it is asked), kept as
/// nothing, or, for a name, compared with the one asked about.
#[derive(Clone, Copy)]
struct Skip<'n> {
    /// Set on a member name: whether it is this name.
    name: Option<&'n str>,
}

impl<'de> DeserializeSeed<'de> for Skip<'_> {
    type Value = bool;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// The visits serde_json's `Value` visitor accepts, none of which fails: a leaf is ignored
/// (`visit_str` is a member name compared), containers are read to their end.
macro_rules! leaves {
    ($out:ty, $leaf:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<$out, E> {
            Ok($leaf)
        }
        fn visit_i64<E>(self, _: i64) -> Result<$out, E> {
            Ok($leaf)
        }
        fn visit_u64<E>(self, _: u64) -> Result<$out, E> {
            Ok($leaf)
        }
        fn visit_f64<E>(self, _: f64) -> Result<$out, E> {
            Ok($leaf)
        }
        fn visit_none<E>(self) -> Result<$out, E> {
            Ok($leaf)
        }
        fn visit_unit<E>(self) -> Result<$out, E> {
            Ok($leaf)
        }
    };
}

impl<'de> Visitor<'de> for Skip<'_> {
    type Value = bool;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    leaves!(bool, false);

    fn visit_str<E>(self, value: &str) -> Result<bool, E> {
        Ok(self.name == Some(value))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while seq.next_element_seed(Skip { name: None })?.is_some() {}
        Ok(false)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<bool, A::Error> {
        while access.next_key_seed(Skip { name: None })?.is_some() {
            access.next_value_seed(Skip { name: None })?;
        }
        Ok(false)
    }
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = Outline;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    leaves!(Outline, Outline::Other);

    fn visit_str<E>(self, _: &str) -> Result<Outline, E> {
        Ok(Outline::Other)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Outline, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Outline, A::Error> {
        Skip { name: None }.visit_seq(seq).map(|_| Outline::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Outline, A::Error> {
        let (mut members, mut named) = (0, false);
        let key = Skip {
            name: Some(self.name),
        };
        while let Some(is_name) = access.next_key_seed(key)? {
            access.next_value_seed(Skip { name: None })?;
            members += 1;
            named |= is_name;
        }
        Ok(Outline::Object { members, named })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// What the outline of a value serde_json read says.
    fn expected(value: &Value, name: &str) -> Outline {
        match value {
            Value::Object(map) => Outline::Object {
                members: map.len(),
                named: map.contains_key(name),
            },
            _ => Outline::Other,
        }
    }

    /// The same acceptance, the same error text (so the same byte), and the outline of the
    /// value serde_json makes; `members` compares as "none or some" (a repeated name is one
    /// member of serde_json's map, and counted each time here).
    fn agrees(bytes: &[u8], name: &str) {
        let same = |got: Result<Outline, serde_json::Error>,
                    want: Result<Value, serde_json::Error>| match (got, want) {
            (Ok(got), Ok(value)) => match (got, expected(&value, name)) {
                (
                    Outline::Object { members, named },
                    Outline::Object {
                        members: kept,
                        named: want_named,
                    },
                ) => {
                    assert_eq!(named, want_named, "{bytes:?}");
                    assert_eq!(members == 0, kept == 0, "{bytes:?}");
                    assert!(members >= kept, "{bytes:?}");
                }
                (got, want) => assert_eq!(got, want, "{bytes:?}"),
            },
            (Err(error), Err(expected)) => {
                assert_eq!(error.to_string(), expected.to_string(), "{bytes:?}")
            }
            (got, want) => panic!("{bytes:?}: {got:?} against serde_json's {want:?}"),
        };
        same(
            outline_slice(bytes, name),
            serde_json::from_slice::<Value>(bytes),
        );
        if let Ok(text) = std::str::from_utf8(bytes) {
            same(outline_str(text, name), serde_json::from_str::<Value>(text));
        }
    }

    /// Where a reader that skips values without reading them (`deserialize_ignored_any`)
    /// parts from serde_json's `Value`: numbers beyond binary64, lone surrogate escapes, the
    /// nesting limit, bytes that are not UTF-8 inside a string. Seen red with `Skip` reading
    /// through `deserialize_ignored_any` (the first two then pass), and with `named` set by
    /// any member (the `operation_id` cases).
    #[test]
    fn what_serde_json_refuses_is_refused_here_at_the_same_byte() {
        let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
        for text in [
            r#"{"a":1e400}"#.to_owned(),
            r#"{"a":-1e400}"#.to_owned(),
            r#"{"a":"\ud800"}"#.to_owned(),
            r#"{"\ud800":1}"#.to_owned(),
            r#"{"a":"\ud83d\ude00"}"#.to_owned(),
            r#"{"a":[1,{"b":"\u0000"}]}"#.to_owned(),
            r#"{"a":"tab	inside"}"#.to_owned(),
            r#"{"a":1,}"#.to_owned(),
            r#"{"a" 1}"#.to_owned(),
            r#"{"a":1} x"#.to_owned(),
            " {} ".to_owned(),
            "{}".to_owned(),
            "[1,2]".to_owned(),
            "\"s\"".to_owned(),
            "1.5e3".to_owned(),
            String::new(),
            deep(127),
            deep(128),
            deep(129),
            format!(r#"{{"a":{}}}"#, deep(127)),
            r#"{"operation_id":1}"#.to_owned(),
            r#"{"x":{"operation_id":1}}"#.to_owned(),
            r#"{"\u006fperation_id":1}"#.to_owned(),
            r#"{"operation_id":1,"operation_id":2}"#.to_owned(),
            r#"{"a":1,"a":2}"#.to_owned(),
            r#"{"a":"operation_id"}"#.to_owned(),
        ] {
            agrees(text.as_bytes(), "operation_id");
        }
        for bytes in [
            b"{\"a\":\"\xff\"}".as_slice(),
            b"{\"\xc3\x28\":1}",
            b"{\"a\":1}\xff",
            b"\xef\xbb\xbf{}",
        ] {
            agrees(bytes, "operation_id");
        }
        assert_eq!(
            outline_slice(br#"{"a":1,"operation_id":"x"}"#, "operation_id").unwrap(),
            Outline::Object {
                members: 2,
                named: true
            }
        );
        assert_eq!(
            outline_str(r#" {} "#, "operation_id").unwrap(),
            Outline::Object {
                members: 0,
                named: false
            }
        );
        assert!(outline_str(r#"{"a":1e400}"#, "").is_err());
        assert!(outline_str(r#"{"a":"\ud800"}"#, "").is_err());
    }

    /// Every text of the JSONTestSuite parsing corpus, as bytes and (when UTF-8) as text.
    #[test]
    fn the_json_test_suite_outlines_as_serde_json_reads_it() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/JSONTestSuite/test_parsing");
        let mut files = 0;
        for entry in std::fs::read_dir(corpus).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            agrees(&bytes, "a");
            files += 1;
        }
        assert!(files > 300, "{files}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Texts with short names that repeat, escapes, and numbers at the edges of binary64.
        #[test]
        fn any_text_outlines_as_serde_json_reads_it(text in json_text()) {
            agrees(text.as_bytes(), "a");
        }
    }

    fn json_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let name = prop_oneof![
            Just("\"a\"".to_owned()),
            Just("\"\\u0061\"".to_owned()),
            Just("\"b\"".to_owned()),
            Just("\"\\ud800\"".to_owned()),
        ];
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("1e400".to_owned()),
            Just("-0".to_owned()),
            Just("1.7976931348623157e308".to_owned()),
            Just("\"\\ud83d\\ude00\"".to_owned()),
            Just("\"\\udc00\"".to_owned()),
            any::<i64>().prop_map(|n| n.to_string()),
            name.clone(),
        ];
        leaf.prop_recursive(4, 48, 4, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4)
                    .prop_map(|items| format!("[{}]", items.join(","))),
                proptest::collection::vec((name.clone(), inner), 0..4).prop_map(|members| {
                    let members: Vec<String> = members
                        .into_iter()
                        .map(|(n, v)| format!("{n}:{v}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }),
            ]
        })
    }
}
