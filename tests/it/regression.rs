//! One test per fixed bug, named after what broke, each through the real binary. A test moves
//! here from its topic's module when it is the most direct pin of a fix (its helpers stay in
//! that module); a fix with no binary-level pin gets one written here, with what it was seen
//! red against. Fixes whose pin stays in its topic's module are listed, with every module
//! here, in docs/development.md.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// What broke: `diff` took a migration output's recorded labels as verified, so forged
/// `identity-unchanged` labels made a changed migration look clean (exit 0).
mod forged_migration_labels_accepted {
    use crate::migration_integrity::{expected, fixtures, forge, jsonl, of_type, run, CAPTURES};

    /// Seen red on 08828c0 (the binary before labels were recomputed): the forged output made
    /// `diff old/receipts FORGED` print 13 × identity-unchanged and exit 0.
    #[test]
    fn forged_migration_labels_are_never_taken_for_verified() {
        let work = tempfile::tempdir().unwrap();
        let out = work.path().join("out");
        let out_arg = out.to_str().unwrap();
        let mut migrate = vec!["migrate", "old/receipts"];
        migrate.extend(CAPTURES);
        migrate.extend(["--out", out_arg]);
        assert_eq!(run(&fixtures(), &migrate).0, 1);
        forge(&out);

        // Without the captures diff cannot recompute the old labels: all are shown as reported,
        // and the run does not exit 0.
        let (code, lines) = jsonl(&fixtures(), &["diff", "old/receipts", out_arg]);
        assert_eq!(code, 1);
        let pairs = of_type(&lines, "pair");
        assert_eq!(pairs.len(), 13);
        for pair in &pairs {
            assert_eq!(pair["old"]["label_check"], "unverified", "{pair}");
            assert_eq!(pair["new"]["label_check"], "unverified", "{pair}");
        }
        let summary = of_type(&lines, "summary")[0];
        assert_eq!(summary["old_unverified"], 13);
        assert_eq!(summary["new_unverified"], 13);
        assert_eq!(summary["needs_attention"], true);
        let (code, human) = run(&fixtures(), &["diff", "old/receipts", out_arg]);
        assert_eq!(code, 1);
        assert!(human.contains("(reported by the migration output, not"));
        assert!(human
            .contains("13 old and 13 new labels are reported by a migration output, not verified"));

        // With the captures every label is recomputed: each forged one is an error naming both.
        let mut with_frames = vec!["diff", "old/receipts", out_arg];
        with_frames.extend(CAPTURES);
        let (code, lines) = jsonl(&fixtures(), &with_frames);
        assert_eq!(code, 1);
        let expected = expected();
        let findings = of_type(&lines, "finding");
        assert_eq!(findings.len(), 11, "11 of 13 receipts change identity");
        for finding in &findings {
            let receipt = finding["receipt"].as_str().unwrap();
            let truth = &expected[receipt]["label"];
            assert_eq!(finding["code"], "migration-record-mismatch");
            assert_eq!(finding["side"], "new");
            assert_eq!(finding["recorded_label"], "identity-unchanged");
            assert_eq!(&finding["recomputed_label"], truth);
            let message = finding["message"].as_str().unwrap();
            assert!(
                message.contains("records identity-unchanged (changes: none)"),
                "{message}"
            );
            assert!(
                message.contains(&format!("diff recomputed {}", truth.as_str().unwrap())),
                "{message}"
            );
        }
        for pair in of_type(&lines, "pair") {
            let old = pair["old"]["receipt"].as_str().unwrap();
            // The new side shows the recomputed label, never the forged one.
            assert_eq!(pair["new"]["label"], expected[old]["label"], "{old}");
            assert_eq!(pair["new"]["changes"], expected[old]["changes"], "{old}");
            let check = if expected[old]["label"] == "identity-unchanged" {
                "confirmed"
            } else {
                "contradicted"
            };
            assert_eq!(pair["new"]["label_check"], check, "{old}");
            assert_eq!(pair["old"]["label_check"], "recomputed");
        }
        let summary = of_type(&lines, "summary")[0];
        assert_eq!(summary["findings"], 11);
        assert_eq!(summary["new_unverified"], 0);
        let mut human_args = with_frames.clone();
        human_args.retain(|a| !a.starts_with("--format"));
        let (_, human) = run(&fixtures(), &human_args);
        assert!(human.contains("errors:"));
        assert!(human.contains("11 migration records disagree with the recomputation"));
    }
}

/// What broke: a secret key file given where a public key belongs was read as the public key,
/// and its seed was echoed as the "trusted key".
mod secret_key_echoed {
    use crate::keys_cli::{run, sealkit, write_mode};
    use crate::support::*;

    // Seen red under the mutation "read_public_key_file accepts a recognised plain seed as the
    // public key" (the code before this change): `--pubkey-file approval.key` printed the seed as
    // "trusted key 1717…", which the output search above caught.
    #[cfg(unix)]
    #[test]
    fn secret_key_files_named_as_public_keys_are_refused_and_never_echoed() {
        let dir = tempfile::tempdir().unwrap();
        let secret = key_file(dir.path());
        let tokens = write_mode(
            &dir.path().join("t.ndjson"),
            &format!("{}\n", fixture_line()),
            0o644,
        );
        // The same seed, readable by all but named as a public key: refused by its permissions
        // when owner-only, by its name when called .key.
        let owner_only = write_mode(
            &dir.path().join("trusted.pub"),
            &format!("{SEED_HEX}\n"),
            0o600,
        );
        let named = write_mode(
            &dir.path().join("copy.key"),
            &format!("{SEED_HEX}\n"),
            0o644,
        );
        for file in [&secret, &owner_only, &named] {
            let (code, stdout, stderr) = run(sealkit()
                .args(["verify", "approval"])
                .arg(&tokens)
                .arg("--pubkey-file")
                .arg(file));
            assert_eq!(code, 2, "{file:?}: {stdout}{stderr}");
            assert!(stderr.contains("secret-key-given-as-public"), "{stderr}");
            assert!(stderr.contains("key show"), "hint: {stderr}");
            let (code, stdout, stderr) = run(sealkit()
                .args(["verify", "receipt", "--receipt-key"])
                .arg(file)
                .arg(data("approvals/fixture-run-line.txt")));
            assert_eq!(code, 2, "{stdout}{stderr}");
            assert!(stderr.contains("secret key file"), "{stderr}");
        }
    }
}

/// What broke: a head-state file seal-host cannot read (a lone surrogate escape in `session`,
/// which serde_json refuses) was read by sealkit's more lenient reader as U+FFFD, so
/// `verify chain --state` matched its head and passed (exit 0). Found by the chain fuzz target.
mod lone_surrogate_head_state_accepted {
    use std::process::Command;

    const LINES: &str = "testdata/receipts/chain/fixture_run_audit.lines";
    const HEAD: &str = "2b153a2b189dd1118b8378ac13c42de2420f40dc29af29fe4a2f4d4f42e0eef3";

    fn verify_chain(state: &std::path::Path, json: bool) -> (i32, String) {
        let mut command = Command::new(assert_cmd::cargo::cargo_bin("sealkit"));
        command.args(["verify", "chain", "--audit-lines", LINES, "--state"]);
        command.arg(state);
        if json {
            command.args(["--format", "json"]);
        }
        let output = command.output().unwrap();
        (
            output.status.code().unwrap(),
            String::from_utf8(output.stdout).unwrap(),
        )
    }

    /// Seen red with the serde_json check in `chain::parse_state` removed: the lone-surrogate
    /// state exited 0 ("chain head: …" and no STATE INVALID line).
    #[test]
    fn a_head_state_serde_json_refuses_is_state_invalid() {
        let dir = tempfile::tempdir().unwrap();
        let state = |name: &str, session: &str| {
            let path = dir.path().join(name);
            std::fs::write(
                &path,
                format!(
                    r#"{{"seal_audit_state":"v1","session":"seal-host-rs/stdio:4242:1000{session}","head":"{HEAD}"}}"#
                ),
            )
            .unwrap();
            path
        };
        // The same session with a well-formed pair passes: only the lone escape is at fault.
        let paired = state("paired", r"\ud83d\ude00");
        assert_eq!(verify_chain(&paired, false).0, 0);

        let lone = state("lone", r"\ud83d");
        let (code, human) = verify_chain(&lone, false);
        assert_eq!(code, 1, "{human}");
        assert!(
            human.contains(&format!(
                "STATE INVALID: {} is no head state: not JSON to seal-host's serde_json: ",
                lone.display()
            )),
            "{human}"
        );
        let (code, json) = verify_chain(&lone, true);
        assert_eq!(code, 1, "{json}");
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(report["status"], "fail");
        assert_eq!(report["head"], HEAD, "the lines themselves still chain");
        assert_eq!(report["state"]["ok"], false);
        assert!(report["state"]["invalid"]
            .as_str()
            .unwrap()
            .starts_with("not JSON to seal-host's serde_json: "));
    }
}

/// What broke: a receipt whose request members were mistyped (here `args_hash` a number,
/// `canonical_request_sha256` removed) under a valid signature was authenticated: the checks
/// that needed those members reported them "not evaluated" and nothing failed.
mod mistyped_receipt_members_authenticated {
    use std::process::Command;

    const RECEIPT: &str = "testdata/receipts/hostile/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
    const KEY: &str = "testdata/receipts/fixture-dir/.seal-receipt-ed25519.key";

    /// Seen red with `request_member_problems` returning no problems (the member layout not
    /// enforced): exit 0.
    #[test]
    fn mistyped_request_members_under_a_valid_signature_are_malformed() {
        let output = Command::new(assert_cmd::cargo::cargo_bin("sealkit"))
            .args(["verify", "receipt", RECEIPT, "--receipt-key", KEY])
            .args(["--format", "json"])
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(1), "{stdout}");
        let reports: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let report = &reports[0];
        // The signature is genuine: what fails is the content it signs.
        assert_eq!(report["signature"]["status"], "verified");
        assert_eq!(report["status"], "failed");
        assert_eq!(
            report["findings"],
            serde_json::json!([{
                "code": "malformed-receipt",
                "severity": "error",
                "message": "args_hash is missing or mistyped (and there is no request_parse_error); \
                            canonical_request_sha256 is missing or mistyped (and there is no \
                            request_parse_error)",
            }])
        );
    }
}

/// Migrates the fixtures' old receipts into a fresh directory, lets `edit` damage the output,
/// and gives what `diff` then printed on stderr with its exit status (stdout must be empty:
/// an output it cannot trust is refused, not compared).
fn diff_after_editing_migration_output(edit: impl FnOnce(&std::path::Path)) -> (i32, String) {
    use crate::migration_integrity::{fixtures, run, CAPTURES};
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("out");
    let out_arg = out.to_str().unwrap();
    let mut migrate = vec!["migrate", "old/receipts"];
    migrate.extend(CAPTURES);
    migrate.extend(["--out", out_arg]);
    assert_eq!(run(&fixtures(), &migrate).0, 1);
    edit(&out);
    let output = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(fixtures())
        .args(["diff", "old/receipts", out_arg, "--format", "jsonl"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.stdout.is_empty(), "{stderr}");
    (output.status.code().unwrap(), stderr)
}

/// What broke: `diff` accepted a migration output whose `summary.json` counted fewer records
/// than `migration.jsonl` holds (the SHA-256 it records binds the records only).
mod miscounted_migration_summary_accepted {
    /// Seen red with the record-count comparison in `read_migration_output` removed: the
    /// edited output was diffed as if complete (exit 1 with a report, not 2).
    #[test]
    fn a_summary_that_miscounts_its_records_is_refused() {
        let (status, stderr) = super::diff_after_editing_migration_output(|out| {
            let summary_path = out.join("summary.json");
            let mut summary: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&summary_path).unwrap()).unwrap();
            assert_eq!(summary["records"]["count"], 13);
            summary["records"]["count"] = 12.into();
            std::fs::write(&summary_path, serde_json::to_vec_pretty(&summary).unwrap()).unwrap();
        });
        assert_eq!(status, 2, "{stderr}");
        assert!(
            stderr.contains(
                "migration.jsonl holds 13 records but summary.json counts 12: an edited migration output"
            ),
            "{stderr}"
        );
    }
}

/// What broke: a migration output directory holding `migration.jsonl` but no `summary.json`
/// (a migration interrupted before its summary) was walked as a receipt directory, so `diff`
/// compared against nothing and reported every old receipt as one-sided instead of refusing.
mod unsummarised_migration_output_diffed {
    /// Seen red with the old condition restored in `diff::load` (a directory is a migration
    /// output only when both files exist): the directory was diffed as receipts, exit 1.
    #[test]
    fn records_without_their_summary_are_refused_as_interrupted() {
        let (status, stderr) = super::diff_after_editing_migration_output(|out| {
            std::fs::remove_file(out.join("summary.json")).unwrap();
        });
        assert_eq!(status, 2, "{stderr}");
        assert!(
            stderr.contains(
                "migration.jsonl without summary.json: an interrupted migration; rerun sealkit migrate"
            ),
            "{stderr}"
        );
    }
}

/// What broke: `verify approval` shortened a rejected token's reported (unverified) target by
/// byte offsets, so a target with multi-byte characters at the cut panicked the command
/// (exit 101) instead of reporting the token rejected.
mod unverified_target_sliced_mid_character {
    use crate::support::*;

    /// Seen red with `short` in src/cmd/verify_approval.rs slicing bytes again
    /// (`&hex[..8]`, `&hex[hex.len() - 4..]`): the run panicked, exit 101.
    #[test]
    fn a_multibyte_unverified_target_is_shortened_by_characters() {
        // 'a' then 'é' (two bytes each): byte 8 falls inside the fourth 'é'.
        let target = format!("a{}", "é".repeat(20));
        let mut payload = fixture_payload();
        payload["target"] = target.clone().into();
        let text = canonical(&payload);
        // Signed over other bytes: rejected, so the target is only reported, never verified.
        let line = v2_line_with(&text, &sign_v2("other bytes"));
        let dir = tempfile::tempdir().unwrap();
        let tokens = dir.path().join("tokens.ndjson");
        std::fs::write(&tokens, format!("{line}\n")).unwrap();
        let output = assert_cmd::Command::cargo_bin("sealkit")
            .unwrap()
            .args(["verify", "approval"])
            .arg(&tokens)
            .args(["--pubkey", PUBKEY])
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
        assert!(stdout.contains("REJECTED"), "{stdout}");
        assert!(
            stdout.contains(&format!(
                "a{}…{} (unverified)",
                "é".repeat(7),
                "é".repeat(4)
            )),
            "{stdout}"
        );
    }
}

/// What broke: serde_json without `float_roundtrip` read `1.0e+228` one ULP off, so `target`
/// rendered `1.0000000000000001e+228` into `canonical_request` and `args_hash` where seal-host
/// (whose serde_json has it on) renders `1e+228`: both hashes differed from the host's. Found
/// by the canonical fuzz target; the library-level pin is
/// `fuzz_regressions::serde_renders_decimals_correctly_rounded_as_seal_host_does`.
mod decimal_misrounded_in_request_hashes {
    use sealkit::digest::sha256_hex;

    /// Not seen red under `cargo test`: with `float_roundtrip` removed from Cargo.toml the
    /// jsonschema dev-dependency turns it back on for the test build, and this passed. A plain
    /// `cargo build --bin sealkit` with the feature removed printed other hashes for this frame
    /// (args_hash d4d8fda1…, canonical_request_sha256 90952ea3…), so the shipped binary
    /// depends on the feature line, which this test cannot guard.
    #[test]
    fn a_large_decimal_hashes_as_seal_host_renders_it() {
        let frame = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"t","arguments":{"min":0.0e+28,"max":1.0e+228}}}"#;
        let output = assert_cmd::Command::cargo_bin("sealkit")
            .unwrap()
            .args(["target", "-", "--format", "json"])
            .write_stdin(format!("{frame}\n"))
            .output()
            .unwrap();
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert_eq!(output.status.code(), Some(0), "{stdout}");
        let frames: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let args = r#"{"min":0.0,"max":1e+228}"#;
        let canonical = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"min":0.0,"max":1e+228}}}"#;
        assert_eq!(frames[0]["args_hash"], sha256_hex(args.as_bytes()));
        assert_eq!(
            frames[0]["canonical_request_sha256"],
            sha256_hex(canonical.as_bytes())
        );
    }

    /// What the test above cannot see: the shipped binary (built without dev-dependencies)
    /// rounds decimals correctly only because the library's own serde_json dependency names
    /// `float_roundtrip`. Seen red with the feature removed from Cargo.toml's
    /// `[dependencies]` line.
    #[test]
    fn the_shipped_binary_keeps_float_roundtrip_itself() {
        let manifest =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
        let dependencies = manifest
            .split("\n[")
            .find(|section| section.starts_with("dependencies]"))
            .expect("a [dependencies] table");
        let serde_json = dependencies
            .lines()
            .find(|line| line.starts_with("serde_json"))
            .expect("serde_json among the dependencies");
        for feature in ["\"float_roundtrip\"", "\"preserve_order\""] {
            assert!(serde_json.contains(feature), "{serde_json}");
        }
    }
}

/// What broke: human output wrote untrusted text raw, so a tool name or a file name holding a
/// right-to-left override (U+202E) reordered what the terminal showed. Every command is
/// covered by the property tests in `inert_output`; this pins the two simplest cases by name.
mod bidi_override_printed_raw {
    const RLO: char = '\u{202E}';

    /// Seen red with the tool cell in src/cmd/target.rs given `call.tool.clone()` instead of
    /// its escaped form: the table held the raw U+202E.
    #[test]
    fn a_tool_name_is_escaped_for_people_and_exact_in_json() {
        let tool = format!("db.{RLO}etucexe");
        let frame = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": {"k": "v"}}})
        .to_string();
        let human = assert_cmd::Command::cargo_bin("sealkit")
            .unwrap()
            .args(["target", "-"])
            .write_stdin(format!("{frame}\n"))
            .output()
            .unwrap();
        let stdout = String::from_utf8(human.stdout).unwrap();
        assert_eq!(human.status.code(), Some(0), "{stdout}");
        assert!(stdout.contains("db.\\u{202E}etucexe"), "{stdout}");
        assert!(!stdout.contains(RLO), "{stdout}");
        // JSON carries the exact value: escaping is for terminals only.
        let json = assert_cmd::Command::cargo_bin("sealkit")
            .unwrap()
            .args(["target", "-", "--format", "json"])
            .write_stdin(format!("{frame}\n"))
            .output()
            .unwrap();
        assert_eq!(json.status.code(), Some(0));
        let frames: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert_eq!(frames[0]["tool"], tool);
    }

    /// Seen red with the message in src/cmd/diagnostic.rs given `diagnostic.to_string()`
    /// unescaped: stderr held the raw U+202E of the file name.
    #[test]
    fn a_file_name_in_an_error_is_escaped() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join(format!("gone{RLO}nosj.json"));
        let output = assert_cmd::Command::cargo_bin("sealkit")
            .unwrap()
            .arg("verify")
            .arg("receipt")
            .arg(&missing)
            .output()
            .unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("unreadable-file"), "{stderr}");
        assert!(stderr.contains("gone\\u{202E}nosj.json"), "{stderr}");
        assert!(!stderr.contains(RLO), "{stderr}");
    }
}

/// What broke: `audit` let a deleted receipt pass: with a released operation's receipt gone,
/// only a `chain-state-mismatch` warning remained and the run exited 0.
mod deleted_receipt_unnoticed {
    use crate::cli_audit::{expect, full_new_dir, pinned, write_private, L1_ALLOW};
    use sealkit::finding::Code;
    use serde_json::Value;
    use std::collections::BTreeSet;

    /// The newest receipt of the new directory (a BLOCK of the second session).
    const NEWEST_BLOCK: &str = "receipt-00000000000000000007-002adba72104f7b771b53bbdb8a8b612b0f477001f1de0d8ad89c220adf910c0.json";

    /// A deleted receipt is an error finding, whichever receipt it was. Seen red on 08828c0 (the
    /// binary before this check): deleting the released L1 ALLOW, or the newest receipt, left
    /// only a `chain-state-mismatch` warning and exit 0.
    #[test]
    fn a_deleted_receipt_is_an_error_finding() {
        let dir = full_new_dir();
        std::fs::remove_file(dir.path().join(L1_ALLOW)).unwrap();
        let run = pinned(dir.path());
        expect(&run, Code::OperationReceiptMissing, 1);
        expect(&run, Code::ChainStateMismatch, 1);
        let missing: Vec<&Value> = run
            .findings
            .iter()
            .filter(|f| f["code"] == Code::OperationReceiptMissing.as_str())
            .collect();
        assert_eq!(missing.len(), 1, "only L1's operation lost its receipt");
        assert_eq!(
            missing[0]["message"],
            "operation 15a4b979ecf3bdd9c88f5da3dec21c83d1ff7b74574576f403990c54bfd82f15 (release_frame_sha256 3044d049c228e720adc90071050512dd82ea67045082cb2716b45df0deb09f19) was released, but no readable receipt in this directory carries it: its receipt was deleted or destroyed"
        );
        assert!(missing[0]["path"]
            .as_str()
            .unwrap()
            .ends_with(".seal-operation-state.json"));
        assert_eq!(
            run.codes,
            BTreeSet::from([
                "chain-state-mismatch".to_owned(),
                "counter-reused".to_owned(),
                "operation-receipt-missing".to_owned()
            ])
        );

        // The newest receipt is a BLOCK (no operation burned): the head state alone shows it.
        let dir = full_new_dir();
        std::fs::remove_file(dir.path().join(NEWEST_BLOCK)).unwrap();
        let run = pinned(dir.path());
        expect(&run, Code::ChainStateMismatch, 1);
        assert_eq!(
            run.codes,
            BTreeSet::from([
                "chain-state-mismatch".to_owned(),
                "counter-reused".to_owned()
            ])
        );

        // A receipt destroyed in place (its bytes no longer a receipt) counts as gone too.
        let dir = full_new_dir();
        write_private(&dir.path().join(L1_ALLOW), b"{\"record_type\":");
        expect(&pinned(dir.path()), Code::OperationReceiptMissing, 1);
    }
}

/// What broke: `migrate --out` replaced a `summary.json` or `migration.jsonl` in the output
/// directory that was not its own output.
mod foreign_out_dir_overwritten {
    use crate::cli_migrate::{fixtures, flat, sealkit, tree_state, CAPTURES};
    use std::path::Path;

    /// Files in NEW_DIR that sealkit did not write are never replaced: the run stops before it
    /// changes anything and says how to proceed. Seen red on 08828c0 (the binary before this
    /// check): both unrelated files were replaced and the run exited 1.
    #[test]
    fn unrelated_files_in_the_output_directory_are_never_replaced() {
        let work = tempfile::tempdir().unwrap();
        let out = work.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let summary: &[u8] = b"{\"quarter\":\"Q3\",\"total\":1200}\n";
        let records: &[u8] = b"{\"event\":\"login\",\"user\":\"ada\"}\n";
        std::fs::write(out.join("summary.json"), summary).unwrap();
        std::fs::write(out.join("migration.jsonl"), records).unwrap();
        // A temporary file named like an interrupted run of ours would otherwise be removed.
        let temp = out.join(".migration.jsonl.sealkit-4242.tmp");
        std::fs::write(&temp, b"partial").unwrap();
        let before = tree_state(&out);
        let run = |out: &Path| {
            sealkit(&fixtures())
                .args(["migrate", "old/receipts"])
                .args(CAPTURES)
                .arg("--out")
                .arg(out)
                .output()
                .unwrap()
        };
        let output = run(&out);
        assert_eq!(output.status.code(), Some(2));
        assert!(output.stdout.is_empty());
        let stderr = flat(&output.stderr);
        assert!(stderr.contains("foreign-output"), "{stderr}");
        assert!(
            stderr.contains("summary.json exists and is not sealkit's migration output"),
            "{stderr}"
        );
        assert!(stderr.contains("nothing was changed"), "{stderr}");
        assert!(
            stderr.contains(
                "choose a new or empty --out directory, or move that file out of it first"
            ),
            "{stderr}"
        );
        assert_eq!(tree_state(&out), before, "nothing in NEW_DIR changed");

        // Only the records file unrelated: refused as well, naming it.
        std::fs::remove_file(out.join("summary.json")).unwrap();
        let before = tree_state(&out);
        let output = run(&out);
        assert_eq!(output.status.code(), Some(2));
        let stderr = flat(&output.stderr);
        assert!(
            stderr.contains("migration.jsonl exists and is not sealkit's migration output (line 1 is not a sealkit migration record)"),
            "{stderr}"
        );
        assert_eq!(tree_state(&out), before);

        // Moved away, the run completes, and a rerun replaces its own output.
        std::fs::remove_file(out.join("migration.jsonl")).unwrap();
        assert_eq!(run(&out).status.code(), Some(1));
        assert_eq!(run(&out).status.code(), Some(1));
        assert!(
            !temp.exists(),
            "our own leftover is cleaned by a run that may write"
        );
    }
}

/// The docs/development.md table of fixed bugs names every module here, and every test it
/// names exists, so the table cannot drift from the tests. Seen red with one row naming a
/// test that does not exist.
/// Runs the binary in `cwd` with `args` (and `stdin`), as `nobody` when `as_nobody` (the
/// caller checked [`can_run_as_nobody`]); returns the exit status, stdout and stderr.
fn run_in(
    cwd: &std::path::Path,
    args: &[&std::ffi::OsStr],
    stdin: &[u8],
    as_nobody: bool,
) -> (i32, String, String) {
    use std::io::Write;
    let bin = assert_cmd::cargo::cargo_bin("sealkit");
    let mut command = if as_nobody {
        let mut command = std::process::Command::new("setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin);
        command
    } else {
        std::process::Command::new(bin)
    };
    let mut child = command
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    // The command may not read its standard input at all.
    let _ = pipe.write_all(stdin);
    drop(pipe);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// [`run_in`] with string arguments, as the invoking user.
fn run_str(cwd: &std::path::Path, args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    run_in(cwd, &args, stdin, false)
}

/// Whether a file of mode 0000 can be made unreadable to the binary: yes for a user that is
/// not root; as root, when `setpriv` can run it as `nobody`.
fn can_run_as_nobody() -> Option<bool> {
    use std::os::unix::fs::MetadataExt;
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
    if !root {
        return Some(false);
    }
    let works = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
        .status()
        .is_ok_and(|s| s.success());
    works.then_some(true)
}

/// The one JSON error object on stderr: its code.
fn error_code(stderr: &str) -> String {
    let line = stderr.lines().last().unwrap_or_default();
    let value: serde_json::Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_eq!(value["type"], "error", "{stderr}");
    value["code"].as_str().unwrap().to_owned()
}

/// The legacy-vs-current receipts, copied into a fresh world-readable directory.
fn copied_receipts(into: &std::path::Path, which: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/receipts/legacy-vs-current")
        .join(which)
        .join("receipts");
    let to = into.join(which);
    std::fs::create_dir(&to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() != ".seal-receipt-ed25519.key" {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
    std::fs::set_permissions(into, std::fs::Permissions::from_mode(0o755)).unwrap();
    to
}

/// The first receipt file (by name) of a directory.
fn first_receipt(dir: &std::path::Path) -> std::path::PathBuf {
    crate::support::receipt_files_in(dir).remove(0)
}

/// What broke (issue 37, 1): `migrate` and `diff` succeeded on nothing. A migration pointed at
/// an empty directory exited 0, wrote an empty `migration.jsonl` and a `summary.json`, and
/// its summary line ended with a dangling "old targets: "; `diff e e` exited 0 with "0 pairs
/// … old labels: ".
mod migrate_and_diff_passed_on_nothing {
    use super::{copied_receipts, error_code, run_str};

    /// Seen red on 5027bf8: exit 0 in every format, `out/` made with both files, the summary
    /// line ending "old targets: " and the diff's "old labels: ".
    #[test]
    fn zero_receipts_is_no_receipts_and_nothing_is_written() {
        let work = tempfile::tempdir().unwrap();
        let empty = work.path().join("e");
        std::fs::create_dir(&empty).unwrap();
        for format in ["human", "json", "jsonl"] {
            let (code, stdout, stderr) = run_str(
                work.path(),
                &["--format", format, "migrate", "e", "--out", "o"],
                b"",
            );
            assert_eq!(code, 1, "{format}: {stderr}");
            assert!(!work.path().join("o").exists(), "{format}: nothing written");
            assert_eq!(stdout, "", "{format}");
            // No text with nothing after its label ("old targets: ").
            assert!(stderr.lines().all(|l| !l.ends_with(": ")), "{stderr}");
            match format {
                "human" => assert!(stderr.contains("no-receipts"), "{stderr}"),
                _ => assert_eq!(error_code(&stderr), "no-receipts"),
            }
            let (code, stdout, stderr) =
                run_str(work.path(), &["--format", format, "diff", "e", "e"], b"");
            assert_eq!(code, 1, "{format}: {stderr}");
            assert_eq!(stdout, "", "{format}");
            assert!(stderr.contains("no-receipts"), "{stderr}");
        }
        // One side with receipts, the other with none: nothing is compared either.
        copied_receipts(work.path(), "new");
        let (code, stdout, stderr) = run_str(work.path(), &["diff", "new", "e"], b"");
        assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
        assert!(
            stderr.contains("no-receipts") && stderr.contains("NEW e"),
            "{stderr}"
        );
    }
}

/// What broke (issue 37, 2): a receipt sealkit could not read was recorded as possible
/// tampering. `migrate` exited 1, wrote its output and labelled it `receipt-invalid` ("fails
/// its own integrity checks") with no reason in the table and nothing on stderr; `audit`
/// counted it an error finding (exit 1). And an empty or binary file given as a receipt did
/// not say what it was.
mod unreadable_receipt_taken_for_tampering {
    use super::{can_run_as_nobody, copied_receipts, error_code, first_receipt, run_in, run_str};
    use std::ffi::OsStr;
    use std::os::unix::fs::PermissionsExt;

    /// Seen red on 5027bf8: migrate exit 1 with `out/` written (the receipt `receipt-invalid`),
    /// audit exit 1, report exit 1 with its page written.
    #[test]
    fn a_receipt_that_cannot_be_read_is_could_not_check_everywhere_and_nothing_is_written() {
        let Some(as_nobody) = can_run_as_nobody() else {
            println!("skipped: running as root and setpriv cannot drop to nobody");
            return;
        };
        let work = tempfile::tempdir().unwrap();
        let old = copied_receipts(work.path(), "old");
        let locked = first_receipt(&old);
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
        // Where nobody may write.
        let writable = work.path().join("w");
        std::fs::create_dir(&writable).unwrap();
        std::fs::set_permissions(&writable, std::fs::Permissions::from_mode(0o777)).unwrap();
        let name = locked.file_name().unwrap().to_string_lossy().into_owned();
        for format in ["human", "json", "jsonl"] {
            let run = |args: &[&str]| {
                let mut all: Vec<&OsStr> = ["--format", format].map(OsStr::new).to_vec();
                all.extend(args.iter().map(OsStr::new));
                run_in(work.path(), &all, b"", as_nobody)
            };
            let (code, stdout, stderr) = run(&["migrate", "old", "--out", "w/out"]);
            assert_eq!(code, 2, "migrate {format}: {stderr}");
            assert!(!writable.join("out").exists(), "nothing written");
            assert_eq!(stdout, "", "a run of one batch prints nothing");
            let unwrapped: String = stderr.chars().filter(|c| !" \n│".contains(*c)).collect();
            assert!(
                stderr.contains("unreadable-file") && unwrapped.contains(&name),
                "{stderr}"
            );
            let (code, _, stderr) = run(&["diff", "old", "old"]);
            assert_eq!(code, 2, "diff {format}: {stderr}");
            assert!(stderr.contains("unreadable-file"), "{stderr}");
            let (code, stdout, stderr) = run(&["audit", "old"]);
            assert_eq!(code, 2, "audit {format}: {stderr}");
            assert!(stderr.contains("unreadable-file"), "{stderr}");
            if format == "human" {
                assert!(
                    stdout.starts_with("Could not check: 1 file could not be read"),
                    "{stdout}"
                );
            } else {
                assert_eq!(error_code(&stderr), "unreadable-file");
            }
            let (code, _, stderr) = run(&["report", "old", "--out", "w/page"]);
            assert_eq!(code, 2, "report {format}: {stderr}");
            assert!(!writable.join("page").exists(), "no page");
            assert!(stderr.contains("unreadable-file"), "{stderr}");
        }
    }

    /// Seen red on 5027bf8: the human table had no column for why (rows gave no reason at
    /// all), and an empty file was "truncated-json: EOF while parsing".
    #[test]
    fn an_empty_or_binary_file_given_as_a_receipt_says_what_it_is_in_every_format() {
        let work = tempfile::tempdir().unwrap();
        std::fs::write(work.path().join("empty.json"), b"").unwrap();
        std::fs::write(
            work.path().join("picture.json"),
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
        )
        .unwrap();
        for (file, code) in [
            ("empty.json", "empty-file"),
            ("picture.json", "binary-file"),
        ] {
            for format in ["human", "json", "jsonl"] {
                let (status, stdout, stderr) = run_str(
                    work.path(),
                    &["--format", format, "migrate", file, "--out", "out"],
                    b"",
                );
                assert_eq!(status, 1, "{file} {format}: {stderr}");
                assert!(stdout.contains(code), "{file} {format}: {stdout}");
                if format == "human" {
                    assert!(stdout.contains("┆ detail"), "{stdout}");
                }
                let (status, stdout, _) = run_str(
                    work.path(),
                    &["--format", format, "verify", "receipt", file],
                    b"",
                );
                assert_eq!(status, 1);
                assert!(stdout.contains(code), "{file} {format}: {stdout}");
            }
        }
    }
}

/// What broke (issue 37, 3): `-` was not standard input where a receipt or a directory is
/// expected: `cat r.json | sealkit diff - NEW` and `… | sealkit migrate - --out X` failed with
/// "-: No such file or directory".
mod dash_not_stdin_for_a_receipt {
    use super::{copied_receipts, error_code, first_receipt, run_str};

    /// Seen red on 5027bf8: both exit 2, `unreadable-input`, "-: No such file or directory".
    #[test]
    fn dash_is_one_receipt_on_stdin_or_is_refused_saying_so() {
        let work = tempfile::tempdir().unwrap();
        let new = copied_receipts(work.path(), "new");
        let receipt = first_receipt(&new);
        let bytes = std::fs::read(&receipt).unwrap();
        let named = receipt.to_str().unwrap();
        let (from_file, by_name, _) = run_str(
            work.path(),
            &["--format", "jsonl", "diff", named, "new"],
            b"",
        );
        let (from_stdin, on_stdin, stderr) = run_str(
            work.path(),
            &["--format", "jsonl", "diff", "-", "new"],
            &bytes,
        );
        assert_eq!(from_stdin, from_file, "{stderr}");
        let pairs = |text: &str| text.matches("\"type\":\"pair\"").count();
        assert_eq!(pairs(&on_stdin), 1, "{on_stdin}");
        assert_eq!(pairs(&on_stdin), pairs(&by_name));
        let (code, stdout, stderr) = run_str(
            work.path(),
            &["--format", "jsonl", "migrate", "-", "--out", "out"],
            &bytes,
        );
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("\"receipt\":\"-\""), "{stdout}");
        let records = std::fs::read_to_string(work.path().join("out/migration.jsonl")).unwrap();
        assert_eq!(records.lines().count(), 1);
        // Both sides cannot be standard input.
        let (code, _, stderr) =
            run_str(work.path(), &["--format", "json", "diff", "-", "-"], &bytes);
        assert_eq!(
            (code, error_code(&stderr).as_str()),
            (2, "stdin-given-twice")
        );
        // Where directories are walked, `-` is refused with a message that says so.
        for args in [
            &["audit", "-"][..],
            &["report", "-", "--out", "page.html"],
            &[
                "evidence",
                "verify",
                "--refs",
                "refs",
                "--evidence",
                "-",
                "--receipt-key",
                "3e249cf1656c5e8c9e4e863766145dbfbef6ebe55f62490b63fe6898ac0d6fa4",
            ],
        ] {
            let mut all = vec!["--format", "json"];
            all.extend(args);
            let (code, stdout, stderr) = run_str(work.path(), &all, &bytes);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert_eq!(stdout, "");
            assert_eq!(error_code(&stderr), "stdin-not-accepted", "{args:?}");
            assert!(stderr.contains("cannot be `-`"), "{stderr}");
        }
        assert!(!work.path().join("page.html").exists());
    }
}

/// What broke (issue 37, 4): a binary file was read as a token file with every line
/// rejected: `verify approval picture.png --pubkey …` said "N token lines, 0 accepted, N
/// rejected" and exited 1, where a text file with no token is `not-a-token-file` (exit 2).
mod binary_file_read_as_token_file {
    use super::{error_code, run_str};
    use crate::support::{frame_path, key_file, PUBKEY, TARGET};

    /// Seen red on 5027bf8: verify approval exit 1 with a REJECTED row per line; report exit 0
    /// with its page; approve appended a token to the picture (exit 0).
    #[test]
    fn binary_input_is_not_a_token_file_in_every_command_that_reads_token_lines() {
        let work = tempfile::tempdir().unwrap();
        let mut picture = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x02\x00".to_vec();
        picture.extend((0..3000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
        picture.extend(b"\n\x00\x00\n");
        std::fs::write(work.path().join("picture.png"), &picture).unwrap();
        for format in ["human", "json", "jsonl"] {
            let (code, stdout, stderr) = run_str(
                work.path(),
                &[
                    "--format",
                    format,
                    "verify",
                    "approval",
                    "picture.png",
                    "--pubkey",
                    PUBKEY,
                ],
                b"",
            );
            assert_eq!(code, 2, "{format}: {stdout}{stderr}");
            assert_eq!(stdout, "", "{format}");
            assert!(stderr.contains("not-a-token-file"), "{stderr}");
            assert!(stderr.contains("binary data"), "{stderr}");
        }
        let receipts = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/receipts/legacy-vs-current/new/receipts");
        let (code, _, stderr) = run_str(
            work.path(),
            &[
                "--format",
                "json",
                "report",
                receipts.to_str().unwrap(),
                "--out",
                "page.html",
                "--pubkey",
                PUBKEY,
                "--tokens",
                "picture.png",
            ],
            b"",
        );
        assert_eq!(
            (code, error_code(&stderr).as_str()),
            (2, "not-a-token-file")
        );
        assert!(!work.path().join("page.html").exists());
        let key = key_file(work.path());
        let frame = frame_path();
        let (code, _, stderr) = run_str(
            work.path(),
            &[
                "--format",
                "json",
                "approve",
                "--yes",
                "--token-file",
                "picture.png",
                "--key-file",
                key.to_str().unwrap(),
                "--frame",
                frame.to_str().unwrap(),
                "--target",
                TARGET,
            ],
            b"",
        );
        assert_eq!(
            (code, error_code(&stderr).as_str()),
            (2, "not-a-token-file")
        );
        assert_eq!(
            std::fs::read(work.path().join("picture.png")).unwrap(),
            picture
        );
    }
}

/// What broke (issue 37, 5): JSON output stopped being JSON on a failure. A receipt directory
/// entry whose name is not UTF-8 ended `audit --format json` after `{"type":"audit",…` with an
/// `io-error` (and `verify receipt` after `[`); a run that stopped after its document began
/// left half a document.
mod json_output_broken_on_failure {
    use super::{error_code, run_in, run_str};
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    fn assert_json(format: &str, stdout: &str, what: &str) {
        match format {
            "json" if !stdout.trim().is_empty() => {
                serde_json::from_str::<serde_json::Value>(stdout)
                    .unwrap_or_else(|e| panic!("{what}: not one JSON document ({e}): {stdout}"));
            }
            _ => {
                for line in stdout.lines() {
                    serde_json::from_str::<serde_json::Value>(line)
                        .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {line}"));
                }
            }
        }
    }

    /// Seen red on 5027bf8: `audit --format json` printed `{"type":"audit","receipts":[` then
    /// stopped with `io-error` (exit 2); `verify receipt --format json` printed `[` alone.
    #[test]
    fn stdout_is_empty_or_valid_json_on_every_failure() {
        let work = tempfile::tempdir().unwrap();
        let dir = work.path().join("receipts");
        std::fs::create_dir(&dir).unwrap();
        let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "testdata/receipts/legacy-vs-current/new/receipts/receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json",
        );
        let odd = dir.join(OsStr::from_bytes(b"receipt-\xff\xfe.json"));
        std::fs::copy(source, &odd).unwrap();
        for format in ["json", "jsonl"] {
            let cases: [Vec<&OsStr>; 4] = [
                vec![OsStr::new("audit"), dir.as_os_str()],
                vec![OsStr::new("verify"), OsStr::new("receipt"), odd.as_os_str()],
                vec![OsStr::new("evidence"), OsStr::new("ref"), odd.as_os_str()],
                vec![
                    OsStr::new("audit"),
                    OsStr::new("--no-such-flag"),
                    dir.as_os_str(),
                ],
            ];
            for case in cases {
                let mut args = vec![OsStr::new("--format"), OsStr::new(format)];
                args.extend(&case);
                let (code, stdout, stderr) = run_in(work.path(), &args, b"", false);
                let what = format!("{format} {case:?}");
                assert_json(format, &stdout, &what);
                for line in stderr.lines() {
                    let value: serde_json::Value = serde_json::from_str(line)
                        .unwrap_or_else(|e| panic!("{what}: stderr not JSON ({e}): {line}"));
                    assert!(
                        value["type"] == "error" || value["type"] == "warning",
                        "{line}"
                    );
                }
                assert!(!stderr.contains("io-error"), "{what}: {stderr}");
                if case[1] == "--no-such-flag" {
                    assert_eq!((code, stdout.as_str()), (2, ""));
                    assert_eq!(error_code(&stderr), "usage");
                } else {
                    assert!(stdout.contains("_hex\":\""), "{what}: {stdout}");
                }
            }
        }
    }

    /// A migration that stops after its document is begun (a receipt it cannot read, here one
    /// over the receipt size limit, sorted into the second batch) closes the document: valid
    /// JSON without a summary, exit 2, the error on stderr, NEW_DIR not written.
    #[test]
    fn a_migration_stopped_after_its_first_batch_leaves_a_closed_document() {
        let work = tempfile::tempdir().unwrap();
        let dir = work.path().join("receipts");
        std::fs::create_dir(&dir).unwrap();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let seed: [u8; 32] = std::fs::read(root.join(crate::generated_receipts::SEED))
            .unwrap()
            .try_into()
            .unwrap();
        let template = sealkit::receipt::parse(
            &std::fs::read(root.join(crate::generated_receipts::TEMPLATE)).unwrap(),
        )
        .unwrap();
        crate::generated_receipts::generate(&dir, &template, &seed, 2100);
        // Sorted after every generated receipt; sparse, so it costs no disk.
        let huge = dir.join(format!(
            "receipt-99999999999999999999-{}.json",
            "0".repeat(64)
        ));
        let file = std::fs::File::create(&huge).unwrap();
        file.set_len(sealkit::audit::MAX_RECEIPT_BYTES + 1).unwrap();
        let (code, stdout, stderr) = run_str(
            work.path(),
            &["--format", "json", "migrate", "receipts", "--out", "out"],
            b"",
        );
        assert_eq!(code, 2, "{stderr}");
        assert_eq!(error_code(&stderr), "unreadable-file");
        let document: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(document["type"], "migration");
        assert_eq!(document["records"].as_array().unwrap().len(), 2048);
        assert!(document.get("summary").is_none());
        assert!(!work.path().join("out").exists());
    }
}

/// What broke (issue 36, 7): a receipt directory entry whose name is not UTF-8 made
/// `audit --format json` fail with `io-error` (exit 2), while the human output reported it
/// as `misnamed-receipt` (exit 1).
mod non_utf8_name_broke_json {
    use super::run_in;
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    /// Seen red on 5027bf8: human exit 1 with misnamed-receipt; json and jsonl exit 2 with
    /// `io-error` after a partial document.
    #[test]
    fn every_format_reports_the_same_findings_and_json_carries_the_exact_bytes() {
        let work = tempfile::tempdir().unwrap();
        let dir = work.path().join("receipts");
        std::fs::create_dir(&dir).unwrap();
        let raw = b"receipts/receipt-\xff-caf\xe9.json";
        let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "testdata/receipts/legacy-vs-current/new/receipts/receipt-00000000000000000000-103292357cac56d748afc89bae05e15775bdba7922f761d60ed349c7ebfb9f29.json",
        );
        std::fs::copy(source, work.path().join(OsStr::from_bytes(raw))).unwrap();
        let hex = sealkit::digest::hex_lower(raw);
        let run = |format: &str| {
            let args = ["--format", format, "audit", "receipts"].map(OsStr::new);
            run_in(work.path(), &args, b"", false)
        };
        let (human_code, human, _) = run("human");
        let (json_code, json, json_err) = run("json");
        let (jsonl_code, jsonl, _) = run("jsonl");
        assert_eq!((human_code, json_code, jsonl_code), (1, 1, 1), "{json_err}");
        let document: serde_json::Value = serde_json::from_str(&json).unwrap();
        let receipt = &document["receipts"][0];
        assert_eq!(
            receipt["file"],
            "receipts/receipt-\u{fffd}-caf\u{fffd}.json"
        );
        assert_eq!(receipt["file_hex"], hex);
        let lines: Vec<serde_json::Value> = jsonl
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let codes = |findings: Vec<&serde_json::Value>| {
            let mut codes: Vec<String> = findings
                .iter()
                .map(|f| f["code"].as_str().unwrap().to_owned())
                .collect();
            codes.sort();
            codes
        };
        let in_json = codes(
            (document["receipts"][0]["file_findings"]
                .as_array()
                .unwrap()
                .iter())
            .chain(document["findings"].as_array().unwrap())
            .collect(),
        );
        let in_jsonl = codes(
            lines
                .iter()
                .flat_map(|l| match l["type"].as_str() {
                    Some("receipt") => l["file_findings"].as_array().unwrap().iter().collect(),
                    Some("finding") => vec![l],
                    _ => Vec::new(),
                })
                .collect(),
        );
        assert_eq!(in_json, in_jsonl);
        assert!(
            in_json.contains(&"misnamed-receipt".to_owned()),
            "{in_json:?}"
        );
        for code in &in_json {
            assert!(
                human.contains(code.as_str()),
                "{code} not in the human output"
            );
        }
        // Every finding about the file carries the bytes too.
        for line in &lines {
            if line["path"]
                .as_str()
                .is_some_and(|p| p.contains('\u{fffd}'))
            {
                assert_eq!(line["path_hex"], hex, "{line}");
            }
        }
        // The same rule in the other commands that print a path: a capture's name for
        // `target`, a receipt's for `migrate`.
        let capture = work.path().join(OsStr::from_bytes(b"c\xff.jsonl"));
        std::fs::write(
            &capture,
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}\n",
        )
        .unwrap();
        let args = ["--format", "jsonl", "target"].map(OsStr::new);
        let mut args = args.to_vec();
        args.push(capture.file_name().unwrap());
        let (code, stdout, stderr) = run_in(work.path(), &args, b"", false);
        assert_eq!(code, 0, "{stderr}");
        let record: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
        assert_eq!(record["source_hex"], "63ff2e6a736f6e6c");
        let args = ["--format", "jsonl", "migrate", "receipts", "--out", "out"].map(OsStr::new);
        let (_, stdout, _) = run_in(work.path(), &args, b"", false);
        let record: serde_json::Value =
            serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
        assert_eq!(record["receipt_hex"], hex);
        // And `report`'s rows, in its JSON model and its JSON Lines (no `file_hex` on 5027bf8:
        // the row's name lossy alone).
        for format in ["json", "jsonl"] {
            let page = format!("page.{format}");
            let args = ["--format", format, "report", "receipts", "--out", &page].map(OsStr::new);
            let (code, _, stderr) = run_in(work.path(), &args, b"", false);
            assert_eq!(code, 1, "{stderr}");
            let text = std::fs::read_to_string(work.path().join(&page)).unwrap();
            let row: serde_json::Value = match format {
                "json" => {
                    serde_json::from_str::<serde_json::Value>(&text).unwrap()["rows"][0].clone()
                }
                _ => serde_json::from_str(text.lines().next().unwrap()).unwrap(),
            };
            assert_eq!(row["file"], "receipts/receipt-\u{fffd}-caf\u{fffd}.json");
            assert_eq!(row["file_hex"], hex, "{format}");
        }
    }
}

#[test]
fn the_fixed_bugs_table_names_tests_that_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/development.md")).unwrap();
    let start = doc
        .find("Fixed bugs and the test named after each")
        .unwrap();
    let rows: Vec<&str> = doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .collect();
    assert!(rows.len() >= 20, "{rows:?}");
    let here = std::fs::read_to_string(root.join("tests/it/regression.rs")).unwrap();
    let mut named_here = Vec::new();
    for row in &rows {
        let tests = row.rsplit('|').nth(1).unwrap();
        let names: Vec<&str> = tests
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|n| !n.contains(' '))
            .collect();
        assert!(!names.is_empty(), "{row}");
        for name in names {
            // A module is a file, or a directory whose mod.rs holds its tests; a name may go
            // down into a directory's files (`contract_matrix::relations::…`).
            let segments: Vec<&str> = name.split("::").collect();
            let (depth, source) = (1..=segments.len())
                .rev()
                .find_map(|depth| {
                    let path = segments[..depth].join("/");
                    std::fs::read_to_string(root.join(format!("tests/it/{path}.rs")))
                        .or_else(|_| {
                            std::fs::read_to_string(root.join(format!("tests/it/{path}/mod.rs")))
                        })
                        .ok()
                        .map(|source| (depth, source))
                })
                .unwrap_or_else(|| panic!("{name}: no such file under tests/it"));
            let module = segments[..depth].join("::");
            let item = segments[depth..].join("::");
            if let Some(last) = segments[depth..].last() {
                assert!(
                    source.contains(&format!("fn {last}("))
                        || source.contains(&format!("mod {last} {{")),
                    "{name} is not in tests/it/{module}"
                );
            }
            if module == "regression" {
                named_here.push(item.to_owned());
            }
        }
    }
    for line in here.lines() {
        if let Some(module) = line.strip_prefix("mod ").and_then(|l| l.strip_suffix(" {")) {
            assert!(
                named_here.iter().any(|n| n == module),
                "regression::{module} is missing from docs/development.md"
            );
        }
    }
}
