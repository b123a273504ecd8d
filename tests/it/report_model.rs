//! `sealkit report --format json` over the bundled legacy-vs-current fixture: every receipt
//! is a row, every join is the one the fixture's manifest records (token by target and
//! exact-frame subject, chain entry by request hash, captured frame by canonical request
//! hash), and evidence that cannot be joined is reported as such.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::report_support;

use report_support::{fixture, report, sealkit, APPROVAL_PUBKEY};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn model(out: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(out).unwrap()).unwrap()
}

fn json_report(dir: &Path, tokens: &[PathBuf], extra: &[&str]) -> (i32, Value) {
    let out = dir.join("model.json");
    let mut args = vec!["--format", "json"];
    args.extend_from_slice(extra);
    let code = report(&out, &fixture("new/receipts"), tokens, &args);
    (code, model(&out))
}

/// The manifest's record of each new receipt: file name → (frame file, verdict, authorization).
fn manifest() -> BTreeMap<String, (String, String, Option<String>)> {
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(fixture("manifest.json")).unwrap()).unwrap();
    manifest["receipts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["era"] == "new")
        .map(|r| {
            let file = r["file"].as_str().unwrap().rsplit('/').next().unwrap();
            (
                file.to_owned(),
                (
                    r["frame"]
                        .as_str()
                        .unwrap()
                        .trim_start_matches("frames/")
                        .to_owned(),
                    r["verdict"].as_str().unwrap().to_owned(),
                    r["authorization"].as_str().map(str::to_owned),
                ),
            )
        })
        .collect()
}

fn name(path: &Value) -> String {
    path.as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned()
}

/// The fixture's token files, and the options giving its sealed chain and captured frames.
fn every_kind_of_evidence() -> ([PathBuf; 2], [String; 4]) {
    let path = |name: &str| fixture(name).to_str().unwrap().to_owned();
    (
        [
            fixture("new/approvals-L.ndjson"),
            fixture("new/approvals-M.ndjson"),
        ],
        [
            "--chain".to_owned(),
            path("new/sealed.json"),
            "--frames".to_owned(),
            path("frames"),
        ],
    )
}

#[test]
fn every_receipt_is_a_row_and_every_join_is_the_manifests() {
    let temp = tempfile::tempdir().unwrap();
    let (tokens, extra) = every_kind_of_evidence();
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    let (code, m) = json_report(temp.path(), &tokens, &extra);
    // Only warnings (modes, the seed beside the receipts) and infos: exit 0.
    assert_eq!(code, 0);
    let expected = manifest();
    let rows = m["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 13);
    // Rows are in decision-time order.
    let times: Vec<u64> = rows.iter().map(|r| r["time"].as_u64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
    let mut seen = std::collections::BTreeSet::new();
    let mut released = 0;
    for (index, row) in rows.iter().enumerate() {
        let file = name(&row["file"]);
        let (frame, verdict, authorization) = &expected[&file];
        assert!(seen.insert((file.clone(), row["time"].as_u64())));
        assert_eq!(row["status"], "authenticated", "{file}");
        assert_eq!(row["verdict"], verdict.as_str(), "{file}");
        // The frame: the receipt's own object A, and the capture with its canonical hash.
        assert_eq!(row["frame"]["status"], "object-a", "{file}");
        assert_eq!(name(&row["frame"]["capture"]["file"]), *frame, "{file}");
        assert_eq!(row["frame"]["capture"]["link"], "canonical-request-sha256");
        // The chain entry with the same request hash, and no other.
        let entry = row["chain"]["entry"].as_u64().unwrap() as usize;
        let chain_entry = &m["chains"][0]["entries"][entry];
        assert_eq!(
            chain_entry["request_sha256"], row["request_sha256"],
            "{file}"
        );
        assert_eq!(chain_entry["row"].as_u64(), Some(index as u64), "{file}");
        assert_eq!(row["chain"]["head_ok"], true);
        // Identities under every profile; the host target is the receipt's.
        let ids = &row["details"]["identities"];
        if let Some(target) = row["target"].as_str() {
            assert_eq!(ids["host"]["target"], target, "{file}");
        }
        if authorization.as_deref() == Some("approval") {
            released += 1;
            assert_eq!(row["class"], "released");
            let approval = &row["approval"];
            assert_eq!(approval["approver"], "fixture operator", "{file}");
            assert_eq!(approval["fresh_when_used"], "fresh", "{file}");
            // The token names this receipt's target and exact frame.
            let token = &m["tokens"][approval["token"].as_u64().unwrap() as usize];
            assert_eq!(token["signed"]["target"], row["target"]);
            assert_eq!(token["signed"]["subject"], row["subject"]);
            assert!(token["used_by"]
                .as_array()
                .unwrap()
                .contains(&Value::from(index)));
        } else {
            assert!(row["approval"].is_null(), "{file}");
            assert_ne!(row["class"], "released");
        }
    }
    assert_eq!(seen.len(), 13);
    assert_eq!(released, 3);
    // Four accepted tokens: three used, the fourth (approvals-M line 3) never used.
    let s = &m["summary"];
    assert_eq!(s["tokens_accepted"], 4);
    assert_eq!(s["tokens_used"], 3);
    assert_eq!(s["tokens_never_used"], 1);
    let never: Vec<&Value> = m["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "token-never-used")
        .collect();
    assert_eq!(never.len(), 1);
    assert_eq!(name(&never[0]["path"]), "approvals-M.ndjson");
    assert!(never[0]["message"].as_str().unwrap().starts_with("line 3:"));
    assert_eq!(s["chain_entries"], 13);
    assert_eq!(s["chain_entries_joined"], 13);
    assert_eq!(s["chain_breaks"], 0);
    assert_eq!(s["frames_joined"], 9);
    assert_eq!(s["verdicts"]["block"], 7);
    assert_eq!(s["verdicts"]["allow"], 3);
    assert_eq!(s["verdicts"]["released"], 3);
    // Inputs are fingerprinted.
    let inputs = m["inputs"].as_array().unwrap();
    let sealed_input = inputs.iter().find(|i| i["role"] == "chain").unwrap();
    assert_eq!(
        sealed_input["sha256"],
        sealkit::digest::sha256_hex(&std::fs::read(fixture("new/sealed.json")).unwrap())
    );
    assert_eq!(inputs[0]["role"], "receipts");
    assert_eq!(inputs[0]["bytes"], 13);
}

#[test]
fn unjoined_evidence_is_reported() {
    let temp = tempfile::tempdir().unwrap();
    // Only the L session's token; a sealed log of other traffic, tampered; one frame.
    let tampered = fixture("../chain/tampered.json");
    let one_frame = fixture("frames/F01.frame");
    let (code, m) = json_report(
        temp.path(),
        &[fixture("new/approvals-L.ndjson")],
        &[
            "--chain",
            tampered.to_str().unwrap(),
            "--frames",
            one_frame.to_str().unwrap(),
        ],
    );
    // A broken chain is an error finding: exit 1.
    assert_eq!(code, 1);
    let rows = m["rows"].as_array().unwrap();
    let codes_of = |row: &Value| -> Vec<String> {
        row["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["code"].as_str().unwrap().to_owned())
            .collect()
    };
    // The two M-session releases have no matching token; the L one has.
    let released: Vec<&Value> = rows.iter().filter(|r| r["class"] == "released").collect();
    assert_eq!(released.len(), 3);
    let without: Vec<&&Value> = released
        .iter()
        .filter(|r| codes_of(r).contains(&"released-without-token".to_owned()))
        .collect();
    assert_eq!(without.len(), 2);
    assert!(without.iter().all(|r| r["approval"].is_null()));
    assert_eq!(m["summary"]["released_without_token"], 2);
    // Frames: only F01 is captured; every other receipt says so.
    let captured: Vec<&Value> = rows
        .iter()
        .filter(|r| !r["frame"]["capture"].is_null())
        .collect();
    assert_eq!(captured.len(), 1);
    assert_eq!(name(&captured[0]["frame"]["capture"]["file"]), "F01.frame");
    assert_eq!(
        rows.iter()
            .filter(|r| codes_of(r).contains(&"frame-not-captured".to_owned()))
            .count(),
        12
    );
    // The tampered log (two entries of other traffic): broken at entry 0. Its entry 0 is
    // the docs.read call L1 also made (same request hash), so it joins that receipt and
    // carries the break to it; entry 1 joins nothing.
    let chain = &m["chains"][0];
    assert_eq!(chain["intact"], false);
    assert_eq!(chain["first_bad_entry"], 0);
    let findings = m["findings"].as_array().unwrap();
    assert!(findings
        .iter()
        .any(|f| f["code"] == "chain-broken" && f["severity"] == "error"));
    let joined: Vec<&Value> = rows.iter().filter(|r| !r["chain"].is_null()).collect();
    assert_eq!(joined.len(), 1);
    assert_eq!(
        joined[0]["request_sha256"],
        "103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29"
    );
    assert_eq!(joined[0]["chain"]["head_ok"], false);
    let unjoined: Vec<&Value> = findings
        .iter()
        .filter(|f| f["code"] == "chain-entry-without-receipt")
        .collect();
    assert_eq!(unjoined.len(), 1);
    assert!(unjoined[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("entry 1:"));
    assert_eq!(
        rows.iter()
            .filter(|r| codes_of(r).contains(&"receipt-not-in-chain".to_owned()))
            .count(),
        12
    );
}

#[test]
fn a_token_under_an_untrusted_key_is_rejected_and_joins_nothing() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("model.json");
    let status = sealkit()
        .args(["--format", "json", "report", "--out"])
        .arg(&out)
        .arg("--receipt-key")
        .arg(report_support::receipt_key())
        // Not the approval key: the receipt key's public half.
        .args([
            "--pubkey",
            "3e249cf1656c5e8c9e4e863766145dbfbef6ebe55f62490b63fe6898ac0d6fa4",
        ])
        .arg("--tokens")
        .arg(fixture("new/approvals-L.ndjson"))
        .arg(fixture("new/receipts"))
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let m = model(&out);
    assert_eq!(m["summary"]["tokens_rejected"], 1);
    assert!(m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["approval"].is_null()));
    assert!(m["findings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["code"] == "token-rejected"));
    // The same file under the approval key from a trusted-approvers file is accepted.
    let keys = temp.path().join("approvers.txt");
    std::fs::write(
        &keys,
        format!("# incident keys\n\nalice {APPROVAL_PUBKEY}\n"),
    )
    .unwrap();
    // The same inputs, written as the JSON model or as the page.
    let report = |format: &str, out: &std::path::Path| {
        let status = sealkit()
            .args(["--format", format, "report", "--out"])
            .arg(out)
            .arg("--receipt-key")
            .arg(report_support::receipt_key())
            .arg("--trusted-approvers")
            .arg(&keys)
            .arg("--tokens")
            .arg(fixture("new/approvals-L.ndjson"))
            .arg(fixture("new/receipts"))
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(0), "{format}");
    };
    report("json", &out);
    let m = model(&out);
    assert_eq!(m["summary"]["tokens_used"], 1);
    // The list names the approver of the token and of every approval receipt.
    assert_eq!(
        m["tokens"][0]["signed_by"]["name"], "alice",
        "{}",
        m["tokens"]
    );
    let named: Vec<&str> = m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["signed_by"]["name"].as_str())
        .collect();
    assert_eq!(named, ["alice"; 3]);
    // The page says so too: the token's status and each approval receipt's details.
    let page_path = temp.path().join("page.html");
    report("human", &page_path);
    let page = std::fs::read_to_string(&page_path).unwrap();
    assert!(page.contains("<td>accepted (alice)</td>"));
    assert_eq!(
        page.matches("<dt>approved by (trusted-approvers list)</dt><dd>alice (key id ")
            .count(),
        3
    );
}

#[test]
fn an_unreadable_input_is_exit_2_and_writes_nothing() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("page.html");
    for extra in [
        vec!["--chain", "/nonexistent/sealed.json"],
        vec!["--frames", "/nonexistent/capture"],
    ] {
        let output = sealkit()
            .arg("report")
            .arg("--out")
            .arg(&out)
            .args(&extra)
            .arg(fixture("new/receipts"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{extra:?}");
        assert!(!out.exists());
    }
    let output = sealkit()
        .arg("report")
        .arg("--out")
        .arg(&out)
        .arg("/nonexistent/receipts")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unreadable-input"));
    // The page never lands inside the evidence.
    let inside = fixture("new/receipts/report.html");
    let output = sealkit()
        .arg("report")
        .arg("--out")
        .arg(&inside)
        .arg(fixture("new/receipts"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(!inside.exists());
}

#[test]
fn usage_errors_are_exit_2_with_a_code() {
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("page.html");
    // Tokens without a trusted key cannot be checked.
    let output = sealkit()
        .arg("report")
        .arg("--out")
        .arg(&out)
        .arg("--tokens")
        .arg(fixture("new/approvals-L.ndjson"))
        .arg(fixture("new/receipts"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("missing-approval-key"));
    // JSON Lines: one report-row per receipt, every receipt (without a key none
    // authenticates: exit 1), then the findings not about one receipt and the verdict.
    let rows = temp.path().join("rows.jsonl");
    let output = sealkit()
        .args(["--format", "jsonl", "report", "--out"])
        .arg(&rows)
        .arg(fixture("new/receipts"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = std::fs::read_to_string(&rows).unwrap();
    let records: Vec<Value> = (text.lines())
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let last = records.last().unwrap();
    assert_eq!(last["type"], "report-verdict");
    assert_eq!(last["outcome"], "problems");
    let kinds: Vec<&str> = (records.iter())
        .map(|r| r["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "report-row").count(),
        13,
        "{kinds:?}"
    );
    // Rows first, then findings, then the verdict.
    let mut order = kinds.clone();
    order.dedup();
    assert_eq!(order, ["report-row", "finding", "report-verdict"]);
    for row in records.iter().filter(|r| r["type"] == "report-row") {
        assert_eq!(row["status"], "unpinned");
        assert!(row["verdict"].is_null());
    }
    // Without a receipt key nothing authenticates: error findings, exit 1, page written.
    let output = sealkit()
        .arg("report")
        .arg("--out")
        .arg(&out)
        .arg(fixture("new/receipts"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let page = std::fs::read_to_string(&out).unwrap();
    assert!(page.contains("no receipt key pinned"));
    assert!(page.contains("<span class=\"n\" data-k=\"unpinned\">13</span>"));
}

#[test]
fn a_token_that_was_not_fresh_when_used_is_flagged() {
    let temp = tempfile::tempdir().unwrap();
    let tokens = [
        fixture("new/approvals-L.ndjson"),
        fixture("new/approvals-M.ndjson"),
    ];
    // The fixture's releases came 6 s after their approvals: a 1 s TTL makes each stale.
    let (code, m) = json_report(temp.path(), &tokens, &["--ttl", "1"]);
    assert_eq!(code, 0);
    let released: Vec<&Value> = m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["class"] == "released")
        .collect();
    assert_eq!(released.len(), 3);
    for row in released {
        assert_eq!(row["approval"]["fresh_when_used"], "past-ttl", "{row}");
        assert!(row["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["code"] == "token-not-fresh" && f["severity"] == "warning"));
    }
}

#[test]
fn every_join_code_has_a_test_in_this_file() {
    let text = include_str!("report_model.rs");
    // The trust-annotation codes are tested with the annotated capture, one case per code.
    let annotations = include_str!("evidence_cli.rs");
    for code in sealkit::report::model::JOIN_CODES {
        let compared = format!("== \"{}\"", code.as_str());
        let listed = format!("contains(&\"{}\"", code.as_str());
        let case = format!("            \"{}\",\n", code.as_str());
        assert!(
            text.contains(&compared) || text.contains(&listed) || annotations.contains(&case),
            "{code} has no test"
        );
    }
}

/// `--out` never replaces an input: each kind of input, a path inside a receipt directory,
/// and links to an input (symbolic and hard) are refused before anything is read, with the
/// input untouched. Seen red with the device-and-inode comparison removed from
/// atomic_write::refuse_input_as_output (the hard link was replaced by the page).
#[test]
fn out_never_replaces_an_input_by_any_name() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path();
    let copy = |from: PathBuf, name: &str| {
        let to = dir.join(name);
        std::fs::copy(from, &to).unwrap();
        to
    };
    let receipts = dir.join("receipts");
    std::fs::create_dir(&receipts).unwrap();
    for entry in std::fs::read_dir(fixture("new/receipts")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), receipts.join(entry.file_name())).unwrap();
    }
    let key = copy(report_support::receipt_key(), "pinned.pub");
    let tokens = copy(fixture("new/approvals-L.ndjson"), "tokens.ndjson");
    let sealed = copy(fixture("new/sealed.json"), "sealed.json");
    let lines = copy(fixture("new/sealed.json"), "audit.lines");
    let frame = copy(fixture("frames/F01.frame"), "F01.frame");
    let pubkey = dir.join("approval.pub");
    std::fs::write(&pubkey, format!("{APPROVAL_PUBKEY}\n")).unwrap();
    let approvers = dir.join("approvers.txt");
    std::fs::write(&approvers, format!("alice {APPROVAL_PUBKEY}\n")).unwrap();
    let symlink = dir.join("key-link");
    std::os::unix::fs::symlink(&key, &symlink).unwrap();
    let hard = dir.join("key-hard");
    std::fs::hard_link(&key, &hard).unwrap();
    let inside = receipts.join("report.html");
    let s = |p: &Path| p.to_str().unwrap().to_owned();
    // (the --out path, the input flags, the file that must stay as it is)
    let cases: Vec<(PathBuf, Vec<String>, PathBuf)> = vec![
        (
            key.clone(),
            vec!["--receipt-key".into(), s(&key)],
            key.clone(),
        ),
        (
            pubkey.clone(),
            vec!["--pubkey".into(), s(&pubkey)],
            pubkey.clone(),
        ),
        (
            approvers.clone(),
            vec!["--trusted-approvers".into(), s(&approvers)],
            approvers.clone(),
        ),
        (
            tokens.clone(),
            vec![
                "--pubkey".into(),
                APPROVAL_PUBKEY.into(),
                "--tokens".into(),
                s(&tokens),
            ],
            tokens.clone(),
        ),
        (
            sealed.clone(),
            vec!["--chain".into(), s(&sealed)],
            sealed.clone(),
        ),
        (
            lines.clone(),
            vec!["--audit-lines".into(), s(&lines)],
            lines.clone(),
        ),
        (
            frame.clone(),
            vec!["--frames".into(), s(&frame)],
            frame.clone(),
        ),
        (
            symlink.clone(),
            vec!["--receipt-key".into(), s(&key)],
            key.clone(),
        ),
        (
            hard.clone(),
            vec!["--receipt-key".into(), s(&key)],
            key.clone(),
        ),
        (
            key.clone(),
            vec!["--receipt-key".into(), s(&hard)],
            key.clone(),
        ),
        (inside.clone(), vec![], inside.clone()),
        (
            receipts.clone(),
            vec![],
            receipts.join(super::report_support::ALTERED),
        ),
    ];
    for (out, flags, kept) in cases {
        let before = std::fs::read(&kept).ok();
        let output = sealkit()
            .arg("report")
            .arg("--out")
            .arg(&out)
            .args(&flags)
            .arg(&receipts)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{out:?} {flags:?}: {stderr}");
        assert!(
            stderr.contains("output-inside-input"),
            "{out:?} {flags:?}: {stderr}"
        );
        assert_eq!(std::fs::read(&kept).ok(), before, "{kept:?} changed");
        assert!(std::fs::symlink_metadata(&symlink)
            .unwrap()
            .file_type()
            .is_symlink());
    }
    assert!(!inside.exists());
    // A new path beside the inputs is fine.
    let fresh = dir.join("page.html");
    let output = sealkit()
        .arg("report")
        .arg("--out")
        .arg(&fresh)
        .arg("--receipt-key")
        .arg(&key)
        .arg(&receipts)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(fresh.exists());
}

/// Without a token file nothing can be "released without a matching token". Seen red with
/// the `given` guard in join_tokens turned into `true` (three findings appeared).
#[test]
fn without_token_files_no_release_lacks_a_token() {
    let temp = tempfile::tempdir().unwrap();
    let (code, m) = json_report(temp.path(), &[], &[]);
    assert_eq!(code, 0);
    let released = m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["class"] == "released")
        .count();
    assert_eq!(released, 3);
    assert_eq!(m["summary"]["released_without_token"], 0);
    assert!(!m["summary"]["findings_by_code"]
        .as_object()
        .unwrap()
        .contains_key("released-without-token"));
}

/// A receipt that fails joins nothing by a hash it only claims. The receipt's request hash
/// is replaced by another receipt's (deleted), so only the claim names that entry. Seen red
/// with `record_version == Some(2)` in row_of turned into `!=` (the claim joined the other
/// receipt's entry and `receipt-not-in-chain` disappeared).
#[test]
fn a_failed_receipt_joins_no_chain_entry_by_its_claimed_request_hash() {
    let temp = tempfile::tempdir().unwrap();
    let receipts = temp.path().join("receipts");
    std::fs::create_dir(&receipts).unwrap();
    let claimant = "receipt-00000000000000000000-66c0a42e1ddc967685057dba1483943b85b11b6348f8b3881a76b31fe4ed6694.json";
    let deleted = "receipt-00000000000000000004-a6e43f544e76d609185c1aafc6734ed363b7d146cc64abe8b86b99f5562ead31.json";
    for entry in std::fs::read_dir(fixture("new/receipts")).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != deleted {
            std::fs::copy(entry.path(), receipts.join(entry.file_name())).unwrap();
        }
    }
    let theirs: Value = serde_json::from_slice(
        &std::fs::read(fixture(&format!("new/receipts/{deleted}"))).unwrap(),
    )
    .unwrap();
    let their_hash = theirs["request_sha256"].as_str().unwrap();
    let path = receipts.join(claimant);
    let mut text = std::fs::read_to_string(&path).unwrap();
    let mine: Value = serde_json::from_str(&text).unwrap();
    let field = |hash: &str| format!("\"request_sha256\": \"{hash}\"");
    let own_field = field(mine["request_sha256"].as_str().unwrap());
    assert_eq!(text.matches(&own_field).count(), 1);
    text = text.replacen(&own_field, &field(their_hash), 1);
    std::fs::write(&path, text).unwrap();
    let out = temp.path().join("model.json");
    let code = report(
        &out,
        &receipts,
        &[],
        &[
            "--format",
            "json",
            "--chain",
            fixture("new/sealed.json").to_str().unwrap(),
        ],
    );
    assert_eq!(code, 1);
    let m = model(&out);
    let row = m["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["file"].as_str().unwrap().ends_with(claimant))
        .unwrap();
    assert_eq!(row["status"], "failed");
    assert!(row["request_sha256"].is_null(), "{row}");
    assert!(row["chain"].is_null(), "{row}");
    let not_in_chain = row["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "receipt-not-in-chain")
        .unwrap();
    assert!(not_in_chain["message"]
        .as_str()
        .unwrap()
        .contains("could not be established"));
    // Neither the claimant's own entry nor the deleted receipt's joins anything.
    let unjoined: Vec<&Value> = m["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["code"] == "chain-entry-without-receipt")
        .collect();
    assert_eq!(unjoined.len(), 2);
    assert!(unjoined
        .iter()
        .any(|f| f["message"].as_str().unwrap().contains(their_hash)));
}

/// The details of a row: every identity under `--server` when given, the frame's exact
/// length, and how many frames the captures hold. Seen red with `--server` dropped from
/// details_of (the receipt's own server was used), with `frame_length` set to 0, with the
/// details' `server` left empty, and with `frames_captured` left 0 in summarize.
#[test]
fn details_follow_the_server_given_and_count_what_was_captured() {
    let temp = tempfile::tempdir().unwrap();
    let frames = fixture("frames");
    let (_, own) = json_report(temp.path(), &[], &["--frames", frames.to_str().unwrap()]);
    let (_, given) = json_report(
        temp.path(),
        &[],
        &[
            "--frames",
            frames.to_str().unwrap(),
            "--server",
            "ops.example/seal",
        ],
    );
    // The captures hold 26 frames, 11 of them distinct: each distinct frame once.
    let mut distinct = std::collections::BTreeSet::new();
    let mut all = 0;
    for entry in std::fs::read_dir(&frames).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            all += 1;
            distinct.insert(line.to_vec());
        }
    }
    assert_eq!((all, distinct.len()), (26, 11));
    assert_eq!(own["summary"]["frames_captured"], distinct.len() as u64);
    assert_eq!(given["trust"]["server"], "ops.example/seal");
    let rows = |m: &Value| m["rows"].as_array().unwrap().clone();
    let mut targets = 0;
    for (mine, theirs) in rows(&own).iter().zip(rows(&given).iter()) {
        let d = &mine["details"];
        let frame = d["frame"].as_str().unwrap();
        assert_eq!(d["frame_length"].as_u64().unwrap(), frame.len() as u64);
        assert_eq!(d["frame_length"], mine["subject"]["length"]);
        assert_eq!(theirs["details"]["server"], "ops.example/seal");
        assert_ne!(d["server"], "ops.example/seal");
        if let Some(target) = mine["target"].as_str() {
            targets += 1;
            assert_eq!(d["identities"]["host"]["target"], target);
            // Under another server identity, the target differs from the receipt's own.
            assert_ne!(theirs["details"]["identities"]["host"]["target"], target);
        }
    }
    assert!(targets > 0);
}

/// `--format jsonl` writes every row the JSON model has, with the same joins, also the rows
/// that wait for the other receipts of their request hash before the chain join (written
/// last). Seen red with the waiting row left out of `Waiting` (cargo-mutants: "delete field
/// row from struct Waiting expression in Builder::receipt"): the chained rows never reached
/// the file.
#[test]
fn json_lines_hold_every_row_of_the_model_with_its_joins() {
    let temp = tempfile::tempdir().unwrap();
    let (tokens, extra) = every_kind_of_evidence();
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    let (code, m) = json_report(temp.path(), &tokens, &extra);
    assert_eq!(code, 0);
    let out = temp.path().join("rows.jsonl");
    let mut args = vec!["--format", "jsonl"];
    args.extend_from_slice(&extra);
    assert_eq!(report(&out, &fixture("new/receipts"), &tokens, &args), 0);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines: BTreeMap<String, Value> = BTreeMap::new();
    let mut rest = Vec::new();
    for line in text.lines() {
        let mut row: Value = serde_json::from_str(line).unwrap();
        if row["type"] != "report-row" {
            rest.push(row);
            continue;
        }
        assert!(rest.is_empty(), "a row after the other records");
        row.as_object_mut().unwrap().remove("type");
        assert!(lines.insert(name(&row["file"]), row).is_none());
    }
    let rows = m["rows"].as_array().unwrap();
    assert_eq!(lines.len(), rows.len());
    assert_eq!(lines.len(), 13);
    let mut chained = 0;
    for row in rows {
        let line = &lines[&name(&row["file"])];
        for member in [
            "status", "verdict", "time", "approval", "chain", "frame", "findings",
        ] {
            assert_eq!(line[member], row[member], "{member} of {}", row["file"]);
        }
        chained += usize::from(!row["chain"].is_null());
    }
    assert!(chained > 0, "no row joined a chain entry");
    // After the rows: the model's annotations on no row, its findings, its verdict.
    let strip = |mut v: Value| {
        v.as_object_mut().unwrap().remove("type");
        v
    };
    let of = |kind: &str| -> Vec<Value> {
        (rest.iter().filter(|r| r["type"] == kind))
            .cloned()
            .map(strip)
            .collect()
    };
    // (members the model leaves out when empty are empty lists here)
    let list = |member: &str| m[member].as_array().cloned().unwrap_or_default();
    assert_eq!(of("report-annotation"), list("annotations"));
    assert_eq!(of("finding"), list("findings"));
    assert!(!list("findings").is_empty());
    assert_eq!(of("report-verdict"), [m["verdict"].clone()]);
    assert_eq!(rest.last().unwrap()["type"], "report-verdict");
}
