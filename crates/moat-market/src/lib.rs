//! Market data as plain domain code: what an instrument is, what prices look like,
//! when markets trade, how search ranks, how the simulator moves prices, and how
//! each real provider's answers are read. No HTTP routes and no SQL: the server
//! wires these into storage and the API (see `docs/market.md`).

pub mod calendar;
pub mod catalog;
pub mod history;
pub mod instrument;
pub mod price;
pub mod provider;
pub mod providers;
pub mod search;
pub mod simulator;
pub mod ticks;

pub use instrument::Market;
pub use instrument::{Board, Exchange, Instrument, InstrumentId, Kind, ParseIdError};
pub use price::{Bar, DailyCandle, Dividend, FxRate, Quote, QuoteState, Split};
pub use provider::{FxProvider, PriceProvider, ProviderError, ProviderKind, INTRADAY_BAR_MINUTES};
