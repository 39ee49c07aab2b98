//! Daily price history from CSV files: the parser behind `moat import prices FILE`
//! (see `docs/market.md`). Pure: it reads bytes and returns candles or the reasons a
//! file is refused; the command writes them (`upsert_daily_candles`, source `csv`).
//!
//! # The format
//!
//! UTF-8 CSV with a header row (a byte-order mark is ignored). Header names are matched
//! ignoring case and surrounding spaces, and columns may come in any order. Three
//! shapes are recognised:
//!
//! - **Many instruments** — `id,date,open,high,low,close,volume`, one row per
//!   instrument and day:
//!
//!   ```text
//!   id,date,open,high,low,close,volume
//!   KRX:005930,2024-01-02,78200,79800,78200,79600,17142847
//!   NASDAQ:AAPL,2024-01-02,187.15,188.44,183.89,185.64,82488700
//!   ```
//!
//! - **One instrument** — `date,open,high,low,close,volume`, the instrument given
//!   apart ([`PriceImportOptions::id`], `--id KRX:005930` on the command line).
//! - **A Yahoo Finance export** — `Date,Open,High,Low,Close,Adj Close,Volume`, also of
//!   one instrument given apart. `Close` is used; `Adj Close` (adjusted for dividends
//!   as well as splits) is ignored, like the Yahoo provider does. Yahoo's placeholder
//!   rows, whose open, high, low and close are all `null`, are skipped and counted in
//!   [`ParsedPrices::skipped`].
//!
//! An `Adj Close` column is accepted (and ignored) in every shape; any other column
//! fails the file, so that a misspelt column is never silently dropped. A file with an
//! `id` column must not also be given an id apart, and a file without one needs it.
//!
//! # Values and checks
//!
//! Every row is checked before anything is returned, and one bad row fails the whole
//! file. Each problem names its row (the header is row 1, the first data row row 2;
//! blank lines are not rows) and its reason; the first
//! [`MAX_REPORTED_ERRORS`](crate::catalog::MAX_REPORTED_ERRORS) are kept, all are
//! counted ([`ImportErrors`]).
//!
//! - `id`: an instrument id (`KRX:005930`) that is known (in the database, or the
//!   curated list) — prices of an unknown instrument are refused, import the
//!   instrument first.
//! - `date`: `YYYY-MM-DD`, a real date, not after
//!   [`PriceImportOptions::latest_date`] when that is set (a future date would stop
//!   the server's history catch-up for that instrument).
//! - `open`, `high`, `low`, `close`: plain decimals (`71200`, `189.43`; no thousands
//!   separators, no exponent), parsed exactly as [`Decimal`]s, never through floating
//!   point. `low` > 0, `high` ≥ the open and the close, `low` ≤ the open and the close.
//! - `volume`: a whole number ≥ 0.
//! - No instrument may have two rows for one date.
//!
//! # Rounding
//!
//! Prices are then put on the instrument's price grid the way the providers put theirs
//! ([`providers::round_price`](crate::providers::round_price), that is
//! [`ticks::round_dp`](crate::ticks::round_dp)): KRX prices in whole won, US prices in
//! cents (4 decimals below $1), indices in 2 decimals, FX rates in 6 significant
//! digits. Exports often carry more (Yahoo writes `185.639999`, a float); how many
//! prices changed is counted in [`ParsedPrices::rounded`]. Prices are not moved onto
//! the tick, since split-adjusted history need not lie on it.

use std::collections::HashMap;
use std::fmt;
use std::io::Read;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::catalog::{
    describe_csv_error, next_record, ErrorLog, ImportError, ImportErrors, NextRecord,
};
use crate::providers::round_price;
use crate::ticks::PriceGrid;
use crate::{DailyCandle, InstrumentId};

/// The columns of the many-instrument format, in their usual order.
pub const PRICE_COLUMNS: [&str; 7] = ["id", "date", "open", "high", "low", "close", "volume"];

/// How often, in rows, [`parse_prices_csv_with_progress`] reports progress.
pub const PROGRESS_EVERY_ROWS: usize = 1_000;

/// The column every shape accepts and ignores (Yahoo's `Adj Close`).
const IGNORED_COLUMN: &str = "adj close";

/// The shapes [`parse_prices_csv`] recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PriceFormat {
    /// `id,date,open,high,low,close,volume`.
    ManyInstruments,
    /// `date,open,high,low,close,volume`, the instrument given apart.
    OneInstrument,
    /// `Date,Open,High,Low,Close,Adj Close,Volume`, the instrument given apart.
    YahooExport,
}

impl PriceFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            PriceFormat::ManyInstruments => "daily prices of many instruments",
            PriceFormat::OneInstrument => "daily prices of one instrument",
            PriceFormat::YahooExport => "Yahoo Finance export",
        }
    }
}

impl fmt::Display for PriceFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Choices for [`parse_prices_csv`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PriceImportOptions {
    /// The instrument of a file without an `id` column (`--id`).
    pub id: Option<InstrumentId>,
    /// Dates after this one are refused (the command passes tomorrow, UTC, so that a
    /// Korean date already begun is accepted).
    pub latest_date: Option<NaiveDate>,
}

/// The daily candles of one instrument, oldest first.
#[derive(Debug, Clone, PartialEq)]
pub struct InstrumentPrices {
    pub id: InstrumentId,
    pub candles: Vec<DailyCandle>,
}

/// A file that parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedPrices {
    pub format: PriceFormat,
    /// One entry per instrument, in the order each first appears in the file.
    pub series: Vec<InstrumentPrices>,
    /// Data rows read, skipped ones included.
    pub rows: usize,
    /// Rows left out: Yahoo's all-`null` placeholders.
    pub skipped: usize,
    /// Prices that had more decimals than their grid and were rounded.
    pub rounded: usize,
}

impl ParsedPrices {
    /// How many candles there are in all.
    pub fn candle_count(&self) -> usize {
        self.series.iter().map(|s| s.candles.len()).sum()
    }
}

/// How far [`parse_prices_csv_with_progress`] has read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Data rows read so far.
    pub rows: usize,
    /// Bytes of the file read so far.
    pub bytes: u64,
}

/// Reads a CSV of daily prices (see the module documentation). `grid_of` says whether
/// an instrument is known, and its price grid: `None` refuses its rows.
pub fn parse_prices_csv<R, G>(
    reader: R,
    options: &PriceImportOptions,
    grid_of: G,
) -> Result<ParsedPrices, ImportErrors>
where
    R: Read,
    G: Fn(&InstrumentId) -> Option<PriceGrid>,
{
    parse_prices_csv_with_progress(reader, options, grid_of, |_| {})
}

/// [`parse_prices_csv`], calling `progress` every [`PROGRESS_EVERY_ROWS`] rows.
pub fn parse_prices_csv_with_progress<R, G, P>(
    reader: R,
    options: &PriceImportOptions,
    grid_of: G,
    mut progress: P,
) -> Result<ParsedPrices, ImportErrors>
where
    R: Read,
    G: Fn(&InstrumentId) -> Option<PriceGrid>,
    P: FnMut(Progress),
{
    let mut csv = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(reader);
    let header: Vec<String> = match csv.headers() {
        Ok(record) => record
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let name = if i == 0 {
                    name.trim_start_matches('\u{feff}')
                } else {
                    name
                };
                name.trim().to_ascii_lowercase()
            })
            .collect(),
        Err(e) => return Err(one_error(1, describe_csv_error(&e))),
    };
    if header.iter().all(|name| name.is_empty()) {
        return Err(one_error(
            1,
            "the file is empty: expected a header row such as \
             id,date,open,high,low,close,volume",
        ));
    }
    let columns = Columns::new(&header, options)?;
    let fixed = match (&columns.id, &options.id) {
        (Some(_), _) => None,
        (None, Some(id)) => match grid_of(id) {
            Some(grid) => Some((id.clone(), grid)),
            None => return Err(one_error(1, unknown_instrument(id))),
        },
        (None, None) => unreachable!("Columns::new refuses a file without ids"),
    };

    let mut series: Vec<InstrumentPrices> = Vec::new();
    let mut series_of: HashMap<InstrumentId, usize> = HashMap::new();
    let mut first_row_of: HashMap<(InstrumentId, NaiveDate), usize> = HashMap::new();
    let mut log = ErrorLog::default();
    let (mut data_rows, mut skipped, mut rounded) = (0usize, 0usize, 0usize);
    let mut next_progress = PROGRESS_EVERY_ROWS;
    let mut record = csv::StringRecord::new();
    loop {
        if data_rows == next_progress {
            next_progress += PROGRESS_EVERY_ROWS;
            progress(Progress {
                rows: data_rows,
                bytes: csv.position().byte(),
            });
        }
        let row = match next_record(
            &mut csv,
            &mut record,
            header.len(),
            &mut data_rows,
            &mut log,
        ) {
            NextRecord::Done => break,
            NextRecord::Skip => continue,
            NextRecord::Row(row) => row,
        };
        let read = match &fixed {
            Some((id, grid)) => columns.read(&record, Ok((id.clone(), *grid)), options),
            None => {
                let raw = columns.id.map_or("", |i| &record[i]);
                let id = parse_id(raw).and_then(|id| match grid_of(&id) {
                    Some(grid) => Ok((id, grid)),
                    None => Err(unknown_instrument(&id)),
                });
                columns.read(&record, id, options)
            }
        };
        let (id, candle, changed) = match read {
            Ok(Row::Skipped) => {
                skipped += 1;
                continue;
            }
            Ok(Row::Candle {
                id,
                candle,
                rounded,
            }) => (id, candle, rounded),
            Err(problems) => {
                log.report(row, problems.join("; "));
                continue;
            }
        };
        match first_row_of.get(&(id.clone(), candle.date)) {
            Some(first) => {
                log.report(
                    row,
                    format!(
                        "duplicate date {} for {id}: also on row {first}",
                        candle.date
                    ),
                );
                continue;
            }
            None => {
                first_row_of.insert((id.clone(), candle.date), row);
            }
        }
        rounded += changed;
        let index = *series_of.entry(id.clone()).or_insert_with(|| {
            series.push(InstrumentPrices {
                id,
                candles: Vec::new(),
            });
            series.len() - 1
        });
        series[index].candles.push(candle);
    }
    log.into_result()?;
    if data_rows == 0 {
        return Err(one_error(1, "the file has a header but no rows"));
    }
    for s in &mut series {
        s.candles.sort_by_key(|c| c.date);
    }
    Ok(ParsedPrices {
        format: columns.format,
        series,
        rows: data_rows,
        skipped,
        rounded,
    })
}

fn one_error(row: usize, message: impl Into<String>) -> ImportErrors {
    ImportErrors {
        errors: vec![ImportError {
            row,
            message: message.into(),
        }],
        total: 1,
    }
}

fn unknown_instrument(id: &InstrumentId) -> String {
    format!("unknown instrument {id} (import it first with `moat import instruments`)")
}

/// What one data row holds.
enum Row {
    Candle {
        id: InstrumentId,
        candle: DailyCandle,
        /// How many of its four prices were rounded.
        rounded: usize,
    },
    /// A Yahoo placeholder (`null` prices).
    Skipped,
}

struct Columns {
    format: PriceFormat,
    id: Option<usize>,
    date: usize,
    open: usize,
    high: usize,
    low: usize,
    close: usize,
    volume: usize,
}

impl Columns {
    fn new(header: &[String], options: &PriceImportOptions) -> Result<Self, ImportErrors> {
        let mut seen: Vec<&str> = Vec::new();
        for name in header {
            if !PRICE_COLUMNS.contains(&name.as_str()) && name != IGNORED_COLUMN {
                return Err(one_error(
                    1,
                    format!(
                        "unknown column `{name}` (expected {}; `Adj Close` is accepted and \
                         ignored)",
                        PRICE_COLUMNS.join(",")
                    ),
                ));
            }
            if seen.contains(&name.as_str()) {
                return Err(one_error(1, format!("the column `{name}` appears twice")));
            }
            seen.push(name);
        }
        let col = |name: &str| header.iter().position(|h| h == name);
        let id = col("id");
        match (id, &options.id) {
            (Some(_), Some(given)) => {
                return Err(one_error(
                    1,
                    format!(
                        "the file has an id column, so it cannot also be given an instrument \
                         ({given}): leave out --id"
                    ),
                ))
            }
            (None, None) => {
                return Err(one_error(
                    1,
                    "the file has no id column: give its instrument apart \
                     (--id KRX:005930), or add an id column",
                ))
            }
            _ => {}
        }
        let missing: Vec<&str> = PRICE_COLUMNS[1..]
            .iter()
            .copied()
            .filter(|name| col(name).is_none())
            .collect();
        if !missing.is_empty() {
            return Err(one_error(
                1,
                format!(
                    "missing column{} {} (the header is {})",
                    if missing.len() == 1 { "" } else { "s" },
                    missing
                        .iter()
                        .map(|m| format!("`{m}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if id.is_some() {
                        PRICE_COLUMNS.join(",")
                    } else {
                        PRICE_COLUMNS[1..].join(",")
                    }
                ),
            ));
        }
        let format = if id.is_some() {
            PriceFormat::ManyInstruments
        } else if col(IGNORED_COLUMN).is_some() {
            PriceFormat::YahooExport
        } else {
            PriceFormat::OneInstrument
        };
        let req = |name: &str| col(name).unwrap_or_default();
        Ok(Self {
            format,
            id,
            date: req("date"),
            open: req("open"),
            high: req("high"),
            low: req("low"),
            close: req("close"),
            volume: req("volume"),
        })
    }

    /// One row, with its instrument already looked up (or the reason it could not be).
    fn read(
        &self,
        r: &csv::StringRecord,
        id: Result<(InstrumentId, PriceGrid), String>,
        options: &PriceImportOptions,
    ) -> Result<Row, Vec<String>> {
        let raw = |i: usize| r.get(i).unwrap_or("");
        let prices = [self.open, self.high, self.low, self.close].map(raw);
        if prices.iter().all(|p| p.eq_ignore_ascii_case("null")) {
            return Ok(Row::Skipped);
        }
        let mut problems = Vec::new();
        let id = id.map_err(|p| problems.push(p)).ok();
        let date = parse_date(raw(self.date), options.latest_date)
            .map_err(|p| problems.push(p))
            .ok();
        let [open, high, low, close] = [
            ("open", prices[0]),
            ("high", prices[1]),
            ("low", prices[2]),
            ("close", prices[3]),
        ]
        .map(|(column, raw)| parse_price(raw, column).map_err(|p| problems.push(p)).ok());
        let volume = parse_volume(raw(self.volume))
            .map_err(|p| problems.push(p))
            .ok();
        if let (Some(open), Some(high), Some(low), Some(close)) = (open, high, low, close) {
            if low <= Decimal::ZERO {
                problems.push(format!("low must be positive, not {low}"));
            }
            for (what, price) in [("open", open), ("close", close)] {
                if high < price {
                    problems.push(format!("high {high} is below the {what} {price}"));
                }
                if low > price {
                    problems.push(format!("low {low} is above the {what} {price}"));
                }
            }
        }
        let (
            Some((id, grid)),
            Some(date),
            Some(open),
            Some(high),
            Some(low),
            Some(close),
            Some(volume),
        ) = (id, date, open, high, low, close, volume)
        else {
            return Err(problems);
        };
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut rounded = 0;
        let mut on_grid = |price: Decimal| {
            let out = round_price(grid, price);
            if out != price {
                rounded += 1;
            }
            out
        };
        let candle = DailyCandle {
            date,
            open: on_grid(open),
            high: on_grid(high),
            low: on_grid(low),
            close: on_grid(close),
            volume,
        };
        if candle.low <= Decimal::ZERO {
            return Err(vec![format!(
                "low {low} rounds to {} on the price grid of {id}",
                candle.low
            )]);
        }
        Ok(Row::Candle {
            id,
            candle,
            rounded,
        })
    }
}

fn parse_id(raw: &str) -> Result<InstrumentId, String> {
    if raw.is_empty() {
        return Err("id is empty".into());
    }
    raw.parse().map_err(|e| format!("id `{raw}`: {e}"))
}

fn parse_date(raw: &str, latest: Option<NaiveDate>) -> Result<NaiveDate, String> {
    if raw.is_empty() {
        return Err("date is empty".into());
    }
    let b = raw.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shaped {
        return Err(format!("date `{raw}` is not YYYY-MM-DD"));
    }
    let number = |range: std::ops::Range<usize>| raw[range].parse::<u32>().unwrap_or_default();
    let date = NaiveDate::from_ymd_opt(number(0..4) as i32, number(5..7), number(8..10))
        .ok_or_else(|| format!("date {raw} does not exist"))?;
    match latest {
        Some(latest) if date > latest => Err(format!("date {raw} is in the future")),
        _ => Ok(date),
    }
}

fn parse_price(raw: &str, column: &str) -> Result<Decimal, String> {
    if raw.is_empty() {
        return Err(format!("{column} is empty"));
    }
    if raw.eq_ignore_ascii_case("null") {
        return Err(format!("{column} is null"));
    }
    let plain = raw
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+');
    plain
        .then(|| Decimal::from_str_exact(raw).ok())
        .flatten()
        .ok_or_else(|| format!("{column} `{raw}` is not a decimal number (like 71200 or 189.43)"))
}

fn parse_volume(raw: &str) -> Result<i64, String> {
    if raw.is_empty() {
        return Err("volume is empty".into());
    }
    let digits = raw.strip_prefix('+').unwrap_or(raw);
    if let Some(negative) = raw.strip_prefix('-') {
        if !negative.is_empty() && negative.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("volume must not be negative, not {raw}"));
        }
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("volume `{raw}` is not a whole number"));
    }
    digits
        .parse::<i64>()
        .map_err(|_| format!("volume {raw} is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> InstrumentId {
        s.parse().unwrap()
    }

    fn grid_of(i: &InstrumentId) -> Option<PriceGrid> {
        match i.to_string().as_str() {
            "KRX:005930" => Some(PriceGrid::KrxStock),
            "NASDAQ:AAPL" => Some(PriceGrid::UsEquity),
            "FX:USDKRW" => Some(PriceGrid::Fx),
            _ => None,
        }
    }

    #[test]
    fn dates_must_be_iso_and_real() {
        assert_eq!(
            parse_date("2024-02-29", None),
            Ok(NaiveDate::from_ymd_opt(2024, 2, 29).unwrap())
        );
        for bad in [
            "2024-2-29",
            "29/02/2024",
            "2024/02/29",
            "20240229",
            "２024-02-29",
        ] {
            assert!(
                parse_date(bad, None)
                    .unwrap_err()
                    .contains("not YYYY-MM-DD"),
                "{bad}"
            );
        }
        assert!(parse_date("2023-02-29", None)
            .unwrap_err()
            .contains("does not exist"));
        let latest = NaiveDate::from_ymd_opt(2024, 1, 1);
        assert!(parse_date("2024-01-02", latest)
            .unwrap_err()
            .contains("in the future"));
        assert!(parse_date("2024-01-01", latest).is_ok());
    }

    #[test]
    fn prices_are_plain_exact_decimals() {
        assert_eq!(parse_price("189.43", "open").unwrap().to_string(), "189.43");
        assert_eq!(parse_price("71200", "open").unwrap().to_string(), "71200");
        for bad in ["1e3", "71,200", "abc", "$5", "1.2.3"] {
            assert!(
                parse_price(bad, "open")
                    .unwrap_err()
                    .contains("not a decimal"),
                "{bad}"
            );
        }
        assert!(parse_price("0.12345678901234567890123456789", "open").is_err());
        assert_eq!(parse_price("", "high").unwrap_err(), "high is empty");
        assert_eq!(parse_price("null", "low").unwrap_err(), "low is null");
    }

    #[test]
    fn volumes_are_whole_and_not_negative() {
        assert_eq!(parse_volume("17142847"), Ok(17_142_847));
        assert_eq!(parse_volume("0"), Ok(0));
        assert!(parse_volume("-5").unwrap_err().contains("negative"));
        assert!(parse_volume("1.5").unwrap_err().contains("whole number"));
        assert!(parse_volume("1,000").unwrap_err().contains("whole number"));
        assert!(parse_volume("99999999999999999999")
            .unwrap_err()
            .contains("too large"));
        assert_eq!(parse_volume("").unwrap_err(), "volume is empty");
    }

    #[test]
    fn rows_are_grouped_per_instrument_and_sorted_by_date() {
        let text = "id,date,open,high,low,close,volume\n\
                    KRX:005930,2024-01-03,78500,78800,77000,77000,21753644\n\
                    NASDAQ:AAPL,2024-01-02,187.15,188.44,183.885,185.64,82488700\n\
                    KRX:005930,2024-01-02,78200,79800,78200,79600,17142847\n";
        let parsed =
            parse_prices_csv(text.as_bytes(), &PriceImportOptions::default(), grid_of).unwrap();
        assert_eq!(parsed.format, PriceFormat::ManyInstruments);
        assert_eq!(parsed.series.len(), 2);
        assert_eq!(parsed.series[0].id, id("KRX:005930"));
        let dates: Vec<String> = parsed.series[0]
            .candles
            .iter()
            .map(|c| c.date.to_string())
            .collect();
        assert_eq!(dates, ["2024-01-02", "2024-01-03"]);
        let aapl = &parsed.series[1].candles[0];
        assert_eq!(aapl.low.to_string(), "183.89", "rounded to cents");
        assert_eq!(aapl.open.to_string(), "187.15");
        assert_eq!(parsed.rounded, 1);
        assert_eq!(parsed.candle_count(), 3);
    }

    #[test]
    fn progress_is_reported_every_thousand_rows() {
        let mut text = String::from("date,open,high,low,close,volume\n");
        let mut day = NaiveDate::from_ymd_opt(2000, 1, 1).unwrap();
        for _ in 0..2_500 {
            text.push_str(&format!("{day},100,110,90,105,1000\n"));
            day = day.succ_opt().unwrap();
        }
        let options = PriceImportOptions {
            id: Some(id("KRX:005930")),
            latest_date: None,
        };
        let mut seen = Vec::new();
        let parsed =
            parse_prices_csv_with_progress(text.as_bytes(), &options, grid_of, |p| seen.push(p))
                .unwrap();
        assert_eq!(parsed.rows, 2_500);
        assert_eq!(
            seen.iter().map(|p| p.rows).collect::<Vec<_>>(),
            [1_000, 2_000]
        );
        assert!(seen[0].bytes > 0 && seen[0].bytes < seen[1].bytes);
    }
}
