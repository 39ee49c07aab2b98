//! Lenient feed dates.
//!
//! feed-rs's own lenient parser reads a zone-less time as UTC, and Korean outlets
//! write zone-less times in KST, so Moat registers this parser instead. It reads:
//! RFC 3339 / ISO 8601 (`2026-11-28T09:30:00+09:00`, `2026-11-28 09:30:00`,
//! `2026.11.28 09:30`, `2026/11/28`, a bare date), and RFC 2822 with the usual damage
//! (a wrong or missing weekday, long month names, `UTC`/`GMT`/`KST`/US zone names,
//! `-0000`, one-digit hours, hour `24`, no zone at all). A time without a zone is read
//! in the zone the caller gives (Asia/Seoul for Korean feeds). Anything else is `None`.

use std::sync::OnceLock;

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use regex::Regex;

/// Parses a feed date; a time without a zone is read in `zone_less`.
pub fn parse_date(text: &str, zone_less: Tz) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if text.is_empty() || text.len() > 64 {
        return None;
    }
    if let Ok(d) = DateTime::parse_from_rfc3339(text) {
        return Some(d.with_timezone(&Utc));
    }
    if let Some(d) = parse_iso_like(text, zone_less) {
        return Some(d);
    }
    parse_rfc2822_like(text, zone_less)
}

fn iso_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)^
            (\d{4})[-./](\d{1,2})[-./](\d{1,2})\.?
            (?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?
            \s*(Z|UTC|GMT|KST|[+-]\d{2}:?\d{2}|[+-]\d{2})?$",
        )
        .expect("a valid regex")
    })
}

fn parse_iso_like(text: &str, zone_less: Tz) -> Option<DateTime<Utc>> {
    let caps = iso_re().captures(text)?;
    let num = |i: usize| caps.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
    let year = caps.get(1)?.as_str().parse::<i32>().ok()?;
    let date = NaiveDate::from_ymd_opt(year, num(2)?, num(3)?)?;
    let (hour, minute, second) = match num(4) {
        Some(h) => (h, num(5)?, num(6).unwrap_or(0)),
        None => (0, 0, 0),
    };
    let naive = at_time(date, hour, minute, second)?;
    match caps.get(7).map(|m| m.as_str()) {
        None => in_zone(naive, zone_less),
        Some(zone) => with_offset(naive, offset_of(zone)?),
    }
}

fn rfc2822_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?ix)^
            (?:[a-z]+,?\s+)?                       # the weekday, often wrong: ignored
            (\d{1,2})\s+([a-z]+)\.?,?\s+(\d{2,4}),?
            (?:\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?
            \s*(UT|UTC|GMT|Z|KST|JST|EST|EDT|CST|CDT|MST|MDT|PST|PDT|[+-]\d{2}:?\d{2})?
            (?:\s*\(.*\))?$",
        )
        .expect("a valid regex")
    })
}

fn parse_rfc2822_like(text: &str, zone_less: Tz) -> Option<DateTime<Utc>> {
    let caps = rfc2822_re().captures(text)?;
    let num = |i: usize| caps.get(i).and_then(|m| m.as_str().parse::<u32>().ok());
    let month = month_number(caps.get(2)?.as_str())?;
    let year = match caps.get(3)?.as_str().parse::<i32>().ok()? {
        y @ 0..=49 => 2000 + y,
        y @ 50..=99 => 1900 + y,
        y => y,
    };
    let date = NaiveDate::from_ymd_opt(year, month, num(1)?)?;
    let (hour, minute, second) = match num(4) {
        Some(h) => (h, num(5)?, num(6).unwrap_or(0)),
        None => (0, 0, 0),
    };
    let naive = at_time(date, hour, minute, second)?;
    match caps.get(7).map(|m| m.as_str()) {
        None => in_zone(naive, zone_less),
        Some(zone) => with_offset(naive, offset_of(zone)?),
    }
}

/// Hour 24 (`24:00:00`) is midnight of the next day.
fn at_time(date: NaiveDate, hour: u32, minute: u32, second: u32) -> Option<NaiveDateTime> {
    if hour == 24 && minute == 0 && second == 0 {
        let next = date.succ_opt()?;
        return Some(next.and_time(NaiveTime::MIN));
    }
    // A leap second (`:60`) is read as the last second of the minute.
    let time = NaiveTime::from_hms_opt(hour, minute, second.min(59))?;
    Some(date.and_time(time))
}

fn in_zone(naive: NaiveDateTime, zone: Tz) -> Option<DateTime<Utc>> {
    zone.from_local_datetime(&naive)
        .earliest()
        .map(|d| d.with_timezone(&Utc))
}

fn with_offset(naive: NaiveDateTime, offset_secs: i32) -> Option<DateTime<Utc>> {
    let offset = FixedOffset::east_opt(offset_secs)?;
    offset
        .from_local_datetime(&naive)
        .single()
        .map(|d| d.with_timezone(&Utc))
}

/// Seconds east of UTC.
fn offset_of(zone: &str) -> Option<i32> {
    let hours = match zone.to_ascii_uppercase().as_str() {
        "Z" | "UT" | "UTC" | "GMT" => 0,
        "KST" | "JST" => 9,
        "EST" | "CDT" => -5,
        "EDT" => -4,
        "CST" | "MDT" => -6,
        "MST" | "PDT" => -7,
        "PST" => -8,
        numeric => {
            let sign = if numeric.starts_with('-') { -1 } else { 1 };
            let digits: String = numeric.chars().filter(char::is_ascii_digit).collect();
            let (h, m) = match digits.len() {
                2 => (digits.parse::<i32>().ok()?, 0),
                4 => (
                    digits[..2].parse::<i32>().ok()?,
                    digits[2..].parse::<i32>().ok()?,
                ),
                _ => return None,
            };
            if h > 14 || m > 59 {
                return None;
            }
            return Some(sign * (h * 3600 + m * 60));
        }
    };
    Some(hours * 3600)
}

fn month_number(name: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let lower = name.to_ascii_lowercase();
    let prefix = lower.get(..3)?;
    let index = MONTHS.iter().position(|m| *m == prefix)?;
    // "Sept" and full names are fine; "Mayday" is not a month.
    const FULL: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    (lower.len() == 3 || FULL[index].starts_with(&lower) || lower == "sept")
        .then_some(index as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> Option<DateTime<Utc>> {
        Some(
            DateTime::parse_from_rfc3339(s)
                .expect("a test date")
                .with_timezone(&Utc),
        )
    }

    #[test]
    fn dates_with_a_zone_are_read_in_it() {
        let seoul = chrono_tz::Asia::Seoul;
        let cases = [
            ("2026-11-28T09:30:00+09:00", "2026-11-28T00:30:00Z"),
            ("2026-11-28T00:30:00Z", "2026-11-28T00:30:00Z"),
            ("2026-11-28T00:30:00.123Z", "2026-11-28T00:30:00.123Z"),
            ("2026-11-28 09:30:00 +0900", "2026-11-28T00:30:00Z"),
            ("Sat, 28 Nov 2026 09:30:00 +0900", "2026-11-28T00:30:00Z"),
            ("Mon, 28 Nov 2026 09:30:00 +0900", "2026-11-28T00:30:00Z"),
            (
                "Saturday, 28 November 2026 09:30:00 GMT",
                "2026-11-28T09:30:00Z",
            ),
            ("28 Nov 2026 09:30:00 UTC", "2026-11-28T09:30:00Z"),
            ("Sat, 28 Nov 2026 9:30:00 -0000", "2026-11-28T09:30:00Z"),
            ("Fri, 24 Jan 2025 11:00:00 -0500", "2025-01-24T16:00:00Z"),
            ("Fri, 24 Jan 2025 11:00:00 EST", "2025-01-24T16:00:00Z"),
            ("Sat, 28 Nov 2026 24:00:00 +0000", "2026-11-29T00:00:00Z"),
            ("2021-04-29T16:45:49-04:00", "2021-04-29T20:45:49Z"),
            ("Sat, 28 Nov 2026 09:30:00 KST", "2026-11-28T00:30:00Z"),
        ];
        for (input, want) in cases {
            assert_eq!(parse_date(input, seoul), utc(want), "input {input:?}");
            assert_eq!(
                parse_date(input, Tz::UTC),
                utc(want),
                "input {input:?} (UTC feed)"
            );
        }
    }

    #[test]
    fn zone_less_times_are_read_in_the_feeds_zone() {
        let seoul = chrono_tz::Asia::Seoul;
        let cases = [
            ("2026-11-28 09:30:00", "2026-11-28T00:30:00Z"),
            ("2026-11-28T09:30:00", "2026-11-28T00:30:00Z"),
            ("2026.11.28 09:30", "2026-11-28T00:30:00Z"),
            ("2026/11/28 09:30:15", "2026-11-28T00:30:15Z"),
            ("Sat, 28 Nov 2026 09:30:00", "2026-11-28T00:30:00Z"),
            ("2026-11-28", "2026-11-27T15:00:00Z"),
        ];
        for (input, want) in cases {
            assert_eq!(parse_date(input, seoul), utc(want), "input {input:?}");
        }
        assert_eq!(
            parse_date("2026-11-28 09:30:00", Tz::UTC),
            utc("2026-11-28T09:30:00Z")
        );
    }

    #[test]
    fn garbage_is_none() {
        for input in [
            "",
            "yesterday",
            "2026-13-40",
            "32 Nov 2026 10:00:00 GMT",
            "Sat, 28 Mayday 2026",
            "12:30",
        ] {
            assert_eq!(parse_date(input, Tz::UTC), None, "input {input:?}");
        }
    }
}
