//! Passphrase-encrypted secret key files: the seal-host key text (`<64 hex>\n`) encrypted
//! with age's scrypt passphrase recipient and ASCII-armored, so the file is text that holds no
//! plain seed. As in OpenSSH private key files, the public key stays in the clear beside the
//! encrypted seed (a first line `sealkit-public-key <64 hex>`), so what the file is can be shown
//! without the passphrase; decrypting checks that the stated public key is the seed's.
//! Decrypted text lives only in memory wiped on drop; a wrong passphrase is its own error. The
//! scrypt work factor age picks for this machine (about a second) makes guessing slow; a file
//! demanding far more work than that is refused rather than tried.

use super::{parse_key_text, KeyError, PublicKey, SecretKey};
use age::secrecy::SecretString;
use std::path::Path;
use zeroize::Zeroizing;

/// The first line of an armored age file.
pub const ARMOR_BEGIN: &str = "-----BEGIN AGE ENCRYPTED FILE-----";
/// The first bytes of a binary age file.
pub const BINARY_BEGIN: &[u8] = b"age-encryption.org/";

/// The first line of an encrypted key file sealkit writes, before the public key's 64 hex.
pub const PUBLIC_LINE: &str = "sealkit-public-key ";

/// Whether the bytes are an age-encrypted file (armored or binary), with or without the
/// public key line sealkit writes before it.
pub fn is_encrypted(bytes: &[u8]) -> bool {
    let text = trim_ascii_start(bytes);
    text.starts_with(PUBLIC_LINE.as_bytes())
        || text.starts_with(ARMOR_BEGIN.as_bytes())
        || text.starts_with(BINARY_BEGIN)
}

/// Splits an encrypted key file into its public key line's 64 hex digits (absent in files
/// written before the line existed) and the age file after it.
fn split_public(bytes: &[u8]) -> (Option<&[u8]>, &[u8]) {
    let text = trim_ascii_start(bytes);
    let Some(rest) = text.strip_prefix(PUBLIC_LINE.as_bytes()) else {
        return (None, bytes);
    };
    match rest.iter().position(|b| *b == b'\n') {
        Some(end) => (Some(&rest[..end]), &rest[end + 1..]),
        None => (Some(rest), &[]),
    }
}

/// The public key an encrypted key file states in the clear, read without the passphrase;
/// `None` for a file without the line. A line that is not 64 hex digits of a valid key is a
/// format error.
pub fn stated_public(path: &Path, bytes: &[u8]) -> Result<Option<PublicKey>, KeyError> {
    let (Some(line), _) = split_public(bytes) else {
        return Ok(None);
    };
    let what = format!("{}'s public key line", path.display());
    let text = std::str::from_utf8(line).map_err(|_| KeyError::Format { what: what.clone() })?;
    let text = text.strip_suffix('\r').unwrap_or(text);
    if text.len() != 64 {
        return Err(KeyError::Format { what });
    }
    PublicKey::from_hex(text)
        .map(Some)
        .map_err(|_| KeyError::Format { what })
}

fn trim_ascii_start(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    &bytes[start..]
}

/// Encrypts a secret key's file text under the passphrase; returns the armored file text.
pub fn encrypt(key: &SecretKey, passphrase: SecretString) -> Result<String, KeyError> {
    let text = key.to_key_text();
    let recipient = age::scrypt::Recipient::new(passphrase);
    let armored =
        age::encrypt_and_armor(&recipient, text.as_bytes()).map_err(|e| KeyError::Encrypted {
            path: Default::default(),
            message: e.to_string(),
        })?;
    Ok(format!("{PUBLIC_LINE}{}\n{armored}", key.public.hex))
}

/// Decrypts an encrypted key file's bytes with the passphrase.
pub fn decrypt(path: &Path, bytes: &[u8], passphrase: SecretString) -> Result<SecretKey, KeyError> {
    decrypt_with(path, bytes, &age::scrypt::Identity::new(passphrase))
}

/// [`decrypt`] with a passphrase identity whose scrypt work limit the caller set (the fuzz
/// target keeps it small so that a header demanding much work is refused quickly).
pub fn decrypt_with(
    path: &Path,
    bytes: &[u8],
    identity: &age::scrypt::Identity,
) -> Result<SecretKey, KeyError> {
    let stated = stated_public(path, bytes)?;
    let (_, age_file) = split_public(bytes);
    let plain = age::decrypt(identity, age_file).map_err(|error| match error {
        age::DecryptError::DecryptionFailed | age::DecryptError::NoMatchingKeys => {
            KeyError::WrongPassphrase {
                path: path.to_path_buf(),
            }
        }
        // age's own text for this error computes `1 << (required - target)`, which
        // overflows (a panic in debug builds) for a file demanding less than the machine's
        // target or far more: say it without that arithmetic.
        age::DecryptError::ExcessiveWork { required, .. } => KeyError::Encrypted {
            path: path.to_path_buf(),
            message: format!(
                "the file demands scrypt work factor 2^{required}, more than this machine \
                 allows; it is refused rather than tried"
            ),
        },
        other => KeyError::Encrypted {
            path: path.to_path_buf(),
            message: other.to_string(),
        },
    })?;
    let plain = Zeroizing::new(plain);
    let text = std::str::from_utf8(&plain).map_err(|_| KeyError::Encrypted {
        path: path.to_path_buf(),
        message: "the decrypted content is not a key".to_owned(),
    })?;
    let seed = Zeroizing::new(parse_key_text(
        text,
        &format!("{} (decrypted)", path.display()),
    )?);
    let key = SecretKey::from_seed(&seed);
    match stated {
        Some(public) if public != key.public => Err(KeyError::Encrypted {
            path: path.to_path_buf(),
            message: "the public key line is not the encrypted seed's public key (the file \
                      was edited)"
                .to_owned(),
        }),
        _ => Ok(key),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error_code::Coded as _;

    #[test]
    fn round_trip_and_wrong_passphrase() {
        let key = SecretKey::from_seed(&[0x17; 32]);
        let armored = encrypt(&key, SecretString::from("correct horse".to_owned())).unwrap();
        assert!(
            armored.starts_with(&format!("{PUBLIC_LINE}{}\n{ARMOR_BEGIN}", key.public.hex)),
            "{armored}"
        );
        assert_eq!(
            stated_public(Path::new("k"), armored.as_bytes()).unwrap(),
            Some(key.public.clone())
        );
        assert!(is_encrypted(armored.as_bytes()));
        assert!(!armored.contains(&"17".repeat(32)));
        let path = Path::new("k.key");
        let back = decrypt(
            path,
            armored.as_bytes(),
            SecretString::from("correct horse".to_owned()),
        )
        .unwrap();
        assert_eq!(back.public, key.public);
        let wrong = decrypt(
            path,
            armored.as_bytes(),
            SecretString::from("nope".to_owned()),
        )
        .unwrap_err();
        assert_eq!(wrong.code(), "wrong-passphrase");
        // A file without the public key line (written before it existed) still decrypts.
        let bare = armored.split_once('\n').unwrap().1;
        assert_eq!(stated_public(path, bare.as_bytes()).unwrap(), None);
        let passphrase = || SecretString::from("correct horse".to_owned());
        assert_eq!(
            decrypt(path, bare.as_bytes(), passphrase()).unwrap().public,
            key.public
        );
        // Another public key stated beside the seed is refused once decrypted.
        let other = SecretKey::from_seed(&[0x18; 32]).public.hex.clone();
        let edited = format!("{PUBLIC_LINE}{other}\n{bare}");
        let error = decrypt(path, edited.as_bytes(), passphrase()).unwrap_err();
        assert_eq!(error.code(), "encrypted-key-unreadable");
    }
}
