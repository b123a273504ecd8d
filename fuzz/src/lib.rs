//! The invariants every fuzz target checks: one file and one function per target, each taking
//! arbitrary bytes and panicking only when sealkit breaks a stated property. Nothing here
//! depends on libFuzzer, so `tests/it/fuzz_corpus.rs` in the main crate includes this module and
//! replays the committed seed corpora and regression inputs through the same checks in
//! every `cargo test`. This file declares the targets and the helpers several of them use.
//!
//! Properties beyond "no panic": identities are 64 lowercase hex digits and agree with a
//! recomputation; committed equals host when no context value is present; Lean compress
//! is a fixpoint (its output re-parses and re-renders to itself); the wire guards agree
//! with slow reference definitions on every text that parses; the V2 reader accepts
//! exactly the serializer's output; the envelope message decodes back to its fields.

use sealkit::digest::is_sha256_hex;

mod approval_token;
mod approval_verify;
mod audit_names;
mod bundle;
mod canonical;
mod capture_members;
mod chain;
mod envelope;
mod frame_pipeline;
mod jcs;
mod key_files;
mod meta_values;
mod migration_record;
mod receipt;
mod trusted_approvers;
mod v2_reader;
mod wire_guards;

pub use approval_token::approval_token;
pub use approval_verify::approval_verify;
pub use audit_names::audit_names;
pub use bundle::bundle;
pub use canonical::canonical;
pub use capture_members::capture_members;
pub use chain::chain;
pub use envelope::envelope;
pub use frame_pipeline::frame_pipeline;
pub use jcs::jcs;
pub use key_files::key_files;
pub use meta_values::meta_values;
pub use migration_record::migration_record;
pub use receipt::receipt;
pub use trusted_approvers::trusted_approvers;
pub use v2_reader::v2_reader;
pub use wire_guards::wire_guards;

/// A target's check: panics exactly when an invariant breaks.
pub type Check = fn(&[u8]);

/// Every target, by name, for corpus replay.
pub const TARGETS: &[(&str, Check)] = &[
    ("frame_pipeline", frame_pipeline),
    ("canonical", canonical),
    ("wire_guards", wire_guards),
    ("v2_reader", v2_reader),
    ("envelope", envelope),
    ("meta_values", meta_values),
    ("approval_token", approval_token),
    ("approval_verify", approval_verify),
    ("receipt", receipt),
    ("chain", chain),
    ("migration_record", migration_record),
    ("bundle", bundle),
    ("audit_names", audit_names),
    ("jcs", jcs),
    ("trusted_approvers", trusted_approvers),
    ("key_files", key_files),
    ("capture_members", capture_members),
];

// ---------------------------------------------------------------------------------------
// Helpers more than one target uses.

fn is_lower_hex64(text: &str) -> bool {
    is_sha256_hex(text) && !text.bytes().any(|b| b.is_ascii_uppercase())
}

const TOOL_SPECS: &str = r#"{"db.execute":{"version":"v1","manifest_digest":"manifest-001"},"t":{"version":"2","manifest_digest":"d"}}"#;

/// Deepest nesting the renderer targets parse (deeper than any guard allows).
const PARSE_DEPTH: usize = 512;

/// serde_json's reader refuses more nesting than this.
const SERDE_JSON_DEPTH: usize = 128;

/// Containers nested in a parsed value.
fn depth(node: &sealkit::json::Node<'_>) -> usize {
    use sealkit::json::JsonValue;
    match &node.value {
        JsonValue::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        JsonValue::Object(members) => {
            1 + members.iter().map(|m| depth(&m.value)).max().unwrap_or(0)
        }
        _ => 0,
    }
}

// Phase 2 (approvals, receipts, chains, migration outputs, bundles, directory names): the
// fixtures those targets use are the throwaway keys and signed artifacts of testdata/,
// compiled in so that the checks need no files at run time.

/// 64 lowercase hex digits (written independently of `digest::is_sha256_hex`).
fn lower_hex64(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A number in `0..n` picked by the input bytes and a salt, so that one input drives
/// several independent choices deterministically (FNV-1a).
fn pick(data: &[u8], salt: u64, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let mut hash = 0xcbf2_9ce4_8422_2325u64 ^ salt;
    for &b in data {
        hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (hash % n as u64) as usize
}

/// The first `n` lines of a text, as `str::lines` splits it.
fn first_lines(text: &str, n: usize) -> impl Iterator<Item = &str> {
    text.lines().take(n)
}
