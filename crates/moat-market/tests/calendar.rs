//! Trading calendars against published exchange calendars.

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use moat_market::calendar::{
    holiday_name, holidays, is_trading_day, krx_table_covers, latest_session_date, local_date,
    next_trading_day, previous_trading_day, session, special_hours, status, timezone, trading_days,
    MarketStatus,
};
use moat_market::Market;
use proptest::prelude::*;

fn date(s: &str) -> NaiveDate {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn utc(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .with_timezone(&Utc)
}

fn dates(list: &[&str]) -> Vec<NaiveDate> {
    list.iter().map(|s| date(s)).collect()
}

fn holiday_dates(market: Market, year: i32) -> Vec<NaiveDate> {
    holidays(market, year).into_iter().map(|h| h.date).collect()
}

// ---------------------------------------------------------------------------------
// US
// ---------------------------------------------------------------------------------

#[test]
fn us_holidays_match_the_nyse_published_lists() {
    let cases: [(i32, &[&str]); 6] = [
        (
            2021,
            &[
                "2021-01-01",
                "2021-01-18",
                "2021-02-15",
                "2021-04-02",
                "2021-05-31",
                "2021-07-05",
                "2021-09-06",
                "2021-11-25",
                "2021-12-24",
            ],
        ),
        (
            // New Year's Day 2022 is a Saturday: not observed on Friday 2021-12-31.
            2022,
            &[
                "2022-01-17",
                "2022-02-21",
                "2022-04-15",
                "2022-05-30",
                "2022-06-20",
                "2022-07-04",
                "2022-09-05",
                "2022-11-24",
                "2022-12-26",
            ],
        ),
        (
            2023,
            &[
                "2023-01-02",
                "2023-01-16",
                "2023-02-20",
                "2023-04-07",
                "2023-05-29",
                "2023-06-19",
                "2023-07-04",
                "2023-09-04",
                "2023-11-23",
                "2023-12-25",
            ],
        ),
        (
            2024,
            &[
                "2024-01-01",
                "2024-01-15",
                "2024-02-19",
                "2024-03-29",
                "2024-05-27",
                "2024-06-19",
                "2024-07-04",
                "2024-09-02",
                "2024-11-28",
                "2024-12-25",
            ],
        ),
        (
            // Including the national day of mourning for President Carter.
            2025,
            &[
                "2025-01-01",
                "2025-01-09",
                "2025-01-20",
                "2025-02-17",
                "2025-04-18",
                "2025-05-26",
                "2025-06-19",
                "2025-07-04",
                "2025-09-01",
                "2025-11-27",
                "2025-12-25",
            ],
        ),
        (
            // July 4 is a Saturday: observed Friday July 3.
            2026,
            &[
                "2026-01-01",
                "2026-01-19",
                "2026-02-16",
                "2026-04-03",
                "2026-05-25",
                "2026-06-19",
                "2026-07-03",
                "2026-09-07",
                "2026-11-26",
                "2026-12-25",
            ],
        ),
    ];
    for (year, want) in cases {
        assert_eq!(
            holiday_dates(Market::Us, year),
            dates(want),
            "NYSE holidays {year}"
        );
    }
}

#[test]
fn us_holidays_have_english_names_and_say_when_observed() {
    let cases = [
        ("2024-03-29", Some("Good Friday")),
        ("2024-11-28", Some("Thanksgiving Day")),
        (
            "2022-06-20",
            Some("Juneteenth National Independence Day (observed)"),
        ),
        ("2026-07-03", Some("Independence Day (observed)")),
        ("2022-12-26", Some("Christmas Day (observed)")),
        ("2023-01-02", Some("New Year's Day (observed)")),
        ("2021-12-31", None),
        ("2021-06-18", None),
        (
            "2018-12-05",
            Some("National Day of Mourning for President George H. W. Bush"),
        ),
        (
            "2025-01-09",
            Some("National Day of Mourning for President Jimmy Carter"),
        ),
        ("1997-01-20", None),
        ("1998-01-19", Some("Martin Luther King Jr. Day")),
        ("2024-07-06", None),
    ];
    for (day, want) in cases {
        assert_eq!(holiday_name(Market::Us, date(day)), want, "{day}");
    }
}

#[test]
fn good_friday_follows_easter() {
    for day in [
        "2024-03-29",
        "2025-04-18",
        "2026-04-03",
        "2027-03-26",
        "2019-04-19",
    ] {
        assert_eq!(
            holiday_name(Market::Us, date(day)),
            Some("Good Friday"),
            "{day}"
        );
        assert!(!is_trading_day(Market::Us, date(day)), "{day} is closed");
    }
}

#[test]
fn us_sessions_follow_daylight_saving_time() {
    // (date, open, close), UTC
    let cases = [
        // EST (UTC-5) before the switch on 2025-03-09, EDT (UTC-4) after.
        ("2025-03-07", "2025-03-07T14:30:00Z", "2025-03-07T21:00:00Z"),
        ("2025-03-10", "2025-03-10T13:30:00Z", "2025-03-10T20:00:00Z"),
        // Back to EST on 2025-11-02.
        ("2025-10-31", "2025-10-31T13:30:00Z", "2025-10-31T20:00:00Z"),
        ("2025-11-03", "2025-11-03T14:30:00Z", "2025-11-03T21:00:00Z"),
    ];
    for (day, open, close) in cases {
        let s = session(Market::Us, date(day)).unwrap_or_else(|| panic!("{day} trades"));
        assert_eq!(s.open, utc(open), "open on {day}");
        assert_eq!(s.close, utc(close), "close on {day}");
        assert_eq!(s.date, date(day));
    }
}

#[test]
fn us_early_closes_are_at_one_in_the_afternoon() {
    // (date, close UTC)
    let cases = [
        ("2025-11-28", "2025-11-28T18:00:00Z"), // day after Thanksgiving, EST
        ("2025-07-03", "2025-07-03T17:00:00Z"), // Thursday before July 4, EDT
        ("2025-12-24", "2025-12-24T18:00:00Z"), // Christmas Eve, Wednesday
        ("2024-07-03", "2024-07-03T17:00:00Z"),
        ("2024-11-29", "2024-11-29T18:00:00Z"),
        ("2024-12-24", "2024-12-24T18:00:00Z"),
        ("2023-07-03", "2023-07-03T17:00:00Z"), // Monday July 3
        ("2026-12-24", "2026-12-24T18:00:00Z"),
    ];
    for (day, close) in cases {
        let s = session(Market::Us, date(day)).unwrap_or_else(|| panic!("{day} trades"));
        assert_eq!(s.close, utc(close), "early close on {day}");
        assert!(
            special_hours(Market::Us, date(day)).is_some(),
            "{day} is noted"
        );
    }
}

#[test]
fn us_days_next_to_weekend_holidays_keep_full_hours() {
    let cases = [
        "2026-07-02", // July 3 is the observed holiday, no early close the day before
        "2022-07-01", // July 4 on Monday: Friday July 1 is a full day
        "2020-07-02",
        "2021-12-23", // Christmas observed Friday Dec 24
        "2022-12-23", // Christmas Eve on Saturday
        "2025-07-02",
    ];
    for day in cases {
        let s = session(Market::Us, date(day)).unwrap_or_else(|| panic!("{day} trades"));
        let local_close = s.close.with_timezone(&timezone(Market::Us));
        assert_eq!(
            local_close.format("%H:%M").to_string(),
            "16:00",
            "{day} full day"
        );
        assert_eq!(special_hours(Market::Us, date(day)), None, "{day}");
    }
    assert!(
        !is_trading_day(Market::Us, date("2027-12-24")),
        "Christmas observed 2027"
    );
}

#[test]
fn nyse_trading_day_counts_match_published_totals() {
    let cases = [
        (2021, 252),
        (2022, 251),
        (2023, 250),
        (2024, 252),
        (2025, 250),
    ];
    for (year, want) in cases {
        let from = NaiveDate::from_ymd_opt(year, 1, 1).unwrap();
        let to = NaiveDate::from_ymd_opt(year, 12, 31).unwrap();
        assert_eq!(
            trading_days(Market::Us, from, to).count(),
            want,
            "NYSE {year}"
        );
    }
}

// ---------------------------------------------------------------------------------
// KRX
// ---------------------------------------------------------------------------------

#[test]
fn krx_2025_closures_match_the_exchange_calendar() {
    let want = dates(&[
        "2025-01-01", // New Year's Day
        "2025-01-27", // temporary holiday
        "2025-01-28", // Seollal
        "2025-01-29",
        "2025-01-30",
        "2025-03-03", // substitute for Independence Movement Day (Sat)
        "2025-05-01", // Labour Day
        "2025-05-05", // Children's Day and Buddha's Birthday
        "2025-05-06", // substitute for Buddha's Birthday
        "2025-06-03", // presidential election
        "2025-06-06", // Memorial Day
        "2025-08-15", // Liberation Day
        "2025-10-03", // National Foundation Day
        "2025-10-06", // Chuseok
        "2025-10-07",
        "2025-10-08", // substitute for Chuseok (Oct 5 was a Sunday)
        "2025-10-09", // Hangul Day
        "2025-12-25", // Christmas
        "2025-12-31", // year-end closure
    ]);
    assert_eq!(holiday_dates(Market::Krx, 2025), want);
}

#[test]
fn krx_closures_include_elections_and_temporary_holidays() {
    let cases = [
        ("2020-04-15", "General election"),
        ("2020-08-17", "Temporary holiday"),
        ("2022-03-09", "Presidential election"),
        ("2022-06-01", "Local elections"),
        ("2023-10-02", "Temporary holiday"),
        ("2024-04-10", "General election"),
        ("2024-10-01", "Armed Forces Day (temporary holiday)"),
        ("2025-01-27", "Temporary holiday"),
        ("2025-06-03", "Presidential election"),
        ("2026-06-03", "Local elections"),
        ("2026-07-17", "Constitution Day"),
        ("2025-10-08", "Substitute holiday (Chuseok)"),
        ("2024-02-12", "Substitute holiday (Seollal)"),
        ("2023-05-29", "Substitute holiday (Buddha's Birthday)"),
        ("2027-12-27", "Substitute holiday (Christmas Day)"),
    ];
    for (day, name) in cases {
        assert_eq!(holiday_name(Market::Krx, date(day)), Some(name), "{day}");
        assert!(!is_trading_day(Market::Krx, date(day)), "{day} is closed");
    }
}

#[test]
fn krx_year_end_closure_moves_to_the_last_weekday() {
    let cases = [
        (2020, "2020-12-31"),
        (2021, "2021-12-31"),
        (2022, "2022-12-30"), // Dec 31 is a Saturday
        (2023, "2023-12-29"), // Dec 31 is a Sunday
        (2024, "2024-12-31"),
        (2025, "2025-12-31"),
        (2028, "2028-12-29"), // outside the table: the rule still applies
        (2033, "2033-12-30"),
    ];
    for (year, day) in cases {
        assert_eq!(
            holiday_name(Market::Krx, date(day)),
            Some("Year-end closure"),
            "{year}"
        );
        let last = previous_trading_day(Market::Krx, date(day));
        assert!(last < date(day), "{year}: last trading day {last}");
        assert_eq!(
            next_trading_day(Market::Krx, last),
            next_trading_day(Market::Krx, date(day))
        );
    }
}

#[test]
fn krx_first_trading_day_of_the_year_opens_at_ten() {
    // (date, open UTC); KST is UTC+9 all year.
    let cases = [
        ("2026-01-02", "2026-01-02T01:00:00Z"),
        ("2025-01-02", "2025-01-02T01:00:00Z"),
        ("2024-01-02", "2024-01-02T01:00:00Z"),
        ("2023-01-02", "2023-01-02T01:00:00Z"),
        ("2022-01-03", "2022-01-03T01:00:00Z"), // Jan 1 is a Saturday
    ];
    for (day, open) in cases {
        let s = session(Market::Krx, date(day)).unwrap_or_else(|| panic!("{day} trades"));
        assert_eq!(s.open, utc(open), "open on {day}");
        assert_eq!(s.close, utc(&format!("{day}T06:30:00Z")), "close on {day}");
    }
    let regular = session(Market::Krx, date("2026-01-05")).unwrap();
    assert_eq!(
        regular.open,
        utc("2026-01-05T00:00:00Z"),
        "09:00 KST on later days"
    );
}

#[test]
fn krx_csat_day_trades_an_hour_later() {
    for day in ["2024-11-14", "2025-11-13", "2026-11-19"] {
        let s = session(Market::Krx, date(day)).unwrap_or_else(|| panic!("{day} trades"));
        assert_eq!(
            s.open,
            utc(&format!("{day}T01:00:00Z")),
            "10:00 KST on {day}"
        );
        assert_eq!(
            s.close,
            utc(&format!("{day}T07:30:00Z")),
            "16:30 KST on {day}"
        );
    }
}

#[test]
fn krx_table_covers_2020_through_2027_and_falls_back_to_fixed_dates() {
    assert!(!krx_table_covers(2019));
    assert!((2020..=2027).all(krx_table_covers));
    assert!(!krx_table_covers(2028));
    // Fixed-date holidays outside the table are still known...
    assert_eq!(
        holiday_name(Market::Krx, date("2030-03-01")),
        Some("Independence Movement Day")
    );
    assert_eq!(
        holiday_name(Market::Krx, date("2019-05-01")),
        Some("Labour Day")
    );
    // ...lunar ones are not (Chuseok 2019 was Sep 12-14).
    assert_eq!(holiday_name(Market::Krx, date("2019-09-12")), None);
}

// ---------------------------------------------------------------------------------
// All markets
// ---------------------------------------------------------------------------------

#[test]
fn weekends_are_closed_except_for_crypto() {
    for day in ["2025-03-08", "2025-03-09", "2024-12-28", "2026-01-04"] {
        for market in [Market::Krx, Market::Us, Market::Fx] {
            assert!(!is_trading_day(market, date(day)), "{market:?} on {day}");
            assert_eq!(session(market, date(day)), None, "{market:?} on {day}");
        }
        assert!(is_trading_day(Market::Crypto, date(day)), "crypto on {day}");
    }
}

#[test]
fn fx_and_crypto_sessions_span_the_utc_day() {
    for market in [Market::Fx, Market::Crypto] {
        let s = session(market, date("2025-03-07")).unwrap();
        assert_eq!(s.open, utc("2025-03-07T00:00:00Z"), "{market:?}");
        assert_eq!(s.close, utc("2025-03-08T00:00:00Z"), "{market:?}");
        assert_eq!(s.duration(), Duration::hours(24));
    }
    assert!(session(Market::Crypto, date("2025-03-08")).is_some());
}

#[test]
fn status_across_a_weekend_gives_the_next_open() {
    // (market, now, expected)
    let cases = [
        // After Friday's close in New York: the next open is Monday, already on EDT.
        (
            Market::Us,
            "2025-03-07T21:00:00Z",
            MarketStatus::Closed {
                next_open: utc("2025-03-10T13:30:00Z"),
            },
        ),
        (
            Market::Us,
            "2025-03-08T15:00:00Z",
            MarketStatus::Closed {
                next_open: utc("2025-03-10T13:30:00Z"),
            },
        ),
        // Before Monday's open the same day.
        (
            Market::Us,
            "2025-03-10T13:29:59Z",
            MarketStatus::Closed {
                next_open: utc("2025-03-10T13:30:00Z"),
            },
        ),
        (
            Market::Us,
            "2025-03-10T13:30:00Z",
            MarketStatus::Open {
                closes_at: Some(utc("2025-03-10T20:00:00Z")),
            },
        ),
        // Friday before Seollal week in Seoul: next open Friday Jan 31.
        (
            Market::Krx,
            "2025-01-24T06:30:00Z",
            MarketStatus::Closed {
                next_open: utc("2025-01-31T00:00:00Z"),
            },
        ),
        (
            Market::Krx,
            "2025-01-24T06:29:00Z",
            MarketStatus::Open {
                closes_at: Some(utc("2025-01-24T06:30:00Z")),
            },
        ),
        // FX: one continuous week, closing Friday 24:00 UTC.
        (
            Market::Fx,
            "2025-03-03T10:00:00Z",
            MarketStatus::Open {
                closes_at: Some(utc("2025-03-08T00:00:00Z")),
            },
        ),
        (
            Market::Fx,
            "2025-03-07T23:59:59Z",
            MarketStatus::Open {
                closes_at: Some(utc("2025-03-08T00:00:00Z")),
            },
        ),
        (
            Market::Fx,
            "2025-03-08T00:00:00Z",
            MarketStatus::Closed {
                next_open: utc("2025-03-10T00:00:00Z"),
            },
        ),
        (
            Market::Crypto,
            "2025-03-08T12:00:00Z",
            MarketStatus::Open { closes_at: None },
        ),
    ];
    for (market, now, want) in cases {
        let got = status(market, utc(now));
        assert_eq!(got, want, "{market:?} at {now}");
        assert_eq!(got.is_open(), matches!(want, MarketStatus::Open { .. }));
    }
}

#[test]
fn local_dates_and_latest_sessions_use_exchange_time() {
    // 03:00 UTC Monday is still Sunday evening in New York.
    assert_eq!(
        local_date(Market::Us, utc("2025-03-10T03:00:00Z")),
        date("2025-03-09")
    );
    // 23:00 UTC Thursday is already Friday in Seoul.
    assert_eq!(
        local_date(Market::Krx, utc("2025-01-30T23:00:00Z")),
        date("2025-01-31")
    );

    // (market, now, latest session date)
    let cases = [
        (Market::Us, "2025-03-10T12:00:00Z", "2025-03-07"), // Monday before the open
        (Market::Us, "2025-03-10T13:30:00Z", "2025-03-10"), // at the open
        (Market::Us, "2025-03-10T23:00:00Z", "2025-03-10"), // after the close
        (Market::Krx, "2025-01-30T23:59:00Z", "2025-01-24"), // 08:59 KST Jan 31
        (Market::Krx, "2025-01-31T00:00:00Z", "2025-01-31"),
        (Market::Fx, "2025-03-09T12:00:00Z", "2025-03-07"),
        (Market::Crypto, "2025-03-09T12:00:00Z", "2025-03-09"),
    ];
    for (market, now, want) in cases {
        assert_eq!(
            latest_session_date(market, utc(now)),
            date(want),
            "{market:?} at {now}"
        );
    }
}

#[test]
fn trading_days_are_inclusive_and_empty_when_reversed() {
    let week = trading_days(Market::Krx, date("2025-01-24"), date("2025-02-03"));
    assert_eq!(
        week.collect::<Vec<_>>(),
        dates(&["2025-01-24", "2025-01-31", "2025-02-03"])
    );
    assert_eq!(
        trading_days(Market::Us, date("2025-03-10"), date("2025-03-07")).count(),
        0
    );
}

fn markets() -> impl Strategy<Value = Market> {
    prop_oneof![
        Just(Market::Krx),
        Just(Market::Us),
        Just(Market::Fx),
        Just(Market::Crypto),
    ]
}

proptest! {
    #[test]
    fn previous_of_next_trading_day_is_at_most_the_day(
        market in markets(),
        offset in 0i64..(120 * 366),
    ) {
        let d = date("1990-01-01") + Duration::days(offset);
        let next = next_trading_day(market, d);
        let prev = previous_trading_day(market, next);
        prop_assert!(next > d);
        prop_assert!(is_trading_day(market, next), "{:?} next {}", market, next);
        prop_assert!(is_trading_day(market, prev), "{:?} prev {}", market, prev);
        prop_assert!(prev <= d, "{:?}: prev(next({})) = {}", market, d, prev);
        let before = previous_trading_day(market, d);
        prop_assert!(before < d && is_trading_day(market, before));
        prop_assert!(trading_days(market, before.succ_opt().unwrap(), next.pred_opt().unwrap())
            .all(|t| t == d));
    }

    #[test]
    fn sessions_are_well_formed_and_status_agrees(
        market in markets(),
        secs in 0i64..(40 * 366 * 86_400),
    ) {
        let now = Utc.timestamp_opt(946_684_800 + secs, 0).unwrap(); // from 2000-01-01
        match status(market, now) {
            MarketStatus::Open { closes_at } => {
                let today = session(market, local_date(market, now));
                prop_assert!(today.is_some_and(|s| s.contains(now)));
                if let Some(close) = closes_at {
                    prop_assert!(close > now);
                }
            }
            MarketStatus::Closed { next_open } => {
                prop_assert!(next_open > now);
                let s = session(market, local_date(market, next_open)).unwrap();
                prop_assert_eq!(s.open, next_open);
                prop_assert!(s.open < s.close);
            }
        }
    }
}
