//! Receipt verification against the seal-host fixtures (testdata/receipts, see PROVENANCE.md):
//! every record_version 3 receipt authenticates under its pinned key, every record_version 2
//! receipt is unsigned with every unsigned check passing, recomputed values equal the
//! manifest's, and damage seal-host's own verifier accepts is caught.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sealkit::finding::Code;
use sealkit::receipt::{self, pin, preimage, CheckStatus, ReceiptStatus, Scratch};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

const DIR: &str = "testdata/receipts";

fn path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR).join(rel)
}

fn receipts_in(rel: &str) -> Vec<PathBuf> {
    crate::support::receipt_files_in(&path(rel))
}

fn seed(rel: &str) -> [u8; 32] {
    std::fs::read(path(rel)).unwrap().try_into().unwrap()
}

fn pin_of(rel: &str) -> pin::Pin {
    pin::load(path(rel).to_str().unwrap()).unwrap()
}

fn verify(file: &Path, pin: Option<&pin::Pin>) -> receipt::ReceiptReport {
    receipt::verify_bytes(&std::fs::read(file).unwrap(), pin, &mut Scratch::default()).unwrap()
}

fn manifest() -> Value {
    serde_json::from_slice(&std::fs::read(path("legacy-vs-current/manifest.json")).unwrap())
        .unwrap()
}

#[test]
fn both_fixture_receipts_authenticate_with_the_directory_key() {
    let pin = pin_of("fixture-dir/.seal-receipt-ed25519.key");
    assert_eq!(
        pin.public_key_hex(),
        "bb336a2b50b912e2e0f054f8932eae5ea333f076735fa33655e906ef3302af6d"
    );
    let files = receipts_in("fixture-dir");
    assert_eq!(files.len(), 2);
    for file in files {
        let report = verify(&file, Some(&pin));
        assert_eq!(
            report.status,
            ReceiptStatus::Authenticated,
            "{file:?}: {:#?}",
            report.checks
        );
        assert!(report.findings.is_empty());
        assert!(report.checks.iter().all(|c| c.status != CheckStatus::Fail));
    }
}

#[test]
fn thirteen_v3_receipts_authenticate_and_recompute_the_manifest_values() {
    let manifest = manifest();
    let pin = pin_of("legacy-vs-current/new/receipts/.seal-receipt-ed25519.key");
    assert_eq!(
        pin.public_key_hex(),
        manifest["receipt_key_new"]["public_key"].as_str().unwrap()
    );
    let mut seen = 0;
    for entry in manifest["receipts"].as_array().unwrap() {
        if entry["era"] != "new" {
            continue;
        }
        seen += 1;
        let file = path(&format!(
            "legacy-vs-current/{}",
            entry["file"].as_str().unwrap()
        ));
        let report = verify(&file, Some(&pin));
        assert_eq!(
            report.status,
            ReceiptStatus::Authenticated,
            "{file:?}: {:#?}",
            report.checks
        );
        let verified = &report.verified;
        for key in [
            "framed_subject_sha256",
            "framed_subject_length",
            "request_sha256",
            "canonical_request_sha256",
        ] {
            assert_eq!(verified[key], entry[key], "{key} of {file:?}");
        }
        match entry["target_host"].as_str() {
            Some(target) => assert_eq!(verified["host_target"], target, "{file:?}"),
            None => assert!(!verified.contains_key("host_target")),
        }
        assert_eq!(
            verified["policy_hash"],
            "4b6f57abfdb1e62da854c1eff6a89fecff7f3c27cf79094bef43ea731a9da068"
        );
        assert_eq!(
            report.reported.verdict.as_deref(),
            entry["verdict"].as_str()
        );
    }
    assert_eq!(seen, 13);
}

#[test]
fn thirteen_v2_receipts_are_unsigned_with_every_unsigned_check_passing() {
    let manifest = manifest();
    let mut seen = 0;
    for entry in manifest["receipts"].as_array().unwrap() {
        if entry["era"] != "old" {
            continue;
        }
        seen += 1;
        let file = path(&format!(
            "legacy-vs-current/{}",
            entry["file"].as_str().unwrap()
        ));
        let report = verify(&file, None);
        assert_eq!(report.status, ReceiptStatus::Unsigned, "{file:?}");
        assert_eq!(report.record_version, Some(2));
        let codes: Vec<Code> = report.findings.iter().map(|f| f.code).collect();
        assert_eq!(codes, vec![Code::UnsignedReceipt], "{file:?}");
        for check in &report.checks {
            let expected = match check.check {
                // No frame and no signed artifacts in record_version 2.
                "object-a" | "request-hash" => CheckStatus::NotEvaluated,
                "approval-statement" | "release" => CheckStatus::NotApplicable,
                "target" if entry["target_legacy"].is_null() => CheckStatus::NotApplicable,
                _ => CheckStatus::Pass,
            };
            assert_eq!(
                check.status, expected,
                "{} of {file:?}: {}",
                check.check, check.detail
            );
        }
        assert_eq!(
            report.verified["canonical_request_sha256"],
            entry["canonical_request_sha256"]
        );
        if let Some(target) = entry["target_legacy"].as_str() {
            assert_eq!(report.verified["legacy_target"], target, "{file:?}");
        }
    }
    assert_eq!(seen, 13);
}

#[test]
fn without_a_pin_v3_receipts_are_unpinned_and_a_foreign_pin_is_a_mismatch() {
    let file = &receipts_in("fixture-dir")[0];
    let report = verify(file, None);
    assert_eq!(report.status, ReceiptStatus::Unpinned);
    assert_eq!(report.findings[0].code, Code::SignerUnpinned);
    assert_eq!(
        report.signature.reported_public_key.as_deref(),
        Some("bb336a2b50b912e2e0f054f8932eae5ea333f076735fa33655e906ef3302af6d")
    );
    let other = pin_of("legacy-vs-current/new/receipts/.seal-receipt-ed25519.key");
    let report = verify(file, Some(&other));
    assert_eq!(report.status, ReceiptStatus::Failed);
    assert_eq!(report.findings[0].code, Code::SignerMismatch);
}

fn load(file: &Path) -> Map<String, Value> {
    receipt::parse(&std::fs::read(file).unwrap()).unwrap()
}

#[test]
fn resigning_a_fixture_with_its_seed_reproduces_its_bytes_exactly() {
    let seed = seed("fixture-dir/.seal-receipt-ed25519.key");
    for file in receipts_in("fixture-dir") {
        let mut map = load(&file);
        preimage::sign(&mut map, &seed).unwrap();
        assert_eq!(
            preimage::to_file_bytes(&map),
            std::fs::read(&file).unwrap(),
            "{file:?}"
        );
    }
}

/// The report on `map` re-signed with `seed` and verified under `pin` (None when it cannot
/// be signed: no string `operation_id` and the like).
fn resigned_report(
    mut map: Map<String, Value>,
    seed: &[u8; 32],
    pin: &pin::Pin,
) -> Option<receipt::ReceiptReport> {
    preimage::sign(&mut map, seed).ok()?;
    Some(
        receipt::verify_bytes(
            &preimage::to_file_bytes(&map),
            Some(pin),
            &mut Scratch::default(),
        )
        .unwrap(),
    )
}

/// Damage seal-host's own verifier accepts (its signature and release checks pass) but
/// sealkit catches: a correctly signed receipt whose object A is not its framed subject.
#[test]
fn object_a_mismatch_under_a_valid_signature_is_caught() {
    let seed = seed("fixture-dir/.seal-receipt-ed25519.key");
    let pin = pin_of("fixture-dir/.seal-receipt-ed25519.key");
    let file = &receipts_in("fixture-dir")[0];
    let mut map = load(file);
    let length = map["framed_subject_length"].as_u64().unwrap();
    map.insert("framed_subject_length".into(), Value::from(length + 1));
    let report = resigned_report(map, &seed, &pin).unwrap();
    assert_eq!(report.signature.status, receipt::SignatureStatus::Verified);
    let codes: Vec<Code> = report.findings.iter().map(|f| f.code).collect();
    assert_eq!(codes, vec![Code::ObjectAMismatch]);
    assert_eq!(report.status, ReceiptStatus::Failed);
}

#[test]
fn the_engine_and_the_seal_host_rule_agree_on_every_fixture_frame() {
    for name in ["F01", "F02", "F03", "F04", "F05", "F06", "F07", "F08"] {
        let frame = std::fs::read(path(&format!("legacy-vs-current/frames/{name}.frame"))).unwrap();
        let facts = receipt::recompute::frame_facts(&frame, "");
        assert!(facts.refused_now.is_none(), "{name}");
        let text = std::str::from_utf8(receipt::recompute::request_line(&frame)).unwrap();
        let node = sealkit::json::parse(text, 128).unwrap();
        let own =
            receipt::recompute::project(node.value.get("params"), receipt::recompute::V3).unwrap();
        assert_eq!(facts.projection.unwrap(), own, "{name}");
    }
    // F09 carries an upper-case traceparent: refused today, still projected by seal-host's rule.
    let frame = std::fs::read(path("legacy-vs-current/frames/F09.frame")).unwrap();
    let facts = receipt::recompute::frame_facts(&frame, "");
    assert!(facts.refused_now.is_some());
    assert_eq!(
        facts.projection.unwrap().canonical_request_sha256,
        "a6e43f544e76d609185c1aafc6734ed363b7d146cc64abe8b86b99f5562ead31"
    );
}

/// Every value a JSON member can take, one per type.
fn one_of_each_type() -> [Value; 6] {
    [
        Value::Null,
        Value::Bool(true),
        Value::from(0),
        Value::from("x"),
        Value::Array(Vec::new()),
        Value::Object(Map::new()),
    ]
}

fn same_type(a: &Value, b: &Value) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// Wrong member types and missing members under a valid, pinned signature: every
/// member of every signed fixture receipt, removed or given a value of each other JSON type
/// and re-signed with the receipt's own key, is refused as `malformed-receipt` or a content
/// finding — never authenticated. (Until seal-host's member layout was enforced, a removed or
/// non-string `args_hash` or `canonical_request_sha256` left its check "not evaluated" and the
/// receipt authenticated.)
#[test]
fn no_member_authenticates_removed_or_with_another_type_under_a_valid_signature() {
    let mut cases = 0;
    for (dir, key) in [
        ("fixture-dir", "fixture-dir/.seal-receipt-ed25519.key"),
        (
            "legacy-vs-current/new/receipts",
            "legacy-vs-current/new/receipts/.seal-receipt-ed25519.key",
        ),
    ] {
        let seed = seed(key);
        let pin = pin_of(key);
        for file in receipts_in(dir) {
            let original = load(&file);
            for name in original.keys().filter(|k| *k != "signature") {
                let mut edits = vec![None];
                edits.extend(
                    one_of_each_type()
                        .into_iter()
                        .filter(|v| !same_type(v, &original[name]))
                        .map(Some),
                );
                for edit in edits {
                    let mut map = original.clone();
                    match &edit {
                        None => {
                            map.shift_remove(name);
                        }
                        Some(value) => {
                            map.insert(name.clone(), value.clone());
                        }
                    }
                    let Some(report) = resigned_report(map, &seed, &pin) else {
                        continue;
                    };
                    cases += 1;
                    assert_eq!(
                        report.status,
                        ReceiptStatus::Failed,
                        "{file:?}: {name} {edit:?} is {:?}",
                        report.status
                    );
                }
            }
        }
    }
    assert!(cases > 2000, "{cases} cases");
}

/// The members seal-host writes only when serde could not parse the line never appear
/// together with `request_parse_error`.
#[test]
fn request_parse_error_beside_the_request_members_is_malformed() {
    let seed = seed("fixture-dir/.seal-receipt-ed25519.key");
    let pin = pin_of("fixture-dir/.seal-receipt-ed25519.key");
    let mut map = load(&receipts_in("fixture-dir")[0]);
    map.insert(
        "request_parse_error".into(),
        Value::from("EOF while parsing"),
    );
    let report = resigned_report(map, &seed, &pin).unwrap();
    let shape = check(&report, "shape");
    assert_eq!(shape.status, CheckStatus::Fail);
    assert!(
        shape.detail.contains("request_parse_error is present together with tool, arguments, args_hash, effect_view, canonical_request, canonical_request_sha256"),
        "{}",
        shape.detail
    );
    assert_eq!(report.status, ReceiptStatus::Failed);
}

/// The named check of `report`.
fn check<'r>(report: &'r receipt::ReceiptReport, name: &str) -> &'r receipt::Check {
    report.checks.iter().find(|c| c.check == name).unwrap()
}

/// Asserts that `report`'s signature verified and its `name` check still failed with `code`,
/// its detail saying `detail`, so the receipt failed.
fn assert_signed_and_refused(
    report: &receipt::ReceiptReport,
    name: &str,
    code: Code,
    detail: &str,
) {
    assert_eq!(report.signature.status, receipt::SignatureStatus::Verified);
    let check = check(report, name);
    assert_eq!(check.code, Some(code), "{name}: {}", check.detail);
    assert!(check.detail.contains(detail), "{name}: {}", check.detail);
    assert_eq!(report.status, ReceiptStatus::Failed);
}

/// The receipt of fixture-dir that an approval authorized.
fn approved_fixture() -> Map<String, Value> {
    receipts_in("fixture-dir")
        .iter()
        .map(|f| load(f))
        .find(|map| {
            map.get("authorization") == Some(&Value::from("approval"))
                && map.contains_key("release_frame")
        })
        .unwrap()
}

/// The `approval` member follows from the decision: an approval-authorized ALLOW whose
/// expiry is not issued_at + the policy TTL, and an `approval` member on a receipt no approval
/// authorized, are each a decision mismatch under a valid signature (seen red with
/// cargo-mutants' `approval_member_problem` → `None` applied by hand, a mutant no test caught
/// before; docs/mutants.md, session 10).
#[test]
fn an_approval_member_that_does_not_follow_from_the_decision_is_a_decision_mismatch() {
    let seed = seed("fixture-dir/.seal-receipt-ed25519.key");
    let pin = pin_of("fixture-dir/.seal-receipt-ed25519.key");
    let mut map = approved_fixture();
    let expiry = map["approval"]["expiry"].as_u64().unwrap();
    map["approval"]["expiry"] = Value::from(expiry + 1);
    assert_signed_and_refused(
        &resigned_report(map, &seed, &pin).unwrap(),
        "decision",
        Code::DecisionMismatch,
        "approval.expiry is not issued_at + the policy TTL (120000 ms)",
    );

    let old = "legacy-vs-current/new/receipts/.seal-receipt-ed25519.key";
    let (seed, pin) = (self::seed(old), pin_of(old));
    let mut map = receipts_in("legacy-vs-current/new/receipts")
        .iter()
        .map(|f| load(f))
        .find(|map| map.get("authorization") == Some(&Value::from("explicit_policy_allow")))
        .unwrap();
    map.insert("approval".into(), approved_fixture()["approval"].clone());
    assert_signed_and_refused(
        &resigned_report(map, &seed, &pin).unwrap(),
        "decision",
        Code::DecisionMismatch,
        "approval is present without an approval-authorized ALLOW",
    );
}

/// A release frame is checked by its length and by its digest, each on its own: a frame with
/// the recorded length and another digest, or the recorded digest and another length, is a
/// release mismatch under a valid signature (seen red with cargo-mutants' `||` → `&&` in
/// `release_result` applied by hand; docs/mutants.md, session 10).
#[test]
fn a_release_frame_is_refused_by_its_length_or_its_digest_alone() {
    let seed = seed("fixture-dir/.seal-receipt-ed25519.key");
    let pin = pin_of("fixture-dir/.seal-receipt-ed25519.key");
    let intact = resigned_report(approved_fixture(), &seed, &pin).unwrap();
    assert_eq!(check(&intact, "release").status, CheckStatus::Pass);
    for (member, value) in [
        ("sha256", Value::from("0".repeat(64))),
        ("length", Value::from(1)),
    ] {
        let mut map = approved_fixture();
        map["release_frame"][member] = value;
        assert_signed_and_refused(
            &resigned_report(map, &seed, &pin).unwrap(),
            "release",
            Code::ReleaseMismatch,
            "release_frame length or digest mismatch",
        );
    }
}

/// A record_version 3 receipt's `signed_artifacts` has seal-host's shape: an unknown member,
/// or an encoding other than base64, is a malformed receipt even under a valid signature
/// (seen red with cargo-mutants' `v3_shape_problems` → `vec![]` applied by hand;
/// docs/mutants.md, session 10).
#[test]
fn signed_artifacts_out_of_seal_hosts_shape_are_malformed_under_a_valid_signature() {
    let seed = seed("fixture-dir/.seal-receipt-ed25519.key");
    let pin = pin_of("fixture-dir/.seal-receipt-ed25519.key");
    for (member, value, problem) in [
        (
            "extra",
            Value::from("x"),
            "signed_artifacts has unknown members",
        ),
        (
            "encoding",
            Value::from("base64url"),
            "signed_artifacts.encoding is not \"base64\"",
        ),
    ] {
        let mut map = approved_fixture();
        map["signed_artifacts"][member] = value;
        assert_signed_and_refused(
            &resigned_report(map, &seed, &pin).unwrap(),
            "shape",
            Code::MalformedReceipt,
            problem,
        );
    }
}

/// A record_version 2 receipt keeps serde's rendering of its arguments, not the literal the
/// kernel hashed: arguments holding a non-integer number, at the top, in an array or in a
/// nested object, leave the target check not evaluated rather than passed or failed on a
/// re-rendering (seen red with cargo-mutants' `has_float` → `false`, and with its array arm
/// deleted, applied by hand; docs/mutants.md, session 10).
#[test]
fn v2_arguments_with_a_non_integer_number_leave_the_target_not_evaluated() {
    let file = receipts_in("legacy-vs-current/old/receipts")
        .into_iter()
        .find(|f| {
            let map = load(f);
            map["certs"].as_array().unwrap().iter().any(|c| {
                c["kernel"] == "safety" && c["reason"].as_str().is_some_and(|r| r.len() == 64)
            })
        })
        .unwrap();
    let intact = verify(&file, None);
    assert_eq!(check(&intact, "target").status, CheckStatus::Pass);
    for arguments in [
        serde_json::json!({"database": "prod", "limit": 1.5}),
        serde_json::json!({"database": "prod", "limits": [1, 2.5]}),
        serde_json::json!({"database": "prod", "options": {"ratio": 0.25}}),
    ] {
        let mut map = load(&file);
        map["arguments"] = arguments.clone();
        let bytes = serde_json::to_vec_pretty(&map).unwrap();
        let report = receipt::verify_bytes(&bytes, None, &mut Scratch::default()).unwrap();
        let target = check(&report, "target");
        assert_eq!(target.status, CheckStatus::NotEvaluated, "{arguments}");
        assert!(
            target.detail.contains("non-integer number"),
            "{arguments}: {}",
            target.detail
        );
    }
}
