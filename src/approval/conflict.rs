//! Allows and signed declines for the same target across one token file. seal-host answers a
//! blocked call whose target has a verified signed decline with `approval refused (signed
//! decline …)`, whatever approvals stand beside it, so an accepted allow for such a target is
//! void. Only accepted lines count (a rejected line is ignored by the host either way), in any
//! order. Memory grows with the number of distinct targets, never with the number of lines.

use super::line_reports::{LineReport, Signed, TokenStatus};
use crate::digest::hex_lower;
use serde::Serialize;
use std::collections::HashMap;

/// The stable code of a target with an accepted allow beside an accepted signed decline.
pub const CODE: &str = "allow-beside-signed-decline";

#[derive(Debug, Default, Clone, Copy)]
struct Seen {
    allows: u64,
    first_allow: u64,
    declines: u64,
    first_decline: u64,
}

/// Accepted allows and declines per target, fed line reports in file order.
#[derive(Debug, Default)]
pub struct TargetDecisions {
    targets: HashMap<[u8; 32], Seen>,
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
        let mut key = [0u8; 32];
        if hex::decode_to_slice(target, &mut key).is_err() {
            return;
        }
        let seen = self.targets.entry(key).or_default();
        let (count, first) = if is_decline {
            (&mut seen.declines, &mut seen.first_decline)
        } else {
            (&mut seen.allows, &mut seen.first_allow)
        };
        if *count == 0 {
            *first = report.line;
        }
        *count += 1;
    }

    /// Every target with both, in the order of its first allow line.
    pub fn conflicts(&self) -> Vec<Conflict> {
        let mut conflicts: Vec<Conflict> = self
            .targets
            .iter()
            .filter(|(_, seen)| seen.allows > 0 && seen.declines > 0)
            .map(|(target, seen)| conflict(&hex_lower(target), seen))
            .collect();
        conflicts.sort_by_key(|c| c.first_allow_line);
        conflicts
    }
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
