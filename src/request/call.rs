//! A validated `tools/call` ([`Call`]) and what is derived from it: its fields are written
//! once, here, by [`validated_call`] from the params the pipeline accepted (shape of `name`
//! and `arguments`, the era's `_meta` rules, the Lean renderings, seal-host's request
//! projection and hashes, every identity), and read through accessors only.

use crate::canonical::{self, KeyOrder};
use crate::digest::sha256_hex;
use crate::era::Era;
use crate::frame::{self, Subject};
use crate::identity::{self, Identities, Inputs};
use crate::json::{JsonValue, Node, Span};
use crate::meta::{self, Warning};
use crate::refusal::{Refusal, RefusalCode};

/// Whether a context value is in the frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetaState {
    Absent,
    Present {
        /// Keys in code-point order.
        keys: Vec<String>,
        /// Lean compress of the whole `_meta` object.
        canonical: String,
        /// Where each key's value's Lean compress is in `canonical`, in the order of `keys`
        /// (read through [`MetaState::entries`]; kept as places, not copies, because most
        /// commands never read them).
        values: Vec<std::ops::Range<usize>>,
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

    /// Each key with its value's Lean compress, in code-point order of the keys (none when
    /// absent).
    pub fn entries(&self) -> impl ExactSizeIterator<Item = (&str, &str)> {
        let (keys, canonical, values): (&[String], &str, &[std::ops::Range<usize>]) = match self {
            MetaState::Absent => (&[], "", &[]),
            MetaState::Present {
                keys,
                canonical,
                values,
            } => (keys, canonical, values),
        };
        keys.iter()
            .zip(values)
            .map(move |(key, value)| (key.as_str(), canonical.get(value.clone()).unwrap_or("")))
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

    /// Canonical bytes of this frame as [`super::MAX_CANONICAL_BYTES`] counts them: the Lean
    /// texts of `arguments`, `_meta` (whole, and again per key), `requestState`,
    /// `inputResponses`, and `canonical_request`. The per-key values are places in the whole
    /// `_meta` text, not texts of their own, so the work is below this by `_meta`'s values;
    /// the count stays the bound's. Never above [`super::MAX_CANONICAL_BYTES`].
    pub fn canonical_bytes(&self) -> usize {
        self.canonical_bytes
    }
}

/// Shape, era and `_meta` checks of a `tools/call`'s params, then every identity.
pub(super) fn validated_call(
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
    // `_meta` counted twice, as the bound counts it (see `canonical_bytes`).
    let meta_bytes = match &meta {
        MetaState::Absent => 0,
        MetaState::Present {
            canonical, values, ..
        } => canonical.len() + values.iter().map(ExactSizeIterator::len).sum::<usize>(),
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
    // The whole object rendered once, in key order, keeping where each value's rendering is
    // in it: the per-key entries are those stretches (Lean's rendering of an object is its
    // members' renderings in key order, so the two agree by construction).
    let mut canonical = String::with_capacity(node.span.len() + 2);
    let mut values = Vec::with_capacity(members.len());
    canonical.push('{');
    for (i, member) in canonical::in_order(members, KeyOrder::Sorted).enumerate() {
        if i > 0 {
            canonical.push(',');
        }
        canonical::write_lean_string(&member.key, &mut canonical);
        canonical.push(':');
        let start = canonical.len();
        if let Err(e) = canonical::write_lean_compress(&member.value, &mut canonical) {
            // The refusal names the first value in wire order that cannot be rendered, as
            // when each value was rendered on its own before the sort.
            let first = members.iter().find_map(|m| render(&m.value).err());
            return Err(first.unwrap_or_else(|| {
                Refusal::new(
                    RefusalCode::NumberNotBinary64,
                    member.value.span,
                    e.to_string(),
                )
            }));
        }
        values.push((&*member.key, start..canonical.len()));
    }
    canonical.push('}');
    Ok(MetaState::Present {
        keys: values.iter().map(|(key, _)| (*key).to_owned()).collect(),
        canonical,
        values: values.into_iter().map(|(_, value)| value).collect(),
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
    // that stretch of it. Written as text from text, so it is a `String` with no second
    // check of its bytes.
    let mut out = String::with_capacity(params.span.len() + 128);
    out.push_str(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"#);
    canonical::serde_string(tool, &mut out);
    out.push_str(r#","arguments":"#);
    let args_start = out.len();
    if canonical::serde_compact(arguments, KeyOrder::Wire, &mut out).is_err() {
        return (None, None);
    }
    let args_hash = sha256_hex(&out.as_bytes()[args_start..]);
    for (key, order) in [
        ("_meta", KeyOrder::Sorted),
        ("requestState", KeyOrder::Wire),
        ("inputResponses", KeyOrder::Wire),
    ] {
        if let Some(value) = params.value.get(key) {
            out.push_str(",\"");
            out.push_str(key);
            out.push_str("\":");
            if canonical::serde_compact(value, order, &mut out).is_err() {
                return (None, None);
            }
        }
    }
    out.push_str("}}");
    (Some(out), Some(args_hash))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::json;
    use crate::request::{analyze, Options, Session, Verdict};

    fn call(frame: &[u8]) -> Call {
        match analyze(frame, &Options::default(), &mut Session::default()) {
            Verdict::Call(call) => *call,
            other => panic!("not a call: {other:?}"),
        }
    }

    /// `_meta` is rendered once, in key order, and its per-key entries are stretches of that
    /// rendering: the whole and each entry are each value's own rendering; and when two values
    /// cannot be rendered, the refusal names the first in wire order, not in key order (seen
    /// red with the refusal taken from the failing member in key order: it then pointed at
    /// "a").
    #[test]
    fn meta_is_rendered_once_and_refused_at_its_first_bad_value_in_wire_order() {
        let modern = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}"#;
        let with_meta = call(
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{}},"_meta":{{"z":[1.5,{{"y":"\u00e9\n","x":null}}],{modern},"b":"q\"","a":-0.0}}}}}}"#
            )
            .as_bytes(),
        );
        let MetaState::Present {
            keys, canonical, ..
        } = with_meta.meta()
        else {
            panic!("no _meta");
        };
        let expected_entries = [
            ("a", "-0.0"),
            ("b", r#""q\"""#),
            ("io.modelcontextprotocol/clientCapabilities", "{}"),
            ("io.modelcontextprotocol/protocolVersion", r#""2026-07-28""#),
            ("z", r#"[1.5,{"x":null,"y":"\u00e9\n"}]"#),
        ];
        let rendered: Vec<(&str, &str)> = with_meta.meta().entries().collect();
        assert_eq!(rendered.len(), expected_entries.len());
        for ((key, value), (want_key, _)) in rendered.iter().zip(expected_entries) {
            assert_eq!(*key, want_key);
            // Each entry is its value's own Lean rendering.
            let params = json::parse(with_meta.canonical_request().unwrap(), 64).unwrap();
            let node = params
                .value
                .get("params")
                .unwrap()
                .value
                .get("_meta")
                .unwrap();
            let own = node.value.get(key).unwrap();
            assert_eq!(*value, canonical::lean_compress(own).unwrap(), "{key}");
        }
        assert_eq!(
            keys,
            &rendered
                .iter()
                .map(|(k, _)| k.to_string())
                .collect::<Vec<_>>()
        );
        let whole: Vec<String> = rendered
            .iter()
            .map(|(k, v)| {
                let mut key = String::new();
                canonical::write_lean_string(k, &mut key);
                format!("{key}:{v}")
            })
            .collect();
        assert_eq!(*canonical, format!("{{{}}}", whole.join(",")));

        // Two values Lean's rendering refuses (too large to expand exactly; the wire guards
        // refuse such a frame before it gets here, so this is the renderer's own refusal
        // behind them): the one written first is the one named.
        let text = r#"{"b":1e99999,"a":2e99999}"#;
        let node = json::parse(text, 64).unwrap();
        let render = |node: &Node<'_>| {
            canonical::lean_compress(node)
                .map_err(|e| Refusal::new(RefusalCode::NumberNotBinary64, node.span, e.to_string()))
        };
        let refusal = meta_state(&node, &render).unwrap_err();
        assert_eq!(refusal.code, RefusalCode::NumberNotBinary64);
        assert_eq!(refusal.span.start, text.find("1e99999").unwrap());
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
