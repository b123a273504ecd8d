//! A JSON text read into the very `Value` `serde_json::from_str::<Value>` gives (same
//! deserializer, same errors), counting as it goes the members serde_json drops: an object
//! that writes one name twice keeps one member for it, and the count says so without a
//! second pass over the text.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::cell::Cell;
use std::fmt;

/// `text` as serde_json reads it, and the number of times a member replaced an earlier one
/// of the same name (0 exactly when no object in it writes a name twice).
pub(super) fn read(text: &str) -> Result<(Value, usize), serde_json::Error> {
    let lost = Cell::new(0);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = Counting { lost: &lost }.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok((value, lost.get()))
}

/// serde_json's own `Value` visitor (serde_json 1.x, `src/value/de.rs`, without the
/// `arbitrary_precision` and `raw_value` features, which this build does not enable), with
/// the members of an object gathered first so the map is made at its final size, and each
/// insert that replaces a member counted.
#[derive(Clone, Copy)]
struct Counting<'c> {
    lost: &'c Cell<usize>,
}

impl<'de> DeserializeSeed<'de> for Counting<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Counting<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut members = Vec::new();
        while let Some(name) = access.next_key::<String>()? {
            members.push((name, access.next_value_seed(self)?));
        }
        let mut map = Map::with_capacity(members.len());
        for (name, value) in members {
            // `Map::insert` keeps the first member's place and the last one's value, as
            // serde_json's visitor does.
            if map.insert(name, value).is_some() {
                self.lost.set(self.lost.get() + 1);
            }
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The colons outside strings of a text serde_json read: one per member it wrote.
    fn members_in_text(text: &str) -> usize {
        let mut members = 0;
        let mut in_string = false;
        let mut escaped = false;
        for byte in text.bytes() {
            match (in_string, escaped, byte) {
                (true, true, _) => escaped = false,
                (true, false, b'\\') => escaped = true,
                (true, false, b'"') => in_string = false,
                (false, _, b'"') => in_string = true,
                (false, _, b':') => members += 1,
                _ => {}
            }
        }
        members
    }

    /// The members a value keeps, at any depth.
    fn members_in_value(value: &Value) -> usize {
        match value {
            Value::Object(map) => map.len() + map.values().map(members_in_value).sum::<usize>(),
            Value::Array(items) => items.iter().map(members_in_value).sum(),
            _ => 0,
        }
    }

    fn agrees_with_serde_json(text: &str) {
        match (read(text), serde_json::from_str::<Value>(text)) {
            (Ok((value, lost)), Ok(expected)) => {
                // Equal values and equal renderings: the member order is serde_json's too.
                assert_eq!(value, expected, "{text}");
                assert_eq!(
                    serde_json::to_string(&value).unwrap(),
                    serde_json::to_string(&expected).unwrap()
                );
                // A dropped member takes the members inside its value with it, so only
                // "none dropped" is the counts agreeing.
                let dropped = members_in_text(text) - members_in_value(&value);
                assert_eq!(lost == 0, dropped == 0, "{text}");
                assert!(lost <= dropped, "{text}");
            }
            (Err(error), Err(expected)) => assert_eq!(error.to_string(), expected.to_string()),
            (got, expected) => panic!("{text}: {got:?} against serde_json's {expected:?}"),
        }
    }

    #[test]
    fn repeated_names_are_counted_where_serde_json_drops_them() {
        // Seen red with the count left at 0 and with every insert counted.
        for (text, lost) in [
            (r#"{"a":1,"b":2}"#, 0),
            (r#"{"a":1,"a":2}"#, 1),
            (r#"{"a":1,"a":2,"a":3,"b":{"c":[{"d":0,"d":1}]}}"#, 3),
            (r#"{"a":"\":","\u0061":2}"#, 1),
            (r#"[{"x":[]},{"x":{}}]"#, 0),
        ] {
            assert_eq!(read(text).unwrap().1, lost, "{text}");
            agrees_with_serde_json(text);
        }
        // The first member's place, the last member's value.
        let (value, _) = read(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(serde_json::to_string(&value).unwrap(), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn numbers_and_errors_are_serde_jsons() {
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
            "",
        ] {
            agrees_with_serde_json(text);
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        agrees_with_serde_json(&deep);
    }

    /// Every text of the JSONTestSuite parsing corpus: the same value or the same error.
    #[test]
    fn the_json_test_suite_reads_as_serde_json_reads_it() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/JSONTestSuite/test_parsing");
        let mut read_texts = 0;
        for entry in std::fs::read_dir(corpus).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            if let Ok(text) = std::str::from_utf8(&bytes) {
                agrees_with_serde_json(text);
                read_texts += 1;
            }
        }
        assert!(read_texts > 250, "{read_texts}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Names drawn from a two-letter alphabet repeat often.
        #[test]
        fn any_text_reads_as_serde_json_reads_it(text in json_text()) {
            agrees_with_serde_json(&text);
        }
    }

    fn json_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let name = "[ab:\\\\\"]{0,2}".prop_map(|n| serde_json::to_string(&n).unwrap());
        let leaf = prop_oneof![
            Just("null".to_owned()),
            Just("-0".to_owned()),
            Just("1.5e3".to_owned()),
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
                        .map(|(n, v)| format!("{n} : {v}"))
                        .collect();
                    format!("{{ {} }}", members.join(" ,"))
                }),
            ]
        })
    }
}
