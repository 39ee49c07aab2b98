//! The portfolio API (docs/portfolio.md). Every handler takes the [`Member`] and passes
//! their id to storage, which scopes each query to that member: another member's
//! portfolio is a 404 exactly like a missing one.

use std::{
    collections::{BTreeMap, HashMap},
    sync::Arc,
};

use axum::{
    extract::{Path, Query, State},
    http::{header, StatusCode},
    response::{IntoResponse, Response},
};
use chrono::{NaiveDate, Utc};
use moat_market::InstrumentId;
use moat_portfolio::{
    allocation::InstrumentMeta, combine, csv_file, money::round_money, value_portfolio,
    AllocationBy, CostMethod, CurrencyMode, Field, Issue, PortfolioSettings, Transaction, TxKind,
    Valuation,
};
use moat_storage::{
    NewPortfolio, NewTransaction, OrderableCash, PortfolioRow, PortfolioUpdate, TransactionRow,
    MAX_PORTFOLIO_NAME_CHARS,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    cache::LedgerState, catalogue, fx_history, instruments_of, parse_mode, price_history,
    settings_of, snapshot, split_of, write,
};
use crate::{
    accounts::extract::Member,
    http::{
        error::{ApiError, ErrorBody},
        idempotency::{self, Idempotency},
        json::ApiJson,
    },
    market::routes::rfc3339,
    AppState,
};

/// Largest CSV file an import accepts.
pub const MAX_IMPORT_BYTES: usize = csv_file::MAX_IMPORT_BYTES;
/// The path segment that names the meta portfolio (all of a member's portfolios).
pub const META: &str = "meta";

/// A row id from the path (`id` of a portfolio, `tx` of a transaction): a positive
/// number, else 400 naming the parameter.
fn parse_row_id(name: &str, raw: &str) -> Result<i64, ApiError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::invalid_parameter(name, "A positive number."))
}

fn parse_portfolio_id(raw: &str) -> Result<i64, ApiError> {
    parse_row_id("id", raw)
}

pub(crate) fn not_found() -> ApiError {
    ApiError::not_found("There is no such portfolio.")
}

/// A transaction that cannot be applied (a sell of more than was held, left by old
/// data): the portfolio's figures stop before it, and the member is told which one to
/// fix.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct LedgerIssueDto {
    pub portfolio_id: i64,
    pub transaction_id: i64,
    pub trade_date: String,
    /// The transaction's kind (`sell`, …).
    pub kind: String,
    pub instrument_id: Option<String>,
    /// The field at fault (`quantity`, …), as the transaction API names it.
    pub field: String,
    /// `moat_portfolio::IssueCode` (`sell_exceeds_holding`, …).
    pub code: String,
    /// English; the UI words it from `code`.
    pub message: String,
}

impl LedgerIssueDto {
    /// The issue that stopped `ledger` of portfolio `portfolio_id`, if any.
    pub fn of(portfolio_id: i64, ledger: &LedgerState) -> Option<Self> {
        let issue = ledger.issue.as_ref()?;
        let tx = ledger.stopped_at()?;
        Some(Self {
            portfolio_id,
            transaction_id: tx.id,
            trade_date: tx.trade_date.to_string(),
            kind: tx.kind.as_str().to_owned(),
            instrument_id: tx.instrument.as_ref().map(ToString::to_string),
            field: api_field(issue.field).to_owned(),
            code: issue.code.as_str().to_owned(),
            message: issue.message.clone(),
        })
    }
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct OrderableCashDto {
    /// Decimal string.
    pub amount: String,
    pub currency: String,
    pub updated_at: Option<String>,
}

/// A portfolio's settings.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct PortfolioDto {
    pub id: i64,
    pub name: String,
    /// `KRW` or `USD`.
    pub base_currency: String,
    /// `moving_average` or `fifo`.
    pub cost_method: String,
    pub broker: Option<String>,
    pub position: i64,
    pub orderable_cash: Option<OrderableCashDto>,
    pub created_at: String,
}

impl From<&PortfolioRow> for PortfolioDto {
    fn from(p: &PortfolioRow) -> Self {
        Self {
            id: p.id,
            name: p.name.clone(),
            base_currency: p.base_currency.clone(),
            cost_method: p.cost_method.clone(),
            broker: p.broker.clone(),
            position: p.position,
            orderable_cash: p.orderable_cash.as_ref().map(|c| OrderableCashDto {
                amount: c.amount.to_string(),
                currency: c.currency.clone(),
                updated_at: Some(rfc3339(c.updated_at)),
            }),
            created_at: rfc3339(p.created_at),
        }
    }
}

/// A split's ratio: `denominator` old shares become `numerator` new ones.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, Copy)]
pub struct SplitDto {
    pub numerator: u32,
    pub denominator: u32,
}

impl From<moat_portfolio::SplitRatio> for SplitDto {
    fn from(s: moat_portfolio::SplitRatio) -> Self {
        Self {
            numerator: s.numerator,
            denominator: s.denominator,
        }
    }
}

/// A transaction; amounts are decimal strings.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct TransactionDto {
    pub id: i64,
    /// `buy`, `sell`, `dividend`, `deposit`, `withdrawal`, `fee`, `tax` or `split`.
    pub kind: String,
    pub trade_date: String,
    pub instrument_id: Option<String>,
    pub quantity: String,
    pub price: String,
    pub fee: String,
    pub tax: String,
    pub currency: String,
    pub fx_rate: Option<String>,
    pub split: Option<SplitDto>,
    pub note: String,
}

impl From<&TransactionRow> for TransactionDto {
    fn from(t: &TransactionRow) -> Self {
        Self {
            id: t.id,
            kind: t.kind.clone(),
            trade_date: t.trade_date.to_string(),
            instrument_id: t.instrument_id.as_ref().map(ToString::to_string),
            quantity: t.quantity.normalize().to_string(),
            price: t.price.normalize().to_string(),
            fee: t.fee.normalize().to_string(),
            tax: t.tax.normalize().to_string(),
            currency: t.currency.clone(),
            fx_rate: t.fx_rate.map(|r| r.normalize().to_string()),
            split: split_of(t.split_numerator, t.split_denominator).map(Into::into),
            note: t.note.clone(),
        }
    }
}

impl TransactionDto {
    fn from_domain(t: &Transaction) -> Self {
        Self {
            id: t.id,
            kind: t.kind.as_str().to_owned(),
            trade_date: t.trade_date.to_string(),
            instrument_id: t.instrument.as_ref().map(ToString::to_string),
            quantity: t.quantity.normalize().to_string(),
            price: t.price.normalize().to_string(),
            fee: t.fee.normalize().to_string(),
            tax: t.tax.normalize().to_string(),
            currency: t.currency.clone(),
            fx_rate: t.fx_rate.map(|r| r.normalize().to_string()),
            split: t.split.map(Into::into),
            note: t.note.clone(),
        }
    }
}

/// A transaction to record (or to replace one with).
#[derive(Deserialize, ToSchema, Debug, Clone)]
pub struct TransactionInput {
    pub kind: String,
    /// `YYYY-MM-DD`.
    pub trade_date: String,
    pub instrument_id: Option<String>,
    #[serde(default)]
    pub quantity: Option<String>,
    #[serde(default)]
    pub price: Option<String>,
    #[serde(default)]
    pub fee: Option<String>,
    #[serde(default)]
    pub tax: Option<String>,
    pub currency: String,
    #[serde(default)]
    pub fx_rate: Option<String>,
    #[serde(default)]
    pub split: Option<SplitDto>,
    #[serde(default)]
    pub note: Option<String>,
}

/// The latest trade date accepted: today where the day is furthest ahead (UTC+14), so a
/// member anywhere can record today's trades and nobody tomorrow's.
fn latest_trade_date() -> NaiveDate {
    (Utc::now() + chrono::Duration::hours(14)).date_naive()
}

/// Longest note on a transaction, in characters.
pub const MAX_NOTE_CHARS: usize = 500;

fn decimal_field(errors: &mut BTreeMap<String, String>, field: &str, raw: Option<&str>) -> Decimal {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Decimal::ZERO,
        Some(s) => s.parse::<Decimal>().unwrap_or_else(|_| {
            errors.insert(field.to_owned(), "A decimal number such as 12.5.".into());
            Decimal::ZERO
        }),
    }
}

impl TransactionInput {
    /// The storage form, or 422 naming each malformed field. Rules that need the
    /// portfolio (currency, FX, holdings) are the domain's [`validate`].
    fn parse(&self) -> Result<NewTransaction, ApiError> {
        let mut errors = BTreeMap::new();
        if TxKind::parse(&self.kind).is_none() {
            errors.insert(
                "kind".into(),
                "One of buy, sell, dividend, deposit, withdrawal, fee, tax, split.".into(),
            );
        }
        let trade_date = NaiveDate::parse_from_str(self.trade_date.trim(), "%Y-%m-%d")
            .unwrap_or_else(|_| {
                errors.insert("trade_date".into(), "A date as YYYY-MM-DD.".into());
                NaiveDate::MIN
            });
        if trade_date > latest_trade_date() {
            errors.insert(
                "trade_date".into(),
                "The trade date is in the future.".into(),
            );
        }
        let instrument_id = match self.instrument_id.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(raw) => match raw.parse::<InstrumentId>() {
                Ok(id) => Some(id),
                Err(e) => {
                    errors.insert("instrument_id".into(), e.to_string());
                    None
                }
            },
        };
        let quantity = decimal_field(&mut errors, "quantity", self.quantity.as_deref());
        let price = decimal_field(&mut errors, "price", self.price.as_deref());
        let fee = decimal_field(&mut errors, "fee", self.fee.as_deref());
        let tax = decimal_field(&mut errors, "tax", self.tax.as_deref());
        let fx_rate = match self.fx_rate.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(raw) => Some(decimal_field(&mut errors, "fx_rate", Some(raw))),
        };
        let note = self.note.clone().unwrap_or_default();
        if note.chars().count() > MAX_NOTE_CHARS {
            errors.insert(
                "note".into(),
                format!("At most {MAX_NOTE_CHARS} characters."),
            );
        }
        if !errors.is_empty() {
            return Err(ApiError::invalid_fields(errors));
        }
        Ok(NewTransaction {
            kind: self.kind.clone(),
            trade_date,
            instrument_id,
            quantity,
            price,
            fee,
            tax,
            currency: self.currency.trim().to_ascii_uppercase(),
            fx_rate,
            split_numerator: self.split.map(|s| s.numerator),
            split_denominator: self.split.map(|s| s.denominator),
            note,
            import_fingerprint: None,
        })
    }
}

/// The API field an issue names (the domain names CSV columns).
fn api_field(field: Option<Field>) -> &'static str {
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
        .map(|i| (api_field(i.field).to_owned(), i.message.clone()))
        .collect();
    ApiError::invalid_fields(fields)
}

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

async fn owned(state: &AppState, user_id: i64, id: i64) -> Result<PortfolioRow, ApiError> {
    state
        .storage
        .portfolio(user_id, id)
        .await?
        .ok_or_else(not_found)
}

// ---- portfolios ------------------------------------------------------------------

#[derive(Deserialize, IntoParams)]
pub struct CurrencyParams {
    /// `original` (each portfolio in its base currency), `KRW` or `USD`.
    pub currency: Option<String>,
}

/// One portfolio with its totals.
#[derive(Serialize, ToSchema)]
pub struct PortfolioWithTotals {
    pub portfolio: PortfolioDto,
    /// `moat_portfolio::valuation::Totals`, amounts rounded to the currency's minor unit.
    #[schema(value_type = Object)]
    pub totals: serde_json::Value,
    /// The transaction the totals stop before, when one cannot be applied.
    pub ledger_issue: Option<LedgerIssueDto>,
}

#[derive(Serialize, ToSchema)]
pub struct PortfolioList {
    pub portfolios: Vec<PortfolioWithTotals>,
    /// Every portfolio combined (KRW unless `currency=USD`); zeros without portfolios.
    #[schema(value_type = Object)]
    pub meta: serde_json::Value,
}

/// The member's portfolios in their order, each with its totals, and the meta
/// portfolio's totals.
#[utoipa::path(get, path = "/api/portfolios", tag = "portfolio", security(("bearer" = [])), params(CurrencyParams), responses(
    (status = 200, body = PortfolioList),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
))]
pub async fn list_portfolios(
    State(state): State<AppState>,
    member: Member,
    Query(params): Query<CurrencyParams>,
) -> Result<ApiJson<PortfolioList>, ApiError> {
    let mode = parse_mode(params.currency.as_deref())?;
    let user_id = member.user.id;
    let rows = state.storage.list_portfolios(user_id).await?;
    let ledgers = state.ledgers.ledgers_of(&state, user_id, &rows).await?;
    let all: Vec<Transaction> = ledgers
        .iter()
        .flat_map(|t| t.usable().iter().cloned())
        .collect();
    let snap = snapshot(&state, &instruments_of(&all)).await;
    let first = all.iter().map(|t| t.trade_date).min();
    let fx = match first {
        Some(d) => fx_history(&state, d).await?,
        None => Default::default(),
    };
    let meta_mode = if mode == CurrencyMode::Original {
        CurrencyMode::Krw
    } else {
        mode
    };
    let mut portfolios = Vec::new();
    let mut parts = Vec::new();
    for (row, ledger) in rows.iter().zip(&ledgers) {
        let settings = settings_of(row);
        let txs = ledger.usable();
        let shown = value_portfolio(&settings, txs, mode, &snap, &fx).map_err(domain_error)?;
        // The meta portfolio needs one currency; a second valuation only when the shown
        // one is not already in it.
        let part = if mode == meta_mode {
            shown.clone()
        } else {
            value_portfolio(&settings, txs, meta_mode, &snap, &fx).map_err(domain_error)?
        };
        parts.push(part);
        portfolios.push(PortfolioWithTotals {
            portfolio: row.into(),
            totals: serde_json::to_value(shown.rounded().totals).map_err(ApiError::internal)?,
            ledger_issue: LedgerIssueDto::of(row.id, ledger),
        });
    }
    let combined = if parts.is_empty() {
        let settings = PortfolioSettings {
            base_currency: meta_mode.totals_currency("KRW"),
            ..Default::default()
        };
        value_portfolio(&settings, &[], meta_mode, &snap, &fx).map_err(domain_error)?
    } else {
        combine(&parts).map_err(domain_error)?
    };
    let meta = serde_json::to_value(combined.rounded().totals).map_err(ApiError::internal)?;
    Ok(ApiJson(PortfolioList { portfolios, meta }))
}

pub(crate) fn domain_error(e: moat_portfolio::PortfolioError) -> ApiError {
    match e {
        moat_portfolio::PortfolioError::Invalid(issues) => invalid_transaction(&issues),
        moat_portfolio::PortfolioError::FxUnavailable { from, to } => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "fx_unavailable",
            format!("There is no {from}/{to} rate yet to convert with; try again shortly."),
        ),
        other => ApiError::bad_request("invalid_currency_mode", other.to_string()),
    }
}

#[derive(Deserialize, ToSchema)]
pub struct NewPortfolioRequest {
    pub name: String,
    /// `KRW` or `USD`.
    pub base_currency: String,
    /// `moving_average` (default) or `fifo`.
    pub cost_method: Option<String>,
    pub broker: Option<String>,
}

fn check_name(errors: &mut BTreeMap<String, String>, name: &str) -> String {
    let name = name.trim().to_owned();
    let n = name.chars().count();
    if n == 0 || n > MAX_PORTFOLIO_NAME_CHARS {
        errors.insert(
            "name".into(),
            format!("1 to {MAX_PORTFOLIO_NAME_CHARS} characters."),
        );
    }
    name
}

fn check_cost_method(errors: &mut BTreeMap<String, String>, raw: Option<&str>) -> Option<String> {
    raw.map(|m| match CostMethod::parse(m) {
        Some(m) => m.as_str().to_owned(),
        None => {
            errors.insert("cost_method".into(), "moving_average or fifo.".into());
            String::new()
        }
    })
}

fn check_broker(errors: &mut BTreeMap<String, String>, raw: Option<&str>) -> Option<String> {
    let broker = raw.map(str::trim).filter(|b| !b.is_empty())?;
    if broker.chars().count() > MAX_PORTFOLIO_NAME_CHARS {
        errors.insert(
            "broker".into(),
            format!("At most {MAX_PORTFOLIO_NAME_CHARS} characters."),
        );
    }
    Some(broker.to_owned())
}

/// Creates a portfolio after the member's others.
#[utoipa::path(post, path = "/api/portfolios", tag = "portfolio", security(("bearer" = [])), request_body = NewPortfolioRequest, responses(
    (status = 201, body = PortfolioDto),
    (status = 409, description = "`limit_reached`: 20 portfolios already", body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn create_portfolio(
    State(state): State<AppState>,
    member: Member,
    ApiJson(body): ApiJson<NewPortfolioRequest>,
) -> Result<(StatusCode, ApiJson<PortfolioDto>), ApiError> {
    let mut errors = BTreeMap::new();
    let name = check_name(&mut errors, &body.name);
    let base_currency = body.base_currency.trim().to_ascii_uppercase();
    if base_currency != "KRW" && base_currency != "USD" {
        errors.insert("base_currency".into(), "KRW or USD.".into());
    }
    let cost_method = check_cost_method(&mut errors, body.cost_method.as_deref())
        .unwrap_or_else(|| CostMethod::MovingAverage.as_str().to_owned());
    let broker = check_broker(&mut errors, body.broker.as_deref());
    if !errors.is_empty() {
        return Err(ApiError::invalid_fields(errors));
    }
    let row = state
        .storage
        .create_portfolio(
            member.user.id,
            &NewPortfolio {
                name,
                base_currency,
                cost_method,
                broker,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, ApiJson((&row).into())))
}

/// One portfolio's settings.
#[utoipa::path(get, path = "/api/portfolios/{id}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = PortfolioDto),
    (status = 404, body = ErrorBody),
))]
pub async fn get_portfolio(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
) -> Result<ApiJson<PortfolioDto>, ApiError> {
    let row = owned(&state, member.user.id, parse_portfolio_id(&raw)?).await?;
    Ok(ApiJson((&row).into()))
}

#[derive(Deserialize, ToSchema)]
pub struct PortfolioPatch {
    pub name: Option<String>,
    pub cost_method: Option<String>,
    /// Empty or null clears it.
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<String>)]
    pub broker: Option<Option<String>>,
    /// `{amount, currency}` sets the orderable cash; null clears it.
    #[serde(default, with = "double_option")]
    #[schema(value_type = Option<OrderableCashDto>)]
    pub orderable_cash: Option<Option<OrderableCashDto>>,
}

/// `Some(None)` for an explicit null, `None` for an absent field.
mod double_option {
    use serde::{Deserialize, Deserializer};

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(d).map(Some)
    }
}

/// Changes a portfolio's name, cost method, broker or orderable cash.
#[utoipa::path(patch, path = "/api/portfolios/{id}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), request_body = PortfolioPatch, responses(
    (status = 200, body = PortfolioDto),
    (status = 404, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn patch_portfolio(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
    ApiJson(body): ApiJson<PortfolioPatch>,
) -> Result<ApiJson<PortfolioDto>, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let user_id = member.user.id;
    let mut errors = BTreeMap::new();
    let name = body.name.as_deref().map(|n| check_name(&mut errors, n));
    let cost_method = check_cost_method(&mut errors, body.cost_method.as_deref());
    let broker = body
        .broker
        .as_ref()
        .map(|b| check_broker(&mut errors, b.as_deref()));
    let cash = match &body.orderable_cash {
        None => None,
        Some(None) => Some(None),
        Some(Some(c)) => {
            let amount = c
                .amount
                .trim()
                .parse::<Decimal>()
                .ok()
                .filter(|a| *a >= Decimal::ZERO);
            let currency = c.currency.trim().to_ascii_uppercase();
            if amount.is_none() {
                errors.insert(
                    "orderable_cash".into(),
                    "A decimal amount of 0 or more.".into(),
                );
            }
            if currency != "KRW" && currency != "USD" {
                errors.insert(
                    "orderable_cash".into(),
                    "The currency is KRW or USD.".into(),
                );
            }
            amount.map(|amount| {
                Some(OrderableCash {
                    amount,
                    currency,
                    updated_at: Utc::now(),
                })
            })
        }
    };
    if !errors.is_empty() {
        return Err(ApiError::invalid_fields(errors));
    }
    let mut row = owned(&state, user_id, id).await?;
    let update = PortfolioUpdate {
        name,
        base_currency: None,
        cost_method,
        broker,
    };
    if update != PortfolioUpdate::default() {
        row = state
            .storage
            .update_portfolio(user_id, id, &update)
            .await?
            .ok_or_else(not_found)?;
    }
    if let Some(cash) = cash {
        row = state
            .storage
            .set_orderable_cash(user_id, id, cash.as_ref())
            .await?
            .ok_or_else(not_found)?;
    }
    Ok(ApiJson((&row).into()))
}

/// Deletes a portfolio and its transactions.
#[utoipa::path(delete, path = "/api/portfolios/{id}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204),
    (status = 404, body = ErrorBody),
))]
pub async fn delete_portfolio(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
) -> Result<StatusCode, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    if state.storage.delete_portfolio(member.user.id, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(not_found())
    }
}

#[derive(Deserialize, ToSchema)]
pub struct PortfolioOrder {
    /// Every one of the member's portfolio ids, once, in the new order.
    pub ids: Vec<i64>,
}

/// Puts the member's portfolios in a new order.
#[utoipa::path(put, path = "/api/portfolios/order", tag = "portfolio", security(("bearer" = [])), request_body = PortfolioOrder, responses(
    (status = 204),
    (status = 422, description = "not exactly the member's portfolios", body = ErrorBody),
))]
pub async fn reorder_portfolios(
    State(state): State<AppState>,
    member: Member,
    ApiJson(body): ApiJson<PortfolioOrder>,
) -> Result<StatusCode, ApiError> {
    match state
        .storage
        .reorder_portfolios(member.user.id, &body.ids)
        .await
    {
        Ok(()) => Ok(StatusCode::NO_CONTENT),
        Err(moat_storage::StorageError::Invalid(_)) => Err(ApiError::invalid_field(
            "ids",
            "Name each of your portfolios exactly once.",
        )),
        Err(e) => Err(e.into()),
    }
}

// ---- transactions ----------------------------------------------------------------

/// The portfolio's transactions by trade date.
#[utoipa::path(get, path = "/api/portfolios/{id}/transactions", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = [TransactionDto]),
    (status = 404, body = ErrorBody),
))]
pub async fn list_transactions(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
) -> Result<ApiJson<Vec<TransactionDto>>, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let rows = state.storage.transactions(member.user.id, id).await?;
    Ok(ApiJson(rows.iter().map(Into::into).collect()))
}

/// Records a transaction, after checking it against the portfolio's others. With an
/// `Idempotency-Key` header, a repeat of the same request answers the first answer
/// (with `Idempotent-Replayed: true`) and records nothing more.
#[utoipa::path(post, path = "/api/portfolios/{id}/transactions", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path), ("Idempotency-Key" = Option<String>, Header, description = "Names this request: a retry with the same key and body answers the first answer (kept 24 h)")), request_body = TransactionInput, responses(
    (status = 201, body = TransactionDto),
    (status = 400, description = "`invalid_parameter`: a malformed Idempotency-Key", body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 409, description = "`idempotency_key_reused`: the key named another request", body = ErrorBody),
    (status = 422, description = "`invalid_input` naming each field (a sell of more than is held names `quantity`)", body = ErrorBody),
))]
pub async fn add_transaction(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
    headers: axum::http::HeaderMap,
    ApiJson(body): ApiJson<serde_json::Value>,
) -> Result<Response, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let user_id = member.user.id;
    let idempotency = Idempotency::from_request(
        &headers,
        "POST",
        &format!("/api/portfolios/{id}/transactions"),
        &body,
    )?;
    let input: TransactionInput = ApiJson::from_value(body)?;
    let new = input.parse()?;
    check_instrument(&state, new.instrument_id.as_ref(), new.trade_date).await?;
    let added = write::add_transaction(&state, user_id, id, &new, idempotency.as_ref()).await?;
    let mut response = (added.status, axum::Json(added.body)).into_response();
    if added.replayed {
        response.headers_mut().insert(
            idempotency::REPLAYED_HEADER,
            axum::http::HeaderValue::from_static("true"),
        );
    }
    Ok(response)
}

/// The instrument must be in the catalogue, and the trade no older than its price
/// history (a trade Moat has no price for could not be valued or checked).
async fn check_instrument(
    state: &AppState,
    id: Option<&InstrumentId>,
    trade_date: NaiveDate,
) -> Result<(), ApiError> {
    let Some(id) = id else { return Ok(()) };
    let Some(inst) = state.market.instrument(id) else {
        return Err(ApiError::invalid_field(
            "instrument_id",
            format!("There is no instrument {id}."),
        ));
    };
    let start = state
        .market
        .history_start(&inst)
        .await
        .map_err(ApiError::internal)?;
    match start.filter(|s| trade_date < *s) {
        Some(start) => Err(ApiError::invalid_field(
            "trade_date",
            before_history(id, start),
        )),
        None => Ok(()),
    }
}

/// Why a trade is refused when it is older than its instrument's price history.
fn before_history(id: &InstrumentId, start: NaiveDate) -> String {
    format!("The price history of {id} starts on {start}: a trade before it cannot be valued.")
}

fn parse_tx_id(raw: &str) -> Result<i64, ApiError> {
    parse_row_id("tx", raw)
}

/// Replaces a transaction; everything after it is recomputed.
#[utoipa::path(put, path = "/api/portfolios/{id}/transactions/{tx}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path), ("tx" = i64, Path)), request_body = TransactionInput, responses(
    (status = 200, body = TransactionDto),
    (status = 404, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update_transaction(
    State(state): State<AppState>,
    member: Member,
    Path((raw, raw_tx)): Path<(String, String)>,
    ApiJson(body): ApiJson<TransactionInput>,
) -> Result<ApiJson<TransactionDto>, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let tx_id = parse_tx_id(&raw_tx)?;
    let new = body.parse()?;
    check_instrument(&state, new.instrument_id.as_ref(), new.trade_date).await?;
    let row = write::update_transaction(&state, member.user.id, id, tx_id, &new).await?;
    Ok(ApiJson((&row).into()))
}

/// Deletes a transaction, unless that would leave a later sell without the shares.
#[utoipa::path(delete, path = "/api/portfolios/{id}/transactions/{tx}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path), ("tx" = i64, Path)), responses(
    (status = 204),
    (status = 404, body = ErrorBody),
    (status = 422, description = "a later sell would sell more than is held", body = ErrorBody),
))]
pub async fn delete_transaction(
    State(state): State<AppState>,
    member: Member,
    Path((raw, raw_tx)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let tx_id = parse_tx_id(&raw_tx)?;
    write::delete_transaction(&state, member.user.id, id, tx_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

// ---- valuation, performance, allocation ------------------------------------------

/// One portfolio behind a read: its id, settings and ledger.
pub(crate) struct Part {
    pub id: i64,
    pub settings: PortfolioSettings,
    pub ledger: Arc<LedgerState>,
}

impl Part {
    /// The transactions that apply (all but those from one that cannot, on).
    pub fn transactions(&self) -> &[Transaction] {
        self.ledger.usable()
    }
}

/// The transactions the parts' figures stop before.
pub(crate) fn ledger_issues(parts: &[Part]) -> Vec<LedgerIssueDto> {
    parts
        .iter()
        .filter_map(|p| LedgerIssueDto::of(p.id, &p.ledger))
        .collect()
}

/// The portfolios behind `raw` (a portfolio id, or `meta`: all of the member's).
pub(crate) async fn scope(
    state: &AppState,
    user_id: i64,
    raw: &str,
) -> Result<Vec<Part>, ApiError> {
    let rows = if raw == META {
        state.storage.list_portfolios(user_id).await?
    } else {
        vec![owned(state, user_id, parse_portfolio_id(raw)?).await?]
    };
    let ledgers = state.ledgers.ledgers_of(state, user_id, &rows).await?;
    Ok(rows
        .iter()
        .zip(ledgers)
        .map(|(row, ledger)| Part {
            id: row.id,
            settings: settings_of(row),
            ledger,
        })
        .collect())
}

async fn valuation_of(
    state: &AppState,
    parts: &[Part],
    mode: CurrencyMode,
    meta: bool,
) -> Result<Valuation, ApiError> {
    let every: Vec<Transaction> = parts
        .iter()
        .flat_map(|p| p.transactions().iter().cloned())
        .collect();
    let snap = snapshot(state, &instruments_of(&every)).await;
    let fx = match every.iter().map(|t| t.trade_date).min() {
        Some(d) => fx_history(state, d).await?,
        None => Default::default(),
    };
    // The meta portfolio is in one currency: KRW unless USD is asked for.
    let mode = if meta && mode == CurrencyMode::Original {
        CurrencyMode::Krw
    } else {
        mode
    };
    let mut values = Vec::new();
    for part in parts {
        values.push(
            value_portfolio(&part.settings, part.transactions(), mode, &snap, &fx)
                .map_err(domain_error)?,
        );
    }
    if meta {
        if values.is_empty() {
            let settings = PortfolioSettings {
                base_currency: mode.totals_currency("KRW"),
                ..Default::default()
            };
            return value_portfolio(&settings, &[], mode, &snap, &fx).map_err(domain_error);
        }
        combine(&values).map_err(domain_error)
    } else {
        Ok(values.remove(0))
    }
}

/// A portfolio (or `meta`: all of them) valued now: holdings, cash and totals.
#[utoipa::path(get, path = "/api/portfolios/{id}/valuation", tag = "portfolio", security(("bearer" = [])), params(("id" = String, Path, description = "a portfolio id or `meta`"), CurrencyParams), responses(
    (status = 200, description = "`moat_portfolio::Valuation` (rounded), each holding with `name_ko`, `name_en`, `ticker`, `kind`, `sector`; plus `as_of`", body = Object),
    (status = 404, body = ErrorBody),
))]
pub async fn get_valuation(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
    Query(params): Query<CurrencyParams>,
) -> Result<ApiJson<serde_json::Value>, ApiError> {
    let mode = parse_mode(params.currency.as_deref())?;
    let parts = scope(&state, member.user.id, &raw).await?;
    let valuation = valuation_of(&state, &parts, mode, raw == META).await?;
    let mut value = serde_json::to_value(valuation.rounded()).map_err(ApiError::internal)?;
    // Names for the holdings.
    if let Some(holdings) = value.get_mut("holdings").and_then(|h| h.as_array_mut()) {
        for h in holdings {
            let Some(inst) = h
                .get("instrument")
                .and_then(|i| i.as_str())
                .and_then(|i| i.parse::<InstrumentId>().ok())
                .and_then(|id| state.market.instrument(&id))
            else {
                continue;
            };
            h["name_ko"] = inst.name_ko.clone().into();
            h["name_en"] = inst.name_en.clone().into();
            h["ticker"] = inst.ticker().into();
            h["kind"] = inst.kind.as_str().into();
            h["sector"] = inst.sector.clone().into();
        }
    }
    value["as_of"] = rfc3339(Utc::now()).into();
    value["ledger_issues"] =
        serde_json::to_value(ledger_issues(&parts)).map_err(ApiError::internal)?;
    Ok(ApiJson(value))
}

#[derive(Deserialize, IntoParams)]
pub struct PerformanceParams {
    /// `original`, `KRW` or `USD`.
    pub currency: Option<String>,
    /// `INDEX:KOSPI` (default for KRW) or `INDEX:SPX`.
    pub benchmark: Option<String>,
}

/// Daily values with the cumulative time-weighted return beside a benchmark's, and
/// returns over 1M, 3M, YTD, 1Y and since inception (time-weighted, money-weighted,
/// simple) with why they differ.
#[utoipa::path(get, path = "/api/portfolios/{id}/performance", tag = "portfolio", security(("bearer" = [])), params(("id" = String, Path, description = "a portfolio id or `meta`"), PerformanceParams), responses(
    (status = 200, description = "`{currency, benchmark, points: [{date, value, flow, cumulative_return, benchmark_return}], periods: [PeriodReturn], ledger_issues}`", body = Object),
    (status = 400, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get_performance(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
    Query(params): Query<PerformanceParams>,
) -> Result<ApiJson<serde_json::Value>, ApiError> {
    let mode = parse_mode(params.currency.as_deref())?;
    let parts = scope(&state, member.user.id, &raw).await?;
    let meta = raw == META;
    let currency = match (mode, parts.first()) {
        (CurrencyMode::Original, Some(part)) if !meta => part.settings.base_currency.clone(),
        (CurrencyMode::Usd, _) => "USD".to_owned(),
        _ => "KRW".to_owned(),
    };
    let benchmark_id: InstrumentId = params
        .benchmark
        .as_deref()
        .unwrap_or(if currency == "USD" {
            "INDEX:SPX"
        } else {
            "INDEX:KOSPI"
        })
        .parse()
        .map_err(|_| ApiError::invalid_parameter("benchmark", "INDEX:KOSPI or INDEX:SPX."))?;
    let benchmark = state
        .market
        .instrument(&benchmark_id)
        .filter(|i| i.kind == moat_market::Kind::Index)
        .ok_or_else(|| ApiError::invalid_parameter("benchmark", "An index such as INDEX:KOSPI."))?;
    let issues = serde_json::to_value(ledger_issues(&parts)).map_err(ApiError::internal)?;
    let every: Vec<Transaction> = parts
        .iter()
        .flat_map(|p| p.transactions().iter().cloned())
        .collect();
    let Some(first) = every.iter().map(|t| t.trade_date).min() else {
        return Ok(ApiJson(serde_json::json!({
            "currency": currency, "benchmark": benchmark_id.to_string(), "points": [],
            "periods": [], "ledger_issues": issues,
        })));
    };
    let today = Utc::now().date_naive();
    let closes = price_history(&state, &instruments_of(&every), first).await?;
    let fx = fx_history(&state, first).await?;
    // The meta portfolio's series is the sum of its parts' series, day by day.
    let mut series: BTreeMap<NaiveDate, (Decimal, Decimal)> = BTreeMap::new();
    for part in &parts {
        if part.transactions().is_empty() {
            continue;
        }
        let points = moat_portfolio::daily_values(
            &part.settings,
            part.transactions(),
            &closes,
            &fx,
            &currency,
            today,
        )
        .map_err(domain_error)?;
        for p in points {
            let e = series.entry(p.date).or_default();
            e.0 += p.value;
            e.1 += p.flow;
        }
    }
    let points: Vec<moat_portfolio::DailyPoint> = series
        .into_iter()
        .map(|(date, (value, flow))| moat_portfolio::DailyPoint { date, value, flow })
        .collect();
    let periods: Vec<serde_json::Value> = moat_portfolio::performance(&points, today)
        .iter()
        .map(|r| period_json(r, &currency))
        .collect();
    let bench = state
        .market
        .daily_candles(&benchmark, first - chrono::Duration::days(10), today)
        .await
        .map_err(ApiError::internal)?;
    let bench: BTreeMap<NaiveDate, Decimal> =
        bench.into_iter().map(|c| (c.date, c.close)).collect();
    let out_points = chart_points(&points, &bench, &currency);
    Ok(ApiJson(serde_json::json!({
        "currency": currency,
        "benchmark": benchmark_id.to_string(),
        "points": out_points,
        "periods": periods,
        "ledger_issues": issues,
    })))
}

/// The chart's points: from the day before money first came in (the base, at 0 %) to
/// the end, each with the time-weighted return since the base and the benchmark's
/// change since its close on the base day (the latest close on or before it), both in
/// per cent. Both are measured from the start of the first day with money, so a first
/// buy above its close shows as that day's loss, as does the index's first move.
fn chart_points(
    points: &[moat_portfolio::DailyPoint],
    bench: &BTreeMap<NaiveDate, Decimal>,
    currency: &str,
) -> Vec<serde_json::Value> {
    let pct = |d: Decimal| (d * Decimal::ONE_HUNDRED).round_dp(4).to_string();
    let Some(first_money) = points
        .iter()
        .position(|p| !p.value.is_zero() || !p.flow.is_zero())
    else {
        return Vec::new();
    };
    let base = first_money.saturating_sub(1);
    let close_on = |date: NaiveDate| bench.range(..=date).next_back().map(|(_, c)| *c);
    let bench_base = close_on(points[base].date).filter(|c| !c.is_zero());
    let mut growth = Decimal::ONE;
    points[base..]
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i > 0 {
                growth *= Decimal::ONE
                    + moat_portfolio::performance::day_return(points[base + i - 1].value, p);
            }
            let benchmark_return = bench_base
                .zip(close_on(p.date))
                .map(|(b0, c)| pct(c / b0 - Decimal::ONE));
            serde_json::json!({
                "date": p.date.to_string(),
                "value": round_money(p.value, currency).to_string(),
                "flow": round_money(p.flow, currency).to_string(),
                "cumulative_return": pct(growth - Decimal::ONE),
                "benchmark_return": benchmark_return,
            })
        })
        .collect()
}

/// A period's returns as the contract sends them: per cent, the money-weighted return
/// over the period itself (like the time-weighted one, not annualised) beside the
/// annual XIRR, the explanation's shares and returns in per cent.
fn period_json(r: &moat_portfolio::performance::PeriodReturn, currency: &str) -> serde_json::Value {
    let pct = |d: Decimal| (d * Decimal::ONE_HUNDRED).round_dp(4).to_string();
    let e = &r.explanation;
    serde_json::json!({
        "period": r.period,
        "start": r.start.to_string(),
        "end": r.end.to_string(),
        "twr": pct(r.time_weighted),
        "mwr": r.money_weighted.map(pct),
        "mwr_annual": r.money_weighted_annual.map(pct),
        "simple": pct(r.simple),
        "gain": round_money(r.gain, currency).to_string(),
        "start_value": round_money(r.start_value, currency).to_string(),
        "end_value": round_money(r.end_value, currency).to_string(),
        "net_flows": round_money(r.net_flows, currency).to_string(),
        "explanation": {
            "code": e.code,
            "difference": e.difference.map(pct),
            "flow_date": e.flow_date.map(|d| d.to_string()),
            "flow_amount": e.flow_amount.map(|a| round_money(a, currency).to_string()),
            "flow_share": e.flow_share.map(pct),
            "return_after_flow": e.return_after_flow.map(pct),
        },
    })
}

#[derive(Deserialize, IntoParams)]
pub struct AllocationParams {
    /// `holding`, `sector`, `country`, `currency` or `asset_class`.
    pub by: Option<String>,
    pub currency: Option<String>,
}

/// How the value splits by holding, sector, country, currency or asset class.
#[utoipa::path(get, path = "/api/portfolios/{id}/allocation", tag = "portfolio", security(("bearer" = [])), params(("id" = String, Path, description = "a portfolio id or `meta`"), AllocationParams), responses(
    (status = 200, description = "`[{key, value, weight_percent}]`, largest first", body = Object),
    (status = 400, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get_allocation(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
    Query(params): Query<AllocationParams>,
) -> Result<ApiJson<serde_json::Value>, ApiError> {
    let by: AllocationBy = serde_json::from_value(serde_json::Value::String(
        params.by.clone().unwrap_or_else(|| "holding".into()),
    ))
    .map_err(|_| {
        ApiError::invalid_parameter("by", "holding, sector, country, currency or asset_class.")
    })?;
    let mode = parse_mode(params.currency.as_deref())?;
    let parts = scope(&state, member.user.id, &raw).await?;
    let valuation = valuation_of(&state, &parts, mode, raw == META).await?;
    let ids = valuation
        .holdings
        .iter()
        .map(|h| h.instrument.clone())
        .collect();
    let meta: HashMap<InstrumentId, InstrumentMeta> = catalogue(&state, &ids)
        .into_iter()
        .map(|(id, i)| (id, InstrumentMeta::from(&*i)))
        .collect();
    let currency = valuation.totals.currency.clone();
    let slices: Vec<serde_json::Value> = moat_portfolio::allocation(&valuation, by, &meta)
        .into_iter()
        .map(|s| {
            serde_json::json!({
                "key": s.key,
                "value": round_money(s.value, &currency).to_string(),
                "weight_percent": s.weight_percent.to_string(),
            })
        })
        .collect();
    Ok(ApiJson(serde_json::Value::Array(slices)))
}

// ---- import and export -----------------------------------------------------------

/// Rows of the file the preview sends back (the summary counts them all, and every
/// error is sent).
pub const PREVIEW_ROWS: usize = 100;

/// Reads an uploaded file as it arrives and parses it on a blocking thread, never
/// holding it whole: at most [`csv_file::MAX_IMPORT_ROWS`] rows and
/// [`csv_file::MAX_IMPORT_BYTES`] bytes, else 413.
async fn parse_upload(
    body: axum::body::Body,
    settings: PortfolioSettings,
    last_id: i64,
) -> Result<csv_file::ParsedFile, ApiError> {
    use futures_util::TryStreamExt;
    let stream = body
        .into_data_stream()
        .map_err(|e| std::io::Error::other(e.to_string()));
    let reader = tokio_util::io::StreamReader::new(stream);
    let bridge = tokio_util::io::SyncIoBridge::new(reader);
    let parsed = tokio::task::spawn_blocking(move || csv_file::parse(bridge, &settings, last_id))
        .await
        .map_err(ApiError::internal)?;
    parsed.map_err(|too_large| match too_large {
        csv_file::FileTooLarge::Bytes => ApiError::payload_too_large(csv_file::MAX_IMPORT_BYTES),
        csv_file::FileTooLarge::Rows => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_many_rows",
            format!(
                "The file has more than {} rows; split it into files of at most {} rows.",
                csv_file::MAX_IMPORT_ROWS,
                csv_file::MAX_IMPORT_ROWS
            ),
        ),
    })
}

/// Parses and checks an uploaded file against the member's portfolio `raw`: every
/// bad row named, including instruments the catalogue does not know, dates in the
/// future and trades before an instrument's price history.
async fn preview_of(
    state: &AppState,
    user_id: i64,
    raw: &str,
    body: axum::body::Body,
) -> Result<(i64, csv_file::ImportPreview), ApiError> {
    let id = parse_portfolio_id(raw)?;
    let portfolio = owned(state, user_id, id).await?;
    let ledger = state.ledgers.ledger(state, &portfolio).await?;
    let settings = settings_of(&portfolio);
    let last_id = ledger.transactions.iter().map(|t| t.id).max().unwrap_or(0);
    let mut parsed = parse_upload(body, settings.clone(), last_id).await?;
    let mut history_starts: HashMap<InstrumentId, Option<NaiveDate>> = HashMap::new();
    let mut bad_rows = Vec::new();
    for row in &parsed.rows {
        if row.transaction.trade_date > latest_trade_date() {
            bad_rows.push(csv_file::RowError {
                row: row.row,
                column: Some(Field::Date),
                code: moat_portfolio::IssueCode::InvalidDate,
                message: "The trade date is in the future.".into(),
            });
        }
        if let Some(iid) = &row.transaction.instrument {
            let Some(inst) = state.market.instrument(iid) else {
                bad_rows.push(csv_file::RowError {
                    row: row.row,
                    column: Some(Field::Instrument),
                    code: moat_portfolio::IssueCode::UnknownInstrument,
                    message: format!("There is no instrument {iid}."),
                });
                continue;
            };
            let start = match history_starts.get(iid) {
                Some(start) => *start,
                None => {
                    let start = state
                        .market
                        .history_start(&inst)
                        .await
                        .map_err(ApiError::internal)?;
                    history_starts.insert(iid.clone(), start);
                    start
                }
            };
            if let Some(start) = start.filter(|s| row.transaction.trade_date < *s) {
                bad_rows.push(csv_file::RowError {
                    row: row.row,
                    column: Some(Field::Date),
                    code: moat_portfolio::IssueCode::InvalidDate,
                    message: before_history(iid, start),
                });
            }
        }
    }
    parsed.errors.extend(bad_rows);
    let existing = ledger.clone();
    let preview = tokio::task::spawn_blocking(move || {
        csv_file::check(parsed, &settings, &existing.transactions)
    })
    .await
    .map_err(ApiError::internal)?;
    Ok((id, preview))
}

/// One previewed row.
#[derive(Serialize, ToSchema)]
pub struct PreviewRowDto {
    /// The file line.
    pub line: usize,
    pub transaction: TransactionDto,
    /// Already in the portfolio: will not be imported.
    pub duplicate: bool,
}

/// A problem with one row (`line`) or the whole file (line 1, the header).
#[derive(Serialize, ToSchema)]
pub struct RowErrorDto {
    pub line: usize,
    /// The column at fault (`date`, `type`, `instrument`, `quantity`, …).
    pub column: Option<String>,
    /// `moat_portfolio::IssueCode`.
    pub code: String,
    /// English; the UI words it from `code`.
    pub message: String,
}

/// What importing a file would do.
#[derive(Serialize, ToSchema)]
pub struct ImportPreviewDto {
    /// The file's format (`moat`: Moat's own columns).
    pub format: String,
    /// Rows read (duplicates included, bad rows not).
    pub total_rows: usize,
    /// Rows that would be imported.
    pub new_rows: usize,
    /// Rows already in the portfolio, which would be skipped.
    pub duplicate_rows: usize,
    /// The earliest and latest trade dates read.
    pub first_date: Option<String>,
    pub last_date: Option<String>,
    /// The first rows of the file (at most 100).
    pub rows: Vec<PreviewRowDto>,
    /// Every problem; nothing is imported while there is one.
    pub errors: Vec<RowErrorDto>,
    pub warnings: Vec<RowErrorDto>,
    /// Headers that name no known column.
    pub ignored_columns: Vec<String>,
}

impl From<&csv_file::ImportPreview> for ImportPreviewDto {
    fn from(p: &csv_file::ImportPreview) -> Self {
        let dates = p.rows.iter().map(|r| r.transaction.trade_date);
        Self {
            format: "moat".into(),
            total_rows: p.rows.len(),
            new_rows: p.new_rows(),
            duplicate_rows: p.rows.len() - p.new_rows(),
            first_date: dates.clone().min().map(|d| d.to_string()),
            last_date: dates.max().map(|d| d.to_string()),
            rows: p
                .rows
                .iter()
                .take(PREVIEW_ROWS)
                .map(|r| PreviewRowDto {
                    line: r.row,
                    transaction: TransactionDto::from_domain(&r.transaction),
                    duplicate: r.duplicate,
                })
                .collect(),
            errors: row_errors(&p.errors),
            warnings: row_errors(&p.warnings),
            ignored_columns: p.ignored_columns.clone(),
        }
    }
}

/// What importing a CSV file would do: a summary, the first rows, and every bad row
/// named. Nothing is stored.
#[utoipa::path(post, path = "/api/portfolios/{id}/import/preview", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), request_body(content = String, content_type = "text/csv"), responses(
    (status = 200, body = ImportPreviewDto),
    (status = 404, body = ErrorBody),
    (status = 413, description = "`payload_too_large` (over 5 MB) or `too_many_rows` (over 20,000 rows)", body = ErrorBody),
))]
pub async fn import_preview(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
    body: axum::body::Body,
) -> Result<ApiJson<ImportPreviewDto>, ApiError> {
    let (_, preview) = preview_of(&state, member.user.id, &raw, body).await?;
    Ok(ApiJson((&preview).into()))
}

/// Import problems as the contract sends them.
fn row_errors(errors: &[csv_file::RowError]) -> Vec<RowErrorDto> {
    errors
        .iter()
        .map(|e| RowErrorDto {
            line: e.row,
            column: e.column.map(|c| c.as_str().to_owned()),
            code: e.code.as_str().to_owned(),
            message: e.message.clone(),
        })
        .collect()
}

#[derive(Serialize, ToSchema)]
pub struct ImportResult {
    pub imported: u64,
    pub skipped_duplicates: usize,
}

/// The 422 of an import with bad rows.
#[derive(Serialize, ToSchema)]
pub struct ImportRefused {
    /// `invalid_import`.
    pub code: String,
    pub message: String,
    pub errors: Vec<RowErrorDto>,
}

/// Imports a CSV file: every new row in one database transaction, or nothing when
/// any row is bad (422 with every error). The rows are checked again under the
/// portfolio's lock, so a trade recorded meanwhile, or the same file imported twice
/// at once, is accounted for.
#[utoipa::path(post, path = "/api/portfolios/{id}/import", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), request_body(content = String, content_type = "text/csv"), responses(
    (status = 200, body = ImportResult),
    (status = 404, body = ErrorBody),
    (status = 413, description = "`payload_too_large` or `too_many_rows`", body = ErrorBody),
    (status = 422, description = "`invalid_import` with `errors`", body = ImportRefused),
))]
pub async fn import_apply(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
    body: axum::body::Body,
) -> Result<Response, ApiError> {
    let user_id = member.user.id;
    let (id, preview) = preview_of(&state, user_id, &raw, body).await?;
    let refused = |errors: &[csv_file::RowError]| {
        let body = ImportRefused {
            code: "invalid_import".into(),
            message: format!("{} rows are not valid; nothing was imported.", errors.len()),
            errors: row_errors(errors),
        };
        (StatusCode::UNPROCESSABLE_ENTITY, axum::Json(body)).into_response()
    };
    if !preview.errors.is_empty() {
        return Ok(refused(&preview.errors));
    }
    match write::import(&state, user_id, id, preview.rows).await? {
        Ok(done) => Ok(ApiJson(ImportResult {
            imported: done.imported,
            skipped_duplicates: done.skipped_duplicates,
        })
        .into_response()),
        Err(errors) => Ok(refused(&errors)),
    }
}

/// Every transaction of the portfolio as CSV (the import format).
#[utoipa::path(get, path = "/api/portfolios/{id}/export.csv", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, content_type = "text/csv", body = String),
    (status = 404, body = ErrorBody),
))]
pub async fn export_csv(
    State(state): State<AppState>,
    member: Member,
    Path(raw): Path<String>,
) -> Result<Response, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let user_id = member.user.id;
    let portfolio = owned(&state, user_id, id).await?;
    let ledger = state.ledgers.ledger(&state, &portfolio).await?;
    let file = format!("moat-portfolio-{}.csv", portfolio.id);
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        csv_file::export(&ledger.transactions),
    )
        .into_response())
}
