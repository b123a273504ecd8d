//! Command lines that work, one or more per subcommand, and the files they read: each input
//! argument is tried in every case against the first of these that gives it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::{bin, root, set_mode};
use base64::Engine as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One value of a working command line.
#[derive(Debug, Clone, Copy)]
pub(super) enum Value {
    /// A fixture file (by its name in the fixture directory).
    File(&'static str),
    /// A fixture directory, and the fixture file standard input gets in its place for
    /// [`Case::StdinValid`].
    Dir(&'static str, &'static str),
    /// A value given as it is (not a path).
    Text(&'static str),
    /// A path under `out/` the command writes.
    Out(&'static str),
    /// A flag without a value.
    Flag,
}

/// A command line that works, the exit status it has, and the paths (under the case
/// directory) it may write.
pub(super) struct Baseline {
    pub(super) command: &'static str,
    pub(super) args: &'static [(&'static str, Value)],
    pub(super) exit: i32,
    pub(super) writes: &'static [&'static str],
}

const TARGET_HEX: &str = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";
const ENVELOPE_SIGNATURE: &str = "2f1ed3cc3485efc99a8c1a5dfcba2bef605bfec3d5b6e20d9f130cdbbb1b09db008a5e9c9a6caddacae87c480819117f57085a185b98cc5ffdb72e65d1353509";

pub(super) const BASELINES: &[Baseline] = &[
    Baseline {
        command: "target",
        args: &[
            ("FILE", Value::File("sample.jsonl")),
            ("--tool-spec", Value::File("tool-spec.json")),
        ],
        exit: 1,
        writes: &[],
    },
    Baseline {
        command: "envelope",
        args: &[
            ("FRAME", Value::File("envelope-call.jsonl")),
            ("--params", Value::File("envelope-params.json")),
            ("--verify", Value::Text(ENVELOPE_SIGNATURE)),
            ("--pubkey", Value::File("envelope.pub")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "verify approval",
        args: &[
            ("FILE", Value::File("tokens.ndjson")),
            ("--pubkey", Value::File("keys/approval.pub")),
            ("--frame", Value::File("call.frame")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "verify approval",
        args: &[
            ("FILE", Value::File("tokens.ndjson")),
            ("--trusted-approvers", Value::File("keys/approvers.txt")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "verify receipt",
        args: &[
            // In a directory of its own: a key beside the receipt would be one found in the
            // evidence itself (receipt-key-in-evidence, exit 1).
            ("FILE", Value::File("apart/receipt.json")),
            ("--receipt-key", Value::File("receipt.key")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "verify chain",
        args: &[("SEALED.json", Value::File("sealed.json"))],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "verify chain",
        args: &[
            ("--audit-lines", Value::File("audit.lines")),
            ("--state", Value::File("head.state")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "verify bundle",
        args: &[
            ("FILE", Value::File("bundle.json")),
            ("--issuer-pubkey", Value::File("issuer.pub")),
            ("--request-pubkey", Value::File("request.pub")),
            ("--approval-pubkey", Value::File("approval-signer.pub")),
        ],
        // sealkit cannot reproduce a decision (no kernel), so a bundle is never fully checked.
        exit: 2,
        writes: &[],
    },
    Baseline {
        command: "audit",
        args: &[
            ("DIR", Value::Dir("receipts", "receipt.json")),
            ("--receipt-key", Value::File("receipt.key")),
            ("--trusted-approvers", Value::File("keys/approvers.txt")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "diff",
        args: &[
            ("OLD", Value::Dir("old", "old-receipt.json")),
            ("NEW", Value::Dir("receipts", "receipt.json")),
            ("--frames", Value::File("session.capture")),
        ],
        exit: 1,
        writes: &[],
    },
    Baseline {
        command: "migrate",
        args: &[
            ("OLD_DIR", Value::Dir("old", "old-receipt.json")),
            ("--frames", Value::File("session.capture")),
            ("--out", Value::Out("out/migration")),
        ],
        exit: 1,
        writes: &["out/migration"],
    },
    Baseline {
        command: "report",
        args: &[
            ("DIR", Value::Dir("receipts", "receipt.json")),
            ("--out", Value::Out("out/report.html")),
            ("--receipt-key", Value::File("receipt.key")),
            ("--pubkey", Value::File("keys/approval.pub")),
            ("--tokens", Value::File("tokens.ndjson")),
            ("--chain", Value::File("sealed.json")),
            ("--audit-lines", Value::File("audit.lines")),
            ("--frames", Value::File("annotated.capture")),
        ],
        exit: 0,
        writes: &["out/report.html"],
    },
    Baseline {
        command: "report",
        args: &[
            ("DIR", Value::Dir("receipts", "receipt.json")),
            ("--out", Value::Out("out/report.html")),
            ("--receipt-key", Value::File("receipt.key")),
            ("--trusted-approvers", Value::File("keys/approvers.txt")),
        ],
        exit: 0,
        writes: &["out/report.html"],
    },
    Baseline {
        command: "evidence ref",
        args: &[
            // Apart from its key: a key beside the receipt is one found in the evidence
            // (receipt-key-in-evidence: no reference, exit 1).
            ("RECEIPT", Value::File("apart/receipt.json")),
            ("--receipt-key", Value::File("receipt.key")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "evidence verify",
        args: &[
            ("--frames", Value::File("annotated.capture")),
            ("--refs", Value::File("refs.jsonl")),
            ("--evidence", Value::Dir("receipts", "receipt.json")),
            ("--receipt-key", Value::File("receipt.key")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "keygen",
        args: &[
            ("--out-dir", Value::Out("out/keys")),
            ("--passphrase-file", Value::File("new.pass")),
        ],
        exit: 0,
        writes: &["out/keys"],
    },
    Baseline {
        command: "key show",
        args: &[
            // Written before keys stated their public key: the passphrase is needed.
            ("FILE", Value::File("encrypted-unstated.key")),
            ("--passphrase-file", Value::File("fuzz.pass")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "key protect",
        args: &[
            ("FILE", Value::File("secret.key")),
            ("--passphrase-file", Value::File("new.pass")),
        ],
        exit: 0,
        writes: &["secret.key"],
    },
    Baseline {
        command: "approve",
        args: &[
            ("--token-file", Value::File("approved.ndjson")),
            ("--key-file", Value::File("secret.key")),
            ("--frame", Value::File("call.frame")),
            ("--target", Value::Text(TARGET_HEX)),
            ("--yes", Value::Flag),
        ],
        exit: 0,
        writes: &["approved.ndjson"],
    },
    Baseline {
        command: "approve",
        args: &[
            ("--token-file", Value::File("approved.ndjson")),
            ("--refusal", Value::File("refusal.json")),
            ("--key-file", Value::File("encrypted.key")),
            ("--passphrase-file", Value::File("fuzz.pass")),
            ("--yes", Value::Flag),
        ],
        exit: 0,
        writes: &["approved.ndjson"],
    },
    Baseline {
        command: "approve",
        args: &[
            ("--token-file", Value::File("approved.ndjson")),
            ("--ssh-agent", Value::Flag),
            ("--ssh-key", Value::File("agent.pub")),
            ("--frame", Value::File("call.frame")),
            ("--target", Value::Text(TARGET_HEX)),
            ("--yes", Value::Flag),
        ],
        // No ssh-agent runs here (SSH_AUTH_SOCK is removed): the key file is read first.
        exit: 2,
        writes: &[],
    },
];

/// The files the baselines read, made once.
pub(super) fn make_fixtures(dir: &Path) {
    let lvc = root().join("testdata/receipts/legacy-vs-current");
    let copy = |from: PathBuf, to: &str| {
        std::fs::copy(&from, dir.join(to)).unwrap_or_else(|e| panic!("{from:?}: {e}"));
    };
    let copy_dir = |from: PathBuf, to: &str, skip: &[&str]| {
        std::fs::create_dir(dir.join(to)).unwrap();
        for entry in std::fs::read_dir(&from).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            if !skip.contains(&name.as_str()) {
                std::fs::copy(entry.path(), dir.join(to).join(&name)).unwrap();
            }
        }
    };
    // The receipt key is kept apart from the receipts it pins.
    copy_dir(
        lvc.join("new/receipts"),
        "receipts",
        &[".seal-receipt-ed25519.key"],
    );
    copy_dir(lvc.join("old/receipts"), "old", &[]);
    copy(
        lvc.join("new/receipts/.seal-receipt-ed25519.key"),
        "receipt.key",
    );
    let first_receipt = |sub: &str| crate::support::receipt_files_in(&dir.join(sub)).remove(0);
    std::fs::copy(first_receipt("receipts"), dir.join("receipt.json")).unwrap();
    std::fs::copy(first_receipt("old"), dir.join("old-receipt.json")).unwrap();
    std::fs::create_dir(dir.join("apart")).unwrap();
    std::fs::copy(first_receipt("receipts"), dir.join("apart/receipt.json")).unwrap();
    copy(lvc.join("frames/session-M.capture"), "session.capture");
    copy(lvc.join("new/sealed.json"), "sealed.json");
    copy(lvc.join("new/audit.lines"), "audit.lines");
    copy(
        lvc.join("new/receipts/.seal-audit-head.state"),
        "head.state",
    );
    copy(
        root().join("testdata/captures/sample.jsonl"),
        "sample.jsonl",
    );
    copy(
        root().join("testdata/typed/tool-spec.json"),
        "tool-spec.json",
    );
    copy(
        root().join("testdata/typed/envelope-call.jsonl"),
        "envelope-call.jsonl",
    );
    copy(
        root().join("testdata/typed/envelope-params.json"),
        "envelope-params.json",
    );
    std::fs::write(
        dir.join("envelope.pub"),
        "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8\n",
    )
    .unwrap();
    copy(
        root().join("testdata/approvals/approve-cli-getting-started.token.ndjson"),
        "tokens.ndjson",
    );
    copy(
        root().join("testdata/approvals/getting-started-call.frame"),
        "call.frame",
    );
    // The approval keys kept apart from the token file (beside it they would be
    // approval-key-in-evidence, exit 1).
    std::fs::create_dir_all(dir.join("keys")).unwrap();
    std::fs::write(
        dir.join("keys/approval.pub"),
        format!("{}\n", crate::support::PUBKEY),
    )
    .unwrap();
    std::fs::write(
        dir.join("keys/approvers.txt"),
        format!("alice {}\n", crate::support::PUBKEY),
    )
    .unwrap();
    copy(
        root().join("testdata/receipts/bundles/bundle-closed.json"),
        "bundle.json",
    );
    let trust =
        std::fs::read_to_string(root().join("testdata/receipts/bundles/trust.env")).unwrap();
    for (name, file) in [
        ("ISS", "issuer.pub"),
        ("REQ", "request.pub"),
        ("APP", "approval-signer.pub"),
    ] {
        let key = trust
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}=")))
            .unwrap();
        std::fs::write(dir.join(file), format!("{key}\n")).unwrap();
    }
    copy(
        root().join("testdata/evidence/annotated.capture"),
        "annotated.capture",
    );
    // The reference `evidence ref` makes for the receipt.
    let refs = Command::new(bin())
        .current_dir(dir)
        .args([
            "evidence",
            "ref",
            "--format",
            "jsonl",
            "--receipt-key",
            "receipt.key",
            "apart/receipt.json",
        ])
        .output()
        .unwrap();
    assert_eq!(refs.status.code(), Some(0), "{refs:?}");
    std::fs::write(dir.join("refs.jsonl"), refs.stdout).unwrap();
    let secret = dir.join("secret.key");
    std::fs::write(&secret, format!("{}\n", crate::support::SEED_HEX)).unwrap();
    copy(
        root().join("testdata/keys/encrypted-passphrase-fuzz-logn2.key"),
        "encrypted.key",
    );
    let encrypted = std::fs::read_to_string(dir.join("encrypted.key")).unwrap();
    let (_, armored) = encrypted.split_once('\n').unwrap();
    std::fs::write(dir.join("encrypted-unstated.key"), armored).unwrap();
    for key in ["secret.key", "encrypted.key", "encrypted-unstated.key"] {
        set_mode(&dir.join(key), 0o600);
    }
    std::fs::write(dir.join("fuzz.pass"), "fuzz\n").unwrap();
    std::fs::write(dir.join("new.pass"), "a passphrase for the matrix\n").unwrap();
    std::fs::write(dir.join("approved.ndjson"), "").unwrap();
    set_mode(&dir.join("approved.ndjson"), 0o600);
    let frame = std::fs::read(dir.join("call.frame")).unwrap();
    std::fs::write(
        dir.join("refusal.json"),
        sealkit::host_refusal::render("1", TARGET_HEX, &frame) + "\n",
    )
    .unwrap();
    std::fs::write(dir.join("agent.pub"), openssh_line(crate::support::PUBKEY)).unwrap();
}

/// An OpenSSH `ssh-ed25519` public key line for a key given in hex.
fn openssh_line(hex: &str) -> String {
    let key: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let mut blob = Vec::new();
    for part in [b"ssh-ed25519".as_slice(), &key] {
        blob.extend((part.len() as u32).to_be_bytes());
        blob.extend(part);
    }
    format!(
        "ssh-ed25519 {} matrix\n",
        base64::engine::general_purpose::STANDARD.encode(blob)
    )
}
