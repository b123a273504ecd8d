//! Captures: the client-to-host stream of every planned session, in order: its opening
//! frames (entry call, `notifications/initialized`, `tools/list`) and each `tools/call` it
//! sent (an approved call twice, byte for byte). With problems, a few frames a host must
//! refuse are slipped into sessions of the era each belongs to, and the capture says which
//! line `sealkit target` must refuse with which code.

use super::frames;
use super::plan::{Era, Plan, Session};
use super::Installation;
use serde_json::json;

/// A frame a host must refuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plant {
    /// A 2026-07-28 call naming a protocol version sealkit does not support.
    UnsupportedVersion,
    /// A 2026-07-28 marker inside a session that began with `initialize`.
    EraConflict,
    /// An object that repeats a key.
    DuplicateKey,
    /// A `traceparent` in upper case.
    UpperCaseTraceparent,
    /// `_meta: null`.
    NullMeta,
    /// A 2026-07-28 call without `clientCapabilities`.
    MissingCapabilities,
}

impl Plant {
    pub fn code(self) -> &'static str {
        match self {
            Plant::UnsupportedVersion => "unsupported-protocol-version",
            Plant::EraConflict => "era-conflict",
            Plant::DuplicateKey => "duplicate-key",
            Plant::UpperCaseTraceparent => "invalid-traceparent",
            Plant::NullMeta => "meta-not-object",
            Plant::MissingCapabilities => "missing-client-capabilities",
        }
    }

    fn era(self) -> Option<Era> {
        match self {
            Plant::UnsupportedVersion | Plant::MissingCapabilities => Some(Era::Modern),
            Plant::EraConflict => Some(Era::Legacy),
            _ => None,
        }
    }

    /// The refused frame, in the session's client's layout.
    fn frame(self, session: &Session, id: u64) -> Vec<u8> {
        let id = frames::id_value(session, id);
        let arguments = json!({"sql": "SELECT count(*) FROM orders", "database": "prod-3"});
        let meta = match self {
            Plant::UnsupportedVersion => Some(json!({
                "io.modelcontextprotocol/protocolVersion": "2027-03-01",
                "io.modelcontextprotocol/clientCapabilities": {},
            })),
            Plant::EraConflict => Some(json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            })),
            Plant::UpperCaseTraceparent => Some(json!({
                "traceparent": "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",
            })),
            Plant::NullMeta => Some(serde_json::Value::Null),
            Plant::MissingCapabilities => Some(json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            })),
            Plant::DuplicateKey => {
                // serde_json cannot write a repeated key: the frame is spelled out.
                let mut frame = format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"db.query\",\"arguments\":{{\"sql\":\"SELECT 1\",\"sql\":\"SELECT 2\"}}}}}}"
                )
                .into_bytes();
                frame.push(b'\n');
                return frame;
            }
        };
        let mut params = serde_json::Map::new();
        params.insert("name".into(), json!("db.query"));
        params.insert("arguments".into(), arguments);
        if let Some(meta) = meta {
            params.insert("_meta".into(), meta);
        }
        frames::message(
            session.client,
            Some(id),
            "tools/call",
            Some(serde_json::Value::Object(params)),
            false,
        )
    }
}

/// What `sealkit target CAPTURE` must report.
#[derive(Debug, Clone, Default)]
pub struct Expected {
    pub frames: usize,
    /// `tools/call` frames accepted.
    pub ok: usize,
    /// Entry calls, notifications and `tools/list`.
    pub skipped: usize,
    /// `(line, code)` of every refused frame.
    pub refused: Vec<(usize, &'static str)>,
}

/// A capture.
pub struct Capture {
    pub bytes: Vec<u8>,
    pub expected: Expected,
    /// The line of each decision's frame (1-based), in decision order.
    pub lines: Vec<usize>,
}

/// The capture of the plan's sessions, each decision's frame where it was sent; with
/// `problems`, the planted frames. Frames are built in parallel.
pub fn capture(installation: &Installation, plan: &Plan, problems: bool) -> Capture {
    use rayon::prelude::*;
    let built: Vec<Vec<u8>> = (0..plan.requests.len())
        .into_par_iter()
        .map(|r| frames::build(plan, installation.seed, r))
        .collect();
    let mut plants: Vec<(usize, Plant)> = Vec::new();
    if problems {
        let all = [
            Plant::UnsupportedVersion,
            Plant::EraConflict,
            Plant::DuplicateKey,
            Plant::UpperCaseTraceparent,
            Plant::NullMeta,
            Plant::MissingCapabilities,
        ];
        for (n, plant) in all.into_iter().enumerate() {
            // After a decision of a session of the plant's era, spread over the capture.
            let start = plan.decisions.len() * (n + 1) / (all.len() + 1);
            let fits = |i: &usize| {
                let era = plan.sessions[plan.decisions[*i].session as usize].era;
                plant.era().is_none_or(|e| e == era) && !plants.iter().any(|(at, _)| at == i)
            };
            if let Some(at) = (start..plan.decisions.len()).chain(0..start).find(fits) {
                plants.push((at, plant));
            }
        }
    }
    let mut out = Capture {
        bytes: Vec::with_capacity(built.iter().map(Vec::len).sum::<usize>() * 11 / 10),
        expected: Expected::default(),
        lines: Vec::with_capacity(plan.decisions.len()),
    };
    let mut line = 0;
    let mut push = |out: &mut Capture, frame: &[u8]| {
        out.bytes.extend_from_slice(frame);
        line += 1;
        line
    };
    let mut session = u32::MAX;
    for (i, decision) in plan.decisions.iter().enumerate() {
        if decision.session != session {
            session = decision.session;
            for frame in frames::opening(&plan.sessions[session as usize]) {
                push(&mut out, &frame);
                out.expected.skipped += 1;
            }
        }
        let at = push(&mut out, &built[decision.request]);
        out.lines.push(at);
        out.expected.ok += 1;
        if let Some((_, plant)) = plants.iter().find(|(at, _)| *at == i) {
            let id = 1_000_000 + i as u64;
            let at = push(&mut out, &plant.frame(&plan.sessions[session as usize], id));
            out.expected.refused.push((at, plant.code()));
        }
    }
    out.expected.frames = line;
    out
}
