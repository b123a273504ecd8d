//! Untrusted text is inert in human output: random C0 and C1 controls (ESC, CR, BEL, CSI…),
//! DEL, bidirectional overrides, isolates and marks, and zero-width characters, put into
//! every input field of every command (file and directory names, tool names, `_meta` keys,
//! arguments, methods, token fields, receipt fields, log and state members, bundle statements,
//! envelope parameters), never reach stdout or stderr raw in `--format human --color never`:
//! each is shown as `\u{HEX}`, and a line feed inside a value never starts a new line.
//!
//! Seen red on 08828c0 for every command: the tool name, `_meta` key, receipt file name,
//! `reported:` session value and unverified token target reached the terminal raw (ESC, CR,
//! RLO), error messages printed file names raw, and `verify approval` panicked slicing a
//! multi-byte unverified target (`envelope`'s table already quoted with `{:?}`; its error
//! messages did not).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The characters an attacker uses to drive or disguise a terminal.
const ATTACK: &[char] = &[
    '\u{0}',
    '\u{7}',
    '\u{8}',
    '\u{9}',
    '\u{a}',
    '\u{b}',
    '\u{c}',
    '\u{d}',
    '\u{1b}',
    '\u{1f}',
    '\u{7f}',
    '\u{80}',
    '\u{85}',
    '\u{9b}',
    '\u{9d}',
    '\u{9f}',
    '\u{61c}',
    '\u{200b}',
    '\u{200c}',
    '\u{200d}',
    '\u{200e}',
    '\u{200f}',
    '\u{2028}',
    '\u{2029}',
    '\u{202a}',
    '\u{202b}',
    '\u{202c}',
    '\u{202d}',
    '\u{202e}',
    '\u{2060}',
    '\u{2066}',
    '\u{2067}',
    '\u{2068}',
    '\u{2069}',
    '\u{feff}',
    '\u{e0041}',
];

/// True for a character human output must never carry raw (a line feed is output's own).
fn raw_attack(ch: char) -> bool {
    ch != '\n' && (ATTACK.contains(&ch) || ch < ' ' || ('\u{7f}'..='\u{9f}').contains(&ch))
}

/// `Q c1 Q c2 Q … ESC Q`: the markers make a raw line feed from a value visible as `Q\nQ`.
fn payload(allow_nul: bool) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ATTACK), 1..5).prop_map(move |chars| {
        let mut text = String::from("Q");
        for ch in chars {
            if ch != '\u{0}' || allow_nul {
                text.push(ch);
            }
            text.push('Q');
        }
        // One ESC always, so even a payload of NULs (dropped from file names and arguments)
        // leaves a character to escape.
        text.push_str("\u{1b}Q");
        text
    })
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(cwd: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sealkit"))
        .current_dir(cwd)
        .args(["--format", "human", "--color", "never"])
        // A command-line argument cannot hold NUL.
        .args(args.iter().map(|a| a.replace('\0', "_")))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = std::io::Write::write_all(&mut input, stdin);
    drop(input);
    child.wait_with_output().unwrap()
}

fn assert_inert(what: &str, output: &Output) {
    for (stream, bytes) in [("stdout", &output.stdout), ("stderr", &output.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        let raw: Vec<char> = text.chars().filter(|c| raw_attack(*c)).collect();
        assert!(raw.is_empty(), "{what}: {stream} carries {raw:?}:\n{text}");
        assert!(
            !text.contains("Q\nQ"),
            "{what}: a value's line feed in {stream}:\n{text}"
        );
        assert!(!text.contains("panicked"), "{what}: {stream}:\n{text}");
    }
    // The values were shown (escaped), so the fields were really rendered.
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        all.contains("Q\\u{"),
        "{what}: no escaped value shown:\n{all}"
    );
    assert!(
        matches!(output.status.code(), Some(0..=2)),
        "{what}: exit {:?}",
        output.status.code()
    );
}

/// A file name carrying `p` (a file name cannot hold NUL or `/`).
fn name_with(p: &str, suffix: &str) -> String {
    format!("{}{suffix}", p.replace(['\0', '/'], "_"))
}

fn write(path: &Path, bytes: impl AsRef<[u8]>) -> PathBuf {
    std::fs::write(path, bytes).unwrap();
    path.to_path_buf()
}

fn read_json(rel: &str) -> Value {
    serde_json::from_slice(&std::fs::read(root().join(rel)).unwrap()).unwrap()
}

const OLD: &str = "testdata/receipts/legacy-vs-current/old/receipts";
const V2_RECEIPT: &str = "receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";

/// A record_version 2 receipt (unsigned, so every field is only reported) with `p` in the
/// members a report shows and as a member name.
fn hostile_receipt(p: &str) -> Vec<u8> {
    let mut receipt = read_json(&format!("{OLD}/{V2_RECEIPT}"));
    let map = receipt.as_object_mut().unwrap();
    for member in ["session", "tool", "reason", "verdict", "release_status"] {
        map.insert(member.into(), json!(p));
    }
    map.insert(p.into(), json!(p));
    serde_json::to_vec_pretty(&receipt).unwrap()
}

/// A receipt directory: hostile receipts under hostile names, a hostile stray file.
fn hostile_dir(p: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let receipts = dir.path().join("receipts");
    std::fs::create_dir(&receipts).unwrap();
    std::fs::copy(root().join(OLD).join(V2_RECEIPT), receipts.join(V2_RECEIPT)).unwrap();
    write(&receipts.join(name_with(p, ".json")), hostile_receipt(p));
    write(
        &receipts.join(format!(
            "receipt-00000000000000000009-{}.json",
            name_with(p, "")
        )),
        hostile_receipt(p),
    );
    write(&receipts.join(name_with(p, "")), p);
    dir
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn target(p in payload(true)) {
        let name = serde_json::to_string(&p).unwrap();
        let frames = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":{name},\"arguments\":{{{name}:{name}}},\"_meta\":{{{name}:1}}}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":{name}}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{{\"name\":{name},\"arguments\":[{name}]}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{{\"name\":\"t\",\"arguments\":{{}}}}}} {p}\n"
        );
        let output = run(&root(), &["target", "--explain", "--server", &p, "-"], frames.as_bytes());
        assert_inert("target (frames)", &output);
        let dir = tempfile::tempdir().unwrap();
        let capture = write(&dir.path().join(name_with(&p, ".jsonl")), &frames);
        let missing = dir.path().join(name_with(&p, "-missing"));
        let output = run(&root(), &["target", capture.to_str().unwrap(), missing.to_str().unwrap()], b"");
        assert_inert("target (file names)", &output);
    }

    #[test]
    fn verify_approval(p in payload(true)) {
        let line = std::fs::read_to_string(root().join("testdata/approvals/fixture-run-allow.token.ndjson")).unwrap();
        let mut token: Value = serde_json::from_str(line.trim_end()).unwrap();
        let mut payload: Value = serde_json::from_str(token["payload"].as_str().unwrap()).unwrap();
        for member in ["target", "session", "approver", "nonce"] {
            payload[member] = json!(p);
        }
        payload[p.as_str()] = json!(p);
        token["payload"] = json!(payload.to_string());
        token["signer_key_id"] = json!(p);
        let dir = tempfile::tempdir().unwrap();
        let file = write(
            &dir.path().join(name_with(&p, ".ndjson")),
            format!("{token}\n{}\n{p}\n", json!({"payload": p})),
        );
        let output = run(&root(), &[
            "verify", "approval", file.to_str().unwrap(),
            "--pubkey", "31debe55d37c722768b137131caa6087080b2e0b60b94bd785d14575cfa498bc",
        ], b"");
        assert_inert("verify approval", &output);
    }

    #[test]
    fn verify_receipt(p in payload(true)) {
        let dir = tempfile::tempdir().unwrap();
        let file = write(&dir.path().join(name_with(&p, ".json")), hostile_receipt(&p));
        let not_json = write(&dir.path().join(name_with(&p, "-2.json")), &p);
        let missing = dir.path().join(name_with(&p, "-3.json"));
        let output = run(&root(), &[
            "verify", "receipt", file.to_str().unwrap(), not_json.to_str().unwrap(),
            missing.to_str().unwrap(),
        ], b"");
        assert_inert("verify receipt", &output);
    }

    #[test]
    fn verify_chain(p in payload(true)) {
        let dir = tempfile::tempdir().unwrap();
        let mut sealed = read_json("testdata/receipts/chain/sealed.json");
        sealed["format"] = json!(p);
        sealed["genesis"] = json!(p);
        sealed["entries"][0]["payload"] = json!(p);
        let file = write(&dir.path().join(name_with(&p, ".json")), sealed.to_string());
        let output = run(&root(), &["verify", "chain", file.to_str().unwrap()], b"");
        assert_inert("verify chain (sealed)", &output);
        let lines = write(&dir.path().join(name_with(&p, ".lines")), format!("{p}\n"));
        let state = write(
            &dir.path().join(name_with(&p, ".state")),
            json!({"seal_audit_state": "v1", "session": p, "head": p}).to_string(),
        );
        let output = run(&root(), &[
            "verify", "chain", "--audit-lines", lines.to_str().unwrap(),
            "--state", state.to_str().unwrap(), "--head", &p,
        ], b"");
        assert_inert("verify chain (audit lines, state)", &output);
    }

    #[test]
    fn verify_bundle(p in payload(true)) {
        let dir = tempfile::tempdir().unwrap();
        let mut bundle = read_json("testdata/receipts/bundles/bundle-closed.json");
        let mut issuer: Value = serde_json::from_str(bundle["issuer_statement"]["payload"].as_str().unwrap()).unwrap();
        issuer["verification_profile"]["id"] = json!(p);
        bundle["issuer_statement"]["payload"] = json!(issuer.to_string());
        bundle["request_statement"]["signature"]["value"] = json!(p);
        bundle["approval_statement"]["signature"]["public_key"] = json!(p);
        let file = write(&dir.path().join(name_with(&p, ".json")), bundle.to_string());
        let trust = std::fs::read_to_string(root().join("testdata/receipts/bundles/trust.env")).unwrap();
        let key = |name: &str| trust.lines().find_map(|l| l.strip_prefix(&format!("{name}="))).unwrap().to_owned();
        let output = run(&root(), &[
            "verify", "bundle", file.to_str().unwrap(),
            "--issuer-pubkey", &key("ISS"), "--request-pubkey", &key("REQ"), "--approval-pubkey", &key("APP"),
        ], b"");
        assert_inert("verify bundle", &output);
    }

    #[test]
    fn audit(p in payload(false)) {
        let dir = hostile_dir(&p);
        let output = run(dir.path(), &["audit", "receipts"], b"");
        assert_inert("audit", &output);
    }

    #[test]
    fn diff_and_migrate(p in payload(false)) {
        let dir = hostile_dir(&p);
        let output = run(dir.path(), &["diff", "receipts", "receipts"], b"");
        assert_inert("diff", &output);
        let out = dir.path().join(name_with(&p, "-out"));
        let output = run(dir.path(), &["migrate", "receipts", "--server", &p, "--out", out.to_str().unwrap()], b"");
        assert_inert("migrate", &output);
        let output = run(dir.path(), &["diff", "receipts", out.to_str().unwrap()], b"");
        assert_inert("diff (migration output)", &output);
    }

    #[test]
    fn evidence(p in payload(true)) {
        let dir = tempfile::tempdir().unwrap();
        let roots = dir.path().join(name_with(&p, "-evidence"));
        std::fs::create_dir(&roots).unwrap();
        let stored = write(&roots.join(name_with(&p, ".json")), "{}");
        let digest = format!("sha256:{}", sealkit::digest::sha256_hex(b"{}"));
        let refs = json!([
            {"type": p, "digest": digest, "canonicalization": p},
            {"type": p, "digest": format!("sha256:{}", "0".repeat(64)), "canonicalization": "none", "ref": p},
            {"type": p, "digest": digest, "canonicalization": "none", "schema": p},
            {"type": p, "digest": p, "canonicalization": "none"},
            {"type": 7, "digest": digest, "canonicalization": "none"},
        ]);
        let response = json!({
            "jsonrpc": "2.0", "id": p,
            "result": {"content": [], "_meta": {"io.modelcontextprotocol/trust-annotations": {"evidenceRef": refs}}},
        });
        let capture = write(&dir.path().join(name_with(&p, ".capture")), format!("{response}\n{p}\n"));
        let output = run(&root(), &[
            "evidence", "verify", "--frames", capture.to_str().unwrap(),
            "--evidence", roots.to_str().unwrap(), stored.to_str().unwrap(),
        ], b"");
        // Seen red with the table's `where` column (the capture's name) not escaped.
        assert_inert("evidence verify", &output);
        let refs_file = write(&dir.path().join(name_with(&p, ".json")), refs.to_string());
        let output = run(&root(), &[
            "evidence", "verify", "--refs", refs_file.to_str().unwrap(), "--evidence", roots.to_str().unwrap(),
        ], b"");
        assert_inert("evidence verify --refs", &output);
        let key = root().join("testdata/receipts/fixture-dir/.seal-receipt-ed25519.key");
        let receipt = root().join("testdata/receipts/fixture-dir/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json");
        let named = dir.path().join(name_with(&p, ".json"));
        std::fs::copy(&receipt, &named).unwrap();
        let output = run(&root(), &["evidence", "ref", "--receipt-key", key.to_str().unwrap(), named.to_str().unwrap()], b"");
        assert_inert("evidence ref", &output);
        let output = run(&root(), &["evidence", "ref", named.to_str().unwrap(), stored.to_str().unwrap()], b"");
        assert_inert("evidence ref (not authenticated)", &output);
    }

    #[test]
    fn envelope(p in payload(true)) {
        let dir = tempfile::tempdir().unwrap();
        let mut params = read_json("testdata/typed/envelope-params.json");
        params["session"] = json!(p);
        params["key_id"] = json!(p);
        params["policy_version"] = json!(p);
        params["adapter"]["type"] = json!(p);
        let params = write(&dir.path().join(name_with(&p, ".json")), params.to_string());
        // The V2 canonical form writes every non-ASCII character as a `\u` escape. Seal's wire
        // guard refuses escapes inside object keys (and `envelope` refuses what `target`
        // refuses), so the hostile text goes into values only.
        let name: String = serde_json::to_string(&p)
            .unwrap()
            .encode_utf16()
            .collect::<Vec<u16>>()
            .chunks(1)
            .map(|unit| match unit[0] {
                unit @ 0x7f.. => format!("\\u{unit:04x}"),
                unit => char::from_u32(u32::from(unit)).unwrap().to_string(),
            })
            .collect();
        let frame = write(
            &dir.path().join(name_with(&p, ".jsonl")),
            format!("{{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{{\"name\":{name},\"action\":{name},\"arguments\":{{\"k\":{name}}},\"_meta\":{{\"k\":1}}}}}}\n"),
        );
        let output = run(&root(), &[
            "envelope", frame.to_str().unwrap(), "--params", params.to_str().unwrap(),
            "--verify", &"ab".repeat(64), "--pubkey", "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8",
        ], b"");
        assert_inert("envelope", &output);
        let output = run(&root(), &["envelope", frame.to_str().unwrap(), "--params", params.to_str().unwrap()], b"");
        assert_inert("envelope (no --verify)", &output);
        let missing = dir.path().join(name_with(&p, "-missing.json"));
        let output = run(&root(), &["envelope", frame.to_str().unwrap(), "--params", missing.to_str().unwrap()], b"");
        assert_inert("envelope (unreadable parameter file)", &output);
    }
    /// Key files and the report's page named with hostile text: `key show`, `key protect`,
    /// `keygen` and `report` show the name escaped. Seen red on 5027bf8 (run with the binary
    /// built from it in place of target/debug/sealkit): `key show` printed the file name raw.
    #[test]
    fn keys_and_report(p in payload(false)) {
        let dir = tempfile::tempdir().unwrap();
        let public = write(&dir.path().join(name_with(&p, ".pub")), format!("{}\n", crate::support::PUBKEY));
        let output = run(dir.path(), &["key", "show", public.to_str().unwrap()], b"");
        assert_inert("key show", &output);
        let secret = write(&dir.path().join(name_with(&p, ".key")), format!("{}\n", "1f".repeat(32)));
        #[cfg(unix)]
        std::fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
        let pass = write(&dir.path().join("pass"), "correct horse battery staple\n");
        let output = run(dir.path(), &["key", "protect", secret.to_str().unwrap(), "--passphrase-file", pass.to_str().unwrap()], b"");
        assert_inert("key protect", &output);
        let keys = dir.path().join(name_with(&p, "-keys"));
        let output = run(dir.path(), &["keygen", "--unencrypted", "--out-dir", keys.to_str().unwrap()], b"");
        assert_inert("keygen", &output);
        let page = dir.path().join(name_with(&p, ".html"));
        let output = run(&root(), &["report", "--out", page.to_str().unwrap(), "testdata/receipts/legacy-vs-current/old/receipts"], b"");
        assert_inert("report", &output);
    }
}
