//! The contract's one table of expected outcomes (docs/exit-status.md shows it to users) and
//! the cases it has a column for.

/// The inputs every input argument is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Case {
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
    pub(super) const ALL: [Case; 10] = [
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
    pub(super) fn heading(self) -> &'static str {
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
pub(super) const TABLE: &[(&str, &str)] = &[
    ("approve --frame", "2 unreadable-file | 2 not-a-frame | 2 unreadable-file | 2 unreadable-file | 2 not-a-frame | 2 unreadable-file | 2 not-a-frame | 2 unreadable-file | 2 not-a-frame | ="),
    ("approve --key-file", "2 key-file-unreadable | 2 key-file-permissions | 2 key-file-permissions | 2 key-file-permissions | 2 key-file-permissions | 2 key-file-unreadable | 2 key-file-permissions | 2 key-file-unreadable | 2 key-not-from-stdin | 2 key-not-from-stdin"),
    ("approve --passphrase-file", "2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 bad-passphrase | ="),
    ("approve --refusal", "2 unreadable-file | 2 not-a-refusal | 2 unreadable-file | 2 unreadable-file | 2 not-a-refusal | 2 unreadable-file | 2 not-a-refusal | 2 unreadable-file | 2 not-a-refusal | ="),
    ("approve --ssh-key", "2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-not-from-stdin | 2 key-not-from-stdin"),
    ("approve --token-file", "= | = | 2 token-file-not-regular | 2 token-file-not-regular | 2 not-a-token-file | 2 unreadable-file | 2 token-file-not-regular | 2 token-file-append | 2 stdin-not-accepted | 2 stdin-not-accepted"),
    ("audit --receipt-key", "2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key"),
    ("audit --trusted-approvers", "2 key-file-unreadable | 2 trusted-approvers-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 trusted-approvers-format | 2 key-file-unreadable | 2 trusted-approvers-format | 2 key-file-unreadable | 2 trusted-approvers-format | ="),
    ("audit DIR", "2 unreadable-root | 1 no-receipts | 1 no-receipts | 1 no-receipts | 1 no-receipts | 2 unreadable-root | 1 no-receipts | 2 unreadable-root | 2 stdin-not-accepted | 2 stdin-not-accepted"),
    ("diff --frames", "2 unreadable-capture | = | = | = | 2 not-a-capture | 2 unreadable-capture | = | 2 unreadable-capture | = | ="),
    ("diff NEW", "2 unreadable-input | 1 empty-file | 1 no-receipts | 1 invalid-json | 1 binary-file | 2 unreadable-input | 1 empty-file | 2 unreadable-input | 1 empty-file | ="),
    ("diff OLD", "2 unreadable-input | 1 empty-file | 1 no-receipts | 1 invalid-json | 1 binary-file | 2 unreadable-input | 1 empty-file | 2 unreadable-input | 1 empty-file | ="),
    ("envelope --params", "2 unreadable-file | 2 not-a-parameter-file | 2 unreadable-file | 2 unreadable-file | 2 not-a-parameter-file | 2 unreadable-file | 2 not-a-parameter-file | 2 unreadable-file | 2 not-a-parameter-file | ="),
    ("envelope --pubkey", "2 public-key-malformed | 2 public-key-malformed | 2 public-key-malformed | 2 public-key-malformed | 2 public-key-malformed | 2 public-key-malformed | 2 public-key-malformed | 2 public-key-malformed | 2 public-key-malformed | 2 public-key-malformed"),
    ("envelope FRAME", "2 unreadable-file | 2 effect-underivable | 2 unreadable-file | 2 unreadable-file | 2 not-a-frame | 2 unreadable-file | 2 effect-underivable | 2 unreadable-file | 2 effect-underivable | ="),
    ("evidence ref --receipt-key", "2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key"),
    ("evidence ref RECEIPT", "2 unreadable-file | 1 empty-file | 2 unreadable-file | 2 unreadable-file | 1 binary-file | 2 unreadable-file | 1 empty-file | 2 unreadable-file | 1 empty-file | ="),
    ("evidence verify --evidence", "2 unreadable-file | 2 evidence-not-found | 2 evidence-not-found | 2 evidence-not-found | 2 evidence-not-found | 2 evidence-not-found | 2 evidence-not-found | 2 unreadable-file | 2 stdin-not-accepted | 2 stdin-not-accepted"),
    ("evidence verify --frames", "2 unreadable-file | = | 2 unreadable-file | 2 unreadable-file | 2 not-a-capture | 2 unreadable-file | = | 2 unreadable-file | = | ="),
    ("evidence verify --receipt-key", "2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key"),
    ("evidence verify --refs", "2 unreadable-file | = | 2 unreadable-file | 2 unreadable-file | 2 unreadable-file | 2 unreadable-file | = | 2 unreadable-file | = | ="),
    ("key protect --passphrase-file", "2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 bad-passphrase | ="),
    ("key protect FILE", "2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-format | 2 key-file-not-sole-copy | 2 key-not-from-stdin | 2 key-not-from-stdin"),
    ("key show --passphrase-file", "2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 bad-passphrase | ="),
    ("key show FILE", "2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-not-from-stdin | 2 key-not-from-stdin"),
    ("keygen --passphrase-file", "2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 bad-passphrase | 2 key-file-unreadable | 2 bad-passphrase | ="),
    ("migrate --frames", "2 unreadable-capture | = | = | = | 2 not-a-capture | 2 unreadable-capture | = | 2 unreadable-capture | = | ="),
    ("migrate OLD_DIR", "2 unreadable-input | 1 empty-file | 1 no-receipts | 1 invalid-json | 1 binary-file | 2 unreadable-input | 1 empty-file | 2 unreadable-input | 1 empty-file | ="),
    ("report --audit-lines", "2 unreadable-input | = | 2 unreadable-input | 2 unreadable-input | 2 not-audit-lines | 2 unreadable-input | = | 2 unreadable-input | = | ="),
    ("report --chain", "2 unreadable-input | 2 not-a-sealed-log | 2 unreadable-input | 2 unreadable-input | 2 not-a-sealed-log | 2 unreadable-input | 2 not-a-sealed-log | 2 unreadable-input | 2 not-a-sealed-log | ="),
    ("report --frames", "2 unreadable-input | = | = | = | 2 not-a-capture | 2 unreadable-input | = | 2 unreadable-input | = | ="),
    ("report --pubkey", "2 public-key-not-found | 2 key-file-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-format | 2 public-key-not-found | 2 key-not-from-stdin | 2 key-not-from-stdin"),
    ("report --receipt-key", "2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key"),
    ("report --tokens", "2 unreadable-input | = | 2 unreadable-input | 2 unreadable-input | 2 not-a-token-file | 2 unreadable-input | = | 2 unreadable-input | = | ="),
    ("report --trusted-approvers", "2 unreadable-input | 2 trusted-approvers-format | 2 unreadable-input | 2 unreadable-input | 2 trusted-approvers-format | 2 unreadable-input | 2 trusted-approvers-format | 2 unreadable-input | 2 trusted-approvers-format | ="),
    ("report DIR", "2 unreadable-input | 1 no-receipts | 1 no-receipts | 1 no-receipts | 1 no-receipts | 2 unreadable-input | 1 no-receipts | 2 unreadable-input | 2 stdin-not-accepted | 2 stdin-not-accepted"),
    ("target --tool-spec", "2 unreadable-input | 2 bad-tool-spec | 2 unreadable-input | 2 unreadable-input | 2 bad-tool-spec | 2 unreadable-input | 2 bad-tool-spec | 2 unreadable-input | 2 bad-tool-spec | ="),
    ("target FILE", "2 unreadable-input | 1 no-frames | 2 unreadable-input | 2 unreadable-input | 2 not-a-capture | 2 unreadable-input | 1 no-frames | 2 unreadable-input | 1 no-frames | ="),
    ("verify approval --frame", "2 unreadable-file | 2 not-a-frame | 2 unreadable-file | 2 unreadable-file | 2 not-a-frame | 2 unreadable-file | 2 not-a-frame | 2 unreadable-file | 2 not-a-frame | ="),
    ("verify approval --pubkey", "2 public-key-not-found | 2 key-file-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-format | 2 public-key-not-found | 2 key-not-from-stdin | 2 key-not-from-stdin"),
    ("verify approval --trusted-approvers", "2 key-file-unreadable | 2 trusted-approvers-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 trusted-approvers-format | 2 key-file-unreadable | 2 trusted-approvers-format | 2 key-file-unreadable | 2 trusted-approvers-format | ="),
    ("verify approval FILE", "2 unreadable-file | 1 no-tokens | 2 unreadable-file | 2 unreadable-file | 2 not-a-token-file | 2 unreadable-file | 1 no-tokens | 2 unreadable-file | 1 no-tokens | ="),
    ("verify bundle --approval-pubkey", "2 public-key-not-found | 2 key-file-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-format | 2 public-key-not-found | 2 key-not-from-stdin | 2 key-not-from-stdin"),
    ("verify bundle --issuer-pubkey", "2 public-key-not-found | 2 key-file-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-format | 2 public-key-not-found | 2 key-not-from-stdin | 2 key-not-from-stdin"),
    ("verify bundle --request-pubkey", "2 public-key-not-found | 2 key-file-format | 2 key-file-unreadable | 2 key-file-unreadable | 2 key-file-format | 2 key-file-unreadable | 2 key-file-format | 2 public-key-not-found | 2 key-not-from-stdin | 2 key-not-from-stdin"),
    ("verify bundle FILE", "2 unreadable-file | 2 not-a-bundle | 2 unreadable-file | 2 unreadable-file | 2 not-a-bundle | 2 unreadable-file | 2 not-a-bundle | 2 unreadable-file | 2 not-a-bundle | ="),
    ("verify chain --audit-lines", "2 unreadable-file | 1 no-audit-lines | 2 unreadable-file | 2 unreadable-file | 2 not-audit-lines | 2 unreadable-file | 1 no-audit-lines | 2 unreadable-file | 1 no-audit-lines | ="),
    ("verify chain --state", "2 unreadable-file | 1 chain-state-invalid | 2 unreadable-file | 2 unreadable-file | 1 chain-state-invalid | 2 unreadable-file | 1 chain-state-invalid | 2 unreadable-file | 1 chain-state-invalid | ="),
    ("verify chain SEALED.json", "2 unreadable-file | 2 not-a-sealed-log | 2 unreadable-file | 2 unreadable-file | 2 not-a-sealed-log | 2 unreadable-file | 2 not-a-sealed-log | 2 unreadable-file | 2 not-a-sealed-log | ="),
    ("verify receipt --receipt-key", "2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key | 2 bad-receipt-key"),
    ("verify receipt FILE", "2 unreadable-file | 1 empty-file | 2 unreadable-file | 2 unreadable-file | 1 binary-file | 2 unreadable-file | 1 empty-file | 2 unreadable-file | 1 empty-file | ="),
];

/// The row an input argument without a row of its own in [`TABLE`] is held to (a new one: the
/// strictest reading of the contract), until its row is written.
pub(super) const DEFAULT_ROW: &str = "2 unreadable-file | 2 unreadable-file | 2 unreadable-file | 2 unreadable-file | 2 unreadable-file | 2 unreadable-file | 2 unreadable-file | 2 unreadable-file | 2 unreadable-file | =";

/// Codes that say there was nothing to check (exit 1, nothing written).
pub(super) const NOTHING_TO_CHECK: &[&str] = &[
    "no-receipts",
    "no-tokens",
    "no-frames",
    "no-audit-lines",
    "no-chain-entries",
];

/// Arguments whose path is where a command writes, not an input (by table name).
pub(super) const OUTPUTS: &[&str] = &["keygen --out-dir", "migrate --out", "report --out"];
