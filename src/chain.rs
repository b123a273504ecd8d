//! The audit hash chain (reference/seal-host-formats.md §3.1, §3.2): `genesis =
//! sha256_hex("seal-verifiable-record/genesis/v1")`, `head_i = sha256_hex(head_{i-1} ‖ 0x1f ‖
//! payload_i)`. Verifies `seal-verifiable-record/v1` sealed logs as `scripts/seal_log.mjs
//! verify` does (genesis first, then the first entry whose recorded head does not recompute),
//! recomputes a head from raw audit lines as `seal_log.mjs seal` reads them (split on LF, each
//! line trimmed with JavaScript's `trim`, empty lines dropped), and reads a receipt
//! directory's `.seal-audit-head.state`.

use crate::digest::{is_sha256_hex, sha256_hex};
use crate::json::{self, Value};
use serde::Serialize;
use sha2::{Digest, Sha256};

/// The sealed-log format name.
pub const FORMAT: &str = "seal-verifiable-record/v1";
/// The largest `.seal-audit-head.state` seal-host reads.
pub const MAX_STATE_BYTES: u64 = 16 * 1024;
/// The largest sealed log or audit-line file sealkit reads (whole, into memory).
pub const MAX_LOG_BYTES: u64 = 1024 * 1024 * 1024;

/// The chain's genesis head.
pub fn genesis() -> String {
    sha256_hex(b"seal-verifiable-record/genesis/v1")
}

/// One chain step.
pub fn commit(previous_head: &str, payload: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(previous_head.as_bytes());
    hasher.update([0x1f]);
    hasher.update(payload.as_bytes());
    crate::digest::hex_lower(&hasher.finalize())
}

/// The head after `payloads`, starting from `start`.
pub fn head_from<'a>(start: &str, payloads: impl IntoIterator<Item = &'a str>) -> String {
    payloads
        .into_iter()
        .fold(start.to_owned(), |head, payload| commit(&head, payload))
}

/// The first entry whose recorded head is not the recomputed one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadEntry {
    pub index: usize,
    pub recorded: String,
    pub recomputed: String,
}

/// The genesis a sealed log records, against the verifier's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GenesisCheck {
    pub recorded: String,
    pub expected: String,
    pub ok: bool,
}

/// What verifying a sealed log established.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SealedReport {
    /// `format` as recorded (reported; seal_log.mjs does not check it).
    pub format: Option<String>,
    pub genesis: GenesisCheck,
    pub entries: usize,
    /// The first entry whose recorded head does not recompute from the verifier's genesis.
    pub first_bad_entry: Option<BadEntry>,
    /// How many entries' recorded heads do not recompute.
    pub bad_entries: usize,
    /// The head recomputed from the verifier's genesis over every payload.
    pub head: String,
}

impl SealedReport {
    /// seal_log.mjs's verdict: genesis, then every entry.
    pub fn intact(&self) -> bool {
        self.genesis.ok && self.first_bad_entry.is_none()
    }
}

/// Verifies a sealed log's text. `Err` when it is not a sealed log at all.
pub fn verify_sealed(text: &str) -> Result<SealedReport, String> {
    verify_sealed_each(text, |_, _, _| {})
}

/// [`verify_sealed`], also handing every entry to `each`: its index, its payload, and
/// whether its recorded head equals the one recomputed from the verifier's genesis.
pub fn verify_sealed_each(
    text: &str,
    mut each: impl FnMut(usize, &str, bool),
) -> Result<SealedReport, String> {
    let node = json::parse(text, 64)
        .map_err(|e| format!("not JSON: {} at byte {}", e.message, e.offset))?;
    let field = |name: &str| node.value.get(name).map(|n| &n.value);
    let format = field("format").and_then(Value::as_str).map(str::to_owned);
    let recorded_genesis = match field("genesis") {
        Some(Value::String(s)) => s.to_string(),
        Some(other) => format!("({})", other.type_name()),
        None => "(absent)".to_owned(),
    };
    let Some(Value::Array(entries)) = field("entries") else {
        return Err("entries is missing or not an array".into());
    };
    let expected = genesis();
    let mut head = expected.clone();
    let mut first_bad_entry = None;
    let mut bad_entries = 0;
    for (index, entry) in entries.iter().enumerate() {
        let payload = entry
            .value
            .get("payload")
            .and_then(|p| p.value.as_str())
            .ok_or_else(|| format!("entries[{index}].payload is missing or not a string"))?;
        head = commit(&head, payload);
        let recorded = entry.value.get("head").and_then(|h| h.value.as_str());
        each(index, payload, recorded == Some(head.as_str()));
        if recorded != Some(head.as_str()) {
            bad_entries += 1;
            first_bad_entry.get_or_insert_with(|| BadEntry {
                index,
                recorded: recorded.unwrap_or("(absent)").to_owned(),
                recomputed: head.clone(),
            });
        }
    }
    Ok(SealedReport {
        format,
        genesis: GenesisCheck {
            ok: recorded_genesis == expected,
            recorded: recorded_genesis,
            expected,
        },
        entries: entries.len(),
        first_bad_entry,
        bad_entries,
        head,
    })
}

/// Audit lines as `seal_log.mjs seal` reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditLines {
    pub payloads: Vec<String>,
    /// Lines that were empty after trimming and dropped.
    pub dropped: usize,
    /// The file was not UTF-8; invalid bytes became U+FFFD as Node's decoder does.
    pub lossy: bool,
}

/// Splits raw audit-line bytes: LF only, JavaScript `trim` on each line, empty lines dropped.
pub fn audit_lines(bytes: &[u8]) -> AuditLines {
    let text = String::from_utf8_lossy(bytes);
    let lossy = matches!(text, std::borrow::Cow::Owned(_));
    let mut payloads = Vec::new();
    let mut dropped = 0;
    for line in text.split('\n') {
        let trimmed = js_trim(line);
        if trimmed.is_empty() {
            dropped += 1;
        } else {
            payloads.push(trimmed.to_owned());
        }
    }
    AuditLines {
        payloads,
        dropped,
        lossy,
    }
}

/// JavaScript `String.prototype.trim`: WhiteSpace and LineTerminator code points (which
/// differ from Rust's `trim`: U+FEFF is trimmed, U+0085 is not).
pub fn js_trim(text: &str) -> &str {
    text.trim_matches(is_js_whitespace)
}

fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// A receipt directory's `.seal-audit-head.state`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeadState {
    pub session: String,
    pub head: String,
}

/// Reads `{"seal_audit_state":"v1","session":…,"head":…}`.
pub fn parse_state(bytes: &[u8]) -> Result<HeadState, String> {
    if bytes.len() as u64 > MAX_STATE_BYTES {
        return Err(format!("larger than {MAX_STATE_BYTES} bytes"));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| "not UTF-8".to_owned())?;
    // seal-host reads this file with serde_json: what serde refuses (a lone surrogate
    // escape, say) is no state to it, whatever a more lenient reader makes of it.
    serde_json::from_str::<serde_json::Value>(text)
        .map_err(|e| format!("not JSON to seal-host's serde_json: {e}"))?;
    let node = json::parse(text, 8).map_err(|e| format!("not JSON: {}", e.message))?;
    let members = node.value.as_object().ok_or("not a JSON object")?;
    let mut names: Vec<&str> = members.iter().map(|m| m.key.as_ref()).collect();
    names.sort_unstable();
    if names != ["head", "seal_audit_state", "session"] {
        return Err("members are not exactly seal_audit_state, session, head".into());
    }
    let text_of = |name: &str| node.value.get(name).and_then(|n| n.value.as_str());
    if text_of("seal_audit_state") != Some("v1") {
        return Err("seal_audit_state is not \"v1\"".into());
    }
    let session = text_of("session").ok_or("session is not a string")?;
    let head = text_of("head")
        .filter(|h| is_sha256_hex(h))
        .ok_or("head is not 64 lowercase hex digits")?;
    Ok(HeadState {
        session: session.to_owned(),
        head: head.to_owned(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// Found by the `chain` fuzz target: a lone surrogate escape in `session` was read as
    /// U+FFFD, while seal-host's serde_json refuses the file.
    #[test]
    fn a_head_state_serde_json_refuses_is_refused() {
        let head = "2b153a2b189dd1118b8378ac13c4224e2d0f40bc95af29fe4a2f8d4f42e0eef3";
        let state = |session: &str| {
            format!(r#"{{"seal_audit_state":"v1","session":"{session}","head":"{head}"}}"#)
        };
        let paired = parse_state(state(r"s\ud83d\ude00").as_bytes()).unwrap();
        assert_eq!(paired.session, "s\u{1F600}");
        let lone = parse_state(state(r"s\ud83d17").as_bytes()).unwrap_err();
        assert!(
            lone.starts_with("not JSON to seal-host's serde_json"),
            "{lone}"
        );
    }

    #[test]
    fn genesis_and_first_commit_match_the_vectors() {
        assert_eq!(
            genesis(),
            "0633b0b4c5ca8207b3174d64fe438b99eaa1f5d95d0d4bbaa5d3fe6bd5f700a9"
        );
        let head = commit(&genesis(), "audit-0");
        assert!(head.starts_with("8dd24f08"), "{head}");
        assert!(head.ends_with("4a4c"), "{head}");
    }

    #[test]
    fn audit_lines_trim_like_javascript_and_drop_empty_lines() {
        let lines = audit_lines(b"\xef\xbb\xbf a \r\n\n\t\nb\xc2\x85\n");
        assert_eq!(lines.payloads, vec!["a".to_owned(), "b\u{85}".to_owned()]);
        assert_eq!(lines.dropped, 3);
        assert!(!lines.lossy);
        assert!(audit_lines(b"\xff\n").lossy);
    }

    #[test]
    fn state_files_are_strict() {
        let good = br#"{"seal_audit_state":"v1","session":"s","head":"0633b0b4c5ca8207b3174d64fe438b99eaa1f5d95d0d4bbaa5d3fe6bd5f700a9"}"#;
        assert_eq!(parse_state(good).unwrap().session, "s");
        assert!(parse_state(br#"{"seal_audit_state":"v2","session":"s","head":"x"}"#).is_err());
    }
}
