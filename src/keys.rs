//! Ed25519 approval keys in seal-host's on-disk format (reference/seal-host-formats.md §1.6,
//! DESIGN.md §4): a key file holds 64 hex digits of the 32 raw bytes (the secret seed or the
//! public key) and one LF; key files are written mode 0600 in a 0700 directory and are never
//! overwritten; a key id is the lowercase hex SHA-256 of the 32 public-key bytes. Secret keys
//! are read only from files (named by a flag or by `SEALKIT_APPROVAL_KEY_FILE`), never from an
//! argument value, and a secret key file that other users can read is refused.

use crate::digest::{hex_decode, hex_lower, sha256_hex};
use crate::fsutil::{create_new_with_mode, sync_dir, unix_mode};
use ed25519_dalek::{SigningKey, VerifyingKey};
use std::fmt;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Environment variable naming the secret approval key file when `--key-file` is not given.
pub const KEY_FILE_ENV: &str = "SEALKIT_APPROVAL_KEY_FILE";

/// seal-host's key files are tiny; anything larger is not a key file.
const MAX_KEY_FILE_BYTES: u64 = 256;

/// Why a key could not be read, parsed or written. `code()` is the stable kebab-case code.
#[derive(Debug)]
pub enum KeyError {
    /// The file could not be read or written.
    Io { path: PathBuf, source: io::Error },
    /// Not 64 hex digits followed by an optional LF (or CRLF).
    Format { what: String },
    /// 32 bytes that are not a valid compressed Edwards point.
    InvalidPublicKey,
    /// The secret key file is readable or writable by users other than its owner.
    Permissions { path: PathBuf, mode: u32 },
    /// A key file that `keygen` would write already exists.
    Exists { path: PathBuf },
    /// A key name that is not a plain file name.
    BadName { name: String },
    /// Neither `--key-file` nor `SEALKIT_APPROVAL_KEY_FILE` names a key file.
    NoKeyFile,
    /// The operating system's random source failed.
    Random(String),
}

impl KeyError {
    pub fn code(&self) -> &'static str {
        match self {
            KeyError::Io { .. } => "key-file-unreadable",
            KeyError::Format { .. } => "key-file-format",
            KeyError::InvalidPublicKey => "invalid-public-key",
            KeyError::Permissions { .. } => "key-file-permissions",
            KeyError::Exists { .. } => "key-file-exists",
            KeyError::BadName { .. } => "bad-key-name",
            KeyError::NoKeyFile => "no-key-file",
            KeyError::Random(_) => "no-randomness",
        }
    }
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            KeyError::Format { what } => write!(
                f,
                "{what} is not in seal-host's key format (64 hex digits of 32 bytes, then LF)"
            ),
            KeyError::InvalidPublicKey => {
                write!(f, "the 32 bytes are not a valid Ed25519 public key")
            }
            KeyError::Permissions { path, mode } => write!(
                f,
                "{}: secret key file has mode {mode:04o}; other users can access it \
                 (chmod 600 it first)",
                path.display()
            ),
            KeyError::Exists { path } => {
                write!(
                    f,
                    "{}: refusing to overwrite an existing key file",
                    path.display()
                )
            }
            KeyError::BadName { name } => write!(
                f,
                "key name {name:?} must be a plain file name of letters, digits, '.', '_' or '-'"
            ),
            KeyError::NoKeyFile => write!(
                f,
                "no secret key: pass --key-file FILE or set {KEY_FILE_ENV} (keys are never \
                 taken from an argument value)"
            ),
            KeyError::Random(message) => write!(f, "operating-system randomness failed: {message}"),
        }
    }
}

impl std::error::Error for KeyError {}

/// A trusted approval public key with its seal-host key id.
#[derive(Debug, Clone)]
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

    /// Parses a public key given as hex text (`--pubkey`), as seal-host's
    /// `--approval-pubkey`: 64 hex digits (either case).
    pub fn from_hex(text: &str) -> Result<Self, KeyError> {
        let bytes = parse_key_text(text, "the public key")?;
        Self::from_bytes(&bytes)
    }
}

/// The seal-host key id of a public key: lowercase hex SHA-256 of its 32 raw bytes.
pub fn key_id(public_key: &[u8; 32]) -> String {
    sha256_hex(public_key)
}

/// A secret approval key (the 32-byte Ed25519 seed) and its public half.
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
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretKey")
            .field("key_id", &self.public.key_id)
            .finish_non_exhaustive()
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
    let bytes = hex_decode(digits).ok_or_else(format_error)?;
    bytes.try_into().map_err(|_| format_error())
}

/// Reads a public key file (`--pubkey-file`).
pub fn read_public_key_file(path: &Path) -> Result<PublicKey, KeyError> {
    let text = read_small(path)?;
    let bytes = parse_key_text(&text, &path.display().to_string())?;
    PublicKey::from_bytes(&bytes)
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

/// Reads a secret key file. Refuses a file that group or others can access, as a key that
/// others can read no longer authenticates its owner.
pub fn read_secret_key_file(path: &Path) -> Result<SecretKey, KeyError> {
    let metadata = fs::metadata(path).map_err(|source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if let Some(mode) = unix_mode(&metadata) {
        if mode & 0o077 != 0 {
            return Err(KeyError::Permissions {
                path: path.to_path_buf(),
                mode,
            });
        }
    }
    let text = read_small(path)?;
    let seed = parse_key_text(&text, &path.display().to_string())?;
    Ok(SecretKey::from_seed(&seed))
}

fn read_small(path: &Path) -> Result<String, KeyError> {
    let io_error = |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = fs::File::open(path).map_err(io_error)?;
    let mut text = String::new();
    file.take(MAX_KEY_FILE_BYTES)
        .read_to_string(&mut text)
        .map_err(|_| KeyError::Format {
            what: path.display().to_string(),
        })?;
    Ok(text)
}

/// The files `keygen` wrote.
#[derive(Debug, Clone)]
pub struct GeneratedKey {
    pub secret_path: PathBuf,
    pub public_path: PathBuf,
    pub public_hex: String,
    pub key_id: String,
}

/// Fills `buf` from the operating system's random source.
pub fn random_bytes(buf: &mut [u8]) -> Result<(), KeyError> {
    getrandom::fill(buf).map_err(|e| KeyError::Random(e.to_string()))
}

/// Generates a key pair and writes `<dir>/<name>.key` (secret seed) and `<dir>/<name>.pub`,
/// each `<64 hex>\n`, mode 0600, creating `dir` with mode 0700 when missing. Neither file may
/// exist yet; each is published by a hard link from a fully written, fsync'd temporary file,
/// so a concurrent writer or a crash never leaves a partial or overwritten key. If the second
/// file cannot be published, the first is removed again.
pub fn generate(dir: &Path, name: &str) -> Result<GeneratedKey, KeyError> {
    check_name(name)?;
    let mut seed = [0u8; 32];
    random_bytes(&mut seed)?;
    let secret = SecretKey::from_seed(&seed);
    seed.fill(0);
    let secret_hex = hex_lower(secret.signing.as_bytes());
    write_key_pair(dir, name, &secret_hex, &secret.public)
}

fn check_name(name: &str) -> Result<(), KeyError> {
    let plain = !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if plain {
        Ok(())
    } else {
        Err(KeyError::BadName {
            name: name.to_owned(),
        })
    }
}

fn write_key_pair(
    dir: &Path,
    name: &str,
    secret_hex: &str,
    public: &PublicKey,
) -> Result<GeneratedKey, KeyError> {
    let secret_path = dir.join(format!("{name}.key"));
    let public_path = dir.join(format!("{name}.pub"));
    for path in [&secret_path, &public_path] {
        if path.symlink_metadata().is_ok() {
            return Err(KeyError::Exists { path: path.clone() });
        }
    }
    create_private_dir(dir)?;
    publish_new(&secret_path, secret_hex)?;
    if let Err(error) = publish_new(&public_path, &public.hex) {
        let _ = fs::remove_file(&secret_path);
        return Err(error);
    }
    sync_dir(dir).map_err(|source| KeyError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    Ok(GeneratedKey {
        secret_path,
        public_path,
        public_hex: public.hex.clone(),
        key_id: public.key_id.clone(),
    })
}

fn create_private_dir(dir: &Path) -> Result<(), KeyError> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir).map_err(|source| KeyError::Io {
        path: dir.to_path_buf(),
        source,
    })
}

/// Writes `<hex>\n` to a temporary file beside `path`, then hard-links it into place (which
/// fails if `path` exists) and removes the temporary name.
fn publish_new(path: &Path, hex: &str) -> Result<(), KeyError> {
    let io_error = |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    };
    let temp = temp_sibling(path)?;
    let result = (|| {
        let mut file = create_new_with_mode(&temp, 0o600)?;
        file.write_all(hex.as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()?;
        fs::hard_link(&temp, path)
    })();
    let _ = fs::remove_file(&temp);
    match result {
        Ok(()) => Ok(()),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Err(KeyError::Exists {
            path: path.to_path_buf(),
        }),
        Err(error) => Err(io_error(error)),
    }
}

fn temp_sibling(path: &Path) -> Result<PathBuf, KeyError> {
    let mut tag = [0u8; 8];
    random_bytes(&mut tag)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = path.parent().unwrap_or(Path::new("."));
    Ok(dir.join(format!(".{name}.sealkit-keygen-{}.tmp", hex_lower(&tag))))
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

    #[test]
    fn generate_writes_private_files_and_refuses_to_overwrite() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("keys");
        let made = generate(&dir, "approval").unwrap();
        let secret_text = fs::read_to_string(&made.secret_path).unwrap();
        let public_text = fs::read_to_string(&made.public_path).unwrap();
        assert_eq!(secret_text.len(), 65);
        assert!(secret_text.ends_with('\n'));
        assert_eq!(public_text, format!("{}\n", made.public_hex));
        let loaded = read_secret_key_file(&made.secret_path).unwrap();
        assert_eq!(loaded.public.hex, made.public_hex);
        assert_eq!(loaded.public.key_id, made.key_id);
        #[cfg(unix)]
        {
            assert_eq!(unix_mode(&fs::metadata(&dir).unwrap()), Some(0o700));
            assert_eq!(
                unix_mode(&fs::metadata(&made.secret_path).unwrap()),
                Some(0o600)
            );
        }
        let again = generate(&dir, "approval").unwrap_err();
        assert_eq!(again.code(), "key-file-exists");
        assert_eq!(fs::read_to_string(&made.secret_path).unwrap(), secret_text);
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "no temporary files left: {names:?}");
    }

    #[cfg(unix)]
    #[test]
    fn secret_key_readable_by_others_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.key");
        fs::write(&path, format!("{}\n", "17".repeat(32))).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(
            read_secret_key_file(&path).unwrap_err().code(),
            "key-file-permissions"
        );
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(
            read_secret_key_file(&path).unwrap().public.key_id,
            "e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8"
        );
    }

    #[test]
    fn key_names_must_be_plain() {
        for bad in ["", ".hidden", "a/b", "../x", "a b"] {
            assert_eq!(check_name(bad).unwrap_err().code(), "bad-key-name");
        }
        check_name("approval-2.v1_x").unwrap();
    }
}
