//! `sealkit approve` (issue 3): being built.
use super::Global;
use crate::cli::ApproveArgs;
use crate::outcome::Outcome;

pub fn run(_args: ApproveArgs, _global: &Global) -> miette::Result<Outcome> {
    Err(miette::miette!("sealkit approve is being built"))
}
