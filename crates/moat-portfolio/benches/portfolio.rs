//! Portfolio computation benchmarks (prints medians; asserts nothing): a realistic
//! heavy portfolio — 5 years, 30 instruments (Korean and US), 2,000 trades plus monthly
//! deposits and dividends — valued now, its daily value series and every period's
//! returns, CSV export and re-import preview, and XIRR over 1,000 flows. These run per
//! request on the server (nothing is cached), so they bound the portfolio API's latency.
//!
//!   cargo bench -p moat-portfolio --bench portfolio

use std::{
    hint::black_box,
    time::{Duration, Instant},
};

use chrono::{Duration as Days, NaiveDate};
use moat_market::InstrumentId;
use moat_portfolio::{
    csv_file, daily_values, performance, value_portfolio, xirr, CostMethod, CurrencyMode,
    FxHistory, FxRates, MarketSnapshot, PortfolioSettings, PriceHistory, Transaction, TxKind,
};
use rust_decimal::Decimal;

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    median(
        (0..runs)
            .map(|_| {
                let t = Instant::now();
                black_box(f());
                t.elapsed()
            })
            .collect(),
    )
}

/// A deterministic pseudo-random number in 0..n.
fn pick(seed: u64, n: u64) -> u64 {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^= x >> 31;
    x.wrapping_mul(0xBF58_476D_1CE4_E5B9) % n
}

fn main() {
    let start = NaiveDate::from_ymd_opt(2021, 1, 4).unwrap();
    let today = NaiveDate::from_ymd_opt(2026, 1, 2).unwrap();
    let ids: Vec<(InstrumentId, &str)> = (0..30)
        .map(|i| {
            if i % 2 == 0 {
                (format!("KRX:{:06}", 5930 + i).parse().unwrap(), "KRW")
            } else {
                (format!("NASDAQ:T{i}").parse().unwrap(), "USD")
            }
        })
        .collect();
    // Prices: a gentle walk per instrument, every calendar day.
    let mut closes = PriceHistory::new();
    let mut fx = FxHistory::new();
    let days = (today - start).num_days();
    for (n, (id, ccy)) in ids.iter().enumerate() {
        let base = if *ccy == "KRW" { 50_000i64 } else { 150 };
        for k in 0..=days {
            let wiggle = (pick(n as u64 * 100_000 + k as u64, 200) as i64 - 100) * base / 2_000;
            let p = base + base * k / days / 2 + wiggle;
            closes.insert(id, start + Days::days(k), Decimal::from(p.max(1)));
        }
    }
    for k in 0..=days {
        let rate = Decimal::from(1_150 + pick(k as u64, 300) as i64);
        fx.insert(start + Days::days(k), "USD", "KRW", rate);
    }
    let price_on = |id: &InstrumentId, date: NaiveDate| closes.close_on(id, date).unwrap();
    let mut txs = Vec::new();
    let mut id = 0;
    let mut next = |txs: &mut Vec<Transaction>, t: Transaction| {
        id += 1;
        txs.push(Transaction { id, ..t });
    };
    for m in 0..60 {
        let date = start + Days::days(m * 30);
        let mut t = Transaction::new(0, TxKind::Deposit, date, "KRW");
        t.quantity = Decimal::ONE;
        t.price = Decimal::from(5_000_000);
        next(&mut txs, t);
    }
    let mut held = vec![Decimal::ZERO; ids.len()];
    for k in 0..2_000u64 {
        let date = start + Days::days((k as i64 * days) / 2_000);
        let n = pick(k, ids.len() as u64) as usize;
        let (inst, ccy) = &ids[n];
        let sell = held[n] > Decimal::from(4) && pick(k + 7, 3) == 0;
        let mut t = Transaction::new(0, if sell { TxKind::Sell } else { TxKind::Buy }, date, ccy);
        t.instrument = Some(inst.clone());
        t.quantity = if sell {
            Decimal::from(2)
        } else {
            Decimal::from(1 + pick(k + 3, 3))
        };
        t.price = price_on(inst, date);
        t.fee = if *ccy == "KRW" {
            Decimal::from(100)
        } else {
            Decimal::new(50, 2)
        };
        if *ccy == "USD" {
            t.fx_rate = fx.rate_on(date, "USD", "KRW");
        }
        held[n] += if sell { -t.quantity } else { t.quantity };
        next(&mut txs, t);
    }
    let settings = PortfolioSettings {
        base_currency: "KRW".into(),
        cost_method: CostMethod::MovingAverage,
    };
    let mut snap = MarketSnapshot {
        fx: FxRates::new().with("USD", "KRW", fx.rate_on(today, "USD", "KRW").unwrap()),
        ..Default::default()
    };
    for (id, _) in &ids {
        snap.prices.insert(id.clone(), price_on(id, today));
        snap.previous_closes
            .insert(id.clone(), price_on(id, today - Days::days(1)));
    }
    println!(
        "portfolio: {} transactions over {} instruments, {days} days",
        txs.len(),
        ids.len()
    );
    for (name, mode) in [
        ("original", CurrencyMode::Original),
        ("USD", CurrencyMode::Usd),
    ] {
        let ms = time(21, || {
            value_portfolio(&settings, &txs, mode, &snap, &fx).unwrap()
        });
        println!("  valuation now ({name}): median {ms:.2} ms");
    }
    let fifo = PortfolioSettings {
        cost_method: CostMethod::Fifo,
        ..settings.clone()
    };
    let ms = time(21, || {
        value_portfolio(&fifo, &txs, CurrencyMode::Krw, &snap, &fx).unwrap()
    });
    println!("  valuation now (FIFO, KRW): median {ms:.2} ms");
    let points = daily_values(&settings, &txs, &closes, &fx, "KRW", today).unwrap();
    let ms = time(11, || {
        daily_values(&settings, &txs, &closes, &fx, "KRW", today).unwrap()
    });
    println!("  daily values ({} days): median {ms:.2} ms", points.len());
    let ms = time(11, || performance(&points, today));
    println!("  returns for 1M, 3M, YTD, 1Y, since inception (TWR, XIRR, explanation): median {ms:.2} ms");
    let csv = csv_file::export(&txs);
    let ms = time(11, || csv_file::export(&txs));
    println!("  CSV export ({} KB): median {ms:.2} ms", csv.len() / 1024);
    let ms = time(11, || csv_file::preview(&csv, &settings, &txs).unwrap());
    println!("  CSV import preview of the same file against the portfolio: median {ms:.2} ms");
    let flows: Vec<(NaiveDate, Decimal)> = (0..1_000)
        .map(|k| {
            let amount = if k == 999 {
                Decimal::from(1_300_000)
            } else {
                Decimal::from(-1_000)
            };
            (start + Days::days(k), amount)
        })
        .collect();
    let ms = time(51, || xirr(&flows).unwrap());
    println!("  XIRR over 1,000 flows: median {ms:.3} ms");
}
