//! Checking token lines against a trusted-approvers list instead of one key: the key a line
//! is verified under is the listed key its `signer_key_id` names (a signed decline names none,
//! so each listed key is tried), and a verified record is accepted only if that key's window
//! contains its time (`authorized_at`, or a decline's `issuedAt`). Accepted records name the
//! approver; a record signed by a listed key outside its window gets its own reason code.

use super::reason::Reason;
use super::report::{LineReport, Signed, TokenStatus};
use super::verify::{verify_line, TokenVerdict};
use crate::keys::approvers::{Approvers, Lookup};
use crate::keys::PublicKey;
use serde::Serialize;

/// sealkit's reason for a record signed by a listed key outside that key's window.
pub const OUTSIDE_WINDOW: &str = "approver-key-outside-window";

/// Who signed an accepted record, from the trusted-approvers list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignedBy {
    pub name: String,
    pub key_id: String,
}

/// Verifies one line under the listed key it names (or, for a line naming none, under each
/// listed key until one verifies). Returns the verdict and the key it was checked under.
pub fn verify_listed<'a>(text: &str, approvers: &'a Approvers) -> (TokenVerdict, &'a PublicKey) {
    let keys = approvers.keys();
    let named = named_key_id(text);
    if let Some(key_id) = &named {
        if let Some(key) = keys.iter().find(|k| &k.key_id == key_id) {
            return (verify_line(text, key), key);
        }
    }
    let mut first = None;
    for key in &keys {
        let verdict = verify_line(text, key);
        if !matches!(verdict, TokenVerdict::Rejected(_)) {
            return (verdict, key);
        }
        first.get_or_insert((verdict, *key));
    }
    match first {
        Some(found) => found,
        // `Approvers::parse` refuses an empty list, so there is always a first key.
        None => (
            verify_line(text, &approvers.entries[0].key),
            &approvers.entries[0].key,
        ),
    }
}

/// The `signer_key_id` member a token line names, read without trusting it (it only picks the
/// key to verify under).
fn named_key_id(text: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    value.get("signer_key_id")?.as_str().map(str::to_owned)
}

/// Names the approver of a verified record, or rejects it when the key's window does not
/// contain the record's time.
pub fn attribute(report: &mut LineReport, key: &PublicKey, approvers: &Approvers) {
    let at = match &report.signed {
        Some(Signed::Approval(approval)) => approval.authorized_at,
        Some(Signed::Decline(decline)) => decline.issued_at,
        None => {
            // The verifier compared the line's key id with one listed key; say what it means
            // for the list as a whole.
            if report.reason.as_deref() == Some(&*Reason::WrongSignerKeyId.code()) {
                report.detail =
                    Some("signer_key_id names no key in the trusted-approvers list".to_owned());
            }
            return;
        }
    };
    match approvers.lookup(&key.key_id, at) {
        Lookup::Valid(entry) => {
            report.signed_by = Some(SignedBy {
                name: entry.name.clone(),
                key_id: key.key_id.clone(),
            });
        }
        Lookup::OutsideWindow(entry) => {
            report.signed_by = Some(SignedBy {
                name: entry.name.clone(),
                key_id: key.key_id.clone(),
            });
            if report.status == TokenStatus::Accepted {
                report.status = TokenStatus::Rejected;
                report.reason = Some(OUTSIDE_WINDOW.to_owned());
                report.host_source = None;
                report.host_record_id = None;
                report.detail = Some(format!(
                    "signed by {}'s key, which the trusted-approvers list allows only {}; the \
                     record's time {at} ms lies outside",
                    entry.name,
                    window_text(entry.valid_after, entry.valid_before)
                ));
            }
        }
        Lookup::Unknown => {}
    }
}

/// A key's window in words, for messages.
pub fn window_text(after: Option<u64>, before: Option<u64>) -> String {
    match (after, before) {
        (Some(a), Some(b)) => format!("from {a} ms until before {b} ms"),
        (Some(a), None) => format!("from {a} ms on"),
        (None, Some(b)) => format!("before {b} ms"),
        (None, None) => "always".to_owned(),
    }
}
