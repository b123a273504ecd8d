#![allow(clippy::unwrap_used, clippy::expect_used)]
//! `sealkit target --tool-spec` through the real binary: `identities.typed` per frame,
//! exact keys (hashes cross-checked with an independent Python computation), refusals and
//! exit codes.

use assert_cmd::Command;
use serde_json::Value;

const SPEC: &str = "testdata/typed/tool-spec.json";
const CAPTURE: &str = "testdata/typed/typed-capture.jsonl";

fn records(args: &[&str], code: i32, stdin: Option<&str>) -> Vec<Value> {
    let mut cmd = Command::cargo_bin("sealkit").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["target", "--format", "jsonl"])
        .args(args);
    if let Some(stdin) = stdin {
        cmd.write_stdin(stdin);
    }
    let output = cmd.output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect()
}

#[test]
fn typed_identities_for_every_kind_of_frame() {
    let r = records(&["--tool-spec", SPEC, CAPTURE], 1, None);
    assert_eq!(r.len(), 5);
    let typed = |i: usize| r[i]["identities"]["typed"].clone();

    assert_eq!(typed(0)["status"], "computed");
    assert_eq!(typed(0)["tool_version"], "v1");
    assert_eq!(typed(0)["manifest_digest"], "manifest-001");
    assert_eq!(
        typed(0)["committed"]["key"],
        "10:db.execute5:write2:v112:manifest-00150:{\"database\":\"prod\",\"table\":\"users\",\"amount\":12.34}11:meta.absent0:19:requestState.absent0:21:inputResponses.absent0:"
    );
    assert_eq!(
        typed(0)["committed"]["sha256"],
        "fbe17f1687bddd31cadb0fb90004a1f428f1f1e1faa91b845c9ada3074113fe5"
    );
    assert_eq!(typed(0)["host"], typed(0)["committed"]);

    assert_eq!(
        typed(1)["committed"]["sha256"],
        "3da5a62f387065d561142a7d394c78f58b69935d5f60231e080e1376eace95a7"
    );
    assert_eq!(
        typed(1)["host"]["sha256"],
        "72f0df0855d989b99d989bdf0e8f0c8e0e4962cc1052e328eeffdd6c526f96fa"
    );

    assert_eq!(typed(2)["status"], "refused");
    assert_eq!(typed(2)["code"], "v2-fraction-trailing-zero");
    assert_eq!(typed(2)["offset"], 113);
    // The stage-1 identities are still there: only the typed target is refused.
    assert_eq!(r[2]["status"], "ok");

    assert_eq!(
        typed(3),
        serde_json::json!({"status": "no-tool-spec", "tool": "other", "action": "read"})
    );
    assert!(
        r[4]["identities"].get("typed").is_none(),
        "no params.action, no typed field"
    );
}

#[test]
fn without_the_flag_nothing_changes_and_good_frames_exit_zero() {
    let plain = records(&[CAPTURE], 0, None);
    assert!(plain.iter().all(|r| r["identities"].get("typed").is_none()));
    let first =
        std::fs::read_to_string(format!("{}/{CAPTURE}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let first = first.lines().next().unwrap().to_owned() + "\n";
    let r = records(&["--tool-spec", SPEC, "-"], 0, Some(&first));
    assert_eq!(r[0]["identities"]["typed"]["status"], "computed");
}

#[test]
fn a_meta_change_moves_committed_only() {
    let frame = |trace: &str| {
        format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"db.execute\",\"action\":\"write\",\"arguments\":{{}},\"_meta\":{{\"x-vendor/unknown\":\"{trace}\"}}}}}}\n"
        )
    };
    let stdin = frame("a") + &frame("b");
    let r = records(&["--tool-spec", SPEC, "-"], 0, Some(&stdin));
    let (a, b) = (&r[0]["identities"]["typed"], &r[1]["identities"]["typed"]);
    assert_ne!(a["committed"], b["committed"]);
    assert_eq!(a["host"], b["host"]);
}

#[test]
fn a_bad_tool_spec_cannot_check() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("spec.json");
    std::fs::write(&bad, r#"{"db.execute":{"version":"v1"}}"#).unwrap();
    Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["--format", "json", "target", "--tool-spec"])
        .arg(&bad)
        .arg(CAPTURE)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains("tool-spec-entry-invalid"));
}
