//! Detached statement bundles, the input of seal-host's `receipt-verifier/verify.mjs`
//! (docs/formats.md): three statements `{payload, signature:{algorithm,
//! encoding, public_key, value}}`, each signed over `"seal.<role>-statement/v1" 0x00 ‖
//! u64_be(len(payload)) ‖ payload` by the key the user trusts for that role. The decision
//! line follows the issuer payload's `verification_profile.id`; reproducing a decision needs
//! the pinned kernel wasm, which the public snapshot lacks, so sealkit never claims
//! `DECISION REPRODUCED`.

use crate::json::{self, JsonValue, Node};
use crate::signature;
use serde::Serialize;

pub const CLOSED_PROFILE: &str = "seal.single-step-closed/v1";
pub const STATEFUL_PROFILE: &str = "seal.single-step-closed-stateful/v1";

/// The three roles, in output order.
pub const ROLES: [&str; 3] = ["issuer", "request", "approval"];

/// One statement's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StatementResult {
    pub role: &'static str,
    pub verified: bool,
    /// verify.mjs's line: `ISSUER AUTHENTICATED`, `REQUEST SIGNATURE NOT VERIFIED`, ….
    pub line: String,
    /// Why it did not verify (empty when it did).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
}

/// What can be said about the decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DecisionResult {
    /// `profile-absent`, `trace-required`, `unknown-profile`, `not-reproduced`,
    /// `wasm-absent`.
    pub state: &'static str,
    pub profile: Option<String>,
    pub line: String,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BundleReport {
    pub statements: Vec<StatementResult>,
    pub decision: DecisionResult,
    pub history: &'static str,
    pub execution: &'static str,
}

impl BundleReport {
    pub fn all_statements_verified(&self) -> bool {
        self.statements.iter().all(|s| s.verified)
    }
}

/// The trusted keys, one per role, as given on the command line (64 hex).
#[derive(Debug, Clone)]
pub struct Trust<'a> {
    pub issuer: &'a str,
    pub request: &'a str,
    pub approval: &'a str,
}

/// Evaluates a bundle's text. `Err` when the text is not a JSON object (verify.mjs:
/// `RECEIPT JSON UNREADABLE` / `RECEIPT UNREADABLE`).
pub fn evaluate(text: &str, trust: &Trust<'_>) -> Result<BundleReport, String> {
    let node =
        json::parse(text, 128).map_err(|e| format!("RECEIPT JSON UNREADABLE ({})", e.message))?;
    if !matches!(node.value, JsonValue::Object(_)) {
        return Err("RECEIPT UNREADABLE (not a JSON object)".into());
    }
    let statements = ROLES
        .iter()
        .map(|role| {
            let key = match *role {
                "issuer" => trust.issuer,
                "request" => trust.request,
                _ => trust.approval,
            };
            statement(node.value.get(&format!("{role}_statement")), role, key)
        })
        .collect();
    Ok(BundleReport {
        statements,
        decision: decision(&node),
        history: "HISTORY NOT INDEPENDENTLY VERIFIED",
        execution: "EXECUTION NOT ATTESTED",
    })
}

/// The first member name written twice in the bundle, or in a statement payload it carries
/// (the JSON the signatures cover). `None` when there is none, or when the bundle is not
/// JSON at all ([`evaluate`] says so).
pub fn duplicate_member(text: &str) -> Option<String> {
    let node = json::parse(text, json::DUPLICATE_SCAN_DEPTH).ok()?;
    if let Some(duplicate) = json::first_duplicate(&node) {
        return Some(duplicate.to_string());
    }
    ROLES.iter().find_map(|role| {
        let name = format!("{role}_statement");
        let payload = node
            .value
            .get(&name)?
            .value
            .get("payload")?
            .value
            .as_str()?;
        let duplicate = json::find_duplicate(payload).ok()??;
        Some(format!("{name}.payload: {duplicate}"))
    })
}

fn statement(node: Option<&Node<'_>>, role: &'static str, trusted: &str) -> StatementResult {
    let check = verify_statement(node, role, trusted);
    let (good, bad) = match role {
        "issuer" => ("ISSUER AUTHENTICATED", "ISSUER NOT AUTHENTICATED"),
        "request" => (
            "REQUEST SIGNATURE VERIFIED",
            "REQUEST SIGNATURE NOT VERIFIED",
        ),
        _ => (
            "APPROVAL SIGNATURE VERIFIED",
            "APPROVAL SIGNATURE NOT VERIFIED",
        ),
    };
    StatementResult {
        role,
        verified: check.is_ok(),
        line: if check.is_ok() { good } else { bad }.to_owned(),
        reason: check.err().unwrap_or_default(),
    }
}

fn verify_statement(node: Option<&Node<'_>>, role: &str, trusted: &str) -> Result<(), String> {
    let statement = node.ok_or("statement is absent")?;
    let payload = statement
        .value
        .get("payload")
        .and_then(|p| p.value.as_str())
        .ok_or("payload is not a string")?;
    let signature = statement
        .value
        .get("signature")
        .filter(|s| matches!(s.value, JsonValue::Object(_)))
        .ok_or("signature is absent")?;
    let field = |name: &str| signature.value.get(name).and_then(|v| v.value.as_str());
    if field("algorithm") != Some("Ed25519") || field("encoding") != Some("base64url-nopad") {
        return Err("signature algorithm/encoding is not Ed25519/base64url-nopad".into());
    }
    let public_key = field("public_key").ok_or("public_key is not a string")?;
    if public_key != trusted {
        return Err("public_key is not the trusted key for this role".into());
    }
    let key = signature::parse_key_hex(public_key).ok_or("public_key is not 64 lowercase hex")?;
    let value = field("value").ok_or("value is not a string")?;
    let signature = signature::decode_signature_64(value).map_err(|e| e.to_string())?;
    signature::verify_key_bytes(&key, &preimage(role, payload), &signature)
        .map_err(|e| e.to_string())
}

/// `"seal.<role>-statement/v1" 0x00 ‖ u64_be(len) ‖ payload`.
pub fn preimage(role: &str, payload: &str) -> Vec<u8> {
    let mut out = format!("seal.{role}-statement/v1\0").into_bytes();
    out.extend_from_slice(&(payload.len() as u64).to_be_bytes());
    out.extend_from_slice(payload.as_bytes());
    out
}

fn decision(bundle: &Node<'_>) -> DecisionResult {
    let issuer_payload = bundle
        .value
        .get("issuer_statement")
        .and_then(|s| s.value.get("payload"))
        .and_then(|p| p.value.as_str())
        .map(str::to_owned);
    let parsed = issuer_payload
        .as_deref()
        .and_then(|p| json::parse(p, 128).ok());
    let payload = parsed.as_ref();
    let profile = payload
        .and_then(|p| p.value.get("verification_profile"))
        .and_then(|v| v.value.get("id"))
        .and_then(|id| id.value.as_str())
        .filter(|id| !id.is_empty())
        .map(str::to_owned);
    let (state, line, detail) = match profile.as_deref() {
        None => (
            "profile-absent",
            "DECISION NOT EVALUATED — VERIFICATION PROFILE ABSENT".to_owned(),
            "the issuer statement names no verification profile".to_owned(),
        ),
        Some(STATEFUL_PROFILE) => (
            "trace-required",
            "TRACE REQUIRED".to_owned(),
            "a stateful receipt needs the kernel trace to reproduce its decision".to_owned(),
        ),
        Some(id) if id != CLOSED_PROFILE => (
            "unknown-profile",
            format!("DECISION NOT EVALUATED — UNKNOWN VERIFICATION PROFILE {id}"),
            format!("verification profile unknown: {id}"),
        ),
        Some(_) => closed_profile(payload),
    };
    DecisionResult {
        state,
        profile,
        line,
        detail,
    }
}

/// The closed profile: verify.mjs first requires the standalone-replay closure; only then
/// does it need the kernel wasm, which is absent.
fn closed_profile(payload: Option<&Node<'_>>) -> (&'static str, String, String) {
    let closure = payload.and_then(|p| p.value.get("standalone_replay_closure"));
    let member = |name: &str| closure.and_then(|c| c.value.get(name)).map(|n| &n.value);
    let holds = member("semantics").and_then(JsonValue::as_str) == Some("one-init-one-decide")
        && member("every_verdict_input_embedded") == Some(&JsonValue::Bool(true))
        && member("prior_kernel_state_required") == Some(&JsonValue::Bool(false))
        && member("prior_host_state_required") == Some(&JsonValue::Bool(false))
        && member("active_kernel_set_bound") == Some(&JsonValue::Bool(true))
        && member("omitted_state_influences") == Some(&JsonValue::Bool(false));
    if !holds {
        return (
            "not-reproduced",
            "DECISION NOT REPRODUCED".to_owned(),
            "the standalone replay closure conditions do not hold".to_owned(),
        );
    }
    let wasm = payload
        .and_then(|p| p.value.get("kernel_identity"))
        .and_then(|k| k.value.get("wasm_sha256"))
        .and_then(|w| w.value.as_str())
        .unwrap_or("(none)");
    (
        "wasm-absent",
        "DECISION NOT EVALUATED — KERNEL WASM ABSENT".to_owned(),
        format!("profile {CLOSED_PROFILE} replays the decision in the kernel wasm {wasm}, which sealkit does not have"),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn preimage_is_domain_nul_length_payload() {
        assert_eq!(
            preimage("issuer", "{}"),
            b"seal.issuer-statement/v1\0\0\0\0\0\0\0\0\x02{}".to_vec()
        );
    }
}
