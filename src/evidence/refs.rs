//! Files of references (`evidence verify --refs`): one JSON value for the whole file, else
//! JSON Lines. A value is a reference, an object with `evidenceRef` (one or an array, as a
//! trust annotation holds them; `evidence ref`'s records are such objects), or an array of
//! those. Guarantees: every value is read by the one JSON reader and a value that writes a
//! member name twice anywhere is one malformed reference (never read by one copy); a line
//! that is not JSON is one malformed reference; nothing is passed over without a word but
//! blank lines and `evidence ref`'s own records of receipts that got no reference.

use super::{read_annotation, read_ref, EvidenceRef, ReadRef, EVIDENCE_REF_MEMBER};
use crate::json::{self, JsonValue, Node};

/// One reference of a file, with its line (1 for a whole-file value) and its position among
/// the references read there.
pub type Placed = (u64, usize, ReadRef);

/// A reference that could not be read, and why.
fn malformed(why: String) -> ReadRef {
    ReadRef {
        fields: EvidenceRef::default(),
        malformed: Some(why),
    }
}

/// The references of a file of references, in file order.
pub fn refs_in(text: &str) -> Vec<Placed> {
    let mut found = Vec::new();
    if let Ok(node) = json::parse(text, json::DUPLICATE_SCAN_DEPTH) {
        take(&mut found, 1, &node);
        return found;
    }
    for (number, line) in text.lines().enumerate() {
        let number = number as u64 + 1;
        if line.trim().is_empty() {
            continue;
        }
        match json::parse(line, json::DUPLICATE_SCAN_DEPTH) {
            Ok(node) => take(&mut found, number, &node),
            Err(error) => found.push((
                number,
                0,
                malformed(format!(
                    "not JSON: {} at byte {}",
                    error.message, error.offset
                )),
            )),
        }
    }
    found
}

/// The references of one value read at `line`.
fn take(found: &mut Vec<Placed>, line: u64, node: &Node<'_>) {
    if let Some(duplicate) = json::first_duplicate(node) {
        found.push((line, 0, malformed(format!("duplicate-key: {duplicate}"))));
        return;
    }
    let mut refs = Vec::new();
    let items: Vec<&Node<'_>> = match &node.value {
        JsonValue::Array(items) => items.iter().collect(),
        _ => vec![node],
    };
    for item in items {
        if item.value.get(EVIDENCE_REF_MEMBER).is_some() {
            refs.extend(read_annotation(item).refs);
        } else if !is_refless_record(item) {
            refs.push(read_ref(item));
        }
    }
    found.extend(
        refs.into_iter()
            .enumerate()
            .map(|(index, read)| (line, index, read)),
    );
}

/// An `evidence ref` record without a reference: `"type": "evidence-ref"`, a `status` and
/// `findings`, no `evidenceRef` (a receipt that did not authenticate names nothing).
fn is_refless_record(node: &Node<'_>) -> bool {
    node.value.get("type").and_then(|t| t.value.as_str()) == Some("evidence-ref")
        && node.value.get("status").is_some()
        && node.value.get("findings").is_some()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn shapes(text: &str) -> Vec<(u64, usize, Option<String>)> {
        refs_in(text)
            .into_iter()
            .map(|(line, index, read)| (line, index, read.malformed))
            .collect()
    }

    #[test]
    fn a_file_is_one_value_or_json_lines_and_refless_records_are_passed() {
        let good = r#"{"type":"x","digest":"d","canonicalization":"c"}"#;
        let refless = r#"{"type":"evidence-ref","status":"failed","findings":[]}"#;
        let text = format!("[{good},{{\"evidenceRef\":[{good},{good}]}},{refless}]");
        assert_eq!(shapes(&text), [(1, 0, None), (1, 1, None), (1, 2, None)]);
        let lines = format!("{good}\n\n{refless}\nnot json\n{{\"evidenceRef\":{good}}}\n");
        let got = shapes(&lines);
        assert_eq!(got.len(), 3);
        assert_eq!((got[0].0, got[0].2.is_none()), (1, true));
        assert_eq!((got[1].0, got[1].2.is_some()), (4, true));
        assert_eq!((got[2].0, got[2].2.is_none()), (5, true));
    }

    /// Only `evidence ref`'s own record of a receipt that got no reference (its `type`, a
    /// `status` and `findings`) is passed over: a value with some of those members and not
    /// the others is a malformed reference, never skipped (seen red under `&&` → `||` in
    /// either place of `is_refless_record`).
    #[test]
    fn only_a_whole_refless_record_is_passed_over() {
        for text in [
            r#"{"status":"failed","findings":[]}"#,
            r#"{"type":"evidence-ref","findings":[]}"#,
            r#"{"type":"evidence-ref","status":"failed"}"#,
            r#"{"type":"x","status":"failed","findings":[]}"#,
        ] {
            let got = shapes(text);
            assert_eq!(got.len(), 1, "{text}");
            assert!(got[0].2.is_some(), "{text}");
        }
        assert!(shapes(r#"{"type":"evidence-ref","status":"failed","findings":[]}"#).is_empty());
    }

    /// A repeated member anywhere in a value (beside the reference, not only inside it)
    /// makes it one malformed reference: seen red with the duplicate check left out (the
    /// second `evidenceRef` was read and verified).
    #[test]
    fn a_value_with_a_repeated_member_anywhere_is_one_malformed_reference() {
        let good = r#"{"type":"x","digest":"d","canonicalization":"c"}"#;
        for text in [
            format!("{{\"evidenceRef\":{good},\"evidenceRef\":{good}}}"),
            format!("[{good},{{\"a\":{{\"b\":1,\"b\":2}},\"evidenceRef\":{good}}}]"),
        ] {
            let got = shapes(&text);
            assert_eq!(got.len(), 1, "{text}");
            assert!(got[0]
                .2
                .as_deref()
                .unwrap()
                .starts_with("duplicate-key: member"));
        }
    }
}
