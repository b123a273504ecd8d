//! From the exact bytes of one frame to a validated `tools/call` with every identity, or a
//! refusal, in the order of docs/target.md: raw frame checks → Seal's wire guards → lexical
//! caps → one parse → JSON-RPC / `tools/call` shape → era → `_meta` shape and known keys →
//! `_meta` bounds → identities (§2) and seal-host's request hashes
//! (docs/formats.md). A refused frame gets no identity.

use crate::canonical::{self, KeyOrder};
use crate::digest::sha256_hex;
use crate::frame::{self, Frame, Subject, MAX_FRAME_BYTES};
use crate::identity::{self, Identities, Inputs};
use crate::json::{self, JsonValue, Node, Span};
use crate::meta::{self, Warning};
use crate::refusal::{Refusal, RefusalCode};
use crate::wire::{self, WireCheck};

use crate::era::Era;

/// The most bytes Lean `Json.compress` writes per byte of the value it renders: a number
/// literal renders to at most 310 bytes (sign and the 309 integer digits of a binary64
/// near its maximum, which the wire guards let through as e.g. `1e308`, 5 bytes: 61.8
/// per byte), a string escape at most triples (`\t`, 2 bytes, becomes `\u0009`), and
/// nothing else grows.
pub const MAX_LEAN_EXPANSION: usize = 62;

/// The same for serde_json's compact text (seal-host's `canonical_request`): integers keep
/// their digits, other numbers are re-rendered by binary64 shortest form, the longest
/// growth being `1e15` (4 bytes) to `1000000000000000.0` (18 bytes); escapes never grow.
pub const MAX_SERDE_EXPANSION: usize = 5;

/// The canonical-work bound: the most canonical bytes one accepted frame can produce, in
/// all (`Call::canonical_bytes`). Lean renderings cover `arguments`, `requestState` and
/// `inputResponses` once and `_meta` twice (the whole object and its per-key entries),
/// seal-host's `canonical_request` covers the frame once more: so at most
/// 62 × (1 MiB frame + 32 KiB `_meta`) + 5 × 1 MiB = 72,286,208 bytes. It follows from the
/// frame and `_meta` bounds; no limit of its own is needed to hold it.
pub const MAX_CANONICAL_BYTES: usize = MAX_LEAN_EXPANSION
    * (MAX_FRAME_BYTES + meta::MAX_META_BYTES)
    + MAX_SERDE_EXPANSION * MAX_FRAME_BYTES;

/// How the era of each frame is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EraMode {
    /// From the session's entry call and the frame's own `_meta` markers.
    Auto,
    Legacy,
    Modern,
}

/// Operator settings for an analysis.
#[derive(Debug, Clone)]
pub struct Options {
    /// Seal's configured server identity (never read from a frame).
    pub server: String,
    pub era: EraMode,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            server: String::new(),
            era: EraMode::Auto,
        }
    }
}

/// Era state of one capture: set by `initialize` (legacy) or `server/discover`
/// (2026-07-28), each of which begins a session.
#[derive(Debug, Clone, Default)]
pub struct Session {
    era: Option<Era>,
}

impl Session {
    /// A session whose entry call was already read (`None`: no entry call seen), e.g. to
    /// analyse one frame taken out of a capture in the era it had there.
    pub fn begun(era: Option<Era>) -> Self {
        Session { era }
    }

    pub fn era(&self) -> Option<Era> {
        self.era
    }
}

/// What happened to one frame.
#[derive(Debug, Clone)]
pub enum Verdict {
    Call(Box<Call>),
    Refused(Refusal),
    Skipped(Skipped),
}

/// A frame that is not a `tools/call` request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub kind: SkipKind,
    pub method: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkipKind {
    Request,
    Notification,
    Response,
    /// Only whitespace.
    Blank,
}

impl SkipKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SkipKind::Request => "request",
            SkipKind::Notification => "notification",
            SkipKind::Response => "response",
            SkipKind::Blank => "blank",
        }
    }
}

/// Whether a context value is in the frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaState {
    Absent,
    Present {
        /// Keys in code-point order.
        keys: Vec<String>,
        /// Lean compress of the whole `_meta` object.
        canonical: String,
        /// Each key with its value's Lean compress, in code-point order of the keys.
        entries: Vec<(String, String)>,
    },
}

impl MetaState {
    /// Lean compress of the whole `_meta` object when present.
    pub fn canonical(&self) -> Option<&str> {
        match self {
            MetaState::Absent => None,
            MetaState::Present { canonical, .. } => Some(canonical),
        }
    }

    /// The keys in code-point order (empty when absent).
    pub fn keys(&self) -> &[String] {
        match self {
            MetaState::Absent => &[],
            MetaState::Present { keys, .. } => keys,
        }
    }
}

/// A validated `tools/call` and everything derived from it. Only the pipeline makes one
/// (a private field rules out a struct literal elsewhere), so [`Call::inputs`], the one
/// public way to identity inputs, always starts from a validated frame.
///
/// Its fields are private and read through accessors of the same names, so a `Call` stays
/// what the pipeline made of the bytes it validated: code that holds one (even `&mut`)
/// cannot change its tool, identities or hashes so that a rendering no longer matches the
/// frame.
///
/// ```compile_fail,E0451
/// fn forged(call: &sealkit::request::Call) -> sealkit::request::Call {
///     sealkit::request::Call { tool: "t".into(), ..call.clone() }
/// }
/// ```
///
/// Writing a field of a validated call does not compile either (E0616, private field).
/// Checked once by making `tool` `pub` again: this example then compiled and the doctest
/// went red.
///
/// ```compile_fail,E0616
/// fn retarget(call: &mut sealkit::request::Call) {
///     call.tool = "x".into();
/// }
/// ```
#[derive(Debug, Clone)]
pub struct Call {
    era: Era,
    tool: String,
    subject: Subject,
    request_sha256: String,
    canonical_request: Option<String>,
    canonical_request_sha256: Option<String>,
    args_hash: Option<String>,
    canonical_arguments: String,
    meta: MetaState,
    request_state: Option<String>,
    input_responses: Option<String>,
    identities: Identities,
    warnings: Vec<Warning>,
    canonical_bytes: usize,
    _validated: Validated,
}

/// The private field that keeps [`Call`] without a public constructor.
#[derive(Debug, Clone, Copy)]
struct Validated;

impl Call {
    /// The identity inputs of this call under `server`.
    pub fn inputs<'a>(&'a self, server: &'a str) -> Inputs<'a> {
        Inputs {
            server,
            tool: &self.tool,
            arguments: &self.canonical_arguments,
            meta: self.meta.canonical(),
            request_state: self.request_state.as_deref(),
            input_responses: self.input_responses.as_deref(),
        }
    }

    /// The era the call was validated in.
    pub fn era(&self) -> Era {
        self.era
    }

    /// `params.name`, non-empty.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// The exact-frame subject: SHA-256 and length of the frame bytes with the delimiter.
    pub fn subject(&self) -> &Subject {
        &self.subject
    }

    /// SHA-256 (lowercase hex) of the frame bytes with the delimiter.
    pub fn request_sha256(&self) -> &str {
        &self.request_sha256
    }

    /// seal-host's `canonical_request` (serde_json compact; `id` forced to 1, `_meta`
    /// recursively sorted). `None` when seal-host cannot build it (no object `arguments`).
    pub fn canonical_request(&self) -> Option<&str> {
        self.canonical_request.as_deref()
    }

    /// SHA-256 of [`Call::canonical_request`] (same condition).
    pub fn canonical_request_sha256(&self) -> Option<&str> {
        self.canonical_request_sha256.as_deref()
    }

    /// SHA-256 of serde_json compact `arguments` in wire order (same condition).
    pub fn args_hash(&self) -> Option<&str> {
        self.args_hash.as_deref()
    }

    /// Lean compress of `params.arguments`; `null` when the frame has none.
    pub fn canonical_arguments(&self) -> &str {
        &self.canonical_arguments
    }

    /// Whether `_meta` is in the frame, and its Lean renderings when it is.
    pub fn meta(&self) -> &MetaState {
        &self.meta
    }

    /// Lean compress of `params.requestState` when present.
    pub fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }

    /// Lean compress of `params.inputResponses` when present.
    pub fn input_responses(&self) -> Option<&str> {
        self.input_responses.as_deref()
    }

    /// Every identity of the call under the server it was validated for.
    pub fn identities(&self) -> &Identities {
        &self.identities
    }

    /// What `_meta` validation let through with a warning.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Canonical bytes rendered for this frame: the Lean texts of `arguments`, `_meta`
    /// (whole and per key), `requestState`, `inputResponses`, and `canonical_request`.
    /// Never above [`MAX_CANONICAL_BYTES`].
    pub fn canonical_bytes(&self) -> usize {
        self.canonical_bytes
    }
}

/// Analyses one frame read from a capture (an oversized frame is refused by its true length).
pub fn analyze_frame(frame: &Frame<'_>, options: &Options, session: &mut Session) -> Verdict {
    Verdict::from(accept_frame(frame, options, session))
}

/// Analyses the exact bytes of one frame (delimiter included).
pub fn analyze(frame: &[u8], options: &Options, session: &mut Session) -> Verdict {
    Verdict::from(accept(frame, options, session))
}

impl From<Result<Accepted<'_>, Refusal>> for Verdict {
    fn from(judged: Result<Accepted<'_>, Refusal>) -> Verdict {
        match judged {
            Ok(accepted) => match accepted.judged {
                Judged::Call(call) => Verdict::Call(call),
                Judged::Skipped(skipped) => Verdict::Skipped(skipped),
            },
            Err(refusal) => Verdict::Refused(refusal),
        }
    }
}

/// A frame the validation pipeline let through, with its judged line (the frame minus its
/// terminator): a validated `tools/call` ([`Accepted::call`]) or another JSON-RPC message
/// the pipeline does not refuse (a response, a notification, another request, a blank
/// line). It has no public constructor: [`accept`] is the only way to get one, so a library
/// function that takes an `Accepted` (the V2.3 envelope, typed targets) cannot be given a
/// frame the pipeline refuses, and its line cannot be swapped afterwards.
///
/// ```
/// use sealkit::request::{self, Options, Session};
/// let frame = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{}}}\n";
/// let accepted = request::accept(frame, &Options::default(), &mut Session::default()).unwrap();
/// assert_eq!(accepted.call().map(|call| call.tool()), Some("t"));
/// assert!(request::accept(b"{\"m\":1}\n", &Options::default(), &mut Session::default()).is_err());
/// ```
///
/// Building one by hand does not compile (the fields are private):
///
/// ```compile_fail,E0451
/// let forged = sealkit::request::Accepted { line: "{\"m\":1}", judged: todo!() };
/// ```
#[derive(Debug, Clone)]
pub struct Accepted<'f> {
    line: &'f str,
    judged: Judged,
}

/// What the pipeline made of a frame it did not refuse.
#[derive(Debug, Clone)]
enum Judged {
    Call(Box<Call>),
    Skipped(Skipped),
}

impl<'f> Accepted<'f> {
    /// The judged line: the frame's bytes minus one trailing LF, then one trailing CR.
    pub fn line(&self) -> &'f str {
        self.line
    }

    /// The validated `tools/call`, or `None` for another message the pipeline let through.
    pub fn call(&self) -> Option<&Call> {
        match &self.judged {
            Judged::Call(call) => Some(call),
            Judged::Skipped(_) => None,
        }
    }
}

/// Runs the validation pipeline over the exact bytes of one frame (delimiter included),
/// as [`analyze`] does: the frame if the pipeline lets it through, its refusal otherwise.
pub fn accept<'f>(
    frame: &'f [u8],
    options: &Options,
    session: &mut Session,
) -> Result<Accepted<'f>, Refusal> {
    let (line, judged) = judge(frame, options, session)?;
    Ok(Accepted { line, judged })
}

/// [`accept`] for one frame read from a capture: an oversized frame is refused by its true
/// length.
pub fn accept_frame<'f>(
    frame: &Frame<'f>,
    options: &Options,
    session: &mut Session,
) -> Result<Accepted<'f>, Refusal> {
    if frame.is_oversized() {
        return Err(Refusal::new(
            RefusalCode::FrameTooLarge,
            Span { start: MAX_FRAME_BYTES, end: MAX_FRAME_BYTES },
            format!("frame is {} bytes including its delimiter; seal-host reads at most {MAX_FRAME_BYTES}", frame.length),
        ));
    }
    accept(frame.bytes, options, session)
}

/// The pipeline itself: the judged line and what it is, or the refusal.
fn judge<'f>(
    frame_bytes: &'f [u8],
    options: &Options,
    session: &mut Session,
) -> Result<(&'f str, Judged), Refusal> {
    if frame_bytes.len() > MAX_FRAME_BYTES {
        return Err(Refusal::new(
            RefusalCode::FrameTooLarge,
            Span { start: MAX_FRAME_BYTES, end: frame_bytes.len() },
            format!("frame is {} bytes including its delimiter; seal-host reads at most {MAX_FRAME_BYTES}", frame_bytes.len()),
        ));
    }
    let line_bytes = frame::request_line(frame_bytes);
    // A blank line is ASCII, so reading UTF-8 first refuses exactly the frames it refused
    // when it came second.
    let line = std::str::from_utf8(line_bytes).map_err(|e| {
        let at = e.valid_up_to();
        Refusal::new(
            RefusalCode::InvalidUtf8,
            Span {
                start: at,
                end: at + e.error_len().unwrap_or(1),
            },
            format!(
                "frame is not UTF-8: invalid byte 0x{:02X} at offset {at}",
                line_bytes[at]
            ),
        )
    })?;
    if line
        .bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        let blank = Skipped {
            kind: SkipKind::Blank,
            method: None,
        };
        return Ok((line, Judged::Skipped(blank)));
    }
    // The guards come before the parse: a frame both refuse is refused by its guard. The
    // parse runs first all the same, and the guards' own scan of the bytes only when the
    // parsed tree does not already show that it passes (`wire::passes_on_tree`): so clean
    // frames are read once, and what is refused, and why, stays the scan's.
    let parsed = json::parse(line, wire::MAX_WIRE_NESTING + 1);
    let root = match parsed {
        Ok(root) if wire::passes_on_tree(line, &root) => root,
        parsed => {
            wire::check(line).map_err(wire_refusal)?;
            parsed.map_err(|e| parse_refusal(line, e))?
        }
    };
    match classify(&root, session, options.era)? {
        Message::Skip(skipped) => Ok((line, Judged::Skipped(skipped))),
        Message::ToolsCall(params) => {
            let era = decide_era(options.era, session, params)?;
            let call = validated_call(frame_bytes, params, era, &options.server)
                .map_err(|refusal| refusal.in_era(era))?;
            Ok((line, Judged::Call(Box::new(call))))
        }
    }
}

/// What a parsed frame is.
enum Message<'n, 'a> {
    /// A `tools/call` request with a valid envelope; carries its `params` node.
    ToolsCall(&'n Node<'a>),
    Skip(Skipped),
}

/// JSON-RPC envelope: `tools/call` requests go on to validation; every other message is
/// skipped, and `initialize` / `server/discover` requests begin a session of their era.
fn classify<'n, 'a>(
    root: &'n Node<'a>,
    session: &mut Session,
    mode: EraMode,
) -> Result<Message<'n, 'a>, Refusal> {
    let opening = Span {
        start: root.span.start,
        end: root.span.start + 1,
    };
    match &root.value {
        JsonValue::Object(_) => {}
        JsonValue::Array(_) => {
            return Err(Refusal::new(
                RefusalCode::NotAnObject,
                opening,
                "JSON-RPC batches are not supported: a frame must be one request object",
            ))
        }
        other => {
            return Err(Refusal::new(
                RefusalCode::NotAnObject,
                root.span,
                format!(
                    "a JSON-RPC message is an object, found {}",
                    other.type_name()
                ),
            ))
        }
    }
    let Some(method) = root.value.get("method") else {
        if root.value.get("result").is_some() || root.value.get("error").is_some() {
            return Ok(Message::Skip(Skipped {
                kind: SkipKind::Response,
                method: None,
            }));
        }
        return Err(Refusal::new(
            RefusalCode::MissingMethod,
            opening,
            "frame has no \"method\" and is not a response",
        ));
    };
    let Some(name) = method.value.as_str() else {
        return Err(Refusal::new(
            RefusalCode::InvalidMethod,
            method.span,
            format!(
                "\"method\" must be a string, found {}",
                method.value.type_name()
            ),
        ));
    };
    let id = root.value.get("id");
    if name != "tools/call" {
        let kind = if id.is_some() {
            SkipKind::Request
        } else {
            SkipKind::Notification
        };
        if kind == SkipKind::Request && mode == EraMode::Auto {
            match name {
                "initialize" => session.era = Some(Era::Legacy),
                "server/discover" => session.era = Some(Era::Modern),
                _ => {}
            }
        }
        return Ok(Message::Skip(Skipped {
            kind,
            method: Some(name.to_owned()),
        }));
    }
    match root.value.get("jsonrpc") {
        Some(v) if v.value.as_str() == Some("2.0") => {}
        Some(v) => {
            return Err(Refusal::new(
                RefusalCode::InvalidJsonrpcVersion,
                v.span,
                "\"jsonrpc\" must be \"2.0\"",
            ))
        }
        None => {
            return Err(Refusal::new(
                RefusalCode::InvalidJsonrpcVersion,
                opening,
                "a JSON-RPC 2.0 request needs \"jsonrpc\": \"2.0\"",
            ))
        }
    }
    match id {
        None => {
            return Err(Refusal::new(
                RefusalCode::MissingId,
                method.span,
                "tools/call without \"id\" is a notification; a tool call must be a request",
            ))
        }
        Some(id) if !(matches!(id.value, JsonValue::String(_)) || id.value.is_integer()) => {
            return Err(Refusal::new(
                RefusalCode::InvalidId,
                id.span,
                format!(
                    "\"id\" must be a string or an integer, found {}",
                    id.value.type_name()
                ),
            ));
        }
        Some(_) => {}
    }
    match root.value.get("params") {
        Some(params) if matches!(params.value, JsonValue::Object(_)) => {
            Ok(Message::ToolsCall(params))
        }
        Some(params) => Err(Refusal::new(
            RefusalCode::ParamsNotObject,
            params.span,
            format!(
                "tools/call \"params\" must be an object, found {}",
                params.value.type_name()
            ),
        )),
        None => Err(Refusal::new(
            RefusalCode::ParamsNotObject,
            method.span,
            "tools/call needs \"params\"",
        )),
    }
}

/// docs/target.md era rules: `--era` overrides; otherwise the session's entry call decides,
/// and a session-less frame is 2026-07-28 exactly when its `_meta` carries a marker key.
fn decide_era(mode: EraMode, session: &Session, params: &Node<'_>) -> Result<Era, Refusal> {
    let meta = params.value.get("_meta");
    let markers = meta.is_some_and(|m| meta::has_modern_markers(&m.value));
    match (mode, session.era) {
        (EraMode::Legacy, _) => Ok(Era::Legacy),
        (EraMode::Modern, _) => Ok(Era::Modern),
        (EraMode::Auto, Some(Era::Modern)) => Ok(Era::Modern),
        (EraMode::Auto, Some(Era::Legacy)) if markers => Err(Refusal::new(
            RefusalCode::EraConflict,
            meta.map_or(params.span, |m| m.span),
            "the session began with initialize (legacy) but this request carries 2026-07-28 _meta markers",
        )),
        (EraMode::Auto, Some(Era::Legacy)) => Ok(Era::Legacy),
        (EraMode::Auto, None) => Ok(if markers { Era::Modern } else { Era::Legacy }),
    }
}

/// Shape, era and `_meta` checks of a `tools/call`'s params, then every identity.
fn validated_call(
    frame_bytes: &[u8],
    params: &Node<'_>,
    era: Era,
    server: &str,
) -> Result<Call, Refusal> {
    let tool = match params.value.get("name") {
        Some(Node {
            value: JsonValue::String(name),
            ..
        }) if !name.is_empty() => name.to_string(),
        Some(node) => {
            return Err(Refusal::new(
                RefusalCode::InvalidToolName,
                node.span,
                format!(
                    "tool \"name\" must be a non-empty string, found {}",
                    node.value.type_name()
                ),
            ))
        }
        None => {
            return Err(Refusal::new(
                RefusalCode::InvalidToolName,
                Span {
                    start: params.span.start,
                    end: params.span.start + 1,
                },
                "tools/call params need a tool \"name\"",
            ))
        }
    };
    let arguments = params.value.get("arguments");
    if let Some(args) = arguments.filter(|a| !matches!(a.value, JsonValue::Object(_))) {
        return Err(Refusal::new(
            RefusalCode::ArgumentsNotObject,
            args.span,
            format!(
                "tools/call \"arguments\" must be an object, found {}",
                args.value.type_name()
            ),
        ));
    }
    let meta_node = params.value.get("_meta");
    let warnings = match meta_node {
        Some(node) => meta::validate(node, era)?,
        None if era == Era::Modern => {
            return Err(Refusal::new(
                RefusalCode::MetaRequired,
                Span {
                    start: params.span.start,
                    end: params.span.start + 1,
                },
                "a 2026-07-28 request needs \"_meta\" in its params",
            ));
        }
        None => Vec::new(),
    };
    let render = |node: &Node<'_>| {
        canonical::lean_compress(node)
            .map_err(|e| Refusal::new(RefusalCode::NumberNotBinary64, node.span, e.to_string()))
    };
    let canonical_arguments = match arguments {
        Some(args) => render(args)?,
        None => "null".to_owned(),
    };
    let meta = match meta_node {
        Some(node) => meta_state(node, &render)?,
        None => MetaState::Absent,
    };
    let request_state = params.value.get("requestState").map(render).transpose()?;
    let input_responses = params.value.get("inputResponses").map(render).transpose()?;
    let (canonical_request, args_hash) = match arguments {
        Some(args) => host_projection(&tool, args, params),
        None => (None, None),
    };
    let (subject, request_sha256) = frame::digests(frame_bytes);
    let meta_bytes = match &meta {
        MetaState::Absent => 0,
        MetaState::Present {
            canonical, entries, ..
        } => canonical.len() + entries.iter().map(|(_, v)| v.len()).sum::<usize>(),
    };
    let canonical_bytes = canonical_arguments.len()
        + meta_bytes
        + request_state.as_ref().map_or(0, String::len)
        + input_responses.as_ref().map_or(0, String::len)
        + canonical_request.as_ref().map_or(0, String::len);
    let identities = identity::compute(&Inputs {
        server,
        tool: &tool,
        arguments: &canonical_arguments,
        meta: meta.canonical(),
        request_state: request_state.as_deref(),
        input_responses: input_responses.as_deref(),
    });
    Ok(Call {
        era,
        tool,
        subject,
        request_sha256,
        canonical_request_sha256: canonical_request
            .as_deref()
            .map(|c| sha256_hex(c.as_bytes())),
        canonical_request,
        args_hash,
        canonical_arguments,
        meta,
        request_state,
        input_responses,
        identities,
        warnings,
        canonical_bytes,
        _validated: Validated,
    })
}

fn meta_state(
    node: &Node<'_>,
    render: &dyn Fn(&Node<'_>) -> Result<String, Refusal>,
) -> Result<MetaState, Refusal> {
    let members = node.value.as_object().unwrap_or_default();
    let mut entries = members
        .iter()
        .map(|m| Ok((m.key.to_string(), render(&m.value)?)))
        .collect::<Result<Vec<_>, Refusal>>()?;
    entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut canonical = String::from("{");
    for (i, (key, value)) in entries.iter().enumerate() {
        if i > 0 {
            canonical.push(',');
        }
        canonical::write_lean_string(key, &mut canonical);
        canonical.push(':');
        canonical.push_str(value);
    }
    canonical.push('}');
    Ok(MetaState::Present {
        keys: entries.iter().map(|(k, _)| k.clone()).collect(),
        canonical,
        entries,
    })
}

/// seal-host's `canonical_request` text and `args_hash`; `None` where seal-host's serde
/// reader would refuse a number and record a parse error instead.
fn host_projection(
    tool: &str,
    arguments: &Node<'_>,
    params: &Node<'_>,
) -> (Option<String>, Option<String>) {
    // The arguments are rendered once, in place inside the request; `args_hash` covers
    // that stretch of it.
    let mut out = Vec::with_capacity(params.span.len() + 128);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"#);
    canonical::serde_string(tool, &mut out);
    out.extend_from_slice(br#","arguments":"#);
    let args_start = out.len();
    if canonical::serde_compact(arguments, KeyOrder::Wire, &mut out).is_err() {
        return (None, None);
    }
    let args_hash = sha256_hex(&out[args_start..]);
    for (key, order) in [
        ("_meta", KeyOrder::Sorted),
        ("requestState", KeyOrder::Wire),
        ("inputResponses", KeyOrder::Wire),
    ] {
        if let Some(value) = params.value.get(key) {
            out.extend_from_slice(b",\"");
            out.extend_from_slice(key.as_bytes());
            out.extend_from_slice(b"\":");
            if canonical::serde_compact(value, order, &mut out).is_err() {
                return (None, None);
            }
        }
    }
    out.extend_from_slice(b"}}");
    (String::from_utf8(out).ok(), Some(args_hash))
}

fn wire_refusal(violation: wire::WireViolation) -> Refusal {
    let code = match violation.check {
        WireCheck::ExponentDigits => RefusalCode::ExponentTooLong,
        WireCheck::DuplicateKey => RefusalCode::DuplicateKey,
        WireCheck::EscapedKey => RefusalCode::EscapedKey,
        WireCheck::StrayCloser => RefusalCode::UnbalancedBracket,
        WireCheck::CanonicalDuplicateKey => RefusalCode::NfdEqualKeys,
        WireCheck::SignificantDigits => RefusalCode::TooManyDigits,
        WireCheck::Binary64Disagreement => RefusalCode::NumberNotBinary64,
        WireCheck::LoneSurrogate => RefusalCode::LoneSurrogate,
        WireCheck::NestingDepth => RefusalCode::NestingTooDeep,
        WireCheck::CapDepth => RefusalCode::JsonDepthExceeded,
        WireCheck::CapStringBytes => RefusalCode::JsonStringTooLong,
        WireCheck::CapCollectionItems => RefusalCode::JsonCollectionTooLarge,
    };
    Refusal::new(code, violation.span, violation.detail)
}

fn parse_refusal(line: &str, error: json::ParseError) -> Refusal {
    let mut message = format!("not JSON: {}", error.message);
    if line.starts_with('\u{FEFF}') {
        message =
            "frame starts with a UTF-8 byte-order mark (EF BB BF); JSON-RPC frames carry none"
                .to_owned();
    } else if line.contains('\0') {
        message.push_str(" (the frame contains NUL bytes; is the capture UTF-16?)");
    }
    let end = (error.offset + 1).min(line.len()).max(error.offset);
    Refusal::new(
        RefusalCode::ParseError,
        Span {
            start: error.offset,
            end,
        },
        message,
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn call(frame: &[u8]) -> Call {
        match analyze(frame, &Options::default(), &mut Session::default()) {
            Verdict::Call(call) => *call,
            other => panic!("not a call: {other:?}"),
        }
    }

    /// seal-host's projection's exact text when `_meta` and `requestState` are present:
    /// arguments in wire order, `_meta` sorted at every depth, `id` forced to 1, and
    /// `args_hash` over the arguments alone (the worked example's hashes are pinned in
    /// `tests/it/identity_vectors.rs`; checked red under the mutants of `host_projection`:
    /// docs/mutants.md).
    #[test]
    fn host_projection_is_seal_hosts_canonical_request() {
        let with_context = call(
            br#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"requestState":{"z":1,"y":2},"_meta":{"b":{"d":2,"c":1.0},"a":1},"arguments":{"b":1,"a":[2]},"name":"t"}}"#,
        );
        assert_eq!(
            with_context.canonical_request(),
            Some(
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"b":1,"a":[2]},"_meta":{"a":1,"b":{"c":1.0,"d":2}},"requestState":{"z":1,"y":2}}}"#
            )
        );
        assert_eq!(
            with_context.args_hash(),
            Some(sha256_hex(br#"{"b":1,"a":[2]}"#).as_str())
        );
        // No object `arguments`: seal-host builds no projection.
        let bare = call(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#);
        assert_eq!((bare.canonical_request(), bare.args_hash()), (None, None));
    }
}
