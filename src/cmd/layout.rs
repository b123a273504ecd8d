//! How human output fits where it is printed, one mechanism for every command: the width is
//! standard output's terminal width, or `COLUMNS` when output is piped and it is set; with no
//! width (piped, no `COLUMNS`) nothing is ever wrapped, so each table row stays on one line a
//! `grep` can find. At a width, a table is printed when it fits with every word whole (cells
//! wrap only at spaces); otherwise each row becomes a record, one block of `name  value`
//! lines. No value is shortened, and a word (a digest, a code, a file name) is broken across
//! lines only when it is longer than a line by itself, and then after a separator such as `/`
//! or `-` where it has one. Long `label  value` lines are word-wrapped by the same rule.

use comfy_table::{ContentArrangement, Table};
use std::io::IsTerminal;

/// The terminal's width in columns, if `file` is a terminal that knows it.
#[cfg(unix)]
pub fn columns(file: &impl std::os::fd::AsFd) -> Option<usize> {
    let size = rustix::termios::tcgetwinsize(file).ok()?;
    (size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// Elsewhere the width is not asked for: output keeps its full layout.
#[cfg(not(unix))]
pub fn columns<T>(_file: &T) -> Option<usize> {
    None
}

/// The width human output on standard output is fitted to: the terminal's when standard output
/// is one; piped or redirected, `COLUMNS` when it is set to a width; otherwise `None` (nothing
/// is wrapped). Read once: every table and line of one run is fitted to the same width.
pub fn stdout_columns() -> Option<usize> {
    static COLUMNS: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *COLUMNS.get_or_init(|| {
        let stdout = std::io::stdout();
        if stdout.is_terminal() {
            columns(&stdout)
        } else {
            columns_from_env(std::env::var_os("COLUMNS").as_deref())
        }
    })
}

/// `COLUMNS` as a width: a positive decimal number; anything else is no width.
fn columns_from_env(value: Option<&std::ffi::OsStr>) -> Option<usize> {
    let value = value?.to_str()?.trim();
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse::<usize>().ok().filter(|&n| n > 0)
}

/// The narrowest width anything is fitted to (a narrower one is taken as this).
const MIN_WIDTH: usize = 20;

/// A table as printed on standard output (see the module's note): with colour on, the verdict
/// words in its cells are coloured (see [`cell_verdict`]).
pub fn table(table: &Table) -> String {
    fit(
        table,
        stdout_columns(),
        COLOR.load(std::sync::atomic::Ordering::Relaxed),
    )
}

/// [`table`] and a line break, written to `out`.
pub fn write_table(out: &mut impl std::io::Write, table: &Table) -> std::io::Result<()> {
    write_fitted(
        out,
        table,
        stdout_columns(),
        COLOR.load(std::sync::atomic::Ordering::Relaxed),
    )
}

/// [`fit`] and a line break, written to `out`.
fn write_fitted(
    out: &mut impl std::io::Write,
    table: &Table,
    width: Option<usize>,
    color: bool,
) -> std::io::Result<()> {
    writeln!(out, "{}", fit(table, width, color))
}

/// Human text as printed on standard output: lines longer than the width are word-wrapped
/// (see [`wrap`]).
pub fn text(text: &str) -> String {
    wrap(text, stdout_columns())
}

/// The verdict a whole table cell says, if it is one of the verdict words.
fn cell_verdict(content: &str) -> Option<Verdict> {
    match content {
        "ok" | "OK" | "ACCEPTED" | "accepted" | "AUTHENTICATED" | "authenticated" => {
            Some(Verdict::Good)
        }
        "error" | "REJECTED" | "rejected" | "FAILED" | "failed" | "refused" | "FAIL" => {
            Some(Verdict::Bad)
        }
        "warning" => Some(Verdict::Warning),
        _ => None,
    }
}

/// A row's cells as comfy-table cells, verdict words coloured when asked.
fn cells(row: &[String], color: bool) -> Vec<comfy_table::Cell> {
    row.iter()
        .map(|content| {
            let styled = comfy_table::Cell::new(content);
            match cell_verdict(content).filter(|_| color) {
                Some(verdict) => styled
                    .fg(match verdict {
                        Verdict::Good => comfy_table::Color::Green,
                        Verdict::Bad => comfy_table::Color::Red,
                        Verdict::Warning => comfy_table::Color::Yellow,
                    })
                    .add_attribute(comfy_table::Attribute::Bold),
                None => styled,
            }
        })
        .collect()
}

/// [`write_table`] of a table drawn with `preset` (a comfy-table style, as
/// `Table::current_style_as_preset` gives it) with this header and these rows: the same bytes,
/// from the cells' texts, without building that table first (a command that prints many rows
/// keeps them as text).
pub fn write_rows(
    out: &mut impl std::io::Write,
    preset: &str,
    header: &[String],
    rows: &[Vec<String>],
) -> std::io::Result<()> {
    let color = COLOR.load(std::sync::atomic::Ordering::Relaxed);
    writeln!(
        out,
        "{}",
        fit_rows(preset, header, rows, stdout_columns(), color)
    )
}

/// [`table`] at a given width (`None`: nothing wrapped) and colour.
pub fn fit(table: &Table, width: Option<usize>, color: bool) -> String {
    let contents = |row: &comfy_table::Row| -> Vec<String> {
        row.cell_iter().map(comfy_table::Cell::content).collect()
    };
    let header = table.header().map(contents).unwrap_or_default();
    let rows: Vec<Vec<String>> = table.row_iter().map(contents).collect();
    let preset = table.clone().current_style_as_preset();
    fit_rows(&preset, &header, &rows, width, color)
}

/// [`fit`] of a table given by its style, header and rows.
fn fit_rows(
    preset: &str,
    header: &[String],
    rows: &[Vec<String>],
    width: Option<usize>,
    color: bool,
) -> String {
    let Some(width) = width else {
        return render(preset, header, rows, None, color);
    };
    let width = width.max(MIN_WIDTH);
    let fitted = render(preset, header, rows, Some(width), color);
    let fits = fitted.lines().all(|l| visible_width(l) <= width);
    if fits && words_whole(&fitted, header.iter().chain(rows.iter().flatten())) {
        return fitted;
    }
    // Rows of a short name and its value (`envelope`'s fields, `audit`'s counts).
    let label = |name: &String| name.chars().count() + 2 <= width / 3 && !name.contains('\n');
    if header.len() == 2 && rows.iter().all(|row| row.len() == 2 && label(&row[0])) {
        return pairs(header, rows, width, color);
    }
    blocks(header, rows, width, color)
}

/// The table drawn with `preset`: every value on its own lines as written (`width` `None`), or
/// arranged to `width` with each column at least as wide as its longest word, so cells wrap
/// only between words.
fn render(
    preset: &str,
    header: &[String],
    rows: &[Vec<String>],
    width: Option<usize>,
    color: bool,
) -> String {
    if width.is_none() && !color {
        // The same bytes without building comfy-table's cells (`grid`'s note).
        if let Some(drawn) = super::grid::draw(preset, header, rows) {
            return drawn;
        }
    }
    let mut table = Table::new();
    table.load_preset(preset);
    if color {
        table.enforce_styling();
    }
    if !header.is_empty() {
        table.set_header(cells(header, false));
    }
    table.add_rows(rows.iter().map(|row| cells(row, color)));
    match width {
        None => {
            table.set_content_arrangement(ContentArrangement::Disabled);
        }
        Some(width) => {
            table
                .set_content_arrangement(ContentArrangement::Dynamic)
                .set_width(u16::try_from(width).unwrap_or(u16::MAX));
            let columns = rows.iter().map(Vec::len).chain([header.len()]).max();
            for index in 0..columns.unwrap_or(0) {
                let longest = rows
                    .iter()
                    .chain([header.to_vec()].iter())
                    .filter_map(|row| row.get(index))
                    .flat_map(|cell| cell.split([' ', '\n']))
                    .map(|word| word.chars().count())
                    .max()
                    .unwrap_or(0);
                if let Some(column) = table.column_mut(index) {
                    let longest = u16::try_from(longest).unwrap_or(u16::MAX);
                    column.set_constraint(comfy_table::ColumnConstraint::LowerBoundary(
                        comfy_table::Width::Fixed(longest.saturating_add(2)),
                    ));
                }
            }
        }
    }
    table.to_string()
}

/// Whether every word of the cells appears whole in the drawn table (no cell was wrapped
/// inside a word).
fn words_whole<'a>(drawn: &str, cells: impl Iterator<Item = &'a String>) -> bool {
    cells
        .flat_map(|cell| cell.split([' ', '\n']))
        .all(|word| drawn.contains(word))
}

/// Columns a line takes on a terminal: its characters, escape sequences (colour) not counted.
fn visible_width(line: &str) -> usize {
    let mut width = 0;
    let mut chars = line.chars();
    while let Some(ch) = chars.next() {
        if ch == '\x1b' {
            // CSI: ESC [ parameters, then one final byte in @..~.
            if chars.next() == Some('[') {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            continue;
        }
        width += 1;
    }
    width
}

/// Each row as a record: a block of `name  value` lines (names aligned, values word-wrapped
/// under their column, a value too wide beside its name moved to the lines below it), blocks
/// apart by a blank line. A cell's own line breaks start new lines under the value column.
fn blocks(header: &[String], rows: &[Vec<String>], width: usize, color: bool) -> String {
    let names = header.iter().map(|h| h.chars().count()).max().unwrap_or(0);
    let column = (names + 2).min(width / 3);
    let mut text = String::new();
    for (index, row) in rows.iter().enumerate() {
        if index > 0 {
            text.push('\n');
        }
        for (at, value) in row.iter().enumerate() {
            let name = header.get(at).map_or("", String::as_str);
            push_field(&mut text, name, value, column, width, color);
        }
    }
    text
}

/// A two-column table whose rows are each a short name and its value, when it does not fit:
/// its header as one line, then a `name  value` line for each row, as [`blocks`] writes a
/// record's lines.
fn pairs(header: &[String], rows: &[Vec<String>], width: usize, color: bool) -> String {
    let names = rows
        .iter()
        .map(|row| row[0].chars().count())
        .max()
        .unwrap_or(0);
    let column = (names + 2).min(width / 3);
    let mut text = wrap_line("", "    ", &header.join("  "), width);
    for row in rows {
        push_field(&mut text, &row[0], &row[1], column, width, color);
    }
    text
}

/// One `name  value` line of a record: the value word-wrapped under a column `column` wide,
/// or, too wide beside its name, on the lines below it; its own line breaks kept.
fn push_field(
    text: &mut String,
    name: &str,
    value: &str,
    column: usize,
    width: usize,
    color: bool,
) {
    let shown = match cell_verdict(value) {
        Some(verdict) => painted(value, verdict, color),
        None => value.to_owned(),
    };
    let longest = value
        .split([' ', '\n'])
        .map(|w| w.chars().count())
        .max()
        .unwrap_or(0);
    let beside = name.chars().count() < column && column + longest <= width;
    let (first, indent) = if beside {
        (format!("{name:<column$}"), " ".repeat(column))
    } else {
        // Below its name, indented under it (a name may be indented itself: a member's).
        let under = " ".repeat(name.len() - name.trim_start_matches(' ').len() + 2);
        text.push_str(&wrap_line("", &under, name, width));
        (under.clone(), under)
    };
    for (line_index, line) in shown.split('\n').enumerate() {
        let start = if line_index == 0 { &first } else { &indent };
        text.push_str(&wrap_line(start, &indent, line, width));
    }
}

/// Word-wraps each line of `text` longer than `width` (when there is one): the line breaks
/// at spaces, continuation lines indented by four spaces; only a word longer than a line is
/// broken, after a separator where it has one (see [`break_word`]).
pub fn wrap(text: &str, width: Option<usize>) -> String {
    let Some(width) = width else {
        return text.to_owned();
    };
    let width = width.max(MIN_WIDTH);
    let mut out = String::with_capacity(text.len() + text.len() / width * 5);
    for line in text.split_inclusive('\n') {
        let (content, end) = match line.strip_suffix('\n') {
            Some(content) => (content, "\n"),
            None => (line, ""),
        };
        if visible_width(content) <= width {
            out.push_str(line);
            continue;
        }
        let wrapped = wrap_line("", "    ", content, width);
        out.push_str(wrapped.strip_suffix('\n').unwrap_or(&wrapped));
        out.push_str(end);
    }
    out
}

/// One line of text after `first` (which may be empty), word-wrapped at `width`, the lines
/// after the first starting with `indent`; every line ends with a line break. Runs of spaces
/// where a line breaks are dropped; a word longer than a line is broken by [`break_word`].
fn wrap_line(first: &str, indent: &str, line: &str, width: usize) -> String {
    let mut out = String::new();
    let mut current = first.to_owned();
    // Whether `current` holds no word yet, and whether it is the line's first (whose leading
    // spaces are the line's own indentation and are kept).
    let mut empty = true;
    let mut first_line = true;
    // Spaces seen since the last word (kept between words, dropped where the line breaks).
    let mut spaces = 0;
    for (index, word) in line.split(' ').enumerate() {
        if index > 0 {
            spaces += 1;
        }
        if word.is_empty() {
            continue;
        }
        let gap = if empty && !first_line { 0 } else { spaces };
        if !empty && visible_width(&current) + gap + visible_width(word) > width {
            out.push_str(current.trim_end());
            out.push('\n');
            current = indent.to_owned();
            empty = true;
            first_line = false;
        } else {
            current.push_str(&" ".repeat(gap));
        }
        spaces = 0;
        let mut word = word;
        loop {
            let room = width.saturating_sub(visible_width(&current)).max(1);
            if visible_width(word) <= room {
                break;
            }
            if !empty {
                // The word gets a line of its own before it is broken.
                out.push_str(current.trim_end());
                out.push('\n');
                current = indent.to_owned();
                empty = true;
                first_line = false;
                continue;
            }
            let cut = break_word(word, room);
            current.push_str(&word[..cut]);
            out.push_str(&current);
            out.push('\n');
            current = indent.to_owned();
            first_line = false;
            word = &word[cut..];
        }
        current.push_str(word);
        empty = false;
    }
    out.push_str(current.trim_end());
    out.push('\n');
    out
}

/// Where a word too long for a line may break: after one of these.
const SEPARATORS: [char; 15] = [
    '/', '-', '_', '.', ',', ':', '=', ';', '&', '?', '@', '+', ')', ']', '}',
];

/// Where a word longer than `room` columns is broken (a byte index, at least one character
/// in): after the last separator that leaves at most `room` characters, so a path breaks
/// between its parts and a digest or code stays whole where it can; a run with no separator
/// (a digest longer than the line) is cut at `room`.
fn break_word(word: &str, room: usize) -> usize {
    let at_room = word
        .char_indices()
        .nth(room)
        .map_or(word.len(), |(at, _)| at);
    let separator = word[..at_room]
        .char_indices()
        .rev()
        .filter(|&(_, ch)| SEPARATORS.contains(&ch))
        .map(|(at, ch)| at + ch.len_utf8())
        .find(|&end| end < word.len());
    match separator {
        Some(end) if end > 0 => end,
        _ => at_room.max(word.chars().next().map_or(0, char::len_utf8)),
    }
}

/// How a verdict word reads: good (green), a failure (red), a warning (yellow).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Good,
    Bad,
    Warning,
}

/// Whether standard output is coloured (`--color`, NO_COLOR), set once before any command
/// runs; process-wide for the same reason as `-q` (see `cmd::quiet`).
static COLOR: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Sets whether [`paint`] colours (from the resolved `--color` for standard output).
pub fn set_color(color: bool) {
    COLOR.store(color, std::sync::atomic::Ordering::Relaxed);
}

/// `word` coloured as its verdict when colour is on; the words themselves are unchanged,
/// so output without colour reads the same.
pub fn paint(word: &str, verdict: Verdict) -> String {
    painted(
        word,
        verdict,
        COLOR.load(std::sync::atomic::Ordering::Relaxed),
    )
}

fn painted(word: &str, verdict: Verdict, color: bool) -> String {
    if !color {
        return word.to_owned();
    }
    let code = match verdict {
        Verdict::Good => "32",
        Verdict::Bad => "31",
        Verdict::Warning => "33",
    };
    format!("\x1b[1;{code}m{word}\x1b[0m")
}

/// A count of problems: coloured only when there is at least one (a zero needs no
/// attention).
pub fn count(n: u64, noun: &str, verdict: Verdict) -> String {
    counted(
        n,
        noun,
        verdict,
        COLOR.load(std::sync::atomic::Ordering::Relaxed),
    )
}

fn counted(n: u64, noun: &str, verdict: Verdict, color: bool) -> String {
    let text = format!("{n} {noun}");
    if n == 0 {
        text
    } else {
        painted(&text, verdict, color)
    }
}

/// A rate as people read it: `184/s`, `1.5k/s`, `2.3M/s` (three significant digits at most).
pub fn rate(per_second: f64) -> String {
    let (value, unit) = if per_second >= 1e6 {
        (per_second / 1e6, "M")
    } else if per_second >= 1e3 {
        (per_second / 1e3, "k")
    } else {
        (per_second, "")
    };
    if unit.is_empty() || value >= 10.0 {
        format!("{value:.0}{unit}")
    } else {
        format!("{value:.1}{unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::{break_word, columns_from_env, counted, fit, painted, rate, wrap, Verdict};

    #[test]
    fn rates_are_rounded_and_only_problems_are_red() {
        assert_eq!(rate(1489.0683), "1.5k");
        assert_eq!(rate(184.2456), "184");
        assert_eq!(rate(12_345.0), "12k");
        assert_eq!(rate(2_300_000.0), "2.3M");
        assert_eq!(counted(0, "rejected", Verdict::Bad, true), "0 rejected");
        assert_eq!(
            counted(2, "rejected", Verdict::Bad, true),
            "\x1b[1;31m2 rejected\x1b[0m"
        );
        assert_eq!(painted("VERIFY OK", Verdict::Good, false), "VERIFY OK");
        assert_eq!(
            painted("VERIFY OK", Verdict::Good, true),
            "\x1b[1;32mVERIFY OK\x1b[0m"
        );
    }

    use comfy_table::Table;

    fn findings_table() -> (Table, String) {
        let mut table = Table::new();
        table.set_header(vec!["severity", "code", "path", "finding"]);
        let hash = "ab".repeat(32);
        table.add_row(vec![
            "error".to_owned(),
            "operation-receipt-missing".to_owned(),
            format!("receipts/receipt-00000000000000000001-{hash}.json"),
            format!("the signature does not verify under key {hash}; the receipt changed"),
        ]);
        (table, hash)
    }

    /// Issue 38 items 1 and 2: piped, every row is one line with every value whole; at a
    /// width, a table that cannot keep its words whole becomes records, and no digest, code
    /// or path is cut or shortened. 5027bf8 had no layout (its tables shortened digests and
    /// wrapped codes mid-word: tests/it/terminal_tables.rs was red on it); this test was seen
    /// red with the fallback to records removed (`fit` always returning the fitted table).
    #[test]
    fn no_value_is_cut_piped_or_at_a_width() {
        let (table, hash) = findings_table();
        let piped = fit(&table, None, false);
        let row = piped
            .lines()
            .find(|l| l.contains("operation-receipt-missing"))
            .unwrap();
        assert!(row.contains(&format!("receipt-00000000000000000001-{hash}.json")));
        assert!(row.contains(&format!("under key {hash};")), "{piped}");
        for width in [40, 80, 120] {
            let text = fit(&table, Some(width), false);
            assert!(text.lines().all(|l| l.chars().count() <= width), "{text}");
            assert!(text.contains("operation-receipt-missing"), "{text}");
            assert!(!text.contains('…'), "{text}");
            // The 64-hex digest is whole wherever a line can hold it.
            if width >= 80 {
                assert_eq!(text.matches(&hash).count(), 2, "{width}: {text}");
            }
        }
        // At 80 columns the four columns cannot keep their words whole: one record per block.
        let text = fit(&table, Some(80), false);
        assert!(
            text.starts_with("severity  error\ncode      operation-receipt-missing\n"),
            "{text}"
        );
        // Wide enough, a table with the prose wrapped between words.
        let wide = fit(&table, Some(240), false);
        assert!(wide.starts_with('┌') || wide.starts_with('+'), "{wide}");
        assert!(wide.lines().all(|l| l.chars().count() <= 240), "{wide}");
    }

    /// A two-column table of names and values that does not fit is one `name  value` line per
    /// row under its header, not a block per row repeating the header's words. Seen red with
    /// the two-column case removed from `fit` (each row a block led by the long header).
    #[test]
    fn a_name_value_table_becomes_name_value_lines() {
        let mut table = Table::new();
        table.set_header(vec!["field (reported, as given or derived)", "value"]);
        let hash = "cd".repeat(32);
        table.add_row(vec!["authority".to_owned(), hash.clone()]);
        table.add_row(vec!["key_id".to_owned(), "\"alice\"".to_owned()]);
        let text = fit(&table, Some(80), false);
        assert_eq!(
            text,
            format!(
                "field (reported, as given or derived)  value\nauthority  {hash}\nkey_id     \"alice\"\n"
            )
        );
        // Piped, or wide enough, still the table.
        assert!(
            fit(&table, None, false).starts_with('┌') || fit(&table, None, false).starts_with('+')
        );
    }

    #[test]
    fn blocks_put_a_wide_value_under_its_name_and_break_paths_at_separators() {
        let mut table = Table::new();
        table.set_header(vec!["file", "code"]);
        let path = format!("{}/receipt-{}.json", "d".repeat(30), "0".repeat(64));
        table.add_row(vec![path.clone(), "operation-receipt-missing".to_owned()]);
        let text = fit(&table, Some(80), false);
        // Too wide beside its name: on the lines below, broken after a separator only.
        assert!(
            text.starts_with(&format!(
                "file\n  {}/receipt-\n  {}.json\n",
                "d".repeat(30),
                "0".repeat(64)
            )),
            "{text}"
        );
        assert!(text.contains("code  operation-receipt-missing"), "{text}");
    }

    #[test]
    fn with_colour_the_verdict_word_is_red_and_the_table_still_fits() {
        let (table, _) = findings_table();
        for width in [None, Some(80), Some(240)] {
            let text = fit(&table, width, true);
            assert!(
                text.contains("\x1b[38;5;9m\x1b[1m error") || text.contains("\x1b[1;31merror"),
                "{text:?}"
            );
            assert!(!text.contains("\x1b[1;31moperation"), "{text:?}");
            if let Some(width) = width {
                assert!(
                    text.lines().all(|l| super::visible_width(l) <= width),
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn columns_is_honoured_only_as_a_positive_number() {
        use std::ffi::OsStr;
        assert_eq!(columns_from_env(Some(OsStr::new("100"))), Some(100));
        assert_eq!(columns_from_env(Some(OsStr::new(" 72 "))), Some(72));
        for bad in ["", "0", "-5", "80x", "wide"] {
            assert_eq!(columns_from_env(Some(OsStr::new(bad))), None, "{bad}");
        }
        assert_eq!(columns_from_env(None), None);
    }

    #[test]
    fn long_lines_wrap_under_their_label_and_short_ones_stay() {
        let text = "  short  line\n  shown text      917 bytes, sha256 cb67d9d254324c25304111adcc31466824928ba61fc0215efa55f97103f6c42c (renderer 3)\n";
        assert_eq!(wrap(text, None), text);
        assert_eq!(
            wrap(text, Some(70)),
            "  short  line\n  shown text      917 bytes, sha256\n    cb67d9d254324c25304111adcc31466824928ba61fc0215efa55f97103f6c42c\n    (renderer 3)\n"
        );
        // A word longer than the line is broken, after a separator where it has one.
        let cut = wrap(&format!("  key  {}\n", "a".repeat(30)), Some(20));
        assert_eq!(
            cut,
            format!("  key\n    {}\n    {}\n", "a".repeat(16), "a".repeat(14))
        );
        let path = wrap("  file  receipts/receipt-0001-abcdef.json\n", Some(24));
        assert_eq!(
            path,
            "  file\n    receipts/receipt-\n    0001-abcdef.json\n"
        );
        assert!(wrap(text, Some(40))
            .lines()
            .all(|l| l.chars().count() <= 40));
    }

    #[test]
    fn words_break_after_their_last_separator_that_fits() {
        assert_eq!(break_word("abc/def/ghi", 9), 8);
        assert_eq!(break_word("abcdefghij", 4), 4);
        // A separator as the word's last character is no break (nothing would follow).
        assert_eq!(break_word("abcdefg/", 8), 8);
        assert_eq!(break_word("é-abc", 1), "é".len());
    }
}
