//! Builders shared by the integration tests.
#![allow(dead_code)]

use chrono::NaiveDate;
use moat_portfolio::{SplitRatio, Transaction, TxKind};
use rust_decimal::Decimal;

/// A decimal from a literal string (`d("1.5")`).
pub fn d(s: &str) -> Decimal {
    s.parse().unwrap()
}

pub fn day(y: i32, m: u32, dd: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, dd).unwrap()
}

/// A transaction of `kind` on `instrument` (empty for none) with `quantity × price`.
pub fn tx(
    id: i64,
    kind: TxKind,
    date: NaiveDate,
    instrument: &str,
    quantity: &str,
    price: &str,
    currency: &str,
) -> Transaction {
    let mut t = Transaction::new(id, kind, date, currency);
    if !instrument.is_empty() {
        t.instrument = Some(instrument.parse().unwrap());
    }
    t.quantity = d(quantity);
    t.price = d(price);
    t
}

pub fn with_costs(mut t: Transaction, fee: &str, tax: &str) -> Transaction {
    t.fee = d(fee);
    t.tax = d(tax);
    t
}

pub fn with_fx(mut t: Transaction, rate: &str) -> Transaction {
    t.fx_rate = Some(d(rate));
    t
}

pub fn split(
    id: i64,
    date: NaiveDate,
    instrument: &str,
    numerator: u32,
    denominator: u32,
    currency: &str,
) -> Transaction {
    let mut t = tx(id, TxKind::Split, date, instrument, "0", "0", currency);
    t.split = Some(SplitRatio {
        numerator,
        denominator,
    });
    t
}

pub fn deposit(id: i64, date: NaiveDate, amount: &str, currency: &str) -> Transaction {
    tx(id, TxKind::Deposit, date, "", "1", amount, currency)
}
