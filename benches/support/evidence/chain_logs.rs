//! Chain logs over the kernels' audit lines, the payloads seal-host chains: the raw lines
//! (`verify chain --audit-lines`), and sealed logs as `seal_log.mjs seal` lays them out
//! (`JSON.stringify` with a 2-space indent), every head from `sealkit::chain::commit`. The
//! lines vary as the decisions do: two to four certificates, targets or policy phrases, tool
//! names, trace counts, budgets. Logs of any length are written a segment of traffic at a
//! time (each planned from the seed and its number), so memory stays bounded.

use super::plan::{self, Plan};
use super::{kernel, Built, Installation};
use std::io::Write;
use std::path::Path;

/// The audit lines of the plan's decisions, in decision order (built in parallel).
pub fn audit_lines(installation: &Installation, plan: &Plan) -> Vec<String> {
    use rayon::prelude::*;
    (0..plan.decisions.len())
        .into_par_iter()
        .map(|i| audit_line(installation, plan, i))
        .collect()
}

/// The audit line the kernels emit for decision `index`. Only a guarded call's line names
/// its target, so only then is the frame analysed; the request hash is `frame::digests`'s.
pub fn audit_line(installation: &Installation, plan: &Plan, index: usize) -> String {
    let decision = &plan.decisions[index];
    let request = &plan.requests[decision.request];
    let session = &plan.sessions[decision.session as usize];
    let epoch = installation.configs[session.config].epoch;
    let guarded = matches!(
        decision.safety,
        plan::Safety::Approved | plan::Safety::AwaitingApproval
    );
    if guarded {
        let built = Built::new(installation, plan, decision.request);
        return kernel::run(
            decision,
            request.tool,
            epoch,
            &built.facts.request_sha256,
            built.target(session.host),
            &built.id(),
        )
        .audit_line;
    }
    let frame = super::frames::build(plan, installation.seed, decision.request);
    let (_, request_sha256) = sealkit::frame::digests(&frame);
    kernel::run(
        decision,
        request.tool,
        epoch,
        &request_sha256,
        "",
        &serde_json::Value::Null,
    )
    .audit_line
}

/// A written sealed log.
pub struct Sealed {
    pub bytes: u64,
    pub entries: usize,
    /// The offset of a hex digit of the last entry's `request_sha256` in the file (changing
    /// it keeps the file JSON and breaks the last head).
    pub last_payload_digit: u64,
    /// The head after every entry.
    pub head: String,
}

/// Writes a sealed log of at least `entries` entries and `min_bytes` bytes to `path`: the
/// audit lines of traffic planned from `seed`, `SEGMENT` decisions at a time.
pub fn write_sealed(seed: u64, path: &Path, entries: usize, min_bytes: u64) -> Sealed {
    const SEGMENT: usize = 200_000;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(path).unwrap());
    let genesis = sealkit::chain::genesis();
    let header = format!(
        "{{\n  \"format\": \"{}\",\n  \"commitment\": \"sha256(prevHead || 0x1f || payload)\",\n  \"genesis\": \"{genesis}\",\n  \"entries\": [",
        sealkit::chain::FORMAT
    );
    out.write_all(header.as_bytes()).unwrap();
    let mut written = header.len() as u64;
    let (mut head, mut count, mut last_payload_digit) = (genesis, 0usize, 0u64);
    let mut segment = 0u64;
    while count < entries || written < min_bytes {
        let installation = Installation::new(seed ^ segment.wrapping_mul(0x9E37_79B9));
        let wanted = if count < entries {
            (entries - count).min(SEGMENT)
        } else {
            SEGMENT
        };
        let plan = plan::plan(&installation, wanted.max(16), 0.0);
        for line in audit_lines(&installation, &plan) {
            if count >= entries && written >= min_bytes {
                break;
            }
            head = sealkit::chain::commit(&head, &line);
            let quoted = serde_json::to_string(&line).unwrap();
            let prefix = format!(
                "{}\n    {{\n      \"payload\": ",
                if count == 0 { "" } else { "," }
            );
            let digit = quoted.find("request_sha256").unwrap() + "request_sha256\\\":\\\"".len();
            last_payload_digit = written + prefix.len() as u64 + digit as u64;
            let entry = format!("{prefix}{quoted},\n      \"head\": \"{head}\"\n    }}");
            out.write_all(entry.as_bytes()).unwrap();
            written += entry.len() as u64;
            count += 1;
        }
        segment += 1;
    }
    let tail: &[u8] = if count == 0 { b"]\n}\n" } else { b"\n  ]\n}\n" };
    out.write_all(tail).unwrap();
    out.flush().unwrap();
    Sealed {
        bytes: written + tail.len() as u64,
        entries: count,
        last_payload_digit,
        head,
    }
}

/// Writes the audit lines to `path`, each ending with LF, as the host appends them; returns
/// the head over them.
pub fn write_lines(lines: &[String], path: &Path) -> String {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for line in lines {
        out.write_all(line.as_bytes()).unwrap();
        out.write_all(b"\n").unwrap();
    }
    out.flush().unwrap();
    sealkit::chain::head_from(&sealkit::chain::genesis(), lines.iter().map(String::as_str))
}
