//! Signing with an Ed25519 key held by the running ssh-agent (`SSH_AUTH_SOCK`), so the secret
//! never reaches sealkit. Only the two agent requests needed are spoken (list identities,
//! sign), each a length-prefixed message over the agent's Unix socket. An `ssh-ed25519` agent
//! signature is a plain Ed25519 signature over the bytes given, so what the agent signs
//! verifies under seal-host's rules unchanged; the caller verifies it before using it.
//! Unix only (OpenSSH's agent on Windows listens on a named pipe, which this does not speak).

use super::openssh::{self, parse_blob, put_string, read_string};
use super::{KeyError, PublicKey, Signer};

const REQUEST_IDENTITIES: u8 = 11;
const IDENTITIES_ANSWER: u8 = 12;
const SIGN_REQUEST: u8 = 13;
const SIGN_RESPONSE: u8 = 14;
/// An agent reply larger than this is not one we asked for.
const MAX_REPLY_BYTES: usize = 256 * 1024;

/// An Ed25519 key held by the agent.
#[derive(Debug, Clone)]
pub struct AgentKey {
    pub public: PublicKey,
    pub comment: String,
}

impl AgentKey {
    /// `SHA256:… comment`, as `ssh-add -l` names the key (the comment is untrusted text:
    /// callers escape it).
    pub fn fingerprint(&self) -> String {
        let fingerprint = openssh::fingerprint(&self.public);
        if self.comment.is_empty() {
            fingerprint
        } else {
            format!("{fingerprint} {}", self.comment)
        }
    }
}

/// A connection to the agent and the key it signs with.
pub struct AgentSigner {
    socket: std::path::PathBuf,
    key: AgentKey,
}

fn agent_error(message: impl Into<String>) -> KeyError {
    KeyError::Agent {
        message: message.into(),
    }
}

/// The agent socket named by `SSH_AUTH_SOCK`.
pub fn socket_path() -> Result<std::path::PathBuf, KeyError> {
    match std::env::var_os("SSH_AUTH_SOCK") {
        Some(value) if !value.is_empty() => Ok(value.into()),
        _ => Err(agent_error("SSH_AUTH_SOCK is not set: no agent to ask")),
    }
}

/// Connects to the agent and picks its Ed25519 key: the one `wanted` names, else the only
/// one. Several keys and no `wanted` is refused, naming each by its SHA256 fingerprint,
/// comment and key id.
pub fn signer(wanted: Option<&PublicKey>) -> Result<AgentSigner, KeyError> {
    let socket = socket_path()?;
    let keys = list_keys(&socket)?;
    let key = match wanted {
        Some(wanted) => keys
            .into_iter()
            .find(|k| &k.public == wanted)
            .ok_or_else(|| KeyError::AgentNoKey {
                message: format!(
                    "the agent does not hold the key given with --ssh-key ({}, key id {})",
                    openssh::fingerprint(wanted),
                    wanted.key_id
                ),
            })?,
        None => match keys.len() {
            0 => {
                return Err(KeyError::AgentNoKey {
                    message: "the agent holds no Ed25519 key".into(),
                })
            }
            1 => keys
                .into_iter()
                .next()
                .ok_or_else(|| agent_error("no key"))?,
            _ => {
                return Err(KeyError::AgentAmbiguous {
                    keys: keys
                        .iter()
                        .map(|k| format!("{} (key id {})", k.fingerprint(), k.public.key_id))
                        .collect(),
                })
            }
        },
    };
    Ok(AgentSigner { socket, key })
}

/// The Ed25519 keys the agent holds (other key types are skipped).
pub fn list_keys(socket: &std::path::Path) -> Result<Vec<AgentKey>, KeyError> {
    let reply = request(socket, &[REQUEST_IDENTITIES])?;
    let body = match reply.split_first() {
        Some((&IDENTITIES_ANSWER, body)) => body,
        _ => return Err(agent_error("the agent refused to list its keys")),
    };
    let count_bytes: [u8; 4] = body
        .get(..4)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| agent_error("malformed key list"))?;
    let mut rest = &body[4..];
    let mut keys = Vec::new();
    for _ in 0..u32::from_be_bytes(count_bytes) {
        let (blob, after) = read_string(rest).ok_or_else(|| agent_error("malformed key list"))?;
        let (comment, after) =
            read_string(after).ok_or_else(|| agent_error("malformed key list"))?;
        rest = after;
        if let Some(bytes) = parse_blob(blob) {
            if let Ok(public) = PublicKey::from_bytes(&bytes) {
                keys.push(AgentKey {
                    public,
                    comment: String::from_utf8_lossy(comment).into_owned(),
                });
            }
        }
    }
    Ok(keys)
}

impl AgentSigner {
    pub fn key(&self) -> &AgentKey {
        &self.key
    }
}

impl Signer for AgentSigner {
    fn public(&self) -> &PublicKey {
        &self.key.public
    }

    fn sign_bytes(&self, message: &[u8]) -> Result<[u8; 64], KeyError> {
        let mut body = vec![SIGN_REQUEST];
        put_string(&mut body, &openssh::blob(&self.key.public));
        put_string(&mut body, message);
        body.extend_from_slice(&0u32.to_be_bytes());
        let reply = request(&self.socket, &body)?;
        let signature = match reply.split_first() {
            Some((&SIGN_RESPONSE, rest)) => read_string(rest).map(|(s, _)| s),
            _ => None,
        }
        .ok_or_else(|| agent_error("the agent refused to sign (is the key confirmed?)"))?;
        let (kind, rest) =
            read_string(signature).ok_or_else(|| agent_error("malformed signature"))?;
        let (bytes, _) = read_string(rest).ok_or_else(|| agent_error("malformed signature"))?;
        if kind != openssh::ED25519.as_bytes() {
            return Err(agent_error("the agent returned a non-Ed25519 signature"));
        }
        bytes
            .try_into()
            .map_err(|_| agent_error("the agent returned a signature of the wrong length"))
    }
}

#[cfg(unix)]
fn request(socket: &std::path::Path, body: &[u8]) -> Result<Vec<u8>, KeyError> {
    use std::io::{Read, Write};
    let mut stream = std::os::unix::net::UnixStream::connect(socket)
        .map_err(|e| agent_error(format!("cannot connect to {}: {e}", socket.display())))?;
    let io = |e: std::io::Error| agent_error(format!("talking to the agent: {e}"));
    let length = u32::try_from(body.len()).map_err(|_| agent_error("request too large"))?;
    let mut message = length.to_be_bytes().to_vec();
    message.extend_from_slice(body);
    stream.write_all(&message).map_err(io)?;
    let mut length = [0u8; 4];
    stream.read_exact(&mut length).map_err(io)?;
    let length = usize::try_from(u32::from_be_bytes(length)).unwrap_or(usize::MAX);
    if length > MAX_REPLY_BYTES {
        return Err(agent_error("the agent's reply is too large"));
    }
    let mut reply = vec![0u8; length];
    stream.read_exact(&mut reply).map_err(io)?;
    Ok(reply)
}

#[cfg(not(unix))]
fn request(_socket: &std::path::Path, _body: &[u8]) -> Result<Vec<u8>, KeyError> {
    Err(agent_error("ssh-agent signing is supported on Unix only"))
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::error_code::Coded as _;
    use crate::keys::SecretKey;
    use std::io::{Read, Write};
    use std::os::unix::net::UnixListener;

    /// A fake agent on a fresh socket: reads one request and writes `reply` (length prefix
    /// included) back.
    fn fake_agent(
        reply: Vec<u8>,
    ) -> (
        tempfile::TempDir,
        std::path::PathBuf,
        std::thread::JoinHandle<()>,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("agent.sock");
        let listener = UnixListener::bind(&socket).unwrap();
        let agent = std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut length = [0u8; 4];
            stream.read_exact(&mut length).unwrap();
            let mut body = vec![0u8; usize::try_from(u32::from_be_bytes(length)).unwrap()];
            stream.read_exact(&mut body).unwrap();
            assert_eq!(body, [REQUEST_IDENTITIES]);
            // The client stops reading a reply it refuses: a failed write is expected then.
            let _ = stream.write_all(&reply);
        });
        (dir, socket, agent)
    }

    /// An identities answer holding the seed-0x17 key, its comment padding the reply body to
    /// `body_length` bytes.
    fn key_list(body_length: usize) -> Vec<u8> {
        let key = SecretKey::from_seed(&[0x17; 32]).public;
        let mut body = vec![IDENTITIES_ANSWER];
        body.extend_from_slice(&1u32.to_be_bytes());
        put_string(&mut body, &openssh::blob(&key));
        let comment = vec![b'c'; body_length - body.len() - 4];
        put_string(&mut body, &comment);
        let mut reply = u32::try_from(body.len()).unwrap().to_be_bytes().to_vec();
        reply.extend_from_slice(&body);
        reply
    }

    /// An agent reply of 256 KiB is read; one byte more is refused before anything is
    /// allocated for it (a hostile agent's length prefix could ask for 4 GiB). Seen red under
    /// `>` → `==` and `>` → `>=` in `request`'s size check.
    #[test]
    fn a_reply_of_256_kib_is_read_and_one_byte_more_is_refused() {
        let (_dir, socket, agent) = fake_agent(key_list(262_144));
        let keys = list_keys(&socket).unwrap();
        agent.join().unwrap();
        assert_eq!(keys.len(), 1);
        assert_eq!(
            keys[0].public.key_id,
            "e37abcd79efd08db94518a903952ffe9f8af7e8b4684b63591631cef8e8871c8"
        );
        assert_eq!(keys[0].comment.len(), 262_144 - 64);

        let (_dir, socket, agent) = fake_agent(key_list(262_145));
        let error = list_keys(&socket).unwrap_err();
        agent.join().unwrap();
        assert_eq!(error.code(), "ssh-agent-failed");
        assert_eq!(
            error.to_string(),
            "ssh-agent: the agent's reply is too large"
        );
    }
}
