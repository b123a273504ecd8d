//! Which listed key a token line is verified under, when a trusted-approvers list replaces
//! the one `--pubkey`: the listed key its `signer_key_id` names (read without trusting it: it
//! only picks the key), or for a line naming none (a signed decline) each listed key in file
//! order until one verifies. Whether the verified record is then credited to a name is
//! [`crate::approvers::Approvers::credit`]'s decision, not this file's.

use super::verify::{verify_line, TokenVerdict};
use crate::approvers::Approvers;
use crate::keys::PublicKey;

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
