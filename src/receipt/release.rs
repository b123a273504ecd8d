//! The release check: an ALLOW's release frame is object A with the operation id spliced in,
//! `post_state_hash` binds it, and an unconfirmed release is a finding; a BLOCK has none.

use super::outline::Outline;
use super::Json;
use super::{compact, conclude, fail, mismatch, not_applicable, pass, Check, Ctx, Miss, Step};
use crate::digest::{is_sha256_hex, sha256_hex};
use crate::finding::Code;
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

impl Ctx<'_> {
    pub(super) fn check_release(&mut self) -> Check {
        if self.version == Some(2) {
            return not_applicable(
                "release",
                "record_version 2 receipts have no release fields",
            );
        }
        let result = self.release_result();
        match result {
            Ok(detail) => {
                if let Some(sha) = self.release_frame_sha256.clone() {
                    self.verify("release_frame_sha256", sha);
                    if let Some(post) = self.str_of("post_state_hash") {
                        self.verify("post_state_hash", post.to_owned());
                    }
                }
                match self.str_of("release_status") {
                    Some(status @ ("PENDING" | "UNKNOWN")) => fail(
                        "release",
                        Code::ReleaseUnconfirmed,
                        format!("release_status is {status}: the host never confirmed the release ({detail})"),
                    ),
                    _ => pass("release", detail),
                }
            }
            Err(miss) => conclude("release", Code::ReleaseMismatch, Err(miss)),
        }
    }

    pub(super) fn release_result(&mut self) -> Step<String> {
        let verdict = self.need_str("verdict")?;
        let status = self.need_str("release_status")?;
        let operation_id = self.need_str("operation_id")?;
        if !is_sha256_hex(operation_id) {
            return mismatch("operation_id is not 64 lowercase hex digits");
        }
        let release_members = ["release_valid_until", "post_state_hash", "release_frame"];
        if verdict == "BLOCK" {
            if status != "NOT_APPLICABLE" {
                return mismatch(format!("a BLOCK has release_status {status}"));
            }
            if release_members.iter().any(|m| self.get(m).is_some()) {
                return mismatch("a BLOCK carries release fields");
            }
            return Ok("BLOCK: NOT_APPLICABLE, no release".into());
        }
        if status == "NOT_APPLICABLE" {
            return mismatch("an ALLOW has release_status NOT_APPLICABLE");
        }
        let frame_object = self
            .get("release_frame")
            .and_then(Json::as_object)
            .ok_or(Miss::Mismatch("an ALLOW lacks release_frame".into()))?;
        if frame_object.get("encoding").and_then(Json::as_str) != Some("base64") {
            return mismatch("release_frame.encoding is not base64");
        }
        let frame = frame_object
            .get("base64")
            .and_then(Json::as_str)
            .and_then(|b| STANDARD.decode(b).ok())
            .ok_or(Miss::Mismatch(
                "release_frame.base64 is not standard base64".into(),
            ))?;
        let frame_sha256 = sha256_hex(&frame);
        if frame_object.get("length").and_then(Json::as_u64) != Some(frame.len() as u64)
            || frame_object.get("sha256").and_then(Json::as_str) != Some(frame_sha256.as_str())
        {
            return mismatch("release_frame length or digest mismatch");
        }
        let object_a = self
            .object_a
            .as_deref()
            .ok_or_else(|| Miss::Missing("object A is missing".into()))?;
        match splice_operation_id(object_a, operation_id) {
            Some(expected) if expected == frame => {}
            Some(_) => return mismatch(
                "release_frame is not object A with \"operation_id\" spliced before its final }",
            ),
            None => return mismatch("object A cannot carry an operation_id (not a JSON object)"),
        }
        if self
            .get("release_valid_until")
            .and_then(Json::as_u64)
            .is_none()
        {
            return mismatch("an ALLOW lacks release_valid_until");
        }
        let expected_post = sha256_hex(&compact(&serde_json::json!({
            "operation_id": operation_id,
            "release_frame_sha256": frame_sha256,
        })));
        if self.str_of("post_state_hash") != Some(expected_post.as_str()) {
            return mismatch(format!(
                "post_state_hash is not the hash of the operation state ({expected_post})"
            ));
        }
        self.release_frame_sha256 = Some(frame_sha256);
        Ok(format!(
            "{status}: release_frame is object A with the operation id, post_state_hash binds it"
        ))
    }
}

/// The release frame seal-host forwards: the frame with `"operation_id":"<id>"` spliced
/// before the final `}` of its body (a comma first unless the object is empty), terminator
/// kept.
pub fn splice_operation_id(frame: &[u8], operation_id: &str) -> Option<Vec<u8>> {
    let (body, terminator) = if let Some(body) = frame.strip_suffix(b"\r\n") {
        (body, b"\r\n".as_slice())
    } else if let Some(body) = frame.strip_suffix(b"\n") {
        (body, b"\n".as_slice())
    } else {
        (frame, b"".as_slice())
    };
    // What `serde_json::from_slice::<Value>(body)` reads, without building the value: an
    // object, how many members, and whether one is named `operation_id`.
    let members = match super::outline::outline_slice(body, "operation_id").ok()? {
        Outline::Object {
            named: false,
            members,
        } => members,
        Outline::Object { named: true, .. } | Outline::Other => return None,
    };
    let brace = body.iter().rposition(|b| !b.is_ascii_whitespace())?;
    if body[brace] != b'}' {
        return None;
    }
    let mut out = Vec::with_capacity(frame.len() + operation_id.len() + 20);
    out.extend_from_slice(&body[..brace]);
    if members > 0 {
        out.push(b',');
    }
    out.extend_from_slice(b"\"operation_id\":");
    out.extend_from_slice(&compact(operation_id));
    out.extend_from_slice(&body[brace..]);
    out.extend_from_slice(terminator);
    Some(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn operation_id_splices_before_the_final_brace() {
        assert_eq!(
            splice_operation_id(b"{\"a\":1} \r\n", "x").unwrap(),
            b"{\"a\":1,\"operation_id\":\"x\"} \r\n".to_vec()
        );
        assert_eq!(
            splice_operation_id(b"{}", "x").unwrap(),
            b"{\"operation_id\":\"x\"}".to_vec()
        );
        assert!(splice_operation_id(b"[1]\n", "x").is_none());
        assert!(splice_operation_id(b"{\"operation_id\":1}\n", "x").is_none());
    }
}
