//! Which files are receipts to migrate (docs/formats.md): a file given
//! by name is one; a directory is walked in sorted order without following symbolic links,
//! and its `receipt-*.json` files (and other `.json` files whose `record_type` is a
//! seal-host decision) are receipts; everything else (state files, the signing seed,
//! temporary files) is counted, not read. The order is stable, so reruns agree.

use crate::audit::names::{self, NameKind};
use std::io;
use std::path::{Path, PathBuf};

/// One receipt file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptFile {
    pub path: PathBuf,
    /// The 20-digit counter of its name, when it follows seal-host's naming.
    pub counter: Option<u64>,
}

impl ReceiptFile {
    /// The path as given on the command line, joined with the walked names.
    pub fn shown(&self) -> String {
        self.path.display().to_string()
    }
}

/// The receipts under some roots, in walk order.
#[derive(Debug, Default)]
pub struct Walk {
    pub receipts: Vec<ReceiptFile>,
    /// Files that are not receipts (state files, keys, temporary files, symbolic links…).
    pub other_files: u64,
}

/// A root or directory that cannot be read: migration does not run on part of the input.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {error}", path.display())]
pub struct InputError {
    pub path: PathBuf,
    #[source]
    pub error: io::Error,
}

impl crate::error_code::Coded for InputError {
    fn code(&self) -> &'static str {
        "unreadable-input"
    }
}

/// Lists the receipts under `roots`, in argument order then sorted walk order.
pub fn receipt_files(roots: &[PathBuf]) -> Result<Walk, InputError> {
    let mut walk = Walk::default();
    for root in roots {
        let metadata = std::fs::metadata(root).map_err(|error| InputError {
            path: root.clone(),
            error,
        })?;
        if !metadata.is_dir() {
            walk.receipts.push(ReceiptFile {
                counter: counter_of(root),
                path: root.clone(),
            });
            continue;
        }
        let walker = walkdir::WalkDir::new(root)
            .follow_links(false)
            .sort_by_file_name();
        for entry in walker {
            let entry = entry.map_err(|error| InputError {
                path: error
                    .path()
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|| root.clone()),
                error: io::Error::other(error.to_string()),
            })?;
            let file_type = entry.file_type();
            if file_type.is_dir() {
                continue;
            }
            let name = entry.file_name().to_string_lossy();
            let is_receipt = file_type.is_file()
                && match names::classify(&name) {
                    NameKind::Receipt { .. } | NameKind::MisnamedReceipt => true,
                    NameKind::OtherJson => is_decision(entry.path()),
                    _ => false,
                };
            if is_receipt {
                walk.receipts.push(ReceiptFile {
                    counter: counter_of(entry.path()),
                    path: entry.into_path(),
                });
            } else {
                walk.other_files += 1;
            }
        }
    }
    Ok(walk)
}

fn counter_of(path: &Path) -> Option<u64> {
    let name = path.file_name()?.to_string_lossy();
    match names::classify(&name) {
        NameKind::Receipt { counter, .. } => Some(counter),
        _ => None,
    }
}

/// A `.json` file under another name that holds a seal-host decision record.
fn is_decision(path: &Path) -> bool {
    crate::input::read_file_capped(path, crate::audit::MAX_RECEIPT_BYTES)
        .ok()
        .and_then(|bytes| crate::receipt::parse(&bytes).ok())
        .is_some_and(|map| {
            map.get("record_type").and_then(|t| t.as_str()) == Some("seal.authorization-decision")
        })
}
