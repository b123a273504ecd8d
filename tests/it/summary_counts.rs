//! Issue 38 item 7: no summary says "1 entries", "1 keys", "1 errors", "1 receipts" or
//! "1 records". Every command that counts runs here over inputs holding one of each thing
//! it counts, and nothing it prints (human output and its diagnostics) counts one with a
//! plural noun. Seen red on 5027bf8 (run with the binary built from 5027bf8 in place of target/debug/sealkit) ("1 entries, chain intact", "(1 entries, 1 keys)",
//! "1 receipts", "1 records", "1 errors").
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support::*;
use std::path::Path;

/// Words that follow a count ending in `s` but are no plural of a thing counted: units, and
/// the verb of "1 needs attention".
const NOT_PLURALS: [&str; 3] = ["ms", "s", "needs"];

/// Every `1 <word ending in s>` in `text` that is not a unit, as `1 word`.
fn ones_with_plurals(text: &str) -> Vec<String> {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == '(')
        .collect();
    words
        .windows(2)
        .filter(|pair| pair[0] == "1")
        .map(|pair| pair[1].trim_end_matches([',', ';', ':', '.', ')']))
        .filter(|word| word.ends_with('s') && !NOT_PLURALS.contains(word) && word.len() > 2)
        .map(|word| format!("1 {word}"))
        .collect()
}

fn run(dir: &Path, args: &[&str]) -> String {
    let output = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .args(["--color", "never"])
        .env_remove("COLUMNS")
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    text
}

#[test]
fn the_detector_finds_one_with_a_plural() {
    assert_eq!(
        ones_with_plurals("a: 1 entries, chain intact (1 entries, 1 key) 1 ms, 1 s, 10 entries"),
        vec!["1 entries", "1 entries"]
    );
}

#[test]
fn no_summary_counts_one_with_a_plural_noun() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // One receipt, its key, a one-entry trusted-approvers list, one token line.
    let receipts = d.join("receipts");
    std::fs::create_dir(&receipts).unwrap();
    let name = "receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
    let fixture = root.join("testdata/receipts/fixture-dir");
    std::fs::copy(fixture.join(name), receipts.join(name)).unwrap();
    let key = fixture
        .join(".seal-receipt-ed25519.key")
        .display()
        .to_string();
    std::fs::write(d.join("approvers.txt"), format!("alice {PUBKEY}\n")).unwrap();
    std::fs::write(d.join("tokens.ndjson"), format!("{}\n", fixture_line())).unwrap();
    // A one-entry sealed log, and one audit line after an empty one.
    let payload = r#"{"epoch":1,"tool":"docs.read"}"#;
    let genesis = sealkit::chain::genesis();
    let head = sealkit::chain::commit(&genesis, payload);
    let sealed = serde_json::json!({
        "format": "seal-verifiable-record/v1",
        "commitment": "sha256(prevHead || 0x1f || payload)",
        "genesis": genesis,
        "entries": [{"payload": payload, "head": head}],
    });
    std::fs::write(d.join("sealed.json"), sealed.to_string()).unwrap();
    let mut tampered = sealed.clone();
    tampered["entries"][0]["payload"] = serde_json::json!(r#"{"epoch":2}"#);
    std::fs::write(d.join("tampered.json"), tampered.to_string()).unwrap();
    std::fs::write(d.join("audit.lines"), format!("\n{payload}\n")).unwrap();
    let one_receipt = receipts.join(name).display().to_string();
    let capture = root.join("testdata/captures/sample.jsonl");
    let one_frame = d.join("one.jsonl");
    let first_call = std::fs::read_to_string(&capture)
        .unwrap()
        .lines()
        .nth(1)
        .unwrap()
        .to_owned();
    std::fs::write(&one_frame, format!("{first_call}\n")).unwrap();
    let legacy = root.join("testdata/receipts/legacy-vs-current");
    let old = legacy.join("old/receipts");
    let old_one = d.join("old-one");
    std::fs::create_dir(&old_one).unwrap();
    let old_name = "receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
    std::fs::copy(old.join(old_name), old_one.join(old_name)).unwrap();
    let frames: Vec<String> = ["frames/session-L.capture", "frames/session-M.capture"]
        .iter()
        .map(|f| legacy.join(f).display().to_string())
        .collect();
    let refs = d.join("refs.jsonl");
    let made = run(
        d,
        &[
            "evidence",
            "ref",
            "--format",
            "jsonl",
            "--receipt-key",
            &key,
            &one_receipt,
        ],
    );
    std::fs::write(&refs, made).unwrap();

    let mut runs: Vec<Vec<String>> = vec![
        vec!["verify", "chain", "sealed.json"],
        vec!["verify", "chain", "tampered.json"],
        vec!["verify", "chain", "--audit-lines", "audit.lines"],
        vec![
            "verify",
            "approval",
            "tokens.ndjson",
            "--trusted-approvers",
            "approvers.txt",
        ],
        vec!["verify", "approval", "tokens.ndjson", "--pubkey", PUBKEY],
        vec!["verify", "receipt", &one_receipt, "--receipt-key", &key],
        vec![
            "audit",
            "receipts",
            "--receipt-key",
            &key,
            "--trusted-approvers",
            "approvers.txt",
        ],
        vec!["audit", "receipts"],
        vec![
            "report",
            "receipts",
            "--out",
            "page.html",
            "--receipt-key",
            &key,
        ],
        vec!["report", "receipts", "--out", "page2.html"],
        vec!["target", one_frame.to_str().unwrap()],
        vec![
            "evidence",
            "verify",
            "--refs",
            "refs.jsonl",
            "--evidence",
            "receipts",
            "--receipt-key",
            &key,
        ],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(str::to_owned).collect())
    .collect();
    let mut migrate = vec![
        "migrate".to_owned(),
        old_one.display().to_string(),
        "--frames".into(),
    ];
    migrate.extend(frames.iter().cloned());
    migrate.extend(["--out".to_owned(), d.join("migrated").display().to_string()]);
    runs.push(migrate);
    let mut diff = vec![
        "diff".to_owned(),
        old.join(old_name).display().to_string(),
        legacy
            .join("new/receipts")
            .join(old_name)
            .display()
            .to_string(),
        "--frames".into(),
    ];
    diff.extend(frames.iter().cloned());
    runs.push(diff);
    let mut found = Vec::new();
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let text = run(d, &args);
        assert!(!text.trim().is_empty(), "{args:?} printed nothing");
        for phrase in ones_with_plurals(&text) {
            found.push(format!("{args:?}: {phrase}"));
        }
    }
    assert_eq!(found, Vec::<String>::new());
}
