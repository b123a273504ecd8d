//! `sealkit verify chain (SEALED.json | --audit-lines FILE) [--head HEX] [--state FILE]`:
//! the audit hash chain of [`crate::chain`], with seal_log.mjs's wording for people.

use super::{Global, Out};
use crate::chain::lines::CutLine;
use crate::chain::sealed::SealedError;
use crate::chain::{self, HeadState, SealedReport};
use crate::cli::{Format, VerifyChainArgs};
use crate::inert::escape;
use crate::input::{Input, Kind};
use crate::outcome::Outcome;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// `--format json|jsonl` output (one object).
#[derive(Debug, Serialize)]
struct ChainResult {
    /// `sealed` or `audit-lines`.
    kind: &'static str,
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    file: PathBuf,
    /// `ok` or `fail`.
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    sealed: Option<SealedReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    audit_lines: Option<LinesSummary>,
    /// The recomputed head (from the verifier's genesis).
    head: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_head: Option<HeadCheck>,
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<StateCheck>,
    /// Evidence read differently by different readers (a repeated member name).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    findings: Vec<crate::finding::Finding>,
}

#[derive(Debug, Serialize)]
struct LinesSummary {
    payloads: usize,
    dropped_empty_lines: usize,
    not_utf8: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cut_last_line: Option<CutLine>,
}

#[derive(Debug, Serialize)]
struct HeadCheck {
    expected: String,
    ok: bool,
}

#[derive(Debug, Serialize)]
struct StateCheck {
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    file: PathBuf,
    #[serde(flatten)]
    state: Option<HeadState>,
    ok: bool,
    /// Why the file is no head state.
    #[serde(skip_serializing_if = "Option::is_none")]
    invalid: Option<String>,
}

pub fn run(args: VerifyChainArgs, global: &Global) -> miette::Result<Outcome> {
    let (kind, file) = match (&args.sealed, &args.audit_lines) {
        (Some(sealed), _) => ("sealed", sealed.clone()),
        (None, Some(lines)) => ("audit-lines", lines.clone()),
        (None, None) => {
            return Err(miette::miette!(
                code = "usage",
                "give SEALED.json or --audit-lines FILE"
            ))
        }
    };
    let source = Input::new(&file);
    let inputs = [
        (
            if kind == "sealed" {
                "SEALED.json"
            } else {
                "--audit-lines"
            },
            Some(file.as_path()),
        ),
        ("--state", args.state.as_deref()),
    ];
    crate::input::stdin_once(
        inputs
            .into_iter()
            .filter_map(|(name, path)| Some((name, path?))),
    )
    .map_err(super::diagnostic::report)?;
    // Both forms are read as a stream (standard input too): memory stays bounded by the
    // readers in `crate::chain`, whatever the length of the log.
    let kind_read = if kind == "sealed" {
        Kind::SealedLog
    } else {
        Kind::AuditLines
    };
    let input = source
        .open_text(kind_read, 256 * 1024)
        .map_err(super::diagnostic::report)?;
    let mut result = ChainResult {
        kind,
        file: file.clone(),
        status: "ok",
        sealed: None,
        audit_lines: None,
        head: String::new(),
        expected_head: None,
        state: None,
        findings: Vec::new(),
    };
    let mut intact: bool;
    if kind == "sealed" {
        let report = match chain::sealed::verify_stream_read_ahead(input) {
            Ok(report) => report,
            Err(SealedError::Duplicate(duplicate)) => {
                return super::refused_duplicate(&file, duplicate.to_string(), global)
            }
            Err(error @ SealedError::NotSealed(_)) => {
                return Err(super::diagnostic::report_at(file.display(), error))
            }
            Err(other) => return Err(super::diagnostic::report_at(&source, other)),
        };
        intact = report.intact();
        result.head = report.head.clone();
        result.sealed = Some(report);
    } else {
        let lines = chain::lines::chain_lines(input, |_| ())
            .map_err(|e| super::diagnostic::report_at(&source, e))?;
        intact = lines.cut_last_line.is_none();
        result.head = lines.head;
        result.audit_lines = Some(LinesSummary {
            payloads: lines.payloads,
            dropped_empty_lines: lines.dropped,
            not_utf8: lines.lossy,
            cut_last_line: lines.cut_last_line,
        });
    }
    if let Some(expected) = &args.head {
        let ok = expected.to_ascii_lowercase() == result.head;
        intact &= ok;
        result.expected_head = Some(HeadCheck {
            expected: expected.clone(),
            ok,
        });
    }
    if let Some(state_file) = &args.state {
        let bytes = read(state_file, chain::MAX_STATE_BYTES)?;
        if let Ok(Some(duplicate)) = crate::json::find_duplicate(&String::from_utf8_lossy(&bytes)) {
            result.findings.push(crate::finding::Finding::new(
                crate::finding::Code::DuplicateMember,
                None,
                format!("{}: {duplicate}", state_file.display()),
            ));
        }
        // A file that cannot be read is unchecked; one that is read but is no head state is
        // evidence checked and found bad.
        let check = match chain::parse_state(&bytes) {
            Ok(state) => StateCheck {
                file: state_file.clone(),
                ok: state.head == result.head,
                state: Some(state),
                invalid: None,
            },
            Err(reason) => {
                result.findings.push(crate::finding::Finding::new(
                    crate::finding::Code::ChainStateInvalid,
                    None,
                    format!("{}: {reason}", state_file.display()),
                ));
                StateCheck {
                    file: state_file.clone(),
                    ok: false,
                    state: None,
                    invalid: Some(reason),
                }
            }
        };
        intact &= check.ok;
        result.state = Some(check);
    }
    if !intact {
        result.status = "fail";
    }
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => out.json_line("chain", &result),
        Format::Human => out.human(&human(&result)),
    }
    .and_then(|()| out.flush())
    .map_err(super::io_report)?;
    // A chain of nothing recomputes to its genesis: nothing was checked.
    let chained = match (&result.sealed, &result.audit_lines) {
        (Some(sealed), _) => sealed.entries,
        (None, Some(lines)) => lines.payloads,
        (None, None) => 0,
    };
    if chained == 0 {
        let nothing = crate::input::NothingToCheck {
            evidence: if kind == "sealed" {
                crate::input::Items::ChainEntries
            } else {
                crate::input::Items::AuditLines
            },
            where_: source.to_string(),
            written: true,
        };
        return Ok(super::stopped_input(nothing, global).worst(if intact {
            Outcome::Good
        } else {
            Outcome::Problems
        }));
    }
    Ok(if intact {
        Outcome::Good
    } else {
        Outcome::Problems
    })
}

fn read(path: &Path, limit: u64) -> miette::Result<Vec<u8>> {
    let input = Input::new(path);
    input
        .read_capped(limit)
        .map_err(|source| super::diagnostic::report(crate::input::Unreadable::new(&input, source)))
}

fn human(result: &ChainResult) -> String {
    let mut text = String::new();
    if let Some(report) = &result.sealed {
        text.push_str(&sealed_text(report));
    }
    if let Some(lines) = &result.audit_lines {
        text.push_str(&format!(
            "{} chained ({} dropped){}\n",
            crate::outcome::count(lines.payloads as u64, "audit line", "audit lines"),
            crate::outcome::count(
                lines.dropped_empty_lines as u64,
                "empty line",
                "empty lines"
            ),
            if lines.not_utf8 {
                "; the file is not UTF-8, invalid bytes were read as U+FFFD"
            } else {
                ""
            }
        ));
    }
    if let Some(cut) = result
        .audit_lines
        .as_ref()
        .and_then(|l| l.cut_last_line.as_ref())
    {
        text.push_str(&format!(
            "{}: line {} is cut off: the file ends without an LF after it and it is \
             not a JSON value (chained above as it stands)\n",
            super::layout::paint("VERIFY FAIL", super::layout::Verdict::Bad),
            cut.line
        ));
    }
    // A failed chain has two heads: say which one this is.
    let which = match (&result.sealed, result.status) {
        (Some(sealed), _) if sealed.first_bad_entry.is_some() => {
            ", recomputed from the payloads (not the log's recorded head)"
        }
        (Some(_), "fail") => " (the log's recorded head, which recomputes)",
        (None, "fail") => ", recomputed from the audit lines",
        _ => "",
    };
    text.push_str(&format!("chain head{which}: {}\n", result.head));
    if let Some(check) = &result.expected_head {
        text.push_str(&if check.ok {
            "HEAD OK: equals --head\n".to_owned()
        } else {
            format!(
                "HEAD MISMATCH: --head is {}, recomputed {}\n",
                escape(&check.expected),
                result.head
            )
        });
    }
    if let Some(check) = &result.state {
        text.push_str(&match (&check.state, &check.invalid) {
            (Some(state), _) if check.ok => format!(
                "STATE OK: {} (session {}) holds this head\n",
                escape(&check.file.display().to_string()),
                escape(&state.session)
            ),
            (Some(state), _) => format!(
                "STATE MISMATCH: {} (session {}) holds {}, recomputed {}\n",
                escape(&check.file.display().to_string()),
                escape(&state.session),
                state.head,
                result.head
            ),
            (None, reason) => format!(
                "STATE INVALID: {} is no head state: {}\n",
                escape(&check.file.display().to_string()),
                escape(reason.as_deref().unwrap_or(""))
            ),
        });
    }
    for finding in &result.findings {
        text.push_str(&format!("  REFUSED  {}\n", super::finding_line(finding)));
    }
    text
}

/// seal_log.mjs's verify wording, plus what it leaves out (every bad entry is counted, the
/// entries are still checked after a genesis mismatch).
fn sealed_text(report: &SealedReport) -> String {
    let mut text = String::new();
    if !report.genesis.ok {
        text.push_str(&format!(
            "{}: genesis mismatch (log is not rooted at this verifier's fresh genesis)\n",
            super::layout::paint("VERIFY FAIL", super::layout::Verdict::Bad)
        ));
        text.push_str(&format!(
            "  recorded:   {}\n",
            escape(&report.genesis.recorded)
        ));
        text.push_str(&format!("  expected:   {}\n", report.genesis.expected));
        if report.first_bad_entry.is_none() {
            text.push_str(&format!(
                "  (every one of the {} recomputes from the expected genesis)\n",
                crate::outcome::count(report.entries as u64, "entry", "entries")
            ));
        }
    }
    match &report.first_bad_entry {
        Some(bad) => {
            let i = bad.index;
            text.push_str(&format!(
                "{}: entry {i} — recorded head does not match recomputed chain.\n",
                super::layout::paint("VERIFY FAIL", super::layout::Verdict::Bad)
            ));
            text.push_str(&format!("  recorded:   {}\n", escape(&bad.recorded)));
            text.push_str(&format!("  recomputed: {}\n", bad.recomputed));
            text.push_str(&format!(
                "  → the log was inserted into, reordered, or mutated at or before entry {i}.\n"
            ));
            if report.bad_entries > 1 {
                text.push_str(&format!(
                    "  ({} of {} entries do not recompute)\n",
                    report.bad_entries, report.entries
                ));
            }
        }
        None if report.genesis.ok => {
            text.push_str(&format!(
                "{}: {}, chain intact.\n",
                super::layout::paint("VERIFY OK", super::layout::Verdict::Good),
                crate::outcome::count(report.entries as u64, "entry", "entries")
            ));
        }
        None => {}
    }
    if report.format.as_deref() != Some(chain::FORMAT) {
        text.push_str(&format!(
            "note: format is \"{}\", not {:?} (seal_log.mjs does not check it)\n",
            escape(report.format.as_deref().unwrap_or("(absent)")),
            chain::FORMAT
        ));
    }
    text
}
