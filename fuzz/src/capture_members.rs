//! The `capture_members` fuzz target: captures whose frames write a member name twice, on
//! every path (a request's or a response's own members, `params`, `_meta`, the trust
//! annotation, a reference, at any depth). Such a frame is refused by every reader of
//! captured frames (the strict frame reader, the validation pipeline, the evidence capture
//! reader), never read by one of its copies.

use super::pick;
use sealkit::evidence::capture::{self, Found};
use sealkit::evidence::{EvidenceCode, DEFAULT_ANNOTATION_KEY};
use sealkit::frame::{self, FrameReader, Unread};
use sealkit::json::{self, JsonValue, Node};
use sealkit::request::{self, Options, Session, Verdict};

/// A call and its annotated response: the frame the input's choices double a member of when
/// the input itself holds no object.
const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,{"b":2}]},"_meta":{"k":"v"}}}"#;
const RESPONSE: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[],"_meta":{"io.modelcontextprotocol/trust-annotations":{"sensitive":true,"evidenceRef":[{"type":"seal.authorization-decision.v3","digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000","canonicalization":"rfc8785","ref":"r.json"}]}}}}"#;

/// The input read as a capture, then every frame of it (or of the fixed call and response)
/// with one member, chosen by the input, written twice.
pub fn capture_members(data: &[u8]) {
    every_repeated_frame_is_refused(data);
    let text = String::from_utf8_lossy(data);
    let mut doubled_any = false;
    for (salt, line) in text.lines().enumerate() {
        if let Some(doubled) = doubled(line, data, salt as u64) {
            refused_everywhere(&doubled);
            doubled_any = true;
        }
    }
    if !doubled_any {
        for (salt, line) in [CALL, RESPONSE].iter().enumerate() {
            let doubled = doubled(line, data, 100 + salt as u64)
                .unwrap_or_else(|| panic!("the fixed frame {line} has members"));
            refused_everywhere(&doubled);
        }
    }
}

/// Every object of a parsed value, in document order.
fn objects<'n, 'a>(node: &'n Node<'a>, out: &mut Vec<&'n Node<'a>>) {
    match &node.value {
        JsonValue::Object(members) => {
            if !members.is_empty() {
                out.push(node);
            }
            members.iter().for_each(|m| objects(&m.value, out));
        }
        JsonValue::Array(items) => items.iter().for_each(|item| objects(item, out)),
        _ => {}
    }
}

/// `line` with one of its members (object and member chosen by `data`) written again right
/// after itself, when `line` is JSON with a non-empty object.
fn doubled(line: &str, data: &[u8], salt: u64) -> Option<String> {
    let root = json::parse(line, json::DUPLICATE_SCAN_DEPTH).ok()?;
    let mut found = Vec::new();
    objects(&root, &mut found);
    let object = found.get(pick(data, salt, found.len()))?;
    let members = object.value.as_object()?;
    let member = &members[pick(data, salt ^ 0x5eed, members.len())];
    let (start, end) = (member.key_span.start, member.value.span.end);
    Some(format!(
        "{},{}{}",
        &line[..end],
        &line[start..end],
        &line[end..]
    ))
}

/// A frame that writes a member name twice is refused by the strict reader with
/// `duplicate-key`, by the validation pipeline (whatever guard refuses it first), and by the
/// capture reader in its place, as a request after a call and as a response to it.
fn refused_everywhere(line: &str) {
    let frame = format!("{line}\n");
    assert!(
        json::find_duplicate(line).ok().flatten().is_some(),
        "the doubled frame repeats no member: {line}"
    );
    match frame::read_line_strict(frame.as_bytes()) {
        Err(unread @ Unread::Repeated(_)) => assert_eq!(unread.code(), Some("duplicate-key")),
        other => panic!("the strict reader read a repeated member: {other:?} for {line}"),
    }
    let verdict = request::analyze(
        frame.as_bytes(),
        &Options::default(),
        &mut Session::default(),
    );
    assert!(
        matches!(verdict, Verdict::Refused(_)),
        "the pipeline let a repeated member through: {line}"
    );
    let capture = format!("{CALL}\n{line}\n{RESPONSE}\n");
    let found = capture::read(
        capture.as_bytes(),
        DEFAULT_ANNOTATION_KEY,
        &Options::default(),
    )
    .unwrap_or_else(|e| panic!("in-memory read: {e}"));
    let at_2: Vec<&Found> = found.found.iter().filter(|f| line_of(f) == 2).collect();
    assert!(
        matches!(at_2.as_slice(), [Found::NotRead(n)] if n.code == EvidenceCode::DuplicateKey),
        "frame 2 was not refused as duplicate-key: {at_2:?} for {line}"
    );
}

fn line_of(found: &Found) -> u64 {
    match found {
        Found::Annotated(a) => a.line,
        Found::NotRead(n) => n.line,
    }
}

/// Over the input as a capture: every frame that writes a member name twice is reported as
/// `duplicate-key` in its place, and no annotation is read from such a frame.
fn every_repeated_frame_is_refused(data: &[u8]) {
    let found = capture::read(data, DEFAULT_ANNOTATION_KEY, &Options::default())
        .unwrap_or_else(|e| panic!("in-memory read: {e}"));
    let again = capture::read(data, DEFAULT_ANNOTATION_KEY, &Options::default())
        .unwrap_or_else(|e| panic!("in-memory read: {e}"));
    assert_eq!(
        found.found, again.found,
        "capture reading is not deterministic"
    );
    let mut frames = FrameReader::new(data);
    while let Some(frame) = frames
        .next_frame()
        .unwrap_or_else(|e| panic!("in-memory read: {e}"))
    {
        let repeated = !frame.is_oversized()
            && std::str::from_utf8(frame::request_line(frame.bytes))
                .ok()
                .and_then(|text| json::find_duplicate(text).ok().flatten())
                .is_some();
        let here: Vec<&Found> = found
            .found
            .iter()
            .filter(|f| line_of(f) == frame.line)
            .collect();
        if repeated {
            assert!(
                matches!(here.as_slice(), [Found::NotRead(n)] if n.code == EvidenceCode::DuplicateKey),
                "frame {} repeats a member but was {here:?}",
                frame.line
            );
        } else {
            assert!(
                !here.iter().any(
                    |f| matches!(f, Found::NotRead(n) if n.code == EvidenceCode::DuplicateKey)
                ),
                "frame {} repeats no member but was refused as duplicate-key",
                frame.line
            );
        }
    }
}
