//! The key `sealkit approve` signs with: a secret key file (plain, or encrypted and decrypted
//! with the passphrase from the terminal or `--passphrase-file`), or a key held by the running
//! ssh-agent (`--ssh-agent`, picked with `--ssh-key PUBFILE` when it holds several). Its public
//! key is known before anything is shown (an encrypted file states it in the clear); an
//! encrypted key is unlocked only after the person said yes, so one who declines never types
//! the passphrase and the screen is read before the key is unlocked. With `--passphrase-file`
//! it is unlocked at once (nothing is typed, and a wrong file is found before the screen); so
//! is a file written before encrypted keys stated their public key, whose key id the screen
//! needs. A wrong passphrase typed at the terminal may be typed again, three tries in all;
//! nothing is signed or written until one decrypts the key.

use crate::cli::ApproveArgs;
use crate::cmd::diagnostic::report;
use crate::cmd::passphrase;
use crate::keys::file::{open_secret_key_file, LockedKey, OpenedSecret};
use crate::keys::{self, agent, KeyError, KeyLocation, PublicKey, Signer};

/// Tries at typing the passphrase at the terminal.
const TRIES: u32 = 3;

/// The key a run signs with, unlocked or not yet.
pub struct ApprovalKey {
    pub public: PublicKey,
    pub location: KeyLocation,
    /// An ssh-agent key's `SHA256:… comment`, as `ssh-add -l` shows it.
    pub fingerprint: Option<String>,
    state: State,
}

enum State {
    Unlocked(Box<dyn Signer>),
    Locked(Box<LockedKey>),
}

impl ApprovalKey {
    /// Finds the key the arguments name and checks it; unlocks it only where that asks
    /// nothing of the person (see the module's note).
    pub fn load(args: &ApproveArgs) -> miette::Result<Self> {
        if args.ssh_agent {
            let wanted = match &args.ssh_key {
                Some(path) => Some(keys::read_public_key_file(path).map_err(report)?.key),
                None => None,
            };
            let signer = agent::signer(wanted.as_ref()).map_err(report)?;
            let fingerprint = signer.key().fingerprint();
            return Ok(ApprovalKey {
                public: signer.public().clone(),
                location: KeyLocation::SshAgent,
                fingerprint: Some(fingerprint),
                state: State::Unlocked(Box::new(signer)),
            });
        }
        let key_path = keys::secret_key_path(args.key_file.as_deref()).map_err(report)?;
        match open_secret_key_file(&key_path).map_err(report)? {
            OpenedSecret::Plain(key) => Ok(ApprovalKey {
                public: key.public.clone(),
                location: KeyLocation::File(key_path),
                fingerprint: None,
                state: State::Unlocked(Box::new(key)),
            }),
            OpenedSecret::Encrypted(locked) => {
                let location = KeyLocation::EncryptedFile(key_path);
                match (&locked.stated, &args.passphrase_file) {
                    (Some(stated), None) => Ok(ApprovalKey {
                        public: stated.clone(),
                        location,
                        fingerprint: None,
                        state: State::Locked(Box::new(locked)),
                    }),
                    _ => {
                        let key = unlock(&locked, args)?;
                        Ok(ApprovalKey {
                            public: key.public.clone(),
                            location,
                            fingerprint: None,
                            state: State::Unlocked(Box::new(key)),
                        })
                    }
                }
            }
        }
    }

    /// Unlocks the key if it is still locked (asking for the passphrase), and returns it.
    pub fn unlock(&mut self, args: &ApproveArgs) -> miette::Result<&dyn Signer> {
        if let State::Locked(locked) = &self.state {
            let key = unlock(locked, args)?;
            self.state = State::Unlocked(Box::new(key));
        }
        match &self.state {
            State::Unlocked(signer) => Ok(signer.as_ref()),
            State::Locked(_) => Err(miette::miette!("the approval key is still locked")),
        }
    }
}

/// Decrypts the key: with the passphrase file, or asked at the terminal until it decrypts
/// (at most [`TRIES`] times).
fn unlock(locked: &LockedKey, args: &ApproveArgs) -> miette::Result<keys::SecretKey> {
    let path = locked.path();
    if let Some(file) = &args.passphrase_file {
        let passphrase = passphrase::from_file(file).map_err(report)?;
        return locked.unlock(passphrase).map_err(report);
    }
    let shown = crate::inert::escape(&path.display().to_string()).into_owned();
    let mut prompt = format!("Passphrase for {shown}: ");
    for tried in 1..=TRIES {
        let passphrase = passphrase::ask(&prompt).map_err(report)?;
        match locked.unlock(passphrase) {
            Err(KeyError::WrongPassphrase { .. }) if tried < TRIES => {
                prompt = format!(
                    "That passphrase does not decrypt {shown}; try again ({} of {TRIES}).\n\
                     Passphrase for {shown}: ",
                    tried + 1
                );
            }
            result => return result.map_err(report),
        }
    }
    Err(report(KeyError::WrongPassphrase {
        path: path.to_path_buf(),
    }))
}
