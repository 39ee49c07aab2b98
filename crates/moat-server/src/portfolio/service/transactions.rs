//! The checks of a transaction before it is written (the write itself is
//! [`crate::portfolio::write`]).

use std::collections::BTreeMap;

use chrono::{NaiveDate, Utc};
use moat_market::InstrumentId;
use moat_portfolio::TxKind;
use moat_storage::NewTransaction;
use rust_decimal::Decimal;

use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    portfolio::dto::TransactionInput,
    portfolio::PortfolioState,
};

/// Longest note on a transaction, in characters.
pub const MAX_NOTE_CHARS: usize = 500;

/// The latest trade date accepted: today where the day is furthest ahead (UTC+14), so a
/// member anywhere can record today's trades and nobody tomorrow's.
pub fn latest_trade_date() -> NaiveDate {
    (Utc::now() + chrono::Duration::hours(14)).date_naive()
}

fn decimal_field(
    errors: &mut BTreeMap<String, FieldError>,
    field: &str,
    raw: Option<&str>,
) -> Decimal {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None => Decimal::ZERO,
        Some(s) => s.parse::<Decimal>().unwrap_or_else(|_| {
            errors.insert(
                field.to_owned(),
                FieldError::new(ErrorCode::InvalidNumber, "A decimal number such as 12.5."),
            );
            Decimal::ZERO
        }),
    }
}

impl TransactionInput {
    /// The storage form, or 422 naming each malformed field. Rules that need the
    /// portfolio (currency, FX, holdings) are the domain's `validate`.
    pub fn parse(&self) -> Result<NewTransaction, ApiError> {
        let mut errors = BTreeMap::new();
        if TxKind::parse(&self.kind).is_none() {
            errors.insert(
                "kind".into(),
                FieldError::new(
                    ErrorCode::InvalidType,
                    "One of buy, sell, dividend, deposit, withdrawal, fee, tax, split.",
                ),
            );
        }
        let trade_date = NaiveDate::parse_from_str(self.trade_date.trim(), "%Y-%m-%d")
            .unwrap_or_else(|_| {
                errors.insert(
                    "trade_date".into(),
                    FieldError::new(ErrorCode::InvalidDate, "A date as YYYY-MM-DD."),
                );
                NaiveDate::MIN
            });
        if trade_date > latest_trade_date() {
            errors.insert(
                "trade_date".into(),
                FieldError::new(ErrorCode::DateInFuture, "The trade date is in the future."),
            );
        }
        let instrument_id = match self.instrument_id.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(raw) => match raw.parse::<InstrumentId>() {
                Ok(id) => Some(id),
                Err(e) => {
                    errors.insert(
                        "instrument_id".into(),
                        FieldError::new(ErrorCode::InvalidInstrument, e.to_string()),
                    );
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
                FieldError::new(
                    ErrorCode::TooLong,
                    format!("At most {MAX_NOTE_CHARS} characters."),
                )
                .param("max", MAX_NOTE_CHARS),
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

/// The instrument must be in the catalogue, and the trade no older than its price
/// history (a trade Moat has no price for could not be valued or checked).
pub async fn check_instrument(
    state: &PortfolioState,
    id: Option<&InstrumentId>,
    trade_date: NaiveDate,
) -> Result<(), ApiError> {
    let Some(id) = id else { return Ok(()) };
    let Some(inst) = state.market.instrument(id) else {
        return Err(ApiError::invalid_field(
            "instrument_id",
            FieldError::new(
                ErrorCode::UnknownInstrument,
                format!("There is no instrument {id}."),
            )
            .param("instrument", id),
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
            FieldError::new(ErrorCode::BeforeHistory, before_history(id, start))
                .param("instrument", id)
                .param("start", start),
        )),
        None => Ok(()),
    }
}

/// Why a trade is refused when it is older than its instrument's price history.
pub fn before_history(id: &InstrumentId, start: NaiveDate) -> String {
    format!("The price history of {id} starts on {start}: a trade before it cannot be valued.")
}
