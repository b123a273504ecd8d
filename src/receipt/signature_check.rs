//! The receipt signature check: the `seal.object-b/v2` Ed25519 signature verifies over the exact
//! preimage under the embedded key, and the verdict says whether that key is the pinned one
//! (the embedded key is reported, never trusted).

use super::Json;
use super::{pin, preimage, Ctx, SignatureReport, SignatureStatus};
use crate::digest::sha256_hex;
use crate::signature;

impl Ctx<'_> {
    /// `host_layout`: the file's bytes when they passed the layout check.
    pub(super) fn check_signature(
        &mut self,
        pin: Option<&pin::Pin>,
        host_layout: Option<&[u8]>,
    ) -> SignatureReport {
        let mut report = SignatureReport {
            status: SignatureStatus::Invalid,
            reported_public_key: None,
            reported_key_id: None,
            pinned_public_key: pin.map(pin::Pin::public_key_hex),
            pin_source: pin.map(|p| p.source.kind()),
            detail: String::new(),
        };
        let block = match preimage::signature_block(self.receipt) {
            Ok(block) => block,
            Err(detail) => {
                report.detail = detail;
                return report;
            }
        };
        report.reported_public_key = Some(block.public_key.clone());
        report.reported_key_id = Some(block.key_id.clone());
        let Some(embedded) = signature::parse_key_hex(&block.public_key) else {
            report.detail = "signature.public_key is not 64 lowercase hex digits".into();
            return report;
        };
        if block.key_id != sha256_hex(&embedded) {
            report.detail = "signature.key_id is not the SHA-256 of signature.public_key".into();
            return report;
        }
        if self.receipt.keys().next_back() != Some("signature") {
            report.detail =
                "signature is not the last member (seal-host always writes it last)".into();
            return report;
        }
        // Only a signature under the pinned key can be `verified`, and only its curve check
        // is worth leaving to a batch.
        let defer = self.defer_curve && pin.is_some_and(|pin| pin.public_key == embedded);
        let result = self
            .verify_lock(&embedded, &block.value, host_layout, defer)
            .map(|challenge| self.challenge = challenge);
        match (result, pin) {
            (Err(detail), _) => {
                report.detail = detail;
            }
            (Ok(()), Some(pin)) if pin.public_key == embedded => {
                report.status = SignatureStatus::Verified;
                report.detail = format!(
                    "seal.object-b/v2 signature verified under the pinned key ({})",
                    pin.source.describe()
                );
            }
            (Ok(()), Some(pin)) => {
                report.status = SignatureStatus::SignerMismatch;
                report.detail = format!(
                    "signed by {} (valid under that key), not by the pinned key {}",
                    block.public_key,
                    pin.public_key_hex()
                );
            }
            (Ok(()), None) => {
                report.status = SignatureStatus::SignerUnpinned;
                report.detail = format!(
                    "valid under the receipt's own key {}, which is not trusted: pin the installation's receipt key with --receipt-key",
                    block.public_key
                );
            }
        }
        report
    }

    /// Verifies the preimage under `key`, hashing it as it is produced. Object B is read off
    /// `host_layout` (the file's bytes, when in seal-host's layout), else re-serialized.
    /// With `defer`, the curve check is left out and the signature's challenge handed back.
    pub(super) fn verify_lock(
        &mut self,
        key: &[u8; 32],
        value: &str,
        host_layout: Option<&[u8]>,
        defer: bool,
    ) -> Result<Option<signature::Challenge>, String> {
        let signature = signature::decode_signature_64(value).map_err(|e| e.to_string())?;
        let object_a = self
            .object_a
            .as_deref()
            .ok_or("signed_artifacts.object_a is missing or not base64")?;
        let artifacts_statement = self
            .get("signed_artifacts")
            .and_then(|a| a.get("approval_statement"));
        let statement = match artifacts_statement {
            None | Some(Json::Null) => None,
            Some(_) => Some(
                self.statement
                    .as_deref()
                    .ok_or("approval_statement is not base64")?,
            ),
        };
        let parts = preimage::LockParts {
            object_a,
            approval_statement: statement,
            release_tag: self
                .str_of("release_status")
                .and_then(preimage::release_tag)
                .ok_or("bad release_status")?,
            operation_id: self
                .str_of("operation_id")
                .ok_or("signed receipt lacks operation_id")?,
            durability_tag: self
                .str_of("durability_class")
                .and_then(preimage::durability_tag)
                .ok_or("bad durability_class")?,
        };
        let scratch = &mut *self.scratch;
        let object_b = match host_layout.and_then(preimage::host_layout_members) {
            Some(members) => preimage::ObjectB::HostLayout(members),
            None => {
                scratch.object_b.clear();
                preimage::write_read_object_b(self.receipt, &mut scratch.object_b)?;
                preimage::ObjectB::Compact(&scratch.object_b)
            }
        };
        let key = scratch.keys.get(key).map_err(|e| e.to_string())?;
        let feed = |message: &mut signature::MessageStream| {
            preimage::stream_preimage(&parts, object_b, &mut |piece| message.update(piece))
        };
        // The challenge is computed in every case: it is also the signed content's identity.
        let challenge =
            signature::challenge_streamed(key, &signature, feed).map_err(|e| e.to_string())?;
        self.signed_content = Some(signed_content(&challenge));
        if defer {
            Ok(Some(challenge))
        } else {
            signature::verify_challenge(key, &challenge)
                .map(|()| None)
                .map_err(|e| e.to_string())
        }
    }
}

/// [`super::Facts::signed_content`]: SHA-256 over the 64 signature bytes and the 32 bytes of
/// its challenge scalar.
fn signed_content(challenge: &signature::Challenge) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    hash.update(b"sealkit signed content v1\0");
    hash.update(challenge.signature);
    hash.update(challenge.k.as_bytes());
    hash.finalize().into()
}
