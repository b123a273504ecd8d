//! What a receipt's request fields must be, recomputed from bytes (docs/formats.md
//! §2.1, §2.5, §3.3; docs/migration.md): from the exact frame for record_version 3 (object A), from
//! the receipt's own `tool` / `arguments` for record_version 2 (which carries no frame).
//!
//! For a frame today's validation accepts, the identity engine ([`crate::request::analyze`])
//! supplies `canonical_request`, `args_hash` and the `host` target. seal-host accepted and
//! recorded frames that today's validation refuses (e.g. an upper-case `traceparent`); their
//! receipts must still verify, so for those the same values come from seal-host's own rule,
//! applied here directly: `canonical_request` is the serde_json compact text of
//! `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name","arguments"[,"_meta"
//! recursively key-sorted][,"requestState"][,"inputResponses"]}}` (v3), or the same without
//! `_meta` / `requestState` / `inputResponses` (v2), and the target comes from
//! [`crate::identity::compute`] over the Lean-compressed arguments.

use crate::canonical::{lean_compress, serde_compact, serde_string, KeyOrder};
use crate::digest::sha256_hex;
use crate::identity::{self, Inputs};
use crate::json::{self, JsonValue, Node};
use crate::request::{self, EraMode, Options, Session, Verdict};

pub use crate::frame::request_line;

/// serde_json's default nesting limit: deeper lines are parse errors for seal-host too.
const MAX_DEPTH: usize = 128;

/// Everything recomputed from one exact frame (object A).
#[derive(Debug, Clone)]
pub struct FrameFacts {
    pub subject_sha256: String,
    pub subject_length: u64,
    /// SHA-256 of the frame minus one trailing LF, then minus one trailing CR.
    pub request_sha256: String,
    /// seal-host's structured view, or why seal-host could not parse the line (it then
    /// records `request_parse_error` and names the file by `request_sha256`).
    pub projection: Result<Projection, String>,
    /// The host-profile guard target of the call, when the frame parses far enough.
    pub host_target: Option<String>,
    /// Today's refusal code when the identity engine refuses the frame (seal-host did not).
    pub refused_now: Option<String>,
    /// The identity engine's call when it accepts the frame (analysed with no session entry
    /// call, under the `server` given), kept for callers that need the same analysis.
    pub call: Option<Box<request::Call>>,
}

/// seal-host's serde view of a `tools/call` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection {
    pub tool: String,
    pub canonical_request: String,
    pub canonical_request_sha256: String,
    pub args_hash: String,
    /// serde compact text (wire order) of each request member the receipt copies.
    pub arguments: String,
    pub meta: Option<String>,
    pub request_state: Option<String>,
    pub input_responses: Option<String>,
}

/// The request line as seal-host reads it: `line.trim()` (Rust's Unicode trim) through
/// serde_json. sealkit's span reader is more lenient in places (a lone surrogate escape
/// decodes to U+FFFD, a number beyond binary64 keeps its literal), so a line is read only
/// when serde_json reads it too; otherwise seal-host records `request_parse_error`.
pub fn read_request_line(line: &str) -> Result<json::Node<'_>, String> {
    let text = line.trim();
    // What `serde_json::from_str::<Value>` accepts, without building the value.
    super::outline::outline_str(text, "")
        .map_err(|e| format!("the request line is not JSON to serde_json ({e})"))?;
    json::parse(text, MAX_DEPTH).map_err(|error| {
        format!(
            "the request line is not JSON ({} at byte {})",
            error.message, error.offset
        )
    })
}

/// Recomputes a frame's identities as seal-host recorded them. `server` is the operator's
/// server identity (from the receipt's `kernel_config`).
pub fn frame_facts(frame: &[u8], server: &str) -> FrameFacts {
    let mut facts = FrameFacts {
        subject_sha256: String::new(),
        subject_length: frame.len() as u64,
        request_sha256: String::new(),
        projection: Err(String::new()),
        host_target: None,
        refused_now: None,
        call: None,
    };
    // The identity engine hashes a frame it accepts with `frame::digests`, one pass over
    // the line and the terminator added to a copy; any other frame is hashed here the same
    // way, so object A is hashed once either way.
    let (subject, request_sha256) =
        analyse(frame, server, &mut facts).unwrap_or_else(|| crate::frame::digests(frame));
    facts.subject_sha256 = subject.sha256;
    facts.request_sha256 = request_sha256;
    facts
}

/// [`frame_facts`] but the digests, which it hands back when the identity engine accepted
/// the frame and so computed them.
fn analyse(
    frame: &[u8],
    server: &str,
    facts: &mut FrameFacts,
) -> Option<(crate::frame::Subject, String)> {
    let line = request_line(frame);
    let Ok(text) = crate::utf8::str_of(line) else {
        facts.projection = Err("the request line is not UTF-8".into());
        return None;
    };
    let node = match read_request_line(text) {
        Ok(node) => node,
        Err(error) => {
            facts.projection = Err(error);
            return None;
        }
    };
    let params = node.value.get("params");
    // The members first; the canonical request and its hashes by seal-host's rule only when
    // the identity engine does not give them (it accepted the frame: the same values, and
    // they are the ones kept). Rendering `_meta` key-sorted cannot fail where rendering it
    // in wire order succeeded (the same nodes), so the projection fails exactly when it did.
    let members = project_members(params);
    let options = Options {
        server: server.to_owned(),
        era: EraMode::Auto,
    };
    let verdict = request::analyze(frame, &options, &mut Session::default());
    let engines = match &verdict {
        Verdict::Call(call) => match (
            call.canonical_request(),
            call.canonical_request_sha256(),
            call.args_hash(),
        ) {
            (Some(canonical), Some(sha), Some(args)) => Some((canonical, sha, args)),
            _ => None,
        },
        _ => None,
    };
    facts.projection = members.and_then(|members| match engines {
        Some((canonical, sha, args)) => Ok(members.engines(canonical, sha, args)),
        None => members.seal_host_rule(V3),
    });
    match verdict {
        Verdict::Call(call) => {
            facts.host_target = Some(call.identities().host.target.clone());
            let digests = (call.subject().clone(), call.request_sha256().to_owned());
            facts.call = Some(call);
            return Some(digests);
        }
        Verdict::Refused(refusal) => {
            facts.refused_now = Some(refusal.code.as_str().to_owned());
            let tool = params.and_then(|p| p.value.get("name"));
            let arguments = params.and_then(|p| p.value.get("arguments"));
            if let Some(tool) = tool.and_then(|t| t.value.as_str()) {
                facts.host_target = host_target(server, tool, arguments).ok();
            }
        }
        Verdict::Skipped(_) => {}
    }
    None
}

/// Which `canonical_request` rule a record version uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Whether `_meta`, `requestState` and `inputResponses` enter the canonical request.
    pub context: bool,
}

/// record_version 3: `_meta` (key-sorted) and the two context members are included.
pub const V3: Rule = Rule { context: true };
/// record_version 2: `_meta`-blind.
pub const V2: Rule = Rule { context: false };

/// seal-host's projection of `params`, with the shape errors seal-host records.
pub fn project(params: Option<&Node<'_>>, rule: Rule) -> Result<Projection, String> {
    project_members(params)?.seal_host_rule(rule)
}

/// What the projection copies from `params` before the canonical request is made of it.
struct Members<'p, 'a> {
    tool: &'p str,
    arguments: String,
    /// `_meta`'s node: the canonical request holds it key-sorted.
    meta_node: Option<&'p Node<'a>>,
    meta: Option<String>,
    request_state: Option<String>,
    input_responses: Option<String>,
}

fn project_members<'p, 'a>(params: Option<&'p Node<'a>>) -> Result<Members<'p, 'a>, String> {
    let params = params
        .filter(|p| matches!(p.value, JsonValue::Object(_)))
        .ok_or("mediated request lacks object params")?;
    let tool = params
        .value
        .get("name")
        .and_then(|n| n.value.as_str())
        .ok_or("mediated request lacks params.name")?;
    let arguments = params
        .value
        .get("arguments")
        .filter(|a| matches!(a.value, JsonValue::Object(_)))
        .ok_or("mediated request lacks object params.arguments")?;
    let member = |name: &str| params.value.get(name);
    let meta_node = member("_meta");
    Ok(Members {
        tool,
        arguments: compact(arguments, KeyOrder::Wire)?,
        meta: meta_node.map(|m| compact(m, KeyOrder::Wire)).transpose()?,
        meta_node,
        request_state: member("requestState")
            .map(|m| compact(m, KeyOrder::Wire))
            .transpose()?,
        input_responses: member("inputResponses")
            .map(|m| compact(m, KeyOrder::Wire))
            .transpose()?,
    })
}

fn compact(node: &Node<'_>, order: KeyOrder) -> Result<String, String> {
    let mut out = Vec::new();
    serde_compact(node, order, &mut out).map_err(|e| e.to_string())?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

impl Members<'_, '_> {
    /// The projection with seal-host's own `canonical_request` rule, and the two hashes.
    fn seal_host_rule(self, rule: Rule) -> Result<Projection, String> {
        let mut canonical = Vec::with_capacity(128 + self.arguments.len());
        canonical.extend_from_slice(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"#,
        );
        serde_string(self.tool, &mut canonical);
        canonical.extend_from_slice(br#","arguments":"#);
        canonical.extend_from_slice(self.arguments.as_bytes());
        if rule.context {
            if let Some(meta) = self.meta_node {
                canonical.extend_from_slice(br#","_meta":"#);
                canonical.extend_from_slice(compact(meta, KeyOrder::Sorted)?.as_bytes());
            }
            if let Some(state) = &self.request_state {
                canonical.extend_from_slice(br#","requestState":"#);
                canonical.extend_from_slice(state.as_bytes());
            }
            if let Some(responses) = &self.input_responses {
                canonical.extend_from_slice(br#","inputResponses":"#);
                canonical.extend_from_slice(responses.as_bytes());
            }
        }
        canonical.extend_from_slice(b"}}");
        let canonical_request = String::from_utf8(canonical).map_err(|e| e.to_string())?;
        Ok(Projection {
            canonical_request_sha256: sha256_hex(canonical_request.as_bytes()),
            canonical_request,
            args_hash: sha256_hex(self.arguments.as_bytes()),
            ..self.without_canonical()
        })
    }

    /// The projection with the canonical request and hashes the identity engine derived.
    fn engines(self, canonical: &str, sha256: &str, args_hash: &str) -> Projection {
        Projection {
            canonical_request: canonical.to_owned(),
            canonical_request_sha256: sha256.to_owned(),
            args_hash: args_hash.to_owned(),
            ..self.without_canonical()
        }
    }

    fn without_canonical(self) -> Projection {
        Projection {
            tool: self.tool.to_owned(),
            canonical_request: String::new(),
            canonical_request_sha256: String::new(),
            args_hash: String::new(),
            arguments: self.arguments,
            meta: self.meta,
            request_state: self.request_state,
            input_responses: self.input_responses,
        }
    }
}

fn inputs_target(
    server: &str,
    tool: &str,
    arguments: Option<&Node<'_>>,
) -> Result<identity::Identities, String> {
    let args = match arguments {
        Some(node) => lean_compress(node).map_err(|e| e.to_string())?,
        None => "null".to_owned(),
    };
    Ok(identity::compute(&Inputs {
        server,
        tool,
        arguments: &args,
        meta: None,
        request_state: None,
        input_responses: None,
    }))
}

/// The `host`-profile guard target (context pairs forced absent) of a receipt's recorded
/// request: crate-only, as it computes over a request that need not pass today's
/// validation (seal-host recorded it).
pub(crate) fn host_target(
    server: &str,
    tool: &str,
    arguments: Option<&Node<'_>>,
) -> Result<String, String> {
    inputs_target(server, tool, arguments).map(|ids| ids.host.target)
}

/// The `legacy`-profile guard target (untagged `[server?, tool, args]`) of a receipt's
/// recorded request (crate-only, likewise).
pub(crate) fn legacy_target(
    server: &str,
    tool: &str,
    arguments: Option<&Node<'_>>,
) -> Result<String, String> {
    inputs_target(server, tool, arguments).map(|ids| ids.legacy.target)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    const GETTING_STARTED: &[u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"db.execute\",\"arguments\":{\"database\":\"prod\",\"sql\":\"drop table customers\"}}}\n";

    /// A line serde_json refuses (a lone surrogate escape) does not project, as seal-host
    /// records `request_parse_error` for it; the same line with a pair projects.
    #[test]
    fn a_line_serde_refuses_does_not_project() {
        let frame = |s: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"s":"{s}"}}}}}}"#
            ) + "\n"
        };
        let lone = frame_facts(frame(r"\ud83dx").as_bytes(), "");
        assert!(
            lone.projection
                .as_ref()
                .unwrap_err()
                .contains("not JSON to serde_json"),
            "{:?}",
            lone.projection
        );
        assert!(frame_facts(frame(r"\ud83d\ude00").as_bytes(), "")
            .projection
            .is_ok());
        // A number beyond binary64: the span reader keeps its literal, serde_json refuses it.
        let huge = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"n":1e400}}}"#;
        assert!(read_request_line(huge)
            .unwrap_err()
            .contains("not JSON to serde_json"));
        assert!(crate::json::parse(huge, MAX_DEPTH).is_ok());
    }

    #[test]
    fn getting_started_frame_matches_the_documented_identities() {
        let facts = frame_facts(GETTING_STARTED, "");
        assert_eq!(
            facts.subject_sha256,
            "ee5b38595d6f9524149c102174d8cbed1913a8f965d30e63cf67fc57e8fc7cd4"
        );
        assert_eq!(facts.subject_length, 139);
        assert_eq!(
            facts.request_sha256,
            "1c7466714fbd5479930c58948593dff45fc25e8ca2b025a4ae8b5148e55515b5"
        );
        let projection = facts.projection.unwrap();
        assert_eq!(
            projection.canonical_request_sha256,
            "1c7466714fbd5479930c58948593dff45fc25e8ca2b025a4ae8b5148e55515b5"
        );
        assert_eq!(
            projection.args_hash,
            "074b5f8768da03e1c5b01ded447418b3d18c7abed44dee31216b38ee11bc546b"
        );
        assert_eq!(
            facts.host_target.as_deref(),
            Some("2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565")
        );
    }

    /// A frame the identity engine accepts takes its canonical request and hashes from the
    /// engine, and they are seal-host's rule's; a frame it refuses (an upper-case
    /// `traceparent`, which seal-host recorded) takes them from seal-host's rule. Either way
    /// the projection is `project` of the line's params. Seen red with the engine's values
    /// dropped for an accepted frame (its canonical request and hashes left empty).
    #[test]
    fn the_projection_is_seal_hosts_rule_whoever_computes_it() {
        let frame = |params: &str| {
            format!(r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{params}}}"#) + "\n"
        };
        for (params, accepted) in [
            (
                r#"{"name":"t","arguments":{"b":1,"a":[true,null,"x"]}}"#,
                true,
            ),
            (
                r#"{"name":"t","arguments":{},"_meta":{"z":1,"a":{"d":2,"c":3}}}"#,
                true,
            ),
            (
                r#"{"name":"db.execute","arguments":{"sql":"select 1"},"_meta":{"traceparent":"00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01"}}"#,
                false,
            ),
        ] {
            let text = frame(params);
            let facts = frame_facts(text.as_bytes(), "");
            assert_eq!(facts.refused_now.is_none(), accepted, "{params}");
            let node = read_request_line(text.trim()).unwrap();
            let expected = project(node.value.get("params"), V3).unwrap();
            assert!(!expected.canonical_request.is_empty());
            assert_eq!(facts.projection.unwrap(), expected, "{params}");
        }
        // A line without params projects to seal-host's error either way.
        let facts = frame_facts(
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}\n",
            "",
        );
        assert_eq!(
            facts.projection.unwrap_err(),
            "mediated request lacks object params"
        );
    }

    /// Object A's digests are the SHA-256 of the frame and of its line (minus one LF, then
    /// one CR) whoever computes them: the identity engine for a frame it accepts, this module
    /// for one it refuses, one that is not UTF-8 or not JSON. Seen red with the engine's
    /// request_sha256 taken as the subject's.
    #[test]
    fn object_a_is_hashed_as_the_frame_and_its_line_on_every_path() {
        let accepted = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}"#;
        let refused = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{},"_meta":{"traceparent":"00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01"}}}"#;
        for line in [
            accepted.as_bytes(),
            refused.as_bytes(),
            b"{\"a\":\"\xff\"}".as_slice(),
            b"not json",
            b"",
        ] {
            for terminator in ["\n", "\r\n", "", "\n\n", "\r"] {
                let frame = [line, terminator.as_bytes()].concat();
                let facts = frame_facts(&frame, "");
                let stripped = frame.strip_suffix(b"\n").unwrap_or(&frame);
                let stripped = stripped.strip_suffix(b"\r").unwrap_or(stripped);
                assert_eq!(facts.subject_sha256, sha256_hex(&frame), "{frame:?}");
                assert_eq!(facts.request_sha256, sha256_hex(stripped), "{frame:?}");
                assert_eq!(facts.subject_length, frame.len() as u64);
            }
        }
        assert!(frame_facts(format!("{accepted}\n").as_bytes(), "")
            .call
            .is_some());
        assert!(frame_facts(format!("{refused}\n").as_bytes(), "")
            .refused_now
            .is_some());
    }

    #[test]
    fn unparseable_lines_give_the_seal_host_error_kind() {
        let facts = frame_facts(b"{\"params\":{\"name\":\"t\",\"arguments\":[1]}}\n", "");
        assert_eq!(
            facts.projection.unwrap_err(),
            "mediated request lacks object params.arguments"
        );
    }
}
