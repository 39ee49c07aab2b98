//! The curated instrument list and the importer of instrument listings
//! (`moat import instruments FILE`, see `docs/market.md`).
//!
//! [`curated`] is `data/instruments.csv`, compiled into the binary. [`parse_instruments_csv`]
//! reads one CSV file, recognises its format from the header and checks every row before
//! anything is returned: one bad row fails the whole file, and the first
//! [`MAX_REPORTED_ERRORS`] problems are reported together, each with its row number
//! (the header is row 1, the first data row is row 2; blank lines are not rows, so in a
//! file without them or line breaks inside quoted fields the row is the line number).
//! Three formats are recognised (header names are matched ignoring case and
//! surrounding spaces, columns may come in any order, and a UTF-8 byte-order mark is
//! ignored):
//!
//! - **Curated** (`id,kind,board,currency,country,name_ko,name_en,sector,
//!   shares_outstanding,reference_price,popularity,aliases`): `id` is required, the other
//!   columns may be missing or empty. `kind` defaults from the exchange (`stock` on KRX,
//!   NYSE and NASDAQ, `index` on INDEX, `currency` on FX, `crypto` on CRYPTO);
//!   `currency` and `country` default from the exchange (KRX → KRW/KR, NYSE and NASDAQ →
//!   USD/US, FX → the quote currency of the pair and no country, CRYPTO → USD and no
//!   country, INDEX → from each other: KRW ↔ KR, USD ↔ US). `board` is required for KRX
//!   stocks; KRX ETFs default to KOSPI, where every Korean ETF is listed. Values that
//!   contradict the exchange (a KRX stock in USD, a board on NYSE, an index on NASDAQ)
//!   are errors. At least one of `name_ko` and `name_en` is required (a missing one stays
//!   empty, see below). `reference_price` is a positive decimal (a whole number of won
//!   for KRX stocks and ETFs), `popularity` 0–1000 (default 0). `aliases` is
//!   `|`-separated (Latin letters are lower-cased, duplicates dropped). An unknown column
//!   fails the file, so a misspelt column is never silently ignored.
//! - **KRX listing** (`Code,ISU_CD,Name,Market,Dept,Close,…,Stocks,MarketId`, as
//!   exported from KRX data, often with a BOM and a leading unnamed index column): KOSPI
//!   and KOSDAQ (including `KOSDAQ GLOBAL`) rows become stocks with `name_ko` from `Name`,
//!   `shares_outstanding` from `Stocks` and `reference_price` from `Close` (a `0` close,
//!   a stock that has not traded, gives no price). KONEX rows are skipped and counted in
//!   [`ParsedListing::skipped`]. Files saved as EUC-KR must be converted to UTF-8 first.
//! - **S&P 500 constituents** (`Symbol,Security,GICS Sector,GICS Sub-Industry,…`):
//!   stocks with `name_en` from `Security` and `sector` from `GICS Sector`. The file does
//!   not say where a symbol is listed: by default a symbol in a built-in list of
//!   NASDAQ-listed S&P 500 members is put on NASDAQ and every other one on NYSE (where
//!   most of the rest are listed); [`ImportOptions::us_exchange`] can put them all on one
//!   exchange or look them up in a set of NASDAQ symbols (such as NASDAQ's own
//!   `nasdaqlisted.txt`). `BRK.B` becomes `NYSE:BRK.B`.
//!
//! The listing formats carry only one of the two names (the KRX listing has no English
//! name, the S&P file no Korean one), no aliases and no popularity: the missing name is
//! left **empty** rather than copied from the other, so that updating an instrument from a
//! listing never overwrites a real English or Korean name. [`merge`] applies an imported
//! row to the instrument already stored (empty or absent values keep what is there) and,
//! for an instrument seen for the first time, fills an empty name from the other one:
//! only then, when nothing else is known, does a Korean stock's English name read like
//! its Korean one.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io::Read;
use std::str::FromStr;

use rust_decimal::Decimal;

use crate::instrument::{Board, Exchange, Instrument, InstrumentId, Kind};

/// The curated list, as shipped (`data/instruments.csv`).
pub const CURATED_CSV: &str = include_str!("../data/instruments.csv");

/// The columns of the curated format, in the order the shipped file uses.
pub const CURATED_COLUMNS: [&str; 12] = [
    "id",
    "kind",
    "board",
    "currency",
    "country",
    "name_ko",
    "name_en",
    "sector",
    "shares_outstanding",
    "reference_price",
    "popularity",
    "aliases",
];

/// How many row errors an import reports at most (it still counts the rest).
pub const MAX_REPORTED_ERRORS: usize = 20;

/// Highest `popularity`.
pub const MAX_POPULARITY: i32 = 1000;

/// The curated instruments shipped with Moat.
///
/// # Panics
///
/// When `data/instruments.csv` does not parse; a test proves that it does.
pub fn curated() -> Vec<Instrument> {
    match parse_instruments_csv(CURATED_CSV.as_bytes()) {
        Ok(parsed) if parsed.format == ListingFormat::Curated => parsed.instruments,
        Ok(parsed) => panic!("data/instruments.csv is read as {}", parsed.format),
        Err(errors) => panic!("data/instruments.csv does not parse: {errors}"),
    }
}

/// The formats [`parse_instruments_csv`] recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListingFormat {
    /// Moat's own format, that of `data/instruments.csv`.
    Curated,
    /// A KRX listing of every stock (`Code,ISU_CD,Name,Market,…`).
    KrxListing,
    /// The S&P 500 constituents (`Symbol,Security,GICS Sector,…`).
    Sp500Constituents,
}

impl ListingFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            ListingFormat::Curated => "curated instrument list",
            ListingFormat::KrxListing => "KRX listing",
            ListingFormat::Sp500Constituents => "S&P 500 constituents",
        }
    }
}

impl fmt::Display for ListingFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where US symbols go when the file does not say (the S&P 500 constituents).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum UsExchange {
    /// NASDAQ for the S&P 500 members in a built-in list of NASDAQ-listed ones
    /// ([`is_known_nasdaq_listed`]), NYSE for the rest.
    #[default]
    KnownNasdaq,
    /// Every symbol on this exchange (NYSE or NASDAQ).
    Always(Exchange),
    /// NASDAQ for the symbols in this set (upper-case, e.g. read from NASDAQ's
    /// `nasdaqlisted.txt`), NYSE for the rest.
    NasdaqSymbols(HashSet<String>),
}

impl UsExchange {
    fn exchange_of(&self, symbol: &str) -> Exchange {
        match self {
            UsExchange::KnownNasdaq if is_known_nasdaq_listed(symbol) => Exchange::Nasdaq,
            UsExchange::KnownNasdaq => Exchange::Nyse,
            UsExchange::Always(exchange) => *exchange,
            UsExchange::NasdaqSymbols(set) if set.contains(symbol) => Exchange::Nasdaq,
            UsExchange::NasdaqSymbols(_) => Exchange::Nyse,
        }
    }
}

/// Choices for [`parse_instruments_csv_with`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Where the symbols of a listing without exchanges (S&P 500) are listed.
    pub us_exchange: UsExchange,
}

/// A file that parsed: every instrument in it, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedListing {
    pub format: ListingFormat,
    pub instruments: Vec<Instrument>,
    /// Rows deliberately left out (KONEX stocks in a KRX listing).
    pub skipped: usize,
}

/// One problem with one row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("row {row}: {message}")]
pub struct ImportError {
    /// 1-based row of the file: the header is row 1, the first data row row 2 (blank
    /// lines do not count). Problems with the file as a whole (empty, unknown header)
    /// are on row 1.
    pub row: usize,
    pub message: String,
}

/// Why a file was refused: the first [`MAX_REPORTED_ERRORS`] problems, in file order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ImportErrors {
    /// Never empty.
    pub errors: Vec<ImportError>,
    /// How many problems were found in all (at least `errors.len()`).
    pub total: usize,
}

impl ImportErrors {
    fn one(row: usize, message: impl Into<String>) -> Self {
        Self {
            errors: vec![ImportError {
                row,
                message: message.into(),
            }],
            total: 1,
        }
    }

    /// The first problem in the file.
    pub fn first(&self) -> &ImportError {
        &self.errors[0]
    }
}

impl fmt::Display for ImportErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [only] = self.errors.as_slice() {
            if self.total <= 1 {
                return write!(f, "{only}");
            }
        }
        write!(f, "{} problems", self.total)?;
        if self.total > self.errors.len() {
            write!(f, " (the first {} shown)", self.errors.len())?;
        }
        f.write_str(":")?;
        for error in &self.errors {
            write!(f, "\n  {error}")?;
        }
        Ok(())
    }
}

/// Reads a CSV of instruments in any recognised format with the default
/// [`ImportOptions`]. See the module documentation.
pub fn parse_instruments_csv<R: Read>(reader: R) -> Result<ParsedListing, ImportErrors> {
    parse_instruments_csv_with(reader, &ImportOptions::default())
}

/// Reads a CSV of instruments in any recognised format. See the module documentation.
pub fn parse_instruments_csv_with<R: Read>(
    reader: R,
    options: &ImportOptions,
) -> Result<ParsedListing, ImportErrors> {
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
        Err(e) => return Err(ImportErrors::one(1, describe_csv_error(&e))),
    };
    if header.iter().all(|name| name.is_empty()) {
        return Err(ImportErrors::one(
            1,
            "the file is empty: expected a header row such as \
             id,kind,board,currency,country,name_ko,name_en,…",
        ));
    }
    let format = detect_format(&header).ok_or_else(|| {
        ImportErrors::one(
            1,
            format!(
                "unrecognised header ({}): expected the curated format (id,kind,board,…), \
                 a KRX listing (Code,ISU_CD,Name,Market,…) or the S&P 500 constituents \
                 (Symbol,Security,GICS Sector,…)",
                shorten(&header.join(","), 80)
            ),
        )
    })?;
    let reader = match format {
        ListingFormat::Curated => RowReader::Curated(CuratedColumns::new(&header)?),
        ListingFormat::KrxListing => RowReader::Krx(KrxColumns::new(&header)?),
        ListingFormat::Sp500Constituents => RowReader::Sp(SpColumns::new(&header)?),
    };

    let mut instruments = Vec::new();
    let mut skipped = 0;
    let mut log = ErrorLog::default();
    let mut first_row_of: HashMap<InstrumentId, usize> = HashMap::new();
    let mut data_rows = 0;
    let mut record = csv::StringRecord::new();
    loop {
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
        match reader.read(&record, options) {
            Ok(Some(instrument)) => {
                if let Some(first) = first_row_of.get(&instrument.id) {
                    log.report(
                        row,
                        format!("duplicate id {}: also on row {first}", instrument.id),
                    );
                } else {
                    first_row_of.insert(instrument.id.clone(), row);
                    instruments.push(instrument);
                }
            }
            Ok(None) => skipped += 1,
            Err(problems) => log.report(row, problems.join("; ")),
        }
    }
    log.into_result()?;
    if data_rows == 0 {
        return Err(ImportErrors::one(
            1,
            format!("the {format} has a header but no rows"),
        ));
    }
    Ok(ParsedListing {
        format,
        instruments,
        skipped,
    })
}

/// Applies an imported instrument to the one already stored, if any, and returns what
/// to store.
///
/// With an existing instrument, what the import knows wins: its kind, board, currency
/// and country, and every name, sector, share count, reference price and alias list that
/// is not empty; a popularity of 0 (the default) keeps the stored one. Empty or absent
/// values keep what is stored, so a KRX listing (no English names) or the S&P 500 file
/// (no Korean names) never erases a name. Without one (a new instrument), an empty name
/// is filled from the other one, which is all there is to go on.
pub fn merge(existing: Option<&Instrument>, imported: Instrument) -> Instrument {
    let Some(existing) = existing else {
        let mut new = imported;
        if new.name_en.is_empty() {
            new.name_en = new.name_ko.clone();
        }
        if new.name_ko.is_empty() {
            new.name_ko = new.name_en.clone();
        }
        return new;
    };
    let keep_if_empty = |imported: String, existing: &String| {
        if imported.is_empty() {
            existing.clone()
        } else {
            imported
        }
    };
    Instrument {
        id: imported.id,
        kind: imported.kind,
        board: imported.board,
        currency: imported.currency,
        country: imported.country,
        name_ko: keep_if_empty(imported.name_ko, &existing.name_ko),
        name_en: keep_if_empty(imported.name_en, &existing.name_en),
        sector: keep_if_empty(imported.sector, &existing.sector),
        shares_outstanding: imported.shares_outstanding.or(existing.shares_outstanding),
        reference_price: imported.reference_price.or(existing.reference_price),
        popularity: if imported.popularity == 0 {
            existing.popularity
        } else {
            imported.popularity
        },
        aliases: if imported.aliases.is_empty() {
            existing.aliases.clone()
        } else {
            imported.aliases
        },
    }
}

/// Whether `symbol` is one of the S&P 500 members listed on NASDAQ that Moat knows
/// (used for [`UsExchange::KnownNasdaq`]). Anything else is taken to be on NYSE.
pub fn is_known_nasdaq_listed(symbol: &str) -> bool {
    KNOWN_NASDAQ_LISTED.binary_search(&symbol).is_ok()
}

/// S&P 500 members whose primary listing is NASDAQ, sorted. The rest of the index is
/// listed on NYSE (a few on Cboe, which Moat does not model).
const KNOWN_NASDAQ_LISTED: &[&str] = &[
    "AAPL", "ABNB", "ACGL", "ADBE", "ADI", "ADP", "ADSK", "AEP", "AKAM", "ALGN", "AMAT", "AMD",
    "AMGN", "AMZN", "APA", "APP", "AVGO", "AXON", "BIIB", "BKNG", "BKR", "CASY", "CDNS", "CDW",
    "CEG", "CHRW", "CHTR", "CINF", "CMCSA", "CME", "COIN", "COO", "COST", "CPRT", "CRWD", "CSCO",
    "CSGP", "CSX", "CTAS", "CTSH", "CZR", "DASH", "DDOG", "DLTR", "DPZ", "DXCM", "EA", "EBAY",
    "ECHO", "ENPH", "EQIX", "ERIE", "EVRG", "EXC", "EXE", "EXPE", "FANG", "FAST", "FFIV", "FISV",
    "FLEX", "FOX", "FOXA", "FSLR", "FTNT", "GEHC", "GEN", "GILD", "GOOG", "GOOGL", "HAS", "HBAN",
    "HOLX", "HON", "HONA", "HOOD", "HSIC", "HST", "IBKR", "IDXX", "INCY", "INTC", "INTU", "ISRG",
    "JBHT", "JKHY", "KDP", "KHC", "KLAC", "KMB", "LIN", "LITE", "LKQ", "LNT", "LRCX", "LULU",
    "MAR", "MCHP", "MDLZ", "META", "MNST", "MPWR", "MRNA", "MRVL", "MSFT", "MU", "NDAQ", "NDSN",
    "NFLX", "NTAP", "NTRS", "NVDA", "NWS", "NWSA", "NXPI", "ODFL", "ON", "ORLY", "PANW", "PAYX",
    "PCAR", "PEP", "PFG", "PLTR", "PODD", "POOL", "PSKY", "PTC", "PYPL", "QCOM", "REG", "REGN",
    "ROP", "ROST", "SBAC", "SBUX", "SMCI", "SNDK", "SNPS", "STLD", "STX", "SWKS", "TECH", "TER",
    "TMUS", "TRMB", "TROW", "TSCO", "TSLA", "TTD", "TTWO", "TXN", "UAL", "ULTA", "VRSK", "VRSN",
    "VRTX", "VTRS", "WBD", "WDAY", "WDC", "WMT", "WTW", "WYNN", "XEL", "ZBRA",
];

// ---------------------------------------------------------------------------------------
// Format detection and the three row readers.

fn detect_format(header: &[String]) -> Option<ListingFormat> {
    let has = |name: &str| header.iter().any(|h| h == name);
    if has("id") {
        Some(ListingFormat::Curated)
    } else if has("code") && has("isu_cd") && has("name") && has("market") {
        Some(ListingFormat::KrxListing)
    } else if has("symbol") && has("security") && has("gics sector") {
        Some(ListingFormat::Sp500Constituents)
    } else {
        None
    }
}

fn shorten(s: &str, max_chars: usize) -> String {
    if s.chars().count() <= max_chars {
        s.to_owned()
    } else {
        let mut out: String = s.chars().take(max_chars).collect();
        out.push('…');
        out
    }
}

/// Row problems of one file: the first [`MAX_REPORTED_ERRORS`] kept, every one counted.
#[derive(Default)]
pub(crate) struct ErrorLog {
    errors: Vec<ImportError>,
    total: usize,
}

impl ErrorLog {
    pub(crate) fn report(&mut self, row: usize, message: String) {
        self.total += 1;
        if self.errors.len() < MAX_REPORTED_ERRORS {
            self.errors.push(ImportError { row, message });
        }
    }

    /// `Err` with what was reported, when anything was.
    pub(crate) fn into_result(self) -> Result<(), ImportErrors> {
        if self.total == 0 {
            return Ok(());
        }
        Err(ImportErrors {
            errors: self.errors,
            total: self.total,
        })
    }
}

/// What [`next_record`] found.
pub(crate) enum NextRecord {
    /// The end of the file (or a read error that ends it).
    Done,
    /// An unreadable record or one with the wrong number of fields, reported.
    Skip,
    /// A record to read, on this row (the header is row 1).
    Row(usize),
}

/// Reads the next record into `record`, counting data rows, and reports records that
/// are not valid CSV or do not have the header's number of fields.
pub(crate) fn next_record<R: std::io::Read>(
    csv: &mut csv::Reader<R>,
    record: &mut csv::StringRecord,
    header_len: usize,
    data_rows: &mut usize,
    log: &mut ErrorLog,
) -> NextRecord {
    // Rows are counted by record, the header being row 1.
    let row = *data_rows + 2;
    match csv.read_record(record) {
        Ok(false) => return NextRecord::Done,
        Ok(true) => *data_rows += 1,
        Err(e) => {
            log.report(row, describe_csv_error(&e));
            if matches!(e.kind(), csv::ErrorKind::Io(_)) {
                return NextRecord::Done;
            }
            *data_rows += 1;
            return NextRecord::Skip;
        }
    }
    if record.len() != header_len {
        log.report(
            row,
            format!(
                "has {} fields where the header has {header_len}",
                record.len()
            ),
        );
        return NextRecord::Skip;
    }
    NextRecord::Row(row)
}

pub(crate) fn describe_csv_error(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Utf8 { .. } => {
            "is not UTF-8 text (a file saved as EUC-KR must be converted to UTF-8)".to_owned()
        }
        csv::ErrorKind::Io(io) => format!("could not be read: {io}"),
        _ => format!("is not valid CSV: {e}"),
    }
}

enum RowReader {
    Curated(CuratedColumns),
    Krx(KrxColumns),
    Sp(SpColumns),
}

impl RowReader {
    /// `Ok(None)`: a row deliberately skipped. `Err`: every problem found in the row.
    fn read(
        &self,
        record: &csv::StringRecord,
        options: &ImportOptions,
    ) -> Result<Option<Instrument>, Vec<String>> {
        match self {
            RowReader::Curated(columns) => columns.read(record).map(Some),
            RowReader::Krx(columns) => columns.read(record),
            RowReader::Sp(columns) => columns.read(record, options).map(Some),
        }
    }
}

fn column_index(header: &[String], name: &str) -> Option<usize> {
    header.iter().position(|h| h == name)
}

fn required_column(
    header: &[String],
    name: &str,
    format: ListingFormat,
) -> Result<usize, ImportErrors> {
    column_index(header, name)
        .ok_or_else(|| ImportErrors::one(1, format!("the {format} needs a `{name}` column")))
}

fn field(record: &csv::StringRecord, index: Option<usize>) -> &str {
    index.and_then(|i| record.get(i)).unwrap_or("")
}

struct CuratedColumns {
    id: usize,
    kind: Option<usize>,
    board: Option<usize>,
    currency: Option<usize>,
    country: Option<usize>,
    name_ko: Option<usize>,
    name_en: Option<usize>,
    sector: Option<usize>,
    shares_outstanding: Option<usize>,
    reference_price: Option<usize>,
    popularity: Option<usize>,
    aliases: Option<usize>,
}

impl CuratedColumns {
    fn new(header: &[String]) -> Result<Self, ImportErrors> {
        let mut seen = HashSet::new();
        for name in header {
            if !CURATED_COLUMNS.contains(&name.as_str()) {
                return Err(ImportErrors::one(
                    1,
                    format!(
                        "unknown column `{name}` (the curated format has {})",
                        CURATED_COLUMNS.join(", ")
                    ),
                ));
            }
            if !seen.insert(name.as_str()) {
                return Err(ImportErrors::one(
                    1,
                    format!("the column `{name}` appears twice"),
                ));
            }
        }
        if column_index(header, "name_ko").is_none() && column_index(header, "name_en").is_none() {
            return Err(ImportErrors::one(
                1,
                "the curated format needs a `name_ko` or a `name_en` column",
            ));
        }
        let col = |name| column_index(header, name);
        Ok(Self {
            id: required_column(header, "id", ListingFormat::Curated)?,
            kind: col("kind"),
            board: col("board"),
            currency: col("currency"),
            country: col("country"),
            name_ko: col("name_ko"),
            name_en: col("name_en"),
            sector: col("sector"),
            shares_outstanding: col("shares_outstanding"),
            reference_price: col("reference_price"),
            popularity: col("popularity"),
            aliases: col("aliases"),
        })
    }

    fn read(&self, r: &csv::StringRecord) -> Result<Instrument, Vec<String>> {
        let mut problems = Vec::new();
        let raw_id = field(r, Some(self.id));
        let id = match parse_id(raw_id) {
            Ok(id) => id,
            // Everything else depends on the exchange: stop at the id.
            Err(problem) => return Err(vec![problem]),
        };
        let exchange = id.exchange();

        let raw_kind = field(r, self.kind);
        let kind = if raw_kind.is_empty() {
            default_kind(exchange)
        } else {
            match Kind::parse(raw_kind) {
                Some(kind) => kind,
                None => {
                    problems.push(format!(
                        "unknown kind `{raw_kind}` (stock, etf, index, currency or crypto)"
                    ));
                    default_kind(exchange)
                }
            }
        };
        if !kind_fits(kind, exchange) {
            problems.push(format!(
                "kind `{}` does not fit the exchange {exchange} (expected {})",
                kind.as_str(),
                expected_kinds(exchange)
            ));
        }

        let raw_board = field(r, self.board);
        let board = if raw_board.is_empty() {
            match (exchange, kind) {
                (Exchange::Krx, Kind::Etf) => Some(Board::Kospi),
                (Exchange::Krx, _) => {
                    problems.push("board is required for a KRX stock (KOSPI or KOSDAQ)".into());
                    None
                }
                _ => None,
            }
        } else {
            match Board::parse(raw_board) {
                Some(board) if exchange == Exchange::Krx => Some(board),
                Some(_) => {
                    problems.push(format!(
                        "board `{raw_board}` is only for KRX instruments, not {exchange}"
                    ));
                    None
                }
                None => {
                    problems.push(format!("unknown board `{raw_board}` (KOSPI or KOSDAQ)"));
                    None
                }
            }
        };

        let (currency, country) = self.currency_and_country(r, &id, &mut problems);

        let name_ko = field(r, self.name_ko).to_owned();
        let name_en = field(r, self.name_en).to_owned();
        if name_ko.is_empty() && name_en.is_empty() {
            problems.push("a name is required (name_ko or name_en)".into());
        }

        let shares_outstanding =
            parse_shares(field(r, self.shares_outstanding), "shares_outstanding").unwrap_or_else(
                |problem| {
                    problems.push(problem);
                    None
                },
            );
        let reference_price = parse_price(field(r, self.reference_price), "reference_price")
            .unwrap_or_else(|problem| {
                problems.push(problem);
                None
            });
        if let Some(price) = reference_price {
            if currency == "KRW"
                && matches!(kind, Kind::Stock | Kind::Etf)
                && !price.fract().is_zero()
            {
                problems.push(format!(
                    "reference_price {price} is not a whole number of won"
                ));
            }
        }
        let popularity = parse_popularity(field(r, self.popularity)).unwrap_or_else(|problem| {
            problems.push(problem);
            0
        });
        let aliases = parse_aliases(field(r, self.aliases));

        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Instrument {
            id,
            kind,
            board,
            currency,
            country,
            name_ko,
            name_en,
            sector: field(r, self.sector).to_owned(),
            shares_outstanding,
            reference_price,
            popularity,
            aliases,
        })
    }

    fn currency_and_country(
        &self,
        r: &csv::StringRecord,
        id: &InstrumentId,
        problems: &mut Vec<String>,
    ) -> (String, String) {
        let raw_currency = field(r, self.currency).to_ascii_uppercase();
        let raw_country = field(r, self.country).to_ascii_uppercase();
        if !raw_currency.is_empty() && !is_letter_code(&raw_currency, 3) {
            problems.push(format!(
                "currency `{raw_currency}` is not an ISO 4217 code (KRW, USD)"
            ));
        }
        if !raw_country.is_empty() && !is_letter_code(&raw_country, 2) {
            problems.push(format!(
                "country `{raw_country}` is not an ISO 3166 code (KR, US)"
            ));
        }
        let exchange = id.exchange();
        let (want_currency, want_country): (Option<String>, Option<&str>) = match exchange {
            Exchange::Krx => (Some("KRW".into()), Some("KR")),
            Exchange::Nyse | Exchange::Nasdaq => (Some("USD".into()), Some("US")),
            // The symbol is checked to be six letters by `parse_id`.
            Exchange::Fx => (Some(id.symbol()[3..].to_owned()), Some("")),
            Exchange::Crypto => (None, Some("")),
            Exchange::Index => (None, None),
        };
        let currency = match (&want_currency, raw_currency.is_empty()) {
            (Some(want), true) => want.clone(),
            (Some(want), false) if *want != raw_currency => {
                problems.push(format!(
                    "currency {raw_currency} does not fit {id} (expected {want})"
                ));
                raw_currency
            }
            (None, true) if exchange == Exchange::Crypto => "USD".to_owned(),
            (None, true) => match raw_country.as_str() {
                "KR" => "KRW".to_owned(),
                "US" => "USD".to_owned(),
                _ => {
                    problems.push(format!("currency is required for {id}"));
                    String::new()
                }
            },
            (_, false) => raw_currency,
        };
        let country = match (want_country, raw_country.is_empty()) {
            (Some(want), true) => want.to_owned(),
            (Some(""), false) => {
                problems.push(format!(
                    "country {raw_country} does not fit {id}: {exchange} instruments have none"
                ));
                raw_country
            }
            (Some(want), false) if want != raw_country => {
                problems.push(format!(
                    "country {raw_country} does not fit {id} (expected {want})"
                ));
                raw_country
            }
            (None, true) => match currency.as_str() {
                "KRW" => "KR".to_owned(),
                "USD" => "US".to_owned(),
                _ => {
                    problems.push(format!("country is required for {id}"));
                    String::new()
                }
            },
            (_, false) => raw_country,
        };
        (currency, country)
    }
}

struct KrxColumns {
    code: usize,
    name: usize,
    market: usize,
    close: Option<usize>,
    stocks: Option<usize>,
}

impl KrxColumns {
    fn new(header: &[String]) -> Result<Self, ImportErrors> {
        let format = ListingFormat::KrxListing;
        Ok(Self {
            code: required_column(header, "code", format)?,
            name: required_column(header, "name", format)?,
            market: required_column(header, "market", format)?,
            close: column_index(header, "close"),
            stocks: column_index(header, "stocks"),
        })
    }

    fn read(&self, r: &csv::StringRecord) -> Result<Option<Instrument>, Vec<String>> {
        let market = field(r, Some(self.market));
        let board = match market.to_ascii_uppercase().as_str() {
            "KONEX" => return Ok(None),
            _ => Board::parse(market),
        };
        let mut problems = Vec::new();
        if board.is_none() {
            problems.push(format!(
                "unknown market `{market}` (KOSPI, KOSDAQ, KOSDAQ GLOBAL or KONEX)"
            ));
        }
        let code = field(r, Some(self.code));
        let id = parse_id(&format!("KRX:{code}"))
            .map_err(|problem| problems.push(problem))
            .ok();
        let name_ko = field(r, Some(self.name)).to_owned();
        if name_ko.is_empty() {
            problems.push("Name is empty".into());
        }
        let shares_outstanding =
            parse_shares(field(r, self.stocks), "Stocks").unwrap_or_else(|problem| {
                problems.push(problem);
                None
            });
        let close = field(r, self.close);
        let reference_price = if close == "0" {
            None
        } else {
            parse_price(close, "Close").unwrap_or_else(|problem| {
                problems.push(problem);
                None
            })
        };
        match id {
            Some(id) if problems.is_empty() => Ok(Some(Instrument {
                id,
                kind: Kind::Stock,
                board,
                currency: "KRW".into(),
                country: "KR".into(),
                name_ko,
                name_en: String::new(),
                sector: String::new(),
                shares_outstanding,
                reference_price,
                popularity: 0,
                aliases: Vec::new(),
            })),
            _ => Err(problems),
        }
    }
}

struct SpColumns {
    symbol: usize,
    security: usize,
    sector: usize,
}

impl SpColumns {
    fn new(header: &[String]) -> Result<Self, ImportErrors> {
        let format = ListingFormat::Sp500Constituents;
        Ok(Self {
            symbol: required_column(header, "symbol", format)?,
            security: required_column(header, "security", format)?,
            sector: required_column(header, "gics sector", format)?,
        })
    }

    fn read(
        &self,
        r: &csv::StringRecord,
        options: &ImportOptions,
    ) -> Result<Instrument, Vec<String>> {
        let mut problems = Vec::new();
        let symbol = field(r, Some(self.symbol)).to_ascii_uppercase();
        let exchange = options.us_exchange.exchange_of(&symbol);
        if !matches!(exchange, Exchange::Nyse | Exchange::Nasdaq) {
            problems.push(format!(
                "the S&P 500 lists US stocks: {exchange} is not a US exchange"
            ));
        }
        let id = InstrumentId::new(exchange, &symbol)
            .map_err(|e| problems.push(format!("symbol `{symbol}`: {e}")))
            .ok();
        let name_en = field(r, Some(self.security)).to_owned();
        if name_en.is_empty() {
            problems.push("Security is empty".into());
        }
        match id {
            Some(id) if problems.is_empty() => Ok(Instrument {
                id,
                kind: Kind::Stock,
                board: None,
                currency: "USD".into(),
                country: "US".into(),
                name_ko: String::new(),
                name_en,
                sector: field(r, Some(self.sector)).to_owned(),
                shares_outstanding: None,
                reference_price: None,
                popularity: 0,
                aliases: Vec::new(),
            }),
            _ => Err(problems),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Field parsers: each returns the reason a value is wrong, ready for an ImportError.

fn parse_id(raw: &str) -> Result<InstrumentId, String> {
    if raw.is_empty() {
        return Err("id is empty".into());
    }
    let id = InstrumentId::from_str(raw).map_err(|e| format!("id `{raw}`: {e}"))?;
    let symbol = id.symbol();
    match id.exchange() {
        Exchange::Krx
            if !(symbol.len() == 6
                && symbol
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())) =>
        {
            Err(format!(
                "id `{raw}`: a KRX code is 6 digits or capital letters (KRX:005930)"
            ))
        }
        Exchange::Fx if !is_letter_code(symbol, 6) => Err(format!(
            "id `{raw}`: a currency pair is two ISO 4217 codes (FX:USDKRW)"
        )),
        _ => Ok(id),
    }
}

/// `len` ASCII capital letters, like an ISO currency or country code.
fn is_letter_code(s: &str, len: usize) -> bool {
    s.len() == len && s.bytes().all(|b| b.is_ascii_uppercase())
}

fn default_kind(exchange: Exchange) -> Kind {
    match exchange {
        Exchange::Krx | Exchange::Nyse | Exchange::Nasdaq => Kind::Stock,
        Exchange::Index => Kind::Index,
        Exchange::Fx => Kind::Currency,
        Exchange::Crypto => Kind::Crypto,
    }
}

fn kind_fits(kind: Kind, exchange: Exchange) -> bool {
    match exchange {
        Exchange::Krx | Exchange::Nyse | Exchange::Nasdaq => {
            matches!(kind, Kind::Stock | Kind::Etf)
        }
        other => kind == default_kind(other),
    }
}

fn expected_kinds(exchange: Exchange) -> &'static str {
    match exchange {
        Exchange::Krx | Exchange::Nyse | Exchange::Nasdaq => "stock or etf",
        other => default_kind(other).as_str(),
    }
}

fn parse_shares(raw: &str, column: &str) -> Result<Option<i64>, String> {
    if raw.is_empty() {
        return Ok(None);
    }
    match raw.parse::<i64>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        Ok(_) => Err(format!("{column} must be positive, not {raw}")),
        Err(_) => Err(format!("{column} `{raw}` is not a whole number")),
    }
}

fn parse_price(raw: &str, column: &str) -> Result<Option<Decimal>, String> {
    if raw.is_empty() {
        return Ok(None);
    }
    let valid_chars = raw
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+');
    let price = valid_chars
        .then(|| Decimal::from_str(raw).ok())
        .flatten()
        .ok_or_else(|| {
            format!("{column} `{raw}` is not a decimal number (like 71200 or 189.43)")
        })?;
    if price <= Decimal::ZERO {
        return Err(format!("{column} must be positive, not {raw}"));
    }
    Ok(Some(price.normalize()))
}

fn parse_popularity(raw: &str) -> Result<i32, String> {
    if raw.is_empty() {
        return Ok(0);
    }
    match raw.parse::<i32>() {
        Ok(n) if (0..=MAX_POPULARITY).contains(&n) => Ok(n),
        _ => Err(format!(
            "popularity `{raw}` is not a whole number from 0 to {MAX_POPULARITY}"
        )),
    }
}

fn parse_aliases(raw: &str) -> Vec<String> {
    let mut aliases: Vec<String> = Vec::new();
    for alias in raw.split('|') {
        let alias = alias.trim().to_lowercase();
        if !alias.is_empty() && !aliases.contains(&alias) {
            aliases.push(alias);
        }
    }
    aliases
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "id,kind,board,currency,country,name_ko,name_en,sector,\
                          shares_outstanding,reference_price,popularity,aliases\n";

    fn parse(text: &str) -> Result<ParsedListing, ImportErrors> {
        parse_instruments_csv(text.as_bytes())
    }

    fn one(text: &str) -> Instrument {
        let mut parsed = parse(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.instruments.len(), 1);
        parsed.instruments.remove(0)
    }

    fn first_error(text: &str) -> ImportError {
        parse(text).expect_err("should fail").first().clone()
    }

    #[test]
    fn the_known_nasdaq_list_is_sorted_and_unique_so_binary_search_works() {
        assert!(KNOWN_NASDAQ_LISTED.windows(2).all(|w| w[0] < w[1]));
        assert!(is_known_nasdaq_listed("AAPL"));
        assert!(!is_known_nasdaq_listed("JPM"));
    }

    #[test]
    fn a_minimal_curated_row_takes_its_defaults_from_the_exchange() {
        let i = one("id,name_ko\nNASDAQ:aapl,애플\n");
        assert_eq!(i.id.to_string(), "NASDAQ:AAPL");
        assert_eq!(i.kind, Kind::Stock);
        assert_eq!((i.currency.as_str(), i.country.as_str()), ("USD", "US"));
        assert_eq!(i.board, None);
        assert_eq!(i.name_en, "");
        assert_eq!(i.popularity, 0);

        let i = one("id,name_en\nFX:EURKRW,Euro / Korean Won\n");
        assert_eq!(i.kind, Kind::Currency);
        assert_eq!((i.currency.as_str(), i.country.as_str()), ("KRW", ""));

        let i = one("id,name_en\nCRYPTO:SOL,Solana\n");
        assert_eq!(
            (i.kind, i.currency.as_str(), i.country.as_str()),
            (Kind::Crypto, "USD", "")
        );

        let i = one("id,country,name_ko\nINDEX:KOSPI,KR,코스피\n");
        assert_eq!((i.kind, i.currency.as_str()), (Kind::Index, "KRW"));
    }

    #[test]
    fn columns_may_come_in_any_order_and_in_any_case() {
        let i = one("Aliases, Reference_Price ,NAME_KO,id,board\n\
             삼전|Samsung| 삼전 ,71200,삼성전자,KRX:005930,kospi\n");
        assert_eq!(i.board, Some(Board::Kospi));
        assert_eq!(i.reference_price, Some(Decimal::from(71200)));
        assert_eq!(i.aliases, vec!["삼전", "samsung"]);
    }

    #[test]
    fn a_krx_etf_without_a_board_is_on_kospi_but_a_stock_needs_one() {
        let i = one("id,kind,name_ko\nKRX:069500,etf,KODEX 200\n");
        assert_eq!(i.board, Some(Board::Kospi));
        let e = first_error("id,name_ko\nKRX:005930,삼성전자\n");
        assert_eq!(e.row, 2);
        assert!(e.message.contains("board is required"), "{e}");
    }

    #[test]
    fn a_row_reports_every_problem_it_has_at_once() {
        let e = first_error(&format!(
            "{HEADER}KRX:005930,fund,NYSE,USD,US,삼성전자,,,-5,71200.5,2000,\n"
        ));
        for reason in [
            "unknown kind `fund`",
            "unknown board `NYSE`",
            "currency USD does not fit",
            "country US does not fit",
            "shares_outstanding must be positive",
            "popularity `2000`",
        ] {
            assert!(e.message.contains(reason), "{reason} missing from {e}");
        }
    }

    #[test]
    fn inconsistent_kinds_boards_and_countries_are_refused() {
        let cases = [
            (
                "id,kind,name_en\nNASDAQ:AAPL,index,Apple\n",
                "does not fit the exchange",
            ),
            (
                "id,board,name_en\nNASDAQ:AAPL,KOSPI,Apple\n",
                "only for KRX",
            ),
            ("id,country,name_en\nFX:USDKRW,KR,Dollar\n", "have none"),
            (
                "id,currency,name_en\nFX:USDKRW,USD,Dollar\n",
                "expected KRW",
            ),
            ("id,name_en\nINDEX:N225,Nikkei\n", "currency is required"),
            ("id,name_en\nFX:USD,Dollar\n", "currency pair"),
            (
                "id,board,reference_price,name_ko\nKRX:005930,KOSPI,71200.5,삼성전자\n",
                "whole number of won",
            ),
            (
                "id,reference_price,name_en\nNYSE:KO,1e3,Coca-Cola\n",
                "not a decimal number",
            ),
            (
                "id,reference_price,name_en\nNYSE:KO,\"70,000\",Coca-Cola\n",
                "not a decimal number",
            ),
            ("id,name_en,name_ko\nNYSE:KO,,\n", "a name is required"),
        ];
        for (text, reason) in cases {
            let e = first_error(text);
            assert_eq!(e.row, 2, "{text}");
            assert!(e.message.contains(reason), "{text}: {e}");
        }
    }

    #[test]
    fn header_problems_are_on_row_one() {
        for (text, reason) in [
            ("id,name_ko,popularty\n", "unknown column `popularty`"),
            ("id,name_ko,id\n", "appears twice"),
            (
                "id,sector\nNYSE:KO,Consumer Staples\n",
                "`name_ko` or a `name_en`",
            ),
            ("id,name_ko\n", "no rows"),
            ("Code,ISU_CD,Market\n", "unrecognised header"),
        ] {
            let e = first_error(text);
            assert_eq!(e.row, 1, "{text}");
            assert!(e.message.contains(reason), "{text}: {e}");
        }
    }

    #[test]
    fn rows_are_numbered_by_record_from_the_header() {
        let e = first_error("id,name_en\n\nNYSE:KO,Coca-Cola\n\nNYSE:??,Bad\n");
        assert_eq!(e.row, 3, "blank lines are not rows");
        let e = first_error("id,name_en\nNYSE:KO,\"Coca-\nCola\"\nNYSE:KO,Again\n");
        assert_eq!(e.row, 3, "a quoted line break does not start a row");
        assert!(e.message.contains("also on row 2"), "{e}");
    }

    #[test]
    fn a_row_with_the_wrong_number_of_fields_is_refused() {
        let e = first_error("id,name_en\nNYSE:KO,Coca-Cola,extra\n");
        assert!(
            e.message.contains("has 3 fields where the header has 2"),
            "{e}"
        );
    }

    #[test]
    fn at_most_twenty_errors_are_kept_but_all_are_counted() {
        let mut text = String::from("id,name_en\n");
        for _ in 0..25 {
            text.push_str("LSE:VOD,Vodafone\n");
        }
        let errors = parse(&text).unwrap_err();
        assert_eq!(errors.errors.len(), MAX_REPORTED_ERRORS);
        assert_eq!(errors.total, 25);
        let shown = errors.to_string();
        assert!(
            shown.starts_with("25 problems (the first 20 shown):"),
            "{shown}"
        );
        assert!(
            shown.contains("row 21: id `LSE:VOD`: unknown exchange"),
            "{shown}"
        );
    }

    #[test]
    fn a_file_that_is_not_utf8_says_so() {
        let mut bytes = b"Code,ISU_CD,Name,Market\n005930,KR7005930003,".to_vec();
        bytes.extend_from_slice(&[0xbb, 0xef, 0xbc, 0xba]); // 삼성 in EUC-KR
        bytes.extend_from_slice(b",KOSPI\n");
        let e = parse_instruments_csv(bytes.as_slice()).unwrap_err();
        assert_eq!(e.first().row, 2);
        assert!(e.first().message.contains("EUC-KR"), "{e}");
    }

    #[test]
    fn a_krx_row_with_a_zero_close_has_no_price_and_konex_rows_are_skipped() {
        let parsed = parse(
            "Code,ISU_CD,Name,Market,Close,Stocks\n\
             005930,KR7005930003,삼성전자,KOSPI,0,5919637922\n\
             123456,KR7123456000,코넥스기업,KONEX,1000,100\n\
             0126Z0,KR70126Z0005,새종목,KOSDAQ GLOBAL,1500,2000\n",
        )
        .unwrap();
        assert_eq!(parsed.format, ListingFormat::KrxListing);
        assert_eq!(parsed.skipped, 1);
        assert_eq!(parsed.instruments[0].reference_price, None);
        assert_eq!(
            parsed.instruments[0].shares_outstanding,
            Some(5_919_637_922)
        );
        assert_eq!(parsed.instruments[1].id.to_string(), "KRX:0126Z0");
        assert_eq!(parsed.instruments[1].board, Some(Board::Kosdaq));
    }

    #[test]
    fn sp500_symbols_go_where_the_options_say() {
        let text = "Symbol,Security,GICS Sector\nAAPL,Apple Inc.,Information Technology\n\
                    BRK.B,Berkshire Hathaway,Financials\n";
        let ids = |options: &ImportOptions| -> Vec<String> {
            parse_instruments_csv_with(text.as_bytes(), options)
                .unwrap()
                .instruments
                .iter()
                .map(|i| i.id.to_string())
                .collect()
        };
        assert_eq!(
            ids(&ImportOptions::default()),
            ["NASDAQ:AAPL", "NYSE:BRK.B"]
        );
        let always = ImportOptions {
            us_exchange: UsExchange::Always(Exchange::Nyse),
        };
        assert_eq!(ids(&always), ["NYSE:AAPL", "NYSE:BRK.B"]);
        let lookup = ImportOptions {
            us_exchange: UsExchange::NasdaqSymbols(HashSet::from(["BRK.B".to_owned()])),
        };
        assert_eq!(ids(&lookup), ["NYSE:AAPL", "NASDAQ:BRK.B"]);
        let wrong = ImportOptions {
            us_exchange: UsExchange::Always(Exchange::Krx),
        };
        let e = parse_instruments_csv_with(text.as_bytes(), &wrong).unwrap_err();
        assert!(e.first().message.contains("not a US exchange"), "{e}");
    }

    #[test]
    fn merging_keeps_what_the_import_does_not_know() {
        let stored = one(&format!(
            "{HEADER}KRX:005930,stock,KOSPI,KRW,KR,삼성전자,Samsung Electronics,\
             Information Technology,5919637922,71200,1000,삼전\n"
        ));
        let listing = one("Code,ISU_CD,Name,Market,Close,Stocks\n\
             005930,KR7005930003,삼성전자,KOSPI,72000,5900000000\n");
        let merged = merge(Some(&stored), listing.clone());
        assert_eq!(merged.name_en, "Samsung Electronics");
        assert_eq!(merged.sector, "Information Technology");
        assert_eq!(merged.popularity, 1000);
        assert_eq!(merged.aliases, vec!["삼전"]);
        assert_eq!(merged.shares_outstanding, Some(5_900_000_000));
        assert_eq!(merged.reference_price, Some(Decimal::from(72000)));

        let new = merge(None, listing);
        assert_eq!(new.name_en, "삼성전자");
        let new = merge(
            None,
            one("Symbol,Security,GICS Sector\nKO,Coca-Cola,Consumer Staples\n"),
        );
        assert_eq!(new.name_ko, "Coca-Cola");
    }

    #[test]
    fn prices_are_decimals_without_float_rounding() {
        let i = one("id,reference_price,name_en\nNASDAQ:AAPL,189.430,Apple\n");
        assert_eq!(i.reference_price.unwrap().to_string(), "189.43");
    }
}
