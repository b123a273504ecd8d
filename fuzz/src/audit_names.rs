//! The `audit_names` fuzz target: what a receipt directory entry is, by its name, and the operation state.

use super::lower_hex64;
use sealkit::audit::names::{classify, is_temp, NameKind};

/// Each line of the input as a file name: a receipt name formats back to itself, the other
/// kinds match plain reference definitions of seal-host's names. The whole input as
/// `.seal-operation-state.json`.
pub fn audit_names(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        for name in std::iter::once(text).chain(text.split(['\n', '/'])) {
            check_name(name);
        }
    }
    if let Ok(operations) = sealkit::audit::dir::parse_operation_state(data) {
        let value: serde_json::Value =
            serde_json::from_slice(data).unwrap_or_else(|e| panic!("accepted state: {e}"));
        assert_eq!(value["schema"], "seal.operation-state/v1");
        let listed = value["operations"]
            .as_object()
            .unwrap_or_else(|| panic!("accepted operations that are not an object"));
        assert_eq!(listed.len(), operations.len());
        for (id, sha) in operations.iter() {
            let (id, sha) = (id.text(), sha.text());
            assert_eq!(listed[&*id]["operation_id"].as_str(), Some(&*id));
            assert_eq!(listed[&*id]["release_frame_sha256"].as_str(), Some(&*sha));
        }
    }
}

fn check_name(name: &str) {
    let kind = classify(name);
    assert_eq!(is_temp(name), reference_temp(name), "is_temp({name:?})");
    let expected = match name {
        ".seal-audit-head.state" => Some(NameKind::HeadState),
        ".seal-operation-state.json" => Some(NameKind::OperationState),
        ".seal-receipt-ed25519.key" => Some(NameKind::SigningKey),
        _ if reference_temp(name) => Some(NameKind::Temp),
        _ => None,
    };
    match (&kind, expected) {
        (kind, Some(expected)) => assert_eq!(*kind, expected, "{name:?}"),
        (NameKind::Receipt { counter, hash }, None) => {
            assert_eq!(format!("receipt-{counter:020}-{hash}.json"), name);
            assert!(lower_hex64(hash));
        }
        (NameKind::MisnamedReceipt, None) => {
            assert!(name.starts_with("receipt-") && name.ends_with(".json") && name.len() >= 13);
            assert!(
                !reference_receipt_name(name),
                "a well-formed receipt name: {name:?}"
            );
        }
        (NameKind::OtherJson, None) => {
            assert!(name.ends_with(".json"));
            assert!(!(name.starts_with("receipt-") && name.len() >= 13));
        }
        (NameKind::Other, None) => assert!(!name.ends_with(".json")),
        (kind, None) => panic!("{name:?} classified {kind:?}"),
    }
    if reference_receipt_name(name) {
        assert!(
            matches!(kind, NameKind::Receipt { .. }),
            "{name:?} is a receipt name"
        );
    }
}

/// `receipt-` + 20 digits (a u64) + `-` + 64 lowercase hex + `.json`.
fn reference_receipt_name(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() == 8 + 20 + 1 + 64 + 5
        && name.starts_with("receipt-")
        && name.ends_with(".json")
        && b[8..28].iter().all(u8::is_ascii_digit)
        && name[8..28].parse::<u64>().is_ok()
        && b[28] == b'-'
        && lower_hex64(&name[29..93])
}

/// seal-host's transient names, one pattern each.
fn reference_temp(name: &str) -> bool {
    fn digits(s: &str) -> bool {
        !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
    }
    fn digits_dash_digits(s: &str) -> bool {
        match s.find('-') {
            Some(i) => digits(&s[..i]) && digits(&s[i + 1..]),
            None => false,
        }
    }
    type Shape = (&'static str, &'static str, fn(&str) -> bool);
    let shapes: [Shape; 5] = [
        (".receipt-", ".tmp", digits_dash_digits),
        (".seal-audit-head-", ".tmp", digits_dash_digits),
        (".authorization-decision-rewrite-", ".tmp", digits),
        (".operation-state-", ".tmp", digits),
        (".seal-receipt-probe-", "", digits),
    ];
    shapes.iter().any(|(prefix, suffix, middle)| {
        name.len() >= prefix.len() + suffix.len()
            && name.starts_with(prefix)
            && name.ends_with(suffix)
            && middle(&name[prefix.len()..name.len() - suffix.len()])
    })
}
