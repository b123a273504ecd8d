//! The target check: the safety certificate's target is the host-profile target of object A
//! (v3) or the legacy target of the receipt's own tool and arguments (v2).

use super::recompute;
use super::Json;
use super::{compact, fail, not_applicable, not_evaluated, pass, Check, Ctx};
use crate::digest::is_sha256_hex;
use crate::finding::Code;

impl Ctx<'_> {
    pub(super) fn check_target(&mut self) -> Check {
        let Some(reason) = self.safety_reason() else {
            return not_applicable("target", "no safety certificate");
        };
        if !is_sha256_hex(reason) {
            return not_applicable("target", format!("no guard target (safety: {reason})"));
        }
        let server = self.server_identity();
        let (profile, recomputed) = if self.version == Some(3) {
            let Some(frame) = &self.frame else {
                return not_evaluated("target", "object A is missing");
            };
            (
                "host",
                frame
                    .host_target
                    .clone()
                    .ok_or("object A has no tool name to derive a target from".to_owned()),
            )
        } else {
            match self.v2_target(&server) {
                Ok(target) => ("legacy", target),
                Err(why) => return not_evaluated("target", why),
            }
        };
        match recomputed {
            Ok(target) if target == reason => {
                let key = if profile == "host" { "host_target" } else { "legacy_target" };
                self.verify(key, target);
                pass("target", format!("the safety certificate's target is the {profile}-profile target"))
            }
            Ok(target) => fail(
                "target",
                Code::TargetMismatch,
                format!("the safety certificate names {reason}; the {profile}-profile target of the request is {target}"),
            ),
            Err(why) => fail("target", Code::TargetMismatch, why),
        }
    }

    /// The legacy target of a v2 receipt's own tool and arguments. Arguments holding a
    /// non-integer number are not evaluated: the receipt keeps serde's rendering, not the
    /// literal the kernel saw.
    pub(super) fn v2_target(&self, server: &str) -> Result<Result<String, String>, String> {
        let tool = self.str_of("tool").ok_or("the receipt has no tool")?;
        let arguments = self
            .get("arguments")
            .ok_or("the receipt has no arguments")?;
        if has_float(arguments) {
            return Err("the arguments hold a non-integer number whose original literal is not in the receipt".into());
        }
        let text = String::from_utf8_lossy(&compact(arguments)).into_owned();
        let node = crate::json::parse(&text, 256).map_err(|e| e.message)?;
        Ok(recompute::legacy_target(server, tool, Some(&node)))
    }
}

pub(super) fn has_float(value: &Json<'_>) -> bool {
    match value {
        Json::Number(n) => n.is_f64(),
        Json::Array(items) => items.iter().any(has_float),
        Json::Object(map) => map.iter().any(|(_, value)| has_float(value)),
        _ => false,
    }
}
