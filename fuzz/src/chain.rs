//! The `chain` fuzz target: sealed logs, audit lines and head state files against a plain reference chain.

use super::{lower_hex64, pick};
use sealkit::json;
use sha2::{Digest, Sha256};

/// `sha256(prev_head ‖ 0x1f ‖ payload)` from the genesis, written directly on sha2.
fn reference_head<'a>(payloads: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let mut head = hex(&Sha256::digest(b"seal-verifiable-record/genesis/v1"));
    let mut heads = vec![head.clone()];
    for payload in payloads {
        let mut hasher = Sha256::new();
        hasher.update(head.as_bytes());
        hasher.update([0x1f]);
        hasher.update(payload.as_bytes());
        head = hex(&hasher.finalize());
        heads.push(head.clone());
    }
    heads
}

/// JavaScript's `trim` set: Unicode White_Space without U+0085, plus U+FEFF.
fn js_whitespace(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}'
}

/// The input as audit lines, as a sealed log and as a head state file, each against a
/// reference reading; an intact sealed log stops verifying when an entry is cut out,
/// duplicated or swapped with its neighbour, or when its genesis changes.
pub fn chain(data: &[u8]) {
    audit_lines_reference(data);
    if let Ok(text) = std::str::from_utf8(data) {
        sealed_log_reference(data, text);
    }
    if let Ok(state) = sealkit::chain::parse_state(data) {
        assert!(lower_hex64(&state.head), "{}", state.head);
        let value: serde_json::Value = serde_json::from_slice(data)
            .unwrap_or_else(|e| panic!("accepted state is not JSON: {e}"));
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("accepted state is not an object"));
        assert_eq!(object.len(), 3, "accepted state with other members");
        assert_eq!(
            object.get("seal_audit_state").and_then(|v| v.as_str()),
            Some("v1")
        );
        assert_eq!(
            object.get("session").and_then(|v| v.as_str()),
            Some(state.session.as_str())
        );
        assert_eq!(
            object.get("head").and_then(|v| v.as_str()),
            Some(state.head.as_str())
        );
    }
}

fn audit_lines_reference(data: &[u8]) {
    let mut chained = Vec::new();
    let lines = sealkit::chain::lines::chain_lines(data, |p| chained.push(p.to_owned()))
        .unwrap_or_else(|e| panic!("lines of a fuzz input refused: {e}"));
    let text = String::from_utf8_lossy(data);
    assert_eq!(lines.lossy, std::str::from_utf8(data).is_err());
    let pieces: Vec<&str> = text.split('\n').collect();
    let payloads: Vec<&str> = pieces
        .iter()
        .map(|p| p.trim_matches(js_whitespace))
        .filter(|p| !p.is_empty())
        .collect();
    assert_eq!(
        chained, payloads,
        "audit lines differ from the reference split"
    );
    assert_eq!(lines.payloads, payloads.len());
    assert_eq!(lines.dropped + payloads.len(), pieces.len());
    let heads = reference_head(payloads.iter().copied());
    assert_eq!(
        Some(&sealkit::chain::head_from(
            &sealkit::chain::genesis(),
            chained.iter().map(String::as_str)
        )),
        heads.last(),
        "head_from differs from the reference chain"
    );
    assert_eq!(
        Some(&lines.head),
        heads.last(),
        "the streamed head differs from the reference chain"
    );
}

fn sealed_log_reference(data: &[u8], text: &str) {
    let report = sealkit::chain::verify_sealed(text);
    // The reference reads the log with serde_json (the last of repeated members wins, as in
    // JavaScript's JSON.parse); it does not read lone surrogates or nesting past 128, and
    // sealkit stops at 64 levels, so only texts both read are compared.
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    if json::parse(text, 64).is_err() {
        assert!(report.is_err(), "a text json::parse refuses was verified");
        return;
    }
    let entries = value.get("entries").and_then(|e| e.as_array());
    let payloads: Option<Vec<&str>> = entries.map(|entries| {
        entries
            .iter()
            .map_while(|e| e.get("payload").and_then(|p| p.as_str()))
            .collect()
    });
    let complete = entries.is_some_and(|e| payloads.as_ref().is_some_and(|p| p.len() == e.len()));
    let report = match report {
        Ok(report) => {
            assert!(
                complete,
                "verified a log whose entries are missing or lack string payloads"
            );
            report
        }
        Err(_) => {
            assert!(
                !complete,
                "refused a log with an entries array of string payloads"
            );
            return;
        }
    };
    let entries = entries.unwrap_or_else(|| panic!("checked above"));
    let payloads = payloads.unwrap_or_default();
    let heads = reference_head(payloads.iter().copied());
    let bad: Vec<usize> = entries
        .iter()
        .enumerate()
        .filter(|(i, e)| e.get("head").and_then(|h| h.as_str()) != Some(heads[i + 1].as_str()))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(report.entries, entries.len());
    assert_eq!(report.head, heads[heads.len() - 1]);
    assert_eq!(report.bad_entries, bad.len());
    assert_eq!(
        report.first_bad_entry.as_ref().map(|b| b.index),
        bad.first().copied()
    );
    let genesis_ok = value.get("genesis").and_then(|g| g.as_str()) == Some(heads[0].as_str());
    assert_eq!(report.genesis.ok, genesis_ok);
    assert_eq!(report.intact(), genesis_ok && bad.is_empty());
    if report.intact() {
        tampered_logs(data, &value);
    }
}

/// Cut, duplicated and swapped entries and another genesis never verify.
fn tampered_logs(data: &[u8], value: &serde_json::Value) {
    let verifies = |v: &serde_json::Value| {
        sealkit::chain::verify_sealed(&v.to_string()).is_ok_and(|r| r.intact())
    };
    let n = value["entries"].as_array().map_or(0, Vec::len);
    let mut variants = Vec::new();
    if n >= 2 {
        let i = pick(data, 20, n - 1);
        let mut cut = value.clone();
        if let Some(entries) = cut["entries"].as_array_mut() {
            entries.remove(i);
        }
        variants.push(("cut", cut));
        let mut swapped = value.clone();
        if let Some(entries) = swapped["entries"].as_array_mut() {
            entries.swap(i, i + 1);
        }
        variants.push(("swapped", swapped));
    }
    if n >= 1 {
        let i = pick(data, 21, n);
        let mut duplicated = value.clone();
        if let Some(entries) = duplicated["entries"].as_array_mut() {
            let copy = entries[i].clone();
            entries.insert(i, copy);
        }
        variants.push(("duplicated", duplicated));
    }
    let mut genesis = value.clone();
    genesis["genesis"] = serde_json::Value::String("0".repeat(64));
    variants.push(("genesis", genesis));
    for (what, variant) in variants {
        assert!(
            !verifies(&variant),
            "a sealed log with a {what} entry verifies"
        );
    }
}
