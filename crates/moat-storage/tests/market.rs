//! Market storage, run against every backend (SQLite always, PostgreSQL when
//! `MOAT_TEST_POSTGRES_URL` is set), each test on a fresh database.

use chrono::{NaiveDate, TimeZone, Utc};
use moat_market::{catalog, Bar, DailyCandle, FxRate};
use moat_storage::testing::TestDatabase;
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
