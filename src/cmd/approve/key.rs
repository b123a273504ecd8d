//! The key `sealkit approve` signs with: a secret key file (plain, or encrypted and decrypted
//! with the passphrase from the terminal or `--passphrase-file`), or a key held by the running
//! ssh-agent (`--ssh-agent`, picked with `--ssh-key PUBFILE` when it holds several). Loaded
//! before anything is shown or written, so a wrong passphrase or a missing key writes nothing.

use crate::cli::ApproveArgs;
use crate::cmd::diagnostic::report;
use crate::cmd::passphrase;
use crate::keys::{self, agent, KeyLocation, Signer};

/// The signer, where its key lives, and for an ssh-agent key its `SHA256:… comment` as
/// `ssh-add -l` shows it.
type Loaded = (Box<dyn Signer>, KeyLocation, Option<String>);

/// Loads the signer the arguments name.
pub fn load(args: &ApproveArgs) -> miette::Result<Loaded> {
    if args.ssh_agent {
        let wanted = match &args.ssh_key {
            Some(path) => Some(keys::read_public_key_file(path).map_err(report)?.key),
            None => None,
        };
        let signer = agent::signer(wanted.as_ref()).map_err(report)?;
        let fingerprint = signer.key().fingerprint();
        return Ok((Box::new(signer), KeyLocation::SshAgent, Some(fingerprint)));
    }
    let key_path = keys::secret_key_path(args.key_file.as_deref()).map_err(report)?;
    let passphrase_file = args.passphrase_file.as_deref();
    let (key, location) = keys::read_secret_key_file(&key_path, &mut || {
        passphrase::existing(passphrase_file, &key_path)
    })
    .map_err(report)?;
    Ok((Box::new(key), location, None))
}
