//! The `seal.object-b/v2` "three-artifact byte lock" of a record_version 3 receipt
//! (reference/seal-host-formats.md §3.4): the signature block, object B (the receipt minus
//! `signature`, re-serialized by serde_json compact in stored member order, exactly as
//! seal-host's verifier does), and the preimage
//! `"seal.object-b/v2" 0x00 ‖ blob(A) ‖ (0x02 | 0x03 ‖ blob(statement)) ‖ blob(B) ‖ release
//! tag ‖ blob(operation_id) ‖ durability tag`, `blob(b)` = `0x00 x` per byte then `0x01`.

use serde_json::{Map, Value};

pub const DOMAIN: &str = "seal.object-b/v2";

/// The receipt's `signature` member, with seal-host's exact shape (six strings, nothing else).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureBlock {
    pub public_key: String,
    pub key_id: String,
    pub value: String,
}

/// Reads the signature block; the error says what seal-host would refuse.
pub fn signature_block(receipt: &Map<String, Value>) -> Result<SignatureBlock, String> {
    let block = receipt
        .get("signature")
        .ok_or("the receipt has no signature")?
        .as_object()
        .ok_or("signature is not an object")?;
    const MEMBERS: [&str; 6] = [
        "domain",
        "algorithm",
        "public_key",
        "key_id",
        "encoding",
        "value",
    ];
    if block.len() != MEMBERS.len() || !MEMBERS.iter().all(|m| block.contains_key(*m)) {
        return Err("signature members are not exactly domain, algorithm, public_key, key_id, encoding, value".into());
    }
    let text = |name: &str| -> Result<String, String> {
        block
            .get(name)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| format!("signature.{name} is not a string"))
    };
    if text("domain")? != DOMAIN {
        return Err("unrecognised receipt signature domain tag".into());
    }
    if text("algorithm")? != "Ed25519" || text("encoding")? != "base64url-nopad" {
        return Err("unsupported receipt signature parameters".into());
    }
    Ok(SignatureBlock {
        public_key: text("public_key")?,
        key_id: text("key_id")?,
        value: text("value")?,
    })
}

/// Release status tag inside the preimage.
pub fn release_tag(status: &str) -> Option<u8> {
    Some(match status {
        "PENDING" => 4,
        "UNKNOWN" => 5,
        "RELEASED" => 6,
        "NOT_APPLICABLE" => 7,
        _ => return None,
    })
}

/// Durability class tag inside the preimage.
pub fn durability_tag(class: &str) -> Option<u8> {
    Some(match class {
        "asserted_local_fsync" => 8,
        "witnessed_external" => 9,
        "unknown" => 10,
        _ => return None,
    })
}

/// Writes object B: the receipt without `signature`, compact, in the order seal-host's
/// verifier produces. serde_json's `Map::remove` is a swap-remove under `preserve_order`, so
/// when `signature` is not the last member the last member takes its place.
pub fn write_object_b(receipt: &Map<String, Value>, out: &mut Vec<u8>) -> Result<(), String> {
    let keys: Vec<&String> = receipt.keys().collect();
    let n = keys.len();
    let removed = keys.iter().position(|k| *k == "signature");
    let order = (0..n).filter_map(|j| match removed {
        None => Some(j),
        Some(i) if j == i => (i + 1 < n).then_some(n - 1),
        Some(_) if j == n - 1 => None,
        Some(_) => Some(j),
    });
    out.push(b'{');
    for (written, index) in order.enumerate() {
        if written > 0 {
            out.push(b',');
        }
        let key = keys[index];
        serde_json::to_writer(&mut *out, key).map_err(|e| e.to_string())?;
        out.push(b':');
        serde_json::to_writer(&mut *out, &receipt[key.as_str()]).map_err(|e| e.to_string())?;
    }
    out.push(b'}');
    Ok(())
}

/// Appends `blob(bytes)`.
pub fn push_blob(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    out.resize(start + bytes.len() * 2, 0);
    for (pair, &b) in out[start..].chunks_exact_mut(2).zip(bytes) {
        pair[1] = b;
    }
    out.push(1);
}

/// The parts of the preimage besides object B.
#[derive(Debug, Clone, Copy)]
pub struct LockParts<'a> {
    pub object_a: &'a [u8],
    pub approval_statement: Option<&'a [u8]>,
    pub release_tag: u8,
    pub operation_id: &'a str,
    pub durability_tag: u8,
}

/// Builds the preimage into `out` (cleared first), using `object_b` as already serialized.
pub fn preimage(parts: &LockParts<'_>, object_b: &[u8], out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(DOMAIN.as_bytes());
    out.push(0);
    push_blob(out, parts.object_a);
    match parts.approval_statement {
        None => out.push(2),
        Some(statement) => {
            out.push(3);
            push_blob(out, statement);
        }
    }
    push_blob(out, object_b);
    out.push(parts.release_tag);
    push_blob(out, parts.operation_id.as_bytes());
    out.push(parts.durability_tag);
}

/// Signs a record_version 3 receipt the way seal-host's writer does: drop any old
/// `signature`, sign the preimage with `seed`, append the six-member signature block last.
/// seal-host is the producer of real receipts; sealkit uses this to build test and benchmark
/// receipts.
pub fn sign(receipt: &mut Map<String, Value>, seed: &[u8; 32]) -> Result<(), String> {
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    use base64::Engine as _;
    use ed25519_dalek::Signer;
    receipt.shift_remove("signature");
    let text = |name: &str| receipt.get(name).and_then(Value::as_str);
    let artifacts = receipt.get("signed_artifacts");
    let decode = |name: &str| -> Result<Option<Vec<u8>>, String> {
        match artifacts.and_then(|a| a.get(name)) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(b64)) => STANDARD.decode(b64).map(Some).map_err(|e| e.to_string()),
            Some(_) => Err(format!("signed_artifacts.{name} is not a string")),
        }
    };
    let object_a = decode("object_a")?.ok_or("no object_a")?;
    let statement = decode("approval_statement")?;
    let parts = LockParts {
        object_a: &object_a,
        approval_statement: statement.as_deref(),
        release_tag: text("release_status")
            .and_then(release_tag)
            .ok_or("bad release_status")?,
        operation_id: text("operation_id").ok_or("no operation_id")?,
        durability_tag: text("durability_class")
            .and_then(durability_tag)
            .ok_or("bad durability_class")?,
    };
    let mut object_b = Vec::new();
    write_object_b(receipt, &mut object_b)?;
    let mut message = Vec::new();
    preimage(&parts, &object_b, &mut message);
    let key = ed25519_dalek::SigningKey::from_bytes(seed);
    let public = key.verifying_key().to_bytes();
    let signature = key.sign(&message).to_bytes();
    let mut block = Map::new();
    for (name, value) in [
        ("domain", DOMAIN.to_owned()),
        ("algorithm", "Ed25519".to_owned()),
        ("public_key", crate::digest::hex_lower(&public)),
        ("key_id", crate::digest::sha256_hex(&public)),
        ("encoding", "base64url-nopad".to_owned()),
        ("value", URL_SAFE_NO_PAD.encode(signature)),
    ] {
        block.insert(name.to_owned(), Value::String(value));
    }
    receipt.insert("signature".to_owned(), Value::Object(block));
    Ok(())
}

/// seal-host's file bytes for a receipt: `to_string_pretty` + LF.
pub fn to_file_bytes(receipt: &Map<String, Value>) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(receipt).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn object_b(text: &str) -> String {
        let value: Value = serde_json::from_str(text).unwrap();
        let mut out = Vec::new();
        write_object_b(value.as_object().unwrap(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn object_b_drops_the_last_signature_and_keeps_order() {
        assert_eq!(
            object_b(r#"{"b":1,"a":[1.5,"\u0001"],"signature":{}}"#),
            r#"{"b":1,"a":[1.5,"\u0001"]}"#
        );
    }

    #[test]
    fn object_b_swap_removes_a_misplaced_signature_like_serde() {
        assert_eq!(
            object_b(r#"{"a":1,"signature":{},"b":2,"c":3}"#),
            r#"{"a":1,"c":3,"b":2}"#
        );
        let mut value: Value =
            serde_json::from_str(r#"{"a":1,"signature":{},"b":2,"c":3}"#).unwrap();
        value.as_object_mut().unwrap().remove("signature");
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            r#"{"a":1,"c":3,"b":2}"#
        );
    }

    #[test]
    fn preimage_layout_matches_the_fact_sheet() {
        let mut out = Vec::new();
        let parts = LockParts {
            object_a: b"A",
            approval_statement: None,
            release_tag: 7,
            operation_id: "o",
            durability_tag: 8,
        };
        preimage(&parts, b"B", &mut out);
        assert_eq!(
            out,
            b"seal.object-b/v2\x00\x00A\x01\x02\x00B\x01\x07\x00o\x01\x08".to_vec()
        );
    }
}
