//! `sealkit verify approval` through the real binary: an accepted allow beside an accepted
//! signed decline for the same target is a conflict (seal-host refuses that target, so the
//! allow is void), whatever the order of the lines; and the human table of a long file is
//! printed in bounded chunks with every row in order.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use assert_cmd::Command;
use serde_json::Value;
use support::*;

fn decline(target: &str, nonce: &str) -> String {
    v1_line(&format!(
        "{{\"target\":\"{target}\",\"issuedAt\":1786000000000,\"nonce\":\"{nonce}\",\"decision\":\"deny\"}}"
    ))
}

fn allow(nonce: &str) -> String {
    edited_v2_line(|payload| payload["nonce"] = nonce.into())
}

fn verify(lines: &[String], format: &str) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let tokens = dir.path().join("tokens.ndjson");
    std::fs::write(&tokens, lines.join("\n") + "\n").unwrap();
    let output = Command::cargo_bin("sealkit")
        .unwrap()
        .args(["verify", "approval", "--format", format, "--pubkey", PUBKEY])
        .arg(&tokens)
        .output()
        .unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

fn jsonl(lines: &[String]) -> (i32, Vec<Value>) {
    let (code, stdout) = verify(lines, "jsonl");
    let records = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (code, records)
}

#[test]
fn an_allow_beside_a_signed_decline_for_its_target_is_a_conflict_in_either_order() {
    // Seen red before the check: both lines accepted, no conflict, exit 0.
    assert_eq!(fixture_payload()["target"], TARGET);
    let lines = [allow("a-1"), decline(TARGET, "d-1"), allow("a-2")];
    let (code, records) = jsonl(&lines);
    assert_eq!(code, 1);
    let tokens: Vec<&Value> = records.iter().filter(|r| r["type"] == "token").collect();
    assert!(tokens.iter().all(|t| t["status"] == "accepted"));
    let conflicts: Vec<&Value> = records.iter().filter(|r| r["type"] == "conflict").collect();
    assert_eq!(conflicts.len(), 1);
    let conflict = conflicts[0];
    assert_eq!(conflict["code"], "allow-beside-signed-decline");
    assert_eq!(conflict["target"], TARGET);
    assert_eq!(conflict["allows"], 2);
    assert_eq!(conflict["first_allow_line"], 1);
    assert_eq!(conflict["declines"], 1);
    assert_eq!(conflict["first_decline_line"], 2);
    let summary = records.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["conflicts"], 1);
    assert_eq!(summary["rejected"], 0);

    // The decline first: the same conflict.
    let (code, records) = jsonl(&[decline(TARGET, "d-1"), allow("a-1")]);
    assert_eq!(code, 1);
    let conflict = records.iter().find(|r| r["type"] == "conflict").unwrap();
    assert_eq!(
        (
            conflict["first_allow_line"].clone(),
            conflict["first_decline_line"].clone()
        ),
        (2.into(), 1.into())
    );

    // Human: the finding and the summary line.
    let (code, stdout) = verify(&lines, "human");
    assert_eq!(code, 1);
    assert!(
        stdout.contains(&format!(
            "error [allow-beside-signed-decline]: target {TARGET}: 2 allows (the first on line 1) \
             stand beside a signed decline on line 2"
        )),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("1 target has an accepted allow beside a signed decline: the allow is void"),
        "{stdout}"
    );

    // JSON: the conflicts array between tokens and summary.
    let (code, stdout) = verify(&lines, "json");
    assert_eq!(code, 1);
    let document: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(document["conflicts"][0]["target"], TARGET);
    assert_eq!(document["summary"]["conflicts"], 1);
}

#[test]
fn only_accepted_lines_for_the_same_target_conflict() {
    // A decline for another target: no conflict, exit 0.
    let other = "1".repeat(64);
    let (code, records) = jsonl(&[allow("a-1"), decline(&other, "d-1")]);
    assert_eq!(code, 0);
    assert!(records.iter().all(|r| r["type"] != "conflict"));
    assert_eq!(records.last().unwrap()["conflicts"], 0);
    // An allow the host drops (its signature is broken) leaves nothing to void.
    let broken = allow("a-1").replacen("\"signature\":\"", "\"signature\":\"A", 1);
    let (code, records) = jsonl(&[broken, decline(TARGET, "d-1")]);
    assert_eq!(code, 1);
    assert_eq!(records[0]["status"], "rejected");
    assert!(records.iter().all(|r| r["type"] != "conflict"));
}

#[test]
fn a_long_file_is_tabled_in_bounded_chunks_with_every_row_in_order() {
    // 2,500 rows: tables of 1,024, 1,024 and 452 rows, each with its header. The lines are
    // token records (a v1 envelope) whose signatures do not verify.
    let lines: Vec<String> = (0..2500)
        .map(|i| format!(r#"{{"payload":"{{\"n\":{i}}}","signature":"00"}}"#))
        .collect();
    let (code, stdout) = verify(&lines, "human");
    assert_eq!(code, 1);
    let headers = stdout.matches("│ line ").count();
    assert_eq!(headers, 3, "{}", &stdout[..2000]);
    let numbers: Vec<u64> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("│ "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(numbers, (1..=2500).collect::<Vec<u64>>());
    assert!(stdout.contains("2500 token lines, 0 accepted, 2500 rejected"));
}
