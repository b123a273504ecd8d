//! The config checks: `kernel_config` is the signed config payload, whose signature verifies
//! under the key the receipt names (reported, not pinned), and every `policy_hash` is its hash.

use super::{
    compact, conclude, mismatch, pass, pointer_in, same_compact, Check, ConfigFacts, Ctx, Miss,
    Step,
};
use super::{tree, Json};
use crate::digest::sha256_hex;
use crate::finding::Code;
use crate::signature;

impl Ctx<'_> {
    /// The facts of the receipt's signed config, worked out once per distinct config.
    pub(super) fn config_facts(&mut self) -> Step<&ConfigFacts> {
        let signed = self
            .get("signed_config")
            .and_then(Json::as_object)
            .ok_or_else(|| Miss::Missing("signed_config is missing".into()))?;
        let field = |name: &str| signed.get(name).and_then(Json::as_str).unwrap_or("");
        let (payload, signature, pubkey) = (field("payload"), field("signature"), field("pubkey"));
        let key = cache_key(&[payload, signature, pubkey]);
        let configs = &mut self.scratch.configs;
        if !configs.contains_key(&key) {
            let parsed = tree::read(payload)
                .map(|(payload, _)| payload.into_owned())
                .map_err(|e| format!("signed_config.payload is not JSON: {e}"));
            let facts = ConfigFacts {
                policy_hash: parsed.as_ref().ok().map(|v| sha256_hex(&compact(v))),
                payload: parsed,
                signature: config_signature(payload, signature, pubkey),
            };
            if configs.len() > 64 {
                configs.clear();
            }
            configs.insert(key, facts);
        }
        configs
            .get(&key)
            .ok_or_else(|| Miss::Missing("signed_config facts".into()))
    }

    pub(super) fn check_config(&mut self) -> Check {
        let receipt = self.receipt;
        let result = (|| {
            let facts = self.config_facts()?;
            let kernel_config = receipt
                .get("kernel_config")
                .ok_or_else(|| Miss::Missing("kernel_config is missing".into()))?;
            let payload = facts
                .payload
                .as_ref()
                .map_err(|e| Miss::Mismatch(e.clone()))?;
            if !same_compact(kernel_config, payload) {
                return mismatch("kernel_config is not the parsed signed_config.payload");
            }
            let (policy_hash, signature) = (facts.policy_hash.clone(), facts.signature.clone());
            self.policy_hash = policy_hash;
            signature.map_err(Miss::Mismatch)?;
            let pubkey = receipt
                .get("signed_config")
                .and_then(|s| s.get("pubkey"))
                .and_then(Json::as_str)
                .unwrap_or("");
            Ok(format!("kernel_config is the signed payload; its signature verifies under the config key the receipt names ({pubkey}, reported, not pinned)"))
        })();
        conclude("config", Code::ConfigMismatch, result)
    }

    pub(super) fn check_policy_hash(&mut self) -> Check {
        let result = (|| {
            let kernel_config = self
                .get("kernel_config")
                .ok_or_else(|| Miss::Missing("kernel_config is missing".into()))?;
            // Equal to the signed payload's hash when the config check matched them.
            let policy_hash = match &self.policy_hash {
                Some(hash) => hash.clone(),
                None => sha256_hex(&compact(kernel_config)),
            };
            let mut places = 0;
            for pointer in ["/effect_view/policy_hash", "/approval/policy_hash"] {
                if let Some(value) = pointer_in(self.receipt, pointer) {
                    places += 1;
                    if value.as_str() != Some(policy_hash.as_str()) {
                        return mismatch(format!(
                            "{} is not sha256(compact kernel_config) = {policy_hash}",
                            &pointer[1..].replace('/', ".")
                        ));
                    }
                }
            }
            if let (Some(version), Some(epoch)) = (
                pointer_in(self.receipt, "/effect_view/policy_version"),
                kernel_config.get("epoch"),
            ) {
                if version != epoch {
                    return mismatch("effect_view.policy_version is not kernel_config.epoch");
                }
            }
            if places == 0 {
                return Err(Miss::Missing("no policy_hash in this receipt".into()));
            }
            Ok(policy_hash)
        })();
        match result {
            Ok(hash) => {
                self.verify("policy_hash", hash);
                pass("policy-hash", "")
            }
            Err(miss) => conclude("policy-hash", Code::PolicyHashMismatch, Err(miss)),
        }
    }
}

pub(super) fn cache_key(parts: &[&str]) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_be_bytes());
        hasher.update(part.as_bytes());
    }
    hasher.finalize().into()
}

/// The config envelope's Ed25519 signature (128 hex) over the exact payload bytes, under the
/// key the envelope names.
pub(super) fn config_signature(payload: &str, signature: &str, pubkey: &str) -> Result<(), String> {
    let key = signature::parse_key_hex(pubkey)
        .ok_or("signed_config.pubkey is not 64 lowercase hex digits")?;
    let signature: [u8; 64] = crate::digest::hex_decode(signature)
        .and_then(|b| b.try_into().ok())
        .ok_or("signed_config.signature is not 128 hex digits")?;
    signature::verify_key_bytes(&key, payload.as_bytes(), &signature)
        .map_err(|e| format!("signed_config signature: {e}"))
}
