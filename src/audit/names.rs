//! What a file in a receipt directory is, by its name (docs/formats.md):
//! `receipt-<entry:020>-<hash>.json`, the head state, the signing seed, the operation state,
//! and seal-host's transient names.

/// The role of a directory entry, read from its name alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameKind {
    /// `receipt-<20 digits>-<64 hex>.json`.
    Receipt {
        counter: u64,
        hash: String,
    },
    /// Starts with `receipt-` and ends with `.json` but breaks the pattern.
    MisnamedReceipt,
    /// Another `.json` file (checked for receipt content).
    OtherJson,
    HeadState,
    OperationState,
    SigningKey,
    /// One of seal-host's transient names.
    Temp,
    Other,
}

pub const HEAD_STATE: &str = ".seal-audit-head.state";
pub const OPERATION_STATE: &str = ".seal-operation-state.json";
pub const SIGNING_KEY: &str = ".seal-receipt-ed25519.key";

/// Classifies a file name.
pub fn classify(name: &str) -> NameKind {
    match name {
        HEAD_STATE => return NameKind::HeadState,
        OPERATION_STATE => return NameKind::OperationState,
        SIGNING_KEY => return NameKind::SigningKey,
        _ => {}
    }
    if is_temp(name) {
        return NameKind::Temp;
    }
    if let Some(rest) = name
        .strip_prefix("receipt-")
        .and_then(|r| r.strip_suffix(".json"))
    {
        return match parse_receipt_name(rest) {
            Some((counter, hash)) => NameKind::Receipt { counter, hash },
            None => NameKind::MisnamedReceipt,
        };
    }
    if name.ends_with(".json") {
        NameKind::OtherJson
    } else {
        NameKind::Other
    }
}

fn parse_receipt_name(rest: &str) -> Option<(u64, String)> {
    let (counter, hash) = rest.split_once('-')?;
    if counter.len() != 20 || !counter.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !crate::digest::is_sha256_hex(hash) {
        return None;
    }
    Some((counter.parse().ok()?, hash.to_owned()))
}

/// seal-host's transient names: `.receipt-<pid>-<entry:020>.tmp`,
/// `.seal-audit-head-<pid>-<n>.tmp`, `.authorization-decision-rewrite-<pid>.tmp`,
/// `.operation-state-<pid>.tmp`, `.seal-receipt-probe-<pid>`.
pub fn is_temp(name: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let two_numbers = |s: &str| {
        s.split_once('-')
            .is_some_and(|(a, b)| digits(a) && digits(b))
    };
    if let Some(rest) = name.strip_prefix(".seal-receipt-probe-") {
        return digits(rest);
    }
    let Some(stem) = name.strip_suffix(".tmp") else {
        return false;
    };
    if let Some(rest) = stem.strip_prefix(".receipt-") {
        return two_numbers(rest);
    }
    if let Some(rest) = stem.strip_prefix(".seal-audit-head-") {
        return two_numbers(rest);
    }
    if let Some(rest) = stem.strip_prefix(".authorization-decision-rewrite-") {
        return digits(rest);
    }
    if let Some(rest) = stem.strip_prefix(".operation-state-") {
        return digits(rest);
    }
    false
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn receipt_names_need_twenty_digits_and_a_lowercase_hash() {
        let hash = "460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793";
        assert_eq!(
            classify(&format!("receipt-00000000000000000007-{hash}.json")),
            NameKind::Receipt {
                counter: 7,
                hash: hash.to_owned()
            }
        );
        assert_eq!(
            classify(&format!("receipt-7-{hash}.json")),
            NameKind::MisnamedReceipt
        );
        assert_eq!(
            classify(&format!(
                "receipt-00000000000000000007-{}.json",
                hash.to_uppercase()
            )),
            NameKind::MisnamedReceipt
        );
        assert_eq!(classify("notes.json"), NameKind::OtherJson);
    }

    #[test]
    fn transient_names_are_recognised() {
        for name in [
            ".receipt-4242-00000000000000000003.tmp",
            ".seal-audit-head-4242-1.tmp",
            ".authorization-decision-rewrite-4242.tmp",
            ".operation-state-4242.tmp",
            ".seal-receipt-probe-4242",
        ] {
            assert_eq!(classify(name), NameKind::Temp, "{name}");
        }
        assert_eq!(classify(".receipt-x.tmp"), NameKind::Other);
        assert_eq!(classify(HEAD_STATE), NameKind::HeadState);
    }
}
