//! `sealkit target`: identities of every frame in captures (issue 2; DESIGN.md §2, §3).

use super::Global;
use crate::cli::TargetArgs;
use crate::outcome::Outcome;

pub fn run(_args: TargetArgs, _global: &Global) -> miette::Result<Outcome> {
    Err(miette::miette!("sealkit target is being built"))
}
