//! Property tests of the ledger, valuation, performance and meta portfolio.

mod common;

use chrono::Duration;
use common::*;
use moat_portfolio::money::KRW;
use moat_portfolio::{
    combine, daily_values, time_weighted_return, value_portfolio, CostMethod, CurrencyMode,
    FxHistory, FxRates, Ledger, MarketSnapshot, PortfolioSettings, PriceHistory, Transaction,
    TxKind,
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

    /// One stock, all money invested at the close: whatever is deposited and withdrawn
    /// when, the TWR is the stock's own return.
    #[test]
    fn deposits_and_withdrawals_do_not_change_twr(
        moves in prop::collection::vec(-300i64..400, 30..60),
        flows in prop::collection::vec((1usize..29, 1u32..20, any::<bool>()), 0..8),
    ) {
        let id = "KRX:005930";
        let start = day(2024, 1, 1);
        let mut closes = PriceHistory::new();
        let mut price = Decimal::from(50_000);
        let mut path = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            price = (price + Decimal::from(*m * 10)).max(Decimal::from(1_000));
            closes.insert(&id.parse().unwrap(), start + Duration::days(i as i64), price);
            path.push(price);
        }
        let mut txs = vec![
            deposit(1, start, &(path[0] * Decimal::from(100)).to_string(), KRW),
            tx(2, TxKind::Buy, start, id, "100", &path[0].to_string(), KRW),
        ];
        let mut held = 100u32;
        let mut next_id = 3;
        let mut flows = flows;
        flows.sort();
        for (offset, shares, add) in flows {
            let date = start + Duration::days(offset as i64);
            let p = path[offset].to_string();
            let amount = (path[offset] * Decimal::from(shares)).to_string();
            if add {
                txs.push(deposit(next_id, date, &amount, KRW));
                txs.push(tx(next_id + 1, TxKind::Buy, date, id, &shares.to_string(), &p, KRW));
                held += shares;
            } else if shares < held {
                txs.push(tx(next_id, TxKind::Sell, date, id, &shares.to_string(), &p, KRW));
                txs.push(tx(next_id + 1, TxKind::Withdrawal, date, "", "1", &amount, KRW));
                held -= shares;
            }
            next_id += 2;
        }
        let end = start + Duration::days(moves.len() as i64 - 1);
        let points = daily_values(&settings(CostMethod::MovingAverage), &txs, &closes, &FxHistory::new(), KRW, end).unwrap();
        let twr = time_weighted_return(&points);
        let stock = path[path.len() - 1] / path[0] - Decimal::ONE;
        prop_assert!((twr - stock).abs() < d("0.000000001"), "TWR {} vs stock {}", twr, stock);
    }
}
