//! The `sealkit` binary: parse arguments, run the library, map the outcome to an exit code
//! (0 good, 1 checked and found a problem, 2 could not check; docs/exit-status.md).

use std::process::ExitCode;

/// jemalloc rather than the C library's allocator: why is beside the dependency in Cargo.toml.
#[cfg(unix)]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> ExitCode {
    ExitCode::from(sealkit::cmd::main(std::env::args_os().collect()))
}
