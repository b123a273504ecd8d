//! What a reference's `type` is to sealkit: a known type, one that only looks like a known
//! type (refused), or another; and whether evidence is a Seal receipt whatever its reference
//! calls it. Guarantees: no `type` that differs from a known one by a look-alike letter,
//! case, surrounding white space or invisible characters is taken for it or passed over, and
//! human output shows a `type` with everything outside printable ASCII escaped.

use super::SEAL_RECEIPT_TYPE;

/// The types sealkit knows: a `type` that looks like one of these without being it is refused.
pub const KNOWN_TYPES: &[&str] = &[SEAL_RECEIPT_TYPE];

/// `text` as it looks, for comparing look-alikes: compatibility-normalized (NFKC), without
/// surrounding white space or invisible characters, in lower case, then mapped to its
/// Unicode confusable skeleton (UTS #39: a Cyrillic `е` and a Latin `e`, `l` and `1`,
/// fullwidth and plain letters share one), in lower case again.
fn looks(text: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let normal: String = text.nfkc().collect();
    let trimmed = normal.trim_matches(|c: char| c.is_whitespace() || crate::inert::is_unsafe(c));
    unicode_security::skeleton(&trimmed.to_lowercase())
        .collect::<String>()
        .to_lowercase()
}

/// The known type `kind` looks like without being it, if any.
pub fn confusable_type(kind: &str) -> Option<&'static str> {
    let seen = looks(kind);
    KNOWN_TYPES
        .iter()
        .copied()
        .find(|known| kind != *known && looks(known) == seen)
}

/// A `type` as a person reads it in human output: everything outside printable ASCII written
/// as `\u{HEX}` by the one escaping function, so no type can pass for another on screen.
pub fn shown_type(kind: &str) -> std::borrow::Cow<'_, str> {
    crate::inert::escape_where(kind, |ch| !(' '..='~').contains(&ch))
}

/// Whether the evidence is a Seal receipt, whatever a reference calls it: a JSON object whose
/// `record_type` looks like seal-host's (`seal.authorization-decision`, look-alikes
/// included), or that carries a receipt's request binding (`request_sha256`,
/// `canonical_request_sha256` or `framed_subject_sha256`). Such evidence is authenticated as
/// a receipt, so a receipt altered after signing is never passed off as an unknown type.
pub fn is_seal_receipt(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let Ok(root) = crate::json::parse(text, crate::json::DUPLICATE_SCAN_DEPTH) else {
        return false;
    };
    let Some(members) = root.value.as_object() else {
        return false;
    };
    let record_type = looks("seal.authorization-decision");
    members.iter().any(|member| match member.key.as_ref() {
        "record_type" => member
            .value
            .value
            .as_str()
            .is_some_and(|kind| looks(kind) == record_type),
        "request_sha256" | "canonical_request_sha256" | "framed_subject_sha256" => true,
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each sign of a receipt is enough alone, and nothing else is one: seen red with either
    /// arm of `is_seal_receipt`'s match deleted (a receipt renamed without its binding
    /// members, or stripped of its `record_type`, passed as an unknown type).
    #[test]
    fn a_receipt_is_known_by_its_record_type_or_its_request_binding() {
        for receipt in [
            r#"{"record_type":"seal.authorization-decision"}"#,
            r#"{"record_type":"SEAL.authorization-decision "}"#,
            r#"{"record_type":"s\u0435al.authorization-decision"}"#,
            r#"{"request_sha256":"x"}"#,
            r#"{"canonical_request_sha256":null}"#,
            r#"{"a":1,"framed_subject_sha256":"x"}"#,
        ] {
            assert!(is_seal_receipt(receipt.as_bytes()), "{receipt}");
        }
        for other in [
            r#"{"record_type":"seal.authorization-decision.v3"}"#,
            r#"{"record_type":7}"#,
            r#"{"type":"seal.authorization-decision","subject_sha256":"x"}"#,
            r#"["request_sha256"]"#,
            "not json",
        ] {
            assert!(!is_seal_receipt(other.as_bytes()), "{other}");
        }
        assert!(!is_seal_receipt(b"{\"request_sha256\":\"\xff\"}"));
    }

    #[test]
    fn look_alikes_of_the_seal_type_are_confusable_and_the_type_itself_is_not() {
        for kind in [
            "s\u{435}al.authorization-decision.v3",
            "SEAL.AUTHORIZATION-DECISION.V3",
            " seal.authorization-decision.v3\t",
            "seal.authorization-decision.v3\u{200b}",
            "\u{ff53}eal.authorization-decision.v3",
            "sea1.authorization-decision.v3",
        ] {
            assert_eq!(confusable_type(kind), Some(SEAL_RECEIPT_TYPE), "{kind:?}");
        }
        for kind in [
            SEAL_RECEIPT_TYPE,
            "seal.authorization-decision.v2",
            "seal.authorization-decision",
            "ifc.fides.v1",
            "",
        ] {
            assert_eq!(confusable_type(kind), None, "{kind:?}");
        }
        assert_eq!(shown_type("s\u{435}al"), "s\\u{435}al");
        assert_eq!(shown_type(SEAL_RECEIPT_TYPE), SEAL_RECEIPT_TYPE);
    }
}
