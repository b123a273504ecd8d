//! Crediting each approval-authorized ALLOW receipt to a trusted approver. A receipt carries
//! no approval token signature, only the approval statement it signs (the approval key id and
//! `authorized_at`): the statement counts as verified when the receipt signature verified
//! under the pinned receipt key and the statement passed its own check. Whether it is then
//! credited to a name is [`Approvers::credit`]'s decision (the same rule as for token lines);
//! nothing here is concluded from a receipt whose signature did not verify.

use crate::approvers::{Approvers, Credit, SignedBy, VerifiedSignature};
use crate::finding::{Code, Finding};
use crate::receipt::{ReceiptReport, SignatureStatus};
use crate::timestamp::rfc3339;
use std::path::Path;

/// What the list says about one receipt.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Attribution {
    /// The approver credited with the receipt's approval (only inside the key's window).
    pub signed_by: Option<SignedBy>,
    pub finding: Option<Finding>,
}

/// Credits `report`'s approval statement to a listed approver. A receipt without a verified
/// statement (no approval, a failed statement check, or a signature that did not verify under
/// the pinned key) gets nothing: its own findings already say why.
pub fn attribute(report: &ReceiptReport, approvers: &Approvers, path: &Path) -> Attribution {
    if report.signature.status != SignatureStatus::Verified {
        return Attribution::default();
    }
    let key_id = report
        .verified
        .get("approval_statement_signer_key_id")
        .and_then(|v| v.as_str());
    let at = report
        .verified
        .get("approval_statement_authorized_at")
        .and_then(serde_json::Value::as_u64);
    let (Some(key_id), Some(at)) = (key_id, at) else {
        return Attribution::default();
    };
    let path = Some(path.to_path_buf());
    let credit = approvers.credit(VerifiedSignature { key_id, at });
    if let Some(detail) = credit.outside_window_detail() {
        return Attribution {
            signed_by: None,
            finding: Some(Finding::new(
                Code::ApproverKeyOutsideWindow,
                path,
                format!("the receipt's approval statement is {detail}"),
            )),
        };
    }
    match credit {
        Credit::Credited(signed_by) => Attribution {
            signed_by: Some(signed_by),
            finding: None,
        },
        Credit::OutsideWindow { .. } | Credit::NotListed => Attribution {
            signed_by: None,
            finding: Some(Finding::new(
                Code::ApproverNotTrusted,
                path,
                format!(
                    "approved with key id {key_id} (at {}), which the trusted-approvers list \
                     does not hold",
                    rfc3339(at)
                ),
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approval::line_reports::OUTSIDE_WINDOW;

    /// `verify approval` and `audit` say the same fact with the same word.
    #[test]
    fn the_outside_window_code_is_verify_approvals_reason() {
        assert_eq!(Code::ApproverKeyOutsideWindow.as_str(), OUTSIDE_WINDOW);
    }
}
