//! The home screen's market summary: indices, FX and the day's biggest movers.

use std::sync::Arc;

use moat_market::{Instrument, Kind, Quote};
use rust_decimal::Decimal;

use super::MarketService;

/// Instruments on the home screen.
pub const OVERVIEW_INDICES: [&str; 4] = ["INDEX:KOSPI", "INDEX:KOSDAQ", "INDEX:SPX", "INDEX:IXIC"];
pub const OVERVIEW_FX: [&str; 1] = ["FX:USDKRW"];
/// Gainers and losers shown on the home screen.
pub const MOVERS: usize = 5;

/// The market summary: instruments with their latest quotes (if any).
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub indices: Vec<(Arc<Instrument>, Option<Quote>)>,
    pub fx: Vec<(Arc<Instrument>, Option<Quote>)>,
    /// The stocks up most today, biggest first (at most [`MOVERS`]).
    pub gainers: Vec<(Arc<Instrument>, Quote)>,
    /// The stocks down most today, biggest fall first (at most [`MOVERS`]).
    pub losers: Vec<(Arc<Instrument>, Quote)>,
}

/// Indices, USD/KRW and the day's biggest movers among stocks.
pub async fn summary(service: &MarketService) -> Summary {
    let mut indices = Vec::new();
    let mut fx = Vec::new();
    for (ids, out) in [
        (&OVERVIEW_INDICES[..], &mut indices),
        (&OVERVIEW_FX[..], &mut fx),
    ] {
        for id in ids {
            if let Some(inst) = id.parse().ok().and_then(|id| service.instrument(&id)) {
                let quote = service.quote(&inst).await;
                out.push((inst, quote));
            }
        }
    }
    let mut stocks = service.quotes_of_kind(Kind::Stock).await;
    stocks.sort_by(|(a, qa), (b, qb)| {
        qb.change_percent()
            .cmp(&qa.change_percent())
            .then(a.id.cmp(&b.id))
    });
    let gainers = stocks
        .iter()
        .take(MOVERS)
        .filter(|(_, q)| q.change_percent() > Decimal::ZERO)
        .cloned()
        .collect();
    let losers = stocks
        .iter()
        .rev()
        .take(MOVERS)
        .filter(|(_, q)| q.change_percent() < Decimal::ZERO)
        .cloned()
        .collect();
    Summary {
        indices,
        fx,
        gainers,
        losers,
    }
}
