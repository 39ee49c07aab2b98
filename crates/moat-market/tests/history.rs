//! The daily price parser (`moat import prices`) on fixture files: the three shapes,
//! every kind of bad row, and the all-or-nothing rule.

use std::collections::HashMap;
use std::path::Path;

use moat_market::catalog::{self, ImportErrors, MAX_REPORTED_ERRORS};
use moat_market::history::{
    parse_prices_csv, InstrumentPrices, ParsedPrices, PriceFormat, PriceImportOptions,
};
use moat_market::ticks::PriceGrid;
use moat_market::InstrumentId;
use rust_decimal::Decimal;

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/history")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn id(s: &str) -> InstrumentId {
    s.parse().unwrap()
}

fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

/// The curated instruments are the known ones.
fn known() -> HashMap<InstrumentId, PriceGrid> {
    catalog::curated()
        .iter()
        .map(|i| (i.id.clone(), PriceGrid::from(i)))
        .collect()
}

fn parse_with(bytes: &[u8], options: &PriceImportOptions) -> Result<ParsedPrices, ImportErrors> {
    let known = known();
    parse_prices_csv(bytes, options, |i| known.get(i).copied())
}

fn parse(bytes: &[u8]) -> Result<ParsedPrices, ImportErrors> {
    parse_with(bytes, &PriceImportOptions::default())
}

fn for_id(bytes: &[u8], instrument: &str) -> Result<ParsedPrices, ImportErrors> {
    parse_with(
        bytes,
        &PriceImportOptions {
            id: Some(id(instrument)),
            latest_date: None,
        },
    )
}

fn series<'a>(parsed: &'a ParsedPrices, instrument: &str) -> &'a InstrumentPrices {
    parsed
        .series
        .iter()
        .find(|s| s.id == id(instrument))
        .unwrap_or_else(|| panic!("no {instrument}"))
}

/// `(row, message)` of every reported error.
fn errors(result: Result<ParsedPrices, ImportErrors>) -> Vec<(usize, String)> {
    let e = result.expect_err("should be refused");
    e.errors
        .iter()
        .map(|e| (e.row, e.message.clone()))
        .collect()
}

#[test]
fn a_good_file_of_many_instruments_is_grouped_per_instrument_oldest_first() {
    let parsed = parse(&fixture("many-good.csv")).unwrap();
    assert_eq!(parsed.format, PriceFormat::ManyInstruments);
    assert_eq!(parsed.rows, 8);
    assert_eq!((parsed.skipped, parsed.rounded), (0, 0));
    assert_eq!(parsed.candle_count(), 8);
    let ids: Vec<String> = parsed.series.iter().map(|s| s.id.to_string()).collect();
    assert_eq!(
        ids,
        [
            "KRX:005930",
            "NASDAQ:AAPL",
            "KRX:069500",
            "FX:USDKRW",
            "INDEX:KOSPI"
        ],
        "in order of first appearance"
    );
    let samsung = series(&parsed, "KRX:005930");
    let dates: Vec<String> = samsung.candles.iter().map(|c| c.date.to_string()).collect();
    assert_eq!(dates, ["2024-01-02", "2024-01-03", "2024-01-04"]);
    let first = &samsung.candles[0];
    assert_eq!(
        (first.open, first.high, first.low, first.close, first.volume),
        (d("78200"), d("79800"), d("78200"), d("79600"), 17_142_847)
    );
    let aapl = &series(&parsed, "NASDAQ:AAPL").candles[0];
    assert_eq!(aapl.low.to_string(), "183.89");
    // FX rates go through the providers' rule: normalised, six significant digits.
    let usdkrw = &series(&parsed, "FX:USDKRW").candles[0];
    assert_eq!(usdkrw.high.to_string(), "1310.5");
    assert_eq!(usdkrw.volume, 0);
    assert_eq!(
        series(&parsed, "INDEX:KOSPI").candles[0].close.to_string(),
        "2669.81"
    );
}

#[test]
fn a_one_instrument_file_with_a_byte_order_mark_takes_its_id_apart() {
    let bytes = fixture("one-bom.csv");
    assert!(
        bytes.starts_with(&[0xef, 0xbb, 0xbf]),
        "the fixture has a BOM"
    );
    let parsed = for_id(&bytes, "KRX:005930").unwrap();
    assert_eq!(parsed.format, PriceFormat::OneInstrument);
    assert_eq!(parsed.series.len(), 1);
    assert_eq!(parsed.series[0].id, id("KRX:005930"));
    assert_eq!(parsed.series[0].candles.len(), 2);
    assert_eq!(parsed.series[0].candles[1].close, d("77000"));
}

#[test]
fn a_yahoo_export_uses_close_not_adj_close_rounds_floats_and_skips_null_rows() {
    let parsed = for_id(&fixture("yahoo-aapl.csv"), "NASDAQ:AAPL").unwrap();
    assert_eq!(parsed.format, PriceFormat::YahooExport);
    assert_eq!(parsed.rows, 5);
    assert_eq!(parsed.skipped, 1, "the all-null placeholder row");
    let candles = &parsed.series[0].candles;
    assert_eq!(candles.len(), 4);
    let c = &candles[0];
    assert_eq!(c.date.to_string(), "2024-01-02");
    assert_eq!(
        (
            c.open.to_string(),
            c.high.to_string(),
            c.low.to_string(),
            c.close.to_string()
        ),
        (
            "187.15".into(),
            "188.44".into(),
            "183.89".into(),
            "185.64".into()
        ),
        "Close (185.639999) on the cent grid, not Adj Close (184.938217)"
    );
    assert_eq!(c.volume, 82_488_700);
    assert_eq!(candles[1].close.to_string(), "184.25");
    // Every price of the 4 real rows but 184.250000 and 181.500000 had float digits.
    assert_eq!(parsed.rounded, 14);
}

#[test]
fn a_krx_price_with_won_fractions_is_rounded_to_whole_won_but_not_onto_the_tick() {
    let parsed = for_id(
        b"date,open,high,low,close,volume\n2024-01-02,1060.4,1070,1055,1062.5,10\n",
        "KRX:005930",
    )
    .unwrap();
    let c = &parsed.series[0].candles[0];
    assert_eq!(c.open.to_string(), "1060", "whole won, off the 5-won tick");
    assert_eq!(c.close.to_string(), "1063", "half away from zero");
    assert_eq!(parsed.rounded, 2);
}

#[test]
fn each_kind_of_bad_row_is_reported_with_its_row_and_reason() {
    let got = errors(parse(&fixture("bad-rows.csv")));
    let want: [(usize, &str); 13] = [
        (3, "unknown instrument KRX:999999"),
        (
            4,
            "id `KRX005930`: an instrument id looks like EXCHANGE:SYMBOL",
        ),
        (5, "date `02/01/2024` is not YYYY-MM-DD"),
        (6, "date 2023-02-30 does not exist"),
        (7, "open `78,200` is not a decimal number"),
        (8, "high 78000 is below the open 78200"),
        (9, "low 78200 is above the close 77500"),
        (10, "low must be positive, not 0"),
        (11, "volume must not be negative, not -5"),
        (12, "volume `1.5` is not a whole number"),
        (
            13,
            "duplicate date 2024-01-02 for KRX:005930: also on row 2",
        ),
        (14, "has 5 fields where the header has 7"),
        (15, "open is empty"),
    ];
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for ((row, message), (want_row, reason)) in got.iter().zip(want) {
        assert_eq!(*row, want_row, "{message}");
        assert!(
            message.contains(reason),
            "row {row}: `{message}` should contain `{reason}`"
        );
    }
}

#[test]
fn a_row_reports_all_its_problems_at_once() {
    let got = errors(parse(
        b"id,date,open,high,low,close,volume\nKRX:999999,2024-13-01,abc,1,1,1,x\n",
    ));
    assert_eq!(got.len(), 1);
    let (row, message) = &got[0];
    assert_eq!(*row, 2);
    for reason in [
        "unknown instrument",
        "date 2024-13-01 does not exist",
        "open `abc`",
        "volume `x`",
    ] {
        assert!(message.contains(reason), "{reason} missing from {message}");
    }
}

#[test]
fn one_bad_row_refuses_the_whole_file() {
    let mut text = fixture("many-good.csv");
    text.extend_from_slice(b"KRX:005930,2024-01-05,76000,75000,74000,74500,1\n");
    let got = errors(parse(&text));
    assert_eq!(got, [(10, "high 75000 is below the open 76000".to_owned())]);
}

#[test]
fn duplicate_rows_are_refused_even_when_identical_but_other_instruments_may_share_a_date() {
    let text = "id,date,open,high,low,close,volume\n\
                KRX:005930,2024-01-02,78200,79800,78200,79600,1\n\
                NASDAQ:AAPL,2024-01-02,187.15,188.44,183.89,185.64,2\n\
                krx:005930,2024-01-02,78200,79800,78200,79600,1\n\
                NASDAQ:AAPL,2024-01-02,187.15,188.44,183.89,185.64,2\n";
    let got = errors(parse(text.as_bytes()));
    assert_eq!(
        got,
        [
            (
                4,
                "duplicate date 2024-01-02 for KRX:005930: also on row 2".to_owned()
            ),
            (
                5,
                "duplicate date 2024-01-02 for NASDAQ:AAPL: also on row 3".to_owned()
            ),
        ]
    );
}

#[test]
fn empty_files_and_headers_without_rows_are_refused_on_row_one() {
    for (bytes, reason) in [
        (fixture("empty.csv"), "the file is empty"),
        (fixture("header-only.csv"), "a header but no rows"),
        (b"\xef\xbb\xbf".to_vec(), "the file is empty"),
    ] {
        let got = errors(parse(&bytes));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].0, 1);
        assert!(got[0].1.contains(reason), "{}", got[0].1);
    }
}

#[test]
fn header_problems_are_on_row_one() {
    let cases: [(&[u8], Option<&str>, &str); 6] = [
        (
            b"id,date,open,high,low,close,volume,note\n",
            None,
            "unknown column `note`",
        ),
        (
            b"id,date,open,high,low,close\n",
            None,
            "missing column `volume`",
        ),
        (
            b"date,open,high,low,close,volume\n2024-01-02,1,1,1,1,1\n",
            None,
            "no id column",
        ),
        (
            b"id,date,open,high,low,close,volume\n",
            Some("KRX:005930"),
            "leave out --id",
        ),
        (
            b"date,open,high,low,close,volume,date\n",
            Some("KRX:005930"),
            "appears twice",
        ),
        (
            b"date,open,high,low,close,volume\n2024-01-02,1,1,1,1,1\n",
            Some("KRX:999999"),
            "unknown instrument KRX:999999",
        ),
    ];
    for (bytes, given, reason) in cases {
        let result = match given {
            Some(instrument) => for_id(bytes, instrument),
            None => parse(bytes),
        };
        let got = errors(result);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, 1, "{reason}");
        assert!(got[0].1.contains(reason), "{}: {reason}", got[0].1);
    }
}

#[test]
fn columns_may_come_in_any_order_and_case() {
    let text =
        "Volume, CLOSE ,low,High,open,Date,ID\n100,79600,78200,79800,78200,2024-01-02,KRX:005930\n";
    let parsed = parse(text.as_bytes()).unwrap();
    let c = &parsed.series[0].candles[0];
    assert_eq!((c.open, c.close, c.volume), (d("78200"), d("79600"), 100));
}

#[test]
fn future_dates_are_refused_when_a_latest_date_is_given() {
    let options = PriceImportOptions {
        id: Some(id("KRX:005930")),
        latest_date: "2024-01-02".parse().ok(),
    };
    let got = errors(parse_with(
        b"date,open,high,low,close,volume\n2024-01-02,1,1,1,1,1\n2204-01-02,1,1,1,1,1\n",
        &options,
    ));
    assert_eq!(got, [(3, "date 2204-01-02 is in the future".to_owned())]);
}

#[test]
fn at_most_twenty_errors_are_kept_but_all_are_counted() {
    let mut text = String::from("id,date,open,high,low,close,volume\n");
    for day in 1..=28 {
        text.push_str(&format!("KRX:005930,2024-02-{day:02},100,90,80,85,1\n"));
    }
    let e = parse(text.as_bytes()).unwrap_err();
    assert_eq!(e.errors.len(), MAX_REPORTED_ERRORS);
    assert_eq!(e.total, 28);
    assert_eq!(e.errors[0].row, 2);
    assert_eq!(e.errors[19].row, 21);
    assert!(
        e.to_string()
            .starts_with("28 problems (the first 20 shown):"),
        "{e}"
    );
}
