//! `man/` and `completions/` are generated from the clap definitions in src/cli.rs. This
//! test regenerates them in memory and fails when the committed files are stale.
//! Refresh them with `SEALKIT_REGENERATE=1 cargo test --test generated_files`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use clap::CommandFactory;
use clap_complete::Shell;
use sealkit::cli::Cli;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every generated file, by path relative to the repository root.
fn generated() -> BTreeMap<PathBuf, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut command = Cli::command();
    command.build();
    man_pages(&command, "sealkit", &mut files);
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::PowerShell,
    ] {
        let mut buffer = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "sealkit", &mut buffer);
        let name = match shell {
            Shell::Bash => "sealkit.bash",
            Shell::Zsh => "_sealkit",
            Shell::Fish => "sealkit.fish",
            Shell::Elvish => "sealkit.elv",
            _ => "_sealkit.ps1",
        };
        files.insert(Path::new("completions").join(name), buffer);
    }
    files
}

fn man_pages(command: &clap::Command, name: &str, files: &mut BTreeMap<PathBuf, Vec<u8>>) {
    let mut buffer = Vec::new();
    clap_mangen::Man::new(command.clone().name(name.to_owned()))
        .render(&mut buffer)
        .unwrap();
    files.insert(Path::new("man").join(format!("{name}.1")), buffer);
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        man_pages(sub, &format!("{name}-{}", sub.get_name()), files);
    }
}

#[test]
fn man_pages_and_completions_are_current() {
    let files = generated();
    if std::env::var_os("SEALKIT_REGENERATE").is_some() {
        for dir in ["man", "completions"] {
            let _ = std::fs::remove_dir_all(root().join(dir));
            std::fs::create_dir_all(root().join(dir)).unwrap();
        }
        for (path, bytes) in &files {
            std::fs::write(root().join(path), bytes).unwrap();
        }
        return;
    }
    let mut on_disk = BTreeMap::new();
    for dir in ["man", "completions"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            on_disk.insert(
                path.strip_prefix(root()).unwrap().to_path_buf(),
                std::fs::read(&path).unwrap(),
            );
        }
    }
    let stale: Vec<_> = files
        .keys()
        .chain(on_disk.keys())
        .filter(|p| files.get(*p) != on_disk.get(*p))
        .collect();
    assert!(stale.is_empty(), "stale generated files {stale:?}: run SEALKIT_REGENERATE=1 cargo test --test generated_files");
}
