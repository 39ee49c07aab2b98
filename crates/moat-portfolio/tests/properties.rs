//! Property tests of the ledger, valuation, performance and meta portfolio.

mod common;

use chrono::Duration;
use common::*;
use moat_portfolio::money::KRW;
use moat_portfolio::performance::{day_return, EXPLANATION_TOLERANCE};
use moat_portfolio::{
    combine, daily_values, period_return, value_portfolio, CostMethod, CurrencyMode, FxHistory,
    FxRates, Ledger, MarketSnapshot, Period, PortfolioSettings, PriceHistory, SeriesRun,
    Transaction, TxKind,
};
use proptest::prelude::*;
use rust_decimal::Decimal;

const CASES: u32 = 64;
const INSTRUMENTS: [&str; 3] = ["KRX:005930", "NASDAQ:AAPL", "NYSE:KO"];

fn settings(cost_method: CostMethod) -> PortfolioSettings {
    PortfolioSettings {
        base_currency: KRW.to_owned(),
        cost_method,
    }
}

fn method() -> impl Strategy<Value = CostMethod> {
    prop_oneof![Just(CostMethod::MovingAverage), Just(CostMethod::Fifo)]
}

/// A buy of a random instrument: whole KRX shares, fractional US ones.
fn buy(id: i64, days: i64, which: usize, units: u32, price_cents: u32) -> Transaction {
    let instrument = INSTRUMENTS[which % INSTRUMENTS.len()];
    let krx = instrument.starts_with("KRX");
    let quantity = if krx {
        Decimal::from(units)
    } else {
        Decimal::new(units as i64, 1)
    };
    let currency = if krx { KRW } else { "USD" };
    let mut t = tx(
        id,
        TxKind::Buy,
        day(2024, 1, 1) + Duration::days(days),
        instrument,
        "0",
        "0",
        currency,
    );
    t.quantity = quantity;
    t.price = Decimal::new(price_cents as i64, 2);
    if !krx {
        t.fx_rate = Some(d("1350"));
    }
    t
}

fn buys() -> impl Strategy<Value = Vec<Transaction>> {
    prop::collection::vec((0i64..300, 0usize..3, 1u32..500, 100u32..10_000_000), 1..12).prop_map(
        |v| {
            v.into_iter()
                .enumerate()
                .map(|(i, (days, which, units, price))| {
                    buy(i as i64 + 1, days, which, units, price)
                })
                .collect()
        },
    )
}

fn market(txs: &[Transaction], price_factor: Decimal) -> MarketSnapshot {
    let mut m = MarketSnapshot {
        fx: FxRates::new().with("USD", KRW, d("1380")),
        ..Default::default()
    };
    for t in txs {
        let Some(id) = t.instrument.clone() else {
            continue;
        };
        m.prices.insert(id.clone(), t.price * price_factor);
        m.previous_closes.insert(id, t.price);
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn buying_and_selling_everything_at_one_price_gains_nothing(
        method in method(),
        lots in prop::collection::vec((1u32..1000, 0i64..100), 1..8),
        price_cents in 1u32..10_000_000,
    ) {
        let price = Decimal::new(price_cents as i64, 2);
        let mut txs: Vec<Transaction> = lots.iter().enumerate().map(|(i, (tenths, days))| {
            let mut t = tx(i as i64 + 1, TxKind::Buy, day(2024, 1, 1) + Duration::days(*days), "NASDAQ:AAPL", "0", "0", "USD");
            t.quantity = Decimal::new(*tenths as i64, 1);
            t.price = price;
            t
        }).collect();
        let total: Decimal = txs.iter().map(|t| t.quantity).sum();
        let mut sell = tx(100, TxKind::Sell, day(2024, 6, 1), "NASDAQ:AAPL", "0", "0", "USD");
        sell.quantity = total;
        sell.price = price;
        txs.push(sell);
        let s = PortfolioSettings { base_currency: "USD".into(), cost_method: method };
        let ledger = Ledger::build(&s, &txs).unwrap();
        let h = ledger.holdings.values().next().unwrap();
        prop_assert_eq!(h.quantity(), Decimal::ZERO);
        prop_assert_eq!(h.realised_gain, Decimal::ZERO);
    }

    #[test]
    fn a_split_keeps_market_value_and_cost_basis(
        method in method(),
        txs in buys(),
        numerator in 1u32..10,
        denominator in 1u32..10,
    ) {
        let s = settings(method);
        let before = Ledger::build(&s, &txs).unwrap();
        let held = before.open_holdings().next().unwrap().instrument.to_string();
        let currency = before.holdings[&held.parse().unwrap()].currency.clone();
        let mut after_txs = txs.clone();
        after_txs.push(split(1000, day(2025, 1, 1), &held, numerator, denominator, &currency));
        let after = Ledger::build(&s, &after_txs).unwrap();
        let (b, a) = (&before.holdings[&held.parse().unwrap()], &after.holdings[&held.parse().unwrap()]);
        prop_assert_eq!(a.cost_basis(), b.cost_basis());
        prop_assert_eq!(a.cost_basis_base(), b.cost_basis_base());
        let price = d("1234.5");
        let factor = Decimal::from(numerator) / Decimal::from(denominator);
        let value_before = b.quantity() * price;
        let value_after = a.quantity() * (price / factor);
        prop_assert!((value_before - value_after).abs() < d("0.000001"), "{} vs {}", value_before, value_after);
    }

    #[test]
    fn holdings_and_cash_sum_to_the_portfolio(method in method(), txs in buys(), up in 50u32..200) {
        let mut txs = txs;
        txs.push(deposit(999, day(2024, 1, 1), "123456789", KRW));
        let m = market(&txs, Decimal::new(up as i64, 2));
        for mode in [CurrencyMode::Krw, CurrencyMode::Usd, CurrencyMode::Original] {
            let mut fx = FxHistory::new();
            fx.insert(day(2023, 12, 31), "USD", KRW, d("1300"));
            let v = value_portfolio(&settings(method), &txs, mode, &m, &fx).unwrap();
            let holdings: Decimal = v.holdings.iter().map(|h| h.market_value_total).sum();
            let cash: Decimal = v.cash.iter().map(|c| c.amount_total).sum();
            prop_assert_eq!(holdings + cash, v.totals.total_value);
            prop_assert_eq!(holdings, v.totals.market_value);
            let weights: Decimal = v.holdings.iter().map(|h| h.weight_percent).sum::<Decimal>()
                + v.cash.iter().map(|c| c.weight_percent).sum::<Decimal>();
            prop_assert!((weights - Decimal::ONE_HUNDRED).abs() < d("0.000000001"));
        }
    }

    #[test]
    fn the_meta_portfolio_is_the_sum_of_its_parts(parts in prop::collection::vec(buys(), 1..4), method in method()) {
        let m = market(&parts.concat(), d("1.1"));
        let fx = FxHistory::new();
        let valuations: Vec<_> = parts.iter()
            .map(|txs| value_portfolio(&settings(method), txs, CurrencyMode::Krw, &m, &fx).unwrap())
            .collect();
        let meta = combine(&valuations).unwrap();
        let sum = |f: fn(&moat_portfolio::Valuation) -> Decimal| valuations.iter().map(f).sum::<Decimal>();
        prop_assert_eq!(meta.totals.total_value, sum(|v| v.totals.total_value));
        prop_assert_eq!(meta.totals.market_value, sum(|v| v.totals.market_value));
        prop_assert_eq!(meta.totals.cost_basis, sum(|v| v.totals.cost_basis));
        prop_assert_eq!(meta.totals.unrealised_gain, sum(|v| v.totals.unrealised_gain));
        prop_assert_eq!(meta.totals.realised_gain, sum(|v| v.totals.realised_gain));
        prop_assert_eq!(meta.totals.day_change, sum(|v| v.totals.day_change));
        prop_assert_eq!(meta.totals.cash, sum(|v| v.totals.cash));
        for h in &meta.holdings {
            let quantity: Decimal = valuations.iter().flat_map(|v| &v.holdings)
                .filter(|p| p.instrument == h.instrument).map(|p| p.quantity).sum();
            prop_assert_eq!(h.quantity, quantity);
        }
    }

    /// Each day's return is a mean of what the day's parts did, weighted by the money in
    /// each: it lies between the smallest and the largest of them. A part is a holding
    /// held at the previous close (measured from that close, to the day's close or to
    /// its sale price), a holding bought that day (from its fill price), or cash (zero
    /// in won, the rate's move in dollars).
    #[test]
    fn each_days_return_lies_between_its_parts_returns(scenario in scenario(false)) {
        let points = scenario.points();
        for (t, pair) in points.windows(2).enumerate().skip(1) {
            let r = day_return(pair[0].value, &pair[1]);
            let parts = scenario.part_returns(t);
            if pair[0].value + pair[1].flow <= Decimal::ZERO {
                prop_assert_eq!(r, Decimal::ZERO);
                continue;
            }
            let lo = parts.iter().copied().min().unwrap();
            let hi = parts.iter().copied().max().unwrap();
            prop_assert!(
                r >= lo - TINY && r <= hi + TINY,
                "day {} return {} outside [{}, {}] of {:?}", t, r, lo, hi, parts
            );
        }
    }

    /// A series carried on in steps (as the server's cache extends a kept series day
    /// by day) has exactly the points of one computed at once.
    #[test]
    fn a_series_advanced_in_steps_equals_one_computed_at_once(
        scenario in scenario(false),
        cuts in prop::collection::vec(0usize..40, 0..5),
    ) {
        let whole = scenario.points();
        let (txs, _) = scenario.transactions();
        let (closes, fx) = scenario.history();
        let settings = settings(CostMethod::MovingAverage);
        let end = scenario.date(scenario.closes.len() - 1);
        let (mut run, first) = SeriesRun::start(&settings, &txs).unwrap().unwrap();
        let mut stepped = vec![first];
        let mut cuts = cuts;
        cuts.sort_unstable();
        for cut in cuts {
            let to = scenario.date(cut.min(scenario.closes.len() - 1));
            let kept = run.clone();
            stepped.extend(run.advance(&settings, &txs, &closes, &fx, KRW, to).unwrap());
            // A clone carries on exactly like the run it was taken from.
            let mut again = kept;
            again.advance(&settings, &txs, &closes, &fx, KRW, to).unwrap();
            prop_assert_eq!(again.next_day(), run.next_day());
        }
        stepped.extend(run.advance(&settings, &txs, &closes, &fx, KRW, end).unwrap());
        prop_assert_eq!(stepped, whole);
    }

    /// With every buy on the first day and no flow after it (sells and the cash they
    /// leave are not flows), the time-weighted return is the simple return.
    #[test]
    fn buying_everything_on_the_first_day_makes_twr_the_simple_return(scenario in scenario(true)) {
        let points = scenario.points();
        let end = points.last().unwrap().date;
        let r = period_return(&points, Period::SinceInception, end).unwrap();
        prop_assert!((r.time_weighted - r.simple).abs() < TINY, "TWR {} vs simple {}", r.time_weighted, r.simple);
    }

    /// The explanation names a direction only when it is the difference's own:
    /// "added before a rise" and "withdrew before a fall" only with MWR above TWR, the
    /// other two only below.
    #[test]
    fn the_explanation_agrees_with_its_numbers(scenario in scenario(false)) {
        let points = scenario.points();
        let end = points.last().unwrap().date;
        for period in Period::ALL {
            let Some(r) = period_return(&points, period, end) else { continue };
            let e = &r.explanation;
            let direction = e.code.direction();
            if direction != 0 {
                let difference = e.difference.unwrap();
                prop_assert_eq!(direction > 0, difference > Decimal::ZERO, "{:?} with difference {}", e.code, difference);
                prop_assert!(difference.abs() >= EXPLANATION_TOLERANCE);
            }
        }
    }
}

/// Far below any rounding that matters, far above `Decimal`'s 28-digit noise.
const TINY: Decimal = Decimal::from_parts(1, 0, 0, false, 18);

/// One day's doings in a generated scenario.
#[derive(Debug, Clone)]
enum Event {
    /// Instrument 0 (KRX, won) or 1 (NASDAQ, dollars): units, fill price as a per-mille
    /// of the day's close.
    Buy(usize, u32, u32),
    /// A share (per-mille) of what was held at the previous close, at a per-mille of the
    /// close.
    Sell(usize, u32, u32),
    Deposit(u32),
    /// A share (per-mille) of the won cash at the previous close.
    Withdraw(u32),
}

#[derive(Debug, Clone)]
struct Scenario {
    closes: Vec<[Decimal; 2]>,
    /// Won per dollar, by day.
    rates: Vec<Decimal>,
    /// Each day's events, in the order they are recorded.
    days: Vec<Vec<Event>>,
}

const SCENARIO_IDS: [&str; 2] = ["KRX:005930", "NASDAQ:AAPL"];

fn scenario(first_day_buys_only: bool) -> impl Strategy<Value = Scenario> {
    let event = prop_oneof![
        (0usize..2, 1u32..50, 700u32..1300).prop_map(|(i, q, p)| Event::Buy(i, q, p)),
        (0usize..2, 1u32..=1000, 700u32..1300).prop_map(|(i, f, p)| Event::Sell(i, f, p)),
        (1u32..5_000).prop_map(Event::Deposit),
        (1u32..=1000).prop_map(Event::Withdraw),
    ];
    let first = prop::collection::vec(
        (0usize..2, 1u32..50, 700u32..1300).prop_map(|(i, q, p)| Event::Buy(i, q, p)),
        1..4,
    );
    (
        prop::collection::vec((800u32..1250, 800u32..1250, 950u32..1050), 3..30),
        first,
        prop::collection::vec(prop::collection::vec(event, 0..3), 29),
    )
        .prop_map(move |(moves, first, later)| {
            let mut closes = Vec::new();
            let mut rates = Vec::new();
            let (mut a, mut b, mut fx) = (d("50000"), d("180"), d("1350"));
            for (ma, mb, mf) in &moves {
                closes.push([a, b]);
                rates.push(fx);
                // Whole won for the KRX stock, cents for the US one.
                a = (a * Decimal::from(*ma) / Decimal::from(1000))
                    .round()
                    .max(d("100"));
                b = (b * Decimal::from(*mb) / Decimal::from(1000))
                    .round_dp(2)
                    .max(d("1"));
                fx = (fx * Decimal::from(*mf) / Decimal::from(1000)).round_dp(2);
            }
            let mut days = vec![first];
            for events in later.into_iter().take(moves.len() - 1) {
                days.push(if first_day_buys_only {
                    events
                        .into_iter()
                        .filter(|e| matches!(e, Event::Sell(..)))
                        .collect()
                } else {
                    events
                });
            }
            Scenario {
                closes,
                rates,
                days,
            }
        })
}

impl Scenario {
    fn date(&self, t: usize) -> chrono::NaiveDate {
        day(2024, 1, 1) + Duration::days(t as i64)
    }

    /// The fill price of a per-mille of the close: whole won, or cents.
    fn price(&self, t: usize, i: usize, per_mille: u32) -> Decimal {
        let p = self.closes[t][i] * Decimal::from(per_mille) / Decimal::from(1000);
        if i == 0 {
            p.round().max(d("1"))
        } else {
            p.round_dp(2).max(d("0.01"))
        }
    }

    /// What each day's events become as transactions, with what was held and the cash
    /// at each previous close; the sells and withdrawals sized from those.
    fn transactions(&self) -> (Vec<Transaction>, Vec<Start>) {
        let mut txs = Vec::new();
        let mut held = [Decimal::ZERO; 2];
        let mut cash = [Decimal::ZERO; 2];
        let mut starts = Vec::new();
        for (t, events) in self.days.iter().enumerate() {
            starts.push(Start { held, cash });
            let date = self.date(t);
            let mut sold_today = [Decimal::ZERO; 2];
            let mut withdrawn = Decimal::ZERO;
            // Withdrawals first (their share is of the cash at the previous close), sells
            // last (so no buy is paid with a same-day sale's proceeds, which would chain
            // two parts' returns into one).
            let mut ordered: Vec<&Event> = events
                .iter()
                .filter(|e| matches!(e, Event::Withdraw(_)))
                .collect();
            ordered.extend(
                events
                    .iter()
                    .filter(|e| matches!(e, Event::Buy(..) | Event::Deposit(_))),
            );
            ordered.extend(events.iter().filter(|e| matches!(e, Event::Sell(..))));
            for e in ordered {
                let id = txs.len() as i64 + 1;
                match *e {
                    Event::Buy(i, q, p) => {
                        let quantity = if i == 0 {
                            Decimal::from(q)
                        } else {
                            Decimal::new(q as i64, 1)
                        };
                        let price = self.price(t, i, p);
                        let ccy = if i == 0 { KRW } else { "USD" };
                        let mut b = tx(id, TxKind::Buy, date, SCENARIO_IDS[i], "1", "1", ccy);
                        b.quantity = quantity;
                        b.price = price;
                        if i == 1 {
                            b.fx_rate = Some(self.rates[t]);
                        }
                        held[i] += quantity;
                        // Cash: the trade currency's first, then won at the trade's rate.
                        let cost = quantity * price;
                        let from_own = cost.min(cash[i]);
                        cash[i] -= from_own;
                        if i == 1 {
                            let won = (cost - from_own) * self.rates[t];
                            cash[0] -= won.min(cash[0]);
                        }
                        txs.push(b);
                    }
                    Event::Sell(i, share, p) => {
                        let available = starts[t].held[i] - sold_today[i];
                        let mut quantity = available * Decimal::from(share) / Decimal::from(1000);
                        quantity = if i == 0 {
                            quantity.floor()
                        } else {
                            quantity
                                .round_dp_with_strategy(1, rust_decimal::RoundingStrategy::ToZero)
                        };
                        if quantity <= Decimal::ZERO {
                            continue;
                        }
                        let price = self.price(t, i, p);
                        let ccy = if i == 0 { KRW } else { "USD" };
                        let mut s = tx(id, TxKind::Sell, date, SCENARIO_IDS[i], "1", "1", ccy);
                        s.quantity = quantity;
                        s.price = price;
                        if i == 1 {
                            s.fx_rate = Some(self.rates[t]);
                        }
                        held[i] -= quantity;
                        sold_today[i] += quantity;
                        cash[i] += quantity * price;
                        txs.push(s);
                    }
                    Event::Deposit(amount) => {
                        let amount = Decimal::from(amount) * Decimal::from(100);
                        cash[0] += amount;
                        txs.push(deposit(id, date, &amount.to_string(), KRW));
                    }
                    Event::Withdraw(share) => {
                        let amount = ((starts[t].cash[0] - withdrawn) * Decimal::from(share)
                            / Decimal::from(1000))
                        .floor();
                        if amount <= Decimal::ZERO {
                            continue;
                        }
                        withdrawn += amount;
                        cash[0] -= amount;
                        txs.push(tx(
                            id,
                            TxKind::Withdrawal,
                            date,
                            "",
                            "1",
                            &amount.to_string(),
                            KRW,
                        ));
                    }
                }
            }
        }
        (txs, starts)
    }

    fn points(&self) -> Vec<moat_portfolio::DailyPoint> {
        let (closes, fx) = self.history();
        let (txs, _) = self.transactions();
        daily_values(
            &settings(CostMethod::MovingAverage),
            &txs,
            &closes,
            &fx,
            KRW,
            self.date(self.closes.len() - 1),
        )
        .unwrap()
    }

    fn history(&self) -> (PriceHistory, FxHistory) {
        let mut closes = PriceHistory::new();
        let mut fx = FxHistory::new();
        for t in 0..self.closes.len() {
            for (i, id) in SCENARIO_IDS.iter().enumerate() {
                closes.insert(&id.parse().unwrap(), self.date(t), self.closes[t][i]);
            }
            fx.insert(self.date(t), "USD", KRW, self.rates[t]);
        }
        (closes, fx)
    }

    /// The returns of day `t`'s parts (`t` ≥ 1), in won.
    fn part_returns(&self, t: usize) -> Vec<Decimal> {
        let (txs, starts) = self.transactions();
        let start = &starts[t];
        let won = |i: usize, price: Decimal, day: usize| {
            if i == 0 {
                price
            } else {
                price * self.rates[day]
            }
        };
        let mut parts = Vec::new();
        let date = self.date(t);
        let mut sold = [Decimal::ZERO; 2];
        for x in txs.iter().filter(|x| x.trade_date == date) {
            let Some(id) = &x.instrument else {
                parts.push(Decimal::ZERO); // a deposit or a withdrawal: won cash
                continue;
            };
            let i = SCENARIO_IDS
                .iter()
                .position(|s| *s == id.to_string())
                .unwrap();
            match x.kind {
                TxKind::Buy => {
                    parts.push(
                        won(i, self.closes[t][i], t)
                            / (x.price * x.fx_rate.unwrap_or(Decimal::ONE))
                            - Decimal::ONE,
                    );
                    if i == 1 && start.cash[1] > Decimal::ZERO {
                        // Paid with dollars held at the previous close: the rate's move, then
                        // the stock's from its fill price.
                        parts.push(
                            won(i, self.closes[t][i], t) / (x.price * self.rates[t - 1])
                                - Decimal::ONE,
                        );
                    }
                }
                TxKind::Sell => {
                    sold[i] += x.quantity;
                    parts.push(
                        won(i, x.price, t) / won(i, self.closes[t - 1][i], t - 1) - Decimal::ONE,
                    );
                }
                _ => unreachable!(),
            }
        }
        for (i, sold) in sold.iter().enumerate() {
            if start.held[i] - *sold > Decimal::ZERO {
                parts.push(
                    won(i, self.closes[t][i], t) / won(i, self.closes[t - 1][i], t - 1)
                        - Decimal::ONE,
                );
            }
        }
        if start.cash[0] > Decimal::ZERO {
            parts.push(Decimal::ZERO);
        }
        if start.cash[1] > Decimal::ZERO {
            parts.push(self.rates[t] / self.rates[t - 1] - Decimal::ONE);
        }
        parts
    }
}

/// What was held and the cash at a day's start (the previous close).
#[derive(Debug, Clone)]
struct Start {
    held: [Decimal; 2],
    cash: [Decimal; 2],
}
