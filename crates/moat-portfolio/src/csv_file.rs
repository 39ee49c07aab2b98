//! CSV import and export of transactions.
//!
//! # Format
//!
//! UTF-8 (a byte-order mark is ignored) or EUC-KR ([`crate::text_decode`]),
//! comma-separated, one header row, then one transaction per row. A Korean broker's
//! export is recognised by its header row and read with that broker's columns and
//! words instead ([`crate::broker_csv`]); NH's 종합거래내역, a paged report with
//! two-line records, by its title line. Export writes these columns in this order:
//!
//! | column | Korean headers also accepted | content |
//! |---|---|---|
//! | `date` | 일자, 거래일, 거래일자, 날짜 | `YYYY-MM-DD` (also `YYYY.MM.DD`, `YYYY/MM/DD`, `YYYYMMDD`) |
//! | `type` | 종류, 구분, 거래구분, 거래유형 | `buy` `sell` `dividend` `deposit` `withdrawal` `fee` `tax` `split` (or 매수 매도 배당 입금 출금 수수료 세금 분할) |
//! | `instrument` | 종목, 종목코드 | `KRX:005930`, `NASDAQ:AAPL`; a bare 6-digit code is KRX; empty for cash rows |
//! | `quantity` | 수량 | shares; empty means 1 for dividend, deposit, withdrawal, fee and tax rows |
//! | `price` | 단가, 가격, 금액 | per share; the amount for cash rows (see [`crate::transaction`]) |
//! | `fee` | 수수료 | empty means 0 |
//! | `tax` | 세금, 제세금 | empty means 0 (withholding for a dividend) |
//! | `currency` | 통화 | `KRW` or `USD`; empty means the instrument's (KRX → KRW, US → USD), else the portfolio's base |
//! | `fx_rate` | 환율 | base currency per unit of `currency`; required for a foreign-currency row |
//! | `ratio` | 비율, 분할비율 | a split's `numerator/denominator` (`4/1`, `1/10`; `4:1` and `4` also read) |
//! | `note` | 메모, 비고 | free text |
//!
//! English headers are case-insensitive and may use spaces, `_` or `-` (`Trade Date`,
//! `fx-rate`); synonyms such as `symbol`, `ticker`, `qty`, `commission`, `memo` are read
//! too. Columns may come in any order; `date` and `type` are required, unknown columns
//! are ignored (and listed). Numbers use `.` for decimals and may have `,` thousands
//! separators (`1,234.5`).
//!
//! # Preview, then import
//!
//! [`parse`] reads a file as a stream (row by row from any [`Read`], so a file is
//! never held whole) and stops past [`MAX_IMPORT_ROWS`] rows or [`MAX_IMPORT_BYTES`]
//! bytes; [`check`] validates the rows against the portfolio's existing transactions
//! and reports an error for **each** bad row (its line number, column, stable code and
//! message). [`preview`] is both, for text in memory. Nothing is imported while any row
//! is bad: [`ImportPreview::into_new_transactions`] gives the rows to insert only when
//! there is no error. [`recheck`] checks a previewed file again against the ledger as
//! it stands when the import is written.
//!
//! # Export
//!
//! A cell that a spreadsheet would run as a formula (one starting with `=`, `+`, `-`,
//! `@`, a tab or a carriage return) is written with a leading `'`, unless it is a plain
//! number; [`parse`] drops that `'` again, so an export imports unchanged.
//!
//! # Rows already imported
//!
//! A row's fingerprint is its date, type, instrument, quantity, price, fee, tax,
//! currency and split ratio (numbers compared by value: `10` = `10.00`). Fingerprints
//! are *counted*, not just looked up: if the portfolio already has *k* transactions
//! with a fingerprint, the first *k* rows of the file with it are duplicates and any
//! further ones are new. Re-importing a file therefore adds nothing, while two
//! identical real trades on one day (two fills of 10 shares at the same price) are
//! both kept when only one of them was imported before.

use std::collections::HashMap;
use std::io::Read;

use chrono::NaiveDate;
use moat_market::{Exchange, InstrumentId};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::broker_csv::{self, BrokerFormat, Columns, FormatId, Layout, SkipReason, Word};
use crate::text_decode::{DecodingReader, TextEncoding};
use crate::transaction::{sorted, PortfolioSettings, SplitRatio, Transaction, TxKind};
use crate::validation::{validate, Field, IssueCode};

/// The export's column order.
pub const COLUMNS: [Field; 11] = Field::ALL;

/// English and Korean header names per column, compared after [`normalise_header`].
const HEADER_SYNONYMS: [(Field, &[&str]); 11] = [
    (
        Field::Date,
        &["date", "tradedate", "일자", "거래일", "거래일자", "날짜"],
    ),
    (
        Field::Type,
        &["type", "kind", "종류", "구분", "거래구분", "거래유형"],
    ),
    (
        Field::Instrument,
        &["instrument", "symbol", "ticker", "종목", "종목코드"],
    ),
    (Field::Quantity, &["quantity", "qty", "shares", "수량"]),
    (Field::Price, &["price", "amount", "단가", "가격", "금액"]),
    (Field::Fee, &["fee", "fees", "commission", "수수료"]),
    (Field::Tax, &["tax", "taxes", "세금", "제세금"]),
    (Field::Currency, &["currency", "통화"]),
    (Field::FxRate, &["fxrate", "fx", "exchangerate", "환율"]),
    (Field::Ratio, &["ratio", "splitratio", "비율", "분할비율"]),
    (
        Field::Note,
        &["note", "notes", "memo", "comment", "메모", "비고"],
    ),
];

/// Korean names of the transaction types.
const KOREAN_TYPES: [(&str, TxKind); 10] = [
    ("매수", TxKind::Buy),
    ("매도", TxKind::Sell),
    ("배당", TxKind::Dividend),
    ("배당금", TxKind::Dividend),
    ("입금", TxKind::Deposit),
    ("출금", TxKind::Withdrawal),
    ("수수료", TxKind::Fee),
    ("세금", TxKind::Tax),
    ("분할", TxKind::Split),
    ("액면분할", TxKind::Split),
];

/// Date formats read, in order.
const DATE_FORMATS: [&str; 4] = ["%Y-%m-%d", "%Y.%m.%d", "%Y/%m/%d", "%Y%m%d"];

/// The line number of the header row; data rows are numbered by file line from 2.
pub const HEADER_ROW: usize = 1;

/// Most data rows one import takes: a decade of very active trading (eight trades on
/// every trading day) is 20,000. A larger file is refused whole (split it).
pub const MAX_IMPORT_ROWS: usize = 20_000;
/// Largest file one import takes.
pub const MAX_IMPORT_BYTES: usize = 5 * 1024 * 1024;

/// Why a file was refused before its rows were checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum FileTooLarge {
    #[error("the file has more than {MAX_IMPORT_ROWS} rows")]
    Rows,
    #[error("the file is larger than {MAX_IMPORT_BYTES} bytes")]
    Bytes,
}

/// Lower-case, without spaces, `_`, `-`, `.` and a byte-order mark.
fn normalise_header(h: &str) -> String {
    broker_csv::normalise(h)
}

/// The column a header names, if any.
pub fn header_field(header: &str) -> Option<Field> {
    let h = normalise_header(header);
    HEADER_SYNONYMS
        .iter()
        .find(|(_, names)| names.contains(&h.as_str()))
        .map(|(f, _)| *f)
}

/// A transaction type in English or Korean.
pub fn parse_type(s: &str) -> Option<TxKind> {
    let s = s.trim();
    TxKind::parse(s).or_else(|| KOREAN_TYPES.iter().find(|(k, _)| *k == s).map(|(_, t)| *t))
}

/// One problem in a file: `row` is the file line (the header is [`HEADER_ROW`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowError {
    pub row: usize,
    pub column: Option<Field>,
    pub code: IssueCode,
    pub message: String,
}

/// A parsed row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PreviewRow {
    pub row: usize,
    /// Its id is provisional (after the existing ones, in file order); storage assigns
    /// the real one.
    pub transaction: Transaction,
    /// Already in the portfolio (see the module doc); will not be imported.
    pub duplicate: bool,
}

/// What an import would do.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ImportPreview {
    /// Rows that parsed, in file order.
    pub rows: Vec<PreviewRow>,
    /// Every bad row's problems; the import applies nothing while this is not empty.
    pub errors: Vec<RowError>,
    /// Accepted but worth showing (a dividend on an instrument not held).
    pub warnings: Vec<RowError>,
    /// Headers that name no known column.
    pub ignored_columns: Vec<String>,
    /// The file's format (Moat's, generic Korean headers, or a broker's).
    pub format: FormatId,
    /// The file's text encoding.
    pub encoding: Option<TextEncoding>,
    /// Broker rows that are not trades (interest, transfers…), not imported.
    pub skipped: Vec<SkippedRow>,
}

/// A broker row that is not imported, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedRow {
    pub row: usize,
    pub reason: SkipReason,
    /// The row's trade-type word as the file wrote it (empty for a row with no trade).
    pub label: String,
}

impl ImportPreview {
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// Rows that would be imported (parsed and not already in the portfolio).
    pub fn new_rows(&self) -> usize {
        self.rows.iter().filter(|r| !r.duplicate).count()
    }

    /// The rows to insert (not duplicates), in file order, or every error.
    pub fn into_new_transactions(self) -> Result<Vec<Transaction>, Vec<RowError>> {
        if !self.errors.is_empty() {
            return Err(self.errors);
        }
        Ok(self
            .rows
            .into_iter()
            .filter(|r| !r.duplicate)
            .map(|r| r.transaction)
            .collect())
    }
}

/// The duplicate-detection key of a transaction (see the module doc).
pub fn fingerprint(tx: &Transaction) -> String {
    let ratio = tx
        .split
        .map(|r| format!("{}/{}", r.numerator, r.denominator))
        .unwrap_or_default();
    format!(
        "{}|{}|{}|{}|{}|{}|{}|{}|{}",
        tx.trade_date,
        tx.kind.as_str(),
        tx.instrument
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default(),
        tx.quantity.normalize(),
        tx.price.normalize(),
        tx.fee.normalize(),
        tx.tax.normalize(),
        tx.currency,
        ratio
    )
}

/// A file's rows, parsed but not yet checked against a portfolio.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParsedFile {
    /// Rows that parsed, in file order, with provisional ids.
    pub rows: Vec<PreviewRow>,
    /// Rows (or the file) that cannot be read.
    pub errors: Vec<RowError>,
    pub ignored_columns: Vec<String>,
    pub format: FormatId,
    pub encoding: Option<TextEncoding>,
    pub skipped: Vec<SkippedRow>,
}

/// Finds the instrument a broker file names by a bare ticker or a name (`AAPL`,
/// `삼성전자`); the server looks in the market catalogue.
pub type Resolver<'a> = dyn Fn(&str) -> Option<InstrumentId> + 'a;

/// A [`Read`] that fails once more than `limit` bytes came through, and says so.
struct Capped<R> {
    inner: R,
    left: usize,
    over: bool,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > self.left {
            self.over = true;
            return Err(std::io::Error::other("file too large"));
        }
        self.left -= n;
        Ok(n)
    }
}

/// Parses a file row by row from `input`, holding one row at a time besides the
/// parsed rows. Transactions get ids after `last_id`. Refused whole past
/// [`MAX_IMPORT_ROWS`] rows or [`MAX_IMPORT_BYTES`] bytes. Broker files that name an
/// instrument by a bare ticker or a name get a per-row error (see [`parse_with`]).
pub fn parse<R: Read>(
    input: R,
    settings: &PortfolioSettings,
    last_id: i64,
) -> Result<ParsedFile, FileTooLarge> {
    parse_with(input, settings, last_id, &|_| None)
}

/// [`parse`], with `resolve` finding the instruments a broker file names by a bare
/// ticker or a name. The file is UTF-8 or EUC-KR ([`crate::text_decode`]); its
/// format is detected from its header row ([`crate::broker_csv`]).
pub fn parse_with<R: Read>(
    input: R,
    settings: &PortfolioSettings,
    last_id: i64,
    resolve: &Resolver<'_>,
) -> Result<ParsedFile, FileTooLarge> {
    let mut capped = Capped {
        inner: input,
        left: MAX_IMPORT_BYTES,
        over: false,
    };
    let decoded = DecodingReader::new(&mut capped);
    let parsed = match decoded {
        Ok(decoded) => {
            let encoding = decoded.encoding();
            let mut reader = csv::ReaderBuilder::new()
                .flexible(true)
                .has_headers(false)
                .trim(csv::Trim::All)
                .from_reader(decoded);
            let parsed = parse_records(&mut reader, settings, last_id, resolve);
            let malformed = reader.into_inner().malformed();
            parsed.map(|mut p| {
                p.encoding = Some(encoding);
                if malformed {
                    p.rows.clear();
                    p.skipped.clear();
                    p.errors = vec![file_error(
                        IssueCode::InvalidEncoding,
                        None,
                        format!(
                            "the file is not valid {} text (cut short, or mixing encodings)",
                            encoding.as_str()
                        ),
                    )];
                }
                p
            })
        }
        Err(_) => Ok(ParsedFile::default()),
    };
    if capped.over {
        return Err(FileTooLarge::Bytes);
    }
    parsed
}

/// Where the Moat-format columns are, the headers that name none, and whether the
/// headers are Moat's English ones or Korean.
fn moat_columns(headers: &csv::StringRecord) -> (HashMap<Field, usize>, Vec<String>, FormatId) {
    let mut columns: HashMap<Field, usize> = HashMap::new();
    let mut ignored = Vec::new();
    for (i, h) in headers.iter().enumerate() {
        match header_field(h) {
            Some(f) => {
                columns.entry(f).or_insert(i);
            }
            None if h.is_empty() => {}
            None => ignored.push(h.to_owned()),
        }
    }
    let korean = headers.iter().any(|h| !normalise_header(h).is_ascii());
    let format = if korean {
        FormatId::GenericKorean
    } else {
        FormatId::Moat
    };
    (columns, ignored, format)
}

/// The header row: the first record, after a `Version=…` line some HTS exports start
/// with.
fn read_header<R: Read>(
    reader: &mut csv::Reader<R>,
) -> Result<Option<csv::StringRecord>, csv::Error> {
    let mut record = csv::StringRecord::new();
    for _ in 0..2 {
        if !reader.read_record(&mut record)? {
            return Ok(None);
        }
        let first = record.get(0).unwrap_or("").trim_start_matches('\u{feff}');
        if !first.starts_with("Version=") {
            return Ok(Some(record));
        }
    }
    Ok(Some(record))
}

fn parse_records<R: Read>(
    reader: &mut csv::Reader<R>,
    settings: &PortfolioSettings,
    last_id: i64,
    resolve: &Resolver<'_>,
) -> Result<ParsedFile, FileTooLarge> {
    let mut out = ParsedFile::default();
    let headers = match read_header(reader) {
        Ok(Some(h))
            if h.iter()
                .any(|c| !c.trim_start_matches('\u{feff}').is_empty()) =>
        {
            h
        }
        Ok(_) => {
            out.errors.push(file_error(
                IssueCode::EmptyFile,
                None,
                "the file is empty".into(),
            ));
            return Ok(out);
        }
        Err(e) => {
            out.errors.push(file_error(
                IssueCode::MalformedRow,
                None,
                format!("the header row cannot be read: {e}"),
            ));
            return Ok(out);
        }
    };
    if is_nh_report(&headers) {
        out.format = FormatId::Nh;
        parse_nh(reader, headers, &mut out, settings, last_id, resolve)?;
        if out.rows.is_empty() && out.errors.is_empty() && out.skipped.is_empty() {
            out.errors.push(file_error(
                IssueCode::EmptyFile,
                None,
                "the file has no transactions".into(),
            ));
        }
        return Ok(out);
    }
    // 미래에셋 국내: a second header row (수량, 평균단가, 금액 per group) under the
    // first; the columns are named by position.
    let headers = if broker_csv::is_mirae_domestic(headers.iter()) {
        let mut sub = csv::StringRecord::new();
        match reader.read_record(&mut sub) {
            Ok(true) => {}
            _ => {
                out.errors.push(file_error(
                    IssueCode::MissingColumn,
                    None,
                    "the header's second row (수량, 평균단가, 금액) is missing".into(),
                ));
                return Ok(out);
            }
        }
        csv::StringRecord::from(broker_csv::MIRAE_DOMESTIC_COLUMNS.to_vec())
    } else {
        headers
    };
    let broker = broker_csv::detect(headers.iter());
    let mut columns = HashMap::new();
    let broker_columns = Columns::new(headers.iter());
    match broker {
        Some(b) => out.format = b.id,
        None => {
            let (found, ignored, format) = moat_columns(&headers);
            columns = found;
            out.ignored_columns = ignored;
            out.format = format;
            for required in [Field::Date, Field::Type] {
                if !columns.contains_key(&required) {
                    out.errors.push(file_error(
                        IssueCode::MissingColumn,
                        Some(required),
                        format!(
                            "the file has no {required} column: it is not Moat's format, \
                             Korean headers, or a known broker's export"
                        ),
                    ));
                }
            }
            if !out.errors.is_empty() {
                return Ok(out);
            }
        }
    }

    let mut next_id = last_id;
    let mut record = csv::StringRecord::new();
    let mut data_rows = 0usize;
    loop {
        let read = reader.read_record(&mut record);
        match read {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) if matches!(e.kind(), csv::ErrorKind::Io(_)) => {
                // The input failed (too large, or bytes of another encoding): the
                // caller reports it.
                return Ok(out);
            }
            Err(e) => {
                let row = e.position().map_or(0, |p| p.line() as usize);
                out.errors.push(RowError {
                    row,
                    column: None,
                    code: IssueCode::MalformedRow,
                    message: format!("the row cannot be read: {e}"),
                });
                data_rows += 1;
                if data_rows > MAX_IMPORT_ROWS {
                    return Err(FileTooLarge::Rows);
                }
                continue;
            }
        }
        let row = record.position().map_or(0, |p| p.line() as usize);
        if record.iter().all(str::is_empty) {
            continue;
        }
        data_rows += 1;
        if data_rows > MAX_IMPORT_ROWS {
            return Err(FileTooLarge::Rows);
        }
        if let Some(b) = broker {
            let cell = |name: &str| {
                broker_columns
                    .index(name)
                    .and_then(|i| record.get(i))
                    .unwrap_or("")
            };
            let result = parse_broker_row(b, &cell, settings, resolve);
            out.add_broker_row(row, result, &mut next_id);
            continue;
        }
        let cell = |f: Field| columns.get(&f).and_then(|i| record.get(*i)).unwrap_or("");
        next_id += 1;
        match parse_row(&cell, settings, next_id) {
            Ok(tx) => out.rows.push(PreviewRow {
                row,
                transaction: tx,
                duplicate: false,
            }),
            Err(errors) => out
                .errors
                .extend(errors.into_iter().map(|(column, code, message)| RowError {
                    row,
                    column: Some(column),
                    code,
                    message,
                })),
        }
    }
    if out.rows.is_empty() && out.errors.is_empty() {
        out.errors.push(file_error(
            IssueCode::EmptyFile,
            None,
            "the file has no transactions".into(),
        ));
    }
    Ok(out)
}

/// Whether the file's first line opens NH's 종합거래내역: its title, or (a file cut
/// below the title) the first line of its two-line header.
fn is_nh_report(first: &csv::StringRecord) -> bool {
    let has = |name: &str| {
        first
            .iter()
            .any(|c| c.trim_start_matches('\u{feff}') == name)
    };
    has(broker_csv::NH_TITLE)
        || (has(broker_csv::NH_TOP) && has("종목번호") && has("잔고수량") && !has("적요명"))
}

/// The header line's names by position (normalised; blank spacer columns stay blank).
fn line_names(record: &csv::StringRecord) -> Vec<String> {
    record.iter().map(broker_csv::normalise).collect()
}

/// NH's 종합거래내역 ([`broker_csv::NH`]): page furniture is passed over, each page's
/// two header lines give the positions, and each record's two lines become one row,
/// reported at its first line.
fn parse_nh<R: Read>(
    reader: &mut csv::Reader<R>,
    first: csv::StringRecord,
    out: &mut ParsedFile,
    settings: &PortfolioSettings,
    last_id: i64,
    resolve: &Resolver<'_>,
) -> Result<(), FileTooLarge> {
    let b = &broker_csv::NH;
    let date_name = broker_csv::normalise(b.date);
    // The current page's header lines, and whether the second one is awaited.
    let mut top: Option<Vec<String>> = None;
    let mut bottom: Option<Vec<String>> = None;
    let mut awaiting_bottom = false;
    // A record's first line, waiting for its second.
    let mut pending: Option<(usize, csv::StringRecord)> = None;
    let mut next_id = last_id;
    let mut data_rows = 0usize;
    let mut record = first;
    let mut first_line = true;
    loop {
        if !first_line {
            match reader.read_record(&mut record) {
                Ok(false) => break,
                Ok(true) => {}
                Err(e) if matches!(e.kind(), csv::ErrorKind::Io(_)) => return Ok(()),
                Err(e) => {
                    out.errors.push(RowError {
                        row: e.position().map_or(0, |p| p.line() as usize),
                        column: None,
                        code: IssueCode::MalformedRow,
                        message: format!("the row cannot be read: {e}"),
                    });
                    continue;
                }
            }
        }
        first_line = false;
        let row = record.position().map_or(HEADER_ROW, |p| p.line() as usize);
        if record.iter().all(str::is_empty) {
            continue;
        }
        let has = |name: &str| {
            record
                .iter()
                .any(|c| c.trim_start_matches('\u{feff}') == name)
        };
        if has(broker_csv::NH_TOP) {
            if let Some((line, _)) = pending.take() {
                out.errors.push(nh_cut(line));
            }
            top = Some(line_names(&record));
            awaiting_bottom = true;
            continue;
        }
        if awaiting_bottom {
            if has(broker_csv::NH_BOTTOM) {
                bottom = Some(line_names(&record));
            } else {
                out.errors.push(RowError {
                    row,
                    column: None,
                    code: IssueCode::MalformedRow,
                    message: "the header's second line (거래종류, 종목명, 단가…) is missing".into(),
                });
                top = None;
            }
            awaiting_bottom = false;
            continue;
        }
        let (Some(top_names), Some(bottom_names)) = (&top, &bottom) else {
            // The title, page number and print date above the first header.
            continue;
        };
        let Some((line, upper)) = pending.take() else {
            // A record starts with its date; other lines between records are the
            // next page's title, page number and print date and time.
            let dated = top_names
                .iter()
                .position(|n| *n == date_name)
                .and_then(|i| record.get(i))
                .is_some_and(|d| parse_date(d).is_some());
            if dated {
                pending = Some((row, record.clone()));
            }
            continue;
        };
        data_rows += 1;
        if data_rows > MAX_IMPORT_ROWS {
            return Err(FileTooLarge::Rows);
        }
        let mut cells: HashMap<String, String> = HashMap::new();
        for (names, line) in [(top_names, &upper), (bottom_names, &record)] {
            for (name, value) in names.iter().zip(line.iter()) {
                if !name.is_empty() {
                    cells
                        .entry(name.clone())
                        .or_insert_with(|| value.to_owned());
                }
            }
        }
        let cell = |name: &str| {
            cells
                .get(&broker_csv::normalise(name))
                .map(String::as_str)
                .unwrap_or("")
        };
        let result = parse_broker_row(b, &cell, settings, resolve);
        out.add_broker_row(line, result, &mut next_id);
    }
    if let Some((line, _)) = pending {
        out.errors.push(nh_cut(line));
    }
    if top.is_none() || bottom.is_none() {
        out.errors.push(file_error(
            IssueCode::MissingColumn,
            None,
            "the report has no header lines (거래일자… over 거래종류…)".into(),
        ));
    }
    Ok(())
}

/// A record whose second line never came.
fn nh_cut(line: usize) -> RowError {
    RowError {
        row: line,
        column: None,
        code: IssueCode::MalformedRow,
        message: "the record's second line (거래종류, 종목명, 단가…) is missing".into(),
    }
}

impl ParsedFile {
    /// What broker row `row` gave: its transactions (numbered from `next_id`), its
    /// skip, or its errors.
    fn add_broker_row(&mut self, row: usize, result: BrokerRow, next_id: &mut i64) {
        match result {
            BrokerRow::Transactions(txs) => {
                for mut tx in txs {
                    *next_id += 1;
                    tx.id = *next_id;
                    self.rows.push(PreviewRow {
                        row,
                        transaction: tx,
                        duplicate: false,
                    });
                }
            }
            BrokerRow::Skip(reason, label) => self.skipped.push(SkippedRow { row, reason, label }),
            BrokerRow::Errors(errors) => {
                self.errors
                    .extend(errors.into_iter().map(|(column, code, message)| RowError {
                        row,
                        column: Some(column),
                        code,
                        message,
                    }))
            }
        }
    }
}

/// What one broker row gives.
enum BrokerRow {
    Transactions(Vec<Transaction>),
    Skip(SkipReason, String),
    Errors(Vec<CellError>),
}

/// One broker row to its transactions (ids are set by the caller).
fn parse_broker_row<'a>(
    b: &BrokerFormat,
    cell: &dyn Fn(&str) -> &'a str,
    settings: &PortfolioSettings,
    resolve: &Resolver<'_>,
) -> BrokerRow {
    let mut errors: Vec<CellError> = Vec::new();
    let date = parse_date(cell(b.date));
    if date.is_none() {
        errors.push((
            Field::Date,
            IssueCode::InvalidDate,
            format!(
                "{:?} is not a date (YYYY-MM-DD, YYYY.MM.DD, YYYY/MM/DD)",
                cell(b.date)
            ),
        ));
    }
    let mut number = |name: &str, field: Field| -> Decimal {
        let s = cell(name);
        broker_csv::broker_number(s).unwrap_or_else(|| {
            errors.push((
                field,
                IssueCode::InvalidNumber,
                format!("{s:?} in {name} is not a number"),
            ));
            Decimal::ZERO
        })
    };
    let fee: Decimal = b.fee.iter().map(|c| number(c, Field::Fee)).sum();
    let tax: Decimal = b.tax.iter().map(|c| number(c, Field::Tax)).sum();
    let fx_rate = b
        .fx_rate
        .map(|c| number(c, Field::FxRate))
        .filter(|r| !r.is_zero());
    // (kind, quantity, price) of each transaction the row gives.
    let mut trades: Vec<(TxKind, Decimal, Decimal)> = Vec::new();
    let mut label = String::new();
    match b.layout {
        Layout::Typed {
            kind,
            quantity,
            price,
            amount,
        } => {
            label = cell(kind).to_owned();
            match broker_csv::trade_word(cell(kind)) {
                Some(Word::Skip(reason)) => return BrokerRow::Skip(reason, label),
                Some(Word::Tx(k @ (TxKind::Buy | TxKind::Sell))) => {
                    let q = number(quantity, Field::Quantity);
                    let p = number(price, Field::Price);
                    trades.push((k, q, p));
                }
                Some(Word::Tx(k)) => {
                    let a = number(amount, Field::Price);
                    trades.push((k, Decimal::ONE, a));
                }
                None => errors.push((
                    Field::Type,
                    IssueCode::InvalidType,
                    format!(
                        "{:?} is not a trade type this format knows (매수, 매도, 배당, 입금, 출금…)",
                        cell(kind)
                    ),
                )),
            }
        }
        Layout::BuySell {
            buy_quantity,
            buy_price,
            sell_quantity,
            sell_price,
        } => {
            let bq = number(buy_quantity, Field::Quantity);
            let bp = number(buy_price, Field::Price);
            let sq = number(sell_quantity, Field::Quantity);
            let sp = number(sell_price, Field::Price);
            if bq > Decimal::ZERO {
                trades.push((TxKind::Buy, bq, bp));
            }
            if sq > Decimal::ZERO {
                trades.push((TxKind::Sell, sq, sp));
            }
            if trades.is_empty() && errors.is_empty() {
                return BrokerRow::Skip(SkipReason::NoTrade, label);
            }
        }
    }
    let needs_instrument = trades
        .iter()
        .any(|(k, _, _)| !matches!(k, TxKind::Deposit | TxKind::Withdrawal));
    let mut instrument = None;
    if needs_instrument {
        let code = b
            .code
            .map(|c| broker_csv::broker_code(cell(c)))
            .unwrap_or_default();
        let name = b.name.map(|c| cell(c).trim()).unwrap_or("");
        let named = if code.is_empty() { name } else { code.as_str() };
        instrument = if named.is_empty() {
            None
        } else if let Some(id) = parse_instrument(named) {
            Some(id)
        } else {
            resolve(named).or_else(|| if named == name { None } else { resolve(name) })
        };
        if instrument.is_none() && !named.is_empty() {
            errors.push((
                Field::Instrument,
                IssueCode::UnknownInstrument,
                format!("the catalogue has no instrument {named:?}"),
            ));
        }
    }
    let currency = match b.currency.map(cell).and_then(broker_csv::broker_currency) {
        Some("?") => {
            let raw = b.currency.map(cell).unwrap_or("");
            errors.push((
                Field::Currency,
                IssueCode::CurrencyUnsupported,
                format!("{raw:?} is not a currency Moat reads (KRW, USD)"),
            ));
            settings.base_currency.clone()
        }
        Some(c) => c.to_owned(),
        None => instrument
            .as_ref()
            .and_then(default_currency)
            .unwrap_or(&settings.base_currency)
            .to_owned(),
    };
    let (Some(date), true) = (date, errors.is_empty()) else {
        return BrokerRow::Errors(errors);
    };
    let last = trades.len().saturating_sub(1);
    let txs = trades
        .into_iter()
        .enumerate()
        .map(|(i, (kind, quantity, price))| {
            // The row's fee and tax go with its last transaction (the sell).
            let (fee, tax) = if i == last {
                (fee, tax)
            } else {
                (Decimal::ZERO, Decimal::ZERO)
            };
            Transaction {
                id: 0,
                kind,
                trade_date: date,
                instrument: if matches!(kind, TxKind::Deposit | TxKind::Withdrawal) {
                    None
                } else {
                    instrument.clone()
                },
                quantity,
                price,
                fee,
                tax,
                currency: currency.clone(),
                fx_rate: if currency == settings.base_currency {
                    None
                } else {
                    fx_rate
                },
                split: None,
                note: label.clone(),
            }
        })
        .collect();
    BrokerRow::Transactions(txs)
}

/// Checks parsed rows against the portfolio's `existing` transactions: marks the rows
/// already there, and reports every problem of the new rows, alone and replayed with
/// the existing ones. Applies nothing.
pub fn check(
    parsed: ParsedFile,
    settings: &PortfolioSettings,
    existing: &[Transaction],
) -> ImportPreview {
    let mut out = ImportPreview {
        rows: parsed.rows,
        errors: parsed.errors,
        warnings: Vec::new(),
        ignored_columns: parsed.ignored_columns,
        format: parsed.format,
        encoding: parsed.encoding,
        skipped: parsed.skipped,
    };
    if out.rows.is_empty() {
        return out;
    }
    mark_duplicates(&mut out.rows, existing);
    check_rows(&mut out, settings, existing);
    out.errors.sort_by_key(|e| e.row);
    out
}

/// Parses and checks a file in memory (see [`parse`] and [`check`]).
pub fn preview(
    text: &str,
    settings: &PortfolioSettings,
    existing: &[Transaction],
) -> Result<ImportPreview, FileTooLarge> {
    let last_id = existing.iter().map(|t| t.id).max().unwrap_or(0);
    Ok(check(
        parse(text.as_bytes(), settings, last_id)?,
        settings,
        existing,
    ))
}

/// Checks rows that passed a preview again, against `existing` as it stands now (a
/// transaction recorded, or the same file imported, since the preview): the rows to
/// import, with duplicates marked again, or every problem.
pub fn recheck(
    rows: Vec<PreviewRow>,
    settings: &PortfolioSettings,
    existing: &[Transaction],
) -> Result<Vec<PreviewRow>, Vec<RowError>> {
    let last_id = existing.iter().map(|t| t.id).max().unwrap_or(0);
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(i, mut r)| {
            r.transaction.id = last_id + 1 + i as i64;
            r.duplicate = false;
            r
        })
        .collect();
    let checked = check(
        ParsedFile {
            rows,
            ..ParsedFile::default()
        },
        settings,
        existing,
    );
    if checked.errors.is_empty() {
        Ok(checked.rows)
    } else {
        Err(checked.errors)
    }
}

fn file_error(code: IssueCode, column: Option<Field>, message: String) -> RowError {
    RowError {
        row: HEADER_ROW,
        column,
        code,
        message,
    }
}

type CellError = (Field, IssueCode, String);

/// One data row to a transaction, or every cell that cannot be read.
fn parse_row<'a>(
    cell: &dyn Fn(Field) -> &'a str,
    settings: &PortfolioSettings,
    id: i64,
) -> Result<Transaction, Vec<CellError>> {
    let mut errors = Vec::new();
    let date = parse_date(cell(Field::Date));
    if date.is_none() {
        errors.push((
            Field::Date,
            IssueCode::InvalidDate,
            format!("{:?} is not a date (YYYY-MM-DD)", cell(Field::Date)),
        ));
    }
    let kind = parse_type(cell(Field::Type));
    if kind.is_none() {
        errors.push((
            Field::Type,
            IssueCode::InvalidType,
            format!(
                "{:?} is not a type (buy, sell, dividend, deposit, withdrawal, fee, tax, split)",
                cell(Field::Type)
            ),
        ));
    }
    let instrument = match cell(Field::Instrument) {
        "" => None,
        s => match parse_instrument(s) {
            Some(id) => Some(id),
            None => {
                errors.push((
                    Field::Instrument,
                    IssueCode::InvalidInstrument,
                    format!("{s:?} is not an instrument id (e.g. KRX:005930, NASDAQ:AAPL)"),
                ));
                None
            }
        },
    };
    let mut number = |field: Field, blank: Decimal| -> Decimal {
        let s = cell(field);
        if s.is_empty() {
            return blank;
        }
        parse_number(s).unwrap_or_else(|| {
            errors.push((
                field,
                IssueCode::InvalidNumber,
                format!("{s:?} is not a number"),
            ));
            Decimal::ZERO
        })
    };
    let default_quantity = match kind {
        Some(
            TxKind::Dividend | TxKind::Deposit | TxKind::Withdrawal | TxKind::Fee | TxKind::Tax,
        ) => Decimal::ONE,
        _ => Decimal::ZERO,
    };
    let quantity = number(Field::Quantity, default_quantity);
    let price = number(Field::Price, Decimal::ZERO);
    let fee = number(Field::Fee, Decimal::ZERO);
    let tax = number(Field::Tax, Decimal::ZERO);
    let fx_rate = match cell(Field::FxRate) {
        "" => None,
        _ => Some(number(Field::FxRate, Decimal::ZERO)),
    };
    let split = match cell(Field::Ratio) {
        "" => None,
        s => match parse_ratio(s) {
            Some(r) => Some(r),
            None => {
                errors.push((
                    Field::Ratio,
                    IssueCode::InvalidRatio,
                    format!("{s:?} is not a split ratio (e.g. 4/1, 1/10)"),
                ));
                None
            }
        },
    };
    let currency = match cell(Field::Currency) {
        "" => instrument
            .as_ref()
            .and_then(default_currency)
            .unwrap_or(&settings.base_currency)
            .to_owned(),
        s => s.to_ascii_uppercase(),
    };
    match (date, kind) {
        (Some(date), Some(kind)) if errors.is_empty() => Ok(Transaction {
            id,
            kind,
            trade_date: date,
            instrument,
            quantity,
            price,
            fee,
            tax,
            currency,
            fx_rate,
            split: if kind == TxKind::Split { split } else { None },
            note: unquote_cell(cell(Field::Note)).to_owned(),
        }),
        _ => Err(errors),
    }
}

fn parse_date(s: &str) -> Option<NaiveDate> {
    let s = s.trim().trim_end_matches('.');
    DATE_FORMATS
        .iter()
        .find_map(|f| NaiveDate::parse_from_str(s, f).ok())
}

fn parse_number(s: &str) -> Option<Decimal> {
    let cleaned: String = s
        .chars()
        .filter(|c| *c != ',' && !c.is_whitespace())
        .collect();
    cleaned.parse::<Decimal>().ok()
}

fn parse_instrument(s: &str) -> Option<InstrumentId> {
    if s.len() == 6
        && s.bytes().all(|b| b.is_ascii_alphanumeric())
        && s.bytes().any(|b| b.is_ascii_digit())
    {
        return InstrumentId::new(Exchange::Krx, s).ok();
    }
    s.parse().ok()
}

fn parse_ratio(s: &str) -> Option<SplitRatio> {
    let (n, d) = s.split_once(['/', ':']).unwrap_or((s, "1"));
    let ratio = SplitRatio {
        numerator: n.trim().parse().ok()?,
        denominator: d.trim().parse().ok()?,
    };
    ratio.factor().map(|_| ratio)
}

/// The currency an instrument trades in, by exchange.
fn default_currency(id: &InstrumentId) -> Option<&'static str> {
    match id.exchange() {
        Exchange::Krx => Some(crate::money::KRW),
        Exchange::Nyse | Exchange::Nasdaq | Exchange::Crypto => Some(crate::money::USD),
        Exchange::Index | Exchange::Fx => None,
    }
}

/// Marks the first *k* rows of each fingerprint as duplicates, *k* being how many
/// existing transactions have it.
fn mark_duplicates(rows: &mut [PreviewRow], existing: &[Transaction]) {
    let mut remaining: HashMap<String, usize> = HashMap::new();
    for tx in existing {
        *remaining.entry(fingerprint(tx)).or_default() += 1;
    }
    for row in rows {
        if let Some(n) = remaining.get_mut(&fingerprint(&row.transaction)) {
            if *n > 0 {
                *n -= 1;
                row.duplicate = true;
            }
        }
    }
}

/// Validates the new rows, alone and replayed with the existing transactions, and
/// reports each problem on its row.
fn check_rows(out: &mut ImportPreview, settings: &PortfolioSettings, existing: &[Transaction]) {
    let new: Vec<&PreviewRow> = out.rows.iter().filter(|r| !r.duplicate).collect();
    let row_of: HashMap<i64, usize> = new.iter().map(|r| (r.transaction.id, r.row)).collect();
    let mut all: Vec<Transaction> = existing.to_vec();
    all.extend(new.iter().map(|r| r.transaction.clone()));
    let report = validate(settings, &all);
    let to_row = |issue: crate::validation::Issue| {
        row_of.get(&issue.transaction_id).map(|row| RowError {
            row: *row,
            column: issue.field,
            code: issue.code,
            message: issue.message,
        })
    };
    out.errors
        .extend(report.errors.into_iter().filter_map(to_row));
    out.warnings
        .extend(report.warnings.into_iter().filter_map(to_row));
}

/// Characters that make a spreadsheet read a cell as a formula.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A cell as written by export: one a spreadsheet would run as a formula gets a leading
/// `'` (the spreadsheet convention for "text"), unless it is a plain number.
fn safe_cell(cell: String) -> String {
    if cell.starts_with(FORMULA_STARTS) && cell.parse::<Decimal>().is_err() {
        format!("'{cell}")
    } else {
        cell
    }
}

/// A cell as read by import: the `'` that [`safe_cell`] added is dropped.
fn unquote_cell(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(FORMULA_STARTS) => rest,
        _ => cell,
    }
}

/// Every transaction in the import format, in ledger order (date, then id), with
/// English headers and type names and numbers at full precision. Cells that a
/// spreadsheet would run as formulas are neutralised ([`safe_cell`]).
pub fn export(transactions: &[Transaction]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let write = |w: &mut csv::Writer<Vec<u8>>, rec: Vec<String>| {
        w.write_record(rec.into_iter().map(safe_cell))
            .expect("writing to memory cannot fail")
    };
    write(
        &mut writer,
        COLUMNS.iter().map(|f| f.as_str().to_owned()).collect(),
    );
    for tx in sorted(transactions) {
        let n = |d: Decimal| d.normalize().to_string();
        write(
            &mut writer,
            vec![
                tx.trade_date.to_string(),
                tx.kind.as_str().to_owned(),
                tx.instrument
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                n(tx.quantity),
                n(tx.price),
                n(tx.fee),
                n(tx.tax),
                tx.currency.clone(),
                tx.fx_rate.map(n).unwrap_or_default(),
                tx.split
                    .map(|r| format!("{}/{}", r.numerator, r.denominator))
                    .unwrap_or_default(),
                tx.note.clone(),
            ],
        );
    }
    String::from_utf8(writer.into_inner().expect("flushing to memory cannot fail"))
        .expect("CSV of Strings is UTF-8")
}
