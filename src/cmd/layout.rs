//! How human output fits the terminal it is printed on: the width of standard output when it
//! is a terminal (none when piped, so piped output keeps its full layout), tables arranged to
//! that width, and long `label  value` lines word-wrapped under their label.

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

/// The width of standard output when it is a terminal; `None` when it is piped or redirected.
/// Read once: every table and line of one run is fitted to the same width.
pub fn stdout_columns() -> Option<usize> {
    static COLUMNS: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *COLUMNS.get_or_init(|| {
        let stdout = std::io::stdout();
        if stdout.is_terminal() {
            columns(&stdout)
        } else {
            None
        }
    })
}

/// Below this many columns a table cell is too narrow to read: rows become blocks.
const MIN_COLUMN: usize = 12;
/// Hex runs at least this long are digests or key ids: shortened on a terminal (the full
/// values are in the JSON output).
const LONG_HEX: usize = 32;

/// A table as printed on standard output: piped, as the caller arranged it; on a terminal,
/// hashes shortened and arranged to the terminal's width, or, where the table cannot be read
/// at that width, each row as a block of `name: value` lines. With colour on, the verdict
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

/// [`fit`] and a line break, written to `out`. Piped without colour the table's lines go
/// straight to `out` one by one, without first being joined into one string.
fn write_fitted(
    out: &mut impl std::io::Write,
    table: &Table,
    width: Option<usize>,
    color: bool,
) -> std::io::Result<()> {
    if width.is_some() || color {
        return writeln!(out, "{}", fit(table, width, color));
    }
    // What `table.to_string()` is: the lines joined by line breaks.
    for (index, line) in table.lines().enumerate() {
        if index > 0 {
            out.write_all(b"\n")?;
        }
        out.write_all(line.as_bytes())?;
    }
    out.write_all(b"\n")
}

/// Human text as printed on standard output: on a terminal, lines longer than its width are
/// word-wrapped (see [`wrap`]).
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

/// A row's cells, hashes shortened on a terminal, verdict words coloured when asked.
fn cells(row: &comfy_table::Row, shorten: bool, color: bool) -> Vec<comfy_table::Cell> {
    row.cell_iter()
        .map(|cell| {
            let content = cell.content();
            let shown = if shorten {
                shorten_hex(&content)
            } else {
                content.clone()
            };
            let styled = comfy_table::Cell::new(shown);
            match cell_verdict(&content).filter(|_| color) {
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

/// [`table`] at a given width (`None`: piped) and colour.
pub fn fit(table: &Table, width: Option<usize>, color: bool) -> String {
    let Some(width) = width else {
        if !color {
            return table.to_string();
        }
        // The caller's arrangement, with its verdict words coloured.
        let mut styled = Table::new();
        styled
            .load_preset(&table.clone().current_style_as_preset())
            .set_content_arrangement(table.content_arrangement())
            .enforce_styling();
        if let Some(width) = table.width() {
            styled.set_width(width);
        }
        if let Some(header) = table.header() {
            styled.set_header(cells(header, false, false));
        }
        styled.add_rows(table.row_iter().map(|row| cells(row, false, true)));
        return styled.to_string();
    };
    let plain = |row: &comfy_table::Row| -> Vec<String> {
        row.cell_iter().map(|c| shorten_hex(&c.content())).collect()
    };
    let header = table.header().map(plain).unwrap_or_default();
    let rows: Vec<Vec<String>> = table.row_iter().map(plain).collect();
    let columns = rows
        .iter()
        .map(Vec::len)
        .chain([header.len()])
        .max()
        .unwrap_or(0);
    if columns * MIN_COLUMN < width {
        let mut fitted = Table::new();
        fitted
            .load_preset(comfy_table::presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(u16::try_from(width).unwrap_or(u16::MAX));
        if color {
            fitted.enforce_styling();
        }
        if let Some(header) = table.header() {
            fitted.set_header(cells(header, true, false));
        }
        fitted.add_rows(table.row_iter().map(|row| cells(row, true, color)));
        let text = fitted.to_string();
        if text.lines().all(|l| visible_width(l) <= width) {
            return text;
        }
    }
    blocks(&header, &rows, width)
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

/// Each row as a block of `name: value` lines (values word-wrapped), blocks apart by a blank
/// line.
fn blocks(header: &[String], rows: &[Vec<String>], width: usize) -> String {
    let mut text = String::new();
    for (index, row) in rows.iter().enumerate() {
        if index > 0 {
            text.push('\n');
        }
        for (column, value) in row.iter().enumerate() {
            let name = header.get(column).map_or("", String::as_str);
            let value = value.replace('\n', " ");
            text.push_str(&format!("{name}: {value}\n"));
        }
    }
    let text = wrap(&text, Some(width));
    text.strip_suffix('\n').unwrap_or(&text).to_owned()
}

/// Long lowercase-hex runs (digests, key ids) cut to their first 12 digits and `…`.
fn shorten_hex(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.len() >= LONG_HEX {
            out.push_str(&run[..12]);
            out.push('…');
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for ch in text.chars() {
        if ch.is_ascii_digit() || ('a'..='f').contains(&ch) {
            run.push(ch);
        } else {
            flush(&mut run, &mut out);
            out.push(ch);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Word-wraps each line of `text` longer than `width` (when there is one): the line breaks
/// at spaces, continuation lines indented by four spaces; a word longer than a line is cut.
pub fn wrap(text: &str, width: Option<usize>) -> String {
    let Some(width) = width else {
        return text.to_owned();
    };
    let width = width.max(20);
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
        let mut current = String::new();
        // Just after a break: runs of spaces there are dropped, no space goes before a word.
        let mut line_start = false;
        for (index, word) in content.split(' ').enumerate() {
            if line_start {
                if word.is_empty() {
                    continue;
                }
            } else if index > 0 {
                let needed = visible_width(&current) + 1 + visible_width(word);
                if needed > width && !current.trim().is_empty() {
                    out.push_str(current.trim_end());
                    out.push('\n');
                    current = "    ".to_owned();
                    line_start = true;
                    if word.is_empty() {
                        continue;
                    }
                } else {
                    current.push(' ');
                }
            }
            let mut word = word;
            while current.chars().count() + word.chars().count() > width {
                let room = width.saturating_sub(current.chars().count()).max(1);
                let cut = word
                    .char_indices()
                    .nth(room)
                    .map_or(word.len(), |(at, _)| at);
                current.push_str(&word[..cut]);
                out.push_str(&current);
                out.push('\n');
                current = "    ".to_owned();
                word = &word[cut..];
            }
            current.push_str(word);
            line_start = false;
        }
        out.push_str(&current);
        out.push_str(end);
    }
    out
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
    use super::{counted, fit, painted, rate, shorten_hex, wrap, Verdict};

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

    #[test]
    fn tables_keep_their_layout_piped_and_fit_a_terminal() {
        let mut table = Table::new();
        table.set_header(vec!["severity", "code", "path", "finding"]);
        let hash = "ab".repeat(32);
        table.add_row(vec![
            "error".to_owned(),
            "signature-invalid".to_owned(),
            "receipts/r-0001.json".to_owned(),
            format!("the signature does not verify under key {hash}; the receipt changed"),
        ]);
        assert_eq!(fit(&table, None, false), table.to_string());
        // Written line by line, piped, as printed whole; seen red with the last line break
        // left out.
        for (width, color) in [(None, false), (None, true), (Some(80), false)] {
            let mut written = Vec::new();
            super::write_fitted(&mut written, &table, width, color).unwrap();
            assert_eq!(
                String::from_utf8(written).unwrap(),
                format!("{}\n", fit(&table, width, color))
            );
        }
        for width in [80, 120] {
            let text = fit(&table, Some(width), false);
            assert!(text.lines().all(|l| l.chars().count() <= width), "{text}");
            assert!(text.contains("abababababab…"), "{text}");
            assert!(!text.contains(&hash), "{text}");
        }
        // Too narrow for four readable columns: one block per row.
        let text = fit(&table, Some(40), false);
        assert!(
            text.starts_with("severity: error\ncode: signature-invalid\n"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.chars().count() <= 40), "{text}");
        assert_eq!(
            shorten_hex("key 0123 and deadbeef"),
            "key 0123 and deadbeef"
        );
        // With colour on, the verdict word is red (piped and at a terminal) and the table still
        // fits; seen red with `cells` ignoring the colour flag.
        for width in [None, Some(80)] {
            let text = fit(&table, width, true);
            assert!(text.contains("\x1b[38;5;9m\x1b[1m error"), "{text:?}");
            assert!(!text.contains("\x1b[38;5;9m\x1b[1m signature"), "{text:?}");
        }
        let text = fit(&table, Some(80), true);
        assert!(
            text.lines().all(|l| super::visible_width(l) <= 80),
            "{text}"
        );
    }

    #[test]
    fn long_lines_wrap_under_their_label_and_short_ones_stay() {
        let text = "  short  line\n  shown text      917 bytes, sha256 cb67d9d254324c25304111adcc31466824928ba61fc0215efa55f97103f6c42c (renderer 3)\n";
        assert_eq!(wrap(text, None), text);
        assert_eq!(
            wrap(text, Some(70)),
            "  short  line\n  shown text      917 bytes, sha256\n    cb67d9d254324c25304111adcc31466824928ba61fc0215efa55f97103f6c42c\n    (renderer 3)\n"
        );
        // A word longer than the line is cut.
        let cut = wrap(&format!("  key  {}\n", "a".repeat(30)), Some(20));
        assert_eq!(
            cut,
            format!("  key\n    {}\n    {}\n", "a".repeat(16), "a".repeat(14))
        );
        assert!(wrap(text, Some(40))
            .lines()
            .all(|l| l.chars().count() <= 40));
    }
}
