//! The simulator: deterministic, plausible prices for every instrument, so that a
//! fresh offline install is alive. It is the embedded default provider; the UI labels
//! its data as simulated.
//!
//! **Deterministic.** Every random number is a hash of (seed, instrument id, trading
//! day, step), never a stateful generator: the same instrument has the same price at
//! the same moment on every install, after every restart and on every instance (so
//! several instances behind a load balancer agree without talking to each other), and
//! any day can be computed without computing the days between.
//!
//! **The model.** Each instrument's close on the first trading day on or after
//! [`ANCHOR_DATE`] is its catalogue reference price; from there closes follow a
//! geometric random walk in both directions (daily volatility by kind, a small drift),
//! clamped to KRX's ±30 % daily limit. A day opens with a small gap from the previous
//! close and moves from open to close along a Brownian bridge of
//! [`INTRADAY_BAR_MINUTES`]-minute steps; bars take their high and low from that path
//! plus a small excursion, and the day's high and low are those of its bars, so the
//! daily candle, the intraday chart and the live quote always agree. Within a bar the
//! live price follows a finer bridge of [`LIVE_STEP_SECS`]-second steps, kept inside
//! the bar's range. Volumes follow a U-shaped intraday profile.
//!
//! **Numbers.** The walk is computed in `f64` log space (it is a model, not money);
//! every price leaves this module as a [`Decimal`] on the instrument's price grid
//! ([`crate::ticks`]), every volume as a whole number.
//!
//! **Dividends** follow the same rules of determinism; see [`dividends`] for who pays,
//! when and how much. The simulator has no splits.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use async_trait::async_trait;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use rust_decimal::Decimal;

use crate::{
    calendar, ticks, Bar, DailyCandle, Dividend, FxRate, Instrument, Kind, Market, PriceProvider,
    ProviderError, ProviderKind, Quote, QuoteState, Split, INTRADAY_BAR_MINUTES,
};

pub mod dividends;

pub use dividends::{DividendFrequency, DividendPolicy, ScheduledDividend, DIVIDEND_HORIZON_DAYS};

/// The day whose close is the catalogue's reference price (or the first trading day
/// after it).
pub const ANCHOR_DATE: NaiveDate = match NaiveDate::from_ymd_opt(2026, 1, 2) {
    Some(d) => d,
    None => panic!("valid anchor date"),
};
/// The first day of simulated history: no simulated instrument has a price before it,
/// so a portfolio cannot record a trade in it before then.
pub const HISTORY_START: NaiveDate = match NaiveDate::from_ymd_opt(2000, 1, 3) {
    Some(d) => d,
    None => panic!("valid history start"),
};
/// The resolution of the live price inside a bar, in seconds.
pub const LIVE_STEP_SECS: i64 = 1;
/// Annual drift of every simulated price.
const ANNUAL_DRIFT: f64 = 0.06;
/// Trading days a year, to turn annual volatility into daily.
const TRADING_DAYS_PER_YEAR: f64 = 252.0;
/// Largest daily move on KRX, as a ratio of the previous close.
const KRX_DAILY_LIMIT: f64 = 0.30;
/// Opening gaps are this fraction of a day's volatility.
const GAP_SHARE: f64 = 0.3;
/// Share of a day's volatility that shows as intraday wiggle around the bridge.
const INTRADAY_SHARE: f64 = 0.8;
/// Days kept in the per-day path cache before it is cleared.
const CACHE_DAYS: usize = 20_000;
/// The reference price of an instrument whose catalogue entry has none.
const FALLBACK_REFERENCE_PRICE: f64 = 10_000.0;

/// Annual volatility by kind and market.
fn annual_volatility(instrument: &Instrument) -> f64 {
    match instrument.kind {
        Kind::Index => 0.16,
        Kind::Currency => 0.08,
        Kind::Crypto => 0.60,
        Kind::Etf => 0.20,
        Kind::Stock if instrument.board == Some(crate::Board::Kosdaq) => 0.45,
        Kind::Stock => 0.30,
    }
}

/// Typical shares (or units) traded a day.
fn base_volume(instrument: &Instrument) -> f64 {
    match (instrument.kind, instrument.shares_outstanding) {
        (Kind::Stock, Some(shares)) if shares > 0 => shares as f64 * 0.003,
        (Kind::Etf, _) => 2_000_000.0,
        (Kind::Index, _) => 400_000_000.0,
        (Kind::Currency, _) => 0.0,
        (Kind::Crypto, _) => 30_000.0,
        _ => 1_000_000.0,
    }
}

/// SplitMix64: a fast, well-mixed hash step.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a of a string, to turn an instrument id into a seed.
fn hash_str(s: &str) -> u64 {
    s.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// A deterministic standard-normal-ish draw (Irwin–Hall of four 16-bit uniforms,
/// scaled to unit variance; tails end at ±3.46, enough for a simulation).
fn normal(key: u64) -> f64 {
    let bits = mix(key);
    let sum: f64 = (0..4)
        .map(|i| ((bits >> (16 * i)) & 0xFFFF) as f64 / 65_535.0)
        .sum();
    (sum - 2.0) * 3f64.sqrt()
}

fn key(seed: u64, day: i32, step: u32, stream: u32) -> u64 {
    mix(seed ^ mix((day as u64) << 32 | u64::from(step)) ^ u64::from(stream).rotate_left(48))
}

/// One simulated trading day: the path at each bar boundary, in price units.
#[derive(Debug, Clone)]
struct Day {
    date: NaiveDate,
    previous_close: f64,
    /// `points[k]` is the price at the start of bar `k`; the last one is the close.
    points: Vec<f64>,
    bar_high: Vec<f64>,
    bar_low: Vec<f64>,
    bar_volume: Vec<f64>,
}

impl Day {
    fn open(&self) -> f64 {
        self.points[0]
    }
    fn close(&self) -> f64 {
        *self.points.last().expect("a day has points")
    }
    fn high(&self) -> f64 {
        self.bar_high.iter().copied().fold(f64::MIN, f64::max)
    }
    fn low(&self) -> f64 {
        self.bar_low.iter().copied().fold(f64::MAX, f64::min)
    }
    fn volume(&self) -> f64 {
        self.bar_volume.iter().sum()
    }
}

/// Days already computed, by (instrument id, date).
type DayCache = Arc<Mutex<HashMap<(String, NaiveDate), Arc<Day>>>>;

/// The simulator. Cheap to clone and share.
#[derive(Clone)]
pub struct Simulator {
    seed: u64,
    cache: DayCache,
}

impl Default for Simulator {
    fn default() -> Self {
        Self::new(0)
    }
}

impl Simulator {
    /// A simulator whose prices depend only on `seed` (0 is the default everywhere).
    pub fn new(seed: u64) -> Self {
        Self {
            seed,
            cache: Arc::default(),
        }
    }

    fn instrument_seed(&self, instrument: &Instrument) -> u64 {
        mix(self.seed ^ hash_str(&instrument.id.to_string()))
    }

    /// Bars in one session.
    fn bars_per_session(market: Market, date: NaiveDate) -> usize {
        calendar::session(market, date)
            .map(|s| ((s.close - s.open).num_minutes() / i64::from(INTRADAY_BAR_MINUTES)) as usize)
            .unwrap_or(0)
            .max(1)
    }

    /// Closes of the trading days in `from..=to` and the close before `from`, walking
    /// from the anchor. Returns `(date, previous close, close)` for each day.
    fn closes(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Vec<(NaiveDate, f64, f64)> {
        let from = from.max(HISTORY_START);
        if from > to {
            return Vec::new();
        }
        let market = instrument.market();
        let seed = self.instrument_seed(instrument);
        let sigma = annual_volatility(instrument) / TRADING_DAYS_PER_YEAR.sqrt();
        let mu = ANNUAL_DRIFT / TRADING_DAYS_PER_YEAR - sigma * sigma / 2.0;
        let limit = matches!(market, Market::Krx);
        let log_return = |date: NaiveDate| {
            let r = mu + sigma * normal(key(seed, day_number(date), 0, 0));
            if limit {
                r.clamp((1.0 - KRX_DAILY_LIMIT).ln(), (1.0 + KRX_DAILY_LIMIT).ln())
            } else {
                r
            }
        };
        let reference = instrument
            .reference_price
            .and_then(|p| p.to_string().parse::<f64>().ok())
            .filter(|p| *p > 0.0)
            .unwrap_or(FALLBACK_REFERENCE_PRICE);
        let anchor = next_trading_day_on_or_after(market, ANCHOR_DATE);
        let start = calendar::previous_trading_day(market, from.min(anchor));
        let end = to.max(anchor);
        let days: Vec<NaiveDate> = calendar::trading_days(market, start, end).collect();
        let anchor_at = days.iter().position(|d| *d == anchor).unwrap_or(0);
        let mut close = vec![0.0; days.len()];
        close[anchor_at] = reference;
        for i in anchor_at + 1..days.len() {
            close[i] = close[i - 1] * log_return(days[i]).exp();
        }
        for i in (0..anchor_at).rev() {
            close[i] = close[i + 1] / log_return(days[i + 1]).exp();
        }
        (1..days.len())
            .filter(|&i| days[i] >= from && days[i] <= to)
            .map(|i| (days[i], close[i - 1], close[i]))
            .collect()
    }

    /// One day, from the cache: quotes and bars ask for the same few days again and
    /// again.
    fn day(
        &self,
        instrument: &Instrument,
        date: NaiveDate,
        previous_close: f64,
        close: f64,
    ) -> Arc<Day> {
        let cache_key = (instrument.id.to_string(), date);
        if let Some(day) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&cache_key)
        {
            return day.clone();
        }
        let day = Arc::new(self.compute_day(instrument, date, previous_close, close));
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= CACHE_DAYS {
            cache.clear();
        }
        cache.insert(cache_key, day.clone());
        day
    }

    fn compute_day(
        &self,
        instrument: &Instrument,
        date: NaiveDate,
        previous_close: f64,
        close: f64,
    ) -> Day {
        let market = instrument.market();
        let seed = self.instrument_seed(instrument);
        let d = day_number(date);
        let sigma = annual_volatility(instrument) / TRADING_DAYS_PER_YEAR.sqrt();
        let n = Self::bars_per_session(market, date);
        let open = previous_close * (GAP_SHARE * sigma * normal(key(seed, d, 0, 1))).exp();
        let (lo, hi) = (open.ln(), close.ln());
        let step_sigma = INTRADAY_SHARE * sigma / (n as f64).sqrt();
        let mut walk = vec![0.0; n + 1];
        for k in 1..=n {
            walk[k] = walk[k - 1] + normal(key(seed, d, k as u32, 2));
        }
        let total = walk[n];
        let points: Vec<f64> = (0..=n)
            .map(|k| {
                let t = k as f64 / n as f64;
                (lo + t * (hi - lo) + step_sigma * (walk[k] - t * total)).exp()
            })
            .collect();
        let excursion = |k: usize, stream: u32| {
            (0.5 * step_sigma * normal(key(seed, d, k as u32, stream)).abs()).exp()
        };
        let bar_high: Vec<f64> = (0..n)
            .map(|k| points[k].max(points[k + 1]) * excursion(k, 3))
            .collect();
        let bar_low: Vec<f64> = (0..n)
            .map(|k| points[k].min(points[k + 1]) / excursion(k, 4))
            .collect();
        let daily_volume = base_volume(instrument) * (0.35 * normal(key(seed, d, 0, 5))).exp();
        let weights: Vec<f64> = (0..n)
            .map(|k| {
                let x = (k as f64 + 0.5) / n as f64 - 0.5;
                1.0 + 8.0 * x * x
            })
            .collect();
        let weight_sum: f64 = weights.iter().sum();
        let bar_volume = weights
            .iter()
            .map(|w| daily_volume * w / weight_sum)
            .collect();
        Day {
            date,
            previous_close,
            points,
            bar_high,
            bar_low,
            bar_volume,
        }
    }

    /// One trading day, from the cache when it is there (live quotes ask for today
    /// every second; walking the closes from the anchor each time would dominate).
    fn one_day(&self, instrument: &Instrument, date: NaiveDate) -> Option<Arc<Day>> {
        let cache_key = (instrument.id.to_string(), date);
        if let Some(day) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&cache_key)
        {
            return Some(day.clone());
        }
        self.days(instrument, date, date).pop()
    }

    fn days(&self, instrument: &Instrument, from: NaiveDate, to: NaiveDate) -> Vec<Arc<Day>> {
        self.closes(instrument, from, to)
            .into_iter()
            .map(|(date, prev, close)| self.day(instrument, date, prev, close))
            .collect()
    }

    /// Daily candles of the trading days in `from..=to` (computed afresh, not cached:
    /// a backfill asks for each day once).
    pub fn daily(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Vec<DailyCandle> {
        self.closes(instrument, from, to)
            .into_iter()
            .map(|(date, prev, close)| self.compute_day(instrument, date, prev, close))
            .map(|day| DailyCandle {
                date: day.date,
                open: grid(instrument, day.open()),
                high: grid(instrument, day.high()),
                low: grid(instrument, day.low()),
                close: grid(instrument, day.close()),
                volume: day.volume().round() as i64,
            })
            .collect()
    }

    /// The bars of the session on `date` that have started by `now` (a partial last
    /// bar when `now` falls inside it).
    pub fn bars(&self, instrument: &Instrument, date: NaiveDate, now: DateTime<Utc>) -> Vec<Bar> {
        let market = instrument.market();
        let Some(session) = calendar::session(market, date) else {
            return Vec::new();
        };
        let Some(day) = self.one_day(instrument, date) else {
            return Vec::new();
        };
        let bar_len = Duration::minutes(i64::from(INTRADAY_BAR_MINUTES));
        let mut bars = Vec::new();
        for k in 0..day.bar_high.len() {
            let start = session.open + bar_len * k as i32;
            if start > now {
                break;
            }
            let end = start + bar_len;
            if end <= now {
                bars.push(Bar {
                    start,
                    open: grid(instrument, day.points[k]),
                    high: grid(instrument, day.bar_high[k]),
                    low: grid(instrument, day.bar_low[k]),
                    close: grid(instrument, day.points[k + 1]),
                    volume: day.bar_volume[k].round() as i64,
                });
            } else {
                let live = self.inside_bar(instrument, &day, k, now - start);
                bars.push(Bar {
                    start,
                    open: grid(instrument, day.points[k]),
                    high: grid(instrument, live.high),
                    low: grid(instrument, live.low),
                    close: grid(instrument, live.price),
                    volume: live.volume.round() as i64,
                });
            }
        }
        bars
    }

    /// The price path inside bar `k` up to `elapsed`, on a finer bridge kept inside
    /// the bar's range.
    fn inside_bar(
        &self,
        instrument: &Instrument,
        day: &Day,
        k: usize,
        elapsed: Duration,
    ) -> LiveBar {
        let seed = self.instrument_seed(instrument);
        let d = day_number(day.date);
        let steps = (i64::from(INTRADAY_BAR_MINUTES) * 60 / LIVE_STEP_SECS) as usize;
        let done = ((elapsed.num_seconds() / LIVE_STEP_SECS) as usize).min(steps);
        let (a, b) = (day.points[k].ln(), day.points[k + 1].ln());
        let (low, high) = (day.bar_low[k], day.bar_high[k]);
        let wiggle = (high.ln() - low.ln()) / 4.0 / (steps as f64).sqrt();
        let mut walk = vec![0.0; steps + 1];
        for j in 1..=steps {
            walk[j] = walk[j - 1] + normal(key(seed, d, (k * 10_000 + j) as u32, 6));
        }
        let (ln_low, ln_high) = (low.ln(), high.ln());
        let at = |j: usize| {
            let t = j as f64 / steps as f64;
            let line = a + t * (b - a);
            let dev = wiggle * (walk[j] - t * walk[steps]);
            // The bridge's excursion is squeezed into the room the bar leaves on its
            // side of the line (tanh: never past the bar's high or low, and never
            // flat against it as a clamp would be, which froze the live price for
            // many seconds at a time); the ends (dev = 0) stay exact.
            let room = if dev >= 0.0 {
                ln_high - line
            } else {
                line - ln_low
            }
            .max(0.0);
            let dev = if room > 0.0 {
                room * (dev / room).tanh()
            } else {
                0.0
            };
            (line + dev).exp().clamp(low, high)
        };
        let path: Vec<f64> = (0..=done).map(at).collect();
        LiveBar {
            price: *path.last().expect("at least the bar's open"),
            high: path.iter().copied().fold(f64::MIN, f64::max),
            low: path.iter().copied().fold(f64::MAX, f64::min),
            volume: day.bar_volume[k] * done as f64 / steps as f64,
        }
    }

    /// The quote at `now`: live during a session, else the last session's close.
    pub fn quote_at(&self, instrument: &Instrument, now: DateTime<Utc>) -> Quote {
        let market = instrument.market();
        let today = calendar::local_date(market, now);
        let open_session =
            calendar::session(market, today).filter(|s| s.open <= now && now < s.close);
        let (date, state) = match open_session {
            Some(_) => (today, QuoteState::Live),
            None => (
                calendar::latest_session_date(market, now),
                QuoteState::Closed,
            ),
        };
        let day = self.one_day(instrument, date);
        let Some(day) = day else {
            // No trading day at all in range: cannot happen for real calendars.
            let p = grid(instrument, FALLBACK_REFERENCE_PRICE);
            return self.make_quote(instrument, p, p, p, p, p, 0, now, QuoteState::Closed);
        };
        match (state, open_session) {
            (QuoteState::Live, Some(session)) => {
                // What `bars` would give, without building them: the finished bars'
                // extremes in f64 (the tick grid is monotonic, so rounding the extreme
                // equals the extreme of the rounded bars) and the bar under way. This
                // runs for every watched instrument every second.
                let bar_len = Duration::minutes(i64::from(INTRADAY_BAR_MINUTES));
                let elapsed = now - session.open;
                let k = ((elapsed.num_seconds() / bar_len.num_seconds()) as usize)
                    .min(day.bar_high.len() - 1);
                let live = self.inside_bar(instrument, &day, k, elapsed - bar_len * k as i32);
                let (mut high, mut low) = (live.high, live.low);
                let mut volume = live.volume.round() as i64;
                for j in 0..k {
                    high = high.max(day.bar_high[j]);
                    low = low.min(day.bar_low[j]);
                    volume += day.bar_volume[j].round() as i64;
                }
                let (high, low) = (grid(instrument, high), grid(instrument, low));
                let last = Bar {
                    start: session.open + bar_len * k as i32,
                    open: grid(instrument, day.points[k]),
                    high,
                    low,
                    close: grid(instrument, live.price),
                    volume,
                };
                let steps_in = (now - session.open).num_seconds() / LIVE_STEP_SECS;
                let as_of = session.open + Duration::seconds(steps_in * LIVE_STEP_SECS);
                self.make_quote(
                    instrument,
                    last.close,
                    grid(instrument, day.previous_close),
                    grid(instrument, day.open()),
                    high,
                    low,
                    volume,
                    as_of,
                    QuoteState::Live,
                )
            }
            _ => {
                let close_time = calendar::session(market, date)
                    .map(|s| s.close)
                    .unwrap_or(now);
                self.make_quote(
                    instrument,
                    grid(instrument, day.close()),
                    grid(instrument, day.previous_close),
                    grid(instrument, day.open()),
                    grid(instrument, day.high()),
                    grid(instrument, day.low()),
                    day.volume().round() as i64,
                    close_time,
                    QuoteState::Closed,
                )
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn make_quote(
        &self,
        instrument: &Instrument,
        price: Decimal,
        previous_close: Decimal,
        open: Decimal,
        high: Decimal,
        low: Decimal,
        volume: i64,
        as_of: DateTime<Utc>,
        state: QuoteState,
    ) -> Quote {
        Quote {
            instrument_id: instrument.id.clone(),
            price,
            previous_close,
            open,
            high,
            low,
            volume,
            as_of,
            state,
            source: ProviderKind::Simulator.as_str().to_owned(),
            simulated: true,
        }
    }

    /// Daily rates of one `base` in `quote` from a currency-pair instrument's closes
    /// (`FX:USDKRW` gives USD in KRW).
    pub fn fx_rates(&self, pair: &Instrument, from: NaiveDate, to: NaiveDate) -> Vec<FxRate> {
        let symbol = pair.ticker();
        let (base, quote) = symbol.split_at(symbol.len().min(3));
        self.daily(pair, from, to)
            .into_iter()
            .map(|c| FxRate {
                date: c.date,
                base: base.to_owned(),
                quote: quote.to_owned(),
                rate: c.close,
            })
            .collect()
    }
}

struct LiveBar {
    price: f64,
    high: f64,
    low: f64,
    volume: f64,
}

/// Days since 1970-01-01, the day part of every random key.
fn day_number(date: NaiveDate) -> i32 {
    (date - NaiveDate::default()).num_days() as i32
}

fn next_trading_day_on_or_after(market: Market, date: NaiveDate) -> NaiveDate {
    if calendar::is_trading_day(market, date) {
        date
    } else {
        calendar::next_trading_day(market, date)
    }
}

/// A model price as a decimal on the instrument's price grid.
fn grid(instrument: &Instrument, price: f64) -> Decimal {
    let raw = Decimal::from_f64_retain(price).unwrap_or(Decimal::ZERO);
    ticks::round_to_tick(instrument, raw)
}

#[async_trait]
impl PriceProvider for Simulator {
    fn kind(&self) -> ProviderKind {
        ProviderKind::Simulator
    }

    async fn daily_candles(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<DailyCandle>, ProviderError> {
        Ok(self.daily(instrument, from, to))
    }

    async fn intraday_bars(
        &self,
        instrument: &Instrument,
        date: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<Vec<Bar>, ProviderError> {
        Ok(self.bars(instrument, date, now))
    }

    async fn quote(
        &self,
        instrument: &Instrument,
        now: DateTime<Utc>,
    ) -> Result<Quote, ProviderError> {
        Ok(self.quote_at(instrument, now))
    }

    /// The dividends of [`Simulator::corporate_actions_on`] today (in the instrument's
    /// market); never any splits.
    async fn corporate_actions(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<(Vec<Dividend>, Vec<Split>), ProviderError> {
        let today = calendar::local_date(instrument.market(), Utc::now());
        Ok(self.corporate_actions_on(instrument, from, to, today))
    }
}
