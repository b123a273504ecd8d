//! The audit-line check: the kernel audit line inside `emitted_bytes` names the receipt's
//! request hash, certificates (with correct certificate hashes), tool and verdict.

use super::{
    conclude, mismatch, same_compact, tree, Check, Ctx, Json, Miss, ParsedStep, Step, StepParts,
};
use crate::finding::Code;

pub(super) fn parse_step(emitted: &str) -> Result<ParsedStep, String> {
    let (step, step_lost) =
        tree::read(emitted).map_err(|e| format!("emitted_bytes is not JSON: {e}"))?;
    let Json::Object(step) = step.into_owned() else {
        return Err("emitted_bytes is not a JSON object".into());
    };
    let audit_line = step
        .get("audit")
        .and_then(Json::as_str)
        .ok_or("emitted_bytes has no audit line")?
        .to_owned();
    let (audit, audit_lost) =
        tree::read(&audit_line).map_err(|e| format!("the audit line is not JSON: {e}"))?;
    let Json::Object(audit) = audit.into_owned() else {
        return Err("the audit line is not a JSON object".into());
    };
    Ok(ParsedStep {
        step,
        step_lost,
        audit,
        audit_lost,
        audit_line,
    })
}

impl Ctx<'_> {
    /// The step output and its audit line, read once (with the duplicate-member check when
    /// the checks start from the file's bytes).
    pub(super) fn step(&self) -> Step<StepParts<'_>> {
        match &self.step {
            None => Err(Miss::Missing(
                "emitted_bytes is missing or not a string".into(),
            )),
            Some(Err(why)) => Err(Miss::Mismatch(why.clone())),
            Some(Ok(parsed)) => Ok((&parsed.step, &parsed.audit)),
        }
    }

    pub(super) fn check_audit(&self) -> Check {
        let result = (|| {
            let (step, audit) = self.step()?;
            let request_sha256 = self.need_str("request_sha256")?;
            let certs = self
                .certs()
                .ok_or_else(|| Miss::Missing("certs is missing".into()))?;
            let mut wrong = Vec::new();
            if audit.get("request_sha256").and_then(Json::as_str) != Some(request_sha256) {
                wrong.push("the audit's request_sha256 is not the receipt's".to_owned());
            }
            let same_certs = audit
                .get("certs")
                .and_then(Json::as_array)
                .is_some_and(|a| {
                    a.len() == certs.len() && a.iter().zip(certs).all(|(x, y)| same_compact(x, y))
                });
            if !same_certs {
                wrong.push("the audit's certs are not the receipt's".into());
            }
            if let (Some(tool), Some(audit_tool)) = (self.str_of("tool"), audit.get("tool")) {
                if audit_tool.as_str() != Some(tool) {
                    wrong.push("the audit's tool is not the receipt's".into());
                }
            }
            for (i, cert) in certs.iter().enumerate() {
                if let Some(problem) = cert_hash_problem(cert) {
                    wrong.push(format!("certs[{i}]: {problem}"));
                }
            }
            let route = step.get("route").and_then(Json::as_str);
            let expected = match route {
                Some("forward") => "ALLOW",
                Some("block") => "BLOCK",
                _ => "",
            };
            if self.str_of("verdict") != Some(expected) {
                wrong.push(format!(
                    "route {} does not give verdict {}",
                    route.unwrap_or("(none)"),
                    self.str_of("verdict").unwrap_or("(none)")
                ));
            }
            if wrong.is_empty() {
                Ok("request_sha256, certs, certificate hashes and route agree with the kernel audit line".to_owned())
            } else {
                mismatch(wrong.join("; "))
            }
        })();
        conclude("audit", Code::AuditMismatch, result)
    }
}

/// A certificate's `certHash`: the 64-bit rolling hash of `encodeParts([kernel, verdict,
/// reason])`, decimal (docs/formats.md).
pub fn cert_hash(kernel: &str, verdict: &str, reason: &str) -> String {
    let mut h: u64 = 14_695_981_039_346_656_037;
    let mut step = |c: char| {
        h = h
            .wrapping_mul(1_099_511_628_211)
            .wrapping_add(u64::from(u32::from(c)));
    };
    for part in [kernel, verdict, reason] {
        part.chars().count().to_string().chars().for_each(&mut step);
        step(':');
        part.chars().for_each(&mut step);
    }
    h.to_string()
}

pub(super) fn cert_hash_problem(cert: &Json<'_>) -> Option<String> {
    let field = |name: &str| cert.get(name).and_then(Json::as_str);
    let (Some(kernel), Some(verdict), Some(reason), Some(recorded)) = (
        field("kernel"),
        field("verdict"),
        field("reason"),
        field("certHash"),
    ) else {
        return Some("certificate members missing".into());
    };
    let expected = cert_hash(kernel, verdict, reason);
    (recorded != expected).then(|| format!("certHash {recorded} should be {expected}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn cert_hash_matches_the_fact_sheet_vector() {
        assert_eq!(
            cert_hash("safety", "allow", "explicit policy allow"),
            "15988675559853727781"
        );
    }

    /// A certificate whose `certHash` is not the hash of its parts is named, with the hash it
    /// should have; members missing are named too. The receipt-level tests change one copy of
    /// the certificates, which the comparison with the audit line also catches: this is the
    /// test of a forgery consistent in both copies. Seen red under cargo-mutants'
    /// `cert_hash_problem` → `None`, which the whole suite missed before (session 9).
    #[test]
    fn a_certificate_whose_hash_is_not_its_parts_is_named() {
        let cert = |hash: &str| {
            format!(
                r#"{{"kernel":"safety","verdict":"allow","reason":"explicit policy allow","certHash":"{hash}"}}"#
            )
        };
        let good = cert("15988675559853727781");
        let (node, _) = tree::read(&good).unwrap();
        assert_eq!(cert_hash_problem(&node), None);
        let forged = cert("15988675559853727782");
        let (node, _) = tree::read(&forged).unwrap();
        assert_eq!(
            cert_hash_problem(&node).as_deref(),
            Some("certHash 15988675559853727782 should be 15988675559853727781")
        );
        let (node, _) = tree::read(r#"{"kernel":"safety","verdict":"allow"}"#).unwrap();
        assert_eq!(
            cert_hash_problem(&node).as_deref(),
            Some("certificate members missing")
        );
    }
}
