//! Copies of one seal-host fixture receipt, each with its own `now`, re-signed with sealkit's
//! own `receipt::preimage::sign`: no benchmark reads these any more (they measure varied
//! receipts from `support/evidence`); `tests/it/report_tamper.rs` still uses them for a
//! report of many receipts of one known shape.

use sealkit::receipt::preimage;
use std::path::{Path, PathBuf};

pub const TEMPLATE: &str = "testdata/receipts/legacy-vs-current/new/receipts/receipt-00000000000000000001-460d746ba064ab9398885158dddfd6d32f1722b0efe0d3b6085c8441e9127793.json";
pub const SEED: &str = "testdata/receipts/legacy-vs-current/new/receipts/.seal-receipt-ed25519.key";

/// Writes `count` receipts into `dir` (in parallel) with the modes seal-host gives them (the
/// directory 0700, each file 0600, so the audit measures a receipt directory as the host leaves
/// it, not a finding about every file) and returns their paths.
pub fn generate(
    dir: &Path,
    template: &serde_json::Map<String, serde_json::Value>,
    seed: &[u8; 32],
    count: usize,
) -> Vec<PathBuf> {
    use rayon::prelude::*;
    use std::os::unix::fs::PermissionsExt;
    let base = template["now"].as_u64().unwrap();
    let hash = template["canonical_request_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    let files = (0..count)
        .into_par_iter()
        .map(|i| {
            let mut map = template.clone();
            map.insert("now".into(), serde_json::Value::from(base + i as u64));
            preimage::sign(&mut map, seed).unwrap();
            let path = dir.join(format!("receipt-{i:020}-{hash}.json"));
            std::fs::write(&path, preimage::to_file_bytes(&map)).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            path
        })
        .collect::<Vec<PathBuf>>();
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    files
}
