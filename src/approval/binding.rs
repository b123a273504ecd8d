//! What a verified token is bound to, checked against what the caller gives
//! (docs/formats.md steps 11–12): the exact frame (subject sha256 and
//! length), the challenged target (together seal-host's `target_or_subject_mismatch`), then A3
//! freshness at a given time in seal-host's order — `now > expiry` is `expired`,
//! `authorized_at > now + 5 s` is `future_issued_at`, `now − authorized_at > TTL` is `expired`.
//! Each check is made only when its input is given; a declined call is bound by target only.

use super::payload::Payload;
use super::reason::Reason;
use super::FUTURE_SKEW_MS;
use serde::Serialize;

/// The exact-frame commitment (the one type of it, shared with the frame readers).
pub use crate::frame::Subject;

/// What the caller asks a token to be bound to.
#[derive(Debug, Clone, Default)]
pub struct Expectations {
    pub subject: Option<Subject>,
    pub target: Option<String>,
    pub now_ms: Option<u64>,
    /// seal-host's policy TTL in milliseconds (already capped at 300 s).
    pub ttl_ms: u64,
}

/// Result of one equality check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    Match,
    Mismatch,
    /// The caller gave nothing to check against.
    NotChecked,
    /// The record carries nothing this could be checked on (a decline has no subject).
    NotApplicable,
}

/// A3 freshness at the given time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Freshness {
    Fresh,
    /// `now > expiry`.
    PastExpiry,
    /// `authorized_at > now + 5 s`.
    FutureIssuedAt,
    /// `now − authorized_at > TTL`.
    PastTtl,
    NotChecked,
    NotApplicable,
}

/// Whether the record's nonce was already used by an earlier verified line of the same file
/// (seal-host burns a nonce once; a repeat is `replayed_nonce`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum NonceUse {
    FirstInFile,
    Repeated,
    NotApplicable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Binding {
    pub subject: Check,
    pub target: Check,
    pub freshness: Freshness,
    pub nonce: NonceUse,
}

impl Binding {
    /// Nothing was checked (the token itself was rejected).
    pub fn unchecked() -> Self {
        Binding {
            subject: Check::NotChecked,
            target: Check::NotChecked,
            freshness: Freshness::NotChecked,
            nonce: NonceUse::NotApplicable,
        }
    }

    /// The reason seal-host would drop the record for, first failure in its order.
    pub fn first_failure(&self) -> Option<Reason> {
        if self.subject == Check::Mismatch || self.target == Check::Mismatch {
            return Some(Reason::TargetOrSubjectMismatch);
        }
        match self.freshness {
            Freshness::PastExpiry | Freshness::PastTtl => return Some(Reason::Expired),
            Freshness::FutureIssuedAt => return Some(Reason::FutureIssuedAt),
            _ => {}
        }
        (self.nonce == NonceUse::Repeated).then_some(Reason::ReplayedNonce)
    }
}

fn equal_if_given<T: PartialEq + ?Sized>(expected: Option<&T>, actual: &T) -> Check {
    match expected {
        None => Check::NotChecked,
        Some(expected) if expected == actual => Check::Match,
        Some(_) => Check::Mismatch,
    }
}

/// Binds a verified ApprovalRecord v2 payload (nonce use is filled in by the caller).
pub fn bind_approval(payload: &Payload, expected: &Expectations) -> Binding {
    Binding {
        // The payload's subject compared in place (no `Subject` copied out of it).
        subject: match &expected.subject {
            None => Check::NotChecked,
            Some(subject)
                if subject.sha256 == payload.subject_sha256
                    && subject.length == payload.subject_length =>
            {
                Check::Match
            }
            Some(_) => Check::Mismatch,
        },
        target: equal_if_given(expected.target.as_deref(), payload.target.as_str()),
        freshness: match expected.now_ms {
            None => Freshness::NotChecked,
            Some(now) => freshness(payload.authorized_at, payload.expiry, now, expected.ttl_ms),
        },
        nonce: NonceUse::FirstInFile,
    }
}

/// Binds a verified signed decline: seal-host matches it to the blocked target only.
pub fn bind_decline(target: &str, expected: &Expectations) -> Binding {
    Binding {
        subject: Check::NotApplicable,
        target: equal_if_given(expected.target.as_deref(), target),
        freshness: Freshness::NotApplicable,
        nonce: NonceUse::NotApplicable,
    }
}

/// seal-host's A3 freshness, in its order.
pub fn freshness(authorized_at: u64, expiry: u64, now: u64, ttl_ms: u64) -> Freshness {
    if now > expiry {
        Freshness::PastExpiry
    } else if authorized_at > now.saturating_add(FUTURE_SKEW_MS) {
        Freshness::FutureIssuedAt
    } else if now.saturating_sub(authorized_at) > ttl_ms {
        Freshness::PastTtl
    } else {
        Freshness::Fresh
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn freshness_boundaries_follow_the_host() {
        let ttl = 120_000;
        assert_eq!(freshness(1000, 121_000, 121_000, ttl), Freshness::Fresh);
        assert_eq!(
            freshness(1000, 121_000, 121_001, ttl),
            Freshness::PastExpiry
        );
        assert_eq!(
            freshness(6001, 200_000, 1000, ttl),
            Freshness::FutureIssuedAt
        );
        assert_eq!(freshness(6000, 200_000, 1000, ttl), Freshness::Fresh);
        assert_eq!(freshness(1000, 500_000, 121_001, ttl), Freshness::PastTtl);
        assert_eq!(freshness(1000, 500_000, 121_000, ttl), Freshness::Fresh);
        // Expiry is checked before the future skew.
        assert_eq!(
            freshness(10_000, 10_000, 10_001, ttl),
            Freshness::PastExpiry
        );
    }

    /// The frame binding needs both the digest and the length to agree: a subject that
    /// differs in either alone is a mismatch (seen red with `&&` → `||` in `bind_approval`).
    #[test]
    fn subject_binding_needs_digest_and_length_both() {
        let payload = super::super::payload::tests_support::sample();
        let given = |sha256: &str, length: u64| Expectations {
            subject: Some(Subject {
                sha256: sha256.to_owned(),
                length,
            }),
            ..Expectations::default()
        };
        let (sha, length) = (payload.subject_sha256.clone(), payload.subject_length);
        let other = "f".repeat(64);
        assert_ne!(sha, other);
        for (expected, check) in [
            (given(&sha, length), Check::Match),
            (given(&sha, length + 1), Check::Mismatch),
            (given(&other, length), Check::Mismatch),
            (given(&other, length + 1), Check::Mismatch),
            (Expectations::default(), Check::NotChecked),
        ] {
            assert_eq!(bind_approval(&payload, &expected).subject, check);
        }
    }

    #[test]
    fn first_failure_order_is_context_then_a3_then_replay() {
        let mut binding = Binding {
            subject: Check::Match,
            target: Check::Mismatch,
            freshness: Freshness::PastExpiry,
            nonce: NonceUse::Repeated,
        };
        assert_eq!(
            binding.first_failure(),
            Some(Reason::TargetOrSubjectMismatch)
        );
        binding.target = Check::NotChecked;
        assert_eq!(binding.first_failure(), Some(Reason::Expired));
        binding.freshness = Freshness::FutureIssuedAt;
        assert_eq!(binding.first_failure(), Some(Reason::FutureIssuedAt));
        binding.freshness = Freshness::Fresh;
        assert_eq!(binding.first_failure(), Some(Reason::ReplayedNonce));
        binding.nonce = NonceUse::FirstInFile;
        assert_eq!(binding.first_failure(), None);
    }
}
