//! `sealkit keygen`: a new Ed25519 approval key pair. The secret key is encrypted with a
//! passphrase asked twice on the terminal (or read from `--passphrase-file`), or written in
//! seal-host's bare-hex format with `--unencrypted`. Prints where the files are, the public
//! key (seal-host's `--approval-pubkey`) and its key id; never the secret.

use super::diagnostic::report;
use super::passphrase;
use super::{Global, Out};
use crate::cli::{Format, KeygenArgs};
use crate::inert::escape;
use crate::keys::{self, Protection};
use crate::outcome::Outcome;
use miette::IntoDiagnostic;
use serde::Serialize;

#[derive(Serialize)]
struct Generated {
    #[serde(flatten, serialize_with = "crate::path_json::secret_key_file")]
    secret_key_file: std::path::PathBuf,
    #[serde(flatten, serialize_with = "crate::path_json::public_key_file")]
    public_key_file: std::path::PathBuf,
    public_key: String,
    key_id: String,
    encrypted: bool,
}

pub fn run(args: KeygenArgs, global: &Global) -> miette::Result<Outcome> {
    // Refuse an existing key before asking for a passphrase twice.
    keys::store::check_new(&args.out_dir, &args.name).map_err(report)?;
    let protection = if args.unencrypted {
        Protection::Plain
    } else {
        let what = args.out_dir.join(format!("{}.key", args.name));
        Protection::Passphrase(
            passphrase::new(args.passphrase_file.as_deref(), &what.display().to_string())
                .map_err(report)?,
        )
    };
    let made = keys::generate(&args.out_dir, &args.name, protection).map_err(report)?;
    let report = Generated {
        secret_key_file: made.secret_path.clone(),
        public_key_file: made.public_path.clone(),
        public_key: made.public_hex,
        key_id: made.key_id,
        encrypted: made.encrypted,
    };
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => out.json_line("keygen", &report).into_diagnostic()?,
        Format::Human => {
            let protection = if report.encrypted {
                "encrypted with your passphrase, mode 0600"
            } else {
                "UNENCRYPTED, mode 0600; keep it private"
            };
            let secret_file = escape(&report.secret_key_file.display().to_string()).into_owned();
            out.human(&format!(
                "secret key file  {secret_file} ({protection})\n\
                 public key file  {}\n\
                 public key       {}\n\
                 key id           {}\n\
                 give the host --approval-pubkey {}; sign with sealkit approve --key-file \
                 {secret_file}\n",
                escape(&report.public_key_file.display().to_string()),
                report.public_key,
                report.key_id,
                report.public_key,
            ))
            .into_diagnostic()?;
        }
    }
    out.flush().into_diagnostic()?;
    Ok(Outcome::Good)
}
