//! The `frame_pipeline` fuzz target: bytes → frames → request::analyze → identities.

use super::canonical::lean_fixpoint;
use super::{is_lower_hex64, TOOL_SPECS};
use sealkit::digest::sha256_hex;
use sealkit::frame::{self, FrameReader, MAX_FRAME_BYTES};
use sealkit::identity;
use sealkit::request::{self, Call, EraMode, MetaState, Options, Session, Verdict};
use sealkit::typed::{self, ToolSpecs};
use sealkit::wire;

/// The input as one frame under every era mode, then as a capture split into frames that
/// share one session.
pub fn frame_pipeline(data: &[u8]) {
    for (era, server) in [
        (EraMode::Auto, ""),
        (EraMode::Legacy, "srv"),
        (EraMode::Modern, "\u{e9}\u{1F600}"),
    ] {
        let options = Options {
            server: server.to_owned(),
            era,
        };
        let verdict = request::analyze(data, &options, &mut Session::default());
        check_verdict(data, &verdict, &options);
        // The library's only way to a frame's line for the envelope and typed targets
        // agrees with the verdict, and its line is the frame's request line.
        match request::accept(data, &options, &mut Session::default()) {
            Ok(accepted) => {
                assert_eq!(accepted.line().as_bytes(), frame::request_line(data));
                assert_eq!(
                    accepted.call().is_some(),
                    matches!(verdict, Verdict::Call(_))
                );
            }
            Err(refusal) => assert!(matches!(&verdict, Verdict::Refused(r) if *r == refusal)),
        }
        let again = request::analyze(data, &options, &mut Session::default());
        assert_eq!(
            summary(&verdict),
            summary(&again),
            "analyze is not deterministic"
        );
    }
    capture(data);
}

fn capture(data: &[u8]) {
    let options = Options::default();
    let mut session = Session::default();
    let mut frames = FrameReader::new(data);
    let mut offset = 0u64;
    let mut rebuilt = Vec::with_capacity(data.len());
    while let Some(frame) = frames
        .next_frame()
        .unwrap_or_else(|e| panic!("in-memory read: {e}"))
    {
        assert_eq!(frame.offset, offset, "frame offsets must be contiguous");
        assert!(frame.length > 0);
        assert!(frame.bytes.len() as u64 <= frame.length);
        assert!(frame.bytes.len() <= MAX_FRAME_BYTES);
        let body = &frame.bytes[..frame.bytes.len().saturating_sub(1)];
        assert!(
            !body.contains(&b'\n'),
            "a frame holds at most one LF, at its end"
        );
        offset += frame.length;
        rebuilt.extend_from_slice(frame.bytes);
        let verdict = request::analyze_frame(&frame, &options, &mut session);
        if !frame.is_oversized() {
            check_verdict(frame.bytes, &verdict, &options);
        }
    }
    assert_eq!(offset, data.len() as u64, "frames must cover the capture");
    if data.len() <= MAX_FRAME_BYTES {
        assert_eq!(rebuilt, data, "frames must concatenate to the capture");
    }
}

fn summary(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Call(call) => format!(
            "call {} {} {:?}",
            call.identities().committed.effect,
            call.identities().legacy.target,
            call.canonical_request()
        ),
        Verdict::Refused(r) => format!("refused {} {:?}", r.code.as_str(), r.span),
        Verdict::Skipped(s) => format!("skipped {:?}", s),
    }
}

fn check_verdict(frame_bytes: &[u8], verdict: &Verdict, options: &Options) {
    match verdict {
        Verdict::Call(call) => check_call(frame_bytes, call, options),
        Verdict::Refused(refusal) => {
            assert!(refusal.span.start <= refusal.span.end, "{refusal:?}");
            assert!(refusal.span.end <= frame_bytes.len(), "{refusal:?}");
            assert!(!refusal.message.is_empty());
            assert_eq!(refusal.jsonrpc_code(), refusal.code.jsonrpc_code());
        }
        Verdict::Skipped(_) => {}
    }
}

fn check_call(frame_bytes: &[u8], call: &Call, options: &Options) {
    let line = frame::request_line(frame_bytes);
    let text = std::str::from_utf8(line).unwrap_or_else(|_| panic!("a call's line is UTF-8"));
    assert_eq!(wire::check(text), Ok(()), "a call passed every wire guard");
    assert!(!call.tool().is_empty());
    assert_eq!(call.subject().length, frame_bytes.len() as u64);
    assert_eq!(call.subject().sha256, sha256_hex(frame_bytes));
    assert_eq!(call.request_sha256(), sha256_hex(line));
    for pair in [
        &call.identities().committed,
        &call.identities().host,
        &call.identities().legacy,
    ] {
        assert!(is_lower_hex64(&pair.effect), "{pair:?}");
        assert!(is_lower_hex64(&pair.target), "{pair:?}");
    }
    assert_eq!(
        identity::compute(&call.inputs(&options.server)),
        *call.identities(),
        "identities must be a function of the canonical inputs"
    );
    let no_context = matches!(call.meta(), MetaState::Absent)
        && call.request_state().is_none()
        && call.input_responses().is_none();
    if no_context {
        assert_eq!(call.identities().committed, call.identities().host);
    }
    lean_fixpoint(call.canonical_arguments());
    for text in [
        call.meta().canonical(),
        call.request_state(),
        call.input_responses(),
    ]
    .into_iter()
    .flatten()
    {
        lean_fixpoint(text);
    }
    if let MetaState::Present {
        keys,
        canonical,
        values,
    } = call.meta()
    {
        assert!(keys.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()));
        assert_eq!(keys.len(), values.len());
        // Each value's place is a stretch of the whole rendering, in the order of the keys.
        assert!(values.iter().all(|v| canonical.get(v.clone()).is_some()));
        assert!(values.windows(2).all(|w| w[0].end < w[1].start));
        assert_eq!(call.meta().entries().len(), keys.len());
    }
    match (call.canonical_request(), call.canonical_request_sha256()) {
        (Some(text), Some(digest)) => {
            assert_eq!(*digest, sha256_hex(text.as_bytes()));
            serde_json::from_str::<serde_json::Value>(text)
                .unwrap_or_else(|e| panic!("canonical_request is not JSON ({e}): {text}"));
            assert!(call.args_hash().is_some_and(is_lower_hex64));
        }
        (None, None) => {}
        other => panic!("canonical_request and its digest disagree: {other:?}"),
    }
    let specs = ToolSpecs::parse(TOOL_SPECS).unwrap_or_else(|e| panic!("fixed specs: {e}"));
    if let Ok(accepted) = request::accept(frame_bytes, options, &mut Session::default()) {
        if let Some(typed) = typed::typed_target_of(&accepted, &specs) {
            let _ = typed.summary();
        }
    }
}
