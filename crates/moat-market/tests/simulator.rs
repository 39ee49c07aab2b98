//! The simulator's promises: deterministic, on the price grid, consistent between
//! daily candles, intraday bars and quotes, within KRX limits, and quick.

use chrono::{DateTime, Duration, NaiveDate, TimeZone, Utc};
use moat_market::{
    calendar, simulator::Simulator, ticks, Board, Instrument, Kind, Market, QuoteState,
};
use rust_decimal::Decimal;

fn instrument(id: &str, kind: Kind, reference: &str) -> Instrument {
    let id: moat_market::InstrumentId = id.parse().unwrap();
    let korean = id.exchange() == moat_market::Exchange::Krx;
    Instrument {
        kind,
        board: korean.then_some(Board::Kospi),
        currency: if korean { "KRW" } else { "USD" }.into(),
        country: if korean { "KR" } else { "US" }.into(),
        name_ko: "테스트".into(),
        name_en: "Test".into(),
        sector: String::new(),
        shares_outstanding: Some(5_000_000_000),
        reference_price: Some(reference.parse().unwrap()),
        popularity: 0,
        aliases: vec![],
        id,
    }
}

fn samsung() -> Instrument {
    instrument("KRX:005930", Kind::Stock, "71200")
}

fn apple() -> Instrument {
    instrument("NASDAQ:AAPL", Kind::Stock, "243.85")
}

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn utc(y: i32, m: u32, day: u32, h: u32, min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, day, h, min, 0).unwrap()
}

#[test]
fn the_same_seed_gives_the_same_prices_on_every_install() {
    let (a, b) = (Simulator::new(0), Simulator::new(0));
    let from = d(2024, 1, 1);
    let to = d(2025, 12, 31);
    assert_eq!(a.daily(&samsung(), from, to), b.daily(&samsung(), from, to));
    let now = utc(2025, 6, 10, 2, 17);
    assert_eq!(a.quote_at(&samsung(), now), b.quote_at(&samsung(), now));
    // Computing a short range gives the same days as a long one.
    let short = a.daily(&samsung(), d(2025, 3, 3), d(2025, 3, 7));
    let long = b.daily(&samsung(), d(2021, 1, 1), d(2025, 3, 7));
    assert_eq!(short[..], long[long.len() - short.len()..]);
    // Another seed is another market.
    assert_ne!(
        Simulator::new(7).daily(&samsung(), from, to),
        a.daily(&samsung(), from, to)
    );
}

#[test]
fn the_anchor_day_closes_at_the_reference_price() {
    let sim = Simulator::default();
    let anchor = moat_market::simulator::ANCHOR_DATE;
    let day = sim.daily(&samsung(), anchor, anchor + Duration::days(7));
    assert_eq!(day[0].close, Decimal::from(71_200));
    let day = sim.daily(&apple(), anchor, anchor + Duration::days(7));
    assert_eq!(day[0].close, "243.85".parse::<Decimal>().unwrap());
}

#[test]
fn candles_fall_on_trading_days_with_consistent_ohlc_on_the_grid() {
    let sim = Simulator::default();
    for inst in [
        samsung(),
        apple(),
        instrument("INDEX:KOSPI", Kind::Index, "2650.00"),
    ] {
        let candles = sim.daily(&inst, d(2021, 11, 22), d(2026, 11, 20));
        let expected =
            calendar::trading_days(inst.market(), d(2021, 11, 22), d(2026, 11, 20)).count();
        assert_eq!(
            candles.len(),
            expected,
            "{}: one candle per trading day",
            inst.id
        );
        for c in &candles {
            assert!(
                calendar::is_trading_day(inst.market(), c.date),
                "{} {}",
                inst.id,
                c.date
            );
            assert!(
                c.low <= c.open.min(c.close) && c.high >= c.open.max(c.close),
                "{} {c:?}",
                inst.id
            );
            assert!(c.low > Decimal::ZERO, "{} {c:?}", inst.id);
            for p in [c.open, c.high, c.low, c.close] {
                assert!(
                    ticks::is_on_tick(&inst, p),
                    "{} {p} is off the grid",
                    inst.id
                );
            }
        }
    }
}

#[test]
fn krx_closes_stay_within_the_daily_limit() {
    let sim = Simulator::default();
    let candles = sim.daily(&samsung(), d(2021, 1, 1), d(2026, 11, 20));
    for pair in candles.windows(2) {
        let (lower, upper) = ticks::price_limits(&samsung(), pair[0].close).unwrap();
        // One tick of slack: the walk is clamped before rounding to the grid.
        let tick = ticks::tick_size(&samsung(), pair[0].close);
        assert!(
            pair[1].close >= lower - tick && pair[1].close <= upper + tick,
            "{:?} after {:?}",
            pair[1],
            pair[0]
        );
    }
}

#[test]
fn a_day_of_bars_adds_up_to_its_daily_candle() {
    let sim = Simulator::default();
    let date = d(2025, 6, 10);
    let session = calendar::session(Market::Krx, date).unwrap();
    let bars = sim.bars(&samsung(), date, session.close);
    let day = &sim.daily(&samsung(), date, date)[0];
    assert_eq!(bars.len(), 78, "09:00–15:30 in 5-minute bars");
    assert_eq!(bars[0].start, session.open);
    assert_eq!(bars[0].open, day.open);
    assert_eq!(bars.last().unwrap().close, day.close);
    assert_eq!(bars.iter().map(|b| b.high).max().unwrap(), day.high);
    assert_eq!(bars.iter().map(|b| b.low).min().unwrap(), day.low);
    let volume: i64 = bars.iter().map(|b| b.volume).sum();
    assert!(
        (volume - day.volume).abs() <= bars.len() as i64,
        "{volume} vs {}",
        day.volume
    );
}

#[test]
fn quotes_are_live_in_session_and_closed_outside_it() {
    let sim = Simulator::default();
    // 2025-06-10 11:00 KST = 02:00 UTC: KRX is open.
    let live = sim.quote_at(&samsung(), utc(2025, 6, 10, 2, 0));
    assert_eq!(live.state, QuoteState::Live);
    assert!(live.simulated);
    assert!(
        live.low <= live.price && live.price <= live.high,
        "{live:?}"
    );
    let yesterday = &sim.daily(&samsung(), d(2025, 6, 9), d(2025, 6, 9))[0];
    assert_eq!(live.previous_close, yesterday.close);
    // The price moves during the session, in steps of a few seconds.
    let later = sim.quote_at(&samsung(), utc(2025, 6, 10, 2, 37));
    assert_ne!(live.price, later.price);
    // Saturday: the Friday close.
    let weekend = sim.quote_at(&samsung(), utc(2025, 6, 14, 3, 0));
    assert_eq!(weekend.state, QuoteState::Closed);
    let friday = &sim.daily(&samsung(), d(2025, 6, 13), d(2025, 6, 13))[0];
    assert_eq!(weekend.price, friday.close);
    assert_eq!(weekend.high, friday.high);
    // At the close the live price equals the day's close.
    let session = calendar::session(Market::Krx, d(2025, 6, 10)).unwrap();
    let last = sim.quote_at(&samsung(), session.close - Duration::seconds(1));
    let day = &sim.daily(&samsung(), d(2025, 6, 10), d(2025, 6, 10))[0];
    assert!(last.low >= day.low && last.high <= day.high);
}

#[test]
fn the_live_quote_never_leaves_the_days_range() {
    let sim = Simulator::default();
    let date = d(2025, 6, 10);
    let session = calendar::session(Market::Us, date).unwrap();
    let day = &sim.daily(&apple(), date, date)[0];
    let mut t = session.open;
    while t < session.close {
        let q = sim.quote_at(&apple(), t);
        assert!(
            q.price >= day.low && q.price <= day.high,
            "{t}: {} not in {}..{}",
            q.price,
            day.low,
            day.high
        );
        t += Duration::seconds(97);
    }
}

#[test]
fn five_years_for_two_hundred_instruments_is_quick() {
    let sim = Simulator::default();
    let started = std::time::Instant::now();
    let mut rows = 0;
    for i in 0..200 {
        let inst = instrument(&format!("KRX:{:06}", i), Kind::Stock, "50000");
        rows += sim.daily(&inst, d(2021, 11, 22), d(2026, 11, 20)).len();
    }
    // Printed, not asserted: timing belongs to benchmarks (machines are noisy).
    println!("simulated {rows} daily candles in {:?}", started.elapsed());
    assert!(rows > 200 * 1200);
}

#[test]
fn the_live_quote_agrees_with_the_days_bars_so_far() {
    // The quote is computed without building the bars; it must say what they say.
    let sim = Simulator::default();
    for (inst, date, market) in [
        (samsung(), d(2025, 6, 10), Market::Krx),
        (apple(), d(2025, 6, 10), Market::Us),
    ] {
        let session = calendar::session(market, date).unwrap();
        let mut t = session.open;
        while t < session.close {
            let q = sim.quote_at(&inst, t);
            let bars = sim.bars(&inst, date, t);
            let last = bars.last().unwrap();
            assert_eq!(q.price, last.close, "{t}");
            assert_eq!(q.high, bars.iter().map(|b| b.high).max().unwrap(), "{t}");
            assert_eq!(q.low, bars.iter().map(|b| b.low).min().unwrap(), "{t}");
            assert_eq!(q.volume, bars.iter().map(|b| b.volume).sum::<i64>(), "{t}");
            // Every 5-minute boundary and points between them.
            t += Duration::seconds(150);
        }
    }
}

/// 10-second windows (the live stream's pace) over a trading day in which the live
/// price never moves, out of `windows` spread over the day.
fn still_windows(
    sim: &Simulator,
    instrument: &Instrument,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> (usize, usize) {
    let mut still = 0;
    let mut windows = 0;
    let mut t = from;
    while t + Duration::seconds(10) < to {
        let first = sim.quote_at(instrument, t).price;
        let moved =
            (1..=10).any(|s| sim.quote_at(instrument, t + Duration::seconds(s)).price != first);
        windows += 1;
        if !moved {
            still += 1;
        }
        t += Duration::seconds(61);
    }
    (still, windows)
}

#[test]
fn the_live_price_keeps_moving() {
    // Within a bar the live path used to be clamped to the bar's range, so it could sit
    // on the bar's high or low for many seconds: a live price that stops. Now it moves
    // in every 10 s window but the rare one where the price grid is coarse.
    let sim = Simulator::default();
    let bitcoin = instrument("CRYPTO:BTC", Kind::Crypto, "97000");
    let (still, windows) = still_windows(
        &sim,
        &bitcoin,
        utc(2025, 6, 10, 0, 0),
        utc(2025, 6, 11, 0, 0),
    );
    println!("bitcoin: {still} of {windows} windows without a move");
    assert_eq!(still, 0, "{still} of {windows} 10 s windows without a move");
    let date = d(2025, 6, 10);
    let session = calendar::session(Market::Us, date).unwrap();
    let (still, windows) = still_windows(&sim, &apple(), session.open, session.close);
    println!("apple: {still} of {windows} windows without a move");
    assert!(
        still * 20 <= windows,
        "{still} of {windows} 10 s windows without a move"
    );
}
