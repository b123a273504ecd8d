//! Hostile captures and references through the binary (issue 36, items 1–4): a member name
//! written twice anywhere in a captured frame refuses the frame (`duplicate-key`) in every
//! command that reads captures, never read by one copy; a frame that is neither a request,
//! a notification nor a response is "could not check"; a receipt is authenticated as one
//! whatever `type` a reference declares, and a `type` that only looks like Seal's is
//! refused; the report evaluates and shows every annotation, joined to its call with or
//! without a receipt, with the verdict `evidence verify` gives on the same capture.
//!
//! Seen red on 5027bf8: every test here was run against the binary built from that commit
//! (`SEALKIT_BIN=/path/to/old/sealkit cargo test --test it evidence_hostile::`; the runner
//! below takes the binary from `SEALKIT_BIN` when it is set); what failed there is noted
//! per test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

const RECEIPTS: &str = "testdata/receipts/legacy-vs-current/new/receipts";
const CAPTURE: &str = "testdata/evidence/annotated.capture";
const KEY: &str = "io.modelcontextprotocol/trust-annotations";
/// Session L's receipts of its call id 1 (`docs.read`) and of its call id 2 (`drop table
/// users`, the approved retry).
const L1_RECEIPT: &str =
    "receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json";
const L2_RECEIPT: &str =
    "receipt-00000000000000000002-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn receipt_key() -> String {
    // Kept apart from the receipts: a key read from among them authenticates nothing.
    "testdata/keys/legacy-vs-current-receipt.pub".to_owned()
}

/// The binary under test: `SEALKIT_BIN` when set (to check a test against an older build),
/// else this crate's.
fn sealkit() -> Command {
    let mut command = match std::env::var_os("SEALKIT_BIN") {
        Some(path) => Command::new(path),
        None => Command::cargo_bin("sealkit").unwrap(),
    };
    command.current_dir(root());
    command
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn records(&self) -> Vec<Value> {
        (self.stdout.lines())
            .filter(|line| line.starts_with('{'))
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }
}

fn run(args: &[&str]) -> Run {
    let output = sealkit().args(args).output().unwrap();
    Run {
        code: output.status.code().unwrap(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// The first `n` frames of the bundled capture (session L: 1 initialize, 2 its result, 3 call
/// id 1, 4 its annotated result, 5 and 6 call id 2 and its retry, 7 their annotated result).
fn frames(n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(CAPTURE)).unwrap();
    text.lines().take(n).map(str::to_owned).collect()
}

fn write_capture(dir: &Path, name: &str, frames: &[String]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, frames.join("\n") + "\n").unwrap();
    path
}

/// The evidenceRef `evidence ref` made for `receipt` (as the capture holds it), as JSON text.
fn reference_to(receipt: &str) -> String {
    let text = std::fs::read_to_string(root().join(CAPTURE)).unwrap();
    for frame in text.lines() {
        let value: Value = serde_json::from_str(frame).unwrap();
        let found = &value["result"]["_meta"][KEY]["evidenceRef"];
        let found = if found.is_array() { &found[0] } else { found };
        if found["ref"] == receipt {
            return serde_json::to_string(found).unwrap();
        }
    }
    panic!("no reference to {receipt}");
}

/// The same reference with its digest's first hex digit changed.
fn forged(reference: &str) -> String {
    let at = reference.find("sha256:").unwrap() + 7;
    let digit = if &reference[at..=at] == "0" { "1" } else { "0" };
    format!("{}{digit}{}", &reference[..at], &reference[at + 1..])
}

/// A response to `id` whose `result` holds the given `_meta` members (JSON text).
fn response(id: &str, meta: &str) -> String {
    format!(r#"{{"result":{{"content":[],"_meta":{{{meta}}}}},"jsonrpc":"2.0","id":{id}}}"#)
}

fn annotation(reference: &str) -> String {
    format!(r#""{KEY}":{{"sensitive":false,"evidenceRef":{reference}}}"#)
}

fn evidence_verify(capture: &Path) -> Run {
    run(&[
        "evidence",
        "verify",
        "--format",
        "jsonl",
        "--receipt-key",
        &receipt_key(),
        "--frames",
        capture.to_str().unwrap(),
        "--evidence",
        RECEIPTS,
    ])
}

/// `report --format json` over the bundled receipts and `capture`: exit status and model.
fn report(dir: &Path, capture: &Path) -> (i32, Value) {
    let out = dir.join("report.json");
    let _ = std::fs::remove_file(&out);
    let done = run(&[
        "report",
        "--format",
        "json",
        "--out",
        out.to_str().unwrap(),
        "--receipt-key",
        &receipt_key(),
        "--frames",
        capture.to_str().unwrap(),
        RECEIPTS,
    ]);
    let model = std::fs::read(&out)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or(Value::Null);
    if std::env::var_os("SEALKIT_BIN").is_none() {
        let schema = std::fs::read(root().join("docs/schema/v1/report.json")).unwrap();
        let schema = jsonschema::validator_for(&serde_json::from_slice(&schema).unwrap()).unwrap();
        let errors: Vec<String> = schema.iter_errors(&model).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "the model does not match its schema: {errors:#?}"
        );
    }
    (done.code, model)
}

/// Every reference verdict the report shows, on rows and on no row: (frame, status, code).
fn report_verdicts(model: &Value) -> Vec<(u64, String, String)> {
    let mut found = Vec::new();
    let rows = model["rows"].as_array().into_iter().flatten();
    let on_rows = rows.flat_map(|row| row["annotations"].as_array().into_iter().flatten());
    let apart = model["annotations"].as_array().into_iter().flatten();
    for annotation in on_rows.chain(apart) {
        for reference in annotation["references"].as_array().unwrap() {
            found.push((
                annotation["line"].as_u64().unwrap(),
                reference["status"].as_str().unwrap().to_owned(),
                reference["code"].as_str().unwrap_or("").to_owned(),
            ));
        }
    }
    found.sort();
    found.dedup();
    found
}

fn verify_verdicts(records: &[Value]) -> Vec<(u64, String, String)> {
    let mut found: Vec<(u64, String, String)> = records
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["status"].as_str().unwrap().to_owned(),
                r["code"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    found.sort();
    found.dedup();
    found
}

/// Item 1: a repeated member on the path to an annotation (the annotation key, `evidenceRef`,
/// `result` or `id` twice; the first copy forged or another call's, the last genuine) refuses
/// the response with `duplicate-key` (exit 1) in `evidence verify` and in the report, and
/// nothing of it is verified. Red on 5027bf8: every case was "verified", exit 0 (the `id`
/// case bound to request 2), and the report said "The evidence holds".
#[test]
fn a_member_written_twice_on_the_path_to_an_annotation_refuses_the_response() {
    let scratch = tempfile::tempdir().unwrap();
    let genuine = reference_to(L1_RECEIPT);
    let other = reference_to(L2_RECEIPT);
    let cases = [
        (
            "annotation key twice",
            response(
                "1",
                &format!("{},{}", annotation(&forged(&genuine)), annotation(&genuine)),
            ),
        ),
        (
            "evidenceRef twice",
            response(
                "1",
                &format!(
                    r#""{KEY}":{{"evidenceRef":{},"evidenceRef":{genuine}}}"#,
                    forged(&genuine)
                ),
            ),
        ),
        (
            "result twice",
            format!(
                r#"{{"result":{{"_meta":{{{}}}}},"result":{{"_meta":{{{}}}}},"jsonrpc":"2.0","id":1}}"#,
                annotation(&forged(&genuine)),
                annotation(&genuine)
            ),
        ),
        ("id twice", response("1,\"id\":2", &annotation(&other))),
    ];
    for (name, frame) in cases {
        // Session L's call 1 and call 2 (and its retry), then the hostile response.
        let mut capture = frames(3);
        capture.extend(frames(6).into_iter().skip(4));
        capture.push(frame);
        let capture = write_capture(scratch.path(), "hostile.capture", &capture);
        let done = evidence_verify(&capture);
        let records = done.records();
        assert_eq!(done.code, 1, "{name}: {records:#?}");
        assert_eq!(records.len(), 1, "{name}: {records:#?}");
        assert_eq!(records[0]["line"], 6, "{name}");
        assert_eq!(records[0]["code"], "duplicate-key", "{name}");
        assert_eq!(records[0]["status"], "failed", "{name}");
        assert!(records[0].get("evidence").is_none(), "{name}");
        let (code, model) = report(scratch.path(), &capture);
        assert_eq!(code, 1, "{name}: {model}");
        assert_eq!(model["verdict"]["outcome"], "problems", "{name}");
        assert_eq!(
            report_verdicts(&model),
            verify_verdicts(&records),
            "{name}: the report and evidence verify disagree"
        );
        assert_eq!(
            model["annotations"][0]["unjoined"], "frame-not-read",
            "{name}"
        );
    }
}

/// Item 1, the matrix: every command that reads captured frames refuses a frame that writes a
/// member name twice, and none exits 0 on it or reads it by one of its copies. Red on
/// 5027bf8 in the `evidence verify`, `report`, `verify approval --frame` (it checked the
/// token against the frame's bytes) and `migrate` cells (the receipt's frame was found by
/// the canonical request of the last `params`, `frame-mismatch`).
#[test]
fn every_command_that_reads_captures_refuses_a_repeated_member() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    // A request with its `params` twice (the first with `_meta`), and a response with `id` twice.
    let request = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"docs.read","arguments":{},"_meta":{"a":1}},"params":{"name":"docs.read","arguments":{"path":"README.md"}}}"#;
    let mut capture = frames(2);
    capture.push(request.to_owned());
    capture.push(response(
        "1,\"id\":2",
        &annotation(&reference_to(L1_RECEIPT)),
    ));
    let capture = write_capture(dir, "repeated.capture", &capture);
    let request_file = write_capture(dir, "request.frame", &[request.to_owned()]);
    let cell = |name: &str, done: &Run| {
        assert_ne!(done.code, 0, "{name} exits 0 on a repeated member");
        let said = format!("{}{}", done.stdout, done.stderr);
        assert!(said.contains("duplicate-key"), "{name}: {said}");
    };
    let capture_arg = capture.to_str().unwrap();
    cell(
        "target",
        &run(&["target", "--format", "jsonl", capture_arg]),
    );
    cell(
        "envelope",
        &run(&[
            "envelope",
            "--format",
            "json",
            request_file.to_str().unwrap(),
        ]),
    );
    let tokens = dir.join("tokens.ndjson");
    std::fs::write(&tokens, "").unwrap();
    cell(
        "approve --frame",
        &run(&[
            "approve",
            "--format",
            "json",
            "--token-file",
            tokens.to_str().unwrap(),
            "--key-file",
            support::key_file(dir).to_str().unwrap(),
            "--frame",
            request_file.to_str().unwrap(),
            "--target",
            support::TARGET,
            "--yes",
        ]),
    );
    // The token of the bundled approval fixture, against its own frame with a member twice.
    let frame = std::fs::read_to_string(support::frame_path()).unwrap();
    let doubled = frame.replacen(
        "{\"jsonrpc\":\"2.0\",",
        "{\"jsonrpc\":\"2.0\",\"jsonrpc\":\"2.0\",",
        1,
    );
    let doubled_file = dir.join("doubled.frame");
    std::fs::write(&doubled_file, doubled).unwrap();
    let token_file = dir.join("token.ndjson");
    std::fs::write(&token_file, support::fixture_line() + "\n").unwrap();
    cell(
        "verify approval --frame",
        &run(&[
            "verify",
            "approval",
            "--format",
            "jsonl",
            "--pubkey",
            support::PUBKEY,
            "--frame",
            doubled_file.to_str().unwrap(),
            token_file.to_str().unwrap(),
        ]),
    );
    cell("evidence verify", &evidence_verify(&capture));
    let (code, model) = report(dir, &capture);
    assert_eq!(code, 1, "report: {model}");
    assert!(
        model.to_string().contains("duplicate-key"),
        "report: {model}"
    );
    // migrate and diff find frames by digest; a frame with a member twice is never found by
    // the hash of one of its readings (here: the old receipt of call 1, whose canonical
    // request the doubled request's last `params` has, finds no frame).
    let old = dir.join("old");
    std::fs::create_dir(&old).unwrap();
    std::fs::copy(
        root()
            .join("testdata/receipts/legacy-vs-current/old/receipts")
            .join(L1_RECEIPT),
        old.join(L1_RECEIPT),
    )
    .unwrap();
    let out = dir.join("out");
    let done = run(&[
        "migrate",
        old.to_str().unwrap(),
        "--frames",
        capture_arg,
        "--out",
        out.to_str().unwrap(),
        "--format",
        "jsonl",
    ]);
    let record = &done.records()[0];
    assert_eq!(record["label"], "frame-unrecoverable", "migrate: {record}");
    assert!(record["frame"].is_null(), "migrate: {record}");
    let done = run(&[
        "diff",
        old.to_str().unwrap(),
        old.to_str().unwrap(),
        "--frames",
        capture_arg,
        "--format",
        "jsonl",
    ]);
    assert_ne!(done.code, 0, "diff: {}", done.stdout);
    assert_eq!(done.records()[0]["label"], "frame-unrecoverable", "diff");
}

/// Item 2: a frame that is neither a request, a notification nor a response (`method` null
/// beside a forged `result`) is "could not check" (exit 2) beside a good annotated response,
/// in `evidence verify` and in the report. Red on 5027bf8: only the good response was
/// reported, exit 0, and the report said "The evidence holds".
#[test]
fn a_frame_that_cannot_be_classified_is_could_not_check() {
    let scratch = tempfile::tempdir().unwrap();
    let genuine = reference_to(L1_RECEIPT);
    let mut capture = frames(4);
    capture.push(format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":null,"result":{{"_meta":{{{}}}}}}}"#,
        annotation(&forged(&genuine))
    ));
    let capture = write_capture(scratch.path(), "unclassified.capture", &capture);
    let done = evidence_verify(&capture);
    let records = done.records();
    assert_eq!(done.code, 2, "{records:#?}");
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["status"], "verified");
    assert_eq!(records[1]["line"], 5);
    assert_eq!(records[1]["code"], "evidence-frame-unclassifiable");
    assert_eq!(records[1]["status"], "not-checked");
    let (code, model) = report(scratch.path(), &capture);
    assert_eq!(code, 2, "{model}");
    assert_eq!(model["verdict"]["outcome"], "could-not-check");
    assert_eq!(report_verdicts(&model), verify_verdicts(&records));
    // The finding says the frame was not read, not that its request is missing (seen red
    // with `unjoined_findings`' not-read guard made `false`).
    let findings = model["findings"].as_array().unwrap();
    let finding = (findings.iter())
        .find(|f| f["code"] == "annotation-evidence-not-checked")
        .unwrap();
    let message = finding["message"].as_str().unwrap();
    assert!(
        message.contains("frame 5, not read: evidence-frame-unclassifiable: "),
        "{message}"
    );
    // The page says so first.
    let page = scratch.path().join("report.html");
    let done = run(&[
        "report",
        "--out",
        page.to_str().unwrap(),
        "--receipt-key",
        &receipt_key(),
        "--frames",
        capture.to_str().unwrap(),
        RECEIPTS,
    ]);
    assert_eq!(done.code, 2);
    let page = std::fs::read_to_string(page).unwrap();
    let verdict = page.find("<h2>Could not check</h2>").unwrap();
    assert!(verdict < page.find("evidence-frame-unclassifiable").unwrap());
}

/// Item 3: a reference whose `type` looks like Seal's (a Cyrillic letter, upper case, a
/// trailing space) to a receipt altered after signing is refused for its type; under a type
/// that does not look like Seal's, the altered receipt is still checked as a receipt and
/// fails. The human table shows such a type with its look-alike letters escaped. Red on
/// 5027bf8: every case was "EVIDENCE OK", `verified`, exit 0.
#[test]
fn a_look_alike_type_never_turns_an_altered_receipt_into_verified() {
    let scratch = tempfile::tempdir().unwrap();
    let evidence = scratch.path().join("evidence");
    std::fs::create_dir(&evidence).unwrap();
    // The receipt of call 1 with its tool changed after signing (a valid JSON receipt whose
    // signature no longer holds).
    let receipt = std::fs::read_to_string(root().join(RECEIPTS).join(L1_RECEIPT)).unwrap();
    let altered = receipt.replacen("\"docs.read\"", "\"docs.wipe\"", 1);
    assert_ne!(altered, receipt);
    std::fs::write(evidence.join("altered.json"), &altered).unwrap();
    let digest = format!(
        "sha256:{}",
        sealkit::digest::sha256_hex(
            sealkit::jcs::canonicalize_bytes(altered.as_bytes())
                .unwrap()
                .as_bytes()
        )
    );
    let cases = [
        (
            "s\u{0435}al.authorization-decision.v3",
            "evidence-type-confusable",
        ),
        ("SEAL.AUTHORIZATION-DECISION.V3", "evidence-type-confusable"),
        (
            "seal.authorization-decision.v3 ",
            "evidence-type-confusable",
        ),
        (
            "\u{200b}seal.authorization-decision.v3",
            "evidence-type-confusable",
        ),
        (
            "ｓeal.authorization-decision.v3",
            "evidence-type-confusable",
        ),
        (
            "seal.authorization-decision.v2",
            "evidence-receipt-not-authenticated",
        ),
        ("ifc.fides.v1", "evidence-receipt-not-authenticated"),
    ];
    for (kind, code) in cases {
        let reference = serde_json::json!({
            "type": kind, "digest": digest, "canonicalization": "rfc8785", "ref": "altered.json",
        });
        let mut capture = frames(3);
        capture.push(response("1", &annotation(&reference.to_string())));
        let capture = write_capture(scratch.path(), "typed.capture", &capture);
        let args = |format: &'static str| {
            run(&[
                "evidence",
                "verify",
                "--format",
                format,
                "--receipt-key",
                &receipt_key(),
                "--frames",
                capture.to_str().unwrap(),
                "--evidence",
                evidence.to_str().unwrap(),
            ])
        };
        let done = args("jsonl");
        let records = done.records();
        assert_eq!(done.code, 1, "{kind:?}: {records:#?}");
        assert_eq!(records[0]["code"], code, "{kind:?}");
        assert_eq!(
            records[0]["evidenceRef"]["type"], kind,
            "JSON keeps the exact type"
        );
        let human = args("human");
        assert_eq!(human.code, 1);
        assert!(
            human.stdout.starts_with("EVIDENCE FAIL"),
            "{}",
            human.stdout
        );
        if kind.contains('\u{435}') {
            assert!(human.stdout.contains("s\\u{435}al"), "{}", human.stdout);
            assert!(!human.stdout.contains('\u{435}'), "{}", human.stdout);
        }
    }
}

/// Item 4: an accepted call with no receipt in the directories whose response carries a
/// forged digest, or another call's genuine receipt, is shown on the page with its call, and
/// the report's verdict is *problems* (exit 1) with the codes `evidence verify` gives on the
/// same capture; a reference that could not be checked is shown as such and makes the report
/// "could not check", as `evidence verify` does. Red on 5027bf8: "The evidence holds", exit 0,
/// while `evidence verify` exited 1 (and 2).
#[test]
fn the_report_shows_every_annotation_and_agrees_with_evidence_verify() {
    let scratch = tempfile::tempdir().unwrap();
    let genuine = reference_to(L1_RECEIPT);
    let other = reference_to(L2_RECEIPT);
    // A call whose receipt is in no directory: `docs.read` of another file.
    let unreceipted = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"docs.read","arguments":{"path":"SECRETS.txt"}}}"#;
    let missing = serde_json::json!({
        "type": "seal.authorization-decision.v3",
        "digest": format!("sha256:{}", "a".repeat(64)),
        "canonicalization": "rfc8785",
        "ref": "receipt-gone.json",
    })
    .to_string();
    let cases = [
        (
            "forged digest",
            forged(&genuine),
            1,
            "problems",
            "evidence-digest-mismatch",
        ),
        (
            "another call's receipt",
            other,
            1,
            "problems",
            "evidence-for-another-call",
        ),
        (
            "not found",
            missing,
            2,
            "could-not-check",
            "evidence-not-found",
        ),
    ];
    for (name, reference, exit, outcome, code) in cases {
        let mut capture = frames(4);
        capture.push(unreceipted.to_owned());
        capture.push(response("9", &annotation(&reference)));
        let capture = write_capture(scratch.path(), "unreceipted.capture", &capture);
        let done = evidence_verify(&capture);
        let records = done.records();
        assert_eq!(done.code, exit, "{name}: {records:#?}");
        let (status, model) = report(scratch.path(), &capture);
        assert_eq!(status, exit, "{name}: {model}");
        assert_eq!(model["verdict"]["outcome"], outcome, "{name}");
        assert_eq!(
            report_verdicts(&model),
            verify_verdicts(&records),
            "{name}: the report and evidence verify disagree"
        );
        let apart = &model["annotations"][0];
        assert_eq!(apart["line"], 6, "{name}");
        assert_eq!(apart["unjoined"], "no-receipt", "{name}");
        assert_eq!(apart["request"]["line"], 5, "{name}");
        assert_eq!(apart["request"]["tool"], "docs.read", "{name}");
        assert_eq!(apart["references"][0]["code"], code, "{name}");
        let findings = model["findings"].as_array().unwrap();
        let finding = (findings.iter())
            .find(|f| {
                f["code"]
                    .as_str()
                    .unwrap()
                    .starts_with("annotation-evidence-")
            })
            .unwrap_or_else(|| panic!("{name}: {findings:#?}"));
        let message = finding["message"].as_str().unwrap();
        assert!(
            message.contains("frame 6, answering request frame 5"),
            "{name}: {message}"
        );
    }
}

/// Every output format carries the same findings (issue 36, the JSON Lines leftover): the
/// page and the JSON model show a trust annotation on no row (a forged one on a call with no
/// receipt, 205 verified ones of requests not captured); `--format jsonl` now carries each as
/// a `report-annotation` line (every one: JSON Lines lists every row, so it is not bounded to
/// 200 as the model is), then the findings not about one receipt as `finding` lines, and last
/// the verdict the exit status gives. Seen red with src/ of 30c29e2 (main 642f4e5 merged;
/// 5027bf8 writes the same, one `report-row` line a receipt and nothing else): the file held
/// only `report-row` lines, so a script reading it saw no failed annotation at all.
#[test]
fn json_lines_carry_the_annotations_on_no_row_the_findings_and_the_verdict() {
    let scratch = tempfile::tempdir().unwrap();
    let genuine = reference_to(L1_RECEIPT);
    let unreceipted = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"docs.read","arguments":{"path":"SECRETS.txt"}}}"#;
    let mut capture = frames(4);
    capture.push(unreceipted.to_owned());
    capture.push(response("9", &annotation(&forged(&genuine))));
    for id in 0..205 {
        capture.push(response(&format!("\"none-{id}\""), &annotation(&genuine)));
    }
    let capture = write_capture(scratch.path(), "apart.capture", &capture);
    let (code, model) = report(scratch.path(), &capture);
    assert_eq!(code, 1, "{}", model["verdict"]);
    assert_eq!(model["annotations"].as_array().unwrap().len(), 201);
    assert_eq!(model["annotations_omitted"], 5);

    let out = scratch.path().join("report.jsonl");
    let done = run(&[
        "report",
        "--format",
        "jsonl",
        "--out",
        out.to_str().unwrap(),
        "--receipt-key",
        &receipt_key(),
        "--frames",
        capture.to_str().unwrap(),
        RECEIPTS,
    ]);
    assert_eq!(done.code, 1, "{}", done.stderr);
    let lines: Vec<Value> = (std::fs::read_to_string(&out).unwrap().lines())
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let of = |kind: &str| -> Vec<Value> {
        (lines.iter())
            .filter(|line| line["type"] == kind)
            .map(|line| {
                let mut line = line.clone();
                line.as_object_mut().unwrap().remove("type");
                line
            })
            .collect()
    };
    assert_eq!(of("report-row").len(), 13);
    // Every annotation on no row, the forged one first, as the model lists them (the
    // model's 201 are the first 201 of the 206).
    let apart = of("report-annotation");
    assert_eq!(apart.len(), 206);
    assert_eq!(apart[0]["unjoined"], "no-receipt");
    assert_eq!(apart[0]["request"]["tool"], "docs.read");
    assert_eq!(
        apart[0]["references"][0]["code"],
        "evidence-digest-mismatch"
    );
    assert_eq!(apart[..201], model["annotations"].as_array().unwrap()[..]);
    // The same findings not about one receipt as the model, in its order.
    let findings = of("finding");
    assert_eq!(&findings, model["findings"].as_array().unwrap());
    assert!(findings
        .iter()
        .any(|f| f["code"] == "annotation-evidence-failed"
            && f["message"]
                .as_str()
                .unwrap()
                .contains("frame 6, answering request frame 5")));
    // Last, the verdict the exit status gives: the model's.
    assert_eq!(lines.last().unwrap()["type"], "report-verdict");
    assert_eq!(of("report-verdict"), [model["verdict"].clone()]);
    assert_eq!(model["verdict"]["outcome"], "problems");
    if std::env::var_os("SEALKIT_BIN").is_none() {
        for (kind, schema) in [
            ("report-annotation", "report-annotation"),
            ("report-verdict", "report-verdict"),
            ("finding", "finding"),
            ("report-row", "report-row"),
        ] {
            let schema =
                std::fs::read(root().join(format!("docs/schema/v1/{schema}.json"))).unwrap();
            let schema =
                jsonschema::validator_for(&serde_json::from_slice(&schema).unwrap()).unwrap();
            for line in lines.iter().filter(|line| line["type"] == kind) {
                assert!(schema.is_valid(line), "{kind}: {line}");
            }
        }
    }
}

/// Item 8: a `tools/list` request between a call and its answer keeps the pending call, so
/// another call's genuine receipt on the answer is `evidence-for-another-call` (exit 1).
/// Red under the mutant `skipped.kind == SkipKind::Request && begins` → `||` in
/// `capture::State::message` (the `tools/list` request began a session: request not captured,
/// verified, exit 0).
#[test]
fn a_request_between_a_call_and_its_answer_keeps_the_call_pending() {
    let scratch = tempfile::tempdir().unwrap();
    let mut capture = frames(3);
    capture.push(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}"#.to_owned());
    capture.push(response("1", &annotation(&reference_to(L2_RECEIPT))));
    let capture = write_capture(scratch.path(), "listed.capture", &capture);
    let done = evidence_verify(&capture);
    let records = done.records();
    assert_eq!(done.code, 1, "{records:#?}");
    assert_eq!(records[0]["code"], "evidence-for-another-call");
    assert_eq!(records[0]["binding"], "another-call");
    assert_eq!(records[0]["session"], 1);
    assert_eq!(records[0]["request"]["line"], 3);
}

/// Item 8: a response id `1.5` is no JSON-RPC id, so it pairs with no request, even one that
/// wrote the same `1.5`. Red under the mutant `value.is_integer()` → `true` in
/// `RequestId::of` (the response paired with the refused request `1.5`: binding
/// `request-refused` and an `id` in the record).
#[test]
fn a_fractional_id_pairs_with_no_request() {
    let scratch = tempfile::tempdir().unwrap();
    let mut capture = frames(2);
    capture.push(
        r#"{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{"name":"docs.read","arguments":{"path":"README.md"}}}"#
            .to_owned(),
    );
    capture.push(response("1.5", &annotation(&reference_to(L1_RECEIPT))));
    let capture = write_capture(scratch.path(), "fraction.capture", &capture);
    let done = evidence_verify(&capture);
    let records = done.records();
    assert_eq!(done.code, 0, "{records:#?}");
    assert_eq!(records[0]["binding"], "request-not-captured");
    assert!(records[0].get("id").is_none(), "{}", records[0]);
}

/// Item 8, the evidence CLI's exit status: the worst over every reference and input ("could
/// not check" over "failed" over "verified"), and 2 when nothing was checked, whatever the
/// order; "nothing was checked" (`no-evidence-refs`) is said only when nothing was and no
/// input failed. Seen red under mutants of `checked::outcome` (`worst` folded from `Good`
/// instead of the inputs' outcome: an unreadable capture beside a verified one exited 0; the
/// empty case returning the fold: exit 0 on nothing) and of `run_verify` (`&&` → `||` in the
/// test for nothing checked: `no-evidence-refs` beside verified references).
#[test]
fn the_exit_status_is_the_worst_over_references_and_inputs() {
    let scratch = tempfile::tempdir().unwrap();
    let genuine = reference_to(L1_RECEIPT);
    let capture_with = |name: &str, reference: &str| {
        let mut capture = frames(3);
        capture.push(response("1", &annotation(reference)));
        write_capture(scratch.path(), name, &capture)
    };
    let good = capture_with("good.capture", &genuine);
    let bad = capture_with("bad.capture", &forged(&genuine));
    let missing = scratch.path().join("missing.capture");
    let verify_all = |captures: &[&Path]| {
        let mut args = vec![
            "evidence".to_owned(),
            "verify".to_owned(),
            "--receipt-key".to_owned(),
            receipt_key(),
            "--evidence".to_owned(),
            RECEIPTS.to_owned(),
        ];
        for capture in captures {
            args.push("--frames".to_owned());
            args.push(capture.display().to_string());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let done = run(&args);
        // "Nothing was checked" is said exactly when nothing was, and no input failed.
        let said_nothing = done.stderr.contains("no-evidence-refs");
        (done.code, said_nothing)
    };
    assert_eq!(verify_all(&[&good]), (0, false));
    assert_eq!(verify_all(&[&good, &bad]), (1, false));
    assert_eq!(verify_all(&[&bad, &good]), (1, false));
    assert_eq!(verify_all(&[&good, &missing]), (2, false));
    assert_eq!(verify_all(&[&missing, &good]), (2, false));
    assert_eq!(verify_all(&[&bad, &missing]), (2, false));
    assert_eq!(verify_all(&[&missing]), (2, false));
    let empty = write_capture(scratch.path(), "empty.capture", &frames(3));
    assert_eq!(verify_all(&[&empty]), (2, true));
}

/// The report's list of annotations on no row stays bounded without losing one that did not
/// verify: 205 verified annotations of requests the capture does not hold, then a forged
/// one. Every annotation that did not verify is listed and counted in the verdict; of the
/// verified ones the first 200 are listed and the rest counted. The findings of annotations
/// on no row come from that list, so a bound that took failed annotations for verified ones
/// would drop the 201st failure and its finding. Seen red under the mutants of
/// `Annotations::unjoined`'s bound that cargo-mutants left alive (the verified test negated
/// or its `==` inverted: every verified one listed and failures counted against the bound;
/// `>` → `>=` and `<=` → `>` in the bound: other counts and lists).
#[test]
fn the_report_lists_every_failed_annotation_and_bounds_the_verified_ones() {
    let scratch = tempfile::tempdir().unwrap();
    let genuine = reference_to(L1_RECEIPT);
    let mut capture = frames(2);
    for id in 0..205 {
        capture.push(response(&format!("\"none-{id}\""), &annotation(&genuine)));
    }
    capture.push(response("\"none-forged\"", &annotation(&forged(&genuine))));
    let capture = write_capture(scratch.path(), "many.capture", &capture);
    let (code, model) = report(scratch.path(), &capture);
    assert_eq!(code, 1, "{}", model["verdict"]);
    assert_eq!(model["verdict"]["outcome"], "problems");
    let listed = model["annotations"].as_array().unwrap();
    assert_eq!(listed.len(), 201);
    assert_eq!(model["annotations_omitted"], 5);
    let lines: Vec<u64> = listed.iter().map(|a| a["line"].as_u64().unwrap()).collect();
    assert_eq!(lines[..200], (3..203).collect::<Vec<u64>>()[..]);
    assert_eq!(lines[200], 208);
    assert_eq!(
        listed[200]["references"][0]["code"],
        "evidence-digest-mismatch"
    );
    assert!(listed[..200]
        .iter()
        .all(|a| a["unjoined"] == "request-not-captured"
            && a["references"][0]["status"] == "verified"));
}
