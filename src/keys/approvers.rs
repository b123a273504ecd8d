//! A trusted-approvers file: who may approve, with which key, and when. One approver per
//! line, `NAME KEY [valid-after=TIME] [valid-before=TIME]`; KEY is 64 hex digits or an
//! OpenSSH `ssh-ed25519 AAAA… [comment]` key; TIME is RFC 3339 or Unix milliseconds; `#`
//! starts a comment; the same name may appear on several lines (key rotation). A key is valid
//! for records whose `authorized_at` is at or after `valid-after` and before `valid-before`.
//! A malformed line is an error naming its line number; nothing is guessed.

use super::{openssh, KeyError, PublicKey};
use crate::timestamp::parse_time;
use std::path::Path;

/// Trusted-approvers files are short lists; a larger file is not one.
const MAX_APPROVERS_FILE_BYTES: u64 = 1 << 20;

/// One line of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Approver {
    pub name: String,
    pub key: PublicKey,
    /// Unix ms; the key is valid from this time on (inclusive).
    pub valid_after: Option<u64>,
    /// Unix ms; the key is valid until just before this time.
    pub valid_before: Option<u64>,
    /// 1-based line number in the file.
    pub line: u64,
}

impl Approver {
    /// Whether `at` (Unix ms) lies inside this entry's window.
    pub fn valid_at(&self, at: u64) -> bool {
        self.valid_after.is_none_or(|after| at >= after)
            && self.valid_before.is_none_or(|before| at < before)
    }
}

/// The approvers of one file, in file order.
#[derive(Debug, Clone, Default)]
pub struct Approvers {
    pub entries: Vec<Approver>,
}

/// What the list says about a record signed by a key at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup<'a> {
    /// A listed key whose window contains the time.
    Valid(&'a Approver),
    /// The key is listed, but no window of it contains the time.
    OutsideWindow(&'a Approver),
    /// The key is not listed.
    Unknown,
}

impl Approvers {
    /// Parses the file at `path` (`-`: standard input).
    pub fn read(path: &Path) -> Result<Self, KeyError> {
        let input = crate::input::Input::new(path);
        let text = input
            .read_capped_text(MAX_APPROVERS_FILE_BYTES)
            .map_err(|source| KeyError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        Self::parse(&text, path)
    }

    /// Parses the file's text; `path` only names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Self, KeyError> {
        let mut entries = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = u64::try_from(index).unwrap_or(u64::MAX).saturating_add(1);
            let content = strip_comment(raw).trim();
            if content.is_empty() {
                continue;
            }
            let error = |message: String| KeyError::Approvers {
                path: path.to_path_buf(),
                line,
                message,
            };
            entries.push(parse_line(content, line).map_err(error)?);
        }
        if entries.is_empty() {
            return Err(KeyError::Approvers {
                path: path.to_path_buf(),
                line: 0,
                message: "the file lists no approver".to_owned(),
            });
        }
        Ok(Approvers { entries })
    }

    /// The listed keys (distinct, in file order), for checking signatures.
    pub fn keys(&self) -> Vec<&PublicKey> {
        let mut keys: Vec<&PublicKey> = Vec::new();
        for entry in &self.entries {
            if !keys.contains(&&entry.key) {
                keys.push(&entry.key);
            }
        }
        keys
    }

    /// Finds the entry for `key_id` valid at `at`, or says why there is none.
    pub fn lookup(&self, key_id: &str, at: u64) -> Lookup<'_> {
        let mut listed = None;
        for entry in self.entries.iter().filter(|e| e.key.key_id == key_id) {
            if entry.valid_at(at) {
                return Lookup::Valid(entry);
            }
            listed.get_or_insert(entry);
        }
        listed.map_or(Lookup::Unknown, Lookup::OutsideWindow)
    }
}

/// Characters that could disguise a name on a terminal.
fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

fn strip_comment(line: &str) -> &str {
    match line.find('#') {
        Some(at) => &line[..at],
        None => line,
    }
}

fn parse_line(content: &str, line: u64) -> Result<Approver, String> {
    let mut tokens = content.split_whitespace();
    let name = tokens.next().unwrap_or("").to_owned();
    if let Some(bad) = name.chars().find(|c| is_invisible(*c)) {
        return Err(format!(
            "NAME holds U+{:04X}; names are shown on terminals, so control, bidirectional and \
             zero-width characters are refused",
            u32::from(bad)
        ));
    }
    let key_token = tokens
        .next()
        .ok_or_else(|| "expected NAME KEY [valid-after=TIME] [valid-before=TIME]".to_owned())?;
    let key = if key_token == openssh::ED25519 {
        let blob = tokens
            .next()
            .ok_or_else(|| "ssh-ed25519 without its key".to_owned())?;
        openssh::parse_public_line(&format!("{key_token} {blob}"), "the key")
            .map_err(|e| e.to_string())?
            .0
    } else {
        PublicKey::from_hex(key_token).map_err(|_| {
            "KEY must be 64 hex digits or an `ssh-ed25519 AAAA…` public key".to_owned()
        })?
    };
    let mut approver = Approver {
        name,
        key,
        valid_after: None,
        valid_before: None,
        line,
    };
    let mut comment_allowed = key_token == openssh::ED25519;
    for token in tokens {
        if let Some(time) = token.strip_prefix("valid-after=") {
            set_once(&mut approver.valid_after, time, "valid-after")?;
        } else if let Some(time) = token.strip_prefix("valid-before=") {
            set_once(&mut approver.valid_before, time, "valid-before")?;
        } else if comment_allowed
            && approver.valid_after.is_none()
            && approver.valid_before.is_none()
        {
            // The comment of an OpenSSH public key line (e.g. `me@host`).
            continue;
        } else {
            return Err(format!(
                "unexpected {token:?}: only valid-after=TIME and valid-before=TIME follow the key"
            ));
        }
        comment_allowed = false;
    }
    if let (Some(after), Some(before)) = (approver.valid_after, approver.valid_before) {
        if before <= after {
            return Err("valid-before must be later than valid-after".to_owned());
        }
    }
    Ok(approver)
}

fn set_once(slot: &mut Option<u64>, text: &str, what: &str) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("{what} given twice"));
    }
    *slot = Some(parse_time(text).ok_or_else(|| {
        format!("{what}={text:?} is neither RFC 3339 (2026-07-28T12:00:00Z) nor Unix milliseconds")
    })?);
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::keys::SecretKey;

    #[test]
    fn rotation_windows_and_malformed_lines() {
        let old = SecretKey::from_seed(&[1; 32]).public;
        let new = SecretKey::from_seed(&[2; 32]).public;
        let text = format!(
            "# approvers\nalice {} valid-before=2000\n\nalice {} valid-after=2000 # rotated\nbob {} me@host\n",
            old.hex,
            new.hex,
            crate::keys::openssh::public_line(&SecretKey::from_seed(&[3; 32]).public)
        );
        let list = Approvers::parse(&text, Path::new("a")).unwrap();
        assert_eq!(list.entries.len(), 3);
        assert_eq!(list.entries[2].line, 5);
        assert!(matches!(list.lookup(&old.key_id, 1999), Lookup::Valid(a) if a.name == "alice"));
        assert!(matches!(
            list.lookup(&old.key_id, 2000),
            Lookup::OutsideWindow(_)
        ));
        assert!(matches!(list.lookup(&new.key_id, 2000), Lookup::Valid(a) if a.line == 4));
        assert!(matches!(
            list.lookup(&new.key_id, 1999),
            Lookup::OutsideWindow(_)
        ));
        assert_eq!(list.lookup(&"0".repeat(64), 1), Lookup::Unknown);
        for (bad, line) in [
            ("alice\n".to_owned(), 1),
            (format!("# c\nalice {} valid-after=soon\n", old.hex), 2),
            (format!("alice {} extra\n", old.hex), 1),
            (
                format!("alice {} valid-after=5 valid-before=5\n", old.hex),
                1,
            ),
            ("alice 1234\n".to_owned(), 1),
            (format!("al\u{202e}ice {}\n", old.hex), 1),
        ] {
            match Approvers::parse(&bad, Path::new("a")).unwrap_err() {
                KeyError::Approvers { line: at, .. } => assert_eq!(at, line, "{bad}"),
                other => panic!("{other:?}"),
            }
        }
    }
}
