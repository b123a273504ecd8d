//! The shape checks: a receipt has every member seal-host writes, with the type it writes it
//! with, and its bytes are seal-host's own pretty layout (anything else was edited).

use super::preimage;
use super::{fail, pass, Check, Ctx, MemberRule};
use crate::digest::is_sha256_hex;
use crate::finding::Code;
use serde_json::{Map, Value};

/// seal-host writes `serde_json::to_string_pretty(receipt) + "\n"`; anything else was edited.
pub(super) fn check_layout(receipt: &Map<String, Value>, bytes: &[u8]) -> Check {
    let mut compare = CompareWriter {
        expected: bytes,
        pos: 0,
        equal: true,
    };
    let written = serde_json::to_writer_pretty(&mut compare, receipt).is_ok();
    let equal = written && compare.equal && bytes.get(compare.pos..) == Some(b"\n".as_slice());
    if equal {
        pass("layout", "")
    } else {
        fail(
            "layout",
            Code::NotHostLayout,
            "the bytes differ from seal-host's pretty rendering of the same JSON",
        )
    }
}

/// An `io::Write` that compares what is written with expected bytes, allocating nothing.
struct CompareWriter<'a> {
    expected: &'a [u8],
    pos: usize,
    equal: bool,
}

impl std::io::Write for CompareWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.equal {
            let end = self.pos + buf.len();
            self.equal = self.expected.get(self.pos..end) == Some(buf);
            self.pos = end;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Ctx<'_> {
    pub(super) fn check_shape(&self) -> Check {
        let mut problems = Vec::new();
        if self.str_of("record_type") != Some("seal.authorization-decision") {
            problems.push("record_type is not \"seal.authorization-decision\"".to_owned());
        }
        match self.version {
            Some(2 | 3) => {}
            _ => problems.push("record_version is not 2 or 3".to_owned()),
        }
        let hex = |name: &str, problems: &mut Vec<String>| {
            if !self.str_of(name).is_some_and(is_sha256_hex) {
                problems.push(format!("{name} is not 64 lowercase hex digits"));
            }
        };
        hex("request_sha256", &mut problems);
        hex("framed_subject_sha256", &mut problems);
        if self
            .get("framed_subject_length")
            .and_then(Value::as_u64)
            .is_none()
        {
            problems.push("framed_subject_length is not an unsigned integer".into());
        }
        if self.get("now").and_then(Value::as_u64).is_none() {
            problems.push("now is not an unsigned integer".into());
        }
        if !matches!(self.str_of("verdict"), Some("ALLOW" | "BLOCK")) {
            problems.push("verdict is not ALLOW or BLOCK".into());
        }
        if self.get("bypass") != Some(&Value::Bool(false)) {
            problems.push("bypass is not false".into());
        }
        for (name, ok) in [
            ("reason", self.str_of("reason").is_some()),
            ("certs", self.certs().is_some()),
            ("emitted_bytes", self.str_of("emitted_bytes").is_some()),
            ("signed_config", self.is_object("signed_config")),
            ("kernel_config", self.get("kernel_config").is_some()),
            (
                "deny_kernel",
                matches!(
                    self.get("deny_kernel"),
                    Some(Value::String(_) | Value::Null)
                ),
            ),
            ("kernel_identity", self.is_object("kernel_identity")),
            ("host_identity", self.is_object("host_identity")),
            ("asserted_provenance", self.is_object("asserted_provenance")),
            (
                "granted_capabilities",
                self.get("granted_capabilities")
                    .is_some_and(Value::is_array),
            ),
        ] {
            if !ok {
                problems.push(format!("{name} is missing or mistyped"));
            }
        }
        problems.extend(self.request_member_problems());
        if self.version == Some(3) {
            problems.extend(self.v3_shape_problems());
        }
        if problems.is_empty() {
            pass(
                "shape",
                format!("record_version {}", self.version.unwrap_or(0)),
            )
        } else {
            fail("shape", Code::MalformedReceipt, problems.join("; "))
        }
    }

    /// seal-host writes the request members exactly when serde parsed the line, and
    /// `request_parse_error` exactly when it did not (docs/formats.md): a receipt
    /// with neither, or with a member of another type, was not written by seal-host, and a
    /// check that would otherwise find the member "missing" must not pass it silently.
    pub(super) fn request_member_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let parse_error = self.get("request_parse_error");
        let typed: [(&str, MemberRule); 6] = [
            ("tool", Value::is_string),
            ("arguments", |_| true),
            ("args_hash", |v| v.as_str().is_some_and(is_sha256_hex)),
            ("effect_view", Value::is_object),
            ("canonical_request", Value::is_string),
            ("canonical_request_sha256", |v| {
                v.as_str().is_some_and(is_sha256_hex)
            }),
        ];
        match parse_error {
            None => {
                for (name, ok) in typed {
                    if !self.get(name).is_some_and(ok) {
                        problems.push(format!(
                            "{name} is missing or mistyped (and there is no request_parse_error)"
                        ));
                    }
                }
            }
            Some(Value::String(_)) => {
                let present: Vec<&str> = typed
                    .iter()
                    .map(|(name, _)| *name)
                    .filter(|name| self.get(name).is_some())
                    .collect();
                if !present.is_empty() {
                    problems.push(format!(
                        "request_parse_error is present together with {}",
                        present.join(", ")
                    ));
                }
            }
            Some(_) => problems.push("request_parse_error is not a string".into()),
        }
        problems
    }

    pub(super) fn v3_shape_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        match self.get("signed_artifacts").and_then(Value::as_object) {
            None => problems.push("signed_artifacts is missing".to_owned()),
            Some(artifacts) => {
                let known = ["encoding", "object_a", "approval_statement"];
                if artifacts.keys().any(|k| !known.contains(&k.as_str())) {
                    problems.push("signed_artifacts has unknown members".into());
                }
                if artifacts.get("encoding").and_then(Value::as_str) != Some("base64") {
                    problems.push("signed_artifacts.encoding is not \"base64\"".into());
                }
                if self.object_a.is_none() {
                    problems.push("signed_artifacts.object_a is not standard base64".into());
                }
                match artifacts.get("approval_statement") {
                    None | Some(Value::Null) => {}
                    Some(_) if self.statement.is_some() => {}
                    Some(_) => problems
                        .push("signed_artifacts.approval_statement is not standard base64".into()),
                }
            }
        }
        if self
            .str_of("release_status")
            .and_then(preimage::release_tag)
            .is_none()
        {
            problems.push("release_status is not a known status".into());
        }
        if self
            .str_of("durability_class")
            .and_then(preimage::durability_tag)
            .is_none()
        {
            problems.push("durability_class is not a known class".into());
        }
        if self.str_of("operation_id").is_none() {
            problems.push("operation_id is missing".into());
        }
        problems
    }
}
