//! Transactions and portfolio settings: what a member records, and what each field
//! means for each kind.
//!
//! Every kind's amount is `quantity × price`, so that one shape fits all:
//!
//! | kind | instrument | quantity | price | cash effect (in `currency`) |
//! |---|---|---|---|---|
//! | `Buy` | required | shares bought | price per share | − (q·p + fee + tax) |
//! | `Sell` | required | shares sold | price per share | + (q·p − fee − tax) |
//! | `Dividend` | required | shares entitled (or 1) | per share (or the total) | + (q·p − fee − tax); `tax` is the withholding |
//! | `Deposit` | none | 1 (or any) | amount | + (q·p − fee − tax) |
//! | `Withdrawal` | none | 1 (or any) | amount | − (q·p + fee + tax) |
//! | `Fee` | optional | 1 (or any) | amount | − (q·p + fee + tax) |
//! | `Tax` | optional | 1 (or any) | amount | − (q·p + fee + tax) |
//! | `Split` | required | ignored (0) | ignored (0) | none; `split` gives the ratio |
//!
//! Fees and taxes on a buy go into the cost basis (they are part of what the shares
//! cost); fees and taxes on a sell reduce the proceeds (so they reduce the realised
//! gain). A standalone `Fee` or `Tax` (an account fee, a year-end tax) is an expense: it
//! debits cash and counts in fees or taxes paid (of the holding, when it names one) but
//! changes no cost basis and no realised gain.

use chrono::NaiveDate;
use moat_market::{Exchange, InstrumentId};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::money::KRW;

/// How the cost of shares sold is measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CostMethod {
    /// One running average cost per share; a sell takes shares at the average, which a
    /// sell does not change (이동평균법 — what Korean brokers show, hence the default).
    #[default]
    MovingAverage,
    /// Lots are kept separately and a sell consumes the oldest first.
    Fifo,
}

impl CostMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            CostMethod::MovingAverage => "moving_average",
            CostMethod::Fifo => "fifo",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "moving_average" => Some(CostMethod::MovingAverage),
            "fifo" => Some(CostMethod::Fifo),
            _ => None,
        }
    }
}

/// What a transaction is (see the module doc for each kind's fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TxKind {
    Buy,
    Sell,
    Dividend,
    Deposit,
    Withdrawal,
    Fee,
    Tax,
    Split,
}

impl TxKind {
    pub const ALL: [TxKind; 8] = [
        TxKind::Buy,
        TxKind::Sell,
        TxKind::Dividend,
        TxKind::Deposit,
        TxKind::Withdrawal,
        TxKind::Fee,
        TxKind::Tax,
        TxKind::Split,
    ];

    /// The stable lower-case name (`buy`, `sell`, …), used in CSV files and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            TxKind::Buy => "buy",
            TxKind::Sell => "sell",
            TxKind::Dividend => "dividend",
            TxKind::Deposit => "deposit",
            TxKind::Withdrawal => "withdrawal",
            TxKind::Fee => "fee",
            TxKind::Tax => "tax",
            TxKind::Split => "split",
        }
    }

    /// The English name, case-insensitive.
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        Self::ALL
            .into_iter()
            .find(|k| k.as_str().eq_ignore_ascii_case(s))
    }

    /// Kinds that must name an instrument.
    pub fn needs_instrument(self) -> bool {
        matches!(
            self,
            TxKind::Buy | TxKind::Sell | TxKind::Dividend | TxKind::Split
        )
    }

    /// Kinds that may name one (a fee or tax may belong to a holding).
    pub fn allows_instrument(self) -> bool {
        self.needs_instrument() || matches!(self, TxKind::Fee | TxKind::Tax)
    }

    /// Money moved into or out of the portfolio from outside: the only flows that
    /// time-weighted and money-weighted returns treat as external.
    pub fn is_external_flow(self) -> bool {
        matches!(self, TxKind::Deposit | TxKind::Withdrawal)
    }
}

/// A split ratio: each `denominator` old shares become `numerator` new ones (4-for-1
/// is 4/1; a 1-for-10 reverse split is 1/10), as in [`moat_market::Split`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SplitRatio {
    pub numerator: u32,
    pub denominator: u32,
}

impl SplitRatio {
    /// New shares per old share. `None` for a zero term (validation rejects those).
    pub fn factor(self) -> Option<Decimal> {
        (self.numerator > 0 && self.denominator > 0)
            .then(|| Decimal::from(self.numerator) / Decimal::from(self.denominator))
    }
}

/// One recorded transaction. Quantities may be fractional (US brokers sell fractions);
/// KRX shares are whole (validation checks).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Transaction {
    /// Stable id (the storage row id). Transactions of one day apply in id order.
    pub id: i64,
    pub kind: TxKind,
    pub trade_date: NaiveDate,
    pub instrument: Option<InstrumentId>,
    pub quantity: Decimal,
    pub price: Decimal,
    pub fee: Decimal,
    pub tax: Decimal,
    /// ISO 4217 code of the trade (`KRW`, `USD`).
    pub currency: String,
    /// Units of the portfolio's base currency per unit of `currency` at the trade
    /// (1380.5 for a USD trade in a KRW portfolio). Required when `currency` is not the
    /// base currency; ignored when it is.
    pub fx_rate: Option<Decimal>,
    /// The ratio of a `Split`; `None` for every other kind.
    pub split: Option<SplitRatio>,
    pub note: String,
}

impl Transaction {
    /// A transaction of `kind` with every amount zero, no instrument and no note: a
    /// starting point for builders and tests.
    pub fn new(id: i64, kind: TxKind, trade_date: NaiveDate, currency: &str) -> Self {
        Self {
            id,
            kind,
            trade_date,
            instrument: None,
            quantity: Decimal::ZERO,
            price: Decimal::ZERO,
            fee: Decimal::ZERO,
            tax: Decimal::ZERO,
            currency: currency.to_owned(),
            fx_rate: None,
            split: None,
            note: String::new(),
        }
    }

    /// `quantity × price`: the traded amount, the dividend, the deposit.
    pub fn amount(&self) -> Decimal {
        self.quantity * self.price
    }

    /// The signed change of cash in `currency` (see the module doc's table).
    pub fn cash_effect(&self) -> Decimal {
        match self.kind {
            TxKind::Sell | TxKind::Dividend | TxKind::Deposit => {
                self.amount() - self.fee - self.tax
            }
            TxKind::Buy | TxKind::Withdrawal | TxKind::Fee | TxKind::Tax => {
                -(self.amount() + self.fee + self.tax)
            }
            TxKind::Split => Decimal::ZERO,
        }
    }

    /// The order in which the ledger applies transactions: by day, then by id.
    pub fn sort_key(&self) -> (NaiveDate, i64) {
        (self.trade_date, self.id)
    }
}

/// A portfolio's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortfolioSettings {
    /// `KRW` or `USD`: the currency totals and cost in base are kept in.
    pub base_currency: String,
    pub cost_method: CostMethod,
}

impl Default for PortfolioSettings {
    fn default() -> Self {
        Self {
            base_currency: KRW.to_owned(),
            cost_method: CostMethod::default(),
        }
    }
}

/// True for instruments whose shares trade only whole (KRX).
pub fn whole_shares_only(instrument: &InstrumentId) -> bool {
    instrument.exchange() == Exchange::Krx
}

/// Sorts transactions into ledger order (see [`Transaction::sort_key`]).
pub fn sorted(transactions: &[Transaction]) -> Vec<&Transaction> {
    let mut out: Vec<&Transaction> = transactions.iter().collect();
    out.sort_by_key(|t| t.sort_key());
    out
}
