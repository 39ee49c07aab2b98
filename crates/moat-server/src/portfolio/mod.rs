//! Portfolios (docs/portfolio.md): the member's portfolios and transactions in storage,
//! valued with `moat-portfolio` against the market service's quotes, candles and FX
//! rates. Every figure is recomputed from the transactions on each request (editing or
//! deleting one is just storing the change); the decoded transactions themselves are
//! kept between requests in [`cache::TransactionCache`], checked against the
//! portfolio's `updated_at`.

pub mod cache;
pub mod dividends;
pub mod routes;
pub mod write;

use std::collections::{HashMap, HashSet};

use chrono::{Duration, NaiveDate, Utc};
use moat_market::{Instrument, InstrumentId};
use moat_portfolio::{
    CostMethod, CurrencyMode, FxHistory, FxRates, MarketSnapshot, PortfolioSettings, PriceHistory,
    SplitRatio, Transaction, TxKind,
};
use moat_storage::{PortfolioRow, TransactionRow};

use crate::{http::error::ApiError, AppState};

/// The pairs whose rates the valuation needs (Moat's currencies are KRW and USD).
const FX_PAIR: (&str, &str) = ("USD", "KRW");
/// The FX instrument quoted live for today's rate.
const FX_INSTRUMENT: &str = "FX:USDKRW";

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

/// The latest prices, previous closes and FX rate for `instruments`.
pub async fn snapshot(state: &AppState, instruments: &HashSet<InstrumentId>) -> MarketSnapshot {
    let market = &state.market;
    let mut snap = MarketSnapshot::default();
    for id in instruments {
        if let Some(inst) = market.instrument(id) {
            if let Some(q) = market.quote(&inst).await {
                snap.prices.insert(id.clone(), q.price);
                snap.previous_closes.insert(id.clone(), q.previous_close);
            }
        }
    }
    snap.fx = latest_fx(state).await;
    snap
}

/// Today's USD/KRW rate (the live quote; else the last stored daily rate).
pub async fn latest_fx(state: &AppState) -> FxRates {
    let market = &state.market;
    let mut fx = FxRates::new();
    let id: InstrumentId = FX_INSTRUMENT.parse().expect("a valid id");
    if let Some(inst) = market.instrument(&id) {
        if let Some(q) = market.quote(&inst).await {
            fx.set(FX_PAIR.0, FX_PAIR.1, q.price);
            return fx;
        }
    }
    let today = Utc::now().date_naive();
    if let Ok(rates) = market
        .storage()
        .fx_rates(FX_PAIR.0, FX_PAIR.1, today - Duration::days(31), today)
        .await
    {
        if let Some(last) = rates.last() {
            fx.set(FX_PAIR.0, FX_PAIR.1, last.rate);
        }
    }
    fx
}

/// Daily USD/KRW rates from `from` (a week earlier, so the first days carry a rate)
/// to today, and today's live one.
pub async fn fx_history(state: &AppState, from: NaiveDate) -> Result<FxHistory, ApiError> {
    let today = Utc::now().date_naive();
    let mut history = FxHistory::new();
    let rates = state
        .market
        .storage()
        .fx_rates(FX_PAIR.0, FX_PAIR.1, from - Duration::days(7), today)
        .await?;
    for r in rates {
        history.insert(r.date, FX_PAIR.0, FX_PAIR.1, r.rate);
    }
    if let Some(rate) = latest_fx(state).await.rate(FX_PAIR.0, FX_PAIR.1) {
        history.insert(today, FX_PAIR.0, FX_PAIR.1, rate);
    }
    Ok(history)
}

/// Daily closes of `instruments` from `from` to today.
pub async fn price_history(
    state: &AppState,
    instruments: &HashSet<InstrumentId>,
    from: NaiveDate,
) -> Result<PriceHistory, ApiError> {
    let today = Utc::now().date_naive();
    let mut history = PriceHistory::new();
    for id in instruments {
        if let Some(inst) = state.market.instrument(id) {
            let candles = state
                .market
                .daily_candles(&inst, from - Duration::days(7), today)
                .await
                .map_err(ApiError::internal)?;
            for c in candles {
                history.insert(id, c.date, c.close);
            }
        }
    }
    Ok(history)
}

pub fn instruments_of(transactions: &[Transaction]) -> HashSet<InstrumentId> {
    transactions
        .iter()
        .filter_map(|t| t.instrument.clone())
        .collect()
}

/// The instruments named, as the catalogue knows them.
pub fn catalogue(
    state: &AppState,
    ids: &HashSet<InstrumentId>,
) -> HashMap<InstrumentId, std::sync::Arc<Instrument>> {
    ids.iter()
        .filter_map(|id| state.market.instrument(id).map(|i| (id.clone(), i)))
        .collect()
}

/// `original`, `KRW` or `USD` (any case), default `original`.
pub fn parse_mode(raw: Option<&str>) -> Result<CurrencyMode, ApiError> {
    match raw {
        None | Some("") => Ok(CurrencyMode::Original),
        Some(s) => CurrencyMode::parse(s)
            .ok_or_else(|| ApiError::invalid_parameter("currency", "One of original, KRW, USD.")),
    }
}
