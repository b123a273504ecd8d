//! The ApprovalRecord v2 payload: 19 required members, unknown members refused, parsed with
//! serde_json exactly as seal-host parses it (so every input seal-host refuses at
//! `approval_v2_payload_parse_error` is refused here too), then validated field by field in
//! seal-host's order (docs/formats.md).

use super::{ALGORITHM, DOMAIN, MAX_INTEGER, SUBJECT_SCOPE};
use crate::digest::is_sha256_hex;
use serde::{Deserialize, Deserializer, Serialize};

/// `renderer`: who turned the request into the text the person saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Renderer {
    pub name: String,
    pub version: String,
    pub manifest_sha256: String,
}

/// The signed payload, in declaration order (its rendering sorts members by key bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Payload {
    pub approval_record_version: u64,
    #[serde(deserialize_with = "lowercase_sha256_hex")]
    pub target: String,
    pub authorized_at: u64,
    pub expiry: u64,
    pub nonce: String,
    pub session: String,
    pub subject_sha256: String,
    pub subject_length: u64,
    pub subject_scope: String,
    pub subject_encoding: String,
    pub shown_sha256: String,
    pub shown_length: u64,
    pub shown_media_type: String,
    pub shown_character_encoding: String,
    pub renderer: Renderer,
    pub approver: String,
    pub authorization_signer_key_id: String,
    pub authorization_signature_algorithm: String,
    pub authorization_domain: String,
}

/// seal-host refuses a target that is not 64 lowercase hex while *parsing* the payload, not
/// while validating it; keeping the check in the deserializer keeps the reason code exact.
fn lowercase_sha256_hex<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    if is_sha256_hex(&text) {
        Ok(text)
    } else {
        Err(serde::de::Error::custom("target must be lowercase 64-hex"))
    }
}

/// Which field failed validation and why (the reason code is always
/// `approval_v2_payload_validation_error`; this says what to fix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    pub field: &'static str,
    pub problem: String,
}

impl std::fmt::Display for ValidationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.problem)
    }
}

impl Payload {
    /// Parses payload text as seal-host does (serde_json, strict struct).
    pub fn parse(text: &str) -> Result<Payload, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// seal-host's field validation, in its order; the first problem is returned.
    pub fn validate(&self) -> Result<(), ValidationError> {
        let fail = |field, problem: &str| {
            Err(ValidationError {
                field,
                problem: problem.to_owned(),
            })
        };
        if self.approval_record_version != 2 {
            return fail("approval_record_version", "must be 2");
        }
        for (field, number) in [
            ("authorized_at", self.authorized_at),
            ("expiry", self.expiry),
            ("subject_length", self.subject_length),
            ("shown_length", self.shown_length),
        ] {
            if number > MAX_INTEGER {
                return fail(field, "exceeds 2^53-1");
            }
        }
        if self.expiry < self.authorized_at {
            return fail("expiry", "precedes authorized_at");
        }
        for (field, digest) in [
            ("target", &self.target),
            ("subject_sha256", &self.subject_sha256),
            ("shown_sha256", &self.shown_sha256),
            ("renderer.manifest_sha256", &self.renderer.manifest_sha256),
        ] {
            if !is_sha256_hex(digest) {
                return fail(field, "must be 64 lowercase hex digits");
            }
        }
        for (field, value) in [
            ("nonce", &self.nonce),
            ("session", &self.session),
            ("approver", &self.approver),
            (
                "authorization_signer_key_id",
                &self.authorization_signer_key_id,
            ),
            ("renderer.name", &self.renderer.name),
            ("renderer.version", &self.renderer.version),
        ] {
            if value.is_empty() {
                return fail(field, "must be non-empty");
            }
        }
        for (field, value, required) in [
            ("subject_scope", &self.subject_scope, SUBJECT_SCOPE),
            ("subject_encoding", &self.subject_encoding, "bytes"),
            ("shown_media_type", &self.shown_media_type, "text/plain"),
            (
                "shown_character_encoding",
                &self.shown_character_encoding,
                "utf-8",
            ),
            (
                "authorization_signature_algorithm",
                &self.authorization_signature_algorithm,
                ALGORITHM,
            ),
            ("authorization_domain", &self.authorization_domain, DOMAIN),
        ] {
            if value != required {
                return fail(field, &format!("must be {required:?}"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests_support {
    use super::*;

    pub(crate) fn sample() -> Payload {
        Payload {
            approval_record_version: 2,
            target: "a".repeat(64),
            authorized_at: 1000,
            expiry: 121000,
            nonce: "n".into(),
            session: "s".into(),
            subject_sha256: "b".repeat(64),
            subject_length: 10,
            subject_scope: SUBJECT_SCOPE.into(),
            subject_encoding: "bytes".into(),
            shown_sha256: "c".repeat(64),
            shown_length: 5,
            shown_media_type: "text/plain".into(),
            shown_character_encoding: "utf-8".into(),
            renderer: Renderer {
                name: "r".into(),
                version: "1".into(),
                manifest_sha256: "d".repeat(64),
            },
            approver: "p".into(),
            authorization_signer_key_id: "k".into(),
            authorization_signature_algorithm: "Ed25519".into(),
            authorization_domain: DOMAIN.into(),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::tests_support::sample;
    use super::*;

    #[test]
    fn sample_is_valid_and_each_broken_field_is_named() {
        sample().validate().unwrap();
        type Breaker = Box<dyn Fn(&mut Payload)>;
        let cases: Vec<(&str, Breaker)> = vec![
            ("expiry", Box::new(|p| p.expiry = 999)),
            (
                "authorized_at",
                Box::new(|p| p.authorized_at = MAX_INTEGER + 1),
            ),
            (
                "shown_sha256",
                Box::new(|p| p.shown_sha256 = "C".repeat(64)),
            ),
            (
                "renderer.manifest_sha256",
                Box::new(|p| p.renderer.manifest_sha256.clear()),
            ),
            ("nonce", Box::new(|p| p.nonce.clear())),
            ("renderer.version", Box::new(|p| p.renderer.version.clear())),
            (
                "subject_scope",
                Box::new(|p| p.subject_scope = "frame".into()),
            ),
            (
                "shown_media_type",
                Box::new(|p| p.shown_media_type = "text/html".into()),
            ),
            (
                "authorization_domain",
                Box::new(|p| p.authorization_domain = "x".into()),
            ),
        ];
        for (field, break_it) in cases {
            let mut payload = sample();
            break_it(&mut payload);
            assert_eq!(payload.validate().unwrap_err().field, field);
        }
    }

    #[test]
    fn target_shape_is_a_parse_error_not_a_validation_error() {
        let mut value = serde_json::to_value(sample()).unwrap();
        value["target"] = serde_json::json!("A".repeat(64));
        assert!(Payload::parse(&value.to_string()).is_err());
        value["target"] = serde_json::json!("a".repeat(64));
        assert!(Payload::parse(&value.to_string()).is_ok());
        value["extra"] = serde_json::json!(1);
        assert!(Payload::parse(&value.to_string()).is_err());
    }
}
