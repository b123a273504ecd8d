//! The label rules of docs/migration.md: from what is known about a receipt and its frame, the
//! primary label (the first of the table that applies) and every change that moves the
//! identity; without a usable frame no change is claimed.

use super::{Change, Label, Presence, ProfileName};

/// Whether a frame is available for the label rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameState {
    Recovered,
    Unrecoverable,
    Mismatch,
    /// Recovered, but the captures disagree on the session era it was sent in.
    Conflict,
}

/// What the label rules look at (docs/migration.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assessment {
    pub receipt_valid: bool,
    pub frame: FrameState,
    /// Today's validation refuses the recovered frame.
    pub refused: bool,
    pub meta: Presence,
    /// `requestState` or `inputResponses` present.
    pub context: Presence,
    /// The receipt recorded a guard target.
    pub guarded: bool,
    /// The profile of the recorded target, when known.
    pub old_profile: Option<ProfileName>,
}

/// docs/migration.md: every reason the identity moves, and the first label that applies. Without a
/// usable frame nothing is known about the frame, so no change is claimed (a conflicting
/// frame's bytes are known, so its changes are). F07-like frames (both `_meta` and context)
/// get `meta-now-committed`: the table puts it first, and `changes` still lists `context`.
pub fn assess(a: &Assessment) -> (Label, Vec<Change>) {
    let mut changes = Vec::new();
    if a.receipt_valid && matches!(a.frame, FrameState::Recovered | FrameState::Conflict) {
        if a.meta == Presence::Present {
            changes.push(Change::Meta);
        }
        if a.context == Presence::Present {
            changes.push(Change::Context);
        }
        if a.guarded && !a.old_profile.is_some_and(ProfileName::tagged) {
            changes.push(Change::Layout);
        }
    }
    let label = if !a.receipt_valid {
        Label::ReceiptInvalid
    } else if a.frame == FrameState::Unrecoverable {
        Label::FrameUnrecoverable
    } else if a.frame == FrameState::Mismatch {
        Label::FrameMismatch
    } else if a.frame == FrameState::Conflict {
        Label::FrameConflict
    } else if a.refused {
        Label::RefusedNow
    } else if changes.contains(&Change::Meta) {
        Label::MetaNowCommitted
    } else if changes.contains(&Change::Context) {
        Label::ContextNowCommitted
    } else if changes.contains(&Change::Layout) {
        Label::LayoutChanged
    } else {
        Label::IdentityUnchanged
    };
    (label, changes)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn base() -> Assessment {
        Assessment {
            receipt_valid: true,
            frame: FrameState::Recovered,
            refused: false,
            meta: Presence::Absent,
            context: Presence::Absent,
            guarded: true,
            old_profile: Some(ProfileName::Host),
        }
    }

    #[test]
    fn precedence_follows_the_design_table() {
        let all = Assessment {
            receipt_valid: false,
            frame: FrameState::Unrecoverable,
            refused: true,
            meta: Presence::Present,
            context: Presence::Present,
            guarded: true,
            old_profile: Some(ProfileName::Legacy),
        };
        assert_eq!(assess(&all).0, Label::ReceiptInvalid);
        let valid = Assessment {
            receipt_valid: true,
            ..all
        };
        assert_eq!(assess(&valid).0, Label::FrameUnrecoverable);
        let mismatch = Assessment {
            frame: FrameState::Mismatch,
            ..valid
        };
        assert_eq!(assess(&mismatch).0, Label::FrameMismatch);
        let recovered = Assessment {
            frame: FrameState::Recovered,
            ..valid
        };
        assert_eq!(
            assess(&recovered),
            (
                Label::RefusedNow,
                vec![Change::Meta, Change::Context, Change::Layout]
            )
        );
        let accepted = Assessment {
            refused: false,
            ..recovered
        };
        assert_eq!(assess(&accepted).0, Label::MetaNowCommitted);
        let context = Assessment {
            meta: Presence::Absent,
            ..accepted
        };
        assert_eq!(
            assess(&context),
            (
                Label::ContextNowCommitted,
                vec![Change::Context, Change::Layout]
            )
        );
        let layout = Assessment {
            context: Presence::Absent,
            ..context
        };
        assert_eq!(
            assess(&layout),
            (Label::LayoutChanged, vec![Change::Layout])
        );
        assert_eq!(assess(&base()), (Label::IdentityUnchanged, vec![]));
    }

    #[test]
    fn unguarded_calls_have_no_layout_change_and_unknown_frames_no_changes() {
        let unguarded = Assessment {
            guarded: false,
            old_profile: None,
            ..base()
        };
        assert_eq!(assess(&unguarded), (Label::IdentityUnchanged, vec![]));
        let unknown = Assessment {
            frame: FrameState::Unrecoverable,
            meta: Presence::Unknown,
            context: Presence::Unknown,
            old_profile: Some(ProfileName::Legacy),
            ..base()
        };
        assert_eq!(assess(&unknown), (Label::FrameUnrecoverable, vec![]));
    }
}
