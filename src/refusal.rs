//! Why a frame gets no identity: one stable kebab-case code per refusal of docs/target.md,
//! the JSON-RPC error code a server would answer with, and the bytes it points at.
//!
//! JSON-RPC codes: `-32700` the text is not JSON (or not UTF-8), `-32600` not a valid
//! request, `-32602` malformed params or `_meta` and every Seal wire guard, `-32022` an
//! otherwise well-formed request naming an unsupported protocol version (every other
//! `_meta` check answers first; with `data.supported` and `data.requested`), `-32001` resource limits (frame size, seal-host's lexical caps and
//! sealkit's pinned `_meta` bounds; seal-host's resource-limit code).

use crate::era::Era;
use crate::frame::{digests, Subject};
use crate::json::Span;
use strum::{IntoStaticStr, VariantArray};

/// Every refusal sealkit can give a frame. The string forms (the variant's name in
/// kebab-case) are a stable interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, IntoStaticStr, VariantArray)]
#[strum(serialize_all = "kebab-case")]
pub enum RefusalCode {
    // Raw frame checks.
    FrameTooLarge,
    InvalidUtf8,
    // Seal's raw wire guards, in order.
    ExponentTooLong,
    DuplicateKey,
    EscapedKey,
    UnbalancedBracket,
    NfdEqualKeys,
    TooManyDigits,
    NumberNotBinary64,
    LoneSurrogate,
    NestingTooDeep,
    // seal-host's lexical caps.
    JsonDepthExceeded,
    JsonStringTooLong,
    JsonCollectionTooLarge,
    // The one parse.
    ParseError,
    // JSON-RPC and tools/call shape.
    NotAnObject,
    InvalidJsonrpcVersion,
    MissingMethod,
    InvalidMethod,
    MissingId,
    InvalidId,
    ParamsNotObject,
    InvalidToolName,
    ArgumentsNotObject,
    // Era.
    EraConflict,
    MetaRequired,
    MetaNotObject,
    MissingProtocolVersion,
    InvalidProtocolVersion,
    UnsupportedProtocolVersion,
    MissingClientCapabilities,
    InvalidClientCapabilities,
    // Known `_meta` keys.
    InvalidProgressToken,
    InvalidClientInfo,
    InvalidLogLevel,
    InvalidTraceparent,
    InvalidTracestate,
    InvalidBaggage,
    InvalidSubscriptionId,
    InvalidServerInfo,
    // sealkit's pinned `_meta` bounds.
    MetaTooLarge,
    MetaTooDeep,
    MetaTooManyItems,
    MetaStringTooLong,
}

impl RefusalCode {
    /// Every code, in validation order.
    pub const ALL: &'static [RefusalCode] = RefusalCode::VARIANTS;

    pub fn as_str(self) -> &'static str {
        self.into()
    }

    pub fn jsonrpc_code(self) -> i32 {
        self.describe().0
    }

    /// The validation stage that gives this refusal.
    pub fn stage(self) -> &'static str {
        self.describe().1
    }

    fn describe(self) -> (i32, &'static str) {
        use RefusalCode::*;
        const PARSE: i32 = -32700;
        const REQUEST: i32 = -32600;
        const PARAMS: i32 = -32602;
        const RESOURCE: i32 = -32001;
        const VERSION: i32 = -32022;
        match self {
            FrameTooLarge => (RESOURCE, "frame"),
            InvalidUtf8 => (PARSE, "frame"),
            ExponentTooLong => (PARAMS, "wire guard 1"),
            DuplicateKey => (PARAMS, "wire guard 2"),
            EscapedKey => (PARAMS, "wire guard 2"),
            UnbalancedBracket => (PARSE, "wire guard 2"),
            NfdEqualKeys => (PARAMS, "wire guard 3"),
            TooManyDigits => (PARAMS, "wire guard 4"),
            NumberNotBinary64 => (PARAMS, "wire guard 5"),
            LoneSurrogate => (PARAMS, "wire guard 6"),
            NestingTooDeep => (PARAMS, "wire guard 7"),
            JsonDepthExceeded => (RESOURCE, "lexical cap"),
            JsonStringTooLong => (RESOURCE, "lexical cap"),
            JsonCollectionTooLarge => (RESOURCE, "lexical cap"),
            ParseError => (PARSE, "parse"),
            NotAnObject => (REQUEST, "shape"),
            InvalidJsonrpcVersion => (REQUEST, "shape"),
            MissingMethod => (REQUEST, "shape"),
            InvalidMethod => (REQUEST, "shape"),
            MissingId => (REQUEST, "shape"),
            InvalidId => (REQUEST, "shape"),
            ParamsNotObject => (PARAMS, "shape"),
            InvalidToolName => (PARAMS, "shape"),
            ArgumentsNotObject => (PARAMS, "shape"),
            EraConflict => (PARAMS, "era"),
            MetaRequired => (PARAMS, "era"),
            MetaNotObject => (PARAMS, "_meta shape"),
            MissingProtocolVersion => (PARAMS, "_meta shape"),
            InvalidProtocolVersion => (PARAMS, "_meta shape"),
            UnsupportedProtocolVersion => (VERSION, "_meta shape"),
            MissingClientCapabilities => (PARAMS, "_meta shape"),
            InvalidClientCapabilities => (PARAMS, "_meta shape"),
            InvalidProgressToken => (PARAMS, "_meta key"),
            InvalidClientInfo => (PARAMS, "_meta key"),
            InvalidLogLevel => (PARAMS, "_meta key"),
            InvalidTraceparent => (PARAMS, "_meta key"),
            InvalidTracestate => (PARAMS, "_meta key"),
            InvalidBaggage => (PARAMS, "_meta key"),
            InvalidSubscriptionId => (PARAMS, "_meta key"),
            InvalidServerInfo => (PARAMS, "_meta key"),
            MetaTooLarge => (RESOURCE, "_meta bounds"),
            MetaTooDeep => (RESOURCE, "_meta bounds"),
            MetaTooManyItems => (RESOURCE, "_meta bounds"),
            MetaStringTooLong => (RESOURCE, "_meta bounds"),
        }
    }
}

impl std::fmt::Display for RefusalCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refused frame: no identity, a code, and the offending bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub code: RefusalCode,
    /// Byte range inside the frame that the refusal points at.
    pub span: Span,
    pub message: String,
    /// JSON-RPC `error.data` where the code defines one (`-32022`).
    pub data: Option<serde_json::Value>,
    /// The era the frame was being read under when it was refused; `None` when the
    /// refusal came before the era was decided (raw checks, parse, JSON-RPC shape, an
    /// era conflict).
    pub era: Option<Era>,
}

impl Refusal {
    pub fn new(code: RefusalCode, span: Span, message: impl Into<String>) -> Self {
        Refusal {
            code,
            span,
            message: message.into(),
            data: None,
            era: None,
        }
    }

    /// The same refusal, recorded as given under `era`.
    pub fn in_era(mut self, era: Era) -> Self {
        self.era = Some(era);
        self
    }

    pub fn jsonrpc_code(&self) -> i32 {
        self.code.jsonrpc_code()
    }
}

/// A refusal as evidence, the members every refused-frame record carries in JSON: the
/// code, its JSON-RPC code, the byte offset in the frame, the message, `data` where the
/// code defines one, the era the frame was read under (`null` when refused before the era
/// was decided), and the exact-frame `subject` and `request_sha256` with the same names and
/// meaning as an accepted frame's record (`null` for an oversized frame, whose bytes are
/// not kept whole).
#[derive(Debug, serde::Serialize)]
pub struct RefusalRecord<'r> {
    pub status: &'static str,
    pub code: &'static str,
    pub jsonrpc_code: i32,
    pub offset: usize,
    pub message: &'r str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<&'r serde_json::Value>,
    pub era: Option<Era>,
    pub subject: Option<Subject>,
    pub request_sha256: Option<String>,
}

impl<'r> RefusalRecord<'r> {
    /// The record of `refusal` for a frame of `frame` bytes (delimiter included), or with
    /// `None` when the frame's bytes were not kept whole.
    pub fn new(refusal: &'r Refusal, frame: Option<&[u8]>) -> Self {
        let digests = frame.map(digests);
        let (subject, request_sha256) = match digests {
            Some((subject, request)) => (Some(subject), Some(request)),
            None => (None, None),
        };
        RefusalRecord {
            status: "refused",
            code: refusal.code.as_str(),
            jsonrpc_code: refusal.jsonrpc_code(),
            offset: refusal.span.start,
            message: &refusal.message,
            data: refusal.data.as_ref(),
            era: refusal.era,
            subject,
            request_sha256,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_unique_kebab_case() {
        let mut seen = HashSet::new();
        for code in RefusalCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "duplicate code {s}");
            assert!(
                s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
                "{s}"
            );
            assert!(!s.starts_with('-') && !s.ends_with('-'), "{s}");
        }
    }

    /// The strict frame reader refuses a repeated member with the guard's own code.
    #[test]
    fn the_strict_frame_readers_code_is_the_guards() {
        assert_eq!(
            crate::frame::DUPLICATE_KEY,
            RefusalCode::DuplicateKey.as_str()
        );
    }

    #[test]
    fn jsonrpc_codes_follow_the_design() {
        assert_eq!(RefusalCode::DuplicateKey.jsonrpc_code(), -32602);
        assert_eq!(
            RefusalCode::UnsupportedProtocolVersion.jsonrpc_code(),
            -32022
        );
        assert_eq!(RefusalCode::ParseError.jsonrpc_code(), -32700);
        assert_eq!(RefusalCode::FrameTooLarge.jsonrpc_code(), -32001);
        assert_eq!(RefusalCode::InvalidJsonrpcVersion.jsonrpc_code(), -32600);
    }
}
