//! stub
use super::Global;
use crate::cli::VerifyChainArgs;
use crate::outcome::Outcome;

pub fn run(_args: VerifyChainArgs, _global: &Global) -> miette::Result<Outcome> {
    Err(miette::miette!("todo"))
}
