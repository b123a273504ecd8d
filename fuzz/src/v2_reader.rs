//! The `v2_reader` fuzz target: v2::read / serialize / compress, typed requests and targets
//! (of the frames the validation pipeline accepts: the only way into typed targets).

use super::{is_lower_hex64, PARSE_DEPTH, TOOL_SPECS};
use sealkit::canonical;
use sealkit::digest::sha256_hex;
use sealkit::json::{self, JsonValue, Node};
use sealkit::request::{self, Options, Session};
use sealkit::typed::{self, ToolSpecs};
use sealkit::v2;

/// The canonical V2 reader accepts exactly the serializer's output: an accepted line
/// serializes back to its own bytes, and a value built from any JSON text serializes to a
/// line the reader accepts as the same value.
pub fn v2_reader(data: &[u8]) {
    match v2::read(data) {
        Ok(value) => {
            let line = v2::serialize(&value);
            assert_eq!(
                line.as_bytes(),
                data,
                "an accepted V2 line must be canonical"
            );
            let text = std::str::from_utf8(data).unwrap_or_else(|_| panic!("accepted is ASCII"));
            let plain = json::parse(text, PARSE_DEPTH)
                .unwrap_or_else(|e| panic!("an accepted V2 line is not JSON: {e:?}"));
            match (v2::compress(&value), canonical::lean_compress(&plain)) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "V2 compress and Lean compress differ"),
                (Err(_), Err(_)) => {}
                (a, b) => panic!("V2 compress {a:?} but Lean compress {b:?}"),
            }
        }
        Err(refusal) => {
            assert!(refusal.offset <= data.len(), "{refusal:?}");
            assert!(v2::V2RefusalCode::ALL.contains(&refusal.code));
        }
    }
    let specs = ToolSpecs::parse(TOOL_SPECS).unwrap_or_else(|e| panic!("fixed specs: {e}"));
    let accepted = request::accept(data, &Options::default(), &mut Session::default());
    if let Some(typed) = accepted
        .ok()
        .and_then(|accepted| typed::typed_target_of(&accepted, &specs))
    {
        let _ = typed.summary();
        if let typed::Typed::Computed(target) = &typed {
            assert!(is_lower_hex64(&target.committed.sha256));
            assert_eq!(target.host.sha256, sha256_hex(target.host.key.as_bytes()));
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = ToolSpecs::parse(text);
        if let Ok(node) = json::parse(text, v2::MAX_DEPTH) {
            let value = to_v2(&node);
            let line = v2::serialize(&value);
            let back = v2::read(line.as_bytes())
                .unwrap_or_else(|r| panic!("serializer output refused: {r} in {line}"));
            assert_eq!(back, value, "V2 round trip changed the value");
        }
    }
}

/// A V2 value holding the same strings and structure as a parsed JSON value; numbers
/// that are not canonical V2 literals become their canonical neighbour `0`.
fn to_v2(node: &Node<'_>) -> v2::V2Value {
    match &node.value {
        JsonValue::Null => v2::V2Value::Null,
        JsonValue::Bool(b) => v2::V2Value::Bool(*b),
        JsonValue::Number(literal) => {
            let canonical = v2::read(literal.as_bytes()).is_ok();
            v2::V2Value::Number(if canonical {
                (*literal).to_owned()
            } else {
                "0".into()
            })
        }
        JsonValue::String(s) => v2::V2Value::String(s.to_string()),
        JsonValue::Array(items) => v2::V2Value::Array(items.iter().map(to_v2).collect()),
        JsonValue::Object(members) => {
            let mut out: Vec<(String, v2::V2Value)> = Vec::new();
            for member in members {
                if out.iter().all(|(k, _)| k != member.key.as_ref()) {
                    out.push((member.key.to_string(), to_v2(&member.value)));
                }
            }
            v2::V2Value::Object(out)
        }
    }
}
