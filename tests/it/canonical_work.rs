//! The canonical-work bound at its edge: the frame that makes the most canonical bytes
//! sealkit knows how to build — exactly 1 MiB with its delimiter, arguments and `_meta`
//! packed with `1e308` (5 bytes that Lean renders as 309 digits), `_meta` at its item bound —
//! is accepted, stays under `MAX_CANONICAL_BYTES` and comes within sight of it; one byte
//! more and the frame is refused before anything is rendered.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use sealkit::frame::MAX_FRAME_BYTES;
use sealkit::meta::{MAX_META_BYTES, MAX_META_ITEMS};
use sealkit::request::{
    self, Options, Session, Verdict, MAX_CANONICAL_BYTES, MAX_LEAN_EXPANSION, MAX_SERDE_EXPANSION,
};

const BIG: &str = "1e308";

/// `1e308` repeated in arrays of at most 4000 (seal-host's cap is 4096 per container).
fn packed(count: usize) -> String {
    let inner: Vec<String> = (0..count)
        .collect::<Vec<_>>()
        .chunks(4000)
        .map(|chunk| format!("[{}]", vec![BIG; chunk.len()].join(",")))
        .collect();
    format!("[{}]", inner.join(","))
}

/// A frame of exactly `length` bytes (LF included), padded with spaces before the LF.
fn worst_frame(length: usize) -> Vec<u8> {
    // `_meta` takes as many numbers as its item bound allows (one member, its array).
    let meta = format!(r#"{{"m":[{}]}}"#, vec![BIG; MAX_META_ITEMS - 1].join(","));
    assert!(meta.len() <= MAX_META_BYTES);
    let head = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":"#;
    let frame_with = |n: usize| format!(r#"{head}{meta},"arguments":{{"a":{}}}}}}}"#, packed(n));
    let mut n = (length - head.len() - meta.len()) / (BIG.len() + 1);
    while frame_with(n).len() + 1 > length {
        n -= 1;
    }
    let mut frame = frame_with(n).into_bytes();
    frame.resize(length - 1, b' ');
    frame.push(b'\n');
    frame
}

#[test]
fn the_bound_is_what_the_limits_give() {
    assert_eq!(
        MAX_CANONICAL_BYTES,
        MAX_LEAN_EXPANSION * (MAX_FRAME_BYTES + MAX_META_BYTES)
            + MAX_SERDE_EXPANSION * MAX_FRAME_BYTES
    );
    assert_eq!(MAX_CANONICAL_BYTES, 72_286_208);
    // The expansion factors are the worst cases the renderers can reach.
    assert_eq!(sealkit::canonical::lean_number(BIG).unwrap().len(), 309);
    assert!(309 <= MAX_LEAN_EXPANSION * BIG.len());
    assert!(310 <= MAX_LEAN_EXPANSION * "-1e308".len());
    let serde = sealkit::canonical::serde_number("1e15").unwrap();
    assert_eq!(serde, "1000000000000000.0");
    assert!(serde.len() <= MAX_SERDE_EXPANSION * "1e15".len());
}

#[test]
fn the_worst_frame_at_the_size_limit_stays_under_the_bound() {
    let frame = worst_frame(MAX_FRAME_BYTES);
    assert_eq!(frame.len(), MAX_FRAME_BYTES);
    let Verdict::Call(call) =
        request::analyze(&frame, &Options::default(), &mut Session::default())
    else {
        panic!("the edge frame is accepted");
    };
    assert!(
        call.canonical_bytes() <= MAX_CANONICAL_BYTES,
        "{} > {MAX_CANONICAL_BYTES}",
        call.canonical_bytes()
    );
    // Within sight of the bound: the factors are not loose by more than a third.
    assert!(
        call.canonical_bytes() * 4 >= MAX_CANONICAL_BYTES * 3,
        "{} is far below {MAX_CANONICAL_BYTES}",
        call.canonical_bytes()
    );
}

#[test]
fn through_the_binary_the_edge_frame_is_accepted_and_one_byte_more_refused() {
    let run = |frame: Vec<u8>| {
        let output = Command::cargo_bin("sealkit")
            .unwrap()
            .args(["target", "--format", "jsonl", "-"])
            .write_stdin(frame)
            .output()
            .unwrap();
        let record: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        (output.status.code().unwrap(), record)
    };
    let (status, record) = run(worst_frame(MAX_FRAME_BYTES));
    assert_eq!((status, record["status"].as_str()), (0, Some("ok")));
    assert_eq!(record["subject"]["length"], MAX_FRAME_BYTES);
    let (status, record) = run(worst_frame(MAX_FRAME_BYTES + 1));
    assert_eq!(status, 1);
    assert_eq!(record["code"], "frame-too-large");
}

/// The validated call of a frame the pipeline accepts.
fn call_of(frame: &str) -> Box<request::Call> {
    let Verdict::Call(call) = request::analyze(
        frame.as_bytes(),
        &Options::default(),
        &mut Session::default(),
    ) else {
        panic!("{frame} is accepted");
    };
    call
}

/// `Call::canonical_bytes` counts `_meta` as the bound does: its whole rendering once and each
/// of its values once more. (cargo-mutants, session 12: the per-value sum subtracted instead of
/// added survived every test, the edge frame's count staying within sight of the bound; this
/// test turns it red, and the sum multiplied.)
#[test]
fn the_count_holds_meta_whole_and_each_value_again() {
    let bare = call_of(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"x":1}}}"#,
    );
    let with_meta = call_of(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"k":"vvvvvvvvvv","n":[1,2]},"arguments":{"x":1}}}"#,
    );
    let meta = with_meta.meta();
    let rendering = r#"{"k":"vvvvvvvvvv","n":[1,2]}"#;
    assert_eq!(meta.canonical(), Some(rendering));
    let values: Vec<(&str, &str)> = meta.entries().collect();
    assert_eq!(values, [("k", r#""vvvvvvvvvv""#), ("n", "[1,2]")]);
    // What `_meta` adds: its rendering (28), its values again (12 + 5), and the member
    // `"_meta":{…},` the host's projection of the request carries (8 + 28 + 1).
    assert_eq!(bare.canonical_bytes(), 95);
    assert_eq!(
        with_meta.canonical_bytes() - bare.canonical_bytes(),
        rendering.len() + (12 + 5) + ("\"_meta\":".len() + rendering.len() + 1)
    );
    assert_eq!(with_meta.canonical_bytes(), 177);
}

/// `requestState` and `inputResponses` each add their rendering and the member the host's
/// projection of the request carries (session 12: the sum's `+` → `-` before either, and `*`
/// before `inputResponses`, survived every test; this test turns each red).
#[test]
fn the_count_holds_each_context_member_and_its_place_in_the_request() {
    let count = |frame: &str| call_of(frame).canonical_bytes();
    let frame = |extra: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"x":1}}{extra}}}}}"#
        )
    };
    let state = r#""opaque""#;
    let responses = r#"{"q":{"action":"accept"}}"#;
    let member = |name: &str, value: &str| format!(r#","{name}":{value}"#).len();
    let bare = count(&frame(""));
    assert_eq!(bare, 95);
    let with_state = count(&frame(&format!(r#","requestState":{state}"#)));
    assert_eq!(
        with_state - bare,
        state.len() + member("requestState", state)
    );
    let with_responses = count(&frame(&format!(r#","inputResponses":{responses}"#)));
    assert_eq!(
        with_responses - bare,
        responses.len() + member("inputResponses", responses)
    );
    let with_both = count(&frame(&format!(
        r#","requestState":{state},"inputResponses":{responses}"#
    )));
    assert_eq!((with_state, with_responses, with_both), (127, 163, 195));
}
