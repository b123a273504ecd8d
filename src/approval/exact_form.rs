//! A typed, borrowed read of a token line in the one exact form the writers produce
//! (`sealkit approve` and seal's approve CLI): the v2 envelope's five members in their written
//! order with no whitespace, and a payload that is already its own canonical rendering; and a
//! signed v1 token's `{"payload":…,"signature":…}` as seal-host's decline writer lays it out. Any
//! other text — another member order, whitespace, an escape other than `\"` and `\\` in the
//! envelope, any escape in the payload, a number with a leading zero or over 2⁵³−1, a control
//! character, a target that is not 64 lowercase hex digits — gives `None`, and the caller
//! runs seal-host's serde_json parses instead, which decide every reason.
//!
//! Why a `Some` changes no verdict: the accepted text is valid JSON whose members are exactly
//! those of the strict serde structs, each once, with the same values (strings hold no escape
//! but `\"`/`\\` in the envelope, decoded as serde decodes them, and none in the payload;
//! integers are plain decimal digits), so serde_json's strict parse would succeed with equal
//! fields. For the payload, the members come in the canonical order with the canonical
//! spelling of every value (a string with no `"`, `\` or U+0000–U+001F renders as itself; an
//! integer in 0 … 2⁵³−1 as its digits), so the text equals the canonical rendering of its own
//! fields: `Payload::is_canonical_text` would be true. The unit tests hold both claims over
//! the written form and hundreds of variations of it (`approval::verify`'s tests).

use super::payload::{Payload, Renderer};
use super::MAX_INTEGER;
use crate::digest::is_sha256_hex;
use std::borrow::Cow;

/// The v2 envelope's members as the strict serde read gives them.
pub(super) struct EnvelopeText<'a> {
    pub payload: Cow<'a, str>,
    pub signature_algorithm: &'a str,
    pub signature_encoding: &'a str,
    pub signer_key_id: &'a str,
    pub signature: &'a str,
}

/// The five members of a v2 token in the written order, or `None` (see the module docs).
pub(super) fn envelope(line: &str) -> Option<EnvelopeText<'_>> {
    let rest = line.strip_prefix("{\"payload\":\"")?;
    let (payload, rest) = escaped_string(rest)?;
    let rest = rest.strip_prefix(",\"signature_algorithm\":\"")?;
    let (signature_algorithm, rest) = plain_string(rest)?;
    let rest = rest.strip_prefix(",\"signature_encoding\":\"")?;
    let (signature_encoding, rest) = plain_string(rest)?;
    let rest = rest.strip_prefix(",\"signer_key_id\":\"")?;
    let (signer_key_id, rest) = plain_string(rest)?;
    let rest = rest.strip_prefix(",\"signature\":\"")?;
    let (signature, rest) = plain_string(rest)?;
    (rest == "}").then_some(EnvelopeText {
        payload,
        signature_algorithm,
        signature_encoding,
        signer_key_id,
        signature,
    })
}

/// A signed v1 token as seal-host's decline writer lays it out: `payload` and `signature`,
/// in that order, no whitespace.
pub(super) struct V1Text<'a> {
    pub payload: Cow<'a, str>,
    pub signature: &'a str,
}

/// The two members of a signed v1 token in the written order, or `None`: read by serde_json,
/// the line gives the same `payload` and `signature` (and, as any JSON value, the same string
/// `payload`).
pub(super) fn v1_envelope(line: &str) -> Option<V1Text<'_>> {
    let rest = line.strip_prefix("{\"payload\":\"")?;
    let (payload, rest) = escaped_string(rest)?;
    let rest = rest.strip_prefix(",\"signature\":\"")?;
    let (signature, rest) = plain_string(rest)?;
    (rest == "}").then_some(V1Text { payload, signature })
}

/// The payload's fields when `text` is exactly their canonical rendering with the target in
/// its required form, or `None` (see the module docs).
pub(super) fn canonical_payload(text: &str) -> Option<Payload> {
    let mut read = Reader { rest: text };
    read.literal("{\"approval_record_version\":")?;
    let approval_record_version = read.integer()?;
    let approver = read.member(",\"approver\":\"")?;
    let authorization_domain = read.member(",\"authorization_domain\":\"")?;
    let authorization_signature_algorithm =
        read.member(",\"authorization_signature_algorithm\":\"")?;
    let authorization_signer_key_id = read.member(",\"authorization_signer_key_id\":\"")?;
    read.literal(",\"authorized_at\":")?;
    let authorized_at = read.integer()?;
    read.literal(",\"expiry\":")?;
    let expiry = read.integer()?;
    let nonce = read.member(",\"nonce\":\"")?;
    let manifest_sha256 = read.member(",\"renderer\":{\"manifest_sha256\":\"")?;
    let name = read.member(",\"name\":\"")?;
    let version = read.member(",\"version\":\"")?;
    read.literal("}")?;
    let session = read.member(",\"session\":\"")?;
    let shown_character_encoding = read.member(",\"shown_character_encoding\":\"")?;
    read.literal(",\"shown_length\":")?;
    let shown_length = read.integer()?;
    let shown_media_type = read.member(",\"shown_media_type\":\"")?;
    let shown_sha256 = read.member(",\"shown_sha256\":\"")?;
    let subject_encoding = read.member(",\"subject_encoding\":\"")?;
    read.literal(",\"subject_length\":")?;
    let subject_length = read.integer()?;
    let subject_scope = read.member(",\"subject_scope\":\"")?;
    let subject_sha256 = read.member(",\"subject_sha256\":\"")?;
    let target = read.member(",\"target\":\"")?;
    read.literal("}")?;
    // serde's read refuses such a target while parsing (a parse error, not a validation one).
    if !read.rest.is_empty() || !is_sha256_hex(target) {
        return None;
    }
    Some(Payload {
        approval_record_version,
        target: target.to_owned(),
        authorized_at,
        expiry,
        nonce: nonce.to_owned(),
        session: session.to_owned(),
        subject_sha256: subject_sha256.to_owned(),
        subject_length,
        subject_scope: subject_scope.to_owned(),
        subject_encoding: subject_encoding.to_owned(),
        shown_sha256: shown_sha256.to_owned(),
        shown_length,
        shown_media_type: shown_media_type.to_owned(),
        shown_character_encoding: shown_character_encoding.to_owned(),
        renderer: Renderer {
            name: name.to_owned(),
            version: version.to_owned(),
            manifest_sha256: manifest_sha256.to_owned(),
        },
        approver: approver.to_owned(),
        authorization_signer_key_id: authorization_signer_key_id.to_owned(),
        authorization_signature_algorithm: authorization_signature_algorithm.to_owned(),
        authorization_domain: authorization_domain.to_owned(),
    })
}

struct Reader<'a> {
    rest: &'a str,
}

impl<'a> Reader<'a> {
    fn literal(&mut self, literal: &str) -> Option<()> {
        self.rest = self.rest.strip_prefix(literal)?;
        Some(())
    }

    /// A member whose value is a string: `prefix` ends with the value's opening quote.
    fn member(&mut self, prefix: &str) -> Option<&'a str> {
        self.literal(prefix)?;
        let (value, rest) = plain_string(self.rest)?;
        self.rest = rest;
        Some(value)
    }

    /// Plain decimal digits with no leading zero, at most 2⁵³−1.
    fn integer(&mut self) -> Option<u64> {
        let digits = self.rest.bytes().take_while(u8::is_ascii_digit).count();
        let text = &self.rest[..digits];
        if digits == 0 || digits > 16 || (digits > 1 && text.starts_with('0')) {
            return None;
        }
        let value: u64 = text.parse().ok()?;
        self.rest = &self.rest[digits..];
        (value <= MAX_INTEGER).then_some(value)
    }
}

/// The text up to the next `"` and what follows that quote, when it holds no `\` and no
/// U+0000–U+001F (which JSON refuses raw in a string).
fn plain_string(text: &str) -> Option<(&str, &str)> {
    let end = memchr::memchr2(b'"', b'\\', text.as_bytes())?;
    if text.as_bytes()[end] != b'"' || has_control(&text.as_bytes()[..end]) {
        return None;
    }
    Some((&text[..end], &text[end + 1..]))
}

/// A JSON string's decoded value up to its closing quote, and what follows that quote, when
/// its only escapes are `\"` and `\\` and it holds no raw U+0000–U+001F.
fn escaped_string(text: &str) -> Option<(Cow<'_, str>, &str)> {
    let bytes = text.as_bytes();
    let mut decoded: Option<String> = None;
    let mut start = 0;
    loop {
        let at = start + memchr::memchr2(b'"', b'\\', &bytes[start..])?;
        if has_control(&bytes[start..at]) {
            return None;
        }
        if bytes[at] == b'"' {
            let value = match decoded {
                None => Cow::Borrowed(&text[..at]),
                Some(mut value) => {
                    value.push_str(&text[start..at]);
                    Cow::Owned(value)
                }
            };
            return Some((value, &text[at + 1..]));
        }
        let escaped = *bytes.get(at + 1)?;
        if escaped != b'"' && escaped != b'\\' {
            return None;
        }
        let value = decoded.get_or_insert_with(|| String::with_capacity(bytes.len()));
        value.push_str(&text[start..at]);
        value.push(char::from(escaped));
        start = at + 2;
    }
}

/// Whether `bytes` holds a byte below 0x20 (written without an early exit so it vectorises).
fn has_control(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .fold(false, |found, &byte| found | (byte < 0x20))
}
