//! Where passphrases come from: the first line of a `--passphrase-file`, or the terminal
//! (asked without echo; on Windows through the console). Passphrases are held as
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
    let answer = read_after_prompt(prompt).map_err(|_| KeyError::NoPassphrase)?;
    non_empty(SecretString::from(answer))
}

/// Shows the prompt, then discards whatever was typed before it (a line pasted ahead must not
/// become the passphrase), then reads without echo.
#[cfg(unix)]
fn read_after_prompt(prompt: &str) -> std::io::Result<String> {
    use std::io::Write;
    let mut tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")?;
    tty.write_all(prompt.as_bytes())?;
    tty.flush()?;
    super::terminal::discard_typed_ahead(&tty)?;
    rpassword::read_password()
}

#[cfg(not(unix))]
fn read_after_prompt(prompt: &str) -> std::io::Result<String> {
    rpassword::prompt_password(prompt)
}

/// Asks twice on the terminal for a new passphrase; both entries must agree.
pub fn ask_new(what: &str) -> Result<SecretString, KeyError> {
    let first = ask(&format!("New passphrase for {what}: "))?;
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
        None => ask(&format!("Passphrase for {}: ", key_path.display())),
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
