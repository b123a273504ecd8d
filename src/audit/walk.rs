//! The audit's walk: every root in sorted order, never following a symbolic link, each file
//! kept compactly (a receipt's name as its counter and 32-byte hash, the walk's metadata as
//! a keyed fingerprint), its full path re-derived byte for byte when needed. State files are
//! read during the walk so the receipt checks can rely on them; modes are judged here so the
//! metadata need not be kept.

use super::dir::{DirState, Operations, StateError};
use super::names::{self, NameKind};
use super::operation_state::{read_streamed, read_streamed_capped, Streamed, STREAMED_OVER};
use super::{AuditError, MAX_RECEIPT_BYTES};
use crate::atomic_write::unix_mode;
use crate::chain;
use crate::finding::{Code, Finding};
use crate::receipt::pin::{Inside, PinFile};
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
    /// Whether the walk has gone through this directory's entries (a directory is walked
    /// once, whatever path reaches it again).
    walked: bool,
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
    /// The files held to seal-host's file mode (by their names), in walk order, until their
    /// metadata is read ([`Walk::read_metadata`]).
    mode_held: Vec<u32>,
    /// The items' indices in the order a sorted walk yields them.
    pub order: Vec<u32>,
    /// Directories in the order the sorted walk order meets them (with repeats).
    met: Vec<u32>,
    /// The key of the metadata fingerprints (random per audit, so a file cannot be
    /// prepared to collide).
    keys: std::hash::RandomState,
    /// `directory-repeated` findings: directories reached again under another path, in the
    /// order met.
    pub repeated: Vec<Finding>,
    /// Per key file compared (in the order given): the first file of the evidence that is
    /// that key file, or a copy of its bytes.
    pub keys_found: Vec<Option<Inside>>,
}

/// What [`Walk::read_metadata`] learns of one entry: its fingerprint, its Unix mode, and which
/// of the given key files (by index) it is, and how.
type EntryMetadata = (u64, Option<u32>, Vec<(usize, Inside)>);

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

    /// seal-host's modes: receipt directories 0700, the files it writes there 0600. Made one at
    /// a time as they are written out: a copy of a receipt directory made with another umask
    /// has a finding for every file, and they need not all be held at once.
    pub fn mode_findings(&self) -> impl Iterator<Item = Finding> + '_ {
        let dirs = self
            .dirs
            .iter()
            .filter(|d| d.is_receipt_dir)
            .filter_map(|dir| {
                let mode = dir.mode.filter(|m| m & 0o777 != 0o700)?;
                Some(Finding::new(
                    Code::ModeNotPrivate,
                    Some(dir.path.clone()),
                    format!(
                        "receipt directory has mode {:04o}, seal-host requires 0700",
                        mode & 0o777
                    ),
                ))
            });
        let files = self
            .loose_modes
            .iter()
            .filter(|&&(index, _)| {
                self.dirs[self.items[index as usize].dir as usize].is_receipt_dir
            })
            .map(|&(index, mode)| {
                Finding::new(
                    Code::ModeNotPrivate,
                    Some(self.path(index)),
                    format!(
                        "file has mode {:04o}, seal-host requires 0600",
                        mode & 0o777
                    ),
                )
            });
        dirs.chain(files)
    }

    /// Adds one walked entry; its metadata is read later, for all entries at once
    /// ([`Walk::read_metadata`]).
    fn push(&mut self, path: PathBuf, dir: u32, kind: ItemKind, name_kind: NameKind) {
        let index = self.items.len() as u32;
        let file_name = path.file_name().unwrap_or_default();
        // Only the names seal-host writes are held to its file mode.
        if kind == ItemKind::File && !matches!(name_kind, NameKind::Other | NameKind::OtherJson) {
            self.mode_held.push(index);
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
            stamp: 0,
            dir,
            kind,
        });
    }

    /// Reads every walked entry's metadata (without following a link), on the pool's threads:
    /// each entry's fingerprint, and the mode of each file held to seal-host's. An entry whose
    /// metadata cannot be read keeps fingerprint 0 (its read then reports what it finds).
    /// Each file is also compared with the key files given (the pinned receipt key's, the
    /// approval keys').
    fn read_metadata(&mut self, keys: &[PinFile]) {
        use rayon::prelude::*;
        let read: Vec<EntryMetadata> = (0..self.items.len() as u32)
            .into_par_iter()
            .map(|index| {
                if self.items[index as usize].kind == ItemKind::Unreadable {
                    return (0, None, Vec::new());
                }
                let path = self.path(index);
                match std::fs::symlink_metadata(&path) {
                    Ok(metadata) => (
                        self.stamp(&metadata),
                        unix_mode(&metadata),
                        (keys.iter().enumerate())
                            .filter_map(|(key, file)| Some((key, file.matches(&path, &metadata)?)))
                            .collect(),
                    ),
                    Err(_) => (0, None, Vec::new()),
                }
            })
            .collect();
        for (item, (stamp, ..)) in self.items.iter_mut().zip(&read) {
            item.stamp = *stamp;
        }
        for index in std::mem::take(&mut self.mode_held) {
            if let Some(mode) = read[index as usize].1.filter(|m| m & 0o777 != 0o600) {
                self.loose_modes.push((index, mode));
            }
        }
        // For each key, the first found in walk order.
        let found: Vec<(u32, usize, Inside)> = (read.into_iter().enumerate())
            .flat_map(|(index, (.., found))| {
                (found.into_iter()).map(move |(key, inside)| (index as u32, key, inside))
            })
            .collect();
        let position = self.positions(found.iter().map(|(index, ..)| index));
        self.keys_found = vec![None; keys.len()];
        for (key, slot) in self.keys_found.iter_mut().enumerate() {
            *slot = (found.iter())
                .filter(|(_, of, _)| *of == key)
                .min_by_key(|(index, ..)| position.get(index).copied())
                .map(|(.., inside)| inside.clone());
        }
    }
}

impl super::dir::Files for Walk {
    fn path(&self, file: u32) -> PathBuf {
        Walk::path(self, file)
    }

    fn name_hash(&self, file: u32) -> Option<[u8; 32]> {
        match &self.items[file as usize].name {
            Name::Receipt { hash, .. } => Some(*hash),
            Name::Other(_) | Name::Path(_) => None,
        }
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

/// What a path's last component names.
fn classify_name(path: &Path) -> NameKind {
    names::classify(&path.file_name().unwrap_or_default().to_string_lossy())
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

/// Walks every root, never following symbolic links, and puts the files in the order a walk
/// sorted by name yields them (a directory's entries by name, each subdirectory's contents
/// at its name). The walk itself reads directories in the order the system gives: a sorted
/// walk would hold every entry of a directory with its whole path at once.
pub fn walk(roots: &[PathBuf], keys: &[PinFile]) -> Result<Walk, AuditError> {
    let mut walk = Walk::default();
    let mut tree = Tree::default();
    let mut dir_index: BTreeMap<PathBuf, u32> = BTreeMap::new();
    let mut state_files: Vec<u32> = Vec::new();
    for root in roots {
        let root_is_dir = std::fs::metadata(root)
            .map_err(|e| AuditError::Root(root.clone(), e))?
            .is_dir();
        let start = walk.items.len();
        let mut root_dir = None;
        let mut entries = walkdir::WalkDir::new(root).follow_links(false).into_iter();
        while let Some(entry) = entries.next() {
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
                    let dir = tree.dir_for(&parent, &mut walk.dirs, &mut dir_index);
                    let index = walk.items.len() as u32;
                    walk.unreadable.insert(index, error.to_string());
                    let name_kind = classify_name(&path);
                    walk.push(path, dir, ItemKind::Unreadable, name_kind);
                    continue;
                }
            };
            let file_type = entry.file_type();
            // A root given as a link to a directory is walked as that directory (links met
            // inside it are not followed).
            if file_type.is_dir() || (entry.depth() == 0 && root_is_dir) {
                let dir = tree.dir_for(entry.path(), &mut walk.dirs, &mut dir_index);
                if walk.dirs[dir as usize].walked {
                    // The same directory again (given twice, under another spelling, through
                    // a linked root, inside another root, or a mount): its receipts are
                    // neither checked nor counted twice, and its directory checks run once.
                    walk.repeated.push(super::dir::repeated(
                        entry.path(),
                        &walk.dirs[dir as usize].path,
                    ));
                    entries.skip_current_dir();
                    continue;
                }
                walk.dirs[dir as usize].walked = true;
                walk.dirs[dir as usize].mode = entry.metadata().ok().as_ref().and_then(unix_mode);
                if entry.depth() == 0 {
                    root_dir = Some(dir);
                } else {
                    let parent = entry.path().parent().unwrap_or(root);
                    let parent = tree.dir_for(parent, &mut walk.dirs, &mut dir_index);
                    tree.link(parent, dir);
                }
                continue;
            }
            let parent = entry.path().parent().unwrap_or(root);
            let dir = tree.dir_for(parent, &mut walk.dirs, &mut dir_index);
            let name_kind = classify_name(entry.path());
            let kind = if file_type.is_symlink() {
                ItemKind::Symlink
            } else if file_type.is_file() {
                match name_kind {
                    NameKind::HeadState | NameKind::OperationState => {
                        state_files.push(walk.items.len() as u32);
                    }
                    _ => note_state_file(&name_kind, entry.path(), &mut walk.dirs[dir as usize]),
                }
                ItemKind::File
            } else {
                ItemKind::Special
            };
            walk.push(entry.into_path(), dir, kind, name_kind);
        }
        walk.order_root(&tree, start, root_dir);
    }
    walk.items.shrink_to_fit();
    walk.read_metadata(keys);
    walk.rank_dirs();
    // State files are read in walk order, so their findings come in that order.
    let position = walk.positions(
        state_files
            .iter()
            .chain(walk.loose_modes.iter().map(|m| &m.0)),
    );
    state_files.sort_by_key(|index| position.get(index).copied());
    for index in state_files {
        let kind = walk.name_kind(index);
        let path = walk.path(index);
        let dir = walk.items[index as usize].dir as usize;
        note_state_file(&kind, &path, &mut walk.dirs[dir]);
    }
    let mut loose_modes = std::mem::take(&mut walk.loose_modes);
    loose_modes.sort_by_key(|(index, _)| position.get(index).copied());
    walk.loose_modes = loose_modes;
    Ok(walk)
}

/// The directories as the walk met them: each one's subdirectories, and the order a sorted
/// walk registers them in.
#[derive(Debug, Default)]
struct Tree {
    children: Vec<Vec<u32>>,
    linked: Vec<bool>,
    /// The directory asked for last: a directory's entries come together, so most lookups
    /// are answered by comparing bytes instead of searching the map of paths.
    last: Option<(PathBuf, u32)>,
    /// Each directory by its device and inode, so another path to it finds the same one.
    ids: HashMap<(u64, u64), u32>,
}

impl Tree {
    fn dir_for(
        &mut self,
        path: &Path,
        dirs: &mut Vec<Dir>,
        index: &mut BTreeMap<PathBuf, u32>,
    ) -> u32 {
        if let Some((last, dir)) = &self.last {
            if last.as_os_str() == path.as_os_str() {
                return *dir;
            }
        }
        let dir = dir_for(path, dirs, index, &mut self.ids);
        self.last = Some((path.to_path_buf(), dir));
        while self.children.len() < dirs.len() {
            self.children.push(Vec::new());
            self.linked.push(false);
        }
        dir
    }

    fn link(&mut self, parent: u32, child: u32) {
        if !self.linked[child as usize] {
            self.linked[child as usize] = true;
            self.children[parent as usize].push(child);
        }
    }
}

impl Walk {
    /// Where each of `indices` stands in walk order.
    fn positions<'i>(&self, indices: impl Iterator<Item = &'i u32>) -> HashMap<u32, usize> {
        let wanted: std::collections::HashSet<u32> = indices.copied().collect();
        if wanted.is_empty() {
            return HashMap::new();
        }
        self.order
            .iter()
            .enumerate()
            .filter(|(_, index)| wanted.contains(index))
            .map(|(position, index)| (*index, position))
            .collect()
    }

    /// The file name an item sorts by.
    fn sort_name(&self, index: u32) -> std::borrow::Cow<'_, OsStr> {
        match &self.items[index as usize].name {
            Name::Receipt { counter, hash } => {
                std::borrow::Cow::Owned(receipt_name(*counter, hash).into())
            }
            Name::Other(name) => std::borrow::Cow::Borrowed(name),
            Name::Path(path) => std::borrow::Cow::Borrowed(path.file_name().unwrap_or_default()),
        }
    }

    fn compare_names(&self, a: u32, b: u32) -> std::cmp::Ordering {
        match (&self.items[a as usize].name, &self.items[b as usize].name) {
            // The fixed-width counter and lowercase hex sort as the name's bytes do.
            (
                Name::Receipt { counter, hash },
                Name::Receipt {
                    counter: other_counter,
                    hash: other_hash,
                },
            ) => (counter, hash).cmp(&(other_counter, other_hash)),
            _ => self.sort_name(a).cmp(&self.sort_name(b)),
        }
    }

    /// Appends the items the walk of one root found (from `start`) to the walk order.
    fn order_root(&mut self, tree: &Tree, start: usize, root_dir: Option<u32>) {
        let end = self.items.len();
        let mut found: Vec<u32> = (start as u32..end as u32).collect();
        found.sort_by(|&a, &b| {
            let dir = |i: u32| self.items[i as usize].dir;
            dir(a).cmp(&dir(b)).then_with(|| self.compare_names(a, b))
        });
        let mut groups: HashMap<u32, &[u32]> = HashMap::new();
        for group in
            found.chunk_by(|&a, &b| self.items[a as usize].dir == self.items[b as usize].dir)
        {
            groups.insert(self.items[group[0] as usize].dir, group);
        }
        let mut order = Vec::with_capacity(end - start);
        let mut met = Vec::new();
        let meet = |met: &mut Vec<u32>, dir: u32| {
            if met.last() != Some(&dir) {
                met.push(dir);
            }
        };
        if let Some(root) = root_dir {
            // Depth first, merging each directory's files and subdirectories by name (a
            // subdirectory before a file of the same name: its own unreadable entry).
            struct Frame<'g> {
                files: &'g [u32],
                subdirs: Vec<u32>,
                next_subdir: usize,
            }
            let frame = |dir: u32, met: &mut Vec<u32>| {
                meet(met, dir);
                let mut subdirs = tree.children[dir as usize].clone();
                subdirs.sort_by(|&a, &b| {
                    self.dirs[a as usize]
                        .path
                        .file_name()
                        .cmp(&self.dirs[b as usize].path.file_name())
                });
                Frame {
                    files: groups.get(&dir).copied().unwrap_or_default(),
                    subdirs,
                    next_subdir: 0,
                }
            };
            let mut stack = vec![frame(root, &mut met)];
            while let Some(top) = stack.last_mut() {
                let subdir = top.subdirs.get(top.next_subdir).copied();
                let subdir_first = match (subdir, top.files.first()) {
                    (Some(subdir), Some(&file)) => {
                        self.dirs[subdir as usize]
                            .path
                            .file_name()
                            .unwrap_or_default()
                            <= &*self.sort_name(file)
                    }
                    (Some(_), None) => true,
                    (None, Some(_)) => false,
                    (None, None) => {
                        stack.pop();
                        continue;
                    }
                };
                if let (true, Some(subdir)) = (subdir_first, subdir) {
                    top.next_subdir += 1;
                    let next = frame(subdir, &mut met);
                    stack.push(next);
                } else if let Some((&file, rest)) = top.files.split_first() {
                    top.files = rest;
                    meet(&mut met, self.items[file as usize].dir);
                    order.push(file);
                }
            }
        }
        // Whatever the tree did not reach (a root that is a file) comes in the order found.
        if order.len() != end - start {
            let mut placed = vec![false; end - start];
            for &index in &order {
                placed[index as usize - start] = true;
            }
            for (offset, placed) in placed.into_iter().enumerate() {
                if !placed {
                    let index = (start + offset) as u32;
                    meet(&mut met, self.items[index as usize].dir);
                    order.push(index);
                }
            }
        }
        self.order.extend(order);
        self.met.extend(met);
    }

    /// Puts the directories in the order a sorted walk meets them (their findings come in
    /// that order).
    fn rank_dirs(&mut self) {
        let mut tree_rank: Vec<Option<u32>> = vec![None; self.dirs.len()];
        let mut ranked = 0u32;
        for &dir in &self.met {
            let rank = &mut tree_rank[dir as usize];
            if rank.is_none() {
                *rank = Some(ranked);
                ranked += 1;
            }
        }
        let mut new_index = vec![0u32; self.dirs.len()];
        let mut by_rank: Vec<u32> = (0..self.dirs.len() as u32).collect();
        by_rank.sort_by_key(|&dir| (tree_rank[dir as usize].unwrap_or(u32::MAX), dir));
        for (new, &old) in by_rank.iter().enumerate() {
            new_index[old as usize] = new as u32;
        }
        let mut dirs: Vec<Option<Dir>> = std::mem::take(&mut self.dirs)
            .into_iter()
            .map(Some)
            .collect();
        self.dirs = by_rank
            .iter()
            .map(|&old| dirs[old as usize].take().unwrap_or_default())
            .collect();
        for item in &mut self.items {
            item.dir = new_index[item.dir as usize];
        }
        self.met = Vec::new();
    }
}

/// The directory at `path`: one per directory on disk, found again by any other path to it
/// (another spelling, a linked root, a mount), keeping the path it was first reached by.
fn dir_for(
    path: &Path,
    dirs: &mut Vec<Dir>,
    index: &mut BTreeMap<PathBuf, u32>,
    ids: &mut HashMap<(u64, u64), u32>,
) -> u32 {
    if let Some(&i) = index.get(path) {
        return i;
    }
    let id = super::dir::dir_identity(path);
    if let Some(&i) = id.and_then(|id| ids.get(&id)) {
        index.insert(path.to_path_buf(), i);
        return i;
    }
    dirs.push(Dir {
        path: path.to_path_buf(),
        ..Dir::default()
    });
    let i = (dirs.len() - 1) as u32;
    index.insert(path.to_path_buf(), i);
    if let Some(id) = id {
        ids.insert(id, i);
    }
    i
}

/// Reads a listed file's bytes (at most the limit given are used), or says why not.
pub type ReadListed<'r> = dyn FnMut(&Path, u64) -> Result<Vec<u8>, String> + 'r;

/// A walk over a listing made elsewhere (object storage: `sealkit.dask` lists with fsspec),
/// in the order given: each file's directory is the part of its path before its name, and
/// the state files' bytes come from `read` (capped at `limit` bytes). There are no links,
/// modes or unreadable entries in such a listing, and no file is compared with the pinned key.
pub fn listed(files: &[PathBuf], read: &mut ReadListed<'_>) -> Walk {
    let mut walk = Walk::default();
    let mut dir_index: HashMap<PathBuf, u32> = HashMap::new();
    for path in files {
        let parent = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let next = walk.dirs.len() as u32;
        let dir = *dir_index.entry(parent.clone()).or_insert_with(|| {
            walk.dirs.push(Dir {
                path: parent,
                walked: true,
                ..Dir::default()
            });
            next
        });
        let name_kind = classify_name(path);
        note_state_file_read(&name_kind, path, &mut walk.dirs[dir as usize], read);
        walk.order.push(walk.items.len() as u32);
        walk.push(path.clone(), dir, ItemKind::File, name_kind);
    }
    walk
}

/// Marks receipt directories and reads their state files (an operation state over
/// [`STREAMED_OVER`] bytes as a stream).
fn note_state_file(kind: &NameKind, path: &Path, dir: &mut Dir) {
    if *kind == NameKind::OperationState {
        let large = std::fs::symlink_metadata(path).is_ok_and(|m| m.len() > STREAMED_OVER);
        if large {
            dir.is_receipt_dir = true;
            let parsed = read_streamed_state(path, &mut dir.state.refused);
            dir.state.operation_state = Some((path.to_path_buf(), parsed));
            return;
        }
        // Within the limit, the state is read as a stream too (its sorted pairs, 80 bytes an
        // operation): read whole, its bytes and the tree the check for repeated names builds
        // cost about 800 bytes an operation at once, the audit's peak from about 50,000
        // receipts up to the limit (docs/performance.md, issue 40 phase 8). A state the
        // stream takes is one the whole reading takes, with the same operations; anything
        // else (not JSON, a name written twice, a wrong schema, past the stream's limits) is
        // read whole as before, so its findings and messages are the whole reading's.
        if let Some(operations) = read_small_streamed(path) {
            dir.is_receipt_dir = true;
            dir.state.operation_state = Some((path.to_path_buf(), Ok(operations)));
            return;
        }
    }
    note_state_file_read(kind, path, dir, &mut |path, limit| {
        crate::input::read_file_capped(path, limit).map_err(|e| format!("cannot read: {e}"))
    })
}

/// An operation state of at most [`STREAMED_OVER`] bytes read as a stream, when it is one
/// (`None`: anything else, to be read whole for its findings).
fn read_small_streamed(path: &Path) -> Option<Operations> {
    let file = crate::input::Input::Path(path.to_path_buf()).open().ok()?;
    read_streamed_capped(file, STREAMED_OVER).ok()
}

/// An operation state read as a stream: one that cannot be read, or is past the streamed
/// reading's limits, is an `unreadable-file` finding (not checked, exit 2), as
/// [`read_state`] has it; one read that is no operation state is [`StateError::Invalid`].
fn read_streamed_state(path: &Path, refused: &mut Vec<Finding>) -> Result<Operations, StateError> {
    let read = crate::input::Input::Path(path.to_path_buf())
        .open()
        .map_err(|e| Streamed::NotRead(format!("cannot read: {e}")))
        .and_then(read_streamed);
    read.map_err(|streamed| match streamed {
        Streamed::NotRead(why) => {
            refused.push(Finding::new(
                Code::UnreadableFile,
                Some(path.to_path_buf()),
                why,
            ));
            StateError::NotRead
        }
        Streamed::Invalid(why) => StateError::Invalid(why),
    })
}

/// [`note_state_file`], reading with `read` (a listing made elsewhere: every state file is
/// read whole, up to its limit).
fn note_state_file_read(
    kind: &NameKind,
    path: &Path,
    dir: &mut Dir,
    read_file: &mut ReadListed<'_>,
) {
    let mut read = |limit: u64| read_file(path, limit);
    match kind {
        NameKind::Receipt { .. }
        | NameKind::MisnamedReceipt
        | NameKind::SigningKey
        | NameKind::Temp => {
            dir.is_receipt_dir = true;
        }
        NameKind::HeadState => {
            dir.is_receipt_dir = true;
            let refused = &mut dir.state.refused;
            let parsed = read_state(path, chain::MAX_STATE_BYTES, &mut read, refused, |bytes| {
                chain::parse_state(bytes)
            });
            dir.state.head_state = Some((path.to_path_buf(), parsed));
        }
        NameKind::OperationState => {
            dir.is_receipt_dir = true;
            // One entry per operation: it grows with the host's history, like the receipts.
            let refused = &mut dir.state.refused;
            let parsed = read_state(path, MAX_RECEIPT_BYTES, &mut read, refused, |bytes| {
                super::dir::parse_operation_state(bytes)
            });
            dir.state.operation_state = Some((path.to_path_buf(), parsed));
        }
        NameKind::OtherJson | NameKind::Other => {}
    }
}

/// Reads and parses a state file. A file that cannot be read (gone, no permission, larger
/// than `limit`) is an `unreadable-file` finding, kept with the directory's other state
/// findings: its contents were not checked, so the run could not check everything (exit 2),
/// and no verdict is drawn from a limit of sealkit's own. A file that is read and does not
/// parse is [`StateError::Invalid`], which the directory checks report as a problem found.
fn read_state<T>(
    path: &Path,
    limit: u64,
    read: &mut impl FnMut(u64) -> Result<Vec<u8>, String>,
    refused: &mut Vec<Finding>,
    parse: impl FnOnce(&[u8]) -> Result<T, String>,
) -> Result<T, StateError> {
    let bytes = read(limit).map_err(|why| {
        refused.push(Finding::new(
            Code::UnreadableFile,
            Some(path.to_path_buf()),
            why,
        ));
        StateError::NotRead
    })?;
    super::dir::refuse_duplicates(path, bytes, refused)
        .and_then(|bytes| parse(&bytes))
        .map_err(StateError::Invalid)
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

    /// A state within the stream's limit is read as a stream when it is one, and what the
    /// directory checks get is what reading it whole gives (operations, or the error and
    /// `duplicate-member` / `unreadable-file` findings), for every state of the readings' own
    /// test, good and bad: names written twice anywhere (the whole reading's finding), past
    /// the stream's limits (read whole), not JSON, wrong schema. Seen red by hand with
    /// `read_small_streamed` taking a state the stream refuses as one without operations
    /// (`.or_else(|_| Ok(Operations::default()))`) and returning `Some(Default::default())`;
    /// that 1a006d9 read every small state whole is `tests/audit_memory.rs`'s to show.
    #[test]
    fn a_small_state_read_as_a_stream_is_what_reading_it_whole_gives() {
        let temp = tempfile::tempdir().unwrap();
        let path = temp.path().join(".seal-operation-state.json");
        let texts = super::super::operation_state::tests::state_texts();
        std::fs::write(&path, &texts[0]).unwrap();
        assert!(read_small_streamed(&path).is_some_and(|ops| ops.len() == 3));
        let mut streamed_some = 0;
        for text in &texts {
            std::fs::write(&path, text).unwrap();
            streamed_some += usize::from(read_small_streamed(&path).is_some());
            let (mut streamed, mut whole) = (Dir::default(), Dir::default());
            note_state_file(&NameKind::OperationState, &path, &mut streamed);
            note_state_file_read(&NameKind::OperationState, &path, &mut whole, &mut |p, l| {
                crate::input::read_file_capped(p, l).map_err(|e| format!("cannot read: {e}"))
            });
            assert_eq!(
                streamed.state.operation_state, whole.state.operation_state,
                "{text}"
            );
            assert_eq!(streamed.state.refused, whole.state.refused, "{text}");
            assert!(streamed.is_receipt_dir && whole.is_receipt_dir);
        }
        // The good states (three, one with members the reading ignores), taken as a stream.
        assert!(streamed_some >= 4, "{streamed_some}");
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
            let path = PathBuf::from(path);
            let name_kind = classify_name(&path);
            walk.push(path, *dir, ItemKind::File, name_kind);
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

    /// The order the audit reports files in is the order a walk sorted by name yields them,
    /// with subdirectories' contents at their names, across several roots, each directory
    /// walked once (the second root holds the first); directories too. Seen red with the
    /// subdirectory-or-file comparison turned round.
    #[test]
    fn the_walk_order_is_the_sorted_walks() {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().join("r");
        let hash = "460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793";
        let files = [
            format!("receipt-00000000000000000002-{hash}.json"),
            format!("receipt-00000000000000000010-{hash}.json"),
            "receipt-x.json".to_owned(),
            "a".to_owned(),
            "b/z".to_owned(),
            "b/c/d".to_owned(),
            "b/c/a".to_owned(),
            "b0".to_owned(),
            "bb/x".to_owned(),
            "e/".to_owned(),
            "Z".to_owned(),
            ".seal-audit-head.state".to_owned(),
        ];
        for file in &files {
            let path = root.join(file);
            if file.ends_with('/') {
                std::fs::create_dir_all(&path).unwrap();
            } else {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, b"{}").unwrap();
            }
        }
        let roots = [root.join("b"), root.clone(), root.join("b/c")];
        let mut sorted = Vec::new();
        let mut dirs: Vec<PathBuf> = Vec::new();
        for root in &roots {
            let walked = dirs.clone();
            let entries = walkdir::WalkDir::new(root)
                .sort_by_file_name()
                .into_iter()
                .filter_entry(|e| !walked.contains(&e.path().to_path_buf()));
            for entry in entries {
                let entry = entry.unwrap();
                if entry.file_type().is_dir() {
                    if !dirs.contains(&entry.path().to_path_buf()) {
                        dirs.push(entry.path().to_path_buf());
                    }
                } else {
                    sorted.push(entry.into_path());
                }
            }
        }
        let walk = walk(&roots, &[]).unwrap();
        let order: Vec<PathBuf> = walk.order.iter().map(|&i| walk.path(i)).collect();
        assert_eq!(order, sorted);
        let walked_dirs: Vec<PathBuf> = walk.dirs.iter().map(|d| d.path.clone()).collect();
        assert_eq!(walked_dirs, dirs);
        let repeated: Vec<_> = walk.repeated.iter().map(|f| f.path.clone()).collect();
        assert_eq!(repeated, [Some(root.join("b")), Some(root.join("b/c"))]);
        for &index in &walk.order {
            let dir = &walk.dirs[walk.items[index as usize].dir as usize].path;
            assert_eq!(walk.path(index).parent().unwrap(), dir);
        }
        let top = walk.dirs.iter().find(|d| d.path == root).unwrap();
        assert!(top.is_receipt_dir && top.state.head_state.is_some());
    }
}
