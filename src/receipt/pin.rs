//! The receipt key a user pins with `--receipt-key HEX|FILE` (docs/receipts.md: the key inside a
//! receipt is reported, never trusted). FILE is either seal-host's raw 32-byte seed
//! (`.seal-receipt-ed25519.key`) or a public key file of 64 hex digits (optional LF).

use crate::digest::hex_lower;
use crate::error_code::Coded as _;
use crate::keys::file::{inspect, Content};
use crate::keys::KeyError;
use crate::signature::{parse_key_hex, public_key_of_seed};
use std::collections::HashMap;
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

impl Pin {
    /// The file the key was read from (none for a key given as text), as it stands now.
    pub fn file(&self) -> Option<PinFile> {
        match &self.source {
            PinSource::Hex => None,
            PinSource::SeedFile(path) | PinSource::PublicKeyFile(path) => {
                Some(PinFile::at(path, KeyRole::Receipt))
            }
        }
    }
}

/// Which trusted key a key file holds: what a signature checked under it vouches for, and so
/// the finding's code and words when the file is found inside the evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyRole {
    /// The pinned receipt key (`--receipt-key`): receipts are authenticated under it.
    Receipt,
    /// An approval key (`--pubkey`) or trusted-approvers list (`--trusted-approvers`): tokens
    /// are accepted, and approvers named, under it.
    Approval,
}

/// What the verdict line says "authenticated" rests on when the pinned key was found inside
/// the evidence (`audit`, `report`, `verify receipt`).
pub const UNDER_KEY_IN_EVIDENCE: &str = "under a key found in the evidence itself";

/// What the verdict line says accepted tokens and named approvers rest on when the approval
/// key or trusted-approvers list was found inside the evidence (`verify approval`, `audit`,
/// `report`).
pub const UNDER_APPROVAL_KEY_IN_EVIDENCE: &str =
    "under an approval key found in the evidence itself";

/// Key files are small; a pin file is compared with files of its own size only.
const MAX_PIN_BYTES: u64 = 4096;

/// The file a pinned key was read from, to tell whether it lies inside the evidence checked
/// under it (docs/trust-model.md): whoever could rewrite that evidence could rewrite the key
/// too, so the signatures would show only that the evidence agrees with itself.
#[derive(Debug, Clone)]
pub struct PinFile {
    pub path: PathBuf,
    pub role: KeyRole,
    /// Absolute paths that reach it (its directory resolved; the file itself resolved).
    resolved: Vec<PathBuf>,
    id: Option<(u64, u64)>,
    bytes: Option<Vec<u8>>,
}

/// How a pinned key was found inside the evidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inside {
    /// The key file lies under this evidence directory (by its path or through links).
    Under(PathBuf),
    /// This file of the evidence is the key file itself (a hard link, a mount).
    SameFile(PathBuf),
    /// This file of the evidence has the key file's exact bytes.
    Copy(PathBuf),
}

impl PinFile {
    /// The key file at `path` (given as `role`'s option), as it stands now.
    pub fn at(path: &Path, role: KeyRole) -> PinFile {
        // The path as given with its directory resolved (a link in the evidence pointing
        // elsewhere is still in the evidence), and the file it finally reaches.
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let resolved = [
            parent
                .canonicalize()
                .ok()
                .zip(path.file_name())
                .map(|(dir, name)| dir.join(name)),
            path.canonicalize().ok(),
        ];
        let metadata = std::fs::metadata(path).ok();
        PinFile {
            path: path.to_path_buf(),
            role,
            resolved: resolved.into_iter().flatten().collect(),
            id: metadata.as_ref().and_then(file_id),
            bytes: crate::input::read_file_capped(path, MAX_PIN_BYTES).ok(),
        }
    }

    /// Whether the key file lies under the directory `dir` (resolved), by any path to it.
    pub fn under(&self, dir: &Path) -> Option<Inside> {
        let dir = dir.canonicalize().ok()?;
        self.resolved
            .iter()
            .any(|path| path.starts_with(&dir))
            .then_some(Inside::Under(dir))
    }

    /// Whether the key file is an entry of the directory `dir` (resolved), by any path to it.
    fn directly_in(&self, dir: &Path) -> Option<Inside> {
        let dir = dir.canonicalize().ok()?;
        self.resolved
            .iter()
            .any(|path| path.parent() == Some(dir.as_path()))
            .then_some(Inside::Under(dir))
    }

    /// Whether the evidence file at `path` (with `metadata`, not following a link) is the
    /// key file or a copy of its bytes.
    pub fn matches(&self, path: &Path, metadata: &std::fs::Metadata) -> Option<Inside> {
        if !metadata.is_file() {
            return None;
        }
        if self.id.is_some() && file_id(metadata) == self.id {
            return Some(Inside::SameFile(path.to_path_buf()));
        }
        let bytes = self.bytes.as_ref()?;
        if metadata.len() != bytes.len() as u64 {
            return None;
        }
        let read = crate::input::read_file_capped(path, MAX_PIN_BYTES).ok()?;
        (read == *bytes).then(|| Inside::Copy(path.to_path_buf()))
    }

    /// Whether the key file lies in `dir` (the directory of a file of evidence) or is, or has
    /// the bytes of, a file directly in it. A receipt's directory is seal-host's own, written
    /// whole by it, so for the receipt key "in" is anywhere under it; a token file lies at a
    /// path its operator chooses (often a working directory), so for an approval key "in" is
    /// directly in that directory: the key kept with the tokens, not every file under the
    /// directory the token file happens to be in.
    pub fn in_directory(&self, dir: &Path) -> Option<Inside> {
        let found = match self.role {
            KeyRole::Receipt => self.under(dir),
            KeyRole::Approval => self.directly_in(dir),
        };
        if found.is_some() {
            return found;
        }
        std::fs::read_dir(dir).ok()?.flatten().find_map(|entry| {
            let metadata = entry.metadata().ok()?;
            self.matches(&entry.path(), &metadata)
        })
    }

    /// Whether the key file lies under the directory `root` (by any path to it), or is, or has
    /// the bytes of, a regular file anywhere under it (the walk follows no link, as the
    /// commands' own walks do not).
    pub fn within(&self, root: &Path) -> Option<Inside> {
        if let Some(under) = self.under(root) {
            return Some(under);
        }
        walkdir::WalkDir::new(root)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .find_map(|entry| {
                let metadata = entry.metadata().ok()?;
                self.matches(entry.path(), &metadata)
            })
    }

    /// The `receipt-key-in-evidence` or `approval-key-in-evidence` finding (path: the key
    /// file as given; its message names it too, for outputs whose findings carry no path).
    pub fn finding(&self, inside: &Inside) -> crate::finding::Finding {
        let how = match inside {
            Inside::Under(dir) => format!("it lies in {}", dir.display()),
            Inside::SameFile(path) => format!("it is {} (the same file)", path.display()),
            Inside::Copy(path) => format!("it has the exact bytes of {}", path.display()),
        };
        let path = self.path.display();
        let (code, message) = match self.role {
            KeyRole::Receipt => (
                crate::finding::Code::ReceiptKeyInEvidence,
                format!(
                    "the pinned receipt key {path} was read from inside the evidence ({how}): whoever could rewrite the receipts could rewrite it too, so the signatures show only that the evidence agrees with itself; pin a key kept apart from it (the public key recorded when the host was installed, or the one its configuration holds)"
                ),
            ),
            KeyRole::Approval => (
                crate::finding::Code::ApprovalKeyInEvidence,
                format!(
                    "the approval key or trusted-approvers list {path} was read from inside the evidence ({how}): whoever could rewrite the tokens or receipts could rewrite it too, so the approvals accepted under it show only that the evidence agrees with itself; give the key seal-host is configured with (its --approval-pubkey) or a list kept with the host's configuration, apart from the tokens and receipts"
                ),
            ),
        };
        crate::finding::Finding::new(code, Some(self.path.clone()), message)
    }
}

/// Where a key file is looked for among the evidence of a command that takes evidence file by
/// file and root by root (the receipt key: `verify receipt`, `evidence ref`, `evidence
/// verify`; an approval key: `verify approval` beside its token file, `report` beside its
/// `--tokens`; `audit` and `report` compare the key files with each file of their own walk):
/// each directory is looked at once.
#[derive(Debug)]
pub struct KeyPlacement<'a> {
    key: &'a PinFile,
    seen: HashMap<PathBuf, Option<Inside>>,
}

impl<'a> KeyPlacement<'a> {
    pub fn new(key: &'a PinFile) -> Self {
        KeyPlacement {
            key,
            seen: HashMap::new(),
        }
    }

    /// The key found beside the evidence file `file` ([`PinFile::beside`]).
    pub fn beside(&mut self, file: &Path) -> Option<Inside> {
        let key = self.key;
        evidence_dirs(file).into_iter().find_map(|dir| {
            (self.seen.entry(dir))
                .or_insert_with_key(|dir| key.in_directory(dir))
                .clone()
        })
    }

    /// The key found in the evidence root `root`: a directory ([`PinFile::within`]) or a
    /// file (beside it).
    pub fn in_root(&mut self, root: &Path) -> Option<Inside> {
        if !root.is_dir() {
            return self.beside(root);
        }
        let key = self.key;
        (self.seen.entry(root.to_path_buf()))
            .or_insert_with(|| key.within(root))
            .clone()
    }

    /// The finding for the key found as `inside`.
    pub fn finding(&self, inside: &Inside) -> crate::finding::Finding {
        self.key.finding(inside)
    }
}

/// The directories an evidence file lies in, the evidence a key found there belongs to: the
/// one its path names and, when the path is a link, the one its file is in (none for
/// standard input).
fn evidence_dirs(file: &Path) -> Vec<PathBuf> {
    let Some(file) = crate::input::named_file(file) else {
        return Vec::new();
    };
    let parent = |path: &Path| match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut dirs = vec![parent(file)];
    if let Ok(resolved) = file.canonicalize() {
        dirs.push(parent(&resolved));
    }
    dirs
}

fn file_id(metadata: &std::fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((metadata.dev(), metadata.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = metadata;
        None
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
