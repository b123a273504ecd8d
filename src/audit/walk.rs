//! The audit's walk: every root in sorted order, never following a symbolic link, each file
//! kept compactly (a receipt's name as its counter and 32-byte hash, the walk's metadata as
//! a keyed fingerprint), its full path re-derived byte for byte when needed. State files are
//! read during the walk so the receipt checks can rely on them; modes are judged here so the
//! metadata need not be kept.

use super::dir::DirState;
use super::names::{self, NameKind};
use super::{AuditError, MAX_RECEIPT_BYTES};
use crate::atomic_write::unix_mode;
use crate::chain;
use crate::finding::{Code, Finding};
use std::collections::{BTreeMap, HashMap};
use std::ffi::OsStr;
use std::fs::Metadata;
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::path::{Path, PathBuf};

/// One walked entry: 64 bytes.
#[derive(Debug)]
pub struct Item {
    name: Name,
    /// [`Walk::stamp`] of the metadata the walk saw; 0 when it could not be read.
    pub stamp: u64,
    pub dir: u32,
    pub kind: ItemKind,
}

/// A file's name in its directory, or its whole path when joining the two would not give
/// back the walk's bytes.
#[derive(Debug)]
enum Name {
    /// `receipt-<counter:020>-<hash as lowercase hex>.json`.
    Receipt {
        counter: u64,
        hash: [u8; 32],
    },
    Other(Box<OsStr>),
    Path(Box<Path>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemKind {
    File,
    Symlink,
    Special,
    /// Why is in [`Walk::unreadable`].
    Unreadable,
}

#[derive(Debug, Default)]
pub struct Dir {
    pub path: PathBuf,
    pub mode: Option<u32>,
    pub is_receipt_dir: bool,
    pub state: DirState,
}

/// Everything the walk found, in walk order.
#[derive(Debug, Default)]
pub struct Walk {
    pub items: Vec<Item>,
    pub dirs: Vec<Dir>,
    /// Why each unreadable entry (by item index) could not be walked.
    unreadable: HashMap<u32, String>,
    /// Files seal-host writes whose mode is not 0600: `(item index, mode)`, reported once
    /// their directory is known to be a receipt directory.
    loose_modes: Vec<(u32, u32)>,
    /// The key of the metadata fingerprints (random per audit, so a file cannot be
    /// prepared to collide).
    keys: std::hash::RandomState,
}

impl Walk {
    /// The path of the walk's item number `index`, as the walk saw it.
    pub fn path(&self, index: u32) -> PathBuf {
        let item = &self.items[index as usize];
        let dir = &self.dirs[item.dir as usize].path;
        match &item.name {
            Name::Receipt { counter, hash } => dir.join(receipt_name(*counter, hash)),
            Name::Other(name) => dir.join(&**name),
            Name::Path(path) => path.to_path_buf(),
        }
    }

    /// What a file is by its name.
    pub fn name_kind(&self, index: u32) -> NameKind {
        match &self.items[index as usize].name {
            Name::Receipt { counter, hash } => NameKind::Receipt {
                counter: *counter,
                hash: crate::digest::hex_lower(hash),
            },
            Name::Other(name) => names::classify(&name.to_string_lossy()),
            Name::Path(path) => {
                names::classify(&path.file_name().unwrap_or_default().to_string_lossy())
            }
        }
    }

    pub fn unreadable(&self, index: u32) -> &str {
        self.unreadable.get(&index).map_or("", String::as_str)
    }

    /// A keyed 64-bit fingerprint of what identifies a file's state (device, inode, size,
    /// modification and change times); never 0.
    pub fn stamp(&self, metadata: &Metadata) -> u64 {
        let mut hasher = self.keys.build_hasher();
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            for field in [
                metadata.dev(),
                metadata.ino(),
                metadata.len(),
                metadata.mtime() as u64,
                metadata.mtime_nsec() as u64,
                metadata.ctime() as u64,
                metadata.ctime_nsec() as u64,
            ] {
                hasher.write_u64(field);
            }
        }
        #[cfg(not(unix))]
        {
            hasher.write_u64(metadata.len());
            if let Ok(modified) = metadata.modified() {
                std::hash::Hash::hash(&modified, &mut hasher);
            }
        }
        hasher.finish().max(1)
    }

    /// seal-host's modes: receipt directories 0700, the files it writes there 0600.
    pub fn mode_findings(&self) -> Vec<Finding> {
        let mut findings = Vec::new();
        for dir in self.dirs.iter().filter(|d| d.is_receipt_dir) {
            if let Some(mode) = dir.mode.filter(|m| m & 0o777 != 0o700) {
                findings.push(Finding::new(
                    Code::ModeNotPrivate,
                    Some(dir.path.clone()),
                    format!(
                        "receipt directory has mode {:04o}, seal-host requires 0700",
                        mode & 0o777
                    ),
                ));
            }
        }
        for &(index, mode) in &self.loose_modes {
            if !self.dirs[self.items[index as usize].dir as usize].is_receipt_dir {
                continue;
            }
            findings.push(Finding::new(
                Code::ModeNotPrivate,
                Some(self.path(index)),
                format!(
                    "file has mode {:04o}, seal-host requires 0600",
                    mode & 0o777
                ),
            ));
        }
        findings
    }

    fn push(&mut self, path: PathBuf, dir: u32, kind: ItemKind, metadata: Option<&Metadata>) {
        let index = self.items.len() as u32;
        let stamp = metadata.map_or(0, |m| self.stamp(m));
        let file_name = path.file_name().unwrap_or_default();
        let name_kind = names::classify(&file_name.to_string_lossy());
        // Only the names seal-host writes are held to its file mode.
        if kind == ItemKind::File && !matches!(name_kind, NameKind::Other | NameKind::OtherJson) {
            if let Some(mode) = metadata.and_then(unix_mode).filter(|m| m & 0o777 != 0o600) {
                self.loose_modes.push((index, mode));
            }
        }
        let rejoined = self.dirs[dir as usize].path.join(file_name);
        let name = if rejoined.as_os_str() != path.as_os_str() {
            Name::Path(path.into_boxed_path())
        } else if let NameKind::Receipt { counter, hash } = name_kind {
            Name::Receipt {
                counter,
                hash: digest_bytes(&hash),
            }
        } else {
            Name::Other(file_name.into())
        };
        self.items.push(Item {
            name,
            stamp,
            dir,
            kind,
        });
    }
}

impl super::dir::Files for Walk {
    fn path(&self, file: u32) -> PathBuf {
        Walk::path(self, file)
    }

    fn counter(&self, file: u32) -> Option<u64> {
        match &self.items[file as usize].name {
            Name::Receipt { counter, .. } => Some(*counter),
            // A name kept whole may still be a receipt's.
            Name::Path(_) => match self.name_kind(file) {
                NameKind::Receipt { counter, .. } => Some(counter),
                _ => None,
            },
            Name::Other(_) => None,
        }
    }
}

fn receipt_name(counter: u64, hash: &[u8; 32]) -> String {
    format!(
        "receipt-{counter:020}-{}.json",
        crate::digest::hex_lower(hash)
    )
}

/// The bytes of 64 lowercase hex digits (as [`names::classify`] accepts them).
fn digest_bytes(hex: &str) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    if let Some(decoded) = crate::digest::hex_decode(hex) {
        if decoded.len() == 32 {
            bytes.copy_from_slice(&decoded);
        }
    }
    bytes
}

/// Walks every root, sorted by name, never following symbolic links.
pub fn walk(roots: &[PathBuf]) -> Result<Walk, AuditError> {
    let mut walk = Walk::default();
    let mut dir_index: BTreeMap<PathBuf, u32> = BTreeMap::new();
    for root in roots {
        std::fs::metadata(root).map_err(|e| AuditError::Root(root.clone(), e))?;
        let walker = walkdir::WalkDir::new(root)
            .follow_links(false)
            .sort_by_file_name();
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    let path = error
                        .path()
                        .map(Path::to_path_buf)
                        .unwrap_or_else(|| root.clone());
                    if error.depth() == 0 {
                        return Err(AuditError::Root(path, io::Error::other(error.to_string())));
                    }
                    let parent = path.parent().unwrap_or(root).to_path_buf();
                    let dir = dir_for(&parent, &mut walk.dirs, &mut dir_index);
                    let index = walk.items.len() as u32;
                    walk.unreadable.insert(index, error.to_string());
                    walk.push(path, dir, ItemKind::Unreadable, None);
                    continue;
                }
            };
            let file_type = entry.file_type();
            if file_type.is_dir() {
                let dir = dir_for(entry.path(), &mut walk.dirs, &mut dir_index);
                walk.dirs[dir as usize].mode = entry.metadata().ok().as_ref().and_then(unix_mode);
                continue;
            }
            let parent = entry.path().parent().unwrap_or(root).to_path_buf();
            let dir = dir_for(&parent, &mut walk.dirs, &mut dir_index);
            let metadata = entry.metadata().ok();
            let kind = if file_type.is_symlink() {
                ItemKind::Symlink
            } else if file_type.is_file() {
                let name = entry.file_name().to_string_lossy();
                let kind = names::classify(&name);
                note_state_file(&kind, entry.path(), &mut walk.dirs[dir as usize]);
                ItemKind::File
            } else {
                ItemKind::Special
            };
            walk.push(entry.into_path(), dir, kind, metadata.as_ref());
        }
    }
    walk.items.shrink_to_fit();
    Ok(walk)
}

fn dir_for(path: &Path, dirs: &mut Vec<Dir>, index: &mut BTreeMap<PathBuf, u32>) -> u32 {
    if let Some(&i) = index.get(path) {
        return i;
    }
    dirs.push(Dir {
        path: path.to_path_buf(),
        ..Dir::default()
    });
    let i = (dirs.len() - 1) as u32;
    index.insert(path.to_path_buf(), i);
    i
}

/// Marks receipt directories and reads their state files.
fn note_state_file(kind: &NameKind, path: &Path, dir: &mut Dir) {
    let read = |limit: u64| {
        crate::input::read_file_capped(path, limit).map_err(|e| format!("cannot read: {e}"))
    };
    match kind {
        NameKind::Receipt { .. }
        | NameKind::MisnamedReceipt
        | NameKind::SigningKey
        | NameKind::Temp => {
            dir.is_receipt_dir = true;
        }
        NameKind::HeadState => {
            dir.is_receipt_dir = true;
            let parsed = read(chain::MAX_STATE_BYTES)
                .and_then(|bytes| {
                    super::dir::refuse_duplicates(path, bytes, &mut dir.state.refused)
                })
                .and_then(|bytes| chain::parse_state(&bytes));
            dir.state.head_state = Some((path.to_path_buf(), parsed));
        }
        NameKind::OperationState => {
            dir.is_receipt_dir = true;
            // One entry per operation: it grows with the host's history, like the receipts.
            let parsed = read(MAX_RECEIPT_BYTES)
                .and_then(|bytes| {
                    super::dir::refuse_duplicates(path, bytes, &mut dir.state.refused)
                })
                .and_then(|bytes| super::dir::parse_operation_state(&bytes));
            dir.state.operation_state = Some((path.to_path_buf(), parsed));
        }
        NameKind::OtherJson | NameKind::Other => {}
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn transient_and_state_names_mark_a_receipt_directory() {
        let mut dir = Dir::default();
        note_state_file(&NameKind::Temp, Path::new("x"), &mut dir);
        assert!(dir.is_receipt_dir);
    }

    #[test]
    fn an_item_is_64_bytes() {
        assert_eq!(std::mem::size_of::<Item>(), 64);
    }

    #[test]
    fn paths_come_back_byte_for_byte() {
        let mut walk = Walk::default();
        for dir in ["d", "d//", "./d/"] {
            walk.dirs.push(Dir {
                path: PathBuf::from(dir),
                ..Dir::default()
            });
        }
        let hash = "460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793";
        let written = [
            (0, format!("d/receipt-00000000000000000001-{hash}.json")),
            (0, "d/other".to_owned()),
            (1, "d//other".to_owned()),
            (1, "d/other".to_owned()),
            (2, "./d/receipt-1.json".to_owned()),
        ];
        for (dir, path) in &written {
            walk.push(PathBuf::from(path), *dir, ItemKind::File, None);
        }
        for (index, (_, path)) in written.iter().enumerate() {
            assert_eq!(walk.path(index as u32).as_os_str(), OsStr::new(path));
        }
        assert!(matches!(
            walk.items[0].name,
            Name::Receipt { counter: 1, .. }
        ));
        assert_eq!(
            walk.name_kind(0),
            NameKind::Receipt {
                counter: 1,
                hash: hash.to_owned()
            }
        );
        assert_eq!(walk.name_kind(4), NameKind::MisnamedReceipt);
    }
}
