//! Raw audit lines chained as a stream, as `seal_log.mjs seal` reads them: the input split on
//! LF, each piece decoded (invalid UTF-8 as U+FFFD, as Node decodes a file) and trimmed with
//! JavaScript's `trim`, empty pieces dropped. One line is held at a time (at most
//! [`MAX_LINE_BYTES`]), so memory does not grow with the number of lines. Splitting before
//! decoding gives the same pieces as decoding first: LF never belongs to a UTF-8 sequence or
//! to an invalid one.

use super::{commit, genesis, js_trim};
use crate::json;
use serde::Serialize;
use std::borrow::Cow;
use std::io::{self, BufRead};

/// The longest audit line read (seal-host's audit lines are a few hundred bytes).
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// What chaining the lines established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinesReport {
    /// Lines chained.
    pub payloads: usize,
    /// Pieces that were empty after trimming and dropped (the piece after a final LF too).
    pub dropped: usize,
    /// The input was not UTF-8; invalid bytes became U+FFFD as Node's decoder does.
    pub lossy: bool,
    /// The head recomputed from the verifier's genesis.
    pub head: String,
    /// The last line, when it was cut off: no LF after it and not a JSON value.
    pub cut_last_line: Option<CutLine>,
}

/// A last line with no LF after it that is not a JSON value: seal-host ends every audit line
/// with LF, and its payloads are JSON but for its fixed decline text, so this is a line whose
/// write did not finish (or text that is no audit line). It is chained as it stands, as
/// `seal_log.mjs seal` would.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CutLine {
    /// 1-based line number.
    pub line: usize,
    /// Its length in bytes, before trimming.
    pub bytes: usize,
}

/// Why the lines could not be chained.
#[derive(Debug, thiserror::Error)]
pub enum LinesError {
    #[error("{0}")]
    Io(#[source] io::Error),
    /// This 1-based line is longer than [`MAX_LINE_BYTES`].
    #[error("line {0} is longer than {MAX_LINE_BYTES} bytes, not read further")]
    LineTooLong(usize),
}

impl crate::error_code::Coded for LinesError {
    fn code(&self) -> &'static str {
        "unreadable-file"
    }
}

/// Chains the lines of `reader`, handing each payload to `each` in order.
pub fn chain_lines(
    reader: impl BufRead,
    each: impl FnMut(&str),
) -> Result<LinesReport, LinesError> {
    chain_lines_capped(reader, MAX_LINE_BYTES, each)
}

fn chain_lines_capped(
    mut reader: impl BufRead,
    cap: usize,
    mut each: impl FnMut(&str),
) -> Result<LinesReport, LinesError> {
    let mut report = LinesReport {
        payloads: 0,
        dropped: 0,
        lossy: false,
        head: genesis(),
        cut_last_line: None,
    };
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        number += 1;
        let terminated = read_line(&mut reader, &mut line, cap)
            .map_err(LinesError::Io)?
            .ok_or(LinesError::LineTooLong(number))?;
        let text = String::from_utf8_lossy(&line);
        report.lossy |= matches!(text, Cow::Owned(_));
        let payload = js_trim(&text);
        if payload.is_empty() {
            report.dropped += 1;
        } else {
            report.head = commit(&report.head, payload);
            report.payloads += 1;
            each(payload);
            if !terminated && json::parse(payload, 64).is_err() {
                report.cut_last_line = Some(CutLine {
                    line: number,
                    bytes: line.len(),
                });
            }
        }
        if !terminated {
            return Ok(report);
        }
    }
}

/// Reads up to and past the next LF into `line` (without the LF): `Some(true)` when an LF
/// ended it, `Some(false)` at the end of the input, `None` once it holds more than `cap`
/// bytes.
fn read_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<bool>> {
    line.clear();
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(Some(false));
        }
        let (take, found) = match memchr::memchr(b'\n', buffer) {
            Some(at) => (at, true),
            None => (buffer.len(), false),
        };
        if line.len() + take > cap {
            return Ok(None);
        }
        line.extend_from_slice(&buffer[..take]);
        reader.consume(take + usize::from(found));
        if found {
            return Ok(Some(true));
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn chained(bytes: &[u8]) -> (Vec<String>, LinesReport) {
        let mut payloads = Vec::new();
        let report = chain_lines(bytes, |p| payloads.push(p.to_owned())).unwrap();
        (payloads, report)
    }

    #[test]
    fn audit_lines_trim_like_javascript_and_drop_empty_lines() {
        let (payloads, report) = chained(b"\xef\xbb\xbf a \r\n\n\t\nb\xc2\x85\n");
        assert_eq!(payloads, vec!["a".to_owned(), "b\u{85}".to_owned()]);
        assert_eq!(report.dropped, 3);
        assert!(!report.lossy);
        assert_eq!(report.cut_last_line, None);
        assert!(chained(b"\xff\n").1.lossy);
        assert_eq!(chained(b"").1.dropped, 1);
    }

    #[test]
    fn a_last_line_without_lf_that_is_not_json_is_cut() {
        let (_, report) = chained(b"{\"a\":1}\n{\"b\":");
        assert_eq!(report.payloads, 2);
        assert_eq!(report.cut_last_line, Some(CutLine { line: 2, bytes: 5 }));
        // Complete JSON without the LF, or a cut line followed by an LF, is not.
        assert_eq!(chained(b"{\"a\":1}\n{\"b\":2}").1.cut_last_line, None);
        assert_eq!(chained(b"{\"b\":\n").1.cut_last_line, None);
        assert_eq!(chained(b"{\"a\":1}\n  \t").1.cut_last_line, None);
    }

    #[test]
    fn a_line_over_the_cap_is_refused_by_number() {
        let refused = chain_lines_capped(&b"ab\nabcd\nx"[..], 3, |_| ()).unwrap_err();
        assert!(matches!(refused, LinesError::LineTooLong(2)), "{refused}");
        assert_eq!(
            chain_lines_capped(&b"abc\nabc"[..], 3, |_| ())
                .unwrap()
                .payloads,
            2
        );
    }
}
