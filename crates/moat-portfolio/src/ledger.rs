//! The ledger: a pure function from a transaction list to holdings and cash.
//!
//! Transactions may come in any order; they are applied by `(trade_date, id)`. Editing
//! or deleting a transaction is recomputing from the edited list: nothing here is
//! incremental state that could drift from the record.
//!
//! Every amount is kept twice: in the trade currency and in the ledger's *reporting
//! currency* (the `_base` fields). For a ledger in the portfolio's base currency the
//! conversion uses each transaction's own `fx_rate` (what the member actually got), so
//! the base cost and the base realised gain include the FX gain or loss. A ledger in
//! another currency (the USD view of a KRW portfolio) converts at the FX history's rate
//! of each trade date instead ([`Ledger::build_in`]).
//!
//! Cost: fees and taxes on a buy are part of its cost; fees and taxes on a sell reduce
//! its proceeds. With [`CostMethod::MovingAverage`] a holding is one pooled lot whose
//! average a sell does not change; with [`CostMethod::Fifo`] each buy is a lot and a
//! sell consumes the oldest first, taking a partial lot's cost in proportion. A split
//! scales every lot's quantity by its ratio and keeps its cost. Full precision
//! throughout; see [`crate::money`] for rounding.
//!
//! Cash is kept per currency. A debit larger than the cash of its currency does not
//! make cash negative: for a foreign-currency trade the shortfall is first converted
//! from base-currency cash at the trade's rate (as Korean brokers' integrated margin
//! does), and what remains is an *implicit deposit* — the member paid from outside the
//! portfolio. Implicit deposits are external flows for performance, exactly like
//! recorded deposits, so a member who records only trades still gets correct returns.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use moat_market::InstrumentId;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::money::FxHistory;
use crate::transaction::{sorted, CostMethod, PortfolioSettings, Transaction, TxKind};
use crate::validation::{Field, Issue, IssueCode};

/// Quantities closer than this are equal: a sell of 3.3333333333 shares after a 1/3
/// split closes a holding of 3.3333…(28 digits), and the dust left is dropped.
pub const QUANTITY_EPSILON: Decimal = Decimal::from_parts(1, 0, 0, false, 9);

/// Shares bought together (FIFO) or the whole pooled position (moving average).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lot {
    pub acquired: NaiveDate,
    pub quantity: Decimal,
    /// Total cost in the trade currency, fees and taxes included.
    pub cost: Decimal,
    /// The same in the reporting currency.
    pub cost_base: Decimal,
}

/// One instrument's position and history in a portfolio. Closed positions stay (with
/// quantity zero) for their realised gains and dividends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Holding {
    pub instrument: InstrumentId,
    /// The trade currency (every transaction on one instrument uses the same).
    pub currency: String,
    /// Open lots, oldest first (one lot under moving average).
    pub lots: Vec<Lot>,
    pub realised_gain: Decimal,
    pub realised_gain_base: Decimal,
    pub dividends_gross: Decimal,
    /// After withholding tax and fees.
    pub dividends_net: Decimal,
    pub dividends_gross_base: Decimal,
    pub dividends_net_base: Decimal,
    /// Every fee on this instrument, including those inside the cost basis.
    pub fees_paid: Decimal,
    pub fees_paid_base: Decimal,
    /// Every tax on this instrument, including dividend withholding.
    pub taxes_paid: Decimal,
    pub taxes_paid_base: Decimal,
    /// The price of the latest buy or sell: the fallback value when no price is known.
    pub last_trade_price: Option<Decimal>,
    /// Quantity at the end of each day on which it changed, in date order.
    pub quantity_history: Vec<(NaiveDate, Decimal)>,
}

impl Holding {
    fn new(instrument: InstrumentId, currency: &str) -> Self {
        Self {
            instrument,
            currency: currency.to_owned(),
            lots: Vec::new(),
            realised_gain: Decimal::ZERO,
            realised_gain_base: Decimal::ZERO,
            dividends_gross: Decimal::ZERO,
            dividends_net: Decimal::ZERO,
            dividends_gross_base: Decimal::ZERO,
            dividends_net_base: Decimal::ZERO,
            fees_paid: Decimal::ZERO,
            fees_paid_base: Decimal::ZERO,
            taxes_paid: Decimal::ZERO,
            taxes_paid_base: Decimal::ZERO,
            last_trade_price: None,
            quantity_history: Vec::new(),
        }
    }

    pub fn quantity(&self) -> Decimal {
        self.lots.iter().map(|l| l.quantity).sum()
    }

    /// Cost of the shares held, in the trade currency.
    pub fn cost_basis(&self) -> Decimal {
        self.lots.iter().map(|l| l.cost).sum()
    }

    pub fn cost_basis_base(&self) -> Decimal {
        self.lots.iter().map(|l| l.cost_base).sum()
    }

    /// Cost per share held (zero when none is held).
    pub fn average_cost(&self) -> Decimal {
        per_share(self.cost_basis(), self.quantity())
    }

    pub fn average_cost_base(&self) -> Decimal {
        per_share(self.cost_basis_base(), self.quantity())
    }

    /// Quantity held at the end of `date`.
    pub fn quantity_on(&self, date: NaiveDate) -> Decimal {
        let after = self.quantity_history.partition_point(|(d, _)| *d <= date);
        after
            .checked_sub(1)
            .map_or(Decimal::ZERO, |i| self.quantity_history[i].1)
    }

    fn record_quantity(&mut self, date: NaiveDate) {
        let quantity = self.quantity();
        match self.quantity_history.last_mut() {
            Some((d, q)) if *d == date => *q = quantity,
            _ => self.quantity_history.push((date, quantity)),
        }
    }
}

fn per_share(total: Decimal, quantity: Decimal) -> Decimal {
    if quantity.is_zero() {
        Decimal::ZERO
    } else {
        total / quantity
    }
}

/// What applying one transaction did besides changing the ledger.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Applied {
    pub warnings: Vec<Issue>,
    /// Money paid in from outside to cover a shortfall (see the module doc), in
    /// `currency`; zero when cash sufficed.
    pub implicit_deposit: Decimal,
    pub implicit_deposit_currency: String,
}

/// Holdings and cash after a list of transactions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    pub base_currency: String,
    pub cost_method: CostMethod,
    /// The currency of the `_base` amounts (usually `base_currency`).
    pub reporting_currency: String,
    pub holdings: BTreeMap<InstrumentId, Holding>,
    /// Cash by currency, never negative.
    pub cash: BTreeMap<String, Decimal>,
    /// Implicit deposits so far, by currency.
    pub implicit_deposits: BTreeMap<String, Decimal>,
    /// Standalone fees and taxes not attached to an instrument, by currency.
    pub other_fees: BTreeMap<String, Decimal>,
    pub other_taxes: BTreeMap<String, Decimal>,
}

/// Units of the base currency per unit of the trade currency, for a transaction that
/// passed [`check_transaction`]: 1 in the base currency, else its `fx_rate`.
pub fn trade_rate_to_base(settings: &PortfolioSettings, tx: &Transaction) -> Decimal {
    if tx.currency == settings.base_currency {
        Decimal::ONE
    } else {
        tx.fx_rate.unwrap_or(Decimal::ONE)
    }
}

impl Ledger {
    /// A ledger with nothing in it.
    pub fn empty(settings: &PortfolioSettings, reporting_currency: &str) -> Self {
        Self {
            base_currency: settings.base_currency.clone(),
            cost_method: settings.cost_method,
            reporting_currency: reporting_currency.to_owned(),
            holdings: BTreeMap::new(),
            cash: BTreeMap::new(),
            implicit_deposits: BTreeMap::new(),
            other_fees: BTreeMap::new(),
            other_taxes: BTreeMap::new(),
        }
    }

    /// The ledger in the portfolio's base currency, or every error found (the same as
    /// [`crate::validation::validate`]'s).
    pub fn build(
        settings: &PortfolioSettings,
        transactions: &[Transaction],
    ) -> Result<Self, Vec<Issue>> {
        let report = crate::validation::validate(settings, transactions);
        if !report.is_ok() {
            return Err(report.errors);
        }
        let mut ledger = Self::empty(settings, &settings.base_currency);
        for tx in sorted(transactions) {
            ledger
                .apply(tx, trade_rate_to_base(settings, tx))
                .map_err(|e| vec![e])?;
        }
        Ok(ledger)
    }

    /// The ledger with `_base` amounts in `currency`: each transaction converts at its
    /// own rate when `currency` is the base, else at `fx`'s rate of its trade date.
    pub fn build_in(
        settings: &PortfolioSettings,
        transactions: &[Transaction],
        currency: &str,
        fx: &FxHistory,
    ) -> Result<Self, Vec<Issue>> {
        if currency == settings.base_currency {
            return Self::build(settings, transactions);
        }
        let report = crate::validation::validate(settings, transactions);
        if !report.is_ok() {
            return Err(report.errors);
        }
        let mut ledger = Self::empty(settings, currency);
        for tx in sorted(transactions) {
            let rate = rate_on_trade_date(tx, currency, fx)?;
            ledger.apply(tx, rate).map_err(|e| vec![e])?;
        }
        Ok(ledger)
    }

    /// Applies one transaction (which must have passed
    /// [`crate::validation::check_transaction`]), with
    /// `rate` units of the reporting currency per unit of its currency. Errors leave the
    /// ledger unchanged.
    pub fn apply(&mut self, tx: &Transaction, rate: Decimal) -> Result<Applied, Issue> {
        let mut applied = Applied::default();
        let cost_method = self.cost_method;
        if let Some(id) = &tx.instrument {
            if let Some(h) = self.holdings.get(id) {
                if h.currency != tx.currency {
                    return Err(Issue::new(
                        tx,
                        Some(Field::Currency),
                        IssueCode::CurrencyMismatch,
                        format!("{id} was traded in {}, not {}", h.currency, tx.currency),
                    ));
                }
            }
        }
        match tx.kind {
            TxKind::Buy => {
                let cost = tx.amount() + tx.fee + tx.tax;
                let h = self.holding_mut(tx);
                let lot = Lot {
                    acquired: tx.trade_date,
                    quantity: tx.quantity,
                    cost,
                    cost_base: cost * rate,
                };
                match (cost_method, h.lots.first_mut()) {
                    (CostMethod::MovingAverage, Some(pool)) => {
                        pool.quantity += lot.quantity;
                        pool.cost += lot.cost;
                        pool.cost_base += lot.cost_base;
                    }
                    _ => h.lots.push(lot),
                }
                add_costs(h, tx, rate);
                h.last_trade_price = Some(tx.price);
                h.record_quantity(tx.trade_date);
            }
            TxKind::Sell => {
                let held = self
                    .holdings
                    .get(tx.instrument.as_ref().expect("checked"))
                    .map_or(Decimal::ZERO, Holding::quantity);
                if tx.quantity > held + QUANTITY_EPSILON {
                    let instrument = tx.instrument.as_ref().expect("checked");
                    return Err(Issue::new(
                        tx,
                        Some(Field::Quantity),
                        IssueCode::InsufficientQuantity,
                        format!(
                            "sells {} of {} but only {} is held on {}",
                            tx.quantity.normalize(),
                            instrument,
                            held.normalize(),
                            tx.trade_date
                        ),
                    )
                    .param("instrument", instrument)
                    .param("quantity", tx.quantity.normalize())
                    .param("held", held.normalize())
                    .param("date", tx.trade_date));
                }
                let h = self.holding_mut(tx);
                let (cost, cost_base) = take_oldest(&mut h.lots, tx.quantity);
                let proceeds = tx.amount() - tx.fee - tx.tax;
                h.realised_gain += proceeds - cost;
                h.realised_gain_base += proceeds * rate - cost_base;
                add_costs(h, tx, rate);
                h.last_trade_price = Some(tx.price);
                h.record_quantity(tx.trade_date);
            }
            TxKind::Dividend => {
                let id = tx.instrument.as_ref().expect("checked");
                let held = self
                    .holdings
                    .get(id)
                    .map_or(Decimal::ZERO, Holding::quantity);
                if held.is_zero() {
                    applied.warnings.push(Issue::new(
                        tx,
                        Some(Field::Instrument),
                        IssueCode::DividendNotHeld,
                        format!("a dividend on {id}, which is not held on {}", tx.trade_date),
                    ));
                }
                let h = self.holding_mut(tx);
                let net = tx.amount() - tx.fee - tx.tax;
                h.dividends_gross += tx.amount();
                h.dividends_net += net;
                h.dividends_gross_base += tx.amount() * rate;
                h.dividends_net_base += net * rate;
                add_costs(h, tx, rate);
            }
            TxKind::Split => {
                let id = tx.instrument.as_ref().expect("checked");
                let factor = tx.split.and_then(|r| r.factor()).expect("checked");
                let held = self
                    .holdings
                    .get(id)
                    .map_or(Decimal::ZERO, Holding::quantity);
                if held.is_zero() {
                    return Err(Issue::new(
                        tx,
                        Some(Field::Instrument),
                        IssueCode::SplitNotHeld,
                        format!("a split of {id}, which is not held on {}", tx.trade_date),
                    ));
                }
                let h = self.holding_mut(tx);
                for lot in &mut h.lots {
                    lot.quantity *= factor;
                }
                h.last_trade_price = h.last_trade_price.map(|p| p / factor);
                h.record_quantity(tx.trade_date);
            }
            TxKind::Fee | TxKind::Tax => match &tx.instrument {
                Some(_) => {
                    let h = self.holding_mut(tx);
                    let (fee, tax) = standalone_fee_tax(tx);
                    h.fees_paid += fee;
                    h.fees_paid_base += fee * rate;
                    h.taxes_paid += tax;
                    h.taxes_paid_base += tax * rate;
                }
                None => {
                    let (fee, tax) = standalone_fee_tax(tx);
                    *self.other_fees.entry(tx.currency.clone()).or_default() += fee;
                    *self.other_taxes.entry(tx.currency.clone()).or_default() += tax;
                }
            },
            TxKind::Deposit | TxKind::Withdrawal => {}
        }
        let implicit = self.move_cash(tx);
        applied.implicit_deposit = implicit.0;
        applied.implicit_deposit_currency = implicit.1;
        Ok(applied)
    }

    /// The holding a transaction names (which its kind requires), created if new.
    fn holding_mut(&mut self, tx: &Transaction) -> &mut Holding {
        let id = tx
            .instrument
            .clone()
            .expect("checked: this kind names an instrument");
        self.holdings
            .entry(id.clone())
            .or_insert_with(|| Holding::new(id, &tx.currency))
    }

    /// Books the transaction's cash effect; returns the implicit deposit it needed.
    fn move_cash(&mut self, tx: &Transaction) -> (Decimal, String) {
        let effect = tx.cash_effect();
        let balance = self.cash.entry(tx.currency.clone()).or_default();
        *balance += effect;
        if !balance.is_sign_negative() || balance.is_zero() {
            return (Decimal::ZERO, tx.currency.clone());
        }
        let shortfall = -*balance;
        *balance = Decimal::ZERO;
        if tx.currency != self.base_currency {
            if let Some(rate) = tx.fx_rate {
                let base_cash = self.cash.entry(self.base_currency.clone()).or_default();
                let needed = shortfall * rate;
                let taken = needed.min(*base_cash);
                *base_cash -= taken;
                let remaining_base = needed - taken;
                if !remaining_base.is_zero() {
                    *self
                        .implicit_deposits
                        .entry(self.base_currency.clone())
                        .or_default() += remaining_base;
                }
                return (remaining_base, self.base_currency.clone());
            }
        }
        *self
            .implicit_deposits
            .entry(tx.currency.clone())
            .or_default() += shortfall;
        (shortfall, tx.currency.clone())
    }

    /// Holdings with shares, in instrument order.
    pub fn open_holdings(&self) -> impl Iterator<Item = &Holding> {
        self.holdings.values().filter(|h| !h.quantity().is_zero())
    }

    /// Cash held in `currency`.
    pub fn cash_in(&self, currency: &str) -> Decimal {
        self.cash.get(currency).copied().unwrap_or_default()
    }
}

/// Units of `currency` per unit of the trade's currency on its trade date, from `fx`.
pub(crate) fn rate_on_trade_date(
    tx: &Transaction,
    currency: &str,
    fx: &FxHistory,
) -> Result<Decimal, Vec<Issue>> {
    fx.rate_on(tx.trade_date, &tx.currency, currency)
        .ok_or_else(|| {
            vec![Issue::new(
                tx,
                Some(Field::FxRate),
                IssueCode::FxRateUnavailable,
                format!(
                    "no {}/{currency} rate on or before {}",
                    tx.currency, tx.trade_date
                ),
            )]
        })
}

/// A standalone `Fee` or `Tax`: its amount counts as what it is named, and its own
/// fee and tax fields count as fee and tax.
fn standalone_fee_tax(tx: &Transaction) -> (Decimal, Decimal) {
    match tx.kind {
        TxKind::Fee => (tx.amount() + tx.fee, tx.tax),
        _ => (tx.fee, tx.amount() + tx.tax),
    }
}

fn add_costs(h: &mut Holding, tx: &Transaction, rate: Decimal) {
    h.fees_paid += tx.fee;
    h.fees_paid_base += tx.fee * rate;
    h.taxes_paid += tx.tax;
    h.taxes_paid_base += tx.tax * rate;
}

/// Removes `quantity` shares from the oldest lots; returns their cost (trade, base).
/// A lot partly sold keeps the rest of its cost in proportion. What is left under
/// [`QUANTITY_EPSILON`] is dropped with its cost (it is rounding dust).
fn take_oldest(lots: &mut Vec<Lot>, mut quantity: Decimal) -> (Decimal, Decimal) {
    let (mut cost, mut cost_base) = (Decimal::ZERO, Decimal::ZERO);
    while quantity > Decimal::ZERO {
        let Some(lot) = lots.first_mut() else { break };
        if lot.quantity <= quantity + QUANTITY_EPSILON {
            quantity -= lot.quantity;
            cost += lot.cost;
            cost_base += lot.cost_base;
            lots.remove(0);
        } else {
            let part_cost = lot.cost * quantity / lot.quantity;
            let part_base = lot.cost_base * quantity / lot.quantity;
            lot.cost -= part_cost;
            lot.cost_base -= part_base;
            lot.quantity -= quantity;
            cost += part_cost;
            cost_base += part_base;
            quantity = Decimal::ZERO;
        }
    }
    if lots.iter().map(|l| l.quantity).sum::<Decimal>() < QUANTITY_EPSILON {
        for lot in lots.drain(..) {
            cost += lot.cost;
            cost_base += lot.cost_base;
        }
    }
    (cost, cost_base)
}
