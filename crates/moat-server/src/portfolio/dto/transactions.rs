//! Transactions as the API sends and receives them.

use moat_portfolio::Transaction;
use moat_storage::TransactionRow;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::portfolio::service::split_of;

/// A split's ratio: `denominator` old shares become `numerator` new ones.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, Copy)]
pub struct SplitDto {
    pub numerator: u32,
    pub denominator: u32,
}

impl From<moat_portfolio::SplitRatio> for SplitDto {
    fn from(s: moat_portfolio::SplitRatio) -> Self {
        Self {
            numerator: s.numerator,
            denominator: s.denominator,
        }
    }
}

/// A transaction; amounts are decimal strings.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct TransactionDto {
    pub id: i64,
    /// `buy`, `sell`, `dividend`, `deposit`, `withdrawal`, `fee`, `tax` or `split`.
    pub kind: String,
    pub trade_date: String,
    pub instrument_id: Option<String>,
    pub quantity: String,
    pub price: String,
    pub fee: String,
    pub tax: String,
    pub currency: String,
    pub fx_rate: Option<String>,
    pub split: Option<SplitDto>,
    pub note: String,
}

impl From<&TransactionRow> for TransactionDto {
    fn from(t: &TransactionRow) -> Self {
        Self {
            id: t.id,
            kind: t.kind.clone(),
            trade_date: t.trade_date.to_string(),
            instrument_id: t.instrument_id.as_ref().map(ToString::to_string),
            quantity: t.quantity.normalize().to_string(),
            price: t.price.normalize().to_string(),
            fee: t.fee.normalize().to_string(),
            tax: t.tax.normalize().to_string(),
            currency: t.currency.clone(),
            fx_rate: t.fx_rate.map(|r| r.normalize().to_string()),
            split: split_of(t.split_numerator, t.split_denominator).map(Into::into),
            note: t.note.clone(),
        }
    }
}

impl From<&Transaction> for TransactionDto {
    fn from(t: &Transaction) -> Self {
        Self {
            id: t.id,
            kind: t.kind.as_str().to_owned(),
            trade_date: t.trade_date.to_string(),
            instrument_id: t.instrument.as_ref().map(ToString::to_string),
            quantity: t.quantity.normalize().to_string(),
            price: t.price.normalize().to_string(),
            fee: t.fee.normalize().to_string(),
            tax: t.tax.normalize().to_string(),
            currency: t.currency.clone(),
            fx_rate: t.fx_rate.map(|r| r.normalize().to_string()),
            split: t.split.map(Into::into),
            note: t.note.clone(),
        }
    }
}

/// A transaction to record (or to replace one with). The service checks it
/// (`TransactionInput::parse`).
#[derive(Deserialize, ToSchema, Debug, Clone)]
pub struct TransactionInput {
    pub kind: String,
    /// `YYYY-MM-DD`.
    pub trade_date: String,
    pub instrument_id: Option<String>,
    #[serde(default)]
    pub quantity: Option<String>,
    #[serde(default)]
    pub price: Option<String>,
    #[serde(default)]
    pub fee: Option<String>,
    #[serde(default)]
    pub tax: Option<String>,
    pub currency: String,
    #[serde(default)]
    pub fx_rate: Option<String>,
    #[serde(default)]
    pub split: Option<SplitDto>,
    #[serde(default)]
    pub note: Option<String>,
}
