//! The flag conventions every command shares, through the binary: `-` reads standard input
//! for every file input (and only once per command line), public keys are 64 hex digits or a
//! file in the same option, times are `now`, RFC 3339 or Unix milliseconds, and the usual
//! slips get a hint.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::{self, key_file, PUBKEY, TARGET};
use assert_cmd::Command;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use serde_json::Value;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const SEALED: &str = "testdata/receipts/chain/fixture_run_sealed.json";
const LINES: &str = "testdata/receipts/chain/fixture_run_audit.lines";
const BUNDLE: &str = "testdata/receipts/bundles/bundle-closed.json";
const ISS: &str = "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c";
const REQ: &str = "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394";
const APP: &str = "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1";

fn sealkit() -> Command {
    let mut command = Command::cargo_bin("sealkit").unwrap();
    command.current_dir(ROOT);
    command
}

/// Runs `args`, feeding `stdin`; gives the exit status and the one JSON document printed
/// (`file` removed: it names the input as given, `-` or a path).
fn json_run(args: &[&str], stdin: Option<Vec<u8>>) -> (i32, Value) {
    let mut command = sealkit();
    command.args(args).args(["--format", "json"]);
    if let Some(bytes) = stdin {
        command.write_stdin(bytes);
    }
    let output = command.output().unwrap();
    let mut value: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    if let Some(object) = value.as_object_mut() {
        object.remove("file");
    }
    (output.status.code().unwrap(), value)
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(Path::new(ROOT).join(path)).unwrap()
}

// --- `-` is standard input ---

/// Seen red before the input type: `verify chain -` was "No such file or directory" (exit 2).
#[test]
fn verify_chain_reads_a_sealed_log_from_stdin() {
    let from_file = json_run(&["verify", "chain", SEALED], None);
    let from_stdin = json_run(&["verify", "chain", "-"], Some(read(SEALED)));
    assert_eq!(from_file.0, 0);
    assert_eq!(from_stdin, from_file);
    assert_eq!(from_stdin.1["kind"], "sealed");
}

/// Seen red before the input type: `--audit-lines -` could not be opened (exit 2).
#[test]
fn verify_chain_reads_audit_lines_from_stdin() {
    let from_file = json_run(&["verify", "chain", "--audit-lines", LINES], None);
    let from_stdin = json_run(
        &["verify", "chain", "--audit-lines", "-"],
        Some(read(LINES)),
    );
    assert_eq!(from_stdin, from_file);
    assert_eq!(
        from_stdin.1["head"],
        "2b153a2b189dd1118b8378ac13c42de2420f40dc29af29fe4a2f4d4f42e0eef3"
    );
    assert_eq!(from_stdin.1["audit_lines"]["payloads"], 2);
}

/// Standard input is streamed like a file: lines far beyond any whole-input limit chain
/// through, one at a time (the reader never holds more than one line).
#[test]
fn audit_lines_from_stdin_stream() {
    let line = format!("{{\"n\":\"{}\"}}\n", "x".repeat(1000));
    let lines = line.repeat(40_000); // 40 MB: more than the 16 MiB whole-file reads allow
    let (code, value) = json_run(
        &["verify", "chain", "--audit-lines", "-"],
        Some(lines.into()),
    );
    assert_eq!(
        (code, &value["audit_lines"]["payloads"]),
        (0, &Value::from(40_000))
    );
}

/// Seen red before the input type: `verify bundle -` was "No such file or directory".
#[test]
fn verify_bundle_reads_stdin() {
    let keys = [
        "--issuer-pubkey",
        ISS,
        "--request-pubkey",
        REQ,
        "--approval-pubkey",
        APP,
    ];
    let mut args = vec!["verify", "bundle", BUNDLE];
    args.extend(keys);
    let from_file = json_run(&args, None);
    args[2] = "-";
    let from_stdin = json_run(&args, Some(read(BUNDLE)));
    assert_eq!(from_stdin, from_file);
    assert_eq!(from_stdin.1["statements"][0]["verified"], true);
}

/// Seen red before the input type: `approve --frame -` was "No such file or directory".
#[test]
fn approve_reads_the_frame_from_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    sealkit()
        .args(["approve", "--frame", "-", "--target", TARGET, "--yes"])
        .arg("--token-file")
        .arg(&tokens)
        .arg("--key-file")
        .arg(key_file(dir.path()))
        .write_stdin(std::fs::read(support::frame_path()).unwrap())
        .assert()
        .code(0)
        .stdout(contains(format!("signed allow for target={TARGET}")));
    sealkit()
        .args(["verify", "approval", "--pubkey", PUBKEY, "--target", TARGET])
        .arg(&tokens)
        .arg("--frame")
        .arg(support::frame_path())
        .assert()
        .code(0);
}

/// Key files are the one input `-` does not stand for: their mode is part of their check (a
/// secret others can read is refused), and standard input has none. Each key option says so
/// with its own code and a hint, before reading anything. Seen red on 1d4d3e5: `key show -`
/// and `approve --key-file -` were "-: No such file or directory", `--pubkey -` was
/// "neither a public key nor an existing file".
#[test]
fn key_options_refuse_standard_input_and_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    let frame = support::frame_path();
    let frame = frame.to_str().unwrap();
    let tokens = tokens.to_str().unwrap();
    let runs: [(&[&str], &str); 4] = [
        (&["key", "show", "-"], "key-not-from-stdin"),
        (
            &[
                "approve",
                "--frame",
                frame,
                "--target",
                TARGET,
                "--yes",
                "--token-file",
                tokens,
                "--key-file",
                "-",
            ],
            "key-not-from-stdin",
        ),
        (
            &[
                "verify",
                "approval",
                "--pubkey",
                "-",
                "testdata/approvals/fixture-run-allow.token.ndjson",
            ],
            "key-not-from-stdin",
        ),
        (
            &[
                "audit",
                "testdata/receipts/fixture-dir",
                "--receipt-key",
                "-",
            ],
            "bad-receipt-key",
        ),
    ];
    for (args, code) in runs {
        let output = sealkit()
            .args(args)
            .args(["--format", "json"])
            .write_stdin("0".repeat(64))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let error: Value = serde_json::from_slice(&output.stderr).unwrap();
        assert_eq!(error["code"], code, "{args:?}: {error}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("a key file is not read from standard input"),
            "{args:?}: {error}"
        );
    }
    assert!(!Path::new(tokens).exists(), "nothing is signed");
}

/// One command line can read standard input once: a second `-` is a usage error naming both
/// options, before anything is read (it used to see an empty stream: `verify receipt - -`
/// checked the second "file" as empty).
#[test]
fn standard_input_named_twice_is_refused() {
    for args in [
        &["verify", "chain", "--audit-lines", "-", "--state", "-"][..],
        &["verify", "receipt", "-", "-"],
        &["envelope", "--params", "-"],
        &["verify", "approval", "--pubkey", PUBKEY, "--frame", "-"],
    ] {
        sealkit()
            .args(args)
            .write_stdin("{}\n")
            .assert()
            .code(2)
            .stderr(contains("stdin-given-twice"))
            .stderr(contains("both read standard input"));
    }
}

// --- public keys: HEX or FILE in one option ---

/// Seen red before the convention: `verify bundle --issuer-pubkey FILE` was refused with
/// "must be 64 lowercase hex digits", and `report --pubkey` took hex only.
#[test]
fn public_key_options_take_hex_or_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let write_pub = |name: &str, hex: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{hex}\n")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        path.to_str().unwrap().to_owned()
    };
    // verify approval: --pubkey FILE, and the old --pubkey-file spelling.
    let approval_pub = write_pub("approval.pub", PUBKEY);
    let tokens = support::data("approve-cli-getting-started.token.ndjson");
    let tokens = tokens.to_str().unwrap();
    let (hex, _) = json_run(&["verify", "approval", tokens, "--pubkey", PUBKEY], None);
    for option in ["--pubkey", "--pubkey-file"] {
        let (code, _) = json_run(&["verify", "approval", tokens, option, &approval_pub], None);
        assert_eq!((code, hex), (0, 0), "{option}");
    }
    // verify bundle: each of the three keys from a file gives the same report as hex.
    let files = [ISS, REQ, APP].map(|hex| write_pub(&format!("{hex}.pub"), hex));
    let with = |keys: &[&str; 3]| {
        json_run(
            &[
                "verify",
                "bundle",
                BUNDLE,
                "--issuer-pubkey",
                keys[0],
                "--request-pubkey",
                keys[1],
                "--approval-pubkey",
                keys[2],
            ],
            None,
        )
    };
    let from_hex = with(&[ISS, REQ, APP]);
    let from_files = with(&[&files[0], &files[1], &files[2]]);
    assert_eq!(from_files, from_hex);
    assert_eq!(from_files.1["statements"][2]["verified"], true);
    // report: --pubkey FILE names the file as the key's source.
    let out = dir.path().join("report.json");
    let report = |key: &str| {
        sealkit()
            .args([
                "report",
                "testdata/receipts/fixture-dir",
                "--format",
                "json",
            ])
            .args(["--pubkey", key, "--out"])
            .arg(&out)
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(report(PUBKEY), report(&approval_pub));
    let model: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let text = model.to_string();
    assert!(text.contains(PUBKEY), "{text}");
    assert!(text.contains(&format!("--pubkey {approval_pub}")), "{text}");
}

/// A secret key file named as a public key is refused in every public key option, and its
/// contents never appear in any output.
#[test]
fn a_secret_key_file_is_refused_in_every_public_key_option() {
    let dir = tempfile::tempdir().unwrap();
    let secret = key_file(dir.path());
    let secret = secret.to_str().unwrap();
    let seed = support::SEED_HEX;
    for args in [
        vec!["verify", "approval", "-", "--pubkey", secret],
        vec![
            "report",
            "testdata/receipts/fixture-dir",
            "--pubkey",
            secret,
        ],
        vec![
            "verify",
            "bundle",
            BUNDLE,
            "--issuer-pubkey",
            secret,
            "--request-pubkey",
            REQ,
            "--approval-pubkey",
            APP,
        ],
    ] {
        let mut args = args;
        if args[0] == "report" {
            args.extend(["--out", "/nonexistent/never-written.html"]);
        }
        let output = sealkit().args(&args).write_stdin("").output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
        );
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("secret-key-given-as-public"), "{stderr}");
        assert!(!stdout.contains(seed) && !stderr.contains(seed));
    }
}

/// The slip `--pubkey keys/x.pub` with a file that is not there: refused as neither a key
/// nor a file, with a hint naming both forms, and the value is not echoed as a key.
#[test]
fn a_public_key_that_is_neither_hex_nor_a_file_gets_a_hint() {
    sealkit()
        .args(["verify", "approval", "-", "--pubkey", "keys/x.pub"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(contains("public-key-not-found"))
        .stderr(contains("neither a public key"))
        .stderr(contains("path of an existing file"));
}

// --- times ---

/// Seen red before the one time parser: `--now now` and `--now 2026-…Z` were "invalid
/// digit found in string" (exit 2).
#[test]
fn time_options_take_now_rfc_3339_and_milliseconds() {
    let tokens = support::data("approve-cli-getting-started.token.ndjson");
    let tokens = tokens.to_str().unwrap();
    let status_at = |now: &str| {
        let output = sealkit()
            .args([
                "verify", "approval", tokens, "--pubkey", PUBKEY, "--now", now,
            ])
            .args(["--format", "jsonl"])
            .output()
            .unwrap();
        let line: Value =
            serde_json::from_slice(output.stdout.split(|b| *b == b'\n').next().unwrap())
                .unwrap_or_else(|e| {
                    panic!("{now}: {e}: {}", String::from_utf8_lossy(&output.stderr))
                });
        (output.status.code().unwrap(), line)
    };
    let (ms_code, ms_line) = status_at("1786000000500");
    let rfc = status_at("2026-08-06T07:06:40.500Z");
    assert_eq!(rfc, (ms_code, ms_line.clone()));
    let offset = status_at("2026-08-06T09:06:40.500+02:00");
    assert_eq!(offset, (ms_code, ms_line));
    // `now` is the system clock: long after this fixture token expired.
    let (now_code, now_line) = status_at("now");
    assert_eq!(now_code, 1, "{now_line}");
}

/// Ten digits where milliseconds are expected: refused with the hint, not read as a date in
/// January 1970 (seen red before: `--now 1786000000` checked freshness at 1970-01-21).
#[test]
fn seconds_given_for_milliseconds_get_a_hint() {
    for args in [
        &[
            "verify",
            "approval",
            "-",
            "--pubkey",
            PUBKEY,
            "--now",
            "1786000000",
        ][..],
        &[
            "approve",
            "--token-file",
            "t",
            "--refusal",
            "r",
            "--now",
            "1786000000",
        ],
        &[
            "approve",
            "--token-file",
            "t",
            "--refusal",
            "r",
            "--authorized-at",
            "1786000000",
        ],
    ] {
        sealkit()
            .args(args)
            .write_stdin("")
            .assert()
            .code(2)
            .stderr(contains("looks like Unix seconds"))
            .stderr(contains("multiply by 1000"));
    }
    // The envelope's times are seconds: milliseconds there get the opposite hint.
    sealkit()
        .args(["envelope", "--issued-at", "1786000000000"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(contains("looks like Unix milliseconds"));
}

// --- slips ---

/// `migrate --frames CAPTURE OLD --out NEW`: `--frames` took OLD; the parser's "OLD_DIR
/// missing" gets a hint naming it (seen red before the hint: clap's error alone).
#[test]
fn frames_swallowing_the_receipt_directory_gets_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    sealkit()
        .args([
            "migrate",
            "--frames",
            "testdata/receipts/legacy-vs-current/frames/session-L.capture",
            "testdata/receipts/legacy-vs-current/old/receipts",
            "--out",
        ])
        .arg(dir.path().join("new"))
        .assert()
        .code(2)
        .stderr(contains("<OLD_DIR>"))
        .stderr(contains(
            "hint: --frames takes every value up to the next option, so it took \
             testdata/receipts/legacy-vs-current/old/receipts (which holds receipts)",
        ));
    // A capture missing OLD_DIR for another reason gets no such hint.
    sealkit()
        .args([
            "migrate",
            "--frames",
            "testdata/receipts/legacy-vs-current/frames/session-L.capture",
            "--out",
        ])
        .arg(dir.path().join("new"))
        .assert()
        .code(2)
        .stderr(contains("<OLD_DIR>"))
        .stderr(contains("hint:").not());
}

/// `verify receipt DIR` points at `audit DIR` (seen red before the hint: only "Is a
/// directory").
#[test]
fn verify_receipt_on_a_directory_suggests_audit() {
    sealkit()
        .args(["verify", "receipt", "testdata/receipts/fixture-dir"])
        .assert()
        .code(2)
        .stderr(contains("sealkit audit testdata/receipts/fixture-dir"));
}

/// `--trusted-approvers -` reads the list from standard input, like a file.
#[test]
fn trusted_approvers_read_from_stdin() {
    let tokens = support::data("approve-cli-getting-started.token.ndjson");
    let list = format!("alice {PUBKEY}\n");
    let mut command = sealkit();
    command
        .args(["verify", "approval", "--trusted-approvers", "-", "--now"])
        .args(["1786000000500", "--format", "jsonl"])
        .arg(&tokens)
        .write_stdin(list)
        .assert()
        .code(0)
        .stdout(contains("\"accepted\""));
}

/// Written for the mutants that survived the first run over the key options (`&&`/`||` and
/// `==`/`!=` in the hex checks, the printable-key arm): the spelling rules each key option
/// keeps, and a key file that is not recognisably public is never printed.
#[test]
fn key_options_keep_their_spelling_rules() {
    // Bundle keys keep seal-host's lowercase rule: uppercase hex is not read as a file name
    // nor lowercased on the way.
    let upper = ISS.to_ascii_uppercase();
    sealkit()
        .args(["verify", "bundle", BUNDLE, "--issuer-pubkey", &upper])
        .args(["--request-pubkey", REQ, "--approval-pubkey", APP])
        .assert()
        .code(2)
        .stderr(contains("--issuer-pubkey must be 64 lowercase hex digits"));
    // Hex digits of the wrong length: meant as the key, so the key-format error names the
    // option, in every key option.
    sealkit()
        .args(["verify", "bundle", BUNDLE, "--issuer-pubkey", "abcd"])
        .args(["--request-pubkey", REQ, "--approval-pubkey", APP])
        .assert()
        .code(2)
        .stderr(contains(
            "--issuer-pubkey's value is not in seal-host's key format",
        ));
    sealkit()
        .args(["verify", "approval", "-", "--pubkey", "abcd"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(contains(
            "--pubkey's value is not in seal-host's key format",
        ));
    // A 64-character path is a path, not a malformed key.
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{}.pub", "k".repeat(60));
    let path = dir.path().join(&name);
    std::fs::write(&path, format!("{PUBKEY}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let tokens = support::data("approve-cli-getting-started.token.ndjson");
    sealkit()
        .current_dir(dir.path())
        .args(["verify", "approval", "--pubkey", &name])
        .arg(&tokens)
        .assert()
        .code(0);
    // A 64-hex file others cannot read (mode 0620) is not recognisably public: outputs that
    // print the key refuse it rather than echo it.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o620)).unwrap();
        let output = sealkit()
            .current_dir(dir.path())
            .args(["report", &format!("{ROOT}/testdata/receipts/fixture-dir")])
            .args(["--pubkey", &name, "--out", "page.html"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("secret-key-given-as-public"), "{stderr}");
        assert!(!dir.path().join("page.html").exists());
    }
}
