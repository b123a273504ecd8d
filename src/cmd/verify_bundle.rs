//! stub
use super::Global;
use crate::cli::VerifyBundleArgs;
use crate::outcome::Outcome;

pub fn run(_args: VerifyBundleArgs, _global: &Global) -> miette::Result<Outcome> {
    Err(miette::miette!("todo"))
}
