//! Receipt directories as seal-host leaves them: one receipt per planned decision, named
//! `receipt-<counter:020>-<canonical_request_sha256>.json`, in seal-host's member order and
//! pretty layout, mode 0600 in a 0700 directory, with the head state (the chain over every
//! receipt's audit line in decision order) and the operation state (every released call's
//! operation) beside them.
//!
//! Every value a check recomputes comes from sealkit's own functions: object A is the exact
//! frame; subject, request hash, canonical request, args hash and the request members come
//! from `receipt::recompute::frame_facts` (`project` under the record_version 2 rule for the
//! older host), the guard target from the identity engine, certificate hashes from
//! `receipt::cert_hash`, the release frame from `receipt::splice_operation_id`, the approval
//! statement from `approval::sign`, the chain head from `chain::head_from`, and the signature
//! from `receipt::preimage::sign`. What no sealkit function computes is written from its
//! definition in docs/formats.md: `policy_hash` (sha256 of the config's compact JSON),
//! `post_state_hash` (sha256 of `{"operation_id","release_frame_sha256"}`), expiry and
//! release deadlines (issued_at or now + the policy TTL).

use super::kernel;
use super::plan::{Decision, HostVersion, Plan, Safety};
use super::problems::{self, Expected, Plant};
use super::rng::Rng;
use super::{tokens, Built, Installation};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use sealkit::digest::sha256_hex;
use sealkit::receipt::{preimage, recompute};
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// A generated receipt directory.
pub struct Directory {
    pub path: PathBuf,
    /// Every receipt file written, in decision order.
    pub files: Vec<PathBuf>,
    /// The planted problems and their files (the state files for a deleted receipt).
    pub plants: Vec<(Plant, PathBuf)>,
    pub expected: Expected,
    /// Bytes of all receipt files.
    pub bytes: u64,
}

/// One decision's receipt as written.
struct Made {
    file: Option<PathBuf>,
    bytes: u64,
    audit_line: String,
    /// `(operation_id, release_frame_sha256)` of a release that went past PENDING.
    released: Option<(String, String)>,
    v2: bool,
}

/// Writes the plan's receipts into `dir` (created), with its state files and, with
/// `problems`, the planted problems ([`problems`]). Receipts are built and written in
/// parallel, a chunk at a time.
pub fn write(installation: &Installation, plan: &Plan, dir: &Path, problems: bool) -> Directory {
    use rayon::prelude::*;
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    let plants = if problems {
        problems::choose(plan)
    } else {
        Vec::new()
    };
    let indices: Vec<usize> = (0..plan.decisions.len()).collect();
    let mut made: Vec<Made> = Vec::with_capacity(indices.len());
    for chunk in indices.chunks(8192) {
        made.par_extend(chunk.par_iter().map(|&i| {
            let plant = plants.iter().find(|(at, _)| *at == i).map(|(_, p)| *p);
            make(installation, plan, i, plant, dir)
        }));
    }
    let files: Vec<PathBuf> = made.iter().filter_map(|m| m.file.clone()).collect();

    // The state files: the chain head over every decision (a deleted receipt's included)
    // and every operation released.
    let head = sealkit::chain::head_from(
        &sealkit::chain::genesis(),
        made.iter().map(|m| m.audit_line.as_str()),
    );
    let last_session = plan
        .decisions
        .last()
        .map(|d| plan.sessions[d.session as usize].name.clone())
        .unwrap_or_default();
    let head_path = dir.join(".seal-audit-head.state");
    let state = json!({"seal_audit_state": "v1", "session": last_session, "head": head});
    std::fs::write(&head_path, serde_json::to_string(&state).unwrap() + "\n").unwrap();
    let operations: Map<String, Value> = made
        .iter()
        .filter_map(|m| m.released.as_ref())
        .map(|(id, sha)| {
            (
                id.clone(),
                json!({"operation_id": id, "release_frame_sha256": sha}),
            )
        })
        .collect();
    let operations_path = dir.join(".seal-operation-state.json");
    if !operations.is_empty() {
        let state = json!({"schema": "seal.operation-state/v1", "operations": operations});
        std::fs::write(
            &operations_path,
            serde_json::to_string_pretty(&state).unwrap() + "\n",
        )
        .unwrap();
    }

    let mut expected = Expected {
        receipts: files.len(),
        ..Expected::default()
    };
    let mut planted = Vec::new();
    for (at, plant) in &plants {
        let file = match plant {
            Plant::Deleted => {
                expected.add("chain-state-mismatch", head_path.clone());
                expected.add("operation-receipt-missing", operations_path.clone());
                planted.push((*plant, head_path.clone()));
                continue;
            }
            _ => made[*at].file.clone().unwrap(),
        };
        for code in plant.codes() {
            expected.add(code, file.clone());
        }
        expected.failed += usize::from(plant.fails());
        planted.push((*plant, file));
    }
    for m in made.iter().filter(|m| m.v2) {
        expected.add("unsigned-receipt", m.file.clone().unwrap());
        expected.unsigned += 1;
    }
    // Every counter written by more than one session.
    let mut by_counter: std::collections::BTreeMap<u64, Vec<PathBuf>> = Default::default();
    for (decision, m) in plan.decisions.iter().zip(&made) {
        if let Some(file) = &m.file {
            by_counter
                .entry(decision.counter)
                .or_default()
                .push(file.clone());
        }
    }
    for group in by_counter.into_values().filter(|g| g.len() > 1) {
        expected.findings.push(problems::Finding {
            code: "counter-reused",
            paths: group,
        });
    }

    for file in &files {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    for path in [&head_path, &operations_path] {
        if path.exists() {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
    }
    for (plant, file) in &planted {
        if *plant == Plant::LooseMode {
            std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
    if problems && !files.is_empty() {
        // An interrupted write, and the seed where seal-host keeps it.
        let last = plan.decisions.last().unwrap();
        let pid = plan.sessions[last.session as usize]
            .name
            .split(':')
            .nth(1)
            .unwrap_or("1")
            .to_owned();
        let temp = dir.join(format!(".receipt-{pid}-{:020}.tmp", last.counter + 1));
        let partial = std::fs::read(&files[files.len() / 3]).unwrap();
        std::fs::write(&temp, &partial[..partial.len() / 2]).unwrap();
        let seed = dir.join(".seal-receipt-ed25519.key");
        std::fs::write(&seed, installation.receipt_seed).unwrap();
        for (plant, path) in [(Plant::LeftoverTemp, temp), (Plant::SeedBeside, seed)] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            expected.add(plant.codes()[0], path.clone());
            planted.push((plant, path));
        }
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    Directory {
        path: dir.to_path_buf(),
        bytes: made.iter().map(|m| m.bytes).sum(),
        files,
        plants: planted,
        expected,
    }
}

/// Builds, signs and writes decision `index`'s receipt (not written for a deleted one).
fn make(
    installation: &Installation,
    plan: &Plan,
    index: usize,
    plant: Option<Plant>,
    dir: &Path,
) -> Made {
    let decision = &plan.decisions[index];
    let session = &plan.sessions[decision.session as usize];
    let built = Built::new(installation, plan, decision.request);
    let (mut map, audit_line, released) = receipt(installation, plan, index, &built, plant);
    let hash = map["canonical_request_sha256"].as_str().unwrap().to_owned();
    let v2 = session.host == HostVersion::V2;
    if !v2 {
        let seed = if plant == Some(Plant::ForeignSignature) {
            installation.stranger.signing.to_bytes()
        } else {
            installation.receipt_seed
        };
        preimage::sign(&mut map, &seed).unwrap();
    }
    let mut bytes = match plant {
        Some(Plant::ArgumentEdited) => {
            // A member added to the arguments after signing; the frame is unchanged.
            let mut edited = map.clone();
            if let Some(Value::Object(arguments)) = edited.get_mut("arguments") {
                arguments.insert("dry_run".into(), json!(false));
            }
            preimage::to_file_bytes(&edited)
        }
        _ => preimage::to_file_bytes(&map),
    };
    if plant == Some(Plant::VerdictFlipped) {
        let text = String::from_utf8(bytes).unwrap();
        bytes = text
            .replacen("\"verdict\": \"BLOCK\"", "\"verdict\": \"ALLOW\"", 1)
            .into_bytes();
    }
    let name_hash = if plant == Some(Plant::Misnamed) {
        built.facts.request_sha256.clone()
    } else {
        hash
    };
    let file = (plant != Some(Plant::Deleted)).then(|| {
        let path = dir.join(format!("receipt-{:020}-{name_hash}.json", decision.counter));
        std::fs::write(&path, &bytes).unwrap();
        path
    });
    Made {
        file,
        bytes: bytes.len() as u64,
        audit_line,
        released,
        v2,
    }
}

/// The receipt of decision `index` (unsigned), its audit line, and its released operation.
pub fn receipt(
    installation: &Installation,
    plan: &Plan,
    index: usize,
    built: &Built,
    plant: Option<Plant>,
) -> (Map<String, Value>, String, Option<(String, String)>) {
    let decision: &Decision = &plan.decisions[index];
    let request = &plan.requests[decision.request];
    let session = &plan.sessions[decision.session as usize];
    let config = &installation.configs[session.config];
    let v3 = session.host == HostVersion::V3;
    let target = built.target(session.host).to_owned();
    let outcome = kernel::run(
        decision,
        request.tool,
        config.epoch,
        &built.facts.request_sha256,
        &target,
        &built.id(),
    );
    let projection = if v3 {
        built
            .facts
            .projection
            .clone()
            .expect("seal-host projects it")
    } else {
        let line = std::str::from_utf8(sealkit::frame::request_line(&built.frame)).unwrap();
        let node = recompute::read_request_line(line).unwrap();
        recompute::project(node.value.get("params"), recompute::V2).unwrap()
    };
    let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap();
    let context: Vec<(&str, Value)> = [
        ("_meta", &projection.meta),
        ("requestState", &projection.request_state),
        ("inputResponses", &projection.input_responses),
    ]
    .into_iter()
    .filter(|_| v3)
    .filter_map(|(name, text)| text.as_deref().map(|t| (name, parse(t))))
    .collect();
    let arguments = parse(&projection.arguments);

    let mut map = Map::new();
    let mut put = |name: &str, value: Value| {
        map.insert(name.to_owned(), value);
    };
    put("record_type", json!("seal.authorization-decision"));
    put("record_version", json!(if v3 { 3 } else { 2 }));
    put("tool", json!(projection.tool));
    put("arguments", arguments.clone());
    for (name, value) in &context {
        put(name, value.clone());
    }
    put("args_hash", json!(projection.args_hash));
    let mut effect = Map::new();
    effect.insert("resource".into(), json!(projection.tool));
    effect.insert("action".into(), json!("call"));
    effect.insert("arguments".into(), arguments);
    for (name, value) in context {
        effect.insert(name.into(), value);
    }
    let request_sha256 = &built.facts.request_sha256;
    put(
        "effect_view",
        json!({
            "schema": "seal.effect-view/v0",
            "source": "mcp-jsonrpc/tools-call@1",
            "adapter": {"type": "mcp-jsonrpc/tools-call", "version": "1"},
            "session": session.name,
            "effect": effect,
            "raw_preimage_sha256": request_sha256,
            "policy_hash": config.policy_hash,
            "idempotency_key": format!("{}:{request_sha256}", session.name),
            "policy_version": config.epoch,
            "policy_version_enforced": false,
            "authoritative": false,
        }),
    );
    put("now", json!(decision.now));
    put("canonical_request", json!(projection.canonical_request));
    put(
        "canonical_request_sha256",
        json!(projection.canonical_request_sha256),
    );
    put("request_sha256", json!(request_sha256));
    put("framed_subject_sha256", json!(built.facts.subject_sha256));
    put("framed_subject_length", json!(built.facts.subject_length));
    put("bypass", json!(false));
    put("verdict", json!(outcome.verdict()));
    if let Some(authorization) = outcome.authorization() {
        put("authorization", json!(authorization));
    }
    put("reason", json!(outcome.reason()));
    put(
        "deny_kernel",
        outcome.denied_by().map_or(Value::Null, |c| json!(c.kernel)),
    );
    // An approval-authorized ALLOW names the approval it consumed, and (record_version 3)
    // signs its canonical statement.
    let mut statement = None;
    if outcome.authorization() == Some("approval") {
        let approval_index = decision
            .approval
            .expect("an approved call has its approval");
        let approval = &plan.approvals[approval_index];
        let token = tokens::approve(
            installation,
            &installation.approval,
            plan,
            approval_index,
            built,
            &target,
        );
        if v3 {
            statement = Some(token.payload.canonical_bytes().unwrap());
        }
        put(
            "approval",
            json!({
                "approval_identity": {"channel": "ed25519", "key_id": installation.approval.public.key_id},
                "nonce": token.payload.nonce,
                "issued_at": approval.authorized_at,
                "expiry": approval.authorized_at + config.ttl_ms,
                "policy_hash": config.policy_hash,
            }),
        );
    }
    put(
        "certs",
        Value::Array(outcome.certs.iter().map(kernel::Cert::to_value).collect()),
    );
    put("emitted_bytes", json!(outcome.emitted_bytes));
    put(
        "kernel_identity",
        json!({"wasm_sha256": "28bb3ae71985357163e3b651791e2a70c462ea5d1313a59b4967d4c20ea77657", "self_verified": false, "note": "Re-derive against this wasm; the native executor is identified separately, not proven equivalent."}),
    );
    put(
        "host_identity",
        json!({"native_executable_sha256": "68aad9ecff61c48bbbbd16788d306124099c32a3b94acc8e480fb92da3cd411a", "lean_ffi_sha256": "0285c2754ed75c430d253e6d95f422cf5c5be1fd1babdea7a7cf7fbcd3887c88", "equivalence": "not_proven"}),
    );
    put(
        "asserted_provenance",
        json!({"verified_in_browser": false, "lean_toolchain": "leanprover/lean4:v4.28.0", "axioms": ["propext", "Classical.choice", "Quot.sound"], "note": "Source-level provenance asserted by the producer; not established by this authorization decision."}),
    );
    put(
        "signed_config",
        json!({"payload": config.payload, "signature": config.signature, "pubkey": config.pubkey}),
    );
    put("kernel_config", config.kernel_config.clone());
    let granted = if decision.safety == Safety::Approved {
        json!([{ "target": target }])
    } else {
        json!([])
    };
    put("granted_capabilities", granted);
    let mut released = None;
    if v3 {
        put(
            "signed_artifacts",
            json!({
                "encoding": "base64",
                "object_a": STANDARD.encode(&built.frame),
                "approval_statement": statement.map(|s| STANDARD.encode(s)),
            }),
        );
        let operation_id = Rng::stream(installation.seed, 8, index as u64).hex(32);
        if outcome.forwarded() {
            let status = if plant == Some(Plant::ReleaseUnknown) {
                "UNKNOWN"
            } else {
                "RELEASED"
            };
            let frame = sealkit::receipt::splice_operation_id(&built.frame, &operation_id)
                .expect("a JSON object frame");
            let frame_sha256 = sha256_hex(&frame);
            let post_state =
                json!({"operation_id": operation_id, "release_frame_sha256": frame_sha256});
            put("release_status", json!(status));
            put("operation_id", json!(operation_id));
            put("durability_class", json!("asserted_local_fsync"));
            put("release_valid_until", json!(decision.now + config.ttl_ms));
            put(
                "post_state_hash",
                json!(sha256_hex(&serde_json::to_vec(&post_state).unwrap())),
            );
            put(
                "release_frame",
                json!({"encoding": "base64", "length": frame.len(), "sha256": frame_sha256, "base64": STANDARD.encode(&frame)}),
            );
            released = Some((operation_id, frame_sha256));
        } else {
            put("release_status", json!("NOT_APPLICABLE"));
            put("operation_id", json!(operation_id));
            put("durability_class", json!("asserted_local_fsync"));
        }
    }
    (map, outcome.audit_line, released)
}
