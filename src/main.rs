//! The `sealkit` binary: parse arguments, run the library, map the outcome to an exit code
//! (0 good, 1 checked and found a problem, 2 could not check; docs/exit-status.md).

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match sealkit::cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(error) => {
            // clap's own message (usage errors on stderr, --help and --version on stdout),
            // then a hint when the command line shows a known slip.
            let _ = error.print();
            if let Some(hint) = sealkit::cmd::slips::hint(&error, &args) {
                eprintln!("\nhint: {hint}");
            }
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
    };
    let outcome = sealkit::cmd::run(cli);
    ExitCode::from(outcome.exit_code())
}
