//! What a key file is, decided from its bytes, its name and its permissions, before any of
//! its bytes are used: a passphrase-encrypted secret key, a plain secret key (seal-host's
//! `<64 hex>\n` seed file, or a raw 32-byte seed), a public key (`<64 hex>\n`) or an OpenSSH
//! `ssh-ed25519` public key line. A file given where a public key belongs is refused when it
//! is recognisably secret, and otherwise says whether it is recognisably public, so callers
//! echo key material only from files that are.

use super::{encrypted, openssh, parse_key_text, KeyError, KeyLocation, PublicKey, SecretKey};
use crate::atomic_write::unix_mode;
use age::secrecy::SecretString;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use zeroize::Zeroizing;

/// Key files are small; anything larger is not one (an armored encrypted key is ~400 bytes).
const MAX_KEY_FILE_BYTES: u64 = 4096;

/// The kind `sealkit key show` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    SecretEncrypted,
    SecretPlain,
    Public,
    SshPublic,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::SecretEncrypted => "secret-encrypted",
            Kind::SecretPlain => "secret-plain",
            Kind::Public => "public",
            Kind::SshPublic => "ssh-public",
        }
    }
}

/// What a key file holds.
pub enum Content {
    /// A passphrase-encrypted secret key (the file's bytes).
    Encrypted(Vec<u8>),
    /// A plain seed: `<64 hex>\n` recognised as secret (`why`), or seal-host's raw 32 bytes.
    PlainSeed {
        seed: Zeroizing<[u8; 32]>,
        raw: bool,
        why: &'static str,
    },
    /// `<64 hex>\n` not recognisably secret. `recognisable` when it is also recognisably public.
    Public { key: PublicKey, recognisable: bool },
    /// An OpenSSH `ssh-ed25519` public key line.
    SshPublic { key: PublicKey, comment: String },
    /// An OpenSSH (or PEM) private key: secret, and not a format sealkit signs with.
    OtherSecret,
}

impl Content {
    pub fn kind(&self) -> Kind {
        match self {
            Content::Encrypted(_) => Kind::SecretEncrypted,
            Content::PlainSeed { .. } | Content::OtherSecret => Kind::SecretPlain,
            Content::Public { .. } => Kind::Public,
            Content::SshPublic { .. } => Kind::SshPublic,
        }
    }
}

impl std::fmt::Debug for Content {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Content({})", self.kind().as_str())
    }
}

/// Reads and classifies a key file. The bytes of a secret are kept in wiped memory.
pub fn inspect(path: &Path) -> Result<Content, KeyError> {
    if path.as_os_str() == "-" {
        return Err(KeyError::NotFromStdin);
    }
    let io_error = |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    };
    let metadata = fs::metadata(path).map_err(io_error)?;
    let mut bytes = Zeroizing::new(Vec::new());
    crate::input::open_file(path)
        .map_err(io_error)?
        .take(MAX_KEY_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    let content = classify(&bytes, path, unix_mode(&metadata))?;
    if let Content::PlainSeed {
        seed,
        raw: false,
        why: OWNER_ONLY,
    } = &content
    {
        // Owner-only 64 hex beside the secret key whose public key it is: the pair says what
        // it is (keygen under a strict umask), so the mode alone does not make it a secret.
        if let Some(key) = sibling_public(path).filter(|key| key.verifying.as_bytes() == &**seed) {
            return Ok(Content::Public {
                key,
                recognisable: true,
            });
        }
    }
    Ok(content)
}

/// Classifies a key file's bytes; `path` gives its name (and names it in errors), `mode` its
/// Unix permission bits when known. Pure: the one place a key file's kind is decided.
pub fn classify(bytes: &[u8], path: &Path, mode: Option<u32>) -> Result<Content, KeyError> {
    let format_error = || KeyError::Format {
        what: path.display().to_string(),
    };
    if bytes.len() as u64 > MAX_KEY_FILE_BYTES {
        return Err(format_error());
    }
    if encrypted::is_encrypted(bytes) {
        return Ok(Content::Encrypted(bytes.to_vec()));
    }
    if bytes.len() == 32 {
        let mut seed = Zeroizing::new([0u8; 32]);
        seed.copy_from_slice(bytes);
        return Ok(Content::PlainSeed {
            seed,
            raw: true,
            why: "a raw 32-byte seed, as seal-host keeps its receipt key",
        });
    }
    let text = std::str::from_utf8(bytes).map_err(|_| format_error())?;
    let trimmed = text.trim_start();
    if trimmed.starts_with("-----BEGIN") && trimmed.contains("PRIVATE KEY") {
        return Ok(Content::OtherSecret);
    }
    if openssh::looks_like_ssh(text) {
        let (key, comment) = openssh::parse_public_line(text, &path.display().to_string())?;
        return Ok(Content::SshPublic { key, comment });
    }
    let bytes32 = Zeroizing::new(parse_key_text(text, &path.display().to_string())?);
    if let Some(why) = secret_sign(path, mode) {
        return Ok(Content::PlainSeed {
            seed: bytes32,
            raw: false,
            why,
        });
    }
    let key = PublicKey::from_bytes(&bytes32)?;
    let recognisable = match mode {
        Some(mode) => mode & 0o044 != 0,
        None => has_extension(path, "pub"),
    };
    Ok(Content::Public { key, recognisable })
}

/// The public key of the secret key file beside `path` with the same stem and `.key`: the
/// seed's for a plain file, the stated one for an encrypted file (no passphrase is asked).
fn sibling_public(path: &Path) -> Option<PublicKey> {
    let sibling = path.with_extension("key");
    if sibling == path {
        return None;
    }
    match inspect(&sibling).ok()? {
        Content::PlainSeed {
            seed, raw: false, ..
        } => Some(SecretKey::from_seed(&seed).public.clone()),
        Content::Encrypted(bytes) => encrypted::stated_public(&sibling, &bytes).ok()?,
        _ => None,
    }
}

/// Why an owner-only `<64 hex>` file is taken for a secret key.
const OWNER_ONLY: &str = "readable only by its owner, as secret key files are";

/// Why a `<64 hex>` file is taken for a secret key, if it is: its name says so, or only its
/// owner may read it, as keygen and seal-host write secret keys.
fn secret_sign(path: &Path, mode: Option<u32>) -> Option<&'static str> {
    if has_extension(path, "key") {
        return Some("named .key, as secret key files are");
    }
    match mode {
        Some(mode) if mode & 0o077 == 0 => Some(OWNER_ONLY),
        _ => None,
    }
}

fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(extension))
}

/// A public key read from a file given where a public key belongs.
#[derive(Debug, Clone)]
pub struct TrustedKeyFile {
    pub key: PublicKey,
    pub path: PathBuf,
    /// Whether the file is recognisably a public key, so its key may be printed; otherwise
    /// only the key id is shown.
    pub shown: bool,
}

/// Reads a file given as a public key (`--pubkey FILE`, `--receipt-key FILE`, `--ssh-key`):
/// 64 hex digits or an `ssh-ed25519` line. A recognisably secret file is refused and never
/// echoed.
pub fn read_public_key_file(path: &Path) -> Result<TrustedKeyFile, KeyError> {
    let refuse = |why| KeyError::SecretGivenAsPublic {
        path: path.to_path_buf(),
        why,
    };
    match inspect(path)? {
        Content::Encrypted(_) => Err(refuse("encrypted with a passphrase")),
        Content::PlainSeed { why, .. } => Err(refuse(why)),
        Content::OtherSecret => Err(refuse("a private key")),
        Content::Public { key, recognisable } => Ok(TrustedKeyFile {
            key,
            path: path.to_path_buf(),
            shown: recognisable,
        }),
        Content::SshPublic { key, .. } => Ok(TrustedKeyFile {
            key,
            path: path.to_path_buf(),
            shown: true,
        }),
    }
}

/// A public key option's value, read: the key and, when it came from a file, which one.
#[derive(Debug, Clone)]
pub struct GivenKey {
    pub key: PublicKey,
    pub file: Option<PathBuf>,
    /// Whether the key may be printed: given as text, or read from a file that is
    /// recognisably a public key (see [`TrustedKeyFile::shown`]).
    pub shown: bool,
}

/// Reads the value of a public key option (`--pubkey HEX|FILE` and the like; `option` names
/// it in errors): 64 hex digits or an `ssh-ed25519 AAAA…` line is the key itself; anything
/// else must name a file holding one ([`read_public_key_file`]: secret key files refused,
/// never echoed). A value that is neither is refused without being repeated.
pub fn public_key_arg(option: &str, value: &str) -> Result<GivenKey, KeyError> {
    if value == "-" {
        return Err(KeyError::NotFromStdin);
    }
    let is_hex = value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit());
    if is_hex || openssh::looks_like_ssh(value) {
        return Ok(GivenKey {
            key: PublicKey::from_text(value)?,
            file: None,
            shown: true,
        });
    }
    let path = Path::new(value);
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_hexdigit()) && !path.exists() {
        // Meant as the key, with the wrong number of digits.
        return Err(KeyError::Format {
            what: format!("{option}'s value"),
        });
    }
    if value.is_empty() || !path.exists() {
        return Err(KeyError::NotKeyNorFile {
            option: option.to_owned(),
        });
    }
    let file = read_public_key_file(path)?;
    Ok(GivenKey {
        key: file.key,
        file: Some(file.path),
        shown: file.shown,
    })
}

/// Reads a secret key file, plain or encrypted. `passphrase` is asked only for an encrypted
/// file. A file that group or others can access is refused: a key others can read no longer
/// authenticates its owner.
pub fn read_secret_key_file(
    path: &Path,
    passphrase: &mut dyn FnMut() -> Result<SecretString, KeyError>,
) -> Result<(SecretKey, KeyLocation), KeyError> {
    match open_secret_key_file(path)? {
        OpenedSecret::Plain(key) => Ok((key, KeyLocation::File(path.to_path_buf()))),
        OpenedSecret::Encrypted(locked) => {
            let key = locked.unlock(passphrase()?)?;
            Ok((key, KeyLocation::EncryptedFile(path.to_path_buf())))
        }
    }
}

/// A secret key file read and checked, its secret not yet used.
pub enum OpenedSecret {
    /// A plain seed file: the key.
    Plain(SecretKey),
    /// A passphrase-encrypted key file, decrypted only by [`LockedKey::unlock`].
    Encrypted(LockedKey),
}

/// An encrypted key file's bytes, with the public key it states in the clear (absent in files
/// written before the line existed).
pub struct LockedKey {
    path: PathBuf,
    bytes: Zeroizing<Vec<u8>>,
    pub stated: Option<PublicKey>,
}

impl LockedKey {
    /// Decrypts the key with the passphrase (checking it against the stated public key).
    pub fn unlock(&self, passphrase: SecretString) -> Result<SecretKey, KeyError> {
        encrypted::decrypt(&self.path, &self.bytes, passphrase)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Reads a secret key file, plain or encrypted, without asking for a passphrase: the checks
/// of [`read_secret_key_file`] (not standard input, private to its owner, a secret key) run
/// here, and an encrypted file's public key line is read.
pub fn open_secret_key_file(path: &Path) -> Result<OpenedSecret, KeyError> {
    if path.as_os_str() == "-" {
        return Err(KeyError::NotFromStdin);
    }
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
    match inspect(path)? {
        Content::Encrypted(bytes) => Ok(OpenedSecret::Encrypted(LockedKey {
            path: path.to_path_buf(),
            stated: encrypted::stated_public(path, &bytes)?,
            bytes: Zeroizing::new(bytes),
        })),
        Content::PlainSeed {
            seed, raw: false, ..
        } => Ok(OpenedSecret::Plain(SecretKey::from_seed(&seed))),
        // Owner-only 64 hex is taken for a secret above; other shapes are not approval keys.
        _ => Err(KeyError::NotSecret {
            path: path.to_path_buf(),
        }),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error_code::Coded as _;

    const SEED_HEX: &str = "1717171717171717171717171717171717171717171717171717171717171717";
    /// The public key the tests' files state (the shared approval key's).
    const PUBLIC_HEX: &str = "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc";

    fn no_passphrase() -> Result<SecretString, KeyError> {
        Err(KeyError::NoPassphrase)
    }

    #[cfg(unix)]
    fn write_mode(path: &Path, text: &str, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        fs::write(path, text).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn secret_key_readable_by_others_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.key");
        write_mode(&path, &format!("{SEED_HEX}\n"), 0o644);
        assert_eq!(
            read_secret_key_file(&path, &mut no_passphrase)
                .unwrap_err()
                .code(),
            "key-file-permissions"
        );
        write_mode(&path, &format!("{SEED_HEX}\n"), 0o600);
        let (key, location) = read_secret_key_file(&path, &mut no_passphrase).unwrap();
        assert_eq!(
            key.public.key_id,
            "e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8"
        );
        assert_eq!(location, KeyLocation::File(path));
    }

    #[cfg(unix)]
    #[test]
    fn secret_files_given_as_public_keys_are_refused_without_echo() {
        let dir = tempfile::tempdir().unwrap();
        // Owner-only permissions, whatever the name.
        let private = dir.path().join("trusted.pub");
        write_mode(&private, &format!("{SEED_HEX}\n"), 0o600);
        let error = read_public_key_file(&private).unwrap_err();
        assert_eq!(error.code(), "secret-key-given-as-public");
        assert!(!error.to_string().contains(SEED_HEX));
        // A .key name, whatever the permissions.
        let named = dir.path().join("approval.key");
        write_mode(&named, &format!("{SEED_HEX}\n"), 0o644);
        assert_eq!(
            read_public_key_file(&named).unwrap_err().code(),
            "secret-key-given-as-public"
        );
        // A readable 64-hex file is a public key and may be shown.
        let public = dir.path().join("approval.pub");
        write_mode(&public, &format!("{PUBLIC_HEX}\n"), 0o644);
        let trusted = read_public_key_file(&public).unwrap();
        assert!(trusted.shown);
        assert_eq!(
            trusted.key.key_id,
            "e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8"
        );
    }

    /// A key file is at most 4096 bytes: a file of 4096 is read whole, one of 4097 is a
    /// format error, not read in part. Seen red (cargo-mutants, docs/mutants.md "keys") under
    /// `MAX_KEY_FILE_BYTES + 1` → `- 1` / `* 1` in `inspect` (a prefix that passes was read)
    /// and `>` → `==` / `>=` in `classify`.
    #[test]
    fn a_key_file_of_4097_bytes_is_refused_not_read_in_part() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.key");
        let mut text = format!("{}\n", encrypted::ARMOR_BEGIN);
        text.push_str(&"A".repeat(4096 - text.len()));
        fs::write(&path, &text).unwrap();
        match inspect(&path).unwrap() {
            Content::Encrypted(bytes) => assert_eq!(bytes.len(), 4096),
            other => panic!("{other:?}"),
        }
        text.push('A');
        fs::write(&path, &text).unwrap();
        assert_eq!(inspect(&path).unwrap_err().code(), "key-file-format");
    }

    /// Only a PEM block that says PRIVATE KEY is taken for a secret: a PEM public key is a
    /// format error (not `secret-key-given-as-public`), and a 64-hex file is never read as
    /// PEM. Seen red under `&&` → `||` in `classify`.
    #[test]
    fn only_a_pem_private_key_is_another_secret() {
        let path = Path::new("id.pem");
        let private = b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n";
        assert!(matches!(
            classify(private, path, Some(0o600)).unwrap(),
            Content::OtherSecret
        ));
        let public = b"-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAMd6+VdN8cidosTcTHKpghwgLLgtguUvXhdFFdc+kmLw=\n-----END PUBLIC KEY-----\n";
        assert_eq!(
            classify(public, path, Some(0o644)).unwrap_err().code(),
            "key-file-format"
        );
    }

    /// An owner-only 64-hex file beside an encrypted `.key` that states the same public key
    /// is that key's public file (keygen under a strict umask), and one beside a `.key`
    /// stating another key stays a secret. Only the stated line is read: no passphrase. Seen
    /// red under the deletion of `sibling_public`'s `Content::Encrypted` arm.
    #[cfg(unix)]
    #[test]
    fn an_owner_only_public_file_beside_its_encrypted_key_is_public() {
        let dir = tempfile::tempdir().unwrap();
        let public = dir.path().join("approval.pub");
        write_mode(&public, &format!("{PUBLIC_HEX}\n"), 0o600);
        let secret = dir.path().join("approval.key");
        let encrypted_with = |stated: &str| {
            format!(
                "{}{stated}\n{}\nnot read without the passphrase\n",
                encrypted::PUBLIC_LINE,
                encrypted::ARMOR_BEGIN
            )
        };
        write_mode(&secret, &encrypted_with(PUBLIC_HEX), 0o600);
        let trusted = read_public_key_file(&public).unwrap();
        assert!(trusted.shown);
        assert_eq!(trusted.key.hex, PUBLIC_HEX);
        let other = SecretKey::from_seed(&[0x18; 32]).public.hex;
        write_mode(&secret, &encrypted_with(&other), 0o600);
        assert_eq!(
            read_public_key_file(&public).unwrap_err().code(),
            "secret-key-given-as-public"
        );
    }

    /// A 64-character value that is not all hex digits is a file name, not a malformed key.
    /// Seen red under `&&` → `||` in `public_key_arg`'s hex test.
    #[cfg(unix)]
    #[test]
    fn a_64_character_path_is_read_as_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let prefix = format!("{}/", dir.path().display());
        assert!(prefix.len() < 60, "{prefix}");
        let path = format!("{prefix}{}.pub", "k".repeat(60 - prefix.len()));
        assert_eq!(path.len(), 64);
        write_mode(Path::new(&path), &format!("{PUBLIC_HEX}\n"), 0o644);
        let given = public_key_arg("--pubkey", &path).unwrap();
        assert_eq!(given.key.hex, PUBLIC_HEX);
        assert_eq!(given.file.as_deref(), Some(Path::new(&path)));
    }

    /// A value that is neither a key nor an existing file is refused by what it looks like:
    /// hex digits of the wrong length were meant as the key (`key-file-format`, naming the
    /// option), anything else names no file (`public-key-not-found`), and `-` is standard
    /// input. Seen red under the `!` deletions and `&&` / `||` swaps of `public_key_arg`'s
    /// two checks.
    #[test]
    fn a_value_that_is_no_key_and_no_file_is_refused_by_what_it_looks_like() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("approval.pub");
        let missing = missing.to_str().unwrap();
        let short_hex = "abcd";
        assert!(!Path::new(short_hex).exists());
        let refused = |value: &str| public_key_arg("--pubkey", value).unwrap_err();
        assert_eq!(refused(missing).code(), "public-key-not-found");
        assert_eq!(refused("").code(), "public-key-not-found");
        assert_eq!(refused("-").code(), "key-not-from-stdin");
        let short = refused(short_hex);
        assert_eq!(short.code(), "key-file-format");
        assert!(
            short.to_string().starts_with("--pubkey's value "),
            "{short}"
        );
    }
}
