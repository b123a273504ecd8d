//! CLI transcripts: each `tests/cmd/**/*.toml` runs the real `sealkit` binary and compares
//! its stdout, stderr and exit status with the recorded `.stdout` / `.stderr` files.
//! Regenerate after an intended change with `TRYCMD=overwrite cargo test --test it cli_transcripts`.

#[test]
fn cli_transcripts() {
    trycmd::TestCases::new().case("tests/cmd/**/*.toml");
}
