//! The hand-over between the two halves of a sealed log's check: the reading thread frames and
//! checks entries into [`Batch`]es (payloads and recorded heads back to back in one reused
//! buffer, as written), and the chaining thread decodes their escapes and runs the head chain
//! over them in order ([`HeadChain`]), the only sequential part. Decoding there rather than
//! on the reading thread splits the work about evenly between the two. A batch holds about [`BATCH_BYTES`] of decoded text, so
//! the memory of the batches in flight is fixed, whatever the length of the log.

use super::entry_scan::{decode_into, Written};
use super::{genesis, BadEntry};
use sha2::{Digest, Sha256};

/// Decoded text after which a batch is handed over.
pub(super) const BATCH_BYTES: usize = 256 * 1024;

/// A batch grown past this by one very large entry gives the memory back when it is reused.
const KEEP_BYTES: usize = 4 * BATCH_BYTES;

/// Consecutive entries of one `entries` array, each with a string payload.
#[derive(Default)]
pub(super) struct Batch {
    /// The decoded payloads and recorded heads of the entries, back to back.
    pub(super) text: String,
    pub(super) entries: Vec<Entry>,
    /// The first batch of an `entries` array: the chain starts again from the genesis (a
    /// repeated `entries` member is a new array, and the last one read is the one reported).
    pub(super) new_array: bool,
}

/// Where one entry's strings are in its batch's text.
pub(super) struct Entry {
    pub(super) payload: Written,
    /// Absent when the entry has no string `head`.
    pub(super) head: Option<Written>,
}

impl Batch {
    /// Whether the batch is due to be handed over.
    pub(super) fn full(&self) -> bool {
        self.text.len() >= BATCH_BYTES
    }

    /// Emptied for reuse, keeping its allocations unless one entry made them very large.
    pub(super) fn cleared(mut self) -> Batch {
        self.text.clear();
        self.text.shrink_to(KEEP_BYTES);
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
    /// The decoded payload of an entry whose payload holds escapes (reused).
    decoded: String,
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
            decoded: String::new(),
        }
    }

    /// The head recomputed so far.
    pub(super) fn head(&self) -> String {
        String::from_utf8_lossy(&self.head).into_owned()
    }

    /// Chains the batch's entries in order, telling `each` of every one: its index, its
    /// payload, and whether its recorded head equals the recomputed one.
    pub(super) fn chain(&mut self, batch: &Batch, each: &mut impl FnMut(usize, &str, bool)) {
        if batch.new_array {
            *self = HeadChain::new();
        }
        let mut hasher = Sha256::new();
        let mut decoded = std::mem::take(&mut self.decoded);
        for entry in &batch.entries {
            let payload = value(&batch.text, &entry.payload, &mut decoded);
            hasher.update(self.head);
            hasher.update([0x1f]);
            hasher.update(payload.as_bytes());
            // 32 bytes always encode into 64 digits: the error arm is unreachable.
            let _ = hex::encode_to_slice(hasher.finalize_reset(), &mut self.head);
            let mut decoded_head = String::new();
            let recorded = entry
                .head
                .as_ref()
                .map(|head| value(&batch.text, head, &mut decoded_head));
            let ok = recorded.map(str::as_bytes) == Some(&self.head[..]);
            let index = self.chained;
            self.chained += 1;
            if !ok {
                self.bad_entries += 1;
                if self.first_bad_entry.is_none() {
                    self.first_bad_entry = Some(BadEntry {
                        index,
                        recorded: recorded.unwrap_or("(absent)").to_owned(),
                        recomputed: self.head(),
                    });
                }
            }
            each(index, payload, ok);
        }
        self.decoded = decoded;
    }
}

/// The value of a string written into `text`: the text itself, or its decoding in `decoded`.
fn value<'t>(text: &'t str, written: &Written, decoded: &'t mut String) -> &'t str {
    let raw = &text[written.range.clone()];
    if !written.escaped {
        return raw;
    }
    decoded.clear();
    decode_into(raw, decoded);
    decoded
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
            let mut batch = Batch {
                new_array,
                ..Batch::default()
            };
            for i in range {
                let start = batch.text.len();
                // One payload as written with escapes, to be decoded by the chain.
                let written = if i == 1 { r#"{\"a\":1}"# } else { payloads[i] };
                batch.text.push_str(written);
                let payload = start..batch.text.len();
                let head = if bad == Some(i) {
                    "0".repeat(64)
                } else {
                    heads[i].clone()
                };
                batch.text.push_str(&head);
                batch.entries.push(Entry {
                    head: Some(Written {
                        range: payload.end..batch.text.len(),
                        escaped: false,
                    }),
                    payload: Written {
                        range: payload,
                        escaped: i == 1,
                    },
                });
            }
            batch
        };
        let mut chain = HeadChain::new();
        let mut seen = Vec::new();
        let mut each = |i: usize, p: &str, ok: bool| seen.push((i, p.to_owned(), ok));
        chain.chain(&batch(0..2, true, Some(1)), &mut each);
        chain.chain(&batch(2..4, false, None), &mut each);
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
        chain.chain(&batch(0..1, true, None), &mut |_, _, _| ());
        assert_eq!((chain.chained, chain.bad_entries), (1, 0));
        assert_eq!(chain.head(), heads[0]);
    }

    /// A batch is handed over once it holds [`BATCH_BYTES`] of text, which is what keeps the
    /// batches in flight, and so memory, fixed (seen red with `full` → `false`: one batch
    /// then holds a whole array).
    #[test]
    fn a_batch_is_full_at_its_size() {
        let mut batch = Batch::default();
        assert!(!batch.full());
        batch.text = "x".repeat(BATCH_BYTES - 1);
        assert!(!batch.full());
        batch.text.push('x');
        assert!(batch.full());
        let reused = batch.cleared();
        assert!(!reused.full() && reused.entries.is_empty() && !reused.new_array);
    }
}
