//! The binary's allocator carries its configuration from the build (`.cargo/config.toml`
//! sets `JEMALLOC_SYS_WITH_MALLOC_CONF`), so every build from a fresh clone has it with
//! nothing in the environment: jemalloc's own statistics, printed at exit on request, name
//! it as the built-in `malloc_conf` and show one arena. Seen red with `.cargo/config.toml`
//! removed (`config.malloc_conf: ""`, `opt.narenas: 8` on 2 cores).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[cfg(unix)]
#[test]
fn jemalloc_is_built_with_one_arena() {
    let output = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .arg("--version")
        .env_remove("JEMALLOC_SYS_WITH_MALLOC_CONF")
        .env("_RJEM_MALLOC_CONF", "stats_print:true")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stats = String::from_utf8_lossy(&output.stderr);
    assert!(
        stats.contains("config.malloc_conf: \"narenas:1\""),
        "{stats}"
    );
    assert!(stats.contains("opt.narenas: 1\n"), "{stats}");
}
