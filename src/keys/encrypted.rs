//! Passphrase-encrypted secret key files: the seal-host key text (`<64 hex>\n`) encrypted
//! with age's scrypt passphrase recipient and ASCII-armored, so the file is text that holds no
//! plain seed. Decrypted text lives only in memory wiped on drop; a wrong passphrase is its own
//! error. The scrypt work factor age picks for this machine (about a second) makes guessing
//! slow; a file demanding far more work than that is refused rather than tried.

use super::{parse_key_text, KeyError, SecretKey};
use age::secrecy::SecretString;
use std::path::Path;
use zeroize::Zeroizing;

/// The first line of an armored age file.
pub const ARMOR_BEGIN: &str = "-----BEGIN AGE ENCRYPTED FILE-----";
/// The first bytes of a binary age file.
pub const BINARY_BEGIN: &[u8] = b"age-encryption.org/";

/// Whether the bytes are an age-encrypted file (armored or binary).
pub fn is_encrypted(bytes: &[u8]) -> bool {
    let text = trim_ascii_start(bytes);
    text.starts_with(ARMOR_BEGIN.as_bytes()) || text.starts_with(BINARY_BEGIN)
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
    age::encrypt_and_armor(&recipient, text.as_bytes()).map_err(|e| KeyError::Encrypted {
        path: Default::default(),
        message: e.to_string(),
    })
}

/// Decrypts an encrypted key file's bytes with the passphrase.
pub fn decrypt(path: &Path, bytes: &[u8], passphrase: SecretString) -> Result<SecretKey, KeyError> {
    let identity = age::scrypt::Identity::new(passphrase);
    let plain = age::decrypt(&identity, bytes).map_err(|error| match error {
        age::DecryptError::DecryptionFailed | age::DecryptError::NoMatchingKeys => {
            KeyError::WrongPassphrase {
                path: path.to_path_buf(),
            }
        }
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
    Ok(SecretKey::from_seed(&seed))
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
        assert!(armored.starts_with(ARMOR_BEGIN), "{armored}");
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
    }
}
