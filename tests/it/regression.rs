//! One test per fixed bug, named after what broke, each through the real binary. A test moves
//! here from its topic's module when it is the most direct pin of a fix (its helpers stay in
//! that module); the other fixes keep their named tests where they are, listed in
//! docs/development.md.
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
