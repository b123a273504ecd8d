//! The files of a migration's output (their names and `format`) and whether the files a
//! migration would replace in NEW_DIR are sealkit's own migration output.
//!
//! Guarantees: [`check_replaceable`] accepts an absent `migration.jsonl` / `summary.json`, a
//! regular `summary.json` whose `format` names a sealkit migration, and a regular
//! `migration.jsonl` whose every non-empty line is a migration record (`"type": "record"`);
//! anything else (an unrelated file, a symbolic link, a directory, unreadable bytes) is
//! refused before the run changes anything. It only reads; a records file is streamed line by
//! line, so memory is bounded by one line. Nothing here prints or panics.

use serde::Deserialize;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

pub const RECORDS_FILE: &str = "migration.jsonl";
pub const SUMMARY_FILE: &str = "summary.json";
/// The `format` member of `summary.json`.
pub const FORMAT: &str = "sealkit-migration/v1";

/// The longest line of an existing `migration.jsonl` read while checking it (a record is a
/// few kilobytes; a longer line is not one of ours).
const MAX_RECORD_LINE: u64 = 16 * 1024 * 1024;
/// The largest existing `summary.json` read while checking it.
const MAX_SUMMARY_BYTES: u64 = 64 * 1024 * 1024;
/// Every `format` sealkit writes into `summary.json` begins with this.
const FORMAT_PREFIX: &str = "sealkit-migration/";

/// An existing file in NEW_DIR that migration must not replace.
#[derive(Debug)]
pub struct Foreign {
    pub path: PathBuf,
    /// What the file is instead.
    pub why: String,
}

/// Checks both files a run replaces. `Err(Ok(foreign))`: a file that is not ours;
/// `Err(Err(io))`: the directory or a file could not be read.
pub fn check_replaceable(out: &Path) -> Result<(), Result<Foreign, (PathBuf, io::Error)>> {
    for (name, check) in [
        (
            SUMMARY_FILE,
            summary_is_ours as fn(&Path) -> io::Result<Option<String>>,
        ),
        (RECORDS_FILE, records_are_ours),
    ] {
        let path = out.join(name);
        let metadata = match std::fs::symlink_metadata(&path) {
            Ok(metadata) => metadata,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(Err((path, e))),
        };
        let file_type = metadata.file_type();
        let not_ours = if file_type.is_symlink() {
            Some("a symbolic link (sealkit writes regular files)".to_owned())
        } else if !file_type.is_file() {
            Some("not a regular file".to_owned())
        } else {
            check(&path).map_err(|e| Err((path.clone(), e)))?
        };
        if let Some(why) = not_ours {
            return Err(Ok(Foreign { path, why }));
        }
    }
    Ok(())
}

/// `None` when the summary is ours, else what it is.
fn summary_is_ours(path: &Path) -> io::Result<Option<String>> {
    #[derive(Deserialize)]
    struct Format {
        format: String,
    }
    let bytes = match crate::input::read_file_capped(path, MAX_SUMMARY_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::InvalidData => return Ok(Some(e.to_string())),
        Err(e) => return Err(e),
    };
    Ok(match serde_json::from_slice::<Format>(&bytes) {
        Ok(summary) if summary.format.starts_with(FORMAT_PREFIX) => None,
        Ok(summary) => Some(format!(
            "its format is {:?}, not a sealkit migration summary",
            summary.format
        )),
        Err(e) => Some(format!("not a sealkit migration summary: {e}")),
    })
}

/// `None` when every non-empty line is a migration record, else the first line that is not.
fn records_are_ours(path: &Path) -> io::Result<Option<String>> {
    #[derive(Deserialize)]
    struct Tagged {
        #[serde(rename = "type")]
        kind: String,
    }
    let mut reader = io::BufReader::with_capacity(1 << 16, std::fs::File::open(path)?);
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        let read = reader
            .by_ref()
            .take(MAX_RECORD_LINE + 1)
            .read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(None);
        }
        number += 1;
        if line.len() as u64 > MAX_RECORD_LINE {
            return Ok(Some(format!(
                "line {number} is longer than {MAX_RECORD_LINE} bytes"
            )));
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Tagged>(&line) {
            Ok(tagged) if tagged.kind == "record" => {}
            Ok(_) | Err(_) => {
                return Ok(Some(format!(
                    "line {number} is not a sealkit migration record"
                )))
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn verdict(files: &[(&str, &[u8])]) -> Result<(), String> {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in files {
            std::fs::write(dir.path().join(name), bytes).unwrap();
        }
        check_replaceable(dir.path()).map_err(|e| match e {
            Ok(foreign) => format!(
                "{} {}",
                foreign.path.file_name().unwrap().to_string_lossy(),
                foreign.why
            ),
            Err((_, io)) => io.to_string(),
        })
    }

    #[test]
    fn only_sealkit_output_is_replaceable() {
        assert_eq!(verdict(&[]), Ok(()));
        let record: &[u8] = b"{\"type\":\"record\",\"receipt\":\"r\"}\n\n{\"type\":\"record\"}";
        let summary: &[u8] = b"{\"format\":\"sealkit-migration/v1\",\"receipts\":2}\n";
        assert_eq!(
            verdict(&[(RECORDS_FILE, record), (SUMMARY_FILE, summary)]),
            Ok(())
        );
        assert_eq!(verdict(&[(RECORDS_FILE, b"")]), Ok(()));
        assert_eq!(
            verdict(&[(SUMMARY_FILE, b"{\"format\":\"other/v1\"}")]),
            Err("summary.json its format is \"other/v1\", not a sealkit migration summary".into())
        );
        let err = verdict(&[(SUMMARY_FILE, b"totals: 3\n")]).unwrap_err();
        assert!(
            err.starts_with("summary.json not a sealkit migration summary"),
            "{err}"
        );
        assert_eq!(
            verdict(&[(
                RECORDS_FILE,
                b"{\"type\":\"record\"}\n{\"type\":\"event\"}\n"
            )]),
            Err("migration.jsonl line 2 is not a sealkit migration record".into())
        );
        assert_eq!(
            verdict(&[(RECORDS_FILE, b"a,b,c\n")]),
            Err("migration.jsonl line 1 is not a sealkit migration record".into())
        );
    }

    #[test]
    fn links_and_directories_are_not_replaceable() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(SUMMARY_FILE)).unwrap();
        let Err(Ok(foreign)) = check_replaceable(dir.path()) else {
            panic!("a directory named summary.json is not ours");
        };
        assert_eq!(foreign.why, "not a regular file");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("elsewhere"), b"{\"type\":\"record\"}\n").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("elsewhere", dir.path().join(RECORDS_FILE)).unwrap();
        #[cfg(unix)]
        assert!(matches!(check_replaceable(dir.path()), Err(Ok(_))));
    }
}
