//! seal-host's reasons for dropping an approval token, spelled exactly as seal-host logs them
//! in its `approval_drop` stderr lines, with the `source` it logs beside each, in the order its
//! pipeline checks them (docs/formats.md, §1.8).

use std::borrow::Cow;
use std::fmt;

/// One reason seal-host drops a token line (or a whole token file).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Reason {
    // File level.
    TokenFileBytesExceeded,
    TokenFileNotUtf8,
    // Token line, every version.
    LineBytesExceeded,
    LineJsonDepthExceeded,
    LineJsonStringBytesExceeded,
    LineJsonCollectionItemsExceeded,
    ParseError,
    PayloadBytesExceeded,
    PayloadJsonDepthExceeded,
    PayloadJsonStringBytesExceeded,
    PayloadJsonCollectionItemsExceeded,
    // ApprovalRecord v2.
    UnsupportedApprovalRecordVersion,
    SurroundingWhitespace,
    TokenParseError,
    BadSignatureAlgorithm,
    BadSignatureEncoding,
    WrongSignerKeyId,
    PayloadParseError,
    PayloadValidationError,
    SignerKeyIdMismatch,
    SignatureAlgorithmMismatch,
    CanonicalizationError,
    PayloadNotCanonical,
    NonCanonicalSignatureScalar,
    BadSignature,
    // Signed v1 tokens (after their signature checks).
    MissingRequiredField,
    ApprovalRecordV1NotSupported,
    /// `unknown_decision:<first 64 characters of the value>`.
    UnknownDecision(String),
    // Binding to the live call (context), then A3 freshness and replay.
    TargetOrSubjectMismatch,
    Expired,
    FutureIssuedAt,
    ReplayedNonce,
}

impl Reason {
    /// Every reason, in seal-host's order (`UnknownDecision` with an empty value).
    pub const ALL: [Reason; 32] = [
        Reason::TokenFileBytesExceeded,
        Reason::TokenFileNotUtf8,
        Reason::LineBytesExceeded,
        Reason::LineJsonDepthExceeded,
        Reason::LineJsonStringBytesExceeded,
        Reason::LineJsonCollectionItemsExceeded,
        Reason::ParseError,
        Reason::PayloadBytesExceeded,
        Reason::PayloadJsonDepthExceeded,
        Reason::PayloadJsonStringBytesExceeded,
        Reason::PayloadJsonCollectionItemsExceeded,
        Reason::UnsupportedApprovalRecordVersion,
        Reason::SurroundingWhitespace,
        Reason::TokenParseError,
        Reason::BadSignatureAlgorithm,
        Reason::BadSignatureEncoding,
        Reason::WrongSignerKeyId,
        Reason::PayloadParseError,
        Reason::PayloadValidationError,
        Reason::SignerKeyIdMismatch,
        Reason::SignatureAlgorithmMismatch,
        Reason::CanonicalizationError,
        Reason::PayloadNotCanonical,
        Reason::NonCanonicalSignatureScalar,
        Reason::BadSignature,
        Reason::MissingRequiredField,
        Reason::ApprovalRecordV1NotSupported,
        Reason::UnknownDecision(String::new()),
        Reason::TargetOrSubjectMismatch,
        Reason::Expired,
        Reason::FutureIssuedAt,
        Reason::ReplayedNonce,
    ];

    /// The code seal-host logs.
    pub fn code(&self) -> Cow<'static, str> {
        let fixed = match self {
            Reason::TokenFileBytesExceeded => "token_file_bytes_exceeded",
            Reason::TokenFileNotUtf8 => "token_file_not_utf8",
            Reason::LineBytesExceeded => "approval_line_bytes_exceeded",
            Reason::LineJsonDepthExceeded => "approval_json_depth_exceeded",
            Reason::LineJsonStringBytesExceeded => "approval_json_string_bytes_exceeded",
            Reason::LineJsonCollectionItemsExceeded => "approval_json_collection_items_exceeded",
            Reason::ParseError => "parse_error",
            Reason::PayloadBytesExceeded => "approval_payload_bytes_exceeded",
            Reason::PayloadJsonDepthExceeded => "approval_payload_json_depth_exceeded",
            Reason::PayloadJsonStringBytesExceeded => "approval_payload_json_string_bytes_exceeded",
            Reason::PayloadJsonCollectionItemsExceeded => {
                "approval_payload_json_collection_items_exceeded"
            }
            Reason::UnsupportedApprovalRecordVersion => "unsupported_approval_record_version",
            Reason::SurroundingWhitespace => "approval_v2_surrounding_whitespace",
            Reason::TokenParseError => "approval_v2_token_parse_error",
            Reason::BadSignatureAlgorithm => "approval_v2_bad_signature_algorithm",
            Reason::BadSignatureEncoding => "approval_v2_bad_signature_encoding",
            Reason::WrongSignerKeyId => "approval_v2_wrong_signer_key_id",
            Reason::PayloadParseError => "approval_v2_payload_parse_error",
            Reason::PayloadValidationError => "approval_v2_payload_validation_error",
            Reason::SignerKeyIdMismatch => "approval_v2_signer_key_id_mismatch",
            Reason::SignatureAlgorithmMismatch => "approval_v2_signature_algorithm_mismatch",
            Reason::CanonicalizationError => "approval_v2_canonicalization_error",
            Reason::PayloadNotCanonical => "approval_v2_payload_not_canonical",
            Reason::NonCanonicalSignatureScalar => "non_canonical_signature_scalar",
            Reason::BadSignature => "bad_signature",
            Reason::MissingRequiredField => "missing_required_field",
            Reason::ApprovalRecordV1NotSupported => "approval_record_v1_not_supported",
            Reason::UnknownDecision(value) => {
                let shown: String = value.chars().take(64).collect();
                return Cow::Owned(format!("unknown_decision:{shown}"));
            }
            Reason::TargetOrSubjectMismatch => "target_or_subject_mismatch",
            Reason::Expired => "expired",
            Reason::FutureIssuedAt => "future_issued_at",
            Reason::ReplayedNonce => "replayed_nonce",
        };
        Cow::Borrowed(fixed)
    }

    /// The `source` seal-host logs with this reason.
    pub fn host_source(&self) -> &'static str {
        match self {
            Reason::TargetOrSubjectMismatch => "approval-v2-context",
            Reason::Expired | Reason::FutureIssuedAt | Reason::ReplayedNonce => "a3",
            _ => "ed25519-token",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.code())
    }
}

/// seal-host's redacted record id for a drop: `sha256:` and the first 16 hex digits of the
/// SHA-256 of the material it hashes for that reason. Lets a finding here be matched with
/// the host's own `approval_drop` line.
pub fn host_record_id(material: &[u8]) -> String {
    let digest = crate::digest::sha256_hex(material);
    format!("sha256:{}", &digest[..16])
}

/// The material seal-host hashes for records it drops after parsing their target, issue
/// time and nonce (v1 refusals, context and A3 drops).
pub fn record_material(target: &str, issued_at: Option<u64>, nonce: Option<&str>) -> String {
    let issued = match issued_at {
        Some(ms) => format!("Some({ms})"),
        None => "None".to_owned(),
    };
    format!(
        "target={target};issuedAt={issued};nonce={}",
        nonce.unwrap_or("")
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn unknown_decision_names_at_most_64_characters() {
        let long = "é".repeat(70);
        let code = Reason::UnknownDecision(long).code().into_owned();
        assert_eq!(code, format!("unknown_decision:{}", "é".repeat(64)));
    }

    #[test]
    fn sources_follow_the_host() {
        assert_eq!(Reason::BadSignature.host_source(), "ed25519-token");
        assert_eq!(
            Reason::TargetOrSubjectMismatch.host_source(),
            "approval-v2-context"
        );
        assert_eq!(Reason::Expired.host_source(), "a3");
    }

    #[test]
    fn record_material_matches_the_hosts_debug_form() {
        assert_eq!(
            record_material("ab", Some(5), Some("n")),
            "target=ab;issuedAt=Some(5);nonce=n"
        );
        assert_eq!(
            record_material("ab", None, None),
            "target=ab;issuedAt=None;nonce="
        );
        assert_eq!(host_record_id(b"").len(), "sha256:".len() + 16);
    }
}
