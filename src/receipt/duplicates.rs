//! A receipt in which any JSON object writes one member name twice, in the file or in a JSON
//! text it carries as a string, is no receipt: JSON readers disagree on which value counts,
//! and a signature over the bytes covers both, so nothing read from it could be trusted.

use super::ReadProblem;
use crate::finding::Code;
use crate::json;
use serde_json::{Map, Value};

/// `Err` with `duplicate-member` for a repeated name anywhere in the receipt file `text`
/// (already read by serde_json into `receipt`) or in the kernel step output, its audit
/// line, or the signed config payload; `invalid-json` when this crate's reader cannot read
/// the file serde_json accepted (so no file escapes the check).
pub fn refuse(text: &str, receipt: &Map<String, Value>) -> Result<(), ReadProblem> {
    let found = |message: String| ReadProblem {
        code: Code::DuplicateMember,
        message,
    };
    match json::find_duplicate(text) {
        Ok(None) => {}
        Ok(Some(duplicate)) => return Err(found(duplicate.to_string())),
        Err(error) => {
            return Err(ReadProblem {
                code: Code::InvalidJson,
                message: format!("JSON: {} at byte {}", error.message, error.offset),
            })
        }
    }
    // The kernel step output is parsed once: its own members, then the audit line it holds.
    let emitted = receipt
        .get("emitted_bytes")
        .and_then(Value::as_str)
        .and_then(|text| json::parse(text, json::DUPLICATE_SCAN_DEPTH).ok());
    if let Some(duplicate) = emitted.as_ref().and_then(json::first_duplicate) {
        return Err(found(format!("emitted_bytes: {duplicate}")));
    }
    let audit = emitted
        .as_ref()
        .and_then(|node| node.value.get("audit")?.value.as_str().map(str::to_owned));
    let payload = receipt
        .get("signed_config")
        .and_then(|c| c.get("payload"))
        .and_then(Value::as_str);
    // Texts that do not parse are left to the checks that read them.
    let embedded = [
        ("the audit line in emitted_bytes", audit.as_deref()),
        ("signed_config.payload", payload),
    ]
    .into_iter()
    .find_map(|(name, text)| {
        let duplicate = json::find_duplicate(text?).ok()??;
        Some(format!("{name}: {duplicate}"))
    });
    embedded.map_or(Ok(()), |message| Err(found(message)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<(), ReadProblem> {
        let map: Map<String, Value> = serde_json::from_str(text).unwrap();
        refuse(text, &map)
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
}
