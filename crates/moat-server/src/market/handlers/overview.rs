//! `/api/market/overview`.

use std::sync::Arc;

use axum::extract::State;
use moat_market::{Instrument, Quote};

use super::instrument_dto;
use crate::{
    http::{error::ApiError, json::ApiJson},
    market::{
        dto::{Movers, Overview, Priced, QuoteDto},
        service, MarketService, MarketState,
    },
};

/// Indices, USD/KRW and the day's biggest movers among stocks.
#[utoipa::path(get, path = "/api/market/overview", tag = "market", responses((status = 200, body = Overview)))]
pub async fn overview(State(state): State<MarketState>) -> Result<ApiJson<Overview>, ApiError> {
    let summary = service::summary(&state.service).await;
    let service = &state.service;
    let quoted = |(i, q): &(Arc<Instrument>, Option<Quote>)| priced(service, i, q.as_ref());
    let moved = |(i, q): &(Arc<Instrument>, Quote)| priced(service, i, Some(q));
    Ok(ApiJson(Overview {
        indices: summary.indices.iter().map(quoted).collect(),
        fx: summary.fx.iter().map(quoted).collect(),
        movers: Movers {
            gainers: summary.gainers.iter().map(moved).collect(),
            losers: summary.losers.iter().map(moved).collect(),
        },
    }))
}

fn priced(service: &MarketService, instrument: &Instrument, quote: Option<&Quote>) -> Priced {
    Priced {
        instrument: instrument_dto(service, instrument),
        quote: quote.map(QuoteDto::from),
    }
}
