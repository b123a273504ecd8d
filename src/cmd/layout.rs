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
pub fn stdout_columns() -> Option<usize> {
    let stdout = std::io::stdout();
    if stdout.is_terminal() {
        columns(&stdout)
    } else {
        None
    }
}

/// Arranges `table` to the terminal's width (comfy-table's dynamic arrangement wraps cells
/// inside their columns); piped, it keeps every cell on one line.
pub fn fit_table(table: &mut Table, width: Option<usize>) {
    match width.and_then(|w| u16::try_from(w).ok()) {
        Some(width) => {
            table.set_content_arrangement(ContentArrangement::Dynamic);
            table.set_width(width);
        }
        None => {
            table.set_content_arrangement(ContentArrangement::Disabled);
        }
    }
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
        if content.chars().count() <= width {
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
                let needed = current.chars().count() + 1 + word.chars().count();
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

#[cfg(test)]
mod tests {
    use super::wrap;

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
