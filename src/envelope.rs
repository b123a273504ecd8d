//! Seal's V2.3 effect envelope (`seal.effect/v2`): the exact signed-message bytes, the
//! effect claim derived from a judged line, the Ed25519 check seal-host applies to them,
//! and the host/kernel gates that can be decided offline (see
//! docs/v2-and-envelopes.md and docs/formats.md). Facts were
//! read (never copied) from velvetmonkey/mcp-seal-dev `SealV2/EffectEnvelope.lean`
//! (`effectMessage`, `optMeta`, `optMrtr`, `deriveEffect`, the gates) and
//! velvetmonkey/seal-host `rust/src/envelope_v23.rs`, `rust/src/ed25519.rs`,
//! `rust/tests/envelope_v23_twin.rs`, and checked against the 18 twin vectors in
//! `testdata/envelope/`.
//!
//! The message, every variable-width field framed as `u64be(byte length) ‖ bytes`:
//!
//! ```text
//! "seal.effect/v2\0" ‖ authority(32) ‖ frame(key_id) ‖ nonce(32)
//!   ‖ u64be(issued_at) ‖ u64be(expires_at) ‖ frame(line)
//!   ‖ frame(adapter.type) ‖ frame(adapter.version) ‖ frame(session) ‖ frame(policy_version)
//!   ‖ 0x00                                           (effect declared absent)
//!   | 0x01 ‖ frame(resource) ‖ frame(action) ‖ frame(args)
//!          ‖ (0x00 | 0x01 ‖ frame(metadata))
//!          ‖ (ε | 0x01 ‖ frame(requestState) | 0x02 ‖ frame(inputResponses)
//!               | 0x03 ‖ frame(requestState) ‖ frame(inputResponses))
//! ```
//!
//! A derived claim follows the Lean kernel (`deriveEffect`): resource = `params.name`,
//! action = `params.action`, args = the V2 serialization of `params.arguments`, and the
//! Lean `Json.compress` of `_meta`, `requestState`, `inputResponses` when present.
//! seal-host's Rust gate derives args and context values with serde_json instead; where
//! the two disagree for a line the findings say so rather than picking a side silently.

use crate::canonical::{lean_compress, serde_compact, KeyOrder, RenderError};
use crate::json::{self, JsonValue, Node};
use crate::request::Accepted;
use crate::signature::Failure;
use crate::typed::{read_request_line, RequestRefusal, V2Request};
use crate::v2;
use serde::Serialize;

/// Domain tag, NUL-terminated.
pub const DOMAIN_TAG: &[u8] = b"seal.effect/v2\0";
/// The adapter seal-host v0.1.6 mediates as (its adapter gate compares against it).
pub const DEPLOYED_ADAPTER_TYPE: &str = "mcp";
pub const DEPLOYED_ADAPTER_VERSION: &str = "2025-06-18";

/// The signed fields of one envelope (the authority is the config trust root, given
/// separately).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    pub key_id: String,
    pub nonce: [u8; 32],
    pub issued_at: u64,
    pub expires_at: u64,
    pub adapter_type: String,
    pub adapter_version: String,
    pub session: String,
    pub policy_version: String,
    /// `None` is declared absence (one signed 0x00 byte).
    pub effect: Option<EffectClaim>,
}

/// The F3 effect claim. Context values are canonical JSON text; `None` is structural
/// absence (a present JSON `null` is `Some("null")`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EffectClaim {
    pub resource: String,
    pub action: String,
    pub args: String,
    pub metadata: Option<String>,
    #[serde(rename = "requestState")]
    pub request_state: Option<String>,
    #[serde(rename = "inputResponses")]
    pub input_responses: Option<String>,
}

/// The exact bytes an envelope's Ed25519 signature covers, over the judged line of a frame
/// the validation pipeline let through.
///
/// ```
/// use sealkit::envelope::{signed_message, Params};
/// use sealkit::request::{self, Options, Session};
/// let frame = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{}}}\n";
/// let accepted = request::accept(frame, &Options::default(), &mut Session::default()).unwrap();
/// let params = r#"{"authority_hex":"abababababababababababababababababababababababababababababababab","key_id":"k","nonce_hex":"0707070707070707070707070707070707070707070707070707070707070707","issued_at":1,"expires_at":2,"session":"s","policy_version":"p","effect":null}"#;
/// let (authority, envelope) = Params::from_json(params).unwrap().resolve(&accepted).unwrap();
/// assert!(signed_message(&authority, &envelope, &accepted).starts_with(b"seal.effect/v2\0"));
/// ```
///
/// A line that did not go through the pipeline does not compile: the same example with a
/// raw line in place of `&accepted` (seen to compile, and this test go red, with
/// `&accepted` put back):
///
/// ```compile_fail,E0308
/// use sealkit::envelope::{signed_message, Params};
/// use sealkit::request::{self, Options, Session};
/// let frame = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\",\"arguments\":{}}}\n";
/// let accepted = request::accept(frame, &Options::default(), &mut Session::default()).unwrap();
/// let params = r#"{"authority_hex":"abababababababababababababababababababababababababababababababab","key_id":"k","nonce_hex":"0707070707070707070707070707070707070707070707070707070707070707","issued_at":1,"expires_at":2,"session":"s","policy_version":"p","effect":null}"#;
/// let (authority, envelope) = Params::from_json(params).unwrap().resolve(&accepted).unwrap();
/// let message = signed_message(&authority, &envelope, "{\"m\":1}");
/// ```
pub fn signed_message(authority: &[u8; 32], envelope: &Envelope, frame: &Accepted<'_>) -> Vec<u8> {
    message_of_line(authority, envelope, frame.line())
}

/// The message layout over any line; only accepted lines reach it from outside.
fn message_of_line(authority: &[u8; 32], envelope: &Envelope, line: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(256 + line.len());
    out.extend_from_slice(DOMAIN_TAG);
    out.extend_from_slice(authority);
    frame(&mut out, envelope.key_id.as_bytes());
    out.extend_from_slice(&envelope.nonce);
    out.extend_from_slice(&envelope.issued_at.to_be_bytes());
    out.extend_from_slice(&envelope.expires_at.to_be_bytes());
    frame(&mut out, line.as_bytes());
    frame(&mut out, envelope.adapter_type.as_bytes());
    frame(&mut out, envelope.adapter_version.as_bytes());
    frame(&mut out, envelope.session.as_bytes());
    frame(&mut out, envelope.policy_version.as_bytes());
    match &envelope.effect {
        None => out.push(0x00),
        Some(claim) => {
            out.push(0x01);
            frame(&mut out, claim.resource.as_bytes());
            frame(&mut out, claim.action.as_bytes());
            frame(&mut out, claim.args.as_bytes());
            match &claim.metadata {
                None => out.push(0x00),
                Some(metadata) => {
                    out.push(0x01);
                    frame(&mut out, metadata.as_bytes());
                }
            }
            // The all-absent context block is empty (kept byte-compatible with the
            // layout before context values existed); the other three shapes carry a mode.
            match (&claim.request_state, &claim.input_responses) {
                (None, None) => {}
                (Some(state), None) => {
                    out.push(0x01);
                    frame(&mut out, state.as_bytes());
                }
                (None, Some(responses)) => {
                    out.push(0x02);
                    frame(&mut out, responses.as_bytes());
                }
                (Some(state), Some(responses)) => {
                    out.push(0x03);
                    frame(&mut out, state.as_bytes());
                    frame(&mut out, responses.as_bytes());
                }
            }
        }
    }
    out
}

fn frame(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_be_bytes());
    out.extend_from_slice(bytes);
}

/// The claim the Lean kernel derives from a V2 request (`deriveEffect`).
pub fn kernel_effect(request: &V2Request) -> Result<EffectClaim, RenderError> {
    let compress = |v: &Option<v2::V2Value>| v.as_ref().map(v2::compress).transpose();
    Ok(EffectClaim {
        resource: request.tool.clone(),
        action: request.action.clone(),
        args: v2::serialize(&request.arguments),
        metadata: compress(&request.meta)?,
        request_state: compress(&request.request_state)?,
        input_responses: compress(&request.input_responses)?,
    })
}

/// Why no claim can be derived from a line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeriveError {
    #[error("{0}")]
    Refused(RequestRefusal),
    #[error("{0}")]
    Render(RenderError),
}

impl crate::error_code::Coded for DeriveError {
    fn code(&self) -> &'static str {
        match self {
            DeriveError::Refused(r) => r.code(),
            DeriveError::Render(_) => "value-unrenderable",
        }
    }
}

/// The kernel's claim for an accepted frame's judged line.
pub fn derive_effect(frame: &Accepted<'_>) -> Result<EffectClaim, DeriveError> {
    derive_effect_of_line(frame.line())
}

fn derive_effect_of_line(line: &str) -> Result<EffectClaim, DeriveError> {
    let request = read_request_line(line.as_bytes()).map_err(DeriveError::Refused)?;
    kernel_effect(&request).map_err(DeriveError::Render)
}

/// The claim seal-host's Rust gate (`derive_mcp_effect`) computes for an accepted frame's
/// line: a serde_json read, args as compact serde_json text in wire order, context values
/// as compact serde_json text with keys sorted. `None` where that gate would refuse the line.
pub fn host_effect(frame: &Accepted<'_>) -> Option<EffectClaim> {
    host_effect_of_line(frame.line())
}

fn host_effect_of_line(line: &str) -> Option<EffectClaim> {
    let root = json::parse(line, v2::MAX_DEPTH).ok()?;
    if root.value.get("method")?.value.as_str()? != "tools/call" {
        return None;
    }
    let params = root.value.get("params")?;
    params.value.as_object()?;
    let text = |node: &Node<'_>, order| -> Option<String> {
        let mut out = Vec::new();
        serde_compact(node, order, &mut out).ok()?;
        String::from_utf8(out).ok()
    };
    let metadata = match params.value.get("_meta") {
        None => None,
        Some(meta) if meta.value.as_object().is_some() => Some(text(meta, KeyOrder::Sorted)?),
        Some(_) => return None,
    };
    let optional = |key: &str| -> Option<Option<String>> {
        match params.value.get(key) {
            None => Some(None),
            Some(node) => Some(Some(text(node, KeyOrder::Sorted)?)),
        }
    };
    Some(EffectClaim {
        resource: params.value.get("name")?.value.as_str()?.to_owned(),
        action: params.value.get("action")?.value.as_str()?.to_owned(),
        args: text(params.value.get("arguments")?, KeyOrder::Wire)?,
        metadata,
        request_state: optional("requestState")?,
        input_responses: optional("inputResponses")?,
    })
}

/// The outcome of seal-host's Ed25519 check over the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureCheck {
    Verified,
    /// S ≥ L (RFC 8032 §5.1.7), refused before the curve check.
    ScalarNotCanonical,
    /// The public key bytes are not a valid point encoding.
    PublicKeyInvalid,
    Mismatch,
}

impl SignatureCheck {
    pub fn code(self) -> Option<&'static str> {
        match self {
            SignatureCheck::Verified => None,
            SignatureCheck::ScalarNotCanonical => Some("signature-scalar-not-canonical"),
            SignatureCheck::PublicKeyInvalid => Some("public-key-invalid"),
            SignatureCheck::Mismatch => Some("signature-mismatch"),
        }
    }
}

/// seal-host's signature rule (`crate::signature`): S < L checked explicitly, then
/// ed25519-dalek `verify`.
pub fn verify_signature(
    message: &[u8],
    signature: &[u8; 64],
    public_key: &[u8; 32],
) -> SignatureCheck {
    match crate::signature::verify_key_bytes(public_key, message, signature) {
        Ok(()) => SignatureCheck::Verified,
        Err(Failure::NonCanonicalScalar) => SignatureCheck::ScalarNotCanonical,
        Err(Failure::BadPublicKey) => SignatureCheck::PublicKeyInvalid,
        Err(Failure::Mismatch | Failure::BadEncoding) => SignatureCheck::Mismatch,
    }
}

/// How serious a finding is (docs/exit-status.md: warnings change the exit code only under
/// `--deny-warnings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// Something about the envelope Seal would refuse or that an operator should know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
}

/// The gates Seal applies that need no trusted state (seal-host `wire_view` / `verify`,
/// the kernel's `effectGate`, `expiryGate`, `sessionGate`, `policyVersionGate`). Gates that
/// compare with the host's own session, policy version or clock are not decidable
/// offline and are not reported.
pub fn findings(envelope: &Envelope, frame: &Accepted<'_>) -> Vec<Finding> {
    findings_of_line(envelope, frame.line())
}

fn findings_of_line(envelope: &Envelope, line: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut error = |code, message: String| {
        out.push(Finding {
            code,
            severity: Severity::Error,
            message,
        })
    };
    if line.is_empty() {
        error(
            "line-empty",
            "the judged line is empty; seal-host refuses it".into(),
        );
    }
    if line.contains(['\n', '\r', '\0']) {
        error(
            "line-control-character",
            "the judged line contains LF, CR or NUL; seal-host refuses it as line smuggling".into(),
        );
    }
    if envelope.expires_at == 0 {
        error(
            "expires-at-zero",
            "expires_at is mandatory and must be nonzero".into(),
        );
    }
    if envelope.session.is_empty() {
        error(
            "session-empty",
            "session is mandatory and must be nonempty".into(),
        );
    }
    if envelope.policy_version.is_empty() {
        error(
            "policy-version-empty",
            "policy_version is mandatory and must be nonempty".into(),
        );
    }
    if let Some(claim) = &envelope.effect {
        effect_findings(claim, envelope, line, &mut out);
    }
    if (
        envelope.adapter_type.as_str(),
        envelope.adapter_version.as_str(),
    ) != (DEPLOYED_ADAPTER_TYPE, DEPLOYED_ADAPTER_VERSION)
    {
        out.push(Finding {
            code: "adapter-not-deployed",
            severity: Severity::Warning,
            message: format!(
                "seal-host v0.1.6 mediates as adapter {DEPLOYED_ADAPTER_TYPE} {DEPLOYED_ADAPTER_VERSION}; \
                 its adapter gate refuses {:?} {:?}",
                envelope.adapter_type, envelope.adapter_version
            ),
        });
    }
    out
}

fn effect_findings(claim: &EffectClaim, envelope: &Envelope, line: &str, out: &mut Vec<Finding>) {
    let mut error = |code, message: String| {
        out.push(Finding {
            code,
            severity: Severity::Error,
            message,
        })
    };
    if envelope.adapter_type != DEPLOYED_ADAPTER_TYPE {
        error(
            "effect-non-mcp-adapter",
            "an effect claim is only checkable under the mcp adapter; Seal refuses it otherwise"
                .into(),
        );
    }
    if claim.metadata.as_ref().is_some_and(|m| !m.starts_with('{')) {
        error(
            "metadata-not-object",
            "the claimed metadata is not an object; seal-host's encoder refuses to build these \
             bytes and no line can derive it"
                .into(),
        );
    }
    let kernel = match derive_effect_of_line(line) {
        Ok(kernel) => kernel,
        Err(why) => {
            error(
                "effect-underivable",
                format!("an effect is claimed but the line yields none ({why}); Seal blocks it"),
            );
            return;
        }
    };
    if *claim != kernel {
        error(
            "effect-mismatch",
            "the claimed effect differs from the one the kernel derives from the line".into(),
        );
    }
    if host_effect_of_line(line).as_ref() != Some(&kernel) {
        out.push(Finding {
            code: "host-kernel-divergence",
            severity: Severity::Warning,
            message: "seal-host's Rust gate derives a different claim from this line than the \
                      Lean kernel (serde_json text versus V2 / Json.compress text); an envelope \
                      cannot satisfy both"
                .into(),
        });
    }
}

/// What the effect claim of an envelope should be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EffectChoice {
    /// The kernel's claim for the line.
    Derive,
    /// Declared absent (0x00).
    Absent,
    /// Exactly as given.
    Given(EffectClaim),
}

/// Envelope parameters from a JSON file or flags; any may be missing until merged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Params {
    pub authority: Option<[u8; 32]>,
    pub key_id: Option<String>,
    pub nonce: Option<[u8; 32]>,
    pub issued_at: Option<u64>,
    pub expires_at: Option<u64>,
    pub adapter_type: Option<String>,
    pub adapter_version: Option<String>,
    pub session: Option<String>,
    pub policy_version: Option<String>,
    pub effect: Option<EffectChoice>,
}

/// Why parameters were not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamsError {
    /// Stable code: `params-not-json`, `params-invalid`, `params-missing`,
    /// `effect-underivable`.
    pub code: &'static str,
    pub message: String,
}

impl std::fmt::Display for ParamsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ParamsError {}

fn invalid(message: impl Into<String>) -> ParamsError {
    ParamsError {
        code: "params-invalid",
        message: message.into(),
    }
}

impl Params {
    /// Reads a parameter file: `authority_hex`, `key_id`, `nonce_hex`, `issued_at`,
    /// `expires_at`, `adapter` {`type`, `version`}, `session`, `policy_version`, `effect`
    /// (`"derive"`, `null` for declared absence, or a claim object with `resource`,
    /// `action`, `args` strings and optional `metadata`, `requestState`, `inputResponses`
    /// JSON values). Unknown members are refused.
    pub fn from_json(text: &str) -> Result<Params, ParamsError> {
        let root = json::parse(text, v2::MAX_DEPTH).map_err(|e| ParamsError {
            code: "params-not-json",
            message: format!("at byte {}: {}", e.offset, e.message),
        })?;
        let members = root
            .value
            .as_object()
            .ok_or_else(|| invalid("the parameter file must be a JSON object"))?;
        let mut params = Params::default();
        for member in members {
            let value = &member.value.value;
            let key = member.key.as_ref();
            match key {
                "authority_hex" => params.authority = Some(hex32(key, string(key, value)?)?),
                "key_id" => params.key_id = Some(string(key, value)?.to_owned()),
                "nonce_hex" => params.nonce = Some(hex32(key, string(key, value)?)?),
                "issued_at" => params.issued_at = Some(u64_member(key, value)?),
                "expires_at" => params.expires_at = Some(u64_member(key, value)?),
                "session" => params.session = Some(string(key, value)?.to_owned()),
                "policy_version" => params.policy_version = Some(string(key, value)?.to_owned()),
                "adapter" => {
                    let (kind, version) = adapter(value)?;
                    params.adapter_type = Some(kind);
                    params.adapter_version = Some(version);
                }
                "effect" => params.effect = Some(effect_choice(&member.value)?),
                other => return Err(invalid(format!("unknown member {other:?}"))),
            }
        }
        Ok(params)
    }

    /// These parameters with every value `over` sets taking precedence.
    pub fn overlaid(self, over: Params) -> Params {
        Params {
            authority: over.authority.or(self.authority),
            key_id: over.key_id.or(self.key_id),
            nonce: over.nonce.or(self.nonce),
            issued_at: over.issued_at.or(self.issued_at),
            expires_at: over.expires_at.or(self.expires_at),
            adapter_type: over.adapter_type.or(self.adapter_type),
            adapter_version: over.adapter_version.or(self.adapter_version),
            session: over.session.or(self.session),
            policy_version: over.policy_version.or(self.policy_version),
            effect: over.effect.or(self.effect),
        }
    }

    /// The authority and envelope for an accepted frame. The adapter defaults to the
    /// deployed one and the effect to [`EffectChoice::Derive`]; every other field is required.
    pub fn resolve(self, frame: &Accepted<'_>) -> Result<([u8; 32], Envelope), ParamsError> {
        self.resolve_line(frame.line())
    }

    fn resolve_line(self, line: &str) -> Result<([u8; 32], Envelope), ParamsError> {
        let mut missing = Vec::new();
        let mut need = |name: &'static str, present: bool| {
            if !present {
                missing.push(name);
            }
        };
        need("authority", self.authority.is_some());
        need("key_id", self.key_id.is_some());
        need("nonce", self.nonce.is_some());
        need("issued_at", self.issued_at.is_some());
        need("expires_at", self.expires_at.is_some());
        need("session", self.session.is_some());
        need("policy_version", self.policy_version.is_some());
        let (
            Some(authority),
            Some(key_id),
            Some(nonce),
            Some(issued_at),
            Some(expires_at),
            Some(session),
            Some(policy_version),
        ) = (
            self.authority,
            self.key_id,
            self.nonce,
            self.issued_at,
            self.expires_at,
            self.session,
            self.policy_version,
        )
        else {
            return Err(ParamsError {
                code: "params-missing",
                message: format!("missing: {}", missing.join(", ")),
            });
        };
        let effect = match self.effect.unwrap_or(EffectChoice::Derive) {
            EffectChoice::Absent => None,
            EffectChoice::Given(claim) => Some(claim),
            EffectChoice::Derive => Some(derive_effect_of_line(line).map_err(|why| ParamsError {
                code: "effect-underivable",
                message: format!(
                    "cannot derive the effect claim from the line ({why}); give one or declare it absent"
                ),
            })?),
        };
        Ok((
            authority,
            Envelope {
                key_id,
                nonce,
                issued_at,
                expires_at,
                adapter_type: self
                    .adapter_type
                    .unwrap_or_else(|| DEPLOYED_ADAPTER_TYPE.to_owned()),
                adapter_version: self
                    .adapter_version
                    .unwrap_or_else(|| DEPLOYED_ADAPTER_VERSION.to_owned()),
                session,
                policy_version,
                effect,
            },
        ))
    }
}

fn string<'v>(key: &str, value: &'v JsonValue<'_>) -> Result<&'v str, ParamsError> {
    value.as_str().ok_or_else(|| {
        invalid(format!(
            "{key} must be a string, found {}",
            value.type_name()
        ))
    })
}

/// Exactly 32 bytes of hex.
pub fn hex32(what: &str, text: &str) -> Result<[u8; 32], ParamsError> {
    crate::digest::hex_decode(text)
        .and_then(|bytes| <[u8; 32]>::try_from(bytes).ok())
        .ok_or_else(|| invalid(format!("{what} must be 64 hex digits (32 bytes)")))
}

fn u64_member(key: &str, value: &JsonValue<'_>) -> Result<u64, ParamsError> {
    match value {
        JsonValue::Number(literal) if literal.bytes().all(|b| b.is_ascii_digit()) => literal
            .parse()
            .map_err(|_| invalid(format!("{key} does not fit an unsigned 64-bit integer"))),
        _ => Err(invalid(format!(
            "{key} must be an unsigned integer without sign, fraction or exponent"
        ))),
    }
}

fn adapter(value: &JsonValue<'_>) -> Result<(String, String), ParamsError> {
    let members = value
        .as_object()
        .ok_or_else(|| invalid("adapter must be an object {\"type\", \"version\"}"))?;
    if let Some(extra) = members
        .iter()
        .find(|m| m.key != "type" && m.key != "version")
    {
        return Err(invalid(format!("unknown adapter member {:?}", extra.key)));
    }
    let field = |name: &str| -> Result<String, ParamsError> {
        let node = value
            .get(name)
            .ok_or_else(|| invalid(format!("adapter.{name} is missing")))?;
        Ok(string(name, &node.value)?.to_owned())
    };
    Ok((field("type")?, field("version")?))
}

fn effect_choice(node: &Node<'_>) -> Result<EffectChoice, ParamsError> {
    match &node.value {
        JsonValue::Null => Ok(EffectChoice::Absent),
        JsonValue::String(s) if s == "derive" => Ok(EffectChoice::Derive),
        JsonValue::Object(members) => {
            const KNOWN: [&str; 6] = [
                "resource",
                "action",
                "args",
                "metadata",
                "requestState",
                "inputResponses",
            ];
            if let Some(extra) = members.iter().find(|m| !KNOWN.contains(&m.key.as_ref())) {
                return Err(invalid(format!("unknown effect member {:?}", extra.key)));
            }
            let text = |name: &str| -> Result<String, ParamsError> {
                let node = node
                    .value
                    .get(name)
                    .ok_or_else(|| invalid(format!("effect.{name} is missing")))?;
                Ok(string(name, &node.value)?.to_owned())
            };
            let canonical = |name: &str| -> Result<Option<String>, ParamsError> {
                node.value
                    .get(name)
                    .map(|value| {
                        lean_compress(value).map_err(|e| invalid(format!("effect.{name}: {e}")))
                    })
                    .transpose()
            };
            Ok(EffectChoice::Given(EffectClaim {
                resource: text("resource")?,
                action: text("action")?,
                args: text("args")?,
                metadata: canonical("metadata")?,
                request_state: canonical("requestState")?,
                input_responses: canonical("inputResponses")?,
            }))
        }
        _ => Err(invalid(
            "effect must be \"derive\", null (declared absent) or a claim object",
        )),
    }
}

/// The judged line of a file holding exactly one frame: the bytes minus one trailing LF,
/// then minus one trailing CR. `None` when an LF occurs before the end (several frames).
pub fn single_frame_line(bytes: &[u8]) -> Option<&[u8]> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    if body.contains(&b'\n') {
        return None;
    }
    Some(crate::frame::request_line(bytes))
}

#[cfg(test)]
mod tests;
