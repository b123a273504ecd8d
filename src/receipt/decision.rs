//! The decision check: verdict, reason, deny_kernel, authorization and the approval member
//! follow from the kernel route and certificates, as seal-host derives them.

use super::Json;
use super::{conclude, mismatch, Check, Ctx, Miss};
use crate::finding::Code;
use serde_json::Value;

impl Ctx<'_> {
    pub(super) fn check_decision(&self) -> Check {
        let result = (|| {
            let (step, _) = self.step()?;
            let certs = self
                .certs()
                .ok_or_else(|| Miss::Missing("certs is missing".into()))?;
            let route = step.get("route").and_then(Json::as_str);
            let denied = certs
                .iter()
                .find(|c| c.get("verdict").and_then(Json::as_str) == Some("deny"));
            let (verdict, reason, deny_kernel) = match (route, denied) {
                (Some("block"), Some(cert)) => {
                    let kernel = cert.get("kernel").and_then(Json::as_str).unwrap_or("");
                    let why = cert.get("reason").and_then(Json::as_str).unwrap_or("");
                    (
                        "BLOCK",
                        format!("{kernel} kernel: {why}"),
                        Value::String(kernel.into()),
                    )
                }
                (Some("block"), None) => ("BLOCK", "no kernel gated this call".into(), Value::Null),
                _ => ("ALLOW", "every gating kernel allows".into(), Value::Null),
            };
            let mut wrong = Vec::new();
            if self.str_of("verdict") != Some(verdict) {
                wrong.push(format!("verdict should be {verdict}"));
            }
            if self.str_of("reason") != Some(reason.as_str()) {
                wrong.push(format!("reason should be {reason:?}"));
            }
            let same_deny_kernel = match (self.get("deny_kernel"), &deny_kernel) {
                (Some(Json::String(recorded)), Value::String(expected)) => recorded == expected,
                (Some(Json::Null), Value::Null) => true,
                _ => false,
            };
            if !same_deny_kernel {
                wrong.push(format!("deny_kernel should be {deny_kernel}"));
            }
            let explicit = self.safety_reason() == Some("explicit policy allow");
            let authorization = (verdict == "ALLOW").then_some(if explicit {
                "explicit_policy_allow"
            } else {
                "approval"
            });
            if self.str_of("authorization") != authorization {
                wrong.push(format!(
                    "authorization should be {}",
                    authorization.unwrap_or("absent")
                ));
            }
            if let Some(problem) = self.approval_member_problem(authorization) {
                wrong.push(problem);
            }
            if wrong.is_empty() {
                Ok("verdict, reason, deny_kernel, authorization and approval follow from the route and certificates".to_owned())
            } else {
                mismatch(wrong.join("; "))
            }
        })();
        conclude("decision", Code::DecisionMismatch, result)
    }

    /// An approval-authorized ALLOW carries `approval` with `expiry = issued_at + policy TTL`;
    /// nothing else carries it.
    pub(super) fn approval_member_problem(&self, authorization: Option<&str>) -> Option<String> {
        let approval = self.get("approval");
        if authorization != Some("approval") {
            return approval
                .map(|_| "approval is present without an approval-authorized ALLOW".into());
        }
        let Some(approval) = approval.and_then(Json::as_object) else {
            return Some("an approval-authorized ALLOW lacks the approval member".into());
        };
        if let (Some(issued), Some(expiry)) = (
            approval.get("issued_at").and_then(Json::as_u64),
            approval.get("expiry").and_then(Json::as_u64),
        ) {
            let ttl = self.approval_ttl_ms();
            if Some(expiry) != issued.checked_add(ttl) {
                return Some(format!(
                    "approval.expiry is not issued_at + the policy TTL ({ttl} ms)"
                ));
            }
        }
        None
    }

    /// `safety.approval.ttl_seconds` × 1000, default 120 s, capped at 300 s.
    pub(super) fn approval_ttl_ms(&self) -> u64 {
        let seconds = self
            .get("kernel_config")
            .and_then(|c| c.pointer("/safety/approval/ttl_seconds"))
            .and_then(Json::as_u64)
            .unwrap_or(120);
        seconds.min(300) * 1000
    }
}
