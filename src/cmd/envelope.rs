//! `sealkit envelope`: the V2.3 `seal.effect/v2` signed message for one frame, its
//! SHA-256, the offline gate findings, and optionally an Ed25519 check over it (see
//! docs/v2-and-envelopes.md). The frame first goes through the validation
//! pipeline `target` uses; a frame it refuses gets the same refusal record and no message.
//! Output shapes are documented in README.md.

use super::{Global, Out};
use crate::cli::{EffectArg, EnvelopeArgs, Format};
use crate::digest::{hex_decode, hex_lower, sha256_hex};
use crate::envelope::{
    findings, hex32, signed_message, single_frame_line, verify_signature, EffectChoice,
    EffectClaim, Envelope, Finding, Params, Severity, SignatureCheck,
};
use crate::inert::escape;
use crate::input::{stdin_once, Input, Kind, MAX_SMALL_INPUT_BYTES};
use crate::outcome::Outcome;
use crate::refusal::{Refusal, RefusalRecord};
use crate::request::{self, Options, Session};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Table};
use miette::{miette, IntoDiagnostic};
use serde::Serialize;
use std::path::Path;

pub fn run(args: EnvelopeArgs, global: &Global) -> miette::Result<Outcome> {
    let frame_input = Input::or_stdin(args.frame.as_deref());
    let frame_path = args.frame.as_deref().unwrap_or(Path::new("-"));
    let inputs = [
        ("FRAME", Some(frame_path)),
        ("--params", args.params.as_deref()),
    ];
    stdin_once(
        inputs
            .into_iter()
            .filter_map(|(name, path)| Some((name, path?))),
    )
    .map_err(super::diagnostic::report)?;
    let frame = frame_input
        .read_whole(Kind::JudgedLine, MAX_SMALL_INPUT_BYTES)
        .map_err(|e| super::diagnostic::report_at("FRAME", e))?;
    if single_frame_line(&frame).is_none() {
        return Err(miette!(code = "envelope-multiple-frames", "envelope-multiple-frames: the input holds more than one LF-terminated frame; give exactly one"));
    }
    // The one validation pipeline `target` uses: a frame it refuses gets no message, with
    // the same code, JSON-RPC code and offset. Other JSON-RPC messages (not tool calls) go
    // on: an envelope may declare its effect absent for them. The envelope library takes
    // only what the pipeline accepted.
    let options = Options {
        server: String::new(),
        era: super::target::era_mode(args.era),
    };
    let accepted = match request::accept(&frame, &options, &mut Session::default()) {
        Ok(accepted) => accepted,
        Err(refusal) => return refused(&frame, &refusal, global),
    };
    let line = accepted.line();
    let mut params = match &args.params {
        Some(path) => {
            let input = Input::new(path);
            let bytes = input
                .read_whole(Kind::Parameters, MAX_SMALL_INPUT_BYTES)
                .map_err(|e| super::diagnostic::report_at("--params", e))?;
            let text = String::from_utf8(bytes).map_err(|e| {
                let found = format!(
                    "not UTF-8 (invalid byte at offset {})",
                    e.utf8_error().valid_up_to()
                );
                super::diagnostic::report_at(
                    "--params",
                    crate::input::NotThisKind::new(&input, Kind::Parameters, found),
                )
            })?;
            Params::from_json(&text).map_err(|e| miette!(code = e.code, "{e} (in {input})"))?
        }
        None => Params::default(),
    };
    params = params.overlaid(flag_params(&args)?);
    let effect_source = match params.effect {
        Some(EffectChoice::Given(_)) => "given",
        Some(EffectChoice::Absent) => "absent",
        Some(EffectChoice::Derive) | None => "derived",
    };
    let (authority, envelope) = params
        .resolve(&accepted)
        .map_err(|e| miette!(code = e.code, "{e}"))?;
    let signature = match (&args.verify, &args.pubkey) {
        (Some(sig), Some(key)) => Some(signature_inputs(sig, key)?),
        _ => None,
    };

    let message = signed_message(&authority, &envelope, &accepted);
    let found = findings(&envelope, &accepted);
    let check = signature
        .as_ref()
        .map(|(sig, key)| (verify_signature(&message, sig, key), *key));
    let report = Report::new(
        &authority,
        &envelope,
        line,
        effect_source,
        &message,
        check,
        found,
    );

    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => out.json_line("envelope", &report).into_diagnostic()?,
        Format::Human => out.human(&human(&report)).into_diagnostic()?,
    }
    out.flush().into_diagnostic()?;
    Ok(report.outcome(global.deny_warnings))
}

/// A refused frame: the refusal record (JSON) or the diagnostic `target` shows (human).
fn refused(frame: &[u8], refusal: &Refusal, global: &Global) -> miette::Result<Outcome> {
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => out
            // Like `target`, no exact-frame evidence for a frame over seal-host's limit.
            .json_line(
                "refusal",
                &RefusalRecord::new(
                    refusal,
                    (frame.len() <= crate::frame::MAX_FRAME_BYTES).then_some(frame),
                ),
            )
            .into_diagnostic()?,
        Format::Human => {
            let frame_view = crate::frame::Frame {
                line: 1,
                offset: 0,
                bytes: frame,
                length: frame.len() as u64,
            };
            let diagnostic =
                super::target::render_diagnostic("frame", &frame_view, refusal, global.color);
            out.human(&format!(
                "{diagnostic}\nno seal.effect/v2 message: sealkit refuses this frame ({}, JSON-RPC {}, byte offset {})\n",
                refusal.code.as_str(),
                refusal.jsonrpc_code(),
                refusal.span.start
            ))
            .into_diagnostic()?
        }
    }
    out.flush().into_diagnostic()?;
    Ok(Outcome::Problems)
}

fn flag_params(args: &EnvelopeArgs) -> miette::Result<Params> {
    let hex = |what: &str, text: &Option<String>| -> miette::Result<Option<[u8; 32]>> {
        text.as_deref()
            .map(|t| hex32(what, t).map_err(|e| miette!(code = e.code, "{e}")))
            .transpose()
    };
    Ok(Params {
        authority: hex("--authority", &args.authority)?,
        key_id: args.key_id.clone(),
        nonce: hex("--nonce", &args.nonce)?,
        issued_at: args.issued_at,
        expires_at: args.expires_at,
        adapter_type: args.adapter_type.clone(),
        adapter_version: args.adapter_version.clone(),
        session: args.session.clone(),
        policy_version: args.policy_version.clone(),
        effect: args.effect.map(|e| match e {
            EffectArg::Derive => EffectChoice::Derive,
            EffectArg::Absent => EffectChoice::Absent,
        }),
    })
}

fn signature_inputs(sig: &str, key: &str) -> miette::Result<([u8; 64], [u8; 32])> {
    let sig = hex_decode(sig)
        .and_then(|b| <[u8; 64]>::try_from(b).ok())
        .ok_or_else(|| {
            miette!(
                code = "signature-malformed",
                "signature-malformed: --verify takes 128 hex digits (64 bytes)"
            )
        })?;
    // The key itself (64 hex digits, or an OpenSSH `ssh-ed25519` line read as its 64 hex
    // digits) or a file holding it.
    let key = crate::keys::public_key_option("--pubkey", key).map_err(|e| {
        miette!(
            code = "public-key-malformed",
            "public-key-malformed: --pubkey: {e}"
        )
    })?;
    let key = hex_decode(&key)
        .and_then(|b| <[u8; 32]>::try_from(b).ok())
        .ok_or_else(|| miette!("public-key-malformed: --pubkey takes 64 hex digits (32 bytes)"))?;
    Ok((sig, key))
}

/// The JSON document (one object) `--format json|jsonl` prints.
#[derive(Serialize)]
struct Report<'a> {
    status: &'static str,
    message: MessageFacts,
    reported: Reported<'a>,
    signature: Option<SignatureFacts>,
    findings: Vec<Finding>,
}

#[derive(Serialize)]
struct MessageFacts {
    hex: String,
    sha256: String,
    length: usize,
}

/// The envelope fields as given or derived: not verified by anything.
#[derive(Serialize)]
struct Reported<'a> {
    authority: String,
    key_id: &'a str,
    nonce: String,
    issued_at: u64,
    expires_at: u64,
    line: &'a str,
    line_sha256: String,
    adapter: Adapter<'a>,
    session: &'a str,
    policy_version: &'a str,
    effect: Option<EffectReport<'a>>,
}

#[derive(Serialize)]
struct Adapter<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    version: &'a str,
}

#[derive(Serialize)]
struct EffectReport<'a> {
    source: &'static str,
    #[serde(flatten)]
    claim: &'a EffectClaim,
}

#[derive(Serialize)]
struct SignatureFacts {
    verified: bool,
    code: Option<&'static str>,
    public_key: String,
}

impl<'a> Report<'a> {
    fn new(
        authority: &[u8; 32],
        envelope: &'a Envelope,
        line: &'a str,
        effect_source: &'static str,
        message: &[u8],
        check: Option<(SignatureCheck, [u8; 32])>,
        findings: Vec<Finding>,
    ) -> Report<'a> {
        let status = match check {
            None => "built",
            Some((SignatureCheck::Verified, _)) => "verified",
            Some(_) => "signature-invalid",
        };
        Report {
            status,
            message: MessageFacts {
                hex: hex_lower(message),
                sha256: sha256_hex(message),
                length: message.len(),
            },
            reported: Reported {
                authority: hex_lower(authority),
                key_id: &envelope.key_id,
                nonce: hex_lower(&envelope.nonce),
                issued_at: envelope.issued_at,
                expires_at: envelope.expires_at,
                line,
                line_sha256: sha256_hex(line.as_bytes()),
                adapter: Adapter {
                    kind: &envelope.adapter_type,
                    version: &envelope.adapter_version,
                },
                session: &envelope.session,
                policy_version: &envelope.policy_version,
                effect: envelope.effect.as_ref().map(|claim| EffectReport {
                    source: effect_source,
                    claim,
                }),
            },
            signature: check.map(|(result, key)| SignatureFacts {
                verified: result == SignatureCheck::Verified,
                code: result.code(),
                public_key: hex_lower(&key),
            }),
            findings,
        }
    }

    fn outcome(&self, deny_warnings: bool) -> Outcome {
        let signature_bad = self.signature.as_ref().is_some_and(|s| !s.verified);
        let finding_bad = self.findings.iter().any(|f| {
            f.severity == Severity::Error || (deny_warnings && f.severity == Severity::Warning)
        });
        if signature_bad || finding_bad {
            Outcome::Problems
        } else {
            Outcome::Good
        }
    }
}

fn human(report: &Report<'_>) -> String {
    let r = &report.reported;
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(["field (reported, as given or derived)", "value"]);
    let rows: Vec<(&str, String)> = vec![
        ("authority", escape(&r.authority).into_owned()),
        ("key_id", quoted(r.key_id)),
        ("nonce", escape(&r.nonce).into_owned()),
        ("issued_at", r.issued_at.to_string()),
        ("expires_at", r.expires_at.to_string()),
        (
            "line",
            format!("{} bytes, sha256 {}", r.line.len(), r.line_sha256),
        ),
        (
            "adapter",
            format!("{} {}", quoted(r.adapter.kind), quoted(r.adapter.version)),
        ),
        ("session", quoted(r.session)),
        ("policy_version", quoted(r.policy_version)),
    ];
    for (field, value) in rows {
        table.add_row([field.to_owned(), value]);
    }
    match &r.effect {
        None => {
            table.add_row(["effect".to_owned(), "declared absent".to_owned()]);
        }
        Some(effect) => {
            let c = effect.claim;
            let optional = |v: &Option<String>| v.as_deref().map_or("absent".to_owned(), quoted);
            table.add_row(["effect".to_owned(), format!("present ({})", effect.source)]);
            table.add_row(["  resource".to_owned(), quoted(&c.resource)]);
            table.add_row(["  action".to_owned(), quoted(&c.action)]);
            table.add_row(["  args".to_owned(), quoted(&c.args)]);
            table.add_row(["  metadata".to_owned(), optional(&c.metadata)]);
            table.add_row(["  requestState".to_owned(), optional(&c.request_state)]);
            table.add_row(["  inputResponses".to_owned(), optional(&c.input_responses)]);
        }
    }
    let m = &report.message;
    let mut text = format!(
        "{}\nseal.effect/v2 message: {} bytes, sha256 {}\n{}\n",
        super::layout::table(&table),
        m.length,
        m.sha256,
        m.hex
    );
    text.push_str(&match &report.signature {
        None => "signature: not checked (give --verify SIG --pubkey HEX)\n".to_owned(),
        Some(s) if s.verified => format!(
            "signature: verified (Ed25519 over the message, key {})\n",
            escape(&s.public_key)
        ),
        Some(s) => format!(
            "signature: NOT verified: {} (key {})\n",
            s.code.unwrap_or("signature-mismatch"),
            escape(&s.public_key)
        ),
    });
    if report.findings.is_empty() {
        text.push_str("findings: none\n");
    } else {
        let mut findings = Table::new();
        findings.load_preset(UTF8_FULL_CONDENSED);
        findings.set_header(["finding", "severity", "why"]);
        for f in &report.findings {
            let severity = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            findings.add_row([f.code, severity, &escape(&f.message)]);
        }
        text.push_str(&format!("{}\n", super::layout::table(&findings)));
    }
    text
}

/// A reported string in double quotes (inner quotes and backslashes backslashed, as Rust's
/// `{:?}` writes them), its unsafe characters escaped for the terminal.
fn quoted(text: &str) -> String {
    let quoted = text.replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{}\"", escape(&quoted))
}
