//! The provider adapters against recorded real answers (`../shared/data/fixtures`,
//! skipped when absent), against small fixtures of our own written from the
//! documented formats, and over HTTP against a hand-written local server.

use std::path::Path;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, NaiveDate, Utc};
use moat_market::providers::alpha_vantage::{self, AlphaVantageProvider};
use moat_market::providers::ecb::{self, EcbProvider};
use moat_market::providers::yahoo::{self, YahooProvider};
use moat_market::providers::PriceGrid;
use moat_market::{Board, FxProvider, Instrument, Kind, PriceProvider, ProviderError, QuoteState};
use rust_decimal::Decimal;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/fixtures");

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn date(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

fn utc(s: &str) -> DateTime<Utc> {
    s.parse().unwrap()
}

/// A recorded file, or `None` (after saying so) when `../shared` is not there.
fn shared(relative: &str) -> Option<Vec<u8>> {
    if !Path::new(SHARED).is_dir() {
        println!("skipped: ../shared/data/fixtures not present");
        return None;
    }
    let path = Path::new(SHARED).join(relative);
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// The `response.bodyJson` of a recorded Yahoo exchange, re-serialised.
fn yahoo_body(name: &str) -> Option<Vec<u8>> {
    let recorded: serde_json::Value =
        serde_json::from_slice(&shared(&format!("yahoo/{name}"))?).unwrap();
    assert_eq!(recorded["response"]["status"], 200, "{name}");
    Some(serde_json::to_vec(&recorded["response"]["bodyJson"]).unwrap())
}

fn own(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/providers")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn instrument(id: &str, kind: Kind, board: Option<Board>, currency: &str) -> Instrument {
    Instrument {
        id: id.parse().unwrap(),
        kind,
        board,
        currency: currency.into(),
        country: String::new(),
        name_ko: String::new(),
        name_en: String::new(),
        sector: String::new(),
        shares_outstanding: None,
        reference_price: None,
        popularity: 0,
        aliases: Vec::new(),
    }
}

fn us_stock(symbol: &str) -> Instrument {
    instrument(&format!("NASDAQ:{symbol}"), Kind::Stock, None, "USD")
}

// --- Yahoo, recorded -------------------------------------------------------------

#[test]
fn yahoo_aapl_closed_2020_01_02_at_75_09_split_adjusted_not_dividend_adjusted() {
    let Some(body) = yahoo_body("chart-AAPL-2020-01-01-to-2020-01-03.json") else {
        return;
    };
    let chart = yahoo::parse_chart(&body).unwrap();
    assert_eq!(chart.meta.symbol, "AAPL");
    assert_eq!(chart.meta.currency.as_deref(), Some("USD"));
    assert_eq!(
        chart.meta.exchange_timezone.as_deref(),
        Some("America/New_York")
    );
    assert_eq!(chart.meta.gmtoffset_secs, Some(-18000));
    assert_eq!(chart.meta.regular_market_price, Some(d("244.87")));
    assert_eq!(chart.meta.chart_previous_close, Some(d("73.412")));
    assert_eq!(
        chart.meta.regular_market_time,
        Some(utc("2025-02-19T21:00:01Z"))
    );
    assert_eq!(chart.grid(), PriceGrid::UsEquity);
    // The float goes in through its shortest string, unrounded…
    assert_eq!(chart.bars[0].close.to_string(), "75.0875015258789");
    assert_eq!(chart.bars[0].start, utc("2020-01-02T14:30:00Z"));
    // …and out on the cent grid: 300.35 as traded / 4 (the 2020-08-31 split) = 75.0875.
    // adjclose (72.716…, also dividend-adjusted) is not used.
    let candles = chart.daily_candles(chart.grid());
    assert_eq!(candles.len(), 1);
    let c = &candles[0];
    assert_eq!(c.date, date("2020-01-02"));
    assert_eq!(
        (c.open, c.high, c.low, c.close),
        (d("74.06"), d("75.15"), d("73.80"), d("75.09"))
    );
    assert_eq!(c.close.to_string(), "75.09");
    assert_eq!(c.volume, 135_480_400, "33,870,100 as traded × 4");
}

#[test]
fn yahoo_aapl_4_for_1_split_on_2020_08_31_and_the_november_dividend_are_read_from_events() {
    let Some(body) = yahoo_body("chart-AAPL-2020-08-31-to-2020-11-07.json") else {
        return;
    };
    let chart = yahoo::parse_chart(&body).unwrap();
    assert_eq!(chart.splits.len(), 1);
    let split = &chart.splits[0];
    assert_eq!(
        (split.date, split.numerator, split.denominator),
        (date("2020-08-31"), 4, 1)
    );
    assert_eq!(chart.dividends.len(), 1);
    let dividend = &chart.dividends[0];
    assert_eq!(dividend.ex_date, date("2020-11-06"));
    assert_eq!(dividend.amount, d("0.205"));
    assert_eq!(dividend.currency, "USD");
    assert_eq!(dividend.pay_date, None);
    let candles = chart.daily_candles(PriceGrid::UsEquity);
    assert_eq!(candles.len(), 49);
    assert_eq!(candles[0].date, date("2020-08-31"));
    assert_eq!(candles[0].open, d("127.58"));
    assert_eq!(candles[0].high, d("131.00"));
    assert_eq!(candles[0].close, d("129.04"));
    assert_eq!(candles[0].volume, 225_702_700);
    assert_eq!(candles[48].date, date("2020-11-06"));
    assert_eq!(candles[48].close, d("118.69"));
    assert!(candles.windows(2).all(|w| w[0].date < w[1].date));
}

#[test]
fn yahoo_msft_paid_four_dividends_with_2021_ex_dates() {
    let Some(body) =
        yahoo_body("historical-via-chart-MSFT-dividends-2021-02-01-to-2022-01-31.csv.json")
    else {
        return;
    };
    let chart = yahoo::parse_chart(&body).unwrap();
    let got: Vec<(NaiveDate, Decimal)> = chart
        .dividends
        .iter()
        .map(|d| (d.ex_date, d.amount))
        .collect();
    assert_eq!(
        got,
        [
            (date("2021-02-17"), d("0.56")),
            (date("2021-05-19"), d("0.56")),
            (date("2021-08-18"), d("0.56")),
            (date("2021-11-17"), d("0.62")),
        ]
    );
    assert!(chart.splits.is_empty());
    let candles = chart.daily_candles(PriceGrid::UsEquity);
    assert_eq!(candles.len(), 252);
    assert_eq!(
        (candles[0].date, candles[0].close),
        (date("2021-02-01"), d("239.65"))
    );
    assert_eq!(candles[251].date, date("2022-01-28"));
}

#[test]
fn yahoo_nvda_4_for_1_split_on_2021_07_20_leaves_no_jump_in_the_candles() {
    let Some(body) =
        yahoo_body("historical-via-chart-NVDA-split-2021-02-01-to-2022-01-31.csv.json")
    else {
        return;
    };
    let chart = yahoo::parse_chart(&body).unwrap();
    assert_eq!(chart.splits.len(), 1);
    assert_eq!(
        (
            chart.splits[0].date,
            chart.splits[0].numerator,
            chart.splits[0].denominator
        ),
        (date("2021-07-20"), 4, 1)
    );
    let candles = chart.daily_candles(PriceGrid::UsEquity);
    assert_eq!(candles.len(), 252);
    let day = |s: &str| candles.iter().find(|c| c.date == date(s)).unwrap();
    // Adjusted for this split and the 10:1 of 2024 (recorded in 2025): 751.18 / 40.
    assert_eq!(day("2021-07-19").close, d("18.78"));
    assert_eq!(day("2021-07-19").volume, 749_060_000);
    assert_eq!(day("2021-07-20").close, d("18.61"));
    // Consistently adjusted: no day-to-day move anywhere near the 4× of the split.
    for w in candles.windows(2) {
        let ratio = w[1].close / w[0].close;
        assert!(
            ratio > d("0.8") && ratio < d("1.25"),
            "{} → {}: {ratio}",
            w[0].date,
            w[1].date
        );
    }
}

#[test]
fn yahoo_tsla_has_no_dividends_and_thirteen_years_of_candles() {
    let Some(body) = yahoo_body("historical-via-chart-dividends-TSLA-no-dividends.json") else {
        return;
    };
    let chart = yahoo::parse_chart(&body).unwrap();
    assert!(chart.dividends.is_empty());
    assert!(chart.splits.is_empty());
    let candles = chart.daily_candles(PriceGrid::UsEquity);
    assert_eq!(candles.len(), 3303);
    assert_eq!(
        (candles[0].date, candles[0].close),
        (date("2010-06-29"), d("1.59"))
    );
    assert_eq!(candles[3302].date, date("2023-08-11"));
    assert!(candles
        .iter()
        .all(|c| c.low > Decimal::ZERO && c.low <= c.high));
    assert!(candles.windows(2).all(|w| w[0].date < w[1].date));
}

#[test]
fn yahoo_one_minute_chart_of_a_saturday_has_no_bars_and_still_quotes_from_meta() {
    let Some(body) =
        yahoo_body("chart-AAPL-2025-02-01-to-2025-02-02-includePrePost-false-interval-1m.json")
    else {
        return;
    };
    let chart = yahoo::parse_chart(&body).unwrap();
    assert_eq!(chart.meta.granularity.as_deref(), Some("1m"));
    assert_eq!(
        chart.bars.len(),
        0,
        "2025-02-01 is a Saturday: `quote: [{{}}]`, no timestamps"
    );
    assert!(chart.intraday_bars(PriceGrid::UsEquity).is_empty());
    let quote = chart
        .quote(&"NASDAQ:AAPL".parse().unwrap(), PriceGrid::UsEquity)
        .unwrap();
    assert_eq!(quote.price, d("244.87"));
    // meta.previousClose (244.47) wins over chartPreviousClose (236).
    assert_eq!(quote.previous_close, d("244.47"));
    assert_eq!((quote.high, quote.low), (d("246.01"), d("243.16")));
    assert_eq!(
        quote.open,
        d("244.87"),
        "no session bar: the open is the price"
    );
    assert_eq!(quote.volume, 32_129_951);
    assert_eq!(quote.as_of, utc("2025-02-19T21:00:01Z"));
    assert_eq!(quote.state, QuoteState::Delayed);
    assert_eq!(quote.change(), d("0.40"));
}

#[test]
fn yahoo_eurusd_candles_are_london_dates_on_the_rate_grid() {
    let Some(body) = yahoo_body("chart-EURUSD=X-2020-01-01-to-2020-01-03.json") else {
        return;
    };
    let chart = yahoo::parse_chart(&body).unwrap();
    assert_eq!(chart.grid(), PriceGrid::Fx);
    let candles = chart.daily_candles(chart.grid());
    let got: Vec<(NaiveDate, Decimal)> = candles.iter().map(|c| (c.date, c.close)).collect();
    assert_eq!(
        got,
        [
            (date("2020-01-01"), d("1.12208")),
            (date("2020-01-02"), d("1.12208")),
            (date("2020-01-03"), d("1.11714")),
        ]
    );
    assert!(candles.iter().all(|c| c.volume == 0));
}

#[test]
fn yahoo_qqq_closed_2020_01_02_at_216_16() {
    let Some(body) = yahoo_body("chart-QQQ-2020-01-01-to-2020-01-03.json") else {
        return;
    };
    let chart = yahoo::parse_chart(&body).unwrap();
    assert_eq!(chart.meta.instrument_type.as_deref(), Some("ETF"));
    assert_eq!(chart.grid(), PriceGrid::UsEquity);
    let candles = chart.daily_candles(chart.grid());
    assert_eq!(candles.len(), 1);
    assert_eq!(candles[0].date, date("2020-01-02"));
    assert_eq!(
        (candles[0].open, candles[0].close),
        (d("214.40"), d("216.16"))
    );
    assert_eq!(candles[0].volume, 30_969_400);
}

// --- Alpha Vantage, recorded -----------------------------------------------------

#[test]
fn alpha_vantage_global_quote_for_msft_on_2018_10_05() {
    let Some(body) = shared("alpha_vantage/global_quote.json") else {
        return;
    };
    let q = alpha_vantage::parse_global_quote(&body).unwrap();
    assert_eq!(q.symbol, "MSFT");
    assert_eq!(
        (q.open, q.high, q.low, q.price),
        (d("112.63"), d("113.17"), d("110.64"), d("112.13"))
    );
    assert_eq!(q.previous_close, d("112.79"));
    assert_eq!(q.volume, 29_062_853);
    assert_eq!(q.latest_trading_day, date("2018-10-05"));
    assert_eq!(q.change, Some(d("-0.66")));
    assert_eq!(q.change_percent, Some(d("-0.5852")));
    let quote = q.to_quote(
        &"NASDAQ:MSFT".parse().unwrap(),
        PriceGrid::UsEquity,
        utc("2018-10-08T00:00:00Z"),
    );
    assert_eq!(quote.price.to_string(), "112.13");
    assert_eq!(quote.change(), d("-0.66"));
    assert_eq!(quote.as_of, utc("2018-10-05T20:00:00Z"));
    assert_eq!(quote.source, "alpha_vantage");
    assert_eq!(quote.state, QuoteState::Delayed);
}

#[test]
fn alpha_vantage_intraday_series_reads_100_rows_oldest_first_in_us_eastern() {
    let Some(body) = shared("alpha_vantage/mock_time_series.json") else {
        return;
    };
    let series = alpha_vantage::parse_time_series(&body).unwrap();
    assert_eq!(series.symbol.as_deref(), Some("MSFT"));
    assert_eq!(series.time_zone.as_deref(), Some("US/Eastern"));
    assert_eq!(series.rows.len(), 100);
    let first = &series.rows[0];
    assert_eq!(first.stamp.to_string(), "2017-12-18 13:17:00");
    assert_eq!(
        (first.open, first.close, first.volume),
        (d("86.8101"), d("86.8000"), Some(31172))
    );
    let last = &series.rows[99];
    assert_eq!(last.stamp.to_string(), "2017-12-18 14:56:00");
    assert_eq!((last.close, last.volume), (d("86.5000"), Some(10494)));
    let bars = series.bars();
    assert_eq!(bars[99].start, utc("2017-12-18T19:56:00Z"), "14:56 EST");
}

#[test]
fn alpha_vantage_exchange_rate_bitcoin_in_yuan() {
    let Some(body) = shared("alpha_vantage/mock_foreign_exchange.json") else {
        return;
    };
    let rate = alpha_vantage::parse_exchange_rate(&body).unwrap();
    assert_eq!((rate.from.as_str(), rate.to.as_str()), ("BTC", "CNY"));
    assert_eq!(rate.rate, d("109631.430607"));
    assert_eq!(rate.as_of, utc("2017-12-20T19:23:21Z"));
    assert_eq!(rate.bid, None);
}

#[test]
fn alpha_vantage_symbol_search_lists_ten_matches_best_first() {
    let Some(body) = shared("alpha_vantage/symbol_search.json") else {
        return;
    };
    let matches = alpha_vantage::parse_symbol_search(&body).unwrap();
    assert_eq!(matches.len(), 10);
    let ba = &matches[0];
    assert_eq!(
        (
            ba.symbol.as_str(),
            ba.name.as_str(),
            ba.kind.as_str(),
            ba.region.as_str(),
            ba.currency.as_str()
        ),
        ("BA", "The Boeing Company", "Equity", "United States", "USD")
    );
    assert_eq!(ba.match_score, Some(d("1")));
    assert_eq!(ba.timezone, "UTC-04");
    assert_eq!(
        (matches[3].symbol.as_str(), matches[3].currency.as_str()),
        ("6190.HKG", "HKD")
    );
}

#[test]
fn alpha_vantage_company_overview_of_ibm() {
    let Some(body) = shared("alpha_vantage/mock_company_overview.json") else {
        return;
    };
    let o = alpha_vantage::parse_company_overview(&body).unwrap();
    assert_eq!(
        (o.symbol.as_str(), o.exchange.as_str(), o.currency.as_str()),
        ("IBM", "NYSE", "USD")
    );
    assert_eq!(o.name, "International Business Machines Corporation");
    assert_eq!(
        (o.country.as_str(), o.sector.as_str()),
        ("USA", "Technology")
    );
    assert_eq!(o.asset_type, "Common Stock");
    assert_eq!(o.shares_outstanding, Some(890_579_008));
    assert_eq!(o.market_capitalization, Some(114_234_572_800));
    assert_eq!(o.dividend_yield, Some(d("0.0529")));
    assert_eq!(o.ex_dividend_date, Some(date("2020-08-07")));
}

// --- ECB, recorded ---------------------------------------------------------------

#[test]
fn ecb_daily_file_of_2015_01_07_gives_usd_krw_1102_43() {
    let Some(body) = shared("ecb/success.xml") else {
        return;
    };
    let days = ecb::parse_reference_rates(&body).unwrap();
    assert_eq!(days.len(), 1);
    assert_eq!(days[0].date, date("2015-01-07"));
    assert_eq!(days[0].rates.len(), 31);
    assert_eq!(days[0].rates["GBP"], d("0.7823"));
    // 1304.28 / 1.1831 = 1102.4258…
    assert_eq!(days[0].cross("USD", "KRW"), Some(d("1102.43")));
}

#[test]
fn ecb_90_day_file_derives_usd_krw_for_every_day_and_1179_94_on_2019_11_29() {
    let Some(body) = shared("ecb/historical-90d.xml") else {
        return;
    };
    let days = ecb::parse_reference_rates(&body).unwrap();
    assert_eq!(days.len(), 65);
    assert_eq!(
        (days[0].date, days[64].date),
        (date("2019-09-02"), date("2019-11-29"))
    );
    let usd_krw = ecb::cross_rates(&days, "USD", "KRW");
    assert_eq!(usd_krw.len(), 65);
    let last = &usd_krw[64];
    // By hand: KRW per EUR 1295.81 / USD per EUR 1.0982 = 1179.93990165… → 1179.94.
    assert_eq!(
        (days[64].rates["KRW"], days[64].rates["USD"]),
        (d("1295.81"), d("1.0982"))
    );
    assert_eq!((last.date, last.rate), (date("2019-11-29"), d("1179.94")));
    assert_eq!((last.base.as_str(), last.quote.as_str()), ("USD", "KRW"));
    // 1329.49 / 1.0968 = 1212.1535…
    assert_eq!(usd_krw[0].rate, d("1212.15"));
}

#[test]
fn ecb_2016_history_is_oldest_first_with_usd_krw_1122_61_on_2016_08_24() {
    let Some(body) = shared("ecb/historical.xml") else {
        return;
    };
    let days = ecb::parse_reference_rates(&body).unwrap();
    assert_eq!(days.len(), 64);
    assert_eq!(
        (days[0].date, days[63].date),
        (date("2016-05-27"), date("2016-08-24"))
    );
    assert_eq!(days[0].cross("EUR", "USD"), Some(d("1.1168")));
    assert!(days
        .iter()
        .all(|d| d.rates.contains_key("HRK") && d.rates.contains_key("RUB")));
    // 1264.96 / 1.1268 = 1122.6127…
    assert_eq!(days[63].cross("USD", "KRW"), Some(d("1122.61")));
}

// --- Our own fixtures (always run) -----------------------------------------------

#[test]
fn own_yahoo_chart_skips_the_null_bar_and_reads_the_dividend() {
    let chart = yahoo::parse_chart(&own("yahoo-chart-null-bar-dividend.json")).unwrap();
    let candles = chart.daily_candles(PriceGrid::UsEquity);
    let dates: Vec<NaiveDate> = candles.iter().map(|c| c.date).collect();
    assert_eq!(
        dates,
        [date("2024-03-12"), date("2024-03-14"), date("2024-03-15")],
        "2024-03-13 is all null"
    );
    assert_eq!(candles[0].close.to_string(), "100.00");
    assert!(candles.iter().all(|c| !c.close.is_zero() && c.volume > 0));
    assert_eq!(chart.dividends.len(), 1);
    assert_eq!(
        (chart.dividends[0].ex_date, chart.dividends[0].amount),
        (date("2024-03-14"), d("0.24"))
    );
    let quote = chart
        .quote(&"NASDAQ:MOAT".parse().unwrap(), PriceGrid::UsEquity)
        .unwrap();
    // Session 2024-03-15 (16:00 EDT); the bar before it closed 100.50.
    assert_eq!(
        (quote.price, quote.previous_close, quote.open),
        (d("101.50"), d("100.50"), d("100.50"))
    );
    assert_eq!(
        (quote.high, quote.low),
        (d("102.25"), d("100.13")),
        "100.125 rounds half away from zero"
    );
    assert_eq!(quote.volume, 1_500_000);
}

#[test]
fn own_yahoo_chart_error_is_an_unknown_symbol() {
    assert!(matches!(
        yahoo::parse_chart(&own("yahoo-chart-error.json")),
        Err(ProviderError::UnknownSymbol)
    ));
}

#[test]
fn own_alpha_vantage_error_bodies_sent_with_status_200_are_classified() {
    assert!(matches!(
        alpha_vantage::parse_time_series(&own("av-note.json")),
        Err(ProviderError::RateLimited { .. })
    ));
    assert!(matches!(
        alpha_vantage::parse_global_quote(&own("av-information.json")),
        Err(ProviderError::RateLimited { .. })
    ));
    assert!(matches!(
        alpha_vantage::parse_time_series(&own("av-error-message.json")),
        Err(ProviderError::UnknownSymbol)
    ));
    assert!(matches!(
        alpha_vantage::parse_symbol_search(&own("av-error-message.json")),
        Err(ProviderError::Source(_))
    ));
}

#[test]
fn own_html_page_is_malformed_for_every_parser() {
    let page = own("consent-page.html");
    assert!(matches!(
        yahoo::parse_chart(&page),
        Err(ProviderError::Malformed(_))
    ));
    assert!(matches!(
        alpha_vantage::parse_time_series(&page),
        Err(ProviderError::Malformed(_))
    ));
    assert!(matches!(
        ecb::parse_reference_rates(&page),
        Err(ProviderError::Malformed(_))
    ));
}

#[test]
fn own_ecb_file_leaves_out_the_day_without_krw() {
    let days = ecb::parse_reference_rates(&own("ecb-rates.xml")).unwrap();
    assert_eq!(days.len(), 3);
    let usd_krw = ecb::cross_rates(&days, "USD", "KRW");
    let got: Vec<(NaiveDate, Decimal)> = usd_krw.iter().map(|r| (r.date, r.rate)).collect();
    // 1436.08 / 1.0939 = 1312.8073…; 1450.33 / 1.0890 = 1331.7998…
    assert_eq!(
        got,
        [
            (date("2024-03-13"), d("1312.81")),
            (date("2024-03-15"), d("1331.80"))
        ]
    );
    let usd_jpy = ecb::cross_rates(&days, "USD", "JPY");
    assert_eq!(usd_jpy.len(), 3);
    assert_eq!(usd_jpy[2].rate, d("148.567"), "161.79 / 1.0890 = 148.5674…");
}

#[test]
fn own_alpha_vantage_daily_series_is_split_adjusted_with_the_splits_endpoint() {
    let series = alpha_vantage::parse_time_series(&own("av-time-series-daily.json")).unwrap();
    let splits = alpha_vantage::parse_splits(&own("av-splits.json")).unwrap();
    let candles = alpha_vantage::split_adjusted_candles(&series.rows, &splits, PriceGrid::UsEquity);
    let closes: Vec<Decimal> = candles.iter().map(|c| c.close).collect();
    // 399.99 / 4 = 99.9975 → 100.00; 402.01 / 4 = 100.5025 → 100.50; then as traded.
    assert_eq!(closes, [d("100.00"), d("100.50"), d("103.00")]);
    assert_eq!(candles[0].volume, 4_400_000);
    assert_eq!(candles[2].volume, 4_000_000);
}

// --- HTTP, against a local server ------------------------------------------------

/// A raw HTTP/1.1 answer.
fn answer(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body);
    out
}

fn json_answer(body: &[u8]) -> Vec<u8> {
    answer(
        "200 OK",
        &[("Content-Type", "application/json;charset=utf-8")],
        body,
    )
}

/// Serves `answers` in order, one per connection (the last one repeats), on
/// 127.0.0.1; records each request's target (path and query).
struct Server {
    base_url: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Server {
    async fn start(answers: Vec<Vec<u8>>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        tokio::spawn(async move {
            let mut n = 0usize;
            loop {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(k) => head.extend_from_slice(&buf[..k]),
                    }
                }
                let head = String::from_utf8_lossy(&head);
                let target = head
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or_default()
                    .to_string();
                seen.lock().unwrap().push(target);
                let reply = &answers[n.min(answers.len() - 1)];
                n += 1;
                let _ = socket.write_all(reply).await;
                let _ = socket.shutdown().await;
            }
        });
        Server { base_url, requests }
    }

    fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

fn now() -> DateTime<Utc> {
    utc("2024-03-16T00:00:00Z")
}

#[tokio::test]
async fn http_429_with_retry_after_7_is_rate_limited_for_7_seconds() {
    let server = Server::start(vec![answer(
        "429 Too Many Requests",
        &[("Retry-After", "7")],
        b"Too Many Requests",
    )])
    .await;
    let yahoo = YahooProvider::new(client(), &server.base_url);
    let err = yahoo
        .daily_candles(&us_stock("AAPL"), date("2024-03-12"), date("2024-03-15"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            ProviderError::RateLimited {
                retry_after_secs: Some(7)
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn http_200_with_an_html_page_is_malformed() {
    let page = own("consent-page.html");
    let server = Server::start(vec![answer(
        "200 OK",
        &[("Content-Type", "text/html; charset=utf-8")],
        &page,
    )])
    .await;
    let yahoo = YahooProvider::new(client(), &server.base_url);
    match yahoo.quote(&us_stock("AAPL"), now()).await {
        Err(ProviderError::Malformed(m)) => assert_eq!(m, "HTML instead of JSON"),
        other => panic!("{other:?}"),
    }
    // Even when the page claims to be JSON.
    let server = Server::start(vec![json_answer(&page)]).await;
    let av = AlphaVantageProvider::new(client(), &server.base_url, "KEY");
    assert!(matches!(
        av.quote(&us_stock("AAPL"), now()).await,
        Err(ProviderError::Malformed(_))
    ));
}

#[tokio::test]
async fn http_200_alpha_vantage_note_is_rate_limited() {
    let server = Server::start(vec![json_answer(&own("av-note.json"))]).await;
    let av = AlphaVantageProvider::new(client(), &server.base_url, "KEY");
    let err = av.quote(&us_stock("MSFT"), now()).await.unwrap_err();
    assert!(
        matches!(
            err,
            ProviderError::RateLimited {
                retry_after_secs: None
            }
        ),
        "{err:?}"
    );
    let request = &server.requests()[0];
    assert!(
        request.starts_with("/query?function=GLOBAL_QUOTE&symbol=MSFT&apikey=KEY"),
        "{request}"
    );
}

#[tokio::test]
async fn http_500_is_a_source_error_naming_the_status() {
    let server = Server::start(vec![answer(
        "500 Internal Server Error",
        &[("Content-Type", "text/plain")],
        b"oops",
    )])
    .await;
    let ecb = EcbProvider::new(client(), &server.base_url);
    match ecb
        .daily_rates("USD", "KRW", date("2016-06-01"), date("2016-06-30"))
        .await
    {
        Err(ProviderError::Source(m)) => assert_eq!(m, "HTTP 500 Internal Server Error: oops"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn http_closed_port_is_unreachable() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let yahoo = YahooProvider::new(client(), base_url);
    let err = yahoo.quote(&us_stock("AAPL"), now()).await.unwrap_err();
    assert!(matches!(err, ProviderError::Unreachable(_)), "{err:?}");
}

#[tokio::test]
async fn http_good_chart_gives_candles_for_the_yahoo_symbol() {
    let server = Server::start(vec![json_answer(&own(
        "yahoo-chart-null-bar-dividend.json",
    ))])
    .await;
    let yahoo = YahooProvider::new(client(), format!("{}/", server.base_url));
    let candles = yahoo
        .daily_candles(&us_stock("MOAT"), date("2024-03-13"), date("2024-03-15"))
        .await
        .unwrap();
    let got: Vec<(NaiveDate, Decimal)> = candles.iter().map(|c| (c.date, c.close)).collect();
    assert_eq!(
        got,
        [
            (date("2024-03-14"), d("100.50")),
            (date("2024-03-15"), d("101.50"))
        ]
    );
    let request = &server.requests()[0];
    // period1 = 2024-03-12T00:00Z, period2 = 2024-03-17T00:00Z: a day of margin each side.
    assert_eq!(
        request,
        "/v8/finance/chart/MOAT?period1=1710201600&period2=1710633600&interval=1d&events=div%2Csplits&includePrePost=false"
    );
}

#[tokio::test]
async fn http_yahoo_symbols_in_requests_follow_the_mapping() {
    let server = Server::start(vec![json_answer(&own(
        "yahoo-chart-null-bar-dividend.json",
    ))])
    .await;
    let yahoo = YahooProvider::new(client(), &server.base_url);
    let samsung = instrument("KRX:005930", Kind::Stock, Some(Board::Kospi), "KRW");
    let brk = instrument("NYSE:BRK.B", Kind::Stock, None, "USD");
    let kospi = instrument("INDEX:KOSPI", Kind::Index, None, "KRW");
    let usdkrw = instrument("FX:USDKRW", Kind::Currency, None, "KRW");
    for i in [&samsung, &brk, &kospi, &usdkrw] {
        yahoo.quote(i, now()).await.unwrap();
    }
    let paths: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.split('?').next().unwrap().to_string())
        .collect();
    assert_eq!(
        paths,
        [
            "/v8/finance/chart/005930.KS",
            "/v8/finance/chart/BRK-B",
            "/v8/finance/chart/^KS11",
            "/v8/finance/chart/KRW=X",
        ]
    );
}

#[tokio::test]
async fn http_yahoo_404_is_an_unknown_symbol() {
    let server = Server::start(vec![answer(
        "404 Not Found",
        &[("Content-Type", "application/json;charset=utf-8")],
        &own("yahoo-chart-error.json"),
    )])
    .await;
    let yahoo = YahooProvider::new(client(), &server.base_url);
    let err = yahoo.quote(&us_stock("NOPE"), now()).await.unwrap_err();
    assert!(matches!(err, ProviderError::UnknownSymbol), "{err:?}");
}

#[tokio::test]
async fn http_yahoo_corporate_actions_are_kept_within_the_range() {
    let server = Server::start(vec![json_answer(&own(
        "yahoo-chart-null-bar-dividend.json",
    ))])
    .await;
    let yahoo = YahooProvider::new(client(), &server.base_url);
    let (dividends, splits) = yahoo
        .corporate_actions(&us_stock("MOAT"), date("2024-03-01"), date("2024-03-31"))
        .await
        .unwrap();
    assert_eq!(dividends.len(), 1);
    assert_eq!(
        (dividends[0].ex_date, dividends[0].amount),
        (date("2024-03-14"), d("0.24"))
    );
    assert!(splits.is_empty());
    let (dividends, _) = yahoo
        .corporate_actions(&us_stock("MOAT"), date("2024-03-15"), date("2024-03-31"))
        .await
        .unwrap();
    assert!(dividends.is_empty());
}

#[tokio::test]
async fn http_yahoo_intraday_keeps_aligned_bars_of_the_day_up_to_now() {
    // Three 5-minute bars of 2024-03-15 (09:30, 09:35, 09:40 EDT), one null, and a
    // running point off the grid at 09:42:13.
    let body = serde_json::json!({"chart": {"result": [{
        "meta": {"currency": "USD", "symbol": "MOAT", "exchangeTimezoneName": "America/New_York",
                 "gmtoffset": -14400, "instrumentType": "EQUITY", "dataGranularity": "5m"},
        "timestamp": [1710509400, 1710509700, 1710510000, 1710510133],
        "indicators": {"quote": [{
            "open": [100.0, null, 100.5, 100.75], "high": [100.5, null, 101.0, 100.75],
            "low": [99.75, null, 100.25, 100.75], "close": [100.25, null, 100.75, 100.75],
            "volume": [5000, null, 7000, 100]}]}}], "error": null}});
    let server = Server::start(vec![json_answer(&serde_json::to_vec(&body).unwrap())]).await;
    let yahoo = YahooProvider::new(client(), &server.base_url);
    let stock = us_stock("MOAT");
    let bars = yahoo
        .intraday_bars(&stock, date("2024-03-15"), utc("2024-03-15T14:45:00Z"))
        .await
        .unwrap();
    let starts: Vec<DateTime<Utc>> = bars.iter().map(|b| b.start).collect();
    assert_eq!(
        starts,
        [utc("2024-03-15T13:30:00Z"), utc("2024-03-15T13:40:00Z")]
    );
    assert_eq!(bars[1].close, d("100.75"));
    // `now` at 09:35 EDT: the 09:40 bar is in the future.
    let bars = yahoo
        .intraday_bars(&stock, date("2024-03-15"), utc("2024-03-15T13:35:00Z"))
        .await
        .unwrap();
    assert_eq!(bars.len(), 1);
    // The request spans New York's local day.
    let request = &server.requests()[0];
    assert!(
        request.contains("period1=1710475200&period2=1710561600&interval=5m"),
        "{request}"
    );
}

#[tokio::test]
async fn http_alpha_vantage_daily_candles_use_two_calls_and_adjust_for_splits() {
    let server = Server::start(vec![
        json_answer(&own("av-time-series-daily.json")),
        json_answer(&own("av-splits.json")),
    ])
    .await;
    let av = AlphaVantageProvider::new(client(), &server.base_url, "KEY");
    let candles = av
        .daily_candles(&us_stock("MOAT"), date("2024-06-11"), date("2024-06-12"))
        .await
        .unwrap();
    let got: Vec<(NaiveDate, Decimal)> = candles.iter().map(|c| (c.date, c.close)).collect();
    assert_eq!(
        got,
        [
            (date("2024-06-11"), d("100.50")),
            (date("2024-06-12"), d("103.00"))
        ]
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert!(
        requests[0].starts_with(
            "/query?function=TIME_SERIES_DAILY&symbol=MOAT&outputsize=full&apikey=KEY"
        ),
        "{}",
        requests[0]
    );
    assert_eq!(requests[1], "/query?function=SPLITS&symbol=MOAT&apikey=KEY");
}

#[tokio::test]
async fn http_alpha_vantage_error_message_for_a_symbol_is_unknown_and_intraday_is_unsupported() {
    let server = Server::start(vec![json_answer(&own("av-error-message.json"))]).await;
    let av = AlphaVantageProvider::new(client(), &server.base_url, "KEY");
    assert!(matches!(
        av.quote(&us_stock("NOPE"), now()).await,
        Err(ProviderError::UnknownSymbol)
    ));
    let samsung = instrument("KRX:005930", Kind::Stock, Some(Board::Kospi), "KRW");
    assert!(matches!(
        av.quote(&samsung, now()).await,
        Err(ProviderError::Unsupported)
    ));
    assert!(matches!(
        av.intraday_bars(&us_stock("MSFT"), date("2024-03-15"), now())
            .await,
        Err(ProviderError::Unsupported)
    ));
    assert_eq!(
        server.requests().len(),
        1,
        "unsupported calls make no request"
    );
}

#[tokio::test]
async fn http_alpha_vantage_fx_daily_gives_usd_krw_closes() {
    let server = Server::start(vec![json_answer(&own("av-fx-daily.json"))]).await;
    let av = AlphaVantageProvider::new(client(), &server.base_url, "KEY");
    let rates = av
        .daily_rates("usd", "KRW", date("2024-03-14"), date("2024-03-15"))
        .await
        .unwrap();
    let got: Vec<(NaiveDate, Decimal)> = rates.iter().map(|r| (r.date, r.rate)).collect();
    assert_eq!(
        got,
        [
            (date("2024-03-14"), d("1325.48")),
            (date("2024-03-15"), d("1331.73"))
        ]
    );
    assert!(rates.iter().all(|r| r.base == "USD" && r.quote == "KRW"));
    let request = &server.requests()[0];
    assert!(
        request
            .starts_with("/query?function=FX_DAILY&from_symbol=USD&to_symbol=KRW&outputsize=full"),
        "{request}"
    );
}

#[tokio::test]
async fn http_ecb_rates_come_from_the_history_file_and_unknown_pairs_are_unsupported() {
    let server = Server::start(vec![answer(
        "200 OK",
        &[("Content-Type", "text/xml")],
        &own("ecb-rates.xml"),
    )])
    .await;
    let ecb = EcbProvider::new(client(), &server.base_url);
    let rates = ecb
        .daily_rates("USD", "KRW", date("2024-03-14"), date("2024-03-31"))
        .await
        .unwrap();
    let got: Vec<(NaiveDate, Decimal)> = rates.iter().map(|r| (r.date, r.rate)).collect();
    assert_eq!(
        got,
        [(date("2024-03-15"), d("1331.80"))],
        "2024-03-14 has no KRW; 03-13 is out of range"
    );
    assert_eq!(server.requests(), ["/stats/eurofxref/eurofxref-hist.xml"]);
    assert!(matches!(
        ecb.daily_rates("USD", "XYZ", date("2024-03-14"), date("2024-03-15"))
            .await,
        Err(ProviderError::Unsupported)
    ));
    assert!(matches!(
        ecb.daily_rates("KRW", "KRW", date("2024-03-14"), date("2024-03-15"))
            .await,
        Err(ProviderError::Unsupported)
    ));
    assert_eq!(server.requests().len(), 1);
}
