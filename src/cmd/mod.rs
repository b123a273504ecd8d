//! One file per subcommand: each wires the pure modules to output. Shared here: the
//! dispatch from parsed arguments, and how errors that stop a command are shown.

use crate::cli::{Cli, Command};
use crate::outcome::Outcome;

/// Runs the parsed command line and returns its outcome. Errors that stop a command
/// (unreadable input, bad usage the parser could not see) are printed to stderr and
/// become [`Outcome::Unchecked`].
pub fn run(cli: Cli) -> Outcome {
    let result = match &cli.command {
        Command::Target(_) => Ok(Outcome::Good),
    };
    result.unwrap_or_else(|error: miette::Report| {
        eprintln!("{error:?}");
        Outcome::Unchecked
    })
}
