//! Where passphrases come from: the first line of a `--passphrase-file`, or the terminal
//! (echo turned off and input typed ahead discarded before the prompt is drawn; on Windows
//! through the console). File names in prompts are shown inert. Passphrases are held as
//! `SecretString`, wiped when dropped, and never printed.

use crate::input::Input;
use crate::keys::KeyError;
use age::secrecy::{ExposeSecret, SecretString};
use std::path::Path;
use zeroize::Zeroizing;

/// A passphrase file larger than this is not one.
const MAX_PASSPHRASE_FILE_BYTES: u64 = 64 * 1024;

/// The first line of FILE (`-`: standard input; its line end removed). An empty passphrase
/// is refused.
pub fn from_file(path: &Path) -> Result<SecretString, KeyError> {
    let bytes = Zeroizing::new(
        Input::new(path)
            .read_capped(MAX_PASSPHRASE_FILE_BYTES)
            .map_err(|source| KeyError::Io {
                path: path.to_path_buf(),
                source,
            })?,
    );
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| KeyError::BadPassphrase("the passphrase file is not UTF-8"))?;
    let line = text.split('\n').next().unwrap_or("");
    let line = line.strip_suffix('\r').unwrap_or(line);
    non_empty(SecretString::from(line.to_owned()))
}

/// Asks once on the terminal.
pub fn ask(prompt: &str) -> Result<SecretString, KeyError> {
    let answer = read(prompt)?;
    non_empty(SecretString::from(answer.as_str().to_owned()))
}

/// Reads without echo, the prompt drawn only once echo is off and input typed before it is
/// discarded (see `terminal::read_passphrase`).
#[cfg(unix)]
fn read(prompt: &str) -> Result<Zeroizing<String>, KeyError> {
    super::terminal::read_passphrase(prompt).map_err(|error| match error.kind() {
        std::io::ErrorKind::UnexpectedEof => {
            KeyError::BadPassphrase("the terminal's input ended before a passphrase was entered")
        }
        std::io::ErrorKind::InvalidData => {
            KeyError::BadPassphrase("it is not UTF-8 text, or longer than 64 KiB")
        }
        _ => KeyError::NoPassphrase,
    })
}

#[cfg(not(unix))]
fn read(prompt: &str) -> Result<Zeroizing<String>, KeyError> {
    rpassword::prompt_password(prompt)
        .map(Zeroizing::new)
        .map_err(|_| KeyError::NoPassphrase)
}

/// Asks twice on the terminal for a new passphrase; both entries must agree.
pub fn ask_new(what: &str) -> Result<SecretString, KeyError> {
    let first = ask(&format!(
        "New passphrase for {}: ",
        crate::inert::escape(what)
    ))?;
    let second = ask("Same passphrase again: ")?;
    if first.expose_secret() != second.expose_secret() {
        return Err(KeyError::BadPassphrase("the two entries differ"));
    }
    Ok(first)
}

/// The passphrase for an existing key: from the file if given, else asked.
pub fn existing(file: Option<&Path>, key_path: &Path) -> Result<SecretString, KeyError> {
    match file {
        Some(file) => from_file(file),
        None => ask(&format!(
            "Passphrase for {}: ",
            crate::inert::escape(&key_path.display().to_string())
        )),
    }
}

/// A new passphrase: from the file if given, else asked twice.
pub fn new(file: Option<&Path>, what: &str) -> Result<SecretString, KeyError> {
    match file {
        Some(file) => from_file(file),
        None => ask_new(what),
    }
}

fn non_empty(passphrase: SecretString) -> Result<SecretString, KeyError> {
    if passphrase.expose_secret().is_empty() {
        return Err(KeyError::BadPassphrase("it is empty"));
    }
    Ok(passphrase)
}
