//! The approval statement a record_version 3 receipt signs (`signed_artifacts.approval_statement`)
//! must be a canonical ApprovalRecord v2 payload (reference/seal-host-formats.md §1.2, §1.3):
//! 19 members, all required, none unknown, each of its type and constraint, and byte-identical
//! to its own re-rendering (members byte-sorted, no whitespace, `\u00xx` lowercase for
//! controls). The token signature is not in the receipt, so only the payload is checked here.
//!
//! Private to receipts on purpose: `crate::approval` owns ApprovalRecord v2 in full; this is
//! the subset a receipt check needs (the lead may route it through `crate::approval`).

use crate::digest::is_sha256_hex;
use crate::json::{self, Node, Value};

/// The fields a receipt binds the statement to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    pub target: String,
    pub authorized_at: u64,
    pub expiry: u64,
    pub nonce: String,
    pub subject_sha256: String,
    pub subject_length: u64,
    pub authorization_signer_key_id: String,
}

const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// Parses and validates a statement; the error says the first rule it breaks.
pub fn parse(bytes: &[u8]) -> Result<Statement, String> {
    let text = std::str::from_utf8(bytes).map_err(|_| "statement is not UTF-8".to_owned())?;
    let node =
        json::parse(text, 16).map_err(|e| format!("statement is not JSON: {}", e.message))?;
    let members = node
        .value
        .as_object()
        .ok_or("statement is not a JSON object")?;
    let mut names: Vec<&str> = members.iter().map(|m| m.key.as_ref()).collect();
    names.sort_unstable();
    let expected = {
        let mut e = FIELDS.to_vec();
        e.sort_unstable();
        e
    };
    if names != expected {
        return Err(format!(
            "statement members are not exactly the 19 ApprovalRecord v2 fields (got {})",
            names.join(",")
        ));
    }
    let get = |name: &str| node.value.get(name).map(|n| &n.value);
    let string = |name: &str| -> Result<&str, String> {
        get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{name} is not a string"))
    };
    let nonempty = |name: &str| -> Result<&str, String> {
        string(name).and_then(|s| {
            if s.is_empty() {
                Err(format!("{name} is empty"))
            } else {
                Ok(s)
            }
        })
    };
    let hex64 = |name: &str| -> Result<&str, String> {
        string(name).and_then(|s| {
            if is_sha256_hex(s) {
                Ok(s)
            } else {
                Err(format!("{name} is not 64 lowercase hex digits"))
            }
        })
    };
    let integer = |name: &str| -> Result<u64, String> {
        match get(name) {
            Some(Value::Number(literal)) => safe_integer(literal)
                .ok_or_else(|| format!("{name} is not an integer in 0..=2^53-1")),
            _ => Err(format!("{name} is not an integer")),
        }
    };
    let exactly = |name: &str, value: &str| -> Result<(), String> {
        if string(name)? == value {
            Ok(())
        } else {
            Err(format!("{name} is not {value:?}"))
        }
    };
    if integer("approval_record_version")? != 2 {
        return Err("approval_record_version is not 2".into());
    }
    let authorized_at = integer("authorized_at")?;
    let expiry = integer("expiry")?;
    if expiry < authorized_at {
        return Err("expiry is before authorized_at".into());
    }
    nonempty("session")?;
    nonempty("approver")?;
    hex64("shown_sha256")?;
    integer("shown_length")?;
    exactly(
        "subject_scope",
        "mcp-jsonrpc-request-frame-including-delimiter",
    )?;
    exactly("subject_encoding", "bytes")?;
    exactly("shown_media_type", "text/plain")?;
    exactly("shown_character_encoding", "utf-8")?;
    exactly("authorization_signature_algorithm", "Ed25519")?;
    exactly("authorization_domain", "seal.approval-record/v2")?;
    check_renderer(node.value.get("renderer"))?;
    let statement = Statement {
        target: hex64("target")?.to_owned(),
        authorized_at,
        expiry,
        nonce: nonempty("nonce")?.to_owned(),
        subject_sha256: hex64("subject_sha256")?.to_owned(),
        subject_length: integer("subject_length")?,
        authorization_signer_key_id: nonempty("authorization_signer_key_id")?.to_owned(),
    };
    let mut rendered = String::with_capacity(bytes.len());
    render(&node, &mut rendered)?;
    if rendered.as_bytes() != bytes {
        return Err("statement bytes are not the canonical ApprovalRecord v2 rendering".into());
    }
    Ok(statement)
}

const FIELDS: [&str; 19] = [
    "approval_record_version",
    "target",
    "authorized_at",
    "expiry",
    "nonce",
    "session",
    "subject_sha256",
    "subject_length",
    "subject_scope",
    "subject_encoding",
    "shown_sha256",
    "shown_length",
    "shown_media_type",
    "shown_character_encoding",
    "renderer",
    "approver",
    "authorization_signer_key_id",
    "authorization_signature_algorithm",
    "authorization_domain",
];

fn check_renderer(renderer: Option<&Node<'_>>) -> Result<(), String> {
    let members = renderer
        .and_then(|r| r.value.as_object())
        .ok_or("renderer is not an object")?;
    let mut names: Vec<&str> = members.iter().map(|m| m.key.as_ref()).collect();
    names.sort_unstable();
    if names != ["manifest_sha256", "name", "version"] {
        return Err("renderer members are not exactly name, version, manifest_sha256".into());
    }
    for member in members {
        let text = member
            .value
            .value
            .as_str()
            .ok_or_else(|| format!("renderer.{} is not a string", member.key))?;
        let ok = match member.key.as_ref() {
            "manifest_sha256" => is_sha256_hex(text),
            _ => !text.is_empty(),
        };
        if !ok {
            return Err(format!("renderer.{} is invalid", member.key));
        }
    }
    Ok(())
}

/// A JSON integer literal in 0..=2^53-1 (no sign, fraction or exponent).
fn safe_integer(literal: &str) -> Option<u64> {
    if literal.is_empty() || !literal.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    literal
        .parse::<u64>()
        .ok()
        .filter(|&n| n <= MAX_SAFE_INTEGER)
}

/// The ApprovalRecord v2 renderer: members byte-sorted, no whitespace.
fn render(node: &Node<'_>, out: &mut String) -> Result<(), String> {
    match &node.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(literal) => {
            let n = safe_integer(literal).ok_or("a number is not a safe integer")?;
            out.push_str(&n.to_string());
        }
        Value::String(text) => render_string(text, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render(item, out)?;
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut sorted: Vec<_> = members.iter().collect();
            sorted.sort_by(|a, b| a.key.as_bytes().cmp(b.key.as_bytes()));
            out.push('{');
            for (i, member) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                render_string(&member.key, out);
                out.push(':');
                render(&member.value, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

fn render_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{0}'..='\u{1f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            _ => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    const PAYLOAD: &str = r#"{"approval_record_version":2,"approver":"a","authorization_domain":"seal.approval-record/v2","authorization_signature_algorithm":"Ed25519","authorization_signer_key_id":"k","authorized_at":1,"expiry":2,"nonce":"n","renderer":{"manifest_sha256":"0000000000000000000000000000000000000000000000000000000000000000","name":"r","version":"1"},"session":"s","shown_character_encoding":"utf-8","shown_length":3,"shown_media_type":"text/plain","shown_sha256":"1111111111111111111111111111111111111111111111111111111111111111","subject_encoding":"bytes","subject_length":4,"subject_scope":"mcp-jsonrpc-request-frame-including-delimiter","subject_sha256":"2222222222222222222222222222222222222222222222222222222222222222","target":"3333333333333333333333333333333333333333333333333333333333333333"}"#;

    #[test]
    fn canonical_payload_parses() {
        let statement = parse(PAYLOAD.as_bytes()).unwrap();
        assert_eq!(statement.authorized_at, 1);
        assert_eq!(statement.subject_length, 4);
        assert_eq!(statement.target, "3".repeat(64));
    }

    #[test]
    fn reordered_spaced_or_float_payloads_are_refused() {
        let reordered = PAYLOAD.replacen(
            r#""approval_record_version":2,"approver":"a""#,
            r#""approver":"a","approval_record_version":2"#,
            1,
        );
        assert!(parse(reordered.as_bytes())
            .unwrap_err()
            .contains("canonical"));
        let spaced = PAYLOAD.replacen(r#""expiry":2"#, r#""expiry": 2"#, 1);
        assert!(parse(spaced.as_bytes()).unwrap_err().contains("canonical"));
        let float = PAYLOAD.replacen(r#""expiry":2"#, r#""expiry":2.0"#, 1);
        assert!(parse(float.as_bytes()).unwrap_err().contains("expiry"));
        let backwards = PAYLOAD.replacen(r#""expiry":2"#, r#""expiry":0"#, 1);
        assert!(parse(backwards.as_bytes()).unwrap_err().contains("before"));
    }

    #[test]
    fn controls_render_as_lowercase_u_escapes() {
        let mut out = String::new();
        render_string("a\nb\u{1f}\"\\é", &mut out);
        assert_eq!(out, "\"a\\u000ab\\u001f\\\"\\\\é\"");
    }
}
