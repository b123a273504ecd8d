//! Hints for command lines the parser refused because of a common slip, added under clap's
//! own error. Today one: an option taking several values (`--frames A B…`) swallowed the
//! positional that followed it (`migrate --frames cap.jsonl old/ --out new/`), so the
//! command reports its OLD_DIR missing although the user gave one.

use std::ffi::OsString;
use std::io::Read;
use std::path::Path;

/// The hint for a parse error, if the command line shows a known slip. `args` is the whole
/// command line (program name first).
pub fn hint(error: &clap::Error, args: &[OsString]) -> Option<String> {
    if error.kind() != clap::error::ErrorKind::MissingRequiredArgument {
        return None;
    }
    swallowed_by_frames(args)
}

/// The first `--frames` value that is a receipt file or a directory holding receipts: it
/// was meant as OLD_DIR (or OLD/NEW for `diff`).
fn swallowed_by_frames(args: &[OsString]) -> Option<String> {
    let mut in_frames = false;
    for arg in args.iter().skip(1) {
        let text = arg.to_string_lossy();
        if text == "--" {
            return None;
        }
        if text.starts_with('-') && text != "-" {
            in_frames = text == "--frames";
            continue;
        }
        if in_frames && holds_receipts(Path::new(arg)) {
            return Some(format!(
                "--frames takes every value up to the next option, so it took {} (which holds \
                 receipts) as a capture: put the receipts before --frames (`sealkit migrate \
                 OLD_DIR… --frames CAPTURE… --out NEW_DIR`), or last, after `--`",
                crate::inert::escape(&text)
            ));
        }
    }
    None
}

/// A receipt file (a JSON object with a `record_type`, not a JSON-RPC frame) or a directory
/// in which the migration walk finds receipts.
fn holds_receipts(path: &Path) -> bool {
    if path.is_dir() {
        return crate::migrate::inputs::receipt_files(&[path.to_path_buf()])
            .is_ok_and(|walk| !walk.receipts.is_empty());
    }
    let mut head = Vec::new();
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    if file.take(64 * 1024).read_to_end(&mut head).is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    text.trim_start().starts_with('{')
        && text.contains("\"record_type\"")
        && !text.contains("\"jsonrpc\"")
}
