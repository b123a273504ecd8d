//! Replays every committed fuzz input — the seed corpora `fuzz/corpus/<target>/` and the
//! minimized crash inputs `tests/fuzz-regressions/<target>/` — through the same invariant
//! checks the fuzz targets run (`fuzz/src/lib.rs` and its one file per target, included here), so `cargo test` keeps
//! them green without libFuzzer or a nightly toolchain.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../fuzz/src/lib.rs"]
mod checks;

use std::path::Path;

fn replay(dir: &Path, check: fn(&[u8])) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut count = 0;
    for entry in entries {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| check(&bytes));
        assert!(outcome.is_ok(), "{} fails its invariants", path.display());
        count += 1;
    }
    count
}

#[test]
fn seed_corpora_and_regressions_hold_every_invariant() {
    for (target, check) in checks::TARGETS {
        let seeds = replay(&Path::new("fuzz/corpus").join(target), *check);
        assert!(seeds > 0, "fuzz/corpus/{target} has no seeds");
        replay(&Path::new("tests/fuzz-regressions").join(target), *check);
    }
}

#[test]
fn every_target_has_a_fuzz_binary_and_seeds() {
    let manifest = std::fs::read_to_string("fuzz/Cargo.toml").unwrap();
    for (target, _) in checks::TARGETS {
        let source = std::fs::read_to_string(format!("fuzz/fuzz_targets/{target}.rs")).unwrap();
        assert!(
            source.contains(&format!("sealkit_fuzz::{target}(")),
            "{target}"
        );
        assert!(
            manifest.contains(&format!("name = \"{target}\"")),
            "{target}"
        );
    }
}
