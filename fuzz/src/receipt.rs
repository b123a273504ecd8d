//! The `receipt` fuzz target: the receipt reader and verifier on (mutated) fixture receipts.

use super::pick;
use sealkit::finding::{Code, Severity};
use sealkit::receipt::pin::Pin;
use sealkit::receipt::{ReadProblem, ReceiptReport, ReceiptStatus, Scratch, SignatureStatus};
use std::sync::OnceLock;

/// The public keys of the two receipt-signing seeds in testdata/receipts.
const RECEIPT_KEYS: [&str; 2] = [
    "3e249cf1656c5e8c9e4e863766145dbfbef6ebe55f62490b63fe6898ac0d6fa4",
    "bb336a2b50b912e2e0f054f8932eae5ea333f076735fa33655e906ef3302af6d",
];
const RECEIPT_SEEDS: [&[u8]; 2] = [
    include_bytes!(
        "../../testdata/receipts/legacy-vs-current/new/receipts/.seal-receipt-ed25519.key"
    ),
    include_bytes!("../../testdata/receipts/fixture-dir/.seal-receipt-ed25519.key"),
];

macro_rules! receipts {
    ($dir:literal: $($hash:literal),* $(,)?) => {
        [$(include_bytes!(concat!("../../testdata/receipts/", $dir, "/receipt-", $hash, ".json")).as_slice()),*]
    };
}

/// Every signed (record_version 3) fixture receipt.
const SIGNED_RECEIPTS: [&[u8]; 15] = {
    let new = receipts!("legacy-vs-current/new/receipts":
        "00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29",
        "00000000000000000000-66c0a42e1ddc967685057dba1483943b85b11b6348f8b3881a76b31fe4ed6694",
        "00000000000000000001-120d377234da4be343ce9be68bdb03ac0002724f693c465b75b5812b46344918",
        "00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
        "00000000000000000002-120d377234da4be343ce9be68bdb03ac0002724f693c465b75b5812b46344918",
        "00000000000000000002-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
        "00000000000000000003-471f4bad0480adddf6f79b515277613b5ac4735bfeb7e098a4ccb0718b5c26dc",
        "00000000000000000003-fbf2ff479c278ef79666dbaedfd8c078391d172d5a15f47d9c7e58b198c271e0",
        "00000000000000000004-16c05a919829fd917f6e506a4b7fd5782444c8872e451d1efd8b16e9e5695a40",
        "00000000000000000004-a6e43f544e76d609185c1aafc6734ed363b7d146cc64abe8b86b99f5562ead31",
        "00000000000000000005-16c05a919829fd917f6e506a4b7fd5782444c8872e451d1efd8b16e9e5695a40",
        "00000000000000000006-002adba72104f7b771b53bbdb8a8b612b0f477001f1de0d8ad89c220adf910c0",
        "00000000000000000007-002adba72104f7b771b53bbdb8a8b612b0f477001f1de0d8ad89c220adf910c0",
    );
    let dir = receipts!("fixture-dir":
        "00000000000000000000-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
        "00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
    );
    [
        new[0], new[1], new[2], new[3], new[4], new[5], new[6], new[7], new[8], new[9], new[10],
        new[11], new[12], dir[0], dir[1],
    ]
};

/// Two unsigned (record_version 2) fixture receipts.
const UNSIGNED_RECEIPTS: [&[u8]; 2] = receipts!("legacy-vs-current/old/receipts":
    "00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793",
    "00000000000000000008-672dbedb52b41ef6f733483e4a32d161be2f9672fef33581843e5057213af390",
);

fn receipt_pins() -> &'static [Pin; 2] {
    static PINS: OnceLock<[Pin; 2]> = OnceLock::new();
    PINS.get_or_init(|| {
        RECEIPT_KEYS.map(|hex| {
            sealkit::receipt::pin::load(hex).unwrap_or_else(|e| panic!("fixture key: {e}"))
        })
    })
}

/// What a receipt's signature covers, computed plainly: the receipt without `signature`,
/// serde_json compact in stored order (seal-host signs this only when `signature` is last,
/// which an accepted receipt needs), and the signature block itself.
fn receipt_signed_content(
    map: &serde_json::Map<String, serde_json::Value>,
) -> Option<(Vec<u8>, serde_json::Value)> {
    let signature = map.get("signature")?.clone();
    let rest: serde_json::Map<String, serde_json::Value> = map
        .iter()
        .filter(|(k, _)| *k != "signature")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some((serde_json::to_vec(&rest).ok()?, signature))
}

fn fixture_receipt_maps() -> &'static [serde_json::Map<String, serde_json::Value>] {
    static MAPS: OnceLock<Vec<serde_json::Map<String, serde_json::Value>>> = OnceLock::new();
    MAPS.get_or_init(|| {
        SIGNED_RECEIPTS
            .iter()
            .chain(UNSIGNED_RECEIPTS.iter())
            .map(|bytes| sealkit::receipt::parse(bytes).unwrap_or_else(|e| panic!("{}", e.message)))
            .collect()
    })
}

fn fixture_receipt_contents() -> &'static [(Vec<u8>, serde_json::Value)] {
    static CONTENTS: OnceLock<Vec<(Vec<u8>, serde_json::Value)>> = OnceLock::new();
    CONTENTS.get_or_init(|| {
        fixture_receipt_maps()[..SIGNED_RECEIPTS.len()]
            .iter()
            .filter_map(receipt_signed_content)
            .collect()
    })
}

thread_local! {
    /// A scratch that has verified every fixture, as an audit's worker scratch has verified
    /// earlier receipts: its caches must never change a verdict.
    static WARM: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
}

fn with_warm_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    WARM.with(|cell| {
        let mut slot = cell.borrow_mut();
        let scratch = slot.get_or_insert_with(|| {
            let mut scratch = Scratch::default();
            for bytes in SIGNED_RECEIPTS.iter().chain(UNSIGNED_RECEIPTS.iter()) {
                let _ =
                    sealkit::receipt::verify_bytes(bytes, Some(&receipt_pins()[0]), &mut scratch);
            }
            scratch
        });
        f(scratch)
    })
}

/// The input as a receipt file, unpinned and under each fixture key, with a fresh and a
/// warm scratch; then as a value replacing one member of a fixture receipt, as is and
/// re-signed; then, when it is a record_version 3 receipt, re-signed with the fixture seed
/// so that the content checks run behind a valid signature.
pub fn receipt(data: &[u8]) {
    let pins = receipt_pins();
    for pin in [None, Some(&pins[0]), Some(&pins[1])] {
        let result = sealkit::receipt::verify_bytes(data, pin, &mut Scratch::default());
        check_receipt_result(data, &result, pin);
        if pin.is_some_and(|p| std::ptr::eq(p, &pins[0])) {
            let warm = with_warm_scratch(|s| sealkit::receipt::verify_bytes(data, pin, s));
            assert_eq!(result, warm, "a warm scratch changed the verdict");
        }
    }
    member_replaced(data);
    resigned_member_replaced(data);
    resigned(data);
}

fn check_receipt_result(
    data: &[u8],
    result: &Result<ReceiptReport, ReadProblem>,
    pin: Option<&Pin>,
) {
    let report = match result {
        // A member name written twice, in the file or a JSON text it carries, is refused
        // whatever else the file holds; the one reader must really see the repeat.
        Err(problem) if problem.code == Code::DuplicateMember => {
            let text = std::str::from_utf8(data)
                .unwrap_or_else(|_| panic!("a refused repeat is in UTF-8 text"));
            let carried = problem.message.contains(": member \"");
            assert!(
                carried || matches!(sealkit::json::find_duplicate(text), Ok(Some(_))),
                "duplicate-member without a repeat: {}",
                problem.message
            );
            return;
        }
        Err(problem) => {
            assert!(
                matches!(
                    problem.code,
                    Code::NotUtf8
                        | Code::TruncatedJson
                        | Code::InvalidJson
                        | Code::EmptyFile
                        | Code::BinaryFile
                ),
                "read problem {}",
                problem.code
            );
            // An empty file and binary data are named as what they are, and nothing else is.
            let shape = sealkit::input::shape(data);
            assert_eq!(
                problem.code == Code::EmptyFile,
                shape == sealkit::input::Shape::Empty,
                "empty-file for {shape:?}"
            );
            assert_eq!(
                problem.code == Code::BinaryFile,
                matches!(shape, sealkit::input::Shape::Binary { .. }),
                "binary-file for {shape:?}"
            );
            let object = std::str::from_utf8(data)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok())
                .is_some_and(|v| v.is_object());
            assert!(!object, "a JSON object was refused as unreadable");
            return;
        }
        Ok(report) => report,
    };
    serde_json::to_string(report).unwrap_or_else(|e| panic!("report: {e}"));
    let errors: Vec<Code> = report
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.code)
        .collect();
    for finding in &report.findings {
        assert!(Code::ALL.contains(&finding.code));
        let code = finding.code.as_str();
        assert!(
            code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{code}"
        );
    }
    let content_error = errors
        .iter()
        .any(|c| !matches!(c, Code::SignerUnpinned | Code::UnsignedReceipt));
    match report.status {
        ReceiptStatus::Authenticated => {
            assert!(pin.is_some() && report.signature.status == SignatureStatus::Verified);
            assert!(errors.is_empty(), "authenticated with errors {errors:?}");
            assert_eq!(report.record_version, Some(3));
        }
        ReceiptStatus::Unpinned => {
            assert!(pin.is_none() && report.signature.status == SignatureStatus::SignerUnpinned);
            assert!(!content_error, "unpinned with errors {errors:?}");
        }
        ReceiptStatus::Unsigned => {
            assert_ne!(report.record_version, Some(3));
            assert!(!content_error, "unsigned with errors {errors:?}");
        }
        ReceiptStatus::Failed => assert!(
            content_error
                || matches!(
                    report.signature.status,
                    SignatureStatus::Invalid | SignatureStatus::SignerMismatch
                ),
            "failed without a reason"
        ),
    }
    if matches!(
        report.status,
        ReceiptStatus::Authenticated | ReceiptStatus::Unpinned
    ) {
        let map = sealkit::receipt::parse(data).unwrap_or_else(|e| panic!("{}", e.message));
        let content = receipt_signed_content(&map);
        assert!(
            content.is_some_and(|c| fixture_receipt_contents().contains(&c)),
            "a receipt whose signed content no fixture carries verified"
        );
    }
}

/// One member of a fixture receipt replaced by the input's JSON value: unless the value is
/// the same, the receipt is never authenticated nor valid under its own key, whatever the
/// value's type.
fn member_replaced(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let maps = fixture_receipt_maps();
    let index = pick(data, 10, maps.len());
    let mut map = maps[index].clone();
    let Some(name) = map.keys().nth(pick(data, 11, map.len())).cloned() else {
        return;
    };
    if map.get(&name) == Some(&value) {
        return;
    }
    map.insert(name.clone(), value);
    let bytes = sealkit::receipt::preimage::to_file_bytes(&map);
    let pins = receipt_pins();
    for pin in [None, Some(&pins[0]), Some(&pins[1])] {
        let result = sealkit::receipt::verify_bytes(&bytes, pin, &mut Scratch::default());
        check_receipt_result(&bytes, &result, pin);
        let report =
            result.unwrap_or_else(|e| panic!("a pretty receipt is unreadable: {}", e.message));
        assert!(
            !matches!(
                report.status,
                ReceiptStatus::Authenticated | ReceiptStatus::Unpinned
            ),
            "receipt {index} with {name} replaced still verifies"
        );
    }
}

/// Members whose whole value sealkit recomputes from object A, the audit line, the
/// certificates or the signed config: no other value is ever authenticated. The others
/// (the producer's claims about its binaries and provenance, the pending approvals it held,
/// its clock) are reported: any value of seal-host's type may be authenticated there.
const RECOMPUTED: [&str; 18] = [
    "record_type",
    "record_version",
    "tool",
    "arguments",
    "args_hash",
    "canonical_request",
    "canonical_request_sha256",
    "request_sha256",
    "framed_subject_sha256",
    "framed_subject_length",
    "bypass",
    "verdict",
    "authorization",
    "reason",
    "deny_kernel",
    "certs",
    "kernel_config",
    "release_status",
];

fn json_type(value: &serde_json::Value) -> u8 {
    use serde_json::Value as S;
    match value {
        S::Null => 0,
        S::Bool(_) => 1,
        S::Number(_) => 2,
        S::String(_) => 3,
        S::Array(_) => 4,
        S::Object(_) => 5,
    }
}

/// One member of a signed fixture receipt replaced by the input's JSON value (or removed),
/// then the receipt re-signed by its own key, so that only the content checks stand
/// between it and "authenticated": a recomputed member never authenticates with another
/// value, and no member authenticates with a value of another JSON type or when it is
/// removed (seal-host writes every member it writes with one type).
fn resigned_member_replaced(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let index = pick(data, 13, SIGNED_RECEIPTS.len());
    let mut map = fixture_receipt_maps()[index].clone();
    let Some(name) = map
        .keys()
        .filter(|k| *k != "signature")
        .nth(pick(data, 14, map.len() - 1))
        .cloned()
    else {
        return;
    };
    let old = map[&name].clone();
    let removed = pick(data, 15, 8) == 0;
    let what = if removed {
        map.shift_remove(&name);
        "removed".to_owned()
    } else {
        let bound = RECOMPUTED.contains(&name.as_str()) || json_type(&old) != json_type(&value);
        if old == value || !bound {
            return;
        }
        map.insert(name.clone(), value);
        "replaced".to_owned()
    };
    let key = usize::from(index >= 13);
    let seed: [u8; 32] = RECEIPT_SEEDS[key]
        .try_into()
        .unwrap_or_else(|_| panic!("fixture seeds are 32 bytes"));
    if sealkit::receipt::preimage::sign(&mut map, &seed).is_err() {
        return;
    }
    let bytes = sealkit::receipt::preimage::to_file_bytes(&map);
    let pin = &receipt_pins()[key];
    let report = sealkit::receipt::verify_bytes(&bytes, Some(pin), &mut Scratch::default())
        .unwrap_or_else(|e| panic!("a pretty receipt is unreadable: {}", e.message));
    assert_ne!(
        report.status,
        ReceiptStatus::Authenticated,
        "receipt {index} re-signed with {name} {what} is authenticated"
    );
}

fn resigned(data: &[u8]) {
    let Ok(mut map) = sealkit::receipt::parse(data) else {
        return;
    };
    if map
        .get("record_version")
        .and_then(serde_json::Value::as_u64)
        != Some(3)
    {
        return;
    }
    let seed: [u8; 32] = RECEIPT_SEEDS[pick(data, 12, 2)]
        .try_into()
        .unwrap_or_else(|_| panic!("fixture seeds are 32 bytes"));
    if sealkit::receipt::preimage::sign(&mut map, &seed).is_err() {
        return;
    }
    let bytes = sealkit::receipt::preimage::to_file_bytes(&map);
    let pin = &receipt_pins()[pick(data, 12, 2)];
    let result = sealkit::receipt::verify_bytes(&bytes, Some(pin), &mut Scratch::default());
    let report = result
        .as_ref()
        .unwrap_or_else(|e| panic!("a re-signed receipt is unreadable: {}", e.message));
    assert_ne!(
        report.signature.status,
        SignatureStatus::Invalid,
        "a receipt signed by preimage::sign does not verify: {}",
        report.signature.detail
    );
    let errors = report
        .findings
        .iter()
        .any(|f| f.severity == Severity::Error);
    assert_eq!(report.status == ReceiptStatus::Authenticated, !errors);
    let warm = with_warm_scratch(|s| sealkit::receipt::verify_bytes(&bytes, Some(pin), s));
    assert_eq!(result, warm, "a warm scratch changed the verdict");
}
