//! The `bundle` fuzz target: detached statement bundles (receipt-verifier/verify.mjs input).

use super::lower_hex64;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ed25519_dalek::Signer;
use sealkit::bundle::Trust;
use sealkit::json::{self, JsonValue};
use sealkit::signature::GROUP_ORDER;
use std::sync::OnceLock;

/// The statement keys of testdata/receipts/bundles/trust.env and the seeds they come from.
const BUNDLE_TRUST: Trust<'static> = Trust {
    issuer: "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
    request: "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
    approval: "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
};
const BUNDLE_SEEDS: [u8; 3] = [0x01, 0x02, 0x03];
const BUNDLES: [&str; 4] = [
    include_str!("../../testdata/receipts/bundles/bundle-closed.json"),
    include_str!("../../testdata/receipts/bundles/bundle-noprofile.json"),
    include_str!("../../testdata/receipts/bundles/bundle-stateful.json"),
    include_str!("../../testdata/receipts/bundles/bundle-unknown.json"),
];

/// (role, payload, signature value) of every fixture statement.
fn fixture_statements() -> &'static [(String, String, String)] {
    static STATEMENTS: OnceLock<Vec<(String, String, String)>> = OnceLock::new();
    STATEMENTS.get_or_init(|| {
        let mut out = Vec::new();
        for bundle in BUNDLES {
            let value: serde_json::Value =
                serde_json::from_str(bundle).unwrap_or_else(|e| panic!("{e}"));
            for role in sealkit::bundle::ROLES {
                out.extend(statement_content(&value, role).map(|(p, s)| (role.to_owned(), p, s)));
            }
        }
        out
    })
}

fn statement_content(bundle: &serde_json::Value, role: &str) -> Option<(String, String)> {
    let statement = bundle.get(format!("{role}_statement"))?;
    let payload = statement.get("payload")?.as_str()?.to_owned();
    let value = statement
        .get("signature")?
        .get("value")?
        .as_str()?
        .to_owned();
    Some((payload, value))
}

/// The bundle as given and with every statement re-signed by its role's fixture seed: a
/// statement verifies exactly when a reference reading says its fields are right and its
/// signature holds (for the bundle as given, only with a fixture's signed content); the
/// decision is always one of the documented states and never claims a reproduction.
pub fn bundle(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check_bundle(text, false);
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let mut signed_any = false;
    for (role, seed) in sealkit::bundle::ROLES.iter().zip(BUNDLE_SEEDS) {
        let key = ed25519_dalek::SigningKey::from_bytes(&[seed; 32]);
        let Some(statement) = value.get_mut(format!("{role}_statement")) else {
            continue;
        };
        let Some(payload) = statement.get("payload").and_then(|p| p.as_str()) else {
            continue;
        };
        let signature = key
            .sign(&sealkit::bundle::preimage(role, payload))
            .to_bytes();
        if let Some(value) = statement
            .get_mut("signature")
            .and_then(|s| s.get_mut("value"))
        {
            *value = serde_json::Value::String(URL_SAFE_NO_PAD.encode(signature));
            signed_any = true;
        }
    }
    if signed_any {
        check_bundle(&value.to_string(), true);
    }
}

fn check_bundle(text: &str, resigned: bool) {
    let result = sealkit::bundle::evaluate(text, &BUNDLE_TRUST);
    let is_object = json::parse(text, 128).is_ok_and(|n| matches!(n.value, JsonValue::Object(_)));
    let report = match result {
        Ok(report) => {
            assert!(is_object, "evaluated a bundle that is not a JSON object");
            report
        }
        Err(_) => {
            assert!(!is_object, "refused a JSON object");
            return;
        }
    };
    serde_json::to_string(&report).unwrap_or_else(|e| panic!("{e}"));
    let value = serde_json::from_str::<serde_json::Value>(text).ok();
    let trusted = [
        BUNDLE_TRUST.issuer,
        BUNDLE_TRUST.request,
        BUNDLE_TRUST.approval,
    ];
    assert_eq!(report.statements.len(), 3);
    for ((statement, role), trusted) in report
        .statements
        .iter()
        .zip(sealkit::bundle::ROLES)
        .zip(trusted)
    {
        assert_eq!(statement.role, role);
        assert_eq!(statement.verified, statement.reason.is_empty());
        assert_eq!(
            statement.verified,
            !statement.line.contains(" NOT "),
            "{}",
            statement.line
        );
        let Some(value) = &value else {
            continue;
        };
        let expected = reference_statement(value, role, trusted);
        assert_eq!(statement.verified, expected, "{role}: {}", statement.reason);
        if statement.verified && !resigned {
            let (payload, signature) =
                statement_content(value, role).unwrap_or_else(|| panic!("verified"));
            assert!(
                fixture_statements().contains(&(role.to_owned(), payload, signature)),
                "{role} statement verified with content no fixture signed"
            );
        }
    }
    let decision = &report.decision;
    assert!(
        [
            "profile-absent",
            "trace-required",
            "unknown-profile",
            "not-reproduced",
            "wasm-absent"
        ]
        .contains(&decision.state),
        "{}",
        decision.state
    );
    assert!(
        decision.line.contains("NOT") || decision.line == "TRACE REQUIRED",
        "the decision claims more than sealkit can check: {}",
        decision.line
    );
    assert_eq!(
        decision.profile.is_none(),
        decision.state == "profile-absent"
    );
}

/// verify.mjs's statement rule, read with serde_json: Ed25519 / base64url-nopad, the
/// trusted key, a canonical 64-byte signature with S < L over
/// `"seal.<role>-statement/v1" 0x00 ‖ u64_be(len) ‖ payload`.
fn reference_statement(bundle: &serde_json::Value, role: &str, trusted: &str) -> bool {
    (|| {
        let statement = bundle.get(format!("{role}_statement"))?;
        let payload = statement.get("payload")?.as_str()?;
        let signature = statement.get("signature")?.as_object()?;
        let field = |name: &str| signature.get(name).and_then(|v| v.as_str());
        if field("algorithm")? != "Ed25519" || field("encoding")? != "base64url-nopad" {
            return None;
        }
        let public_key = field("public_key")?;
        if public_key != trusted || !lower_hex64(public_key) {
            return None;
        }
        let text = field("value")?;
        let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
        if URL_SAFE_NO_PAD.encode(&bytes) != text {
            return None;
        }
        let bytes: [u8; 64] = bytes.try_into().ok()?;
        if !bytes[32..].iter().rev().lt(GROUP_ORDER.iter().rev()) {
            return None;
        }
        let key_bytes: [u8; 32] = sealkit::digest::hex_decode(public_key)?.try_into().ok()?;
        let key = ed25519_dalek::VerifyingKey::from_bytes(&key_bytes).ok()?;
        let mut message = format!("seal.{role}-statement/v1\0").into_bytes();
        message.extend_from_slice(&(payload.len() as u64).to_be_bytes());
        message.extend_from_slice(payload.as_bytes());
        use ed25519_dalek::Verifier;
        key.verify(&message, &ed25519_dalek::Signature::from_bytes(&bytes))
            .ok()
    })()
    .is_some()
}
