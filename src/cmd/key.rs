//! `sealkit key show FILE` says what a key file is (kind, public key, key id) without ever
//! printing a secret, and without a passphrase for an encrypted key that states its public key;
//! `sealkit key protect FILE` encrypts a plain secret key file in place (refusing a symbolic
//! link or a file with other hard links, whose plain copies would survive).
//!
//! Exit: 0 done; 2 the file could not be read, decrypted or written.

use super::diagnostic::report;
use super::passphrase;
use super::{Global, Out};
use crate::cli::{Format, KeyArgs, KeyCommand, KeyProtectArgs, KeyShowArgs};
use crate::keys::file::{inspect, Content, Kind};
use crate::keys::{encrypted, store, KeyError, PublicKey, SecretKey};
use crate::outcome::Outcome;
use miette::IntoDiagnostic;
use serde::Serialize;

pub fn run(args: KeyArgs, global: &Global) -> miette::Result<Outcome> {
    match args.what {
        KeyCommand::Show(args) => show(args, global),
        KeyCommand::Protect(args) => protect(args, global),
    }
}

#[derive(Serialize)]
struct Shown {
    kind: &'static str,
    /// 64 hex, or `null` for a file not recognisably a public key (only its key id is shown).
    public_key: Option<String>,
    key_id: String,
    /// The key's OpenSSH fingerprint (`SHA256:…`, as `ssh-add -l` and `ssh-keygen -l` print
    /// it), when its public key is shown.
    ssh_fingerprint: Option<String>,
    /// An OpenSSH public key line's comment (`alice@laptop`).
    ssh_comment: Option<String>,
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    file: std::path::PathBuf,
}

fn show(args: KeyShowArgs, global: &Global) -> miette::Result<Outcome> {
    let content = inspect(&args.file).map_err(report)?;
    let kind = content.kind();
    let ssh_comment = match &content {
        Content::SshPublic { comment, .. } if !comment.is_empty() => Some(comment.clone()),
        _ => None,
    };
    let (public, shown) = public_of(&args, content).map_err(report)?;
    let record = Shown {
        kind: kind.as_str(),
        public_key: shown.then(|| public.hex.clone()),
        key_id: public.key_id.clone(),
        ssh_fingerprint: shown.then(|| crate::keys::openssh::fingerprint(&public)),
        ssh_comment,
        file: args.file.clone(),
    };
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => out.json_line("key", &record).into_diagnostic()?,
        Format::Human => {
            let file = crate::inert::escape(&record.file.display().to_string()).into_owned();
            let mut text = format!("file        {file}\nkind        {}\n", record.kind);
            match &record.public_key {
                Some(hex) => text.push_str(&format!("public key  {hex}\n")),
                None => text.push_str(
                    "public key  (not shown: the file is not recognisably a public key; make \
                     it readable by others if it is one)\n",
                ),
            }
            text.push_str(&format!("key id      {}\n", record.key_id));
            if let Some(fingerprint) = &record.ssh_fingerprint {
                let comment = record.ssh_comment.as_deref().unwrap_or("");
                let line = format!("{fingerprint} {comment}");
                let line = crate::inert::escape(line.trim_end());
                text.push_str(&format!("ssh key     {line}\n"));
            }
            if kind == Kind::SecretEncrypted {
                text.push_str(
                    "note        the public key is the one the file states beside the encrypted \
                     seed; unlocking the key checks that it is the seed's\n",
                );
            }
            if kind == Kind::SecretPlain {
                text.push_str(&format!(
                    "note        the secret key is not encrypted; `sealkit key protect {file}` \
                     encrypts it\n"
                ));
            }
            out.human(&text).into_diagnostic()?;
        }
    }
    out.flush().into_diagnostic()?;
    Ok(Outcome::Good)
}

/// The public key of any key file, and whether it may be printed in full.
fn public_of(args: &KeyShowArgs, content: Content) -> Result<(PublicKey, bool), KeyError> {
    match content {
        Content::Encrypted(bytes) => {
            // The public key stated in the clear beside the seed: no passphrase needed (files
            // written before that line existed are unlocked to show it).
            if let Some(key) = encrypted::stated_public(&args.file, &bytes)? {
                return Ok((key, true));
            }
            let passphrase = passphrase::existing(args.passphrase_file.as_deref(), &args.file)?;
            let key = encrypted::decrypt(&args.file, &bytes, passphrase)?;
            Ok((key.public.clone(), true))
        }
        Content::PlainSeed { seed, .. } => Ok((SecretKey::from_seed(&seed).public.clone(), true)),
        Content::Public { key, recognisable } => Ok((key, recognisable)),
        Content::SshPublic { key, .. } => Ok((key, true)),
        Content::OtherSecret => Err(KeyError::SshFormat {
            what: args.file.display().to_string(),
            message: "this is a private key in a format sealkit does not sign with; show its \
                      .pub file instead"
                .to_owned(),
        }),
    }
}

#[derive(Serialize)]
struct Protected {
    status: &'static str,
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    file: std::path::PathBuf,
    key_id: String,
}

fn protect(args: KeyProtectArgs, global: &Global) -> miette::Result<Outcome> {
    // Check the file before asking for a passphrase, so a wrong file wastes no typing.
    store::check_sole_copy(&args.file).map_err(report)?;
    match inspect(&args.file).map_err(report)? {
        Content::PlainSeed { raw: false, .. } => {}
        Content::Encrypted(_) => {
            return Err(report(KeyError::AlreadyEncrypted {
                path: args.file.clone(),
            }))
        }
        _ => {
            return Err(report(KeyError::NotSecret {
                path: args.file.clone(),
            }))
        }
    }
    let passphrase = passphrase::new(
        args.passphrase_file.as_deref(),
        &args.file.display().to_string(),
    )
    .map_err(report)?;
    let public = store::protect(&args.file, passphrase).map_err(report)?;
    let record = Protected {
        status: "encrypted",
        file: args.file.clone(),
        key_id: public.key_id,
    };
    let mut out = Out::new();
    match global.format {
        Format::Json | Format::Jsonl => {
            out.json_line("key-protected", &record).into_diagnostic()?
        }
        Format::Human => out
            .human(&format!(
                "encrypted {} in place with your passphrase (key id {})\n",
                crate::inert::escape(&record.file.display().to_string()),
                record.key_id
            ))
            .into_diagnostic()?,
    }
    out.flush().into_diagnostic()?;
    Ok(Outcome::Good)
}
