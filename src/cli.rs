//! Command-line definitions (clap derive) and nothing else: every subcommand, option and
//! help text of docs/exit-status.md. `man/` and `completions/` are generated from these.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Offline toolkit for the evidence around Seal-mediated MCP tool calls.
#[derive(Debug, Parser)]
#[command(name = "sealkit", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Output format: tables and diagnostics for people, JSON or JSON Lines for scripts.
    #[arg(long, global = true, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Treat warning-severity findings as problems (exit status 1).
    #[arg(long, global = true)]
    pub deny_warnings: bool,

    /// When to use colour in human output.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Print nothing but errors (on stderr); the exit status is unchanged.
    #[arg(short, long, global = true)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute the identities Seal derives for captured JSON-RPC frames, under every profile.
    ///
    /// Each frame goes through Seal's wire guards, seal-host's lexical caps, the JSON-RPC and
    /// tools/call shape checks and the era's `_meta` rules, in Seal's order; a frame that
    /// passes gets its committed, host and legacy targets, one that fails is refused with the
    /// code and JSON-RPC error the host would answer (see CODES).
    Target(TargetArgs),
    /// Create an Ed25519 approval key pair; the secret key is encrypted with a passphrase.
    Keygen(KeygenArgs),
    /// Inspect or protect key files.
    Key(KeyArgs),
    /// Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves.
    ///
    /// The frame is validated and identified as `target` does; the challenged target must be
    /// one of its profiles. The screen shows every value the record signs; only an explicit
    /// yes typed at the terminal (or --yes) signs, and nothing is signed that the host would
    /// drop as expired or replayed. One token line is appended under a lock.
    Approve(ApproveArgs),
    /// Verify evidence: approval tokens, receipts, audit chains, statement bundles.
    Verify(VerifyArgs),
    /// Audit whole receipt directories: every receipt, names, counters, chain state, files.
    ///
    /// Every receipt is verified as `verify receipt` does (signature under the pinned key,
    /// every recomputed digest, decision and release); then file names against contents,
    /// counters, the chain head state and file modes. Each problem is a finding with a stable
    /// code and severity (see CODES).
    Audit(AuditArgs),
    /// Pair old receipts with new ones (or with a migration output) and show what changed.
    ///
    /// Receipts are paired by the frame they bind (recovered from the captures), never by
    /// counters or file names; each pair gets its migration label, recomputed from the
    /// receipt bytes, and a migration output's recorded labels are checked against it.
    Diff(DiffArgs),
    /// Migrate _meta-blind receipts: one record per receipt (label, changes, old and
    /// committed identity) written to NEW_DIR.
    ///
    /// Each receipt's frame is recovered from the captures and checked against the receipt's
    /// digests; the label says whether its identity survives the move to the committed
    /// profile (see CODES). Nothing is adopted from a receipt that fails its own checks.
    Migrate(MigrateArgs),
    /// Build the V2.3 `seal.effect/v2` signed message for one frame; optionally check an
    /// Ed25519 signature over it.
    Envelope(Box<EnvelopeArgs>),
    /// One offline HTML page (or, with --format json, one JSON document) joining receipts,
    /// approval tokens, chain entries and captured frames for an incident.
    Report(Box<ReportArgs>),
    /// Trust-annotation evidence: name receipts in `evidenceRef` objects, and check the
    /// references responses carry against local evidence.
    Evidence(EvidenceArgs),
}

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Tables and diagnostics for a person at a terminal.
    Human,
    /// One JSON document (an array or an object) on stdout.
    Json,
    /// One JSON object per line on stdout.
    Jsonl,
}

/// When to colour human output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when the output is a terminal and NO_COLOR is unset.
    Auto,
    Always,
    Never,
}

#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Capture files of LF-terminated JSON-RPC frames ("-" or nothing for stdin).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// The operator's server identity (Seal's `server` config; never read from a frame).
    #[arg(long, value_name = "ID", default_value = "")]
    pub server: String,

    /// Protocol era: detect it from the capture, or force one.
    #[arg(long, value_enum, default_value_t = EraChoice::Auto)]
    pub era: EraChoice,

    /// Which profiles' targets the human table shows (JSON always carries all three).
    #[arg(long, value_enum, default_value_t = ProfileChoice::All)]
    pub profile: ProfileChoice,

    /// Show the exact parts framed and hashed for every identity, and where profiles differ.
    #[arg(long)]
    pub explain: bool,

    /// JSON file mapping tool names to {"version", "manifest_digest"}: frames carrying
    /// `params.action` also get Seal's V2 typed target (`identities.typed`).
    #[arg(long, value_name = "FILE")]
    pub tool_spec: Option<PathBuf>,
}

/// The protocol era a capture is read under (docs/target.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EraChoice {
    /// From `initialize` / `server/discover` and the frame's own `_meta` markers.
    Auto,
    /// MCP before 2026-07-28: `_meta` optional.
    Legacy,
    /// MCP 2026-07-28: `_meta` with protocolVersion and clientCapabilities required.
    #[value(name = "2026-07-28")]
    Modern,
}

/// Which identity profiles the human table shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileChoice {
    Committed,
    Host,
    Legacy,
    All,
}

/// `sealkit envelope`: the signed bytes of a V2.3 effect envelope.
#[derive(Debug, Args)]
pub struct EnvelopeArgs {
    /// File holding exactly one JSON-RPC frame: the judged line ("-" or nothing for stdin).
    #[arg(value_name = "FRAME")]
    pub frame: Option<PathBuf>,

    /// Protocol era the frame is validated under: from its own `_meta` markers, or forced
    /// (the same validation `target` applies; a refused frame gets no message).
    #[arg(long, value_enum, default_value_t = EraChoice::Auto)]
    pub era: EraChoice,

    /// JSON file of envelope parameters (authority_hex, key_id, nonce_hex, issued_at,
    /// expires_at, adapter, session, policy_version, effect); flags override its values.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,

    /// The config trust root: 32 bytes as 64 hex digits.
    #[arg(long, value_name = "HEX")]
    pub authority: Option<String>,

    /// The principal's registry key id.
    #[arg(long, value_name = "ID")]
    pub key_id: Option<String>,

    /// The envelope nonce: 32 bytes as 64 hex digits.
    #[arg(long, value_name = "HEX")]
    pub nonce: Option<String>,

    /// Issue time in Unix SECONDS (or `now`, or RFC 3339 such as 2026-12-01T10:00:00Z).
    #[arg(long, value_name = "SECONDS", value_parser = crate::timestamp::seconds_option)]
    pub issued_at: Option<u64>,

    /// Signer-declared deadline in Unix SECONDS (or `now`, or RFC 3339); Seal requires it
    /// nonzero.
    #[arg(long, value_name = "SECONDS", value_parser = crate::timestamp::seconds_option)]
    pub expires_at: Option<u64>,

    /// Adapter type [default: mcp].
    #[arg(long, value_name = "TYPE")]
    pub adapter_type: Option<String>,

    /// Adapter version [default: 2025-06-18].
    #[arg(long, value_name = "VERSION")]
    pub adapter_version: Option<String>,

    /// The session the host issued.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,

    /// The policy version the signer pins.
    #[arg(long, value_name = "VERSION")]
    pub policy_version: Option<String>,

    /// The effect claim: derived from the frame by Seal's kernel rule, or declared absent
    /// [default: derive, unless the parameter file gives one].
    #[arg(long, value_enum)]
    pub effect: Option<EffectArg>,

    /// Check this Ed25519 signature (128 hex digits) over the message.
    #[arg(long, value_name = "SIG", requires = "pubkey")]
    pub verify: Option<String>,

    /// The signer's Ed25519 public key, for --verify: 64 hex digits, an `ssh-ed25519 AAAA…`
    /// key, or a file holding either.
    #[arg(long, value_name = "HEX|FILE", requires = "verify")]
    pub pubkey: Option<String>,
}

/// How `sealkit envelope` fills the effect claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EffectArg {
    /// Seal's kernel derivation from the frame (needs `params.action`).
    Derive,
    /// Declared absent (one signed 0x00 byte).
    Absent,
}
// --- trust-annotation evidence ---

#[derive(Debug, Args)]
pub struct EvidenceArgs {
    #[command(subcommand)]
    pub what: EvidenceCommand,
}

#[derive(Debug, Subcommand)]
pub enum EvidenceCommand {
    /// One `evidenceRef` object for each receipt that authenticates (its digest under RFC
    /// 8785, its file name as `ref`); a receipt that does not gets its findings instead.
    Ref(EvidenceRefArgs),
    /// Check `evidenceRef` objects from captured responses and reference files against local
    /// evidence: digest, canonicalization, and for Seal receipts authentication and the call.
    Verify(EvidenceVerifyArgs),
}

#[derive(Debug, Args)]
pub struct EvidenceRefArgs {
    /// Receipt files ("-" for stdin).
    #[arg(value_name = "RECEIPT", required = true)]
    pub files: Vec<PathBuf>,

    /// The installation's receipt key (64 hex, raw 32-byte seed file, or public key file).
    /// Without it no receipt authenticates, so none gets a reference.
    #[arg(long, value_name = "HEX|FILE")]
    pub receipt_key: Option<String>,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("references").required(true).multiple(true).args(["frames", "refs"])))]
pub struct EvidenceVerifyArgs {
    /// Captures of JSON-RPC frames (requests and responses, one per line): the references in
    /// each response's `result._meta[ANNOTATION_KEY]`, paired with their requests.
    #[arg(long, value_name = "CAPTURE", num_args = 1..)]
    pub frames: Vec<PathBuf>,

    /// Files of references: one JSON value (a reference, an object with `evidenceRef`, or an
    /// array of those) or JSON Lines of them, as `sealkit evidence ref` prints.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub refs: Vec<PathBuf>,

    /// Where evidence is looked for: directories (a `ref` is resolved under them and never
    /// leaves them) or files. Nothing is fetched from the network.
    #[arg(long, value_name = "DIR|FILE", num_args = 1.., required = true)]
    pub evidence: Vec<PathBuf>,

    /// The installation's receipt key (64 hex, raw 32-byte seed file, or public key file):
    /// references to Seal receipts verify only when the receipt authenticates under it.
    #[arg(long, value_name = "HEX|FILE")]
    pub receipt_key: Option<String>,

    /// The `result._meta` key responses carry trust annotations under.
    #[arg(long, value_name = "KEY", default_value = crate::evidence::DEFAULT_ANNOTATION_KEY)]
    pub annotation_key: String,
}

// --- receipts, chains, bundles, audits ---

#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(subcommand)]
    pub what: VerifyCommand,
}

#[derive(Debug, Subcommand)]
pub enum VerifyCommand {
    /// Check ApprovalRecord v2 token lines with seal-host's rules, then their binding.
    ///
    /// Every line is checked in seal-host's order (size and JSON limits, token and payload
    /// shape, signer, canonical payload, Ed25519 signature), then, when given, its binding to
    /// the frame and target and its freshness; the first failure is seal-host's own reason
    /// code (see CODES). An allow beside a signed decline for its target is a conflict.
    Approval(VerifyApprovalArgs),
    /// Verify authorization-decision receipts (record_version 3 signed, record_version 2 unsigned).
    ///
    /// The signature is checked under the pinned receipt key, then every value the receipt
    /// records is recomputed from the frame it signs: request hash, canonical request,
    /// arguments hash, guard target, kernel audit line, decision, config and release. Each
    /// disagreement is a finding (see CODES).
    Receipt(VerifyReceiptArgs),
    /// Verify a seal-verifiable-record/v1 sealed log, or recompute a head from audit lines.
    Chain(VerifyChainArgs),
    /// Verify a detached statement bundle (receipt-verifier/verify.mjs input).
    Bundle(VerifyBundleArgs),
}

#[derive(Debug, Args)]
pub struct VerifyReceiptArgs {
    /// Receipt files ("-" for stdin).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// The installation's receipt key, kept apart from the receipts (the public key recorded
    /// when the host was installed): 64 hex digits, a public key file or a raw 32-byte seed
    /// file. Without it no receipt can be authenticated; a key read from beside the receipts
    /// (where seal-host keeps its seed) authenticates nothing independent
    /// (receipt-key-in-evidence).
    #[arg(long, value_name = "HEX|FILE")]
    pub receipt_key: Option<String>,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["sealed", "audit_lines"])))]
pub struct VerifyChainArgs {
    /// A sealed log written by `seal_log.mjs seal` ("-" for stdin).
    #[arg(value_name = "SEALED.json")]
    pub sealed: Option<PathBuf>,

    /// Recompute the head from raw audit lines instead (trimmed, empty lines dropped; "-"
    /// for stdin).
    #[arg(long, value_name = "FILE")]
    pub audit_lines: Option<PathBuf>,

    /// The head the chain must end at.
    #[arg(long, value_name = "HEX")]
    pub head: Option<String>,

    /// A receipt directory's .seal-audit-head.state whose head must equal the recomputed one.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct VerifyBundleArgs {
    /// The bundle: {issuer_statement, request_statement, approval_statement} ("-" for stdin).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Trusted issuer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file
    /// holding either.
    #[arg(long, value_name = "HEX|FILE")]
    pub issuer_pubkey: String,

    /// Trusted request-signer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file
    /// holding either.
    #[arg(long, value_name = "HEX|FILE")]
    pub request_pubkey: String,

    /// Trusted approval-signer public key: 64 hex digits, an `ssh-ed25519 AAAA…` key, or a file
    /// holding either.
    #[arg(long, value_name = "HEX|FILE")]
    pub approval_pubkey: String,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Directories (or files) to walk; symbolic links are never followed.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,

    /// The installation's receipt key, kept apart from the directories audited (the public
    /// key recorded when the host was installed): 64 hex, a public key file or a raw 32-byte
    /// seed file. A key read from inside them authenticates nothing independent
    /// (receipt-key-in-evidence).
    #[arg(long, value_name = "HEX|FILE")]
    pub receipt_key: Option<String>,

    /// Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME]
    /// (as `verify approval`). Each approval-authorized ALLOW receipt names the approver its
    /// signed approval statement names; a key not listed, or used outside its window, is a
    /// finding. Needs --receipt-key: only an authenticated receipt's statement is believed.
    #[arg(long, value_name = "FILE", requires = "receipt_key")]
    pub trusted_approvers: Option<PathBuf>,

    /// Worker threads (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

// --- approvals ---

#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// Directory for the key files (created with mode 0700 when missing).
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,

    /// Base name: writes NAME.key (secret key) and NAME.pub.
    #[arg(long, value_name = "NAME", default_value = "approval")]
    pub name: String,

    /// Read the new key's passphrase from the first line of FILE instead of the terminal.
    #[arg(long, value_name = "FILE", conflicts_with = "unencrypted")]
    pub passphrase_file: Option<PathBuf>,

    /// Write the secret key unencrypted, in seal-host's bare-hex format (64 hex + LF).
    #[arg(long)]
    pub unencrypted: bool,
}

#[derive(Debug, Args)]
pub struct KeyArgs {
    #[command(subcommand)]
    pub what: KeyCommand,
}

#[derive(Debug, Subcommand)]
pub enum KeyCommand {
    /// Say what a key file is: its kind, public key (64 hex) and key id. Never prints a secret.
    Show(KeyShowArgs),
    /// Encrypt a plain secret key file in place with a passphrase (atomically).
    Protect(KeyProtectArgs),
}

#[derive(Debug, Args)]
pub struct KeyShowArgs {
    /// The key file: secret (encrypted or plain), public (64 hex) or OpenSSH public key.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// For an encrypted secret key written before keys stated their public key (newer ones
    /// need no passphrase): read the passphrase from the first line of FILE.
    #[arg(long, value_name = "FILE")]
    pub passphrase_file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct KeyProtectArgs {
    /// The plain secret key file (64 hex + LF, mode 0600) to encrypt in place.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Read the new passphrase from the first line of FILE instead of the terminal.
    #[arg(long, value_name = "FILE")]
    pub passphrase_file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ApproveArgs {
    /// NDJSON token file the host reads (seal-host's --token-file); one line is appended.
    #[arg(long, value_name = "FILE")]
    pub token_file: PathBuf,

    /// The host's refusal line (`approval required: <hex>` with result.framed_subject).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["frame", "target"],
          required_unless_present = "frame")]
    pub refusal: Option<PathBuf>,

    /// The exact blocked frame, including its LF (or CRLF) delimiter ("-" for stdin).
    #[arg(long, value_name = "FILE", requires = "target")]
    pub frame: Option<PathBuf>,

    /// The challenged target (64 lowercase hex) from `approval required: <hex>`.
    #[arg(long, value_name = "HEX", requires = "frame")]
    pub target: Option<String>,

    /// Secret key file (encrypted, or 64 hex + LF; mode 0600); default:
    /// $SEALKIT_APPROVAL_KEY_FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "ssh_agent")]
    pub key_file: Option<PathBuf>,

    /// For an encrypted key file: read the passphrase from the first line of FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "ssh_agent")]
    pub passphrase_file: Option<PathBuf>,

    /// Sign with an Ed25519 key held by the running ssh-agent (SSH_AUTH_SOCK; Unix only).
    #[arg(long)]
    pub ssh_agent: bool,

    /// With --ssh-agent: the OpenSSH public key file of the agent key to sign with.
    #[arg(long, value_name = "PUBFILE", requires = "ssh_agent")]
    pub ssh_key: Option<PathBuf>,

    /// The host's configured server identity (Seal's `server`; never read from a frame).
    #[arg(long, value_name = "ID", default_value = "")]
    pub server: String,

    /// Nonce (default: 32 random hex digits).
    #[arg(long, value_name = "S")]
    pub nonce: Option<String>,

    /// authorized_at: `now`, RFC 3339 or Unix milliseconds (default: --now).
    #[arg(long, value_name = "TIME", value_parser = crate::timestamp::millis_option)]
    pub authorized_at: Option<u64>,

    /// The signing time: `now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix milliseconds
    /// (default: the system clock). authorized_at defaults to it, and an approval already
    /// expired at it is refused.
    #[arg(long, value_name = "TIME", value_parser = crate::timestamp::millis_option)]
    pub now: Option<u64>,

    /// expiry: `now`, RFC 3339 or Unix milliseconds (default: authorized_at + TTL).
    #[arg(long, value_name = "TIME", conflicts_with = "ttl",
          value_parser = crate::timestamp::millis_option)]
    pub expiry: Option<u64>,

    /// Lifetime in SECONDS: expiry = authorized_at + TTL (default 120; the host caps its
    /// own TTL at 300).
    #[arg(long, value_name = "SECONDS")]
    pub ttl: Option<u64>,

    /// Approval session label (default: sealkit-approve/<random hex>).
    #[arg(long, value_name = "S")]
    pub session: Option<String>,

    /// Who approves, as recorded in the signed payload.
    #[arg(long, value_name = "NAME", default_value = "local CLI operator")]
    pub approver: String,

    /// Sign without asking (for scripts; no terminal needed).
    #[arg(long)]
    pub yes: bool,

    /// Write seal-host's signed decline for the target instead of an approval.
    #[arg(long)]
    pub deny: bool,

    /// Approval screen layout: 3 (the default: every signed value shown, fitted to the
    /// terminal's width), 2 (signer, validity and a one-line question first, lines as long
    /// as their values) or 1 (the first layout). Records of every version verify alike; the
    /// record names the renderer version it used.
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u8).range(1..=3))]
    pub renderer_version: u8,
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("trusted_key").required(true).args(["pubkey", "trusted_approvers"])))]
pub struct VerifyApprovalArgs {
    /// Token file (NDJSON, one token per line); "-" or nothing for stdin.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// The trusted approval public key (seal-host's --approval-pubkey): 64 hex digits, an
    /// `ssh-ed25519 AAAA…` key, or a file holding either (64 hex + LF, or an OpenSSH public
    /// key line; --pubkey-file is the same option). Secret key files are refused.
    #[arg(long, value_name = "HEX|FILE", visible_alias = "pubkey-file")]
    pub pubkey: Option<String>,

    /// Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME].
    #[arg(long, value_name = "FILE")]
    pub trusted_approvers: Option<PathBuf>,

    /// The exact frame (with delimiter) each approval must be bound to.
    #[arg(long, value_name = "FILE")]
    pub frame: Option<PathBuf>,

    /// The challenged target each record must name.
    #[arg(long, value_name = "HEX")]
    pub target: Option<String>,

    /// Check freshness at this time: `now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix
    /// milliseconds.
    #[arg(long, value_name = "TIME", value_parser = crate::timestamp::millis_option)]
    pub now: Option<u64>,

    /// The host's approval TTL in SECONDS (capped at 300, as the host caps it).
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub ttl: u64,
}

// --- migration ---

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// Directories (or files) of old receipts; only read, never modified.
    #[arg(value_name = "OLD_DIR", required = true)]
    pub old: Vec<PathBuf>,

    /// Captures of the client's frames: files of LF-terminated frames, single .frame files,
    /// or directories of them ("-" for stdin). Frames are matched by exact-frame subject.
    #[arg(long, value_name = "CAPTURE", num_args = 1..)]
    pub frames: Vec<PathBuf>,

    /// The server identity to compute identities under [default: each receipt's own
    /// kernel_config server, else empty].
    #[arg(long, value_name = "ID")]
    pub server: Option<String>,

    /// Where to write migration.jsonl and summary.json (created if missing; never inside an
    /// OLD_DIR).
    #[arg(long, value_name = "NEW_DIR", required = true)]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Old evidence: a receipt file, a directory of receipts, or a migration output (a
    /// `sealkit migrate` NEW_DIR or its migration.jsonl).
    #[arg(value_name = "OLD")]
    pub old: PathBuf,

    /// New evidence, in the same forms.
    #[arg(value_name = "NEW")]
    pub new: PathBuf,

    /// Captures of the client's frames (as for `sealkit migrate`).
    #[arg(long, value_name = "CAPTURE", num_args = 1..)]
    pub frames: Vec<PathBuf>,

    /// The server identity to compute identities under [default: each receipt's own].
    #[arg(long, value_name = "ID")]
    pub server: Option<String>,
}

// --- incident report ---

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("approval_keys").args(["pubkey", "trusted_approvers"])))]
pub struct ReportArgs {
    /// Receipt directories (or files) to audit; symbolic links are never followed.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,

    /// Where to write the page (the JSON model with --format json; with --format jsonl one
    /// row per receipt, then the annotations on no row, the findings and the verdict);
    /// replaced atomically, and never one of the inputs.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,

    /// The installation's receipt key, kept apart from the directories reported on (the
    /// public key recorded when the host was installed): 64 hex, a public key file or a raw
    /// 32-byte seed file. A key read from inside them authenticates nothing independent
    /// (receipt-key-in-evidence).
    #[arg(long, value_name = "HEX|FILE")]
    pub receipt_key: Option<String>,

    /// The trusted approval public key the token files are checked against: 64 hex digits,
    /// an `ssh-ed25519 AAAA…` key, or a file holding either.
    #[arg(long, value_name = "HEX|FILE")]
    pub pubkey: Option<String>,

    /// Trusted approvers, one per line: NAME KEY [valid-after=TIME] [valid-before=TIME] (as
    /// `verify approval` and `audit`): tokens and approval receipts name their approver.
    #[arg(long, value_name = "FILE")]
    pub trusted_approvers: Option<PathBuf>,

    /// Approval token files (NDJSON); needs --pubkey or --trusted-approvers.
    #[arg(long = "tokens", value_name = "FILE")]
    pub tokens: Vec<PathBuf>,

    /// Sealed logs (seal-verifiable-record/v1) whose entries are joined by request hash.
    #[arg(long = "chain", value_name = "FILE")]
    pub chains: Vec<PathBuf>,

    /// Raw kernel audit lines, joined by request hash like a sealed log's entries.
    #[arg(long = "audit-lines", value_name = "FILE")]
    pub audit_lines: Vec<PathBuf>,

    /// Captures of the client's frames (files of LF-terminated frames, .frame files or
    /// directories of them), joined by canonical request hash.
    #[arg(long = "frames", value_name = "CAPTURE")]
    pub frames: Vec<PathBuf>,

    /// The server identity identities are computed under [default: each receipt's own].
    #[arg(long, value_name = "ID")]
    pub server: Option<String>,

    /// The host's approval TTL in SECONDS, for freshness when a token was used (capped at
    /// 300, as the host caps it).
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub ttl: u64,

    /// The page title.
    #[arg(long, value_name = "TEXT", default_value = "sealkit incident report")]
    pub title: String,

    /// Record the generation time in the output (otherwise the same inputs give the same bytes).
    #[arg(long)]
    pub timestamp: bool,

    /// Worker threads for the receipt checks (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}
