//! Command-line definitions (clap derive) and nothing else: every subcommand, option and
//! help text of DESIGN.md §7. `man/` and `completions/` are generated from these.

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
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute the identities Seal derives for captured JSON-RPC frames, under every profile.
    Target(TargetArgs),

    // Approvals (issue 3): keygen, approve, verify.
    /// Create an Ed25519 approval key pair in seal-host's key file format.
    Keygen(KeygenArgs),
    /// Sign an ApprovalRecord v2 for a blocked call after showing exactly what it approves.
    Approve(ApproveArgs),
    /// Verify approvals, receipts and audit chains.
    Verify(VerifyArgs),
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
    /// Colour when stdout is a terminal and NO_COLOR is unset.
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
}

/// The protocol era a capture is read under (DESIGN.md §3).
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

// Approvals (issue 3).

#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// Directory for the key files (created with mode 0700 when missing).
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,

    /// Base name: writes NAME.key (secret seed) and NAME.pub.
    #[arg(long, value_name = "NAME", default_value = "approval")]
    pub name: String,
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

    /// The exact blocked frame, including its LF (or CRLF) delimiter.
    #[arg(long, value_name = "FILE", requires = "target")]
    pub frame: Option<PathBuf>,

    /// The challenged target (64 lowercase hex) from `approval required: <hex>`.
    #[arg(long, value_name = "HEX", requires = "frame")]
    pub target: Option<String>,

    /// Secret key file (64 hex + LF, mode 0600); default: $SEALKIT_APPROVAL_KEY_FILE.
    #[arg(long, value_name = "FILE")]
    pub key_file: Option<PathBuf>,

    /// The host's configured server identity (Seal's `server`; never read from a frame).
    #[arg(long, value_name = "ID", default_value = "")]
    pub server: String,

    /// Nonce (default: 32 random hex digits).
    #[arg(long, value_name = "S")]
    pub nonce: Option<String>,

    /// authorized_at in Unix milliseconds (default: now).
    #[arg(long, value_name = "MS")]
    pub authorized_at: Option<u64>,

    /// expiry in Unix milliseconds (default: authorized_at + TTL).
    #[arg(long, value_name = "MS", conflicts_with = "ttl")]
    pub expiry: Option<u64>,

    /// Lifetime in seconds: expiry = authorized_at + TTL (default 120; the host caps its
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
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    #[command(subcommand)]
    pub what: VerifyCommand,
}

#[derive(Debug, Subcommand)]
pub enum VerifyCommand {
    /// Check ApprovalRecord v2 token lines with seal-host's rules, then their binding.
    Approval(VerifyApprovalArgs),
}

#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("trusted_key").required(true).args(["pubkey", "pubkey_file"])))]
pub struct VerifyApprovalArgs {
    /// Token file (NDJSON, one token per line); "-" or nothing for stdin.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// The trusted approval public key (seal-host's --approval-pubkey), 64 hex.
    #[arg(long, value_name = "HEX")]
    pub pubkey: Option<String>,

    /// File holding the trusted approval public key (64 hex + LF).
    #[arg(long, value_name = "FILE")]
    pub pubkey_file: Option<PathBuf>,

    /// The exact frame (with delimiter) each approval must be bound to.
    #[arg(long, value_name = "FILE")]
    pub frame: Option<PathBuf>,

    /// The challenged target each record must name.
    #[arg(long, value_name = "HEX")]
    pub target: Option<String>,

    /// Check freshness at this time (Unix milliseconds).
    #[arg(long, value_name = "MS")]
    pub now: Option<u64>,

    /// The host's approval TTL in seconds (capped at 300, as the host caps it).
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    pub ttl: u64,
}
