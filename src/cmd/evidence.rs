//! `sealkit evidence ref RECEIPT…` and `sealkit evidence verify` (docs/evidence.md): wiring
//! of [`crate::evidence`] to files and output (reading captures and files of references,
//! and checking what they hold, is [`crate::evidence::checked`]'s).

use super::{Global, JsonArray, Out};
use crate::cli::{EvidenceArgs, EvidenceCommand, EvidenceRefArgs, EvidenceVerifyArgs, Format};
use crate::evidence::checked::{self, Record};
use crate::evidence::store::Store;
use crate::evidence::{self, Binding, Context, EvidenceCode};
use crate::finding::{Code, Finding};
use crate::inert::escape;
use crate::input::Input;
use crate::outcome::Outcome;
use crate::receipt::pin::{KeyPlacement, Pin};
use crate::receipt::Scratch;
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use serde::Serialize;
use std::path::Path;

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
    #[serde(flatten)]
    made: evidence::Made,
}

/// Reports an input that could not be read, through the input layer (its code and the exit
/// status a shortfall gives); the run could not check it.
fn unreadable(input: &Input, error: std::io::Error, global: &Global) -> Outcome {
    super::stopped_input(crate::input::Unreadable::new(input, error), global)
}

fn run_ref(args: EvidenceRefArgs, global: &Global) -> miette::Result<Outcome> {
    let (pin, mut out, mut array) =
        super::receipt_files_start(args.receipt_key.as_deref(), &args.files, "RECEIPT", global)?;
    let mut scratch = Scratch::default();
    let mut outcome = Outcome::Good;
    // A key read from beside a receipt authenticates nothing independent (docs/trust-model.md).
    let pin_file = pin.as_ref().and_then(Pin::file);
    let mut placement = pin_file.as_ref().map(KeyPlacement::new);
    for file in &args.files {
        let input = Input::new(file);
        let bytes = match input.read_capped(crate::audit::MAX_RECEIPT_BYTES) {
            Ok(bytes) => bytes,
            Err(error) => {
                outcome = outcome.worst(unreadable(&input, error, global));
                continue;
            }
        };
        // Standard input has no file name to put in `ref`: the reference is found by digest.
        let name = input
            .path()
            .and_then(Path::file_name)
            .map(|name| name.to_string_lossy().into_owned());
        let mut made = evidence::reference_for(&bytes, name.as_deref(), pin.as_ref(), &mut scratch);
        if let (Some(placement), Some(_)) = (&mut placement, &made.evidence_ref) {
            // No reference for a receipt the evidence alone vouches for: its finding instead.
            if let Some(how) = placement.beside(file) {
                made.evidence_ref = None;
                made.findings.push(Finding {
                    path: None,
                    ..placement.finding(&how)
                });
            }
        }
        let record = RefRecord { file, made };
        if record.made.evidence_ref.is_none() {
            outcome = outcome.worst(Outcome::Problems);
        }
        match (global.format, &mut array) {
            (Format::Json, Some(array)) => array.item(&mut out, "evidence-ref", &record),
            (Format::Jsonl, _) => out.json_line("evidence-ref", &record),
            _ => write_human_ref(&mut out, &record),
        }
        .map_err(super::io_report)?;
    }
    if let Some(array) = array {
        array.end(&mut out).map_err(super::io_report)?;
    }
    out.flush().map_err(super::io_report)?;
    Ok(outcome)
}

/// One receipt's reference as people read it: its file, then the evidenceRef or why there is
/// none, through the one layout ([`Out::human`]) except the evidenceRef's JSON, which is made
/// to be pasted: it is printed whole on its own line however wide (a terminal soft-wraps it
/// and a copy of it stays one line; a line break inside would corrupt a string in it).
fn write_human_ref(out: &mut Out, record: &RefRecord<'_>) -> std::io::Result<()> {
    out.human(&format!("{}\n", escape(&record.file.display().to_string())))?;
    match &record.made.evidence_ref {
        Some(evidence_ref) => {
            // Exact JSON to paste into an annotation; made inert like any other human text.
            let json = serde_json::to_string(evidence_ref).unwrap_or_default();
            out.text(&format!("  evidenceRef {}\n", escape(&json)))
        }
        None => {
            let why = if key_in_evidence(&record.made.findings) {
                format!(
                    "the receipt is authenticated only {}, so it names nothing",
                    crate::receipt::pin::UNDER_KEY_IN_EVIDENCE
                )
            } else {
                format!("the receipt is {}, so it names nothing", record.made.status)
            };
            let mut text = format!("  NO REFERENCE  {why}\n");
            for finding in &record.made.findings {
                text.push_str(&format!("    {}\n", super::finding_line(finding)));
            }
            out.human(&text)
        }
    }
}

/// Whether a receipt-key-in-evidence finding is among `findings`.
fn key_in_evidence(findings: &[Finding]) -> bool {
    findings
        .iter()
        .any(|f| f.code == Code::ReceiptKeyInEvidence)
}

/// The `receipt-key-in-evidence` finding when the pinned key file lies under an `--evidence`
/// root or beside a root given as a file (the receipts a `ref` resolves to are in them):
/// whoever could write that evidence could write the key.
fn key_inside_roots(pin: Option<&Pin>, roots: &[std::path::PathBuf]) -> Option<Finding> {
    let pin_file = pin.and_then(Pin::file)?;
    let mut placement = KeyPlacement::new(&pin_file);
    let inside = roots.iter().find_map(|root| placement.in_root(root))?;
    Some(placement.finding(&inside))
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
        args.evidence.iter().map(std::path::PathBuf::as_path),
        "a reference's `ref` is resolved under the evidence directories, and standard input \
         has no names to resolve",
    )
    .map_err(super::diagnostic::report)?;
    let mut store = Store::new(&args.evidence).map_err(super::diagnostic::report)?;
    let key_inside = key_inside_roots(pin.as_ref(), &args.evidence);
    let mut scratch = Scratch::default();
    let mut context = Context {
        store: &mut store,
        pin: pin.as_ref(),
        scratch: &mut scratch,
    };
    let mut inputs = Outcome::Good;
    let mut records: Vec<Record> = Vec::new();
    for file in &args.frames {
        let input = Input::new(file);
        // The shared input layer refuses what is no capture (binary data, UTF-16) up front.
        let read = input
            .open_text(crate::input::Kind::Capture, 1 << 16)
            .and_then(|reader| {
                checked::check_capture(reader, &args.annotation_key, &mut context).map_err(|e| {
                    crate::input::InputError::Unreadable(crate::input::Unreadable::new(&input, e))
                })
            });
        match read {
            Ok(frames) => records.extend(frames.iter().flat_map(|frame| frame.records(file))),
            Err(error) => inputs = inputs.worst(super::stopped_input(error, global)),
        }
    }
    for file in &args.refs {
        let input = Input::new(file);
        match input.read_capped_text(crate::audit::MAX_RECEIPT_BYTES) {
            Ok(text) => records.extend(checked::check_refs(&text, file, &mut context)),
            Err(error) => inputs = inputs.worst(unreadable(&input, error, global)),
        }
    }
    if records.is_empty() && inputs == Outcome::Good {
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
    // The key's finding is an error: the references' verdicts rest on it.
    let key_outcome = if key_inside.is_some() {
        Outcome::Problems
    } else {
        Outcome::Good
    };
    let outcome = checked::outcome(inputs, &records).worst(key_outcome);
    if !records.is_empty() {
        print_checks(&records, key_inside.as_ref(), global)?;
    }
    Ok(outcome)
}

fn print_checks(
    records: &[Record],
    key_inside: Option<&Finding>,
    global: &Global,
) -> miette::Result<()> {
    let mut out = Out::new();
    match global.format {
        Format::Json => {
            let mut array = JsonArray::begin(&mut out).map_err(super::io_report)?;
            if let Some(finding) = key_inside {
                array
                    .item(&mut out, "finding", finding)
                    .map_err(super::io_report)?;
            }
            for record in records {
                array
                    .item(&mut out, "evidence-check", record)
                    .map_err(super::io_report)?;
            }
            array.end(&mut out).map_err(super::io_report)?;
        }
        Format::Jsonl => {
            if let Some(finding) = key_inside {
                out.json_line("finding", finding)
                    .map_err(super::io_report)?;
            }
            for record in records {
                out.json_line("evidence-check", record)
                    .map_err(super::io_report)?;
            }
        }
        Format::Human => out
            .human(&human_checks(records, key_inside))
            .map_err(super::io_report)?,
    }
    out.flush().map_err(super::io_report)
}

fn human_checks(records: &[Record], key_inside: Option<&Finding>) -> String {
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
    // The verdict line is the exit status's: a key found in the evidence is a problem, and
    // what verified did so only under it.
    let headline = if unchecked > 0 {
        "EVIDENCE NOT CHECKED"
    } else if failed > 0 || key_inside.is_some() {
        "EVIDENCE FAIL"
    } else {
        "EVIDENCE OK"
    };
    let under = match key_inside {
        Some(_) => format!(" {}", crate::receipt::pin::UNDER_KEY_IN_EVIDENCE),
        None => String::new(),
    };
    let mut text = format!(
        "{headline}: {} reference{}: {verified} verified{under} ({bound} bound to their call), {failed} failed, {unchecked} not checked\n",
        records.len(),
        if records.len() == 1 { "" } else { "s" }
    );
    if let Some(finding) = key_inside {
        text.push_str(&format!("{}\n", super::finding_line(finding)));
    }
    let mut table = Table::new();
    table
        .load_preset(UTF8_FULL_CONDENSED)
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
        // The whole path: a file name alone could be any of several directories' files.
        let evidence = record
            .verdict
            .evidence
            .as_ref()
            .map_or("-".to_owned(), |e| {
                format!("{} (by {})", e.file.display(), e.by)
            });
        // The type is shown where sealkit does not evaluate it.
        let mut detail = record.verdict.message.clone();
        if let (Some(kind), "not-evaluated") = (&record.evidence_ref.kind, record.verdict.profile) {
            detail = format!("type \"{}\": {detail}", evidence::shown_type(kind));
        }
        table.add_row(vec![
            escape(&place).into_owned(),
            verdict,
            binding.to_owned(),
            escape(&evidence).into_owned(),
            escape(&detail).into_owned(),
        ]);
    }
    text.push_str(&format!("{}\n", super::layout::table(&table)));
    text
}
