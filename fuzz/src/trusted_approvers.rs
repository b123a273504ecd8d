//! The `trusted_approvers` fuzz target: the trusted-approvers list parser and the one rule
//! that credits a record to a name.

use sealkit::approvers::{Approvers, Credit, VerifiedSignature};
use sealkit::timestamp::time_millis;
use std::path::Path;

/// The input as a trusted-approvers file. An accepted list: every entry names the line it
/// came from (its first word is the name, which holds no invisible character), every
/// window is non-empty, every window time written in digits passed the time guard, and no
/// key belongs to two names. For every listed key and a set of times around each window's
/// edges, `credit` credits exactly the name of an entry of that key whose window holds the
/// time (a plain reference), says outside-window otherwise (its words never name anyone),
/// and an unlisted key is never credited.
pub fn trusted_approvers(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(list) = Approvers::parse(text, Path::new("fuzz")) else {
        return;
    };
    assert!(!list.entries.is_empty(), "an accepted list names someone");
    let lines: Vec<&str> = text.lines().collect();
    let mut times = vec![0, 1, u64::MAX];
    for entry in &list.entries {
        let index = usize::try_from(entry.line - 1).unwrap();
        let line = lines[index];
        let content = line.split('#').next().unwrap();
        assert_eq!(
            content.split_whitespace().next(),
            Some(entry.name.as_str()),
            "line {} does not start with its name",
            entry.line
        );
        assert!(
            !entry.name.chars().any(|c| c.is_control()
                || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')),
            "invisible character in {:?}",
            entry.name
        );
        if let (Some(after), Some(before)) = (entry.valid_after, entry.valid_before) {
            assert!(after < before, "empty window on line {}", entry.line);
        }
        for token in content.split_whitespace() {
            for prefix in ["valid-after=", "valid-before="] {
                if let Some(time) = token.strip_prefix(prefix) {
                    assert!(time_millis(time).is_ok(), "{token:?} passed the list");
                }
            }
        }
        for edge in [entry.valid_after, entry.valid_before]
            .into_iter()
            .flatten()
        {
            times.extend([edge.saturating_sub(1), edge, edge.saturating_add(1)]);
        }
        for other in &list.entries {
            assert!(
                other.key != entry.key || other.name == entry.name,
                "lines {} and {} give one key two names",
                entry.line,
                other.line
            );
        }
    }
    for entry in &list.entries {
        for &at in &times {
            let credit = list.credit(VerifiedSignature {
                key_id: &entry.key.key_id,
                at,
            });
            let holder = list.entries.iter().find(|e| {
                e.key == entry.key
                    && e.valid_after.is_none_or(|a| at >= a)
                    && e.valid_before.is_none_or(|b| at < b)
            });
            match (&credit, holder) {
                (Credit::Credited(by), Some(holder)) => {
                    assert_eq!(by.name, holder.name);
                    assert_eq!(by.key_id, entry.key.key_id);
                }
                (Credit::OutsideWindow { lines, .. }, None) => {
                    assert!(lines.iter().all(|l| l.key == entry.key));
                    assert!(credit.outside_window_detail().is_some());
                }
                (other, holder) => panic!(
                    "credit {other:?} at {at} for line {}: {holder:?}",
                    entry.line
                ),
            }
        }
    }
    let unlisted = "0".repeat(64);
    if !list.entries.iter().any(|e| e.key.key_id == unlisted) {
        let credit = list.credit(VerifiedSignature {
            key_id: &unlisted,
            at: 0,
        });
        assert_eq!(credit, Credit::NotListed);
    }
}
