//! Naming who authorized each approval-authorized ALLOW receipt, from a trusted-approvers
//! list. A receipt carries no approval token signature, only the approval statement it signs
//! (the approval key id and `authorized_at`), so the check is: the receipt signature verified
//! under the pinned receipt key, its statement passed its own check, and the list holds that
//! key with a window containing `authorized_at`. Nothing here is concluded from a receipt
//! whose signature did not verify under the pinned key.

use crate::approval::approvers::{window_text, SignedBy};
use crate::finding::{Code, Finding};
use crate::keys::approvers::{Approvers, Lookup};
use crate::receipt::{ReceiptReport, SignatureStatus};
use std::path::Path;

/// What the list says about one receipt.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Attribution {
    /// The listed approver whose key the statement names (also when outside its window).
    pub signed_by: Option<SignedBy>,
    pub finding: Option<Finding>,
}

/// Attributes `report`'s approval statement to a listed approver. A receipt without a
/// verified statement (no approval, a failed statement check, or a signature that did not
/// verify under the pinned key) gets nothing: its own findings already say why.
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
    match approvers.lookup(key_id, at) {
        Lookup::Valid(entry) => Attribution {
            signed_by: Some(SignedBy {
                name: entry.name.clone(),
                key_id: key_id.to_owned(),
            }),
            finding: None,
        },
        Lookup::OutsideWindow(entry) => Attribution {
            signed_by: Some(SignedBy {
                name: entry.name.clone(),
                key_id: key_id.to_owned(),
            }),
            finding: Some(Finding::new(
                Code::ApproverKeyOutsideWindow,
                path,
                format!(
                    "approved with {}'s key {key_id} at {at} ms, which the trusted-approvers \
                     list allows only {}",
                    entry.name,
                    windows(approvers, key_id)
                ),
            )),
        },
        Lookup::Unknown => Attribution {
            signed_by: None,
            finding: Some(Finding::new(
                Code::ApproverNotTrusted,
                path,
                format!(
                    "approved with key id {key_id} (at {at} ms), which the trusted-approvers \
                     list does not hold"
                ),
            )),
        },
    }
}

/// Every window the list gives `key_id`, in file order.
fn windows(approvers: &Approvers, key_id: &str) -> String {
    let texts: Vec<String> = approvers
        .entries
        .iter()
        .filter(|e| e.key.key_id == key_id)
        .map(|e| {
            format!(
                "{} (line {})",
                window_text(e.valid_after, e.valid_before),
                e.line
            )
        })
        .collect();
    texts.join(", or ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approval::approvers::OUTSIDE_WINDOW;

    /// `verify approval` and `audit` say the same fact with the same word.
    #[test]
    fn the_outside_window_code_is_verify_approvals_reason() {
        assert_eq!(Code::ApproverKeyOutsideWindow.as_str(), OUTSIDE_WINDOW);
    }
}
