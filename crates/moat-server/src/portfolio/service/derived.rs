//! Reading the portfolios' derived results through the cache (portfolio::derived):
//! the daily value series and the ledgers built in a reporting currency, each checked
//! against the ledger's revision and the versions of the price series it reads, kept
//! when computed and extended by the days settled since.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{Duration, NaiveDate};
use moat_market::InstrumentId;
use moat_portfolio::{CurrencyMode, DailyPoint, FxHistory, Ledger, PriceHistory, SeriesRun};
use moat_storage::fx_series;

use super::{domain_error, fx_history, Part, FX_PAIR, HISTORY_LOOKBACK_DAYS};
use crate::{
    http::error::ApiError,
    portfolio::{
        derived::{settled_through, ClosesEntry, LedgerEntry, Outcome, SeenVersion, SeriesEntry},
        PortfolioState,
    },
};

/// The price series `transactions` read when valued in `currency`: their instruments'
/// candles, and the FX rates when a transaction is in another currency.
struct Reads {
    instruments: HashSet<InstrumentId>,
    fx: bool,
}

impl Reads {
    fn of(part: &Part, currency: &str) -> Self {
        let txs = part.transactions();
        Self {
            instruments: txs.iter().filter_map(|t| t.instrument.clone()).collect(),
            fx: txs.iter().any(|t| t.currency != currency),
        }
    }

    /// The keys of the series, sorted.
    fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self.instruments.iter().map(|i| i.to_string()).collect();
        if self.fx {
            keys.push(fx_key());
        }
        keys.sort_unstable();
        keys
    }
}

fn fx_key() -> String {
    fx_series(FX_PAIR.0, FX_PAIR.1)
}

/// The stored versions of every series `reads` name: version and last stored day.
async fn versions_of(
    state: &PortfolioState,
    reads: &[Reads],
) -> Result<HashMap<String, (i64, NaiveDate)>, ApiError> {
    let keys: Vec<String> = reads
        .iter()
        .flat_map(Reads::keys)
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    Ok(state
        .market
        .price_versions(&keys)
        .await?
        .into_iter()
        .map(|v| (v.series, (v.version, v.last_date)))
        .collect())
}

fn seen(keys: &[String], versions: &HashMap<String, (i64, NaiveDate)>) -> Vec<SeenVersion> {
    keys.iter()
        .map(|k| (k.clone(), versions.get(k).map_or(0, |v| v.0)))
        .collect()
}

/// Each part's daily values in `currency` from the day before its first transaction
/// through `today` (empty for a part without transactions), from its kept series when
/// current, carried on to today.
pub(crate) async fn daily_series(
    state: &PortfolioState,
    parts: &[Part],
    currency: &str,
    today: NaiveDate,
) -> Result<Vec<Vec<DailyPoint>>, ApiError> {
    let cache = &state.derived;
    let reads: Vec<Reads> = parts.iter().map(|p| Reads::of(p, currency)).collect();
    let versions = versions_of(state, &reads).await?;
    // Per part: what it depends on, how far it may be kept, and what is kept of it.
    struct Plan {
        seen: Vec<SeenVersion>,
        through: Option<NaiveDate>,
        kept: Option<std::sync::Arc<SeriesEntry>>,
    }
    let mut plans = Vec::with_capacity(parts.len());
    for (part, reads) in parts.iter().zip(&reads) {
        let keys = reads.keys();
        // A series with stored days is settled only as far as they go (a day stored
        // later is an append, which does not raise its version). One with none is
        // settled for every finished day when the simulator makes it (its first
        // stored day will raise its version from 0), and never from a real provider.
        let mut stored_until = Vec::new();
        for id in &reads.instruments {
            match versions.get(&id.to_string()) {
                Some(v) => stored_until.push(Some(v.1)),
                None => {
                    if let Some(inst) = state.market.instrument(id) {
                        if !state.market.is_simulated(&inst) {
                            stored_until.push(None);
                        }
                    }
                }
            }
        }
        if reads.fx {
            stored_until.push(versions.get(&fx_key()).map(|v| v.1));
        }
        let through = settled_through(today, stored_until);
        let seen = seen(&keys, &versions);
        // Kept through a day no later than the settled one (a settled day that moved
        // back, as a clock set back does, recomputes).
        let kept = through.and_then(|t| {
            cache
                .series(part.id, currency, part.revision, &seen)
                .filter(|k| k.run.next_day() <= t + Duration::days(1))
        });
        plans.push(Plan {
            seen,
            through,
            kept,
        });
    }
    // The closes and rates from the first day any part computes (a week earlier, so
    // the first days carry a close): each instrument's through the settled day kept
    // between reads like the series (a portfolio recomputed after an edit reads only
    // the last days from storage), the rest read afresh.
    let mut from: BTreeMap<InstrumentId, NaiveDate> = BTreeMap::new();
    let mut fx_from: Option<NaiveDate> = None;
    for ((part, reads), plan) in parts.iter().zip(&reads).zip(&plans) {
        let Some(first) = part.transactions().iter().map(|t| t.trade_date).min() else {
            continue;
        };
        let start = plan.kept.as_ref().map_or(first, |k| k.run.next_day());
        for id in &reads.instruments {
            let e = from.entry(id.clone()).or_insert(start);
            *e = (*e).min(start);
        }
        // Rates only for a part in another currency than the series' (what its kept
        // series is keyed by, too).
        if reads.fx {
            fx_from = Some(fx_from.map_or(start, |d| d.min(start)));
        }
    }
    let mut closes = PriceHistory::new();
    for (id, start) in &from {
        let Some(inst) = state.market.instrument(id) else {
            continue;
        };
        let stored = versions.get(&id.to_string()).copied();
        let first = *start - Duration::days(HISTORY_LOOKBACK_DAYS);
        for (date, close) in closes_through(state, &inst, stored, first, today).await? {
            closes.insert(id, date, close);
        }
    }
    let fx = match fx_from {
        Some(d) => fx_history(state, d).await?,
        None => FxHistory::new(),
    };
    let mut out = Vec::with_capacity(parts.len());
    for (part, plan) in parts.iter().zip(plans) {
        let txs = part.transactions();
        let advance = |run: &mut SeriesRun, to: NaiveDate| {
            run.advance(&part.settings, txs, &closes, &fx, currency, to)
                .map_err(domain_error)
        };
        // The kept points and where they carry on, or the first point of a series
        // computed afresh.
        let (mut points, mut run, outcome) = match plan.kept {
            Some(kept) => (Vec::clone(&kept.points), kept.run.clone(), Outcome::Hit),
            None => match SeriesRun::start(&part.settings, txs).map_err(domain_error)? {
                Some((run, first)) => (vec![first], run, Outcome::Miss),
                None => {
                    out.push(Vec::new());
                    continue;
                }
            },
        };
        // Carried on through the settled day and kept: a series computed afresh, or a
        // kept one the settled day has moved past.
        let outcome = match plan.through {
            Some(through) if outcome == Outcome::Miss || run.next_day() <= through => {
                points.extend(advance(&mut run, through)?);
                cache.keep_series(
                    part.id,
                    currency,
                    SeriesEntry {
                        revision: part.revision,
                        versions: plan.seen,
                        points: std::sync::Arc::new(points.clone()),
                        run: run.clone(),
                    },
                );
                if outcome == Outcome::Miss {
                    Outcome::Miss
                } else {
                    Outcome::Extended
                }
            }
            _ => outcome,
        };
        cache.count_series(outcome);
        // The days after the settled one: computed on every read, never kept.
        points.extend(advance(&mut run, today)?);
        out.push(points);
    }
    Ok(out)
}

/// Each part's ledger built for `mode` (its `_base` amounts in the mode's totals
/// currency), from the cache when current. A ledger in its base currency reads no
/// rates; one in another reads the FX rates of its trade dates, loaded only when one
/// must be built.
pub(crate) async fn ledgers_in(
    state: &PortfolioState,
    parts: &[Part],
    mode: CurrencyMode,
    fx: &mut LazyFx,
) -> Result<Vec<std::sync::Arc<Ledger>>, ApiError> {
    let cache = &state.derived;
    let currency_of = |part: &Part| mode.totals_currency(&part.settings.base_currency);
    let needs_rates = |part: &Part| part.settings.base_currency != currency_of(part);
    let fx_seen: Vec<SeenVersion> = if parts.iter().any(needs_rates) {
        let versions = state.market.price_versions(&[fx_key()]).await?;
        vec![(fx_key(), versions.first().map_or(0, |v| v.version))]
    } else {
        Vec::new()
    };
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        let currency = currency_of(part);
        let seen: &[SeenVersion] = if needs_rates(part) { &fx_seen } else { &[] };
        if let Some(ledger) = cache.ledger(part.id, &currency, part.revision, seen) {
            cache.count_ledger(Outcome::Hit);
            out.push(ledger);
            continue;
        }
        let txs = part.transactions();
        let ledger = if needs_rates(part) {
            Ledger::build_in(&part.settings, txs, &currency, fx.get(state).await?)
        } else {
            Ledger::build(&part.settings, txs)
        }
        .map_err(|issues| domain_error(issues.into()))?;
        let ledger = std::sync::Arc::new(ledger);
        cache.count_ledger(Outcome::Miss);
        cache.keep_ledger(
            part.id,
            &currency,
            LedgerEntry {
                revision: part.revision,
                versions: seen.to_vec(),
                ledger: ledger.clone(),
            },
        );
        out.push(ledger);
    }
    Ok(out)
}

/// The daily closes of `index` (a chart's benchmark) from `from` through `today`: see
/// [`closes_through`].
pub(crate) async fn index_closes(
    state: &PortfolioState,
    index: &moat_market::Instrument,
    from: NaiveDate,
    today: NaiveDate,
) -> Result<BTreeMap<NaiveDate, rust_decimal::Decimal>, ApiError> {
    let key = index.id.to_string();
    let stored = state
        .market
        .price_versions(std::slice::from_ref(&key))
        .await?;
    let stored = stored.first().map(|v| (v.version, v.last_date));
    closes_through(state, index, stored, from, today).await
}

/// The daily closes of `instrument` from `from` through `today` (and today's so far
/// while a session runs), its price series being `stored` (version and last stored
/// day; `None` when nothing is stored): those through the settled day from the cache
/// when the version is unchanged (carried on when the settled day moved), the last
/// days read afresh.
async fn closes_through(
    state: &PortfolioState,
    instrument: &moat_market::Instrument,
    stored: Option<(i64, NaiveDate)>,
    from: NaiveDate,
    today: NaiveDate,
) -> Result<BTreeMap<NaiveDate, rust_decimal::Decimal>, ApiError> {
    let cache = &state.derived;
    let key = instrument.id.to_string();
    let version = stored.map_or(0, |v| v.0);
    let through = match stored {
        Some((_, last)) => settled_through(today, [Some(last)]),
        None if state.market.is_simulated(instrument) => settled_through(today, []),
        None => None,
    };
    let candles = |from: NaiveDate, to: NaiveDate| async move {
        let read = state
            .market
            .daily_candles(instrument, from, to)
            .await
            .map_err(ApiError::internal)?;
        Ok::<_, ApiError>(read.into_iter().map(|c| (c.date, c.close)))
    };
    let Some(through) = through.filter(|t| *t >= from) else {
        return Ok(candles(from, today).await?.collect());
    };
    let kept = cache
        .closes(&key, version)
        .filter(|k| k.from <= from && k.through <= through);
    let (mut closes, held_from, outcome) = match kept {
        // Only the days asked for (a kept series carries on from its last days).
        Some(k) if k.through == through => (
            k.closes.range(from..).map(|(d, c)| (*d, *c)).collect(),
            k.from,
            Outcome::Hit,
        ),
        Some(k) => {
            let mut closes = BTreeMap::clone(&k.closes);
            closes.extend(
                candles(k.through + Duration::days(1), through)
                    .await?
                    .filter(|(d, _)| *d > k.through),
            );
            (closes, k.from, Outcome::Extended)
        }
        None => (candles(from, through).await?.collect(), from, Outcome::Miss),
    };
    cache.count_closes(outcome);
    if outcome != Outcome::Hit {
        cache.keep_closes(
            &key,
            ClosesEntry {
                version,
                from: held_from,
                through,
                closes: std::sync::Arc::new(closes.clone()),
            },
        );
    }
    if through < today {
        closes.extend(
            candles(through + Duration::days(1), today)
                .await?
                .filter(|(d, _)| *d > through),
        );
    }
    Ok(closes)
}

/// The FX history from `from`, loaded on first use.
pub(crate) struct LazyFx {
    from: Option<NaiveDate>,
    loaded: Option<FxHistory>,
}

impl LazyFx {
    /// The rates every trade date of `parts` needs.
    pub fn for_parts(parts: &[Part]) -> Self {
        Self {
            from: parts
                .iter()
                .flat_map(|p| p.transactions().iter().map(|t| t.trade_date))
                .min(),
            loaded: None,
        }
    }

    pub async fn get(&mut self, state: &PortfolioState) -> Result<&FxHistory, ApiError> {
        if self.loaded.is_none() {
            self.loaded = Some(match self.from {
                Some(d) => fx_history(state, d).await?,
                None => FxHistory::new(),
            });
        }
        Ok(self.loaded.as_ref().expect("loaded above"))
    }
}
