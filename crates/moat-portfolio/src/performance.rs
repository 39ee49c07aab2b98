//! Performance: the daily value series of a portfolio and its returns over standard
//! periods — time-weighted (TWR), money-weighted (XIRR) and simple — with a structured
//! explanation of why they differ.
//!
//! **External flows** are deposits and withdrawals (and the implicit deposits of
//! [`crate::ledger`]): money crossing the portfolio's boundary. Dividends, fees and
//! taxes are not flows: they are the portfolio's own gains and losses.
//!
//! **Flow timing.** A flow is taken at the *start* of its day, at its trade amounts:
//! day *t*'s return is `(V_t − V_{t−1} − F_t) / (V_{t−1} + F_t)`, where `V` is the value
//! at the close and `F` the day's net external flow (deposits and implicit deposits
//! positive, withdrawals negative). The money a day's trades put in is measured from
//! what was paid for them, not from a close: a buy above the day's close is a loss that
//! day, a buy below it a gain, and the day's return is a weighted mean of its holdings'
//! own returns (a holding bought that day from its fill price, the others from the
//! previous close, cash at zero), so it can never fall below −100 %. A day on which no
//! money is at work (`V_{t−1} + F_t ≤ 0`: the portfolio is empty, or everything was
//! withdrawn at its start) has no return and is skipped (its factor is 1). Days are
//! chain-linked: TWR = Π(1 + r_t) − 1. Money deposited at the start of a day and
//! invested at its close earned nothing in between, so such a day's return is diluted
//! by it: that is the convention's honest price. docs/portfolio.md works an example.
//!
//! **Money-weighted return** is XIRR of the investor's cash flows (the start value and
//! deposits negative, withdrawals and the end value positive), Actual/365 like
//! spreadsheets' `XIRR`, solved by Newton's method from 10 % with a bisection fallback;
//! annualised, and also over the period itself (the rate per the period's length,
//! equal to `(1 + x)^(days/365) − 1`) to compare with TWR. A rate is not money, so
//! the root finding is in `f64`; amounts stay `Decimal`.
//!
//! **Simple return** is the gain (end value − start value − net flows) over the money
//! at work (start value + deposits).

use std::collections::{BTreeMap, HashMap};

use chrono::{Datelike, Months, NaiveDate};
use moat_market::InstrumentId;
use rust_decimal::prelude::{FromPrimitive, ToPrimitive};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::error::PortfolioError;
use crate::ledger::{trade_rate_to_base, Ledger};
use crate::money::FxHistory;
use crate::transaction::{sorted, PortfolioSettings, Transaction};
use crate::validation::validate;

/// Days in the year of Actual/365.
pub const DAYS_PER_YEAR: f64 = 365.0;
/// XIRR's first guess, as in spreadsheets.
pub const XIRR_GUESS: f64 = 0.1;
/// XIRR stops when a step changes the rate by less than this.
pub const XIRR_TOLERANCE: f64 = 1e-12;
/// Newton steps before falling back to bisection.
pub const XIRR_MAX_NEWTON_STEPS: usize = 100;
/// Bisection steps (each halves the bracket: 200 is far below `f64` resolution).
pub const XIRR_MAX_BISECTION_STEPS: usize = 200;
/// Below this difference between money-weighted and time-weighted return over the
/// period (0.5 percentage point), the explanation calls them similar.
pub const EXPLANATION_TOLERANCE: Decimal = Decimal::from_parts(5, 0, 0, false, 3);

/// Daily closes per instrument. A day without a close (a holiday) uses the latest
/// earlier one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PriceHistory {
    closes: HashMap<InstrumentId, BTreeMap<NaiveDate, Decimal>>,
}

impl PriceHistory {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn insert(&mut self, instrument: &InstrumentId, date: NaiveDate, close: Decimal) {
        self.closes
            .entry(instrument.clone())
            .or_default()
            .insert(date, close);
    }

    /// The close on `date`, or the latest before it.
    pub fn close_on(&self, instrument: &InstrumentId, date: NaiveDate) -> Option<Decimal> {
        self.closes
            .get(instrument)?
            .range(..=date)
            .next_back()
            .map(|(_, close)| *close)
    }
}

/// The portfolio at the close of one day, in the series' currency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DailyPoint {
    pub date: NaiveDate,
    /// Holdings plus cash.
    pub value: Decimal,
    /// The day's net external flow (deposits positive, withdrawals negative).
    pub flow: Decimal,
}

/// The value of the portfolio at each day's close, from the day before its first
/// transaction (value zero) to `to`, in `currency`: holdings at each day's close (else
/// the latest trade price) and cash, both at that day's FX rate. Flows convert at the
/// same day's rate.
pub fn daily_values(
    settings: &PortfolioSettings,
    transactions: &[Transaction],
    closes: &PriceHistory,
    fx: &FxHistory,
    currency: &str,
    to: NaiveDate,
) -> Result<Vec<DailyPoint>, PortfolioError> {
    let Some((mut run, first)) = SeriesRun::start(settings, transactions)? else {
        return Ok(Vec::new());
    };
    let mut points = vec![first];
    points.extend(run.advance(settings, transactions, closes, fx, currency, to)?);
    Ok(points)
}

/// A daily value series that can be carried on later: the ledger at the close of the
/// last day computed, how many transactions (in ledger order) it has applied, and the
/// next day to compute. [`daily_values`] is [`SeriesRun::start`] then one
/// [`SeriesRun::advance`]; advancing in several steps gives the same points, so a
/// series kept from yesterday is extended by today's point instead of recomputed.
/// A run belongs to one list of transactions and one currency: pass the same ones to
/// every `advance`.
#[derive(Debug, Clone)]
pub struct SeriesRun {
    ledger: Ledger,
    applied: usize,
    next_day: NaiveDate,
    /// The open holdings' closes on the last day computed: a later `advance` given
    /// only recent closes values a holding whose last close is older (a long market
    /// holiday, a suspension) at it, as one given the whole history would.
    last_closes: HashMap<InstrumentId, Decimal>,
}

impl SeriesRun {
    /// A run before the first transaction's day, with the series' first point (the day
    /// before, at zero); `None` without transactions. The transactions are validated.
    pub fn start(
        settings: &PortfolioSettings,
        transactions: &[Transaction],
    ) -> Result<Option<(Self, DailyPoint)>, PortfolioError> {
        let report = validate(settings, transactions);
        if !report.is_ok() {
            return Err(PortfolioError::Invalid(report.errors));
        }
        let Some(first) = transactions.iter().map(|t| t.trade_date).min() else {
            return Ok(None);
        };
        let run = Self {
            ledger: Ledger::empty(settings, &settings.base_currency),
            applied: 0,
            next_day: first,
            last_closes: HashMap::new(),
        };
        let point = DailyPoint {
            date: first.pred_opt().unwrap_or(first),
            value: Decimal::ZERO,
            flow: Decimal::ZERO,
        };
        Ok(Some((run, point)))
    }

    /// The next day this run computes.
    pub fn next_day(&self) -> NaiveDate {
        self.next_day
    }

    /// The ledger at the close of the last day computed.
    pub fn ledger(&self) -> &Ledger {
        &self.ledger
    }

    /// The points from the next day through `to` (none when `to` is earlier), the run
    /// moved past them.
    pub fn advance(
        &mut self,
        settings: &PortfolioSettings,
        transactions: &[Transaction],
        closes: &PriceHistory,
        fx: &FxHistory,
        currency: &str,
        to: NaiveDate,
    ) -> Result<Vec<DailyPoint>, PortfolioError> {
        let rate = |date: NaiveDate, from: &str| {
            fx.rate_on(date, from, currency)
                .ok_or_else(|| PortfolioError::FxUnavailable {
                    from: from.to_owned(),
                    to: currency.to_owned(),
                })
        };
        let txs = sorted(transactions);
        let mut next = txs[self.applied.min(txs.len())..].iter().peekable();
        let mut points = Vec::new();
        let mut day = self.next_day;
        while day <= to {
            let mut flow = Decimal::ZERO;
            while let Some(tx) = next.next_if(|t| t.trade_date <= day) {
                let applied = self
                    .ledger
                    .apply(tx, trade_rate_to_base(settings, tx))
                    .map_err(|e| PortfolioError::Invalid(vec![e]))?;
                self.applied += 1;
                if tx.kind.is_external_flow() {
                    flow += tx.cash_effect() * rate(day, &tx.currency)?;
                }
                if !applied.implicit_deposit.is_zero() {
                    flow +=
                        applied.implicit_deposit * rate(day, &applied.implicit_deposit_currency)?;
                }
            }
            // Each currency's rate is looked up once a day (a day has one or two).
            let mut day_rates: Vec<(&str, Decimal)> = Vec::with_capacity(2);
            let mut value = Decimal::ZERO;
            for h in self.ledger.holdings.values() {
                let quantity = h.quantity();
                if quantity.is_zero() {
                    continue;
                }
                let price = closes
                    .close_on(&h.instrument, day)
                    .or_else(|| self.last_closes.get(&h.instrument).copied())
                    .or(h.last_trade_price)
                    .unwrap_or_else(|| h.average_cost());
                value += quantity
                    * price
                    * rate_once(&mut day_rates, &h.currency, currency, |c| rate(day, c))?;
            }
            for (ccy, amount) in &self.ledger.cash {
                if !amount.is_zero() {
                    value += *amount * rate_once(&mut day_rates, ccy, currency, |c| rate(day, c))?;
                }
            }
            points.push(DailyPoint {
                date: day,
                value,
                flow,
            });
            let Some(following) = day.succ_opt() else {
                break;
            };
            day = following;
        }
        if let Some(last) = points.last() {
            let last = last.date;
            let held: Vec<(InstrumentId, Option<Decimal>)> = self
                .ledger
                .open_holdings()
                .map(|h| (h.instrument.clone(), closes.close_on(&h.instrument, last)))
                .collect();
            // A holding without a close keeps what an earlier step saw, if anything.
            for (id, close) in held {
                if let Some(c) = close {
                    self.last_closes.insert(id, c);
                }
            }
        }
        self.next_day = day.max(self.next_day);
        Ok(points)
    }
}

/// `ccy`'s rate in `currency` from `rates` (one day's, filled on first use by
/// `lookup`).
fn rate_once<'a>(
    rates: &mut Vec<(&'a str, Decimal)>,
    ccy: &'a str,
    currency: &str,
    lookup: impl Fn(&str) -> Result<Decimal, PortfolioError>,
) -> Result<Decimal, PortfolioError> {
    if ccy == currency {
        return Ok(Decimal::ONE);
    }
    if let Some((_, r)) = rates.iter().find(|(c, _)| *c == ccy) {
        return Ok(*r);
    }
    let r = lookup(ccy)?;
    rates.push((ccy, r));
    Ok(r)
}

/// One day's return, given the previous day's close value (see the module doc): the
/// day's gain over the money at work, the previous value plus the day's flow; zero
/// when no money was at work.
pub fn day_return(previous: Decimal, today: &DailyPoint) -> Decimal {
    let at_work = previous + today.flow;
    if at_work > Decimal::ZERO {
        (today.value - previous - today.flow) / at_work
    } else {
        Decimal::ZERO
    }
}

/// Time-weighted return over `points`: the first point is the start (its own flow is
/// before the period), each later day is chain-linked. A fraction (0.1 is 10 %).
pub fn time_weighted_return(points: &[DailyPoint]) -> Decimal {
    let mut growth = Decimal::ONE;
    for pair in points.windows(2) {
        growth *= Decimal::ONE + day_return(pair[0].value, &pair[1]);
    }
    growth - Decimal::ONE
}

/// The annual rate `r` at which the flows' present value is zero (Actual/365, from the
/// earliest date), or `None` when there is none (flows all of one sign, or no root).
/// Positive amounts are received by the investor, negative ones paid.
pub fn xirr(flows: &[(NaiveDate, Decimal)]) -> Option<Decimal> {
    solve_rate(flows, DAYS_PER_YEAR)
}

/// The rate per `period_days` at which the flows' present value is zero. XIRR is this
/// per 365 days; the money-weighted return over a period is this per the period's own
/// length (solved directly, not de-annualised: a 30 % loss in a week is a rate of
/// −100 % a year to many digits, which an `f64` cannot take back to the week).
fn solve_rate(flows: &[(NaiveDate, Decimal)], period_days: f64) -> Option<Decimal> {
    let origin = flows.iter().map(|(d, _)| *d).min()?;
    let series: Vec<(f64, f64)> = flows
        .iter()
        .map(|(d, a)| {
            (
                (*d - origin).num_days() as f64 / period_days,
                a.to_f64().unwrap_or(0.0),
            )
        })
        .collect();
    if !series.iter().any(|(_, a)| *a > 0.0) || !series.iter().any(|(_, a)| *a < 0.0) {
        return None;
    }
    let npv = |r: f64| {
        series
            .iter()
            .map(|(t, a)| a / (1.0 + r).powf(*t))
            .sum::<f64>()
    };
    let slope = |r: f64| {
        series
            .iter()
            .map(|(t, a)| -t * a / (1.0 + r).powf(t + 1.0))
            .sum::<f64>()
    };
    let root = newton(npv, slope).or_else(|| bisect(npv))?;
    Decimal::from_f64(root)
}

fn newton(f: impl Fn(f64) -> f64, df: impl Fn(f64) -> f64) -> Option<f64> {
    let mut r = XIRR_GUESS;
    for _ in 0..XIRR_MAX_NEWTON_STEPS {
        let slope = df(r);
        if slope == 0.0 || !slope.is_finite() {
            return None;
        }
        let next = r - f(r) / slope;
        if !next.is_finite() || next <= -1.0 {
            return None;
        }
        if (next - r).abs() < XIRR_TOLERANCE {
            return Some(next);
        }
        r = next;
    }
    None
}

/// Bisection on (−1, hi], widening `hi` until the sign changes.
fn bisect(f: impl Fn(f64) -> f64) -> Option<f64> {
    const LOWEST: f64 = -0.999_999_999;
    const HIGHEST: f64 = 1e9;
    let mut lo = LOWEST;
    let mut hi = 1.0;
    while f(lo).signum() == f(hi).signum() {
        if hi >= HIGHEST {
            return None;
        }
        hi *= 10.0;
    }
    for _ in 0..XIRR_MAX_BISECTION_STEPS {
        let mid = (lo + hi) / 2.0;
        if f(mid).signum() == f(lo).signum() {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < XIRR_TOLERANCE {
            break;
        }
    }
    Some((lo + hi) / 2.0)
}

/// The standard reporting periods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Period {
    #[serde(rename = "1M")]
    OneMonth,
    #[serde(rename = "3M")]
    ThreeMonths,
    #[serde(rename = "YTD")]
    YearToDate,
    #[serde(rename = "1Y")]
    OneYear,
    #[serde(rename = "ALL")]
    SinceInception,
}

impl Period {
    pub const ALL: [Period; 5] = [
        Period::OneMonth,
        Period::ThreeMonths,
        Period::YearToDate,
        Period::OneYear,
        Period::SinceInception,
    ];

    /// The day whose close starts the period ending at `as_of`; `None` since inception.
    pub fn start(self, as_of: NaiveDate) -> Option<NaiveDate> {
        match self {
            Period::OneMonth => Some(as_of - Months::new(1)),
            Period::ThreeMonths => Some(as_of - Months::new(3)),
            Period::YearToDate => NaiveDate::from_ymd_opt(as_of.year() - 1, 12, 31),
            Period::OneYear => Some(as_of - Months::new(12)),
            Period::SinceInception => None,
        }
    }
}

/// Why the three returns differ, for the UI to put in words. A code that names a flow
/// always agrees with the sign of the difference it explains: `AddedBeforeRise` and
/// `WithdrewBeforeFall` only when the money-weighted return is above the time-weighted
/// one, `AddedBeforeFall` and `WithdrewBeforeRise` only when it is below.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ExplanationCode {
    /// No deposits or withdrawals in the period: the returns agree.
    NoFlows,
    /// Flows, but the money-weighted and time-weighted returns are within
    /// [`EXPLANATION_TOLERANCE`].
    Similar,
    /// The largest flow that explains it was money added before the portfolio rose:
    /// MWR above TWR.
    AddedBeforeRise,
    /// Money added before a fall: MWR below TWR.
    AddedBeforeFall,
    /// Money withdrawn before a rise: MWR below TWR.
    WithdrewBeforeRise,
    /// Money withdrawn before a fall: MWR above TWR.
    WithdrewBeforeFall,
    /// MWR above TWR, but no single flow was followed by the move that explains it
    /// (the timing of several flows together did).
    MwrAbove,
    /// MWR below TWR, with no single flow to name.
    MwrBelow,
    /// The money-weighted return has no solution for these flows.
    MwrUnavailable,
}

impl ExplanationCode {
    /// Every code, for documentation and tests.
    pub const ALL: [ExplanationCode; 9] = [
        ExplanationCode::NoFlows,
        ExplanationCode::Similar,
        ExplanationCode::AddedBeforeRise,
        ExplanationCode::AddedBeforeFall,
        ExplanationCode::WithdrewBeforeRise,
        ExplanationCode::WithdrewBeforeFall,
        ExplanationCode::MwrAbove,
        ExplanationCode::MwrBelow,
        ExplanationCode::MwrUnavailable,
    ];

    /// The sign of MWR − TWR this code states: 1 above, −1 below, 0 for none.
    pub fn direction(self) -> i8 {
        match self {
            ExplanationCode::AddedBeforeRise
            | ExplanationCode::WithdrewBeforeFall
            | ExplanationCode::MwrAbove => 1,
            ExplanationCode::AddedBeforeFall
            | ExplanationCode::WithdrewBeforeRise
            | ExplanationCode::MwrBelow => -1,
            ExplanationCode::NoFlows
            | ExplanationCode::Similar
            | ExplanationCode::MwrUnavailable => 0,
        }
    }
}

/// The explanation's code and the numbers its sentence needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    pub code: ExplanationCode,
    /// Money-weighted (over the period) minus time-weighted return.
    pub difference: Option<Decimal>,
    /// The largest flow by size: its day and amount (negative for a withdrawal).
    pub flow_date: Option<NaiveDate>,
    pub flow_amount: Option<Decimal>,
    /// That flow as a fraction of the money at work (start value + deposits).
    pub flow_share: Option<Decimal>,
    /// The time-weighted return from the end of the flow's day to the period's end.
    pub return_after_flow: Option<Decimal>,
}

/// Returns over one period, as fractions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeriodReturn {
    pub period: Period,
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub start_value: Decimal,
    pub end_value: Decimal,
    pub net_flows: Decimal,
    /// End value − start value − net flows.
    pub gain: Decimal,
    pub time_weighted: Decimal,
    /// XIRR, annualised.
    pub money_weighted_annual: Option<Decimal>,
    /// The same rate over the period's own length (what XIRR compounds to over it).
    pub money_weighted: Option<Decimal>,
    pub simple: Decimal,
    pub explanation: Explanation,
}

/// Returns over `period` ending at `as_of`, from a series of [`daily_values`]. A period
/// reaching before the series starts is cut to it. `None` for an empty series.
pub fn period_return(
    points: &[DailyPoint],
    period: Period,
    as_of: NaiveDate,
) -> Option<PeriodReturn> {
    let end = points.partition_point(|p| p.date <= as_of).checked_sub(1)?;
    let start = match period.start(as_of) {
        Some(day) => points.partition_point(|p| p.date <= day).saturating_sub(1),
        None => 0,
    }
    .min(end);
    let points = &points[start..=end];
    let (first, last) = (points.first()?, points.last()?);
    let later = &points[1..];
    let net_flows: Decimal = later.iter().map(|p| p.flow).sum();
    let deposits: Decimal = later.iter().map(|p| p.flow.max(Decimal::ZERO)).sum();
    let gain = last.value - first.value - net_flows;
    let at_work = first.value + deposits;
    let simple = if at_work > Decimal::ZERO {
        gain / at_work
    } else {
        Decimal::ZERO
    };
    let time_weighted = time_weighted_return(points);

    let mut flows = Vec::new();
    if first.value > Decimal::ZERO {
        flows.push((first.date, -first.value));
    }
    flows.extend(
        later
            .iter()
            .filter(|p| !p.flow.is_zero())
            .map(|p| (p.date, -p.flow)),
    );
    flows.push((last.date, last.value));
    let money_weighted_annual = xirr(&flows);
    let period_days = (last.date - first.date).num_days().max(1) as f64;
    let money_weighted = solve_rate(&flows, period_days);

    let explanation = explain(points, time_weighted, money_weighted, at_work);
    Some(PeriodReturn {
        period,
        start: first.date,
        end: last.date,
        start_value: first.value,
        end_value: last.value,
        net_flows,
        gain,
        time_weighted,
        money_weighted_annual,
        money_weighted,
        simple,
        explanation,
    })
}

/// Every standard period ending at `as_of`.
pub fn performance(points: &[DailyPoint], as_of: NaiveDate) -> Vec<PeriodReturn> {
    Period::ALL
        .into_iter()
        .filter_map(|p| period_return(points, p, as_of))
        .collect()
}

/// Names what makes the money-weighted return differ from the time-weighted one. The
/// direction comes from the difference itself; the flow named is the largest one whose
/// direction and what followed it push that way (money added before a rise, or taken
/// out before a fall, lifts MWR above TWR; the opposite pulls it below). "What followed"
/// is the time-weighted return from the start of the flow's day (flows are at the start
/// of their day) to the period's end.
fn explain(
    points: &[DailyPoint],
    twr: Decimal,
    mwr: Option<Decimal>,
    at_work: Decimal,
) -> Explanation {
    let mut explanation = Explanation {
        code: ExplanationCode::NoFlows,
        difference: mwr.map(|m| m - twr),
        flow_date: None,
        flow_amount: None,
        flow_share: None,
        return_after_flow: None,
    };
    // growth_after[i]: the chain-linked growth of the days after point i.
    let mut growth_after = vec![Decimal::ONE; points.len()];
    for i in (0..points.len().saturating_sub(1)).rev() {
        growth_after[i] =
            growth_after[i + 1] * (Decimal::ONE + day_return(points[i].value, &points[i + 1]));
    }
    let flows: Vec<(usize, &DailyPoint)> = points
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, p)| !p.flow.is_zero())
        .collect();
    if flows.is_empty() {
        return explanation;
    }
    let difference = match explanation.difference {
        None => {
            explanation.code = ExplanationCode::MwrUnavailable;
            return explanation;
        }
        Some(d) if d.abs() < EXPLANATION_TOLERANCE => {
            explanation.code = ExplanationCode::Similar;
            return explanation;
        }
        Some(d) => d,
    };
    let above = difference > Decimal::ZERO;
    let named = flows
        .iter()
        .filter_map(|(index, p)| {
            let after = growth_after[index - 1] - Decimal::ONE;
            let added = p.flow > Decimal::ZERO;
            let code = match (added, after.cmp(&Decimal::ZERO)) {
                (_, std::cmp::Ordering::Equal) => return None,
                (true, std::cmp::Ordering::Greater) => ExplanationCode::AddedBeforeRise,
                (true, std::cmp::Ordering::Less) => ExplanationCode::AddedBeforeFall,
                (false, std::cmp::Ordering::Greater) => ExplanationCode::WithdrewBeforeRise,
                (false, std::cmp::Ordering::Less) => ExplanationCode::WithdrewBeforeFall,
            };
            (code.direction() == if above { 1 } else { -1 }).then_some((code, *p, after))
        })
        .max_by_key(|(_, p, _)| p.flow.abs());
    match named {
        Some((code, flow, after)) => {
            explanation.code = code;
            explanation.flow_date = Some(flow.date);
            explanation.flow_amount = Some(flow.flow);
            explanation.flow_share = (at_work > Decimal::ZERO).then(|| flow.flow.abs() / at_work);
            explanation.return_after_flow = Some(after);
        }
        None => {
            explanation.code = if above {
                ExplanationCode::MwrAbove
            } else {
                ExplanationCode::MwrBelow
            };
        }
    }
    explanation
}
