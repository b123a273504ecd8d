//! `verify bundle`'s statement checks through the binary. A statement's `algorithm` and
//! `encoding` are outside what its signature covers (the role's preimage over the payload),
//! so an edited label leaves a signature that still verifies: the labels must be checked on
//! their own, each of them.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use serde_json::Value;

const BUNDLE: &str = "testdata/receipts/bundles/bundle-closed.json";
const ISS: &str = "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c";
const REQ: &str = "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394";
const APP: &str = "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1";
const ROLES: [&str; 3] = ["issuer", "request", "approval"];

/// The binary's exit status and JSON report for `bundle`, read from standard input.
fn run(bundle: &Value) -> (i32, Value) {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "bundle", "-", "--format", "json"])
        .args(["--issuer-pubkey", ISS, "--request-pubkey", REQ])
        .args(["--approval-pubkey", APP])
        .write_stdin(serde_json::to_vec(bundle).unwrap())
        .output()
        .unwrap();
    let report = serde_json::from_slice(&output.stdout).unwrap();
    (output.status.code().unwrap(), report)
}

/// (exit status, the `verified` of each statement in role order, each statement's reason).
fn verify(bundle: &Value) -> (i32, Vec<bool>, Vec<String>) {
    let (code, report) = run(bundle);
    let statements = report["statements"].as_array().unwrap();
    let roles: Vec<&str> = statements
        .iter()
        .map(|s| s["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ROLES);
    (
        code,
        statements
            .iter()
            .map(|s| s["verified"].as_bool().unwrap())
            .collect(),
        statements
            .iter()
            .map(|s| s["reason"].as_str().unwrap_or("").to_owned())
            .collect(),
    )
}

/// Each statement with only its `algorithm`, or only its `encoding`, changed is not verified
/// (exit 1: a problem found outranks the decision not evaluated), though its signature still
/// holds; the other two statements still are.
/// Mutation check: `verify_statement`'s `algorithm != … || encoding != …` as `&&` (cargo-mutants,
/// bundle group, session 6) passed a statement whose one label alone was wrong: this test
/// turned red under it.
#[test]
fn a_statement_with_either_signature_label_changed_is_not_verified() {
    let intact: Value = serde_json::from_slice(&std::fs::read(BUNDLE).unwrap()).unwrap();
    // Intact, every statement verifies; the decision is not evaluated (the profile replays it
    // in a kernel sealkit does not have), so the bundle as a whole exits 2.
    assert_eq!(verify(&intact), (2, vec![true; 3], vec![String::new(); 3]));
    for (index, role) in ROLES.iter().enumerate() {
        for (label, wrong) in [
            ("algorithm", "ed25519"),
            ("algorithm", "Ed448"),
            ("encoding", "base64"),
            ("encoding", "base64url"),
        ] {
            let mut bundle = intact.clone();
            bundle[format!("{role}_statement")]["signature"][label] = Value::from(wrong);
            let (code, verified, reasons) = verify(&bundle);
            let mut expected = vec![true; 3];
            expected[index] = false;
            assert_eq!((code, verified), (1, expected), "{role} {label} {wrong}");
            assert_eq!(
                reasons[index], "signature algorithm/encoding is not Ed25519/base64url-nopad",
                "{role} {label} {wrong}"
            );
        }
    }
}

/// The decision's state, from the report.
fn decision_state(bundle: &Value) -> String {
    run(bundle).1["decision"]["state"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The closed profile's standalone-replay closure holds only when all six of its conditions
/// do: with any one of them changed, or missing, the decision is "not reproduced" rather than
/// waiting on the kernel wasm. (The issuer statement's signature then fails too; the decision
/// is read from its payload either way.) Mutation check: each `&&` of `closed_profile`'s
/// conjunction as `||` (cargo-mutants, bundle group, session 6) kept "wasm-absent" for a
/// closure with one condition broken: this test turned red under each.
#[test]
fn the_replay_closure_holds_only_with_every_condition() {
    let intact: Value = serde_json::from_slice(&std::fs::read(BUNDLE).unwrap()).unwrap();
    assert_eq!(decision_state(&intact), "wasm-absent");
    let payload: Value =
        serde_json::from_str(intact["issuer_statement"]["payload"].as_str().unwrap()).unwrap();
    let conditions = [
        ("semantics", Value::from("one-init-many-decide")),
        ("every_verdict_input_embedded", Value::Bool(false)),
        ("prior_kernel_state_required", Value::Bool(true)),
        ("prior_host_state_required", Value::Bool(true)),
        ("active_kernel_set_bound", Value::Bool(false)),
        ("omitted_state_influences", Value::Bool(true)),
    ];
    let with_payload = |payload: &Value| {
        let mut bundle = intact.clone();
        bundle["issuer_statement"]["payload"] = Value::from(payload.to_string());
        bundle
    };
    // The payload re-serialized unchanged still gives the intact state.
    assert_eq!(decision_state(&with_payload(&payload)), "wasm-absent");
    for (name, wrong) in conditions {
        let mut changed = payload.clone();
        changed["standalone_replay_closure"][name] = wrong;
        assert_eq!(
            decision_state(&with_payload(&changed)),
            "not-reproduced",
            "{name} changed"
        );
        let mut missing = payload.clone();
        missing["standalone_replay_closure"]
            .as_object_mut()
            .unwrap()
            .remove(name);
        assert_eq!(
            decision_state(&with_payload(&missing)),
            "not-reproduced",
            "{name} missing"
        );
    }
}
