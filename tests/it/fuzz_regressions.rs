//! One test per defect the fuzz targets found in the library, each asserting the
//! exact corrected value. The crash inputs themselves live in `tests/fuzz-regressions/`
//! and are replayed through the fuzz invariants by `tests/fuzz_corpus.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use sealkit::canonical::serde_number;
use sealkit::digest::sha256_hex;
use sealkit::request::{analyze, Options, Session, Verdict};

fn call(frame: &str) -> Box<sealkit::request::Call> {
    match analyze(
        frame.as_bytes(),
        &Options::default(),
        &mut Session::default(),
    ) {
        Verdict::Call(call) => call,
        other => panic!("expected a call, got {other:?}"),
    }
}

/// `canonical` target, crash-60cdc44b: serde_json without `float_roundtrip` read
/// `1.0e+228` one ULP off and rendered `1.0000000000000001e+228`. seal-host v0.1.6 is
/// built with `float_roundtrip` (through its jsonschema dependency) and renders `1e+228`.
#[test]
fn serde_renders_decimals_correctly_rounded_as_seal_host_does() {
    assert_eq!(serde_number("1.0e+228").unwrap(), "1e+228");
    assert_eq!(serde_number("0.0e+28").unwrap(), "0.0");
    let frame = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"t","arguments":{"min":0.0e+28,"max":1.0e+228}}}"#;
    let call = call(frame);
    let args = r#"{"min":0.0,"max":1e+228}"#;
    assert_eq!(call.args_hash(), Some(sha256_hex(args.as_bytes()).as_str()));
    assert_eq!(
        call.canonical_request(),
        Some(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"min":0.0,"max":1e+228}}}"#
        )
    );
    // Lean keeps the exact decimal: 1 followed by 228 zeros.
    let lean = format!(r#"{{"max":1{},"min":0}}"#, "0".repeat(228));
    assert_eq!(call.canonical_arguments(), lean);
}
