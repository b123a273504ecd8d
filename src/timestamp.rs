//! Times given on the command line and in trusted-approvers files, one parser for all:
//! `now`, an RFC 3339 date-time (`2026-12-01T10:00:00Z`, `…+02:00`, fractions to the
//! millisecond) or Unix milliseconds. Options in Unix seconds (an envelope's `issued_at`,
//! `expires_at`) take the same forms, digits read as seconds. Digits that look like the other
//! unit (ten digits where milliseconds are expected) are refused with a hint, since either
//! reading would silently be decades off.

use std::time::{SystemTime, UNIX_EPOCH};

/// Digits from here up to [`SECONDS_LOOK_END`] read as milliseconds fall in January 1970
/// (2001-09-09 to 5138 as seconds): almost certainly seconds given by mistake.
const SECONDS_LOOK_START: u64 = 1_000_000_000;
const SECONDS_LOOK_END: u64 = 100_000_000_000;

/// How a time option's value should read; its wording in errors.
const FORMS: &str = "`now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix milliseconds";

/// A time option in Unix milliseconds (`--now`, `--authorized-at`, `--expiry`), for clap.
pub fn millis_option(text: &str) -> Result<u64, String> {
    parse_millis(text, now_ms)
}

/// A time option in Unix seconds (`--issued-at`, `--expires-at`), for clap.
pub fn seconds_option(text: &str) -> Result<u64, String> {
    parse_seconds(text, now_ms)
}

/// [`millis_option`] with the clock given (`now` reads it).
pub fn parse_millis(text: &str, clock: impl FnOnce() -> Option<u64>) -> Result<u64, String> {
    if text == "now" {
        return clock().ok_or_else(|| "the system clock is before 1970".to_owned());
    }
    time_millis(text).map_err(|error| error.unwrap_or_else(|| format!("expected {FORMS}")))
}

/// A time written as RFC 3339 or Unix milliseconds (no `now`): [`parse_time`] with the guard
/// every millisecond time passes, here and in trusted-approvers files. Digits that look like
/// Unix seconds (ten or eleven digits, which as milliseconds fall in January 1970) or like a
/// date written `YYYYMMDD` are refused with a hint. `Err(None)`: not a time at all (the caller
/// names the forms it takes).
pub fn time_millis(text: &str) -> Result<u64, Option<String>> {
    let value = parse_time(text).ok_or(None)?;
    if !is_digits(text) {
        return Ok(value);
    }
    if (SECONDS_LOOK_START..SECONDS_LOOK_END).contains(&value) {
        return Err(Some(format!(
            "{text} looks like Unix seconds, but milliseconds are expected here: multiply by \
             1000 ({value}000) or use RFC 3339 (2026-12-01T10:00:00Z)"
        )));
    }
    if let Some(date) = as_compact_date(text) {
        return Err(Some(format!(
            "{text} looks like the date {date} written without dashes, but digits are Unix \
             milliseconds here (this would be {text} ms after 1970-01-01T00:00:00Z): write \
             {date}T00:00:00Z"
        )));
    }
    Ok(value)
}

/// `YYYYMMDD` digits that name a calendar day from 1970 to 2999, as `YYYY-MM-DD`.
fn as_compact_date(text: &str) -> Option<String> {
    if text.len() != 8 {
        return None;
    }
    let (year, month, day): (i64, i64, i64) = (
        text[..4].parse().ok()?,
        text[4..6].parse().ok()?,
        text[6..].parse().ok()?,
    );
    let plausible = (1970..3000).contains(&year)
        && (1..=12).contains(&month)
        && (1..=days_in_month(year, month)).contains(&day);
    plausible.then(|| format!("{year:04}-{month:02}-{day:02}"))
}

/// Unix milliseconds as RFC 3339 in UTC: `2026-08-20T09:40:00Z`, with `.mmm` when the
/// milliseconds are not zero. What output shows for a time read by [`time_millis`].
pub fn rfc3339(ms: u64) -> String {
    let t = Utc::of(ms);
    let fraction = if t.millis == 0 {
        String::new()
    } else {
        format!(".{:03}", t.millis)
    };
    format!("{}T{}{fraction}Z", t.date(), t.time())
}

/// Unix milliseconds broken into the UTC calendar fields every rendering here uses (one
/// calendar computation for RFC 3339, the people's form and the page's ISO form).
struct Utc {
    year: i64,
    month: i64,
    day: i64,
    seconds_of_day: u64,
    millis: u64,
}

impl Utc {
    fn of(ms: u64) -> Utc {
        let seconds = ms / 1000;
        let days = i64::try_from(seconds / 86_400).unwrap_or(i64::MAX / 2);
        let (year, month, day) = civil_from_days(days);
        Utc {
            year,
            month,
            day,
            seconds_of_day: seconds % 86_400,
            millis: ms % 1000,
        }
    }

    fn date(&self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    fn time(&self) -> String {
        let rest = self.seconds_of_day;
        format!(
            "{:02}:{:02}:{:02}",
            rest / 3600,
            rest % 3600 / 60,
            rest % 60
        )
    }
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// algorithm; the inverse of [`days_from_civil`]).
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// [`seconds_option`] with the clock given: digits are seconds; `now` and RFC 3339 are
/// rounded down to the second.
pub fn parse_seconds(text: &str, clock: impl FnOnce() -> Option<u64>) -> Result<u64, String> {
    let forms = "`now`, RFC 3339 (2026-12-01T10:00:00Z) or Unix seconds";
    if is_digits(text) {
        let value: u64 = text.parse().map_err(|_| format!("expected {forms}"))?;
        if value >= SECONDS_LOOK_END {
            return Err(format!(
                "{text} looks like Unix milliseconds, but this option takes seconds: divide by \
                 1000 or use RFC 3339 (2026-12-01T10:00:00Z)"
            ));
        }
        return Ok(value);
    }
    let millis = if text == "now" {
        clock().ok_or_else(|| "the system clock is before 1970".to_owned())?
    } else {
        parse_time(text).ok_or_else(|| format!("expected {forms}"))?
    };
    Ok(millis / 1000)
}

/// The system clock in Unix milliseconds.
pub fn now_ms() -> Option<u64> {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).ok()?;
    u64::try_from(since.as_millis()).ok()
}

/// Unix milliseconds as people read them: `YYYY-MM-DD HH:MM:SS UTC` (the second, rounded
/// down; the milliseconds go beside it where they matter).
pub fn utc_text(ms: u64) -> String {
    let t = Utc::of(ms);
    format!("{} {} UTC", t.date(), t.time())
}

fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
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

/// Unix milliseconds as `YYYY-MM-DDTHH:MM:SS.mmmZ` (the form of JavaScript's
/// `toISOString`, so static and scripted rows read the same).
pub fn iso_ms(ms: u64) -> String {
    let t = Utc::of(ms);
    format!("{}T{}.{:03}Z", t.date(), t.time(), t.millis)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

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
    fn options_take_now_rfc_3339_or_their_unit_and_catch_the_other_unit() {
        let clock = || Some(1_786_000_000_123);
        assert_eq!(parse_millis("now", clock), Ok(1_786_000_000_123));
        assert_eq!(
            parse_millis("2026-12-01T10:00:00Z", clock),
            Ok(1_796_119_200_000)
        );
        assert_eq!(parse_millis("1786000000000", clock), Ok(1_786_000_000_000));
        // Small values stay milliseconds (tests and replays use them); only the ten-digit
        // range that reads as seconds is refused.
        assert_eq!(parse_millis("0", clock), Ok(0));
        assert_eq!(parse_millis("999999999", clock), Ok(999_999_999));
        assert_eq!(parse_millis("100000000000", clock), Ok(100_000_000_000));
        let error = parse_millis("1786000000", clock).unwrap_err();
        assert!(error.contains("looks like Unix seconds"), "{error}");
        assert!(error.contains("1786000000000"), "{error}");
        assert!(parse_millis("tomorrow", clock)
            .unwrap_err()
            .contains("RFC 3339"));
        assert_eq!(parse_seconds("1786000000", clock), Ok(1_786_000_000));
        assert_eq!(parse_seconds("now", clock), Ok(1_786_000_000));
        assert_eq!(
            parse_seconds("2026-12-01T10:00:00.999Z", clock),
            Ok(1_796_119_200)
        );
        assert!(parse_seconds("1786000000000", clock)
            .unwrap_err()
            .contains("looks like Unix milliseconds"));
        // A date without dashes is not 20 million milliseconds; digits that are no date are.
        let error = parse_millis("20270101", clock).unwrap_err();
        assert!(error.contains("2027-01-01T00:00:00Z"), "{error}");
        assert_eq!(parse_millis("20271301", clock), Ok(20_271_301));
        assert_eq!(parse_millis("19691231", clock), Ok(19_691_231));
        assert_eq!(time_millis("now"), Err(None));
        assert_eq!(time_millis("1787218300"), Err(Some("1787218300 looks like Unix seconds, but milliseconds are expected here: multiply by 1000 (1787218300000) or use RFC 3339 (2026-12-01T10:00:00Z)".to_owned())));
    }

    #[test]
    fn rfc3339_renders_what_parse_time_reads() {
        for ms in [
            0,
            1_787_218_800_000,
            1_787_218_800_005,
            951_782_400_000,
            4_102_444_799_999,
        ] {
            let text = rfc3339(ms);
            assert_eq!(parse_time(&text), Some(ms), "{text}");
        }
        assert_eq!(rfc3339(1_787_218_800_000), "2026-08-20T09:40:00Z");
        assert_eq!(rfc3339(1_787_218_800_050), "2026-08-20T09:40:00.050Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn iso_ms_matches_javascript_to_iso_string() {
        assert_eq!(iso_ms(0), "1970-01-01T00:00:00.000Z");
        // new Date(1787218805500).toISOString()
        assert_eq!(iso_ms(1_787_218_805_500), "2026-08-20T09:40:05.500Z");
        assert_eq!(iso_ms(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }
}
