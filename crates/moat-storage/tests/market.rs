//! Market storage, run against every backend (SQLite always, PostgreSQL when
//! `MOAT_TEST_POSTGRES_URL` is set), each test on a fresh database.

use chrono::{NaiveDate, TimeZone, Utc};
use moat_market::{
    catalog, simulator::Simulator, Bar, DailyCandle, Dividend, FxRate, Instrument, Split,
};
use moat_storage::{testing::TestDatabase, StorageError};
use rust_decimal::Decimal;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn dec(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn candle(date: NaiveDate, close: &str) -> DailyCandle {
    DailyCandle {
        date,
        open: dec("189.40"),
        high: dec("191.05"),
        low: dec("0.0001"),
        close: dec(close),
        volume: 57_205_978,
    }
}

#[tokio::test]
async fn candles_come_back_exact_in_date_order_and_only_in_range() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let apple = catalog::curated()
            .into_iter()
            .find(|i| i.id.to_string() == "NASDAQ:AAPL")
            .unwrap();
        s.upsert_instruments(std::slice::from_ref(&apple))
            .await
            .unwrap();
        // Written out of order; one day replaced by a second write.
        let candles = [
            candle(d(2025, 6, 11), "190.10"),
            candle(d(2025, 6, 9), "188.00"),
            candle(d(2025, 6, 10), "189.99"),
        ];
        s.upsert_daily_candles(&apple.id, &candles, "simulator")
            .await
            .unwrap();
        s.upsert_daily_candles(&apple.id, &[candle(d(2025, 6, 10), "189.43")], "csv")
            .await
            .unwrap();
        let got = s
            .daily_candles(&apple.id, d(2025, 6, 9), d(2025, 6, 10))
            .await
            .unwrap();
        assert_eq!(
            got,
            vec![
                candle(d(2025, 6, 9), "188.00"),
                candle(d(2025, 6, 10), "189.43")
            ],
            "{:?}: exact decimals (trailing zeros kept), in order, the later write wins",
            db.backend
        );
        let none = s
            .daily_candles(&apple.id, d(2024, 1, 1), d(2024, 12, 31))
            .await
            .unwrap();
        assert!(none.is_empty(), "{:?}: an empty range is empty", db.backend);
        let latest = s.latest_candle_dates().await.unwrap();
        assert_eq!(latest, vec![(apple.id.clone(), d(2025, 6, 11))]);

        let bar = Bar {
            start: Utc.with_ymd_and_hms(2025, 6, 10, 13, 30, 0).unwrap(),
            open: dec("189.40"),
            high: dec("189.90"),
            low: dec("189.10"),
            close: dec("189.50"),
            volume: 120_000,
        };
        s.upsert_intraday_bars(&apple.id, std::slice::from_ref(&bar), "yahoo")
            .await
            .unwrap();
        let bars = s
            .intraday_bars(
                &apple.id,
                bar.start,
                bar.start + chrono::Duration::minutes(5),
            )
            .await
            .unwrap();
        assert_eq!(bars, vec![bar]);

        let rate = FxRate {
            date: d(2025, 6, 10),
            base: "USD".into(),
            quote: "KRW".into(),
            rate: dec("1365.20"),
        };
        s.upsert_fx_rates(std::slice::from_ref(&rate), "ecb")
            .await
            .unwrap();
        let rates = s
            .fx_rates("USD", "KRW", d(2025, 6, 1), d(2025, 6, 30))
            .await
            .unwrap();
        assert_eq!(rates, vec![rate]);
    }
}

/// The version of a price series moves when a write could change days already
/// stored (a correction, a backfill, another source), not when the same source
/// appends days: results derived from prices are kept by it (docs/ARCHITECTURE.md).
#[tokio::test]
async fn a_price_series_version_moves_on_corrections_not_on_appended_days() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let apple = curated(&["NASDAQ:AAPL"]).remove(0);
        s.upsert_instruments(std::slice::from_ref(&apple))
            .await
            .unwrap();
        let fx = moat_storage::fx_series("USD", "KRW");
        let series = vec![apple.id.to_string(), fx.clone()];
        let version = |versions: Vec<moat_storage::PriceVersion>, key: &str| {
            versions
                .into_iter()
                .find(|v| v.series == key)
                .map(|v| (v.version, v.last_date))
        };
        assert_eq!(
            s.price_versions(&series).await.unwrap(),
            vec![],
            "{:?}: a series never written has no row (version 0)",
            db.backend
        );
        let apple_key = apple.id.to_string();
        let write = |date: NaiveDate, close: &'static str, source: &'static str| {
            let s = &s;
            let id = apple.id.clone();
            async move {
                s.upsert_daily_candles(&id, &[candle(date, close)], source)
                    .await
                    .unwrap()
            }
        };
        write(d(2025, 6, 9), "188.00", "yahoo").await;
        let v = || async { version(s.price_versions(&series).await.unwrap(), &apple_key) };
        assert_eq!(
            v().await,
            Some((1, d(2025, 6, 9))),
            "{:?}: the first write",
            db.backend
        );
        write(d(2025, 6, 10), "189.00", "yahoo").await;
        assert_eq!(
            v().await,
            Some((1, d(2025, 6, 10))),
            "{:?}: a day appended by the same source keeps the version",
            db.backend
        );
        write(d(2025, 6, 9), "188.50", "yahoo").await;
        assert_eq!(
            v().await,
            Some((2, d(2025, 6, 10))),
            "{:?}: a stored day corrected raises it, and the last day stays",
            db.backend
        );
        write(d(2025, 6, 11), "190.00", "csv").await;
        assert_eq!(
            v().await,
            Some((3, d(2025, 6, 11))),
            "{:?}: another source raises it even when appending",
            db.backend
        );

        let rate = |date: NaiveDate, rate: &str| FxRate {
            date,
            base: "USD".into(),
            quote: "KRW".into(),
            rate: dec(rate),
        };
        s.upsert_fx_rates(
            &[rate(d(2025, 6, 9), "1365"), rate(d(2025, 6, 10), "1366")],
            "ecb",
        )
        .await
        .unwrap();
        s.upsert_fx_rates(&[rate(d(2025, 6, 11), "1367")], "ecb")
            .await
            .unwrap();
        let fx_version = || async { version(s.price_versions(&series).await.unwrap(), &fx) };
        assert_eq!(
            fx_version().await,
            Some((1, d(2025, 6, 11))),
            "{:?}",
            db.backend
        );
        s.upsert_fx_rates(&[rate(d(2025, 6, 1), "1360")], "ecb")
            .await
            .unwrap();
        assert_eq!(
            fx_version().await,
            Some((2, d(2025, 6, 11))),
            "{:?}: an earlier day filled in raises the FX series' version",
            db.backend
        );
    }
}

fn curated(ids: &[&str]) -> Vec<Instrument> {
    ids.iter()
        .map(|id| {
            catalog::curated()
                .into_iter()
                .find(|i| i.id.to_string() == *id)
                .unwrap()
        })
        .collect()
}

fn dividend(ex: NaiveDate, pay: Option<NaiveDate>, amount: &str, currency: &str) -> Dividend {
    Dividend {
        ex_date: ex,
        pay_date: pay,
        record_date: Some(ex),
        amount: dec(amount),
        currency: currency.into(),
    }
}

#[tokio::test]
async fn dividends_come_back_exact_by_ex_date_and_keep_known_dates() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let [apple]: [Instrument; 1] = curated(&["NASDAQ:AAPL"]).try_into().unwrap();
        s.upsert_instruments(std::slice::from_ref(&apple))
            .await
            .unwrap();
        let written = [
            dividend(d(2025, 8, 11), Some(d(2025, 8, 14)), "0.2600", "USD"),
            dividend(d(2025, 2, 10), Some(d(2025, 2, 13)), "0.2500", "USD"),
            dividend(d(2025, 5, 12), Some(d(2025, 5, 15)), "0.26", "USD"),
        ];
        s.upsert_dividends(&apple.id, &written, "yahoo")
            .await
            .unwrap();
        // A later source knows only the ex-date and amount: the known dates stay.
        let mut bare = dividend(d(2025, 5, 12), None, "0.2600", "USD");
        bare.record_date = None;
        s.upsert_dividends(&apple.id, &[bare], "alpha_vantage")
            .await
            .unwrap();
        let got = s
            .dividends(&apple.id, d(2025, 2, 10), d(2025, 5, 12))
            .await
            .unwrap();
        assert_eq!(
            got,
            vec![
                written[1].clone(),
                dividend(d(2025, 5, 12), Some(d(2025, 5, 15)), "0.2600", "USD"),
            ],
            "{:?}: exact decimals, by ex-date, both ends included, dates kept",
            db.backend
        );
        assert_eq!(got[1].amount.to_string(), "0.2600");
        assert!(s
            .dividends(&apple.id, d(2024, 1, 1), d(2024, 12, 31))
            .await
            .unwrap()
            .is_empty());
    }
}

#[tokio::test]
async fn the_dividend_calendar_spans_instruments_by_ex_or_pay_date() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let instruments = curated(&["NASDAQ:AAPL", "NYSE:KO", "KRX:005930"]);
        s.upsert_instruments(&instruments).await.unwrap();
        let (apple, ko, samsung) = (&instruments[0].id, &instruments[1].id, &instruments[2].id);
        s.upsert_dividends(
            apple,
            &[
                dividend(d(2026, 2, 9), Some(d(2026, 2, 12)), "0.2600", "USD"),
                dividend(d(2026, 5, 11), Some(d(2026, 5, 14)), "0.2700", "USD"),
            ],
            "simulator",
        )
        .await
        .unwrap();
        s.upsert_dividends(
            ko,
            &[dividend(
                d(2026, 3, 13),
                Some(d(2026, 4, 1)),
                "0.5100",
                "USD",
            )],
            "simulator",
        )
        .await
        .unwrap();
        // Ex-date before the window, paid inside it.
        s.upsert_dividends(
            samsung,
            &[dividend(
                d(2025, 12, 29),
                Some(d(2026, 4, 20)),
                "370",
                "KRW",
            )],
            "simulator",
        )
        .await
        .unwrap();

        let window = |rows: Vec<(moat_market::InstrumentId, Dividend)>| {
            rows.into_iter()
                .map(|(id, x)| (id.to_string(), x.ex_date))
                .collect::<Vec<_>>()
        };
        let all = s
            .upcoming_dividends(d(2026, 3, 1), d(2026, 4, 30), None, None)
            .await
            .unwrap();
        assert_eq!(
            window(all.clone()),
            vec![
                ("KRX:005930".to_owned(), d(2025, 12, 29)),
                ("NYSE:KO".to_owned(), d(2026, 3, 13)),
            ],
            "{:?}",
            db.backend
        );
        assert_eq!(all[0].1.amount.to_string(), "370");
        let us = s
            .upcoming_dividends(d(2026, 1, 1), d(2026, 12, 31), Some("US"), None)
            .await
            .unwrap();
        assert_eq!(
            window(us),
            vec![
                ("NASDAQ:AAPL".to_owned(), d(2026, 2, 9)),
                ("NYSE:KO".to_owned(), d(2026, 3, 13)),
                ("NASDAQ:AAPL".to_owned(), d(2026, 5, 11)),
            ]
        );
        let first_two = s
            .upcoming_dividends(d(2025, 1, 1), d(2026, 12, 31), None, Some(2))
            .await
            .unwrap();
        assert_eq!(
            window(first_two),
            vec![
                ("KRX:005930".to_owned(), d(2025, 12, 29)),
                ("NASDAQ:AAPL".to_owned(), d(2026, 2, 9)),
            ]
        );
        let kr = s
            .upcoming_dividends(d(2026, 5, 1), d(2026, 12, 31), Some("KR"), Some(10))
            .await
            .unwrap();
        assert!(kr.is_empty());
    }
}

#[tokio::test]
async fn simulated_dividends_are_stored_as_the_simulator_makes_them() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let instruments = curated(&["KRX:005930", "NYSE:O"]);
        s.upsert_instruments(&instruments).await.unwrap();
        let sim = Simulator::default();
        for i in &instruments {
            let made = sim.dividends(i, d(2020, 1, 1), d(2027, 12, 31));
            assert!(!made.is_empty());
            s.upsert_dividends(&i.id, &made, "simulator").await.unwrap();
            let got = s
                .dividends(&i.id, d(2020, 1, 1), d(2027, 12, 31))
                .await
                .unwrap();
            assert_eq!(got, made, "{:?} {}", db.backend, i.id);
        }
    }
}

#[tokio::test]
async fn splits_come_back_by_date_and_a_zero_ratio_is_refused() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let [apple]: [Instrument; 1] = curated(&["NASDAQ:AAPL"]).try_into().unwrap();
        s.upsert_instruments(std::slice::from_ref(&apple))
            .await
            .unwrap();
        let four_for_one = Split {
            date: d(2020, 8, 31),
            numerator: 4,
            denominator: 1,
        };
        let seven_for_one = Split {
            date: d(2014, 6, 9),
            numerator: 7,
            denominator: 1,
        };
        s.upsert_splits(
            &apple.id,
            &[four_for_one.clone(), seven_for_one.clone()],
            "yahoo",
        )
        .await
        .unwrap();
        // Rewritten: the later write wins.
        let reverse = Split {
            date: d(2020, 8, 31),
            numerator: 1,
            denominator: 10,
        };
        s.upsert_splits(&apple.id, std::slice::from_ref(&reverse), "csv")
            .await
            .unwrap();
        let got = s
            .splits(&apple.id, d(2000, 1, 1), d(2030, 1, 1))
            .await
            .unwrap();
        assert_eq!(got, vec![seven_for_one, reverse], "{:?}", db.backend);
        assert!(s
            .splits(&apple.id, d(2021, 1, 1), d(2030, 1, 1))
            .await
            .unwrap()
            .is_empty());
        let zero = Split {
            date: d(2022, 1, 3),
            numerator: 0,
            denominator: 1,
        };
        let err = s
            .upsert_splits(&apple.id, &[zero], "csv")
            .await
            .unwrap_err();
        assert!(
            matches!(err, StorageError::Invalid(_)),
            "{:?}: {err:?}",
            db.backend
        );
        assert_eq!(
            s.splits(&apple.id, d(2022, 1, 1), d(2022, 12, 31))
                .await
                .unwrap(),
            vec![]
        );
    }
}

#[tokio::test]
async fn a_stored_quote_state_that_is_unknown_is_an_error_not_a_stale_quote() {
    for db in TestDatabase::all().await {
        let s = db.storage().await;
        let apple = curated(&["NASDAQ:AAPL"]);
        s.upsert_instruments(&apple).await.unwrap();
        let quote = moat_market::Quote {
            instrument_id: apple[0].id.clone(),
            price: dec("190.10"),
            previous_close: dec("189.00"),
            open: dec("189.50"),
            high: dec("191.00"),
            low: dec("189.10"),
            volume: 1_000,
            as_of: Utc.with_ymd_and_hms(2025, 6, 11, 15, 0, 0).unwrap(),
            state: moat_market::QuoteState::Live,
            source: "simulator".into(),
            simulated: true,
        };
        s.upsert_quotes(std::slice::from_ref(&quote)).await.unwrap();
        assert_eq!(s.list_quotes().await.unwrap(), vec![quote]);

        db.execute_raw("UPDATE quotes SET state = 'halted'").await;
        assert!(
            matches!(s.list_quotes().await, Err(StorageError::Invalid(_))),
            "{:?}",
            db.backend
        );
    }
}
