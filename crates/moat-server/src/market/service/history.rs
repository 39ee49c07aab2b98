//! Price history and what else the market knows by date: daily candles, intraday
//! bars, dividends and FX rates, from the simulator, a provider or storage.

use std::collections::HashSet;

use chrono::{DateTime, NaiveDate, Utc};
use moat_market::{
    calendar, Bar, DailyCandle, Dividend, FxRate, Instrument, InstrumentId, Market, QuoteState,
};
use moat_storage::StorageError;

use super::MarketService;

impl MarketService {
    /// The first day of `instrument`'s price history: its first stored daily candle,
    /// or, for a simulated instrument, the simulator's first day if that is earlier.
    /// `None` when nothing is known (a real provider that has not answered yet): then
    /// no trade date can be refused for it.
    pub async fn history_start(
        &self,
        instrument: &Instrument,
    ) -> anyhow::Result<Option<NaiveDate>> {
        let stored = self.storage.first_candle_date(&instrument.id).await?;
        if self.is_simulated(instrument) {
            let first = moat_market::simulator::HISTORY_START;
            return Ok(Some(stored.map_or(first, |d| d.min(first))));
        }
        Ok(stored)
    }

    /// Daily candles in `from..=to`, plus today's candle so far while a session runs.
    pub async fn daily_candles(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> anyhow::Result<Vec<DailyCandle>> {
        let mut candles = if self.is_simulated(instrument) {
            // The simulator knows every day in full, today's and the future's too: only
            // finished sessions are history; the one under way comes from the quote.
            // Stored candles win over simulated ones: they are the backfill (the same
            // prices) or real history an operator imported with `moat import prices`.
            let market = instrument.market();
            let finished = last_finished_session(market, Utc::now());
            let to = to.min(finished);
            let stored = self.storage.daily_candles(&instrument.id, from, to).await?;
            match (stored.first(), stored.last()) {
                // The stored days form one unbroken run (the backfill, or an import):
                // simulate only the days before and after it. Simulating a day costs
                // its whole intraday path, so a range reaching a week before the
                // backfill must not simulate years.
                (Some(first), Some(last))
                    if stored.len()
                        >= calendar::trading_days(market, first.date, last.date).count() =>
                {
                    let mut candles = match first.date.pred_opt() {
                        Some(before) if from <= before => {
                            self.simulator.daily(instrument, from, before)
                        }
                        _ => Vec::new(),
                    };
                    let after = last.date.succ_opt().filter(|d| *d <= to);
                    candles.extend(stored);
                    if let Some(after) = after {
                        candles.extend(self.simulator.daily(instrument, after, to));
                    }
                    candles
                }
                // Nothing stored, or gaps: simulate the range, stored days winning.
                _ => {
                    let mut simulated = self.simulator.daily(instrument, from, to);
                    if !stored.is_empty() {
                        let dates: HashSet<NaiveDate> = stored.iter().map(|c| c.date).collect();
                        simulated.retain(|c| !dates.contains(&c.date));
                        simulated.extend(stored);
                        simulated.sort_by_key(|c| c.date);
                    }
                    simulated
                }
            }
        } else {
            self.storage.daily_candles(&instrument.id, from, to).await?
        };
        if let Some(q) = self.quote(instrument).await {
            let date = calendar::local_date(instrument.market(), q.as_of);
            let in_range = date >= from && date <= to;
            if in_range
                && q.state != QuoteState::Closed
                && candles.last().is_none_or(|c| c.date < date)
            {
                candles.push(DailyCandle {
                    date,
                    open: q.open,
                    high: q.high,
                    low: q.low,
                    close: q.price,
                    volume: q.volume,
                });
            }
        }
        Ok(candles)
    }

    /// Intraday bars of the session on `date`, up to now.
    pub async fn intraday_bars(
        &self,
        instrument: &Instrument,
        date: NaiveDate,
    ) -> anyhow::Result<Vec<Bar>> {
        let now = Utc::now();
        if self.is_simulated(instrument) {
            return Ok(self.simulator.bars(instrument, date, now));
        }
        let Some(session) = calendar::session(instrument.market(), date) else {
            return Ok(Vec::new());
        };
        let slot = self.slot(instrument);
        match slot.provider.intraday_bars(instrument, date, now).await {
            Ok(bars) if !bars.is_empty() => {
                self.storage
                    .upsert_intraday_bars(&instrument.id, &bars, slot.kind.as_str())
                    .await?;
                Ok(bars)
            }
            Ok(_) | Err(_) => Ok(self
                .storage
                .intraday_bars(&instrument.id, session.open, session.close)
                .await?),
        }
    }

    /// Dividends with an ex-date in `from..=to`: for simulated instruments the
    /// simulator's schedule, up to its horizon of announced and expected ones
    /// ([`moat_market::simulator::DIVIDEND_HORIZON_DAYS`] ahead); else what providers
    /// stored.
    pub async fn dividends(
        &self,
        instrument: &Instrument,
        from: NaiveDate,
        to: NaiveDate,
    ) -> anyhow::Result<Vec<Dividend>> {
        if self.is_simulated(instrument) {
            let horizon = Utc::now().date_naive()
                + chrono::Duration::days(moat_market::simulator::DIVIDEND_HORIZON_DAYS);
            return Ok(self.simulator.dividends(instrument, from, to.min(horizon)));
        }
        Ok(self.storage.dividends(&instrument.id, from, to).await?)
    }

    /// The dividends real providers reported (as stored) whose ex-date or pay date falls
    /// in `from..=to`, by ex-date then instrument; only instruments of `country` (`KR`,
    /// `US`) when given. Simulated instruments' dividends are not stored: ask
    /// [`MarketService::dividends`] for those.
    pub async fn reported_dividends(
        &self,
        from: NaiveDate,
        to: NaiveDate,
        country: Option<&str>,
    ) -> Result<Vec<(InstrumentId, Dividend)>, StorageError> {
        self.storage
            .upcoming_dividends(from, to, country, None)
            .await
    }

    /// The versions of the price series named (instrument ids and
    /// [`moat_storage::fx_series`] keys) that have been stored: what derived results
    /// kept between reads are checked against (portfolio::derived).
    pub async fn price_versions(
        &self,
        series: &[String],
    ) -> Result<Vec<moat_storage::PriceVersion>, StorageError> {
        self.storage.price_versions(series).await
    }

    /// Daily rates of `base` in `quote` (`USD` in `KRW`) for `from..=to`, oldest first.
    pub async fn fx_rates(
        &self,
        base: &str,
        quote: &str,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<FxRate>, StorageError> {
        self.storage.fx_rates(base, quote, from, to).await
    }
}

/// The date of the last session of `market` that has closed by `now`.
pub(super) fn last_finished_session(market: Market, now: DateTime<Utc>) -> NaiveDate {
    let today = calendar::local_date(market, now);
    match calendar::session(market, today) {
        Some(s) if s.close <= now => today,
        _ => calendar::previous_trading_day(market, today),
    }
}
