//! `sealkit report --out FILE DIR… [--receipt-key K] [--pubkey K | --trusted-approvers F]
//! [--tokens F]… [--chain F]… [--audit-lines F]… [--frames C]… [--server ID] [--title T]
//! [--timestamp]`: reads every input with the library's own readers (the directory audit,
//! seal-host's token pipeline, the chain verifier, the frame index): the inputs bounded by
//! their own files first, then the receipts streamed from the audit into the model
//! ([`crate::report::stream`]); writes one page ([`crate::report::html`]) or, with
//! `--format json`, the joined model (bounded as the page is), or with `--format jsonl`
//! one `report-row` object per receipt as its joins are final, then every trust annotation
//! on no row, every finding not about one receipt and the verdict, atomically (every format
//! carries the same findings). Exit status as `audit`: 1 when an
//! error-severity finding is in the report (warnings too with --deny-warnings), 2 when an
//! input cannot be read.

use super::{Global, Out};
use crate::approval::binding::Expectations;
use crate::approval::line_reports::{Checker, LineReport, TokenStatus};
use crate::approvers::Approvers;
use crate::atomic_write::AtomicFile;
use crate::audit::{self, AuditError, Event, Options, Quiet};
use crate::chain;
use crate::cli::{Format, ReportArgs};
use crate::digest::sha256_hex;
use crate::finding::Code;
use crate::input::{InputError, Items, Kind, NotAllRead, NothingToCheck, Unreadable};
use crate::keys::PublicKey;
use crate::outcome::Outcome;
use crate::report::model::{self, Chain, Input, KeyAnchor, TokenEvidence, Trust};
use crate::report::stream::{Builder, Evidence, Rows};
use crate::tokenfile::{Batch, LineReader};
use miette::miette;
use std::io::Write as _;
use std::path::Path;

/// Inputs larger than this are not read (the host's token file is read up to 4 MiB; sealed
/// logs and captures can be large, but not beyond this).
// Token files, chains and captures are read whole (up to 1 GiB each) before the receipts.
const MAX_INPUT_BYTES: u64 = 1 << 30;
const BATCH_LINES: usize = 4096;

pub fn run(args: ReportArgs, global: &Global) -> miette::Result<Outcome> {
    crate::input::refuse_stdin(
        "DIR",
        args.dirs.iter().map(std::path::PathBuf::as_path),
        super::audit::STDIN_WHY,
    )
    .map_err(super::diagnostic::report)?;
    // A receipt directory that cannot be read is said first, whatever else is given.
    for dir in &args.dirs {
        if let Err(error) = std::fs::metadata(dir) {
            let input = crate::input::Input::new(dir);
            return Err(super::diagnostic::report(
                Unreadable::new(&input, error).coded("unreadable-input"),
            ));
        }
    }
    refuse_output_inside_inputs(&args)?;
    let named = [
        ("--tokens", &args.tokens),
        ("--chain", &args.chains),
        ("--audit-lines", &args.audit_lines),
        ("--frames", &args.frames),
    ];
    crate::input::stdin_once(
        (named.iter())
            .flat_map(|(name, paths)| paths.iter().map(|path| (*name, path.as_path())))
            .chain(
                args.trusted_approvers
                    .as_deref()
                    .map(|p| ("--trusted-approvers", p)),
            ),
    )
    .map_err(super::diagnostic::report)?;
    let pin = super::receipt_pin(args.receipt_key.as_deref())?;
    let (approvers, mut inputs) = approval_keys(&args)?;
    if !args.tokens.is_empty() && approvers.anchors.is_empty() {
        return Err(miette!(
            code = "missing-approval-key",
            help = "give --pubkey HEX|FILE or --trusted-approvers FILE",
            "token files need a trusted approval key to be checked"
        ));
    }
    let jobs = args
        .jobs
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let trust = Trust {
        receipt_key: pin.as_ref().map(|p| KeyAnchor {
            public_key: p.public_key_hex(),
            key_id: None,
            source: p.source.describe(),
        }),
        approvers: approvers
            .anchors
            .iter()
            .map(|(key, source)| KeyAnchor {
                public_key: key.hex.clone(),
                key_id: Some(key.key_id.clone()),
                source: source.clone(),
            })
            .collect(),
        ttl_seconds: args.ttl.min(300),
        server: args.server.clone(),
    };

    // Everything bounded by its own file is read before the receipts stream in.
    let tokens = if args.tokens.is_empty() {
        None
    } else {
        let mut all = Vec::new();
        for path in &args.tokens {
            let bytes = read_input(path, "tokens", Some(Kind::TokenFile), &mut inputs)?;
            all.extend(check_tokens(path, &bytes, &approvers, args.ttl));
        }
        Some(all)
    };
    let chains = read_chains(&args, &mut inputs)?;
    let frames = if args.frames.is_empty() {
        None
    } else {
        let (index, infos) = super::migrate::load_captures(&args.frames, "unreadable-input")?;
        for info in infos {
            let bytes = std::fs::metadata(&info.path).map_or(0, |m| m.len());
            inputs.push(Input {
                role: "frames",
                path: info.path,
                bytes,
                sha256: Some(info.sha256),
            });
        }
        Some(index)
    };
    let annotations = annotations(&args, &inputs, pin.as_ref())?;
    let options = Options {
        pin,
        approvers: approvers.list.clone(),
        approval_key_files: approvers.files.clone(),
        token_files: (args.tokens.iter())
            .filter_map(|path| crate::input::named_file(path))
            .map(Path::to_path_buf)
            .collect(),
        jobs,
    };
    let evidence = Evidence {
        title: args.title.clone(),
        inputs,
        roots: args.dirs.clone(),
        trust,
        tokens,
        chains,
        frames,
        annotations,
    };

    // JSON Lines is the form with every row, written as each row's joins are final; the
    // page and the JSON model are bounded.
    let (model, written) = if global.format == Format::Jsonl {
        let mut file = AtomicFile::create(&args.out, 0o600).map_err(|e| cannot_write(&args, e))?;
        let mut bytes = 0u64;
        // One typed record a line.
        let mut line = |record: std::io::Result<Vec<u8>>| -> std::io::Result<()> {
            let mut line = record?;
            line.push(b'\n');
            bytes += line.len() as u64;
            file.write_all(&line)
        };
        let model = {
            let mut write = |row: &model::Row| line(super::typed("report-row", row));
            stream(&args, &options, evidence, global, Rows::Each(&mut write))
                .map_err(|e| e.unwrap_or_else(|e| cannot_write(&args, e)))?
        };
        // What the page shows beside the rows, so every format carries the same findings:
        // the trust annotations on no row (every one), the findings not about one receipt,
        // and last the verdict the exit status gives.
        (model.annotations.iter())
            .try_for_each(|annotation| line(super::typed("report-annotation", annotation)))
            .and_then(|()| {
                (model.findings).each_most_serious_first(|f| line(super::typed("finding", &f)))
            })
            .and_then(|()| line(super::typed("report-verdict", &model.verdict)))
            .map_err(|e| cannot_write(&args, e))?;
        file.commit().map_err(|e| cannot_write(&args, e))?;
        (model, bytes)
    } else {
        let mut model = stream(&args, &options, evidence, global, Rows::default())
            .map_err(|e| e.unwrap_or_else(super::io_report))?;
        read_sampled_frames(&mut model);
        if args.timestamp {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64);
            model.generated_at = Some(crate::timestamp::iso_ms(now));
        }
        // Written as it is made (the page or model is never held whole: it embeds every
        // finding), atomically: nothing is at --out unless all of it was written.
        let mut file = AtomicFile::create(&args.out, 0o600).map_err(|e| cannot_write(&args, e))?;
        let mut counted = Counted {
            out: &mut file,
            bytes: 0,
        };
        match global.format {
            Format::Json => serde_json::to_writer(
                &mut counted,
                &super::Typed {
                    kind: "report",
                    value: &model,
                },
            )
            .map_err(std::io::Error::from)
            .and_then(|()| counted.write_all(b"\n")),
            _ => crate::report::html::write(&model, &mut counted),
        }
        .map_err(|e| cannot_write(&args, e))?;
        let bytes = counted.bytes;
        file.commit().map_err(|e| cannot_write(&args, e))?;
        (model, bytes)
    };
    if global.format == Format::Human {
        let s = &model.summary;
        let mut out = Out::new();
        let count = crate::outcome::count;
        out.human(&format!(
            "{}: {}\nwrote {} ({}): {}, {}, {}, {}, {}\n",
            model.verdict.title(),
            model.verdict.headline,
            crate::inert::escape(&args.out.display().to_string()),
            count(written, "byte", "bytes"),
            count(s.receipts, "receipt", "receipts"),
            count(model.tokens.len() as u64, "token", "tokens"),
            count(s.chain_entries, "chain entry", "chain entries"),
            count(model.verdict.errors, "error", "errors"),
            count(model.verdict.warnings, "warning", "warnings")
        ))
        .and_then(|()| out.flush())
        .map_err(super::io_report)?;
    }
    // The page's verdict is the exit status.
    Ok(model.verdict.exit())
}

/// The page must not replace any input (by any name) nor land inside a directory it
/// reports on: the one rule of [`crate::atomic_write::refuse_input_as_output`].
fn refuse_output_inside_inputs(args: &ReportArgs) -> miette::Result<()> {
    let files = [
        ("--tokens", &args.tokens),
        ("--chain", &args.chains),
        ("--audit-lines", &args.audit_lines),
        ("--frames", &args.frames),
        ("DIR", &args.dirs),
    ];
    let keys = [
        ("--receipt-key", args.receipt_key.as_deref()),
        ("--pubkey", args.pubkey.as_deref()),
    ];
    let inputs = (files.iter())
        .flat_map(|(option, paths)| paths.iter().map(|path| (*option, path.as_path())))
        .chain(
            args.trusted_approvers
                .as_deref()
                .map(|path| ("--trusted-approvers", path)),
        )
        .chain(
            keys.iter()
                .filter_map(|(option, value)| value.map(|v| (*option, Path::new(v)))),
        );
    crate::atomic_write::refuse_input_as_output(&args.out, inputs)
        .map_err(super::diagnostic::report)
}

/// Trust annotations in the captured responses, and the frames not read, checked against the
/// receipt directories (the evidence roots) under the pinned key exactly as `evidence
/// verify` checks them ([`crate::evidence::checked::check_capture`]), with their capture.
fn annotations(
    args: &ReportArgs,
    inputs: &[Input],
    pin: Option<&crate::receipt::pin::Pin>,
) -> miette::Result<Vec<(String, crate::evidence::checked::CheckedFrame)>> {
    if args.frames.is_empty() {
        return Ok(Vec::new());
    }
    let mut store =
        crate::evidence::store::Store::new(&args.dirs).map_err(super::diagnostic::report)?;
    let mut scratch = crate::receipt::Scratch::default();
    let mut context = crate::evidence::Context {
        store: &mut store,
        pin,
        scratch: &mut scratch,
    };
    let mut found = Vec::new();
    // The capture files as read for the frame joins (a directory given to --frames is
    // expanded there).
    for input in inputs.iter().filter(|input| input.role == "frames") {
        let reader = crate::input::Input::new(Path::new(&input.path))
            .open()
            .map_err(|e| miette!(code = "unreadable-input", "{e}"))?;
        let frames = crate::evidence::checked::check_capture(
            std::io::BufReader::new(reader),
            crate::evidence::DEFAULT_ANNOTATION_KEY,
            &mut context,
        )
        .map_err(|e| miette!(code = "unreadable-input", "{}: {e}", input.path))?;
        found.extend(frames.into_iter().map(|frame| (input.path.clone(), frame)));
    }
    Ok(found)
}

/// The receipts, as the directory audit checks them, streamed into the report's model
/// (rows handed to `rows`). The error is a diagnostic, or the sink's I/O error.
fn stream(
    args: &ReportArgs,
    options: &Options,
    evidence: Evidence,
    global: &Global,
    rows: Rows<'_>,
) -> Result<model::Model, Result<miette::Report, std::io::Error>> {
    let mut builder = Builder::new(evidence, global.deny_warnings, rows);
    // What the page needs before it may be written: receipts to show, every file read.
    let mut receipts = 0u64;
    let mut unreadable: Vec<String> = Vec::new();
    let mut note = |findings: &[crate::finding::Finding]| {
        for finding in findings.iter().filter(|f| f.code == Code::UnreadableFile) {
            let path = finding.path.as_deref().unwrap_or(Path::new(""));
            unreadable.push(format!("{}: {}", path.display(), finding.message));
        }
    };
    let audited = audit::audit(&args.dirs, options, &Quiet, &mut |event| match event {
        Event::Receipt(entry) => {
            receipts += 1;
            note(&entry.file_findings);
            builder.receipt(entry)
        }
        Event::Finding(finding) => {
            note(std::slice::from_ref(finding));
            builder.finding(finding)
        }
    })
    .map_err(|error| match error {
        AuditError::Root(path, error) => Ok(miette!(
            code = "unreadable-input",
            "cannot read {}: {error}",
            path.display()
        )),
        AuditError::Sink(error) => Err(error),
        // Only an audit reduced from facts mapped elsewhere meets these.
        error @ (AuditError::Facts(_) | AuditError::FactsFormat(_)) => {
            Ok(miette!(code = "facts-mismatch", "{error}"))
        }
    });
    audited?;
    // A page over nothing, or over part of the evidence, would look like a verdict: neither
    // is written.
    if let Some(first) = unreadable.first() {
        return Err(Ok(super::diagnostic::report(NotAllRead {
            count: unreadable.len() as u64,
            first: first.clone(),
        })));
    }
    if receipts == 0 {
        return Err(Ok(super::diagnostic::report(NothingToCheck {
            evidence: Items::Receipts,
            where_: (args.dirs.iter())
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            written: false,
        })));
    }
    builder.finish().map_err(Err)
}

/// The sealed logs and raw audit lines, each verified as a chain, with every entry's join key.
fn read_chains(args: &ReportArgs, inputs: &mut Vec<Input>) -> miette::Result<Vec<Chain>> {
    let mut chains = Vec::new();
    for path in &args.chains {
        let bytes = read_input(path, "chain", Some(Kind::SealedLog), inputs)?;
        let mut entries = Vec::new();
        let report = chain::sealed::verify_stream_each(&bytes[..], |index, payload, ok| {
            entries.push(model::chain_entry(index, payload, ok))
        })
        .map_err(|e| super::diagnostic::report_at(path.display(), e))?;
        chains.push(Chain {
            file: path.display().to_string(),
            kind: "sealed",
            intact: report.intact(),
            genesis_ok: report.genesis.ok,
            first_bad_entry: report.first_bad_entry.map(|b| b.index),
            head: report.head,
            length: 0,
            joined: 0,
            entries,
        });
    }
    for path in &args.audit_lines {
        let bytes = read_input(path, "audit-lines", Some(Kind::AuditLines), inputs)?;
        let mut entries = Vec::new();
        let lines = chain::lines::chain_lines(&bytes[..], |payload| {
            entries.push(model::chain_entry(entries.len(), payload, true))
        })
        .map_err(|e| miette!(code = "unreadable-input", "{}: {e}", path.display()))?;
        chains.push(Chain {
            file: path.display().to_string(),
            kind: "audit-lines",
            intact: lines.cut_last_line.is_none(),
            genesis_ok: true,
            first_bad_entry: None,
            head: lines.head,
            length: 0,
            joined: 0,
            entries,
        });
    }
    Ok(chains)
}

/// A writer that counts the bytes written through it (the size the summary line says).
struct Counted<'a> {
    out: &'a mut dyn std::io::Write,
    bytes: u64,
}

impl std::io::Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

fn cannot_write(args: &ReportArgs, error: std::io::Error) -> miette::Report {
    miette!(
        code = "cannot-write-output",
        "cannot write {}: {error}",
        args.out.display()
    )
}

/// The exact frames of the sampled good rows, read again from their receipts with the one
/// receipt reader (the first reading kept only their digests). A receipt that changed since
/// is left without details.
fn read_sampled_frames(model: &mut model::Model) {
    let mut scratch = crate::receipt::Scratch::default();
    let server = model.trust.server.clone();
    for row in model.rows.iter_mut().filter(|r| r.wants_frame()) {
        let frame = crate::input::read_file_capped(Path::new(&row.file), MAX_INPUT_BYTES)
            .ok()
            .and_then(|bytes| crate::receipt::verify_bytes(&bytes, None, &mut scratch).ok())
            .and_then(|report| report.facts.object_a);
        if let Some(frame) = frame {
            row.attach_frame(&frame, server.as_deref());
        }
    }
}

/// A trusted approval key and where it was given.
type Anchor = (PublicKey, String);

/// The trusted approval keys: one `--pubkey`, or a trusted-approvers list (read by the same
/// parser as `verify approval` and `audit`).
struct ApprovalKeys {
    anchors: Vec<Anchor>,
    list: Option<Approvers>,
    /// The files they were read from (not standard input), looked for in the evidence.
    files: Vec<std::path::PathBuf>,
}

/// The trusted approval keys and, for a key file, its input record.
fn approval_keys(args: &ReportArgs) -> miette::Result<(ApprovalKeys, Vec<Input>)> {
    let mut keys = ApprovalKeys {
        anchors: Vec::new(),
        list: None,
        files: Vec::new(),
    };
    let mut inputs = Vec::new();
    if let Some(value) = &args.pubkey {
        let given =
            crate::keys::public_key_arg("--pubkey", value).map_err(super::diagnostic::report)?;
        let source = match &given.file {
            Some(path) => {
                keys.files.push(path.clone());
                format!("--pubkey {}", path.display())
            }
            None => "--pubkey".to_owned(),
        };
        let key = crate::keys::printable(given).map_err(super::diagnostic::report)?;
        keys.anchors.push((key, source));
    }
    if let Some(path) = &args.trusted_approvers {
        let bytes = read_input(path, "trusted-approvers", None, &mut inputs)?;
        let list = Approvers::parse_bytes(&bytes, path).map_err(super::diagnostic::report)?;
        keys.files
            .extend(crate::input::named_file(path).map(Path::to_path_buf));
        for entry in &list.entries {
            let source = format!("{} line {}: {}", path.display(), entry.line, entry.name);
            keys.anchors.push((entry.key.clone(), source));
        }
        keys.list = Some(list);
    }
    Ok((keys, inputs))
}

/// Reads an input file whole (one of `kind`, when it has one: binary data is no token file)
/// and records its size and SHA-256.
fn read_input(
    path: &Path,
    role: &'static str,
    kind: Option<Kind>,
    inputs: &mut Vec<Input>,
) -> miette::Result<Vec<u8>> {
    let source = crate::input::Input::new(path);
    let bytes = match kind {
        Some(kind) => source.read_whole(kind, MAX_INPUT_BYTES),
        None => source
            .read_capped(MAX_INPUT_BYTES)
            .map_err(|e| InputError::Unreadable(Unreadable::new(&source, e))),
    }
    .map_err(|e| super::diagnostic::report_at(format!("--{role}"), e.coded("unreadable-input")))?;
    inputs.push(Input {
        role,
        path: path.display().to_string(),
        bytes: bytes.len() as u64,
        sha256: Some(sha256_hex(&bytes)),
    });
    Ok(bytes)
}

/// Every non-blank token line judged by seal-host's pipeline: under the trusted-approvers
/// list as `verify approval --trusted-approvers` judges it (naming the approver), or under
/// the one `--pubkey`.
fn check_tokens(
    path: &Path,
    bytes: &[u8],
    keys: &ApprovalKeys,
    ttl_seconds: u64,
) -> Vec<TokenEvidence> {
    let expected = Expectations {
        ttl_ms: crate::approval::effective_ttl_ms(ttl_seconds),
        ..Expectations::default()
    };
    let mut checkers: Vec<Checker<'_>> = match &keys.list {
        Some(list) => list
            .entries
            .first()
            .map(|first| Checker::new(&first.key, expected.clone()).with_approvers(list))
            .into_iter()
            .collect(),
        None => keys
            .anchors
            .iter()
            .map(|(key, _)| Checker::new(key, expected.clone()))
            .collect(),
    };
    let mut lines = LineReader::new(std::io::Cursor::new(bytes));
    let mut batch = Batch::default();
    let mut out = Vec::new();
    let file = path.display().to_string();
    loop {
        // Reading from memory cannot fail.
        if lines.next_batch(&mut batch, BATCH_LINES).is_err() || batch.lines.is_empty() {
            break;
        }
        let per_key: Vec<Vec<LineReport>> =
            checkers.iter_mut().map(|c| c.check_batch(&batch)).collect();
        let count = per_key.first().map_or(0, Vec::len);
        for i in 0..count {
            let chosen = per_key
                .iter()
                .map(|reports| &reports[i])
                .find(|r| r.status == TokenStatus::Accepted)
                .or_else(|| per_key.first().map(|reports| &reports[i]));
            if let Some(report) = chosen {
                out.push(TokenEvidence {
                    file: file.clone(),
                    report: report.clone(),
                });
            }
        }
    }
    out
}
