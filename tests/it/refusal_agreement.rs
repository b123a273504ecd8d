//! `envelope` and `target` go through the one validation pipeline: for every refusal
//! fixture in testdata/refusals/ (one frame each, named `<code>--<what>[.era-<era>].frame`)
//! both refuse through the real binary with exit 1 and the same code, JSON-RPC code,
//! offset, message, era and exact-frame evidence, and `envelope` builds no message.
//!
//! Seen red on 08828c0 (before `envelope` used the pipeline): `envelope` built and signed
//! messages for the malformed-traceparent, 17-deep, 8193-byte-string, unsupported-version
//! and legacy-era reserved-key fixtures (exit 0, status "built"), and ended `_meta: null`
//! and the duplicate `_meta` member in exit 2; `target` itself accepted the two
//! `.era-legacy` reserved-key fixtures and answered the `*-with-unsupported-version`
//! fixtures with unsupported-protocol-version (-32022).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use sealkit::digest::sha256_hex;
use sealkit::refusal::RefusalCode;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/refusals")
}

fn params() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/typed/envelope-params.json")
}

/// (expected code, era flag) from a fixture's file name.
fn expectation(name: &str) -> (String, String) {
    let stem = name.strip_suffix(".frame").unwrap();
    let code = stem.split("--").next().unwrap().to_owned();
    let era = stem
        .split_once(".era-")
        .map_or("auto".to_owned(), |(_, era)| era.to_owned());
    (code, era)
}

fn json_of(stdout: &[u8]) -> Value {
    let text = String::from_utf8(stdout.to_vec()).unwrap();
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// `target`'s record and `envelope`'s report for one frame (a file, or stdin for `-`).
fn both(path: &Path, stdin: Option<Vec<u8>>, era: &str) -> ((Value, i32), (Value, i32)) {
    let run = |args: &[&str]| {
        let mut cmd = Command::cargo_bin("sealkit").unwrap();
        cmd.args(args).arg(path);
        if let Some(bytes) = &stdin {
            cmd.write_stdin(bytes.clone());
        }
        let output = cmd.output().unwrap();
        (json_of(&output.stdout), output.status.code().unwrap())
    };
    let params = params();
    let target = run(&["target", "--format", "jsonl", "--era", era]);
    // The typed-target path (`--tool-spec`) refuses the same frame the same way: a typed
    // target is only ever computed for a frame the pipeline accepted.
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/typed/tool-spec.json");
    let typed = run(&[
        "target",
        "--format",
        "jsonl",
        "--era",
        era,
        "--tool-spec",
        spec.to_str().unwrap(),
    ]);
    assert_eq!(
        typed,
        target,
        "{}: --tool-spec changes nothing",
        path.display()
    );
    let envelope = run(&[
        "envelope",
        "--format",
        "json",
        "--era",
        era,
        "--params",
        params.to_str().unwrap(),
    ]);
    (target, envelope)
}

fn assert_agree(
    name: &str,
    frame: &[u8],
    code: &str,
    target: &(Value, i32),
    envelope: &(Value, i32),
) {
    let (t, t_status) = target;
    let (e, e_status) = envelope;
    assert_eq!(t["status"], "refused", "{name}: target {t}");
    assert_eq!(t["code"], code, "{name}: target {t}");
    assert_eq!(*t_status, 1, "{name}: target exits 1");
    assert_eq!(e["status"], "refused", "{name}: envelope {e}");
    assert_eq!(*e_status, 1, "{name}: envelope exits 1");
    assert!(e.get("message").is_none_or(|m| m.is_string()));
    assert!(e.get("reported").is_none(), "{name}: no message built");
    for member in [
        "code",
        "jsonrpc_code",
        "offset",
        "message",
        "data",
        "era",
        "subject",
        "request_sha256",
    ] {
        assert_eq!(t.get(member), e.get(member), "{name}: {member}");
    }
    let rpc = RefusalCode::ALL
        .iter()
        .find(|c| c.as_str() == code)
        .unwrap()
        .jsonrpc_code();
    assert_eq!(t["jsonrpc_code"], rpc, "{name}");
    if frame.len() <= 1024 * 1024 {
        let line = frame.strip_suffix(b"\n").unwrap_or(frame);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        assert_eq!(t["subject"]["sha256"], sha256_hex(frame), "{name}");
        assert_eq!(t["subject"]["length"], frame.len(), "{name}");
        assert_eq!(t["request_sha256"], sha256_hex(line), "{name}");
    }
}

#[test]
fn envelope_and_target_agree_on_every_refusal_fixture() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".frame"))
        .collect();
    names.sort();
    assert!(names.len() >= 50, "{} fixtures", names.len());
    let mut covered = BTreeSet::new();
    for name in &names {
        let (code, era) = expectation(name);
        let path = dir().join(name);
        let frame = std::fs::read(&path).unwrap();
        let (target, envelope) = both(&path, None, &era);
        assert_agree(name, &frame, &code, &target, &envelope);
        covered.insert(code);
    }
    // The one refusal no small file holds: a frame over seal-host's 1 MiB, given on stdin.
    let mut big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{{"s":"{}"}}}}}}"#,
        "x".repeat(1024 * 1024)
    )
    .into_bytes();
    big.push(b'\n');
    let (target, envelope) = both(Path::new("-"), Some(big.clone()), "auto");
    assert_agree(
        "frame-too-large",
        &big,
        "frame-too-large",
        &target,
        &envelope,
    );
    // Only the first MiB is kept of an oversized frame: no exact-frame evidence then.
    assert_eq!(target.0["subject"], Value::Null);
    covered.insert("frame-too-large".to_owned());
    // era-conflict needs an `initialize` earlier in the same capture; `envelope` reads one
    // frame, so it is the one code without a single-frame fixture.
    let all: BTreeSet<String> = RefusalCode::ALL
        .iter()
        .map(|c| c.as_str().to_owned())
        .filter(|c| c != "era-conflict")
        .collect();
    assert_eq!(
        covered, all,
        "every single-frame refusal code has a fixture"
    );
}

#[test]
fn refusal_records_name_the_era_only_once_decided() {
    let era_of = |name: &str, era: &str| {
        let (target, envelope) = both(&dir().join(name), None, era);
        assert_eq!(target.0["era"], envelope.0["era"]);
        target.0["era"].clone()
    };
    // Refused before the era is decided (wire guard, shape).
    assert_eq!(era_of("duplicate-key--args.frame", "auto"), Value::Null);
    assert_eq!(era_of("invalid-id--null.frame", "auto"), Value::Null);
    // Decided from the frame's own markers, or forced.
    assert_eq!(
        era_of("unsupported-protocol-version--2099.frame", "auto"),
        "2026-07-28"
    );
    assert_eq!(
        era_of("invalid-traceparent--legacy-malformed.frame", "auto"),
        "legacy"
    );
    assert_eq!(
        era_of(
            "invalid-protocol-version--number.era-legacy.frame",
            "legacy"
        ),
        "legacy"
    );
}
