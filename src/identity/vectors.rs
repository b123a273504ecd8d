//! The identity vectors that name canonical inputs rather than a frame the validation
//! pipeline accepts, checked on the crate-only way in: Seal's legacy v3 effect commitments
//! over their canonical inputs (the 18-digit integer's included, whose frame is refused),
//! the 6-part layout of the v4 `_meta` vectors, and the would-be targets the legacy-vs-current manifest records for every frame
//! (F09's, which today's validation refuses, included). The frame-level vectors run through
//! the pipeline in tests/it/identity_vectors.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;
use crate::canonical::lean_compress;
use crate::json;
use serde_json::Value;
use std::path::Path;

fn load(path: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn compress(text: &str) -> String {
    lean_compress(&json::parse(text, 128).unwrap()).unwrap()
}

#[test]
fn legacy_v3_effect_commitments_over_canonical_inputs() {
    let vectors = load("testdata/vectors/effect_v3_vectors.json");
    let mut commitments = 0;
    for v in vectors["vectors"].as_array().unwrap() {
        if v["expect"] != "commitment" {
            continue;
        }
        let name = v["name"].as_str().unwrap();
        let canonical = compress(v["arguments_json"].as_str().unwrap());
        assert_eq!(
            canonical,
            v["canonical_arguments"].as_str().unwrap(),
            "{name}"
        );
        let inputs = Inputs {
            server: v["server"].as_str().unwrap(),
            tool: v["tool"].as_str().unwrap(),
            arguments: &canonical,
            meta: None,
            request_state: None,
            input_responses: None,
        };
        assert_eq!(
            compute(&inputs).legacy.effect,
            v["effect_commitment"].as_str().unwrap(),
            "{name}"
        );
        commitments += 1;
    }
    assert_eq!(commitments, 17);
}

#[test]
fn v4_meta_compress_bytes_and_six_part_layout() {
    let vectors = load("testdata/vectors/effect_v4_meta_6part_vectors.json");
    let mut checked = 0;
    for v in vectors["vectors"].as_array().unwrap() {
        if v["expect"] != "commitment" {
            continue;
        }
        let name = v["name"].as_str().unwrap();
        let arguments = compress(v["arguments_json"].as_str().unwrap());
        assert_eq!(
            arguments,
            v["canonical_arguments"].as_str().unwrap(),
            "{name}"
        );
        let meta = v["meta_json"].as_str().map(compress);
        let expected_meta = (!v["canonical_meta"].is_null())
            .then(|| serde_json::to_string(&v["canonical_meta"]).unwrap());
        assert_eq!(meta, expected_meta, "{name}");
        // The 6-part layout: [tag, server, tool, args, meta pair].
        let (label, value) = match &meta {
            Some(m) => ("meta.present", m.as_str()),
            None => ("meta.absent", ""),
        };
        let parts: Vec<Part<'_>> = [
            "seal.effect/v4-proposed-meta-all",
            v["server"].as_str().unwrap(),
            v["tool"].as_str().unwrap(),
            &arguments,
            label,
            value,
        ]
        .into_iter()
        .map(Part::new)
        .collect();
        assert_eq!(
            hash_parts(&parts),
            v["effect_commitment"].as_str().unwrap(),
            "{name}"
        );
        checked += 1;
    }
    assert_eq!(checked, 22);
}

/// Identities computed straight from a frame's params, without today's validation, for
/// frames that validation refuses (F09) but whose would-be targets the manifest records.
fn unvalidated_targets(frame: &str) -> (String, String, String) {
    let root = json::parse(frame.trim_end(), 128).unwrap();
    let params = root.value.get("params").unwrap();
    let text = |key: &str| params.value.get(key).map(|n| lean_compress(n).unwrap());
    let arguments = text("arguments").unwrap_or_else(|| "null".to_owned());
    let (meta, state, responses) = (text("_meta"), text("requestState"), text("inputResponses"));
    let tool = params.value.get("name").unwrap().value.as_str().unwrap();
    let ids = compute(&Inputs {
        server: "",
        tool,
        arguments: &arguments,
        meta: meta.as_deref(),
        request_state: state.as_deref(),
        input_responses: responses.as_deref(),
    });
    (ids.legacy.target, ids.host.target, ids.committed.target)
}

#[test]
fn legacy_vs_current_manifest_would_be_targets() {
    let manifest = load("testdata/legacy-vs-current/manifest.json");
    let mut checked = 0;
    for receipt in manifest["receipts"].as_array().unwrap() {
        let step = receipt["step"].as_str().unwrap();
        let frame = std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("testdata/legacy-vs-current")
                .join(receipt["frame"].as_str().unwrap()),
        )
        .unwrap();
        let would = &receipt["would_be_targets_if_guarded"];
        let expected = match receipt["target_legacy"].as_str() {
            Some(legacy) => (
                legacy,
                receipt["target_host"].as_str().unwrap(),
                receipt["target_committed_option_a"].as_str().unwrap(),
            ),
            None => (
                would["legacy"].as_str().unwrap(),
                would["host"].as_str().unwrap(),
                would["committed"].as_str().unwrap(),
            ),
        };
        let targets = unvalidated_targets(std::str::from_utf8(&frame).unwrap());
        assert_eq!(
            (targets.0.as_str(), targets.1.as_str(), targets.2.as_str()),
            expected,
            "{step}"
        );
        checked += 1;
    }
    assert_eq!(checked, 26);
}
