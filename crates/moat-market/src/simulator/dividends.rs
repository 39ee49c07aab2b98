//! Simulated dividends: who pays, how often, on which days and how much. Like the
//! prices, every draw is a hash of (seed, instrument, year, payment, stream), so a
//! schedule is the same on every install and any year can be computed on its own.
//!
//! # Who pays
//!
//! Indices, currency pairs and crypto never pay. A few well-known stocks follow their
//! real policy (`KNOWN_POLICIES`: Samsung Electronics `KRX:005930` pays quarterly,
//! Tesla and Amazon pay nothing, Realty Income monthly, …). Every other stock is drawn
//! from its instrument hash: US stocks pay quarterly except a share that never pays
//! (sector-aware: about a third of technology, communication and consumer
//! discretionary names, almost no utilities or staples; 25 % when the sector is
//! unknown), Real Estate pays monthly. Korean stocks pay nothing in 15 % of KOSPI and
//! 45 % of KOSDAQ names (60 % of health care); payers pay annually (78 %), half-yearly
//! (10 %) or quarterly (12 %). ETFs go by name: leveraged, inverse, total-return,
//! gold and money-market (CD/KOFR) ETFs pay nothing in Korea; Korean dividend and bond
//! ETFs pay monthly, other Korean ETFs quarterly; US bond and premium-income ETFs pay
//! monthly, other US ETFs quarterly (US leveraged ones a token amount).
//!
//! # When
//!
//! Every ex-, record and pay date is a trading day of the instrument's market.
//!
//! - **US stocks**: ex-dates in one of the three quarterly cycles (Jan/Apr/Jul/Oct,
//!   Feb/May/Aug/Nov, Mar/Jun/Sep/Dec; monthly payers every month) on a day of the month
//!   fixed per instrument, give or take two days a year, moved to the next trading day.
//!   The record date follows settlement: the ex-date itself from 2024-05-28 (T+1), the
//!   next trading day from 2017-09-05 (T+2), the second one before (T+3). Paid 10–28
//!   days after the record date (US ETFs: ex around the third week of Mar/Jun/Sep/Dec,
//!   bond and income ETFs at the start of each month, paid 3–10 days after record).
//! - **Korean stocks**: the nominal record date is a quarter end (Mar 31, Jun 30,
//!   Sep 30, Dec 31; half-yearly payers Jun 30 and Dec 31; annual payers Dec 31). It
//!   usually falls on a closed day (Dec 31 always does: the year-end closure), so the
//!   record date reported is the last trading day on or before it, the last day that
//!   settles onto the register; with T+2 settlement the ex-date is the trading day
//!   before it. Year-end dividends are paid in April (after the March general meeting),
//!   interim ones 40–55 days after the record date.
//! - **Korean ETFs**: record date the last trading day of Jan/Apr/Jul/Oct (monthly
//!   payers: of every month), ex-date the trading day before, paid two trading days
//!   after the record date.
//!
//! # How much
//!
//! Each payer has a target annual yield drawn within a range for its kind, market and
//! sector (see [`target_yield_range`]; e.g. US technology 0.3–1.5 %, US utilities
//! 2.8–4.5 %, Korean banks 4–7 %). The annual dividend per share of a year is steered
//! towards *target yield × the simulated close about 30 days before the year's first
//! ex-date*, but only half the gap each year: raised by 1–11 % unless the target has
//! fallen by more than 10 %, then held, and cut (by half the gap) only when the target falls below
//! 70 % of the previous year's; whatever the walk, it stays within a factor of 1.8 of
//! the target (a catch-up raise or a cut when the price has run far). Dividends grow
//! slowly and are rarely cut, and the yield stays near the target. The walk starts from the anchor year ([`super::ANCHOR_DATE`])
//! and goes forward and backward from there, so a year's amount does not depend on the
//! range asked for. Each payment of a year is the annual amount divided by the number
//! of payments, rounded to the currency: whole won (to 5 won from 100 won, to 10 won
//! from 1,000 won), and for USD to the half cent from 0.10 (else to 0.0001), always
//! written with four decimals (`0.2400`).
//!
//! # What is announced
//!
//! [`ScheduledDividend::declared`] is the day the simulated company announces the
//! amount: US payers 20–40 days before the ex-date; Korean interim dividends 25–35 days
//! after the record date (with the quarter's results) and year-end dividends in
//! February of the next year (so, as in Korea before the 2023 reform, the ex-date passes
//! before the amount is known); Korean ETFs three days before the ex-date. Until then a
//! dividend is *expected*: the simulator projects it with the same rules, so an
//! expected dividend never changes when it is announced. The [`PriceProvider`]
//! implementation answers with the announced and expected dividends whose ex-date is at
//! most [`DIVIDEND_HORIZON_DAYS`] after today, as a real source would not know further.
//!
//! # Splits
//!
//! None: the simulated price walk is split-free, and a split would have to rewrite
//! every candle before it. [`crate::PriceProvider::corporate_actions`] answers with no
//! splits.
//!
//! [`PriceProvider`]: crate::PriceProvider

use chrono::{Datelike, Duration, NaiveDate};
use rust_decimal::{Decimal, RoundingStrategy};

use super::{key, mix, Simulator, ANCHOR_DATE};
use crate::{calendar, Dividend, Instrument, Kind, Market, Split};

/// How far after today the provider reports expected dividends, in days.
pub const DIVIDEND_HORIZON_DAYS: i64 = 365;

/// How often a payer pays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DividendFrequency {
    Monthly,
    Quarterly,
    SemiAnnual,
    Annual,
}

impl DividendFrequency {
    /// Payments a year.
    pub fn per_year(self) -> u32 {
        match self {
            DividendFrequency::Monthly => 12,
            DividendFrequency::Quarterly => 4,
            DividendFrequency::SemiAnnual => 2,
            DividendFrequency::Annual => 1,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DividendFrequency::Monthly => "monthly",
            DividendFrequency::Quarterly => "quarterly",
            DividendFrequency::SemiAnnual => "semi_annual",
            DividendFrequency::Annual => "annual",
        }
    }
}

/// A simulated payer's policy.
#[derive(Debug, Clone, PartialEq)]
pub struct DividendPolicy {
    pub frequency: DividendFrequency,
    /// The annual yield the payer steers towards, in per cent with two decimals
    /// (`2.35` is 2.35 %).
    pub target_yield_percent: Decimal,
}

/// A simulated dividend and the day its amount is announced.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduledDividend {
    pub dividend: Dividend,
    /// When the simulated company announces it (see the module documentation).
    pub declared: NaiveDate,
}

impl ScheduledDividend {
    /// Whether the amount has been announced by `today`; else it is a projection.
    pub fn is_announced(&self, today: NaiveDate) -> bool {
        self.declared <= today
    }
}

/// Stocks whose simulated policy follows the real one: `None` never pays.
const KNOWN_POLICIES: &[(&str, Option<DividendFrequency>)] = &[
    ("KRX:005930", Some(DividendFrequency::Quarterly)),
    ("KRX:005935", Some(DividendFrequency::Quarterly)),
    ("KRX:000660", Some(DividendFrequency::Quarterly)),
    ("KRX:005490", Some(DividendFrequency::Quarterly)),
    ("KRX:105560", Some(DividendFrequency::Quarterly)),
    ("KRX:055550", Some(DividendFrequency::Quarterly)),
    ("KRX:086790", Some(DividendFrequency::Quarterly)),
    ("KRX:373220", None),
    ("KRX:207940", None),
    ("KRX:196170", None),
    ("KRX:028300", None),
    ("NASDAQ:AAPL", Some(DividendFrequency::Quarterly)),
    ("NASDAQ:MSFT", Some(DividendFrequency::Quarterly)),
    ("NASDAQ:NVDA", Some(DividendFrequency::Quarterly)),
    ("NASDAQ:AVGO", Some(DividendFrequency::Quarterly)),
    ("NASDAQ:PEP", Some(DividendFrequency::Quarterly)),
    ("NASDAQ:COST", Some(DividendFrequency::Quarterly)),
    ("NYSE:JPM", Some(DividendFrequency::Quarterly)),
    ("NYSE:JNJ", Some(DividendFrequency::Quarterly)),
    ("NYSE:KO", Some(DividendFrequency::Quarterly)),
    ("NYSE:PG", Some(DividendFrequency::Quarterly)),
    ("NYSE:XOM", Some(DividendFrequency::Quarterly)),
    ("NYSE:T", Some(DividendFrequency::Quarterly)),
    ("NYSE:VZ", Some(DividendFrequency::Quarterly)),
    ("NYSE:O", Some(DividendFrequency::Monthly)),
    ("NASDAQ:TSLA", None),
    ("NASDAQ:AMZN", None),
    ("NASDAQ:NFLX", None),
    ("NASDAQ:AMD", None),
    ("NASDAQ:ADBE", None),
    ("NASDAQ:PLTR", None),
    ("NASDAQ:ABNB", None),
    ("NASDAQ:COIN", None),
    ("NASDAQ:CRWD", None),
    ("NASDAQ:MSTR", None),
    ("NASDAQ:ISRG", None),
    ("NASDAQ:REGN", None),
    ("NASDAQ:VRTX", None),
    ("NASDAQ:PANW", None),
    ("NYSE:BRK.B", None),
    ("NYSE:UBER", None),
    ("NYSE:BA", None),
];

/// Streams of the dividend draws (the price model uses streams below 100).
mod stream {
    pub const PAYS: u32 = 100;
    pub const FREQUENCY: u32 = 101;
    pub const YIELD: u32 = 102;
    pub const CYCLE: u32 = 103;
    pub const DAY: u32 = 104;
    pub const DAY_JITTER: u32 = 105;
    pub const PAY_LAG: u32 = 106;
    pub const DECLARE_LAG: u32 = 107;
    pub const APRIL_DAY: u32 = 108;
}

/// A uniform draw in `[0, 1)`.
fn uniform(k: u64) -> f64 {
    (mix(k) >> 11) as f64 / (1u64 << 53) as f64
}

/// A uniform integer in `lo..=hi`.
fn between(k: u64, lo: i64, hi: i64) -> i64 {
    lo + (mix(k) % (hi - lo + 1) as u64) as i64
}

fn has(instrument: &Instrument, words: &[&str]) -> bool {
    let name = instrument.name_en.to_ascii_lowercase();
    words.iter().any(|w| name.contains(w))
}

/// The range of the target annual yield, in per cent.
pub fn target_yield_range(instrument: &Instrument) -> (f64, f64) {
    let korea = instrument.market() == Market::Krx;
    if instrument.kind == Kind::Etf {
        return if has(instrument, &["premium income", "covered call"]) {
            (7.0, 10.0)
        } else if has(
            instrument,
            &["leverage", "bull", "bear", "ultra", "inverse", " 2x", " 3x"],
        ) {
            (0.1, 0.8)
        } else if has(instrument, &["high dividend"]) {
            (4.0, 6.0)
        } else if has(instrument, &["dividend"]) {
            (3.0, 4.2)
        } else if has(instrument, &["bond", "treasury"]) {
            (2.8, 4.5)
        } else if has(instrument, &["bank"]) {
            (4.0, 6.0)
        } else if has(
            instrument,
            &["nasdaq", "qqq", "semiconductor", "battery", "innovation"],
        ) {
            (0.3, 0.8)
        } else if korea {
            (1.2, 2.2)
        } else {
            (1.1, 1.6)
        };
    }
    match (korea, instrument.sector.as_str()) {
        (false, "Utilities") => (2.8, 4.5),
        (false, "Real Estate") => (3.5, 5.8),
        (false, "Energy") => (2.8, 4.5),
        (false, "Consumer Staples") => (2.0, 3.5),
        (false, "Financials") => (1.5, 3.5),
        (false, "Health Care") => (1.2, 3.0),
        (false, "Materials") => (1.5, 3.0),
        (false, "Industrials") => (1.0, 2.5),
        (false, "Communication Services") => (0.5, 2.5),
        (false, "Consumer Discretionary") => (0.6, 2.0),
        (false, "Information Technology") => (0.3, 1.5),
        (false, _) => (0.8, 2.5),
        (true, "Financials") => (4.0, 7.0),
        (true, "Utilities") => (2.0, 5.0),
        (true, "Energy") => (2.5, 5.0),
        (true, "Communication Services") => (1.0, 4.5),
        (true, "Consumer Staples") => (1.5, 3.0),
        (true, "Consumer Discretionary") => (1.5, 4.0),
        (true, "Materials") => (1.5, 4.0),
        (true, "Health Care") => (0.2, 1.0),
        (true, "Industrials") => (0.8, 2.5),
        (true, "Information Technology") => (0.8, 2.5),
        (true, _) => (1.0, 3.0),
    }
}

/// The share of the market's stocks in `sector` that never pay.
fn non_payer_share(instrument: &Instrument) -> f64 {
    if instrument.market() == Market::Krx {
        return match (instrument.board, instrument.sector.as_str()) {
            (_, "Health Care") => 0.6,
            (Some(crate::Board::Kosdaq), _) => 0.45,
            _ => 0.15,
        };
    }
    match instrument.sector.as_str() {
        "Utilities" | "Real Estate" => 0.0,
        "Consumer Staples" | "Energy" | "Financials" => 0.05,
        "Industrials" | "Materials" => 0.12,
        "Health Care" => 0.3,
        "Information Technology" => 0.35,
        "Consumer Discretionary" => 0.35,
        "Communication Services" => 0.4,
        _ => 0.25,
    }
}

/// The payment's dates: ex, record, pay and the announcement.
#[derive(Debug, Clone, Copy)]
struct Dates {
    ex: NaiveDate,
    record: NaiveDate,
    pay: NaiveDate,
    declared: NaiveDate,
}

fn on_or_after(market: Market, date: NaiveDate) -> NaiveDate {
    if calendar::is_trading_day(market, date) {
        date
    } else {
        calendar::next_trading_day(market, date)
    }
}

fn on_or_before(market: Market, date: NaiveDate) -> NaiveDate {
    if calendar::is_trading_day(market, date) {
        date
    } else {
        calendar::previous_trading_day(market, date)
    }
}

fn ymd(year: i32, month: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, day).unwrap_or(NaiveDate::MIN)
}

fn month_end(year: i32, month: u32) -> NaiveDate {
    let (y, m) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    ymd(y, m, 1) - Duration::days(1)
}

/// US settlement: T+1 from 2024-05-28, T+2 from 2017-09-05, T+3 before.
fn us_record_date(ex: NaiveDate) -> NaiveDate {
    let market = Market::Us;
    if ex >= ymd(2024, 5, 28) {
        ex
    } else if ex >= ymd(2017, 9, 5) {
        calendar::next_trading_day(market, ex)
    } else {
        calendar::next_trading_day(market, calendar::next_trading_day(market, ex))
    }
}

impl Simulator {
    /// Whether and how `instrument` pays, or `None` when it never does.
    pub fn dividend_policy(&self, instrument: &Instrument) -> Option<DividendPolicy> {
        let seed = self.instrument_seed(instrument);
        let draw = |s: u32| uniform(key(seed, 0, 0, s));
        let korea = instrument.market() == Market::Krx;
        let frequency = match instrument.kind {
            Kind::Index | Kind::Currency | Kind::Crypto => return None,
            Kind::Stock => {
                let id = instrument.id.to_string();
                match KNOWN_POLICIES.iter().find(|(known, _)| *known == id) {
                    Some((_, policy)) => (*policy)?,
                    None if draw(stream::PAYS) < non_payer_share(instrument) => return None,
                    None if korea => {
                        let f = draw(stream::FREQUENCY);
                        if f < 0.12 {
                            DividendFrequency::Quarterly
                        } else if f < 0.22 {
                            DividendFrequency::SemiAnnual
                        } else {
                            DividendFrequency::Annual
                        }
                    }
                    None if instrument.sector == "Real Estate" => DividendFrequency::Monthly,
                    None => DividendFrequency::Quarterly,
                }
            }
            Kind::Etf if korea => {
                let accumulating = has(
                    instrument,
                    &[
                        "leverage",
                        "inverse",
                        " tr",
                        "gold",
                        "cd rate",
                        "kofr",
                        "synthetic",
                    ],
                );
                if accumulating {
                    return None;
                }
                if has(instrument, &["dividend", "bond", "treasury"]) {
                    DividendFrequency::Monthly
                } else {
                    DividendFrequency::Quarterly
                }
            }
            Kind::Etf => {
                if has(instrument, &["gold", "innovation"]) {
                    return None;
                }
                if has(instrument, &["bond", "treasury", "premium income"]) {
                    DividendFrequency::Monthly
                } else {
                    DividendFrequency::Quarterly
                }
            }
        };
        let (lo, hi) = target_yield_range(instrument);
        let percent = lo + (hi - lo) * draw(stream::YIELD);
        let bp = (percent * 100.0).round() as i64;
        Some(DividendPolicy {
            frequency,
            target_yield_percent: Decimal::new(bp, 2),
        })
    }

    /// The dates of the payments whose ex-date falls in `year`, in order.
    fn payment_dates(
        &self,
        instrument: &Instrument,
        frequency: DividendFrequency,
        year: i32,
    ) -> Vec<Dates> {
        let seed = self.instrument_seed(instrument);
        let market = instrument.market();
        let n = frequency.per_year();
        let draw = |k: u32, s: u32, lo: i64, hi: i64| between(key(seed, year, k, s), lo, hi);
        let fixed = |s: u32, lo: i64, hi: i64| between(key(seed, 0, 0, s), lo, hi);
        (0..n)
            .map(|k| match (market, instrument.kind) {
                (Market::Krx, Kind::Etf) => {
                    let month = if n == 12 { k + 1 } else { 1 + 3 * k };
                    let record = on_or_before(market, month_end(year, month));
                    let ex = calendar::previous_trading_day(market, record);
                    let pay = calendar::next_trading_day(
                        market,
                        calendar::next_trading_day(market, record),
                    );
                    Dates {
                        ex,
                        record,
                        pay,
                        declared: ex - Duration::days(3),
                    }
                }
                (Market::Krx, _) => {
                    let month = 12 - (n - 1 - k) * (12 / n);
                    let record = on_or_before(market, month_end(year, month));
                    let ex = calendar::previous_trading_day(market, record);
                    let (pay, declared) = if month == 12 {
                        let day =
                            fixed(stream::APRIL_DAY, 10, 22) + draw(k, stream::DAY_JITTER, 0, 3);
                        (
                            on_or_after(market, ymd(year + 1, 4, day as u32)),
                            ymd(year + 1, 2, draw(k, stream::DECLARE_LAG, 1, 20) as u32),
                        )
                    } else {
                        let lag =
                            fixed(stream::PAY_LAG, 40, 50) + draw(k, stream::DAY_JITTER, 0, 5);
                        (
                            on_or_after(market, record + Duration::days(lag)),
                            record + Duration::days(draw(k, stream::DECLARE_LAG, 25, 35)),
                        )
                    };
                    Dates {
                        ex,
                        record,
                        pay,
                        declared,
                    }
                }
                _ => {
                    let etf = instrument.kind == Kind::Etf;
                    let (month, base_day) = match (frequency, etf) {
                        (DividendFrequency::Monthly, true) => (k + 1, fixed(stream::DAY, 1, 4)),
                        (DividendFrequency::Monthly, false) => (k + 1, fixed(stream::DAY, 1, 26)),
                        (_, true) => (3 + 3 * k, fixed(stream::DAY, 15, 21)),
                        _ => {
                            let cycle = fixed(stream::CYCLE, 1, 3) as u32;
                            (cycle + (12 / n) * k, fixed(stream::DAY, 3, 26))
                        }
                    };
                    let day = (base_day + draw(k, stream::DAY_JITTER, -2, 2)).clamp(1, 28);
                    let ex = on_or_after(market, ymd(year, month, day as u32));
                    let record = us_record_date(ex);
                    let lag = if etf {
                        draw(k, stream::PAY_LAG, 3, 10)
                    } else {
                        fixed(stream::PAY_LAG, 10, 25) + draw(k, stream::DAY_JITTER + 10, 0, 3)
                    };
                    Dates {
                        ex,
                        record,
                        pay: on_or_after(market, record + Duration::days(lag)),
                        declared: ex - Duration::days(draw(k, stream::DECLARE_LAG, 20, 40)),
                    }
                }
            })
            .collect()
    }

    /// The annual dividend per share of each year in `first..=last` (unrounded), by
    /// the walk from the anchor year described in the module documentation.
    fn annual_amounts(
        &self,
        instrument: &Instrument,
        policy: &DividendPolicy,
        first: i32,
        last: i32,
    ) -> Vec<(i32, f64)> {
        let anchor = ANCHOR_DATE.year();
        let lo = first.min(anchor);
        let hi = last.max(anchor);
        let reference_dates: Vec<NaiveDate> = (lo..=hi)
            .map(|year| {
                let first_ex = self
                    .payment_dates(instrument, policy.frequency, year)
                    .first()
                    .map(|d| d.ex)
                    .unwrap_or_else(|| ymd(year, 1, 1));
                first_ex - Duration::days(30)
            })
            .collect();
        let (Some(&start), Some(&end)) = (reference_dates.first(), reference_dates.last()) else {
            return Vec::new();
        };
        let closes = self.closes(instrument, start - Duration::days(10), end);
        let price_on = |date: NaiveDate| {
            let at = closes.partition_point(|(d, _, _)| *d <= date);
            match at {
                0 => closes.first().map(|c| c.1),
                i => Some(closes[i - 1].2),
            }
            .unwrap_or(super::FALLBACK_REFERENCE_PRICE)
        };
        let y = policy
            .target_yield_percent
            .to_string()
            .parse::<f64>()
            .unwrap_or(0.0)
            / 100.0;
        let targets: Vec<f64> = reference_dates.iter().map(|d| y * price_on(*d)).collect();
        let at = |year: i32| (year - lo) as usize;
        let mut amounts = vec![0.0; targets.len()];
        amounts[at(anchor)] = targets[at(anchor)];
        for year in anchor + 1..=hi {
            let prev = amounts[at(year - 1)];
            let l = (targets[at(year)] / prev).ln();
            let step = if l >= RAISE_BAND.ln() {
                (l / 2.0).clamp(0.01, 0.105)
            } else if l > HOLD_BAND.ln() {
                0.0
            } else {
                l / 2.0
            };
            amounts[at(year)] = keep_near(prev * step.exp(), targets[at(year)]);
        }
        for year in (lo..anchor).rev() {
            let next = amounts[at(year + 1)];
            let l = (targets[at(year)] / next).ln();
            let step = if l <= -RAISE_BAND.ln() {
                (l / 2.0).clamp(-0.105, -0.01)
            } else if l < -HOLD_BAND.ln() {
                0.0
            } else {
                l / 2.0
            };
            amounts[at(year)] = keep_near(next * step.exp(), targets[at(year)]);
        }
        (first..=last)
            .map(|year| (year, amounts[at(year)]))
            .collect()
    }

    /// The simulated dividends with an ex-date in `from..=to`, oldest first, with the
    /// day each is announced. Empty for instruments that never pay.
    pub fn dividend_schedule(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Vec<ScheduledDividend> {
        let Some(policy) = self.dividend_policy(instrument) else {
            return Vec::new();
        };
        if from > to {
            return Vec::new();
        }
        let n = policy.frequency.per_year();
        let mut out = Vec::new();
        for (year, annual) in self.annual_amounts(instrument, &policy, from.year(), to.year()) {
            let amount = round_dividend(&instrument.currency, annual / f64::from(n));
            for dates in self.payment_dates(instrument, policy.frequency, year) {
                if dates.ex < from || dates.ex > to {
                    continue;
                }
                out.push(ScheduledDividend {
                    dividend: Dividend {
                        ex_date: dates.ex,
                        pay_date: Some(dates.pay),
                        record_date: Some(dates.record),
                        amount,
                        currency: instrument.currency.clone(),
                    },
                    declared: dates.declared,
                });
            }
        }
        out
    }

    /// The simulated dividends with an ex-date in `from..=to`, oldest first.
    pub fn dividends(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Vec<Dividend> {
        self.dividend_schedule(instrument, from, to)
            .into_iter()
            .map(|s| s.dividend)
            .collect()
    }

    /// What the provider answers on `today` (exchange-local): the dividends with an
    /// ex-date in `from..=to` and at most [`DIVIDEND_HORIZON_DAYS`] after today, and
    /// no splits.
    pub fn corporate_actions_on(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
        today: NaiveDate,
    ) -> (Vec<Dividend>, Vec<Split>) {
        let to = to.min(today + Duration::days(DIVIDEND_HORIZON_DAYS));
        (self.dividends(instrument, from, to), Vec::new())
    }
}

/// A year's dividend is raised (by half the gap, 1–11 %) unless its price-based target
/// has fallen below this ratio of the previous year's amount.
const RAISE_BAND: f64 = 0.9;
/// A year's dividend is held when the price-based target falls by less than this
/// ratio, and cut (by half the gap) below it.
const HOLD_BAND: f64 = 0.6;
/// A year's dividend stays within this factor of its target, whatever the walk.
const MAX_YIELD_DRIFT: f64 = 2.2;

/// `amount` moved into `target / MAX_YIELD_DRIFT..=target * MAX_YIELD_DRIFT`.
fn keep_near(amount: f64, target: f64) -> f64 {
    amount.clamp(target / MAX_YIELD_DRIFT, target * MAX_YIELD_DRIFT)
}

/// A per-share amount in `currency`'s units (see the module documentation).
pub fn round_dividend(currency: &str, amount: f64) -> Decimal {
    let raw = Decimal::from_f64_retain(amount.max(0.0)).unwrap_or(Decimal::ZERO);
    let step = |unit: Decimal| {
        ((raw / unit).round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero) * unit)
            .max(unit)
    };
    if currency == "KRW" || currency == "JPY" {
        let unit = if raw >= Decimal::from(1000) {
            Decimal::TEN
        } else if raw >= Decimal::ONE_HUNDRED {
            Decimal::from(5)
        } else {
            Decimal::ONE
        };
        let mut v = step(unit);
        v.rescale(0);
        v
    } else {
        let unit = if raw >= Decimal::new(10, 2) {
            Decimal::new(5, 3)
        } else {
            Decimal::new(1, 4)
        };
        let mut v = step(unit);
        v.rescale(4);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{catalog, InstrumentId};

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn curated(id: &str) -> Instrument {
        catalog::curated()
            .into_iter()
            .find(|i| i.id.to_string() == id)
            .unwrap_or_else(|| panic!("{id} is curated"))
    }

    fn payers(sim: &Simulator) -> Vec<(Instrument, DividendPolicy)> {
        catalog::curated()
            .into_iter()
            .filter_map(|i| sim.dividend_policy(&i).map(|p| (i, p)))
            .collect()
    }

    /// A stock that is not curated, for shares over many instruments.
    fn synthetic(exchange: &str, symbol: &str, sector: &str) -> Instrument {
        let mut i = curated("NYSE:KO");
        i.id = format!("{exchange}:{symbol}")
            .parse::<InstrumentId>()
            .unwrap();
        i.sector = sector.to_owned();
        if exchange == "KRX" {
            i.country = "KR".into();
            i.currency = "KRW".into();
            i.board = Some(crate::Board::Kospi);
            i.reference_price = Some(Decimal::from(50_000));
        }
        i
    }

    #[test]
    fn the_same_seed_gives_the_same_schedule_and_another_seed_another() {
        let (a, b, c) = (Simulator::new(0), Simulator::new(0), Simulator::new(7));
        let mut differs = false;
        for i in catalog::curated() {
            let one = a.dividend_schedule(&i, d(2018, 1, 1), d(2027, 12, 31));
            assert_eq!(one, b.dividend_schedule(&i, d(2018, 1, 1), d(2027, 12, 31)));
            differs |= one != c.dividend_schedule(&i, d(2018, 1, 1), d(2027, 12, 31));
        }
        assert!(differs, "the seed changes the schedules");
    }

    #[test]
    fn a_year_does_not_depend_on_the_range_asked_for() {
        let sim = Simulator::default();
        for id in ["NASDAQ:AAPL", "KRX:005930", "NYSE:O", "NYSE:SCHD"] {
            let i = curated(id);
            let long = sim.dividends(&i, d(2010, 1, 1), d(2027, 12, 31));
            let short = sim.dividends(&i, d(2019, 3, 1), d(2019, 10, 31));
            let slice: Vec<_> = long
                .into_iter()
                .filter(|x| x.ex_date >= d(2019, 3, 1) && x.ex_date <= d(2019, 10, 31))
                .collect();
            assert_eq!(short, slice, "{id}");
            assert!(!short.is_empty(), "{id}");
        }
    }

    #[test]
    fn dates_are_trading_days_in_order_and_amounts_positive_in_currency_units() {
        let sim = Simulator::default();
        for (i, policy) in payers(&sim) {
            let market = i.market();
            let all = sim.dividend_schedule(&i, d(2015, 1, 1), d(2028, 12, 31));
            assert_eq!(
                all.len() as u32,
                14 * policy.frequency.per_year(),
                "{}",
                i.id
            );
            for pair in all.windows(2) {
                assert!(
                    pair[0].dividend.ex_date < pair[1].dividend.ex_date,
                    "{}",
                    i.id
                );
            }
            for s in &all {
                let x = &s.dividend;
                let (record, pay) = (x.record_date.unwrap(), x.pay_date.unwrap());
                for date in [x.ex_date, record, pay] {
                    assert!(calendar::is_trading_day(market, date), "{} {date}", i.id);
                }
                assert!(x.ex_date <= record && record <= pay, "{} {x:?}", i.id);
                assert!(x.amount > Decimal::ZERO, "{} {x:?}", i.id);
                assert_eq!(x.currency, i.currency);
                let scale = if i.currency == "KRW" { 0 } else { 4 };
                assert_eq!(x.amount.scale(), scale, "{} {}", i.id, x.amount);
            }
        }
    }

    #[test]
    fn us_quarterly_payers_pay_four_times_a_year_two_to_four_weeks_after_the_ex_date() {
        let sim = Simulator::default();
        let mut checked = 0;
        for (i, policy) in payers(&sim) {
            if i.market() != Market::Us || policy.frequency != DividendFrequency::Quarterly {
                continue;
            }
            checked += 1;
            for year in 2016..=2027 {
                let year_of = sim.dividends(&i, d(year, 1, 1), d(year, 12, 31));
                assert_eq!(year_of.len(), 4, "{} {year}", i.id);
                for x in year_of {
                    let lag = (x.pay_date.unwrap() - x.ex_date).num_days();
                    let most = if i.kind == Kind::Etf { 20 } else { 35 };
                    assert!((1..=most).contains(&lag), "{} {x:?}", i.id);
                }
            }
        }
        assert!(checked > 50, "{checked}");
        // Since T+1 (2024-05-28) the record date is the ex-date; before, the next day.
        let apple = curated("NASDAQ:AAPL");
        for x in sim.dividends(&apple, d(2022, 1, 1), d(2026, 12, 31)) {
            let record = x.record_date.unwrap();
            if x.ex_date >= d(2024, 5, 28) {
                assert_eq!(record, x.ex_date);
            } else {
                assert_eq!(record, calendar::next_trading_day(Market::Us, x.ex_date));
            }
        }
    }

    #[test]
    fn samsung_electronics_pays_quarterly_on_korean_record_dates() {
        let sim = Simulator::default();
        let samsung = curated("KRX:005930");
        assert_eq!(
            sim.dividend_policy(&samsung).unwrap().frequency,
            DividendFrequency::Quarterly
        );
        for year in 2020..=2027 {
            let year_of = sim.dividends(&samsung, d(year, 1, 1), d(year, 12, 31));
            let months: Vec<u32> = year_of.iter().map(|x| x.ex_date.month()).collect();
            assert_eq!(months, vec![3, 6, 9, 12], "{year}");
            let december = year_of.last().unwrap();
            // The record date is the last trading day of the year (Dec 31 is closed),
            // the ex-date the trading day before it; paid in April.
            let last = calendar::previous_trading_day(Market::Krx, d(year + 1, 1, 1));
            assert_eq!(december.record_date, Some(last));
            assert_eq!(
                december.ex_date,
                calendar::previous_trading_day(Market::Krx, last)
            );
            let pay = december.pay_date.unwrap();
            assert_eq!((pay.year(), pay.month()), (year + 1, 4), "{year}");
            for x in &year_of[..3] {
                let days = (x.pay_date.unwrap() - x.record_date.unwrap()).num_days();
                assert!((30..=62).contains(&days), "{x:?}");
            }
            assert!(year_of.iter().all(|x| x.amount == year_of[0].amount));
        }
        // 2023: last session Dec 28, ex-dividend Dec 27, as KRX had it.
        let y2023 = sim.dividends(&samsung, d(2023, 12, 1), d(2023, 12, 31));
        assert_eq!(y2023[0].ex_date, d(2023, 12, 27));
        assert_eq!(y2023[0].record_date, Some(d(2023, 12, 28)));
    }

    #[test]
    fn indices_currencies_crypto_and_non_payers_have_no_dividends() {
        let sim = Simulator::default();
        for id in [
            "INDEX:KOSPI",
            "FX:USDKRW",
            "CRYPTO:BTC",
            "NASDAQ:TSLA",
            "NASDAQ:AMZN",
            "NYSE:BRK.B",
            "KRX:373220",
            "KRX:122630",
            "KRX:114800",
            "KRX:379800",
            "NYSE:GLD",
        ] {
            let i = curated(id);
            assert_eq!(sim.dividend_policy(&i), None, "{id}");
            assert!(sim.dividends(&i, d(2000, 1, 1), d(2030, 12, 31)).is_empty());
            let (dividends, splits) =
                sim.corporate_actions_on(&i, d(2000, 1, 1), d(2030, 1, 1), d(2026, 3, 1));
            assert!(dividends.is_empty() && splits.is_empty());
        }
        for i in catalog::curated() {
            if matches!(i.kind, Kind::Index | Kind::Currency | Kind::Crypto) {
                assert_eq!(sim.dividend_policy(&i), None, "{}", i.id);
            }
        }
    }

    #[test]
    fn about_a_quarter_of_us_stocks_never_pay_and_korean_payers_are_mostly_annual() {
        let sim = Simulator::default();
        let n = 2000;
        let us_payers = (0..n)
            .filter(|k| {
                sim.dividend_policy(&synthetic("NYSE", &format!("T{k}"), ""))
                    .is_some()
            })
            .count();
        let share = 1.0 - us_payers as f64 / f64::from(n);
        assert!((0.22..=0.28).contains(&share), "{share}");
        let korean: Vec<DividendFrequency> = (0..n)
            .filter_map(|k| {
                sim.dividend_policy(&synthetic("KRX", &format!("{:06}", k), "Industrials"))
                    .map(|p| p.frequency)
            })
            .collect();
        let annual = korean
            .iter()
            .filter(|f| **f == DividendFrequency::Annual)
            .count() as f64
            / korean.len() as f64;
        assert!((0.72..=0.84).contains(&annual), "{annual}");
        assert!(korean.contains(&DividendFrequency::SemiAnnual));
        assert!(korean.contains(&DividendFrequency::Quarterly));
    }

    #[test]
    fn yields_stay_within_bounds_around_their_target() {
        let sim = Simulator::default();
        let mut yields = Vec::new();
        for (i, policy) in payers(&sim) {
            let (lo, hi) = target_yield_range(&i);
            let target: f64 = policy.target_yield_percent.to_string().parse().unwrap();
            assert!(
                target >= lo - 0.005 && target <= hi + 0.005,
                "{} {target}",
                i.id
            );
            assert!((0.1..=10.0).contains(&target), "{} {target}", i.id);
            yields.push(target);
            let n = Decimal::from(policy.frequency.per_year());
            let candles = sim.daily(&i, d(2016, 1, 1), d(2027, 12, 31));
            for x in sim.dividends(&i, d(2016, 1, 1), d(2027, 12, 31)) {
                let at = candles.partition_point(|c| c.date <= x.ex_date);
                let close = candles[at - 1].close;
                let percent = x.amount * n * Decimal::ONE_HUNDRED / close;
                let t = Decimal::try_from(target).unwrap();
                assert!(
                    percent >= Decimal::new(3, 2)
                        && percent <= Decimal::from(20)
                        && percent * Decimal::from(4) >= t
                        && percent <= t * Decimal::from(4),
                    "{} {} yield {percent} % (target {target} %)",
                    i.id,
                    x.ex_date
                );
            }
        }
        yields.sort_by(f64::total_cmp);
        let median = yields[yields.len() / 2];
        assert!((1.0..=3.0).contains(&median), "median target {median} %");
    }

    #[test]
    fn dividends_grow_slowly_and_are_rarely_cut() {
        let sim = Simulator::default();
        let (mut pairs, mut cuts, mut raises, mut jumps) = (0, 0, 0, 0);
        for (i, policy) in payers(&sim) {
            let n = policy.frequency.per_year() as usize;
            let all = sim.dividends(&i, d(2012, 1, 1), d(2027, 12, 31));
            let annual: Vec<Decimal> = all.chunks(n).map(|c| c[0].amount).collect();
            for pair in annual.windows(2) {
                pairs += 1;
                if pair[1] < pair[0] {
                    cuts += 1;
                }
                if pair[1] > pair[0] {
                    raises += 1;
                }
                // Raises are at most 11 % a year (give or take the rounding) but for
                // the odd catch-up after a long rally.
                if pair[1] > pair[0] * Decimal::new(115, 2) + Decimal::new(5, 0) {
                    jumps += 1;
                }
            }
        }
        println!("{pairs} years: {raises} raises, {cuts} cuts, {jumps} catch-up raises");
        assert!(cuts * 8 < pairs, "{cuts} cuts in {pairs} years");
        assert!(
            jumps * 20 < pairs,
            "{jumps} catch-up raises in {pairs} years"
        );
        assert!(raises * 2 > pairs, "{raises} raises in {pairs} years");
    }

    #[test]
    fn the_provider_reports_a_year_ahead_and_no_splits() {
        let sim = Simulator::default();
        let apple = curated("NASDAQ:AAPL");
        let today = d(2026, 6, 1);
        let (dividends, splits) =
            sim.corporate_actions_on(&apple, d(2025, 1, 1), d(2030, 1, 1), today);
        assert!(splits.is_empty());
        let last = dividends.last().unwrap().ex_date;
        assert!(last <= d(2027, 6, 1) && last > d(2027, 2, 1), "{last}");
        assert_eq!(dividends.len(), 10);
        let schedule = sim.dividend_schedule(&apple, today, d(2027, 6, 1));
        assert!(schedule.iter().any(|s| !s.is_announced(today)));
        assert!(schedule
            .iter()
            .all(|s| s.declared < s.dividend.ex_date && s.is_announced(s.dividend.ex_date)));
    }

    #[tokio::test]
    async fn the_price_provider_answers_dividends() {
        use crate::PriceProvider;
        let sim = Simulator::default();
        let samsung = curated("KRX:005930");
        let today = chrono::Utc::now().date_naive();
        let (dividends, splits) = sim
            .corporate_actions(
                &samsung,
                today - Duration::days(730),
                today + Duration::days(730),
            )
            .await
            .unwrap();
        assert!(splits.is_empty());
        assert!((8..=13).contains(&dividends.len()), "{}", dividends.len());
        assert!(dividends.last().unwrap().ex_date <= today + Duration::days(366));
    }

    #[test]
    fn amounts_are_rounded_like_real_dividends() {
        assert_eq!(round_dividend("USD", 0.2371).to_string(), "0.2350");
        assert_eq!(round_dividend("USD", 0.24).to_string(), "0.2400");
        assert_eq!(round_dividend("USD", 0.01234).to_string(), "0.0123");
        assert_eq!(round_dividend("USD", 0.000001).to_string(), "0.0001");
        assert_eq!(round_dividend("KRW", 361.4).to_string(), "360");
        assert_eq!(round_dividend("KRW", 1234.0).to_string(), "1230");
        assert_eq!(round_dividend("KRW", 42.6).to_string(), "43");
        assert_eq!(round_dividend("KRW", 0.2).to_string(), "1");
    }

    #[test]
    fn quick_check_figures() {
        let sim = Simulator::default();
        let all = catalog::curated();
        let payers = payers(&sim);
        let mut by_kind = std::collections::BTreeMap::<String, (usize, usize, Vec<f64>)>::new();
        for i in &all {
            let key = format!("{} {}", i.market_label(), i.kind.as_str());
            let e = by_kind.entry(key).or_default();
            e.0 += 1;
            if let Some((_, p)) = payers.iter().find(|(x, _)| x.id == i.id) {
                e.1 += 1;
                e.2.push(p.target_yield_percent.to_string().parse().unwrap());
            }
        }
        for (k, (n, paying, mut y)) in by_kind {
            y.sort_by(f64::total_cmp);
            let median = y.get(y.len() / 2).copied().unwrap_or(0.0);
            println!("{k}: {paying}/{n} pay, median target yield {median:.2} %");
        }
        for id in [
            "KRX:005930",
            "NASDAQ:AAPL",
            "NYSE:KO",
            "NYSE:O",
            "NYSE:SCHD",
            "KRX:069500",
        ] {
            let i = curated(id);
            for x in sim.dividends(&i, d(2025, 1, 1), d(2026, 12, 31)) {
                println!(
                    "{id} ex {} record {:?} pay {:?} {} {}",
                    x.ex_date, x.record_date, x.pay_date, x.amount, x.currency
                );
            }
        }
    }

    trait Label {
        fn market_label(&self) -> &'static str;
    }
    impl Label for Instrument {
        fn market_label(&self) -> &'static str {
            match self.market() {
                Market::Krx => "KR",
                Market::Us => "US",
                Market::Fx => "FX",
                Market::Crypto => "crypto",
            }
        }
    }
}
