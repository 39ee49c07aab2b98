//! CSV import and export of transactions.
//!
//! # Format
//!
//! UTF-8 (a byte-order mark is ignored), comma-separated, one header row, then one
//! transaction per row. Export writes these columns in this order:
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
    h.trim_start_matches('\u{feff}')
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '_' | '-' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
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
}

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
/// [`MAX_IMPORT_ROWS`] rows or [`MAX_IMPORT_BYTES`] bytes.
pub fn parse<R: Read>(
    input: R,
    settings: &PortfolioSettings,
    last_id: i64,
) -> Result<ParsedFile, FileTooLarge> {
    let mut capped = Capped {
        inner: input,
        left: MAX_IMPORT_BYTES,
        over: false,
    };
    let parsed = parse_capped(&mut capped, settings, last_id);
    if capped.over {
        return Err(FileTooLarge::Bytes);
    }
    parsed
}

fn parse_capped<R: Read>(
    input: &mut Capped<R>,
    settings: &PortfolioSettings,
    last_id: i64,
) -> Result<ParsedFile, FileTooLarge> {
    let mut out = ParsedFile::default();
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(input);
    let headers = reader.headers().cloned();
    let headers = match headers {
        Ok(h)
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
        Err(_) if reader.get_ref().over => return Err(FileTooLarge::Bytes),
        Err(e) => {
            out.errors.push(file_error(
                IssueCode::MalformedRow,
                None,
                format!("the header row cannot be read: {e}"),
            ));
            return Ok(out);
        }
    };
    let mut columns: HashMap<Field, usize> = HashMap::new();
    for (i, h) in headers.iter().enumerate() {
        match header_field(h) {
            Some(f) => {
                columns.entry(f).or_insert(i);
            }
            None if h.is_empty() => {}
            None => out.ignored_columns.push(h.to_owned()),
        }
    }
    for required in [Field::Date, Field::Type] {
        if !columns.contains_key(&required) {
            out.errors.push(file_error(
                IssueCode::MissingColumn,
                Some(required),
                format!("the file has no {required} column"),
            ));
        }
    }
    if !out.errors.is_empty() {
        return Ok(out);
    }

    let mut next_id = last_id;
    let mut record = csv::StringRecord::new();
    let mut data_rows = 0usize;
    loop {
        let read = reader.read_record(&mut record);
        match read {
            Ok(false) => break,
            Ok(true) => {}
            Err(_) if reader.get_ref().over => return Err(FileTooLarge::Bytes),
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
