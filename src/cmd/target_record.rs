//! `sealkit target`'s JSON record of one frame (the output contract of `--format json|jsonl`,
//! docs/json.md): the bytes serde_json writes for these structs, `"type"` first. A computed
//! frame's record, written for every frame of a capture, is written straight into the output
//! buffer: its ten digests are lowercase hex and its other strings go through
//! `serde_string` (serde_json's escaping, with a word-at-a-time scan for the common text
//! that needs none), so serde_json's byte-by-byte escape scan does not run over ~700 bytes of
//! hex per frame (`json_write`). The nested values that are rare or open-ended (warnings, typed targets,
//! `explain`) are written by serde_json. The unit test below holds the written bytes to
//! serde_json's rendering of the same record.

use super::json_write::{integer, optional, serde_string, subject};
use crate::frame::Subject;
use crate::identity::Pair;
use crate::meta::{Warning, UNKNOWN_KEY_POLICY};
use crate::path_json::Shown;
use crate::refusal::RefusalRecord;
use crate::request::{Call, MetaState};
use crate::typed::Typed;
use serde::Serialize;
use serde_json::Value;
use std::io;

/// One frame's JSON record.
pub(super) enum Record<'r> {
    Ok(OkRecord<'r>),
    Refused(RefusedRecord<'r>),
    Skipped(SkippedRecord<'r>),
}

impl Record<'_> {
    /// The record's `type` (docs/json.md): a computed frame, a refused one, or one skipped.
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Record::Ok(_) => "frame",
            Record::Refused(_) => "refusal",
            Record::Skipped(_) => "skipped",
        }
    }

    /// The record as one JSON object, `"type"` first, appended to `out`.
    pub(super) fn write(&self, out: &mut Vec<u8>) -> io::Result<()> {
        let kind = self.kind();
        match self {
            Record::Ok(record) => record.write(kind, out),
            Record::Refused(record) => serialize(kind, record, out),
            Record::Skipped(record) => serialize(kind, record, out),
        }
    }
}

/// A record serde_json writes whole, `"type"` first.
fn serialize<T: Serialize>(kind: &str, value: &T, out: &mut Vec<u8>) -> io::Result<()> {
    serde_json::to_writer(out, &super::Typed { kind, value }).map_err(io::Error::from)
}

// The serde derives describe the record member by member; in the build they serve the test
// that holds `OkRecord::write` to them.
#[cfg_attr(test, derive(Serialize))]
pub(super) struct OkRecord<'r> {
    #[cfg_attr(test, serde(flatten, serialize_with = "crate::path_json::source"))]
    pub source: &'r Shown,
    pub line: u64,
    pub status: &'static str,
    pub era: &'static str,
    pub tool: &'r str,
    pub subject: &'r Subject,
    pub request_sha256: &'r str,
    pub canonical_request_sha256: Option<&'r str>,
    pub args_hash: Option<&'r str>,
    pub meta: MetaRecord<'r>,
    pub identities: IdentitiesRecord<'r>,
    pub warnings: &'r [Warning],
    #[cfg_attr(test, serde(skip_serializing_if = "Option::is_none"))]
    pub explain: Option<Value>,
}

#[cfg_attr(test, derive(Serialize))]
pub(super) struct MetaRecord<'r> {
    pub state: &'static str,
    pub keys: &'r [String],
    /// The unknown-key policy applied (`meta::UNKNOWN_KEY_POLICY`).
    pub unknown_keys: &'static str,
}

#[derive(Serialize)]
pub(super) struct RefusedRecord<'r> {
    #[serde(flatten, serialize_with = "crate::path_json::source")]
    pub source: &'r Shown,
    pub line: u64,
    #[serde(flatten)]
    pub refusal: RefusalRecord<'r>,
    pub capture_offset: u64,
}

#[derive(Serialize)]
pub(super) struct SkippedRecord<'r> {
    #[serde(flatten, serialize_with = "crate::path_json::source")]
    pub source: &'r Shown,
    pub line: u64,
    pub status: &'static str,
    pub kind: &'static str,
    pub method: Option<&'r str>,
}

/// `identities` of an ok record: the three profiles, and the V2 typed targets with
/// `--tool-spec`.
#[cfg_attr(test, derive(Serialize))]
pub(super) struct IdentitiesRecord<'r> {
    pub committed: &'r Pair,
    pub host: &'r Pair,
    pub legacy: &'r Pair,
    #[cfg_attr(test, serde(skip_serializing_if = "Option::is_none"))]
    pub typed: Option<&'r Typed>,
}

impl<'r> OkRecord<'r> {
    /// The record of a computed frame: `line` of `source`, its V2 typed targets (with
    /// `--tool-spec`) and its `explain` value (with `--explain`).
    pub(super) fn of(
        source: &'r Shown,
        line: u64,
        call: &'r Call,
        typed: Option<&'r Typed>,
        explain: Option<Value>,
    ) -> Self {
        OkRecord {
            source,
            line,
            status: "ok",
            era: call.era().as_str(),
            tool: call.tool(),
            subject: call.subject(),
            request_sha256: call.request_sha256(),
            canonical_request_sha256: call.canonical_request_sha256(),
            args_hash: call.args_hash(),
            meta: MetaRecord {
                state: if *call.meta() == MetaState::Absent {
                    "absent"
                } else {
                    "present"
                },
                keys: call.meta().keys(),
                unknown_keys: UNKNOWN_KEY_POLICY,
            },
            identities: IdentitiesRecord {
                committed: &call.identities().committed,
                host: &call.identities().host,
                legacy: &call.identities().legacy,
                typed,
            },
            warnings: call.warnings(),
            explain,
        }
    }

    /// serde_json's bytes for `{"type":kind, ..self}`.
    fn write(&self, kind: &str, out: &mut Vec<u8>) -> io::Result<()> {
        out.extend_from_slice(b"{\"type\":");
        serde_string(kind, out);
        out.extend_from_slice(b",\"source\":");
        serde_string(&self.source.text, out);
        if let Some(hex) = &self.source.hex {
            out.extend_from_slice(b",\"source_hex\":");
            serde_string(hex, out);
        }
        out.extend_from_slice(b",\"line\":");
        integer(self.line, out);
        out.extend_from_slice(b",\"status\":");
        serde_string(self.status, out);
        out.extend_from_slice(b",\"era\":");
        serde_string(self.era, out);
        out.extend_from_slice(b",\"tool\":");
        serde_string(self.tool, out);
        out.extend_from_slice(b",\"subject\":");
        subject(self.subject, out);
        out.extend_from_slice(b",\"request_sha256\":");
        serde_string(self.request_sha256, out);
        out.extend_from_slice(b",\"canonical_request_sha256\":");
        optional(self.canonical_request_sha256, out);
        out.extend_from_slice(b",\"args_hash\":");
        optional(self.args_hash, out);
        out.extend_from_slice(b",\"meta\":{\"state\":");
        serde_string(self.meta.state, out);
        out.extend_from_slice(b",\"keys\":[");
        for (index, key) in self.meta.keys.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            serde_string(key, out);
        }
        out.extend_from_slice(b"],\"unknown_keys\":");
        serde_string(self.meta.unknown_keys, out);
        out.extend_from_slice(b"},\"identities\":{");
        for (index, (name, pair)) in [
            ("committed", self.identities.committed),
            ("host", self.identities.host),
            ("legacy", self.identities.legacy),
        ]
        .into_iter()
        .enumerate()
        {
            if index > 0 {
                out.push(b',');
            }
            serde_string(name, out);
            out.extend_from_slice(b":{\"effect\":");
            serde_string(&pair.effect, out);
            out.extend_from_slice(b",\"target\":");
            serde_string(&pair.target, out);
            out.push(b'}');
        }
        if let Some(typed) = self.identities.typed {
            out.extend_from_slice(b",\"typed\":");
            serde_json::to_writer(&mut *out, typed)?;
        }
        out.extend_from_slice(b"},\"warnings\":");
        serde_json::to_writer(&mut *out, self.warnings)?;
        if let Some(explain) = &self.explain {
            out.extend_from_slice(b",\"explain\":");
            serde_json::to_writer(&mut *out, explain)?;
        }
        out.push(b'}');
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::request::{accept_frame, EraMode, Options, Session, Verdict};

    /// Every computed frame of these texts (quotes, backslashes, controls and non-ASCII in the
    /// tool, `_meta` keys that draw warnings, frames without arguments), with and without an
    /// explain value and a source that needs escapes: written bytes equal serde_json's.
    /// Seen red with `optional` writing `""` for `None`.
    #[test]
    fn written_records_are_serde_jsons_bytes() {
        let frames = [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"db.execute","arguments":{"sql":"select 1"}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"q\"uo\\te\u0001 café","arguments":{"a":[1,2.5,"x"]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"bad key!":1,"com.example/run":"x"}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"t"}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","arguments":{},"_meta":{"com.example/é-x":{"k":[true,null]}}}}"#,
        ];
        let mut computed = 0;
        for (index, text) in frames.iter().enumerate() {
            let bytes = format!("{text}\n");
            let frame = crate::frame::Frame {
                line: index as u64 + 1,
                offset: 0,
                bytes: bytes.as_bytes(),
                length: bytes.len() as u64,
            };
            let options = Options {
                server: "srv".to_owned(),
                era: EraMode::Auto,
            };
            let verdict = Verdict::from(accept_frame(&frame, &options, &mut Session::default()));
            let Verdict::Call(call) = &verdict else {
                continue;
            };
            computed += 1;
            // A name that is not UTF-8 is written lossily with its bytes in hex beside it.
            let not_utf8 = Shown {
                text: "dir/n\u{fffd}.jsonl".to_owned(),
                hex: Some("6469722f6eff2e6a736f6e6c".to_owned()),
            };
            for (source, explain) in [
                (Shown::of(std::path::Path::new("capture.jsonl")), None),
                (
                    Shown::of(std::path::Path::new("dir/\"odd\"\tname\u{7f}.jsonl")),
                    Some(serde_json::json!({"a": [1, "b"]})),
                ),
                (not_utf8.clone(), None),
            ] {
                let record = OkRecord::of(&source, frame.line, call, None, explain);
                let expected = serde_json::to_vec(&crate::cmd::Typed {
                    kind: "frame",
                    value: &record,
                })
                .unwrap();
                let mut written = Vec::new();
                Record::Ok(record).write(&mut written).unwrap();
                assert_eq!(
                    String::from_utf8(written).unwrap(),
                    String::from_utf8(expected).unwrap()
                );
            }
        }
        assert_eq!(
            computed,
            frames.len(),
            "every test frame is a computed call"
        );
    }
}
