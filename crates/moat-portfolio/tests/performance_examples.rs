//! Performance examples checked by hand.

mod common;

use common::*;
use moat_portfolio::money::KRW;
use moat_portfolio::performance::ExplanationCode;
use moat_portfolio::{
    daily_values, period_return, time_weighted_return, xirr, FxHistory, Period, PortfolioSettings,
    PriceHistory, TxKind,
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
    // Flows at the start of their day: day 1 0 % (bought at the close), day 2 +50 %,
    // day 3 (400,000 − 150,000 − 200,000) / (150,000 + 200,000) = +1/7 (the new money sat
    // as cash while the stock rose), day 4 −25 %, day 5 −1/3: TWR 1.5 × 8/7 × 0.75 × 2/3
    // − 1 = −1/7. Gain: 200,000 − 300,000 deposited = −100,000; simple −33.3 %.
    assert_eq!(r.time_weighted.round_dp(12), d("-0.142857142857"));
    assert_eq!(r.gain, d("-100000"));
    assert_eq!(r.simple.round_dp(6), d("-0.333333"));
    assert!(r.money_weighted.unwrap() < d("-0.1"));
    assert_eq!(r.explanation.code, ExplanationCode::AddedBeforeFall);
    assert_eq!(r.explanation.flow_date, Some(day(2024, 1, 3)));
    assert_eq!(r.explanation.flow_amount, Some(d("200000")));
    // From the start of the flow's day: 8/7 × 0.75 × 2/3 − 1 = −3/7.
    assert_eq!(
        r.explanation.return_after_flow.unwrap().round_dp(12),
        d("-0.428571428571")
    );
    assert!(r.explanation.difference.unwrap() < d("0"));
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

/// The closes and rates of the reproduction in issue 14: 삼성전자 closes at 51,400 and
/// 52,700; Microsoft closes at $402.50 on 2025-02-04; USD/KRW 1,455 and 1,461.5.
fn issue_14_market() -> (PriceHistory, FxHistory) {
    let mut closes = PriceHistory::new();
    let samsung = "KRX:005930".parse().unwrap();
    let msft = "NASDAQ:MSFT".parse().unwrap();
    closes.insert(&samsung, day(2025, 2, 3), d("51400"));
    closes.insert(&samsung, day(2025, 2, 4), d("52700"));
    closes.insert(&msft, day(2025, 2, 3), d("404.00"));
    closes.insert(&msft, day(2025, 2, 4), d("402.50"));
    let mut fx = FxHistory::new();
    fx.insert(day(2025, 2, 3), "USD", KRW, d("1455"));
    fx.insert(day(2025, 2, 4), "USD", KRW, d("1461.5"));
    (closes, fx)
}

/// An empty KRW portfolio buys 삼성전자 10 @ ₩52,000 on 2025-02-03 (paid from outside:
/// an implicit deposit of 520,000), then Microsoft 3 @ $410 at ₩1,460 on 2025-02-04,
/// above that day's close of $402.50 (an implicit deposit of 1,795,800).
///
/// Day 1: (514,000 − 0 − 520,000) / (0 + 520,000) = −1.1538 %.
/// Day 2: the value is 10 × 52,700 + 3 × 402.50 × 1,461.5 = 2,291,761.25;
/// (2,291,761.25 − 514,000 − 1,795,800) / (514,000 + 1,795,800) = −0.7810 %: 삼성전자's
/// +2.53 % from its previous close on 514,000 and Microsoft's −1.73 % from its fill price
/// (in won) on 1,795,800. TWR (1 − 0.011538…)(1 − 0.007810…) − 1 = −1.9258 %, beside a
/// simple return of −24,038.75 / 2,315,800 = −1.0380 %. Taking the flow at the end of the
/// day, as before, gave −4.62 % here, and −100.01 % for a buy 30 % above the close.
#[test]
fn a_buy_above_the_close_is_measured_from_its_fill_price() {
    let (closes, fx) = issue_14_market();
    let txs = vec![
        tx(
            1,
            TxKind::Buy,
            day(2025, 2, 3),
            "KRX:005930",
            "10",
            "52000",
            KRW,
        ),
        with_fx(
            tx(
                2,
                TxKind::Buy,
                day(2025, 2, 4),
                "NASDAQ:MSFT",
                "3",
                "410",
                "USD",
            ),
            "1460",
        ),
    ];
    let points = daily_values(
        &PortfolioSettings::default(),
        &txs,
        &closes,
        &fx,
        KRW,
        day(2025, 2, 4),
    )
    .unwrap();
    let values: Vec<_> = points.iter().map(|p| (p.value, p.flow)).collect();
    assert_eq!(
        values,
        vec![
            (d("0"), d("0")),
            (d("514000"), d("520000")),
            (d("2291761.25"), d("1795800")),
        ]
    );
    let r = period_return(&points, Period::SinceInception, day(2025, 2, 4)).unwrap();
    assert_eq!(
        r.time_weighted.round_dp(16),
        d("-0.0192580089351725"),
        "TWR"
    );
    assert_eq!(r.simple.round_dp(16), d("-0.0103803221348994"), "simple");
    assert_eq!(r.gain, d("-24038.75"));
}

/// The same with Microsoft bought 30 % above its close ($523.25): day 2 is
/// (2,291,761.25 − 514,000 − 2,291,877) / (514,000 + 2,291,877) = −18.32 %, and the TWR
/// −19.26 %, not below −100 %.
#[test]
fn a_buy_far_above_the_close_never_takes_the_return_below_minus_100_percent() {
    let (closes, fx) = issue_14_market();
    let txs = vec![
        tx(
            1,
            TxKind::Buy,
            day(2025, 2, 3),
            "KRX:005930",
            "10",
            "52000",
            KRW,
        ),
        with_fx(
            tx(
                2,
                TxKind::Buy,
                day(2025, 2, 4),
                "NASDAQ:MSFT",
                "3",
                "523.25",
                "USD",
            ),
            "1460",
        ),
    ];
    let points = daily_values(
        &PortfolioSettings::default(),
        &txs,
        &closes,
        &fx,
        KRW,
        day(2025, 2, 4),
    )
    .unwrap();
    let twr = time_weighted_return(&points);
    assert_eq!(twr.round_dp(16), d("-0.1926403901293061"));
    assert!(twr > d("-1"));
}

/// Days with no money at work have no return: everything withdrawn at the start of a
/// day leaves `V_{t−1} + F_t = 0`, and the chain skips that day and the empty ones after
/// it until money comes back.
#[test]
fn a_day_with_no_money_at_work_is_skipped() {
    let id = "KRX:005930";
    let mut closes = PriceHistory::new();
    for (dd, p) in [
        (1, "1000"),
        (2, "1100"),
        (3, "1200"),
        (4, "1300"),
        (5, "1430"),
    ] {
        closes.insert(&id.parse().unwrap(), day(2024, 1, dd), d(p));
    }
    let txs = vec![
        tx(1, TxKind::Buy, day(2024, 1, 1), id, "10", "1000", KRW),
        // Sold at day 2's close: +10 %, and the cash withdrawn on day 3's start.
        tx(2, TxKind::Sell, day(2024, 1, 2), id, "10", "1100", KRW),
        tx(
            3,
            TxKind::Withdrawal,
            day(2024, 1, 3),
            "",
            "1",
            "11000",
            KRW,
        ),
        // Back in on day 5 at 1,300, closing at 1,430: +10 %.
        tx(4, TxKind::Buy, day(2024, 1, 5), id, "10", "1300", KRW),
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
    // Day 3: 0 − 11,000 + 11,000 ... at work 11,000 − 11,000 = 0: skipped; day 4: empty.
    assert_eq!(points[3].value, d("0"));
    assert_eq!(points[4].value, d("0"));
    assert_eq!(time_weighted_return(&points), d("0.21"));
}
