//! The JSON contract (docs/json.md) through the real binary: every command runs in its JSON
//! modes on good and bad fixtures, and every object it prints — each JSON Lines record, the
//! one JSON document and the typed objects inside it, every error object on stderr — names
//! its kind in a first `type` member, names no member twice, and validates against the schema
//! docs/schema/v1/<type>.json. Every schema is exercised by some run, and every JSON error
//! carries a code.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn schema_dir() -> PathBuf {
    root().join("docs/schema/v1")
}

/// Every schema under docs/schema/v1, compiled, by the kind its file is named after.
fn validators() -> &'static BTreeMap<String, jsonschema::Validator> {
    static VALIDATORS: OnceLock<BTreeMap<String, jsonschema::Validator>> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        let mut validators = BTreeMap::new();
        for entry in std::fs::read_dir(schema_dir()).unwrap() {
            let path = entry.unwrap().path();
            let kind = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let validator = jsonschema::validator_for(&schema)
                .unwrap_or_else(|e| panic!("{}: not a schema: {e}", path.display()));
            validators.insert(kind, validator);
        }
        validators
    })
}

/// The JSON documents (`--format json`) and their members that hold typed objects of their
/// own (an object, or an array of objects), validated against their own schemas as well as
/// the document's: the same objects the JSON Lines form prints one per line.
fn nested(kind: &str) -> &'static [&'static str] {
    match kind {
        "audit" => &["receipts", "findings", "summary"],
        "approvals" => &["tokens", "conflicts", "summary"],
        "migration" => &["records", "summary"],
        "diff" => &[
            "pairs", "old_only", "new_only", "notes", "findings", "summary",
        ],
        _ => &[],
    }
}

/// What the runs saw: how many objects of each kind.
#[derive(Default)]
struct Seen {
    kinds: BTreeMap<String, usize>,
    errors: usize,
}

impl Seen {
    /// Checks one printed object (`what` says where it came from, for messages).
    fn object(&mut self, what: &str, text: &str, value: &Value, top: bool) {
        let object = value
            .as_object()
            .unwrap_or_else(|| panic!("{what}: not a JSON object: {text}"));
        let (first, kind) = object
            .iter()
            .next()
            .unwrap_or_else(|| panic!("{what}: an empty object"));
        assert_eq!(
            first, "type",
            "{what}: `type` is not the first member: {text}"
        );
        let kind = kind
            .as_str()
            .unwrap_or_else(|| panic!("{what}: `type` is not a string: {text}"));
        let validator = validators()
            .get(kind)
            .unwrap_or_else(|| panic!("{what}: no schema docs/schema/v1/{kind}.json: {text}"));
        let problems: Vec<String> = validator
            .iter_errors(value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            problems.is_empty(),
            "{what}: a {kind} object does not match its schema:\n  {}\n{text}",
            problems.join("\n  ")
        );
        *self.kinds.entry(kind.to_owned()).or_default() += 1;
        if kind == "error" {
            self.errors += 1;
            let code = object["code"].as_str().unwrap_or_default();
            assert!(
                !code.is_empty()
                    && code
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{what}: an error without a kebab-case code: {text}"
            );
        }
        if top {
            for member in nested(kind) {
                match object.get(*member) {
                    Some(Value::Array(items)) => {
                        for item in items {
                            self.object(&format!("{what} .{member}[]"), text, item, false);
                        }
                    }
                    Some(nested @ Value::Object(_)) => {
                        self.object(&format!("{what} .{member}"), text, nested, false)
                    }
                    _ => {}
                }
            }
        }
    }

    /// Checks one printed JSON text: an object, or (`--format json` of the per-file
    /// commands) an array of objects.
    fn text(&mut self, what: &str, text: &str) {
        let duplicate = sealkit::json::find_duplicate(text)
            .unwrap_or_else(|e| panic!("{what}: not JSON ({e:?}): {text}"));
        assert!(duplicate.is_none(), "{what}: a member named twice: {text}");
        let value: Value = serde_json::from_str(text).unwrap();
        match &value {
            Value::Array(items) => {
                for item in items {
                    self.object(what, text, item, true);
                }
            }
            _ => self.object(what, text, &value, true),
        }
    }
}

/// One invocation: arguments (without `--format`), working directory, stdin.
struct Run {
    args: Vec<String>,
    cwd: PathBuf,
    stdin: Option<Vec<u8>>,
    /// Exit statuses the run may end with (the run is about output, not the verdict).
    expect: &'static [i32],
}

fn run(args: &[&str], expect: &'static [i32]) -> Run {
    Run {
        args: args.iter().map(|a| (*a).to_owned()).collect(),
        cwd: root(),
        stdin: None,
        expect,
    }
}

impl Run {
    fn cwd(mut self, cwd: &Path) -> Self {
        self.cwd = cwd.to_owned();
        self
    }

    fn stdin(mut self, bytes: &[u8]) -> Self {
        self.stdin = Some(bytes.to_vec());
        self
    }

    /// Runs in `format` and checks every object printed on stdout and stderr.
    fn check(&self, format: &str, seen: &mut Seen) {
        let mut command = Command::cargo_bin("sealkit").unwrap();
        command
            .current_dir(&self.cwd)
            .args(&self.args)
            .args(["--format", format])
            .env_remove("SEALKIT_APPROVAL_KEY_FILE");
        if let Some(stdin) = &self.stdin {
            command.write_stdin(stdin.clone());
        }
        let output = command.output().unwrap();
        let what = format!("sealkit {} --format {format}", self.args.join(" "));
        let code = output.status.code().unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            self.expect.contains(&code),
            "{what}: exit {code}\n{stdout}\n{stderr}"
        );
        match format {
            "jsonl" => {
                for line in stdout.lines() {
                    seen.text(&what, line);
                }
            }
            _ if !stdout.trim().is_empty() => seen.text(&what, &stdout),
            _ => {}
        }
        for line in stderr.lines() {
            seen.text(&format!("{what} (stderr)"), line);
        }
        // A run that could not check (exit 2) says why: an error, or a result that says what
        // was not checked (a bundle whose decision needs the kernel).
        if code == 2 {
            assert!(
                stderr.contains("\"type\":\"error\"") || !stdout.is_empty(),
                "{what}: exit 2 without a word"
            );
        }
    }
}

const BUNDLE_KEYS: [&str; 6] = [
    "--issuer-pubkey",
    "8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c",
    "--request-pubkey",
    "8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394",
    "--approval-pubkey",
    "ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1",
];

const RECEIPT_KEY: &str = "testdata/receipts/fixture-dir/.seal-receipt-ed25519.key";

/// Frames and per-file verifications: target, envelope, verify receipt|chain|bundle|approval.
fn evidence_runs() -> Vec<Run> {
    let mut runs = vec![
        run(&["target", "testdata/captures/sample.jsonl"], &[1]),
        run(
            &[
                "target",
                "testdata/legacy-vs-current/frames/session-M.capture",
            ],
            &[0],
        ),
        run(
            &[
                "target",
                "--explain",
                "--server",
                "srv-a",
                "--tool-spec",
                "testdata/typed/tool-spec.json",
                "testdata/typed/typed-capture.jsonl",
            ],
            &[0, 1],
        ),
        run(
            &[
                "target",
                "testdata/captures/sample.jsonl",
                "testdata/captures/no-such-capture.jsonl",
            ],
            &[2],
        ),
        run(&["target", "-"], &[1]).stdin(b"{\"jsonrpc\":\"2.0\"}\nnot json\n"),
        run(
            &[
                "envelope",
                "--effect",
                "absent",
                "--params",
                "testdata/typed/envelope-params.json",
                "-",
            ],
            &[1],
        )
        .stdin(b"{\"m\":1}\n"),
        run(
            &[
                "envelope",
                "testdata/typed/envelope-call.jsonl",
                "--params",
                "testdata/typed/envelope-params.json",
                "--verify",
                "2f1ed3cc3485efc99a8c1a5dfcba2bef605bfec3d5b6e20d9f130cdbbb1b09db008a5e9c9a6caddacae87c480819117f57085a185b98cc5ffdb72e65d1353509",
                "--pubkey",
                "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8",
            ],
            &[0],
        ),
        run(
            &[
                "envelope",
                "--params",
                "testdata/typed/envelope-params.json",
                "-",
            ],
            &[2],
        )
        .stdin(b"{\"a\":1}\n{\"b\":2}\n"),
        run(
            &[
                "verify",
                "receipt",
                "testdata/receipts/fixture-dir/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json",
                "testdata/receipts/hostile/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json",
                "--receipt-key",
                RECEIPT_KEY,
            ],
            &[1],
        ),
        run(
            &[
                "verify",
                "receipt",
                "testdata/receipts/fixture-dir/receipt-00000000000000000000-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json",
                "testdata/receipts/legacy-vs-current/old/receipts/receipt-00000000000000000006-7417da373ccacf6c6dc11fddf26f46f9474ee167f9e3984b0c67ba955b080ae7.json",
                "testdata/receipts/no-such-receipt.json",
            ],
            &[2],
        ),
        run(&["verify", "receipt", "x.json", "--receipt-key", "zz"], &[2]),
        run(&["verify", "chain", "testdata/receipts/chain/sealed.json"], &[0]),
        run(
            &[
                "verify",
                "chain",
                "testdata/receipts/chain/sealed.json",
                "--head",
                "2b153a2b189dd1118b8378ac13c42de2420f40dc29af29fe4a2f4d4f42e0eef3",
            ],
            &[1],
        ),
        run(&["verify", "chain", "testdata/receipts/chain/tampered.json"], &[1]),
        run(
            &["verify", "chain", "testdata/receipts/chain/badgenesis.json"],
            &[1],
        ),
        run(
            &[
                "verify",
                "chain",
                "--audit-lines",
                "testdata/receipts/chain/fixture_run_audit.lines",
                "--state",
                "testdata/receipts/fixture-dir/.seal-audit-head.state",
            ],
            &[0, 1],
        ),
        run(&["verify", "chain", "testdata/receipts/chain/none.json"], &[2]),
        run(&["verify", "approval", "testdata/approvals/fixture-run-allow.token.ndjson", "--pubkey", support::PUBKEY], &[0, 1]),
        run(&["verify", "approval", "testdata/approvals/rust-unit-row40.token.ndjson", "--pubkey", support::PUBKEY], &[0, 1]),
        run(&["verify", "approval", "testdata/approvals/rust-unit-row40.token.ndjson"], &[2]),
    ];
    for bundle in ["closed", "noprofile", "stateful", "unknown"] {
        let file = format!("testdata/receipts/bundles/bundle-{bundle}.json");
        let mut args = vec!["verify", "bundle", file.as_str()];
        args.extend(BUNDLE_KEYS);
        runs.push(run(&args, &[0, 1, 2]));
    }
    runs.push(run(
        &[
            "verify",
            "bundle",
            "testdata/receipts/bundles/none.json",
            "--issuer-pubkey",
            "00",
        ],
        &[2],
    ));
    const NEW_RECEIPTS: &str = "testdata/receipts/legacy-vs-current/new/receipts";
    const NEW_KEY: &str = "testdata/keys/legacy-vs-current-receipt.pub";
    const FIXTURE_RECEIPT: &str = "testdata/receipts/fixture-dir/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
    const ANNOTATED: &str = "testdata/evidence/annotated.capture";
    runs.extend([
        run(
            &[
                "evidence",
                "ref",
                "--receipt-key",
                RECEIPT_KEY,
                FIXTURE_RECEIPT,
            ],
            &[0],
        ),
        run(&["evidence", "ref", FIXTURE_RECEIPT], &[1]),
        run(
            &[
                "evidence",
                "verify",
                "--receipt-key",
                NEW_KEY,
                "--frames",
                ANNOTATED,
                "--evidence",
                NEW_RECEIPTS,
            ],
            &[0],
        ),
        // The wrong receipts: references not found, or found by name and not matching.
        run(
            &[
                "evidence",
                "verify",
                "--frames",
                ANNOTATED,
                "--evidence",
                "testdata/receipts/fixture-dir",
            ],
            &[2],
        ),
        run(
            &[
                "evidence",
                "verify",
                "--frames",
                "testdata/receipts/legacy-vs-current/frames/session-L.capture",
                "--evidence",
                NEW_RECEIPTS,
            ],
            &[2],
        ),
    ]);
    runs
}

/// The kinds the evidence runs must print (each at least once).
const EVIDENCE_KINDS: &[&str] = &[
    "frame",
    "refusal",
    "skipped",
    "envelope",
    "receipt",
    "chain",
    "bundle",
    "token",
    "approvals",
    "summary",
    "evidence-ref",
    "evidence-check",
    "error",
];

/// The kinds the directory and key runs must print (each at least once).
const DIRECTORY_KINDS: &[&str] = &[
    "audit",
    "receipt",
    "finding",
    "summary",
    "migration",
    "record",
    "diff",
    "pair",
    "old-only",
    "new-only",
    "note",
    "keygen",
    "key",
    "key-protected",
    "approval",
    "refusal",
    "token",
    "conflict",
    "warning",
    "refused-file",
    "report",
    "report-row",
    "report-annotation",
    "report-verdict",
    "error",
];

#[test]
fn every_object_of_the_evidence_commands_matches_its_schema() {
    let mut seen = Seen::default();
    for run in evidence_runs() {
        for format in ["json", "jsonl"] {
            run.check(format, &mut seen);
        }
    }
    for kind in EVIDENCE_KINDS {
        assert!(
            seen.kinds.contains_key(*kind),
            "no {kind} object was seen: {:?}",
            seen.kinds
        );
    }
    assert!(seen.errors > 0);
}

/// Directories, keys and approvals: audit, migrate, diff, keygen, key, approve, report. These
/// write files, so they run in a scratch directory.
#[test]
fn every_object_of_the_directory_and_key_commands_matches_its_schema() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let fixtures = root().join("testdata/receipts/legacy-vs-current");
    let mut seen = Seen::default();
    let key = support::key_file(dir);
    let key = key.to_str().unwrap();
    let frame = support::frame_path();
    let frame = frame.to_str().unwrap();
    let tokens = dir.join("tokens.ndjson");
    let tokens = tokens.to_str().unwrap();
    let seed = support::receipt_seed_file("testdata/receipts/fixture-dir");
    let seed = seed.to_str().unwrap();
    // A chain file that names a member twice (refused before any check), and receipt
    // directories with one receipt each, so `diff` has receipts on one side only.
    std::fs::write(dir.join("twice.json"), br#"{"format":"a","format":"b"}"#).unwrap();
    for (side, name) in [
        ("old", "receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json"),
        ("new", "receipt-00000000000000000001-120d377234da4be343ce9be68bdb03ac0002724f693c465b75b5812b46344918.json"),
    ] {
        std::fs::create_dir(dir.join(format!("one-{side}"))).unwrap();
        std::fs::copy(
            fixtures.join(format!("{side}/receipts/{name}")),
            dir.join(format!("one-{side}/{name}")),
        )
        .unwrap();
    }
    let one_old = dir.join("one-old");
    let one_new = dir.join("one-new");
    let twice = dir.join("twice.json");
    for format in ["json", "jsonl"] {
        let out = dir.join(format!("migrated-{format}"));
        let out = out.to_str().unwrap();
        let keys = dir.join(format!("keys-{format}"));
        let keys = keys.to_str().unwrap();
        let passphrase = dir.join("passphrase");
        std::fs::write(&passphrase, "correct horse\n").unwrap();
        let passphrase = passphrase.to_str().unwrap();
        let plain = dir.join(format!("plain-{format}.key"));
        std::fs::copy(dir.join("approval.key"), &plain).unwrap();
        let plain = plain.to_str().unwrap();
        let report = dir.join(format!("report-{format}.json"));
        let report = report.to_str().unwrap();
        let annotated_report = dir.join(format!("report-annotated-{format}.json"));
        let annotated_report = annotated_report.to_str().unwrap();
        // The bundled capture's annotated answer to call 1, without the call.
        let annotated = dir.join("annotated-alone.capture");
        let capture =
            std::fs::read_to_string(root().join("testdata/evidence/annotated.capture")).unwrap();
        std::fs::write(&annotated, capture.lines().nth(3).unwrap()).unwrap();
        let annotated = annotated.to_str().unwrap();
        let runs = [
            run(
                &[
                    "audit",
                    "testdata/receipts/fixture-dir",
                    "--receipt-key",
                    seed,
                ],
                &[0, 1],
            ),
            run(&["audit", "testdata/receipts/hostile"], &[1]),
            run(
                &["audit", "testdata/receipts/legacy-vs-current/old/receipts"],
                &[0, 1],
            ),
            run(&["audit", "/nonexistent/receipts"], &[2]),
            run(
                &[
                    "migrate",
                    "old/receipts",
                    "--frames",
                    "frames/",
                    "--out",
                    out,
                ],
                &[0, 1],
            )
            .cwd(&fixtures),
            run(&["migrate", "missing-dir", "--out", out], &[2]).cwd(&fixtures),
            run(&["diff", "old/receipts", out], &[0, 1]).cwd(&fixtures),
            run(
                &[
                    "diff",
                    "old/receipts",
                    "new/receipts",
                    "--frames",
                    "frames/session-L.capture",
                    "frames/session-M.capture",
                ],
                &[1],
            )
            .cwd(&fixtures),
            run(&["diff", "no/such/dir", "new/receipts"], &[2]).cwd(&fixtures),
            run(&["keygen", "--unencrypted", "--out-dir", keys], &[0]),
            run(&["keygen", "--unencrypted", "--out-dir", keys], &[2]),
            run(&["key", "show", &format!("{keys}/approval.pub")], &[0]),
            run(&["key", "show", key], &[0]),
            run(
                &["key", "protect", plain, "--passphrase-file", passphrase],
                &[0],
            ),
            run(
                &["key", "protect", plain, "--passphrase-file", passphrase],
                &[2],
            ),
            run(&["key", "show", "no/such.key"], &[2]),
            run(
                &[
                    "report",
                    "testdata/receipts/fixture-dir",
                    "--out",
                    report,
                    "--tokens",
                    tokens,
                ],
                &[2],
            ),
            run(
                &[
                    "approve",
                    "--yes",
                    "--token-file",
                    tokens,
                    "--key-file",
                    key,
                    "--frame",
                    frame,
                    "--target",
                    support::TARGET,
                    "--authorized-at",
                    "1786000000000",
                    "--now",
                    "1786000000500",
                    "--approver",
                    "alice",
                    "--ttl",
                    "100000",
                ],
                &[0],
            ),
            run(
                &[
                    "approve",
                    "--yes",
                    "--token-file",
                    tokens,
                    "--key-file",
                    key,
                    "--frame",
                    frame,
                    "--target",
                    &"0".repeat(64),
                ],
                &[1, 2],
            ),
            // A decline for the same target beside the allow (whose lifetime over the host's
            // cap drew a warning on stderr): a conflict.
            run(
                &[
                    "approve",
                    "--yes",
                    "--deny",
                    "--token-file",
                    tokens,
                    "--key-file",
                    key,
                    "--frame",
                    frame,
                    "--target",
                    support::TARGET,
                ],
                &[0],
            ),
            run(
                &["verify", "approval", tokens, "--pubkey", support::PUBKEY],
                &[0, 1],
            ),
            run(&["verify", "chain", twice.to_str().unwrap()], &[1]),
            run(
                &["diff", one_old.to_str().unwrap(), "new/receipts"],
                &[0, 1],
            )
            .cwd(&fixtures),
            run(
                &["diff", "old/receipts", one_new.to_str().unwrap()],
                &[0, 1],
            )
            .cwd(&fixtures),
            run(
                &[
                    "report",
                    "testdata/receipts/fixture-dir",
                    "--out",
                    report,
                    "--receipt-key",
                    seed,
                    "--tokens",
                    tokens,
                    "--pubkey",
                    support::PUBKEY,
                    "--chain",
                    "testdata/receipts/chain/sealed.json",
                ],
                &[0, 1],
            ),
            // A trust annotation on no row (its request is not in the capture): a
            // `report-annotation` line, then the findings and the verdict.
            run(
                &[
                    "report",
                    "new/receipts",
                    "--out",
                    annotated_report,
                    "--receipt-key",
                    "../../keys/legacy-vs-current-receipt.pub",
                    "--frames",
                    annotated,
                ],
                &[0, 1],
            )
            .cwd(&fixtures),
        ];
        for run in &runs {
            run.check(format, &mut seen);
        }
        for report in [report, annotated_report] {
            let text = std::fs::read_to_string(report).unwrap();
            if format == "json" {
                seen.text("report --format json (file)", text.trim_end());
            } else {
                // One report-row per receipt, then the annotations on no row, the findings
                // not about one receipt and, last, the verdict.
                assert!(text.lines().count() > 1, "{text}");
                let last = text.lines().last().unwrap();
                assert!(last.starts_with("{\"type\":\"report-verdict\","), "{last}");
                for line in text.lines() {
                    seen.text("report --format jsonl (file)", line);
                }
            }
        }
    }
    for kind in DIRECTORY_KINDS {
        assert!(
            seen.kinds.contains_key(*kind),
            "no {kind} object was seen: {:?}",
            seen.kinds
        );
    }
}

/// Every schema file is named after its kind, declares its `$id` and version, and is reached
/// by the runs above (each kind is one the two tests require to be seen).
#[test]
fn every_schema_is_versioned_and_named_after_its_kind() {
    let kinds: BTreeSet<String> = validators().keys().cloned().collect();
    let exercised: BTreeSet<String> = EVIDENCE_KINDS
        .iter()
        .chain(DIRECTORY_KINDS)
        .map(|k| (*k).to_owned())
        .collect();
    assert_eq!(
        kinds, exercised,
        "schemas without a run, or runs without a schema"
    );
    for kind in &kinds {
        let path = schema_dir().join(format!("{kind}.json"));
        let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            schema["$id"],
            format!("urn:sealkit:schema:v1:{kind}"),
            "{}",
            path.display()
        );
        assert_eq!(schema["properties"]["type"]["const"], kind.as_str());
        assert_eq!(schema["x-sealkit-schema-version"], 1, "{}", path.display());
        assert_eq!(schema["required"][0], "type", "{}", path.display());
    }
}

/// The schemas are strict where the shape is fixed: a record with a member missing, renamed
/// or added, or an error without its code, does not validate.
#[test]
fn schemas_refuse_a_missing_renamed_or_extra_member() {
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(root())
        .args([
            "target",
            "--format",
            "jsonl",
            "testdata/captures/sample.jsonl",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let frame: Value = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["type"] == "frame")
        .unwrap();
    let frames = &validators()["frame"];
    assert!(frames.is_valid(&frame));
    let mut missing = frame.clone();
    missing.as_object_mut().unwrap().remove("tool");
    assert!(
        !frames.is_valid(&missing),
        "a frame without its tool validated"
    );
    let mut renamed = frame.clone();
    let era = renamed.as_object_mut().unwrap().remove("era").unwrap();
    renamed["epoch"] = era;
    assert!(
        !frames.is_valid(&renamed),
        "a frame with era renamed validated"
    );
    let mut nested = frame.clone();
    nested["identities"]["committed"]
        .as_object_mut()
        .unwrap()
        .remove("target");
    assert!(
        !frames.is_valid(&nested),
        "a frame without its committed target validated"
    );
    let errors = &validators()["error"];
    let error = serde_json::json!({"type": "error", "code": "unreadable-file", "message": "m", "causes": []});
    assert!(errors.is_valid(&error));
    let mut codeless = error.clone();
    codeless.as_object_mut().unwrap().remove("code");
    assert!(
        !errors.is_valid(&codeless),
        "an error without its code validated"
    );
    let mut wrong_kind = error;
    wrong_kind["type"] = "frame".into();
    assert!(!errors.is_valid(&wrong_kind));
}

/// The JSON Lines records of `report` that are parts of the JSON model (`report-annotation`:
/// an item of its `annotations`; `report-verdict`: its `verdict`) have the model's schema
/// for that part, member for member, so the two formats cannot drift apart.
#[test]
fn the_report_lines_are_the_models_parts() {
    let read = |kind: &str| -> Value {
        serde_json::from_slice(&std::fs::read(schema_dir().join(format!("{kind}.json"))).unwrap())
            .unwrap()
    };
    let model = read("report");
    for (kind, part) in [
        (
            "report-annotation",
            &model["properties"]["annotations"]["items"],
        ),
        ("report-verdict", &model["properties"]["verdict"]),
    ] {
        let line = read(kind);
        let mut properties = line["properties"].as_object().unwrap().clone();
        assert_eq!(
            properties.remove("type"),
            Some(serde_json::json!({"const": kind}))
        );
        assert_eq!(&Value::Object(properties), &part["properties"], "{kind}");
        let required = line["required"].as_array().unwrap();
        assert_eq!(required[0], "type");
        assert_eq!(
            &Value::Array(required[1..].to_vec()),
            &part["required"],
            "{kind}"
        );
        assert_eq!(line["additionalProperties"], false);
    }
}
