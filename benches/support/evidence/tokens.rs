//! Approval tokens: each planned approval signed with `sealkit::approval::sign` under the
//! installation's approval key, for the exact frame and its guard target, shown either by
//! `sealkit approve`'s terminal renderer (`sealkit::renderer::render`) or by seal's own
//! approve CLI (its header and the raw frame), by one of several approvers; each planned
//! decline as seal-host's signed decline. A token file is the control file the host reads:
//! every answer in the order it was given, with a few problems planted ([`Plant`]).

use super::plan::{Approval, Plan, APPROVERS};
use super::rng::Rng;
use super::{Built, Installation};
use sealkit::approval::binding::Subject;
use sealkit::approval::payload::Renderer;
use sealkit::approval::sign::{sign_approval, sign_decline, ApprovalInputs, SignedApproval};
use sealkit::identity::Profile;
use std::io::Write;
use std::path::Path;

/// seal's approve CLI: its renderer and the digest of its manifest.
const SEAL_CLI_RENDERER: &str = "seal-approve-cli-raw-mcp-frame";
const SEAL_CLI_MANIFEST: &str = "404afde7d2087ce8f67488d902e9b20c45084febe1aa68dabe5e4448cd397e06";

/// Signs approval `index` of the plan with `key` for its built frame (`target`: the guard
/// target the safety kernel names). Deterministic: the same approval always gives the same
/// line.
pub fn approve(
    installation: &Installation,
    key: &sealkit::keys::SecretKey,
    plan: &Plan,
    index: usize,
    built: &Built,
    target: &str,
) -> SignedApproval {
    let approval = &plan.approvals[index];
    let mut rng = Rng::stream(installation.seed, 5, index as u64);
    let server = &installation.configs
        [plan.sessions[plan.requests[approval.request].session as usize].config]
        .server;
    let (shown, renderer, session) = if approval.terminal {
        let call = built.call();
        let profiles: Vec<Profile> = [Profile::Committed, Profile::Host, Profile::Legacy]
            .into_iter()
            .filter(|p| call.identities().get(*p).target == target)
            .collect();
        let shown = sealkit::renderer::render(&sealkit::renderer::Request {
            decision: sealkit::renderer::Decision::Allow,
            target,
            profiles: &profiles,
            server,
            call,
            frame: &built.frame,
        });
        let renderer = Renderer {
            name: sealkit::renderer::RENDERER_NAME.into(),
            version: sealkit::renderer::RENDERER_VERSION.into(),
            manifest_sha256: sealkit::renderer::manifest_sha256(),
        };
        (shown, renderer, format!("sealkit-approve/{}", rng.hex(6)))
    } else {
        let mut shown = format!(
            "Seal approval request\ntarget: {target}\nexact MCP request frame (including delimiter):\n"
        )
        .into_bytes();
        shown.extend_from_slice(&built.frame);
        let renderer = Renderer {
            name: SEAL_CLI_RENDERER.into(),
            version: "1.0.0".into(),
            manifest_sha256: SEAL_CLI_MANIFEST.into(),
        };
        (shown, renderer, format!("approve-cli/{}", rng.hex(16)))
    };
    let inputs = ApprovalInputs {
        target: target.to_owned(),
        authorized_at: approval.authorized_at,
        expiry: approval.authorized_at + 120_000,
        nonce: rng.hex(16),
        session,
        subject: Subject::of(&built.frame),
        shown: Subject::of(&shown),
        renderer,
        approver: APPROVERS[approval.approver].to_owned(),
    };
    sign_approval(key, &inputs).expect("the bench token signs")
}

/// The line of approval `index`: an approval token or a signed decline.
pub fn line(installation: &Installation, plan: &Plan, index: usize) -> String {
    let approval: &Approval = &plan.approvals[index];
    let built = Built::new(installation, plan, approval.request);
    let host = plan.sessions[plan.requests[approval.request].session as usize].host;
    let target = built.target(host).to_owned();
    if approval.decline {
        let mut rng = Rng::stream(installation.seed, 6, index as u64);
        sign_decline(
            &installation.approval,
            &target,
            approval.authorized_at,
            &rng.hex(16),
        )
        .expect("the bench decline signs")
    } else {
        approve(
            installation,
            &installation.approval,
            plan,
            index,
            &built,
            &target,
        )
        .line
    }
}

/// A problem planted in a token file, and the verdict `verify approval` owes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plant {
    /// One character of an approval's payload changed after signing: `bad_signature`.
    EditedPayload,
    /// A line with leading whitespace: `approval_v2_surrounding_whitespace`.
    Whitespace,
    /// An earlier approval appended again: `replayed_nonce`.
    Replayed,
    /// An approval signed by a key the host does not trust: `approval_v2_wrong_signer_key_id`.
    WrongSigner,
    /// A decline signed for a target that also has an accepted approval: the
    /// `allow-beside-signed-decline` conflict (the line itself is accepted).
    DeclineBesideApproval,
}

/// What `sealkit verify approval FILE --pubkey <approval key>` must report of a token file.
#[derive(Debug, Clone, Default)]
pub struct Expected {
    pub lines: usize,
    /// `(line number, seal-host reason)` of every rejected line.
    pub rejected: Vec<(usize, &'static str)>,
    pub accepted_declines: usize,
    /// Targets with an accepted allow beside an accepted decline.
    pub conflicts: Vec<String>,
}

/// A token file.
pub struct TokenFile {
    pub bytes: Vec<u8>,
    pub expected: Expected,
    /// The (message, signature) each well-formed approval line's signature is checked over:
    /// the limit the verify-approval benchmark compares with.
    pub signed: Vec<(Vec<u8>, [u8; 64])>,
}

/// The control file of the plan's first `count` answers (all, if fewer), with the planted
/// problems when `problems` is set. Lines are signed in parallel.
pub fn file(installation: &Installation, plan: &Plan, count: usize, problems: bool) -> TokenFile {
    use rayon::prelude::*;
    let mut order: Vec<usize> = (0..plan.approvals.len()).collect();
    order.sort_by_key(|&i| plan.approvals[i].authorized_at);
    order.truncate(count);
    let lines: Vec<String> = order
        .par_iter()
        .map(|&i| line(installation, plan, i))
        .collect();
    let signed = lines
        .iter()
        .filter_map(|line| signed_message(line))
        .collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + 8);
    let mut expected = Expected::default();
    let approvals: Vec<usize> = order
        .iter()
        .enumerate()
        .filter(|(_, &i)| !plan.approvals[i].decline)
        .map(|(n, _)| n)
        .collect();
    let plants: Vec<(usize, Plant)> = if problems && approvals.len() >= 8 {
        let at = |fraction: f64| approvals[(approvals.len() as f64 * fraction) as usize];
        vec![
            (at(0.15), Plant::EditedPayload),
            (at(0.3), Plant::Whitespace),
            (at(0.5), Plant::WrongSigner),
            (at(0.7), Plant::Replayed),
            (at(0.85), Plant::DeclineBesideApproval),
        ]
    } else {
        Vec::new()
    };
    for (n, line) in lines.iter().enumerate() {
        let plant = plants.iter().find(|(at, _)| *at == n).map(|(_, p)| *p);
        let index = order[n];
        match plant {
            Some(Plant::EditedPayload) => {
                // One hex digit of the signed nonce changed.
                let at = line.find("nonce\\\":\\\"").expect("a nonce") + 10;
                let mut edited = line.clone();
                let digit = if &line[at..=at] == "0" { "1" } else { "0" };
                edited.replace_range(at..=at, digit);
                out.push(edited);
                expected.rejected.push((out.len(), "bad_signature"));
            }
            Some(Plant::Whitespace) => {
                out.push(format!(" {line}"));
                expected
                    .rejected
                    .push((out.len(), "approval_v2_surrounding_whitespace"));
            }
            Some(Plant::WrongSigner) => {
                let built = Built::new(installation, plan, plan.approvals[index].request);
                let host = plan.sessions
                    [plan.requests[plan.approvals[index].request].session as usize]
                    .host;
                let target = built.target(host).to_owned();
                out.push(
                    approve(
                        installation,
                        &installation.stranger,
                        plan,
                        index,
                        &built,
                        &target,
                    )
                    .line,
                );
                expected
                    .rejected
                    .push((out.len(), "approval_v2_wrong_signer_key_id"));
            }
            Some(Plant::Replayed) => {
                out.push(line.clone());
                out.push(lines[approvals[0]].clone());
                expected.rejected.push((out.len(), "replayed_nonce"));
            }
            Some(Plant::DeclineBesideApproval) => {
                out.push(line.clone());
                let built = Built::new(installation, plan, plan.approvals[index].request);
                let host = plan.sessions
                    [plan.requests[plan.approvals[index].request].session as usize]
                    .host;
                let target = built.target(host).to_owned();
                let mut rng = Rng::stream(installation.seed, 7, index as u64);
                out.push(
                    sign_decline(
                        &installation.approval,
                        &target,
                        plan.approvals[index].authorized_at + 30_000,
                        &rng.hex(16),
                    )
                    .unwrap(),
                );
                expected.accepted_declines += 1;
                expected.conflicts.push(target);
            }
            None => out.push(line.clone()),
        }
        if plan.approvals[index].decline {
            expected.accepted_declines += 1;
        }
    }
    expected.lines = out.len();
    let mut bytes = Vec::with_capacity(out.iter().map(|l| l.len() + 1).sum());
    for line in &out {
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    TokenFile {
        bytes,
        expected,
        signed,
    }
}

/// The preimage and signature of an approval line (`None` for a decline).
fn signed_message(line: &str) -> Option<(Vec<u8>, [u8; 64])> {
    let token: serde_json::Value = serde_json::from_str(line).ok()?;
    let payload = token
        .get("signature_algorithm")
        .and(token["payload"].as_str())?;
    let signature = sealkit::signature::decode_base64url_nopad(token["signature"].as_str()?)?;
    Some((
        sealkit::approval::preimage(payload.as_bytes()),
        signature.try_into().ok()?,
    ))
}

/// Writes `file` to `path`.
pub fn write(file: &TokenFile, path: &Path) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    out.write_all(&file.bytes).unwrap();
    out.flush().unwrap();
}
