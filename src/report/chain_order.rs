//! The chain join while the receipts stream in: the n-th receipt of a request hash (in
//! decision-time order, receipts without a time first, ties in walk order) joins the n-th
//! entry of that hash in each chain. Guarantees: the same joins as sorting every receipt
//! first, with only what the join needs held: for each request hash the chains have, the
//! earliest receipts up to the most entries one chain has of it (so no more than the chains'
//! entries in all). A receipt beyond them joins no entry, and is given back as soon as that
//! is certain (when it arrives, or when an earlier receipt of its hash displaces it); a
//! receipt whose hash no chain has is not held at all. Nothing here prints or reads files.

use super::model::{Chain, ChainJoin};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

/// The order receipts of one hash take chain entries: decision time (none first), then
/// their place in the walk.
pub type Order = (Option<u64>, usize);

/// A receipt that may join a chain entry, with what the caller needs of it later.
pub struct Held<P> {
    pub order: Order,
    pub payload: P,
}

impl<P> PartialEq for Held<P> {
    fn eq(&self, other: &Self) -> bool {
        self.order == other.order
    }
}
impl<P> Eq for Held<P> {}
impl<P> PartialOrd for Held<P> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<P> Ord for Held<P> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order.cmp(&other.order)
    }
}

struct Group<P> {
    /// The most entries of this hash in one chain.
    most: usize,
    /// Receipts of this hash seen.
    receipts: u64,
    /// The earliest `most` of them (the latest on top).
    earliest: BinaryHeap<Held<P>>,
}

/// The request hashes of the chains and the receipts that may join their entries.
pub struct Groups<P> {
    groups: HashMap<String, Group<P>>,
}

impl<P> Groups<P> {
    pub fn new(chains: &[Chain]) -> Self {
        let mut groups: HashMap<String, Group<P>> = HashMap::new();
        for chain in chains {
            let mut counts: HashMap<&str, usize> = HashMap::new();
            for hash in chain
                .entries
                .iter()
                .filter_map(|e| e.request_sha256.as_deref())
            {
                *counts.entry(hash).or_default() += 1;
            }
            for (hash, count) in counts {
                let group = groups.entry(hash.to_owned()).or_insert_with(|| Group {
                    most: 0,
                    receipts: 0,
                    earliest: BinaryHeap::new(),
                });
                group.most = group.most.max(count);
            }
        }
        Groups { groups }
    }

    /// Whether some chain has an entry with this request hash.
    pub fn has(&self, hash: &str) -> bool {
        self.groups.contains_key(hash)
    }

    /// Takes a receipt with a hash some chain has ([`Groups::has`]); gives back the receipt
    /// now certain to join no entry (this one or one it displaced), if any.
    pub fn offer(&mut self, hash: &str, held: Held<P>) -> Option<Held<P>> {
        let group = self.groups.get_mut(hash)?;
        group.receipts += 1;
        group.earliest.push(held);
        if group.earliest.len() > group.most {
            group.earliest.pop()
        } else {
            None
        }
    }

    /// Joins the held receipts to the chains' entries: marks each entry joined when a
    /// receipt takes it (`row` = the receipt's walk position, for the caller to map to a
    /// row it keeps), counts the chains, and gives back every held receipt (each joins an
    /// entry) with its first chain's join, in [`Order`].
    pub fn finish(self, chains: &mut [Chain]) -> Vec<(Held<P>, ChainJoin)> {
        let mut held: HashMap<String, (u64, Vec<Held<P>>)> = self
            .groups
            .into_iter()
            .map(|(hash, group)| (hash, (group.receipts, group.earliest.into_sorted_vec())))
            .collect();
        let mut joins: HashMap<usize, ChainJoin> = HashMap::new();
        for chain in chains.iter_mut() {
            let mut taken: HashMap<&str, usize> = HashMap::new();
            for entry in &mut chain.entries {
                let Some(hash) = entry.request_sha256.as_deref() else {
                    continue;
                };
                let Some((key, (receipts, earliest))) = held.get_key_value(hash) else {
                    continue;
                };
                let n = taken.entry(key.as_str()).or_default();
                if (*n as u64) < *receipts {
                    if let Some(receipt) = earliest.get(*n) {
                        let seq = receipt.order.1;
                        entry.joined = true;
                        entry.row = Some(seq);
                        // A receipt already joined to an earlier chain file keeps its first
                        // join.
                        joins.entry(seq).or_insert_with(|| ChainJoin {
                            file: chain.file.clone(),
                            entry: entry.index,
                            head_ok: entry.head_ok,
                        });
                    }
                }
                *n += 1;
            }
            chain.length = chain.entries.len() as u64;
            chain.joined = chain.entries.iter().filter(|e| e.joined).count() as u64;
        }
        let mut out: Vec<(Held<P>, ChainJoin)> = held
            .drain()
            .flat_map(|(_, (_, earliest))| earliest)
            .filter_map(|receipt| {
                let join = joins.remove(&receipt.order.1)?;
                Some((receipt, join))
            })
            .collect();
        out.sort_by_key(|a| a.0.order);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{Groups, Held};
    use crate::report::model::{Chain, ChainEntry};
    use std::collections::{HashMap, VecDeque};

    fn chain(file: &str, hashes: &[&str]) -> Chain {
        Chain {
            file: file.to_owned(),
            kind: "audit-lines",
            intact: true,
            genesis_ok: true,
            first_bad_entry: None,
            head: String::new(),
            length: 0,
            joined: 0,
            entries: (hashes.iter().enumerate())
                .map(|(index, hash)| ChainEntry {
                    index,
                    request_sha256: Some((*hash).to_owned()),
                    tool: None,
                    verdict: None,
                    head_ok: index % 3 != 2,
                    joined: false,
                    row: None,
                })
                .collect(),
        }
    }

    /// Each entry's receipt, and each receipt's first (chain, entry).
    type Joined = (Vec<Vec<Option<usize>>>, HashMap<usize, (usize, usize)>);

    /// The join as it was defined over every receipt at once: receipts of a hash sorted by
    /// (time, walk position), the n-th taking the n-th entry of that hash in each chain, a
    /// receipt keeping its first chain's join.
    fn sorted_first(receipts: &[(&str, Option<u64>)], chains: &[Chain]) -> Joined {
        let mut order: Vec<usize> = (0..receipts.len()).collect();
        order.sort_by_key(|&i| (receipts[i].1, i));
        let mut waiting: HashMap<&str, VecDeque<usize>> = HashMap::new();
        for i in order {
            waiting.entry(receipts[i].0).or_default().push_back(i);
        }
        let mut entries = Vec::new();
        let mut first = HashMap::new();
        for (c, chain) in chains.iter().enumerate() {
            let mut queues = waiting.clone();
            let mut rows = Vec::new();
            for entry in &chain.entries {
                let hash = entry.request_sha256.as_deref().unwrap_or_default();
                let row = queues.get_mut(hash).and_then(|q| q.pop_front());
                if let Some(row) = row {
                    first.entry(row).or_insert((c, entry.index));
                }
                rows.push(row);
            }
            entries.push(rows);
        }
        (entries, first)
    }

    /// Streamed in walk order, holding only the earliest receipts of each chain hash, the
    /// join is the sorted one: the same receipt for every entry, the same first join for
    /// every receipt, and every other receipt given back as joining nothing exactly once
    /// (seen red with `Held`'s order reversed, so the latest receipts were kept).
    #[test]
    fn streaming_joins_as_sorting_every_receipt_first() {
        // Times out of walk order, ties, receipts without a time, a hash no chain has,
        // hashes with more receipts than entries and fewer.
        let receipts: Vec<(&str, Option<u64>)> = (0..60u64)
            .map(|i| {
                let hash = ["a", "b", "c", "z"][(i * 7 % 4) as usize];
                let time = (i % 11 != 0).then_some((i * 37) % 13);
                (hash, time)
            })
            .collect();
        let chains = vec![
            chain("one", &["a", "b", "a", "c", "a", "b", "a", "a"]),
            chain(
                "two",
                &["b", "b", "b", "b", "b", "b", "a", "c", "c", "c", "c", "c"],
            ),
        ];
        let (expected_entries, expected_first) = sorted_first(&receipts, &chains);

        let mut groups: Groups<usize> = Groups::new(&chains);
        let mut unjoined = Vec::new();
        for (seq, (hash, time)) in receipts.iter().enumerate() {
            if !groups.has(hash) {
                unjoined.push(seq);
                continue;
            }
            let held = Held {
                order: (*time, seq),
                payload: seq,
            };
            unjoined.extend(groups.offer(hash, held).map(|h| h.payload));
        }
        let mut chains = chains;
        let joined = groups.finish(&mut chains);
        let entries: Vec<Vec<Option<usize>>> = (chains.iter())
            .map(|c| c.entries.iter().map(|e| e.row).collect())
            .collect();
        assert_eq!(entries, expected_entries);
        for (c, chain) in chains.iter().enumerate() {
            for entry in &chain.entries {
                assert_eq!(entry.joined, expected_entries[c][entry.index].is_some());
            }
            assert_eq!(
                chain.joined,
                expected_entries[c].iter().flatten().count() as u64
            );
        }
        let names = ["one", "two"];
        let first: HashMap<usize, (usize, usize)> = (joined.iter())
            .map(|(held, join)| {
                let chain = names.iter().position(|n| *n == join.file).unwrap();
                (held.payload, (chain, join.entry))
            })
            .collect();
        assert_eq!(first, expected_first);
        // In (time, walk) order, each once.
        let orders: Vec<_> = joined.iter().map(|(h, _)| h.order).collect();
        assert!(orders.windows(2).all(|w| w[0] < w[1]));
        unjoined.sort_unstable();
        let expected_unjoined: Vec<usize> = (0..receipts.len())
            .filter(|i| !expected_first.contains_key(i))
            .collect();
        assert_eq!(unjoined, expected_unjoined);
        assert!(!unjoined.is_empty() && !first.is_empty());
    }
}
