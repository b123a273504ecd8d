//! `sealkit diff OLD NEW [--frames CAPTURE…] [--server ID]`: pairs old and new evidence with
//! [`crate::migrate::diff`] and prints, per pair, the old receipt's migration label and what
//! changed (target and profile, canonical request hash, verdict, `_meta` keys), the receipts
//! found on one side only, the migration facts the evidence shows, and which labels it could
//! only read from a migration output (docs/migration.md; README.md). Exit: 0 every receipt on both
//! sides `identity-unchanged`, every label recomputed and all paired, 1 otherwise, 2 could
//! not run.

use super::migrate::{changes_text, load_captures, receipt_name};
use super::{Global, Out, Typed};
use crate::cli::{DiffArgs, Format};
use crate::inert::escape;
use crate::migrate::diff::verify::LabelCheck;
use crate::migrate::diff::{self, DiffReport, Pair, View};
use crate::migrate::{Label, Options, Presence};
use crate::outcome::Outcome;
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};

pub fn run(args: DiffArgs, global: &Global) -> miette::Result<Outcome> {
    crate::input::stdin_once(
        [("OLD", args.old.as_path()), ("NEW", args.new.as_path())]
            .into_iter()
            .chain(args.frames.iter().map(|f| ("--frames", f.as_path()))),
    )
    .map_err(super::diagnostic::report)?;
    let (index, _) = load_captures(&args.frames, "unreadable-capture")?;
    let options = Options {
        server: args.server.clone(),
    };
    let report = diff::diff_paths(&args.old, &args.new, index, &options)
        .map_err(super::diagnostic::report)?;
    let mut out = Out::new();
    match global.format {
        Format::Json => out
            .json_line("diff", &Document::of(&report))
            .map_err(super::io_report)?,
        Format::Jsonl => jsonl(&mut out, &report).map_err(super::io_report)?,
        Format::Human => out
            .human(&human(&report, &args))
            .map_err(super::io_report)?,
    }
    out.flush().map_err(super::io_report)?;
    Ok(if report.summary.needs_attention {
        Outcome::Problems
    } else {
        Outcome::Good
    })
}

/// `--format json`: the report with every element typed as its JSON Lines record is.
#[derive(serde::Serialize)]
struct Document<'a> {
    pairs: Vec<Typed<'a, Pair>>,
    old_only: Vec<Typed<'a, View>>,
    new_only: Vec<Typed<'a, View>>,
    notes: Vec<Typed<'a, diff::Note>>,
    findings: Vec<Typed<'a, diff::verify::Finding>>,
    summary: Typed<'a, diff::DiffSummary>,
}

impl<'a> Document<'a> {
    fn of(report: &'a DiffReport) -> Self {
        fn all<'a, T>(kind: &'a str, items: &'a [T]) -> Vec<Typed<'a, T>> {
            items.iter().map(|value| Typed { kind, value }).collect()
        }
        Document {
            pairs: all("pair", &report.pairs),
            old_only: all("old-only", &report.old_only),
            new_only: all("new-only", &report.new_only),
            notes: all("note", &report.notes),
            findings: all("finding", &report.findings),
            summary: Typed {
                kind: "summary",
                value: &report.summary,
            },
        }
    }
}

fn jsonl(out: &mut Out, report: &DiffReport) -> std::io::Result<()> {
    for pair in &report.pairs {
        out.json_line("pair", pair)?;
    }
    for view in &report.old_only {
        out.json_line("old-only", view)?;
    }
    for view in &report.new_only {
        out.json_line("new-only", view)?;
    }
    for note in &report.notes {
        out.json_line("note", note)?;
    }
    for finding in &report.findings {
        out.json_line("finding", finding)?;
    }
    out.json_line("summary", &report.summary)
}

fn arrow(old: &str, new: &str) -> String {
    if old == new {
        format!("{old} (same)")
    } else {
        format!("{old}\n→ {new}")
    }
}

fn target_text(view: &View) -> String {
    match &view.target {
        None => "—".into(),
        Some(t) => format!(
            "{} {}",
            escape(t),
            view.target_profile.map_or("(no profile)", |p| p.as_str())
        ),
    }
}

fn meta_text(view: &View) -> String {
    match (view.meta, &view.meta_keys) {
        (Presence::Present, Some(keys)) if keys.is_empty() => "present: {} (no keys)".into(),
        (Presence::Present, Some(keys)) => {
            let keys: Vec<_> = keys.iter().map(|k| escape(k)).collect();
            format!("present: {}", keys.join("\n  "))
        }
        (word, _) => word.as_str().into(),
    }
}

fn pair_row(index: usize, pair: &Pair) -> Vec<String> {
    let frame = match pair.key.length {
        Some(length) => format!("{}\n{length} bytes", escape(&pair.key.sha256)),
        None => format!("request\n{}", escape(&pair.key.sha256)),
    };
    let frame = if pair.of > 1 {
        format!("{frame}\n({} of {})", pair.position, pair.of)
    } else {
        frame
    };
    let counter = |v: &View| v.counter.map_or("—".into(), |c| format!("#{c}"));
    let receipts = format!("{} → {}", counter(&pair.old), counter(&pair.new));
    let verdict = arrow(
        &escape(pair.old.verdict.as_deref().unwrap_or("—")),
        &escape(pair.new.verdict.as_deref().unwrap_or("—")),
    );
    let mut target = arrow(&target_text(&pair.old), &target_text(&pair.new));
    if let Some(committed) = &pair.committed_target {
        if pair.new.target.as_ref() != Some(committed) {
            target.push_str(&format!("\ncommitted {}", escape(committed)));
        }
    }
    let canonical = arrow(
        &pair
            .old
            .canonical_request_sha256
            .as_deref()
            .map_or("—".into(), |h| escape(h).into_owned()),
        &pair
            .new
            .canonical_request_sha256
            .as_deref()
            .map_or("—".into(), |h| escape(h).into_owned()),
    );
    let (old_meta, new_meta) = (meta_text(&pair.old), meta_text(&pair.new));
    let meta = if old_meta == new_meta {
        format!("{old_meta}\n(both)")
    } else {
        format!("old {old_meta}\nnew {new_meta}")
    };
    let mut label = format!("{}\n[{}]", pair.label, changes_text(&pair.changes));
    if pair.old.label_check == LabelCheck::Unverified {
        label.push_str(&format!("\n{UNVERIFIED}"));
    }
    if let Some(refusal) = &pair.old.refusal {
        label.push_str(&format!("\n{}", escape(refusal)));
    }
    if pair.new.label_check == LabelCheck::Unverified {
        label.push_str(&format!("\nnew: {}\n{UNVERIFIED}", pair.new.label));
    } else if pair.new.label != pair.label {
        label.push_str(&format!("\nnew: {}", pair.new.label));
    }
    vec![
        (index + 1).to_string(),
        frame,
        receipts,
        verdict,
        target,
        canonical,
        meta,
        label,
    ]
}

/// How a label diff could not recompute is shown, everywhere it is shown.
const UNVERIFIED: &str = "(reported by the migration output, not verified)";

fn human(report: &DiffReport, args: &DiffArgs) -> String {
    let mut text = format!(
        "old: {} ({})   new: {} ({})\n",
        escape(&args.old.display().to_string()),
        crate::outcome::count(report.summary.old_receipts as u64, "receipt", "receipts"),
        escape(&args.new.display().to_string()),
        crate::outcome::count(report.summary.new_receipts as u64, "receipt", "receipts")
    );
    if !report.pairs.is_empty() {
        let mut table = Table::new();
        table
            .load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(180)
            .set_header(vec![
                "#",
                "frame",
                "counter",
                "verdict",
                "target (profile)",
                "canonical_request_sha256",
                "_meta keys",
                "label (old receipt)",
            ]);
        for (i, pair) in report.pairs.iter().enumerate() {
            table.add_row(pair_row(i, pair));
        }
        text.push_str(&format!("{}\n", super::layout::table(&table)));
    }
    for (side, views) in [("old", &report.old_only), ("new", &report.new_only)] {
        if views.is_empty() {
            continue;
        }
        let mut table = Table::new();
        table
            .load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(180)
            .set_header(vec![
                format!("only in {side}"),
                "verdict".into(),
                "label".into(),
                "detail".into(),
            ]);
        for v in views.iter() {
            let mut label = v.label.to_string();
            if v.label_check == LabelCheck::Unverified {
                label.push_str(&format!("\n{UNVERIFIED}"));
            }
            table.add_row(vec![
                receipt_name(&v.receipt),
                escape(v.verdict.as_deref().unwrap_or("—")).into_owned(),
                label,
                escape(v.detail.as_deref().unwrap_or_default()).into_owned(),
            ]);
        }
        text.push_str(&format!("{}\n", super::layout::table(&table)));
    }
    if !report.notes.is_empty() {
        text.push_str("migration facts:\n");
        for note in &report.notes {
            text.push_str(&format!(
                "  - {}: {}\n",
                note.code.as_str(),
                escape(&note.message)
            ));
        }
    }
    let conflicts = report
        .pairs
        .iter()
        .flat_map(|p| [&p.old, &p.new])
        .chain(&report.old_only)
        .chain(&report.new_only)
        .filter(|v| v.label == Label::FrameConflict);
    let mut errors: Vec<String> = report
        .findings
        .iter()
        .map(|f| format!("{} {}: {}", f.code.as_str(), f.receipt, f.message))
        .collect();
    errors.extend(conflicts.map(|v| {
        format!(
            "{} {}: {}",
            v.label,
            v.receipt,
            v.detail.as_deref().unwrap_or_default()
        )
    }));
    if !errors.is_empty() {
        text.push_str("errors:\n");
        for error in errors {
            text.push_str(&format!("  - {error}\n"));
        }
    }
    let s = &report.summary;
    let labels = |counts: &std::collections::BTreeMap<Label, usize>| {
        counts
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(label, n)| format!("{label} {n}"))
            .collect::<Vec<_>>()
    };
    text.push_str(&format!(
        "{} pair{}, {} only in old, {} only in new\nold labels: {}\nnew labels: {}\n",
        s.pairs,
        if s.pairs == 1 { "" } else { "s" },
        s.old_only,
        s.new_only,
        super::migrate::listed(&labels(&s.labels)),
        super::migrate::listed(&labels(&s.new_labels))
    ));
    if s.old_unverified + s.new_unverified > 0 {
        text.push_str(&format!(
            "{} old and {} new labels are reported by a migration output, not verified: diff recomputes a label only from the receipt's own bytes and a frame it has (give the receipts and the captures with --frames)\n",
            s.old_unverified, s.new_unverified
        ));
    }
    if s.findings > 0 {
        text.push_str(&format!(
            "{} migration record{} disagree{} with the recomputation\n",
            s.findings,
            if s.findings == 1 { "" } else { "s" },
            if s.findings == 1 { "s" } else { "" }
        ));
    }
    text
}
