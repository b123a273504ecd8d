//! The invariants of docs/target.md, as tests that fail when the identity rules drift:
//! * no `_meta`, `requestState`, `inputResponses` → committed = host;
//! * changing the value of any accepted `_meta` key, unknown keys included, changes the
//!   committed effect and target and leaves the host target unchanged;
//! * absent `_meta` and present `{}` are different committed identities;
//! * member order never changes an identity.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use sealkit::identity::Identities;
use sealkit::request::{self, Options, Session, Verdict};
use serde_json::{json, Map, Value};

fn identities(frame: &str) -> Identities {
    match request::analyze(
        frame.as_bytes(),
        &Options::default(),
        &mut Session::default(),
    ) {
        Verdict::Call(call) => call.identities().clone(),
        other => panic!("{frame}: expected a call, got {other:?}"),
    }
}

fn frame(params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}).to_string() + "\n"
}

fn modern_meta(extra: &[(&str, Value)]) -> Value {
    let mut meta = Map::new();
    meta.insert(
        "io.modelcontextprotocol/protocolVersion".into(),
        json!("2026-07-28"),
    );
    meta.insert(
        "io.modelcontextprotocol/clientCapabilities".into(),
        json!({}),
    );
    for (k, v) in extra {
        meta.insert((*k).to_owned(), v.clone());
    }
    Value::Object(meta)
}

#[test]
fn without_context_values_committed_equals_host() {
    for arguments in [
        json!({}),
        json!({"sql": "drop table users"}),
        json!({"a": [1, {"b": null}], "é": "😀"}),
    ] {
        let ids = identities(&frame(
            json!({"name": "db.execute", "arguments": arguments}),
        ));
        assert_eq!(ids.committed, ids.host, "{arguments}");
        assert_ne!(ids.committed.target, ids.legacy.target);
    }
    let ids = identities(&frame(json!({"name": "ping"})));
    assert_eq!(ids.committed, ids.host);
}

#[test]
fn every_accepted_meta_key_moves_the_committed_identity_only() {
    let base_extra: Vec<(&str, Value)> = vec![
        ("progressToken", json!(7)),
        (
            "io.modelcontextprotocol/clientInfo",
            json!({"name": "c", "version": "1"}),
        ),
        ("io.modelcontextprotocol/logLevel", json!("info")),
        (
            "traceparent",
            json!("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
        ),
        ("tracestate", json!("rojo=00f067aa0ba902b7")),
        ("baggage", json!("user=alice")),
        ("com.example/run", json!("r-1")),
        ("example.com/invocation", json!({"n": [1, 2]})),
    ];
    let changed: Vec<(&str, Value)> = vec![
        (
            "io.modelcontextprotocol/protocolVersion",
            json!("2026-07-28"),
        ),
        (
            "io.modelcontextprotocol/clientCapabilities",
            json!({"elicitation": {}}),
        ),
        ("progressToken", json!("t-8")),
        (
            "io.modelcontextprotocol/clientInfo",
            json!({"name": "c", "version": "2"}),
        ),
        ("io.modelcontextprotocol/logLevel", json!("debug")),
        (
            "traceparent",
            json!("00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01"),
        ),
        ("tracestate", json!("rojo=00f067aa0ba902b8")),
        ("baggage", json!("user=bob")),
        ("com.example/run", json!("r-2")),
        ("example.com/invocation", json!({"n": [1, 3]})),
    ];
    let arguments = json!({"sql": "drop table users"});
    let base = identities(&frame(
        json!({"name": "db.execute", "arguments": arguments, "_meta": modern_meta(&base_extra)}),
    ));
    let mut moved = 0;
    for (key, value) in changed {
        if key == "io.modelcontextprotocol/protocolVersion" {
            continue; // only one supported value exists; nothing to change it to
        }
        let mut extra = base_extra.clone();
        match extra.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => extra.push((key, value)),
        }
        let meta = modern_meta(&extra);
        let meta = if key == "io.modelcontextprotocol/clientCapabilities" {
            let mut m = meta.as_object().unwrap().clone();
            m.insert(key.to_owned(), json!({"elicitation": {}}));
            Value::Object(m)
        } else {
            meta
        };
        let ids = identities(&frame(
            json!({"name": "db.execute", "arguments": arguments, "_meta": meta}),
        ));
        assert_ne!(
            ids.committed.target, base.committed.target,
            "{key}: committed target must move"
        );
        assert_ne!(
            ids.committed.effect, base.committed.effect,
            "{key}: committed effect must move"
        );
        assert_eq!(
            ids.host.target, base.host.target,
            "{key}: host target must not move"
        );
        assert_eq!(
            ids.host.effect, base.host.effect,
            "{key}: host effect must not move"
        );
        assert_eq!(ids.legacy, base.legacy, "{key}: legacy must not move");
        moved += 1;
    }
    assert_eq!(moved, 9);
}

#[test]
fn absent_meta_and_empty_meta_are_different_committed_identities() {
    let absent = identities(&frame(json!({"name": "echo", "arguments": {"text": "hi"}})));
    let empty = identities(&frame(
        json!({"name": "echo", "arguments": {"text": "hi"}, "_meta": {}}),
    ));
    assert_ne!(absent.committed.target, empty.committed.target);
    assert_ne!(absent.committed.effect, empty.committed.effect);
    assert_eq!(absent.host, empty.host);
}

#[test]
fn context_values_enter_committed_only() {
    let meta = modern_meta(&[]);
    let base = identities(&frame(json!({"name": "t", "arguments": {}, "_meta": meta})));
    for (key, value) in [
        ("requestState", json!("opaque")),
        ("inputResponses", json!({"q": {"action": "accept"}})),
    ] {
        let mut params = json!({"name": "t", "arguments": {}, "_meta": meta});
        params[key] = value;
        let ids = identities(&frame(params));
        assert_ne!(ids.committed.target, base.committed.target, "{key}");
        assert_eq!(ids.host, base.host, "{key}");
    }
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-100_000i64..100_000).prop_map(|n| json!(n)),
        "[ -~é😀\\n\\t]{0,12}".prop_map(Value::String),
    ]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn unknown_meta() -> impl Strategy<Value = Vec<(String, Value)>> {
    prop::collection::btree_map("com\\.example/k[0-9]{1,2}", value(), 1..6)
        .prop_map(|m| m.into_iter().collect())
}

fn meta_object(members: &[(String, Value)]) -> Value {
    let mut meta = modern_meta(&[]).as_object().unwrap().clone();
    for (k, v) in members {
        meta.insert(k.clone(), v.clone());
    }
    Value::Object(meta)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn changing_one_meta_value_moves_committed_and_never_host(
        members in unknown_meta(),
        pick in any::<prop::sample::Index>(),
        replacement in value(),
        arguments in value(),
    ) {
        let arguments = match arguments { Value::Object(_) => arguments, other => json!({"v": other}) };
        let i = pick.index(members.len());
        prop_assume!(members[i].1 != replacement);
        let mut changed = members.clone();
        changed[i].1 = replacement;
        let before = identities(&frame(json!({"name": "t", "arguments": arguments, "_meta": meta_object(&members)})));
        let after = identities(&frame(json!({"name": "t", "arguments": arguments, "_meta": meta_object(&changed)})));
        prop_assert_ne!(&before.committed.target, &after.committed.target);
        prop_assert_ne!(&before.committed.effect, &after.committed.effect);
        prop_assert_eq!(&before.host, &after.host);
        prop_assert_eq!(&before.legacy, &after.legacy);
    }

    #[test]
    fn member_order_never_changes_an_identity(
        members in unknown_meta(),
        arguments in prop::collection::btree_map("[a-z]{1,4}", value(), 0..5),
        rotate_meta in 0usize..8,
        rotate_args in 0usize..8,
    ) {
        let mut reordered_meta = members.clone();
        reordered_meta.reverse();
        let n = reordered_meta.len();
        reordered_meta.rotate_left(rotate_meta % n.max(1));
        let mut args: Vec<(String, Value)> = arguments.into_iter().collect();
        let original_args: Map<String, Value> = args.iter().cloned().collect();
        args.reverse();
        let m = args.len();
        args.rotate_left(rotate_args % m.max(1));
        let reordered_args: Map<String, Value> = args.into_iter().collect();
        let a = identities(&frame(json!({"name": "t", "arguments": original_args, "_meta": meta_object(&members)})));
        let b = identities(&frame(json!({"_meta": meta_object(&reordered_meta), "arguments": reordered_args, "name": "t"})));
        prop_assert_eq!(a, b);
    }
}
