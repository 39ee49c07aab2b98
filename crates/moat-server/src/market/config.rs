//! `[market]`: which provider serves each market, and stream limits (docs/market.md).

use serde::{Deserialize, Serialize};

use crate::config::{ConfigError, Secret, Section};

/// `[market]`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct MarketConfig {
    /// Provider of Korean prices: `simulator`, `yahoo` or `alpha_vantage`.
    pub krx: String,
    /// Provider of US prices: `simulator`, `yahoo` or `alpha_vantage`.
    pub us: String,
    /// Provider of FX rates: `simulator`, `ecb`, `yahoo` or `alpha_vantage`.
    pub fx: String,
    /// The Alpha Vantage API key (needed when a market uses `alpha_vantage`).
    pub alpha_vantage_key: Secret,
    /// Seconds between quote polls of a real provider.
    pub poll_secs: u64,
    /// Base URL of Yahoo Finance (tests point it at a local server).
    pub yahoo_url: String,
    /// Base URL of Alpha Vantage.
    pub alpha_vantage_url: String,
    /// Years of daily history the simulator backfills on first start (0: none).
    pub backfill_years: u32,
    /// WebSocket connections one instance accepts on `/api/stream`.
    pub max_stream_connections: usize,
}

impl Default for MarketConfig {
    fn default() -> Self {
        Self {
            krx: "simulator".into(),
            us: "simulator".into(),
            fx: "simulator".into(),
            alpha_vantage_key: Secret::default(),
            poll_secs: 60,
            yahoo_url: moat_market::providers::yahoo::DEFAULT_BASE_URL.into(),
            alpha_vantage_url: moat_market::providers::alpha_vantage::DEFAULT_BASE_URL.into(),
            backfill_years: 5,
            max_stream_connections: 10_000,
        }
    }
}

impl Section for MarketConfig {
    const NAME: &'static str = "market";
    const ENV_KEYS: &'static [&'static str] = &[
        "krx",
        "us",
        "fx",
        "alpha_vantage_key",
        "poll_secs",
        "yahoo_url",
        "alpha_vantage_url",
        "backfill_years",
        "max_stream_connections",
    ];

    fn validate(&self) -> Result<(), ConfigError> {
        let prices = ["simulator", "yahoo", "alpha_vantage"];
        for (key, value, allowed) in [
            ("krx", &self.krx, &prices[..]),
            ("us", &self.us, &prices[..]),
            (
                "fx",
                &self.fx,
                &["simulator", "ecb", "yahoo", "alpha_vantage"][..],
            ),
        ] {
            if !allowed.contains(&value.as_str()) {
                return Err(ConfigError::key(
                    &format!("market.{key}"),
                    format!("{value:?} (one of {})", allowed.join(", ")),
                ));
            }
            if value == "alpha_vantage" && self.alpha_vantage_key.is_empty() {
                return Err(ConfigError::new(format!(
                    "`market.{key}` is alpha_vantage: set `market.alpha_vantage_key` (MOAT_MARKET_ALPHA_VANTAGE_KEY)"
                )));
            }
        }
        if self.poll_secs < 5 {
            return Err(ConfigError::key("market.poll_secs", "at least 5"));
        }
        if self.backfill_years > 30 {
            return Err(ConfigError::key("market.backfill_years", "0 to 30"));
        }
        if self.max_stream_connections == 0 {
            return Err(ConfigError::key(
                "market.max_stream_connections",
                "at least 1",
            ));
        }
        Ok(())
    }

    fn default_toml(&self) -> String {
        format!(
            r#"[market]
# Where prices come from, per market: "simulator" (deterministic simulated prices,
# works offline, labelled as simulated), "yahoo" (Yahoo Finance, delayed, no key) or
# "alpha_vantage" (needs alpha_vantage_key). FX also takes "ecb" (daily reference rates).
krx = "{krx}"
us = "{us}"
fx = "{fx}"
# Also MOAT_MARKET_ALPHA_VANTAGE_KEY.
alpha_vantage_key = ""
# Seconds between quote polls of a real provider (the simulator ticks every second).
poll_secs = {poll}
# Where the real providers are reached.
yahoo_url = "{yahoo_url}"
alpha_vantage_url = "{av_url}"
# Years of daily history the simulator writes on first start.
backfill_years = {backfill}
# Live-stream WebSocket connections one instance accepts.
max_stream_connections = {max_stream}
"#,
            krx = self.krx,
            us = self.us,
            fx = self.fx,
            poll = self.poll_secs,
            yahoo_url = self.yahoo_url,
            av_url = self.alpha_vantage_url,
            backfill = self.backfill_years,
            max_stream = self.max_stream_connections,
        )
    }
}
