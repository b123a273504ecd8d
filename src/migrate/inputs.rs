//! Which files are receipts to migrate (docs/formats.md): a file given
//! by name is one, and so is standard input (`-`, read once, whole); a directory is walked in
//! sorted order without following symbolic links, and its `receipt-*.json` files (and other
//! `.json` files whose `record_type` is a seal-host decision) are receipts; everything else
//! (state files, the signing seed, temporary files) is counted, not read. The order is
//! stable, so reruns agree. A receipt that cannot be read ([`read`]) stops the run: it could
//! not be checked, and a label for it would be a guess.

use crate::audit::names::{self, NameKind};
use crate::input::{Input, Unreadable};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One receipt file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceiptFile {
    pub path: PathBuf,
    /// The 20-digit counter of its name, when it follows seal-host's naming.
    pub counter: Option<u64>,
    /// Standard input's bytes, read when the walk met `-`.
    pub stdin: Option<Arc<[u8]>>,
}

impl ReceiptFile {
    /// The path as given on the command line, joined with the walked names.
    pub fn shown(&self) -> String {
        self.path.display().to_string()
    }
}

/// Reads a receipt file into `buffer` (cleared first) with no more system calls than open,
/// read and close. A file that cannot be read, or is larger than the audit's limit, was not
/// checked ([`Unreadable`]).
pub fn read(file: &ReceiptFile, buffer: &mut Vec<u8>) -> Result<(), Unreadable> {
    buffer.clear();
    if let Some(bytes) = &file.stdin {
        buffer.extend_from_slice(bytes);
        return Ok(());
    }
    let input = Input::Path(file.path.clone());
    let unreadable = |source| Unreadable::new(&input, source);
    let mut opened = crate::input::open_file(&file.path).map_err(unreadable)?;
    let limit = crate::audit::MAX_RECEIPT_BYTES as usize;
    // Receipts are about 10 KB: one read takes all of it, the next sees the end.
    crate::input::read_into(&mut opened, 16 * 1024, limit, buffer).map_err(unreadable)?;
    if buffer.len() > limit {
        buffer.clear();
        return Err(unreadable(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {limit} bytes, not read"),
        )));
    }
    Ok(())
}

/// The receipts under some roots, in walk order.
#[derive(Debug, Default)]
pub struct Walk {
    pub receipts: Vec<ReceiptFile>,
    /// Files that are not receipts (state files, keys, temporary files, symbolic links…).
    pub other_files: u64,
}

/// Lists the receipts under `roots`, in argument order then sorted walk order. A root or a
/// directory under it that cannot be read stops the listing: migration does not run on part
/// of the input (`unreadable-input`, could not check).
pub fn receipt_files(roots: &[PathBuf]) -> Result<Walk, Unreadable> {
    let unreadable = |path: &Path, error: io::Error| {
        Unreadable::new(&Input::Path(path.to_path_buf()), error).coded("unreadable-input")
    };
    let mut walk = Walk::default();
    for root in roots {
        if Input::new(root).is_stdin() {
            let bytes = Input::Stdin
                .read_capped(crate::audit::MAX_RECEIPT_BYTES)
                .map_err(|error| Unreadable::new(&Input::Stdin, error).coded("unreadable-input"))?;
            walk.receipts.push(ReceiptFile {
                path: root.clone(),
                counter: None,
                stdin: Some(bytes.into()),
            });
            continue;
        }
        let metadata = std::fs::metadata(root).map_err(|error| unreadable(root, error))?;
        if !metadata.is_dir() {
            walk.receipts.push(ReceiptFile {
                counter: counter_of(root),
                path: root.clone(),
                stdin: None,
            });
            continue;
        }
        let walker = walkdir::WalkDir::new(root)
            .follow_links(false)
            .sort_by_file_name();
        for entry in walker {
            let entry = entry.map_err(|error| {
                let path = error.path().unwrap_or(root).to_path_buf();
                let shown = error.to_string();
                let error = error
                    .into_io_error()
                    .unwrap_or_else(|| io::Error::other(shown));
                unreadable(&path, error)
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
                    stdin: None,
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
