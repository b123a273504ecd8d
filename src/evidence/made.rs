//! The references `sealkit evidence ref` makes: one for a receipt that authenticates under
//! the pinned key, never one for any other.

use super::{digest, Canonicalization, EvidenceRef, SEAL_RECEIPT_SCHEMA, SEAL_RECEIPT_TYPE};
use crate::jcs::JcsError;
use crate::receipt::{self, pin::Pin, ReceiptStatus, Scratch};
use serde::Serialize;

/// What `sealkit evidence ref` makes of one receipt file: the receipt's status (or
/// `unreadable`: not a receipt) and its reference, or the findings that are why it gets none.
#[derive(Debug, Clone, Serialize)]
pub struct Made {
    pub status: &'static str,
    #[serde(rename = "evidenceRef", skip_serializing_if = "Option::is_none")]
    pub evidence_ref: Option<EvidenceRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<crate::finding::Finding>,
}

/// The reference for one receipt's bytes, when the receipt authenticates under `pin`
/// (`file_name` becomes its `ref`); a receipt that does not authenticate names nothing.
pub fn reference_for(
    bytes: &[u8],
    file_name: Option<&str>,
    pin: Option<&Pin>,
    scratch: &mut Scratch,
) -> Made {
    use crate::finding::{Code, Finding};
    let none = |status, findings| Made {
        status,
        evidence_ref: None,
        findings,
    };
    let report = match receipt::verify_bytes(bytes, pin, scratch) {
        Ok(report) => report,
        Err(problem) => {
            return none(
                "unreadable",
                vec![Finding::new(problem.code, None, problem.message)],
            )
        }
    };
    let status = report.status.as_str();
    if report.status != ReceiptStatus::Authenticated {
        return none(status, report.findings);
    }
    match receipt_ref(file_name, bytes) {
        Ok(evidence_ref) => Made {
            status,
            evidence_ref: Some(evidence_ref),
            findings: Vec::new(),
        },
        // A receipt serde_json read always has an RFC 8785 form; kept total all the same.
        Err(error) => none(
            status,
            vec![Finding::new(
                Code::InvalidJson,
                None,
                format!("no RFC 8785 form: {error}"),
            )],
        ),
    }
}

/// The reference `sealkit evidence ref` makes for an authenticated receipt: its digest under
/// RFC 8785, and `ref` its file name (none for a receipt read from standard input).
pub fn receipt_ref(file_name: Option<&str>, bytes: &[u8]) -> Result<EvidenceRef, JcsError> {
    Ok(EvidenceRef {
        kind: Some(SEAL_RECEIPT_TYPE.to_owned()),
        digest: Some(digest(Canonicalization::Rfc8785, bytes)?),
        canonicalization: Some(Canonicalization::Rfc8785.name().to_owned()),
        schema: Some(SEAL_RECEIPT_SCHEMA.to_owned()),
        reference: file_name.map(str::to_owned),
    })
}
