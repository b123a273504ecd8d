//! The `sealkit` binary: parse arguments, run the library, map the outcome to an exit code
//! (0 good, 1 checked and found a problem, 2 could not check; docs/exit-status.md).

use clap::Parser;
use std::process::ExitCode;

/// jemalloc rather than the C library's allocator: why is beside the dependency in Cargo.toml.
#[cfg(unix)]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match sealkit::cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(error) => return ExitCode::from(sealkit::cmd::usage_error(&error, &args)),
    };
    let outcome = sealkit::cmd::run(cli);
    ExitCode::from(outcome.exit_code())
}
