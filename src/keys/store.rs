//! Writing approval key files: a new key pair (`keygen`) and the in-place encryption of a
//! plain secret key file (`key protect`). Secret key files are mode 0600 in a 0700 directory,
//! public key files mode 0644 (readable, which is how a public key file is recognised), and
//! no key file is ever overwritten by `keygen`: each is published by a hard link from a fully
//! written, fsync'd temporary file, so a concurrent writer or a crash never leaves a partial
//! or replaced key. `protect` replaces the file atomically (the old or the new, never half).

use super::file::{inspect, Content};
use super::{encrypted, random_bytes, KeyError, PublicKey, SecretKey};
use crate::atomic_write::{create_new_with_mode, sync_dir, unix_mode, write_atomic};
use crate::digest::hex_lower;
use age::secrecy::SecretString;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use zeroize::Zeroizing;

/// How `keygen` stores the secret key.
pub enum Protection {
    /// Encrypted under this passphrase (age scrypt, armored).
    Passphrase(SecretString),
    /// seal-host's bare `<64 hex>\n` (`--unencrypted`).
    Plain,
}

/// The files `keygen` wrote.
#[derive(Debug, Clone)]
pub struct GeneratedKey {
    pub secret_path: PathBuf,
    pub public_path: PathBuf,
    pub public_hex: String,
    pub key_id: String,
    pub encrypted: bool,
}

/// Generates a key pair and writes `<dir>/<name>.key` (the secret, encrypted or plain) and
/// `<dir>/<name>.pub` (`<64 hex>\n`), creating `dir` with mode 0700 when missing. Neither
/// file may exist yet. If the second file cannot be published, the first is removed again.
pub fn generate(dir: &Path, name: &str, protection: Protection) -> Result<GeneratedKey, KeyError> {
    check_new(dir, name)?;
    let mut seed = Zeroizing::new([0u8; 32]);
    random_bytes(&mut seed[..])?;
    let secret = SecretKey::from_seed(&seed);
    let (secret_text, encrypted) = match protection {
        Protection::Passphrase(passphrase) => (
            Zeroizing::new(encrypted::encrypt(&secret, passphrase)?),
            true,
        ),
        Protection::Plain => (secret.to_key_text(), false),
    };
    let mut made = write_key_pair(dir, name, &secret_text, &secret.public)?;
    made.encrypted = encrypted;
    Ok(made)
}

/// Whether `keygen` may write `<dir>/<name>.key` and `.pub`: a plain name and neither file
/// there yet. Checked before a passphrase is asked, and again when publishing (which never
/// overwrites).
pub fn check_new(dir: &Path, name: &str) -> Result<(), KeyError> {
    check_name(name)?;
    for path in [key_path(dir, name), public_path(dir, name)] {
        if path.symlink_metadata().is_ok() {
            return Err(KeyError::Exists { path });
        }
    }
    Ok(())
}

fn key_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.key"))
}

fn public_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.pub"))
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
    secret_text: &str,
    public: &PublicKey,
) -> Result<GeneratedKey, KeyError> {
    let secret_path = key_path(dir, name);
    let public_path = public_path(dir, name);
    create_private_dir(dir)?;
    publish_new(&secret_path, secret_text, 0o600)?;
    if let Err(error) = publish_new(&public_path, &format!("{}\n", public.hex), 0o644) {
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
        encrypted: false,
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

/// Writes `text` to a temporary file beside `path`, then hard-links it into place (which
/// fails if `path` exists) and removes the temporary name.
fn publish_new(path: &Path, text: &str, mode: u32) -> Result<(), KeyError> {
    let io_error = |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    };
    let temp = temp_sibling(path)?;
    let result = (|| {
        let mut file = create_new_with_mode(&temp, mode)?;
        // The umask narrows the mode at creation; a public key file must stay readable (0644,
        // as ssh-keygen writes them) or it reads as a secret.
        set_mode(&file, mode)?;
        file.write_all(text.as_bytes())?;
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

/// Sets a file's permission bits exactly (no umask), on Unix.
fn set_mode(file: &fs::File, mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (file, mode);
        Ok(())
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

/// Refuses a file whose plain secret would survive its encryption in place: a symbolic link
/// (the link would be replaced and its target keep the seed) or a file with more than one
/// hard link (the other names keep it). Returns the file's metadata.
pub fn check_sole_copy(path: &Path) -> Result<fs::Metadata, KeyError> {
    if path.as_os_str() == "-" {
        return Err(KeyError::NotFromStdin);
    }
    let io_error = |source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    };
    let metadata = fs::symlink_metadata(path).map_err(io_error)?;
    if metadata.is_dir() {
        return Err(io_error(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "is a directory, not a key file",
        )));
    }
    let refuse = |why: String| KeyError::NotSoleCopy {
        path: path.to_path_buf(),
        why,
    };
    if metadata.file_type().is_symlink() {
        let target = fs::read_link(path)
            .map(|t| t.display().to_string())
            .unwrap_or_default();
        return Err(refuse(format!(
            "it is a symbolic link (to {target:?}); replacing the link would leave the plain \
             key in its target"
        )));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.nlink() > 1 {
            return Err(refuse(format!(
                "it has {} hard links; the other names would keep the plain key",
                metadata.nlink()
            )));
        }
    }
    Ok(metadata)
}

/// Encrypts a plain secret key file in place under the passphrase: the file is replaced
/// atomically (mode 0600) by its encrypted form. Refuses an encrypted file, a file that holds
/// no plain secret key, a secret key file others can read (it may already be copied), and a
/// symbolic link or a file with other hard links ([`check_sole_copy`]).
pub fn protect(path: &Path, passphrase: SecretString) -> Result<PublicKey, KeyError> {
    let metadata = check_sole_copy(path)?;
    let secret = match inspect(path)? {
        Content::Encrypted(_) => {
            return Err(KeyError::AlreadyEncrypted {
                path: path.to_path_buf(),
            })
        }
        Content::PlainSeed {
            seed, raw: false, ..
        } => SecretKey::from_seed(&seed),
        _ => {
            return Err(KeyError::NotSecret {
                path: path.to_path_buf(),
            })
        }
    };
    if let Some(mode) = unix_mode(&metadata) {
        if mode & 0o077 != 0 {
            return Err(KeyError::Permissions {
                path: path.to_path_buf(),
                mode,
            });
        }
    }
    let armored = Zeroizing::new(encrypted::encrypt(&secret, passphrase)?);
    write_atomic(path, armored.as_bytes(), 0o600).map_err(|source| KeyError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(secret.public.clone())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error_code::Coded as _;
    use crate::keys::file::read_secret_key_file;

    #[test]
    fn generate_writes_private_files_and_refuses_to_overwrite() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("keys");
        let made = generate(&dir, "approval", Protection::Plain).unwrap();
        let secret_text = fs::read_to_string(&made.secret_path).unwrap();
        let public_text = fs::read_to_string(&made.public_path).unwrap();
        assert_eq!(secret_text.len(), 65);
        assert!(secret_text.ends_with('\n'));
        assert_eq!(public_text, format!("{}\n", made.public_hex));
        let (loaded, _) =
            read_secret_key_file(&made.secret_path, &mut || Err(KeyError::NoPassphrase)).unwrap();
        assert_eq!(loaded.public.hex, made.public_hex);
        assert_eq!(loaded.public.key_id, made.key_id);
        #[cfg(unix)]
        {
            assert_eq!(unix_mode(&fs::metadata(&dir).unwrap()), Some(0o700));
            assert_eq!(
                unix_mode(&fs::metadata(&made.secret_path).unwrap()),
                Some(0o600)
            );
            assert_eq!(
                unix_mode(&fs::metadata(&made.public_path).unwrap()),
                Some(0o644)
            );
        }
        let again = generate(&dir, "approval", Protection::Plain).unwrap_err();
        assert_eq!(again.code(), "key-file-exists");
        assert_eq!(fs::read_to_string(&made.secret_path).unwrap(), secret_text);
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "no temporary files left: {names:?}");
    }

    #[test]
    fn key_names_must_be_plain() {
        for bad in ["", ".hidden", "a/b", "../x", "a b"] {
            assert_eq!(check_name(bad).unwrap_err().code(), "bad-key-name");
        }
        check_name("approval-2.v1_x").unwrap();
    }
}
