//! The request checks: object A hashes to the framed subject, the request line to
//! `request_sha256`, and the canonical request, args hash and request members are what the
//! frame (v3) or the receipt's own tool and arguments (v2) project to.

use super::recompute::{self, Projection};
use super::Json;
use super::{
    compact, conclude, fail, mismatch, not_evaluated, pass, renders_as, Check, Ctx, Miss, Step,
};
use crate::finding::Code;
use std::borrow::Cow;

impl Ctx<'_> {
    pub(super) fn check_object_a(&mut self) -> Check {
        if self.version == Some(2) {
            return not_evaluated(
                "object-a",
                "record_version 2 receipts do not carry the frame; framed_subject_* are reported only",
            );
        }
        let result = (|| {
            let frame = self.frame.as_ref().ok_or_else(|| {
                Miss::Missing("signed_artifacts.object_a is missing or not base64".into())
            })?;
            let recorded = self.need_str("framed_subject_sha256")?;
            let length = self.get("framed_subject_length").and_then(Json::as_u64);
            if recorded != frame.subject_sha256 || length != Some(frame.subject_length) {
                return mismatch(format!(
                    "object A is {} bytes with sha256 {}, the receipt says {} bytes with sha256 {}",
                    frame.subject_length,
                    frame.subject_sha256,
                    length.map_or("?".into(), |l| l.to_string()),
                    recorded
                ));
            }
            Ok((frame.subject_sha256.clone(), frame.subject_length))
        })();
        match result {
            Ok((sha, len)) => {
                self.verify("framed_subject_sha256", sha);
                self.verify("framed_subject_length", len);
                pass(
                    "object-a",
                    "object A hashes to framed_subject_sha256 and length",
                )
            }
            Err(miss) => conclude("object-a", Code::ObjectAMismatch, Err(miss)),
        }
    }

    pub(super) fn check_request_hash(&mut self) -> Check {
        if self.version == Some(2) {
            return not_evaluated(
                "request-hash",
                "no frame in record_version 2; request_sha256 is only compared with the kernel audit line",
            );
        }
        let Some(frame) = &self.frame else {
            return not_evaluated("request-hash", "object A is missing");
        };
        let recomputed = frame.request_sha256.clone();
        match self.str_of("request_sha256") {
            Some(recorded) if recorded == recomputed => {
                self.verify("request_sha256", recomputed);
                pass("request-hash", "request_sha256 recomputed from object A")
            }
            recorded => fail(
                "request-hash",
                Code::RequestHashMismatch,
                format!(
                    "object A's request line hashes to {recomputed}, the receipt says {}",
                    recorded.unwrap_or("nothing")
                ),
            ),
        }
    }

    /// The projection to compare with: from object A (v3) or from the receipt's own request
    /// members under the `_meta`-blind rule (v2).
    ///
    /// Object A's projection is lent, not copied: it holds the arguments twice (alone and in
    /// the canonical request), and three checks read it.
    pub(super) fn projection(&self) -> Step<Cow<'_, Projection>> {
        match self.version {
            Some(3) => match &self.frame {
                Some(frame) => match &frame.projection {
                    Ok(projection) => Ok(Cow::Borrowed(projection)),
                    Err(why) => Err(Miss::Mismatch(why.clone())),
                },
                None => Err(Miss::Missing("object A is missing".into())),
            },
            _ => self.v2_projection().map(Cow::Owned),
        }
    }

    pub(super) fn v2_projection(&self) -> Step<Projection> {
        let (Some(tool), Some(arguments)) = (self.get("tool"), self.get("arguments")) else {
            return Err(Miss::Missing(
                "record_version 2 receipt without tool/arguments (request_parse_error)".into(),
            ));
        };
        let text = format!(
            r#"{{"name":{},"arguments":{}}}"#,
            String::from_utf8_lossy(&compact(tool)),
            String::from_utf8_lossy(&compact(arguments))
        );
        let node = crate::json::parse(&text, 256)
            .map_err(|e| Miss::Mismatch(format!("receipt request members: {}", e.message)))?;
        recompute::project(Some(&node), recompute::V2).map_err(Miss::Mismatch)
    }

    pub(super) fn check_canonical_request(&mut self) -> Check {
        let parse_error = self.str_of("request_parse_error");
        let result = match self.projection() {
            Err(Miss::Mismatch(why)) if self.version == Some(3) => match parse_error {
                Some(_) if self.get("canonical_request").is_none() => {
                    return pass(
                        "canonical-request",
                        format!("seal-host could not project the line either ({why}); the file is named by request_sha256"),
                    )
                }
                _ => mismatch(format!(
                    "object A does not project to a canonical request ({why}) but the receipt has one"
                )),
            },
            Err(miss) => Err(miss),
            Ok(projection) => (|| {
                let text = self.need_str("canonical_request")?;
                let sha = self.need_str("canonical_request_sha256")?;
                if text != projection.canonical_request {
                    return mismatch(format!(
                        "canonical_request differs from the recomputed {}",
                        projection.canonical_request
                    ));
                }
                if sha != projection.canonical_request_sha256 {
                    return mismatch(format!(
                        "canonical_request_sha256 is {sha}, the canonical request hashes to {}",
                        projection.canonical_request_sha256
                    ));
                }
                if parse_error.is_some() {
                    return mismatch("request_parse_error is present although the line projects");
                }
                Ok(projection.canonical_request_sha256.clone())
            })(),
        };
        match result {
            Ok(sha) => {
                self.verify("canonical_request_sha256", sha);
                let rule = if self.version == Some(2) {
                    "record_version 2 rule: no _meta / requestState / inputResponses, id 1, from the receipt's tool and arguments"
                } else {
                    "record_version 3 rule from object A: sorted _meta and context members, id 1"
                };
                match self.frame.as_ref().and_then(|f| f.refused_now.as_deref()) {
                    Some(code) => pass(
                        "canonical-request",
                        format!("{rule} (today's validation refuses this frame: {code}; seal-host's own rule applied)"),
                    ),
                    None => pass("canonical-request", rule),
                }
            }
            Err(miss) => conclude(
                "canonical-request",
                Code::CanonicalRequestMismatch,
                Err(miss),
            ),
        }
    }

    pub(super) fn check_args_hash(&mut self) -> Check {
        let result = (|| {
            let projection = self.projection()?;
            let recorded = self.need_str("args_hash")?;
            if recorded != projection.args_hash {
                return mismatch(format!(
                    "args_hash is {recorded}, the arguments hash to {}",
                    projection.args_hash
                ));
            }
            Ok(projection.args_hash.clone())
        })();
        match result {
            Ok(sha) => {
                self.verify("args_hash", sha);
                pass("args-hash", "")
            }
            Err(miss) => conclude("args-hash", Code::ArgsHashMismatch, Err(miss)),
        }
    }

    pub(super) fn check_request_fields(&self) -> Check {
        let result = (|| {
            let projection = self.projection()?;
            let request_sha256 = self.need_str("request_sha256")?;
            let view = self
                .get("effect_view")
                .and_then(Json::as_object)
                .ok_or_else(|| Miss::Missing("effect_view is missing".into()))?;
            let effect = view.get("effect").and_then(Json::as_object);
            let same = |value: Option<&Json<'_>>, expected: Option<&str>| match (value, expected) {
                (Some(value), Some(expected)) => renders_as(value, expected.as_bytes()),
                (value, expected) => value.is_none() && expected.is_none(),
            };
            let mut wrong = Vec::new();
            if self.str_of("tool") != Some(projection.tool.as_str()) {
                wrong.push("tool");
            }
            if effect
                .and_then(|e| e.get("resource"))
                .and_then(Json::as_str)
                != Some(projection.tool.as_str())
            {
                wrong.push("effect_view.effect.resource");
            }
            let context = self.version == Some(3);
            for (name, expected) in [
                ("arguments", Some(projection.arguments.as_str())),
                ("_meta", projection.meta.as_deref().filter(|_| context)),
                (
                    "requestState",
                    projection.request_state.as_deref().filter(|_| context),
                ),
                (
                    "inputResponses",
                    projection.input_responses.as_deref().filter(|_| context),
                ),
            ] {
                if !same(self.get(name), expected) {
                    wrong.push(name);
                }
                if !same(effect.and_then(|e| e.get(name)), expected) {
                    wrong.push(match name {
                        "arguments" => "effect_view.effect.arguments",
                        "_meta" => "effect_view.effect._meta",
                        "requestState" => "effect_view.effect.requestState",
                        _ => "effect_view.effect.inputResponses",
                    });
                }
            }
            if view.get("raw_preimage_sha256").and_then(Json::as_str) != Some(request_sha256) {
                wrong.push("effect_view.raw_preimage_sha256");
            }
            let session = view.get("session").and_then(Json::as_str).unwrap_or("");
            if view.get("idempotency_key").and_then(Json::as_str)
                != Some(format!("{session}:{request_sha256}").as_str())
            {
                wrong.push("effect_view.idempotency_key");
            }
            if wrong.is_empty() {
                Ok(if context {
                    "tool, arguments, _meta, requestState, inputResponses and effect_view match object A".to_owned()
                } else {
                    "effect_view matches the receipt's tool and arguments".to_owned()
                })
            } else {
                mismatch(format!("differs from the request: {}", wrong.join(", ")))
            }
        })();
        conclude("request-fields", Code::RequestFieldsMismatch, result)
    }
}
