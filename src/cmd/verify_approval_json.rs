//! The JSON record of one token line of `sealkit verify approval` (`"type":"token"`,
//! docs/json.md), written straight into the output buffer with the bytes serde_json writes for
//! `Typed { kind: "token", value: report }`: the line's texts and the signed approval's digests
//! go through the serde_json-compatible string writer (`json_write`); the small enums, a
//! decline, unauthenticated fields and the approver credit are written by serde_json. The unit
//! test below holds the bytes to serde_json's over accepted, declined and rejected lines.

use super::json_write::{integer, optional, serde_string, subject};
use crate::approval::line_reports::{LineReport, Signed, SignedApproval};
use std::io;

/// The record of `report`, `{"type":"token",…}`, appended to `out`.
pub(super) fn write_record(report: &LineReport, out: &mut Vec<u8>) -> io::Result<()> {
    out.extend_from_slice(b"{\"type\":\"token\",\"line\":");
    integer(report.line, out);
    out.extend_from_slice(b",\"status\":");
    serde_json::to_writer(&mut *out, &report.status)?;
    out.extend_from_slice(b",\"kind\":");
    serde_string(report.kind, out);
    out.extend_from_slice(b",\"reason\":");
    optional(report.reason.as_deref(), out);
    out.extend_from_slice(b",\"host_source\":");
    optional(report.host_source, out);
    out.extend_from_slice(b",\"host_record_id\":");
    optional(report.host_record_id.as_deref(), out);
    out.extend_from_slice(b",\"detail\":");
    optional(report.detail.as_deref(), out);
    out.extend_from_slice(b",\"signed\":");
    match &report.signed {
        None => out.extend_from_slice(b"null"),
        Some(Signed::Approval(approval)) => write_approval(approval, out),
        Some(decline @ Signed::Decline(_)) => serde_json::to_writer(&mut *out, decline)?,
    }
    out.extend_from_slice(b",\"binding\":");
    serde_json::to_writer(&mut *out, &report.binding)?;
    out.extend_from_slice(b",\"reported\":");
    serde_json::to_writer(&mut *out, &report.reported)?;
    if let Some(signed_by) = &report.signed_by {
        out.extend_from_slice(b",\"signed_by\":");
        serde_json::to_writer(&mut *out, signed_by)?;
    }
    out.push(b'}');
    Ok(())
}

fn write_approval(approval: &SignedApproval, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"target\":");
    serde_string(&approval.target, out);
    out.extend_from_slice(b",\"subject\":");
    subject(&approval.subject, out);
    out.extend_from_slice(b",\"authorized_at\":");
    integer(approval.authorized_at, out);
    out.extend_from_slice(b",\"expiry\":");
    integer(approval.expiry, out);
    out.extend_from_slice(b",\"nonce\":");
    serde_string(&approval.nonce, out);
    out.extend_from_slice(b",\"session\":");
    serde_string(&approval.session, out);
    out.extend_from_slice(b",\"approver\":");
    serde_string(&approval.approver, out);
    out.extend_from_slice(b",\"shown\":");
    subject(&approval.shown, out);
    out.extend_from_slice(b",\"renderer\":{\"name\":");
    serde_string(&approval.renderer.name, out);
    out.extend_from_slice(b",\"version\":");
    serde_string(&approval.renderer.version, out);
    out.extend_from_slice(b",\"manifest_sha256\":");
    serde_string(&approval.renderer.manifest_sha256, out);
    out.extend_from_slice(b"},\"signer_key_id\":");
    serde_string(&approval.signer_key_id, out);
    out.push(b'}');
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::approval::binding::Expectations;
    use crate::approval::line_reports::Checker;
    use crate::approval::sign::{sign_approval, sign_decline, ApprovalInputs};
    use crate::approval::Renderer;
    use crate::frame::Subject;
    use crate::keys::SecretKey;
    use crate::tokenfile::{Batch, LineReader};

    /// Accepted approvals (texts with quotes, backslashes, controls and non-ASCII), a decline, a
    /// repeated nonce, a binding mismatch, a damaged signature (unauthenticated fields
    /// reported), a line that is no JSON and one that is no token: each record's written bytes
    /// equal serde_json's. Seen red with the approval's `shown` written as its `subject`.
    #[test]
    fn written_records_are_serde_jsons_bytes() {
        let key = SecretKey::from_seed(&[0x31; 32]);
        let target = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";
        let approval = |nonce: &str, approver: &str, target: &str| {
            let inputs = ApprovalInputs {
                target: target.to_owned(),
                authorized_at: 1_786_000_000_000,
                expiry: 1_786_000_120_000,
                nonce: nonce.to_owned(),
                session: "s\"ession\\".to_owned(),
                subject: Subject::of(b"frame\n"),
                shown: Subject::of(b"shown"),
                renderer: Renderer {
                    name: "r\u{7f}é".to_owned(),
                    version: "1".to_owned(),
                    manifest_sha256: "0".repeat(64),
                },
                approver: approver.to_owned(),
            };
            sign_approval(&key, &inputs).unwrap().line
        };
        let other = "1".repeat(64);
        let damaged =
            approval("n-4", "a", target).replacen("\"signature\":\"", "\"signature\":\"A", 1);
        let lines = [
            approval("n-1", "ap\"prover\u{1}", target),
            sign_decline(&key, target, 1_786_000_000_000, "d-1").unwrap(),
            approval("n-1", "again", target),
            approval("n-3", "elsewhere", &other),
            damaged,
            "not json".to_owned(),
            "{\"a\":1}".to_owned(),
        ];
        let file = lines.join("\n") + "\n";
        let expected = Expectations {
            subject: Some(Subject::of(b"frame\n")),
            target: Some(target.to_owned()),
            now_ms: None,
            ttl_ms: 120_000,
        };
        let mut checker = Checker::new(&key.public, expected);
        let mut reader = LineReader::new(file.as_bytes());
        let mut batch = Batch::default();
        reader.next_batch(&mut batch, 64).unwrap();
        let reports = checker.check_batch(&batch);
        assert_eq!(reports.len(), lines.len());
        let mut kinds = std::collections::BTreeSet::new();
        for report in &reports {
            kinds.insert(format!(
                "{:?} {} {}",
                report.status,
                report.kind,
                report.reported.is_some()
            ));
            let expected = serde_json::to_vec(&super::super::Typed {
                kind: "token",
                value: report,
            })
            .unwrap();
            let mut written = Vec::new();
            write_record(report, &mut written).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
        // Accepted and rejected approvals, a decline, reported fields and none.
        assert!(kinds.len() >= 5, "{kinds:?}");
    }
}
