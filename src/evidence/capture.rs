//! Trust annotations in a capture: each response frame's `result._meta[KEY]`, paired with
//! the request it answers. Every frame is read once by the one strict frame reader
//! ([`crate::frame::read_strict`]), which refuses a member name written twice anywhere in it;
//! requests are then identified by the one validation pipeline ([`crate::request::analyze`]),
//! and responses are read from the strict reading.
//!
//! Guarantees: a response is paired only with a `tools/call` the pipeline accepted, with the
//! same JSON-RPC id, in the same session (a session begins at each `initialize` or
//! `server/discover` request; the latest request with the id wins, as ids are unique among
//! requests in flight); every frame that is not read (not one JSON object, over the frame
//! limit, a member name twice, or neither a request, a notification nor a response) is
//! reported in its place among the annotations, never passed over.

use super::{read_annotation, Annotation, CapturedRequest, EvidenceCode, RequestId};
use crate::frame::{self, Frame, FrameReader, Unread};
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

/// A frame no annotation was read from, though it may carry one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotRead {
    pub line: u64,
    /// `evidence-frame-unreadable`, `evidence-frame-unclassifiable` or `duplicate-key`.
    pub code: EvidenceCode,
    pub why: String,
}

impl NotRead {
    fn of(line: u64, unread: &Unread) -> NotRead {
        let code = match unread {
            Unread::Repeated(_) => EvidenceCode::DuplicateKey,
            Unread::Oversized(_) | Unread::NotUtf8(_) | Unread::NotJson(_) => {
                EvidenceCode::EvidenceFrameUnreadable
            }
        };
        NotRead {
            line,
            code,
            why: unread.to_string(),
        }
    }
}

/// One frame that matters to evidence: an annotated response, or a frame not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    Annotated(Annotated),
    NotRead(NotRead),
}

/// What a capture holds for evidence checks, in frame order.
#[derive(Debug, Default)]
pub struct Annotations {
    pub found: Vec<Found>,
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

/// What a JSON-RPC message is, by its members: the one classification of a captured frame.
enum Kind<'n> {
    /// `method` a string, no `result` or `error`: a request (with `id`) or a notification.
    Message,
    /// No `method`, exactly one of `result` and `error`.
    Response { result: Option<&'n json::Node<'n>> },
}

/// The frame's kind, or why it has none a reader can agree on.
fn classify<'n>(root: &'n json::Node<'n>) -> Result<Kind<'n>, String> {
    let value = &root.value;
    let (result, error) = (value.get("result"), value.get("error"));
    match value.get("method") {
        Some(method) => match (&method.value, result.or(error)) {
            (JsonValue::String(_), None) => Ok(Kind::Message),
            (JsonValue::String(_), Some(_)) => Err(format!(
                "\"method\" beside \"{}\": neither a request nor a response",
                if result.is_some() { "result" } else { "error" }
            )),
            (other, _) => Err(format!(
                "\"method\" is {}, not a string: neither a request nor a response",
                other.type_name()
            )),
        },
        None => match (result, error) {
            (Some(_), Some(_)) => {
                Err("both \"result\" and \"error\": a response has one of them".to_owned())
            }
            (None, None) => {
                Err("an object with neither \"method\" nor \"result\" / \"error\"".to_owned())
            }
            (result, _) => Ok(Kind::Response { result }),
        },
    }
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
    fn not_read(&mut self, line: u64, code: EvidenceCode, why: String) {
        self.found
            .found
            .push(Found::NotRead(NotRead { line, code, why }));
    }

    fn frame(&mut self, frame: &Frame<'_>) {
        let root = match frame::read_strict(frame) {
            Ok(Some(root)) => root,
            Ok(None) => return,
            Err(unread) => {
                self.found
                    .found
                    .push(Found::NotRead(NotRead::of(frame.line, &unread)));
                return;
            }
        };
        if root.value.as_object().is_none() {
            self.not_read(
                frame.line,
                EvidenceCode::EvidenceFrameUnreadable,
                format!(
                    "a JSON-RPC message is an object, found {}",
                    root.value.type_name()
                ),
            );
            return;
        }
        let id = root.value.get("id").and_then(|id| RequestId::of(&id.value));
        match classify(&root) {
            Err(why) => self.not_read(frame.line, EvidenceCode::EvidenceFrameUnclassifiable, why),
            Ok(Kind::Response { result }) => self.response(frame.line, id, result),
            Ok(Kind::Message) => self.message(frame, id),
        }
    }

    /// A request or notification: a `tools/call` the pipeline accepts is remembered under
    /// its id; a session begins at `initialize` / `server/discover`.
    fn message(&mut self, frame: &Frame<'_>, id: Option<RequestId>) {
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

    fn response(&mut self, line: u64, id: Option<RequestId>, result: Option<&json::Node<'_>>) {
        self.found.responses += 1;
        let annotation = result
            .and_then(|result| result.value.get("_meta"))
            .and_then(|meta| match &meta.value {
                JsonValue::Object(_) => meta.value.get(self.key),
                _ => None,
            });
        let Some(annotation) = annotation else {
            return;
        };
        let request = id.as_ref().and_then(|id| self.requests.get(id)).cloned();
        self.found.found.push(Found::Annotated(Annotated {
            line,
            id,
            session: self.session,
            annotation: read_annotation(annotation),
            request,
        }));
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

    fn annotated(found: &Annotations) -> Vec<&Annotated> {
        (found.found.iter())
            .filter_map(|f| match f {
                Found::Annotated(a) => Some(a),
                Found::NotRead(_) => None,
            })
            .collect()
    }

    fn not_read(found: &Annotations) -> Vec<(u64, EvidenceCode)> {
        (found.found.iter())
            .filter_map(|f| match f {
                Found::NotRead(n) => Some((n.line, n.code)),
                Found::Annotated(_) => None,
            })
            .collect()
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
        assert!(not_read(&found).is_empty());
        let got: Vec<(u64, usize, Option<u64>)> = annotated(&found)
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
        assert_eq!(annotated(&found)[0].annotation.sensitive, Some(false));
        assert_eq!(annotated(&found)[0].annotation.refs.len(), 1);
    }

    #[test]
    fn unannotated_responses_pass_and_unread_frames_are_reported_in_place() {
        let other_key = r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"other":{}}}}"#;
        let found = annotations(&format!(
            "{CALL}\n{other_key}\nnot json\n[1]\n\n{{\"id\":1}}\n"
        ));
        assert_eq!(found.responses, 1);
        assert!(annotated(&found).is_empty());
        assert_eq!(
            not_read(&found),
            [
                (3, EvidenceCode::EvidenceFrameUnreadable),
                (4, EvidenceCode::EvidenceFrameUnreadable),
                (6, EvidenceCode::EvidenceFrameUnclassifiable)
            ]
        );
    }

    /// Every shape that is neither a request, a notification nor a response is reported;
    /// a repeated member anywhere refuses the frame, whatever it is.
    #[test]
    fn frames_without_one_kind_or_with_a_repeated_member_are_not_read() {
        let result = r#""result":{"_meta":{}}"#;
        let cases = [
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":null,{result}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call",{result}}}"#),
            r#"{"jsonrpc":"2.0","id":1,"method":"x","error":{}}"#.to_owned(),
            format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{}},{result}}}"#),
        ];
        for case in &cases {
            let found = annotations(&format!("{CALL}\n{case}\n"));
            assert_eq!(
                not_read(&found),
                [(2, EvidenceCode::EvidenceFrameUnclassifiable)],
                "{case}"
            );
        }
        let repeated = [
            format!(r#"{{"jsonrpc":"2.0","id":1,"id":2,{result}}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":1,{result},{result}}}"#),
            r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"a":1,"\u0061":2}}}"#.to_owned(),
            r#"{"jsonrpc":"2.0","id":1,"\u0069d":1,"method":"tools/call","params":{}}"#.to_owned(),
        ];
        for case in &repeated {
            let found = annotations(&format!("{CALL}\n{case}\n"));
            assert_eq!(
                not_read(&found),
                [(2, EvidenceCode::DuplicateKey)],
                "{case}"
            );
            assert_eq!(found.responses, 0, "{case}");
        }
    }
}
