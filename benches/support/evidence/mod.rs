//! The benchmarks' inputs: one seeded generator of the evidence a seal-host installation leaves
//! behind, varied as a real host's is (docs/performance.md, "Benchmark inputs"). From one seed
//! it plans the traffic ([`plan`]: host sessions of both eras and host versions, several
//! tools, arguments from 200 B to 64 KB with a long tail, allows, blocks, approvals that
//! release a re-sent call, declines, budgets running out), builds each distinct frame once
//! ([`frames`]) and derives from them:
//!
//! - receipt directories ([`receipts`]): seal-host record_version 3 receipts (record_version 2
//!   for sessions of the older host), every digest and identity recomputed through sealkit's
//!   own functions (`receipt::recompute::frame_facts`, `request::analyze`,
//!   `receipt::cert_hash`, `receipt::splice_operation_id`), released calls carrying the
//!   canonical statement of their approval, signed with `receipt::preimage::sign`; with the
//!   head state and operation state the host keeps beside them;
//! - approval token files ([`tokens`]) signed with `approval::sign`;
//! - captures ([`captures`]) holding every frame with its session's entry call;
//! - sealed chain logs and audit lines ([`chain_logs`]) over the receipts' audit lines.
//!
//! A few problems are planted in each ([`problems`]), and each generated input says what a
//! correct checker must find in it, so that `tests/it/bench_inputs.rs` can hold the
//! commands to exactly that. The same seed always gives the same bytes.

#![allow(dead_code)]

pub mod captures;
pub mod chain_logs;
pub mod frames;
pub mod kernel;
pub mod plan;
pub mod problems;
pub mod receipts;
pub mod rng;
pub mod tokens;

use sealkit::keys::{SecretKey, Signer as _};
use serde_json::{json, Map, Value};

/// The seed every benchmark uses unless `SEALKIT_BENCH_SEED` says otherwise.
pub const DEFAULT_SEED: u64 = 0x5EA1_2026_0728;

/// The seed to use: `SEALKIT_BENCH_SEED` (decimal) or [`DEFAULT_SEED`].
pub fn seed_from_env() -> u64 {
    std::env::var("SEALKIT_BENCH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED)
}

/// How many receipts a benchmark generates: `SEALKIT_BENCH_RECEIPTS`, else 100,000 (the
/// directory size the goals are stated at).
pub fn count_from_env() -> usize {
    std::env::var("SEALKIT_BENCH_RECEIPTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000)
}

/// The largest argument the plan gives a request: `SEALKIT_BENCH_ARGS_MAX` (bytes, at least
/// the 200 every request has), else none (the long tail up to 64 KB). For measuring memory at
/// a million receipts without writing 13 GB: what the audit keeps per receipt does not depend
/// on the receipt's size. Figures measured with it say so.
pub fn argument_cap_from_env() -> Option<usize> {
    std::env::var("SEALKIT_BENCH_ARGS_MAX")
        .ok()
        .and_then(|n| n.parse().ok())
}

/// Where a benchmark keeps what it generates: `SEALKIT_BENCH_DIR` (kept after the run, for
/// profiling), else `temporary`.
pub fn dir_from_env(temporary: &std::path::Path) -> std::path::PathBuf {
    std::env::var_os("SEALKIT_BENCH_DIR").map_or_else(|| temporary.to_path_buf(), Into::into)
}

/// One signed kernel configuration, as the receipts embed it.
pub struct Config {
    pub epoch: u64,
    /// The signed payload text (compact JSON, ASCII).
    pub payload: String,
    /// Ed25519 over the payload bytes, 128 hex.
    pub signature: String,
    pub pubkey: String,
    /// The parsed payload.
    pub kernel_config: Value,
    /// sha256 of serde_json's compact rendering of `kernel_config`.
    pub policy_hash: String,
    /// The operator's server identity (`""` when the config names none).
    pub server: String,
    pub ttl_ms: u64,
    /// Per-session cap of the `db-calls` budget.
    pub budget_cap: u64,
    /// Whether `mail.send` has a guarded rule (else no rule matches it).
    pub mail_guarded: bool,
}

/// The keys and configurations of one installation.
pub struct Installation {
    pub seed: u64,
    /// The receipt-signing seed (`.seal-receipt-ed25519.key`).
    pub receipt_seed: [u8; 32],
    /// The approval key every token and approval statement is signed with.
    pub approval: SecretKey,
    /// A key the installation does not trust (planted forgeries).
    pub stranger: SecretKey,
    pub configs: Vec<Config>,
}

impl Installation {
    pub fn new(seed: u64) -> Self {
        let mut rng = rng::Rng::stream(seed, 1, 0);
        let receipt_seed = rng.bytes32();
        let approval = SecretKey::from_seed(&rng.bytes32());
        let stranger = SecretKey::from_seed(&rng.bytes32());
        let config_key = SecretKey::from_seed(&rng.bytes32());
        let configs = vec![
            config(&config_key, 1, "", 120, 600, false),
            config(&config_key, 2, "prod-mcp-gateway", 180, 400, true),
        ];
        Installation {
            seed,
            receipt_seed,
            approval,
            stranger,
            configs,
        }
    }

    /// The receipt key's public half, 64 hex (what `--receipt-key` pins).
    pub fn receipt_public_hex(&self) -> String {
        sealkit::digest::hex_lower(&sealkit::signature::public_key_of_seed(&self.receipt_seed))
    }
}

fn config(
    key: &SecretKey,
    epoch: u64,
    server: &str,
    ttl_seconds: u64,
    budget_cap: u64,
    mail_guarded: bool,
) -> Config {
    let guarded = |name: &str| json!({"name": name, "mode": "guarded", "match": {"type": "always"}, "target": [{"full_arguments": true}]});
    let allow = |name: &str| json!({"name": name, "mode": "allow", "match": {"type": "always"}});
    let mut tools = vec![
        allow("docs.read"),
        allow("search.query"),
        allow("db.query"),
        json!({"name": "db.execute", "mode": "guarded", "match": {"type": "contains_any_ci", "arg": "sql", "needles": ["drop", "delete", "truncate"]}, "target": [{"full_arguments": true}]}),
        guarded("fs.write_file"),
        guarded("payments.send"),
    ];
    if mail_guarded {
        tools.push(guarded("mail.send"));
    }
    tools.push(
        json!({"name": "approve", "mode": "deny", "match": {"type": "always"}, "target": []}),
    );
    let mut config = Map::new();
    config.insert("epoch".into(), json!(epoch));
    if !server.is_empty() {
        config.insert("server".into(), json!(server));
    }
    config.insert(
        "safety".into(),
        json!({
            "approval": {
                "control_file": "/var/lib/seal-host/approvals.ndjson",
                "ttl_seconds": ttl_seconds,
                "replay_store": {"sqlite_path": "/var/lib/seal-host/replay.sqlite", "schema_version": 2, "namespace_encoding_version": 1}
            },
            "tools": tools,
        }),
    );
    config.insert(
        "temporal".into(),
        json!({"policies": [{"name": "no-destructive-after-revoke", "type": "no_after", "trigger": ["session.revoke"], "forbidden": ["db.execute"]}]}),
    );
    config.insert(
        "consensus".into(),
        json!({"roster": [1, 2, 3], "votes_file": "/var/lib/seal-host/votes.ndjson", "high_stakes": ["payments.send"]}),
    );
    config.insert(
        "budget".into(),
        json!({"budgets": [{"name": "db-calls", "cap": budget_cap, "tools": ["db.query", "db.execute"]}]}),
    );
    let kernel_config = Value::Object(config);
    let payload = serde_json::to_string(&kernel_config).unwrap();
    let signature = sealkit::digest::hex_lower(&key.sign_bytes(payload.as_bytes()).unwrap());
    let policy_hash = sealkit::digest::sha256_hex(&serde_json::to_vec(&kernel_config).unwrap());
    Config {
        epoch,
        payload,
        signature,
        pubkey: key.public.hex.clone(),
        kernel_config,
        policy_hash,
        server: server.to_owned(),
        ttl_ms: sealkit::approval::effective_ttl_ms(ttl_seconds),
        budget_cap,
        mail_guarded,
    }
}

/// One planned frame and what sealkit's own identity engine makes of it under its session's
/// configuration (`receipt::recompute::frame_facts`: subject, request hash, seal-host's
/// projection, the host target, and the engine's call with every profile's identities).
pub struct Built {
    pub frame: Vec<u8>,
    pub facts: sealkit::receipt::recompute::FrameFacts,
}

impl Built {
    pub fn new(installation: &Installation, plan: &plan::Plan, request: usize) -> Self {
        let session = &plan.sessions[plan.requests[request].session as usize];
        let server = &installation.configs[session.config].server;
        let frame = frames::build(plan, installation.seed, request);
        let facts = sealkit::receipt::recompute::frame_facts(&frame, server);
        Built { frame, facts }
    }

    /// The engine's call (every generated frame is one today's validation accepts).
    pub fn call(&self) -> &sealkit::request::Call {
        self.facts
            .call
            .as_deref()
            .expect("every generated frame is accepted")
    }

    /// The guard target the safety kernel names under `host`: the host-profile target for the
    /// current host, the legacy one for the `_meta`-blind host.
    pub fn target(&self, host: plan::HostVersion) -> &str {
        match host {
            plan::HostVersion::V3 => self.facts.host_target.as_deref().expect("a target"),
            plan::HostVersion::V2 => &self.call().identities().legacy.target,
        }
    }

    /// The frame's JSON-RPC id.
    pub fn id(&self) -> Value {
        let value: Value = serde_json::from_slice(&self.frame).expect("JSON");
        value["id"].clone()
    }
}
