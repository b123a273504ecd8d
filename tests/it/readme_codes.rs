//! The documentation (README and docs/) documents every stable code a script can see: each refusal code of
//! `sealkit target` with its JSON-RPC code, each audit finding code, each V2 reader code,
//! each migration label and change, each finding code of `diff`, each verdict code of
//! `evidence`.

use sealkit::refusal::RefusalCode;

#[test]
fn readme_lists_every_refusal_code_with_its_jsonrpc_code() {
    let readme = readme();
    for code in RefusalCode::ALL {
        let row = format!("| `{}` | {} |", code.as_str(), code.jsonrpc_code());
        assert!(readme.contains(&row), "README.md lacks the row {row}");
    }
}

/// The README and the pages under docs/, where the code tables live.
fn readme() -> String {
    crate::support::documentation()
}

#[test]
fn readme_lists_every_audit_finding_code() {
    let readme = readme();
    for code in sealkit::finding::Code::ALL {
        let row = format!("| `{}` |", code.as_str());
        assert!(
            readme.contains(&row),
            "README.md lacks the finding row {row}"
        );
    }
}

#[test]
fn readme_lists_every_v2_refusal_code_and_migration_label() {
    let readme = readme();
    for code in sealkit::v2::V2RefusalCode::ALL {
        let row = format!("| `{}` |", code.as_str());
        assert!(readme.contains(&row), "README.md lacks the V2 row {row}");
    }
    for label in sealkit::migrate::Label::ALL {
        let row = format!("| `{}` |", label.as_str());
        assert!(readme.contains(&row), "README.md lacks the label row {row}");
    }
    for change in sealkit::migrate::Change::ALL {
        let row = format!("| `{}` |", change.as_str());
        assert!(
            readme.contains(&row),
            "README.md lacks the change row {row}"
        );
    }
}

#[test]
fn readme_lists_every_diff_finding_code() {
    let readme = readme();
    for code in sealkit::migrate::diff::verify::FindingCode::ALL {
        let row = format!("| `{}` |", code.as_str());
        assert!(
            readme.contains(&row),
            "README.md lacks the diff finding row {row}"
        );
    }
}

#[test]
fn readme_lists_every_evidence_code() {
    let readme = readme();
    for code in sealkit::evidence::EvidenceCode::ALL {
        let row = format!("| `{}` |", code.as_str());
        assert!(
            readme.contains(&row),
            "README.md lacks the evidence row {row}"
        );
    }
}
