//! The provider abstraction: where prices come from. The server picks one provider
//! per market from its configuration; each adapter turns a source's answers into the
//! types of [`crate::price`], and its failures into [`ProviderError`], never into
//! made-up prices.

use serde::{Deserialize, Serialize};

/// The providers Moat ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// Deterministic simulated prices: the embedded default.
    Simulator,
    /// Yahoo Finance chart v8 (history, dividends, splits, quotes; no key).
    Yahoo,
    /// Alpha Vantage (needs a key).
    AlphaVantage,
    /// European Central Bank reference rates (FX only).
    Ecb,
}

impl ProviderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Simulator => "simulator",
            ProviderKind::Yahoo => "yahoo",
            ProviderKind::AlphaVantage => "alpha_vantage",
            ProviderKind::Ecb => "ecb",
        }
    }
}

/// Why a provider gave no data. The server keeps the last good data and shows it as
/// stale; it never stores anything from a failed answer.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    /// The source refused for load (HTTP 429, or an answer that says so, such as
    /// Alpha Vantage's `Note`/`Information` bodies). Retry after the hint if any.
    #[error("rate limited by the source")]
    RateLimited { retry_after_secs: Option<u64> },
    /// The source does not know the symbol.
    #[error("the source does not know this instrument")]
    UnknownSymbol,
    /// The source answered with an error of its own (an HTTP 200 with an error body,
    /// a 4xx/5xx); the message is the source's, shortened.
    #[error("the source answered with an error: {0}")]
    Source(String),
    /// The answer could not be read (HTML instead of JSON, missing fields).
    #[error("the source's answer could not be read: {0}")]
    Malformed(String),
    /// The request did not complete (connection, timeout).
    #[error("the source could not be reached: {0}")]
    Unreachable(String),
    /// This provider does not offer this kind of data or instrument.
    #[error("not offered by this provider")]
    Unsupported,
}

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

use crate::{Bar, DailyCandle, Dividend, FxRate, Instrument, Quote, Split};

/// Minutes in one stored intraday bar.
pub const INTRADAY_BAR_MINUTES: u32 = 5;

/// A source of prices for instruments. Implementations are cheap to share
/// (`Arc<dyn PriceProvider>`) and never panic on a source's answer.
#[async_trait]
pub trait PriceProvider: Send + Sync {
    fn kind(&self) -> ProviderKind;

    /// Daily candles for the trading days in `from..=to`, oldest first, adjusted for
    /// splits.
    async fn daily_candles(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<DailyCandle>, ProviderError>;

    /// [`INTRADAY_BAR_MINUTES`]-minute bars of the session on `date` (exchange-local),
    /// oldest first; up to `now` when that session is under way.
    async fn intraday_bars(
        &self,
        instrument: &Instrument,
        date: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<Vec<Bar>, ProviderError>;

    /// The latest price as of `now`.
    async fn quote(
        &self,
        instrument: &Instrument,
        now: DateTime<Utc>,
    ) -> Result<Quote, ProviderError>;

    /// Dividends and splits in `from..=to`. Providers without them say `Unsupported`.
    async fn corporate_actions(
        &self,
        _instrument: &Instrument,
        _from: NaiveDate,
        _to: NaiveDate,
    ) -> Result<(Vec<Dividend>, Vec<Split>), ProviderError> {
        Err(ProviderError::Unsupported)
    }
}

/// A source of daily FX rates.
#[async_trait]
pub trait FxProvider: Send + Sync {
    fn kind(&self) -> ProviderKind;

    /// Daily rates of one `base` in `quote` (`USD`, `KRW`) for `from..=to`, oldest
    /// first; days without a fixing (weekends, holidays) are absent.
    async fn daily_rates(
        &self,
        base: &str,
        quote: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<FxRate>, ProviderError>;
}
