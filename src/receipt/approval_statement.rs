//! The approval-statement check: a signed statement is a canonical ApprovalRecord v2 payload
//! bound to this frame, target, nonce and approval key, and is present exactly on an
//! approval-authorized ALLOW.

use super::Json;
use super::{conclude, fail, mismatch, not_applicable, pass, Check, Ctx, Miss};
use crate::finding::Code;

impl Ctx<'_> {
    pub(super) fn check_approval_statement(&mut self) -> Check {
        if self.version == Some(2) {
            return not_applicable(
                "approval-statement",
                "record_version 2 receipts carry no signed artifacts",
            );
        }
        let approval_allow = self.str_of("authorization") == Some("approval");
        let Some(bytes) = self.statement.clone() else {
            return if approval_allow {
                fail(
                    "approval-statement",
                    Code::ApprovalStatementInvalid,
                    "an approval-authorized ALLOW signs no approval statement",
                )
            } else {
                not_applicable(
                    "approval-statement",
                    "no approval statement (not an approval-authorized ALLOW)",
                )
            };
        };
        let result = (|| {
            let statement = approval_statement(&bytes).map_err(Miss::Mismatch)?;
            let mut wrong = Vec::new();
            if Some(statement.target.as_str()) != self.safety_reason() {
                wrong.push("target is not the safety certificate's target");
            }
            if Some(statement.subject_sha256.as_str()) != self.str_of("framed_subject_sha256")
                || Some(statement.subject_length)
                    != self.get("framed_subject_length").and_then(Json::as_u64)
            {
                wrong.push("subject_sha256/subject_length are not the framed subject");
            }
            let approval = self.get("approval");
            let field = |name: &str| approval.and_then(|a| a.get(name));
            if field("nonce").and_then(Json::as_str) != Some(statement.nonce.as_str()) {
                wrong.push("nonce is not approval.nonce");
            }
            if field("issued_at").and_then(Json::as_u64) != Some(statement.authorized_at) {
                wrong.push("authorized_at is not approval.issued_at");
            }
            if approval
                .and_then(|a| a.pointer("/approval_identity/key_id"))
                .and_then(Json::as_str)
                != Some(statement.authorization_signer_key_id.as_str())
            {
                wrong.push("authorization_signer_key_id is not approval.approval_identity.key_id");
            }
            if !approval_allow {
                wrong.push(
                    "a statement is signed into a receipt that is not an approval-authorized ALLOW",
                );
            }
            if wrong.is_empty() {
                Ok(statement)
            } else {
                mismatch(wrong.join("; "))
            }
        })();
        match result {
            Ok(statement) => {
                self.approval_statement = Some(statement.clone());
                self.verify("approval_statement_target", statement.target);
                // Who authorized the call and when, for a trusted-approvers check: as signed
                // into the receipt, so only as trustworthy as the receipt's signature.
                self.verify(
                    "approval_statement_signer_key_id",
                    statement.authorization_signer_key_id,
                );
                self.verify("approval_statement_authorized_at", statement.authorized_at);
                pass("approval-statement", "a canonical ApprovalRecord v2 payload bound to this frame, target, nonce and approval key (its token signature is not in the receipt)")
            }
            Err(miss) => conclude(
                "approval-statement",
                Code::ApprovalStatementInvalid,
                Err(miss),
            ),
        }
    }
}

/// The approval statement a record_version 3 receipt signs must be a valid, canonical
/// ApprovalRecord v2 payload (docs/formats.md, §1.3), checked with
/// `crate::approval` exactly as seal-host checks a token's payload; its token signature
/// is not in the receipt.
pub(super) fn approval_statement(
    bytes: &[u8],
) -> Result<crate::approval::payload::Payload, String> {
    use crate::approval::payload::Payload;
    let text = crate::utf8::str_of(bytes).map_err(|_| "statement is not UTF-8".to_owned())?;
    let payload = Payload::parse(text)
        .map_err(|e| format!("statement is not an ApprovalRecord v2 payload: {e}"))?;
    payload
        .validate()
        .map_err(|e| format!("statement field {e}"))?;
    match payload.is_canonical_text(bytes) {
        Ok(true) => Ok(payload),
        _ => Err("statement is not the canonical rendering of its own payload".to_owned()),
    }
}
