//! The key `sealkit approve` signs with: a secret key file (plain, or encrypted and decrypted
//! with the passphrase from the terminal or `--passphrase-file`), or a key held by the running
//! ssh-agent (`--ssh-agent`, picked with `--ssh-key PUBFILE` when it holds several). Loaded
//! before anything is shown or written, so a wrong passphrase or a missing key writes nothing.

use crate::cmd::diagnostic::report;
use crate::cmd::passphrase;
use crate::cli::ApproveArgs;
use crate::keys::{self, agent, KeyLocation, Signer};

/// Loads the signer the arguments name, and where its key lives.
pub fn load(args: &ApproveArgs) -> miette::Result<(Box<dyn Signer>, KeyLocation)> {
    if args.ssh_agent {
        let wanted = match &args.ssh_key {
            Some(path) => Some(keys::read_public_key_file(path).map_err(report)?.key),
            None => None,
        };
        let signer = agent::signer(wanted.as_ref()).map_err(report)?;
        return Ok((Box::new(signer), KeyLocation::SshAgent));
    }
    let key_path = keys::secret_key_path(args.key_file.as_deref()).map_err(report)?;
    let passphrase_file = args.passphrase_file.as_deref();
    let (key, location) = keys::read_secret_key_file(&key_path, &mut || {
        passphrase::existing(passphrase_file, &key_path)
    })
    .map_err(report)?;
    Ok((Box::new(key), location))
}
