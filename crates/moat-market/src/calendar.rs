//! Trading calendars: which days each [`Market`] trades, when its regular session
//! opens and closes, and whether it is open at a given instant. Plain functions, no
//! I/O; every rule and every table is in this file.
//!
//! # The markets
//!
//! - **KRX** (KOSPI, KOSDAQ): regular session 09:00–15:30 Asia/Seoul. The first trading
//!   day of each year opens an hour late, at 10:00 (the opening ceremony), and closes
//!   at 15:30 as usual. On the day of the College Scholastic Ability Test (수능) the
//!   session moves an hour later, 10:00–16:30, for the years in [`CSAT_DAYS`].
//!   Holidays come from a table of the days the exchange actually closed or has
//!   announced it will close, for [`KRX_TABLE_FIRST_YEAR`] through
//!   [`KRX_TABLE_LAST_YEAR`] (see [`krx_table_covers`]): lunar holidays, substitute
//!   holidays, election days and temporary holidays cannot be computed by rule. Outside
//!   those years only the fixed-date closures are known (see [`holiday_name`]), so the
//!   calendar is an approximation there.
//! - **US** (NYSE, NASDAQ): regular session 09:30–16:00 America/New_York, daylight
//!   saving time included (through `chrono-tz`). Holidays follow NYSE's rules and are
//!   computed for any year, plus a small table of special closures
//!   ([`US_SPECIAL_CLOSURES`]). Early closes at 13:00 ET: the day after Thanksgiving,
//!   Christmas Eve when it is Monday to Thursday, and July 3 when it is Monday to
//!   Thursday (so that July 4 is a weekday holiday the day after). The hours are today's
//!   hours applied to every date; pre-1998 holiday practice is not modelled.
//! - **FX**: Monday 00:00 UTC to Friday 24:00 UTC, treated as **one continuous week**:
//!   each weekday is a "session" spanning its UTC day, and [`status`] reports the week's
//!   end as the closing time. No FX holidays are modelled (the interbank market trades
//!   through national holidays, thinly).
//! - **Crypto**: always open. Each UTC day is a session; [`status`] is always
//!   [`MarketStatus::Open`] with no closing time.
//!
//! Dates are exchange-local calendar dates ([`timezone`], [`local_date`]); instants
//! are UTC.

use chrono::{
    DateTime, Datelike, Duration, LocalResult, NaiveDate, NaiveTime, TimeZone, Utc, Weekday,
};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use crate::instrument::Market;

// ---------------------------------------------------------------------------------
// Session hours
// ---------------------------------------------------------------------------------

/// KRX regular session open, Asia/Seoul.
pub const KRX_OPEN: NaiveTime = hm(9, 0);
/// KRX regular session close, Asia/Seoul.
pub const KRX_CLOSE: NaiveTime = hm(15, 30);
/// KRX open on the first trading day of the year (the opening ceremony delays it an
/// hour; the close stays at [`KRX_CLOSE`]).
pub const KRX_FIRST_DAY_OPEN: NaiveTime = hm(10, 0);
/// KRX open on the College Scholastic Ability Test day (수능), an hour late.
pub const KRX_CSAT_OPEN: NaiveTime = hm(10, 0);
/// KRX close on the College Scholastic Ability Test day (수능), an hour late.
pub const KRX_CSAT_CLOSE: NaiveTime = hm(16, 30);
/// NYSE/NASDAQ regular session open, America/New_York.
pub const US_OPEN: NaiveTime = hm(9, 30);
/// NYSE/NASDAQ regular session close, America/New_York.
pub const US_CLOSE: NaiveTime = hm(16, 0);
/// NYSE/NASDAQ close on early-close days, America/New_York.
pub const US_EARLY_CLOSE: NaiveTime = hm(13, 0);
/// The first year NYSE closed for Martin Luther King Jr. Day.
pub const US_MLK_DAY_FIRST_YEAR: i32 = 1998;
/// The first year NYSE closed for Juneteenth.
pub const US_JUNETEENTH_FIRST_YEAR: i32 = 2022;

/// The first year of the KRX holiday table.
pub const KRX_TABLE_FIRST_YEAR: i32 = 2020;
/// The last year of the KRX holiday table.
pub const KRX_TABLE_LAST_YEAR: i32 = 2027;

/// Days of the College Scholastic Ability Test (대학수학능력시험, 수능), when KRX
/// trades 10:00–16:30. Other years are not modelled (a regular session is assumed).
pub const CSAT_DAYS: &[NaiveDate] = &[
    ymd(2020, 12, 3),  // 2021학년도, postponed from November by COVID-19
    ymd(2021, 11, 18), // 2022학년도
    ymd(2022, 11, 17), // 2023학년도
    ymd(2023, 11, 16), // 2024학년도
    ymd(2024, 11, 14), // 2025학년도
    ymd(2025, 11, 13), // 2026학년도
    ymd(2026, 11, 19), // 2027학년도 (announced by the Ministry of Education)
    ymd(2027, 11, 18), // 2028학년도 (announced by the Ministry of Education)
];

const fn hm(hour: u32, minute: u32) -> NaiveTime {
    match NaiveTime::from_hms_opt(hour, minute, 0) {
        Some(t) => t,
        None => panic!("invalid time in a calendar constant"),
    }
}

const fn ymd(year: i32, month: u32, day: u32) -> NaiveDate {
    match NaiveDate::from_ymd_opt(year, month, day) {
        Some(d) => d,
        None => panic!("invalid date in a calendar table"),
    }
}

// ---------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------

/// One regular trading session: `open <= t < close`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Session {
    /// The exchange-local trading date.
    pub date: NaiveDate,
    pub open: DateTime<Utc>,
    pub close: DateTime<Utc>,
}

impl Session {
    /// Whether `instant` is inside the session (the close itself is not).
    pub fn contains(&self, instant: DateTime<Utc>) -> bool {
        self.open <= instant && instant < self.close
    }

    pub fn duration(&self) -> Duration {
        self.close - self.open
    }
}

/// Whether a market is trading at some instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum MarketStatus {
    /// Trading now. `closes_at` is when trading next stops: the session's close, or for
    /// FX the end of the continuous week (Friday 24:00 UTC); `None` for crypto, which
    /// never closes.
    Open { closes_at: Option<DateTime<Utc>> },
    /// Not trading; `next_open` is when the next session starts.
    Closed { next_open: DateTime<Utc> },
}

impl MarketStatus {
    pub fn is_open(&self) -> bool {
        matches!(self, MarketStatus::Open { .. })
    }
}

/// A day a market is closed although it is a weekday, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Holiday {
    pub date: NaiveDate,
    /// English name, e.g. `Chuseok`, `Thanksgiving Day`, `Christmas Day (observed)`.
    pub name: &'static str,
}

// ---------------------------------------------------------------------------------
// Public functions
// ---------------------------------------------------------------------------------

/// The exchange's time zone: Asia/Seoul for KRX, America/New_York for the US, UTC for
/// FX and crypto.
pub fn timezone(market: Market) -> Tz {
    match market {
        Market::Krx => chrono_tz::Asia::Seoul,
        Market::Us => chrono_tz::America::New_York,
        Market::Fx | Market::Crypto => chrono_tz::UTC,
    }
}

/// The exchange-local calendar date at `instant`.
pub fn local_date(market: Market, instant: DateTime<Utc>) -> NaiveDate {
    instant.with_timezone(&timezone(market)).date_naive()
}

/// Whether the market has a session on `date` (an exchange-local date).
pub fn is_trading_day(market: Market, date: NaiveDate) -> bool {
    match market {
        Market::Crypto => true,
        Market::Fx => is_weekday(date),
        Market::Krx | Market::Us => is_weekday(date) && holiday_name(market, date).is_none(),
    }
}

/// Why the market is closed on `date`, a weekday, in English; `None` when the market
/// trades that day and on weekends (which need no name). FX and crypto have no
/// holidays.
///
/// US names carry `(observed)` when a holiday that falls on a weekend is observed on
/// the Friday before or the Monday after. KRX names come from the table for
/// [`KRX_TABLE_FIRST_YEAR`]..=[`KRX_TABLE_LAST_YEAR`]; outside it only the fixed-date
/// closures are known: New Year's Day, Independence Movement Day, Labour Day,
/// Children's Day, Memorial Day, Constitution Day (until 2007 and from 2026),
/// Liberation Day, National Foundation Day, Hangul Day (until 1990 and from 2013),
/// Christmas and the year-end closure. Lunar holidays (Seollal, Buddha's Birthday,
/// Chuseok), substitute holidays, election days and temporary holidays are not known
/// outside the table.
pub fn holiday_name(market: Market, date: NaiveDate) -> Option<&'static str> {
    if !is_weekday(date) {
        return None;
    }
    match market {
        Market::Krx => krx_holiday_name(date),
        Market::Us => us_holiday_name(date),
        Market::Fx | Market::Crypto => None,
    }
}

/// Every weekday closure of `market` in `year`, in date order.
pub fn holidays(market: Market, year: i32) -> Vec<Holiday> {
    let (Some(first), Some(last)) = (
        NaiveDate::from_ymd_opt(year, 1, 1),
        NaiveDate::from_ymd_opt(year, 12, 31),
    ) else {
        return Vec::new();
    };
    first
        .iter_days()
        .take_while(|d| *d <= last)
        .filter_map(|date| holiday_name(market, date).map(|name| Holiday { date, name }))
        .collect()
}

/// Whether the KRX holiday table covers `year`; outside it KRX holidays are the
/// fixed-date ones only (see [`holiday_name`]).
pub fn krx_table_covers(year: i32) -> bool {
    (KRX_TABLE_FIRST_YEAR..=KRX_TABLE_LAST_YEAR).contains(&year)
}

/// The regular session on `date`, or `None` when the market does not trade that day.
/// FX and crypto sessions span the UTC day (00:00 to 24:00).
pub fn session(market: Market, date: NaiveDate) -> Option<Session> {
    if !is_trading_day(market, date) {
        return None;
    }
    let (open, close) = match market {
        Market::Krx => {
            let tz = timezone(market);
            let (open, close) = if CSAT_DAYS.contains(&date) {
                (KRX_CSAT_OPEN, KRX_CSAT_CLOSE)
            } else if is_first_trading_day_of_year(market, date) {
                (KRX_FIRST_DAY_OPEN, KRX_CLOSE)
            } else {
                (KRX_OPEN, KRX_CLOSE)
            };
            (at(tz, date, open), at(tz, date, close))
        }
        Market::Us => {
            let tz = timezone(market);
            let close = if us_early_close_reason(date).is_some() {
                US_EARLY_CLOSE
            } else {
                US_CLOSE
            };
            (at(tz, date, US_OPEN), at(tz, date, close))
        }
        Market::Fx | Market::Crypto => {
            let open = Utc.from_utc_datetime(&date.and_time(NaiveTime::MIN));
            (open, open + Duration::days(1))
        }
    };
    Some(Session { date, open, close })
}

/// Why the session on `date` has unusual hours, in English (`None` for a regular
/// session or a day without one): a US early close, the KRX first trading day of the
/// year, or the KRX College Scholastic Ability Test day.
pub fn special_hours(market: Market, date: NaiveDate) -> Option<&'static str> {
    if !is_trading_day(market, date) {
        return None;
    }
    match market {
        Market::Us => us_early_close_reason(date),
        Market::Krx if CSAT_DAYS.contains(&date) => {
            Some("College Scholastic Ability Test day (10:00-16:30)")
        }
        Market::Krx if is_first_trading_day_of_year(market, date) => {
            Some("First trading day of the year (opens 10:00)")
        }
        _ => None,
    }
}

/// Whether the market is open at `now`, and until when; or when it opens next.
pub fn status(market: Market, now: DateTime<Utc>) -> MarketStatus {
    if market == Market::Crypto {
        return MarketStatus::Open { closes_at: None };
    }
    let today = local_date(market, now);
    // No modelled session crosses local midnight, but look at yesterday's anyway so
    // that the answer does not depend on it.
    for date in [today.pred_opt(), Some(today)].into_iter().flatten() {
        if let Some(s) = session(market, date) {
            if s.contains(now) {
                return MarketStatus::Open {
                    closes_at: Some(continuous_close(market, s)),
                };
            }
        }
    }
    if let Some(s) = session(market, today) {
        if now < s.open {
            return MarketStatus::Closed { next_open: s.open };
        }
    }
    let next = next_trading_day(market, today);
    let next_open = session(market, next)
        .map(|s| s.open)
        .expect("next_trading_day returns a trading day");
    MarketStatus::Closed { next_open }
}

/// The last trading day strictly before `date`.
///
/// # Panics
///
/// Only within a few days of chrono's smallest representable date.
pub fn previous_trading_day(market: Market, date: NaiveDate) -> NaiveDate {
    let mut d = date;
    loop {
        d = d.pred_opt().expect("date out of chrono's range");
        if is_trading_day(market, d) {
            return d;
        }
    }
}

/// The first trading day strictly after `date`.
///
/// # Panics
///
/// Only within a few days of chrono's largest representable date.
pub fn next_trading_day(market: Market, date: NaiveDate) -> NaiveDate {
    let mut d = date;
    loop {
        d = d.succ_opt().expect("date out of chrono's range");
        if is_trading_day(market, d) {
            return d;
        }
    }
}

/// The trading days from `from` to `to`, both included, in order (empty when
/// `from > to`).
pub fn trading_days(
    market: Market,
    from: NaiveDate,
    to: NaiveDate,
) -> impl Iterator<Item = NaiveDate> {
    from.iter_days()
        .take_while(move |d| *d <= to)
        .filter(move |d| is_trading_day(market, *d))
}

/// The date of the latest session that has started by `now`: today (exchange-local)
/// if today's session has opened (it may have closed since), else the previous trading
/// day.
pub fn latest_session_date(market: Market, now: DateTime<Utc>) -> NaiveDate {
    let today = local_date(market, now);
    match session(market, today) {
        Some(s) if s.open <= now => today,
        _ => previous_trading_day(market, today),
    }
}

/// Easter Sunday of a Gregorian `year` (the Anonymous Gregorian algorithm, also known
/// as Meeus/Jones/Butcher).
///
/// # Panics
///
/// Only for years outside chrono's range.
pub fn easter_sunday(year: i32) -> NaiveDate {
    let y = i64::from(year);
    let a = y.rem_euclid(19);
    let b = y.div_euclid(100);
    let c = y.rem_euclid(100);
    let d = b.div_euclid(4);
    let e = b.rem_euclid(4);
    let f = (b + 8).div_euclid(25);
    let g = (b - f + 1).div_euclid(3);
    let h = (19 * a + b - d - g + 15).rem_euclid(30);
    let i = c.div_euclid(4);
    let k = c.rem_euclid(4);
    let l = (32 + 2 * e + 2 * i - h - k).rem_euclid(7);
    let m = (a + 11 * h + 22 * l).div_euclid(451);
    let n = h + l - 7 * m + 114;
    let month = n.div_euclid(31) as u32; // 3 or 4
    let day = (n.rem_euclid(31) + 1) as u32;
    NaiveDate::from_ymd_opt(year, month, day).expect("year out of chrono's range")
}

// ---------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------

fn is_weekday(date: NaiveDate) -> bool {
    !matches!(date.weekday(), Weekday::Sat | Weekday::Sun)
}

/// The UTC instant of local `time` on `date` in `tz`. Session times are never inside
/// a daylight-saving gap or fold (those are at 02:00), but both are handled: the
/// earlier reading of a repeated time, and an hour later for a skipped one.
fn at(tz: Tz, date: NaiveDate, time: NaiveTime) -> DateTime<Utc> {
    let naive = date.and_time(time);
    match tz.from_local_datetime(&naive) {
        LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => t.with_timezone(&Utc),
        LocalResult::None => match tz.from_local_datetime(&(naive + Duration::hours(1))) {
            LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => t.with_timezone(&Utc),
            LocalResult::None => Utc.from_utc_datetime(&naive),
        },
    }
}

fn is_first_trading_day_of_year(market: Market, date: NaiveDate) -> bool {
    is_trading_day(market, date) && previous_trading_day(market, date).year() != date.year()
}

/// The close of `s`, extended over following sessions that open the instant the
/// previous one closes (FX's continuous week).
fn continuous_close(market: Market, s: Session) -> DateTime<Utc> {
    let mut close = s.close;
    let mut date = s.date;
    loop {
        let next = next_trading_day(market, date);
        match session(market, next) {
            Some(n) if n.open == close => {
                close = n.close;
                date = next;
            }
            _ => return close,
        }
    }
}

// ---------------------------------------------------------------------------------
// US (NYSE) holidays
// ---------------------------------------------------------------------------------

/// NYSE closures outside the regular holiday rules, since 1994.
pub const US_SPECIAL_CLOSURES: &[(NaiveDate, &str)] = &[
    (
        ymd(1994, 4, 27),
        "National Day of Mourning for President Richard Nixon",
    ),
    (ymd(2001, 9, 11), "September 11 attacks"),
    (ymd(2001, 9, 12), "September 11 attacks"),
    (ymd(2001, 9, 13), "September 11 attacks"),
    (ymd(2001, 9, 14), "September 11 attacks"),
    (
        ymd(2004, 6, 11),
        "National Day of Mourning for President Ronald Reagan",
    ),
    (
        ymd(2007, 1, 2),
        "National Day of Mourning for President Gerald Ford",
    ),
    (ymd(2012, 10, 29), "Hurricane Sandy"),
    (ymd(2012, 10, 30), "Hurricane Sandy"),
    (
        ymd(2018, 12, 5),
        "National Day of Mourning for President George H. W. Bush",
    ),
    (
        ymd(2025, 1, 9),
        "National Day of Mourning for President Jimmy Carter",
    ),
];

/// The NYSE holiday observed on `date` (a weekday), if any.
///
/// NYSE Rule 7.2: a holiday on a Saturday is observed the Friday before, one on a
/// Sunday the Monday after; except New Year's Day on a Saturday, which is not observed
/// at all (the Friday before closes a year's accounting period).
fn us_holiday_name(date: NaiveDate) -> Option<&'static str> {
    if let Some((_, name)) = US_SPECIAL_CLOSURES.iter().find(|(d, _)| *d == date) {
        return Some(name);
    }
    let (year, day, weekday) = (date.year(), date.day(), date.weekday());
    let nth_weekday = |wd: Weekday, n: u32| weekday == wd && (day - 1) / 7 + 1 == n;
    match date.month() {
        1 => {
            if day == 1 {
                Some("New Year's Day")
            } else if day == 2 && weekday == Weekday::Mon {
                Some("New Year's Day (observed)")
            } else if year >= US_MLK_DAY_FIRST_YEAR && nth_weekday(Weekday::Mon, 3) {
                Some("Martin Luther King Jr. Day")
            } else {
                None
            }
        }
        2 if nth_weekday(Weekday::Mon, 3) => Some("Washington's Birthday"),
        3 | 4 if date + Duration::days(2) == easter_sunday(year) => Some("Good Friday"),
        5 if weekday == Weekday::Mon && day + 7 > 31 => Some("Memorial Day"),
        6 if year >= US_JUNETEENTH_FIRST_YEAR => observed(
            date,
            19,
            "Juneteenth National Independence Day",
            "Juneteenth National Independence Day (observed)",
        ),
        7 => observed(date, 4, "Independence Day", "Independence Day (observed)"),
        9 if nth_weekday(Weekday::Mon, 1) => Some("Labor Day"),
        11 if nth_weekday(Weekday::Thu, 4) => Some("Thanksgiving Day"),
        12 => observed(date, 25, "Christmas Day", "Christmas Day (observed)"),
        _ => None,
    }
}

/// `name` if `date` (a weekday) is day `holiday` of its month, `observed_name` if it is
/// the Friday before or the Monday after a `holiday` that falls on a weekend.
fn observed(
    date: NaiveDate,
    holiday: u32,
    name: &'static str,
    observed_name: &'static str,
) -> Option<&'static str> {
    let day = date.day();
    if day == holiday {
        Some(name)
    } else if (day + 1 == holiday && date.weekday() == Weekday::Fri)
        || (day == holiday + 1 && date.weekday() == Weekday::Mon)
    {
        Some(observed_name)
    } else {
        None
    }
}

/// Why `date` closes early at 13:00 ET, if it does (only meaningful on trading days).
fn us_early_close_reason(date: NaiveDate) -> Option<&'static str> {
    let (month, day, weekday) = (date.month(), date.day(), date.weekday());
    let mon_to_thu = matches!(
        weekday,
        Weekday::Mon | Weekday::Tue | Weekday::Wed | Weekday::Thu
    );
    match month {
        // The Friday after the fourth Thursday of November.
        11 if weekday == Weekday::Fri && (23..=29).contains(&day) => {
            Some("Early close (day after Thanksgiving)")
        }
        // Monday to Thursday: on a Friday, July 4 is a Saturday and July 3 is the
        // observed holiday.
        7 if day == 3 && mon_to_thu => Some("Early close (day before Independence Day)"),
        // Monday to Thursday: on a Friday, Christmas is a Saturday and December 24 is
        // the observed holiday.
        12 if day == 24 && mon_to_thu => Some("Early close (Christmas Eve)"),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------
// KRX holidays
// ---------------------------------------------------------------------------------

/// 신정.
const NEW_YEAR: &str = "New Year's Day";
/// 설날 and the days before and after it.
const SEOLLAL: &str = "Seollal (Lunar New Year)";
/// 삼일절.
const INDEPENDENCE_MOVEMENT_DAY: &str = "Independence Movement Day";
/// 근로자의 날 (노동절): not a public holiday, but KRX closes.
const LABOUR_DAY: &str = "Labour Day";
/// 어린이날.
const CHILDRENS_DAY: &str = "Children's Day";
/// 부처님오신날.
const BUDDHAS_BIRTHDAY: &str = "Buddha's Birthday";
/// 현충일.
const MEMORIAL_DAY: &str = "Memorial Day";
/// 제헌절: a public holiday until 2007 and again from 2026.
const CONSTITUTION_DAY: &str = "Constitution Day";
/// 광복절.
const LIBERATION_DAY: &str = "Liberation Day";
/// 추석 and the days before and after it.
const CHUSEOK: &str = "Chuseok";
/// 개천절.
const NATIONAL_FOUNDATION_DAY: &str = "National Foundation Day";
/// 한글날.
const HANGUL_DAY: &str = "Hangul Day";
/// 성탄절.
const CHRISTMAS: &str = "Christmas Day";
/// 연말 휴장일: December 31, or the last weekday before it when it is a weekend.
const YEAR_END_CLOSURE: &str = "Year-end closure";
/// 임시공휴일.
const TEMPORARY_HOLIDAY: &str = "Temporary holiday";

/// KRX weekday closures, one slice per year for [`KRX_TABLE_FIRST_YEAR`] through
/// [`KRX_TABLE_LAST_YEAR`], each in date order. Holidays that fall on a weekend are in
/// the comments only. Substitute holidays (대체공휴일): Seollal and Chuseok when they
/// meet a Sunday or another holiday (since 2014); Children's Day on a weekend (since
/// 2014); Independence Movement, Liberation, National Foundation and Hangul Day on a
/// weekend (since August 2021); Buddha's Birthday and Christmas on a weekend (since May
/// 2023); Constitution Day on a weekend (assumed, from 2026).
const KRX_CLOSURES: [&[(NaiveDate, &str)]; 8] = [
    // 2020. Weekend holidays: Seollal Jan 25 (Sat) and Jan 26 (Sun); Independence
    // Movement Day Mar 1 (Sun); Memorial Day Jun 6 (Sat); Liberation Day Aug 15
    // (Sat); National Foundation Day Oct 3 (Sat). No substitutes then except Seollal.
    &[
        (ymd(2020, 1, 1), NEW_YEAR),
        (ymd(2020, 1, 24), SEOLLAL),
        (ymd(2020, 1, 27), "Substitute holiday (Seollal)"),
        (ymd(2020, 4, 15), "General election"),
        (ymd(2020, 4, 30), BUDDHAS_BIRTHDAY),
        (ymd(2020, 5, 1), LABOUR_DAY),
        (ymd(2020, 5, 5), CHILDRENS_DAY),
        (ymd(2020, 8, 17), TEMPORARY_HOLIDAY),
        (ymd(2020, 9, 30), CHUSEOK),
        (ymd(2020, 10, 1), CHUSEOK),
        (ymd(2020, 10, 2), CHUSEOK),
        (ymd(2020, 10, 9), HANGUL_DAY),
        (ymd(2020, 12, 25), CHRISTMAS),
        (ymd(2020, 12, 31), YEAR_END_CLOSURE),
    ],
    // 2021. Weekend holidays: Seollal Feb 13 (Sat); Labour Day May 1 (Sat); Memorial
    // Day Jun 6 (Sun, no substitute); Liberation Day Aug 15 (Sun); National Foundation
    // Day Oct 3 (Sun); Hangul Day Oct 9 (Sat); Christmas Dec 25 (Sat, no substitute
    // before 2023).
    &[
        (ymd(2021, 1, 1), NEW_YEAR),
        (ymd(2021, 2, 11), SEOLLAL),
        (ymd(2021, 2, 12), SEOLLAL),
        (ymd(2021, 3, 1), INDEPENDENCE_MOVEMENT_DAY),
        (ymd(2021, 5, 5), CHILDRENS_DAY),
        (ymd(2021, 5, 19), BUDDHAS_BIRTHDAY),
        (ymd(2021, 8, 16), "Substitute holiday (Liberation Day)"),
        (ymd(2021, 9, 20), CHUSEOK),
        (ymd(2021, 9, 21), CHUSEOK),
        (ymd(2021, 9, 22), CHUSEOK),
        (
            ymd(2021, 10, 4),
            "Substitute holiday (National Foundation Day)",
        ),
        (ymd(2021, 10, 11), "Substitute holiday (Hangul Day)"),
        (ymd(2021, 12, 31), YEAR_END_CLOSURE),
    ],
    // 2022. Weekend holidays: New Year's Day (Sat); Labour Day May 1 (Sun); Buddha's
    // Birthday May 8 (Sun, no substitute before 2023); Chuseok Sep 10 (Sat) and Sep 11
    // (Sun); Hangul Day Oct 9 (Sun); Christmas Dec 25 (Sun). Dec 31 is a Saturday.
    &[
        (ymd(2022, 1, 31), SEOLLAL),
        (ymd(2022, 2, 1), SEOLLAL),
        (ymd(2022, 2, 2), SEOLLAL),
        (ymd(2022, 3, 1), INDEPENDENCE_MOVEMENT_DAY),
        (ymd(2022, 3, 9), "Presidential election"),
        (ymd(2022, 5, 5), CHILDRENS_DAY),
        (ymd(2022, 6, 1), "Local elections"),
        (ymd(2022, 6, 6), MEMORIAL_DAY),
        (ymd(2022, 8, 15), LIBERATION_DAY),
        (ymd(2022, 9, 9), CHUSEOK),
        (ymd(2022, 9, 12), "Substitute holiday (Chuseok)"),
        (ymd(2022, 10, 3), NATIONAL_FOUNDATION_DAY),
        (ymd(2022, 10, 10), "Substitute holiday (Hangul Day)"),
        (ymd(2022, 12, 30), YEAR_END_CLOSURE),
    ],
    // 2023. Weekend holidays: New Year's Day (Sun); Seollal Jan 21 (Sat) and Jan 22
    // (Sun); Buddha's Birthday May 27 (Sat); Chuseok Sep 30 (Sat). Dec 31 is a Sunday.
    &[
        (ymd(2023, 1, 23), SEOLLAL),
        (ymd(2023, 1, 24), "Substitute holiday (Seollal)"),
        (ymd(2023, 3, 1), INDEPENDENCE_MOVEMENT_DAY),
        (ymd(2023, 5, 1), LABOUR_DAY),
        (ymd(2023, 5, 5), CHILDRENS_DAY),
        (ymd(2023, 5, 29), "Substitute holiday (Buddha's Birthday)"),
        (ymd(2023, 6, 6), MEMORIAL_DAY),
        (ymd(2023, 8, 15), LIBERATION_DAY),
        (ymd(2023, 9, 28), CHUSEOK),
        (ymd(2023, 9, 29), CHUSEOK),
        (ymd(2023, 10, 2), TEMPORARY_HOLIDAY),
        (ymd(2023, 10, 3), NATIONAL_FOUNDATION_DAY),
        (ymd(2023, 10, 9), HANGUL_DAY),
        (ymd(2023, 12, 25), CHRISTMAS),
        (ymd(2023, 12, 29), YEAR_END_CLOSURE),
    ],
    // 2024. Weekend holidays: Seollal Feb 10 (Sat) and Feb 11 (Sun); Children's Day
    // May 5 (Sun).
    &[
        (ymd(2024, 1, 1), NEW_YEAR),
        (ymd(2024, 2, 9), SEOLLAL),
        (ymd(2024, 2, 12), "Substitute holiday (Seollal)"),
        (ymd(2024, 3, 1), INDEPENDENCE_MOVEMENT_DAY),
        (ymd(2024, 4, 10), "General election"),
        (ymd(2024, 5, 1), LABOUR_DAY),
        (ymd(2024, 5, 6), "Substitute holiday (Children's Day)"),
        (ymd(2024, 5, 15), BUDDHAS_BIRTHDAY),
        (ymd(2024, 6, 6), MEMORIAL_DAY),
        (ymd(2024, 8, 15), LIBERATION_DAY),
        (ymd(2024, 9, 16), CHUSEOK),
        (ymd(2024, 9, 17), CHUSEOK),
        (ymd(2024, 9, 18), CHUSEOK),
        (ymd(2024, 10, 1), "Armed Forces Day (temporary holiday)"),
        (ymd(2024, 10, 3), NATIONAL_FOUNDATION_DAY),
        (ymd(2024, 10, 9), HANGUL_DAY),
        (ymd(2024, 12, 25), CHRISTMAS),
        (ymd(2024, 12, 31), YEAR_END_CLOSURE),
    ],
    // 2025. Weekend holidays: Independence Movement Day Mar 1 (Sat); Chuseok Oct 5
    // (Sun). Children's Day and Buddha's Birthday are both May 5.
    &[
        (ymd(2025, 1, 1), NEW_YEAR),
        (ymd(2025, 1, 27), TEMPORARY_HOLIDAY),
        (ymd(2025, 1, 28), SEOLLAL),
        (ymd(2025, 1, 29), SEOLLAL),
        (ymd(2025, 1, 30), SEOLLAL),
        (
            ymd(2025, 3, 3),
            "Substitute holiday (Independence Movement Day)",
        ),
        (ymd(2025, 5, 1), LABOUR_DAY),
        (ymd(2025, 5, 5), "Children's Day; Buddha's Birthday"),
        (ymd(2025, 5, 6), "Substitute holiday (Buddha's Birthday)"),
        (ymd(2025, 6, 3), "Presidential election"),
        (ymd(2025, 6, 6), MEMORIAL_DAY),
        (ymd(2025, 8, 15), LIBERATION_DAY),
        (ymd(2025, 10, 3), NATIONAL_FOUNDATION_DAY),
        (ymd(2025, 10, 6), CHUSEOK),
        (ymd(2025, 10, 7), CHUSEOK),
        (ymd(2025, 10, 8), "Substitute holiday (Chuseok)"),
        (ymd(2025, 10, 9), HANGUL_DAY),
        (ymd(2025, 12, 25), CHRISTMAS),
        (ymd(2025, 12, 31), YEAR_END_CLOSURE),
    ],
    // 2026. Weekend holidays: Independence Movement Day Mar 1 (Sun); Buddha's
    // Birthday May 24 (Sun); Memorial Day Jun 6 (Sat, no substitute); Liberation Day
    // Aug 15 (Sat); Chuseok Sep 26 (Sat, no substitute for a Saturday); National
    // Foundation Day Oct 3 (Sat). Constitution Day is a public holiday again from
    // 2026 (Public Holidays Act amended by the National Assembly on 2026-01-29).
    &[
        (ymd(2026, 1, 1), NEW_YEAR),
        (ymd(2026, 2, 16), SEOLLAL),
        (ymd(2026, 2, 17), SEOLLAL),
        (ymd(2026, 2, 18), SEOLLAL),
        (
            ymd(2026, 3, 2),
            "Substitute holiday (Independence Movement Day)",
        ),
        (ymd(2026, 5, 1), LABOUR_DAY),
        (ymd(2026, 5, 5), CHILDRENS_DAY),
        (ymd(2026, 5, 25), "Substitute holiday (Buddha's Birthday)"),
        (ymd(2026, 6, 3), "Local elections"),
        (ymd(2026, 7, 17), CONSTITUTION_DAY),
        (ymd(2026, 8, 17), "Substitute holiday (Liberation Day)"),
        (ymd(2026, 9, 24), CHUSEOK),
        (ymd(2026, 9, 25), CHUSEOK),
        (
            ymd(2026, 10, 5),
            "Substitute holiday (National Foundation Day)",
        ),
        (ymd(2026, 10, 9), HANGUL_DAY),
        (ymd(2026, 12, 25), CHRISTMAS),
        (ymd(2026, 12, 31), YEAR_END_CLOSURE),
    ],
    // 2027, from the rules (KRX announces the year's closures in December; temporary
    // holidays may be added). Weekend holidays: Seollal Feb 6 (Sat) and Feb 7 (Sun);
    // Labour Day May 1 (Sat); Memorial Day Jun 6 (Sun, no substitute); Constitution
    // Day Jul 17 (Sat); Liberation Day Aug 15 (Sun); National Foundation Day Oct 3
    // (Sun); Hangul Day Oct 9 (Sat); Christmas Dec 25 (Sat). No election.
    &[
        (ymd(2027, 1, 1), NEW_YEAR),
        (ymd(2027, 2, 8), SEOLLAL),
        (ymd(2027, 2, 9), "Substitute holiday (Seollal)"),
        (ymd(2027, 3, 1), INDEPENDENCE_MOVEMENT_DAY),
        (ymd(2027, 5, 5), CHILDRENS_DAY),
        (ymd(2027, 5, 13), BUDDHAS_BIRTHDAY),
        (ymd(2027, 7, 19), "Substitute holiday (Constitution Day)"),
        (ymd(2027, 8, 16), "Substitute holiday (Liberation Day)"),
        (ymd(2027, 9, 14), CHUSEOK),
        (ymd(2027, 9, 15), CHUSEOK),
        (ymd(2027, 9, 16), CHUSEOK),
        (
            ymd(2027, 10, 4),
            "Substitute holiday (National Foundation Day)",
        ),
        (ymd(2027, 10, 11), "Substitute holiday (Hangul Day)"),
        (ymd(2027, 12, 27), "Substitute holiday (Christmas Day)"),
        (ymd(2027, 12, 31), YEAR_END_CLOSURE),
    ],
];

/// The KRX closure on `date` (a weekday), if any.
fn krx_holiday_name(date: NaiveDate) -> Option<&'static str> {
    let year = date.year();
    if krx_table_covers(year) {
        let table = KRX_CLOSURES[(year - KRX_TABLE_FIRST_YEAR) as usize];
        return table
            .iter()
            .find(|(d, _)| *d == date)
            .map(|(_, name)| *name);
    }
    // Outside the table: the fixed-date closures only.
    match (date.month(), date.day()) {
        (1, 1) => Some(NEW_YEAR),
        (3, 1) => Some(INDEPENDENCE_MOVEMENT_DAY),
        (5, 1) => Some(LABOUR_DAY),
        (5, 5) => Some(CHILDRENS_DAY),
        (6, 6) => Some(MEMORIAL_DAY),
        (7, 17) if !(2008..2026).contains(&year) => Some(CONSTITUTION_DAY),
        (8, 15) => Some(LIBERATION_DAY),
        (10, 3) => Some(NATIONAL_FOUNDATION_DAY),
        (10, 9) if !(1991..2013).contains(&year) => Some(HANGUL_DAY),
        (12, 25) => Some(CHRISTMAS),
        _ if date == krx_year_end_closure(year) => Some(YEAR_END_CLOSURE),
        _ => None,
    }
}

/// KRX's year-end closure: December 31, or the last weekday before it when it falls
/// on a weekend.
fn krx_year_end_closure(year: i32) -> NaiveDate {
    let mut d = NaiveDate::from_ymd_opt(year, 12, 31).expect("year out of chrono's range");
    while !is_weekday(d) {
        d = d.pred_opt().expect("year out of chrono's range");
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_krx_table_has_one_sorted_slice_of_weekdays_per_year() {
        assert_eq!(
            KRX_CLOSURES.len() as i32,
            KRX_TABLE_LAST_YEAR - KRX_TABLE_FIRST_YEAR + 1
        );
        for (i, table) in KRX_CLOSURES.iter().enumerate() {
            let year = KRX_TABLE_FIRST_YEAR + i as i32;
            for (date, name) in table.iter() {
                assert_eq!(date.year(), year, "{date} ({name}) is in the {year} slice");
                assert!(is_weekday(*date), "{date} ({name}) is a weekday");
            }
            for pair in table.windows(2) {
                assert!(pair[0].0 < pair[1].0, "{} before {}", pair[0].0, pair[1].0);
            }
        }
    }

    #[test]
    fn the_krx_table_agrees_with_the_fixed_date_rules_on_weekdays() {
        // Every fixed-date closure on a weekday in a table year is in the table,
        // under the same name (Constitution Day only from 2026; 2025-05-05 carries a
        // combined name).
        for year in KRX_TABLE_FIRST_YEAR..=KRX_TABLE_LAST_YEAR {
            let fixed = [
                (1, 1, NEW_YEAR),
                (3, 1, INDEPENDENCE_MOVEMENT_DAY),
                (5, 1, LABOUR_DAY),
                (5, 5, CHILDRENS_DAY),
                (6, 6, MEMORIAL_DAY),
                (8, 15, LIBERATION_DAY),
                (10, 3, NATIONAL_FOUNDATION_DAY),
                (10, 9, HANGUL_DAY),
                (12, 25, CHRISTMAS),
            ];
            for (month, day, name) in fixed {
                let date = ymd(year, month, day);
                if !is_weekday(date) || date == ymd(2025, 5, 5) {
                    continue;
                }
                assert_eq!(krx_holiday_name(date), Some(name), "{date}");
            }
            let date = krx_year_end_closure(year);
            assert_eq!(krx_holiday_name(date), Some(YEAR_END_CLOSURE), "{date}");
        }
    }

    #[test]
    fn every_csat_day_is_a_krx_trading_day() {
        for date in CSAT_DAYS {
            assert!(is_trading_day(Market::Krx, *date), "{date}");
        }
    }

    #[test]
    fn easter_matches_known_dates() {
        let cases = [
            (2000, ymd(2000, 4, 23)),
            (2008, ymd(2008, 3, 23)),
            (2011, ymd(2011, 4, 24)),
            (2019, ymd(2019, 4, 21)),
            (2024, ymd(2024, 3, 31)),
            (2025, ymd(2025, 4, 20)),
            (2026, ymd(2026, 4, 5)),
            (2038, ymd(2038, 4, 25)),
        ];
        for (year, want) in cases {
            assert_eq!(easter_sunday(year), want, "Easter {year}");
        }
    }
}
