//! The refusal a frame gets from Seal's wire guards or from the parser: each guard's
//! `RefusalCode`, and what the parser's error says (a byte-order mark, NUL bytes).

use crate::json::{self, Span};
use crate::refusal::{Refusal, RefusalCode};
use crate::wire::{self, WireCheck};

pub(super) fn wire_refusal(violation: wire::WireViolation) -> Refusal {
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

pub(super) fn parse_refusal(line: &str, error: json::ParseError) -> Refusal {
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
