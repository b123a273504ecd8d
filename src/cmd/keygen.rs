//! `sealkit keygen`: a new Ed25519 approval key pair in seal-host's key file format
//! (issue 3; reference/seal-host-formats.md §1.6). Prints where the files are, the public key
//! (seal-host's `--approval-pubkey`) and its key id.

use super::{Global, Out};
use crate::cli::{Format, KeygenArgs};
use crate::inert::escape;
use crate::keys;
use crate::outcome::Outcome;
use miette::{miette, IntoDiagnostic};
use serde::Serialize;
use std::io::Write;

#[derive(Serialize)]
struct Generated {
    secret_key_file: String,
    public_key_file: String,
    public_key: String,
    key_id: String,
}

pub fn run(args: KeygenArgs, global: &Global) -> miette::Result<Outcome> {
    let made =
        keys::generate(&args.out_dir, &args.name).map_err(|e| miette!(code = e.code(), "{e}"))?;
    let report = Generated {
        secret_key_file: made.secret_path.display().to_string(),
        public_key_file: made.public_path.display().to_string(),
        public_key: made.public_hex,
        key_id: made.key_id,
    };
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => out.json_line(&report).into_diagnostic()?,
        Format::Human => {
            writeln!(
                out,
                "secret key file  {} (mode 0600; keep it private)",
                escape(&report.secret_key_file)
            )
            .into_diagnostic()?;
            writeln!(out, "public key file  {}", escape(&report.public_key_file))
                .into_diagnostic()?;
            writeln!(out, "public key       {}", report.public_key).into_diagnostic()?;
            writeln!(out, "key id           {}", report.key_id).into_diagnostic()?;
            writeln!(
                out,
                "give the host --approval-pubkey {}; sign with sealkit approve --key-file {}",
                report.public_key,
                escape(&report.secret_key_file)
            )
            .into_diagnostic()?;
        }
    }
    out.flush().into_diagnostic()?;
    Ok(Outcome::Good)
}
