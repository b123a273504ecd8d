//! `sealkit approve --ssh-agent` against a real OpenSSH ssh-agent started here (ssh-keygen,
//! ssh-agent and ssh-add from the OpenSSH client tools; .ci/run installs them): the token
//! verifies under the key's `id_ed25519.pub`, is byte-identical to the token the same key signs
//! from a key file, and several loaded keys are refused unless `--ssh-key` picks one.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use support::*;

/// An ssh-agent in the foreground on a private socket, killed when dropped.
struct Agent {
    child: Child,
    socket: PathBuf,
}

impl Agent {
    fn start(dir: &Path) -> Agent {
        let socket = dir.join("agent.sock");
        let child = std::process::Command::new("ssh-agent")
            .arg("-D")
            .arg("-a")
            .arg(&socket)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("ssh-agent (OpenSSH client tools) must be installed");
        for _ in 0..200 {
            if socket.exists() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        assert!(socket.exists(), "ssh-agent did not create its socket");
        Agent { child, socket }
    }

    fn add(&self, private_key: &Path) {
        let status = std::process::Command::new("ssh-add")
            .arg(private_key)
            .env("SSH_AUTH_SOCK", &self.socket)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ssh_keygen(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    let status = std::process::Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "tester@host", "-f"])
        .arg(&path)
        .status()
        .unwrap();
    assert!(status.success());
    path
}

/// The 32-byte seed of an unencrypted OpenSSH Ed25519 private key file.
fn openssh_seed(path: &Path) -> [u8; 32] {
    use base64::Engine as _;
    let text = std::fs::read_to_string(path).unwrap();
    let body: String = text.lines().filter(|l| !l.starts_with("-----")).collect();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(body)
        .unwrap();
    let mut rest = &bytes[b"openssh-key-v1\0".len()..];
    fn string<'a>(rest: &mut &'a [u8]) -> &'a [u8] {
        let length = u32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
        let value = &rest[4..4 + length];
        *rest = &rest[4 + length..];
        value
    }
    assert_eq!(string(&mut rest), b"none"); // cipher
    string(&mut rest); // kdf
    string(&mut rest); // kdf options
    rest = &rest[4..]; // number of keys
    string(&mut rest); // public key blob
    let private = string(&mut rest);
    // checkint ×2, key type string, public key string, then the 64-byte secret (seed‖public).
    let mut p = &private[8..];
    for _ in 0..2 {
        let length = u32::from_be_bytes(p[..4].try_into().unwrap()) as usize;
        p = &p[4 + length..];
    }
    let length = u32::from_be_bytes(p[..4].try_into().unwrap()) as usize;
    assert_eq!(length, 64);
    p[4..36].try_into().unwrap()
}

fn approve(tokens: &Path, socket: &Path, key_args: &[&str]) -> std::process::Output {
    let frame = frame_path().display().to_string();
    Command::cargo_bin("sealkit")
        .unwrap()
        .args(["approve", "--yes", "--token-file"])
        .arg(tokens)
        .args(key_args)
        .args(["--frame", &frame, "--target", TARGET])
        .args([
            "--nonce",
            "n-1",
            "--authorized-at",
            "1786000000000",
            "--now",
            "1786000000500",
            "--session",
            "s-1",
        ])
        .env("SSH_AUTH_SOCK", socket)
        .env_remove("SEALKIT_APPROVAL_KEY_FILE")
        .output()
        .unwrap()
}

fn verify(tokens: &Path, pubfile: &Path) -> std::process::Output {
    Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval"])
        .arg(tokens)
        .arg("--pubkey-file")
        .arg(pubfile)
        .args([
            "--frame",
            frame_path().to_str().unwrap(),
            "--target",
            TARGET,
        ])
        .output()
        .unwrap()
}

#[test]
fn agent_signs_tokens_that_verify_and_match_file_signed_ones() {
    let dir = tempfile::tempdir().unwrap();
    // The tokens in a directory of their own: a key kept beside them is read from inside
    // the evidence (approval-key-in-evidence), which is not what this test is about.
    let tokens_dir = dir.path().join("tokens");
    std::fs::create_dir(&tokens_dir).unwrap();
    let first = ssh_keygen(dir.path(), "id_ed25519");
    let agent = Agent::start(dir.path());
    agent.add(&first);

    // Renderer version 1 (its screen does not name the key's storage) for the byte
    // comparison below; version 3, the default, is compared apart from its shown text.
    let tokens = tokens_dir.join("agent.ndjson");
    let output = approve(
        &tokens,
        &agent.socket,
        &["--ssh-agent", "--renderer-version", "1"],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let verified = verify(&tokens, &dir.path().join("id_ed25519.pub"));
    assert_eq!(verified.status.code(), Some(0), "{verified:?}");
    assert!(String::from_utf8_lossy(&verified.stdout).contains("1 accepted, 0 rejected"));

    // The same key from a plain key file signs the same bytes: storage does not change tokens.
    let seed = openssh_seed(&first);
    let seed_hex: String = seed.iter().map(|b| format!("{b:02x}")).collect();
    let key_file = dir.path().join("same.key");
    std::fs::write(&key_file, format!("{seed_hex}\n")).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let file_tokens = tokens_dir.join("file.ndjson");
    let key_arg = key_file.display().to_string();
    let output = approve(
        &file_tokens,
        &agent.socket,
        &["--key-file", &key_arg, "--renderer-version", "1"],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(
        std::fs::read(&tokens).unwrap(),
        std::fs::read(&file_tokens).unwrap()
    );
    // Version 3 names the storage on the screen ("ssh-agent" / "key file …"): only the
    // shown-text digest and length differ.
    let agent_v2 = tokens_dir.join("agent-v2.ndjson");
    let output = approve(&agent_v2, &agent.socket, &["--ssh-agent"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    // The screen names the agent key as `ssh-add -l` does.
    let first_fingerprint =
        crate::support::ssh_keygen_fingerprint(&dir.path().join("id_ed25519.pub"));
    let screen = String::from_utf8_lossy(&output.stdout);
    assert!(
        screen.contains(&format!("  ssh key    {first_fingerprint} tester@host\n")),
        "{screen}"
    );
    let verified = verify(&agent_v2, &dir.path().join("id_ed25519.pub"));
    assert_eq!(verified.status.code(), Some(0), "{verified:?}");
    let file_v2 = tokens_dir.join("file-v2.ndjson");
    let output = approve(&file_v2, &agent.socket, &["--key-file", &key_arg]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let (agent_payload, agent_shown) = crate::support::payload_and_shown(&agent_v2);
    let (file_payload, file_shown) = crate::support::payload_and_shown(&file_v2);
    assert_eq!(agent_payload, file_payload);
    assert_ne!(agent_shown, file_shown);
    assert!(!String::from_utf8_lossy(&output.stdout).contains(&seed_hex));

    // Two keys loaded: refused with both key ids, unless --ssh-key picks one.
    let second = ssh_keygen(dir.path(), "other");
    agent.add(&second);
    let refused_tokens = tokens_dir.join("refused.ndjson");
    let output = approve(&refused_tokens, &agent.socket, &["--ssh-agent"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("ssh-agent-ambiguous"), "{stderr}");
    // Both keys by fingerprint and comment, beside their key ids.
    let second_fingerprint = crate::support::ssh_keygen_fingerprint(&dir.path().join("other.pub"));
    // The diagnostic is wrapped to the terminal, and the wrap may fall inside a fingerprint
    // (after a `/`, which a random fingerprint may hold anywhere), continuing on a line that
    // starts with the `│` gutter; the text is compared with spaces, line breaks and the gutter
    // taken out.
    let unwrapped: String = stderr
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '│')
        .collect();
    for fingerprint in [&first_fingerprint, &second_fingerprint] {
        assert!(
            unwrapped.contains(&format!("{fingerprint}tester@host(keyid")),
            "{stderr}"
        );
    }
    assert!(stderr.contains("--ssh-key"), "{stderr}");
    assert!(!refused_tokens.exists());
    let picked = tokens_dir.join("picked.ndjson");
    let other_pub = dir.path().join("other.pub").display().to_string();
    let output = approve(
        &picked,
        &agent.socket,
        &["--ssh-agent", "--ssh-key", &other_pub],
    );
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let verified = verify(&picked, &dir.path().join("other.pub"));
    assert_eq!(verified.status.code(), Some(0), "{verified:?}");
}

#[test]
fn no_agent_exits_2_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("t.ndjson");
    let output = approve(&tokens, &dir.path().join("no-such.sock"), &["--ssh-agent"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("ssh-agent-failed"), "{stderr}");
    assert!(!tokens.exists());
}

/// An agent holding no key is `ssh-agent-no-key` with its hint, not an ambiguous choice among
/// none. Seen red (cargo-mutants, docs/mutants.md "keys") under the deletion of the `0` arm of
/// `keys::agent::signer`, where the empty list fell through to `ssh-agent-ambiguous`.
#[test]
fn an_agent_holding_no_key_exits_2_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let agent = Agent::start(dir.path());
    let tokens = dir.path().join("t.ndjson");
    let output = approve(&tokens, &agent.socket, &["--ssh-agent"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("ssh-agent-no-key"), "{stderr}");
    assert!(
        stderr.contains("the agent holds no Ed25519 key"),
        "{stderr}"
    );
    assert!(stderr.contains("ssh-add"), "{stderr}");
    assert!(!tokens.exists());
}
