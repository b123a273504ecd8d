//! `sealkit verify bundle FILE --issuer-pubkey K --request-pubkey K --approval-pubkey K` (each
//! K: 64 hex digits, an `ssh-ed25519` line, or a file holding either):
//! verify.mjs's six lines for people, [`crate::bundle::BundleReport`] for scripts. Exit 1 when
//! a statement does not verify or the decision is not reproduced; otherwise 2, because sealkit
//! cannot reproduce a decision (the kernel wasm is absent), so the bundle is never fully
//! checked.

use super::{Global, Out};
use crate::bundle::{self, BundleReport, Trust};
use crate::cli::{Format, VerifyBundleArgs};
use crate::inert::escape;
use crate::outcome::Outcome;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Debug, Serialize)]
struct BundleResult<'a> {
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    file: PathBuf,
    #[serde(flatten)]
    report: &'a BundleReport,
}

pub fn run(mut args: VerifyBundleArgs, global: &Global) -> miette::Result<Outcome> {
    // Each key is the key itself (64 hex digits, or an OpenSSH `ssh-ed25519` line read as its
    // 64 hex digits) or a file holding it.
    for (flag, key) in [
        ("--issuer-pubkey", &mut args.issuer_pubkey),
        ("--request-pubkey", &mut args.request_pubkey),
        ("--approval-pubkey", &mut args.approval_pubkey),
    ] {
        *key = crate::keys::public_key_option(flag, key)
            .map_err(|e| super::diagnostic::report(e).wrap_err(flag))?;
    }
    for (flag, key) in [
        ("--issuer-pubkey", &args.issuer_pubkey),
        ("--request-pubkey", &args.request_pubkey),
        ("--approval-pubkey", &args.approval_pubkey),
    ] {
        if crate::signature::parse_key_hex(key).is_none() {
            return Err(miette::miette!(
                code = "bad-public-key",
                "{flag} must be 64 lowercase hex digits"
            ));
        }
    }
    let bytes = crate::input::Input::new(&args.file)
        .read_whole(crate::input::Kind::Bundle, crate::audit::MAX_RECEIPT_BYTES)
        .map_err(super::diagnostic::report)?;
    let text = String::from_utf8_lossy(&bytes);
    if let Some(message) = bundle::duplicate_member(&text) {
        return super::refused_duplicate(&args.file, message, global);
    }
    let trust = Trust {
        issuer: &args.issuer_pubkey,
        request: &args.request_pubkey,
        approval: &args.approval_pubkey,
    };
    let report = bundle::evaluate(&text, &trust)
        .map_err(|e| miette::miette!(code = "unreadable-file", "{}: {e}", args.file.display()))?;
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => out.json_line(
            "bundle",
            &BundleResult {
                file: args.file.clone(),
                report: &report,
            },
        ),
        Format::Human => out.human(&human(&report)),
    }
    .and_then(|()| out.flush())
    .map_err(super::io_report)?;
    Ok(
        if !report.all_statements_verified() || report.decision.state == "not-reproduced" {
            Outcome::Problems
        } else {
            Outcome::Unchecked
        },
    )
}

fn human(report: &BundleReport) -> String {
    let mut text = String::new();
    for statement in &report.statements {
        text.push_str(&statement.line);
        if !statement.reason.is_empty() {
            text.push_str(&format!("  ({})", escape(&statement.reason)));
        }
        text.push('\n');
    }
    text.push_str(&format!("{}\n", escape(&report.decision.line)));
    text.push_str(&format!("{}\n{}\n", report.history, report.execution));
    text.push_str(&format!("note: {}\n", escape(&report.decision.detail)));
    text
}
