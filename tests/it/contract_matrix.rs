//! The exit-status contract (docs/exit-status.md) over every subcommand and every argument that
//! names an input, found by walking clap's command tree (`sealkit::cli::Cli`), so a new
//! subcommand or input argument is in the matrix without anyone listing it: a subcommand with
//! no [`BASELINES`] entry fails the test, and an input argument no baseline gives is tried by
//! appending it to its subcommand's first baseline, held to [`DEFAULT_ROW`].
//!
//! Each argument is given, in turn, each of [`Case`]'s inputs (a missing path, an empty file,
//! an empty directory, a directory where a file is expected or a file where a directory is, a
//! file of random bytes, a file that cannot be read, a FIFO with no writer, a symbolic link
//! loop, `-` with empty standard input, `-` with a valid input on standard input), the rest of
//! the command line being a run that works ([`BASELINES`]). In `human`, `json` and `jsonl`
//! every run must: end (a timeout catches a hang), not panic, exit with the status [`TABLE`]
//! gives (so the same in every format), show the stable code the table gives (on stderr when
//! the command could not check: in JSON modes as the error object's `code`), print only valid
//! JSON in JSON modes (one document, or JSON Lines, or nothing) and only error or warning
//! objects on stderr, leave every input as it was, and leave the output location untouched
//! when the table says nothing may be written (exit 2, or nothing to check).
//!
//! [`TABLE`] is the one list of expected outcomes; docs/exit-status.md shows the same table to
//! users, and [`the_documented_table_is_the_tested_table`] keeps the two equal.
//! `SEALKIT_MATRIX_OBSERVE=1` prints the outcomes observed, in the table's form, instead of
//! asserting (for a new row).
//!
//! Without read permission the file is still readable by root: when the test runs as root
//! (as CI does) that case runs the binary as `nobody` through `setpriv`; when it cannot drop
//! root, the case is skipped with a printed message.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use base64::Engine as _;
use clap::CommandFactory;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A run that has not ended after this long is a hang (a FIFO opened for reading blocks
/// until a writer comes; none will).
const TIMEOUT: Duration = Duration::from_secs(30);

/// The inputs every input argument is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Case {
    Missing,
    EmptyFile,
    EmptyDir,
    /// A directory (holding the working file) where a file is expected; a regular file of
    /// text where a directory is.
    WrongKind,
    Random,
    Unreadable,
    Fifo,
    SymlinkLoop,
    StdinEmpty,
    StdinValid,
}

impl Case {
    const ALL: [Case; 10] = [
        Case::Missing,
        Case::EmptyFile,
        Case::EmptyDir,
        Case::WrongKind,
        Case::Random,
        Case::Unreadable,
        Case::Fifo,
        Case::SymlinkLoop,
        Case::StdinEmpty,
        Case::StdinValid,
    ];

    /// The column heading in docs/exit-status.md.
    fn heading(self) -> &'static str {
        match self {
            Case::Missing => "missing",
            Case::EmptyFile => "empty file",
            Case::EmptyDir => "empty directory",
            Case::WrongKind => "directory for a file / file for a directory",
            Case::Random => "random bytes",
            Case::Unreadable => "no read permission",
            Case::Fifo => "FIFO, no writer",
            Case::SymlinkLoop => "symlink loop",
            Case::StdinEmpty => "`-`, empty stdin",
            Case::StdinValid => "`-`, valid stdin",
        }
    }
}

/// The expected outcome of every input argument in every case, as docs/exit-status.md shows
/// it: `=` is the working run's own outcome; otherwise the exit status and the stable code a
/// script can match. Exit 2 (could not check) and the "nothing to check" codes of
/// [`NOTHING_TO_CHECK`] write nothing; exit 1 with another code is a checked problem, and
/// the command's outputs are written as for any finding.
const TABLE: &[(&str, [&str; 10])] = &[
    (
        "approve --frame",
        [
            "2 unreadable-file",
            "2 not-a-frame",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-a-frame",
            "2 unreadable-file",
            "2 not-a-frame",
            "2 unreadable-file",
            "2 not-a-frame",
            "=",
        ],
    ),
    (
        "approve --key-file",
        [
            "2 key-file-unreadable",
            "2 key-file-permissions",
            "2 key-file-permissions",
            "2 key-file-permissions",
            "2 key-file-permissions",
            "2 key-file-unreadable",
            "2 key-file-permissions",
            "2 key-file-unreadable",
            "2 key-not-from-stdin",
            "2 key-not-from-stdin",
        ],
    ),
    (
        "approve --passphrase-file",
        [
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "=",
        ],
    ),
    (
        "approve --refusal",
        [
            "2 unreadable-file",
            "2 not-a-refusal",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-a-refusal",
            "2 unreadable-file",
            "2 not-a-refusal",
            "2 unreadable-file",
            "2 not-a-refusal",
            "=",
        ],
    ),
    (
        "approve --ssh-key",
        [
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-not-from-stdin",
            "2 key-not-from-stdin",
        ],
    ),
    (
        "approve --token-file",
        [
            "=",
            "=",
            "2 token-file-not-regular",
            "2 token-file-not-regular",
            "2 not-a-token-file",
            "2 unreadable-file",
            "2 token-file-not-regular",
            "2 token-file-append",
            "2 stdin-not-accepted",
            "2 stdin-not-accepted",
        ],
    ),
    (
        "audit --receipt-key",
        [
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
        ],
    ),
    (
        "audit --trusted-approvers",
        [
            "2 key-file-unreadable",
            "2 trusted-approvers-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 trusted-approvers-format",
            "2 key-file-unreadable",
            "2 trusted-approvers-format",
            "2 key-file-unreadable",
            "2 trusted-approvers-format",
            "=",
        ],
    ),
    (
        "audit DIR",
        [
            "2 unreadable-root",
            "1 no-receipts",
            "1 no-receipts",
            "1 no-receipts",
            "1 no-receipts",
            "2 unreadable-root",
            "1 no-receipts",
            "2 unreadable-root",
            "2 stdin-not-accepted",
            "2 stdin-not-accepted",
        ],
    ),
    (
        "diff --frames",
        [
            "2 unreadable-capture",
            "=",
            "=",
            "=",
            "2 not-a-capture",
            "2 unreadable-capture",
            "=",
            "2 unreadable-capture",
            "=",
            "=",
        ],
    ),
    (
        "diff NEW",
        [
            "2 unreadable-input",
            "1 empty-file",
            "1 no-receipts",
            "1 invalid-json",
            "1 binary-file",
            "2 unreadable-input",
            "1 empty-file",
            "2 unreadable-input",
            "1 empty-file",
            "=",
        ],
    ),
    (
        "diff OLD",
        [
            "2 unreadable-input",
            "1 empty-file",
            "1 no-receipts",
            "1 invalid-json",
            "1 binary-file",
            "2 unreadable-input",
            "1 empty-file",
            "2 unreadable-input",
            "1 empty-file",
            "=",
        ],
    ),
    (
        "envelope --params",
        [
            "2 unreadable-file",
            "2 not-a-parameter-file",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-a-parameter-file",
            "2 unreadable-file",
            "2 not-a-parameter-file",
            "2 unreadable-file",
            "2 not-a-parameter-file",
            "=",
        ],
    ),
    (
        "envelope --pubkey",
        [
            "2 public-key-malformed",
            "2 public-key-malformed",
            "2 public-key-malformed",
            "2 public-key-malformed",
            "2 public-key-malformed",
            "2 public-key-malformed",
            "2 public-key-malformed",
            "2 public-key-malformed",
            "2 public-key-malformed",
            "2 public-key-malformed",
        ],
    ),
    (
        "envelope FRAME",
        [
            "2 unreadable-file",
            "2 not-a-frame",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-a-frame",
            "2 unreadable-file",
            "2 not-a-frame",
            "2 unreadable-file",
            "2 not-a-frame",
            "=",
        ],
    ),
    (
        "evidence ref --receipt-key",
        [
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
        ],
    ),
    (
        "evidence ref RECEIPT",
        [
            "2 unreadable-file",
            "1 empty-file",
            "2 unreadable-file",
            "2 unreadable-file",
            "1 binary-file",
            "2 unreadable-file",
            "1 empty-file",
            "2 unreadable-file",
            "1 empty-file",
            "=",
        ],
    ),
    (
        "evidence verify --evidence",
        [
            "2 unreadable-file",
            "2 evidence-not-found",
            "2 evidence-not-found",
            "2 evidence-not-found",
            "2 evidence-not-found",
            "2 evidence-not-found",
            "2 evidence-not-found",
            "2 unreadable-file",
            "2 stdin-not-accepted",
            "2 stdin-not-accepted",
        ],
    ),
    (
        "evidence verify --frames",
        [
            "2 unreadable-file",
            "=",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-a-capture",
            "2 unreadable-file",
            "=",
            "2 unreadable-file",
            "=",
            "=",
        ],
    ),
    (
        "evidence verify --receipt-key",
        [
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
        ],
    ),
    (
        "evidence verify --refs",
        [
            "2 unreadable-file",
            "=",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 unreadable-file",
            "=",
            "2 unreadable-file",
            "=",
            "=",
        ],
    ),
    (
        "key protect --passphrase-file",
        [
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "=",
        ],
    ),
    (
        "key protect FILE",
        [
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-not-sole-copy",
            "2 key-not-from-stdin",
            "2 key-not-from-stdin",
        ],
    ),
    (
        "key show --passphrase-file",
        [
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "=",
        ],
    ),
    (
        "key show FILE",
        [
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-not-from-stdin",
            "2 key-not-from-stdin",
        ],
    ),
    (
        "keygen --passphrase-file",
        [
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "2 key-file-unreadable",
            "2 bad-passphrase",
            "=",
        ],
    ),
    (
        "migrate --frames",
        [
            "2 unreadable-capture",
            "=",
            "=",
            "=",
            "2 not-a-capture",
            "2 unreadable-capture",
            "=",
            "2 unreadable-capture",
            "=",
            "=",
        ],
    ),
    (
        "migrate OLD_DIR",
        [
            "2 unreadable-input",
            "1 empty-file",
            "1 no-receipts",
            "1 invalid-json",
            "1 binary-file",
            "2 unreadable-input",
            "1 empty-file",
            "2 unreadable-input",
            "1 empty-file",
            "=",
        ],
    ),
    (
        "report --audit-lines",
        [
            "2 unreadable-input",
            "=",
            "2 unreadable-input",
            "2 unreadable-input",
            "2 not-audit-lines",
            "2 unreadable-input",
            "=",
            "2 unreadable-input",
            "=",
            "=",
        ],
    ),
    (
        "report --chain",
        [
            "2 unreadable-input",
            "2 not-a-sealed-log",
            "2 unreadable-input",
            "2 unreadable-input",
            "2 not-a-sealed-log",
            "2 unreadable-input",
            "2 not-a-sealed-log",
            "2 unreadable-input",
            "2 not-a-sealed-log",
            "=",
        ],
    ),
    (
        "report --frames",
        [
            "2 unreadable-input",
            "=",
            "=",
            "=",
            "2 not-a-capture",
            "2 unreadable-input",
            "=",
            "2 unreadable-input",
            "=",
            "=",
        ],
    ),
    (
        "report --pubkey",
        [
            "2 public-key-not-found",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 public-key-not-found",
            "2 key-not-from-stdin",
            "2 key-not-from-stdin",
        ],
    ),
    (
        "report --receipt-key",
        [
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
        ],
    ),
    (
        "report --tokens",
        [
            "2 unreadable-input",
            "=",
            "2 unreadable-input",
            "2 unreadable-input",
            "2 not-a-token-file",
            "2 unreadable-input",
            "=",
            "2 unreadable-input",
            "=",
            "=",
        ],
    ),
    (
        "report --trusted-approvers",
        [
            "2 unreadable-input",
            "2 trusted-approvers-format",
            "2 unreadable-input",
            "2 unreadable-input",
            "2 trusted-approvers-format",
            "2 unreadable-input",
            "2 trusted-approvers-format",
            "2 unreadable-input",
            "2 trusted-approvers-format",
            "=",
        ],
    ),
    (
        "report DIR",
        [
            "2 unreadable-input",
            "1 no-receipts",
            "1 no-receipts",
            "1 no-receipts",
            "1 no-receipts",
            "2 unreadable-input",
            "1 no-receipts",
            "2 unreadable-input",
            "2 stdin-not-accepted",
            "2 stdin-not-accepted",
        ],
    ),
    (
        "target --tool-spec",
        [
            "2 unreadable-input",
            "2 bad-tool-spec",
            "2 unreadable-input",
            "2 unreadable-input",
            "2 bad-tool-spec",
            "2 unreadable-input",
            "2 bad-tool-spec",
            "2 unreadable-input",
            "2 bad-tool-spec",
            "=",
        ],
    ),
    (
        "target FILE",
        [
            "2 unreadable-input",
            "1 no-frames",
            "2 unreadable-input",
            "2 unreadable-input",
            "2 not-a-capture",
            "2 unreadable-input",
            "1 no-frames",
            "2 unreadable-input",
            "1 no-frames",
            "=",
        ],
    ),
    (
        "verify approval --frame",
        [
            "2 unreadable-file",
            "2 not-a-frame",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-a-frame",
            "2 unreadable-file",
            "2 not-a-frame",
            "2 unreadable-file",
            "2 not-a-frame",
            "=",
        ],
    ),
    (
        "verify approval --pubkey",
        [
            "2 public-key-not-found",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 public-key-not-found",
            "2 key-not-from-stdin",
            "2 key-not-from-stdin",
        ],
    ),
    (
        "verify approval --trusted-approvers",
        [
            "2 key-file-unreadable",
            "2 trusted-approvers-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 trusted-approvers-format",
            "2 key-file-unreadable",
            "2 trusted-approvers-format",
            "2 key-file-unreadable",
            "2 trusted-approvers-format",
            "=",
        ],
    ),
    (
        "verify approval FILE",
        [
            "2 unreadable-file",
            "1 no-tokens",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-a-token-file",
            "2 unreadable-file",
            "1 no-tokens",
            "2 unreadable-file",
            "1 no-tokens",
            "=",
        ],
    ),
    (
        "verify bundle --approval-pubkey",
        [
            "2 public-key-not-found",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 public-key-not-found",
            "2 key-not-from-stdin",
            "2 key-not-from-stdin",
        ],
    ),
    (
        "verify bundle --issuer-pubkey",
        [
            "2 public-key-not-found",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 public-key-not-found",
            "2 key-not-from-stdin",
            "2 key-not-from-stdin",
        ],
    ),
    (
        "verify bundle --request-pubkey",
        [
            "2 public-key-not-found",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 key-file-unreadable",
            "2 key-file-format",
            "2 public-key-not-found",
            "2 key-not-from-stdin",
            "2 key-not-from-stdin",
        ],
    ),
    (
        "verify bundle FILE",
        [
            "2 unreadable-file",
            "2 not-a-bundle",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-a-bundle",
            "2 unreadable-file",
            "2 not-a-bundle",
            "2 unreadable-file",
            "2 not-a-bundle",
            "=",
        ],
    ),
    (
        "verify chain --audit-lines",
        [
            "2 unreadable-file",
            "1 no-audit-lines",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-audit-lines",
            "2 unreadable-file",
            "1 no-audit-lines",
            "2 unreadable-file",
            "1 no-audit-lines",
            "=",
        ],
    ),
    (
        "verify chain --state",
        [
            "2 unreadable-file",
            "1 chain-state-invalid",
            "2 unreadable-file",
            "2 unreadable-file",
            "1 chain-state-invalid",
            "2 unreadable-file",
            "1 chain-state-invalid",
            "2 unreadable-file",
            "1 chain-state-invalid",
            "=",
        ],
    ),
    (
        "verify chain SEALED.json",
        [
            "2 unreadable-file",
            "2 not-a-sealed-log",
            "2 unreadable-file",
            "2 unreadable-file",
            "2 not-a-sealed-log",
            "2 unreadable-file",
            "2 not-a-sealed-log",
            "2 unreadable-file",
            "2 not-a-sealed-log",
            "=",
        ],
    ),
    (
        "verify receipt --receipt-key",
        [
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
            "2 bad-receipt-key",
        ],
    ),
    (
        "verify receipt FILE",
        [
            "2 unreadable-file",
            "1 empty-file",
            "2 unreadable-file",
            "2 unreadable-file",
            "1 binary-file",
            "2 unreadable-file",
            "1 empty-file",
            "2 unreadable-file",
            "1 empty-file",
            "=",
        ],
    ),
];

/// The row an input argument no baseline gives is held to.
const DEFAULT_ROW: [&str; 10] = [
    "2 unreadable-file",
    "2 unreadable-file",
    "2 unreadable-file",
    "2 unreadable-file",
    "2 unreadable-file",
    "2 unreadable-file",
    "2 unreadable-file",
    "2 unreadable-file",
    "2 unreadable-file",
    "=",
];

/// Codes that say there was nothing to check (exit 1, nothing written).
const NOTHING_TO_CHECK: &[&str] = &[
    "no-receipts",
    "no-tokens",
    "no-frames",
    "no-audit-lines",
    "no-chain-entries",
];

/// Arguments whose path is where a command writes, not an input (by table name).
const OUTPUTS: &[&str] = &["keygen --out-dir", "migrate --out", "report --out"];

/// One value of a working command line.
#[derive(Debug, Clone, Copy)]
enum Value {
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
struct Baseline {
    command: &'static str,
    args: &'static [(&'static str, Value)],
    exit: i32,
    writes: &'static [&'static str],
}

const TARGET_HEX: &str = "2a01d25406f0fc82751a66ddaeb8e79d2104efc4b67699400003704e67c0c565";
const ENVELOPE_SIGNATURE: &str = "2f1ed3cc3485efc99a8c1a5dfcba2bef605bfec3d5b6e20d9f130cdbbb1b09db008a5e9c9a6caddacae87c480819117f57085a185b98cc5ffdb72e65d1353509";

const BASELINES: &[Baseline] = &[
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
            ("--pubkey", Value::File("approval.pub")),
            ("--frame", Value::File("call.frame")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "verify approval",
        args: &[
            ("FILE", Value::File("tokens.ndjson")),
            ("--trusted-approvers", Value::File("approvers.txt")),
        ],
        exit: 0,
        writes: &[],
    },
    Baseline {
        command: "verify receipt",
        args: &[
            ("FILE", Value::File("receipt.json")),
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
            ("--trusted-approvers", Value::File("approvers.txt")),
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
            ("--pubkey", Value::File("approval.pub")),
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
            ("--trusted-approvers", Value::File("approvers.txt")),
        ],
        exit: 0,
        writes: &["out/report.html"],
    },
    Baseline {
        command: "evidence ref",
        args: &[
            ("RECEIPT", Value::File("receipt.json")),
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

const FORMATS: [&str; 3] = ["human", "json", "jsonl"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files the baselines read, made once.
fn make_fixtures(dir: &Path) {
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
    let first_receipt = |sub: &str| {
        let mut names: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("receipt-")
            })
            .collect();
        names.sort();
        names.remove(0)
    };
    std::fs::copy(first_receipt("receipts"), dir.join("receipt.json")).unwrap();
    std::fs::copy(first_receipt("old"), dir.join("old-receipt.json")).unwrap();
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
    std::fs::write(
        dir.join("approval.pub"),
        format!("{}\n", crate::support::PUBKEY),
    )
    .unwrap();
    std::fs::write(
        dir.join("approvers.txt"),
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
            "receipt.json",
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

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sealkit")
}

/// One input argument of one subcommand, as clap defines it.
#[derive(Debug, Clone)]
struct InputArg {
    /// `verify receipt FILE`, `migrate --frames`: the table's name for it.
    name: String,
    command: String,
    /// `FILE` for a positional, `--frames` for an option.
    arg: String,
}

/// Every leaf subcommand (by its words) and its arguments' names, from clap.
fn leaves() -> BTreeMap<String, Vec<(String, bool)>> {
    fn walk(command: &clap::Command, words: &str, out: &mut BTreeMap<String, Vec<(String, bool)>>) {
        let subcommands: Vec<&clap::Command> = command
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .collect();
        if subcommands.is_empty() {
            let args = command
                .get_arguments()
                .filter(|a| !a.is_global_set())
                .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
                .map(|a| (arg_name(a), is_input(a)))
                .collect();
            out.insert(words.to_owned(), args);
            return;
        }
        for sub in subcommands {
            let words = if words.is_empty() {
                sub.get_name().to_owned()
            } else {
                format!("{words} {}", sub.get_name())
            };
            walk(sub, &words, out);
        }
    }
    let mut command = sealkit::cli::Cli::command();
    command.build();
    let mut out = BTreeMap::new();
    walk(&command, "", &mut out);
    out
}

fn arg_name(arg: &clap::Arg) -> String {
    if arg.is_positional() {
        arg.get_value_names()
            .and_then(|names| names.first())
            .map(|n| n.to_string())
            .unwrap_or_else(|| arg.get_id().to_string().to_uppercase())
    } else {
        format!("--{}", arg.get_long().unwrap_or(arg.get_id().as_str()))
    }
}

/// An argument names an input when its value is a path, or when it takes a key or a file
/// (`HEX|FILE`); never a choice among named values.
fn is_input(arg: &clap::Arg) -> bool {
    if !arg.get_action().takes_values() || !arg.get_possible_values().is_empty() {
        return false;
    }
    let path = arg.get_value_parser().type_id() == std::any::TypeId::of::<PathBuf>();
    let file = arg
        .get_value_names()
        .is_some_and(|names| names.iter().any(|n| n.contains("FILE")));
    path || file
}

fn input_args() -> Vec<InputArg> {
    let mut out = Vec::new();
    for (command, args) in leaves() {
        for (arg, input) in args {
            let name = format!("{command} {arg}");
            if input && !OUTPUTS.contains(&name.as_str()) {
                out.push(InputArg {
                    name,
                    command: command.clone(),
                    arg,
                });
            }
        }
    }
    out
}

/// The expected outcome of one cell.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Expect {
    Baseline,
    Exit(i32, String),
}

fn parse_cell(cell: &str) -> Expect {
    if cell == "=" {
        return Expect::Baseline;
    }
    let (exit, code) = cell
        .split_once(' ')
        .unwrap_or_else(|| panic!("cell {cell:?}: `=` or `EXIT CODE`"));
    Expect::Exit(exit.parse().unwrap(), code.to_owned())
}

fn row_of(name: &str) -> Option<[&'static str; 10]> {
    TABLE.iter().find(|(n, _)| *n == name).map(|(_, row)| *row)
}

/// What one run printed and how it ended.
struct Ran {
    exit: Option<i32>,
    hung: bool,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// A file tree's state: every entry with its kind, mode, size, modification time and bytes.
type Snapshot = BTreeMap<PathBuf, (u32, u64, i64, i64, Vec<u8>)>;

fn snapshot(dir: &Path) -> Snapshot {
    use std::os::unix::fs::MetadataExt;
    let mut out = Snapshot::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.unwrap();
        let meta = entry.path().symlink_metadata().unwrap();
        let bytes = if meta.file_type().is_file() {
            std::fs::read(entry.path()).unwrap()
        } else if meta.file_type().is_symlink() {
            std::fs::read_link(entry.path())
                .unwrap()
                .into_os_string()
                .into_encoded_bytes()
        } else {
            Vec::new()
        };
        let relative = entry.path().strip_prefix(dir).unwrap().to_path_buf();
        // A directory's own times change when an entry in it is made and removed again.
        let (mtime, nsec) = if meta.is_dir() {
            (0, 0)
        } else {
            (meta.mtime(), meta.mtime_nsec())
        };
        out.insert(relative, (meta.mode(), meta.len(), mtime, nsec, bytes));
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// Bytes that are no text: every byte value, NULs included, in a fixed pseudo-random order.
fn random_bytes() -> Vec<u8> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

/// Whether this process can run the binary as `nobody` (it is root and `setpriv` works).
fn can_drop_root() -> bool {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    root && Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "true"])
        .status()
        .is_ok_and(|s| s.success())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// One planned run: a baseline with one argument's value replaced by a case's input.
#[derive(Clone)]
struct Plan {
    baseline: usize,
    /// The argument replaced (None: the baseline itself) and its case.
    replaced: Option<(String, Case)>,
    /// Appended when the baseline does not give the argument.
    appended: bool,
    format: &'static str,
}

fn run_plan(plan: &Plan, fixtures: &Path, work: &Path, serial: usize, drop_root: bool) -> Outcome {
    let baseline = &BASELINES[plan.baseline];
    let case_dir = work.join(format!("case-{serial}"));
    std::fs::create_dir(&case_dir).unwrap();
    set_mode(&case_dir, 0o755);
    std::fs::create_dir(case_dir.join("out")).unwrap();
    for (_, value) in baseline.args {
        match value {
            Value::File(name) => copy_tree(&fixtures.join(name), &case_dir.join(name)),
            Value::Dir(name, stdin) => {
                copy_tree(&fixtures.join(name), &case_dir.join(name));
                if !case_dir.join(stdin).exists() {
                    copy_tree(&fixtures.join(stdin), &case_dir.join(stdin));
                }
            }
            _ => {}
        }
    }
    let mut stdin: Option<Vec<u8>> = None;
    let mut args: Vec<(String, Vec<String>)> = baseline
        .args
        .iter()
        .map(|(name, value)| {
            let values = match value {
                Value::File(path) | Value::Dir(path, _) | Value::Text(path) | Value::Out(path) => {
                    vec![(*path).to_owned()]
                }
                Value::Flag => Vec::new(),
            };
            ((*name).to_owned(), values)
        })
        .collect();
    let mut unreadable = false;
    if let Some((arg, case)) = &plan.replaced {
        let given = case_dir.join("given");
        let working = baseline
            .args
            .iter()
            .find(|(n, _)| n == arg)
            .map(|(_, v)| *v);
        let value = match case {
            Case::StdinEmpty => {
                stdin = Some(Vec::new());
                "-".to_owned()
            }
            Case::StdinValid => {
                stdin = Some(match working {
                    Some(Value::File(name)) => std::fs::read(fixtures.join(name)).unwrap(),
                    Some(Value::Dir(_, file)) => std::fs::read(fixtures.join(file)).unwrap(),
                    _ => Vec::new(),
                });
                "-".to_owned()
            }
            other => {
                match other {
                    Case::Missing => {}
                    Case::EmptyFile => std::fs::write(&given, "").unwrap(),
                    Case::EmptyDir => std::fs::create_dir(&given).unwrap(),
                    Case::WrongKind => match working {
                        Some(Value::Dir(..)) => {
                            std::fs::write(&given, "this is a text file, no directory\n").unwrap()
                        }
                        Some(Value::File(name)) => {
                            std::fs::create_dir(&given).unwrap();
                            std::fs::copy(fixtures.join(name), given.join(name)).unwrap();
                        }
                        _ => std::fs::create_dir(&given).unwrap(),
                    },
                    Case::Random => std::fs::write(&given, random_bytes()).unwrap(),
                    Case::Unreadable => {
                        match working {
                            Some(Value::File(name) | Value::Dir(name, _)) => {
                                copy_tree(&fixtures.join(name), &given)
                            }
                            _ => std::fs::write(&given, "text\n").unwrap(),
                        }
                        unreadable = true;
                    }
                    Case::Fifo => {
                        let made = Command::new("mkfifo").arg(&given).status().unwrap();
                        assert!(made.success());
                    }
                    Case::SymlinkLoop => {
                        std::os::unix::fs::symlink("given.loop", &given).unwrap();
                        std::os::unix::fs::symlink("given", case_dir.join("given.loop")).unwrap();
                    }
                    Case::StdinEmpty | Case::StdinValid => unreachable!(),
                }
                "given".to_owned()
            }
        };
        match args.iter_mut().find(|(n, _)| n == arg) {
            Some((_, values)) => *values = vec![value],
            None => args.push((arg.clone(), vec![value])),
        }
    }
    if unreadable {
        // Everything belongs to `nobody`, who runs the binary; the one input is mode 000.
        let status = Command::new("chown")
            .args(["-R", "65534:65534"])
            .arg(&case_dir)
            .status()
            .unwrap();
        assert!(status.success());
        set_mode(&case_dir.join("given"), 0o000);
    }
    let before = snapshot(&case_dir);
    let mut command = if unreadable && drop_root {
        let mut command = Command::new("setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(bin());
        command
    } else {
        Command::new(bin())
    };
    command
        .current_dir(&case_dir)
        .env_remove("SSH_AUTH_SOCK")
        .env_remove("SEALKIT_APPROVAL_KEY_FILE")
        .env("NO_COLOR", "1")
        .args(["--format", plan.format, "--color", "never"])
        .args(baseline.command.split(' '));
    let mut positionals = Vec::new();
    for (name, values) in &args {
        if name.starts_with("--") {
            if values.is_empty() {
                command.arg(name);
            }
            for value in values {
                command.arg(name).arg(value);
            }
        } else {
            positionals.extend(values.iter().cloned());
        }
    }
    if !positionals.is_empty() {
        command.arg("--").args(&positionals);
    }
    let shown = format!("{:?}", command.get_args().collect::<Vec<_>>());
    command
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let ran = spawn_with_timeout(command, stdin);
    let after = snapshot(&case_dir);
    if unreadable {
        set_mode(&case_dir.join("given"), 0o700);
    }
    let _ = std::fs::remove_dir_all(&case_dir);
    Outcome {
        plan: plan.clone(),
        shown,
        ran,
        before,
        after,
    }
}

fn spawn_with_timeout(mut command: Command, stdin: Option<Vec<u8>>) -> Ran {
    let mut child = command.spawn().unwrap();
    let writer = child.stdin.take().map(|mut pipe| {
        let bytes = stdin.unwrap_or_default();
        std::thread::spawn(move || {
            // The command may never read its standard input.
            let _ = pipe.write_all(&bytes);
        })
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut bytes);
        bytes
    });
    let err_reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err, &mut bytes);
        bytes
    });
    let started = Instant::now();
    let (exit, hung) = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break (status.code(), false);
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    Ran {
        exit,
        hung,
        stdout: reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

struct Outcome {
    plan: Plan,
    shown: String,
    ran: Ran,
    before: Snapshot,
    after: Snapshot,
}

impl Outcome {
    /// The code of the error object on stderr (JSON modes), else the first code-like word of a
    /// human diagnostic.
    fn stderr_code(&self) -> Option<String> {
        let text = String::from_utf8_lossy(&self.ran.stderr);
        for line in text.lines().rev() {
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(line) {
                if value["type"] == "error" {
                    return value["code"].as_str().map(str::to_owned);
                }
            }
        }
        text.lines()
            .map(str::trim)
            .find(|l| {
                !l.is_empty()
                    && l.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            })
            .map(str::to_owned)
    }

    /// Every way this run breaks the contract for `expect` (`baseline_exit` for `=`).
    fn problems(&self, expect: &Expect, baseline: &Baseline) -> Vec<String> {
        let mut problems = Vec::new();
        let ran = &self.ran;
        let stderr = String::from_utf8_lossy(&ran.stderr);
        let stdout = String::from_utf8_lossy(&ran.stdout);
        if ran.hung {
            problems.push(format!("did not end within {TIMEOUT:?}"));
            return problems;
        }
        if ran.exit == Some(101) || stderr.contains("panicked") {
            problems.push(format!("panicked: {stderr}"));
        }
        let (exit, code) = match expect {
            Expect::Baseline => (baseline.exit, None),
            Expect::Exit(exit, code) => (*exit, Some(code.as_str())),
        };
        if ran.exit != Some(exit) {
            problems.push(format!("exit {:?}, expected {exit}", ran.exit));
        }
        let json = self.plan.format != "human";
        if json {
            if self.plan.format == "json" && !ran.stdout.iter().all(u8::is_ascii_whitespace) {
                if let Err(e) = serde_json::from_slice::<serde_json::Value>(&ran.stdout) {
                    problems.push(format!("stdout is not one JSON document ({e}): {stdout}"));
                }
            }
            if self.plan.format == "jsonl" {
                for line in stdout.lines() {
                    if serde_json::from_str::<serde_json::Value>(line).is_err() {
                        problems.push(format!("stdout line is not JSON: {line}"));
                    }
                }
            }
            for line in stderr.lines() {
                let kind = serde_json::from_str::<serde_json::Value>(line)
                    .ok()
                    .and_then(|v| v["type"].as_str().map(str::to_owned));
                if !matches!(kind.as_deref(), Some("error" | "warning")) {
                    problems.push(format!("stderr line is no error or warning object: {line}"));
                }
            }
        }
        if let Some(code) = code {
            // A run that stopped says why on stderr (in JSON modes as the error object's
            // code); one that printed its report may give the code there, with each finding.
            let found = self.stderr_code();
            let on_stderr = if json {
                found.as_deref() == Some(code)
            } else {
                stderr.contains(code)
            };
            let in_report = !stdout.trim().is_empty() && stdout.contains(code);
            if !on_stderr && !in_report {
                problems.push(format!(
                    "the code {code} is not shown (stderr's: {found:?}): {stdout}{stderr}"
                ));
            }
        }
        let writes_nothing = exit == 2 || code.is_some_and(|c| NOTHING_TO_CHECK.contains(&c));
        // An argument that is where the command writes (a token file appended to) may be
        // written under its replaced name too.
        let replaced_is_written = self.plan.replaced.as_ref().is_some_and(|(arg, _)| {
            baseline.args.iter().any(|(name, value)| {
                name == arg && matches!(value, Value::File(f) if baseline.writes.contains(f))
            })
        });
        let may_change = |path: &Path| {
            !writes_nothing
                && (baseline.writes.iter().any(|w| path.starts_with(w))
                    || (replaced_is_written && path.starts_with("given")))
        };
        let changed: Vec<&PathBuf> = self
            .before
            .keys()
            .chain(self.after.keys())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .filter(|path| self.before.get(*path) != self.after.get(*path))
            .filter(|path| !may_change(path))
            .collect();
        if !changed.is_empty() {
            problems.push(format!("changed or created: {changed:?}"));
        }
        problems
    }

    fn observed(&self) -> String {
        match (self.ran.hung, self.ran.exit) {
            (true, _) => "HANG".to_owned(),
            (false, exit) => format!(
                "{} {}",
                exit.map_or("signal".to_owned(), |e| e.to_string()),
                self.stderr_code().unwrap_or_else(|| "-".to_owned())
            ),
        }
    }
}

/// Every run of the matrix: each baseline in every format, then each input argument in each
/// case in every format (the case without read permission only when root can be dropped or
/// is not held).
fn plans(drop_root: bool) -> (Vec<Plan>, Vec<String>) {
    let leaves = leaves();
    let mut plans = Vec::new();
    let mut notes = Vec::new();
    for command in leaves.keys() {
        assert!(
            BASELINES.iter().any(|b| b.command == command),
            "the subcommand `{command}` has no working command line in BASELINES: add one, \
             and the matrix covers every input argument it takes"
        );
    }
    for (index, baseline) in BASELINES.iter().enumerate() {
        let known = &leaves[baseline.command];
        for (name, _) in baseline.args {
            assert!(
                known.iter().any(|(arg, _)| arg == name),
                "BASELINES: `{} {name}` is no argument of the command",
                baseline.command
            );
        }
        for format in FORMATS {
            plans.push(Plan {
                baseline: index,
                replaced: None,
                appended: false,
                format,
            });
        }
    }
    let skip_unreadable = is_root() && !drop_root;
    if skip_unreadable {
        notes.push(
            "skipped: the cases without read permission (running as root, and setpriv cannot \
             run the binary as nobody)"
                .to_owned(),
        );
    }
    for input in input_args() {
        let (index, appended) = BASELINES
            .iter()
            .position(|b| b.command == input.command && b.args.iter().any(|(n, _)| *n == input.arg))
            .map(|i| (i, false))
            .unwrap_or_else(|| {
                (
                    BASELINES
                        .iter()
                        .position(|b| b.command == input.command)
                        .unwrap(),
                    true,
                )
            });
        if appended {
            notes.push(format!(
                "`{}` is in no baseline: tried appended to the first, held to the default row",
                input.name
            ));
        }
        for case in Case::ALL {
            if case == Case::Unreadable && skip_unreadable {
                continue;
            }
            for format in FORMATS {
                plans.push(Plan {
                    baseline: index,
                    replaced: Some((input.arg.clone(), case)),
                    appended,
                    format,
                });
            }
        }
    }
    (plans, notes)
}

#[test]
fn every_input_of_every_command_keeps_the_exit_status_contract() {
    let drop_root = can_drop_root();
    let (plans, notes) = plans(drop_root);
    let work = tempfile::tempdir().unwrap();
    set_mode(work.path(), 0o755);
    let fixtures = work.path().join("fixtures");
    std::fs::create_dir(&fixtures).unwrap();
    set_mode(&fixtures, 0o755);
    make_fixtures(&fixtures);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let serial = next.fetch_add(1, Ordering::Relaxed);
                let Some(plan) = plans.get(serial) else {
                    break;
                };
                let outcome = run_plan(plan, &fixtures, work.path(), serial, drop_root);
                results.lock().unwrap().push(outcome);
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|o| {
        (
            o.plan.baseline,
            o.plan.replaced.clone(),
            FORMATS.iter().position(|f| *f == o.plan.format),
        )
    });
    for note in &notes {
        println!("contract matrix: {note}");
    }
    println!(
        "contract matrix: {} runs ({} subcommand baselines and {} input arguments × {} cases, \
         each in {} formats) in {:.1} s",
        results.len(),
        BASELINES.len(),
        input_args().len(),
        Case::ALL.len(),
        FORMATS.len(),
        started.elapsed().as_secs_f64()
    );
    if std::env::var_os("SEALKIT_MATRIX_OBSERVE").is_some() {
        print_observed(&results);
        return;
    }
    let mut failures = Vec::new();
    for outcome in &results {
        let baseline = &BASELINES[outcome.plan.baseline];
        let expect = match &outcome.plan.replaced {
            None => Expect::Baseline,
            Some((arg, case)) => {
                let name = format!("{} {arg}", baseline.command);
                let row = if outcome.plan.appended {
                    DEFAULT_ROW
                } else {
                    row_of(&name).unwrap_or_else(|| {
                        panic!("`{name}` has no row in TABLE (and docs/exit-status.md)")
                    })
                };
                let column = Case::ALL.iter().position(|c| c == case).unwrap();
                parse_cell(row[column])
            }
        };
        for problem in outcome.problems(&expect, baseline) {
            failures.push(format!(
                "{} [{}]: {problem}",
                outcome.shown,
                outcome
                    .plan
                    .replaced
                    .as_ref()
                    .map_or("baseline".to_owned(), |(_, c)| c.heading().to_owned())
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} runs break the contract:\n{}",
        failures.len(),
        results.len(),
        failures.join("\n")
    );
}

/// The observed outcome of every argument and case, in the table's form (a cell whose
/// formats disagree shows each).
fn print_observed(results: &[Outcome]) {
    let mut cells: BTreeMap<String, BTreeMap<Case, Vec<String>>> = BTreeMap::new();
    for outcome in results {
        let baseline = &BASELINES[outcome.plan.baseline];
        let Some((arg, case)) = &outcome.plan.replaced else {
            let observed = outcome.observed();
            println!(
                "baseline {} [{}]: {observed}",
                baseline.command, outcome.plan.format
            );
            continue;
        };
        cells
            .entry(format!("{} {arg}", baseline.command))
            .or_default()
            .entry(*case)
            .or_default()
            .push(format!(
                "{}:{}",
                &outcome.plan.format[..2],
                outcome.observed()
            ));
    }
    for (name, row) in cells {
        let shown: Vec<String> = Case::ALL
            .iter()
            .map(|case| {
                let all = row.get(case).cloned().unwrap_or_default();
                let plain: BTreeSet<String> = all.iter().map(|c| c[3..].to_owned()).collect();
                if plain.len() == 1 {
                    plain.into_iter().next().unwrap()
                } else {
                    all.join(" / ")
                }
            })
            .collect();
        println!("| {name} | {} |", shown.join(" | "));
    }
}
