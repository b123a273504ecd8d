//! A table with no width to fit, drawn straight into one string: the bytes comfy-table draws
//! for the same style, header and rows with its content arrangement disabled (each column as
//! wide as its widest line, every cell whole on its own lines, one space of padding each
//! side), without building comfy-table's cells, rows and per-line strings first. A command
//! that prints a hundred thousand rows (`verify approval`, piped) spends about a fifth of its
//! time in that building otherwise (docs/performance.md, "Issue 40, phase 9").
//!
//! It is not a second table layout: [`draw`] answers `None` for anything outside what it was
//! checked to draw byte for byte (a row whose cell count is not the header's, no header, a line
//! wider than comfy-table's `u16` column width), and the caller then draws with comfy-table.
//! `tests::agrees_with_comfy_table` compares the two over generated tables in every preset
//! comfy-table ships, with wide, zero-width and multi-line cells.

use unicode_width::UnicodeWidthStr;

/// The parts of a table's style, in the order of comfy-table's preset strings
/// (`TableComponent`'s order): a space in a preset means the part is not drawn.
#[derive(Clone, Copy)]
enum Part {
    LeftBorder,
    RightBorder,
    TopBorder,
    BottomBorder,
    LeftHeaderIntersection,
    HeaderLines,
    MiddleHeaderIntersections,
    RightHeaderIntersection,
    VerticalLines,
    HorizontalLines,
    MiddleIntersections,
    LeftBorderIntersections,
    RightBorderIntersections,
    TopBorderIntersections,
    BottomBorderIntersections,
    TopLeftCorner,
    TopRightCorner,
    BottomLeftCorner,
    BottomRightCorner,
}

/// The parts of each horizontal rule: its start, its fill, between two columns, its end.
const TOP: [Part; 4] = [
    Part::TopLeftCorner,
    Part::TopBorder,
    Part::TopBorderIntersections,
    Part::TopRightCorner,
];
const HEADER: [Part; 4] = [
    Part::LeftHeaderIntersection,
    Part::HeaderLines,
    Part::MiddleHeaderIntersections,
    Part::RightHeaderIntersection,
];
const ROW: [Part; 4] = [
    Part::LeftBorderIntersections,
    Part::HorizontalLines,
    Part::MiddleIntersections,
    Part::RightBorderIntersections,
];
const BOTTOM: [Part; 4] = [
    Part::BottomLeftCorner,
    Part::BottomBorder,
    Part::BottomBorderIntersections,
    Part::BottomRightCorner,
];

/// A preset's glyphs: `None` for a part the style leaves out.
struct Style([Option<char>; 19]);

impl Style {
    fn from_preset(preset: &str) -> Style {
        let mut glyphs = [None; 19];
        for (glyph, ch) in glyphs.iter_mut().zip(preset.chars()) {
            *glyph = (ch != ' ').then_some(ch);
        }
        Style(glyphs)
    }

    fn has(&self, part: Part) -> bool {
        self.0[part as usize].is_some()
    }

    fn any(&self, parts: &[Part]) -> bool {
        parts.iter().any(|&part| self.has(part))
    }

    /// The glyph drawn for `part`: a space where the style leaves it out but its line is drawn.
    fn glyph(&self, part: Part) -> char {
        self.0[part as usize].unwrap_or(' ')
    }
}

/// The display width of one line of a cell: its length when it is printable ASCII (the
/// common case), otherwise what comfy-table measures (unicode-width's, the same release).
fn line_width(line: &str) -> usize {
    if line.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        line.len()
    } else {
        line.width()
    }
}

/// The table drawn as comfy-table draws it with `ContentArrangement::Disabled` (lines joined
/// by `\n`, no line break after the last) after loading `preset` (a whole style, as
/// `Table::current_style_as_preset` gives it) into a new table, or `None` when it is outside
/// what this draws.
pub fn draw(preset: &str, header: &[String], rows: &[Vec<String>]) -> Option<String> {
    let columns = header.len();
    // A preset shorter than the whole style leaves the rest of comfy-table's default style.
    if preset.chars().count() < 19 || columns == 0 || rows.iter().any(|row| row.len() != columns) {
        return None;
    }
    let style = Style::from_preset(preset);
    // Each column's content width: its widest line, at least 1.
    let mut widths = vec![1usize; columns];
    let mut bytes = 0usize;
    for row in std::iter::once(header).chain(rows.iter().map(Vec::as_slice)) {
        for (width, cell) in widths.iter_mut().zip(row) {
            bytes += cell.len();
            for line in cell.split('\n') {
                *width = (*width).max(line_width(line));
            }
        }
    }
    if widths
        .iter()
        .any(|&width| width > usize::from(u16::MAX - 2))
    {
        // comfy-table keeps a column's width, padding included, in a u16: past it, it splits
        // the line or cuts the padding.
        return None;
    }
    let left = style.any(&[
        Part::TopLeftCorner,
        Part::LeftBorder,
        Part::LeftBorderIntersections,
        Part::LeftHeaderIntersection,
        Part::BottomLeftCorner,
    ]);
    let right = style.any(&[
        Part::TopRightCorner,
        Part::RightBorder,
        Part::RightBorderIntersections,
        Part::RightHeaderIntersection,
        Part::BottomRightCorner,
    ]);
    let vertical = style.any(&[
        Part::TopBorderIntersections,
        Part::MiddleHeaderIntersections,
        Part::VerticalLines,
        Part::MiddleIntersections,
        Part::BottomBorderIntersections,
    ]);
    let line_chars: usize = widths.iter().map(|w| w + 3).sum::<usize>() + 2;
    let mut out = String::with_capacity(bytes * 2 + line_chars * 3 * (rows.len() + 4));
    let mut first_line = true;
    let mut new_line = |out: &mut String| {
        if !first_line {
            out.push('\n');
        }
        first_line = false;
    };
    // A border line: `ends` drawn when the table has that border, `between` always between
    // columns (comfy-table's top and bottom borders) or only with vertical lines (its
    // horizontal lines).
    let rule = |out: &mut String, [start, fill, between, end]: [Part; 4], always: bool| {
        if left {
            out.push(style.glyph(start));
        }
        for (index, &width) in widths.iter().enumerate() {
            if index > 0 && (always || vertical) {
                out.push(style.glyph(between));
            }
            let fill = style.glyph(fill);
            out.extend(std::iter::repeat_n(fill, width + 2));
        }
        if right {
            out.push(style.glyph(end));
        }
    };
    if style.any(&TOP) {
        new_line(&mut out);
        rule(&mut out, TOP, true);
    }
    let header_rule = style.any(&HEADER);
    let row_rule = style.any(&ROW);
    let mut lines: Vec<std::str::Split<'_, char>> = Vec::with_capacity(columns);
    let all = std::iter::once(header).chain(rows.iter().map(Vec::as_slice));
    for (index, row) in all.enumerate() {
        let height = row
            .iter()
            .map(|cell| cell.bytes().filter(|&b| b == b'\n').count() + 1)
            .max()
            .unwrap_or(1);
        lines.clear();
        lines.extend(row.iter().map(|cell| cell.split('\n')));
        for _ in 0..height {
            new_line(&mut out);
            if left {
                out.push(style.glyph(Part::LeftBorder));
            }
            for (column, (cell, &width)) in lines.iter_mut().zip(&widths).enumerate() {
                if column > 0 && vertical {
                    out.push(style.glyph(Part::VerticalLines));
                }
                let line = cell.next().unwrap_or("");
                out.push(' ');
                out.push_str(line);
                let pad = width.saturating_sub(line_width(line)) + 1;
                out.extend(std::iter::repeat_n(' ', pad));
            }
            if right {
                out.push(style.glyph(Part::RightBorder));
            }
        }
        let last = index == rows.len();
        if index == 0 {
            if header_rule {
                new_line(&mut out);
                rule(&mut out, HEADER, false);
            }
        } else if !last && row_rule {
            new_line(&mut out);
            rule(&mut out, ROW, false);
        }
    }
    if style.any(&BOTTOM) {
        new_line(&mut out);
        rule(&mut out, BOTTOM, true);
    }
    Some(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use comfy_table::{presets, ContentArrangement, Table};

    /// comfy-table's drawing of the same table.
    fn comfy(preset: &str, header: &[String], rows: &[Vec<String>]) -> String {
        let mut table = Table::new();
        table.load_preset(preset);
        table.set_header(header.to_vec());
        table.add_rows(rows.to_vec());
        table.set_content_arrangement(ContentArrangement::Disabled);
        table.to_string()
    }

    const PRESETS: [&str; 13] = [
        presets::ASCII_FULL,
        presets::ASCII_FULL_CONDENSED,
        presets::ASCII_NO_BORDERS,
        presets::ASCII_BORDERS_ONLY,
        presets::ASCII_BORDERS_ONLY_CONDENSED,
        presets::ASCII_HORIZONTAL_ONLY,
        presets::ASCII_MARKDOWN,
        presets::UTF8_FULL,
        presets::UTF8_FULL_CONDENSED,
        presets::UTF8_NO_BORDERS,
        presets::UTF8_BORDERS_ONLY,
        presets::UTF8_HORIZONTAL_ONLY,
        presets::NOTHING,
    ];

    /// Cell texts of every kind the tables hold: empty, ASCII, wide (CJK, emoji), zero-width
    /// (a combining mark), escapes as `inert` writes them, and several lines.
    const WORDS: [&str; 12] = [
        "",
        "ok",
        "REJECTED",
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "名前",
        "e\u{301}",
        "🔒 locked",
        "\\u{202e}tool",
        "two\nlines",
        "\nleading",
        "trailing\n",
        "a  b ",
    ];

    /// A deterministic generator (a linear congruential one): the same tables every run.
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self, below: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 33) as usize) % below
        }
        fn cell(&mut self) -> String {
            (0..self.next(3) + 1)
                .map(|_| WORDS[self.next(WORDS.len())])
                .collect::<Vec<_>>()
                .join(" ")
        }
    }

    /// The guarantee itself. Seen red by hand with the header and row rules drawing their
    /// column separators whatever the style (`always || vertical` → `always`), and under
    /// cargo-mutants' first seven mutants of this file (each part's presence, a glyph, the
    /// width of a line): every one caught (docs/mutants.md, session 9).
    #[test]
    fn agrees_with_comfy_table() {
        let mut lcg = Lcg(40);
        let mut compared = 0;
        for round in 0..600 {
            let preset = PRESETS[round % PRESETS.len()];
            let columns = lcg.next(5) + 1;
            let header: Vec<String> = (0..columns).map(|_| lcg.cell()).collect();
            let rows: Vec<Vec<String>> = (0..lcg.next(5))
                .map(|_| (0..columns).map(|_| lcg.cell()).collect())
                .collect();
            let drawn = draw(preset, &header, &rows).unwrap();
            assert_eq!(
                drawn,
                comfy(preset, &header, &rows),
                "preset {preset:?}, header {header:?}, rows {rows:?}"
            );
            compared += 1;
        }
        assert_eq!(compared, 600);
    }

    #[test]
    fn the_verify_approval_table_is_drawn_as_comfy_table_draws_it() {
        let header: Vec<String> = ["line", "status", "target", "reason"]
            .map(str::to_owned)
            .to_vec();
        let rows = vec![
            vec![
                "1".into(),
                "accepted".into(),
                "sha256:ab".into(),
                "-".into(),
            ],
            vec![
                "2".into(),
                "REJECTED".into(),
                "-".into(),
                "bad-signature".into(),
            ],
        ];
        let drawn = draw(presets::UTF8_FULL_CONDENSED, &header, &rows).unwrap();
        let expected = "\
┌──────┬──────────┬───────────┬───────────────┐
│ line ┆ status   ┆ target    ┆ reason        │
╞══════╪══════════╪═══════════╪═══════════════╡
│ 1    ┆ accepted ┆ sha256:ab ┆ -             │
│ 2    ┆ REJECTED ┆ -         ┆ bad-signature │
└──────┴──────────┴───────────┴───────────────┘";
        assert_eq!(drawn, expected);
        assert_eq!(drawn, comfy(presets::UTF8_FULL_CONDENSED, &header, &rows));
    }

    #[test]
    fn what_it_does_not_draw_is_left_to_comfy_table() {
        let header = vec!["a".to_owned(), "b".to_owned()];
        // A ragged row, no header, a preset of part of a style, and a line too wide for a
        // u16 column with its padding.
        assert!(draw(presets::UTF8_FULL, &header, &[vec!["1".into()]]).is_none());
        assert!(draw(presets::UTF8_FULL, &[], &[vec!["1".into()]]).is_none());
        assert!(draw("||--", &header, &[]).is_none());
        let wide = vec!["x".repeat(65_534), "y".into()];
        assert!(draw(presets::UTF8_FULL, &header, &[wide]).is_none());
        let fits = vec!["x".repeat(65_533), "y".into()];
        assert!(draw(presets::UTF8_FULL, &header, &[fits]).is_some());
    }
}
