//! `sealkit verify approval`: every token line checked with seal-host's rules in its order,
//! then bound to the given frame, target and time (docs/approvals.md,
//! docs/formats.md). Exit 0 when every line is accepted, 1 when any is
//! rejected, an accepted allow stands beside a signed decline for its target, or the file holds
//! no token line (`no-tokens`), 2 when the input or the trusted key cannot be read or no line
//! of the file is a token record (`not-a-token-file`). Memory does not grow with the number of lines in
//! any format: reports are written batch by batch (the human table in chunks); only the
//! nonces and per-target decisions the checks themselves need are kept.

use super::diagnostic::report;
use super::{Global, Out};
use crate::approval::binding::{Check, Expectations, Freshness, NonceUse, Subject};
use crate::approval::conflict::{Conflict, TargetDecisions};
use crate::approval::line_reports::{Checker, LineReport, Signed, TokenStatus};
use crate::approval::verify::TokenKind;
use crate::approval::{effective_ttl_ms, Reason};
use crate::approvers::Approvers;
use crate::cli::{Format, VerifyApprovalArgs};
use crate::digest::is_sha256_hex;
use crate::finding::Code;
use crate::inert::escape;
use crate::input::{stdin_once, Input, Kind};
use crate::keys::{public_key_arg, PublicKey};
use crate::outcome::Outcome;
use crate::tokenfile::{Batch, LineReader, MAX_TOKEN_FILE_BYTES};
use comfy_table::{presets, Table};
use miette::{miette, IntoDiagnostic, WrapErr};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// Lines verified per parallel batch. Their signatures are checked together, and each line's
/// parsed record is held until the batch is reported: 2,048 keeps the fixed cost of a batch's
/// torsion tests small per line and the peak memory below what batches of 4,096 checked
/// line by line needed.
const BATCH_LINES: usize = 2048;
/// Per-line diagnostics shown in human output before summarising the rest.
const MAX_DIAGNOSTICS: usize = 50;
/// Human table rows held before the table so far is printed and a new one begun.
const TABLE_CHUNK_ROWS: usize = 1024;

pub fn run(args: VerifyApprovalArgs, global: &Global) -> miette::Result<Outcome> {
    let inputs = [
        ("FILE", Some(args.file.as_deref().unwrap_or(Path::new("-")))),
        ("--frame", args.frame.as_deref()),
        ("--trusted-approvers", args.trusted_approvers.as_deref()),
    ];
    stdin_once(
        inputs
            .into_iter()
            .filter_map(|(name, path)| Some((name, path?))),
    )
    .map_err(super::diagnostic::report)?;
    let trust = trusted_key(&args)?;
    let (key, key_shown) = match &trust {
        Trust::Key(key, shown, _) => ((**key).clone(), *shown),
        Trust::Approvers(approvers, _) => (approvers.entries[0].key.clone(), false),
    };
    let checked = Checked::from_args(&args)?;
    let input = Input::or_stdin(args.file.as_deref());
    let source = crate::path_json::Shown::of(input.path().unwrap_or(Path::new("-")));
    // Binary data (a picture given by mistake) is no token file: refused before any line.
    let reader: Box<dyn BufRead> = Box::new(
        input
            .open_text(Kind::TokenFile, 1 << 20)
            .map_err(super::diagnostic::report)?,
    );
    let mut lines = LineReader::new(reader);
    let mut checker = Checker::new(&key, checked.expectations());
    if let Trust::Approvers(approvers, _) = &trust {
        checker = checker.with_approvers(approvers);
    }
    let mut tally = Tally::default();
    let mut decisions = TargetDecisions::default();
    let mut batch = Batch::default();
    // Output starts with the first line that is a token record: until then the rows are held,
    // so a file with none (a sealed log given by mistake) is said once not to be a token file.
    let mut held = Held::Rows(Vec::new());
    let mut sink = None;
    loop {
        lines
            .next_batch(&mut batch, BATCH_LINES)
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot read token file {}", source.text))?;
        if batch.lines.is_empty() {
            break;
        }
        let reports = checker.check_batch(&batch);
        for report in &reports {
            tally.add(report);
            decisions.add(report);
        }
        let rows = match &mut held {
            Held::Rows(rows) => {
                let found = reports.iter().any(is_token_record);
                rows.extend(reports);
                if !found {
                    if rows.len() > MAX_HELD_LINES {
                        return Err(not_a_token_file(&source.text, tally.lines, true));
                    }
                    continue;
                }
                let rows = std::mem::take(rows);
                held = Held::Streaming;
                rows
            }
            Held::Streaming => reports,
        };
        if sink.is_none() {
            sink = Some(Sink::new(global)?);
        }
        if let Some(sink) = &mut sink {
            sink.lines(&rows).into_diagnostic()?;
        }
    }
    if let Held::Rows(rows) = &held {
        if !rows.is_empty() {
            return Err(not_a_token_file(&source.text, tally.lines, false));
        }
    }
    let sink = match sink {
        Some(sink) => sink,
        None => Sink::new(global)?,
    };
    let conflicts = decisions.conflicts();
    let mut summary = Summary::new(source, &key, &checked, tally, lines.total_bytes());
    // The key or list kept with the tokens vouches only for the evidence's agreement with
    // itself: said first among the file's findings, and in the summary line.
    if let Some(found) = key_in_evidence(&trust, args.file.as_deref()) {
        summary.file_findings.insert(
            0,
            FileFinding {
                code: found.code.as_str().to_owned(),
                severity: found.code.severity().as_str(),
                message: found.message,
            },
        );
    }
    if !key_shown {
        if let Some(trusted) = &mut summary.trusted_key {
            trusted.public_key = None;
        }
    }
    if let Trust::Approvers(approvers, path) = &trust {
        summary.trusted_key = None;
        summary.trusted_approvers = Some(TrustedApprovers {
            file: path.clone(),
            entries: approvers.entries.len(),
            keys: approvers.keys().len(),
        });
    }
    summary.conflicts = conflicts.len() as u64;
    let outcome = summary.outcome(global.deny_warnings);
    sink.finish(&summary, &conflicts, global)
        .into_diagnostic()?;
    Ok(outcome)
}

/// Leading rows held until a line shows the file is a token file.
const MAX_HELD_LINES: usize = 4 * BATCH_LINES;

/// The rows of the lines before the first token record, or: output has begun.
enum Held {
    Rows(Vec<LineReport>),
    Streaming,
}

/// Whether a line is a token record at all: it was read far enough to have a kind (a v1
/// envelope or an ApprovalRecord v2), whatever its checks say. A `parse_error` of
/// undetermined kind is a line that is no token.
fn is_token_record(report: &LineReport) -> bool {
    report.kind != TokenKind::Undetermined.as_str()
        || report.reason.as_deref() != Some(&*Reason::ParseError.code())
}

/// A file none of whose lines is a token record: not a token file (exit 2), said once.
fn not_a_token_file(source: &str, lines: u64, first: bool) -> miette::Report {
    let which = if first {
        format!("none of its first {lines} lines")
    } else if lines == 1 {
        "its one line is not".to_owned()
    } else {
        format!("none of its {lines} lines")
    };
    let is = if lines == 1 && !first { "" } else { " is" };
    miette!(
        code = NOT_A_TOKEN_FILE,
        help = "give the token file seal-host reads (one JSON token {\"payload\",\"signature\",…} \
                per line); a sealed log or receipt is checked by `verify chain` or `verify \
                receipt`",
        "{source}: not a token file: {which}{is} a token record"
    )
}

/// The code of [`not_a_token_file`].
pub const NOT_A_TOKEN_FILE: &str = "not-a-token-file";

/// The trusted key and whether it may be printed in full: a key file that is not
/// recognisably public shows only its key id, so a secret named as a public key is never
/// echoed.
fn trusted_key(args: &VerifyApprovalArgs) -> miette::Result<Trust> {
    if let Some(path) = &args.trusted_approvers {
        let approvers = Approvers::read(path).map_err(report)?;
        return Ok(Trust::Approvers(approvers, path.clone()));
    }
    match &args.pubkey {
        Some(value) => public_key_arg("--pubkey", value)
            .map(|given| Trust::Key(Box::new(given.key), given.shown, given.file))
            .map_err(report),
        None => Err(miette!(
            "give the trusted key with --pubkey HEX|FILE or --trusted-approvers FILE"
        )),
    }
}

/// What the lines are verified under: one key (whether it may be printed in full, and the
/// file it was read from), or a trusted-approvers list (and its file).
enum Trust {
    Key(Box<PublicKey>, bool, Option<PathBuf>),
    Approvers(Approvers, PathBuf),
}

/// The `approval-key-in-evidence` finding when the key or list file lies with the token file
/// `tokens` (the evidence of this command: the token file and the entries of its directory,
/// [`crate::receipt::pin::KeyPlacement::beside`]); none for a key given as text or read
/// from standard input, and none for tokens read from standard input.
fn key_in_evidence(trust: &Trust, tokens: Option<&Path>) -> Option<crate::finding::Finding> {
    let file = match trust {
        Trust::Key(_, _, file) => file.as_deref()?,
        Trust::Approvers(_, path) => path,
    };
    let tokens = crate::input::named_file(tokens?)?;
    let file = crate::input::named_file(file)?;
    let key = crate::receipt::pin::PinFile::at(file, crate::receipt::pin::KeyRole::Approval);
    let mut placement = crate::receipt::pin::KeyPlacement::new(&key);
    let inside = placement.beside(tokens)?;
    Some(placement.finding(&inside))
}

#[derive(Debug, Serialize)]
struct TrustedApprovers {
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    file: PathBuf,
    entries: usize,
    keys: usize,
}

/// What the caller asked each token to be bound to.
#[derive(Debug, Clone, Serialize)]
struct Checked {
    frame: Option<FrameInput>,
    target: Option<String>,
    now_ms: Option<u64>,
    ttl_seconds: u64,
    ttl_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
struct FrameInput {
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    file: PathBuf,
    sha256: String,
    length: u64,
}

impl Checked {
    fn from_args(args: &VerifyApprovalArgs) -> miette::Result<Self> {
        let frame = match &args.frame {
            None => None,
            Some(path) => {
                let input = Input::new(path);
                let bytes = input
                    .read_whole(Kind::Frame, crate::input::MAX_SMALL_INPUT_BYTES)
                    .map_err(|e| super::diagnostic::report_at("--frame", e))?;
                // Read by the one strict frame reader: a frame that writes a member name
                // twice is one Seal never lets through, and whose copies say different things.
                if let Err(unread @ crate::frame::Unread::Repeated(_)) =
                    crate::frame::read_line_strict(&bytes)
                {
                    return Err(miette!(
                        code = crate::frame::DUPLICATE_KEY,
                        help = "Seal refuses such a frame (wire guard 2), so no approval can be bound to it",
                        "{input}: {unread}: readers disagree on which copy counts, so no token is checked against it"
                    ));
                }
                let subject = Subject::of(&bytes);
                Some(FrameInput {
                    file: path.clone(),
                    sha256: subject.sha256,
                    length: subject.length,
                })
            }
        };
        if let Some(target) = &args.target {
            if !is_sha256_hex(target) {
                return Err(miette!(
                    code = "bad-target",
                    "--target must be 64 lowercase hex digits, as in `approval required: <hex>`"
                ));
            }
        }
        Ok(Checked {
            frame,
            target: args.target.clone(),
            now_ms: args.now,
            ttl_seconds: args.ttl,
            ttl_ms: effective_ttl_ms(args.ttl),
        })
    }

    fn expectations(&self) -> Expectations {
        Expectations {
            subject: self.frame.as_ref().map(|f| Subject {
                sha256: f.sha256.clone(),
                length: f.length,
            }),
            target: self.target.clone(),
            now_ms: self.now_ms,
            ttl_ms: self.ttl_ms,
        }
    }
}

#[derive(Debug, Default)]
struct Tally {
    lines: u64,
    accepted: u64,
    rejected: u64,
    declines: u64,
    not_utf8: bool,
    reasons: BTreeMap<String, u64>,
}

impl Tally {
    fn add(&mut self, report: &LineReport) {
        self.lines += 1;
        match report.status {
            TokenStatus::Accepted => self.accepted += 1,
            TokenStatus::Rejected => self.rejected += 1,
        }
        if report.kind == "signed-decline" {
            self.declines += 1;
        }
        if let Some(reason) = &report.reason {
            *self.reasons.entry(reason.clone()).or_default() += 1;
            if *reason == Reason::TokenFileNotUtf8.code() {
                self.not_utf8 = true;
            }
        }
    }
}

#[derive(Debug, Serialize)]
struct FileFinding {
    code: String,
    severity: &'static str,
    message: String,
}

#[derive(Debug, Serialize)]
struct TrustedKey {
    /// `null` when the key came from a file that is not recognisably public.
    public_key: Option<String>,
    key_id: String,
}

#[derive(Debug, Serialize)]
struct Summary {
    #[serde(flatten, serialize_with = "crate::path_json::source")]
    source: crate::path_json::Shown,
    /// The one trusted key; `null` with `--trusted-approvers`.
    trusted_key: Option<TrustedKey>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trusted_approvers: Option<TrustedApprovers>,
    checked: Checked,
    bytes: u64,
    lines: u64,
    accepted: u64,
    rejected: u64,
    declines: u64,
    /// Targets whose accepted allows stand beside an accepted signed decline.
    conflicts: u64,
    reasons: BTreeMap<String, u64>,
    file_findings: Vec<FileFinding>,
}

impl Summary {
    fn new(
        source: crate::path_json::Shown,
        key: &PublicKey,
        checked: &Checked,
        tally: Tally,
        bytes: u64,
    ) -> Self {
        let mut file_findings = Vec::new();
        if bytes > MAX_TOKEN_FILE_BYTES {
            file_findings.push(FileFinding {
                code: Reason::TokenFileBytesExceeded.code().into_owned(),
                severity: "warning",
                message: format!(
                    "the file is {bytes} bytes; seal-host reads at most {MAX_TOKEN_FILE_BYTES} \
                     and would ignore every line of it"
                ),
            });
        }
        if tally.lines == 0 {
            file_findings.push(FileFinding {
                code: Code::NoTokens.as_str().to_owned(),
                severity: Code::NoTokens.severity().as_str(),
                message: "the file holds no token line: nothing was checked".to_owned(),
            });
        }
        if tally.not_utf8 {
            file_findings.push(FileFinding {
                code: Reason::TokenFileNotUtf8.code().into_owned(),
                severity: "error",
                message: "the file is not UTF-8; seal-host would ignore every line of it"
                    .to_owned(),
            });
        }
        Summary {
            source,
            trusted_key: Some(TrustedKey {
                public_key: Some(key.hex.clone()),
                key_id: key.key_id.clone(),
            }),
            trusted_approvers: None,
            checked: checked.clone(),
            bytes,
            lines: tally.lines,
            accepted: tally.accepted,
            rejected: tally.rejected,
            declines: tally.declines,
            conflicts: 0,
            reasons: tally.reasons,
            file_findings,
        }
    }

    fn outcome(&self, deny_warnings: bool) -> Outcome {
        let warned = self.file_findings.iter().any(|f| f.severity == "warning");
        let failed = self.file_findings.iter().any(|f| f.severity == "error");
        if self.rejected > 0 || self.conflicts > 0 || failed || (deny_warnings && warned) {
            Outcome::Problems
        } else {
            Outcome::Good
        }
    }
}

/// Where reports go, per output format. JSON records are serialised in parallel and
/// written in order.
enum Sink {
    Jsonl(Out),
    Json { out: Out, first: bool },
    Human(Box<Human>),
}

impl Sink {
    fn new(global: &Global) -> miette::Result<Self> {
        Ok(match global.format {
            Format::Jsonl => Sink::Jsonl(Out::new()),
            Format::Json => {
                let mut out = Out::new();
                out.text("{\"type\":\"approvals\",\"tokens\":[")
                    .into_diagnostic()?;
                Sink::Json { out, first: true }
            }
            Format::Human => Sink::Human(Box::new(Human::new(Out::new()))),
        })
    }

    fn lines(&mut self, reports: &[LineReport]) -> io::Result<()> {
        match self {
            Sink::Human(human) => reports.iter().try_for_each(|report| human.add(report)),
            Sink::Jsonl(out) => {
                for records in serialise(reports, b"", b"\n")? {
                    out.write_all(&records)?;
                }
                Ok(())
            }
            Sink::Json { out, first } => {
                for records in serialise(reports, b",\n", b"")? {
                    // The document's first record follows its `[` with a line break alone.
                    let records = match (*first, records.strip_prefix(b",")) {
                        (true, Some(rest)) => rest,
                        _ => records.as_slice(),
                    };
                    *first = false;
                    out.write_all(records)?;
                }
                Ok(())
            }
        }
    }

    fn finish(self, summary: &Summary, conflicts: &[Conflict], global: &Global) -> io::Result<()> {
        match self {
            Sink::Jsonl(mut out) => {
                for conflict in conflicts {
                    out.json_line("conflict", conflict)?;
                }
                out.json_line("summary", summary)?;
                out.flush()
            }
            Sink::Json { mut out, first } => {
                out.text(if first { "]" } else { "\n]" })?;
                out.text(",\"conflicts\":[")?;
                for (index, conflict) in conflicts.iter().enumerate() {
                    out.text(if index == 0 { "\n" } else { ",\n" })?;
                    out.typed("conflict", conflict)?;
                }
                out.text(if conflicts.is_empty() { "]" } else { "\n]" })?;
                out.text(",\"summary\":")?;
                out.typed("summary", summary)?;
                out.text("}\n")?;
                out.flush()
            }
            Sink::Human(human) => human.print(summary, conflicts, global),
        }
    }
}

/// Records serialised per parallel chunk of [`SERIALISED_CHUNK`] reports, each record between
/// `before` and `after`, into one buffer per chunk (in order): one allocation per chunk rather
/// than a growing buffer per record.
fn serialise(reports: &[LineReport], before: &[u8], after: &[u8]) -> io::Result<Vec<Vec<u8>>> {
    reports
        .par_chunks(SERIALISED_CHUNK)
        .map(|chunk| {
            let mut out = Vec::with_capacity(chunk.len() * RECORD_BYTES);
            for report in chunk {
                out.extend_from_slice(before);
                super::verify_approval_json::write_record(report, &mut out)?;
                out.extend_from_slice(after);
            }
            Ok(out)
        })
        .collect()
}

/// Reports per serialisation chunk: enough to spread a batch over the cores.
const SERIALISED_CHUNK: usize = 128;
/// About the size of an accepted line's JSON record, to size the chunk buffers.
const RECORD_BYTES: usize = 1024;

/// Human output: one table row per line, printed in chunks of [`TABLE_CHUNK_ROWS`] rows (each
/// chunk a table with its own header, so memory does not grow with the file); then
/// diagnostics for rejected lines, decline conflicts and a summary.
struct Human {
    out: Out,
    /// The table's style and header, and the rows held so far as their cells' texts.
    preset: String,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    diagnostics: Vec<miette::MietteDiagnostic>,
    more_diagnostics: u64,
    /// Whether an accepted approval's approver was shown as a claim no list vouches for.
    claims: bool,
}

/// The columns of the table.
const HEADER: [&str; 10] = [
    "line",
    "status",
    "kind",
    "target",
    "approver",
    "authorized",
    "expiry",
    "session",
    "binding",
    "reason",
];

/// Who approved, as the record says: the name signed in the record, marked a claim when no
/// trusted-approvers list vouches for it; with a list, the name the list gives the key (and
/// the record's own name beside it when it differs). `-` for a decline (it names no approver)
/// and for a line whose signature did not verify (its fields are no one's word).
fn approver_text(report: &LineReport) -> String {
    let Some(Signed::Approval(approval)) = &report.signed else {
        return "-".to_owned();
    };
    let claim = format!("\"{}\"", escape(&approval.approver));
    match &report.signed_by {
        // Approver names are refused at parse time if they hold invisible characters.
        Some(by) if by.name == approval.approver => format!("{} (trusted list)", by.name),
        Some(by) => format!("{} (trusted list); record claims {claim}", by.name),
        None => format!("{claim} (claim)"),
    }
}

/// When the record says it was signed and until when it is valid, as RFC 3339 UTC times (a
/// decline has its issue time and no expiry); `-` for a rejected line.
fn times_text(report: &LineReport) -> (String, String) {
    let time = crate::timestamp::rfc3339;
    match &report.signed {
        Some(Signed::Approval(a)) => (time(a.authorized_at), time(a.expiry)),
        Some(Signed::Decline(d)) => (time(d.issued_at), "-".to_owned()),
        None => ("-".to_owned(), "-".to_owned()),
    }
}

impl Human {
    fn new(out: Out) -> Self {
        let mut table = Table::new();
        table.load_preset(presets::UTF8_FULL_CONDENSED);
        Human {
            out,
            preset: table.current_style_as_preset(),
            header: HEADER.map(str::to_owned).to_vec(),
            rows: Vec::with_capacity(TABLE_CHUNK_ROWS),
            diagnostics: Vec::new(),
            more_diagnostics: 0,
            claims: false,
        }
    }

    fn add(&mut self, report: &LineReport) -> io::Result<()> {
        let target = match &report.signed {
            Some(Signed::Approval(a)) => a.target.clone(),
            Some(Signed::Decline(d)) => d.target.clone(),
            None => report
                .reported
                .as_ref()
                .and_then(|r| r.target.as_deref())
                .map(|t| format!("{} (unverified)", unverified_target(t)))
                .unwrap_or_else(|| "-".to_owned()),
        };
        let status = match report.status {
            TokenStatus::Accepted => "accepted",
            TokenStatus::Rejected => "REJECTED",
        };
        let (authorized, expiry) = times_text(report);
        self.claims |=
            matches!(report.signed, Some(Signed::Approval(_))) && report.signed_by.is_none();
        let session = match &report.signed {
            Some(Signed::Approval(a)) => escape(&a.session).into_owned(),
            _ => "-".to_owned(),
        };
        let reason = match report.reason.as_deref() {
            Some(reason) => escape(reason).into_owned(),
            None => "-".to_owned(),
        };
        // Each cell as the text it shows: the table is drawn from these once per chunk
        // (`layout::write_rows`), never held as comfy-table cells as well.
        self.rows.push(vec![
            report.line.to_string(),
            status.to_owned(),
            report.kind.to_owned(),
            target,
            approver_text(report),
            authorized,
            expiry,
            session,
            binding_text(report),
            reason,
        ]);
        if report.status == TokenStatus::Rejected {
            if self.diagnostics.len() < MAX_DIAGNOSTICS {
                self.diagnostics.push(diagnostic(report));
            } else {
                self.more_diagnostics += 1;
            }
        }
        if self.rows.len() == TABLE_CHUNK_ROWS {
            self.print_table()?;
        }
        Ok(())
    }

    /// Prints the rows held so far as one table and starts a new one.
    fn print_table(&mut self) -> io::Result<()> {
        if !self.rows.is_empty() {
            super::layout::write_rows(&mut self.out, &self.preset, &self.header, &self.rows)?;
            self.rows.clear();
        }
        Ok(())
    }

    fn print(
        mut self,
        summary: &Summary,
        conflicts: &[Conflict],
        global: &Global,
    ) -> io::Result<()> {
        self.print_table()?;
        // Everything after the tables, word-wrapped to the terminal as a whole.
        let mut out = Vec::new();
        let theme = if global.color {
            miette::GraphicalTheme::unicode()
        } else {
            miette::GraphicalTheme::unicode_nocolor()
        };
        let mut handler = miette::GraphicalReportHandler::new_themed(theme);
        if let Some(width) = super::layout::stdout_columns() {
            handler = handler.with_width(width);
        }
        for diagnostic in &self.diagnostics {
            let mut text = String::new();
            let inert = super::diagnostic::Inert::new(diagnostic);
            if handler.render_report(&mut text, &inert).is_ok() {
                write!(out, "{text}")?;
            }
        }
        if self.more_diagnostics > 0 {
            writeln!(
                out,
                "… and {} more rejected line{} (see the table)",
                self.more_diagnostics,
                crate::outcome::plural(self.more_diagnostics)
            )?;
        }
        write_conflicts(&mut out, conflicts)?;
        for finding in &summary.file_findings {
            writeln!(
                out,
                "{} [{}]: {}",
                finding.severity,
                finding.code,
                escape(&finding.message)
            )?;
        }
        write_summary(&mut out, summary)?;
        if self.claims {
            writeln!(
                out,
                "approver names are claims: each was signed by the trusted key's holder, and no \
                 --trusted-approvers list vouches for it"
            )?;
        }
        let mut stdout = self.out;
        stdout.human(&String::from_utf8_lossy(&out))?;
        stdout.flush()
    }
}

/// One line per conflicting target (the first [`MAX_DIAGNOSTICS`], then a count).
fn write_conflicts(out: &mut impl Write, conflicts: &[Conflict]) -> io::Result<()> {
    for conflict in conflicts.iter().take(MAX_DIAGNOSTICS) {
        let error = super::layout::paint("error", super::layout::Verdict::Bad);
        writeln!(
            out,
            "{error} [{}]: {}",
            conflict.code,
            escape(&conflict.message)
        )?;
    }
    if conflicts.len() > MAX_DIAGNOSTICS {
        writeln!(
            out,
            "… and {} more target{} with an allow beside a signed decline",
            conflicts.len() - MAX_DIAGNOSTICS,
            crate::outcome::plural((conflicts.len() - MAX_DIAGNOSTICS) as u64)
        )?;
    }
    Ok(())
}

fn diagnostic(report: &LineReport) -> miette::MietteDiagnostic {
    let reason = report.reason.clone().unwrap_or_default();
    let mut message = format!("line {}: {reason}", report.line);
    if let (Some(source), Some(id)) = (report.host_source, &report.host_record_id) {
        message.push_str(&format!(
            " (seal-host logs source {source}, record_id {id})"
        ));
    }
    let mut diagnostic = miette::MietteDiagnostic::new(message).with_code(reason);
    if let Some(detail) = &report.detail {
        diagnostic = diagnostic.with_help(detail.clone());
    }
    diagnostic
}

/// A target read from a line that failed verification: whole when it is 64 hex digits (a
/// digest is never cut), otherwise escaped and shortened (it is no target, only text to help
/// find the line).
fn unverified_target(text: &str) -> String {
    if is_sha256_hex(text) {
        text.to_owned()
    } else {
        short(&escape(text))
    }
}

/// Text of any length as `8…4` characters; counted in characters, so unverified text is
/// shortened without splitting one.
fn short(hex: &str) -> String {
    let chars = hex.chars().count();
    if chars > 16 {
        let at = |index: usize| {
            hex.char_indices()
                .nth(index)
                .map_or(hex.len(), |(at, _)| at)
        };
        format!("{}…{}", &hex[..at(8)], &hex[at(chars - 4)..])
    } else {
        hex.to_owned()
    }
}

fn binding_text(report: &LineReport) -> String {
    if report.signed.is_none() {
        return "-".to_owned();
    }
    let b = &report.binding;
    let mut text = String::new();
    let mut part = |part: &str| {
        if !text.is_empty() {
            text.push_str(", ");
        }
        text.push_str(part);
    };
    for (check, ok, mismatch) in [
        (b.subject, "frame ok", "frame MISMATCH"),
        (b.target, "target ok", "target MISMATCH"),
    ] {
        match check {
            Check::Match => part(ok),
            Check::Mismatch => part(mismatch),
            Check::NotChecked | Check::NotApplicable => {}
        }
    }
    match b.freshness {
        Freshness::Fresh => part("fresh"),
        Freshness::PastExpiry => part("PAST EXPIRY"),
        Freshness::PastTtl => part("PAST TTL"),
        Freshness::FutureIssuedAt => part("FUTURE"),
        Freshness::NotChecked | Freshness::NotApplicable => {}
    }
    if b.nonce == NonceUse::Repeated {
        part("NONCE REPEATED");
    }
    if text.is_empty() {
        "signature only".to_owned()
    } else {
        text
    }
}

fn write_summary(out: &mut impl Write, summary: &Summary) -> io::Result<()> {
    let declines = match summary.declines {
        0 => String::new(),
        1 => " (1 signed decline)".to_owned(),
        n => format!(" ({n} signed declines)"),
    };
    let lines = if summary.lines == 1 { "line" } else { "lines" };
    // Accepted under a key kept with the tokens is self-consistency only: the line says so.
    let under =
        if (summary.file_findings.iter()).any(|f| f.code == Code::ApprovalKeyInEvidence.as_str()) {
            format!(" {}", crate::receipt::pin::UNDER_APPROVAL_KEY_IN_EVIDENCE)
        } else {
            String::new()
        };
    writeln!(
        out,
        "{}: {} token {lines}, {} accepted{under}, {}{declines}",
        escape(&summary.source.text),
        summary.lines,
        summary.accepted,
        super::layout::count(summary.rejected, "rejected", super::layout::Verdict::Bad)
    )?;
    match summary.conflicts {
        0 => {}
        1 => writeln!(
            out,
            "1 target has an accepted allow beside a signed decline: the allow is void"
        )?,
        n => writeln!(
            out,
            "{n} targets have an accepted allow beside a signed decline: those allows are void"
        )?,
    }
    match (&summary.trusted_key, &summary.trusted_approvers) {
        (Some(key), _) => match &key.public_key {
            Some(hex) => writeln!(out, "trusted key {hex} (key id {})", key.key_id)?,
            None => writeln!(
                out,
                "trusted key id {} (the key file is not recognisably a public key, so its \
                 contents are not shown)",
                key.key_id
            )?,
        },
        (None, Some(list)) => writeln!(
            out,
            "trusted approvers {} ({}, {}; each accepted record names its approver)",
            escape(&list.file.display().to_string()),
            crate::outcome::count(list.entries as u64, "entry", "entries"),
            crate::outcome::count(list.keys as u64, "key", "keys")
        )?,
        (None, None) => {}
    }
    let checked = &summary.checked;
    let frame = match &checked.frame {
        Some(f) => format!(
            "frame {} ({} bytes, sha256 {})",
            escape(&f.file.display().to_string()),
            f.length,
            f.sha256
        ),
        None => "frame not checked (no --frame)".to_owned(),
    };
    let target = match &checked.target {
        Some(t) => format!("target {}", escape(t)),
        None => "target not checked (no --target)".to_owned(),
    };
    let freshness = match checked.now_ms {
        Some(now) => format!("freshness at {now} ms with TTL {} s", checked.ttl_ms / 1000),
        None => "freshness not checked (no --now)".to_owned(),
    };
    writeln!(
        out,
        "verified: signatures and seal-host's token rules; {frame}; {target}; {freshness}"
    )
}
