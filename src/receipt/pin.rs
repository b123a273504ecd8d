//! The receipt key a user pins with `--receipt-key HEX|FILE` (docs/receipts.md: the key inside a
//! receipt is reported, never trusted). FILE is either seal-host's raw 32-byte seed
//! (`.seal-receipt-ed25519.key`) or a public key file of 64 hex digits (optional LF).

use crate::digest::hex_lower;
use crate::error_code::Coded as _;
use crate::keys::file::{inspect, Content};
use crate::keys::KeyError;
use crate::signature::{parse_key_hex, public_key_of_seed};
use std::path::{Path, PathBuf};

/// Where the pinned public key came from; reported beside every signature result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinSource {
    /// 64 hex digits on the command line.
    Hex,
    /// Derived from a raw 32-byte seed file.
    SeedFile(PathBuf),
    /// Read from a file holding the public key as 64 hex digits.
    PublicKeyFile(PathBuf),
}

impl PinSource {
    /// Stable name for JSON output.
    pub fn kind(&self) -> &'static str {
        match self {
            PinSource::Hex => "hex-argument",
            PinSource::SeedFile(_) => "seed-file",
            PinSource::PublicKeyFile(_) => "public-key-file",
        }
    }

    /// Words for people.
    pub fn describe(&self) -> String {
        match self {
            PinSource::Hex => "given as hex".to_owned(),
            PinSource::SeedFile(p) => format!("derived from the 32-byte seed in {}", p.display()),
            PinSource::PublicKeyFile(p) => format!("public key read from {}", p.display()),
        }
    }
}

/// A pinned receipt public key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pin {
    pub public_key: [u8; 32],
    pub source: PinSource,
}

impl Pin {
    pub fn public_key_hex(&self) -> String {
        hex_lower(&self.public_key)
    }
}

/// Why `--receipt-key` gives no key (code `bad-receipt-key`): the message says which form
/// of the value was tried; the key error underneath, when there is one, is kept as the cause.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct PinError {
    message: String,
    #[source]
    key: Option<KeyError>,
    /// What to do about it (shown as `help`, not inside the message).
    help: Option<String>,
}

/// The forms `--receipt-key` takes, as the fix for a value that is none of them.
const RECEIPT_KEY_FORMS: &str = "give the installation's receipt key as 64 hex digits, an \
    `ssh-ed25519` line, seal-host's raw .seal-receipt-ed25519.key seed file or a public key file";

impl crate::error_code::Coded for PinError {
    fn code(&self) -> &'static str {
        "bad-receipt-key"
    }

    fn help(&self) -> Option<String> {
        self.help.clone()
    }
}

/// Reads `--receipt-key`: 64 hex digits (or an `ssh-ed25519` key), else a file path. A file
/// is classified before use: seal-host's raw 32-byte receipt seed gives its public key; a
/// public key file (64 hex, or an OpenSSH line) is read; any other secret key file (sealkit's
/// own, encrypted or plain) is refused without echoing it.
pub fn load(arg: &str) -> Result<Pin, PinError> {
    if let Some(public_key) = parse_key_hex(arg) {
        return Ok(Pin {
            public_key,
            source: PinSource::Hex,
        });
    }
    if crate::keys::openssh::looks_like_ssh(arg) {
        let key = crate::keys::PublicKey::from_text(arg).map_err(|e| PinError {
            message: format!("--receipt-key: {e}"),
            key: Some(e),
            help: Some(RECEIPT_KEY_FORMS.to_owned()),
        })?;
        return Ok(Pin {
            public_key: key.verifying.to_bytes(),
            source: PinSource::Hex,
        });
    }
    let path = Path::new(arg);
    let content = inspect(path).map_err(|e| PinError {
        message: match e {
            KeyError::NotFromStdin => format!("--receipt-key {arg}: {e}"),
            KeyError::Io { .. } => format!(
                "--receipt-key {arg}: not 64 lowercase hex digits, and the file cannot be read: {e}"
            ),
            _ => format!(
                "--receipt-key {arg}: the file is neither a raw 32-byte seed nor a public key ({e})"
            ),
        },
        help: Some(RECEIPT_KEY_FORMS.to_owned()),
        key: Some(e),
    })?;
    let refuse = |why: &'static str| {
        let error = KeyError::SecretGivenAsPublic {
            path: path.to_path_buf(),
            why,
        };
        PinError {
            message: format!("--receipt-key: {error}"),
            help: error.help(),
            key: None,
        }
    };
    match content {
        Content::PlainSeed {
            seed, raw: true, ..
        } => Ok(Pin {
            public_key: public_key_of_seed(&seed),
            source: PinSource::SeedFile(path.to_path_buf()),
        }),
        Content::PlainSeed { why, .. } => Err(refuse(why)),
        Content::Encrypted(_) => Err(refuse("encrypted with a passphrase")),
        Content::OtherSecret => Err(refuse("a private key")),
        Content::Public { key, .. } | Content::SshPublic { key, .. } => Ok(Pin {
            public_key: key.verifying.to_bytes(),
            source: PinSource::PublicKeyFile(path.to_path_buf()),
        }),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn hex_seed_file_and_public_key_file_are_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        let seed = dir.path().join("seed");
        std::fs::write(&seed, [0x17; 32]).unwrap();
        let pub_file = dir.path().join("key.pub");
        std::fs::write(
            &pub_file,
            "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc\n",
        )
        .unwrap();
        let from_seed = load(seed.to_str().unwrap()).unwrap();
        let from_pub = load(pub_file.to_str().unwrap()).unwrap();
        let from_hex =
            load("31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc").unwrap();
        assert_eq!(from_seed.public_key, from_pub.public_key);
        assert_eq!(from_seed.public_key, from_hex.public_key);
        assert_eq!(from_seed.source.kind(), "seed-file");
        assert_eq!(from_pub.source.kind(), "public-key-file");
        assert_eq!(from_hex.source.kind(), "hex-argument");
        let junk = dir.path().join("junk");
        std::fs::write(&junk, "nope").unwrap();
        assert!(load(junk.to_str().unwrap()).is_err());
    }
}
