//! A trusted-approvers file: who may approve, with which key, and when. One approver per
//! line, `NAME KEY [valid-after=TIME] [valid-before=TIME]`; KEY is 64 hex digits or an
//! OpenSSH `ssh-ed25519 AAAA… [comment]` key; TIME is RFC 3339 or Unix milliseconds; `#`
//! starts a comment; the same name may appear on several lines (key rotation). A key is valid
//! for records whose `authorized_at` is at or after `valid-after` and before `valid-before`.
//! A malformed line is an error naming its line number; nothing is guessed.

use super::{openssh, KeyError, PublicKey};
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
    /// Parses the file at `path`.
    pub fn read(path: &Path) -> Result<Self, KeyError> {
        let text = crate::input::read_file_capped_text(path, MAX_APPROVERS_FILE_BYTES).map_err(
            |source| KeyError::Io {
                path: path.to_path_buf(),
                source,
            },
        )?;
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

/// Unix milliseconds from digits, or from an RFC 3339 date-time with `Z` or a numeric offset.
pub fn parse_time(text: &str) -> Option<u64> {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().ok();
    }
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let part = text.get(range)?;
        if part.bytes().all(|b| b.is_ascii_digit()) {
            part.parse().ok()
        } else {
            None
        }
    };
    if bytes.len() < 20
        || bytes[4] != b'-'
        || bytes[7] != b'-'
        || !matches!(bytes[10], b'T' | b't' | b' ')
        || bytes[13] != b':'
        || bytes[16] != b':'
    {
        return None;
    }
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    if second > 60 || day > days_in_month(year, month) {
        return None;
    }
    let mut rest = &text[19..];
    let mut millis = 0i64;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let padded: String = fraction[..digits]
            .chars()
            .chain("000".chars())
            .take(3)
            .collect();
        millis = padded.parse().ok()?;
        rest = &fraction[digits..];
    }
    let offset_minutes = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            if rest.len() != 6 || rest.as_bytes()[3] != b':' {
                return None;
            }
            let hours: i64 = rest.get(1..3)?.parse().ok()?;
            let minutes: i64 = rest.get(4..6)?.parse().ok()?;
            if hours > 23 || minutes > 59 {
                return None;
            }
            sign * (hours * 60 + minutes)
        }
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second.min(59) - offset_minutes * 60;
    u64::try_from(seconds.checked_mul(1000)?.checked_add(millis)?).ok()
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::keys::SecretKey;

    #[test]
    fn times_in_both_forms() {
        assert_eq!(parse_time("0"), Some(0));
        assert_eq!(parse_time("1786000000000"), Some(1_786_000_000_000));
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_time("2026-07-28T00:00:00Z"), Some(1_785_196_800_000));
        assert_eq!(
            parse_time("2026-07-28T02:00:00.5+02:00"),
            Some(1_785_196_800_500)
        );
        for bad in [
            "",
            "2026-02-30T00:00:00Z",
            "2026-07-28",
            "2026-07-28T00:00:00",
            "1e3",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }

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
