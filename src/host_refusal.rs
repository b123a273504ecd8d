//! seal-host's approval challenge: the refusal line a blocked call gets
//! (docs/formats.md), `{"id":…,"jsonrpc":"2.0","result":{"content":
//! [{"text":"approval required: <64 hex>","type":"text"}],"isError":true,"framed_subject":
//! {"encoding":"base64","length":n,"sha256":hex,"base64":…}}}`. Reading one yields the
//! challenged target and the exact frame, after checking that the text is an approval
//! challenge (a budget block reuses the same prefix with a non-hex reason) and that the
//! framed subject's base64, length and sha256 agree.

use crate::digest::{is_sha256_hex, sha256_hex};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

/// The prefix of seal-host's approval challenge text.
pub const CHALLENGE_PREFIX: &str = "approval required: ";

/// What a challenge names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub target: String,
    /// The exact frame the host read, delimiter included.
    pub frame: Vec<u8>,
}

/// Why a refusal line is not a usable challenge. `code()` is the stable kebab-case code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChallengeError {
    #[error("the refusal is not one JSON line: {0}")]
    NotJson(String),
    #[error("result.content[0].text is missing or not a string")]
    NoChallengeText,
    /// `approval required: ` followed by something other than 64 lowercase hex (for example
    /// a budget block): not an approval challenge.
    #[error(
        "{0:?} is not an approval challenge (`approval required: ` and 64 lowercase \
         hex); no approval can unblock it"
    )]
    NotAnApprovalChallenge(String),
    #[error("result.framed_subject is missing (the host adds it to approval challenges only)")]
    NoFramedSubject,
    #[error("framed_subject: {0}")]
    BadFramedSubject(&'static str),
    #[error("framed_subject.length says {declared} but the base64 decodes to {decoded} bytes")]
    LengthMismatch { declared: u64, decoded: u64 },
    #[error("framed_subject.sha256 says {declared} but the decoded frame hashes to {decoded}")]
    DigestMismatch { declared: String, decoded: String },
}

impl crate::error_code::Coded for ChallengeError {
    fn code(&self) -> &'static str {
        match self {
            ChallengeError::NotJson(_) => "refusal-not-json",
            ChallengeError::NoChallengeText => "refusal-without-challenge",
            ChallengeError::NotAnApprovalChallenge(_) => "refusal-not-an-approval-challenge",
            ChallengeError::NoFramedSubject => "refusal-without-framed-subject",
            ChallengeError::BadFramedSubject(_) => "framed-subject-malformed",
            ChallengeError::LengthMismatch { .. } => "framed-subject-length-mismatch",
            ChallengeError::DigestMismatch { .. } => "framed-subject-sha256-mismatch",
        }
    }
}

/// Reads a refusal line (surrounding whitespace, such as its LF, is allowed).
pub fn parse(text: &str) -> Result<Challenge, ChallengeError> {
    let value: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| ChallengeError::NotJson(e.to_string()))?;
    let result = value.get("result");
    let challenge_text = result
        .and_then(|r| r.get("content"))
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("text"))
        .and_then(serde_json::Value::as_str)
        .ok_or(ChallengeError::NoChallengeText)?;
    let target = challenge_text
        .strip_prefix(CHALLENGE_PREFIX)
        .filter(|hex| is_sha256_hex(hex))
        .ok_or_else(|| ChallengeError::NotAnApprovalChallenge(challenge_text.to_owned()))?;
    let subject = result
        .and_then(|r| r.get("framed_subject"))
        .ok_or(ChallengeError::NoFramedSubject)?;
    let field = |name| subject.get(name);
    if field("encoding").and_then(serde_json::Value::as_str) != Some("base64") {
        return Err(ChallengeError::BadFramedSubject(
            "encoding is not \"base64\"",
        ));
    }
    let declared_length = field("length")
        .and_then(serde_json::Value::as_u64)
        .ok_or(ChallengeError::BadFramedSubject("length is not an integer"))?;
    let declared_sha256 = field("sha256")
        .and_then(serde_json::Value::as_str)
        .filter(|hex| is_sha256_hex(hex))
        .ok_or(ChallengeError::BadFramedSubject(
            "sha256 is not 64 lowercase hex",
        ))?;
    let frame = field("base64")
        .and_then(serde_json::Value::as_str)
        .and_then(|b64| STANDARD.decode(b64).ok())
        .ok_or(ChallengeError::BadFramedSubject(
            "base64 is not valid padded base64",
        ))?;
    if frame.len() as u64 != declared_length {
        return Err(ChallengeError::LengthMismatch {
            declared: declared_length,
            decoded: frame.len() as u64,
        });
    }
    let digest = sha256_hex(&frame);
    if digest != declared_sha256 {
        return Err(ChallengeError::DigestMismatch {
            declared: declared_sha256.to_owned(),
            decoded: digest,
        });
    }
    Ok(Challenge {
        target: target.to_owned(),
        frame,
    })
}

/// Builds the refusal line seal-host writes for `target` and `frame` (used by tests and
/// documentation examples; `id` as in the blocked request).
pub fn render(id: &str, target: &str, frame: &[u8]) -> String {
    format!(
        "{{\"id\":{id},\"jsonrpc\":\"2.0\",\"result\":{{\"content\":[{{\"text\":\"{CHALLENGE_PREFIX}{target}\",\"type\":\"text\"}}],\"isError\":true,\"framed_subject\":{{\"encoding\":\"base64\",\"length\":{},\"sha256\":\"{}\",\"base64\":\"{}\"}}}}}}",
        frame.len(),
        sha256_hex(frame),
        STANDARD.encode(frame)
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error_code::Coded as _;

    const FRAME: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"arguments\":{\"database\":\"prod\",\"sql\":\"drop table customers\"}}}\n";
    const TARGET: &str = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";

    #[test]
    fn a_host_challenge_yields_target_and_exact_frame() {
        let line = render("1", TARGET, FRAME);
        assert!(line.contains("\"length\":139,\"sha256\":\"ee5b38595d6f9524149c102174d8cbed1913a8f965d30e63cf67fc57e8fc7cd4\""));
        let challenge = parse(&format!("{line}\n")).unwrap();
        assert_eq!(challenge.target, TARGET);
        assert_eq!(challenge.frame, FRAME);
    }

    #[test]
    fn budget_blocks_and_tampered_subjects_are_refused() {
        let budget = render("1", "over budget db-calls (2+1>2): db.execute", FRAME);
        assert_eq!(
            parse(&budget).unwrap_err().code(),
            "refusal-not-an-approval-challenge"
        );
        let line = render("1", TARGET, FRAME);
        let wrong_length = line.replace("\"length\":139", "\"length\":138");
        assert_eq!(
            parse(&wrong_length).unwrap_err().code(),
            "framed-subject-length-mismatch"
        );
        let wrong_digest = line.replace("ee5b3859", "ee5b3858");
        assert_eq!(
            parse(&wrong_digest).unwrap_err().code(),
            "framed-subject-sha256-mismatch"
        );
        let no_subject = format!(
            "{{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{{\"content\":[{{\"text\":\"approval required: {TARGET}\",\"type\":\"text\"}}],\"isError\":true}}}}"
        );
        assert_eq!(
            parse(&no_subject).unwrap_err().code(),
            "refusal-without-framed-subject"
        );
        assert_eq!(parse("nope").unwrap_err().code(), "refusal-not-json");
    }
}
