//! The market area's handlers, one file per resource: each extracts, calls the
//! service and answers its DTOs.

pub mod candles;
pub mod favorites;
pub mod fx;
pub mod instruments;
pub mod overview;
pub mod providers;
pub mod quotes;

use moat_market::Instrument;

use super::{dto::InstrumentDto, MarketService};

/// `i` as the API shows it, labelled when its prices are simulated.
fn instrument_dto(service: &MarketService, i: &Instrument) -> InstrumentDto {
    InstrumentDto::new(i, service.is_simulated(i))
}
