//! `sealkit evidence ref RECEIPT…` and `sealkit evidence verify` (docs/evidence.md): wiring
//! of [`crate::evidence`] to files and output.

use super::{Global, JsonArray, Out};
use crate::cli::{EvidenceArgs, EvidenceCommand, EvidenceRefArgs, EvidenceVerifyArgs, Format};
use crate::evidence::capture::{self, Annotated, Paired};
use crate::evidence::store::Store;
use crate::evidence::{
    self, Binding, CapturedRequest, Context, EvidenceCode, EvidenceRef, ReadRef, RequestId, Verdict,
};
use crate::finding::Finding;
use crate::inert::escape;
use crate::input::Input;
use crate::json::{self, JsonValue, Node};
use crate::outcome::Outcome;
use crate::receipt::{self, ReceiptStatus, Scratch};
use crate::request::Options;
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
use serde::Serialize;
use std::path::{Path, PathBuf};

pub fn run(args: EvidenceArgs, global: &Global) -> miette::Result<Outcome> {
    match args.what {
        EvidenceCommand::Ref(args) => run_ref(args, global),
        EvidenceCommand::Verify(args) => run_verify(args, global),
    }
}

/// One receipt's result as `evidence ref --format json|jsonl` prints it.
#[derive(Debug, Serialize)]
struct RefRecord<'a> {
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    file: &'a Path,
    /// The receipt's status (`authenticated`, …), or `unreadable` (not a receipt).
    status: &'static str,
    #[serde(rename = "evidenceRef", skip_serializing_if = "Option::is_none")]
    evidence_ref: Option<EvidenceRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    findings: Vec<Finding>,
}

/// Reports an input that could not be read; the run could not check it.
fn unreadable(input: &Input, error: &std::io::Error, global: &Global) -> Outcome {
    super::report_error(
        &miette::miette!(code = "unreadable-file", "{input}: {error}"),
        global,
    );
    Outcome::Unchecked
}

fn run_ref(args: EvidenceRefArgs, global: &Global) -> miette::Result<Outcome> {
    let (pin, mut out, mut array) =
        super::receipt_files_start(args.receipt_key.as_deref(), &args.files, "RECEIPT", global)?;
    let mut scratch = Scratch::default();
    let mut outcome = Outcome::Good;
    for file in &args.files {
        let input = Input::new(file);
        let bytes = match input.read_capped(crate::audit::MAX_RECEIPT_BYTES) {
            Ok(bytes) => bytes,
            Err(error) => {
                outcome = unreadable(&input, &error, global);
                continue;
            }
        };
        let record = ref_record(file, &input, &bytes, pin.as_ref(), &mut scratch);
        if record.evidence_ref.is_none() {
            outcome = outcome.worst(Outcome::Problems);
        }
        match (global.format, &mut array) {
            (Format::Json, Some(array)) => array.item(&mut out, "evidence-ref", &record),
            (Format::Jsonl, _) => out.json_line("evidence-ref", &record),
            _ => out.text(&human_ref(&record)),
        }
        .map_err(super::io_report)?;
    }
    if let Some(array) = array {
        array.end(&mut out).map_err(super::io_report)?;
    }
    out.flush().map_err(super::io_report)?;
    Ok(outcome)
}

/// The reference for one receipt file, or why it gets none.
fn ref_record<'a>(
    file: &'a Path,
    input: &Input,
    bytes: &[u8],
    pin: Option<&receipt::pin::Pin>,
    scratch: &mut Scratch,
) -> RefRecord<'a> {
    let report = match receipt::verify_bytes(bytes, pin, scratch) {
        Ok(report) => report,
        Err(problem) => {
            return RefRecord {
                file,
                status: "unreadable",
                evidence_ref: None,
                findings: vec![Finding::new(problem.code, None, problem.message)],
            }
        }
    };
    let status = report.status.as_str();
    if report.status != ReceiptStatus::Authenticated {
        return RefRecord {
            file,
            status,
            evidence_ref: None,
            findings: report.findings,
        };
    }
    // Standard input has no file name to put in `ref`: the reference is found by digest.
    let name = input
        .path()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned());
    match evidence::receipt_ref(name.as_deref(), bytes) {
        Ok(evidence_ref) => RefRecord {
            file,
            status,
            evidence_ref: Some(evidence_ref),
            findings: Vec::new(),
        },
        // A receipt serde_json read always has an RFC 8785 form; kept total all the same.
        Err(error) => RefRecord {
            file,
            status,
            evidence_ref: None,
            findings: vec![Finding::new(
                crate::finding::Code::InvalidJson,
                None,
                format!("no RFC 8785 form: {error}"),
            )],
        },
    }
}

fn human_ref(record: &RefRecord<'_>) -> String {
    let mut text = format!("{}\n", escape(&record.file.display().to_string()));
    match &record.evidence_ref {
        Some(evidence_ref) => {
            // Exact JSON to paste into an annotation; made inert like any other human text.
            let json = serde_json::to_string(evidence_ref).unwrap_or_default();
            text.push_str(&format!("  evidenceRef {}\n", escape(&json)));
        }
        None => {
            text.push_str(&format!(
                "  NO REFERENCE  the receipt is {}, so it names nothing\n",
                record.status
            ));
            for finding in &record.findings {
                text.push_str(&format!("    {}\n", super::finding_line(finding)));
            }
        }
    }
    text
}

/// Where a reference was read.
#[derive(Debug, Clone, Serialize)]
struct Source {
    /// The capture or reference file.
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    file: PathBuf,
    /// `frames` or `refs`.
    input: &'static str,
    /// 1-based frame or line number (a whole-file JSON value: 1).
    line: u64,
    /// 0-based position among the references read there.
    index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<RequestId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    request: Option<CapturedRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sensitive: Option<bool>,
}

/// One reference's result as `evidence verify --format json|jsonl` prints it.
#[derive(Debug, Serialize)]
struct CheckRecord {
    #[serde(flatten)]
    source: Source,
    /// The reference's string members, exactly.
    #[serde(rename = "evidenceRef")]
    evidence_ref: EvidenceRef,
    #[serde(flatten)]
    verdict: Verdict,
}

fn run_verify(args: EvidenceVerifyArgs, global: &Global) -> miette::Result<Outcome> {
    let pin = super::receipt_pin(args.receipt_key.as_deref())?;
    crate::input::stdin_once(
        args.frames
            .iter()
            .map(|f| ("--frames", f.as_path()))
            .chain(args.refs.iter().map(|f| ("--refs", f.as_path()))),
    )
    .map_err(super::diagnostic::report)?;
    crate::input::refuse_stdin(
        "--evidence",
        args.evidence.iter().map(PathBuf::as_path),
        "a reference's `ref` is resolved under the evidence directories, and standard input \
         has no names to resolve",
    )
    .map_err(super::diagnostic::report)?;
    let mut store = Store::new(&args.evidence).map_err(super::diagnostic::report)?;
    let mut scratch = Scratch::default();
    let mut context = Context {
        store: &mut store,
        pin: pin.as_ref(),
        scratch: &mut scratch,
    };
    let mut outcome = Outcome::Good;
    let mut records: Vec<CheckRecord> = Vec::new();
    for file in &args.frames {
        let input = Input::new(file);
        // The shared input layer refuses what is no capture (binary data, UTF-16) up front.
        let read = input
            .open_text(crate::input::Kind::Capture, 1 << 16)
            .and_then(|reader| {
                capture::read(reader, &args.annotation_key, &Options::default()).map_err(|e| {
                    crate::input::InputError::Unreadable(crate::input::Unreadable::new(&input, e))
                })
            });
        let found = match read {
            Ok(found) => found,
            Err(error) => {
                outcome = outcome.worst(super::stopped_input(error, global));
                continue;
            }
        };
        for unreadable in &found.unreadable {
            let source = frame_source(file, unreadable.line, 0, None);
            let verdict = evidence::unread_frame(unreadable.why.clone());
            records.push(CheckRecord {
                source,
                evidence_ref: EvidenceRef::default(),
                verdict,
            });
        }
        for annotated in &found.annotated {
            for (index, read) in annotated.annotation.refs.iter().enumerate() {
                let call = match &annotated.request {
                    Some(Paired::Call(request)) => evidence::Call::Captured(request),
                    Some(Paired::Refused { line, code }) => evidence::Call::Refused(*line, code),
                    None => evidence::Call::NotCaptured,
                };
                let verdict = evidence::check(read, call, &mut context);
                records.push(CheckRecord {
                    source: frame_source(file, annotated.line, index, Some(annotated)),
                    evidence_ref: read.fields.clone(),
                    verdict,
                });
            }
        }
    }
    for file in &args.refs {
        let input = Input::new(file);
        let text = match input.read_capped_text(crate::audit::MAX_RECEIPT_BYTES) {
            Ok(text) => text,
            Err(error) => {
                outcome = unreadable(&input, &error, global);
                continue;
            }
        };
        for (line, index, read) in refs_in(&text) {
            let verdict = evidence::check(&read, evidence::Call::None, &mut context);
            records.push(CheckRecord {
                source: Source {
                    file: file.clone(),
                    input: "refs",
                    line,
                    index,
                    id: None,
                    session: None,
                    request: None,
                    sensitive: None,
                },
                evidence_ref: read.fields,
                verdict,
            });
        }
    }
    if records.is_empty() {
        if outcome == Outcome::Good {
            super::report_error(
                &miette::miette!(
                    code = "no-evidence-refs",
                    help = format!(
                        "responses carry references under result._meta[\"{}\"] (--annotation-key names another key)",
                        escape(&args.annotation_key)
                    ),
                    "no evidenceRef in the given captures and reference files: nothing was checked"
                ),
                global,
            );
        }
        return Ok(Outcome::Unchecked);
    }
    outcome = records
        .iter()
        .map(|r| r.verdict.outcome())
        .fold(outcome, Outcome::worst);
    print_checks(&records, global)?;
    Ok(outcome)
}

fn frame_source(file: &Path, line: u64, index: usize, annotated: Option<&Annotated>) -> Source {
    Source {
        file: file.to_path_buf(),
        input: "frames",
        line,
        index,
        id: annotated.and_then(|a| a.id.clone()),
        session: annotated.map(|a| a.session),
        request: annotated.and_then(|a| match &a.request {
            Some(Paired::Call(request)) => Some(request.clone()),
            _ => None,
        }),
        sensitive: annotated.and_then(|a| a.annotation.sensitive),
    }
}

/// The references of a file of references, with their line and position: one JSON value for
/// the whole file, else JSON Lines. A value is a reference, an object with `evidenceRef`
/// (one or an array, as a trust annotation holds them; `evidence ref`'s records are such
/// objects), or an array of those; a line that is not JSON is one malformed reference.
fn refs_in(text: &str) -> Vec<(u64, usize, ReadRef)> {
    let take = |found: &mut Vec<(u64, usize, ReadRef)>, line: u64, node: &Node<'_>| {
        let mut refs = Vec::new();
        let items: Vec<&Node<'_>> = match &node.value {
            JsonValue::Array(items) => items.iter().collect(),
            _ => vec![node],
        };
        for item in items {
            if item.value.get(evidence::EVIDENCE_REF_MEMBER).is_some() {
                refs.extend(evidence::read_annotation(item).refs);
            } else if is_refless_record(item) {
                // `evidence ref`'s record of a receipt that got no reference.
            } else {
                refs.push(evidence::read_ref(item));
            }
        }
        found.extend(
            refs.into_iter()
                .enumerate()
                .map(|(index, read)| (line, index, read)),
        );
    };
    let mut found = Vec::new();
    if let Ok(node) = json::parse(text, json::DUPLICATE_SCAN_DEPTH) {
        take(&mut found, 1, &node);
        return found;
    }
    for (number, line) in text.lines().enumerate() {
        let number = number as u64 + 1;
        if line.trim().is_empty() {
            continue;
        }
        match json::parse(line, json::DUPLICATE_SCAN_DEPTH) {
            Ok(node) => take(&mut found, number, &node),
            Err(error) => found.push((
                number,
                0,
                ReadRef {
                    fields: EvidenceRef::default(),
                    malformed: Some(format!(
                        "not JSON: {} at byte {}",
                        error.message, error.offset
                    )),
                },
            )),
        }
    }
    found
}

/// An `evidence ref` record without a reference: `"type": "evidence-ref"`, a `status` and
/// `findings`, no `evidenceRef`.
fn is_refless_record(node: &Node<'_>) -> bool {
    node.value.get("type").and_then(|t| t.value.as_str()) == Some("evidence-ref")
        && node.value.get("status").is_some()
        && node.value.get("findings").is_some()
}

fn print_checks(records: &[CheckRecord], global: &Global) -> miette::Result<()> {
    let mut out = Out::new();
    match global.format {
        Format::Json => {
            let mut array = JsonArray::begin(&mut out).map_err(super::io_report)?;
            for record in records {
                array
                    .item(&mut out, "evidence-check", record)
                    .map_err(super::io_report)?;
            }
            array.end(&mut out).map_err(super::io_report)?;
        }
        Format::Jsonl => {
            for record in records {
                out.json_line("evidence-check", record)
                    .map_err(super::io_report)?;
            }
        }
        Format::Human => out.text(&human_checks(records)).map_err(super::io_report)?,
    }
    out.flush().map_err(super::io_report)
}

fn human_checks(records: &[CheckRecord]) -> String {
    let count = |status: &str| {
        records
            .iter()
            .filter(|r| r.verdict.status() == status)
            .count()
    };
    let (verified, failed, unchecked) = (count("verified"), count("failed"), count("not-checked"));
    let bound = records
        .iter()
        .filter(|r| r.verdict.binding == Binding::Bound)
        .count();
    let headline = if unchecked > 0 {
        "EVIDENCE NOT CHECKED"
    } else if failed > 0 {
        "EVIDENCE FAIL"
    } else {
        "EVIDENCE OK"
    };
    let mut text = format!(
        "{headline}: {} reference{}: {verified} verified ({bound} bound to their call), {failed} failed, {unchecked} not checked\n",
        records.len(),
        if records.len() == 1 { "" } else { "s" }
    );
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(110)
        .set_header(vec!["where", "verdict", "binding", "evidence", "detail"]);
    for record in records {
        let source = &record.source;
        let mut place = format!("{}:{}", source.file.display(), source.line);
        if source.index > 0 {
            place.push_str(&format!(" #{}", source.index + 1));
        }
        if let Some(id) = &source.id {
            place.push_str(&format!(" id {id}"));
        }
        let verdict = match record.verdict.code {
            Some(code) if code != EvidenceCode::EvidenceTypeNotEvaluated => {
                format!(
                    "{} {code}",
                    record.verdict.status().to_uppercase().replace('-', " ")
                )
            }
            _ => record.verdict.status().to_owned(),
        };
        let binding = match record.verdict.binding {
            Binding::Bound => "bound",
            Binding::AnotherCall => "ANOTHER CALL",
            Binding::RequestNotCaptured => "request not captured",
            Binding::RequestRefused => "request refused",
            Binding::NotApplicable => "-",
        };
        // The file's name keeps the table readable; JSON carries the whole path.
        let evidence = record
            .verdict
            .evidence
            .as_ref()
            .map_or("-".to_owned(), |e| {
                let name = e.file.file_name().unwrap_or(e.file.as_os_str());
                format!("{} (by {})", name.to_string_lossy(), e.by)
            });
        // The type is shown where sealkit does not evaluate it.
        let mut detail = record.verdict.message.clone();
        if let (Some(kind), "not-evaluated") = (&record.evidence_ref.kind, record.verdict.profile) {
            detail = format!("type {kind:?}: {detail}");
        }
        table.add_row(vec![
            escape(&place).into_owned(),
            verdict,
            binding.to_owned(),
            escape(&evidence).into_owned(),
            escape(&detail).into_owned(),
        ]);
    }
    text.push_str(&format!("{table}\n"));
    text
}
