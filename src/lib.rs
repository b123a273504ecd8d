//! sealkit: offline checks of the evidence around Seal-mediated MCP `tools/call` traffic.
//!
//! Data flows one way: bytes ([`frame`]) → wire guards ([`wire`]) → one parse ([`json`]) →
//! a validated request ([`request`], [`meta`]) → identities ([`identity`], [`canonical`]) →
//! a report (`cmd`). Pure modules never print; `cmd` wires them to output.
#![forbid(unsafe_code)]

pub mod approval;
pub mod approvers;
pub mod atomic_write;
pub mod audit;
pub mod bundle;
pub mod canonical;
pub mod chain;
pub mod cli;
pub mod cmd;
pub mod digest;
pub mod era;
pub mod error_code;
pub mod evidence;
pub mod finding;
pub mod frame;
pub mod host_refusal;
pub mod identity;
pub mod inert;
pub mod input;
pub mod jcs;
pub mod json;
pub mod keys;
pub mod meta;
// Migration of _meta-blind receipts: sealkit migrate / diff.
pub mod migrate;
pub mod outcome;
pub mod path_json;
pub mod receipt;
pub mod refusal;
// One page joining receipts, tokens, chains and frames: sealkit report.
pub mod renderer;
pub mod report;
pub mod request;
pub mod signature;
pub mod timestamp;
pub mod tokenfile;
pub mod wire;

// Seal V2: canonical reader/serializer, typed targets, V2.3 effect envelopes.
pub mod envelope;
pub mod typed;
pub mod utf8;
pub mod v2;
