//! Approver keys through the real binary: `key show` says what a key file is, public-key
//! options refuse secret key files without echoing them and take OpenSSH public keys,
//! `keygen` encrypts with a passphrase, `approve` decrypts (a wrong passphrase writes nothing)
//! and signs byte-identical tokens whatever the storage, `key protect` encrypts in place.
//! Every output of these tests is searched for the secret seed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use support::*;

/// The fixture key as an OpenSSH public key line (ssh-keygen -y of seed 0x17…).
const SSH_LINE: &str =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDHevlXTfHInaLE3ExyqYIcICy4LYLlL14XRRXXPpJi8 me@host";

pub(crate) fn sealkit() -> Command {
    Command::cargo_bin("sealkit").unwrap()
}

/// Runs a command and returns (exit code, stdout, stderr), asserting neither output holds
/// the seed in any form we know (hex either case, or the raw bytes).
pub(crate) fn run(command: &mut Command) -> (i32, String, String) {
    let output = command.output().unwrap();
    for stream in [&output.stdout, &output.stderr] {
        let text = String::from_utf8_lossy(stream);
        assert!(!text.contains(SEED_HEX), "seed in output: {text}");
        assert!(!text.to_uppercase().contains(&SEED_HEX.to_uppercase()));
        assert!(!stream.windows(32).any(|w| w == [0x17; 32]));
    }
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

pub(crate) fn write_mode(path: &Path, text: &str, mode: u32) -> PathBuf {
    std::fs::write(path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    #[cfg(not(unix))]
    let _ = mode;
    path.to_path_buf()
}

fn passphrase_file(dir: &Path, text: &str) -> PathBuf {
    write_mode(&dir.join("passphrase"), &format!("{text}\n"), 0o600)
}

fn show_json(file: &Path, extra: &[&str]) -> Value {
    let (code, stdout, stderr) = run(sealkit()
        .args(["key", "show", "--format", "json"])
        .arg(file)
        .args(extra));
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn key_show_names_each_kind_and_never_prints_a_secret() {
    let dir = tempfile::tempdir().unwrap();
    let plain = key_file(dir.path());
    let public = write_mode(
        &dir.path().join("approval.pub"),
        &format!("{PUBKEY}\n"),
        0o644,
    );
    let ssh = write_mode(
        &dir.path().join("id_ed25519.pub"),
        &format!("{SSH_LINE}\n"),
        0o644,
    );
    for (file, kind) in [
        (&plain, "secret-plain"),
        (&public, "public"),
        (&ssh, "ssh-public"),
    ] {
        let shown = show_json(file, &[]);
        assert_eq!(shown["type"], "key");
        assert_eq!(shown["kind"], kind, "{file:?}");
        assert_eq!(shown["public_key"], PUBKEY);
        assert_eq!(shown["key_id"], KEY_ID);
        // The same key's OpenSSH fingerprint, as `ssh-keygen -l` prints it.
        assert_eq!(
            shown["ssh_fingerprint"],
            crate::support::ssh_keygen_fingerprint(&ssh)
        );
    }
    let (code, stdout, _) = run(sealkit().args(["key", "show"]).arg(&ssh));
    assert_eq!(code, 0);
    let comment = SSH_LINE.split(' ').nth(2).unwrap_or("").trim();
    let expected = format!(
        "ssh key     {} {comment}",
        crate::support::ssh_keygen_fingerprint(&ssh)
    );
    assert!(stdout.contains(expected.trim_end()), "{stdout}");
    // Human output of a secret key file: its public key and key id only.
    let (code, stdout, _) = run(sealkit().args(["key", "show"]).arg(&plain));
    assert_eq!(code, 0);
    assert!(
        stdout.contains(&format!("public key  {PUBKEY}\n")),
        "{stdout}"
    );
    assert!(stdout.contains("kind        secret-plain\n"), "{stdout}");
}

#[test]
fn public_key_options_take_openssh_lines() {
    let dir = tempfile::tempdir().unwrap();
    // The tokens in a directory of their own: a key kept beside them is read from inside
    // the evidence (approval-key-in-evidence), which is not what this test is about.
    let tokens_dir = dir.path().join("tokens");
    std::fs::create_dir(&tokens_dir).unwrap();
    let ssh = write_mode(
        &dir.path().join("id_ed25519.pub"),
        &format!("{SSH_LINE}\n"),
        0o644,
    );
    let tokens = tokens_dir.join("t.ndjson");
    std::fs::write(&tokens, format!("{}\n", fixture_line())).unwrap();
    let (code, stdout, stderr) = run(sealkit()
        .args(["verify", "approval"])
        .arg(&tokens)
        .arg("--pubkey-file")
        .arg(&ssh));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains(&format!("trusted key {PUBKEY} (key id {KEY_ID})")),
        "{stdout}"
    );
    let (code, stdout, stderr) = run(sealkit()
        .args(["verify", "approval"])
        .arg(&tokens)
        .args(["--pubkey", SSH_LINE]));
    assert_eq!(code, 0, "{stdout}{stderr}");
}

fn approve(token_file: &Path, key: &Path, extra: &[&str]) -> (i32, String, String) {
    let frame = frame_path().display().to_string();
    run(sealkit()
        .args(["approve", "--yes", "--token-file"])
        .arg(token_file)
        .arg("--key-file")
        .arg(key)
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
        .args(extra))
}

#[test]
fn protected_key_signs_byte_identical_tokens_and_wrong_passphrase_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let plain_dir = dir.path().join("plain");
    std::fs::create_dir(&plain_dir).unwrap();
    let plain = key_file(&plain_dir);
    let plain_tokens = dir.path().join("plain.ndjson");
    // Renderer version 1's screen does not say where the key lives, so its records are
    // byte-identical whatever the storage; version 4 (the default) is compared below.
    let (code, _, stderr) = approve(&plain_tokens, &plain, &["--renderer-version", "1"]);
    assert_eq!(code, 0, "{stderr}");
    let plain_v2 = dir.path().join("plain-v2.ndjson");
    let (code, _, stderr) = approve(&plain_v2, &plain, &[]);
    assert_eq!(code, 0, "{stderr}");

    let protected = key_file(dir.path());
    let pass = passphrase_file(dir.path(), "correct horse battery");
    let (code, stdout, stderr) = run(sealkit()
        .args(["key", "protect"])
        .arg(&protected)
        .arg("--passphrase-file")
        .arg(&pass));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains(KEY_ID), "{stdout}");
    let text = std::fs::read_to_string(&protected).unwrap();
    assert!(
        text.starts_with("sealkit-public-key ")
            && text.contains("\n-----BEGIN AGE ENCRYPTED FILE-----\n"),
        "{text}"
    );
    assert!(!text.contains(SEED_HEX));
    let shown = show_json(&protected, &["--passphrase-file", pass.to_str().unwrap()]);
    assert_eq!(shown["kind"], "secret-encrypted");
    assert_eq!(shown["key_id"], KEY_ID);
    // Protecting twice is refused and changes nothing.
    let (code, _, stderr) = run(sealkit()
        .args(["key", "protect"])
        .arg(&protected)
        .arg("--passphrase-file")
        .arg(&pass));
    assert_eq!(code, 2);
    assert!(stderr.contains("key-already-encrypted"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&protected).unwrap(), text);

    // A wrong passphrase: exit 2, no token file.
    let wrong = write_mode(&dir.path().join("wrong"), "not it\n", 0o600);
    let tokens = dir.path().join("enc.ndjson");
    let (code, _, stderr) = approve(
        &tokens,
        &protected,
        &["--passphrase-file", wrong.to_str().unwrap()],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("wrong-passphrase"), "{stderr}");
    assert!(!tokens.exists());
    // The right one signs exactly the token the plain key signs.
    let (code, _, stderr) = approve(
        &tokens,
        &protected,
        &[
            "--passphrase-file",
            pass.to_str().unwrap(),
            "--renderer-version",
            "1",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read(&tokens).unwrap(),
        std::fs::read(&plain_tokens).unwrap()
    );
    // Under version 4 the screen names the storage ("key file" / "encrypted key file"), so
    // only the shown-text digest and length differ; every other member is the same.
    let protected_v2 = dir.path().join("enc-v2.ndjson");
    let (code, _, stderr) = approve(
        &protected_v2,
        &protected,
        &["--passphrase-file", pass.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    let (plain_payload, plain_shown) = crate::support::payload_and_shown(&plain_v2);
    let (enc_payload, enc_shown) = crate::support::payload_and_shown(&protected_v2);
    assert_eq!(plain_payload, enc_payload);
    assert_ne!(plain_shown, enc_shown);
}

#[test]
fn keygen_encrypts_by_default_and_its_key_signs_verifiable_tokens() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys");
    let pass = passphrase_file(dir.path(), "pass phrase");
    let (code, stdout, stderr) = run(sealkit()
        .args(["keygen", "--format", "json", "--out-dir"])
        .arg(&keys)
        .arg("--passphrase-file")
        .arg(&pass));
    assert_eq!(code, 0, "{stderr}");
    let made: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(made["encrypted"], true);
    let secret = std::fs::read_to_string(keys.join("approval.key")).unwrap();
    let (public_line, armored) = secret.split_once('\n').unwrap();
    assert_eq!(
        public_line,
        format!(
            "sealkit-public-key {}",
            made["public_key"].as_str().unwrap()
        )
    );
    assert!(armored.starts_with("-----BEGIN AGE ENCRYPTED FILE-----"));
    let tokens = dir.path().join("t.ndjson");
    let (code, _, stderr) = approve(
        &tokens,
        &keys.join("approval.key"),
        &["--passphrase-file", pass.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    // An independent Ed25519 check of the token: ed25519-dalek over the domain preimage.
    let line: Value =
        serde_json::from_str(std::fs::read_to_string(&tokens).unwrap().trim_end()).unwrap();
    let public: [u8; 32] = hex_bytes(made["public_key"].as_str().unwrap());
    let key = ed25519_dalek::VerifyingKey::from_bytes(&public).unwrap();
    let mut preimage = b"seal.approval-record/v2\0".to_vec();
    preimage.extend_from_slice(line["payload"].as_str().unwrap().as_bytes());
    let signature = base64_url(line["signature"].as_str().unwrap());
    key.verify_strict(
        &preimage,
        &ed25519_dalek::Signature::from_slice(&signature).unwrap(),
    )
    .unwrap();
    let (code, stdout, stderr) = run(sealkit()
        .args(["verify", "approval"])
        .arg(&tokens)
        .arg("--pubkey-file")
        .arg(keys.join("approval.pub")));
    assert_eq!(code, 0, "{stdout}{stderr}");
}

#[test]
fn keygen_without_terminal_or_flag_exits_2_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = run(sealkit()
        .args(["keygen", "--out-dir"])
        .arg(dir.path().join("k")));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no-passphrase"), "{stderr}");
    assert!(stderr.contains("--unencrypted"), "{stderr}");
    assert!(!dir.path().join("k").exists());
}

fn hex_bytes(hex: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

fn base64_url(text: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text)
        .unwrap()
}

/// The OpenSSH public key line of a 64-hex public key.
fn ssh_line_of(hex: &str) -> String {
    use base64::Engine as _;
    let mut blob = Vec::new();
    blob.extend_from_slice(&11u32.to_be_bytes());
    blob.extend_from_slice(b"ssh-ed25519");
    blob.extend_from_slice(&32u32.to_be_bytes());
    blob.extend_from_slice(&hex_bytes(hex));
    format!(
        "ssh-ed25519 {} someone@host",
        base64::engine::general_purpose::STANDARD.encode(blob)
    )
}

#[test]
fn bundle_keys_given_as_openssh_lines_verify_as_their_hex() {
    let keys = [
        "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
        "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
        "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
    ];
    let run_with = |keys: [String; 3]| {
        sealkit()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "verify",
                "bundle",
                "testdata/receipts/bundles/bundle-closed.json",
            ])
            .args(["--format", "json", "--issuer-pubkey", &keys[0]])
            .args(["--request-pubkey", &keys[1], "--approval-pubkey", &keys[2]])
            .output()
            .unwrap()
    };
    let hex = run_with(keys.map(str::to_owned));
    let ssh = run_with(keys.map(ssh_line_of));
    assert_eq!(hex.status.code(), ssh.status.code());
    assert_eq!(hex.stdout, ssh.stdout);
    assert!(!hex.stdout.is_empty());
}

/// The documented renderer-2 screen is what `approve --renderer-version 2` shows for the getting-started frame signed with the fixture key,
/// encrypted.
#[test]
fn readme_renderer_2_screen_is_the_real_one() {
    let readme = crate::support::documentation();
    let block = crate::support::fenced_block(
        &readme,
        "Seal approval request (sealkit-approve-terminal 2)",
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("keys")).unwrap();
    key_file(&dir.path().join("keys"));
    let pass = passphrase_file(dir.path(), "readme");
    let (code, _, stderr) = run(sealkit()
        .current_dir(dir.path())
        .args(["key", "protect", "keys/approval.key", "--passphrase-file"])
        .arg(&pass));
    assert_eq!(code, 0, "{stderr}");
    let frame = frame_path().display().to_string();
    let (code, stdout, stderr) = run(sealkit()
        .current_dir(dir.path())
        .args([
            "approve",
            "--yes",
            "--format",
            "json",
            "--renderer-version",
            "2",
        ])
        .args([
            "--token-file",
            "t.ndjson",
            "--key-file",
            "keys/approval.key",
        ])
        .arg("--passphrase-file")
        .arg(&pass)
        .args(["--frame", &frame, "--target", TARGET])
        .args(["--authorized-at", "1786000000000", "--now", "1786000000500"]));
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let screen = report["shown"]["text"].as_str().unwrap();
    assert_eq!(screen.trim_end(), block.trim_end());
}

/// A 64-hex file neither recognisably secret nor recognisably public (here: nobody but its
/// owner may read it, yet others may write it) is used, but only its key id is printed.
#[cfg(unix)]
#[test]
fn a_key_file_not_recognisably_public_shows_only_its_key_id() {
    let dir = tempfile::tempdir().unwrap();
    // The tokens in a directory of their own: a key kept beside them is read from inside
    // the evidence (approval-key-in-evidence), which is not what this test is about.
    let tokens_dir = dir.path().join("tokens");
    std::fs::create_dir(&tokens_dir).unwrap();
    let file = write_mode(
        &dir.path().join("trusted.txt"),
        &format!("{PUBKEY}\n"),
        0o620,
    );
    let tokens = tokens_dir.join("t.ndjson");
    std::fs::write(&tokens, format!("{}\n", fixture_line())).unwrap();
    for format in ["human", "json"] {
        let output = sealkit()
            .args(["verify", "approval", "--format", format])
            .arg(&tokens)
            .arg("--pubkey-file")
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(!stdout.contains(PUBKEY), "{stdout}");
        assert!(stdout.contains(KEY_ID), "{stdout}");
    }
}
