//! The curated instrument list and the listing importer, checked against our own small
//! fixtures and, when the workplace's `../shared/data` is present, against the real KRX,
//! S&P 500, NASDAQ and SEC listings (which catch wrong codes, names, boards, exchanges
//! and sectors in the curated list).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};

use moat_market::catalog::{
    self, is_known_nasdaq_listed, parse_instruments_csv, parse_instruments_csv_with, ImportOptions,
    ListingFormat, ParsedListing, UsExchange, CURATED_COLUMNS, CURATED_CSV,
};
use moat_market::{Board, Exchange, Instrument, Kind};
use rust_decimal::Decimal;

const SHARED_LISTINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/listings");

fn fixture(name: &str) -> File {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/listings")
        .join(name);
    File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The path of a file of `../shared/data/listings`, or `None` (with a message saying
/// the check is skipped) when the folder is absent.
fn shared(name: &str) -> Option<PathBuf> {
    let path = Path::new(SHARED_LISTINGS).join(name);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: ../shared/data not present ({})", path.display());
        None
    }
}

fn read_csv(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(|h| h.trim_start_matches('\u{feff}').to_owned())
        .collect();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .cloned()
                .zip(r.iter().map(str::to_owned))
                .collect()
        })
        .collect()
}

fn curated_of(kind: Kind, exchanges: &[Exchange]) -> Vec<Instrument> {
    catalog::curated()
        .into_iter()
        .filter(|i| i.kind == kind && exchanges.contains(&i.id.exchange()))
        .collect()
}

/// The KRX tick size for a price: stocks by the 2023 schedule, ETFs 1 won under
/// 2,000 won and 5 won from there.
fn krx_tick(kind: Kind, price: Decimal) -> Decimal {
    let steps: &[(i64, i64)] = match kind {
        Kind::Etf => &[(2_000, 1), (i64::MAX, 5)],
        _ => &[
            (2_000, 1),
            (5_000, 5),
            (20_000, 10),
            (50_000, 50),
            (200_000, 100),
            (500_000, 500),
            (i64::MAX, 1_000),
        ],
    };
    let (_, tick) = steps
        .iter()
        .find(|(below, _)| price < Decimal::from(*below))
        .expect("the last step has no bound");
    Decimal::from(*tick)
}

fn squash(name: &str) -> String {
    name.split_whitespace().collect::<String>().to_uppercase()
}

// ---------------------------------------------------------------------------------------
// The curated list on its own.

#[test]
fn the_curated_file_has_the_documented_header_and_no_byte_order_mark() {
    assert!(!CURATED_CSV.starts_with('\u{feff}'));
    let header = CURATED_CSV.lines().next().unwrap();
    assert_eq!(header, CURATED_COLUMNS.join(","));
}

#[test]
fn the_curated_list_parses_into_at_least_150_instruments_with_unique_ids() {
    let parsed = parse_instruments_csv(CURATED_CSV.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parsed.format, ListingFormat::Curated);
    assert_eq!(parsed.skipped, 0);
    let instruments = catalog::curated();
    assert_eq!(instruments, parsed.instruments);
    assert!(instruments.len() >= 150, "only {}", instruments.len());
    let ids: HashSet<_> = instruments.iter().map(|i| &i.id).collect();
    assert_eq!(ids.len(), instruments.len());

    let mut counts: BTreeMap<(String, &str), usize> = BTreeMap::new();
    for i in &instruments {
        *counts
            .entry((i.id.exchange().to_string(), i.kind.as_str()))
            .or_default() += 1;
    }
    eprintln!("curated: {} instruments {counts:?}", instruments.len());
}

#[test]
fn every_curated_instrument_has_both_names_and_sensible_fields() {
    for i in catalog::curated() {
        assert!(!i.name_ko.is_empty() && !i.name_en.is_empty(), "{}", i.id);
        assert!((0..=1000).contains(&i.popularity), "{}", i.id);
        assert!(
            i.aliases
                .iter()
                .all(|a| !a.is_empty() && *a == a.to_lowercase()),
            "{}: aliases are lower-case",
            i.id
        );
        assert!(
            !i.aliases.iter().any(|a| *a == i.name_ko.to_lowercase()
                || *a == i.name_en.to_lowercase()
                || *a == i.ticker().to_lowercase()),
            "{}: an alias repeats a name or the ticker",
            i.id
        );
        match i.kind {
            Kind::Stock => {
                assert!(i.shares_outstanding.is_some_and(|n| n > 0), "{}", i.id);
                assert!(!i.sector.is_empty(), "{}", i.id);
            }
            Kind::Etf => {
                assert_eq!(i.sector, "ETF", "{}", i.id);
                assert_eq!(i.shares_outstanding, None, "{}", i.id);
            }
            Kind::Index | Kind::Currency | Kind::Crypto => {
                assert_eq!(i.sector, "", "{}", i.id);
                assert_eq!(i.shares_outstanding, None, "{}", i.id);
            }
        }
        const GICS: [&str; 12] = [
            "Information Technology",
            "Communication Services",
            "Consumer Discretionary",
            "Consumer Staples",
            "Energy",
            "Financials",
            "Health Care",
            "Industrials",
            "Materials",
            "Real Estate",
            "Utilities",
            "ETF",
        ];
        assert!(
            i.sector.is_empty() || GICS.contains(&i.sector.as_str()),
            "{}: sector {}",
            i.id,
            i.sector
        );
    }
}

#[test]
fn every_curated_krx_stock_and_etf_has_a_board_and_korean_won() {
    for i in catalog::curated() {
        if i.id.exchange() == Exchange::Krx {
            assert!(matches!(i.kind, Kind::Stock | Kind::Etf), "{}", i.id);
            assert!(i.board.is_some(), "{}", i.id);
            assert_eq!((i.currency.as_str(), i.country.as_str()), ("KRW", "KR"));
            if i.kind == Kind::Etf {
                assert_eq!(i.board, Some(Board::Kospi), "{}: ETFs list on KOSPI", i.id);
            }
        } else {
            assert_eq!(i.board, None, "{}", i.id);
        }
    }
}

#[test]
fn the_curated_list_has_the_indices_the_dollar_and_crypto() {
    let by_id: HashMap<String, Instrument> = catalog::curated()
        .into_iter()
        .map(|i| (i.id.to_string(), i))
        .collect();
    for (id, kind, currency, country) in [
        ("INDEX:KOSPI", Kind::Index, "KRW", "KR"),
        ("INDEX:KOSDAQ", Kind::Index, "KRW", "KR"),
        ("INDEX:KOSPI200", Kind::Index, "KRW", "KR"),
        ("INDEX:SPX", Kind::Index, "USD", "US"),
        ("INDEX:IXIC", Kind::Index, "USD", "US"),
        ("INDEX:DJI", Kind::Index, "USD", "US"),
        ("INDEX:NDX", Kind::Index, "USD", "US"),
        ("INDEX:SOX", Kind::Index, "USD", "US"),
        ("FX:USDKRW", Kind::Currency, "KRW", ""),
        ("CRYPTO:BTC", Kind::Crypto, "USD", ""),
        ("CRYPTO:ETH", Kind::Crypto, "USD", ""),
    ] {
        let i = by_id.get(id).unwrap_or_else(|| panic!("{id} is missing"));
        assert_eq!(i.kind, kind, "{id}");
        assert_eq!(
            (i.currency.as_str(), i.country.as_str()),
            (currency, country),
            "{id}"
        );
    }
    for id in [
        "KRX:005930",
        "KRX:000660",
        "NASDAQ:AAPL",
        "NASDAQ:NVDA",
        "NASDAQ:TSLA",
    ] {
        assert!(
            by_id[id].popularity >= 950,
            "{id} is among the most popular"
        );
    }
}

#[test]
fn curated_reference_prices_are_positive_and_krx_ones_are_on_the_tick_grid() {
    for i in catalog::curated() {
        let price = i
            .reference_price
            .unwrap_or_else(|| panic!("{} has no reference price", i.id));
        assert!(price > Decimal::ZERO, "{}", i.id);
        if i.id.exchange() == Exchange::Krx {
            let tick = krx_tick(i.kind, price);
            assert!(
                (price % tick).is_zero(),
                "{}: {price} is off the {tick}-won grid",
                i.id
            );
        } else {
            assert!(
                price.scale() <= 2,
                "{}: {price} has more than two decimals",
                i.id
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// The curated list against the real listings.

#[test]
fn every_curated_krx_code_is_in_the_krx_listing_with_the_same_name_and_board() {
    let Some(path) = shared("krx-listing-2026-03-20.csv") else {
        return;
    };
    let listing: HashMap<String, (String, Option<Board>)> = read_csv(&path)
        .into_iter()
        .map(|r| {
            (
                r["Code"].clone(),
                (r["Name"].clone(), Board::parse(&r["Market"])),
            )
        })
        .collect();
    let mut problems = Vec::new();
    let (mut checked, mut absent_etfs) = (0, 0);
    for i in curated_of(Kind::Stock, &[Exchange::Krx])
        .into_iter()
        .chain(curated_of(Kind::Etf, &[Exchange::Krx]))
    {
        let Some((name, board)) = listing.get(i.ticker()) else {
            if i.kind == Kind::Etf {
                absent_etfs += 1;
            } else {
                problems.push(format!("{} {} is not in the KRX listing", i.id, i.name_ko));
            }
            continue;
        };
        checked += 1;
        if squash(name) != squash(&i.name_ko) {
            problems.push(format!("{}: named {name} on KRX, {} here", i.id, i.name_ko));
        }
        if *board != i.board {
            problems.push(format!(
                "{} {}: board {board:?} on KRX, {:?} here",
                i.id, i.name_ko, i.board
            ));
        }
    }
    eprintln!(
        "KRX cross-check: {checked} checked, {absent_etfs} ETFs not in the stocks-only listing"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// US symbols as the SEC writes them (`BRK-B`) mapped to their exchange.
fn sec_exchanges(path: &Path) -> HashMap<String, String> {
    let json: serde_json::Value = serde_json::from_reader(File::open(path).unwrap()).unwrap();
    json["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|row| {
            Some((
                row[2].as_str()?.to_owned(),
                row[3].as_str().unwrap_or("").to_owned(),
            ))
        })
        .collect()
}

#[test]
fn every_curated_us_stock_is_listed_where_the_real_listings_say() {
    let (Some(sp), Some(nasdaq), Some(sec)) = (
        shared("sp500-constituents.csv"),
        shared("nasdaq-listed-symbols.csv"),
        shared("sec-company-tickers-exchange.json"),
    ) else {
        return;
    };
    let sp: HashMap<String, String> = read_csv(&sp)
        .into_iter()
        .map(|r| (r["Symbol"].clone(), r["GICS Sector"].clone()))
        .collect();
    let nasdaq: HashMap<String, bool> = read_csv(&nasdaq)
        .into_iter()
        .filter(|r| r["Test Issue"] != "Y")
        .map(|r| (r["Symbol"].clone(), r["ETF"] == "Y"))
        .collect();
    let sec = sec_exchanges(&sec);

    let mut problems = Vec::new();
    let mut sources: BTreeMap<&str, usize> = BTreeMap::new();
    for i in curated_of(Kind::Stock, &[Exchange::Nyse, Exchange::Nasdaq]) {
        let symbol = i.ticker();
        let on_nasdaq = nasdaq.contains_key(symbol);
        let sec_exchange = sec.get(&symbol.replace('.', "-")).map(String::as_str);
        let in_sp = sp.contains_key(symbol);
        if !in_sp && !on_nasdaq && sec_exchange.is_none() {
            problems.push(format!("{} is in none of the listings", i.id));
            continue;
        }
        *sources
            .entry(match (in_sp, on_nasdaq) {
                (true, _) => "S&P 500",
                (false, true) => "NASDAQ listing",
                (false, false) => "SEC tickers only",
            })
            .or_default() += 1;
        let expected = match (on_nasdaq, sec_exchange) {
            (true, _) | (false, Some("Nasdaq")) => Exchange::Nasdaq,
            (false, Some("NYSE")) => Exchange::Nyse,
            // In the S&P 500 but neither on NASDAQ nor known to the SEC: NYSE.
            _ => Exchange::Nyse,
        };
        if i.id.exchange() != expected {
            problems.push(format!(
                "{} should be on {expected} (NASDAQ listing: {on_nasdaq}, SEC: {sec_exchange:?})",
                i.id
            ));
        }
        if let Some(sector) = sp.get(symbol) {
            if *sector != i.sector {
                problems.push(format!("{}: GICS sector {sector}, {} here", i.id, i.sector));
            }
        }
    }
    eprintln!("US stock cross-check: found in {sources:?}");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn curated_us_etfs_on_nasdaq_are_nasdaq_etfs_and_the_others_are_not_on_nasdaq() {
    let Some(nasdaq) = shared("nasdaq-listed-symbols.csv") else {
        return;
    };
    let nasdaq: HashMap<String, bool> = read_csv(&nasdaq)
        .into_iter()
        .map(|r| (r["Symbol"].clone(), r["ETF"] == "Y"))
        .collect();
    let mut problems = Vec::new();
    for i in curated_of(Kind::Etf, &[Exchange::Nyse, Exchange::Nasdaq]) {
        match (i.id.exchange(), nasdaq.get(i.ticker())) {
            (Exchange::Nasdaq, Some(true)) | (Exchange::Nyse, None) => {}
            (exchange, found) => problems.push(format!(
                "{} on {exchange}: the NASDAQ listing says {found:?} (Some(is ETF))",
                i.id
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------
// Importing the real listings.

#[test]
fn the_real_krx_listing_imports_every_kospi_and_kosdaq_row_and_skips_konex() {
    let Some(path) = shared("krx-listing-2026-03-20.csv") else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    assert!(
        bytes.starts_with(b"\xef\xbb\xbf"),
        "the real file has a BOM"
    );
    let parsed = parse_instruments_csv(bytes.as_slice()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parsed.format, ListingFormat::KrxListing);
    let rows = read_csv(&path);
    let konex = rows.iter().filter(|r| r["Market"] == "KONEX").count();
    assert_eq!(parsed.skipped, konex);
    assert_eq!(parsed.instruments.len() + parsed.skipped, rows.len());
    eprintln!(
        "KRX listing: {} rows, {} imported, {} KONEX skipped",
        rows.len(),
        parsed.instruments.len(),
        parsed.skipped
    );
    let samsung = parsed
        .instruments
        .iter()
        .find(|i| i.id.to_string() == "KRX:005930")
        .unwrap();
    assert_eq!(samsung.name_ko, "삼성전자");
    assert_eq!(samsung.board, Some(Board::Kospi));
    assert!(samsung.shares_outstanding.is_some() && samsung.reference_price.is_some());
    assert!(parsed
        .instruments
        .iter()
        .all(|i| i.kind == Kind::Stock && i.name_en.is_empty() && i.board.is_some()));
}

#[test]
fn the_real_sp500_file_imports_every_row_and_the_built_in_nasdaq_list_agrees_with_nasdaq() {
    let (Some(sp), Some(nasdaq)) = (
        shared("sp500-constituents.csv"),
        shared("nasdaq-listed-symbols.csv"),
    ) else {
        return;
    };
    let parsed = parse_instruments_csv(File::open(&sp).unwrap()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parsed.format, ListingFormat::Sp500Constituents);
    let rows = read_csv(&sp);
    assert_eq!(parsed.instruments.len(), rows.len());
    assert!(parsed
        .instruments
        .iter()
        .any(|i| i.id.to_string() == "NYSE:BRK.B"));

    let nasdaq_symbols: HashSet<String> = read_csv(&nasdaq)
        .into_iter()
        .map(|r| r["Symbol"].clone())
        .collect();
    let mut disagreements = Vec::new();
    for i in &parsed.instruments {
        let really = nasdaq_symbols.contains(i.ticker());
        if really != is_known_nasdaq_listed(i.ticker()) {
            disagreements.push(format!("{} (on the NASDAQ listing: {really})", i.id));
        }
    }
    let on_nasdaq = parsed
        .instruments
        .iter()
        .filter(|i| i.id.exchange() == Exchange::Nasdaq)
        .count();
    eprintln!(
        "S&P 500: {} rows, {on_nasdaq} put on NASDAQ, {} on NYSE",
        rows.len(),
        rows.len() - on_nasdaq
    );
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));

    let looked_up = parse_instruments_csv_with(
        File::open(&sp).unwrap(),
        &ImportOptions {
            us_exchange: UsExchange::NasdaqSymbols(nasdaq_symbols),
        },
    )
    .unwrap();
    assert_eq!(looked_up.instruments, parsed.instruments);
}

// ---------------------------------------------------------------------------------------
// Our own fixtures: these always run.

fn ids(parsed: &ParsedListing) -> Vec<String> {
    parsed
        .instruments
        .iter()
        .map(|i| i.id.to_string())
        .collect()
}

#[test]
fn a_curated_file_with_columns_in_another_order_fills_in_the_defaults() {
    let parsed = parse_instruments_csv(fixture("curated-good.csv")).unwrap();
    assert_eq!(
        ids(&parsed),
        [
            "KRX:005930",
            "KRX:069500",
            "NASDAQ:AAPL",
            "INDEX:KOSPI",
            "FX:USDKRW"
        ]
    );
    let [samsung, kodex, apple, kospi, usdkrw] = parsed.instruments.as_slice() else {
        unreachable!()
    };
    assert_eq!(samsung.kind, Kind::Stock);
    assert_eq!(samsung.aliases, ["삼전", "samsung"]);
    assert_eq!((kodex.kind, kodex.board), (Kind::Etf, Some(Board::Kospi)));
    assert_eq!(apple.reference_price, Some(Decimal::new(210, 0)));
    assert_eq!(apple.currency, "USD");
    assert_eq!((kospi.kind, kospi.currency.as_str()), (Kind::Index, "KRW"));
    assert_eq!(usdkrw.reference_price, Some(Decimal::new(138550, 2)));
    assert_eq!(usdkrw.country, "");
}

#[test]
fn a_curated_file_with_bad_rows_fails_whole_naming_each_row_and_reason() {
    let errors = parse_instruments_csv(fixture("curated-bad.csv")).unwrap_err();
    let found: Vec<(usize, &str)> = errors
        .errors
        .iter()
        .map(|e| (e.row, e.message.as_str()))
        .collect();
    assert_eq!(errors.total, 4, "{errors}");
    let expect = [
        (3, "a KRX code is 6"),
        (4, "unknown kind `fund`"),
        (5, "reference_price must be positive"),
        (6, "duplicate id KRX:005930: also on row 2"),
    ];
    for ((row, message), (want_row, want)) in found.iter().zip(expect) {
        assert_eq!(*row, want_row, "{errors}");
        assert!(message.contains(want), "row {row}: {message}");
    }
    let shown = errors.to_string();
    assert!(shown.starts_with("4 problems:\n  row 3: "), "{shown}");
}

#[test]
fn a_krx_listing_with_a_byte_order_mark_is_recognised_and_konex_is_skipped() {
    let parsed = parse_instruments_csv(fixture("krx-bom.csv")).unwrap();
    assert_eq!(parsed.format, ListingFormat::KrxListing);
    assert_eq!(parsed.skipped, 1);
    assert_eq!(ids(&parsed), ["KRX:005930", "KRX:247540", "KRX:0126Z0"]);
    let ecopro = &parsed.instruments[1];
    assert_eq!(ecopro.name_ko, "에코프로비엠");
    assert_eq!(ecopro.name_en, "", "the listing has no English name");
    assert_eq!(ecopro.board, Some(Board::Kosdaq));
    assert_eq!(ecopro.shares_outstanding, Some(97_801_344));
    assert_eq!(ecopro.reference_price, Some(Decimal::from(120_000)));
    assert_eq!(
        parsed.instruments[2].board,
        Some(Board::Kosdaq),
        "KOSDAQ GLOBAL"
    );
}

#[test]
fn an_sp500_file_puts_known_nasdaq_symbols_on_nasdaq_and_the_rest_on_nyse() {
    let parsed = parse_instruments_csv(fixture("sp500-small.csv")).unwrap();
    assert_eq!(parsed.format, ListingFormat::Sp500Constituents);
    assert_eq!(ids(&parsed), ["NASDAQ:AAPL", "NYSE:BRK.B", "NYSE:KO"]);
    assert_eq!(parsed.instruments[2].sector, "Consumer Staples");
    assert_eq!(
        parsed.instruments[2].name_ko, "",
        "the file has no Korean name"
    );
    let all_nyse = parse_instruments_csv_with(
        fixture("sp500-small.csv"),
        &ImportOptions {
            us_exchange: UsExchange::Always(Exchange::Nyse),
        },
    )
    .unwrap();
    assert_eq!(ids(&all_nyse), ["NYSE:AAPL", "NYSE:BRK.B", "NYSE:KO"]);
}

#[test]
fn an_empty_file_is_refused_with_a_clear_message() {
    let errors = parse_instruments_csv(fixture("empty.csv")).unwrap_err();
    assert_eq!(errors.first().row, 1);
    assert!(
        errors.first().message.contains("the file is empty"),
        "{errors}"
    );
}

#[test]
fn an_unknown_header_is_refused_naming_the_formats_it_could_have_been() {
    let errors = parse_instruments_csv(fixture("unknown-header.csv")).unwrap_err();
    let message = &errors.first().message;
    assert_eq!(errors.first().row, 1);
    for part in [
        "unrecognised header",
        "ticker,company,price",
        "Code,ISU_CD",
        "Symbol,Security",
    ] {
        assert!(message.contains(part), "{part} missing from {message}");
    }
}

#[test]
fn importing_a_krx_listing_over_the_curated_list_keeps_the_english_names() {
    let curated: HashMap<_, _> = catalog::curated()
        .into_iter()
        .map(|i| (i.id.clone(), i))
        .collect();
    let parsed = parse_instruments_csv(fixture("krx-bom.csv")).unwrap();
    let merged: Vec<Instrument> = parsed
        .instruments
        .into_iter()
        .map(|i| catalog::merge(curated.get(&i.id), i))
        .collect();
    assert_eq!(merged[0].name_en, "Samsung Electronics");
    assert_eq!(merged[0].aliases, curated[&merged[0].id].aliases);
    assert_eq!(merged[1].name_en, "EcoPro BM");
    assert_eq!(
        merged[2].name_en, "신규상장예시",
        "a new stock has only its Korean name"
    );
}
