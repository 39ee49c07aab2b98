//! Performance examples checked by hand.

mod common;

use common::*;
use moat_portfolio::money::KRW;
use moat_portfolio::performance::ExplanationCode;
use moat_portfolio::{
    daily_values, period_return, xirr, FxHistory, Period, PortfolioSettings, PriceHistory, TxKind,
};
use rust_decimal::prelude::ToPrimitive;

#[test]
fn xirr_of_ten_percent_over_a_year() {
    // −1,000 on 2023-01-01 and +1,100 365 days later: 10 % a year.
    let flows = [(day(2023, 1, 1), d("-1000")), (day(2024, 1, 1), d("1100"))];
    let r = xirr(&flows).unwrap().to_f64().unwrap();
    assert!((r - 0.1).abs() < 1e-9, "{r}");
    // All flows of one sign: no rate.
    assert_eq!(xirr(&[(day(2023, 1, 1), d("-1"))]), None);
}

/// 100 shares at 1,000 on day 1; the price doubles by day 3; 100,000 more is
/// deposited and invested at the top (day 3); the price halves back to 1,000 by day 5.
#[test]
fn money_added_before_a_fall_puts_mwr_below_twr() {
    let id = "KRX:005930";
    let mut closes = PriceHistory::new();
    for (dd, p) in [
        (1, "1000"),
        (2, "1500"),
        (3, "2000"),
        (4, "1500"),
        (5, "1000"),
    ] {
        closes.insert(&id.parse().unwrap(), day(2024, 1, dd), d(p));
    }
    let txs = vec![
        deposit(1, day(2024, 1, 1), "100000", KRW),
        tx(2, TxKind::Buy, day(2024, 1, 1), id, "100", "1000", KRW),
        deposit(3, day(2024, 1, 3), "200000", KRW),
        tx(4, TxKind::Buy, day(2024, 1, 3), id, "100", "2000", KRW),
    ];
    let points = daily_values(
        &PortfolioSettings::default(),
        &txs,
        &closes,
        &FxHistory::new(),
        KRW,
        day(2024, 1, 5),
    )
    .unwrap();
    // Values: day 1 100,000; day 3 200 × 2,000 = 400,000; day 5 200 × 1,000 = 200,000.
    assert_eq!(points.last().unwrap().value, d("200000"));
    let r = period_return(&points, Period::SinceInception, day(2024, 1, 5)).unwrap();
    // TWR: the stock went 1,000 → 1,000: 0 %. Gain: 200,000 − 300,000 deposited = −100,000;
    // simple return −100,000 / 300,000 = −33.3 %.
    assert_eq!(r.time_weighted.round_dp(12), d("0"));
    assert_eq!(r.gain, d("-100000"));
    assert_eq!(r.simple.round_dp(6), d("-0.333333"));
    assert!(r.money_weighted.unwrap() < d("-0.1"));
    assert_eq!(r.explanation.code, ExplanationCode::AddedBeforeFall);
    assert_eq!(r.explanation.flow_date, Some(day(2024, 1, 3)));
    assert_eq!(r.explanation.flow_amount, Some(d("200000")));
    // After the flow the portfolio halved.
    assert_eq!(
        r.explanation.return_after_flow.unwrap().round_dp(12),
        d("-0.5")
    );
}

#[test]
fn without_flows_the_returns_agree() {
    let id = "KRX:005930";
    let mut closes = PriceHistory::new();
    closes.insert(&id.parse().unwrap(), day(2024, 1, 1), d("1000"));
    closes.insert(&id.parse().unwrap(), day(2024, 12, 31), d("1100"));
    let txs = vec![
        deposit(1, day(2024, 1, 1), "100000", KRW),
        tx(2, TxKind::Buy, day(2024, 1, 1), id, "100", "1000", KRW),
    ];
    let points = daily_values(
        &PortfolioSettings::default(),
        &txs,
        &closes,
        &FxHistory::new(),
        KRW,
        day(2024, 12, 31),
    )
    .unwrap();
    // The year-to-date period starts at the close of 2023-12-31, before anything was
    // held, so the first deposit is inside it (a flow); a 1Y period too. Take 3M: from
    // 2024-09-30 (value 100,000, since the close is carried) to 110,000: 10 % all ways.
    let r = period_return(&points, Period::ThreeMonths, day(2024, 12, 31)).unwrap();
    assert_eq!(r.explanation.code, ExplanationCode::NoFlows);
    assert_eq!(r.time_weighted, d("0.1"));
    assert_eq!(r.simple, d("0.1"));
    assert!((r.money_weighted.unwrap().to_f64().unwrap() - 0.1).abs() < 1e-9);
}
