//! The report's model built in one pass over the audit's stream: the inputs bounded by their
//! own files (tokens, chains, captured frames, annotations) are read first, then each
//! receipt is joined as it comes ([`super::joins`], [`super::chain_order`]), counted
//! ([`super::tally`]) and either kept ([`super::sample`]) or, for `--format jsonl`, handed
//! on as soon as its joins are final. Guarantees: the joins, counts and verdict are those of
//! every receipt, whatever their number; what is held per receipt is its timeline point
//! (9 bytes) and, when chains are given, the earliest receipts of each request hash the
//! chains have (no more than the chains' entries); rows are held only when kept. Nothing
//! here prints or reads files.

use super::chain_order::{Groups, Held};
use super::joins::{FrameJoins, TokenIndex};
use super::model::{self, CaptureAnnotation, Chain, Input, Model, Row, TokenEvidence, Trust};
use super::sample::Sample;
use super::tally::Tally;
use crate::audit::finding_list::FindingList;
use crate::audit::ReceiptEntry;
use crate::evidence::capture::Paired;
use crate::evidence::checked::CheckedFrame;
use crate::evidence::RowAnnotation;
use crate::finding::{Code, Finding};
use crate::frame::Subject;
use crate::migrate::frames::FrameIndex;
use crate::outcome::Outcome;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

/// Everything read before the receipts.
#[derive(Default)]
pub struct Evidence {
    pub title: String,
    /// The inputs read so far (the receipt directories are put first when counted).
    pub inputs: Vec<Input>,
    /// The receipt directories.
    pub roots: Vec<PathBuf>,
    pub trust: Trust,
    /// `None`: no token file was given.
    pub tokens: Option<Vec<TokenEvidence>>,
    pub chains: Vec<Chain>,
    /// `None`: no capture was given.
    pub frames: Option<FrameIndex>,
    /// Every annotated response and every frame not read of the captures, checked as
    /// `evidence verify` checks them, with the capture it is in.
    pub annotations: Vec<(String, CheckedFrame)>,
}

/// Where the finished rows go: the bounded model, or one by one to a writer.
pub enum Rows<'w> {
    Model(Sample),
    Each(&'w mut dyn FnMut(&Row) -> io::Result<()>),
}

/// What a receipt waiting for the chain join keeps of itself.
struct Waiting {
    file: String,
    tool: Option<String>,
    class: &'static str,
    /// The whole row, when rows are handed on one by one.
    row: Option<Box<Row>>,
}

pub struct Builder<'w> {
    title: String,
    inputs: Vec<Input>,
    roots: Vec<(PathBuf, u64)>,
    trust: Trust,
    tokens: TokenIndex,
    chains: Vec<Chain>,
    groups: Option<Groups<Waiting>>,
    frames: FrameJoins,
    annotations: Annotations,
    tally: Tally,
    /// Findings not about one receipt, from the audit.
    findings: FindingList,
    seq: usize,
    rows: Rows<'w>,
}

impl<'w> Builder<'w> {
    pub fn new(evidence: Evidence, deny_warnings: bool, rows: Rows<'w>) -> Self {
        let annotations = Annotations::new(evidence.annotations);
        let groups = (!evidence.chains.is_empty()).then(|| Groups::new(&evidence.chains));
        Builder {
            title: evidence.title,
            inputs: evidence.inputs,
            roots: evidence.roots.into_iter().map(|root| (root, 0)).collect(),
            tokens: TokenIndex::new(evidence.tokens, evidence.trust.ttl_seconds),
            trust: evidence.trust,
            chains: evidence.chains,
            groups,
            frames: FrameJoins::new(evidence.frames),
            annotations,
            tally: Tally::new(deny_warnings),
            findings: FindingList::default(),
            seq: 0,
            rows,
        }
    }

    /// A finding of the audit not about one receipt, set aside (the error: the findings set
    /// aside can no longer all come back, so the report stops saying why).
    pub fn finding(&mut self, finding: &Finding) -> io::Result<()> {
        self.findings.push(finding)
    }

    /// One receipt as the audit checked it: joined, counted, and kept or handed on.
    pub fn receipt(&mut self, entry: &ReceiptEntry) -> io::Result<()> {
        let each = matches!(self.rows, Rows::Each(_));
        let mut row = model::row_of(entry, each);
        row.seq = self.seq;
        self.seq += 1;
        for (root, count) in &mut self.roots {
            *count += u64::from(Path::new(&row.file).starts_with(root));
        }
        self.tokens.join(&mut row);
        row.chain_slot = row.findings.len();
        // Whether the chain join must wait for the other receipts of this request hash.
        let mut waits = None;
        if let Some(groups) = &self.groups {
            match &row.request_sha256 {
                Some(hash) if groups.has(hash) => waits = Some(hash.clone()),
                hash => row.findings.push(not_in_chain(&row.file, hash.is_some())),
            }
        }
        self.frames.join(&mut row, each);
        self.annotations.join(&mut row);
        self.tally.row(&row);
        let Some(hash) = waits else {
            return self.hand_on(row);
        };
        let order = (row.time, row.seq);
        let waiting = Waiting {
            file: row.file.clone(),
            tool: row.tool.clone(),
            class: row.class,
            row: None,
        };
        let (waiting, row) = if each {
            (
                Waiting {
                    row: Some(Box::new(row)),
                    ..waiting
                },
                None,
            )
        } else {
            (waiting, Some(row))
        };
        // The row goes into the sample before a late finding can reach it.
        if let Some(row) = row {
            self.hand_on(row)?;
        }
        let groups = self
            .groups
            .as_mut()
            .ok_or_else(|| io::Error::other("no chains"))?;
        match groups.offer(
            &hash,
            Held {
                order,
                payload: waiting,
            },
        ) {
            Some(unjoined) => self.unjoined(unjoined),
            None => Ok(()),
        }
    }

    /// A receipt now certain to join no chain entry: its finding, counted, and on its row.
    fn unjoined(&mut self, held: Held<Waiting>) -> io::Result<()> {
        let (time, seq) = held.order;
        let waiting = held.payload;
        let finding = not_in_chain(&waiting.file, true);
        self.tally.row_finding(&finding, time, seq);
        match waiting.row {
            Some(mut row) => {
                row.add_chain_finding(finding);
                self.hand_on(*row)
            }
            None => {
                if let Rows::Model(sample) = &mut self.rows {
                    sample.late_finding(seq, finding, waiting.tool, waiting.class, time);
                }
                Ok(())
            }
        }
    }

    /// A row whose joins are final (but for a late chain finding while it is kept).
    fn hand_on(&mut self, mut row: Row) -> io::Result<()> {
        match &mut self.rows {
            Rows::Model(sample) => {
                sample.offer(row);
                Ok(())
            }
            Rows::Each(write) => {
                finish_row(&mut row, self.trust.server.as_deref());
                write(&row)
            }
        }
    }

    /// Completes the joins (chains, token uses), the counts and the verdict; with rows
    /// handed on one by one, hands on those that waited for the chain join (in decision-time
    /// order) and leaves the model's rows empty.
    pub fn finish(mut self) -> io::Result<Model> {
        let mut chains = std::mem::take(&mut self.chains);
        if let Some(groups) = self.groups.take() {
            for (held, join) in groups.finish(&mut chains) {
                if !join.head_ok {
                    self.tally.chain_break(held.order.0);
                }
                match held.payload.row {
                    Some(mut row) => {
                        row.chain = Some(Box::new(join));
                        self.hand_on(*row)?;
                    }
                    None => {
                        if let Rows::Model(sample) = &mut self.rows {
                            if let Some(row) = sample.kept(held.order.1) {
                                row.chain = Some(Box::new(join));
                            }
                        }
                    }
                }
            }
        }
        let whole = matches!(self.rows, Rows::Model(_));
        let (mut rows, omitted) = match std::mem::take(&mut self.rows) {
            Rows::Model(sample) => sample.finish(),
            Rows::Each(_) => (Vec::new(), Vec::new()),
        };
        // Chain entries point at the rows kept; the others are counted, not listed.
        let position: HashMap<usize, usize> = (rows.iter().enumerate())
            .map(|(at, row)| (row.seq, at))
            .collect();
        let mut findings = std::mem::take(&mut self.findings);
        // JSON Lines lists every annotation on no row, as it lists every row.
        let (annotations, annotations_omitted) = self.annotations.unjoined(whole);
        let more = (annotations.iter().flat_map(unjoined_findings))
            .chain(model::token_findings(&self.tokens.tokens))
            .chain(model::chain_findings(&chains));
        for finding in more {
            findings.push(&finding)?;
        }
        // Most serious first everywhere (stable: ties keep their order): the list's order.
        findings.each_most_serious_first(|finding| {
            self.tally.other_finding(&finding);
            Ok(())
        })?;
        for chain in &mut chains {
            chain.entries.retain_mut(|entry| {
                entry.row = entry.row.and_then(|seq| position.get(&seq).copied());
                !entry.head_ok || !entry.joined || entry.row.is_some()
            });
        }
        self.tokens.list_users(&rows);
        let server = self.trust.server.clone();
        for row in &mut rows {
            self.frames.attach_bytes(row);
        }
        model::analyse_frames(&mut rows, server.as_deref());
        for row in &mut rows {
            finish_row(row, None);
        }
        let (mut summary, verdict, timeline) =
            self.tally
                .conclude(&self.tokens.tokens, &chains, self.frames.counts());
        summary.rows_omitted = omitted.iter().map(|a| a.receipts).sum();
        let mut inputs: Vec<Input> = (self.roots.iter())
            .map(|(root, count)| Input {
                role: "receipts",
                path: root.display().to_string(),
                bytes: *count,
                sha256: None,
            })
            .collect();
        inputs.append(&mut self.inputs);
        let mut model = Model {
            title: self.title,
            generated_at: None,
            verdict,
            sentences: Vec::new(),
            summary,
            rows,
            omitted,
            tokens: self.tokens.tokens,
            chains,
            findings,
            annotations,
            annotations_omitted,
            inputs,
            trust: self.trust,
            timeline,
        };
        // The sentences need the rows (every receipt that does not authenticate is one).
        if whole {
            model.sentences = super::sentences::of(&model);
        }
        Ok(model)
    }
}

impl Default for Rows<'_> {
    fn default() -> Self {
        Rows::Model(Sample::default())
    }
}

/// The captures' checked annotations: those of accepted calls by their request's exact-frame
/// subject, to join the rows of that call's receipts, and whether any row joined each.
struct Annotations {
    all: Vec<(String, CheckedFrame)>,
    by_subject: HashMap<Subject, Vec<usize>>,
    joined: Vec<bool>,
}

impl Annotations {
    fn new(all: Vec<(String, CheckedFrame)>) -> Self {
        let mut by_subject: HashMap<Subject, Vec<usize>> = HashMap::new();
        for (at, (_, frame)) in all.iter().enumerate() {
            if let Some(Paired::Call(request)) = &frame.request {
                by_subject
                    .entry(request.subject.clone())
                    .or_default()
                    .push(at);
            }
        }
        let joined = vec![false; all.len()];
        Annotations {
            all,
            by_subject,
            joined,
        }
    }

    /// The trust annotations of the captured responses to the row's request (same
    /// exact-frame subject), and a finding for each reference that failed its check (an
    /// error) or could not be checked: the report checked them, so their outcome counts in
    /// its verdict and exit status, and a row with one is kept whole (seen red with the
    /// findings left out: a forged annotation on a good receipt's row left the report at
    /// exit 0).
    fn join(&mut self, row: &mut Row) {
        let Some(subject) = &row.subject else {
            return;
        };
        let Some(found) = self.by_subject.get(subject) else {
            return;
        };
        for &at in found {
            self.joined[at] = true;
            let (capture, frame) = &self.all[at];
            let annotation = RowAnnotation {
                capture: capture.clone(),
                line: frame.line,
                sensitive: frame.sensitive,
                references: frame.references.clone(),
            };
            for reference in &annotation.references {
                if let Some(code) = finding_code(reference.verdict.outcome()) {
                    row.findings.push(Finding::new(
                        code,
                        Some(PathBuf::from(&row.file)),
                        format!(
                            "{} frame {}: evidenceRef {}",
                            annotation.capture,
                            annotation.line,
                            reference.line()
                        ),
                    ));
                }
            }
            row.annotations.push(annotation);
        }
    }

    /// The annotations no row joined, and the frames not read, in capture and frame order:
    /// every one with a reference that did not verify, and, when `bounded`, the first
    /// [`KEPT_GOOD`] of the others (the rest counted in the second value), so the model stays
    /// bounded as its rows are; otherwise every one (JSON Lines, which lists every row).
    fn unjoined(&mut self, bounded: bool) -> (Vec<CaptureAnnotation>, u64) {
        let all = std::mem::take(&mut self.all);
        let mut good = 0usize;
        let mut omitted = 0u64;
        let kept = (all.into_iter().zip(&self.joined))
            .filter(|(_, joined)| !**joined)
            .filter(|((_, frame), _)| {
                let verified =
                    (frame.references.iter()).all(|r| r.verdict.outcome() == Outcome::Good);
                if !verified {
                    return true;
                }
                if !bounded {
                    return true;
                }
                good += 1;
                omitted += u64::from(good > KEPT_GOOD);
                good <= KEPT_GOOD
            })
            .map(|((capture, frame), _)| {
                let unjoined = match &frame.request {
                    _ if !frame.was_read() => "frame-not-read",
                    Some(Paired::Call(_)) => "no-receipt",
                    Some(Paired::Refused { .. }) => "request-refused",
                    None => "request-not-captured",
                };
                CaptureAnnotation {
                    capture,
                    frame,
                    unjoined,
                }
            })
            .collect();
        (kept, omitted)
    }
}

/// Annotations on no row whose every reference verified, listed in the model (the others
/// are counted): those that did not verify are all listed.
const KEPT_GOOD: usize = 200;

/// The finding a reference's verdict puts in the report: none when it verified.
fn finding_code(outcome: Outcome) -> Option<Code> {
    match outcome {
        Outcome::Good => None,
        Outcome::Problems => Some(Code::AnnotationEvidenceFailed),
        Outcome::Unchecked => Some(Code::AnnotationEvidenceNotChecked),
    }
}

/// The findings of an annotation on no row (or a frame not read), about its capture: as on
/// a row, a reference that failed is an error, one not checked cannot be passed over.
fn unjoined_findings(annotation: &CaptureAnnotation) -> Vec<Finding> {
    let frame = &annotation.frame;
    let call = match &frame.request {
        _ if !frame.was_read() => "not read".to_owned(),
        Some(Paired::Call(request)) => format!(
            "answering request frame {} ({}), a call no receipt of the directories is for",
            request.line, request.tool
        ),
        Some(Paired::Refused { line, code }) => {
            format!(
                "answering request frame {line}, which the validation pipeline refuses ({code})"
            )
        }
        None => "answering a request the capture does not hold".to_owned(),
    };
    (frame.references.iter())
        .filter_map(|reference| {
            let code = finding_code(reference.verdict.outcome())?;
            let what = if frame.was_read() {
                format!("evidenceRef {}", reference.line())
            } else {
                let verdict = &reference.verdict;
                format!(
                    "{}{}",
                    verdict.code.map(|c| format!("{c}: ")).unwrap_or_default(),
                    verdict.message
                )
            };
            Some(Finding::new(
                code,
                Some(PathBuf::from(&annotation.capture)),
                format!(
                    "{} frame {}, {call}: {what}",
                    annotation.capture, frame.line
                ),
            ))
        })
        .collect()
}

/// The row as shown: its frame analysed (when it holds one and `server` analysis is wanted
/// here), its findings most serious first.
fn finish_row(row: &mut Row, server: Option<&str>) {
    row.analyse_frame(server);
    row.settle_findings();
}

fn not_in_chain(file: &str, has_hash: bool) -> Finding {
    let message = if has_hash {
        "no entry of the given chains has this receipt's request hash"
    } else {
        "the receipt's request hash could not be established, so no chain entry joins it"
    };
    Finding::new(Code::ReceiptNotInChain, Some(PathBuf::from(file)), message)
}
