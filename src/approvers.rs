//! Trusted approvers: who may approve, with which key, and when — the list, its parser, its
//! lookup, and the one rule that credits a record to a name ([`Approvers::credit`]), used for
//! token lines (`verify approval`, `report`) and for receipts (`audit`, `report`) alike.
//!
//! The file holds one approver per line, `NAME KEY [valid-after=TIME] [valid-before=TIME]`;
//! KEY is 64 hex digits or an OpenSSH `ssh-ed25519 AAAA… [comment]` key; TIME is RFC 3339 or
//! Unix milliseconds, read by the one time parser with its guard (digits that look like Unix
//! seconds or a `YYYYMMDD` date are refused); `#` starts a comment; the same name may appear
//! on several lines (key rotation), but one key never belongs to two names. A key is valid for
//! records whose time is at or after `valid-after` and before `valid-before`. A malformed or
//! ambiguous line is an error naming its line number; nothing is guessed. A record is credited
//! to a name only when its signature verified under that name's key and its time lies inside
//! one of that key's windows.

use crate::keys::{openssh, KeyError, PublicKey};
use crate::timestamp::{rfc3339, time_millis};
use serde::Serialize;
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

/// Who signed a credited record, from the trusted-approvers list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignedBy {
    pub name: String,
    pub key_id: String,
}

/// A signature that verified under a key, and the time the record it covers claims
/// (`authorized_at`, or a decline's `issuedAt`). Only a verified signature may be given to
/// [`Approvers::credit`]; an unverified record is credited to no one and never looked up.
#[derive(Debug, Clone, Copy)]
pub struct VerifiedSignature<'a> {
    pub key_id: &'a str,
    pub at: u64,
}

/// What the list makes of a verified signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Credit<'a> {
    /// The key is listed and one of its windows holds the time: the record is credited to
    /// the name on that line.
    Credited(SignedBy),
    /// The key is listed, but none of its windows holds the time: the record is credited to
    /// no one. `lines` are the key's entries (one name), for saying which windows failed.
    OutsideWindow {
        key_id: String,
        at: u64,
        lines: Vec<&'a Approver>,
    },
    /// The key is not listed.
    NotListed,
}

impl Credit<'_> {
    /// Why an outside-window record is credited to no one, in words (no name: the record is
    /// not that approver's), e.g. "signed with the key on line 2 of the trusted-approvers list
    /// (key id …), valid only from 2030-01-01T00:00:00Z on; the record's time
    /// 2026-08-20T09:40:00Z lies outside, so it is credited to no approver".
    pub fn outside_window_detail(&self) -> Option<String> {
        let Credit::OutsideWindow { key_id, at, lines } = self else {
            return None;
        };
        let windows: Vec<String> = lines
            .iter()
            .map(|entry| {
                format!(
                    "{} (line {})",
                    window_text(entry.valid_after, entry.valid_before),
                    entry.line
                )
            })
            .collect();
        Some(format!(
            "signed with a key the trusted-approvers list holds (key id {key_id}) only {}; the \
             record's time {} lies outside, so it is credited to no approver",
            windows.join(", or "),
            rfc3339(*at)
        ))
    }
}

impl Approvers {
    /// Parses the file at `path` (`-`: standard input).
    pub fn read(path: &Path) -> Result<Self, KeyError> {
        let input = crate::input::Input::new(path);
        let bytes = input
            .read_capped(MAX_APPROVERS_FILE_BYTES)
            .map_err(|source| KeyError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        Self::parse_bytes(&bytes, path)
    }

    /// [`Approvers::parse`] of a file's bytes: bytes that are not UTF-8 text (binary data) are
    /// no list, said as its format error.
    pub fn parse_bytes(bytes: &[u8], path: &Path) -> Result<Self, KeyError> {
        let text = std::str::from_utf8(bytes).map_err(|e| KeyError::Approvers {
            path: path.to_path_buf(),
            line: 0,
            message: format!(
                "not UTF-8 text (invalid byte at offset {}): not a trusted-approvers list",
                e.valid_up_to()
            ),
        })?;
        Self::parse(text, path)
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
            let entry = parse_line(content, line).map_err(error)?;
            if let Some(other) = entries
                .iter()
                .find(|e: &&Approver| e.key == entry.key && e.name != entry.name)
            {
                return Err(error(format!(
                    "this line gives {:?} the key that line {} gives {:?} (key id {}); one key \
                     belongs to one approver, so records it signs could not be credited",
                    entry.name, other.line, other.name, entry.key.key_id
                )));
            }
            entries.push(entry);
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

    /// The one rule that credits a record to a name: its signature verified under a listed
    /// key (the caller's [`VerifiedSignature`]) and one of that key's windows holds the
    /// record's time. Outside every window, or under an unlisted key, it is credited to no
    /// one.
    pub fn credit(&self, signature: VerifiedSignature<'_>) -> Credit<'_> {
        let lines: Vec<&Approver> = self
            .entries
            .iter()
            .filter(|entry| entry.key.key_id == signature.key_id)
            .collect();
        if lines.is_empty() {
            return Credit::NotListed;
        }
        match lines.iter().find(|entry| entry.valid_at(signature.at)) {
            Some(entry) => Credit::Credited(SignedBy {
                name: entry.name.clone(),
                key_id: signature.key_id.to_owned(),
            }),
            None => Credit::OutsideWindow {
                key_id: signature.key_id.to_owned(),
                at: signature.at,
                lines,
            },
        }
    }
}

/// A key's window in words, as dates: "from 2030-01-01T00:00:00Z on".
pub fn window_text(after: Option<u64>, before: Option<u64>) -> String {
    match (after, before) {
        (Some(a), Some(b)) => format!("from {} until before {}", rfc3339(a), rfc3339(b)),
        (Some(a), None) => format!("from {} on", rfc3339(a)),
        (None, Some(b)) => format!("before {}", rfc3339(b)),
        (None, None) => "always".to_owned(),
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
    *slot = Some(time_millis(text).map_err(|error| {
        let why = error.unwrap_or_else(|| {
            "it is neither RFC 3339 (2026-07-28T12:00:00Z) nor Unix milliseconds".to_owned()
        });
        format!("{what}={text:?}: {why}")
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
        let credit = |key: &PublicKey, at| {
            list.credit(VerifiedSignature {
                key_id: &key.key_id,
                at,
            })
        };
        assert!(matches!(credit(&old, 1999), Credit::Credited(a) if a.name == "alice"));
        let outside = credit(&old, 2000);
        assert!(matches!(&outside, Credit::OutsideWindow { lines, .. } if lines[0].line == 2));
        let detail = outside.outside_window_detail().unwrap();
        assert!(!detail.contains("alice"), "{detail}");
        assert!(
            detail.contains("before 1970-01-01T00:00:02Z (line 2)"),
            "{detail}"
        );
        assert!(matches!(credit(&new, 2000), Credit::Credited(a) if a.key_id == new.key_id));
        assert!(matches!(credit(&new, 1999), Credit::OutsideWindow { .. }));
        let stranger = SecretKey::from_seed(&[9; 32]).public;
        assert_eq!(credit(&stranger, 1), Credit::NotListed);
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
            (format!("alice {}\n\nbob {}\n", old.hex, old.hex), 3),
            (format!("bob {} valid-after=1787218300\n", old.hex), 1),
            (format!("bob {} valid-before=20270101\n", old.hex), 1),
        ] {
            match Approvers::parse(&bad, Path::new("a")).unwrap_err() {
                KeyError::Approvers { line: at, .. } => assert_eq!(at, line, "{bad}"),
                other => panic!("{other:?}"),
            }
        }
    }
}
