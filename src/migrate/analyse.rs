//! Today's validation of a recovered frame and what it makes of a record (docs/migration.md
//! steps 3 and 4): identities of every profile, the old target's profile, and the label; a
//! refused frame keeps only what its bytes show. When captures sent the frame in sessions of
//! both eras, both are analysed and a disagreement is `frame-conflict`, never a choice.
//!
//! Guarantees: the record depends only on the frame's bytes, the receipt, the server
//! identity and the set of session eras the captures show (not their order); nothing here
//! prints or panics.

use super::{EraOutcome, FrameRef, FrameState, Presence, ProfileName, Record, RefusalInfo};
use crate::era::Era;
use crate::identity::Profile;
use crate::receipt::ReceiptReport;
use crate::request::{self, EraMode, Session, Verdict};

/// The captures sent this frame in sessions of both eras. Each era is analysed; when both
/// give the same record that record stands (the era made no difference). Otherwise the
/// receipt is `frame-conflict` with both outcomes: choosing either would let the order or
/// the choice of captures decide the verdict.
pub(super) fn analyse_each_era(
    record: &mut Record,
    report: &ReceiptReport,
    frame: &[u8],
    server: &str,
    candidates: [(FrameRef, Era); 2],
) {
    let outcomes = candidates.map(|(reference, era)| {
        let mut outcome = record.clone();
        analyse(&mut outcome, report, frame, Some(era), server, None);
        (reference, era, outcome)
    });
    let [(legacy_ref, legacy_era, legacy), (modern_ref, modern_era, modern)] = outcomes;
    if legacy == modern {
        *record = legacy;
        return;
    }
    let describe = |reference: &FrameRef, era: Era, outcome: &Record| {
        let refusal = outcome
            .refusal
            .as_ref()
            .map_or(String::new(), |r| format!(" ({})", r.code));
        format!(
            "{} frame {} ({} session) gives {}{refusal}",
            reference.file,
            reference
                .frame_number
                .map_or(String::new(), |n| n.to_string()),
            era.as_str(),
            outcome.label,
        )
    };
    record.detail = Some(format!(
        "the captures sent this frame in sessions of different eras, and the eras disagree: {}; {}; neither is chosen",
        describe(&legacy_ref, legacy_era, &legacy),
        describe(&modern_ref, modern_era, &modern),
    ));
    record.frame_conflict = Some(
        [
            (legacy_ref, legacy_era, legacy),
            (modern_ref, modern_era, modern),
        ]
        .into_iter()
        .map(|(frame, era, outcome)| EraOutcome {
            session_era: era.as_str().to_owned(),
            frame,
            label: outcome.label,
            changes: outcome.changes,
            refusal: outcome.refusal.map(|r| r.code),
        })
        .collect(),
    );
    let structure = Structure::of(frame);
    record.meta = structure.meta;
    record.meta_keys = structure.meta_keys;
    record.request_state = structure.request_state;
    record.input_responses = structure.input_responses;
    record.old_profile = profile_from_checks(report);
    record.apply(FrameState::Conflict, false);
}

/// A call analysed with no session entry call, when analysing the same frame in a session of
/// `era` gives the same call: the session's era only matters through the era decided for the
/// call, which is the same when no era is known, or when the known era is the one the frame's
/// own markers gave (a legacy session never turns a marker-less frame modern, a modern session
/// makes every frame modern).
pub(super) fn reusable(call: Box<request::Call>, era: Option<Era>) -> Option<Box<request::Call>> {
    era.is_none_or(|era| era == call.era()).then_some(call)
}

/// Validates the recovered frame under today's rules and fills identities and the label.
/// `known` is this frame's call already analysed in the same session era and server.
pub(super) fn analyse(
    record: &mut Record,
    report: &ReceiptReport,
    frame: &[u8],
    era: Option<Era>,
    server: &str,
    known: Option<Box<request::Call>>,
) {
    let options = request::Options {
        server: server.to_owned(),
        era: EraMode::Auto,
    };
    let verdict = match known {
        Some(call) => Verdict::Call(call),
        None => request::analyze(frame, &options, &mut Session::begun(era)),
    };
    match verdict {
        Verdict::Call(call) => {
            record.meta = Presence::of(matches!(call.meta(), request::MetaState::Present { .. }));
            if record.meta == Presence::Present {
                record.meta_keys = Some(call.meta().keys().to_vec());
            }
            record.request_state = Presence::of(call.request_state().is_some());
            record.input_responses = Presence::of(call.input_responses().is_some());
            let ids = call.identities();
            record.old_profile = record.old_target.as_deref().and_then(|target| {
                let matching = ids.profiles_with_target(target);
                let natural = if record.record_version == Some(2) {
                    Profile::Legacy
                } else {
                    Profile::Host
                };
                if matching.contains(&natural) {
                    Some(natural.into())
                } else {
                    matching.first().map(|p| (*p).into())
                }
            });
            if record.old_target.is_some() {
                record.committed_target = Some(ids.committed.target.clone());
            }
            record.committed_effect = Some(ids.committed.effect.clone());
            record.current_canonical_request_sha256 =
                call.canonical_request_sha256().map(str::to_owned);
            record.apply(FrameState::Recovered, false);
        }
        Verdict::Refused(refusal) => {
            record.refusal = Some(RefusalInfo {
                code: refusal.code.as_str().to_owned(),
                jsonrpc_code: Some(refusal.jsonrpc_code()),
                message: refusal.message.clone(),
            });
            refused_structure(record, report, frame);
        }
        Verdict::Skipped(skipped) => {
            record.refusal = Some(RefusalInfo {
                code: "not-a-tools-call".to_owned(),
                jsonrpc_code: None,
                message: format!(
                    "the frame is a {}{}, not a tools/call request",
                    skipped.kind.as_str(),
                    skipped
                        .method
                        .map(|m| format!(" ({m})"))
                        .unwrap_or_default()
                ),
            });
            refused_structure(record, report, frame);
        }
    }
}

/// A refused frame gets no identity; what its bytes show structurally is still reported.
fn refused_structure(record: &mut Record, report: &ReceiptReport, frame: &[u8]) {
    let structure = Structure::of(frame);
    record.meta = structure.meta;
    record.meta_keys = structure.meta_keys;
    record.request_state = structure.request_state;
    record.input_responses = structure.input_responses;
    record.old_profile = profile_from_checks(report);
    record.apply(FrameState::Recovered, true);
}

/// Context members as the frame's bytes show them, without validation (for refused frames).
struct Structure {
    meta: Presence,
    meta_keys: Option<Vec<String>>,
    request_state: Presence,
    input_responses: Presence,
}

impl Structure {
    fn of(frame: &[u8]) -> Self {
        let unknown = Structure {
            meta: Presence::Unknown,
            meta_keys: None,
            request_state: Presence::Unknown,
            input_responses: Presence::Unknown,
        };
        // The one strict frame reader, to seal-host's own nesting limit: deeper frames, and
        // frames that write a member name twice (whose copies say different things), stay
        // `unknown`.
        let Ok(Some(root)) = crate::frame::read_line_strict_within(frame, 128) else {
            return unknown;
        };
        let params = root.value.get("params");
        let member = |name: &str| params.and_then(|p| p.value.get(name));
        let meta = member("_meta");
        let meta_keys = meta.map(|m| {
            let mut keys: Vec<String> = m
                .value
                .as_object()
                .unwrap_or_default()
                .iter()
                .map(|member| member.key.to_string())
                .collect();
            keys.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            keys.dedup();
            keys
        });
        Structure {
            meta: Presence::of(meta.is_some()),
            meta_keys,
            request_state: Presence::of(member("requestState").is_some()),
            input_responses: Presence::of(member("inputResponses").is_some()),
        }
    }
}

/// The old target's profile as the receipt checks established it (without a frame).
pub(super) fn profile_from_checks(report: &ReceiptReport) -> Option<ProfileName> {
    if report.verified.contains_key("host_target") {
        Some(ProfileName::Host)
    } else if report.verified.contains_key("legacy_target") {
        Some(ProfileName::Legacy)
    } else {
        None
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// Reusing the receipt checks' call is the same as analysing again, in every era, for
    /// every fixture frame (compared through their full debug rendering).
    #[test]
    fn a_reused_call_is_the_call_a_fresh_analysis_gives() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/testdata/legacy-vs-current/frames"
        );
        let (mut reused, mut refused) = (0, 0);
        for entry in std::fs::read_dir(dir).unwrap() {
            let frame = std::fs::read(entry.unwrap().path()).unwrap();
            for server in ["", "srv"] {
                let options = request::Options {
                    server: server.to_owned(),
                    era: EraMode::Auto,
                };
                for era in [None, Some(Era::Legacy), Some(Era::Modern)] {
                    let Verdict::Call(call) =
                        request::analyze(&frame, &options, &mut Session::default())
                    else {
                        continue;
                    };
                    let fresh = request::analyze(&frame, &options, &mut Session::begun(era));
                    match reusable(call, era) {
                        Some(call) => {
                            assert_eq!(format!("{:?}", Verdict::Call(call)), format!("{fresh:?}"));
                            reused += 1;
                        }
                        None => refused += 1,
                    }
                }
            }
        }
        assert!(reused >= 20 && refused >= 2, "{reused} {refused}");
    }

    #[test]
    fn structure_of_a_refused_frame_lists_present_keys() {
        let s =
            Structure::of(b"{\"params\":{\"_meta\":{\"b\":1,\"a\":2},\"requestState\":\"x\"}}\n");
        assert_eq!(s.meta, Presence::Present);
        assert_eq!(s.meta_keys.unwrap(), vec!["a", "b"]);
        assert_eq!(s.request_state, Presence::Present);
        assert_eq!(s.input_responses, Presence::Absent);
        let broken = Structure::of(b"{\"params\":\n");
        assert_eq!(broken.meta, Presence::Unknown);
        let deep = format!("{}{}\n", "[".repeat(200), "]".repeat(200));
        assert_eq!(Structure::of(deep.as_bytes()).meta, Presence::Unknown);
        // Two `params`, one with `_meta`: read one way, it has none; refused, it is unknown.
        let twice =
            Structure::of(b"{\"params\":{\"_meta\":{\"a\":1}},\"params\":{\"name\":\"t\"}}\n");
        assert_eq!(twice.meta, Presence::Unknown);
        assert_eq!(twice.request_state, Presence::Unknown);
    }
}
