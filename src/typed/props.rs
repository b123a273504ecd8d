#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Property tests: V2 canonical round trips, refusal (never normalisation) of injected
//! whitespace, and the `_meta` sensitivity of typed target keys under each profile. Unit
//! tests, because the key layout is checked over any V2 `_meta` (reserved keys with any
//! value included), which the validation pipeline, the only public way in, would refuse.

use super::{typed_target_of_line, ToolSpecs, Typed, TypedTarget};
use crate::v2::{self, V2RefusalCode, V2Value};
use proptest::prelude::*;

const CASES: u32 = 64;

fn decimal() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        0u64..1_000_000_000_000,
        proptest::option::of("[0-9]{0,6}[1-9]"),
    )
        .prop_filter_map("no -0", |(negative, int, fraction)| {
            let mut literal = String::new();
            if negative {
                literal.push('-');
            }
            literal.push_str(&int.to_string());
            if let Some(fraction) = &fraction {
                literal.push('.');
                literal.push_str(fraction);
            }
            (literal != "-0").then_some(literal)
        })
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("progressToken".to_owned()),
        Just("traceparent".to_owned()),
        Just("io.modelcontextprotocol/protocolVersion".to_owned()),
        Just("io.modelcontextprotocol/clientCapabilities".to_owned()),
        Just("example.com/unknown-extension".to_owned()),
        any::<String>(),
    ]
}

fn value() -> impl Strategy<Value = V2Value> {
    let leaf = prop_oneof![
        Just(V2Value::Null),
        any::<bool>().prop_map(V2Value::Bool),
        decimal().prop_map(V2Value::Number),
        any::<String>().prop_map(V2Value::String),
    ];
    leaf.prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(V2Value::Array),
            prop::collection::vec((key(), inner), 0..5).prop_map(|m| V2Value::Object(unique(m))),
        ]
    })
}

fn unique(members: Vec<(String, V2Value)>) -> Vec<(String, V2Value)> {
    let mut out: Vec<(String, V2Value)> = Vec::new();
    for (k, v) in members {
        if !out.iter().any(|(seen, _)| *seen == k) {
            out.push((k, v));
        }
    }
    out
}

fn meta_object() -> impl Strategy<Value = Vec<(String, V2Value)>> {
    prop::collection::vec((key(), value()), 1..6).prop_map(unique)
}

fn specs() -> ToolSpecs {
    ToolSpecs::parse(r#"{"db.execute":{"version":"v1","manifest_digest":"sha256:abc"}}"#).unwrap()
}

fn line_with_meta(meta: &[(String, V2Value)]) -> String {
    format!(
        r#"{{"method":"tools/call","params":{{"name":"db.execute","action":"write","arguments":{{"sql":"select 1"}},"_meta":{}}}}}"#,
        v2::serialize(&V2Value::Object(meta.to_vec()))
    )
}

fn computed(line: &str) -> TypedTarget {
    match typed_target_of_line(line.as_bytes(), &specs()) {
        Some(Typed::Computed(target)) => *target,
        other => panic!("not computed: {other:?} for {line}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn canonical_text_reads_back_to_the_same_value_and_bytes(v in value()) {
        let text = v2::serialize(&v);
        prop_assert!(text.is_ascii());
        let read = v2::read(text.as_bytes()).unwrap();
        prop_assert_eq!(&read, &v);
        prop_assert_eq!(v2::serialize(&read), text);
    }

    #[test]
    fn injected_whitespace_is_refused_at_its_offset(v in value(), pick in any::<prop::sample::Index>(), ws in prop::sample::select(vec![b' ', b'\t', b'\n', b'\r'])) {
        let text = v2::serialize(&v).into_bytes();
        // Structural positions: before the value, after it, and after any '[', '{', ',', ':'
        // outside strings.
        let mut positions = vec![0, text.len()];
        let mut in_string = false;
        let mut escaped = false;
        for (i, &b) in text.iter().enumerate() {
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {}
                }
            } else if b == b'"' {
                in_string = true;
            } else if matches!(b, b'[' | b'{' | b',' | b':') {
                positions.push(i + 1);
            }
        }
        let at = positions[pick.index(positions.len())];
        let mut bad = text.clone();
        bad.insert(at, ws);
        let refusal = v2::read(&bad).unwrap_err();
        prop_assert_eq!(refusal.code, V2RefusalCode::Whitespace);
        prop_assert_eq!(refusal.offset, at);
    }

    #[test]
    fn every_meta_key_moves_the_committed_key_and_never_the_host_key(meta in meta_object()) {
        let base = computed(&line_with_meta(&meta));
        for i in 0..meta.len() {
            let mut changed = meta.clone();
            let old = changed[i].1.clone();
            changed[i].1 = V2Value::Array(vec![old]);
            let moved = computed(&line_with_meta(&changed));
            prop_assert_ne!(&moved.committed.key, &base.committed.key, "key {:?}", meta[i].0);
            prop_assert_ne!(&moved.committed.sha256, &base.committed.sha256);
            prop_assert_eq!(&moved.host, &base.host);
            let mut removed = meta.clone();
            removed.remove(i);
            let dropped = computed(&line_with_meta(&removed));
            prop_assert_ne!(&dropped.committed.key, &base.committed.key);
            prop_assert_eq!(&dropped.host, &base.host);
        }
    }
}

#[test]
fn absent_and_empty_meta_differ_committed_and_agree_host() {
    let absent = computed(
        r#"{"method":"tools/call","params":{"name":"db.execute","action":"write","arguments":{"sql":"select 1"}}}"#,
    );
    let empty = computed(&line_with_meta(&[]));
    assert_ne!(absent.committed, empty.committed);
    assert_eq!(absent.host, empty.host);
    assert_eq!(absent.committed, absent.host);
}

#[test]
fn member_order_of_meta_does_not_move_the_key_but_order_of_arguments_does() {
    let a = computed(&line_with_meta(&[
        ("a".into(), V2Value::Null),
        ("b".into(), V2Value::Bool(true)),
    ]));
    let b = computed(&line_with_meta(&[
        ("b".into(), V2Value::Bool(true)),
        ("a".into(), V2Value::Null),
    ]));
    assert_eq!(a.committed, b.committed);
    let args = |order: &str| {
        computed(&format!(
            r#"{{"method":"tools/call","params":{{"name":"db.execute","action":"write","arguments":{order}}}}}"#
        ))
    };
    assert_ne!(
        args(r#"{"x":1,"y":2}"#).committed,
        args(r#"{"y":2,"x":1}"#).committed
    );
}
