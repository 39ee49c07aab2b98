//! The market data a valuation needs: latest prices, FX rates and daily closes.

use std::collections::{HashMap, HashSet};

use chrono::{Duration, NaiveDate, Utc};
use moat_market::{Instrument, InstrumentId};
use moat_portfolio::{FxHistory, FxRates, MarketSnapshot};

use crate::{http::error::ApiError, portfolio::PortfolioState};

/// The pairs whose rates the valuation needs (Moat's currencies are KRW and USD).
pub(crate) const FX_PAIR: (&str, &str) = ("USD", "KRW");
/// The FX instrument quoted live for today's rate.
const FX_INSTRUMENT: &str = "FX:USDKRW";
/// How far before the first day computed closes and rates are read, so that its value
/// carries the latest earlier ones over a weekend or a holiday (a series carried on
/// from a kept day also remembers its holdings' last closes: moat_portfolio::SeriesRun).
pub const HISTORY_LOOKBACK_DAYS: i64 = 7;

/// The latest prices, previous closes and FX rate for `instruments`.
pub async fn snapshot(
    state: &PortfolioState,
    instruments: &HashSet<InstrumentId>,
) -> MarketSnapshot {
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
pub async fn latest_fx(state: &PortfolioState) -> FxRates {
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
        .fx_rates(FX_PAIR.0, FX_PAIR.1, today - Duration::days(31), today)
        .await
    {
        if let Some(last) = rates.last() {
            fx.set(FX_PAIR.0, FX_PAIR.1, last.rate);
        }
    }
    fx
}

/// Daily USD/KRW rates from `from` ([`HISTORY_LOOKBACK_DAYS`] earlier, so the first
/// days carry a rate) to today, and today's live one.
pub async fn fx_history(state: &PortfolioState, from: NaiveDate) -> Result<FxHistory, ApiError> {
    let today = Utc::now().date_naive();
    let mut history = FxHistory::new();
    let rates = state
        .market
        .fx_rates(
            FX_PAIR.0,
            FX_PAIR.1,
            from - Duration::days(HISTORY_LOOKBACK_DAYS),
            today,
        )
        .await?;
    for r in rates {
        history.insert(r.date, FX_PAIR.0, FX_PAIR.1, r.rate);
    }
    if let Some(rate) = latest_fx(state).await.rate(FX_PAIR.0, FX_PAIR.1) {
        history.insert(today, FX_PAIR.0, FX_PAIR.1, rate);
    }
    Ok(history)
}

/// The instruments named, as the catalogue knows them.
pub fn catalogue(
    state: &PortfolioState,
    ids: &HashSet<InstrumentId>,
) -> HashMap<InstrumentId, std::sync::Arc<Instrument>> {
    ids.iter()
        .filter_map(|id| state.market.instrument(id).map(|i| (id.clone(), i)))
        .collect()
}
