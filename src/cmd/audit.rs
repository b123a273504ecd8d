//! `sealkit audit DIR… [--receipt-key HEX|FILE] [--trusted-approvers FILE] [--jobs N]`:
//! streams every receipt and finding of [`crate::audit`], then a summary table (human) or a
//! summary object (JSON), with a progress bar when stderr is a terminal (docs/receipts.md).
//! Human output names the approver of each attributed receipt (escaped), up to a cap.

use super::{Global, Out};
use crate::approvers::Approvers;
use crate::audit::finding_list::FindingList;
use crate::audit::{self, AuditError, Event, Options, Summary};
use crate::cli::{AuditArgs, Format};
use crate::finding::{Code, Finding, Severity};
use crate::inert::escape;
use crate::outcome::{plural, Outcome};
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};

/// Human output lists at most this many findings per code.
const HUMAN_ROWS_PER_CODE: usize = 20;

pub fn run(args: AuditArgs, global: &Global) -> miette::Result<Outcome> {
    crate::input::refuse_stdin("DIR", args.dirs.iter().map(PathBuf::as_path), STDIN_WHY)
        .map_err(super::diagnostic::report)?;
    let pin = super::receipt_pin(args.receipt_key.as_deref())?;
    let jobs = args
        .jobs
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let approvers = args
        .trusted_approvers
        .as_deref()
        .map(Approvers::read)
        .transpose()
        .map_err(super::diagnostic::report)?;
    let trust_line = match (&args.trusted_approvers, &approvers) {
        (Some(path), Some(list)) => Some(format!(
            "trusted approvers {} ({}, {})",
            escape(&path.display().to_string()),
            crate::outcome::count(list.entries.len() as u64, "entry", "entries"),
            crate::outcome::count(list.keys().len() as u64, "key", "keys")
        )),
        _ => None,
    };
    let options = Options {
        pin,
        approvers,
        approval_key_files: (args.trusted_approvers.iter())
            .filter_map(|path| crate::input::named_file(path))
            .map(Path::to_path_buf)
            .collect(),
        token_files: Vec::new(),
        jobs,
    };
    let progress = super::progress::Progress::new("files");
    let mut out = Out::new();
    let mut writer = Writer::new(global.format, trust_line, &args.dirs);
    let result = audit::audit(&args.dirs, &options, &progress, &mut |event| {
        writer.event(&mut out, event)
    });
    progress.finish();
    let summary = match result {
        Ok(summary) => summary,
        // A failed sink stays a bare I/O error, so a closed stdout is still seen as one.
        Err(AuditError::Sink(error)) => return Err(super::io_report(error)),
        Err(error) => return Err(super::diagnostic::report(error)),
    };
    // Decided once, before anything is written: the human output's first line says it.
    let outcome = summary.outcome(global.deny_warnings);
    writer
        .end(&mut out, &summary, options.pin.as_ref(), outcome)
        .map_err(super::io_report)?;
    out.flush().map_err(super::io_report)?;
    // What could not be read is also said where errors are, for a script that reads stderr.
    if let Some(first) = writer.first_unreadable.take() {
        let error = crate::input::NotAllRead {
            count: summary.count_of(Code::UnreadableFile),
            first,
        };
        super::report_error(&super::diagnostic::report(error), global);
    }
    Ok(outcome)
}

/// Why `audit` and `report` do not take `-` for a directory.
pub(super) const STDIN_WHY: &str = "receipt directories are walked, their file names and modes \
     checked, and standard input has neither; check one receipt from standard input with \
     `sealkit verify receipt -`";

/// The human output's first line: the verdict the exit status gives, and what it rests on
/// (the finding codes that make it, most serious first, and how many receipts
/// authenticated).
fn headline(summary: &Summary, outcome: Outcome) -> String {
    /// Codes named in the line; the summary table below lists every one.
    const NAMED: usize = 4;
    let authenticated = summary.statuses.get("authenticated").copied().unwrap_or(0);
    let receipts = format!(
        "{authenticated} of {} receipt{} authenticated{}{}",
        summary.receipts,
        plural(summary.receipts),
        key_qualifier(summary.findings.iter().map(|c| c.code)),
        approval_key_qualifier(summary.findings.iter().map(|c| c.code))
    );
    let count = |severity: Severity| -> u64 {
        (summary.findings.iter())
            .filter(|c| c.severity == severity)
            .map(|c| c.count)
            .sum()
    };
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    if outcome == Outcome::Good {
        return format!(
            "{}: {receipts}; no error finding ({warnings} warning{}).",
            super::layout::paint(outcome.title(), super::layout::Verdict::Good),
            plural(warnings)
        );
    }
    let unreadable = summary.count_of(Code::UnreadableFile);
    let (what, severity) = if outcome == Outcome::Unchecked {
        (
            format!("{unreadable} file{} could not be read", plural(unreadable)),
            Severity::Error,
        )
    } else if errors > 0 {
        (
            format!("{errors} error finding{}", plural(errors)),
            Severity::Error,
        )
    } else {
        (
            format!(
                "{warnings} warning{} under --deny-warnings",
                plural(warnings)
            ),
            Severity::Warning,
        )
    };
    let codes: Vec<&str> = (summary.findings.iter())
        .filter(|c| c.severity == severity)
        .filter(|c| outcome != Outcome::Unchecked || c.code.outcome(false) == outcome)
        .map(|c| c.code.as_str())
        .collect();
    let mut named = codes[..codes.len().min(NAMED)].join(", ");
    if codes.len() > NAMED {
        named.push_str(&format!(" and {} more", codes.len() - NAMED));
    }
    format!(
        "{}: {what} ({named}); {receipts}.",
        super::layout::paint(outcome.title(), super::layout::Verdict::Bad)
    )
}

/// What "authenticated" rests on when the pinned key was found inside the evidence: said in
/// the verdict line itself, not only in a finding below it.
fn key_qualifier(mut codes: impl Iterator<Item = Code>) -> String {
    if codes.any(|code| code == Code::ReceiptKeyInEvidence) {
        format!(" {}", crate::receipt::pin::UNDER_KEY_IN_EVIDENCE)
    } else {
        String::new()
    }
}

/// What the approvers named rest on when the trusted-approvers list was found inside the
/// evidence: said in the verdict line itself, as [`key_qualifier`] says it of the receipt key.
fn approval_key_qualifier(mut codes: impl Iterator<Item = Code>) -> String {
    if codes.any(|code| code == Code::ApprovalKeyInEvidence) {
        format!(
            "; approvers named {}",
            crate::receipt::pin::UNDER_APPROVAL_KEY_IN_EVIDENCE
        )
    } else {
        String::new()
    }
}

/// Writes events as they come, in the chosen format.
struct Writer {
    format: Format,
    first_receipt: bool,
    /// Whether the `--format json` document has been opened (see [`Writer::begin`]).
    begun: bool,
    /// Human output keeps a capped list of findings.
    findings: Vec<Finding>,
    /// `--format json` keeps every finding for the second array, set aside as they come
    /// ([`FindingList`]: at 1,000,000 receipts they can be over a hundred megabytes).
    json_findings: FindingList,
    per_code: BTreeMap<Code, usize>,
    /// Human output: what `--trusted-approvers` was given, then the first attributed
    /// receipts (approver, key id, file) and the count per approver.
    trust_line: Option<String>,
    approved: Vec<(String, String, String)>,
    per_approver: BTreeMap<(String, String), usize>,
    /// The first file that could not be read, and why (said again on stderr at the end).
    first_unreadable: Option<String>,
    /// Human output: the one directory given, under which the tables show paths relative
    /// (said once above them), so a narrow terminal is not filled with the same prefix.
    root: Option<PathBuf>,
}

impl Writer {
    fn new(format: Format, trust_line: Option<String>, roots: &[PathBuf]) -> Self {
        let root = match roots {
            [root] if root.is_dir() => Some(root.clone()),
            _ => None,
        };
        Writer {
            root,
            format,
            first_receipt: true,
            begun: false,
            findings: Vec::new(),
            json_findings: FindingList::default(),
            per_code: BTreeMap::new(),
            trust_line,
            approved: Vec::new(),
            per_approver: BTreeMap::new(),
            first_unreadable: None,
        }
    }

    /// Opens the `--format json` document at its first content, so a directory that cannot be
    /// audited at all leaves no half document on stdout (only the error on stderr).
    fn begin(&mut self, out: &mut Out) -> io::Result<()> {
        if self.format != Format::Json || self.begun {
            return Ok(());
        }
        self.begun = true;
        out.text("{\"type\":\"audit\",\"receipts\":[")
    }

    fn event(&mut self, out: &mut Out, event: Event<'_>) -> io::Result<()> {
        self.begin(out)?;
        if self.first_unreadable.is_none() {
            let findings = match &event {
                Event::Receipt(entry) => entry.file_findings.as_slice(),
                Event::Finding(finding) => std::slice::from_ref(*finding),
            };
            self.first_unreadable = findings
                .iter()
                .find(|f| f.code == Code::UnreadableFile)
                .map(|f| {
                    let path = f.path.as_deref().map(Path::display);
                    format!(
                        "{}: {}",
                        path.map(|p| p.to_string()).unwrap_or_default(),
                        f.message
                    )
                });
        }
        match (self.format, event) {
            (Format::Jsonl, Event::Receipt(entry)) => out.json_line("receipt", entry),
            (Format::Jsonl, Event::Finding(finding)) => out.json_line("finding", finding),
            (Format::Json, Event::Receipt(entry)) => {
                out.text(if self.first_receipt { "\n" } else { ",\n" })?;
                self.first_receipt = false;
                out.typed("receipt", entry)
            }
            (Format::Json, Event::Finding(finding)) => self.json_findings.push(finding),
            (Format::Human, Event::Receipt(entry)) => {
                for finding in &entry.file_findings {
                    self.keep(finding);
                }
                let outside = entry
                    .file_findings
                    .iter()
                    .any(|f| f.code == Code::ApproverKeyOutsideWindow);
                // A key used outside its window names its holder in JSON, but is no approval.
                if let Some(by) = entry.signed_by.as_ref().filter(|_| !outside) {
                    let seen = self
                        .per_approver
                        .entry((by.name.clone(), by.key_id.clone()))
                        .or_default();
                    *seen += 1;
                    if self.approved.len() < HUMAN_ROWS_PER_CODE {
                        self.approved.push((
                            by.name.clone(),
                            by.key_id.clone(),
                            self.shown_path(&entry.file),
                        ));
                    }
                }
                Ok(())
            }
            (Format::Human, Event::Finding(finding)) => {
                self.keep(finding);
                Ok(())
            }
        }
    }

    fn keep(&mut self, finding: &Finding) {
        let seen = self.per_code.entry(finding.code).or_default();
        *seen += 1;
        if *seen <= HUMAN_ROWS_PER_CODE {
            self.findings.push(finding.clone());
        }
    }

    fn end(
        &mut self,
        out: &mut Out,
        summary: &Summary,
        pin: Option<&crate::receipt::pin::Pin>,
        outcome: Outcome,
    ) -> io::Result<()> {
        self.begin(out)?;
        match self.format {
            Format::Jsonl => out.json_line("summary", summary),
            Format::Json => {
                out.text(if self.first_receipt {
                    "],\"findings\":["
                } else {
                    "\n],\"findings\":["
                })?;
                let mut first = true;
                self.json_findings.each(|finding| {
                    out.text(if first { "\n" } else { ",\n" })?;
                    first = false;
                    out.typed("finding", &finding)
                })?;
                out.text(if self.json_findings.is_empty() {
                    "],\"summary\":"
                } else {
                    "\n],\"summary\":"
                })?;
                out.typed("summary", summary)?;
                out.text("}\n")
            }
            Format::Human => out.human(&self.human(summary, pin, outcome)),
        }
    }

    fn human(
        &self,
        summary: &Summary,
        pin: Option<&crate::receipt::pin::Pin>,
        outcome: Outcome,
    ) -> String {
        let mut text = headline(summary, outcome);
        text.push('\n');
        match pin {
            Some(pin) => text.push_str(&format!(
                "receipt key pinned: {} ({})\n",
                pin.public_key_hex(),
                escape(&pin.source.describe())
            )),
            None => text.push_str(
                "no receipt key pinned (--receipt-key): no receipt can be authenticated\n",
            ),
        }
        let tables = !self.findings.is_empty() || self.trust_line.is_some();
        if let (Some(root), true) = (&self.root, tables) {
            text.push_str(&format!(
                "paths below are relative to {}\n",
                escape(&root.display().to_string())
            ));
        }
        if let Some(line) = &self.trust_line {
            text.push_str(line);
            text.push('\n');
            text.push_str(&self.approvers_table());
        }
        if !self.findings.is_empty() {
            let mut table = Table::new();
            table
                .load_preset(UTF8_FULL_CONDENSED)
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(140)
                .set_header(vec!["severity", "code", "path", "finding"]);
            let mut rows: Vec<&Finding> = self.findings.iter().collect();
            rows.sort_by(|a, b| (b.severity, a.code).cmp(&(a.severity, b.code)));
            for finding in rows {
                table.add_row(vec![
                    finding.severity.as_str().to_owned(),
                    finding.code.to_string(),
                    finding
                        .path
                        .as_ref()
                        .map(|p| escape(&self.shown_path(p)).into_owned())
                        .unwrap_or_default(),
                    escape(&finding.message).into_owned(),
                ]);
            }
            text.push_str(&format!("{}\n", super::layout::table(&table)));
            for (code, count) in &self.per_code {
                if *count > HUMAN_ROWS_PER_CODE {
                    text.push_str(&format!(
                        "… and {} more {code} finding{} (--format jsonl lists every one)\n",
                        count - HUMAN_ROWS_PER_CODE,
                        plural((count - HUMAN_ROWS_PER_CODE) as u64)
                    ));
                }
            }
        }
        text.push_str(&summary_tables(summary));
        text
    }
}

impl Writer {
    /// A path as the human tables show it: relative to the one directory given (`.` for the
    /// directory itself), else as the walk gave it.
    fn shown_path(&self, path: &Path) -> String {
        match self.root.as_deref().map(|root| path.strip_prefix(root)) {
            Some(Ok(relative)) if relative.as_os_str().is_empty() => ".".to_owned(),
            Some(Ok(relative)) => relative.display().to_string(),
            _ => path.display().to_string(),
        }
    }

    /// The attributed receipts (at most [`HUMAN_ROWS_PER_CODE`]) and the count per approver.
    fn approvers_table(&self) -> String {
        let total: usize = self.per_approver.values().sum();
        if total == 0 {
            return "no receipt is attributed to a listed approver\n".to_owned();
        }
        let mut table = Table::new();
        table
            .load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(140)
            .set_header(vec!["approved by", "key id", "receipt"]);
        for (name, key_id, file) in &self.approved {
            table.add_row(vec![
                escape(name).into_owned(),
                key_id.clone(),
                escape(file).into_owned(),
            ]);
        }
        let mut text = format!("{}\n", super::layout::table(&table));
        if total > self.approved.len() {
            text.push_str(&format!(
                "… and {} more attributed receipt{} (--format jsonl lists every one)\n",
                total - self.approved.len(),
                plural((total - self.approved.len()) as u64)
            ));
        }
        let mut counts = Table::new();
        counts
            .load_preset(UTF8_FULL_CONDENSED)
            .set_header(vec!["approver", "key id", "receipts"]);
        for ((name, key_id), count) in &self.per_approver {
            counts.add_row(vec![
                escape(name).into_owned(),
                key_id.clone(),
                count.to_string(),
            ]);
        }
        text.push_str(&format!("{}\n", super::layout::table(&counts)));
        text
    }
}

fn summary_tables(summary: &Summary) -> String {
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(vec!["summary", "count"]);
    table.add_row(vec!["files checked".to_owned(), summary.files.to_string()]);
    table.add_row(vec!["receipts".to_owned(), summary.receipts.to_string()]);
    for status in [
        "authenticated",
        "unpinned",
        "unsigned",
        "failed",
        "unreadable",
    ] {
        let count = summary.statuses.get(status).copied().unwrap_or(0);
        table.add_row(vec![format!("  {status}"), count.to_string()]);
    }
    for (verdict, count) in &summary.verdicts {
        table.add_row(vec![
            format!("  verdict {} (authenticated)", escape(verdict)),
            count.to_string(),
        ]);
    }
    for (claim, count) in &summary.claims {
        table.add_row(vec![
            format!("  claims {} — not authenticated", escape(claim)),
            count.to_string(),
        ]);
    }
    table.add_row(vec![
        "unverifiable receipt files".to_owned(),
        summary.unverifiable.to_string(),
    ]);
    let mut codes = Table::new();
    codes
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(vec!["finding", "severity", "count"]);
    for count in &summary.findings {
        codes.add_row(vec![
            count.code.to_string(),
            count.severity.as_str().to_owned(),
            count.count.to_string(),
        ]);
    }
    if summary.findings.is_empty() {
        codes.add_row(vec!["(none)".to_owned(), String::new(), "0".to_owned()]);
    }
    format!(
        "{}\n{}\n",
        super::layout::table(&table),
        super::layout::table(&codes)
    )
}
