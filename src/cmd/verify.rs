//! `sealkit verify …`: one subcommand per kind of evidence (docs/approvals.md).

use super::Global;
use crate::cli::{VerifyArgs, VerifyCommand};
use crate::outcome::Outcome;

pub fn run(args: VerifyArgs, global: &Global) -> miette::Result<Outcome> {
    match args.what {
        VerifyCommand::Receipt(args) => super::verify_receipt::run(args, global),
        VerifyCommand::Chain(args) => super::verify_chain::run(args, global),
        VerifyCommand::Bundle(args) => super::verify_bundle::run(args, global),
        VerifyCommand::Approval(args) => super::verify_approval::run(args, global),
    }
}
