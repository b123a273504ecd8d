//! What a parsed frame is, by its JSON-RPC envelope: a `tools/call` request that goes on to
//! validation, or another message that is skipped (and `initialize` / `server/discover`
//! begin a session of their era); and the era a call is validated in.

use super::{EraMode, Session, SkipKind, Skipped};
use crate::era::Era;
use crate::json::{JsonValue, Node, Span};
use crate::meta;
use crate::refusal::{Refusal, RefusalCode};

/// What a parsed frame is.
pub(super) enum Message<'n, 'a> {
    /// A `tools/call` request with a valid envelope; carries its `params` node.
    ToolsCall(&'n Node<'a>),
    Skip(Skipped),
}

/// JSON-RPC envelope: `tools/call` requests go on to validation; every other message is
/// skipped, and `initialize` / `server/discover` requests begin a session of their era.
pub(super) fn classify<'n, 'a>(
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
pub(super) fn decide_era(
    mode: EraMode,
    session: &Session,
    params: &Node<'_>,
) -> Result<Era, Refusal> {
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
