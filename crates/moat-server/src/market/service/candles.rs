//! Chart ranges: five-minute bars of the latest session (1D), 30-minute bars of the
//! last five (1W), daily candles (1M to 1Y) and weekly ones (5Y).

use chrono::{Datelike, Duration, NaiveTime, Utc};
use moat_market::{calendar, Bar, DailyCandle, Instrument};

use super::MarketService;
use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    market::dto::Range,
};

/// Bars per 30-minute candle of the 1W range.
const WEEK_BAR_SECONDS: i64 = 30 * 60;
/// Sessions in the 1W range.
const WEEK_SESSIONS: usize = 5;

/// The candles of one chart range. Daily and weekly candles start at 00:00 UTC of
/// their (first) date.
#[derive(Debug, Clone)]
pub struct Chart {
    pub range: Range,
    /// `5m`, `30m`, `1d` or `1w`.
    pub interval: &'static str,
    pub candles: Vec<Bar>,
}

/// The chart of `instrument` over `range` as the request wrote it (`1D`, `1W`, `1M`,
/// `3M`, `1Y`, `5Y`; `1M` when absent).
pub async fn chart(
    service: &MarketService,
    instrument: &Instrument,
    range: Option<&str>,
) -> Result<Chart, ApiError> {
    let range: Range = match range {
        None => Range::OneMonth,
        Some(r) => {
            serde_json::from_value(serde_json::Value::String(r.to_owned())).map_err(|_| {
                ApiError::invalid_parameter(
                    "range",
                    FieldError::new(ErrorCode::InvalidRange, "One of 1D, 1W, 1M, 3M, 1Y, 5Y.")
                        .param("range", "1D, 1W, 1M, 3M, 1Y, 5Y"),
                )
            })?
        }
    };
    let m = instrument.market();
    let now = Utc::now();
    let today = calendar::local_date(m, now);
    let (interval, candles) = match range {
        Range::OneDay => {
            let date = calendar::latest_session_date(m, now);
            let bars = service
                .intraday_bars(instrument, date)
                .await
                .map_err(ApiError::internal)?;
            ("5m", bars)
        }
        Range::OneWeek => {
            let mut dates = vec![calendar::latest_session_date(m, now)];
            while dates.len() < WEEK_SESSIONS {
                let before = calendar::previous_trading_day(m, *dates.last().expect("non-empty"));
                dates.push(before);
            }
            let mut bars = Vec::new();
            for date in dates.into_iter().rev() {
                bars.extend(
                    service
                        .intraday_bars(instrument, date)
                        .await
                        .map_err(ApiError::internal)?,
                );
            }
            let bars = aggregate(bars, |b| b.start.timestamp().div_euclid(WEEK_BAR_SECONDS));
            ("30m", bars)
        }
        Range::OneMonth | Range::ThreeMonths | Range::OneYear | Range::FiveYears => {
            let from = match range {
                Range::OneMonth => today - Duration::days(31),
                Range::ThreeMonths => today - Duration::days(92),
                Range::OneYear => today - Duration::days(366),
                _ => today - Duration::days(5 * 366),
            };
            let daily = service
                .daily_candles(instrument, from, today)
                .await
                .map_err(ApiError::internal)?;
            let bars: Vec<Bar> = daily.iter().map(day_bar).collect();
            if range == Range::FiveYears {
                ("1w", aggregate(bars, |b| b.start.date_naive().iso_week()))
            } else {
                ("1d", bars)
            }
        }
    };
    Ok(Chart {
        range,
        interval,
        candles,
    })
}

/// A daily candle as a bar starting at 00:00 UTC of its date.
fn day_bar(c: &DailyCandle) -> Bar {
    Bar {
        start: c.date.and_time(NaiveTime::MIN).and_utc(),
        open: c.open,
        high: c.high,
        low: c.low,
        close: c.close,
        volume: c.volume,
    }
}

/// Merges consecutive bars that share a group key into one.
fn aggregate<K: PartialEq>(bars: Vec<Bar>, key: impl Fn(&Bar) -> K) -> Vec<Bar> {
    let mut out: Vec<(K, Bar)> = Vec::new();
    for b in bars {
        let k = key(&b);
        match out.last_mut() {
            Some((last_key, last)) if *last_key == k => {
                last.high = b.high.max(last.high);
                last.low = b.low.min(last.low);
                last.close = b.close;
                last.volume += b.volume;
            }
            _ => out.push((k, b)),
        }
    }
    out.into_iter().map(|(_, b)| b).collect()
}
