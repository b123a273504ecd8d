//! The evidence roots of `sealkit evidence verify --evidence DIR|FILE…`: a reference's `ref`
//! is resolved only under them, and a digest is looked for only among their files.
//!
//! Guarantees: a `ref` that is absolute, names a parent (`..`) or, once every symbolic link
//! is resolved, lies outside the root it was joined to, is refused and never opened; a
//! directory walk follows no symbolic link; nothing is fetched from anywhere but the local
//! files given; every read is bounded.

use super::Canonicalization;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// The most bytes read from one evidence file (as for receipts).
pub const MAX_EVIDENCE_BYTES: u64 = crate::audit::MAX_RECEIPT_BYTES;

/// One evidence file: as shown (under the root as given) and as opened (resolved).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub shown: PathBuf,
    pub real: PathBuf,
}

#[derive(Debug, Clone)]
struct Root {
    given: PathBuf,
    real: PathBuf,
    is_dir: bool,
}

/// The roots, and the digests of their files once a digest had to be looked for.
#[derive(Debug, Default)]
pub struct Store {
    roots: Vec<Root>,
    digests: HashMap<Canonicalization, HashMap<String, Found>>,
}

/// A root that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("evidence root {root}: {source}")]
pub struct RootError {
    pub root: String,
    #[source]
    pub source: std::io::Error,
}

impl crate::error_code::Coded for RootError {
    fn code(&self) -> &'static str {
        "unreadable-file"
    }
}

impl Store {
    /// Opens the roots (each a directory or a file; resolved once, here).
    pub fn new(roots: &[PathBuf]) -> Result<Store, RootError> {
        let roots = roots
            .iter()
            .map(|given| {
                let error = |source| RootError {
                    root: given.display().to_string(),
                    source,
                };
                let real = std::fs::canonicalize(given).map_err(error)?;
                let is_dir = std::fs::metadata(&real).map_err(error)?.is_dir();
                Ok(Root {
                    given: given.clone(),
                    real,
                    is_dir,
                })
            })
            .collect::<Result<_, RootError>>()?;
        Ok(Store {
            roots,
            digests: HashMap::new(),
        })
    }

    /// The file `reference` names under the first root that has it; `Ok(None)` when none
    /// has; `Err` (why) when the reference would leave its root.
    pub fn resolve(&self, reference: &str) -> Result<Option<Found>, String> {
        let path = Path::new(reference);
        if reference.is_empty() {
            return Err("ref is empty".to_owned());
        }
        for component in path.components() {
            match component {
                Component::Normal(_) | Component::CurDir => {}
                Component::ParentDir => {
                    return Err(format!("ref {reference:?} climbs out with \"..\""))
                }
                Component::RootDir | Component::Prefix(_) => {
                    return Err(format!("ref {reference:?} is an absolute path"))
                }
            }
        }
        for root in &self.roots {
            if !root.is_dir {
                if root.given.file_name() == Some(path.as_os_str()) {
                    return Ok(Some(Found {
                        shown: root.given.clone(),
                        real: root.real.clone(),
                    }));
                }
                continue;
            }
            let joined = root.real.join(path);
            // A name that does not exist under this root (or cannot be resolved) may be
            // under the next one.
            let Ok(real) = std::fs::canonicalize(&joined) else {
                continue;
            };
            if !real.starts_with(&root.real) {
                return Err(format!(
                    "ref {reference:?} leads outside the evidence root {} (through a symbolic link)",
                    root.given.display()
                ));
            }
            if real.is_file() {
                return Ok(Some(Found {
                    shown: root.given.join(path),
                    real,
                }));
            }
        }
        Ok(None)
    }

    /// The first file (roots in order, each directory walked in name order) whose digest
    /// under `canonicalization` is `digest`.
    pub fn find(&mut self, canonicalization: Canonicalization, digest: &str) -> Option<Found> {
        let roots = &self.roots;
        self.digests
            .entry(canonicalization)
            .or_insert_with(|| index(roots, canonicalization))
            .get(digest)
            .cloned()
    }
}

/// Every regular file under the roots by its digest (the first file keeps a digest two
/// share). Files that cannot be read or canonicalized have none.
fn index(roots: &[Root], canonicalization: Canonicalization) -> HashMap<String, Found> {
    let mut digests = HashMap::new();
    for root in roots {
        let files: Vec<Found> = if root.is_dir {
            walkdir::WalkDir::new(&root.real)
                .follow_links(false)
                .sort_by_file_name()
                .into_iter()
                .filter_map(Result::ok)
                .filter(|entry| entry.file_type().is_file())
                .map(|entry| Found {
                    shown: root.given.join(
                        entry
                            .path()
                            .strip_prefix(&root.real)
                            .unwrap_or(entry.path()),
                    ),
                    real: entry.path().to_path_buf(),
                })
                .collect()
        } else {
            vec![Found {
                shown: root.given.clone(),
                real: root.real.clone(),
            }]
        };
        for file in files {
            let Ok(bytes) = read(&file.real) else {
                continue;
            };
            if let Ok(digest) = super::digest(canonicalization, &bytes) {
                digests.entry(digest).or_insert(file);
            }
        }
    }
    digests
}

/// Reads one evidence file, bounded.
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    crate::input::read_file_capped(path, MAX_EVIDENCE_BYTES)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_ref_never_leaves_its_root() {
        let scratch = tempfile::tempdir().unwrap();
        let root = scratch.path().join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/a.json"), "{}").unwrap();
        std::fs::write(scratch.path().join("outside.json"), "{}").unwrap();
        let store = Store::new(std::slice::from_ref(&root)).unwrap();
        assert_eq!(
            store.resolve("sub/a.json").unwrap().unwrap().shown,
            root.join("sub/a.json")
        );
        assert_eq!(
            store.resolve("./sub/a.json").unwrap().unwrap().shown,
            root.join("./sub/a.json")
        );
        assert_eq!(store.resolve("missing.json").unwrap(), None);
        assert!(store.resolve("../outside.json").is_err());
        assert!(store.resolve("sub/../../outside.json").is_err());
        assert!(store.resolve("sub/../a.json").is_err());
        assert!(store
            .resolve(&scratch.path().join("outside.json").display().to_string())
            .is_err());
        assert!(store.resolve("").is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(scratch.path().join("outside.json"), root.join("link.json"))
                .unwrap();
            // Seen red with the prefix check removed: the link resolved to the outside file.
            assert!(store.resolve("link.json").is_err());
        }
    }

    #[test]
    fn a_file_root_answers_to_its_name_and_digests_are_found_among_the_roots() {
        let scratch = tempfile::tempdir().unwrap();
        let file = scratch.path().join("r.json");
        std::fs::write(&file, "{ \"b\": 1, \"a\": 2 }").unwrap();
        let mut store = Store::new(std::slice::from_ref(&file)).unwrap();
        assert_eq!(store.resolve("r.json").unwrap().unwrap().shown, file);
        assert_eq!(store.resolve("s.json").unwrap(), None);
        let jcs = super::super::digest(Canonicalization::Rfc8785, b"{\"a\":2,\"b\":1}").unwrap();
        assert_eq!(
            store.find(Canonicalization::Rfc8785, &jcs).unwrap().shown,
            file
        );
        assert_eq!(store.find(Canonicalization::None, &jcs), None);
    }
}
