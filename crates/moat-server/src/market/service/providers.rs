//! The price provider of each market, as the configuration names it, and what each
//! last did (the operator's view).

use std::{collections::HashMap, sync::Arc};

use moat_market::{simulator::Simulator, Market, PriceProvider, ProviderKind};
use moat_storage::ProviderStatus;

use super::{market_name, MarketService};
use crate::{
    http::error::ApiError,
    market::{MarketConfig, MarketState},
};

/// One market's provider.
#[derive(Clone)]
pub struct ProviderSlot {
    pub kind: ProviderKind,
    pub provider: Arc<dyn PriceProvider>,
}

impl MarketService {
    /// Which provider serves each market, by market name.
    pub fn provider_kinds(&self) -> Vec<(&'static str, ProviderKind)> {
        let mut out: Vec<_> = self
            .providers
            .iter()
            .map(|(m, s)| (market_name(*m), s.kind))
            .collect();
        out.sort_by_key(|(m, _)| *m);
        out
    }
}

/// Each market's provider with its last success and error, by market name.
pub async fn provider_statuses(state: &MarketState) -> Result<Vec<ProviderStatus>, ApiError> {
    let stored = state.storage.provider_statuses().await?;
    Ok(state
        .service
        .provider_kinds()
        .into_iter()
        .map(|(market, kind)| {
            let s = stored
                .iter()
                .find(|s| s.market == market && s.provider == kind.as_str());
            ProviderStatus {
                market: market.to_owned(),
                provider: kind.as_str().to_owned(),
                last_success: s.and_then(|s| s.last_success),
                last_error: s.and_then(|s| s.last_error.clone()),
                last_error_at: s.and_then(|s| s.last_error_at),
            }
        })
        .collect())
}

/// The providers the configuration names, per market. Crypto follows the US
/// setting; FX quotes follow `fx` when it names a price provider, else the simulator
/// (ECB publishes daily rates, not quotes).
pub(super) fn providers_for(
    config: &MarketConfig,
    simulator: &Simulator,
) -> HashMap<Market, ProviderSlot> {
    let sim = ProviderSlot {
        kind: ProviderKind::Simulator,
        provider: Arc::new(simulator.clone()),
    };
    let pick = |name: &str| -> ProviderSlot {
        match name {
            "yahoo" | "alpha_vantage" => real_provider(name, config).unwrap_or_else(|| sim.clone()),
            _ => sim.clone(),
        }
    };
    HashMap::from([
        (Market::Krx, pick(&config.krx)),
        (Market::Us, pick(&config.us)),
        (Market::Crypto, pick(&config.us)),
        (Market::Fx, pick(&config.fx)),
    ])
}

fn real_provider(name: &str, config: &MarketConfig) -> Option<ProviderSlot> {
    use moat_market::providers::{alpha_vantage, http, yahoo};
    match name {
        "yahoo" => Some(ProviderSlot {
            kind: ProviderKind::Yahoo,
            provider: Arc::new(yahoo::YahooProvider::new(http::client(), &config.yahoo_url)),
        }),
        "alpha_vantage" => Some(ProviderSlot {
            kind: ProviderKind::AlphaVantage,
            provider: Arc::new(alpha_vantage::AlphaVantageProvider::new(
                http::client(),
                &config.alpha_vantage_url,
                config.alpha_vantage_key.expose(),
            )),
        }),
        _ => None,
    }
}
