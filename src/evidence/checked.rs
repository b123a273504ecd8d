//! Every reference of a capture or a file of references, checked, with where it was read:
//! the one evaluation `evidence verify` prints and the incident report shows. Guarantees:
//! every annotated response yields each of its references with its verdict, and every
//! captured frame that was not read (unreadable, unclassifiable, a member name twice) yields
//! one verdict in its place, in frame order; the exit status over them ([`outcome`]) is the
//! worst of theirs and of the inputs', and "could not check" when there was nothing to check.

use super::capture::{self, Found, Paired};
use super::{
    check, frame_verdict, refs, Call, CapturedRequest, CheckedRef, Context, EvidenceRef, RequestId,
    Verdict,
};
use crate::outcome::Outcome;
use crate::request::Options;
use serde::Serialize;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// Where a reference was read.
#[derive(Debug, Clone, Serialize)]
pub struct Source {
    /// The capture or reference file.
    #[serde(flatten, serialize_with = "crate::path_json::file")]
    pub file: PathBuf,
    /// `frames` or `refs`.
    pub input: &'static str,
    /// 1-based frame or line number (a whole-file JSON value: 1).
    pub line: u64,
    /// 0-based position among the references read there.
    pub index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<CapturedRequest>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sensitive: Option<bool>,
}

/// One reference's result, as `evidence verify --format json|jsonl` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    #[serde(flatten)]
    pub source: Source,
    /// The reference's string members, exactly.
    #[serde(rename = "evidenceRef")]
    pub evidence_ref: EvidenceRef,
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// The request an annotated response answers, as the report's JSON shows it.
impl Serialize for Paired {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        match self {
            Paired::Call(request) => request.serialize(serializer),
            Paired::Refused { line, code } => {
                let mut record = serializer.serialize_struct("Refused", 2)?;
                record.serialize_field("line", line)?;
                record.serialize_field("refused", code)?;
                record.end()
            }
        }
    }
}

/// One captured frame that carries references, each checked: an annotated response, or a
/// frame not read (its one verdict, with an empty reference).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckedFrame {
    /// 1-based frame number.
    pub line: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<usize>,
    /// The request the response answers, when the capture holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<Paired>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sensitive: Option<bool>,
    pub references: Vec<CheckedRef>,
}

impl CheckedFrame {
    /// Whether the frame was read (an annotated response) rather than reported unread.
    pub fn was_read(&self) -> bool {
        self.session.is_some()
    }

    /// One record per reference, as `evidence verify` prints them.
    pub fn records<'a>(&'a self, file: &'a Path) -> impl Iterator<Item = Record> + 'a {
        self.references
            .iter()
            .enumerate()
            .map(move |(index, checked)| Record {
                source: Source {
                    file: file.to_path_buf(),
                    input: "frames",
                    line: self.line,
                    index,
                    id: self.id.clone(),
                    session: self.session,
                    request: match &self.request {
                        Some(Paired::Call(request)) => Some(request.clone()),
                        _ => None,
                    },
                    sensitive: self.sensitive,
                },
                evidence_ref: checked.evidence_ref.clone(),
                verdict: checked.verdict.clone(),
            })
    }
}

/// Reads a capture and checks every reference of every annotated response against the
/// context, each bound to the call its response answers; every frame not read is there too.
pub fn check_capture<R: BufRead>(
    reader: R,
    key: &str,
    context: &mut Context<'_>,
) -> std::io::Result<Vec<CheckedFrame>> {
    let found = capture::read(reader, key, &Options::default())?;
    Ok(found
        .found
        .into_iter()
        .map(|found| match found {
            Found::NotRead(not_read) => CheckedFrame {
                line: not_read.line,
                id: None,
                session: None,
                request: None,
                sensitive: None,
                references: vec![CheckedRef {
                    evidence_ref: EvidenceRef::default(),
                    verdict: frame_verdict(not_read.code, not_read.why),
                }],
            },
            Found::Annotated(annotated) => {
                let call = match &annotated.request {
                    Some(Paired::Call(request)) => Call::Captured(request),
                    Some(Paired::Refused { line, code }) => Call::Refused(*line, code),
                    None => Call::NotCaptured,
                };
                let references = (annotated.annotation.refs.iter())
                    .map(|read| CheckedRef {
                        evidence_ref: read.fields.clone(),
                        verdict: check(read, call, context),
                    })
                    .collect();
                CheckedFrame {
                    line: annotated.line,
                    id: annotated.id,
                    session: Some(annotated.session),
                    request: annotated.request,
                    sensitive: annotated.annotation.sensitive,
                    references,
                }
            }
        })
        .collect())
}

/// Checks every reference of a file of references (no call: binding `not-applicable`).
pub fn check_refs(text: &str, file: &Path, context: &mut Context<'_>) -> Vec<Record> {
    refs::refs_in(text)
        .into_iter()
        .map(|(line, index, read)| Record {
            source: Source {
                file: file.to_path_buf(),
                input: "refs",
                line,
                index,
                id: None,
                session: None,
                request: None,
                sensitive: None,
            },
            verdict: check(&read, Call::None, context),
            evidence_ref: read.fields,
        })
        .collect()
}

/// The exit status of a check: the worst of `inputs` (what reading the inputs concluded)
/// and every record's; with no record, nothing was checked.
pub fn outcome(inputs: Outcome, records: &[Record]) -> Outcome {
    if records.is_empty() {
        return Outcome::Unchecked;
    }
    records
        .iter()
        .map(|record| record.verdict.outcome())
        .fold(inputs, Outcome::worst)
}
