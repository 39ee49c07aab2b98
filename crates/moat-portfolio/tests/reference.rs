//! XIRR and TWR against independent implementations: `@formulajs/formulajs`'s
//! spreadsheet XIRR and a JavaScript TWR (tests/reference/formulajs.mjs), on generated
//! series, to 1e-6. Needs `node` and web/node_modules (`npm ci` in web/).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use chrono::{Duration, NaiveDate};
use moat_portfolio::{time_weighted_return, xirr, DailyPoint};
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use serde_json::{json, Value};

/// Series generated of each kind; formulajs's plain Newton (no fallback) may fail on a
/// few, so at least [`MIN_COMPARED`] XIRR series must be compared.
const SERIES: usize = 30;
const MIN_COMPARED: usize = 20;
const TOLERANCE: f64 = 1e-6;

/// A small deterministic generator (LCG), so failures reproduce.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn between(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// An amount with two decimals, as money is entered.
fn money(x: f64) -> Decimal {
    Decimal::from_f64_retain(x).unwrap().round_dp(2)
}

fn excel_serial(d: NaiveDate) -> i64 {
    (d - NaiveDate::from_ymd_opt(1899, 12, 30).unwrap()).num_days()
}

/// Deposits (negative) and a few withdrawals, then the end value grown at a chosen
/// rate, so that a root exists.
fn xirr_series(rng: &mut Lcg) -> Vec<(NaiveDate, Decimal)> {
    let mut date = NaiveDate::from_ymd_opt(2019, 1, 1).unwrap()
        + Duration::days(rng.between(0.0, 700.0) as i64);
    let rate = rng.between(-0.3, 0.4);
    let mut flows = Vec::new();
    let n = 1 + (rng.next() * 6.0) as usize;
    for i in 0..n {
        let amount = if i > 0 && rng.next() < 0.25 {
            money(rng.between(100.0, 2_000.0))
        } else {
            -money(rng.between(1_000.0, 100_000.0))
        };
        flows.push((date, amount));
        date += Duration::days(rng.between(1.0, 400.0) as i64);
    }
    let end = date;
    let value: f64 = flows
        .iter()
        .map(|(d, a)| {
            -a.to_f64().unwrap() * (1.0 + rate).powf((end - *d).num_days() as f64 / 365.0)
        })
        .sum();
    flows.push((end, money(value.max(1.0))));
    flows
}

/// Daily values with random returns and occasional deposits and withdrawals.
fn twr_series(rng: &mut Lcg) -> Vec<DailyPoint> {
    let start = NaiveDate::from_ymd_opt(2023, 1, 1).unwrap();
    let mut points = vec![DailyPoint {
        date: start,
        value: Decimal::ZERO,
        flow: Decimal::ZERO,
    }];
    let mut value = 0.0;
    let days = 20 + (rng.next() * 200.0) as i64;
    for i in 1..=days {
        let mut flow = 0.0;
        if i == 1 || rng.next() < 0.08 {
            flow = rng.between(1_000.0, 50_000.0);
        } else if rng.next() < 0.05 {
            flow = -(value * rng.between(0.05, 0.5)).floor();
        }
        value = value * (1.0 + rng.between(-0.03, 0.032)) + flow;
        points.push(DailyPoint {
            date: start + Duration::days(i),
            value: money(value),
            flow: money(flow),
        });
    }
    points
}

fn run_reference(input: &Value) -> Value {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let formulajs = manifest.join("../../web/node_modules/@formulajs/formulajs");
    assert!(
        formulajs.exists(),
        "{} is missing: run `npm ci` in web/ (the reference XIRR is @formulajs/formulajs, a devDependency of web/)",
        formulajs.display()
    );
    let script = manifest.join("tests/reference/formulajs.mjs");
    let mut child = Command::new("node")
        .arg(script)
        .env("TZ", "UTC")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("`node` must be installed to run the reference implementations");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the reference script failed");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn xirr_and_twr_match_independent_implementations() {
    let mut rng = Lcg(20240611);
    let xirr_cases: Vec<_> = (0..SERIES).map(|_| xirr_series(&mut rng)).collect();
    let twr_cases: Vec<_> = (0..SERIES).map(|_| twr_series(&mut rng)).collect();
    let input = json!({
        "xirr": xirr_cases.iter().map(|flows| json!({
            "values": flows.iter().map(|(_, a)| a.to_f64().unwrap()).collect::<Vec<_>>(),
            "dates": flows.iter().map(|(d, _)| excel_serial(*d)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "twr": twr_cases.iter().map(|points| points.iter().map(|p| json!({
            "value": p.value.to_f64().unwrap(),
            "flow": p.flow.to_f64().unwrap(),
        })).collect::<Vec<_>>()).collect::<Vec<_>>(),
    });
    let reference = run_reference(&input);

    let mut compared = 0;
    for (i, flows) in xirr_cases.iter().enumerate() {
        let Some(theirs) = reference["xirr"][i].as_f64() else {
            continue;
        };
        let ours = xirr(flows)
            .unwrap_or_else(|| panic!("no XIRR for series {i}"))
            .to_f64()
            .unwrap();
        assert!(
            (ours - theirs).abs() < TOLERANCE,
            "XIRR series {i}: ours {ours}, formulajs {theirs}"
        );
        compared += 1;
    }
    assert!(
        compared >= MIN_COMPARED,
        "only {compared} XIRR series compared"
    );
    for (i, points) in twr_cases.iter().enumerate() {
        let theirs = reference["twr"][i].as_f64().unwrap();
        let ours = time_weighted_return(points).to_f64().unwrap();
        assert!(
            (ours - theirs).abs() < TOLERANCE,
            "TWR series {i}: ours {ours}, reference {theirs}"
        );
    }
}
