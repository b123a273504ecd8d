//! The `key_files` fuzz target: what a key file is (plain secret, encrypted, public, OpenSSH
//! public) from its bytes, name and mode, and the encrypted file's stated public key.

use sealkit::keys::encrypted::{decrypt_with, is_encrypted, stated_public};
use sealkit::keys::file::{classify, Content};
use std::path::Path;
use std::sync::OnceLock;

/// The passphrase `fuzz` with a small scrypt work limit, made once: `Identity::new` times
/// scrypt on this machine to pick its default limit, far too slow to repeat per input.
fn identity() -> &'static age::scrypt::Identity {
    static IDENTITY: OnceLock<age::scrypt::Identity> = OnceLock::new();
    IDENTITY.get_or_init(|| {
        let mut identity =
            age::scrypt::Identity::new(age::secrecy::SecretString::from("fuzz".to_owned()));
        identity.set_max_work_factor(4);
        identity
    })
}

/// The input as a key file under three names (`.key`, `.pub`, none) and three modes
/// (owner-only, readable, unknown). A `.key` name or an owner-only mode without the `.pub`
/// name never yields a public key (a secret is never taken for one); a public key's hex is
/// in the file; an encrypted file is what `is_encrypted` says; its stated public key is 64
/// hex digits written in the file, and a file that decrypts (under the passphrase `fuzz`,
/// with a small scrypt work limit) decrypts to a seed whose public key is the stated one.
pub fn key_files(data: &[u8]) {
    for name in ["k.key", "k.pub", "k"] {
        let path = Path::new(name);
        for mode in [Some(0o600), Some(0o644), None] {
            let Ok(content) = classify(data, path, mode) else {
                continue;
            };
            match content {
                Content::Public { key, recognisable } => {
                    assert!(name != "k.key", "a .key file read as public");
                    assert!(mode != Some(0o600), "an owner-only file read as public");
                    assert_eq!(
                        recognisable,
                        mode == Some(0o644) || (mode.is_none() && name == "k.pub")
                    );
                    let text = String::from_utf8_lossy(data).to_ascii_lowercase();
                    assert!(text.contains(&key.hex), "public key not in the file");
                }
                Content::Encrypted(bytes) => {
                    assert_eq!(bytes, data);
                    assert!(is_encrypted(data));
                    check_encrypted(data);
                }
                Content::PlainSeed { raw, .. } => {
                    assert!(!is_encrypted(data));
                    assert_eq!(raw, data.len() == 32);
                }
                Content::SshPublic { key, .. } => {
                    assert!(std::str::from_utf8(data).is_ok());
                    assert_eq!(key.hex.len(), 64);
                }
                Content::OtherSecret => {
                    assert!(String::from_utf8_lossy(data).contains("PRIVATE KEY"));
                }
            }
        }
    }
}

fn check_encrypted(data: &[u8]) {
    let path = Path::new("k.key");
    let stated = stated_public(path, data);
    if let Ok(Some(key)) = &stated {
        let text = String::from_utf8_lossy(data).to_ascii_lowercase();
        assert!(text.contains(&key.hex), "stated key not in the file");
    }
    if let Ok(secret) = decrypt_with(path, data, identity()) {
        match stated {
            Ok(Some(key)) => assert_eq!(key, secret.public, "stated key is not the seed's"),
            Ok(None) => {}
            Err(error) => panic!("decrypted a file whose stated key is malformed: {error}"),
        }
    }
}
