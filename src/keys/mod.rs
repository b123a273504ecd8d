//! Ed25519 approval keys: seal-host's on-disk key format (64 hex digits of the
//! 32 raw bytes, then LF), sealkit's passphrase-encrypted secret key files, OpenSSH public key
//! lines and ssh-agent signing (trusted-approvers lists are `crate::approvers`). A key id is the lowercase hex SHA-256
//! of the 32 public-key bytes. Guarantees: secret material (seeds, decrypted key text,
//! passphrases) lives only in memory that is wiped when dropped and never appears in an error
//! message or `Debug` output; secret keys are read only from files (named by a flag or by
//! `SEALKIT_APPROVAL_KEY_FILE`), never from an argument value; a secret key file that other
//! users can read is refused; a file given where a public key is expected is refused when it
//! is recognisably secret and its bytes are never echoed. Nothing here prints.

pub mod agent;
pub mod encrypted;
pub mod file;
pub mod openssh;
pub mod store;

pub use file::{
    public_key_arg, read_public_key_file, read_secret_key_file, GivenKey, TrustedKeyFile,
};
pub use store::{generate, GeneratedKey, Protection};

use crate::digest::{hex_decode, hex_lower, sha256_hex};
use crate::error_code::Coded;
use ed25519_dalek::{Signer as _, SigningKey, VerifyingKey};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use zeroize::Zeroizing;

/// Environment variable naming the secret approval key file when `--key-file` is not given.
pub const KEY_FILE_ENV: &str = "SEALKIT_APPROVAL_KEY_FILE";

/// Why a key could not be read, parsed, used or written. `code()` is the stable kebab-case
/// code. No variant carries secret material.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    /// Not 64 hex digits followed by an optional LF (or CRLF).
    #[error("{what} is not in seal-host's key format (64 hex digits of 32 bytes, then LF)")]
    Format { what: String },
    /// 32 bytes that are not a valid compressed Edwards point.
    #[error("the 32 bytes are not a valid Ed25519 public key")]
    InvalidPublicKey,
    /// The secret key file is readable or writable by users other than its owner.
    #[error(
        "{}: secret key file has mode {mode:04o}; other users can access it \
         (chmod 600 it first)",
        path.display()
    )]
    Permissions { path: PathBuf, mode: u32 },
    /// A key file that `keygen` would write already exists.
    #[error("{}: refusing to overwrite an existing key file", path.display())]
    Exists { path: PathBuf },
    /// A key name that is not a plain file name.
    #[error("key name {name:?} must be a plain file name of letters, digits, '.', '_' or '-'")]
    BadName { name: String },
    /// Neither `--key-file` nor `SEALKIT_APPROVAL_KEY_FILE` names a key file.
    #[error(
        "no secret key: pass --key-file FILE or set {} (keys are never \
         taken from an argument value)",
        KEY_FILE_ENV
    )]
    NoKeyFile,
    /// `-` given for a key file: keys are read only from files, whose mode is part of the
    /// check (a secret others can read is refused), and stdin has none.
    #[error("a key file is not read from standard input (\"-\")")]
    NotFromStdin,
    /// The operating system's random source failed.
    #[error("operating-system randomness failed: {0}")]
    Random(String),
    /// A file given where a public key belongs is a secret key (`why` says how we know).
    #[error(
        "{}: this is a secret key file ({why}), not a public key; it is not used and \
         its contents are not shown",
        path.display()
    )]
    SecretGivenAsPublic { path: PathBuf, why: &'static str },
    /// The passphrase does not decrypt the key file.
    #[error("{}: the passphrase does not decrypt this key file", path.display())]
    WrongPassphrase { path: PathBuf },
    /// An encrypted key file that cannot be decrypted for another reason.
    #[error("{}: cannot decrypt the key file: {message}", path.display())]
    Encrypted { path: PathBuf, message: String },
    /// No passphrase source: no terminal and no `--passphrase-file`.
    #[error("no terminal to ask for the passphrase on, and no --passphrase-file")]
    NoPassphrase,
    /// The passphrase was empty or its two entries differed.
    #[error("passphrase refused: {0}")]
    BadPassphrase(&'static str),
    /// `key protect` on a file that is already encrypted.
    #[error("{}: the key file is already encrypted with a passphrase", path.display())]
    AlreadyEncrypted { path: PathBuf },
    /// `key protect` on a file whose plain secret would survive elsewhere (a symbolic link, a
    /// file with several hard links).
    #[error("{}: not encrypted in place: {why}", path.display())]
    NotSoleCopy { path: PathBuf, why: String },
    /// A file that holds no secret key where one is needed.
    #[error(
        "{}: the file holds no plain secret key (64 hex digits of a seed)",
        path.display()
    )]
    NotSecret { path: PathBuf },
    /// An OpenSSH public key line that is not `ssh-ed25519 <base64> [comment]`.
    #[error("{what} is not an OpenSSH Ed25519 public key: {message}")]
    SshFormat { what: String, message: String },
    /// The ssh-agent could not be reached or did not sign.
    #[error("ssh-agent: {message}")]
    Agent { message: String },
    /// The ssh-agent holds no Ed25519 key, or not the one asked for.
    #[error("ssh-agent: {message}")]
    AgentNoKey { message: String },
    /// The ssh-agent holds several Ed25519 keys and `--ssh-key` does not pick one. Each key
    /// as `ssh-add -l` names it, with its key id: `SHA256:… comment (key id …)`.
    #[error(
        "ssh-agent holds {} Ed25519 keys; not choosing one: {}",
        keys.len(),
        keys.join("; ")
    )]
    AgentAmbiguous { keys: Vec<String> },
    /// A public key option's value that is no key (64 hex digits, an `ssh-ed25519` line) and
    /// names no file. The value itself is not kept: it may be a mistyped secret.
    #[error(
        "{option}: the value is neither a public key (64 hex digits, an `ssh-ed25519` \
         line) nor an existing file"
    )]
    NotKeyNorFile { option: String },
    /// A trusted-approvers file line that is not `NAME KEY [valid-after=T] [valid-before=T]`.
    #[error("{}:{line}: {message}", path.display())]
    Approvers {
        path: PathBuf,
        line: u64,
        message: String,
    },
}

impl Coded for KeyError {
    fn code(&self) -> &'static str {
        match self {
            KeyError::Io { .. } => "key-file-unreadable",
            KeyError::Format { .. } => "key-file-format",
            KeyError::InvalidPublicKey => "invalid-public-key",
            KeyError::Permissions { .. } => "key-file-permissions",
            KeyError::Exists { .. } => "key-file-exists",
            KeyError::BadName { .. } => "bad-key-name",
            KeyError::NoKeyFile => "no-key-file",
            KeyError::Random(_) => "no-randomness",
            KeyError::SecretGivenAsPublic { .. } => "secret-key-given-as-public",
            KeyError::WrongPassphrase { .. } => "wrong-passphrase",
            KeyError::Encrypted { .. } => "encrypted-key-unreadable",
            KeyError::NoPassphrase => "no-passphrase",
            KeyError::BadPassphrase(_) => "bad-passphrase",
            KeyError::AlreadyEncrypted { .. } => "key-already-encrypted",
            KeyError::NotSecret { .. } => "not-a-secret-key",
            KeyError::NotSoleCopy { .. } => "key-file-not-sole-copy",
            KeyError::SshFormat { .. } => "ssh-key-format",
            KeyError::Agent { .. } => "ssh-agent-failed",
            KeyError::AgentNoKey { .. } => "ssh-agent-no-key",
            KeyError::AgentAmbiguous { .. } => "ssh-agent-ambiguous",
            KeyError::Approvers { .. } => "trusted-approvers-format",
            KeyError::NotKeyNorFile { .. } => "public-key-not-found",
            KeyError::NotFromStdin => "key-not-from-stdin",
        }
    }

    fn help(&self) -> Option<String> {
        match self {
            KeyError::NotFromStdin => Some(
                "give the key file's path (its mode is checked), or a public key as 64 hex \
                 digits or an `ssh-ed25519 AAAA…` line where the option takes one"
                    .to_owned(),
            ),
            KeyError::SecretGivenAsPublic { .. } => Some(
                "give the public key instead: the .pub file written beside it, 64 hex digits, \
                 or an `ssh-ed25519 AAAA…` line; `sealkit key show FILE` prints a secret key \
                 file's public key"
                    .to_owned(),
            ),
            KeyError::NoPassphrase => Some(
                "run it at a terminal to be asked for the passphrase, or pass \
                 --passphrase-file FILE (its first line is the passphrase); keygen also takes \
                 --unencrypted"
                    .to_owned(),
            ),
            KeyError::WrongPassphrase { .. } => {
                Some("nothing was signed or written; try again with the right passphrase".into())
            }
            KeyError::AgentNoKey { .. } => Some(
                "load the key into the agent with ssh-add (ssh-add -l lists what it holds)"
                    .to_owned(),
            ),
            KeyError::AgentAmbiguous { .. } => Some(
                "pick one with --ssh-key FILE (its OpenSSH public key file, e.g. \
                 ~/.ssh/id_ed25519.pub)"
                    .to_owned(),
            ),
            KeyError::Agent { .. } => Some(
                "start ssh-agent and load an Ed25519 key with ssh-add; SSH_AUTH_SOCK must name \
                 its socket"
                    .to_owned(),
            ),
            KeyError::NotKeyNorFile { option } => Some(format!(
                "{option} takes the key itself (64 hex digits, or a quoted `ssh-ed25519 AAAA…` \
                 line) or the path of an existing file holding it (e.g. keys/approval.pub)"
            )),
            KeyError::NotSoleCopy { .. } => Some(
                "nothing was changed; run `sealkit key protect` on the real file (the link's \
                 target, or the one remaining name after removing the other links)"
                    .to_owned(),
            ),
            KeyError::Permissions { .. } => Some(
                "a secret key file must be private to its owner (chmod 600); if this file \
                 really holds a public key, make it readable (chmod 644)"
                    .to_owned(),
            ),
            _ => None,
        }
    }
}

/// A trusted approval public key with its seal-host key id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicKey {
    pub verifying: VerifyingKey,
    /// 64 lowercase hex of the 32 public-key bytes.
    pub hex: String,
    /// Lowercase hex SHA-256 of the 32 public-key bytes.
    pub key_id: String,
}

impl PublicKey {
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<Self, KeyError> {
        let verifying = VerifyingKey::from_bytes(bytes).map_err(|_| KeyError::InvalidPublicKey)?;
        Ok(PublicKey {
            verifying,
            hex: hex_lower(bytes),
            key_id: key_id(bytes),
        })
    }

    /// Parses a public key given as text (`--pubkey`, a trusted-approvers entry): 64 hex
    /// digits (either case), as seal-host's `--approval-pubkey`, or an OpenSSH
    /// `ssh-ed25519 AAAA… [comment]` line.
    pub fn from_text(text: &str) -> Result<Self, KeyError> {
        if openssh::looks_like_ssh(text) {
            return openssh::parse_public_line(text, "the public key").map(|(key, _)| key);
        }
        let bytes = parse_key_text(text, "the public key")?;
        Self::from_bytes(&bytes)
    }

    /// Parses 64 hex digits (seal-host's `--approval-pubkey`).
    pub fn from_hex(text: &str) -> Result<Self, KeyError> {
        let bytes = parse_key_text(text, "the public key")?;
        Self::from_bytes(&bytes)
    }
}

/// A public key given as an option value where seal-host takes 64 hex digits (bundle and
/// envelope keys), as its 64 lowercase hex digits: read like every public key option
/// ([`file::public_key_arg`]: the key, or a file holding it). Hex digits are passed through
/// unchanged for the option's own check (seal-host's exact spelling rules).
pub fn public_key_option(option: &str, value: &str) -> Result<String, KeyError> {
    if value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(value.to_owned());
    }
    let given = file::public_key_arg(option, value)?;
    printable(given).map(|key| key.hex)
}

/// The key of a [`GivenKey`] that outputs may print: one from a file that is not recognisably
/// public (not readable by others) is refused rather than echoed.
pub fn printable(given: GivenKey) -> Result<PublicKey, KeyError> {
    match (given.shown, given.file) {
        (false, Some(path)) => Err(KeyError::SecretGivenAsPublic {
            path,
            why: "not readable by others, so possibly secret",
        }),
        _ => Ok(given.key),
    }
}

/// The seal-host key id of a public key: lowercase hex SHA-256 of its 32 raw bytes.
pub fn key_id(public_key: &[u8; 32]) -> String {
    sha256_hex(public_key)
}

/// A secret approval key (the 32-byte Ed25519 seed, wiped on drop by `SigningKey`) and its
/// public half.
pub struct SecretKey {
    pub signing: SigningKey,
    pub public: PublicKey,
}

impl SecretKey {
    pub fn from_seed(seed: &[u8; 32]) -> Self {
        let signing = SigningKey::from_bytes(seed);
        let verifying = signing.verifying_key();
        let bytes = verifying.to_bytes();
        SecretKey {
            signing,
            public: PublicKey {
                verifying,
                hex: hex_lower(&bytes),
                key_id: key_id(&bytes),
            },
        }
    }

    /// The seed in seal-host's key file form (`<64 hex>\n`), in memory wiped on drop.
    pub fn to_key_text(&self) -> Zeroizing<String> {
        let mut text = Zeroizing::new(String::with_capacity(65));
        for byte in self.signing.as_bytes() {
            text.push(char::from(HEX[usize::from(byte >> 4)]));
            text.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
        text.push('\n');
        text
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretKey")
            .field("key_id", &self.public.key_id)
            .finish_non_exhaustive()
    }
}

/// Where a signing key lives; shown to the approver before they sign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyLocation {
    /// A plain seal-host key file.
    File(PathBuf),
    /// A passphrase-encrypted key file.
    EncryptedFile(PathBuf),
    /// A key held by the running ssh-agent.
    SshAgent,
}

impl KeyLocation {
    /// Words for people (the path is untrusted text: callers escape it).
    pub fn describe(&self) -> String {
        match self {
            KeyLocation::File(path) => format!("key file {}", path.display()),
            KeyLocation::EncryptedFile(path) => {
                format!("passphrase-encrypted key file {}", path.display())
            }
            KeyLocation::SshAgent => "ssh-agent (the secret never reaches sealkit)".to_owned(),
        }
    }
}

/// Something that signs with an Ed25519 key: a secret key in memory, or the ssh-agent.
/// Ed25519 is deterministic, so the same key and message give the same signature either way.
pub trait Signer {
    fn public(&self) -> &PublicKey;
    fn sign_bytes(&self, message: &[u8]) -> Result<[u8; 64], KeyError>;
}

impl Signer for SecretKey {
    fn public(&self) -> &PublicKey {
        &self.public
    }

    fn sign_bytes(&self, message: &[u8]) -> Result<[u8; 64], KeyError> {
        Ok(self.signing.sign(message).to_bytes())
    }
}

/// Parses key file text: exactly 64 hex digits, optionally followed by LF or CRLF.
pub fn parse_key_text(text: &str, what: &str) -> Result<[u8; 32], KeyError> {
    let digits = text
        .strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text);
    let format_error = || KeyError::Format {
        what: what.to_owned(),
    };
    if digits.len() != 64 {
        return Err(format_error());
    }
    let bytes = Zeroizing::new(hex_decode(digits).ok_or_else(format_error)?);
    let mut out = [0u8; 32];
    if bytes.len() != 32 {
        return Err(format_error());
    }
    out.copy_from_slice(&bytes);
    Ok(out)
}

/// Which secret key file to use: the flag's value, else `SEALKIT_APPROVAL_KEY_FILE`.
pub fn secret_key_path(flag: Option<&Path>) -> Result<PathBuf, KeyError> {
    if let Some(path) = flag {
        return Ok(path.to_path_buf());
    }
    match std::env::var_os(KEY_FILE_ENV) {
        Some(value) if !value.is_empty() => Ok(PathBuf::from(value)),
        _ => Err(KeyError::NoKeyFile),
    }
}

/// Fills `buf` from the operating system's random source.
pub fn random_bytes(buf: &mut [u8]) -> Result<(), KeyError> {
    getrandom::fill(buf).map_err(|e| KeyError::Random(e.to_string()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn seed_17_gives_seal_hosts_public_key_and_key_id() {
        let key = SecretKey::from_seed(&[0x17u8; 32]);
        assert_eq!(
            key.public.hex,
            "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc"
        );
        assert_eq!(
            key.public.key_id,
            "e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8"
        );
    }

    #[test]
    fn key_text_is_64_hex_with_optional_line_end() {
        let hex = "11".repeat(32);
        assert_eq!(parse_key_text(&hex, "k").unwrap(), [0x11; 32]);
        assert_eq!(
            parse_key_text(&format!("{hex}\n"), "k").unwrap(),
            [0x11; 32]
        );
        assert_eq!(
            parse_key_text(&format!("{hex}\r\n"), "k").unwrap(),
            [0x11; 32]
        );
        for bad in [
            format!("{hex}\n\n"),
            format!(" {hex}"),
            hex[..62].to_owned(),
            format!("{}zz", &hex[..62]),
        ] {
            assert_eq!(
                parse_key_text(&bad, "k").unwrap_err().code(),
                "key-file-format"
            );
        }
    }

    /// 64 hex digits pass through unchanged (uppercase too: the option applies seal-host's
    /// own spelling rule to them), hex of another length is a format error naming the option,
    /// and a key from a file not recognisably public is not printed. Seen red under
    /// `public_key_option`'s `==` → `!=` and `&&` → `||` and the deletion of `printable`'s
    /// refusing arm (`cli_flags::key_options_keep_their_spelling_rules` pins the same
    /// through the binary).
    #[test]
    fn public_key_options_pass_hex_through_and_print_only_shown_keys() {
        let upper = "31DEBE55D37C722768B137131CAA6087080B2E0B60B94BD785D14575CFA498BC";
        assert_eq!(public_key_option("--issuer-pubkey", upper).unwrap(), upper);
        let short = public_key_option("--issuer-pubkey", "abcd").unwrap_err();
        assert_eq!(short.code(), "key-file-format");
        assert!(
            short.to_string().starts_with("--issuer-pubkey's value "),
            "{short}"
        );
        let key = SecretKey::from_seed(&[0x17; 32]).public;
        let given = |file: Option<&str>, shown| GivenKey {
            key: key.clone(),
            file: file.map(PathBuf::from),
            shown,
        };
        assert_eq!(printable(given(None, true)).unwrap(), key);
        assert_eq!(printable(given(Some("k.pub"), true)).unwrap(), key);
        assert_eq!(
            printable(given(Some("k.txt"), false)).unwrap_err().code(),
            "secret-key-given-as-public"
        );
    }
}
