//! The `wire_guards` fuzz target: wire::check against slow reference definitions.

use super::PARSE_DEPTH;
use sealkit::json::{self, JsonValue, Node};
use sealkit::wire::{self, WireCheck};

/// `wire::check` never panics; on every text that parses as JSON its verdict equals the
/// first violation found by straightforward tree-walking definitions of the guards, and
/// `wire::passes_on_tree` says the text passes only when `wire::check` does.
pub fn wire_guards(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let found = wire::check(text);
    if let Err(violation) = &found {
        assert!(violation.span.start <= violation.span.end);
        assert!(violation.span.end <= text.len(), "{violation:?}");
    }
    let Ok(node) = json::parse(text, PARSE_DEPTH) else {
        return;
    };
    // The parse's shortcut past the scan never vouches for a text the scan refuses.
    if wire::passes_on_tree(text, &node) {
        assert!(
            found.is_ok(),
            "passes_on_tree passed a refused text: {found:?}"
        );
    }
    let expected = reference::first_violation(text, &node);
    assert_eq!(
        found.map_err(|v| v.check),
        expected.map_or(Ok(()), Err),
        "wire::check disagrees with the reference guards"
    );
}

mod reference {
    //! Each guard written as plainly as possible over the parsed tree and the raw text.

    use super::*;
    use num_bigint::BigUint;
    use unicode_normalization::UnicodeNormalization;

    /// One violation found by a reference guard, with the byte where it occurs.
    struct Found {
        check: WireCheck,
        at: usize,
    }

    pub(super) fn first_violation(text: &str, root: &Node<'_>) -> Option<WireCheck> {
        let mut found = Vec::new();
        walk(text, root, 1, &mut found);
        // Guards in Seal's order; caps share one slot, the first in byte order wins.
        let order = |check: WireCheck| match check {
            WireCheck::ExponentDigits => 0,
            WireCheck::DuplicateKey | WireCheck::EscapedKey | WireCheck::StrayCloser => 1,
            WireCheck::CanonicalDuplicateKey => 2,
            WireCheck::SignificantDigits => 3,
            WireCheck::Binary64Disagreement => 4,
            WireCheck::LoneSurrogate => 5,
            WireCheck::NestingDepth => 6,
            WireCheck::CapDepth | WireCheck::CapStringBytes | WireCheck::CapCollectionItems => 7,
        };
        found
            .into_iter()
            .min_by_key(|f| (order(f.check), f.at))
            .map(|f| f.check)
    }

    fn walk(text: &str, node: &Node<'_>, depth: usize, found: &mut Vec<Found>) {
        let at = node.span.start;
        match &node.value {
            JsonValue::Number(literal) => number(literal, at, found),
            JsonValue::String(_) => string(&text[node.span.start..node.span.end], at, found),
            JsonValue::Array(items) => {
                container(depth, at, items.len(), found);
                if items.len() > wire::MAX_JSON_COLLECTION_ITEMS {
                    // The 4097th item starts after the 4096th comma.
                    let comma = items[wire::MAX_JSON_COLLECTION_ITEMS - 1].span.end;
                    found.push(Found {
                        check: WireCheck::CapCollectionItems,
                        at: comma,
                    });
                }
                for item in items {
                    walk(text, item, depth + 1, found);
                }
            }
            JsonValue::Object(members) => {
                container(depth, at, members.len(), found);
                if members.len() > wire::MAX_JSON_COLLECTION_ITEMS {
                    let comma = members[wire::MAX_JSON_COLLECTION_ITEMS - 1].value.span.end;
                    found.push(Found {
                        check: WireCheck::CapCollectionItems,
                        at: comma,
                    });
                }
                for (i, member) in members.iter().enumerate() {
                    let raw = &text[member.key_span.start + 1..member.key_span.end - 1];
                    let key_at = member.key_span.start;
                    if raw.contains('\\') {
                        found.push(Found {
                            check: WireCheck::EscapedKey,
                            at: key_at,
                        });
                    }
                    let earlier = members[..i]
                        .iter()
                        .map(|m| &text[m.key_span.start + 1..m.key_span.end - 1]);
                    let mut duplicate = false;
                    let mut nfd_duplicate = false;
                    let nfd: String = raw.nfd().collect();
                    for other in earlier {
                        if other == raw {
                            duplicate = true;
                        } else if other.nfd().collect::<String>() == nfd {
                            nfd_duplicate = true;
                        }
                    }
                    if duplicate {
                        found.push(Found {
                            check: WireCheck::DuplicateKey,
                            at: key_at,
                        });
                    }
                    if nfd_duplicate {
                        found.push(Found {
                            check: WireCheck::CanonicalDuplicateKey,
                            at: key_at,
                        });
                    }
                    string(
                        &text[member.key_span.start..member.key_span.end],
                        key_at,
                        found,
                    );
                    walk(text, &member.value, depth + 1, found);
                }
            }
            JsonValue::Null | JsonValue::Bool(_) => {}
        }
    }

    fn container(depth: usize, at: usize, _items: usize, found: &mut Vec<Found>) {
        if depth > wire::MAX_WIRE_NESTING {
            found.push(Found {
                check: WireCheck::NestingDepth,
                at,
            });
        }
        if depth > wire::MAX_JSON_DEPTH {
            found.push(Found {
                check: WireCheck::CapDepth,
                at,
            });
        }
    }

    /// A string token including its quotes.
    fn string(token: &str, at: usize, found: &mut Vec<Found>) {
        let body = &token.as_bytes()[1..token.len() - 1];
        if body.len() > wire::MAX_JSON_STRING_BYTES {
            found.push(Found {
                check: WireCheck::CapStringBytes,
                at,
            });
        }
        // UTF-16 units of the \u escapes, each with whether the next escape follows directly.
        let mut i = 0;
        let mut pending_high = false;
        while i < body.len() {
            if body[i] != b'\\' {
                if pending_high {
                    return lone(at, found);
                }
                i += 1;
                continue;
            }
            if body[i + 1] != b'u' {
                if pending_high {
                    return lone(at, found);
                }
                i += 2;
                continue;
            }
            let hex = std::str::from_utf8(&body[i + 2..i + 6]).unwrap_or("");
            let unit = u32::from_str_radix(hex, 16).unwrap_or(0);
            i += 6;
            match (pending_high, unit) {
                (true, 0xDC00..=0xDFFF) => pending_high = false,
                (true, _) => return lone(at, found),
                (false, 0xD800..=0xDBFF) => pending_high = true,
                (false, 0xDC00..=0xDFFF) => return lone(at, found),
                (false, _) => {}
            }
        }
        if pending_high {
            lone(at, found);
        }
    }

    fn lone(at: usize, found: &mut Vec<Found>) {
        found.push(Found {
            check: WireCheck::LoneSurrogate,
            at,
        });
    }

    fn number(literal: &str, at: usize, found: &mut Vec<Found>) {
        let body = literal.strip_prefix('-').unwrap_or(literal);
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        if let Some(exponent) = exponent {
            let digits = exponent.trim_start_matches(['+', '-']);
            if digits.len() > wire::MAX_EXPONENT_DIGITS {
                found.push(Found {
                    check: WireCheck::ExponentDigits,
                    at,
                });
            }
        }
        let mantissa_digits = mantissa.bytes().filter(u8::is_ascii_digit).count();
        if mantissa_digits > wire::MAX_SIGNIFICANT_DIGITS {
            found.push(Found {
                check: WireCheck::SignificantDigits,
                at,
            });
        }
        if !agrees(mantissa, exponent) {
            found.push(Found {
                check: WireCheck::Binary64Disagreement,
                at,
            });
        }
    }

    /// Guard 5 by brute force. The literal's exact value as digits × 10^exp10, with
    /// trailing zeros moved into the exponent.
    fn agrees(mantissa: &str, exponent: Option<&str>) -> bool {
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all: String = format!("{whole}{fraction}");
        let significant = all.trim_start_matches('0');
        let kept = significant.trim_end_matches('0');
        if kept.is_empty() {
            return true; // a zero
        }
        let exp: i64 = match exponent {
            None => 0,
            Some(e) => {
                let digits = e.trim_start_matches(['+', '-']).trim_start_matches('0');
                if digits.len() > 7 {
                    return false; // astronomically large or small, never a binary64 value
                }
                let magnitude: i64 = digits.parse().unwrap_or(0);
                if e.starts_with('-') {
                    -magnitude
                } else {
                    magnitude
                }
            }
        };
        let exp10 = exp - fraction.len() as i64 + (significant.len() - kept.len()) as i64;
        if exponent.is_none() && fraction.is_empty() && !mantissa.contains('.') {
            // Integer syntax: at most 16 significant digits, at most 2^53 - 1 once trailing
            // zeros are taken off, and the value exactly a binary64 value.
            if kept.len() > 16 {
                return false;
            }
            let coefficient: u64 = kept.parse().unwrap_or(u64::MAX);
            if coefficient > (1 << 53) - 1 || exp10 > 400 {
                return false;
            }
            let value = BigUint::from(coefficient) * BigUint::from(10u8).pow(exp10 as u32);
            let float: f64 = value.to_string().parse().unwrap_or(f64::INFINITY);
            return float.is_finite() && exact_integer(float) == Some(value);
        }
        if kept.len() > 17 {
            return false;
        }
        // Nearest binary64, then its shortest round-trip decimal by trying 1 to 17 digits.
        if !(-400..=400).contains(&exp10) {
            return false;
        }
        let float: f64 = format!("{kept}e{exp10}").parse().unwrap_or(f64::INFINITY);
        if !float.is_finite() || float == 0.0 {
            return false;
        }
        for digits in 1..=17usize {
            let candidate = format!("{:.*e}", digits - 1, float);
            if candidate.parse::<f64>() == Ok(float) {
                return same_decimal(&candidate, kept, exp10);
            }
        }
        false
    }

    /// `d.ddde±x` (Rust's `{:e}`) equals kept × 10^exp10.
    fn same_decimal(candidate: &str, kept: &str, exp10: i64) -> bool {
        let (mantissa, exponent) = candidate.split_once('e').unwrap_or((candidate, "0"));
        let exponent: i64 = exponent.parse().unwrap_or(0);
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = format!("{whole}{fraction}");
        let stripped = digits.trim_end_matches('0');
        let candidate_exp10 =
            exponent - fraction.len() as i64 + (digits.len() - stripped.len()) as i64;
        stripped == kept && candidate_exp10 == exp10
    }

    /// The exact integer value of an integral binary64 value.
    fn exact_integer(float: f64) -> Option<BigUint> {
        if float.fract() != 0.0 {
            return None;
        }
        if float == 0.0 {
            return Some(BigUint::from(0u8));
        }
        let bits = float.to_bits();
        let exponent = ((bits >> 52) & 0x7ff) as i64 - 1075;
        let significand = (bits & ((1 << 52) - 1)) | (1 << 52);
        Some(if exponent >= 0 {
            BigUint::from(significand) << exponent as usize
        } else {
            BigUint::from(significand >> (-exponent) as u32)
        })
    }
}
