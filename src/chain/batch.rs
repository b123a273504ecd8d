//! The hand-over between the two halves of a sealed log's check: the reading thread frames,
//! checks and decodes entries into [`Batch`]es (decoded payloads and recorded heads back to
//! back in one reused buffer), and the chaining thread runs the head chain over them in order
//! ([`HeadChain`]), the only sequential part: SHA-256 of every payload. A batch holds about
//! [`BATCH_BYTES`] of decoded text, so the memory of the batches in flight is fixed, whatever
//! the length of the log.

use super::decoded::Decoded;
use super::{genesis, BadEntry};
use sha2::{Digest, Sha256};
use std::ops::Range;

/// Decoded text after which a batch is handed over.
pub(super) const BATCH_BYTES: usize = 1024 * 1024;

/// A batch grown past this by one very large entry gives the memory back when it is reused.
const KEEP_BYTES: usize = 4 * BATCH_BYTES;

/// Consecutive entries of one `entries` array, each with a string payload.
#[derive(Default)]
pub(super) struct Batch {
    /// The decoded payloads and recorded heads of the entries, back to back: whole strings
    /// decoded from UTF-8 text with their escapes replaced by the characters they stand for,
    /// so UTF-8, though kept as bytes. The chain hashes bytes; only a caller that is handed
    /// the payloads as text has the batch checked as UTF-8 ([`HeadChain::chain`]).
    pub(super) text: Decoded,
    pub(super) entries: Vec<Entry>,
    /// The first batch of an `entries` array: the chain starts again from the genesis (a
    /// repeated `entries` member is a new array, and the last one read is the one reported).
    pub(super) new_array: bool,
}

/// Where one entry's decoded strings are in its batch's text.
pub(super) struct Entry {
    pub(super) payload: Range<usize>,
    /// Absent when the entry has no string `head`.
    pub(super) head: Option<Range<usize>>,
}

/// The batch the reading thread is filling (the scan decodes a block at a time into its
/// text, writing ahead into its room, see `entry_scan`).
#[derive(Default)]
pub(super) struct Filling {
    pub(super) text: Decoded,
    pub(super) entries: Vec<Entry>,
    pub(super) new_array: bool,
}

impl Filling {
    /// Whether the batch is due to be handed over.
    pub(super) fn full(&self) -> bool {
        self.text.len() >= BATCH_BYTES
    }

    /// Whether there is nothing to tell the chaining thread.
    pub(super) fn is_empty(&self) -> bool {
        self.entries.is_empty() && !self.new_array
    }

    /// The batch filled so far, to hand over, leaving an empty one with `reused`'s allocations.
    pub(super) fn hand_over(&mut self, reused: Batch) -> Batch {
        let filled = std::mem::replace(
            self,
            Filling {
                text: reused.text,
                entries: reused.entries,
                new_array: false,
            },
        );
        Batch {
            text: filled.text,
            entries: filled.entries,
            new_array: filled.new_array,
        }
    }
}

impl Batch {
    /// Emptied for reuse, keeping its allocations unless one entry made them very large.
    pub(super) fn cleared(mut self) -> Batch {
        self.text.clear(KEEP_BYTES);
        self.entries.clear();
        self.new_array = false;
        self
    }
}

/// The head chain over the entries of the current `entries` array.
pub(super) struct HeadChain {
    /// The head after the entries chained so far, as lowercase hex.
    head: [u8; 64],
    /// Entries chained.
    pub(super) chained: usize,
    pub(super) first_bad_entry: Option<BadEntry>,
    pub(super) bad_entries: usize,
}

impl HeadChain {
    pub(super) fn new() -> Self {
        let mut head = [0u8; 64];
        head.copy_from_slice(genesis().as_bytes());
        HeadChain {
            head,
            chained: 0,
            first_bad_entry: None,
            bad_entries: 0,
        }
    }

    /// The head recomputed so far.
    pub(super) fn head(&self) -> String {
        String::from_utf8_lossy(&self.head).into_owned()
    }

    /// Chains the batch's entries in order, telling `each`, when there is one, of every one:
    /// its index, its payload, and whether its recorded head equals the recomputed one. The
    /// batch's text is checked as UTF-8 (once, whole) only for `each`: the chain itself hashes
    /// the decoded bytes. Its text is always UTF-8 (see [`Batch::text`]): the error is never
    /// seen, and is not hidden if it were.
    pub(super) fn chain(
        &mut self,
        batch: &Batch,
        mut each: Option<&mut impl FnMut(usize, &str, bool)>,
    ) -> Result<(), std::str::Utf8Error> {
        if batch.new_array {
            *self = HeadChain::new();
        }
        let text = match each {
            Some(_) => std::str::from_utf8(batch.text.as_bytes())?,
            None => "",
        };
        let decoded = batch.text.as_bytes();
        let mut hasher = Sha256::new();
        for entry in &batch.entries {
            let payload = &decoded[entry.payload.clone()];
            hasher.update(self.head);
            hasher.update([0x1f]);
            hasher.update(payload);
            crate::digest::hex_lower_into(&hasher.finalize_reset().into(), &mut self.head);
            let recorded = entry.head.clone().map(|head| &decoded[head]);
            let ok = recorded == Some(&self.head[..]);
            let index = self.chained;
            self.chained += 1;
            if !ok {
                self.bad_entries += 1;
                if self.first_bad_entry.is_none() {
                    self.first_bad_entry = Some(BadEntry {
                        index,
                        recorded: recorded.map_or_else(
                            || "(absent)".to_owned(),
                            |r| String::from_utf8_lossy(r).into_owned(),
                        ),
                        recomputed: self.head(),
                    });
                }
            }
            if let Some(each) = each.as_mut() {
                // The payload's range is whole strings of the checked text.
                each(
                    index,
                    text.get(entry.payload.clone()).unwrap_or_default(),
                    ok,
                );
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::chain::commit;
    use std::ops::Range;

    /// The batched chain against `commit`, entry by entry, across two batches and a new array.
    #[test]
    fn chains_as_commit_does_and_restarts_on_a_new_array() {
        let payloads = ["audit-0", "{\"a\":1}", "", "caf\u{e9}"];
        let mut expected = genesis();
        let mut heads = Vec::new();
        for payload in payloads {
            expected = commit(&expected, payload);
            heads.push(expected.clone());
        }
        let batch = |range: Range<usize>, new_array: bool, bad: Option<usize>| {
            let mut batch = Filling {
                new_array,
                ..Filling::default()
            };
            for i in range {
                let start = batch.text.len();
                batch.text.extend_from_slice(payloads[i].as_bytes());
                let payload = start..batch.text.len();
                let head = if bad == Some(i) {
                    "0".repeat(64)
                } else {
                    heads[i].clone()
                };
                batch.text.extend_from_slice(head.as_bytes());
                batch.entries.push(Entry {
                    head: Some(payload.end..batch.text.len()),
                    payload,
                });
            }
            batch.hand_over(Batch::default())
        };
        let mut chain = HeadChain::new();
        let mut seen = Vec::new();
        let mut each = |i: usize, p: &str, ok: bool| seen.push((i, p.to_owned(), ok));
        chain
            .chain(&batch(0..2, true, Some(1)), Some(&mut each))
            .unwrap();
        chain
            .chain(&batch(2..4, false, None), Some(&mut each))
            .unwrap();
        assert_eq!(chain.head(), expected);
        assert_eq!(chain.chained, 4);
        assert_eq!(chain.bad_entries, 1);
        let bad = chain.first_bad_entry.clone().unwrap();
        assert_eq!((bad.index, bad.recomputed), (1, heads[1].clone()));
        assert_eq!(
            seen.iter().map(|s| s.2).collect::<Vec<_>>(),
            [true, false, true, true]
        );
        assert_eq!(seen[1].1, "{\"a\":1}");
        assert_eq!(seen[3].1, "caf\u{e9}");
        chain
            .chain(&batch(0..1, true, None), None::<&mut fn(usize, &str, bool)>)
            .unwrap();
        assert_eq!((chain.chained, chain.bad_entries), (1, 0));
        assert_eq!(chain.head(), heads[0]);
    }

    /// A batch is handed over once it holds [`BATCH_BYTES`] of text, which is what keeps the
    /// batches in flight, and so memory, fixed (seen red with `full` → `false`: one batch
    /// then holds a whole array).
    #[test]
    fn a_batch_is_full_at_its_size() {
        let mut batch = Filling::default();
        assert!(!batch.full() && batch.is_empty());
        batch.text.extend_from_slice(&vec![b'x'; BATCH_BYTES - 1]);
        assert!(!batch.full());
        batch.text.push(b'x');
        assert!(batch.full());
        batch.new_array = true;
        assert!(!batch.is_empty());
        let handed = batch.hand_over(Batch::default());
        assert_eq!((handed.text.len(), handed.new_array), (BATCH_BYTES, true));
        assert!(batch.text.len() == 0 && batch.is_empty());
        let reused = handed.cleared();
        assert!(reused.text.len() == 0 && reused.entries.is_empty() && !reused.new_array);
    }
}
