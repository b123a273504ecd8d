//! `sealkit migrate OLD_DIR… [--frames CAPTURE…] [--server ID] --out NEW_DIR`: runs
//! [`crate::migrate::run::migrate`] and prints its records (a table for people, one JSON
//! object per receipt for scripts) and summary (docs/migration.md; README.md).
//! Exit: 0 every receipt `identity-unchanged`, 1 any other label, 2 could not run.

use super::{Global, Out};
use crate::cli::{Format, MigrateArgs};
use crate::inert::escape;
use crate::input::{Input, Kind, Unreadable};
use crate::migrate::frames::FrameIndex;
use crate::migrate::output;
use crate::migrate::run::{self, CaptureInfo, Plan, RunError, Summary};
use crate::migrate::{Change, Label, Options, Presence, Record};
use crate::outcome::Outcome;
use comfy_table::{presets::UTF8_FULL_CONDENSED, ContentArrangement, Table};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Human output shows at most this many receipts (every one is in NEW_DIR/migration.jsonl).
const HUMAN_ROWS: usize = 100;

pub fn run(args: MigrateArgs, global: &Global) -> miette::Result<Outcome> {
    crate::input::stdin_once(
        (args.old.iter().map(|p| ("OLD_DIR", p.as_path())))
            .chain(args.frames.iter().map(|p| ("--frames", p.as_path()))),
    )
    .map_err(super::diagnostic::report)?;
    let (index, captures) = load_captures(&args.frames, "unreadable-capture")?;
    let plan = Plan {
        old: &args.old,
        out: &args.out,
        captures,
        options: Options {
            server: args.server.clone(),
        },
    };
    let mut out = Out::new();
    let mut shown: Vec<Record> = Vec::new();
    let mut more = 0usize;
    let mut first = true;
    // The `--format json` document is opened at its first record (or at the summary), so a
    // run that cannot start leaves no half document on stdout, only the error on stderr.
    const HEAD: &str = "{\"type\":\"migration\",\"records\":[";
    let result = run::migrate(&plan, &index, &mut |line| match global.format {
        Format::Jsonl => {
            out.write_all(line)?;
            out.write_all(b"\n")
        }
        Format::Json => {
            if first {
                out.text(HEAD)?;
            }
            out.write_all(if first { b"\n" } else { b",\n" })?;
            first = false;
            out.write_all(line)
        }
        Format::Human => {
            if shown.len() < HUMAN_ROWS {
                shown.push(serde_json::from_slice(line).map_err(io::Error::other)?);
            } else {
                more += 1;
            }
            Ok(())
        }
    });
    let summary = match result {
        Ok(summary) => summary,
        Err(error) => {
            // A document begun on stdout is closed, so a script reading it gets valid JSON
            // (without a summary: the error on stderr says why, and NEW_DIR is unchanged).
            if global.format == Format::Json && !first {
                out.text("\n]}\n").map_err(super::io_report)?;
                out.flush().map_err(super::io_report)?;
            }
            return Err(run_error(error));
        }
    };
    match global.format {
        Format::Jsonl => out
            .json_line("summary", &summary)
            .map_err(super::io_report)?,
        Format::Json => {
            out.text(&if first {
                format!("{HEAD}],\"summary\":")
            } else {
                "\n],\"summary\":".to_owned()
            })
            .map_err(super::io_report)?;
            out.typed("summary", &summary).map_err(super::io_report)?;
            out.text("}\n").map_err(super::io_report)?;
        }
        Format::Human => out
            .human(&human(&shown, more, &summary, &args.out))
            .map_err(super::io_report)?,
    }
    out.flush().map_err(super::io_report)?;
    Ok(if summary.needs_attention > 0 {
        Outcome::Problems
    } else {
        Outcome::Good
    })
}

fn run_error(error: RunError) -> miette::Report {
    match error {
        // A failed sink stays a bare I/O error, so a closed stdout is still seen as one.
        RunError::Sink(error) => super::io_report(error),
        error => super::diagnostic::report(error),
    }
}

/// Reads every capture into one frame index. Directories give their regular files in
/// sorted order (symbolic links are not followed); "-" is stdin. A capture that cannot be read
/// (`unreadable_code`: the command's documented code) or is not one (binary data, UTF-16)
/// stops the command.
pub(super) fn load_captures(
    paths: &[PathBuf],
    unreadable_code: &'static str,
) -> miette::Result<(FrameIndex, Vec<CaptureInfo>)> {
    crate::input::stdin_once(paths.iter().map(|path| ("--frames", path.as_path())))
        .map_err(super::diagnostic::report)?;
    let mut index = FrameIndex::new();
    let mut infos = Vec::new();
    for path in paths {
        for file in capture_files(path, unreadable_code)? {
            let name = file.display().to_string();
            let input = Input::new(&file);
            let reader = input
                .open_text(Kind::Capture, 1 << 16)
                .map_err(|e| super::diagnostic::report(e.coded(unreadable_code)))?;
            let stats = index.add_capture(&name, reader).map_err(|e| {
                super::diagnostic::report(Unreadable::new(&input, e).coded(unreadable_code))
            })?;
            infos.push(CaptureInfo {
                path: name,
                sha256: stats.sha256,
                frames: stats.frames,
            });
        }
    }
    Ok((index, infos))
}

fn capture_files(path: &Path, unreadable_code: &'static str) -> miette::Result<Vec<PathBuf>> {
    if Input::new(path).is_stdin() || !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(path)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|e| {
            let at = Input::new(e.path().unwrap_or(path));
            let shown = e.to_string();
            let error = e.into_io_error().unwrap_or_else(|| io::Error::other(shown));
            super::diagnostic::report(Unreadable::new(&at, error).coded(unreadable_code))
        })?;
        if entry.file_type().is_file() {
            files.push(entry.into_path());
        }
    }
    Ok(files)
}

/// The `_meta` cell: the allowed words only.
pub(super) fn meta_words(meta: Presence, keys: Option<&Vec<String>>) -> String {
    match (meta, keys) {
        (Presence::Present, Some(keys)) if keys.len() == 1 => "present: 1 key".into(),
        (Presence::Present, Some(keys)) => format!("present: {} keys", keys.len()),
        (word, _) => word.as_str().into(),
    }
}

pub(super) fn changes_text(changes: &[Change]) -> String {
    if changes.is_empty() {
        "—".into()
    } else {
        changes
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A receipt's file name, whole (its hash is a digest: never shortened, so `grep` finds it).
pub(super) fn receipt_name(path: &str) -> String {
    let name = Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_owned());
    escape(&name).into_owned()
}

/// A list in a sentence: its items, or `none` (never a label with nothing after it).
pub(super) fn listed(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_owned()
    } else {
        items.join(", ")
    }
}

/// Why a record's label applies, as the record says it (what an unreadable receipt file is,
/// why a frame could not be recovered, what the eras give): `—` when there is nothing to say.
fn detail_cell(record: &Record) -> String {
    if record.label == Label::FrameConflict {
        return "the eras disagree (below the table)".to_owned();
    }
    match (&record.detail, &record.refusal) {
        (Some(detail), _) => escape(detail).into_owned(),
        (None, Some(refusal)) => escape(&refusal.message).into_owned(),
        (None, None) => "—".to_owned(),
    }
}

fn target_cell(target: Option<&String>, profile: Option<&str>) -> String {
    match (target, profile) {
        (None, _) => "— (not guarded)".into(),
        (Some(t), Some(p)) => format!("{} {p}", escape(t)),
        (Some(t), None) => format!("{} (no profile)", escape(t)),
    }
}

fn human(records: &[Record], more: usize, summary: &Summary, out_dir: &Path) -> String {
    let mut text = String::new();
    if !records.is_empty() {
        let mut table = Table::new();
        table
            .load_preset(UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(200)
            .set_header(vec![
                "receipt",
                "verdict",
                "label",
                "changes",
                "_meta",
                "old target",
                "committed target",
                "detail",
            ]);
        for r in records {
            let label = match &r.refusal {
                Some(refusal) => format!("{} ({})", r.label, refusal.code),
                None => r.label.to_string(),
            };
            let committed = match (&r.old_target, &r.committed_target) {
                (None, _) => "— (not guarded)".into(),
                (Some(_), Some(t)) => escape(t).into_owned(),
                (Some(_), None) => "unknown".into(),
            };
            table.add_row(vec![
                receipt_name(&r.receipt),
                escape(r.reported.verdict.as_deref().unwrap_or("—")).into_owned(),
                label,
                changes_text(&r.changes),
                meta_words(r.meta, r.meta_keys.as_ref()),
                target_cell(r.old_target.as_ref(), r.old_profile.map(|p| p.as_str())),
                committed,
                detail_cell(r),
            ]);
        }
        text.push_str(&format!("{}\n", super::layout::table(&table)));
    }
    // What each era gives is too long for a cell: it follows the table whole.
    for r in records.iter().filter(|r| r.label == Label::FrameConflict) {
        text.push_str(&format!(
            "{} {}: {}\n",
            r.label,
            receipt_name(&r.receipt),
            escape(r.detail.as_deref().unwrap_or_default())
        ));
    }
    if more > 0 {
        text.push_str(&format!(
            "… and {more} more receipt{} (every record is in {})\n",
            crate::outcome::plural(more as u64),
            escape(&out_dir.join(output::RECORDS_FILE).display().to_string())
        ));
    }
    let mut counts = Table::new();
    counts
        .load_preset(UTF8_FULL_CONDENSED)
        .set_header(vec!["label", "receipts", "meaning"])
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(160);
    for &label in Label::ALL {
        counts.add_row(vec![
            label.to_string(),
            summary.labels.get(&label).copied().unwrap_or(0).to_string(),
            label.meaning().to_owned(),
        ]);
    }
    text.push_str(&format!("{}\n", super::layout::table(&counts)));
    let changes: Vec<String> = Change::ALL
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c.as_str(),
                summary.changes.get(c).copied().unwrap_or(0)
            )
        })
        .collect();
    let meta: Vec<String> = summary
        .meta
        .iter()
        .map(|(word, n)| format!("{} {n}", word.as_str()))
        .collect();
    let profiles: Vec<String> = summary
        .old_profiles
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
    text.push_str(&format!(
        "{}, {} attention; changes: {}; _meta: {}; old targets: {}\n",
        crate::outcome::count(summary.receipts, "receipt", "receipts"),
        crate::outcome::count(summary.needs_attention, "needs", "need"),
        listed(&changes),
        listed(&meta),
        listed(&profiles)
    ));
    match summary.other_files {
        0 => {}
        1 => text.push_str("1 other file under the old directories is not a receipt (not read)\n"),
        n => text.push_str(&format!(
            "{n} other files under the old directories are not receipts (not read)\n"
        )),
    }
    text.push_str(&format!(
        "wrote {} ({}, sha256 {}) and {}\n",
        escape(&out_dir.join(output::RECORDS_FILE).display().to_string()),
        crate::outcome::count(summary.records.count, "record", "records"),
        summary.records.sha256,
        escape(&out_dir.join(output::SUMMARY_FILE).display().to_string())
    ));
    text
}
