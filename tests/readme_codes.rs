//! The README documents every stable code a script can see: each refusal code of
//! `sealkit target` appears in its refusal table with its JSON-RPC code.

use sealkit::refusal::RefusalCode;

#[test]
fn readme_lists_every_refusal_code_with_its_jsonrpc_code() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .unwrap_or_default();
    for code in RefusalCode::ALL {
        let row = format!("| `{}` | {} |", code.as_str(), code.jsonrpc_code());
        assert!(readme.contains(&row), "README.md lacks the row {row}");
    }
}
