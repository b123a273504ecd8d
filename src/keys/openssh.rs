//! OpenSSH Ed25519 public keys: the `ssh-ed25519 <base64 blob> [comment]` line of an
//! `id_ed25519.pub` file and the wire blob inside it (string "ssh-ed25519", string of the 32
//! key bytes, each string a big-endian u32 length then its bytes). Only Ed25519 is accepted:
//! its agent signatures are plain Ed25519 signatures, which seal-host verifies unchanged.

use super::{KeyError, PublicKey};
use base64::Engine as _;

/// The OpenSSH key type name of Ed25519.
pub const ED25519: &str = "ssh-ed25519";

/// Whether text looks meant as an OpenSSH public key line (so its errors say so).
pub fn looks_like_ssh(text: &str) -> bool {
    text.trim_start().starts_with("ssh-")
}

/// Parses one `ssh-ed25519 AAAA… [comment]` line (surrounding whitespace and one line end
/// allowed); returns the key and the comment.
pub fn parse_public_line(text: &str, what: &str) -> Result<(PublicKey, String), KeyError> {
    let error = |message: &str| KeyError::SshFormat {
        what: what.to_owned(),
        message: message.to_owned(),
    };
    let line = text.trim();
    if line.contains('\n') {
        return Err(error("more than one line"));
    }
    let mut fields = line.splitn(3, [' ', '\t']);
    let kind = fields.next().unwrap_or("");
    if kind != ED25519 {
        return Err(error("only ssh-ed25519 keys can sign approvals"));
    }
    let blob_text = fields.next().unwrap_or("").trim();
    let comment = fields.next().unwrap_or("").trim().to_owned();
    let blob = base64::engine::general_purpose::STANDARD
        .decode(blob_text)
        .map_err(|_| error("the key blob is not base64"))?;
    let bytes = parse_blob(&blob).ok_or_else(|| error("the key blob is not an Ed25519 key"))?;
    Ok((PublicKey::from_bytes(&bytes)?, comment))
}

/// The 32 key bytes of an Ed25519 wire blob.
pub fn parse_blob(blob: &[u8]) -> Option<[u8; 32]> {
    let (kind, rest) = read_string(blob)?;
    if kind != ED25519.as_bytes() {
        return None;
    }
    let (key, rest) = read_string(rest)?;
    if !rest.is_empty() {
        return None;
    }
    key.try_into().ok()
}

/// The wire blob of an Ed25519 public key.
pub fn blob(public: &PublicKey) -> Vec<u8> {
    let mut out = Vec::with_capacity(51);
    put_string(&mut out, ED25519.as_bytes());
    put_string(&mut out, public.verifying.as_bytes());
    out
}

/// The `ssh-ed25519 AAAA…` line of a public key (no comment).
pub fn public_line(public: &PublicKey) -> String {
    format!(
        "{ED25519} {}",
        base64::engine::general_purpose::STANDARD.encode(blob(public))
    )
}

/// The key's fingerprint as `ssh-keygen -l` and `ssh-add -l` print it: `SHA256:` and the
/// unpadded standard base64 of the SHA-256 of its wire blob.
pub fn fingerprint(public: &PublicKey) -> String {
    use sha2::Digest as _;
    let digest = sha2::Sha256::digest(blob(public));
    format!(
        "SHA256:{}",
        base64::engine::general_purpose::STANDARD_NO_PAD.encode(digest)
    )
}

/// One SSH wire string: big-endian u32 length, then the bytes; returns it and the rest.
pub fn read_string(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let length_bytes: [u8; 4] = bytes.get(..4)?.try_into().ok()?;
    let length = usize::try_from(u32::from_be_bytes(length_bytes)).ok()?;
    let rest = bytes.get(4..)?;
    if rest.len() < length {
        return None;
    }
    Some(rest.split_at(length))
}

/// Appends one SSH wire string.
pub fn put_string(out: &mut Vec<u8>, bytes: &[u8]) {
    let length = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&length.to_be_bytes());
    out.extend_from_slice(bytes);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error_code::Coded as _;
    use crate::keys::SecretKey;

    #[test]
    fn round_trips_and_reads_ssh_keygen_lines() {
        let key = SecretKey::from_seed(&[0x17; 32]);
        let line = public_line(&key.public);
        assert!(
            line.starts_with("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"),
            "{line}"
        );
        let (parsed, comment) = parse_public_line(&format!("{line} me@host\n"), "k").unwrap();
        assert_eq!(parsed, key.public);
        assert_eq!(comment, "me@host");
        assert_eq!(PublicKey::from_text(&line).unwrap(), key.public);
    }

    #[test]
    fn other_key_types_and_bad_blobs_are_refused() {
        for bad in [
            "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ== x",
            "ssh-ed25519 !!!",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5",
            "ssh-ed25519",
        ] {
            assert_eq!(
                parse_public_line(bad, "k").unwrap_err().code(),
                "ssh-key-format"
            );
        }
    }
}
