//! `sealkit audit DIR…` (stub).
use super::Global;
use crate::cli::AuditArgs;
use crate::finding::Severity;
use crate::outcome::Outcome;

pub fn run(_args: AuditArgs, _global: &Global) -> miette::Result<Outcome> {
    Err(miette::miette!("todo"))
}

/// Exit outcome of a set of finding severities.
pub fn outcome_of(severities: impl IntoIterator<Item = Severity>, deny_warnings: bool) -> Outcome {
    let mut outcome = Outcome::Good;
    for severity in severities {
        match severity {
            Severity::Error => outcome = Outcome::Problems,
            Severity::Warning if deny_warnings => outcome = Outcome::Problems,
            _ => {}
        }
    }
    outcome
}
