//! The audit hash chain seal-host keeps and seal_log.mjs seals: `genesis =
//! sha256_hex("seal-verifiable-record/genesis/v1")`, `head_i = sha256_hex(head_{i-1} ‖ 0x1f ‖
//! payload_i)`. Verifies `seal-verifiable-record/v1` sealed logs as `scripts/seal_log.mjs
//! verify` does (genesis first, then the first entry whose recorded head does not recompute),
//! recomputes a head from raw audit lines as `seal_log.mjs seal` reads them (split on LF, each
//! line trimmed with JavaScript's `trim`, empty lines dropped), and reads a receipt
//! directory's `.seal-audit-head.state`. Logs and lines are read as streams ([`sealed`],
//! [`lines`]): memory does not grow with their length.

use crate::digest::{is_sha256_hex, sha256_hex};
use crate::json;
use serde::Serialize;
use sha2::{Digest, Sha256};

mod batch;
mod decoded;
mod entry_scan;
pub mod lines;
pub mod sealed;
mod text;

pub use sealed::verify_sealed;

/// The sealed-log format name.
pub const FORMAT: &str = "seal-verifiable-record/v1";
/// The largest `.seal-audit-head.state` seal-host reads.
pub const MAX_STATE_BYTES: u64 = 16 * 1024;

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
    // Two `head` members are ambiguous evidence: readers disagree on which one counts (a
    // derived serde struct refuses the file, a map keeps the last), so neither is adopted.
    if let Some(pair) = names.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(format!("member {:?} appears more than once", pair[0]));
    }
    if let Some(duplicate) = json::first_duplicate(&node) {
        return Err(duplicate.to_string());
    }
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
    fn state_files_are_strict() {
        let good = br#"{"seal_audit_state":"v1","session":"s","head":"0633b0b4c5ca8207b3174d64fe438b99eaa1f5d95d0d4bbaa5d3fe6bd5f700a9"}"#;
        assert_eq!(parse_state(good).unwrap().session, "s");
        assert!(parse_state(br#"{"seal_audit_state":"v2","session":"s","head":"x"}"#).is_err());
    }
}
