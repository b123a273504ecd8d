//! Trust annotations in a capture: each response frame's `result._meta[KEY]`, paired with
//! the request it answers. Requests are identified by the one validation pipeline
//! ([`crate::request::analyze`]); responses, which that pipeline skips, are read with the one
//! JSON reader.
//!
//! Guarantees: a response is paired only with a `tools/call` the pipeline accepted, with the
//! same JSON-RPC id, in the same session (a session begins at each `initialize` or
//! `server/discover` request; the latest request with the id wins, as ids are unique among
//! requests in flight); a frame that is not one JSON object is reported, never passed over.

use super::{read_annotation, Annotation, CapturedRequest, RequestId};
use crate::frame::{self, Frame, FrameReader};
use crate::json::{self, JsonValue};
use crate::request::{self, Options, Session, SkipKind, Verdict};
use std::collections::HashMap;
use std::io::BufRead;

/// One response frame that carries a trust annotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotated {
    /// 1-based frame number of the response.
    pub line: u64,
    /// The response's id (`None`: absent or neither a string nor an integer).
    pub id: Option<RequestId>,
    /// 0-based session number in the capture.
    pub session: usize,
    pub annotation: Annotation,
    /// The request it answers, when the capture holds it.
    pub request: Option<Paired>,
}

/// The latest request of a response's id in its session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paired {
    /// A `tools/call` the validation pipeline accepted.
    Call(CapturedRequest),
    /// A `tools/call` it refuses: no identity, so no receipt can be bound to it.
    Refused { line: u64, code: &'static str },
}

/// A frame no annotation could be read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    pub line: u64,
    pub why: String,
}

/// What a capture holds for `evidence verify`.
#[derive(Debug, Default)]
pub struct Annotations {
    pub annotated: Vec<Annotated>,
    pub unreadable: Vec<Unreadable>,
    /// Responses read in all (annotated or not).
    pub responses: usize,
}

/// Reads every frame of a capture.
pub fn read<R: BufRead>(reader: R, key: &str, options: &Options) -> std::io::Result<Annotations> {
    let mut frames = FrameReader::new(reader);
    let mut state = State {
        key,
        options,
        pipeline: Session::default(),
        session: 0,
        requests: HashMap::new(),
        found: Annotations::default(),
    };
    while let Some(frame) = frames.next_frame()? {
        state.frame(&frame);
    }
    Ok(state.found)
}

/// The annotations of `captures` whose request the capture holds and the pipeline accepted,
/// each reference checked, by the exact-frame subject of that request (the incident report
/// joins them to the rows of receipts with that subject).
pub fn checked_by_request(
    captures: &[std::path::PathBuf],
    key: &str,
    context: &mut super::Context<'_>,
) -> std::io::Result<Vec<(crate::frame::Subject, super::RowAnnotation)>> {
    let mut out = Vec::new();
    for path in captures {
        let reader = crate::input::Input::new(path).open()?;
        let found = read(std::io::BufReader::new(reader), key, &Options::default())?;
        for annotated in found.annotated {
            let Some(Paired::Call(request)) = &annotated.request else {
                continue;
            };
            let references = annotated
                .annotation
                .refs
                .iter()
                .map(|read| super::CheckedRef {
                    evidence_ref: read.fields.clone(),
                    verdict: super::check(read, super::Call::Captured(request), context),
                })
                .collect();
            out.push((
                request.subject.clone(),
                super::RowAnnotation {
                    capture: path.display().to_string(),
                    line: annotated.line,
                    sensitive: annotated.annotation.sensitive,
                    references,
                },
            ));
        }
    }
    Ok(out)
}

struct State<'k> {
    key: &'k str,
    options: &'k Options,
    pipeline: Session,
    session: usize,
    requests: HashMap<RequestId, Paired>,
    found: Annotations,
}

impl State<'_> {
    fn frame(&mut self, frame: &Frame<'_>) {
        let unreadable = |why: String| Unreadable {
            line: frame.line,
            why,
        };
        if frame.is_oversized() {
            self.found.unreadable.push(unreadable(format!(
                "frame is {} bytes, over the {} byte frame limit",
                frame.length,
                frame::MAX_FRAME_BYTES
            )));
            return;
        }
        let line = frame::request_line(frame.bytes);
        if line
            .iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            return;
        }
        let text = match std::str::from_utf8(line) {
            Ok(text) => text,
            Err(e) => {
                self.found
                    .unreadable
                    .push(unreadable(format!("not UTF-8 at byte {}", e.valid_up_to())));
                return;
            }
        };
        let root = match json::parse(text, json::DUPLICATE_SCAN_DEPTH) {
            Ok(root) => root,
            Err(e) => {
                self.found.unreadable.push(unreadable(format!(
                    "not JSON: {} at byte {}",
                    e.message, e.offset
                )));
                return;
            }
        };
        if root.value.as_object().is_none() {
            self.found.unreadable.push(unreadable(format!(
                "a JSON-RPC message is an object, found {}",
                root.value.type_name()
            )));
            return;
        }
        if root.value.get("method").is_none() {
            self.response(frame.line, &root);
            return;
        }
        let id = root.value.get("id").and_then(|id| RequestId::of(&id.value));
        match request::analyze_frame(frame, self.options, &mut self.pipeline) {
            Verdict::Call(call) => {
                // The pipeline accepted the envelope, so the id is a string or an integer.
                if let Some(id) = id {
                    self.requests.insert(
                        id,
                        Paired::Call(CapturedRequest {
                            line: frame.line,
                            tool: call.tool().to_owned(),
                            subject: call.subject().clone(),
                        }),
                    );
                }
            }
            Verdict::Skipped(skipped) => {
                let begins = matches!(
                    skipped.method.as_deref(),
                    Some("initialize" | "server/discover")
                );
                if skipped.kind == SkipKind::Request && begins {
                    self.session += 1;
                    self.requests.clear();
                } else if let Some(id) = id {
                    // The latest request with this id is not a call.
                    self.requests.remove(&id);
                }
            }
            // A refused request gets no identity, so no receipt can be bound to it; it is
            // the latest request with its id.
            Verdict::Refused(refusal) => {
                if let Some(id) = id {
                    self.requests.insert(
                        id,
                        Paired::Refused {
                            line: frame.line,
                            code: refusal.code.as_str(),
                        },
                    );
                }
            }
        }
    }

    fn response(&mut self, line: u64, root: &json::Node<'_>) {
        if root.value.get("result").is_none() && root.value.get("error").is_none() {
            self.found.unreadable.push(Unreadable {
                line,
                why: "an object with neither \"method\" nor \"result\" / \"error\"".to_owned(),
            });
            return;
        }
        self.found.responses += 1;
        let annotation = root
            .value
            .get("result")
            .and_then(|result| result.value.get("_meta"))
            .and_then(|meta| match &meta.value {
                JsonValue::Object(_) => meta.value.get(self.key),
                _ => None,
            });
        let Some(annotation) = annotation else {
            return;
        };
        let id = root.value.get("id").and_then(|id| RequestId::of(&id.value));
        let request = id.as_ref().and_then(|id| self.requests.get(id)).cloned();
        self.found.annotated.push(Annotated {
            line,
            id,
            session: self.session,
            annotation: read_annotation(annotation),
            request,
        });
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    const CALL: &str =
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}"#;

    fn response(id: &str) -> String {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[],"_meta":{{"{}":{{"sensitive":false,"evidenceRef":{{"type":"x"}}}}}}}}}}"#,
            super::super::DEFAULT_ANNOTATION_KEY
        )
    }

    fn annotations(capture: &str) -> Annotations {
        read(
            capture.as_bytes(),
            super::super::DEFAULT_ANNOTATION_KEY,
            &Options::default(),
        )
        .unwrap()
    }

    #[test]
    fn responses_pair_with_the_call_of_their_id_in_their_session() {
        let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#;
        let capture = format!(
            "{init}\n{CALL}\n{}\n{}\n{init}\n{}\n",
            response("1"),
            response("\"1\""),
            response("1")
        );
        let found = annotations(&capture);
        assert_eq!(found.responses, 3);
        assert!(found.unreadable.is_empty());
        let got: Vec<(u64, usize, Option<u64>)> = found
            .annotated
            .iter()
            .map(|a| {
                let line = match &a.request {
                    Some(Paired::Call(request)) => Some(request.line),
                    _ => None,
                };
                (a.line, a.session, line)
            })
            .collect();
        // The string id "1" is another id; after the second initialize, another session.
        assert_eq!(got, [(3, 1, Some(2)), (4, 1, None), (6, 2, None)]);
        assert_eq!(found.annotated[0].annotation.sensitive, Some(false));
        assert_eq!(found.annotated[0].annotation.refs.len(), 1);
    }

    #[test]
    fn unannotated_responses_pass_and_unreadable_frames_are_reported() {
        let other_key = r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"other":{}}}}"#;
        let found = annotations(&format!("{CALL}\n{other_key}\nnot json\n[1]\n\n"));
        assert_eq!(found.responses, 1);
        assert!(found.annotated.is_empty());
        let lines: Vec<u64> = found.unreadable.iter().map(|u| u.line).collect();
        assert_eq!(lines, [3, 4]);
    }
}
