//! Allows and signed declines for the same target across one token file. seal-host answers a
//! blocked call whose target has a verified signed decline with `approval refused (signed
//! decline …)`, whatever approvals stand beside it, so an accepted allow for such a target is
//! void. Only accepted lines count (a rejected line is ignored by the host either way), in any
//! order. What is kept is what the check needs and no more: every accepted allow's target and
//! line (40 bytes; an accepted allow carries a nonce no earlier line reserved, so this grows
//! exactly as the replay check's nonces do, and never with lines that are rejected or repeat
//! a nonce), and per distinct declined target its first line and count. The allows are matched
//! against the declined targets once, at the end of the file.

use super::line_reports::{LineReport, Signed, TokenStatus};
use crate::digest::hex_lower;
use serde::Serialize;
use std::collections::HashMap;

/// The stable code of a target with an accepted allow beside an accepted signed decline.
pub const CODE: &str = "allow-beside-signed-decline";

/// One accepted allow.
#[derive(Debug, Clone, Copy)]
struct Allowed {
    target: [u8; 32],
    line: u64,
}

/// The accepted declines of one target.
#[derive(Debug, Clone, Copy)]
struct Declined {
    first_line: u64,
    count: u64,
}

/// Allows kept in blocks of this many, each allocated once at its full size: a log that
/// grows by doubling would hold up to twice what it needs, and three times while it moves.
const ALLOWS_PER_BLOCK: usize = 4096;

/// Accepted allows and declines per target, fed line reports in file order.
#[derive(Debug, Default)]
pub struct TargetDecisions {
    /// Every accepted allow in file order, in blocks of [`ALLOWS_PER_BLOCK`].
    allows: Vec<Vec<Allowed>>,
    declines: HashMap<[u8; 32], Declined>,
}

/// One target whose accepted allows are void under a signed decline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Conflict {
    pub code: &'static str,
    pub target: String,
    pub allows: u64,
    pub first_allow_line: u64,
    pub declines: u64,
    pub first_decline_line: u64,
    pub message: String,
}

impl TargetDecisions {
    pub fn add(&mut self, report: &LineReport) {
        if report.status != TokenStatus::Accepted {
            return;
        }
        let (target, is_decline) = match &report.signed {
            Some(Signed::Approval(approval)) => (&approval.target, false),
            Some(Signed::Decline(decline)) => (&decline.target, true),
            None => return,
        };
        // Signed targets are 64 lowercase hex digits (checked by the verifier).
        let mut target_bytes = [0u8; 32];
        if hex::decode_to_slice(target, &mut target_bytes).is_err() {
            return;
        }
        if is_decline {
            self.declines
                .entry(target_bytes)
                .and_modify(|declined| declined.count += 1)
                .or_insert(Declined {
                    first_line: report.line,
                    count: 1,
                });
            return;
        }
        if self
            .allows
            .last()
            .is_none_or(|block| block.len() == ALLOWS_PER_BLOCK)
        {
            self.allows.push(Vec::with_capacity(ALLOWS_PER_BLOCK));
        }
        if let Some(block) = self.allows.last_mut() {
            block.push(Allowed {
                target: target_bytes,
                line: report.line,
            });
        }
    }

    /// Every target with both, in the order of its first allow line.
    pub fn conflicts(&self) -> Vec<Conflict> {
        // Allows of declined targets: their count and first line (the log is in file order).
        let mut allowed: HashMap<&[u8; 32], (u64, u64)> = HashMap::new();
        for allow in self.allows.iter().flatten() {
            if self.declines.contains_key(&allow.target) {
                allowed
                    .entry(&allow.target)
                    .and_modify(|(count, _)| *count += 1)
                    .or_insert((1, allow.line));
            }
        }
        let mut conflicts: Vec<Conflict> = allowed
            .into_iter()
            .filter_map(|(target, (allows, first_allow))| {
                let declined = self.declines.get(target)?;
                Some(conflict(
                    &hex_lower(target),
                    &Seen {
                        allows,
                        first_allow,
                        declines: declined.count,
                        first_decline: declined.first_line,
                    },
                ))
            })
            .collect();
        conflicts.sort_by_key(|c| c.first_allow_line);
        conflicts
    }
}

/// What a conflict reports of its target.
struct Seen {
    allows: u64,
    first_allow: u64,
    declines: u64,
    first_decline: u64,
}

fn conflict(target: &str, seen: &Seen) -> Conflict {
    let allows = match seen.allows {
        1 => format!("the allow on line {} stands", seen.first_allow),
        n => format!("{n} allows (the first on line {}) stand", seen.first_allow),
    };
    Conflict {
        code: CODE,
        target: target.to_owned(),
        allows: seen.allows,
        first_allow_line: seen.first_allow,
        declines: seen.declines,
        first_decline_line: seen.first_decline,
        message: format!(
            "target {target}: {allows} beside a signed decline on line {}; seal-host answers \
             this target with `approval refused (signed decline …)`, so an allow is void while \
             the decline stands",
            seen.first_decline
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approval::binding::{Binding, Subject};
    use crate::approval::line_reports::{SignedApproval, SignedDecline};
    use crate::approval::payload::Renderer;

    fn target(index: u64) -> String {
        format!("{index:064x}")
    }

    fn report(line: u64, target: String, decline: bool, accepted: bool) -> LineReport {
        let signed = if decline {
            Signed::Decline(SignedDecline {
                decision: "deny",
                target,
                issued_at: 1,
                nonce: format!("n{line}"),
            })
        } else {
            let subject = Subject {
                sha256: "0".repeat(64),
                length: 1,
            };
            Signed::Approval(SignedApproval {
                target,
                subject: subject.clone(),
                authorized_at: 1,
                expiry: 2,
                nonce: format!("n{line}"),
                session: "s".to_owned(),
                approver: "a".to_owned(),
                shown: subject,
                renderer: Renderer {
                    name: "r".to_owned(),
                    version: "1".to_owned(),
                    manifest_sha256: "0".repeat(64),
                },
                signer_key_id: "k".to_owned(),
            })
        };
        LineReport {
            line,
            status: if accepted {
                TokenStatus::Accepted
            } else {
                TokenStatus::Rejected
            },
            kind: "test",
            reason: None,
            host_source: None,
            host_record_id: None,
            detail: None,
            signed: Some(signed),
            binding: Binding::unchecked(),
            reported: None,
            signed_by: None,
        }
    }

    #[test]
    fn allows_in_every_block_of_the_log_count_for_their_declined_target() {
        let mut decisions = TargetDecisions::default();
        let blocks = 3 * ALLOWS_PER_BLOCK as u64;
        let mut line = 0;
        let mut next = || {
            line += 1;
            line
        };
        // Target 7 is allowed on the first line, in the middle and at the end of the log;
        // target 9 only after its decline; target 8 is declined but never allowed; a rejected
        // allow and a rejected decline count for nothing.
        decisions.add(&report(next(), target(7), false, true));
        for index in 0..blocks {
            decisions.add(&report(next(), target(1000 + index), false, true));
            if index == blocks / 2 {
                decisions.add(&report(next(), target(7), false, true));
                decisions.add(&report(next(), target(9), true, true));
                decisions.add(&report(next(), target(8), true, true));
                decisions.add(&report(next(), target(10), true, false));
                decisions.add(&report(next(), target(10), false, true));
                decisions.add(&report(next(), target(11), true, true));
                decisions.add(&report(next(), target(11), false, false));
            }
        }
        let last_block = next();
        decisions.add(&report(last_block, target(9), false, true));
        decisions.add(&report(next(), target(7), true, true));
        decisions.add(&report(next(), target(7), true, true));
        decisions.add(&report(next(), target(7), false, true));
        assert_eq!(decisions.allows.len(), 4);
        assert!(decisions
            .allows
            .iter()
            .all(|block| block.capacity() == ALLOWS_PER_BLOCK));
        let conflicts = decisions.conflicts();
        let found: Vec<(String, u64, u64, u64, u64)> = conflicts
            .iter()
            .map(|c| {
                (
                    c.target.clone(),
                    c.allows,
                    c.first_allow_line,
                    c.declines,
                    c.first_decline_line,
                )
            })
            .collect();
        let middle = blocks / 2 + 3;
        assert_eq!(
            found,
            [
                (target(7), 3, 1, 2, last_block + 1),
                (target(9), 1, last_block, 1, middle + 1),
            ]
        );
        assert!(conflicts[1]
            .message
            .contains(&format!("the allow on line {last_block} stands")));
        assert!(conflicts[0]
            .message
            .contains("3 allows (the first on line 1) stand"));
    }
}
