//! The problems planted in a generated receipt directory, a few whatever its size, and the
//! findings a correct audit owes each (severity aside): the planted ones, plus what a
//! directory of several host sessions always shows, a `counter-reused` note for each
//! counter more than one session wrote.

use super::plan::{HostVersion, Plan, Safety};
use std::path::PathBuf;

/// A problem planted in a receipt directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plant {
    /// A blocked call's receipt edited after signing to say ALLOW.
    VerdictFlipped,
    /// An argument of an allowed call edited after signing (the frame is unchanged).
    ArgumentEdited,
    /// A receipt signed by a key other than the installation's.
    ForeignSignature,
    /// A released call's receipt deleted (the head state and operation state remember it).
    Deleted,
    /// A host that stopped between burning the operation and releasing: `UNKNOWN`.
    ReleaseUnknown,
    /// A receipt under another hash than its own.
    Misnamed,
    /// A receipt readable by everyone (0644).
    LooseMode,
    /// A write interrupted: seal-host's temporary file left beside the receipts.
    LeftoverTemp,
    /// The signing seed where seal-host leaves it, beside the receipts.
    SeedBeside,
}

impl Plant {
    /// The codes the audit reports for the planted file (or, for `Deleted`, for the state
    /// files).
    pub fn codes(self) -> &'static [&'static str] {
        match self {
            Plant::VerdictFlipped => &[
                "signature-invalid",
                "audit-mismatch",
                "decision-mismatch",
                "release-mismatch",
            ],
            Plant::ArgumentEdited => &["signature-invalid", "request-fields-mismatch"],
            Plant::ForeignSignature => &["signer-mismatch"],
            Plant::Deleted => &["chain-state-mismatch", "operation-receipt-missing"],
            Plant::ReleaseUnknown => &["release-unconfirmed"],
            Plant::Misnamed => &["misnamed-receipt"],
            Plant::LooseMode => &["mode-not-private"],
            Plant::LeftoverTemp => &["leftover-temp-file"],
            Plant::SeedBeside => &["signing-key-exposed"],
        }
    }

    /// Whether the receipt is `failed` (an error other than trust).
    pub fn fails(self) -> bool {
        matches!(
            self,
            Plant::VerdictFlipped
                | Plant::ArgumentEdited
                | Plant::ForeignSignature
                | Plant::Misnamed
        )
    }
}

/// The decisions the receipt plants go to: v3 receipts spread over the directory, each of the
/// kind its problem needs.
pub fn choose(plan: &Plan) -> Vec<(usize, Plant)> {
    let v3: Vec<usize> = (0..plan.decisions.len())
        .filter(|&i| plan.sessions[plan.decisions[i].session as usize].host == HostVersion::V3)
        .collect();
    let mut chosen: Vec<(usize, Plant)> = Vec::new();
    // Where in the directory, what, and which decision it fits.
    type Want = (f64, Plant, fn(&Plan, usize) -> bool);
    let wants: [Want; 7] = [
        (0.1, Plant::LooseMode, |_, _| true),
        (0.2, Plant::ArgumentEdited, |p, i| {
            p.decisions[i].safety == Safety::ExplicitAllow && p.decisions[i].forwarded()
        }),
        (0.35, Plant::ForeignSignature, |p, i| {
            p.decisions[i].forwarded()
        }),
        (0.5, Plant::VerdictFlipped, |p, i| {
            p.decisions[i].safety == Safety::AwaitingApproval
        }),
        (0.65, Plant::Deleted, |p, i| p.decisions[i].forwarded()),
        (0.8, Plant::ReleaseUnknown, |p, i| {
            p.decisions[i].forwarded()
        }),
        (0.9, Plant::Misnamed, |_, _| true),
    ];
    for (fraction, plant, fits) in wants {
        let start = (v3.len() as f64 * fraction) as usize;
        if let Some(&at) = v3[start.min(v3.len())..]
            .iter()
            .chain(&v3[..start.min(v3.len())])
            .find(|&&i| fits(plan, i) && !chosen.iter().any(|(c, _)| *c == i))
        {
            chosen.push((at, plant));
        }
    }
    chosen
}

/// One finding the audit must report: its code and where (any one of `paths`: a
/// `counter-reused` note names the first file of its group in the audit's order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub code: &'static str,
    pub paths: Vec<PathBuf>,
}

/// What `sealkit audit DIR --receipt-key <the installation's key>` must report.
#[derive(Debug, Clone, Default)]
pub struct Expected {
    pub findings: Vec<Finding>,
    /// Receipt files written.
    pub receipts: usize,
    /// Of which `failed` (an error finding other than an unpinned or unsigned signer).
    pub failed: usize,
    /// Of which record_version 2 (`unsigned`).
    pub unsigned: usize,
}

impl Expected {
    pub fn add(&mut self, code: &'static str, path: PathBuf) {
        self.findings.push(Finding {
            code,
            paths: vec![path],
        });
    }
}
