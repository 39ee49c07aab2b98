//! Stored rows as the domain's values, ids from the path, and the domain's errors as
//! the API's.

use axum::http::StatusCode; // the status type ApiError takes (no axum otherwise)
use moat_portfolio::{
    CostMethod, CurrencyMode, Field, Issue, PortfolioSettings, SplitRatio, Transaction, TxKind,
};
use moat_storage::{NewTransaction, PortfolioRow, TransactionRow};

use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    portfolio::PortfolioState,
};

/// The path segment that names the meta portfolio (all of a member's portfolios).
pub const META: &str = "meta";

pub fn settings_of(row: &PortfolioRow) -> PortfolioSettings {
    PortfolioSettings {
        base_currency: row.base_currency.clone(),
        cost_method: CostMethod::parse(&row.cost_method).unwrap_or_default(),
    }
}

/// A split's ratio from its two stored terms (both or neither are set).
pub fn split_of(numerator: Option<u32>, denominator: Option<u32>) -> Option<SplitRatio> {
    Some(SplitRatio {
        numerator: numerator?,
        denominator: denominator?,
    })
}

/// A stored row as the domain's transaction.
pub fn to_domain(row: &TransactionRow) -> Result<Transaction, ApiError> {
    let kind = TxKind::parse(&row.kind)
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("stored kind {:?}", row.kind)))?;
    Ok(Transaction {
        id: row.id,
        kind,
        trade_date: row.trade_date,
        instrument: row.instrument_id.clone(),
        quantity: row.quantity,
        price: row.price,
        fee: row.fee,
        tax: row.tax,
        currency: row.currency.clone(),
        fx_rate: row.fx_rate,
        split: split_of(row.split_numerator, row.split_denominator),
        note: row.note.clone(),
    })
}

pub fn to_domain_all(rows: &[TransactionRow]) -> Result<Vec<Transaction>, ApiError> {
    rows.iter().map(to_domain).collect()
}

/// A transaction about to be stored, as the domain's (with a provisional `id`).
pub(crate) fn new_to_domain(id: i64, t: &NewTransaction) -> Transaction {
    Transaction {
        id,
        kind: TxKind::parse(&t.kind).unwrap_or(TxKind::Deposit),
        trade_date: t.trade_date,
        instrument: t.instrument_id.clone(),
        quantity: t.quantity,
        price: t.price,
        fee: t.fee,
        tax: t.tax,
        currency: t.currency.clone(),
        fx_rate: t.fx_rate,
        split: split_of(t.split_numerator, t.split_denominator),
        note: t.note.clone(),
    }
}

/// `original`, `KRW` or `USD` (any case), default `original`.
pub fn parse_mode(raw: Option<&str>) -> Result<CurrencyMode, ApiError> {
    match raw {
        None | Some("") => Ok(CurrencyMode::Original),
        Some(s) => CurrencyMode::parse(s).ok_or_else(|| {
            ApiError::invalid_parameter(
                "currency",
                FieldError::new(ErrorCode::InvalidCurrencyMode, "One of original, KRW, USD."),
            )
        }),
    }
}

/// A row id from the path (`id` of a portfolio, `tx` of a transaction): a positive
/// number, else 400 naming the parameter.
fn parse_row_id(name: &str, raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>().ok().filter(|id| *id > 0).ok_or_else(|| {
        ApiError::invalid_parameter(
            name,
            FieldError::new(ErrorCode::InvalidId, "A positive number."),
        )
    })
}

pub fn parse_portfolio_id(raw: &str) -> Result<i64, ApiError> {
    parse_row_id("id", raw)
}

pub fn parse_tx_id(raw: &str) -> Result<i64, ApiError> {
    parse_row_id("tx", raw)
}

pub(crate) fn not_found() -> ApiError {
    ApiError::not_found("There is no such portfolio.")
}

/// The member's portfolio `id`, or 404 (another member's is a 404 exactly like a
/// missing one).
pub async fn owned(
    state: &PortfolioState,
    user_id: i64,
    id: i64,
) -> Result<PortfolioRow, ApiError> {
    state
        .storage
        .portfolio(user_id, id)
        .await?
        .ok_or_else(not_found)
}

/// The API field an issue names (the domain names CSV columns).
pub fn api_field(field: Option<Field>) -> &'static str {
    match field {
        Some(Field::Date) => "trade_date",
        Some(Field::Type) => "kind",
        Some(Field::Instrument) => "instrument_id",
        Some(Field::Quantity) => "quantity",
        Some(Field::Price) => "price",
        Some(Field::Fee) => "fee",
        Some(Field::Tax) => "tax",
        Some(Field::Currency) => "currency",
        Some(Field::FxRate) => "fx_rate",
        Some(Field::Ratio) => "split",
        Some(Field::Note) => "note",
        None => "transaction",
    }
}

pub(crate) fn invalid_transaction(issues: &[Issue]) -> ApiError {
    let fields = issues
        .iter()
        .map(|i| (api_field(i.field).to_owned(), field_error(i)))
        .collect();
    ApiError::invalid_fields(fields)
}

/// A domain issue as a field error: its code, its values and its English message.
pub(crate) fn field_error(issue: &Issue) -> FieldError {
    FieldError {
        code: issue.code.into(),
        params: issue.params.clone(),
        message: issue.message.clone(),
    }
}

pub(crate) fn domain_error(e: moat_portfolio::PortfolioError) -> ApiError {
    match e {
        moat_portfolio::PortfolioError::Invalid(issues) => invalid_transaction(&issues),
        moat_portfolio::PortfolioError::FxUnavailable { from, to } => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::FxUnavailable,
            format!("There is no {from}/{to} rate yet to convert with; try again shortly."),
        ),
        other => ApiError::bad_request(ErrorCode::InvalidCurrencyMode, other.to_string()),
    }
}

impl From<moat_portfolio::IssueCode> for ErrorCode {
    fn from(code: moat_portfolio::IssueCode) -> Self {
        use moat_portfolio::IssueCode as I;
        match code {
            I::CurrencyUnsupported => ErrorCode::CurrencyUnsupported,
            I::InstrumentMissing => ErrorCode::InstrumentMissing,
            I::InstrumentUnexpected => ErrorCode::InstrumentUnexpected,
            I::QuantityNotPositive => ErrorCode::QuantityNotPositive,
            I::PriceNotPositive => ErrorCode::PriceNotPositive,
            I::FractionalShares => ErrorCode::FractionalShares,
            I::FeeNegative => ErrorCode::FeeNegative,
            I::TaxNegative => ErrorCode::TaxNegative,
            I::FxRateMissing => ErrorCode::FxRateMissing,
            I::FxRateNotPositive => ErrorCode::FxRateNotPositive,
            I::SplitRatioInvalid => ErrorCode::SplitRatioInvalid,
            I::InsufficientQuantity => ErrorCode::InsufficientQuantity,
            I::SplitNotHeld => ErrorCode::SplitNotHeld,
            I::CurrencyMismatch => ErrorCode::CurrencyMismatch,
            I::DividendNotHeld => ErrorCode::DividendNotHeld,
            I::FxRateUnavailable => ErrorCode::FxRateUnavailable,
            I::EmptyFile => ErrorCode::EmptyFile,
            I::MissingColumn => ErrorCode::MissingColumn,
            I::MalformedRow => ErrorCode::MalformedRow,
            I::InvalidDate => ErrorCode::InvalidDate,
            I::InvalidType => ErrorCode::InvalidType,
            I::InvalidNumber => ErrorCode::InvalidNumber,
            I::InvalidInstrument => ErrorCode::InvalidInstrument,
            I::UnknownInstrument => ErrorCode::UnknownInstrument,
            I::InvalidRatio => ErrorCode::InvalidRatio,
            I::InvalidEncoding => ErrorCode::InvalidEncoding,
        }
    }
}
