//! Key files under hostile or unlucky conditions (issue 24, items 1–4), through the binary:
//! `key protect` never leaves a plain copy behind a symbolic link or a second hard link,
//! `keygen` writes a usable public key under any umask, `key show` needs no passphrase for an
//! encrypted key, and `keygen` refuses an existing key before asking for a passphrase.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::keys_cli::{run, sealkit, write_mode};
use crate::support::*;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn passphrase_file(dir: &Path) -> PathBuf {
    write_mode(&dir.join("passphrase"), "pass phrase\n", 0o600)
}

fn protect(file: &Path, passphrase: &Path) -> (i32, String, String) {
    run(sealkit()
        .args(["key", "protect", "--passphrase-file"])
        .arg(passphrase)
        .arg(file))
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// Item 1. Seen red on 0c6405b: "encrypted link.key in place", exit 0, the link replaced by
/// an encrypted file while real/plain.key (and the second hard link) still held the seed.
#[test]
fn protect_refuses_a_symbolic_link_or_a_second_hard_link_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let pass = passphrase_file(dir.path());
    std::fs::create_dir(dir.path().join("real")).unwrap();
    let real = key_file(&dir.path().join("real"));
    let plain = std::fs::read(&real).unwrap();
    let link = dir.path().join("link.key");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let (code, stdout, stderr) = protect(&link, &pass);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("key-file-not-sole-copy"), "{stderr}");
    assert!(stderr.contains("symbolic link"), "{stderr}");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(&real).unwrap(), plain);

    let second = dir.path().join("second.key");
    std::fs::hard_link(&real, &second).unwrap();
    for name in [&real, &second] {
        let (code, _, stderr) = protect(name, &pass);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("key-file-not-sole-copy"), "{stderr}");
        assert!(stderr.contains("2 hard"), "{stderr}");
        assert_eq!(std::fs::read(name).unwrap(), plain);
    }
    // With the second name gone, the one remaining file is encrypted in place.
    std::fs::remove_file(&second).unwrap();
    let (code, stdout, stderr) = protect(&real, &pass);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("encrypted "), "{stdout}");
    assert_ne!(std::fs::read(&real).unwrap(), plain);
}

fn keygen_under_umask(dir: &Path, umask: &str, extra: &[&str]) -> (i32, String, String) {
    let binary = assert_cmd::cargo::cargo_bin("sealkit");
    run(assert_cmd::Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(binary)
        .args(["keygen", "--format", "json", "--out-dir"])
        .arg(dir)
        .args(extra))
}

/// Item 2. Seen red on 0c6405b: under `umask 077` approval.pub was mode 0600 and every
/// command refused it as `secret-key-given-as-public`.
#[test]
fn keygen_under_a_strict_umask_writes_a_public_key_every_command_takes() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys");
    let (code, stdout, stderr) = keygen_under_umask(&keys, "077", &["--unencrypted"]);
    assert_eq!(code, 0, "{stderr}");
    let made: Value = serde_json::from_str(&stdout).unwrap();
    let public_file = keys.join("approval.pub");
    assert_eq!(mode(&public_file), 0o644);
    assert_eq!(mode(&keys.join("approval.key")), 0o600);
    let shown = |file: &Path| {
        let (code, stdout, stderr) = run(sealkit()
            .args(["key", "show", "--format", "json"])
            .arg(file));
        (code, stdout, stderr)
    };
    let (code, stdout, stderr) = shown(&public_file);
    assert_eq!(code, 0, "{stderr}");
    let record: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(record["kind"], "public");
    assert_eq!(record["public_key"], made["public_key"]);
    // Made owner-only afterwards, it is still the public key of the secret key beside it:
    // the pair says what it is, the mode alone does not decide.
    std::fs::set_permissions(&public_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (code, stdout, stderr) = shown(&public_file);
    assert_eq!(code, 0, "{stderr}");
    let record: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(record["kind"], "public");
    assert_eq!(record["public_key"], made["public_key"]);
    let tokens = dir.path().join("t.ndjson");
    std::fs::write(&tokens, format!("{}\n", fixture_line())).unwrap();
    let verify = |key: &Path| {
        run(sealkit()
            .args(["verify", "approval", "--pubkey-file"])
            .arg(key)
            .arg(&tokens))
    };
    // Checked under the new key (the fixture token is another key's: exit 1, not 2).
    let (code, stdout, stderr) = verify(&public_file);
    assert_eq!(code, 1, "{stdout}{stderr}");
    // Alone (no secret key beside it to say what it is), an owner-only 64-hex file is still
    // taken for a secret and refused.
    let alone = dir.path().join("alone.pub");
    std::fs::copy(&public_file, &alone).unwrap();
    std::fs::set_permissions(&alone, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (code, _, stderr) = shown(&alone);
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = verify(&alone);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("secret-key-given-as-public"), "{stderr}");
}

/// Item 3. Seen red on 0c6405b: `key show` of an encrypted key with no terminal and no
/// --passphrase-file stopped with `no-passphrase` (exit 2).
#[test]
fn key_show_of_an_encrypted_key_needs_no_passphrase() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys");
    let pass = passphrase_file(dir.path());
    let (code, stdout, stderr) =
        keygen_under_umask(&keys, "022", &["--passphrase-file", pass.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let made: Value = serde_json::from_str(&stdout).unwrap();
    let (code, stdout, stderr) = run(sealkit()
        .args(["key", "show", "--format", "json"])
        .arg(keys.join("approval.key")));
    assert_eq!(code, 0, "{stderr}");
    let shown: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(shown["kind"], "secret-encrypted");
    assert_eq!(shown["public_key"], made["public_key"]);
    assert_eq!(shown["key_id"], made["key_id"]);
    // A key protected in place states its public key the same way.
    let plain = key_file(dir.path());
    let (code, _, stderr) = protect(&plain, &pass);
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = run(sealkit()
        .args(["key", "show", "--format", "json"])
        .arg(&plain));
    assert_eq!(code, 0, "{stderr}");
    let shown: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(shown["public_key"], PUBKEY);
    assert_eq!(shown["key_id"], KEY_ID);
}

/// Item 4. Seen red on 0c6405b: with an unreadable --passphrase-file, `keygen` over an
/// existing key stopped on the passphrase (it was read first), not on `key-file-exists`.
#[test]
fn keygen_refuses_an_existing_key_before_asking_for_a_passphrase() {
    let dir = tempfile::tempdir().unwrap();
    let keys = dir.path().join("keys");
    let (code, _, stderr) = keygen_under_umask(&keys, "022", &["--unencrypted"]);
    assert_eq!(code, 0, "{stderr}");
    let before = std::fs::read(keys.join("approval.key")).unwrap();
    let missing = dir.path().join("no-such-passphrase-file");
    let (code, stdout, stderr) = run(sealkit()
        .args(["keygen", "--out-dir"])
        .arg(&keys)
        .arg("--passphrase-file")
        .arg(&missing));
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("key-file-exists"), "{stderr}");
    assert_eq!(std::fs::read(keys.join("approval.key")).unwrap(), before);
}

/// Found by the `key_files` fuzz target: an encrypted key file whose scrypt stanza demands
/// another work factor than age allows made age's own error text compute
/// `1 << (required - target)`, which overflows for a work factor 32 or more above the
/// machine's target — a panic in debug builds (exit 101), a garbled message in release
/// builds. Seen red with the `ExcessiveWork` arm removed from `keys::encrypted::decrypt_with`
/// (the code of 0c6405b): exit 101, "attempt to shift left with overflow".
#[test]
fn an_encrypted_key_demanding_too_much_scrypt_work_is_refused_without_a_panic() {
    use base64::Engine as _;
    let engine = base64::engine::general_purpose::STANDARD;
    let dir = tempfile::tempdir().unwrap();
    let fixture = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/keys/encrypted-passphrase-fuzz-logn2.key"),
    )
    .unwrap();
    let body: String = fixture
        .lines()
        .filter(|l| !l.starts_with("sealkit-public-key ") && !l.starts_with("-----"))
        .collect();
    let binary = engine.decode(body).unwrap();
    let stanza = binary.windows(9).position(|w| w == b"-> scrypt").unwrap();
    let end = stanza + binary[stanza..].iter().position(|b| *b == b'\n').unwrap();
    assert_eq!(&binary[end - 2..end], b" 2");
    for work in ["60", "200"] {
        let mut edited = binary[..end - 1].to_vec();
        edited.extend_from_slice(work.as_bytes());
        edited.extend_from_slice(&binary[end..]);
        let encoded = engine.encode(&edited);
        let lines: Vec<&str> = encoded
            .as_bytes()
            .chunks(64)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        let file = write_mode(
            &dir.path().join(format!("work-{work}.key")),
            &format!(
                "-----BEGIN AGE ENCRYPTED FILE-----\n{}\n-----END AGE ENCRYPTED FILE-----\n",
                lines.join("\n")
            ),
            0o600,
        );
        let pass = write_mode(&dir.path().join("pass"), "fuzz\n", 0o600);
        let (code, stdout, stderr) = run(sealkit()
            .args(["key", "show", "--passphrase-file"])
            .arg(&pass)
            .arg(&file));
        assert_eq!(code, 2, "work factor {work}: {stdout}{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(stderr.contains("encrypted-key-unreadable"), "{stderr}");
        assert!(stderr.contains(&format!("2^{work}")), "{stderr}");
    }
}
