//! Seal's V2 typed targets and V2 signed-approval bytes for a `tools/call` line that
//! carries `params.action` (docs/v2-and-envelopes.md). Facts were read
//! (never copied) from velvetmonkey/mcp-seal-dev `SealV2/Validation.lean` (`requestFromAst`,
//! `Target.keyParts`, `serializeTargetKey`, `MetaValue` / `RequestState` /
//! `InputResponses`, `signedMessageAst`, `isCanonicalNonceString`), `Test/V2SignedBytes.lean`,
//! `Test/V2VerifyLine.lean`, `Test/V2ValidationFixtures.lean` and
//! `Test/MetaIdentityControls.lean`; see testdata/typed/PROVENANCE.md for the vectors.
//!
//! Guarantees:
//! * the request is taken only from the judged line of a frame the validation pipeline
//!   accepted ([`crate::request::Accepted`]; no public function takes a raw line) and only
//!   when that line is in canonical V2 form ([`crate::v2::read`]);
//!   Seal's `requestFromAst` shape rules apply: `method` = `"tools/call"`, `params` an
//!   object with string `name` and `action`, `arguments` present (any value), `_meta`
//!   absent or an object, `requestState` and `inputResponses` any value when present;
//! * the target key is the framed string (never hashed inside) of the parts
//!   `[tool, action, version, manifest_digest, V2 serialization of arguments]` followed
//!   by the presence pairs `meta.absent|present`, `requestState.absent|present`,
//!   `inputResponses.absent|present`, each with `""` or the value's Lean `Json.compress`;
//!   framing is `<Unicode scalar count>:<part>` per part, as for every Seal identity;
//! * `committed` fills the three pairs from the line; `host` forces all three absent, so
//!   the two agree exactly when the line carries none of the three;
//! * the signed-approval bytes are the canonical V2 serialization of
//!   `{"target":{tool, action, toolVersion, manifestDigest, arguments, metadata,
//!   [requestState], [inputResponses]}, "session", "issuedAt", "expiry", "nonce"}`.

use crate::canonical::RenderError;
use crate::digest::sha256_hex;
use crate::json::{self, JsonValue};
use crate::request::Accepted;
use crate::v2::{self, V2Value};
use serde::Serialize;

/// The version and manifest digest an operator's tool specification gives one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolSpec {
    pub version: String,
    pub manifest_digest: String,
}

/// A tool-spec file: tool name → [`ToolSpec`], in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolSpecs {
    entries: Vec<(String, ToolSpec)>,
}

/// Why a tool-spec file was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSpecError {
    /// Stable code: `tool-spec-not-json`, `tool-spec-not-object`, `tool-spec-duplicate-tool`,
    /// `tool-spec-entry-invalid`.
    pub code: &'static str,
    pub message: String,
}

impl std::fmt::Display for ToolSpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ToolSpecError {}

impl ToolSpecs {
    /// Reads `{"<tool>": {"version": "…", "manifest_digest": "…"}, …}`. Each entry must have
    /// exactly those two string members; a tool named twice is refused.
    pub fn parse(text: &str) -> Result<ToolSpecs, ToolSpecError> {
        let error = |code, message: String| ToolSpecError { code, message };
        let root = json::parse(text, 16).map_err(|e| {
            error(
                "tool-spec-not-json",
                format!("at byte {}: {}", e.offset, e.message),
            )
        })?;
        let members = root.value.as_object().ok_or_else(|| {
            error(
                "tool-spec-not-object",
                format!(
                    "expected an object mapping tool names, found {}",
                    root.value.type_name()
                ),
            )
        })?;
        let mut specs = ToolSpecs::default();
        for member in members {
            let tool = member.key.to_string();
            if specs.get(&tool).is_some() {
                return Err(error(
                    "tool-spec-duplicate-tool",
                    format!("tool {tool:?} is specified twice"),
                ));
            }
            let spec = entry(&member.value.value)
                .map_err(|why| error("tool-spec-entry-invalid", format!("tool {tool:?}: {why}")))?;
            specs.entries.push((tool, spec));
        }
        Ok(specs)
    }

    pub fn get(&self, tool: &str) -> Option<&ToolSpec> {
        self.entries.iter().find(|(t, _)| t == tool).map(|(_, s)| s)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

fn entry(value: &JsonValue<'_>) -> Result<ToolSpec, String> {
    let members = value
        .as_object()
        .ok_or_else(|| format!("expected an object, found {}", value.type_name()))?;
    if let Some(extra) = members
        .iter()
        .find(|m| m.key != "version" && m.key != "manifest_digest")
    {
        return Err(format!("unknown member {:?}", extra.key));
    }
    let string = |name: &str| -> Result<String, String> {
        match value.get(name).map(|n| &n.value) {
            Some(JsonValue::String(s)) => Ok(s.to_string()),
            Some(other) => Err(format!(
                "{name} must be a string, found {}",
                other.type_name()
            )),
            None => Err(format!("{name} is missing")),
        }
    };
    Ok(ToolSpec {
        version: string("version")?,
        manifest_digest: string("manifest_digest")?,
    })
}

/// The parts of a `tools/call` line Seal's V2 layer reads (`requestFromAst`). Only
/// [`read_request`] makes one (from an accepted frame), so every target key and signed
/// approval computed from it is of a validated call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V2Request {
    pub(crate) tool: String,
    pub(crate) action: String,
    pub(crate) arguments: V2Value,
    /// `Some` only for an object.
    pub(crate) meta: Option<V2Value>,
    pub(crate) request_state: Option<V2Value>,
    pub(crate) input_responses: Option<V2Value>,
}

impl V2Request {
    /// `params.name`.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// `params.action`.
    pub fn action(&self) -> &str {
        &self.action
    }
}

/// Why a line yields no V2 request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestRefusal {
    /// The line is not in canonical V2 form.
    NotCanonical(v2::V2Refusal),
    /// Canonical, but not the request shape Seal's V2 layer accepts.
    Shape { code: ShapeCode, message: String },
}

/// Stable codes for [`RequestRefusal::Shape`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeCode {
    NotToolsCall,
    ParamsNotObject,
    NameNotString,
    ActionNotString,
    ArgumentsAbsent,
    MetaNotObject,
}

impl ShapeCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ShapeCode::NotToolsCall => "typed-not-tools-call",
            ShapeCode::ParamsNotObject => "typed-params-not-object",
            ShapeCode::NameNotString => "typed-name-not-string",
            ShapeCode::ActionNotString => "typed-action-not-string",
            ShapeCode::ArgumentsAbsent => "typed-arguments-absent",
            ShapeCode::MetaNotObject => "typed-meta-not-object",
        }
    }
}

impl RequestRefusal {
    pub fn code(&self) -> &'static str {
        match self {
            RequestRefusal::NotCanonical(r) => r.code.as_str(),
            RequestRefusal::Shape { code, .. } => code.as_str(),
        }
    }

    /// Offset of the first offending byte, for canonical-form refusals.
    pub fn offset(&self) -> Option<usize> {
        match self {
            RequestRefusal::NotCanonical(r) => Some(r.offset),
            RequestRefusal::Shape { .. } => None,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            RequestRefusal::NotCanonical(r) => &r.message,
            RequestRefusal::Shape { message, .. } => message,
        }
    }
}

impl std::fmt::Display for RequestRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestRefusal::NotCanonical(r) => r.fmt(f),
            RequestRefusal::Shape { code, message } => write!(f, "{}: {message}", code.as_str()),
        }
    }
}

impl std::error::Error for RequestRefusal {}

/// Reads an accepted frame's judged line the way Seal's V2 layer does.
pub fn read_request(frame: &Accepted<'_>) -> Result<V2Request, RequestRefusal> {
    read_request_line(frame.line().as_bytes())
}

/// The same over any line (terminator already stripped); only the crate's own derivations
/// and tests reach it.
pub(crate) fn read_request_line(line: &[u8]) -> Result<V2Request, RequestRefusal> {
    let root = v2::read(line).map_err(RequestRefusal::NotCanonical)?;
    request_from_value(&root)
}

/// Seal's `requestFromAst` over a value already read.
fn request_from_value(root: &V2Value) -> Result<V2Request, RequestRefusal> {
    let shape = |code, message: &str| RequestRefusal::Shape {
        code,
        message: message.to_owned(),
    };
    if root.get("method").and_then(V2Value::as_str) != Some("tools/call") {
        return Err(shape(
            ShapeCode::NotToolsCall,
            "method is not the string \"tools/call\"",
        ));
    }
    let params = match root.get("params") {
        Some(params @ V2Value::Object(_)) => params,
        _ => return Err(shape(ShapeCode::ParamsNotObject, "params is not an object")),
    };
    let tool = params
        .get("name")
        .and_then(V2Value::as_str)
        .ok_or_else(|| shape(ShapeCode::NameNotString, "params.name is not a string"))?;
    let action = params
        .get("action")
        .and_then(V2Value::as_str)
        .ok_or_else(|| {
            shape(
                ShapeCode::ActionNotString,
                "params.action is absent or not a string",
            )
        })?;
    let arguments = params
        .get("arguments")
        .ok_or_else(|| shape(ShapeCode::ArgumentsAbsent, "params.arguments is absent"))?;
    let meta = match params.get("_meta") {
        None => None,
        Some(meta @ V2Value::Object(_)) => Some(meta.clone()),
        Some(other) => {
            return Err(RequestRefusal::Shape {
                code: ShapeCode::MetaNotObject,
                message: format!("params._meta is {}, not an object", other.type_name()),
            })
        }
    };
    Ok(V2Request {
        tool: tool.to_owned(),
        action: action.to_owned(),
        arguments: arguments.clone(),
        meta,
        request_state: params.get("requestState").cloned(),
        input_responses: params.get("inputResponses").cloned(),
    })
}

/// The two profiles a typed target is computed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// `_meta`, `requestState`, `inputResponses` filled from the line.
    Committed,
    /// All three forced absent.
    Host,
}

/// One typed target key: the framed string and its SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TargetKey {
    pub key: String,
    pub sha256: String,
}

/// A line's typed target under both profiles, with what it was computed from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TypedTarget {
    pub tool: String,
    pub action: String,
    pub tool_version: String,
    pub manifest_digest: String,
    pub committed: TargetKey,
    pub host: TargetKey,
}

/// The typed-target verdict for one frame that carries `params.action`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    Computed(Box<TypedTarget>),
    /// The tool-spec file names no such tool (Seal's V2 layer blocks such a call).
    NoToolSpec {
        tool: String,
        action: String,
    },
    Refused(RequestRefusal),
    /// A present value could not be rendered (a number too large to expand exactly).
    Unrenderable(RenderError),
}

impl Typed {
    /// True for every verdict but a computed target: Seal's V2 layer blocks such a call.
    pub fn is_problem(&self) -> bool {
        !matches!(self, Typed::Computed(_))
    }

    /// One line for people: the verdict and its code.
    pub fn summary(&self) -> String {
        match self {
            Typed::Computed(t) => format!("computed {}", t.committed.sha256),
            Typed::NoToolSpec { tool, .. } => format!("no-tool-spec for {tool:?}"),
            Typed::Refused(r) => match r.offset() {
                Some(offset) => format!("refused {} at byte {offset}", r.code()),
                None => format!("refused {}", r.code()),
            },
            Typed::Unrenderable(e) => format!("unrenderable: {e}"),
        }
    }
}

/// JSON: `{"status":"computed", tool, action, tool_version, manifest_digest, committed,
/// host}`, `{"status":"no-tool-spec", tool, action}`, `{"status":"refused", code, offset,
/// message}` (offset `null` for shape refusals) or `{"status":"unrenderable", message}`.
impl Serialize for Typed {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Computed<'a> {
            status: &'static str,
            #[serde(flatten)]
            target: &'a TypedTarget,
        }
        #[derive(Serialize)]
        struct NoSpec<'a> {
            status: &'static str,
            tool: &'a str,
            action: &'a str,
        }
        #[derive(Serialize)]
        struct Refused<'a> {
            status: &'static str,
            code: &'static str,
            offset: Option<usize>,
            message: &'a str,
        }
        #[derive(Serialize)]
        struct Unrenderable {
            status: &'static str,
            message: String,
        }
        match self {
            Typed::Computed(target) => Computed {
                status: "computed",
                target,
            }
            .serialize(serializer),
            Typed::NoToolSpec { tool, action } => NoSpec {
                status: "no-tool-spec",
                tool,
                action,
            }
            .serialize(serializer),
            Typed::Refused(refusal) => Refused {
                status: "refused",
                code: refusal.code(),
                offset: refusal.offset(),
                message: refusal.message(),
            }
            .serialize(serializer),
            Typed::Unrenderable(error) => Unrenderable {
                status: "unrenderable",
                message: error.to_string(),
            }
            .serialize(serializer),
        }
    }
}

/// The typed target of an accepted frame, or `None` when it is not a validated
/// `tools/call` whose `params` carries an `action` member — typed targets then do not
/// apply. Whether `action` is carried is decided by a plain JSON read, so a line that
/// carries one but is not canonical V2 is refused rather than skipped.
pub fn typed_target_of(frame: &Accepted<'_>, specs: &ToolSpecs) -> Option<Typed> {
    frame.call()?;
    typed_target_of_line(frame.line().as_bytes(), specs)
}

/// The same over any line (terminator stripped).
fn typed_target_of_line(line: &[u8], specs: &ToolSpecs) -> Option<Typed> {
    let request = match v2::read(line) {
        // Canonical lines (the common case) are read once.
        Ok(root) if !value_carries_action(&root) => return None,
        Ok(root) => request_from_value(&root),
        Err(_) if !carries_action(line) => return None,
        Err(refusal) => Err(RequestRefusal::NotCanonical(refusal)),
    };
    let request = match request {
        Ok(request) => request,
        Err(refusal) => return Some(Typed::Refused(refusal)),
    };
    let Some(spec) = specs.get(&request.tool) else {
        return Some(Typed::NoToolSpec {
            tool: request.tool,
            action: request.action,
        });
    };
    Some(match typed_target(&request, spec) {
        Ok(target) => Typed::Computed(Box::new(target)),
        Err(error) => Typed::Unrenderable(error),
    })
}

fn value_carries_action(root: &V2Value) -> bool {
    root.get("method").and_then(V2Value::as_str) == Some("tools/call")
        && root.get("params").and_then(|p| p.get("action")).is_some()
}

/// The same question for a line that is not canonical V2, by a plain JSON read.
fn carries_action(line: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(line) else {
        return false;
    };
    let Ok(root) = json::parse(text, v2::MAX_DEPTH) else {
        return false;
    };
    let is_call = root
        .value
        .get("method")
        .and_then(|m| m.value.as_str())
        .is_some_and(|m| m == "tools/call");
    is_call
        && root
            .value
            .get("params")
            .is_some_and(|p| p.value.get("action").is_some())
}

/// Both profiles' target keys for a request and its tool's spec.
pub fn typed_target(request: &V2Request, spec: &ToolSpec) -> Result<TypedTarget, RenderError> {
    let committed = target_key(request, spec, Profile::Committed)?;
    let host = target_key(request, spec, Profile::Host)?;
    Ok(TypedTarget {
        tool: request.tool.clone(),
        action: request.action.clone(),
        tool_version: spec.version.clone(),
        manifest_digest: spec.manifest_digest.clone(),
        committed: TargetKey {
            sha256: sha256_hex(committed.as_bytes()),
            key: committed,
        },
        host: TargetKey {
            sha256: sha256_hex(host.as_bytes()),
            key: host,
        },
    })
}

/// The framed target key string (`serializeTargetKey`) under one profile.
pub fn target_key(
    request: &V2Request,
    spec: &ToolSpec,
    profile: Profile,
) -> Result<String, RenderError> {
    let (meta, state, responses) = match profile {
        Profile::Committed => (
            present_part(request.meta.as_ref())?,
            present_part(request.request_state.as_ref())?,
            present_part(request.input_responses.as_ref())?,
        ),
        Profile::Host => (None, None, None),
    };
    let arguments = v2::serialize(&request.arguments);
    let mut parts: Vec<&str> = vec![
        &request.tool,
        &request.action,
        &spec.version,
        &spec.manifest_digest,
        &arguments,
    ];
    push_presence(&mut parts, META, meta.as_deref());
    push_presence(&mut parts, REQUEST_STATE, state.as_deref());
    push_presence(&mut parts, INPUT_RESPONSES, responses.as_deref());
    Ok(crate::identity::frame_texts(&parts))
}

fn present_part(value: Option<&V2Value>) -> Result<Option<String>, RenderError> {
    value.map(v2::compress).transpose()
}

/// The presence tags of one context value: (absent, present).
type PresenceTags = (&'static str, &'static str);
const META: PresenceTags = ("meta.absent", "meta.present");
const REQUEST_STATE: PresenceTags = ("requestState.absent", "requestState.present");
const INPUT_RESPONSES: PresenceTags = ("inputResponses.absent", "inputResponses.present");

/// Appends the absent tag and `""`, or the present tag and the canonical value.
fn push_presence<'a>(parts: &mut Vec<&'a str>, tags: PresenceTags, value: Option<&'a str>) {
    match value {
        None => parts.extend([tags.0, ""]),
        Some(value) => parts.extend([tags.1, value]),
    }
}

/// Why signed-approval bytes could not be produced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApprovalMessageError {
    /// The nonce is not exactly 64 lowercase hex digits (`isCanonicalNonceString`).
    #[error("the nonce is not 64 lowercase hex digits")]
    NonceNotCanonical,
    #[error("{0}")]
    Render(RenderError),
}

impl crate::error_code::Coded for ApprovalMessageError {
    fn code(&self) -> &'static str {
        match self {
            ApprovalMessageError::NonceNotCanonical => "nonce-not-canonical",
            ApprovalMessageError::Render(error) => error.code(),
        }
    }
}

/// The exact bytes a V2 approval's Ed25519 signature covers (`signedMessageRawFor`) for a
/// request under its tool spec, with the request's own `_meta` / context values.
pub fn signed_approval_message(
    request: &V2Request,
    spec: &ToolSpec,
    session: &str,
    issued_at: u64,
    expiry: u64,
    nonce_hex: &str,
) -> Result<String, ApprovalMessageError> {
    let nonce_ok = nonce_hex.len() == 64
        && nonce_hex
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if !nonce_ok {
        return Err(ApprovalMessageError::NonceNotCanonical);
    }
    let string = |s: &str| V2Value::String(s.to_owned());
    let compress = |v: &V2Value| v2::compress(v).map_err(ApprovalMessageError::Render);
    let metadata = match &request.meta {
        None => V2Value::Object(vec![("presence".into(), string("absent"))]),
        Some(meta) => V2Value::Object(vec![
            ("presence".into(), string("present")),
            ("canonicalObject".into(), V2Value::String(compress(meta)?)),
        ]),
    };
    let mut target = vec![
        ("tool".to_owned(), string(&request.tool)),
        ("action".to_owned(), string(&request.action)),
        ("toolVersion".to_owned(), string(&spec.version)),
        ("manifestDigest".to_owned(), string(&spec.manifest_digest)),
        ("arguments".to_owned(), request.arguments.clone()),
        ("metadata".to_owned(), metadata),
    ];
    for (name, value) in [
        ("requestState", &request.request_state),
        ("inputResponses", &request.input_responses),
    ] {
        if let Some(value) = value {
            target.push((
                name.to_owned(),
                V2Value::Object(vec![(
                    "canonicalValue".into(),
                    V2Value::String(compress(value)?),
                )]),
            ));
        }
    }
    let message = V2Value::Object(vec![
        ("target".into(), V2Value::Object(target)),
        ("session".into(), string(session)),
        ("issuedAt".into(), V2Value::Number(issued_at.to_string())),
        ("expiry".into(), V2Value::Number(expiry.to_string())),
        ("nonce".into(), string(nonce_hex)),
    ]);
    Ok(v2::serialize(&message))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn specs() -> ToolSpecs {
        ToolSpecs::parse(r#"{"db.execute":{"version":"v1","manifest_digest":"manifest-001"}}"#)
            .unwrap()
    }

    const BASE: &str = r#"{"method":"tools/call","params":{"name":"db.execute","action":"write","arguments":{"database":"prod","table":"users","amount":12.34}}}"#;

    #[test]
    fn key_layout_without_context_is_the_same_under_both_profiles() {
        let Some(Typed::Computed(t)) = typed_target_of_line(BASE.as_bytes(), &specs()) else {
            panic!("not computed");
        };
        let expected = "10:db.execute5:write2:v112:manifest-00150:{\"database\":\"prod\",\"table\":\"users\",\"amount\":12.34}11:meta.absent0:19:requestState.absent0:21:inputResponses.absent0:";
        assert_eq!(t.committed.key, expected);
        assert_eq!(t.host, t.committed);
        assert_eq!(t.committed.sha256, sha256_hex(expected.as_bytes()));
    }

    #[test]
    fn present_values_fill_committed_pairs_with_lean_compress() {
        let line = r#"{"method":"tools/call","params":{"name":"db.execute","action":"write","arguments":[],"_meta":{"z":1,"a":"\u00e9"},"requestState":"s","inputResponses":{"b":[1.5]}}}"#;
        let Some(Typed::Computed(t)) = typed_target_of_line(line.as_bytes(), &specs()) else {
            panic!("not computed");
        };
        assert_eq!(
            t.committed.key,
            "10:db.execute5:write2:v112:manifest-0012:[]12:meta.present15:{\"a\":\"é\",\"z\":1}20:requestState.present3:\"s\"22:inputResponses.present11:{\"b\":[1.5]}"
        );
        assert!(t
            .host
            .key
            .ends_with("11:meta.absent0:19:requestState.absent0:21:inputResponses.absent0:"));
    }

    #[test]
    fn lines_without_action_get_no_typed_target() {
        let line = r#"{"method":"tools/call","params":{"name":"db.execute","arguments":{}}}"#;
        assert_eq!(typed_target_of_line(line.as_bytes(), &specs()), None);
        assert_eq!(
            typed_target_of_line(b"{\"method\":\"ping\"}", &specs()),
            None
        );
    }

    #[test]
    fn non_canonical_lines_with_action_are_refused_not_normalised() {
        let line = r#"{"method":"tools/call","params":{"name":"db.execute","action":"write","arguments":{"n":1.50}}}"#;
        let Some(Typed::Refused(refusal)) = typed_target_of_line(line.as_bytes(), &specs()) else {
            panic!("not refused");
        };
        assert_eq!(refusal.code(), "v2-fraction-trailing-zero");
        assert_eq!(refusal.offset(), Some(line.find("1.50").unwrap() + 3));
    }

    #[test]
    fn shape_refusals_and_missing_specs() {
        for (line, code) in [
            (
                r#"{"method":"tools/call","params":{"name":"db.execute","action":1,"arguments":{}}}"#,
                "typed-action-not-string",
            ),
            (
                r#"{"method":"tools/call","params":{"name":"db.execute","action":"w"}}"#,
                "typed-arguments-absent",
            ),
            (
                r#"{"method":"tools/call","params":{"name":"db.execute","action":"w","arguments":{},"_meta":null}}"#,
                "typed-meta-not-object",
            ),
            (
                r#"{"method":"tools/call","params":{"name":7,"action":"w","arguments":{}}}"#,
                "typed-name-not-string",
            ),
        ] {
            let Some(Typed::Refused(refusal)) = typed_target_of_line(line.as_bytes(), &specs())
            else {
                panic!("not refused: {line}");
            };
            assert_eq!(refusal.code(), code);
        }
        let line =
            r#"{"method":"tools/call","params":{"name":"other","action":"w","arguments":{}}}"#;
        assert_eq!(
            typed_target_of_line(line.as_bytes(), &specs()),
            Some(Typed::NoToolSpec {
                tool: "other".into(),
                action: "w".into()
            })
        );
    }

    #[test]
    fn tool_spec_files_are_strict() {
        for (text, code) in [
            ("[", "tool-spec-not-json"),
            ("[]", "tool-spec-not-object"),
            (
                r#"{"a":{"version":"1","manifest_digest":"d"},"a":{"version":"1","manifest_digest":"d"}}"#,
                "tool-spec-duplicate-tool",
            ),
            (r#"{"a":{"version":"1"}}"#, "tool-spec-entry-invalid"),
            (
                r#"{"a":{"version":1,"manifest_digest":"d"}}"#,
                "tool-spec-entry-invalid",
            ),
            (
                r#"{"a":{"version":"1","manifest_digest":"d","actions":[]}}"#,
                "tool-spec-entry-invalid",
            ),
        ] {
            assert_eq!(ToolSpecs::parse(text).unwrap_err().code, code, "{text}");
        }
    }

    #[test]
    fn framing_counts_scalars_not_bytes() {
        assert_eq!(
            crate::identity::frame_texts(&["é😀", "", "ab"]),
            "2:é😀0:2:ab"
        );
    }

    #[test]
    fn signed_approval_message_layout() {
        let request = read_request_line(BASE.as_bytes()).unwrap();
        let spec = specs().get("db.execute").unwrap().clone();
        let message =
            signed_approval_message(&request, &spec, "session-1", 0, 120, &"a".repeat(64)).unwrap();
        assert_eq!(
            message,
            format!(
                "{{\"target\":{{\"tool\":\"db.execute\",\"action\":\"write\",\"toolVersion\":\"v1\",\"manifestDigest\":\"manifest-001\",\"arguments\":{{\"database\":\"prod\",\"table\":\"users\",\"amount\":12.34}},\"metadata\":{{\"presence\":\"absent\"}}}},\"session\":\"session-1\",\"issuedAt\":0,\"expiry\":120,\"nonce\":\"{}\"}}",
                "a".repeat(64)
            )
        );
        assert_eq!(
            signed_approval_message(&request, &spec, "s", 0, 1, "AA"),
            Err(ApprovalMessageError::NonceNotCanonical)
        );
    }
}

#[cfg(test)]
mod props;
