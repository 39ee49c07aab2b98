//! Valuation, performance and allocation of a portfolio or the meta portfolio (all of
//! a member's, summed in one currency).

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    hash::{Hash, Hasher},
    sync::Arc,
};

use chrono::{NaiveDate, Utc};
use moat_market::InstrumentId;
use moat_portfolio::{
    allocation::InstrumentMeta, combine, money::round_money, performance::PeriodReturn,
    value_ledger, AllocationBy, CurrencyMode, DailyPoint, Ledger, MarketSnapshot,
    PortfolioSettings, Transaction, Valuation,
};
use moat_storage::PortfolioRow;
use rust_decimal::Decimal;

use super::{
    catalogue, daily_series, domain_error, index_closes, ledgers_in, owned, parse_mode,
    parse_portfolio_id, settings_of, snapshot, LazyFx, META,
};
use crate::{
    http::{
        encoding::KeptJson,
        error::{ApiError, ErrorCode, FieldError},
    },
    market::dto::rfc3339,
    portfolio::PortfolioState,
    portfolio::{
        cache::LedgerState,
        derived::{ReplyEntry, ReplyKey},
        dto::{
            AllocationSliceDto, ChartPointDto, ExplanationDto, HoldingDto, InstrumentNames,
            LedgerIssueDto, PerformanceDto, PeriodReturnDto, ValuationDto,
        },
    },
};

/// One portfolio behind a read: its id, settings and ledger.
pub(crate) struct Part {
    pub id: i64,
    /// The ledger's revision (what derived results kept between reads are keyed by).
    pub revision: i64,
    pub settings: PortfolioSettings,
    pub ledger: Arc<LedgerState>,
}

impl Part {
    /// The transactions that apply (all but those from one that cannot, on).
    pub fn transactions(&self) -> &[Transaction] {
        self.ledger.usable()
    }
}

/// The transactions the parts' figures stop before.
pub(crate) fn ledger_issues(parts: &[Part]) -> Vec<LedgerIssueDto> {
    parts
        .iter()
        .filter_map(|p| LedgerIssueDto::of(p.id, &p.ledger))
        .collect()
}

/// The portfolios behind `raw` (a portfolio id, or `meta`: all of the member's).
pub(crate) async fn scope(
    state: &PortfolioState,
    user_id: i64,
    raw: &str,
) -> Result<Vec<Part>, ApiError> {
    let rows = if raw == META {
        state.storage.list_portfolios(user_id).await?
    } else {
        vec![owned(state, user_id, parse_portfolio_id(raw)?).await?]
    };
    let ledgers = state.ledgers.ledgers_of(state, user_id, &rows).await?;
    Ok(parts_of(&rows, ledgers))
}

/// The portfolios `rows` with their ledgers (in the same order) as parts.
pub(crate) fn parts_of(rows: &[PortfolioRow], ledgers: Vec<Arc<LedgerState>>) -> Vec<Part> {
    rows.iter()
        .zip(ledgers)
        .map(|(row, ledger)| Part {
            id: row.id,
            revision: row.revision,
            settings: settings_of(row),
            ledger,
        })
        .collect()
}

/// Every instrument the parts' transactions name.
pub(crate) fn instruments_of(parts: &[Part]) -> HashSet<InstrumentId> {
    parts
        .iter()
        .flat_map(|p| p.transactions())
        .filter_map(|t| t.instrument.clone())
        .collect()
}

/// The meta portfolio's mode: it is in one currency, KRW unless USD is asked for.
pub(crate) fn meta_mode(mode: CurrencyMode) -> CurrencyMode {
    if mode == CurrencyMode::Original {
        CurrencyMode::Krw
    } else {
        mode
    }
}

/// The meta portfolio valued in `mode` (see [`meta_mode`]) from its parts' `values`;
/// a member without portfolios holds nothing.
pub(crate) fn meta_valuation(
    values: &[Valuation],
    mode: CurrencyMode,
    snap: &MarketSnapshot,
) -> Result<Valuation, ApiError> {
    if values.is_empty() {
        let settings = PortfolioSettings {
            base_currency: mode.totals_currency("KRW"),
            ..Default::default()
        };
        let empty = Ledger::empty(&settings, &settings.base_currency);
        return value_ledger(&empty, mode, snap).map_err(domain_error);
    }
    combine(values).map_err(domain_error)
}

/// The parts valued now in `mode`; the meta portfolio combined (KRW unless USD).
async fn valuation_of(
    state: &PortfolioState,
    parts: &[Part],
    mode: CurrencyMode,
    meta: bool,
) -> Result<Valuation, ApiError> {
    let snap = snapshot(state, &instruments_of(parts)).await;
    let mode = if meta { meta_mode(mode) } else { mode };
    let mut fx = LazyFx::for_parts(parts);
    let mut values = Vec::new();
    for ledger in ledgers_in(state, parts, mode, &mut fx).await? {
        values.push(value_ledger(&ledger, mode, &snap).map_err(domain_error)?);
    }
    if meta {
        meta_valuation(&values, mode, &snap)
    } else {
        Ok(values.remove(0))
    }
}

/// The member's portfolio `raw` (or `meta`) valued now, rounded, each holding with its
/// instrument's names.
pub async fn valuation(
    state: &PortfolioState,
    user_id: i64,
    raw: &str,
    mode: CurrencyMode,
) -> Result<ValuationDto, ApiError> {
    let parts = scope(state, user_id, raw).await?;
    let valuation = valuation_of(state, &parts, mode, raw == META)
        .await?
        .rounded();
    let holdings = valuation
        .holdings
        .into_iter()
        .map(|h| {
            let names = state
                .market
                .instrument(&h.instrument)
                .map(|inst| InstrumentNames {
                    name_ko: inst.name_ko.clone(),
                    name_en: inst.name_en.clone(),
                    ticker: inst.ticker().to_owned(),
                    kind: inst.kind.as_str().to_owned(),
                    sector: inst.sector.clone(),
                });
            HoldingDto::new(h, names)
        })
        .collect();
    Ok(ValuationDto {
        mode: valuation.mode.as_str().to_owned(),
        holdings,
        cash: valuation.cash.into_iter().map(Into::into).collect(),
        totals: valuation.totals.into(),
        as_of: rfc3339(Utc::now()),
        ledger_issues: ledger_issues(&parts),
    })
}

/// Daily values of the member's portfolio `raw` (or `meta`: the sum of its parts' day
/// by day) with the cumulative time-weighted return beside a benchmark index's, and
/// the returns of each period. The currency is the portfolio's base one in `original`
/// mode (KRW for the meta portfolio); the benchmark defaults to the currency's index.
/// As a [`PerformanceDto`] in JSON, kept between reads while what it is made from is
/// the same (portfolio::derived, "Finished replies").
pub async fn performance(
    state: &PortfolioState,
    user_id: i64,
    raw: &str,
    mode: CurrencyMode,
    benchmark: Option<&str>,
) -> Result<Arc<KeptJson>, ApiError> {
    let parts = scope(state, user_id, raw).await?;
    let meta = raw == META;
    let currency = match (mode, parts.first()) {
        (CurrencyMode::Original, Some(part)) if !meta => part.settings.base_currency.clone(),
        (CurrencyMode::Usd, _) => "USD".to_owned(),
        _ => "KRW".to_owned(),
    };
    let benchmark_id: InstrumentId = benchmark
        .unwrap_or(if currency == "USD" {
            "INDEX:SPX"
        } else {
            "INDEX:KOSPI"
        })
        .parse()
        .map_err(|_| {
            ApiError::invalid_parameter(
                "benchmark",
                FieldError::new(ErrorCode::InvalidId, "INDEX:KOSPI or INDEX:SPX."),
            )
        })?;
    let benchmark = state
        .market
        .instrument(&benchmark_id)
        .filter(|i| i.kind == moat_market::Kind::Index)
        .ok_or_else(|| {
            ApiError::invalid_parameter(
                "benchmark",
                FieldError::new(
                    ErrorCode::UnknownInstrument,
                    "An index such as INDEX:KOSPI.",
                )
                .param("value", &benchmark_id),
            )
        })?;
    let mut out = PerformanceDto {
        currency,
        benchmark: benchmark_id.to_string(),
        points: Vec::new(),
        periods: Vec::new(),
        ledger_issues: ledger_issues(&parts),
    };
    let currency = out.currency.as_str();
    let Some(first) = parts
        .iter()
        .flat_map(|p| p.transactions().iter().map(|t| t.trade_date))
        .min()
    else {
        return reply_json(&out);
    };
    let today = state.clock.now_utc().date_naive();
    // The meta portfolio's series is the sum of its parts' (each kept between reads),
    // day by day.
    let points: Vec<DailyPoint> = match daily_series(state, &parts, currency, today).await? {
        mut one if one.len() == 1 => one.remove(0),
        several => {
            let mut series: BTreeMap<NaiveDate, (Decimal, Decimal)> = BTreeMap::new();
            for p in several.iter().flatten() {
                let e = series.entry(p.date).or_default();
                e.0 += p.value;
                e.1 += p.flow;
            }
            series
                .into_iter()
                .map(|(date, (value, flow))| DailyPoint { date, value, flow })
                .collect()
        }
    };
    // From ten days before the first day, so that the base day has a close after a
    // long holiday.
    let bench = index_closes(state, &benchmark, first - chrono::Duration::days(10), today).await?;
    // The reply made from the same day, ledgers, series and closes, when one is kept.
    let key = ReplyKey {
        user: user_id,
        // Canonical (`007` is portfolio 7), so that spellings of one id share an entry.
        scope: match parts.as_slice() {
            [one] if !meta => one.id.to_string(),
            _ => META.to_owned(),
        },
        currency: out.currency.clone(),
        benchmark: out.benchmark.clone(),
    };
    let fingerprint = {
        let mut f = state.derived.fingerprinter();
        today.hash(&mut f);
        for part in &parts {
            (part.id, part.revision).hash(&mut f);
        }
        f.write_usize(points.len());
        for p in &points {
            p.date.hash(&mut f);
            f.decimal(&p.value);
            f.decimal(&p.flow);
        }
        f.write_usize(bench.len());
        for (date, close) in &bench {
            date.hash(&mut f);
            f.decimal(close);
        }
        f.finish128()
    };
    if let Some(kept) = state.derived.reply(&key, fingerprint) {
        return Ok(kept);
    }
    out.periods = moat_portfolio::performance(&points, today)
        .iter()
        .map(|r| period_of(r, currency))
        .collect();
    out.points = chart_points(&points, &bench, currency);
    let reply = reply_json(&out)?;
    state.derived.keep_reply(
        key,
        ReplyEntry {
            fingerprint,
            reply: reply.clone(),
        },
    );
    Ok(reply)
}

/// `dto` as a reply to keep.
fn reply_json(dto: &impl serde::Serialize) -> Result<Arc<KeptJson>, ApiError> {
    let json = serde_json::to_vec(dto).map_err(ApiError::internal)?;
    Ok(Arc::new(KeptJson::new(json.into())))
}

/// A fraction in per cent, as the contract sends it (4 decimals).
fn pct(d: Decimal) -> String {
    (d * Decimal::ONE_HUNDRED).round_dp(4).to_string()
}

/// The chart's points: from the day before money first came in (the base, at 0 %) to
/// the end, each with the time-weighted return since the base and the benchmark's
/// change since its close on the base day (the latest close on or before it), both in
/// per cent. Both are measured from the start of the first day with money, so a first
/// buy above its close shows as that day's loss, as does the index's first move.
fn chart_points(
    points: &[DailyPoint],
    bench: &BTreeMap<NaiveDate, Decimal>,
    currency: &str,
) -> Vec<ChartPointDto> {
    let Some(first_money) = points
        .iter()
        .position(|p| !p.value.is_zero() || !p.flow.is_zero())
    else {
        return Vec::new();
    };
    let base = first_money.saturating_sub(1);
    let close_on = |date: NaiveDate| bench.range(..=date).next_back().map(|(_, c)| *c);
    let bench_base = close_on(points[base].date).filter(|c| !c.is_zero());
    let mut growth = Decimal::ONE;
    points[base..]
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i > 0 {
                growth *= Decimal::ONE
                    + moat_portfolio::performance::day_return(points[base + i - 1].value, p);
            }
            let benchmark_return = bench_base
                .zip(close_on(p.date))
                .map(|(b0, c)| pct(c / b0 - Decimal::ONE));
            ChartPointDto {
                date: p.date.to_string(),
                value: round_money(p.value, currency).to_string(),
                flow: round_money(p.flow, currency).to_string(),
                cumulative_return: pct(growth - Decimal::ONE),
                benchmark_return,
            }
        })
        .collect()
}

/// A period's returns as the contract sends them: per cent, the money-weighted return
/// over the period itself (like the time-weighted one, not annualised) beside the
/// annual XIRR, the explanation's shares and returns in per cent.
fn period_of(r: &PeriodReturn, currency: &str) -> PeriodReturnDto {
    let e = &r.explanation;
    PeriodReturnDto {
        period: r.period,
        start: r.start.to_string(),
        end: r.end.to_string(),
        twr: pct(r.time_weighted),
        mwr: r.money_weighted.map(pct),
        mwr_annual: r.money_weighted_annual.map(pct),
        simple: pct(r.simple),
        gain: round_money(r.gain, currency).to_string(),
        start_value: round_money(r.start_value, currency).to_string(),
        end_value: round_money(r.end_value, currency).to_string(),
        net_flows: round_money(r.net_flows, currency).to_string(),
        explanation: ExplanationDto {
            code: e.code,
            difference: e.difference.map(pct),
            flow_date: e.flow_date.map(|d| d.to_string()),
            flow_amount: e.flow_amount.map(|a| round_money(a, currency).to_string()),
            flow_share: e.flow_share.map(pct),
            return_after_flow: e.return_after_flow.map(pct),
        },
    }
}

/// How the member's portfolio `raw` (or `meta`) splits `by` holding, sector, country,
/// currency or asset class, largest first; `by` and `currency` are the query's, checked
/// in that order.
pub async fn allocation(
    state: &PortfolioState,
    user_id: i64,
    raw: &str,
    by: Option<&str>,
    currency: Option<&str>,
) -> Result<Vec<AllocationSliceDto>, ApiError> {
    let by: AllocationBy = serde_json::from_value(serde_json::Value::String(
        by.unwrap_or("holding").to_owned(),
    ))
    .map_err(|_| {
        ApiError::invalid_parameter(
            "by",
            FieldError::new(
                ErrorCode::Invalid,
                "holding, sector, country, currency or asset_class.",
            ),
        )
    })?;
    let mode = parse_mode(currency)?;
    let parts = scope(state, user_id, raw).await?;
    let valuation = valuation_of(state, &parts, mode, raw == META).await?;
    let ids = valuation
        .holdings
        .iter()
        .map(|h| h.instrument.clone())
        .collect();
    let meta: HashMap<InstrumentId, InstrumentMeta> = catalogue(state, &ids)
        .into_iter()
        .map(|(id, i)| (id, InstrumentMeta::from(&*i)))
        .collect();
    let currency = valuation.totals.currency.clone();
    Ok(moat_portfolio::allocation(&valuation, by, &meta)
        .into_iter()
        .map(|s| AllocationSliceDto {
            key: s.key,
            value: round_money(s.value, &currency).to_string(),
            weight_percent: s.weight_percent.to_string(),
        })
        .collect())
}
