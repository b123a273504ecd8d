//! `sealkit target`: streams captures frame by frame through the identity engine and prints
//! one record per frame (docs/target.md). Memory does not grow with a capture:
//! JSON is written as frames arrive, and the human table is printed a page at a time.

use super::target_record::{OkRecord, Record, RefusedRecord, SkippedRecord};
use super::{Global, JsonArray, Out};
use crate::cli::{EraChoice, Format, ProfileChoice, TargetArgs};
use crate::frame::{Frame, FrameReader};
use crate::identity::{self, Kind, Part, Profile};
use crate::inert::escape;
use crate::input::{stdin_once, Input};
use crate::json::Span;
use crate::meta::UNKNOWN_KEY_POLICY;
use crate::outcome::Outcome;
use crate::path_json::Shown;
use crate::refusal::{Refusal, RefusalRecord};
use crate::request::{self, Call, EraMode, MetaState, Options, Session, Verdict};
use crate::typed::{typed_target_of, ToolSpecs, Typed};
use comfy_table::{presets, Cell, ContentArrangement, Table};
use miette::{IntoDiagnostic, LabeledSpan, NamedSource};
use serde_json::{json, Value};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// Frames per human table page.
const PAGE: usize = 200;

pub fn run(args: TargetArgs, global: &Global) -> miette::Result<Outcome> {
    let options = Options {
        server: args.server.clone(),
        era: era_mode(args.era),
    };
    // Each capture as it is opened (its exact path) and as records name it.
    let sources: Vec<(PathBuf, Shown)> = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    }
    .into_iter()
    .map(|path| {
        let shown = Shown::of(&path);
        (path, shown)
    })
    .collect();
    let named = sources.iter().map(|(path, _)| ("FILE", path.as_path()));
    stdin_once(named.chain(args.tool_spec.as_deref().map(|path| ("--tool-spec", path))))
        .map_err(super::diagnostic::report)?;
    let tool_specs = args.tool_spec.as_deref().map(read_tool_specs).transpose()?;
    let mut out = Out::new();
    let mut report = Report::new(global, &args, tool_specs, &mut out)?;
    let mut outcome = Outcome::Good;
    for (path, source) in &sources {
        match open(path) {
            Ok(reader) => {
                let result = report.capture(source, reader, &options, &mut out);
                outcome = outcome.worst(result.map_err(|e| source_error(&source.text, e))?);
            }
            Err(error) => {
                report.flush_page(&mut out).into_diagnostic()?;
                outcome = outcome.worst(super::stopped_input(error, global));
            }
        }
    }
    // Blank lines are no frames: a capture of nothing else checked nothing.
    let t = &report.totals;
    let frames = t.ok + t.refused + t.skipped - t.blank;
    report.finish(&mut out).into_diagnostic()?;
    out.flush().into_diagnostic()?;
    if frames == 0 && outcome == Outcome::Good {
        let nothing = crate::input::NothingToCheck {
            evidence: crate::input::Items::Frames,
            where_: (sources.iter())
                .map(|(_, shown)| shown.text.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            written: true,
        };
        return Ok(super::stopped_input(nothing, global));
    }
    Ok(outcome)
}

/// The validation pipeline's era mode for an `--era` choice.
pub(super) fn era_mode(choice: EraChoice) -> EraMode {
    match choice {
        EraChoice::Auto => EraMode::Auto,
        EraChoice::Legacy => EraMode::Legacy,
        EraChoice::Modern => EraMode::Modern,
    }
}

fn read_tool_specs(path: &Path) -> miette::Result<ToolSpecs> {
    let input = Input::new(path);
    let bytes = input
        .read_capped(crate::input::MAX_SMALL_INPUT_BYTES)
        .map_err(|e| {
            miette::miette!(
                code = "unreadable-input",
                "cannot read the tool spec {input}: {e}"
            )
        })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        miette::miette!(
            code = "bad-tool-spec",
            "the tool spec {input} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    ToolSpecs::parse(&text).map_err(|e| miette::miette!(code = "bad-tool-spec", "{e} (in {input})"))
}

fn source_error(source: &str, error: io::Error) -> miette::Report {
    if error.kind() == io::ErrorKind::BrokenPipe {
        miette::Report::from_err(error)
    } else {
        miette::miette!(code = "unreadable-input", "cannot read {source}: {error}")
    }
}

/// A capture, refused before any frame is read when it cannot be read (`unreadable-input`)
/// or is no capture (binary data; UTF-16, `unsupported-encoding`).
fn open(source: &Path) -> Result<Box<dyn BufRead>, crate::input::InputError> {
    let reader = Input::new(source)
        .open_text(crate::input::Kind::Capture, 1 << 16)
        .map_err(|e| e.coded("unreadable-input"))?;
    Ok(Box::new(reader))
}

/// Accumulates output across captures: the JSON array state, or the current human page
/// and the totals for the closing summary.
struct Report<'g> {
    global: &'g Global,
    explain: bool,
    profiles: Vec<Profile>,
    server: String,
    /// Present with `--tool-spec`: frames carrying `params.action` get a typed target.
    tool_specs: Option<ToolSpecs>,
    array: Option<JsonArray>,
    page: Vec<HumanRow>,
    diagnostics: Vec<String>,
    totals: Totals,
}

#[derive(Default)]
struct Totals {
    ok: u64,
    refused: u64,
    skipped: u64,
    /// Blank lines among the skipped: no frame at all.
    blank: u64,
    codes: std::collections::BTreeMap<&'static str, u64>,
}

struct HumanRow {
    cells: Vec<String>,
    explain: Option<String>,
}

impl<'g> Report<'g> {
    fn new(
        global: &'g Global,
        args: &TargetArgs,
        tool_specs: Option<ToolSpecs>,
        out: &mut Out,
    ) -> miette::Result<Self> {
        let array = match global.format {
            Format::Json => Some(JsonArray::begin(out).into_diagnostic()?),
            _ => None,
        };
        let profiles = match args.profile {
            ProfileChoice::Committed => vec![Profile::Committed],
            ProfileChoice::Host => vec![Profile::Host],
            ProfileChoice::Legacy => vec![Profile::Legacy],
            ProfileChoice::All => Profile::ALL.to_vec(),
        };
        Ok(Report {
            global,
            explain: args.explain,
            profiles,
            server: args.server.clone(),
            tool_specs,
            array,
            page: Vec::new(),
            diagnostics: Vec::new(),
            totals: Totals::default(),
        })
    }

    /// Reads one capture to its end; returns its outcome (refusals → problems).
    fn capture(
        &mut self,
        source: &Shown,
        reader: Box<dyn BufRead>,
        options: &Options,
        out: &mut Out,
    ) -> io::Result<Outcome> {
        let mut frames = FrameReader::new(reader);
        let mut session = Session::default();
        let mut outcome = Outcome::Good;
        while let Some(frame) = frames.next_frame()? {
            let judged = request::accept_frame(&frame, options, &mut session);
            let typed = match (&judged, &self.tool_specs) {
                // The V2 typed target of a call that carries `params.action`, with `--tool-spec`.
                (Ok(accepted), Some(specs)) => typed_target_of(accepted, specs),
                _ => None,
            };
            let verdict = Verdict::from(judged);
            if matches!(verdict, Verdict::Refused(_))
                || typed.as_ref().is_some_and(Typed::is_problem)
            {
                outcome = Outcome::Problems;
            }
            self.record(source, &frame, &verdict, typed.as_ref(), out)?;
        }
        Ok(outcome)
    }

    fn record(
        &mut self,
        source: &Shown,
        frame: &Frame<'_>,
        verdict: &Verdict,
        typed: Option<&Typed>,
        out: &mut Out,
    ) -> io::Result<()> {
        match verdict {
            Verdict::Call(_) => self.totals.ok += 1,
            Verdict::Refused(r) => {
                self.totals.refused += 1;
                *self.totals.codes.entry(r.code.as_str()).or_default() += 1;
            }
            Verdict::Skipped(skipped) => {
                self.totals.skipped += 1;
                self.totals.blank += u64::from(skipped.kind == request::SkipKind::Blank);
            }
        }
        match self.global.format {
            Format::Human => {
                self.human_row(source, frame, verdict, typed);
                if self.page.len() >= PAGE {
                    self.flush_page(out)?;
                }
                Ok(())
            }
            Format::Jsonl => {
                let record = self.json_record(source, frame, verdict, typed);
                out.record(|buffer| {
                    record.write(buffer)?;
                    buffer.push(b'\n');
                    Ok(())
                })
            }
            Format::Json => {
                let record = self.json_record(source, frame, verdict, typed);
                match self.array.as_mut() {
                    Some(array) => array.item_with(out, |buffer| record.write(buffer)),
                    None => Ok(()),
                }
            }
        }
    }

    fn json_record<'r>(
        &self,
        source: &'r Shown,
        frame: &Frame<'_>,
        verdict: &'r Verdict,
        typed: Option<&'r Typed>,
    ) -> Record<'r> {
        match verdict {
            Verdict::Call(call) => Record::Ok(OkRecord::of(
                source,
                frame.line,
                call,
                typed,
                self.explain.then(|| explain_json(call, &self.server)),
            )),
            Verdict::Refused(refusal) => Record::Refused(RefusedRecord {
                source,
                line: frame.line,
                refusal: RefusalRecord::new(
                    refusal,
                    (!frame.is_oversized()).then_some(frame.bytes),
                ),
                capture_offset: frame.offset + refusal.span.start as u64,
            }),
            Verdict::Skipped(skipped) => Record::Skipped(SkippedRecord {
                source,
                line: frame.line,
                status: "skipped",
                kind: skipped.kind.as_str(),
                method: skipped.method.as_deref(),
            }),
        }
    }

    fn human_row(
        &mut self,
        source: &Shown,
        frame: &Frame<'_>,
        verdict: &Verdict,
        typed: Option<&Typed>,
    ) {
        let place = format!("{}:{}", escape(&source.text), frame.line);
        let row = match verdict {
            Verdict::Call(call) => {
                let mut targets: Vec<String> = self
                    .profiles
                    .iter()
                    .map(|p| format!("{:<9} {}", p.name(), call.identities().get(*p).target))
                    .collect();
                if let Some(typed) = typed {
                    targets.extend(typed_lines(typed, &self.profiles));
                }
                let mut detail = meta_summary(call.meta());
                for (name, value) in [
                    ("requestState", call.request_state()),
                    ("inputResponses", call.input_responses()),
                ] {
                    if value.is_some() {
                        detail.push_str(&format!("\n{name}: present"));
                    }
                }
                for warning in call.warnings() {
                    detail.push_str(&format!(
                        "\nwarning {}: {}",
                        warning.code,
                        escape(&warning.key)
                    ));
                }
                let cells = vec![
                    place,
                    "ok".to_owned(),
                    call.era().as_str().to_owned(),
                    escape(call.tool()).into_owned(),
                    detail,
                    targets.join("\n"),
                ];
                let explain = self.explain.then(|| explain_text(call, &self.server));
                HumanRow { cells, explain }
            }
            Verdict::Refused(refusal) => {
                self.diagnostics
                    .push(render_diagnostic(&place, frame, refusal, self.global.color));
                let detail = format!(
                    "{} (JSON-RPC {})",
                    refusal.code.as_str(),
                    refusal.jsonrpc_code()
                );
                HumanRow {
                    cells: vec![
                        place,
                        "refused".to_owned(),
                        String::new(),
                        String::new(),
                        detail,
                        String::new(),
                    ],
                    explain: None,
                }
            }
            Verdict::Skipped(skipped) => {
                let what = match &skipped.method {
                    Some(method) => format!("{} {}", skipped.kind.as_str(), escape(method)),
                    None => skipped.kind.as_str().to_owned(),
                };
                HumanRow {
                    cells: vec![
                        place,
                        "skipped".to_owned(),
                        String::new(),
                        String::new(),
                        what,
                        String::new(),
                    ],
                    explain: None,
                }
            }
        };
        self.page.push(row);
    }

    fn flush_page(&mut self, out: &mut Out) -> io::Result<()> {
        if self.page.is_empty() {
            return Ok(());
        }
        let mut table = Table::new();
        table
            .load_preset(presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Disabled);
        table.set_header(vec![
            "frame",
            "status",
            "era",
            "tool",
            "_meta / refusal",
            "guard targets",
        ]);
        for row in &self.page {
            table.add_row(row.cells.iter().map(Cell::new));
        }
        writeln!(out, "{}", super::layout::table(&table))?;
        for row in self.page.drain(..) {
            if let Some(text) = row.explain {
                out.human(&format!("{text}\n"))?;
            }
        }
        for diagnostic in self.diagnostics.drain(..) {
            out.human(&format!("{diagnostic}\n"))?;
        }
        Ok(())
    }

    fn finish(mut self, out: &mut Out) -> io::Result<()> {
        match self.global.format {
            Format::Json => match self.array.take() {
                Some(array) => array.end(out),
                None => Ok(()),
            },
            Format::Jsonl => Ok(()),
            Format::Human => {
                self.flush_page(out)?;
                let t = &self.totals;
                let total = t.ok + t.refused + t.skipped;
                let noun = if total == 1 { "frame" } else { "frames" };
                let mut summary = format!(
                    "{total} {noun}: {} ok, {} refused, {} skipped",
                    t.ok, t.refused, t.skipped
                );
                if !t.codes.is_empty() {
                    let codes: Vec<String> =
                        t.codes.iter().map(|(c, n)| format!("{c} ×{n}")).collect();
                    summary.push_str(&format!(" ({})", codes.join(", ")));
                }
                let policy = format!(
                    "unknown _meta keys: {UNKNOWN_KEY_POLICY} (hashed into every identity that covers _meta, like the known keys)"
                );
                out.human(&format!("{summary}\n{policy}\n"))
            }
        }
    }
}

/// The human "guard targets" lines of a typed target, for the profiles shown.
fn typed_lines(typed: &Typed, profiles: &[Profile]) -> Vec<String> {
    match typed {
        Typed::Computed(t) => profiles
            .iter()
            .filter_map(|p| match p {
                Profile::Committed => Some(format!("typed/committed {}", t.committed.sha256)),
                Profile::Host => Some(format!("typed/host {}", t.host.sha256)),
                Profile::Legacy => None,
            })
            .collect(),
        other => vec![format!("typed: {}", escape(&other.summary()))],
    }
}

fn meta_summary(meta: &MetaState) -> String {
    match meta {
        MetaState::Absent => "absent".to_owned(),
        MetaState::Present { keys, .. } if keys.is_empty() => "present: {}".to_owned(),
        MetaState::Present { keys, .. } => {
            let keys: Vec<_> = keys.iter().map(|k| escape(k)).collect();
            format!("present:\n{}", keys.join("\n"))
        }
    }
}

/// The parts of every identity, and which positions differ between committed and host.
fn explain_json(call: &Call, server: &str) -> Value {
    let inputs = call.inputs(server);
    let mut explain = serde_json::Map::new();
    for (kind, name) in [(Kind::Effect, "effect"), (Kind::Target, "target")] {
        let mut entry = serde_json::Map::new();
        let layouts: Vec<Vec<Part<'_>>> = Profile::ALL
            .iter()
            .map(|p| identity::parts(&inputs, *p, kind))
            .collect();
        for (profile, parts) in Profile::ALL.iter().zip(&layouts) {
            let parts: Vec<Value> = parts
                .iter()
                .map(|p| json!({"chars": p.chars, "text": p.text}))
                .collect();
            entry.insert(profile.name().to_owned(), Value::Array(parts));
        }
        entry.insert(
            "committed_differs_from_host_at".to_owned(),
            json!(differing_positions(&layouts[0], &layouts[1])),
        );
        explain.insert(name.to_owned(), Value::Object(entry));
    }
    Value::Object(explain)
}

fn differing_positions(a: &[Part<'_>], b: &[Part<'_>]) -> Vec<usize> {
    (0..a.len().max(b.len()))
        .filter(|&i| a.get(i) != b.get(i))
        .collect()
}

/// Human `--explain`: per identity kind, the framed parts side by side.
fn explain_text(call: &Call, server: &str) -> String {
    let inputs = call.inputs(server);
    let mut text = format!(
        "explain {} (server \"{}\"):\n",
        escape(call.tool()),
        escape(server)
    );
    for (kind, name) in [(Kind::Effect, "effect"), (Kind::Target, "guard target")] {
        let layouts: Vec<Vec<Part<'_>>> = Profile::ALL
            .iter()
            .map(|p| identity::parts(&inputs, *p, kind))
            .collect();
        let differ = differing_positions(&layouts[0], &layouts[1]);
        let mut table = Table::new();
        table
            .load_preset(presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Disabled);
        table.set_header(vec!["#", "", "committed", "host", "legacy"]);
        let rows = layouts.iter().map(Vec::len).max().unwrap_or(0);
        for i in 0..rows {
            let mark = if differ.contains(&i) { "≠" } else { "" };
            let mut row = vec![i.to_string(), mark.to_owned()];
            row.extend(layouts.iter().map(|parts| {
                parts
                    .get(i)
                    .map(|p| escape(&p.framed()).into_owned())
                    .unwrap_or_default()
            }));
            table.add_row(row);
        }
        let hashes: Vec<String> = Profile::ALL
            .iter()
            .map(|p| {
                let pair = call.identities().get(*p);
                let value = if kind == Kind::Effect {
                    &pair.effect
                } else {
                    &pair.target
                };
                format!("{}: {value}", p.name())
            })
            .collect();
        text.push_str(&format!("{name} = sha256 of the framed parts concatenated (≠ marks where committed and host differ)\n{}\n  {}\n", super::layout::table(&table), hashes.join("\n  ")));
    }
    for (name, value) in [
        ("requestState", call.request_state()),
        ("inputResponses", call.input_responses()),
    ] {
        match value {
            Some(canonical) => text.push_str(&format!("{name} (canonical): {canonical:?}\n")),
            None => text.push_str(&format!("{name}: absent\n")),
        }
    }
    text
}

/// A miette diagnostic pointing at the refused bytes, on a window of the frame (frames can
/// be a megabyte long and carry control bytes; both are made printable).
pub(super) fn render_diagnostic(
    place: &str,
    frame: &Frame<'_>,
    refusal: &Refusal,
    color: bool,
) -> String {
    // On a terminal, the window shrinks so its line fits beside the snippet's gutter.
    let width = super::layout::stdout_columns();
    let context = width.map_or(CONTEXT, |w| (w.saturating_sub(24) / 2).clamp(8, CONTEXT));
    let (window, label) = printable_window(frame.bytes, refusal.span, context);
    let diagnostic = miette::MietteDiagnostic::new(escape(&refusal.message))
        .with_code(refusal.code.as_str())
        .with_help(format!(
            "JSON-RPC error {}; byte offset {} in the frame",
            refusal.jsonrpc_code(),
            refusal.span.start
        ))
        .with_label(LabeledSpan::at(
            label.start..label.end,
            refusal.code.as_str(),
        ));
    let report = miette::Report::new(diagnostic)
        // `place` is escaped by the caller.
        .with_source_code(NamedSource::new(format!("{place} (window)"), window));
    let mut handler = if color {
        miette::GraphicalReportHandler::new()
    } else {
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
    };
    if let Some(width) = width {
        handler = handler.with_width(width);
    }
    let mut text = String::new();
    let _ = handler.render_report(&mut text, report.as_ref());
    text
}

/// Bytes shown either side of a refused span (fewer on a narrow terminal).
const CONTEXT: usize = 60;

/// Up to `context` bytes either side of `span`, as inert text (invalid UTF-8 → U+FFFD, then
/// [`escape`]), with the span mapped into it.
fn printable_window(bytes: &[u8], span: Span, context: usize) -> (String, Span) {
    let at = span.start.min(bytes.len());
    let until = span
        .end
        .clamp(at, bytes.len())
        .max((at + 1).min(bytes.len()));
    let start = char_boundary_back(bytes, at.saturating_sub(context));
    let end = char_boundary_forward(bytes, (until + context).min(bytes.len()));
    let mut text = String::from(if start > 0 { "…" } else { "" });
    text.push_str(&printable(&bytes[start..at]));
    let label_start = text.len();
    text.push_str(&printable(&bytes[at..until]));
    let label = Span {
        start: label_start,
        end: text.len(),
    };
    text.push_str(&printable(&bytes[until..end]));
    if end < bytes.len() {
        text.push('…');
    }
    (text, label)
}

fn printable(bytes: &[u8]) -> String {
    escape(&String::from_utf8_lossy(bytes)).into_owned()
}

fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

fn char_boundary_back(bytes: &[u8], mut i: usize) -> usize {
    while i > 0 && i < bytes.len() && is_continuation(bytes[i]) {
        i -= 1;
    }
    i
}

fn char_boundary_forward(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && is_continuation(bytes[i]) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_maps_the_span_and_shows_control_bytes() {
        let bytes = b"{\"a\":1,\"a\":2}\r\n";
        let (text, label) = printable_window(bytes, Span { start: 7, end: 10 }, CONTEXT);
        assert_eq!(&text[label.start..label.end], "\"a\"");
        assert!(text.ends_with("\\u{D}\\u{A}"), "{text}");
        let long = vec![b'x'; 500];
        let (text, label) = printable_window(
            &long,
            Span {
                start: 250,
                end: 251,
            },
            CONTEXT,
        );
        assert!(text.starts_with('…') && text.ends_with('…'));
        assert_eq!(&text[label.start..label.end], "x");
    }
}
