//! Allocation: how a valuation's total value splits by holding, sector, country,
//! currency and asset class. Cash is a slice of its own ([`CASH_KEY`]) except by
//! currency, where it counts in its currency. Instruments without metadata fall in
//! [`UNKNOWN_KEY`].

use std::collections::{BTreeMap, HashMap};

use moat_market::{Instrument, InstrumentId, Kind};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::valuation::Valuation;

/// The slice key of cash.
pub const CASH_KEY: &str = "cash";
/// The slice key of holdings whose metadata is missing or empty.
pub const UNKNOWN_KEY: &str = "unknown";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AssetClass {
    Stock,
    Etf,
    Crypto,
    Other,
}

impl AssetClass {
    pub fn as_str(self) -> &'static str {
        match self {
            AssetClass::Stock => "stock",
            AssetClass::Etf => "etf",
            AssetClass::Crypto => "crypto",
            AssetClass::Other => "other",
        }
    }
}

/// What allocation needs to know about an instrument.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstrumentMeta {
    /// Free text (`Information Technology`); empty when unknown.
    pub sector: String,
    /// ISO 3166-1 alpha-2 (`KR`, `US`); empty when unknown.
    pub country: String,
    pub asset_class: AssetClass,
}

impl From<&Instrument> for InstrumentMeta {
    fn from(i: &Instrument) -> Self {
        Self {
            sector: i.sector.clone(),
            country: i.country.clone(),
            asset_class: match i.kind {
                Kind::Stock => AssetClass::Stock,
                Kind::Etf => AssetClass::Etf,
                Kind::Crypto => AssetClass::Crypto,
                Kind::Index | Kind::Currency => AssetClass::Other,
            },
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllocationBy {
    Holding,
    Sector,
    Country,
    Currency,
    AssetClass,
}

/// One slice, in the valuation's totals currency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Slice {
    /// The instrument id, sector, country code, currency code or asset class;
    /// [`CASH_KEY`] or [`UNKNOWN_KEY`].
    pub key: String,
    pub value: Decimal,
    pub weight_percent: Decimal,
}

/// Slices of `valuation`, largest first (ties by key). Weights are of the total value,
/// cash included, so they add up to 100 (or are all zero for an empty portfolio).
pub fn allocation(
    valuation: &Valuation,
    by: AllocationBy,
    meta: &HashMap<InstrumentId, InstrumentMeta>,
) -> Vec<Slice> {
    let mut sums: BTreeMap<String, Decimal> = BTreeMap::new();
    let known = |s: &str| {
        if s.trim().is_empty() {
            UNKNOWN_KEY.to_owned()
        } else {
            s.to_owned()
        }
    };
    for h in &valuation.holdings {
        let m = meta.get(&h.instrument);
        let key = match by {
            AllocationBy::Holding => h.instrument.to_string(),
            AllocationBy::Sector => known(m.map_or("", |m| m.sector.as_str())),
            AllocationBy::Country => known(m.map_or("", |m| m.country.as_str())),
            AllocationBy::Currency => h.trade_currency.clone(),
            AllocationBy::AssetClass => {
                m.map_or(UNKNOWN_KEY, |m| m.asset_class.as_str()).to_owned()
            }
        };
        *sums.entry(key).or_default() += h.market_value_total;
    }
    for c in &valuation.cash {
        let key = match by {
            AllocationBy::Currency => c.currency.clone(),
            _ => CASH_KEY.to_owned(),
        };
        *sums.entry(key).or_default() += c.amount_total;
    }
    let total = valuation.totals.total_value;
    let mut slices: Vec<Slice> = sums
        .into_iter()
        .map(|(key, value)| Slice {
            weight_percent: if total.is_zero() {
                Decimal::ZERO
            } else {
                value * Decimal::ONE_HUNDRED / total
            },
            key,
            value,
        })
        .collect();
    slices.sort_by(|a, b| b.value.cmp(&a.value).then_with(|| a.key.cmp(&b.key)));
    slices
}
