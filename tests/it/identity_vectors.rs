//! Every identity vector that names a frame reproduces exactly, through the validation
//! pipeline: Seal's legacy v3 effects, all three profiles of the dev vectors under two
//! server identities, the targets and digests recorded in the legacy-vs-current manifest
//! for every frame it accepts, and the worked example of docs/formats.md. Inputs are the
//! copies in testdata/vectors. The vectors that name canonical inputs instead (the v4
//! 6-part layout, the manifest's would-be targets of refused frames) are unit tests of
//! the crate-only way in: src/identity/vectors.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sealkit::request::{self, Call, MetaState, Options, Session, Verdict};
use serde_json::Value;
use std::path::Path;

fn load(path: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn analyze(frame: &[u8], server: &str) -> Verdict {
    let options = Options {
        server: server.to_owned(),
        ..Options::default()
    };
    request::analyze(frame, &options, &mut Session::default())
}

fn call(frame: &[u8], server: &str) -> Call {
    match analyze(frame, server) {
        Verdict::Call(call) => *call,
        other => panic!("expected a call, got {other:?}"),
    }
}

fn refusal_code(frame: &[u8]) -> String {
    match analyze(frame, "") {
        Verdict::Refused(r) => r.code.as_str().to_owned(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn legacy_v3_effect_vectors() {
    let vectors = load("testdata/vectors/effect_v3_vectors.json");
    let mut commitments = 0;
    let mut rejections = 0;
    for v in vectors["vectors"].as_array().unwrap() {
        let name = v["name"].as_str().unwrap();
        let arguments = v["arguments_json"].as_str().unwrap();
        let tool = v["tool"].as_str().unwrap();
        if v["expect"] == "commitment" {
            // Absent arguments commit as `null`: the frame leaves the member out.
            let members = match arguments {
                "null" => String::new(),
                _ => format!(r#","arguments":{arguments}"#),
            };
            let frame = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}"{members}}}}}"#
            );
            match analyze(frame.as_bytes(), v["server"].as_str().unwrap()) {
                Verdict::Call(call) => {
                    assert_eq!(
                        call.canonical_arguments(),
                        v["canonical_arguments"].as_str().unwrap(),
                        "{name}"
                    );
                    assert_eq!(
                        call.identities().legacy.effect,
                        v["effect_commitment"].as_str().unwrap(),
                        "{name}"
                    );
                }
                // An 18-digit integer has an identity as a value (checked over its
                // canonical inputs in src/identity/vectors.rs) but no binary64 reading.
                Verdict::Refused(r) => assert_eq!(
                    (name, r.code.as_str()),
                    ("integer-18-digits-in-bound", "number-not-binary64")
                ),
                Verdict::Skipped(s) => panic!("{name} skipped: {s:?}"),
            }
            commitments += 1;
        } else {
            let frame = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
            );
            let expected = match v["reason"].as_str().unwrap() {
                "duplicate or escaped object key" if arguments.contains("\\u") => "escaped-key",
                "duplicate or escaped object key" => "duplicate-key",
                "number exceeds significant-digit bound (18)" => "too-many-digits",
                "unsafe numeric literal (exponent digits > 6)" => "exponent-too-long",
                other => panic!("unknown reason {other}"),
            };
            assert_eq!(refusal_code(frame.as_bytes()), expected, "{name}");
            rejections += 1;
        }
    }
    assert_eq!((commitments, rejections), (17, 5));
}

/// The CLI applies today's guards first: an 18-digit integer has an identity as a value
/// but no binary64 reading, so a frame carrying it is refused.
#[test]
fn eighteen_digit_integer_has_an_identity_but_its_frame_is_refused() {
    let frame = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"n":999999999999999999}}}"#;
    assert_eq!(refusal_code(frame), "number-not-binary64");
}

#[test]
fn dev_identity_vectors_all_profiles_two_servers() {
    let vectors = load("testdata/vectors/sealkit-dev-identities.json");
    let vectors = vectors["vectors"].as_array().unwrap();
    assert_eq!(vectors.len(), 36);
    let servers: std::collections::BTreeSet<&str> = vectors
        .iter()
        .map(|v| v["server"].as_str().unwrap())
        .collect();
    assert_eq!(servers.len(), 2);
    for v in vectors {
        let name = format!(
            "{} (server {:?})",
            v["name"].as_str().unwrap(),
            v["server"].as_str().unwrap()
        );
        let call = call(
            v["frame"].as_str().unwrap().as_bytes(),
            v["server"].as_str().unwrap(),
        );
        assert_eq!(
            call.subject().sha256,
            v["subject"]["sha256"].as_str().unwrap(),
            "{name}"
        );
        assert_eq!(
            call.subject().length,
            v["subject"]["length"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(
            call.request_sha256(),
            v["request_sha256"].as_str().unwrap(),
            "{name}"
        );
        assert_eq!(
            call.canonical_arguments(),
            v["canonical_arguments"].as_str().unwrap(),
            "{name}"
        );
        assert_eq!(
            call.meta().canonical(),
            v["canonical_meta"].as_str(),
            "{name}"
        );
        for profile in ["committed", "host", "legacy"] {
            let ours = serde_json::to_value(call.identities()).unwrap();
            assert_eq!(ours[profile], v["identities"][profile], "{name} {profile}");
        }
    }
}

#[test]
fn legacy_vs_current_manifest_targets_and_digests() {
    let manifest = load("testdata/legacy-vs-current/manifest.json");
    let mut guarded = 0;
    let mut unguarded = 0;
    for receipt in manifest["receipts"].as_array().unwrap() {
        let step = receipt["step"].as_str().unwrap();
        let era = receipt["era"].as_str().unwrap();
        let frame = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("testdata/legacy-vs-current")
                .join(receipt["frame"].as_str().unwrap()),
        )
        .unwrap();
        let expected = match receipt["target_legacy"].as_str() {
            Some(legacy) => {
                guarded += 1;
                (
                    legacy,
                    receipt["target_host"].as_str().unwrap(),
                    receipt["target_committed_option_a"].as_str().unwrap(),
                )
            }
            None => {
                unguarded += 1;
                let would = &receipt["would_be_targets_if_guarded"];
                (
                    would["legacy"].as_str().unwrap(),
                    would["host"].as_str().unwrap(),
                    would["committed"].as_str().unwrap(),
                )
            }
        };
        match analyze(&frame, "") {
            Verdict::Call(call) => {
                assert_eq!(
                    (
                        call.identities().legacy.target.as_str(),
                        call.identities().host.target.as_str(),
                        call.identities().committed.target.as_str()
                    ),
                    expected,
                    "{era} {step}"
                );
                assert_eq!(
                    call.subject().sha256,
                    receipt["framed_subject_sha256"].as_str().unwrap(),
                    "{era} {step}"
                );
                assert_eq!(
                    call.subject().length,
                    receipt["framed_subject_length"].as_u64().unwrap(),
                    "{era} {step}"
                );
                assert_eq!(
                    call.request_sha256(),
                    receipt["request_sha256"].as_str().unwrap(),
                    "{era} {step}"
                );
                if era == "new" {
                    // record_version 3 receipts name seal-host's current projection.
                    assert_eq!(
                        call.canonical_request_sha256(),
                        receipt["canonical_request_sha256"].as_str(),
                        "{era} {step}"
                    );
                }
                let keys: Vec<&str> = call.meta().keys().iter().map(String::as_str).collect();
                match &receipt["meta_in_frame"] {
                    Value::String(absent) => {
                        assert_eq!((absent.as_str(), keys.len()), ("absent", 0), "{step}")
                    }
                    Value::Array(list) => assert_eq!(
                        keys,
                        list.iter().map(|k| k.as_str().unwrap()).collect::<Vec<_>>(),
                        "{step}"
                    ),
                    other => panic!("{other}"),
                }
            }
            Verdict::Refused(refusal) => {
                // F09: an uppercase traceparent, which W3C version 00 forbids.
                assert_eq!((step, refusal.code.as_str()), ("L5", "invalid-traceparent"));
            }
            Verdict::Skipped(s) => panic!("{step} skipped: {s:?}"),
        }
    }
    assert_eq!((guarded, unguarded), (18, 8));
}

#[test]
fn worked_example_of_seal_host_formats_2_3() {
    let frame = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/vectors/getting-started-call.frame"),
    )
    .unwrap();
    assert_eq!(frame.len(), 139);
    let call = call(&frame, "");
    assert_eq!(
        call.identities().host.target,
        "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565"
    );
    assert_eq!(
        call.subject().sha256,
        "ee5b38595d6f9524149c102174d8cbed1913a8f965d30e63cf67fc57e8fc7cd4"
    );
    assert_eq!(
        call.request_sha256(),
        "1c7466714fbd5479930c58948593dff45fc25e8ca2b025a4ae8b5148e55515b5"
    );
    assert_eq!(
        call.canonical_request_sha256(),
        Some("1c7466714fbd5479930c58948593dff45fc25e8ca2b025a4ae8b5148e55515b5")
    );
    assert_eq!(
        call.args_hash(),
        Some("074b5f8768da03e1c5b01ded447418b3d18c7abed44dee31216b38ee11bc546b")
    );
    assert_eq!(*call.meta(), MetaState::Absent);
}
