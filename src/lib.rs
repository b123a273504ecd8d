//! sealkit: offline checks of the evidence around Seal-mediated MCP `tools/call` traffic.
//!
//! Data flows one way: bytes ([`frame`]) → wire guards ([`wire`]) → one parse ([`json`]) →
//! a validated request ([`request`], [`meta`]) → identities ([`identity`], [`canonical`]) →
//! a report (`cmd`). Pure modules never print; `cmd` wires them to output.
#![forbid(unsafe_code)]

pub mod approval;
pub mod canonical;
pub mod challenge;
pub mod cli;
pub mod cmd;
pub mod digest;
pub mod frame;
pub mod fsutil;
pub mod identity;
pub mod json;
pub mod keys;
pub mod meta;
pub mod outcome;
pub mod refusal;
pub mod request;
pub mod shown;
pub mod tokenfile;
pub mod wire;
