//! Asks the kernel to start reading files the audit will read soon, when the page cache is
//! cold, so the disk reads while the workers verify. Advice only: it reads no byte, changes
//! nothing, and what it meets (a missing file, a link, a FIFO) is left to the read that
//! follows; whether it runs changes how fast the audit goes, never what it finds.

use super::walk::Walk;
use std::cell::Cell;
use std::time::Duration;

/// The first files of each batch are never read ahead: how long their reads take says
/// whether the page cache holds the directory (warm, a few µs a file) or the disk is read.
pub const SAMPLE: usize = 8;
/// A sampled read slower than this went to the disk (or waited for a core: either way the
/// advice costs a batch little).
const COLD_READ: Duration = Duration::from_micros(50);
/// Cold when at least this many of a batch's sampled reads were slow (one slow read may be a
/// thread that lost its core mid-read).
const COLD_SAMPLES: usize = 2;

thread_local! {
    /// How long this thread's last file read took.
    static LAST_READ: Cell<Option<Duration>> = const { Cell::new(None) };
}

/// Notes how long a file read on this thread took.
pub fn note_read(took: Duration) {
    LAST_READ.with(|last| last.set(Some(took)));
}

/// Takes what [`note_read`] last noted on this thread.
pub fn take_last_read() -> Option<Duration> {
    LAST_READ.with(Cell::take)
}

/// Whether sampled reads that took `reads` say the page cache is cold.
pub fn is_cold(reads: impl IntoIterator<Item = Duration>) -> bool {
    reads.into_iter().filter(|took| *took > COLD_READ).count() >= COLD_SAMPLES
}

/// Starts the kernel reading the regular files of `batch` after its first [`SAMPLE`] into
/// the page cache (`posix_fadvise(POSIX_FADV_WILLNEED)`, which queues the reads and returns;
/// on systems without it, nothing). Each file is opened read-only, without following a link
/// and without blocking, so an entry replaced by a FIFO since the walk cannot hang it; errors
/// are ignored.
pub fn read_ahead(walk: &Walk, batch: &[u32]) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use super::walk::ItemKind;
        use rustix::fs::{fadvise, open, Advice, Mode, OFlags};
        for &index in batch.iter().skip(SAMPLE) {
            if walk.items[index as usize].kind != ItemKind::File {
                continue;
            }
            let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            if let Ok(file) = open(walk.path(index), flags, Mode::empty()) {
                let _ = fadvise(&file, 0, None, Advice::WillNeed);
            }
        }
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    let _ = (walk, batch);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_slow_sampled_reads_make_a_cold_cache_one_does_not() {
        let fast = Duration::from_micros(8);
        let slow = Duration::from_micros(400);
        assert!(!is_cold([fast; SAMPLE]));
        assert!(!is_cold([slow, fast, fast, fast]));
        assert!(is_cold([fast, slow, fast, slow]));
        assert!(!is_cold([COLD_READ, COLD_READ]));
        assert!(!is_cold([]));
    }

    /// Seen red with `NONBLOCK` left out of the flags: the open waits for a writer forever.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    #[test]
    #[allow(clippy::unwrap_used)]
    fn a_file_replaced_by_a_fifo_since_the_walk_does_not_hang_it() {
        use rustix::fs::{mknodat, FileType, Mode, CWD};
        let temp = tempfile::tempdir().unwrap();
        for n in 0..SAMPLE + 4 {
            std::fs::write(temp.path().join(format!("f{n:02}")), b"{}").unwrap();
        }
        let walk = super::super::walk::walk(&[temp.path().to_path_buf()], &[]).unwrap();
        for n in SAMPLE..SAMPLE + 4 {
            let path = temp.path().join(format!("f{n:02}"));
            std::fs::remove_file(&path).unwrap();
            mknodat(CWD, &path, FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
        }
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            read_ahead(&walk, &walk.order);
            let _ = done.send(());
        });
        assert!(
            finished.recv_timeout(Duration::from_secs(10)).is_ok(),
            "read_ahead is still waiting on a FIFO"
        );
    }

    #[test]
    fn a_read_noted_is_taken_once() {
        note_read(Duration::from_micros(3));
        assert_eq!(take_last_read(), Some(Duration::from_micros(3)));
        assert_eq!(take_last_read(), None);
    }
}
