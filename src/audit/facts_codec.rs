//! The map's facts as bytes, for an audit whose map runs in another process or on another
//! machine (`sealkit.audit_partition` in the Python package): a JSON document (serde_json)
//! `{"sealkit_audit_facts":1,"files":[…]}` with short member names, digests as lowercase hex
//! and paths as text (or `{"hex": …}` for a path that is not UTF-8). [`decode`] gives back
//! exactly the facts [`encode`] was given, or says why not; it trusts nothing else in them
//! (the reduce checks each against its listing).

use super::dir::Observed;
use super::map::{FileFacts, Outcome, ReceiptFacts};
use super::AuditError;
use crate::finding::{Code, Finding, Severity};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Document {
    sealkit_audit_facts: u32,
    files: Vec<File>,
}

#[derive(Serialize, Deserialize)]
struct File {
    /// The path check.
    c: u64,
    /// Device and inode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    i: Option<(u64, u64)>,
    /// Findings of an entry that is no receipt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    f: Option<Vec<WireFinding>>,
    /// A file seal-host does not write.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    o: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    r: Option<Receipt>,
}

#[derive(Serialize, Deserialize)]
struct WireFinding {
    c: String,
    s: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    p: Option<WirePath>,
    m: String,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum WirePath {
    Text(String),
    Bytes { hex: String },
}

#[derive(Serialize, Deserialize)]
struct Receipt {
    s: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    d: Option<String>,
    v: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    f: Vec<WireFinding>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    o: Option<WireObserved>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct WireObserved {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    canonical: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    framed: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    now: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    released: Option<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    operation: Option<String>,
}

const STATUSES: [&str; 5] = [
    "authenticated",
    "unpinned",
    "unsigned",
    "failed",
    "unreadable",
];

fn wire_path(path: &std::path::Path) -> WirePath {
    match path.to_str() {
        Some(text) => WirePath::Text(text.to_owned()),
        None => WirePath::Bytes {
            hex: hex::encode(path.as_os_str().as_encoded_bytes()),
        },
    }
}

fn path_of(wire: WirePath) -> Result<PathBuf, String> {
    match wire {
        WirePath::Text(text) => Ok(PathBuf::from(text)),
        WirePath::Bytes { hex } => {
            let bytes = hex::decode(hex).map_err(|e| e.to_string())?;
            os_path(bytes)
        }
    }
}

#[cfg(unix)]
fn os_path(bytes: Vec<u8>) -> Result<PathBuf, String> {
    use std::os::unix::ffi::OsStringExt;
    Ok(PathBuf::from(std::ffi::OsString::from_vec(bytes)))
}

#[cfg(not(unix))]
fn os_path(bytes: Vec<u8>) -> Result<PathBuf, String> {
    String::from_utf8(bytes)
        .map(PathBuf::from)
        .map_err(|_| "a path that is not UTF-8".to_owned())
}

fn wire_finding(finding: &Finding) -> WireFinding {
    WireFinding {
        c: finding.code.as_str().to_owned(),
        s: finding.severity.as_str().to_owned(),
        p: finding.path.as_deref().map(wire_path),
        m: finding.message.clone(),
    }
}

fn finding_of(wire: WireFinding) -> Result<Finding, String> {
    let code = Code::ALL
        .iter()
        .copied()
        .find(|code| code.as_str() == wire.c)
        .ok_or_else(|| format!("unknown finding code {:?}", wire.c))?;
    let severity = [Severity::Info, Severity::Warning, Severity::Error]
        .into_iter()
        .find(|s| s.as_str() == wire.s)
        .ok_or_else(|| format!("unknown severity {:?}", wire.s))?;
    Ok(Finding {
        code,
        severity,
        path: wire.p.map(path_of).transpose()?,
        message: wire.m,
    })
}

/// The facts of a list of files as bytes.
pub fn encode(facts: &[FileFacts]) -> Vec<u8> {
    let files = facts
        .iter()
        .map(|facts| {
            let mut file = File {
                c: facts.path_check,
                i: facts.file_id,
                f: None,
                o: false,
                r: None,
            };
            match &facts.outcome {
                Outcome::Findings(findings) => {
                    file.f = Some(findings.iter().map(wire_finding).collect())
                }
                Outcome::Other => file.o = true,
                Outcome::Receipt(receipt) => {
                    file.r = Some(Receipt {
                        s: receipt.status.to_owned(),
                        d: receipt.decision.clone(),
                        v: receipt.verifiable,
                        f: receipt.findings.iter().map(wire_finding).collect(),
                        o: receipt.observed.as_ref().map(|o| WireObserved {
                            session: o.session.clone(),
                            canonical: o.canonical_request_sha256.clone(),
                            framed: o.framed_subject_sha256.clone(),
                            now: o.now,
                            line: o.audit_line.clone(),
                            released: o.released.clone(),
                            operation: o.operation_id.clone(),
                        }),
                        id: receipt.identity.map(hex::encode),
                    })
                }
            }
            file
        })
        .collect();
    let document = Document {
        sealkit_audit_facts: VERSION,
        files,
    };
    // Serializing plain strings, numbers and vectors cannot fail.
    serde_json::to_vec(&document).unwrap_or_default()
}

/// The facts [`encode`] made these bytes of.
pub fn decode(bytes: &[u8]) -> Result<Vec<FileFacts>, AuditError> {
    let bad = AuditError::FactsFormat;
    let document: Document =
        serde_json::from_slice(bytes).map_err(|e| bad(format!("not a facts document: {e}")))?;
    if document.sealkit_audit_facts != VERSION {
        return Err(bad(format!(
            "facts version {} (this sealkit reads version {VERSION})",
            document.sealkit_audit_facts
        )));
    }
    document
        .files
        .into_iter()
        .map(|file| {
            let outcome = match (file.f, file.o, file.r) {
                (Some(findings), false, None) => Outcome::Findings(
                    findings
                        .into_iter()
                        .map(finding_of)
                        .collect::<Result<_, _>>()?,
                ),
                (None, true, None) => Outcome::Other,
                (None, false, Some(receipt)) => {
                    let status = STATUSES
                        .iter()
                        .copied()
                        .find(|s| *s == receipt.s)
                        .ok_or_else(|| format!("unknown status {:?}", receipt.s))?;
                    let identity = match receipt.id {
                        None => None,
                        Some(text) => Some(
                            <[u8; 32]>::try_from(hex::decode(text).map_err(|e| e.to_string())?)
                                .map_err(|_| "an identity that is not 32 bytes".to_owned())?,
                        ),
                    };
                    Outcome::Receipt(Box::new(ReceiptFacts {
                        status,
                        decision: receipt.d,
                        verifiable: receipt.v,
                        findings: receipt
                            .f
                            .into_iter()
                            .map(finding_of)
                            .collect::<Result<_, _>>()?,
                        observed: receipt.o.map(|o| Observed {
                            session: o.session,
                            canonical_request_sha256: o.canonical,
                            framed_subject_sha256: o.framed,
                            now: o.now,
                            audit_line: o.line,
                            released: o.released,
                            operation_id: o.operation,
                        }),
                        identity,
                    }))
                }
                _ => return Err("a file with no outcome or several".to_owned()),
            };
            Ok(FileFacts {
                path_check: file.c,
                file_id: file.i,
                outcome,
            })
        })
        .collect::<Result<Vec<_>, String>>()
        .map_err(bad)
}
