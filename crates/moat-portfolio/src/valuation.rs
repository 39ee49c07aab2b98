//! Valuation: what each holding and the portfolio are worth now, in the member's
//! currency mode, and the meta portfolio (several portfolios combined).
//!
//! Currency modes: `Original` shows each holding in its trade currency and totals in
//! the portfolio's base currency; `Krw` and `Usd` show everything in that currency.
//! Today's figures (market value, today's change, cash) convert at the latest FX rate;
//! historical figures (cost, realised gain, dividends) convert at each trade date's
//! rate — the trade's own rate when the mode is the base currency, else the FX
//! history's (see [`crate::ledger`]). Unrealised gain is market value minus cost, so in
//! a foreign currency it includes the FX gain. Today's change is the price move since
//! the previous close (quantity × (price − previous close)) at the latest rate; it does
//! not include the FX move since yesterday.
//!
//! A holding without a latest price is valued at its previous close, else its latest
//! trade price (flagged `price_missing` so the UI can say so).

use std::collections::{BTreeMap, HashMap};

use moat_market::InstrumentId;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::error::PortfolioError;
use crate::ledger::Ledger;
use crate::money::{round_money, FxHistory, FxRates, KRW, USD};
use crate::transaction::{PortfolioSettings, Transaction};

/// `PORTFOLIO_CURRENCY_MODE`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CurrencyMode {
    #[default]
    Original,
    Krw,
    Usd,
}

impl CurrencyMode {
    pub fn as_str(self) -> &'static str {
        match self {
            CurrencyMode::Original => "original",
            CurrencyMode::Krw => "krw",
            CurrencyMode::Usd => "usd",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "original" => Some(CurrencyMode::Original),
            "krw" => Some(CurrencyMode::Krw),
            "usd" => Some(CurrencyMode::Usd),
            _ => None,
        }
    }

    /// The currency totals are shown in for a portfolio with `base` currency.
    pub fn totals_currency(self, base: &str) -> String {
        match self {
            CurrencyMode::Original => base.to_owned(),
            CurrencyMode::Krw => KRW.to_owned(),
            CurrencyMode::Usd => USD.to_owned(),
        }
    }
}

/// Latest market data, in each instrument's trade currency.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MarketSnapshot {
    pub prices: HashMap<InstrumentId, Decimal>,
    pub previous_closes: HashMap<InstrumentId, Decimal>,
    /// The latest FX rates.
    pub fx: FxRates,
}

/// One open holding's figures, in `currency`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HoldingValue {
    pub instrument: InstrumentId,
    /// The display currency (the trade currency in `Original` mode).
    pub currency: String,
    /// The currency the instrument trades in.
    pub trade_currency: String,
    pub quantity: Decimal,
    pub average_cost: Decimal,
    pub cost_basis: Decimal,
    pub price: Decimal,
    pub previous_close: Decimal,
    /// No latest price was given; `price` is a fallback.
    pub price_missing: bool,
    pub market_value: Decimal,
    pub unrealised_gain: Decimal,
    /// Unrealised gain in per cent of cost (zero when cost is zero).
    pub return_percent: Decimal,
    pub day_change: Decimal,
    pub day_change_percent: Decimal,
    pub realised_gain: Decimal,
    pub dividends_net: Decimal,
    /// `market_value` in the totals currency (equal to it outside `Original` mode).
    pub market_value_total: Decimal,
    /// Share of the portfolio's total value (cash included), in per cent.
    pub weight_percent: Decimal,
}

/// Cash in one currency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CashValue {
    pub currency: String,
    pub amount: Decimal,
    /// `amount` in the totals currency, at the latest rate.
    pub amount_total: Decimal,
    pub weight_percent: Decimal,
}

/// Portfolio totals, in `currency`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub currency: String,
    /// Holdings only.
    pub market_value: Decimal,
    pub cash: Decimal,
    /// Holdings plus cash.
    pub total_value: Decimal,
    pub cost_basis: Decimal,
    pub unrealised_gain: Decimal,
    /// Of every holding, closed ones included.
    pub realised_gain: Decimal,
    pub dividends_net: Decimal,
    pub day_change: Decimal,
    pub return_percent: Decimal,
    pub day_change_percent: Decimal,
}

/// A portfolio (or the meta portfolio) valued now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Valuation {
    pub mode: CurrencyMode,
    /// Open holdings, in instrument order.
    pub holdings: Vec<HoldingValue>,
    pub cash: Vec<CashValue>,
    pub totals: Totals,
}

fn percent(part: Decimal, whole: Decimal) -> Decimal {
    if whole.is_zero() {
        Decimal::ZERO
    } else {
        part * Decimal::ONE_HUNDRED / whole
    }
}

fn convert(fx: &FxRates, amount: Decimal, from: &str, to: &str) -> Result<Decimal, PortfolioError> {
    fx.convert(amount, from, to)
        .ok_or_else(|| PortfolioError::FxUnavailable {
            from: from.to_owned(),
            to: to.to_owned(),
        })
}

/// Values a portfolio. `fx_history` is needed only when the mode's currency is not the
/// base currency (to convert each trade at its date's rate).
pub fn value_portfolio(
    settings: &PortfolioSettings,
    transactions: &[Transaction],
    mode: CurrencyMode,
    market: &MarketSnapshot,
    fx_history: &FxHistory,
) -> Result<Valuation, PortfolioError> {
    let total_ccy = mode.totals_currency(&settings.base_currency);
    let ledger = Ledger::build_in(settings, transactions, &total_ccy, fx_history)?;
    value_ledger(&ledger, mode, market)
}

/// Values a ledger built for `mode` (its reporting currency is the mode's totals
/// currency, as [`Ledger::build_in`] makes it) at the market's latest prices: what
/// [`value_portfolio`] does after building the ledger, for a caller that keeps ledgers
/// between reads.
pub fn value_ledger(
    ledger: &Ledger,
    mode: CurrencyMode,
    market: &MarketSnapshot,
) -> Result<Valuation, PortfolioError> {
    let total_ccy = mode.totals_currency(&ledger.base_currency);
    debug_assert_eq!(total_ccy, ledger.reporting_currency);
    let mut holdings = Vec::new();
    for h in ledger.open_holdings() {
        let id = &h.instrument;
        let quantity = h.quantity();
        let latest = market.prices.get(id).copied();
        let price = latest
            .or_else(|| market.previous_closes.get(id).copied())
            .or(h.last_trade_price)
            .unwrap_or_else(|| h.average_cost());
        let previous_close = market.previous_closes.get(id).copied().unwrap_or(price);
        // Trade currency to display currency, and display to totals.
        let (currency, to_display, cost_basis, realised, dividends) = match mode {
            CurrencyMode::Original => (
                h.currency.clone(),
                Decimal::ONE,
                h.cost_basis(),
                h.realised_gain,
                h.dividends_net,
            ),
            _ => (
                total_ccy.clone(),
                convert(&market.fx, Decimal::ONE, &h.currency, &total_ccy)?,
                h.cost_basis_base(),
                h.realised_gain_base,
                h.dividends_net_base,
            ),
        };
        let price = price * to_display;
        let previous_close = previous_close * to_display;
        let market_value = quantity * price;
        let day_change = quantity * (price - previous_close);
        let unrealised_gain = market_value - cost_basis;
        holdings.push(HoldingValue {
            instrument: id.clone(),
            currency: currency.clone(),
            trade_currency: h.currency.clone(),
            quantity,
            average_cost: if quantity.is_zero() {
                Decimal::ZERO
            } else {
                cost_basis / quantity
            },
            cost_basis,
            price,
            previous_close,
            price_missing: latest.is_none(),
            market_value,
            unrealised_gain,
            return_percent: percent(unrealised_gain, cost_basis),
            day_change,
            day_change_percent: percent(day_change, market_value - day_change),
            realised_gain: realised,
            dividends_net: dividends,
            market_value_total: convert(&market.fx, market_value, &currency, &total_ccy)?,
            weight_percent: Decimal::ZERO,
        });
    }
    let mut cash = Vec::new();
    for (currency, amount) in &ledger.cash {
        if amount.is_zero() {
            continue;
        }
        cash.push(CashValue {
            currency: currency.clone(),
            amount: *amount,
            amount_total: convert(&market.fx, *amount, currency, &total_ccy)?,
            weight_percent: Decimal::ZERO,
        });
    }
    // Totals in the totals currency: today's figures at the latest rate, history
    // (cost, realised, dividends) from the ledger's reporting amounts.
    let mut totals = Totals {
        currency: total_ccy.clone(),
        market_value: Decimal::ZERO,
        cash: Decimal::ZERO,
        total_value: Decimal::ZERO,
        cost_basis: ledger.open_holdings().map(|h| h.cost_basis_base()).sum(),
        unrealised_gain: Decimal::ZERO,
        realised_gain: ledger.holdings.values().map(|h| h.realised_gain_base).sum(),
        dividends_net: ledger.holdings.values().map(|h| h.dividends_net_base).sum(),
        day_change: Decimal::ZERO,
        return_percent: Decimal::ZERO,
        day_change_percent: Decimal::ZERO,
    };
    for h in &holdings {
        let rate = convert(&market.fx, Decimal::ONE, &h.currency, &total_ccy)?;
        totals.day_change += h.day_change * rate;
    }
    let valuation = Valuation {
        mode,
        holdings,
        cash,
        totals,
    };
    Ok(finish(valuation))
}

/// Fills the sums, percentages and weights that follow from the rows: shared by one
/// portfolio and the meta portfolio so both are computed the same way.
fn finish(mut v: Valuation) -> Valuation {
    let t = &mut v.totals;
    t.market_value = v.holdings.iter().map(|h| h.market_value_total).sum();
    t.cash = v.cash.iter().map(|c| c.amount_total).sum();
    t.total_value = t.market_value + t.cash;
    t.unrealised_gain = t.market_value - t.cost_basis;
    t.return_percent = percent(t.unrealised_gain, t.cost_basis);
    t.day_change_percent = percent(t.day_change, t.market_value - t.day_change);
    let total = t.total_value;
    for h in &mut v.holdings {
        h.weight_percent = percent(h.market_value_total, total);
    }
    for c in &mut v.cash {
        c.weight_percent = percent(c.amount_total, total);
    }
    v
}

/// The meta portfolio: several portfolios' valuations combined, holdings of the same
/// instrument merged, cash of the same currency added. Every amount of the result is
/// the sum of the parts' (percentages are recomputed from the sums). The parts must be
/// in the same mode and totals currency (use `Krw` or `Usd` mode for portfolios with
/// different base currencies).
pub fn combine(parts: &[Valuation]) -> Result<Valuation, PortfolioError> {
    let Some(first) = parts.first() else {
        return Ok(Valuation {
            mode: CurrencyMode::default(),
            holdings: Vec::new(),
            cash: Vec::new(),
            totals: empty_totals(""),
        });
    };
    if parts
        .iter()
        .any(|p| p.mode != first.mode || p.totals.currency != first.totals.currency)
    {
        return Err(PortfolioError::MixedCurrencies);
    }
    let mut holdings: BTreeMap<InstrumentId, HoldingValue> = BTreeMap::new();
    let mut cash: BTreeMap<String, CashValue> = BTreeMap::new();
    let mut totals = empty_totals(&first.totals.currency);
    for part in parts {
        for h in &part.holdings {
            match holdings.get_mut(&h.instrument) {
                Some(m) => {
                    m.quantity += h.quantity;
                    m.cost_basis += h.cost_basis;
                    m.market_value += h.market_value;
                    m.unrealised_gain += h.unrealised_gain;
                    m.day_change += h.day_change;
                    m.realised_gain += h.realised_gain;
                    m.dividends_net += h.dividends_net;
                    m.market_value_total += h.market_value_total;
                    m.price_missing |= h.price_missing;
                }
                None => {
                    holdings.insert(h.instrument.clone(), h.clone());
                }
            }
        }
        for c in &part.cash {
            let m = cash.entry(c.currency.clone()).or_insert_with(|| CashValue {
                currency: c.currency.clone(),
                amount: Decimal::ZERO,
                amount_total: Decimal::ZERO,
                weight_percent: Decimal::ZERO,
            });
            m.amount += c.amount;
            m.amount_total += c.amount_total;
        }
        totals.cost_basis += part.totals.cost_basis;
        totals.realised_gain += part.totals.realised_gain;
        totals.dividends_net += part.totals.dividends_net;
        totals.day_change += part.totals.day_change;
    }
    let holdings = holdings
        .into_values()
        .map(|mut h| {
            h.average_cost = if h.quantity.is_zero() {
                Decimal::ZERO
            } else {
                h.cost_basis / h.quantity
            };
            h.return_percent = percent(h.unrealised_gain, h.cost_basis);
            h.day_change_percent = percent(h.day_change, h.market_value - h.day_change);
            h
        })
        .collect();
    Ok(finish(Valuation {
        mode: first.mode,
        holdings,
        cash: cash.into_values().collect(),
        totals,
    }))
}

fn empty_totals(currency: &str) -> Totals {
    Totals {
        currency: currency.to_owned(),
        market_value: Decimal::ZERO,
        cash: Decimal::ZERO,
        total_value: Decimal::ZERO,
        cost_basis: Decimal::ZERO,
        unrealised_gain: Decimal::ZERO,
        realised_gain: Decimal::ZERO,
        dividends_net: Decimal::ZERO,
        day_change: Decimal::ZERO,
        return_percent: Decimal::ZERO,
        day_change_percent: Decimal::ZERO,
    }
}

impl Valuation {
    /// The same valuation with every money amount rounded to its currency's minor unit
    /// for display or storage ([`crate::money::round_money`]); prices and per-share
    /// costs keep [`PER_SHARE_EXTRA_DP`] more places, and percentages are left exact for
    /// the UI to format.
    pub fn rounded(&self) -> Valuation {
        let mut v = self.clone();
        for h in &mut v.holdings {
            let c = h.currency.clone();
            let per_share = |x: Decimal| {
                x.round_dp_with_strategy(
                    crate::money::minor_units(&c) + PER_SHARE_EXTRA_DP,
                    crate::money::MONEY_ROUNDING,
                )
            };
            h.average_cost = per_share(h.average_cost);
            h.price = per_share(h.price);
            h.previous_close = per_share(h.previous_close);
            for x in [
                &mut h.cost_basis,
                &mut h.market_value,
                &mut h.unrealised_gain,
                &mut h.day_change,
                &mut h.realised_gain,
                &mut h.dividends_net,
            ] {
                *x = round_money(*x, &c);
            }
            h.market_value_total = round_money(h.market_value_total, &v.totals.currency);
        }
        for c in &mut v.cash {
            c.amount = round_money(c.amount, &c.currency);
            c.amount_total = round_money(c.amount_total, &v.totals.currency);
        }
        let t = &mut v.totals;
        let c = t.currency.clone();
        for x in [
            &mut t.market_value,
            &mut t.cash,
            &mut t.total_value,
            &mut t.cost_basis,
            &mut t.unrealised_gain,
            &mut t.realised_gain,
            &mut t.dividends_net,
            &mut t.day_change,
        ] {
            *x = round_money(*x, &c);
        }
        v
    }
}

/// Extra decimal places kept on prices and average costs beyond the currency's minor
/// unit: a KRW average cost of 71,333.33 is worth showing, a total of 71,333.33 KRW is
/// not.
pub const PER_SHARE_EXTRA_DP: u32 = 2;
