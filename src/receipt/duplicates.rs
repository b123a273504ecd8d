//! A receipt in which any JSON object writes one member name twice, in the file or in a JSON
//! text it carries as a string, is no receipt: JSON readers disagree on which value counts,
//! and a signature over the bytes covers both, so nothing read from it could be trusted.

use super::{Json, Members, ParsedStep, ReadProblem};
use crate::finding::Code;
use crate::json;

/// `Err` with `duplicate-member` for a repeated name anywhere in the receipt file `text`
/// (already read by serde_json into `receipt`, which dropped `lost` members doing so) or in
/// the kernel step output, its audit line, or the signed config payload; `invalid-json` when
/// this crate's reader cannot read the file serde_json accepted (so no file escapes the
/// check). `step` is the step output as `parse_step` read it from `emitted_bytes` (the checks
/// read it that way anyway), `memo` a worker's memo of the last config payload it scanned.
pub(super) fn refuse_parsed(
    text: &str,
    lost: usize,
    receipt: &Members<'_>,
    step: Option<&Result<ParsedStep, String>>,
    memo: &mut PayloadMemo,
) -> Result<(), ReadProblem> {
    let found = |message: String| ReadProblem {
        code: Code::DuplicateMember,
        message,
    };
    // serde_json keeps one member per name, so a file from which it dropped no member
    // repeats no name (the full read, which names the first repeat, runs only when some
    // member was lost; it reads whatever serde_json reads, see the tests).
    match if lost > 0 {
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
        receipt.get("emitted_bytes").and_then(Json::as_str),
        step.and_then(|step| step.as_ref().ok()),
    ) {
        // The same shortcut for the step output and its audit line when serde_json read
        // both (the audit line is then the step's one `audit` member, as this crate's
        // reader would find it).
        (Some(_), Some(step)) if step.step_lost == 0 => (step.audit_lost > 0)
            .then(|| json::find_duplicate(&step.audit_line).ok().flatten())
            .flatten(),
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
        .and_then(Json::as_str);
    match payload.and_then(|payload| memo.duplicate_in(payload)) {
        Some(duplicate) => Err(found(format!("signed_config.payload: {duplicate}"))),
        None => Ok(()),
    }
}

/// The signed config payloads a worker scanned for repeated names, and the repeat each held:
/// a directory's receipts carry one config or a few (one per epoch, interleaved as the host's
/// sessions are), so each payload (about 2 KB) is read once per worker instead of once per
/// receipt. Remembering only the last one read each payload again at every change of config.
#[derive(Debug, Default)]
pub struct PayloadMemo {
    scanned: Vec<(String, Option<String>)>,
}

impl PayloadMemo {
    /// Payloads remembered at once; past that the memo starts over (a directory with more
    /// distinct configs costs a read of each payload per receipt, as before the memo).
    const CAPACITY: usize = 8;

    /// The first repeated name in `payload`, if it is JSON to this crate's reader.
    fn duplicate_in(&mut self, payload: &str) -> Option<String> {
        if let Some((_, found)) = self.scanned.iter().find(|(seen, _)| seen == payload) {
            return found.clone();
        }
        let found = json::find_duplicate(payload)
            .ok()
            .flatten()
            .map(|duplicate| duplicate.to_string());
        if self.scanned.len() >= Self::CAPACITY {
            self.scanned.clear();
        }
        self.scanned.push((payload.to_owned(), found.clone()));
        found
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The file's check as `parse_with_step` runs it: the counting read, then the step.
    fn check(text: &str) -> Result<(), ReadProblem> {
        let (value, lost) = super::super::tree::read(text).unwrap();
        let Json::Object(map) = value else {
            panic!("{text} is no object")
        };
        let step = super::super::read_step(&map);
        refuse_parsed(text, lost, &map, step.as_ref(), &mut PayloadMemo::default())
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

    #[test]
    fn a_lost_member_is_seen_in_the_counts() {
        // Seen red with the counting read's count left at 0: the repeated names below, in
        // the file, the step output and its audit line, were let through.
        for text in [
            r#"{"a":1,"a":2}"#,
            r#"{"x":{"a":"\":","a":[{"b":1}]}}"#,
            r#"{"a":"\"","\u0061":2}"#,
            r#"{"emitted_bytes":"{\"a\":1,\"a\":2}"}"#,
            r#"{"emitted_bytes":"{\"audit\":\"{\\\"v\\\":1,\\\"v\\\":2}\"}"}"#,
        ] {
            assert_eq!(
                check(text).unwrap_err().code,
                Code::DuplicateMember,
                "{text}"
            );
        }
    }

    /// Two configs interleaved (one per epoch, as the generator's host sessions write them):
    /// each payload's answer is its own, and each is read once. Seen red with the memo
    /// keeping only the last payload (four entries read, not two) and with it answering
    /// from the first entry whatever the payload.
    #[test]
    fn the_memo_answers_for_each_of_several_payloads() {
        let clean = r#"{"epoch":1,"p":1}"#;
        let repeated = r#"{"epoch":2,"p":1,"p":2}"#;
        let mut memo = PayloadMemo::default();
        for _ in 0..2 {
            assert_eq!(memo.duplicate_in(clean), None);
            assert!(memo
                .duplicate_in(repeated)
                .is_some_and(|found| found.contains("\"p\"")));
        }
        assert_eq!(memo.scanned.len(), 2);
        // Past its capacity the memo starts over, and still answers for each payload.
        let many: Vec<String> = (0..=PayloadMemo::CAPACITY)
            .map(|n| format!(r#"{{"n":{n},"n":0}}"#))
            .collect();
        for payload in &many {
            assert!(memo.duplicate_in(payload).is_some());
        }
        assert!(memo.scanned.len() <= PayloadMemo::CAPACITY);
        assert_eq!(memo.duplicate_in(clean), None);
        assert!(memo.duplicate_in(repeated).is_some());
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
            if serde_json::from_str::<serde_json::Value>(text).is_ok() {
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
