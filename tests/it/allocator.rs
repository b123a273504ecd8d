//! The binary's allocator carries its configuration from the build (`.cargo/config.toml`
//! sets `JEMALLOC_SYS_WITH_MALLOC_CONF`), so every build from a fresh clone has it with
//! nothing in the environment: jemalloc's own statistics, printed at exit on request, name
//! it as the built-in `malloc_conf` and show one arena and a one-second decay of unused dirty
//! pages (docs/performance.md, issue 40 phase 3). Seen red with `.cargo/config.toml` removed
//! (`config.malloc_conf: ""`, `opt.narenas: 8` on 2 cores), and on 5a800d2's binary, whose
//! built-in configuration is `narenas:1` alone (`opt.dirty_decay_ms: 10000`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[cfg(unix)]
#[test]
fn jemalloc_is_built_with_one_arena_and_a_one_second_decay() {
    let output = assert_cmd::Command::cargo_bin("sealkit")
        .unwrap()
        .arg("--version")
        .env_remove("JEMALLOC_SYS_WITH_MALLOC_CONF")
        .env_remove("MALLOC_CONF")
        .env("_RJEM_MALLOC_CONF", "stats_print:true")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stats = String::from_utf8_lossy(&output.stderr);
    assert!(
        stats.contains("config.malloc_conf: \"narenas:1,dirty_decay_ms:1000\""),
        "{stats}"
    );
    assert!(stats.contains("opt.narenas: 1\n"), "{stats}");
    assert!(
        stats.contains("opt.dirty_decay_ms: 1000 (arenas.dirty_decay_ms: 1000)\n"),
        "{stats}"
    );
}
