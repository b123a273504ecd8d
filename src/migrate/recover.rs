//! Finding a receipt's frame in the index (docs/migration.md step 2): by the exact-frame subject,
//! and then the frame must reproduce every digest the receipt recorded; a frame found only by
//! `request_sha256` or `canonical_request_sha256` contradicts the recorded subject.
//!
//! Guarantees: a frame is used only when linked by the exact-frame subject and consistent
//! with the receipt's digests; anything weaker is a mismatch, never a frame. Nothing here
//! prints or panics.

use super::frames::{self, FrameIndex, Located, SessionEra};
use super::{FrameRef, Link, Reported};
use crate::digest::sha256_hex;
use crate::receipt::recompute::{self, Rule};

/// The result of looking for a receipt's frame.
pub(super) enum Recovery<'i> {
    Frame {
        reference: FrameRef,
        bytes: std::borrow::Cow<'i, [u8]>,
        era: SessionEra,
    },
    Mismatch(FrameRef, String),
    None(String),
}

/// Searches the index: exact-frame subject first (and then the frame must agree with every
/// digest the receipt recorded), then `request_sha256`, then `canonical_request_sha256`; a
/// frame found through either weaker link contradicts the recorded subject.
pub(super) fn recover<'i>(
    reported: &Reported,
    version: Option<u64>,
    index: &'i FrameIndex,
) -> Recovery<'i> {
    let subject = reported
        .framed_subject_sha256
        .as_deref()
        .zip(reported.framed_subject_length);
    if let Some((sha256, length)) = subject {
        if let Some(entry) = index.by_subject(sha256, length) {
            let reference = index.reference(entry, Link::FramedSubject);
            return match contradictions(reported, version, &entry.bytes) {
                None => Recovery::Frame {
                    reference,
                    bytes: std::borrow::Cow::Borrowed(&entry.bytes),
                    era: index.session_era(entry),
                },
                Some(why) => Recovery::Mismatch(
                    reference,
                    format!("the frame with the receipt's framed subject contradicts its other digests: {why}"),
                ),
            };
        }
    }
    let weaker = [
        (Link::RequestSha256, reported.request_sha256.as_deref()),
        (
            Link::CanonicalRequestSha256,
            reported.canonical_request_sha256.as_deref(),
        ),
    ];
    for (link, digest) in weaker {
        let Some(digest) = digest else { continue };
        let found = match link {
            Link::RequestSha256 => index.by_request(digest),
            _ => index.by_canonical(digest, rule_of(version)),
        };
        if let Some(Located { entry, .. }) = found {
            let reference = index.reference(entry, link);
            let detail = weak_link_detail(&reference, subject);
            return Recovery::Mismatch(reference, detail);
        }
    }
    let mut detail = String::from("no frame: ");
    detail.push_str(if version == Some(2) {
        "record_version 2 receipts carry no frame bytes, and "
    } else {
        ""
    });
    match subject {
        Some((sha256, length)) => detail.push_str(&format!(
            "no supplied capture holds a frame of {length} bytes with sha256 {sha256}, or one with the receipt's request_sha256 or canonical_request_sha256"
        )),
        None => detail.push_str("the receipt records no framed subject"),
    }
    Recovery::None(detail)
}

fn weak_link_detail(reference: &FrameRef, subject: Option<(&str, u64)>) -> String {
    let link = match reference.link {
        Link::RequestSha256 => "request_sha256",
        _ => "canonical_request_sha256",
    };
    let found = format!(
        "{} frame {} (found by {link} only) is {} bytes with sha256 {}",
        reference.file,
        reference
            .frame_number
            .map_or(String::new(), |n| n.to_string()),
        reference.length,
        reference.sha256
    );
    match subject {
        Some((sha256, length)) if length == reference.length => format!(
            "{found}; the receipt's framed subject is {length} bytes with sha256 {sha256} (same length, other digest)"
        ),
        Some((sha256, length)) => format!(
            "{found}; the receipt's framed subject is {length} bytes with sha256 {sha256} (other length)"
        ),
        None => format!("{found}; the receipt records no framed subject to confirm it"),
    }
}

/// The digests a subject-linked frame must reproduce; `None` when it agrees with all the
/// receipt recorded.
fn contradictions(reported: &Reported, version: Option<u64>, frame: &[u8]) -> Option<String> {
    let mut wrong = Vec::new();
    let request_sha256 = sha256_hex(crate::frame::request_line(frame));
    if let Some(recorded) = &reported.request_sha256 {
        if *recorded != request_sha256 {
            wrong.push(format!(
                "request_sha256 is {request_sha256}, the receipt says {recorded}"
            ));
        }
    }
    if let Some(recorded) = &reported.canonical_request_sha256 {
        match frames::canonical_sha256(frame, rule_of(version)) {
            Some(sha) if sha == *recorded => {}
            Some(sha) => wrong.push(format!(
                "canonical_request_sha256 is {sha}, the receipt says {recorded}"
            )),
            None => {
                wrong.push("the frame has no canonical request, the receipt records one".into())
            }
        }
    }
    (!wrong.is_empty()).then(|| wrong.join("; "))
}

pub(super) fn rule_of(version: Option<u64>) -> Rule {
    if version == Some(2) {
        recompute::V2
    } else {
        recompute::V3
    }
}
