//! A receipt in which any JSON object writes one member name twice, in the file or in a JSON
//! text it carries as a string, is no receipt: JSON readers disagree on which value counts,
//! and a signature over the bytes covers both, so nothing read from it could be trusted.

use super::{ParsedStep, ReadProblem};
use crate::finding::Code;
use crate::json;
use serde_json::{Map, Value};

/// `Err` with `duplicate-member` for a repeated name anywhere in the receipt file `text`
/// (already read by serde_json into `receipt`) or in the kernel step output, its audit
/// line, or the signed config payload; `invalid-json` when this crate's reader cannot read
/// the file serde_json accepted (so no file escapes the check). `step` is the step output as
/// `parse_step` read it from `emitted_bytes` (the checks read it that way anyway), `memo` a
/// worker's memo of the last config payload it scanned.
pub(super) fn refuse_parsed(
    text: &str,
    receipt: &Map<String, Value>,
    step: Option<&Result<ParsedStep, String>>,
    memo: &mut PayloadMemo,
) -> Result<(), ReadProblem> {
    let found = |message: String| ReadProblem {
        code: Code::DuplicateMember,
        message,
    };
    // serde_json keeps one member per name, so a file whose members all survived in
    // `receipt` repeats no name (the full read, which names the first repeat, runs only
    // when some member was lost; it reads whatever serde_json reads, see the tests).
    match if lost_members(text, receipt) {
        json::find_duplicate(text)
    } else {
        Ok(None)
    } {
        Ok(None) => {}
        Ok(Some(duplicate)) => return Err(found(duplicate.to_string())),
        Err(error) => {
            return Err(ReadProblem {
                code: Code::InvalidJson,
                message: format!("JSON: {} at byte {}", error.message, error.offset),
            })
        }
    }
    let audit = match (
        receipt.get("emitted_bytes").and_then(Value::as_str),
        step.and_then(|step| step.as_ref().ok()),
    ) {
        // The same shortcut for the step output and its audit line when serde_json read
        // both (the audit line is then the step's one `audit` member, as this crate's
        // reader would find it).
        (Some(emitted), Some(step)) if !lost_members(emitted, &step.step) => {
            (lost_members(&step.audit_line, &step.audit))
                .then(|| json::find_duplicate(&step.audit_line).ok().flatten())
                .flatten()
        }
        // Otherwise the step output is read in full, its own members, then the audit line
        // it holds.
        (Some(emitted), _) => {
            let emitted = json::parse(emitted, json::DUPLICATE_SCAN_DEPTH).ok();
            if let Some(duplicate) = emitted.as_ref().and_then(json::first_duplicate) {
                return Err(found(format!("emitted_bytes: {duplicate}")));
            }
            emitted
                .as_ref()
                .and_then(|node| node.value.get("audit")?.value.as_str())
                .and_then(|audit| json::find_duplicate(audit).ok().flatten())
        }
        (None, _) => None,
    };
    // Texts that do not parse are left to the checks that read them.
    if let Some(duplicate) = audit {
        return Err(found(format!(
            "the audit line in emitted_bytes: {duplicate}"
        )));
    }
    let payload = receipt
        .get("signed_config")
        .and_then(|c| c.get("payload"))
        .and_then(Value::as_str);
    match payload.and_then(|payload| memo.duplicate_in(payload)) {
        Some(duplicate) => Err(found(format!("signed_config.payload: {duplicate}"))),
        None => Ok(()),
    }
}

/// Whether serde_json, reading `text` into `value`, dropped a member (a name written twice
/// in one object keeps only one of its members).
fn lost_members(text: &str, value: &Map<String, Value>) -> bool {
    members_in_text(text) != members_in_value(value)
}

/// The last signed config payload a worker scanned for repeated names, and the repeat it
/// found: a directory's receipts carry one config, so its payload (about 2 KB) is read once
/// per worker instead of once per receipt.
#[derive(Debug, Default)]
pub struct PayloadMemo {
    scanned: Option<(String, Option<String>)>,
}

impl PayloadMemo {
    /// The first repeated name in `payload`, if it is JSON to this crate's reader.
    fn duplicate_in(&mut self, payload: &str) -> Option<String> {
        match &self.scanned {
            Some((seen, found)) if seen == payload => found.clone(),
            _ => {
                let found = json::find_duplicate(payload)
                    .ok()
                    .flatten()
                    .map(|duplicate| duplicate.to_string());
                self.scanned = Some((payload.to_owned(), found.clone()));
                found
            }
        }
    }
}

/// The number of object members a JSON text holds: the colons outside strings (the text
/// is one that serde_json read, where a colon outside a string only ever ends a name).
fn members_in_text(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut members = 0;
    let mut at = 0;
    while let Some(found) = memchr::memchr2(b'"', b':', &bytes[at..]) {
        at += found;
        if bytes[at] == b':' {
            members += 1;
            at += 1;
            continue;
        }
        // A string: to its closing quote, stepping over each escape's next byte.
        at += 1;
        loop {
            at += json::string_run(&bytes[at.min(bytes.len())..], false);
            match bytes.get(at) {
                Some(b'\\') => at += 2,
                Some(_) => break,
                None => return members,
            }
        }
        at += 1;
    }
    members
}

/// The number of object members in a parsed value, at any depth.
/// (serde_json nests at most 128 deep, so the recursion is bounded.)
fn members_in_value(map: &Map<String, Value>) -> usize {
    fn of(value: &Value) -> usize {
        match value {
            Value::Object(map) => members_in_value(map),
            Value::Array(items) => items.iter().map(of).sum(),
            _ => 0,
        }
    }
    map.len() + map.values().map(of).sum::<usize>()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<(), ReadProblem> {
        let map: Map<String, Value> = serde_json::from_str(text).unwrap();
        refuse(text, &map)
    }

    fn refuse(text: &str, map: &Map<String, Value>) -> Result<(), ReadProblem> {
        let step = super::super::read_step(map);
        refuse_parsed(text, map, step.as_ref(), &mut PayloadMemo::default())
    }

    #[test]
    fn a_repeated_name_in_the_file_or_a_carried_text_is_refused() {
        assert!(check(r#"{"verdict":"ALLOW","emitted_bytes":"{\"audit\":\"{}\"}"}"#).is_ok());
        let top = check(r#"{"verdict":"BLOCK","verdict":"ALLOW"}"#).unwrap_err();
        assert_eq!(top.code, Code::DuplicateMember);
        assert!(top.message.contains("\"verdict\""), "{}", top.message);
        let step = check(r#"{"emitted_bytes":"{\"a\":1,\"a\":2}"}"#).unwrap_err();
        assert!(
            step.message.starts_with("emitted_bytes: "),
            "{}",
            step.message
        );
        let audit =
            check(r#"{"emitted_bytes":"{\"audit\":\"{\\\"v\\\":1,\\\"v\\\":2}\"}"}"#).unwrap_err();
        assert!(
            audit.message.starts_with("the audit line"),
            "{}",
            audit.message
        );
        let config = check(r#"{"signed_config":{"payload":"{\"p\":1,\"p\":1}"}}"#).unwrap_err();
        assert!(
            config.message.starts_with("signed_config.payload: "),
            "{}",
            config.message
        );
        // A carried text that is not JSON is for the other checks to report.
        assert!(check(r#"{"emitted_bytes":"not json"}"#).is_ok());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Names and strings full of quotes, colons and backslashes, compact and pretty.
        #[test]
        fn members_are_counted_in_the_text_as_serde_json_keeps_them(
            value in json_object(),
            pretty in proptest::bool::ANY,
        ) {
            let text = if pretty {
                serde_json::to_string_pretty(&value).unwrap()
            } else {
                serde_json::to_string(&value).unwrap()
            };
            let map: Map<String, Value> = serde_json::from_str(&text).unwrap();
            proptest::prop_assert_eq!(members_in_text(&text), members_in_value(&map));
        }
    }

    fn json_object() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let text = "[a:\\\"{}\\[\\],\\\\]{0,4}";
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<i32>().prop_map(Value::from),
            text.prop_map(Value::String),
        ];
        let tree = leaf.prop_recursive(4, 32, 4, move |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::btree_map(text, inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        });
        proptest::collection::btree_map(text, tree, 0..4)
            .prop_map(|m| Value::Object(m.into_iter().collect()))
    }

    #[test]
    fn a_lost_member_is_seen_in_the_counts() {
        // Seen red with `intact` always true: the repeated names below were let through.
        for text in [
            r#"{"a":1,"a":2}"#,
            r#"{"x":{"a":"\":","a":[{"b":1}]}}"#,
            r#"{"a":"\"","\u0061":2}"#,
        ] {
            let map: Map<String, Value> = serde_json::from_str(text).unwrap();
            assert_eq!(members_in_text(text), members_in_value(&map) + 1, "{text}");
            assert_eq!(refuse(text, &map).unwrap_err().code, Code::DuplicateMember);
        }
    }

    /// The count's shortcut skips this crate's reader when nothing was lost, so that reader
    /// must read every text serde_json reads (else a file it refuses as `invalid-json` would
    /// now pass): over the JSONTestSuite parsing corpus, whatever serde_json accepts, it
    /// accepts too.
    #[test]
    fn this_crates_reader_reads_whatever_serde_json_reads() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/JSONTestSuite/test_parsing");
        let mut accepted = 0;
        for entry in std::fs::read_dir(corpus).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let Ok(text) = std::str::from_utf8(&bytes) else {
                continue;
            };
            if serde_json::from_str::<Value>(text).is_ok() {
                accepted += 1;
                assert!(
                    json::parse(text, json::DUPLICATE_SCAN_DEPTH).is_ok(),
                    "{text}"
                );
            }
        }
        assert!(accepted > 90, "{accepted}");
    }
}
