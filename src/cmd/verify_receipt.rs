//! `sealkit verify receipt FILE… [--receipt-key HEX|FILE]`: every check of
//! [`crate::receipt`] per file, verified facts apart from reported fields (docs/receipts.md).

use super::Global;
use crate::cli::{Format, VerifyReceiptArgs};
use crate::finding::{Code, Finding, Severity};
use crate::inert::escape;
use crate::outcome::Outcome;
use crate::receipt::pin::{KeyPlacement, Pin};
use crate::receipt::{self, CheckStatus, ReceiptReport, ReceiptStatus, Scratch};
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One file's result as `--format json|jsonl` prints it.
#[derive(Debug, Serialize)]
pub struct FileResult<'a> {
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    pub file: &'a Path,
    /// `authenticated`, `unpinned`, `unsigned`, `failed`, or `unreadable` (not a receipt).
    pub status: &'static str,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub report: Option<&'a ReceiptReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<Finding>,
}

pub fn run(args: VerifyReceiptArgs, global: &Global) -> miette::Result<Outcome> {
    let (pin, mut out, mut array) =
        super::receipt_files_start(args.receipt_key.as_deref(), &args.files, "FILE", global)?;
    let mut scratch = Scratch::default();
    let mut outcome = Outcome::Good;
    // Where the pinned key lies relative to each receipt's directory (one look per directory).
    let pin_file = pin.as_ref().and_then(Pin::file);
    let mut placement = pin_file.as_ref().map(KeyPlacement::new);
    let mut statuses: Vec<(PathBuf, &'static str)> = Vec::new();
    for file in &args.files {
        let input = crate::input::Input::new(file);
        let bytes = match input.read_capped(crate::audit::MAX_RECEIPT_BYTES) {
            Ok(bytes) => bytes,
            Err(error) => {
                let mut unreadable = crate::input::Unreadable::new(&input, error);
                if file.is_dir() {
                    // A receipt directory is `audit`'s input; `verify receipt` takes files.
                    unreadable = unreadable.with_help(format!(
                        "verify receipt checks receipt files; for a whole directory run \
                         `sealkit audit {}`",
                        file.display()
                    ));
                }
                outcome = outcome.worst(super::stopped_input(unreadable, global));
                continue;
            }
        };
        let mut verified = receipt::verify_bytes(&bytes, pin.as_ref(), &mut scratch);
        if let (Some(placement), Ok(report)) = (&mut placement, &mut verified) {
            // A receipt's findings carry no path (its file is the record's).
            let found = placement.beside(file).map(|how| Finding {
                path: None,
                ..placement.finding(&how)
            });
            report.findings.extend(found);
        }
        let result = match &verified {
            Ok(report) => FileResult {
                file,
                status: report.status.as_str(),
                report: Some(report),
                findings: Vec::new(),
            },
            Err(problem) => FileResult {
                file,
                status: "unreadable",
                report: None,
                findings: vec![Finding::new(problem.code, None, problem.message.clone())],
            },
        };
        outcome = outcome.worst(file_outcome(&result, global.deny_warnings));
        statuses.push((file.clone(), result.status));
        match (global.format, &mut array) {
            (Format::Json, Some(array)) => array.item(&mut out, "receipt", &result),
            (Format::Jsonl, _) => out.json_line("receipt", &result),
            _ => out.human(&human(&result, pin.as_ref())),
        }
        .map_err(super::io_report)?;
    }
    if let Some(array) = array {
        array.end(&mut out).map_err(super::io_report)?;
    }
    if global.format == Format::Human && statuses.len() > 1 {
        out.human(&summary(&statuses)).map_err(super::io_report)?;
    }
    out.flush().map_err(super::io_report)?;
    Ok(outcome)
}

/// Exit contribution of one file: errors (including "cannot be authenticated") are problems;
/// warnings only with `--deny-warnings`.
fn file_outcome(result: &FileResult<'_>, deny_warnings: bool) -> Outcome {
    let findings = result
        .report
        .map(|r| r.findings.as_slice())
        .unwrap_or(&result.findings);
    findings
        .iter()
        .map(|f| match f.severity {
            Severity::Error => Outcome::Problems,
            Severity::Warning if deny_warnings => Outcome::Problems,
            _ => Outcome::Good,
        })
        .fold(Outcome::Good, Outcome::worst)
}

/// Human rendering of one file.
pub fn human(result: &FileResult<'_>, pin: Option<&Pin>) -> String {
    let mut text = format!("{}\n", escape(&result.file.display().to_string()));
    let Some(report) = result.report else {
        for finding in &result.findings {
            text.push_str(&format!(
                "  NOT A RECEIPT  {}\n\n",
                super::finding_line(finding)
            ));
        }
        return text;
    };
    text.push_str(&format!("  status     {}\n", headline(report)));
    text.push_str(&format!(
        "  signature  {}\n",
        escape(&report.signature.detail)
    ));
    if let (Some(key), None) = (&report.signature.reported_public_key, pin) {
        text.push_str(&format!(
            "  receipt names key {} (reported, not trusted)\n",
            escape(key)
        ));
    }
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(110)
        .set_header(vec!["check", "result", "detail"]);
    for check in &report.checks {
        let result = match check.status {
            CheckStatus::Pass => "pass".to_owned(),
            CheckStatus::Fail => match check.code {
                Some(code) if code.severity() == Severity::Warning => format!("WARN {code}"),
                Some(code) => format!("FAIL {code}"),
                None => "FAIL".to_owned(),
            },
            CheckStatus::NotApplicable => "n/a".to_owned(),
            CheckStatus::NotEvaluated => "not evaluated".to_owned(),
        };
        table.add_row(vec![
            check.check.to_owned(),
            result,
            escape(&check.detail).into_owned(),
        ]);
    }
    text.push_str(&format!("{}\n", super::layout::table(&table)));
    let reported = &report.reported;
    let mut fields: Vec<String> = Vec::new();
    let mut add = |name: &str, value: &Option<String>| {
        if let Some(value) = value {
            fields.push(format!("{name}={}", escape(value)));
        }
    };
    add("verdict", &reported.verdict);
    add("authorization", &reported.authorization);
    add("reason", &reported.reason);
    add("tool", &reported.tool);
    add("session", &reported.session);
    add("release_status", &reported.release_status);
    add("now", &reported.now.map(|n| n.to_string()));
    text.push_str(&format!(
        "  reported (read from the receipt, not established by sealkit): {}\n\n",
        fields.join(", ")
    ));
    text
}

fn headline(report: &ReceiptReport) -> String {
    use super::layout::{paint, Verdict};
    let key_in_evidence = (report.findings.iter()).any(|f| f.code == Code::ReceiptKeyInEvidence);
    let status = match report.status {
        // A key found beside the receipt authenticates nothing independent: not green.
        ReceiptStatus::Authenticated if key_in_evidence => paint(
            &format!(
                "AUTHENTICATED {}",
                crate::receipt::pin::UNDER_KEY_IN_EVIDENCE
            ),
            Verdict::Bad,
        ),
        ReceiptStatus::Authenticated => paint("AUTHENTICATED", Verdict::Good),
        ReceiptStatus::Unpinned => paint("NOT AUTHENTICATED (signer unpinned)", Verdict::Bad),
        ReceiptStatus::Unsigned => paint(
            "NOT AUTHENTICATED (unsigned record_version 2)",
            Verdict::Bad,
        ),
        ReceiptStatus::Failed => paint("FAILED", Verdict::Bad),
    };
    let reported = &report.reported;
    let mut parts = vec![format!(
        "record_version {}",
        report.record_version.map_or("?".into(), |v| v.to_string())
    )];
    if let Some(verdict) = &reported.verdict {
        parts.push(match &reported.authorization {
            Some(how) => format!("{} ({})", escape(verdict), escape(how)),
            None => escape(verdict).into_owned(),
        });
    }
    if let Some(release) = &reported.release_status {
        parts.push(escape(release).into_owned());
    }
    let errors: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| !matches!(f.code, Code::SignerUnpinned | Code::UnsignedReceipt))
        .map(|f| f.code.as_str())
        .collect();
    if !errors.is_empty() {
        parts.push(format!("findings: {}", errors.join(", ")));
    }
    format!("{status} — {}", parts.join(", "))
}

fn summary(statuses: &[(PathBuf, &'static str)]) -> String {
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(vec!["status", "receipts"]);
    for status in [
        "authenticated",
        "unpinned",
        "unsigned",
        "failed",
        "unreadable",
    ] {
        let count = statuses.iter().filter(|(_, s)| *s == status).count();
        if count > 0 {
            table.add_row(vec![status.to_owned(), count.to_string()]);
        }
    }
    format!("{}\n", super::layout::table(&table))
}
