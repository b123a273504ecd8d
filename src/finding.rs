//! Stable finding codes and their severities for receipt verification and directory audits
//! (docs/receipts.md). Codes are kebab-case and never renamed; `error` findings make the
//! exit status 1, `warning` findings only with `--deny-warnings`, `info` never.

use crate::outcome::{Outcome, Shortfall};
use serde::Serialize;
use std::path::PathBuf;
use strum::{IntoStaticStr, VariantArray};

/// How much a finding matters for the exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

macro_rules! codes {
    ($($variant:ident => ($severity:ident, $what:literal),)*) => {
        /// Every finding sealkit reports. The text form (the variant's name in kebab-case) is
        /// the stable interface.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, IntoStaticStr, VariantArray,
        )]
        #[strum(serialize_all = "kebab-case")]
        pub enum Code { $($variant,)* }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = Code::VARIANTS;

            pub fn as_str(self) -> &'static str {
                self.into()
            }

            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            /// One line saying what the code means, for documentation and help.
            pub fn meaning(self) -> &'static str {
                match self { $(Code::$variant => $what,)* }
            }
        }
    };
}

codes! {
    // Receipt trust.
    SignatureInvalid => (Error, "the seal.object-b/v2 signature block is malformed or does not verify"),
    SignerMismatch => (Error, "the receipt is signed by a key other than the pinned receipt key"),
    SignerUnpinned => (Error, "no --receipt-key was given, so the receipt cannot be authenticated"),
    UnsignedReceipt => (Error, "record_version 2 receipt: it carries no signature and cannot be authenticated"),
    // Receipt content, recomputed.
    MalformedReceipt => (Error, "not a seal-host authorization-decision receipt: a required member is missing or mistyped"),
    ObjectAMismatch => (Error, "the signed frame (object A) does not hash to framed_subject_sha256 / framed_subject_length"),
    RequestHashMismatch => (Error, "request_sha256 is not the SHA-256 of the frame's request line"),
    CanonicalRequestMismatch => (Error, "canonical_request or canonical_request_sha256 does not recompute from the request"),
    ArgsHashMismatch => (Error, "args_hash does not recompute from the arguments"),
    RequestFieldsMismatch => (Error, "tool / arguments / _meta / requestState / inputResponses / effect_view differ from the request"),
    TargetMismatch => (Error, "the safety certificate's target is not the host (v3) or legacy (v2) profile target of the request"),
    AuditMismatch => (Error, "the kernel audit line inside emitted_bytes disagrees with the receipt (request hash, certificates, tool, route)"),
    DecisionMismatch => (Error, "verdict, reason, deny_kernel, authorization or approval do not follow from the kernel's certificates"),
    PolicyHashMismatch => (Error, "a policy_hash is not the SHA-256 of the compact kernel_config"),
    ConfigMismatch => (Error, "kernel_config is not the signed_config payload, or the config signature does not verify under its own key"),
    ApprovalStatementInvalid => (Error, "the signed approval statement is not a canonical ApprovalRecord v2 payload bound to this decision"),
    // With --trusted-approvers: who authorized an approval-authorized ALLOW.
    ApproverNotTrusted => (Error, "the receipt's signed approval statement names an approval key that is not in the trusted-approvers list"),
    ApproverKeyOutsideWindow => (Error, "the signed approval statement names a listed approval key, but its authorized_at lies outside every window the list gives that key"),
    ReleaseMismatch => (Error, "release_status, release_frame, operation_id or post_state_hash are inconsistent"),
    ReleaseUnconfirmed => (Warning, "an ALLOW receipt stopped at PENDING or UNKNOWN: the release was never confirmed"),
    NotHostLayout => (Warning, "the file's bytes are not seal-host's pretty rendering of its content (reformatted, duplicate keys or extra bytes)"),
    // Where the pinned receipt key came from.
    ReceiptKeyInEvidence => (Error, "the pinned --receipt-key was read from inside the evidence checked (a file under an audited directory or beside a receipt, a link or hard link to one, or a copy with identical bytes): whoever could rewrite the receipts could rewrite it, so the signatures show only that the evidence is self-consistent"),
    // Where the approval key or trusted-approvers list came from.
    ApprovalKeyInEvidence => (Error, "the --pubkey approval key or --trusted-approvers list was read from inside the evidence checked (a file under an audited directory or directly beside a token file, a link or hard link to one, or a copy with identical bytes): whoever could rewrite the tokens or receipts could rewrite it, so the approvals accepted under it show only that the evidence is self-consistent"),
    // Files.
    UnreadableFile => (Error, "the file could not be read (no permission, gone, larger than the limit): it was not checked, so the run could not check everything (exit status 2)"),
    EmptyFile => (Error, "the file is empty (0 bytes): no receipt in it"),
    BinaryFile => (Error, "the file holds binary data (a NUL byte), not JSON text"),
    NotUtf8 => (Error, "the file is not UTF-8"),
    TruncatedJson => (Error, "the JSON ends early (a partial write)"),
    InvalidJson => (Error, "the file is not JSON"),
    DuplicateMember => (Error, "a JSON object in the file writes one member name twice: readers disagree on its value, so it is refused whatever the signature says"),
    MisnamedReceipt => (Error, "the file name is not receipt-<20-digit counter>-<the receipt's own request hash>.json"),
    ChangedDuringAudit => (Warning, "the file was replaced or modified while it was being audited; rerun the audit"),
    ModeNotPrivate => (Warning, "seal-host writes receipt directories 0700 and their files 0600 (and refuses anything else)"),
    SymlinkSkipped => (Warning, "a symbolic link: never followed"),
    NotRegularFile => (Warning, "a FIFO, socket or device: not opened"),
    LeftoverTempFile => (Warning, "a seal-host temporary file left by an interrupted write"),
    SigningKeyExposed => (Warning, "the receipt-signing seed lies beside the receipts it signs (as seal-host writes it)"),
    UnexpectedFile => (Info, "a file seal-host does not write into receipt directories"),
    // Directories.
    NoReceipts => (Error, "the audit found no receipt file to check (an empty directory, a file, or a directory that holds no receipts): nothing checked is not a clean audit"),
    CounterReused => (Info, "one file counter used by several host sessions (seal-host restarts counters at 0)"),
    CounterDuplicate => (Error, "one file counter used twice by the same host session"),
    CounterConflict => (Error, "receipts in different directories carry one host session's file counter with different content: the host writes each counter once a session, so at most one is what it wrote"),
    DuplicateReceipt => (Warning, "a receipt file's signed content (its signature and what it signs; the bytes of a file that is no signed receipt) is found again at another path (a copy, a re-spaced copy, a hard link, or one file given twice): checked and counted once, under the first path"),
    DirectoryRepeated => (Warning, "a directory reached again by another path (given twice, through a linked root, inside another root, or a mount): walked once, its receipts counted once"),
    SharedCanonicalHash => (Warning, "distinct frames share one canonical_request_sha256, so the file name does not identify the request"),
    ChainStateInvalid => (Error, ".seal-audit-head.state is not a seal_audit_state v1 record"),
    ChainStateMismatch => (Error, "the chain head recomputed from the receipts' audit lines is not the head in .seal-audit-head.state (a receipt deleted, added or reordered)"),
    OperationStateMismatch => (Error, "a released ALLOW receipt's operation is missing from, or differs in, .seal-operation-state.json"),
    OperationReceiptMissing => (Error, "an operation .seal-operation-state.json records as released has no receipt in the directory (a deleted receipt)"),
    // Token files (`verify approval`).
    NoTokens => (Error, "the token file holds no token line: nothing checked is not a clean check"),
    // Joins of `sealkit report`.
    ReleasedWithoutToken => (Warning, "an approval-authorized ALLOW receipt matches no accepted token of the given token files (target and exact-frame subject)"),
    TokenNotFresh => (Warning, "the token matching a released receipt was expired or not yet valid at the receipt's decision time"),
    TokenRejected => (Error, "a token line fails seal-host's checks under every trusted approval key"),
    TokenNeverUsed => (Info, "an accepted approval token matches no approval-authorized ALLOW receipt"),
    ChainBroken => (Error, "a sealed log's genesis or an entry's recorded head does not recompute"),
    ChainEntryWithoutReceipt => (Warning, "a chain entry's request hash matches no receipt of the report"),
    ReceiptNotInChain => (Warning, "a receipt's request hash matches no entry of the given chains"),
    FrameNotCaptured => (Info, "no frame of the given captures has the receipt's canonical request hash"),
    AnnotationEvidenceFailed => (Error, "a captured response (to the receipt's request, or on no row: a call without a receipt) carries a trust annotation whose evidenceRef fails its check (digest, receipt, call, type or reference), or a captured frame writes a member name twice; as `sealkit evidence verify` fails it"),
    AnnotationEvidenceNotChecked => (Warning, "a captured response carries a trust annotation whose evidenceRef could not be checked (not found under the receipt directories, unreadable, or a digest or canonicalization sealkit does not support), or a captured frame that may carry one could not be read or classified: the report's verdict is then \"could not check\" (exit 2), as `sealkit evidence verify`'s is"),
}

/// What a finding is about, which decides the commands that can report it (the code list's
/// sections, in its order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// One receipt's signature, content and approver (`verify receipt`, `audit`, `report`,
    /// `evidence ref`).
    Receipt,
    /// Where the pinned receipt key came from (`verify receipt`, `audit`, `report`).
    Anchor,
    /// Where the approval key or trusted-approvers list came from (`verify approval`,
    /// `audit`, `report`).
    ApprovalAnchor,
    /// One file as read (the same commands).
    File,
    /// A receipt directory as a whole (`audit`, `report`).
    Directory,
    /// A token file as a whole (`verify approval`).
    TokenFile,
    /// The joins of `report`.
    ReportJoin,
}

impl Code {
    /// The code's section of the list. The codes are declared in sections, so the derived
    /// order places each between its section's first and last code.
    pub fn scope(self) -> Scope {
        match self {
            c if c <= Code::NotHostLayout => Scope::Receipt,
            Code::ReceiptKeyInEvidence => Scope::Anchor,
            Code::ApprovalKeyInEvidence => Scope::ApprovalAnchor,
            c if c <= Code::UnexpectedFile => Scope::File,
            c if c <= Code::OperationReceiptMissing => Scope::Directory,
            Code::NoTokens => Scope::TokenFile,
            _ => Scope::ReportJoin,
        }
    }

    /// Whether a finding with this code says something could not be checked: a report
    /// holding one cannot say the evidence holds, whatever the severity threshold (its
    /// verdict is "could not check", exit 2, as `evidence verify`'s is on the same input).
    pub fn could_not_check(self) -> bool {
        self == Code::AnnotationEvidenceNotChecked
    }
}

impl Code {
    /// What one finding of this code does to the exit status ([`Outcome`]): a file that could
    /// not be read was not checked; nothing to check is a problem; otherwise its severity
    /// decides (warnings only with `--deny-warnings`).
    pub fn outcome(self, deny_warnings: bool) -> Outcome {
        match self {
            Code::UnreadableFile => Shortfall::CouldNotRead.outcome(),
            Code::NoReceipts | Code::NoTokens => Shortfall::NothingToCheck.outcome(),
            code => match code.severity() {
                Severity::Error => Outcome::Problems,
                Severity::Warning if deny_warnings => Outcome::Problems,
                _ => Outcome::Good,
            },
        }
    }
}

/// The exit status findings give together: the worst of [`Code::outcome`].
pub fn outcome_of(codes: impl IntoIterator<Item = Code>, deny_warnings: bool) -> Outcome {
    codes
        .into_iter()
        .map(|code| code.outcome(deny_warnings))
        .fold(Outcome::Good, Outcome::worst)
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding: a code, where, and a message that says what was seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub code: Code,
    pub severity: Severity,
    /// Written by [`crate::path_json`]: absent when there is none, with `path_hex` when the
    /// name is not UTF-8.
    #[serde(flatten, serialize_with = "crate::path_json::opt_path")]
    pub path: Option<PathBuf>,
    pub message: String,
}

impl Finding {
    pub fn new(code: Code, path: Option<PathBuf>, message: impl Into<String>) -> Self {
        Finding {
            code,
            severity: code.severity(),
            path,
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_was_not_read_was_not_checked_and_nothing_to_check_is_a_problem() {
        assert_eq!(Code::UnreadableFile.outcome(false), Outcome::Unchecked);
        assert_eq!(Code::NoReceipts.outcome(false), Outcome::Problems);
        assert_eq!(Code::EmptyFile.outcome(false), Outcome::Problems);
        assert_eq!(Code::ModeNotPrivate.outcome(false), Outcome::Good);
        assert_eq!(Code::ModeNotPrivate.outcome(true), Outcome::Problems);
        assert_eq!(Code::UnexpectedFile.outcome(true), Outcome::Good);
        assert_eq!(
            outcome_of([Code::SignatureInvalid, Code::UnreadableFile], false),
            Outcome::Unchecked
        );
        assert_eq!(outcome_of([], true), Outcome::Good);
    }

    #[test]
    fn codes_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let text = code.as_str();
            assert!(seen.insert(text), "duplicate {text}");
            assert!(text
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
        }
    }

    /// The sections' edges (a code added at the end of another section fails here; that the
    /// report's join codes are exactly its section is tested beside them, in report::model).
    #[test]
    fn each_code_is_in_its_section() {
        let edges = [
            (Code::SignatureInvalid, Scope::Receipt),
            (Code::NotHostLayout, Scope::Receipt),
            (Code::ReceiptKeyInEvidence, Scope::Anchor),
            (Code::ApprovalKeyInEvidence, Scope::ApprovalAnchor),
            (Code::UnreadableFile, Scope::File),
            (Code::UnexpectedFile, Scope::File),
            (Code::NoReceipts, Scope::Directory),
            (Code::OperationReceiptMissing, Scope::Directory),
            (Code::NoTokens, Scope::TokenFile),
            (Code::ReleasedWithoutToken, Scope::ReportJoin),
        ];
        for (code, scope) in edges {
            assert_eq!(code.scope(), scope, "{code}");
        }
    }
}
