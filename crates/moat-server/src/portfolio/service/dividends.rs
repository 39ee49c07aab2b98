//! Dividends (docs/portfolio.md): an instrument's history and announced dividends, the
//! calendar of ex-dates and pay dates, and a member's dividends — received, owed by
//! holdings on ex-dates (offered for one-tap recording), the 12-month projection and
//! yields, after withholding by country.

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{Datelike, Duration, NaiveDate, Utc};
use moat_market::{Dividend, Instrument, InstrumentId, Kind};
use moat_portfolio::{
    dividends::{country_of, entitlements, project, trailing_per_share},
    money::round_money,
    CurrencyMode, Ledger, TxKind,
};
use rust_decimal::Decimal;

use super::{domain_error, fx_history, latest_fx, owned, settings_of, snapshot};
use crate::{
    http::error::{ApiError, ErrorCode, FieldError},
    market::service::parse_date,
    portfolio::dto::{
        CalendarDividend, DividendDraftDto, DividendDto, EntitlementDto, LedgerIssueDto,
        MyDividendsDto, ProjectionMonthDto, ReceivedDividendDto,
    },
    portfolio::PortfolioState,
};

/// Longest span one calendar request covers.
pub const CALENDAR_MAX_DAYS: i64 = 366;
/// Korean dividends are paid up to about four months after the ex-date (year-end
/// dividends in April): how far before a calendar window to look for pay dates in it.
pub const PAY_DATE_LOOKBACK_DAYS: i64 = 150;
/// How far back unrecorded entitlements are offered.
pub const ENTITLEMENT_LOOKBACK_DAYS: i64 = 365;
/// A recorded dividend matches an entitlement if its date falls from the ex-date to
/// this many days after the pay date.
pub const RECORDED_SLACK_DAYS: i64 = 31;

/// How far before the form's date a dividend's ex-date may be for the form to fill it
/// in (Korean year-end dividends are paid about four months after the ex-date).
pub const DIVIDEND_DRAFT_LOOKBACK_DAYS: i64 = 150;

fn range(
    params_from: Option<&str>,
    params_to: Option<&str>,
    default_from: NaiveDate,
    default_days: i64,
) -> Result<(NaiveDate, NaiveDate), ApiError> {
    let from = parse_date("from", params_from, default_from)?;
    let to = parse_date("to", params_to, from + Duration::days(default_days))?;
    if from > to {
        return Err(ApiError::invalid_parameter(
            "from",
            FieldError::new(ErrorCode::DatesReversed, "Must not be after `to`."),
        ));
    }
    if (to - from).num_days() > CALENDAR_MAX_DAYS * 2 {
        return Err(ApiError::invalid_parameter(
            "to",
            FieldError::new(ErrorCode::SpanTooLong, "At most two years per request.")
                .param("max_days", CALENDAR_MAX_DAYS * 2),
        ));
    }
    Ok((from, to))
}

/// The dividends of instrument `raw` with an ex-date from `from` (default a year ago)
/// to `to` (default two years after `from`): history and those announced or expected.
pub async fn instrument_dividends(
    state: &PortfolioState,
    raw: &str,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<Vec<DividendDto>, ApiError> {
    let inst = state.market.find(raw)?;
    let id = inst.id.clone();
    let today = Utc::now().date_naive();
    let (from, to) = range(from, to, today - Duration::days(365), 730)?;
    let list = state
        .market
        .dividends(&inst, from, to)
        .await
        .map_err(ApiError::internal)?;
    Ok(list.iter().map(|d| DividendDto::new(&id, d)).collect())
}

/// Dividends whose ex-date or pay date falls from `from` (default today) to `to`
/// (default 31 days later, at most 366), of `country` (`KR`, `US`, `all`), by ex-date.
pub async fn calendar(
    state: &PortfolioState,
    from: Option<&str>,
    to: Option<&str>,
    country: Option<&str>,
) -> Result<Vec<CalendarDividend>, ApiError> {
    let today = Utc::now().date_naive();
    let (from, to) = range(from, to, today, 31)?;
    if (to - from).num_days() > CALENDAR_MAX_DAYS {
        return Err(ApiError::invalid_parameter(
            "to",
            FieldError::new(ErrorCode::SpanTooLong, "At most 366 days per request.")
                .param("max_days", CALENDAR_MAX_DAYS),
        ));
    }
    let country = match country.map(str::trim) {
        None | Some("") | Some("all") | Some("ALL") => None,
        Some(c @ ("KR" | "US")) => Some(c.to_owned()),
        Some(_) => {
            return Err(ApiError::invalid_parameter(
                "country",
                FieldError::new(ErrorCode::Invalid, "KR, US or all."),
            ))
        }
    };
    let catalog = state.market.catalog();
    let payers: Vec<&std::sync::Arc<Instrument>> = catalog
        .by_id
        .values()
        .filter(|i| matches!(i.kind, Kind::Stock | Kind::Etf))
        .filter(|i| country.as_deref().is_none_or(|c| i.country == c))
        .collect();
    let mut out = Vec::new();
    let in_window = |d: &Dividend| {
        (d.ex_date >= from && d.ex_date <= to) || d.pay_date.is_some_and(|p| p >= from && p <= to)
    };
    let mut seen = HashSet::new();
    for inst in &payers {
        if !state.market.is_simulated(inst) {
            continue;
        }
        let list = state
            .market
            .dividends(inst, from - Duration::days(PAY_DATE_LOOKBACK_DAYS), to)
            .await
            .map_err(ApiError::internal)?;
        for d in list.iter().filter(|d| in_window(d)) {
            seen.insert((inst.id.clone(), d.ex_date));
            out.push(calendar_entry(inst, d));
        }
    }
    // Real providers' dividends, as stored.
    let stored = state
        .market
        .reported_dividends(from, to, country.as_deref())
        .await?;
    for (id, d) in stored {
        if let Some(inst) = catalog.by_id.get(&id) {
            if !state.market.is_simulated(inst) && seen.insert((id.clone(), d.ex_date)) {
                out.push(calendar_entry(inst, &d));
            }
        }
    }
    out.sort_by(|a, b| {
        (&a.dividend.ex_date, &a.dividend.instrument_id)
            .cmp(&(&b.dividend.ex_date, &b.dividend.instrument_id))
    });
    Ok(out)
}

fn calendar_entry(inst: &Instrument, d: &Dividend) -> CalendarDividend {
    CalendarDividend {
        dividend: DividendDto::new(&inst.id, d),
        name_ko: inst.name_ko.clone(),
        name_en: inst.name_en.clone(),
        ticker: inst.ticker().to_owned(),
    }
}

/// The member's dividends in `currency` (`KRW`, the default, or `USD`): received,
/// entitled (not yet recorded), the 12-month projection by month, trailing yield and
/// yield on cost — after withholding.
pub async fn my_dividends(
    state: &PortfolioState,
    user_id: i64,
    currency: Option<&str>,
) -> Result<MyDividendsDto, ApiError> {
    let currency = match currency.map(str::trim) {
        None | Some("") => "KRW".to_owned(),
        Some(c) if c.eq_ignore_ascii_case("KRW") || c.eq_ignore_ascii_case("USD") => {
            c.to_ascii_uppercase()
        }
        Some(_) => {
            return Err(ApiError::invalid_parameter(
                "currency",
                FieldError::new(ErrorCode::InvalidCurrencyMode, "KRW or USD."),
            ))
        }
    };
    let mode = CurrencyMode::parse(&currency).unwrap_or(CurrencyMode::Krw);
    let today = Utc::now().date_naive();
    let rates = state.config.portfolio.withholding();
    let fx = latest_fx(state).await;
    let portfolios = state.storage.list_portfolios(user_id).await?;

    let mut received = Vec::new();
    let mut owed = Vec::new();
    let mut months: BTreeMap<NaiveDate, (Decimal, Decimal)> = BTreeMap::new();
    let mut income = Decimal::ZERO;
    let mut value = Decimal::ZERO;
    let mut cost = Decimal::ZERO;
    let names = |id: &InstrumentId| state.market.instrument(id);
    let ledgers = state
        .ledgers
        .ledgers_of(state, user_id, &portfolios)
        .await?;
    let mut issues = Vec::new();
    for (p, ledger_state) in portfolios.iter().zip(&ledgers) {
        let settings = settings_of(p);
        issues.extend(LedgerIssueDto::of(p.id, ledger_state));
        // A ledger that cannot be applied whole counts up to its broken transaction.
        let txs = ledger_state.usable();
        if txs.is_empty() {
            continue;
        }
        for t in txs.iter().filter(|t| t.kind == TxKind::Dividend) {
            let Some(id) = &t.instrument else { continue };
            let inst = names(id);
            let gross = t.quantity * t.price;
            received.push(ReceivedDividendDto {
                portfolio_id: p.id,
                transaction_id: t.id,
                instrument_id: id.to_string(),
                name_ko: inst.as_ref().map(|i| i.name_ko.clone()).unwrap_or_default(),
                name_en: inst.as_ref().map(|i| i.name_en.clone()).unwrap_or_default(),
                ticker: inst
                    .as_ref()
                    .map(|i| i.ticker().to_owned())
                    .unwrap_or_default(),
                date: t.trade_date.to_string(),
                quantity: t.quantity.normalize().to_string(),
                per_share: t.price.normalize().to_string(),
                currency: t.currency.clone(),
                gross: round_money(gross, &t.currency).to_string(),
                tax: round_money(t.tax, &t.currency).to_string(),
                net: round_money(gross - t.tax, &t.currency).to_string(),
            });
        }
        let ledger = Ledger::build(&settings, txs)
            .map_err(|issues| domain_error(moat_portfolio::PortfolioError::Invalid(issues)))?;
        let first = txs.iter().map(|t| t.trade_date).min().unwrap_or(today);
        let mut history: HashMap<InstrumentId, Vec<Dividend>> = HashMap::new();
        for id in ledger.holdings.keys() {
            if let Some(inst) = names(id) {
                let list = state
                    .market
                    .dividends(
                        &inst,
                        first - Duration::days(1),
                        today + Duration::days(400),
                    )
                    .await
                    .map_err(ApiError::internal)?;
                history.insert(id.clone(), list);
            }
        }
        // Entitlements of the last year whose ex-date has passed, not yet recorded. A
        // recorded dividend answers one entitlement: first one whose pay date (or
        // ex-date) is its date, else the earliest whose window holds it.
        let recorded: Vec<(&InstrumentId, NaiveDate)> = txs
            .iter()
            .filter(|t| t.kind == TxKind::Dividend)
            .filter_map(|t| t.instrument.as_ref().map(|i| (i, t.trade_date)))
            .collect();
        let fx_hist = fx_history(state, first).await?;
        let due: Vec<_> = entitlements(&ledger, &history, &rates)
            .into_iter()
            .filter(|e| {
                e.ex_date <= today && e.ex_date >= today - Duration::days(ENTITLEMENT_LOOKBACK_DAYS)
            })
            .collect();
        let mut used = vec![false; recorded.len()];
        let mut answered = vec![false; due.len()];
        for exact in [true, false] {
            for (k, e) in due.iter().enumerate() {
                if answered[k] {
                    continue;
                }
                let last = e.pay_date.unwrap_or(e.ex_date) + Duration::days(RECORDED_SLACK_DAYS);
                let hit = recorded.iter().enumerate().position(|(j, (i, d))| {
                    !used[j]
                        && **i == e.instrument
                        && if exact {
                            *d == e.ex_date || Some(*d) == e.pay_date
                        } else {
                            *d >= e.ex_date && *d <= last
                        }
                });
                if let Some(j) = hit {
                    used[j] = true;
                    answered[k] = true;
                }
            }
        }
        for (e, _) in due.iter().zip(&answered).filter(|(_, a)| !**a) {
            let inst = names(&e.instrument);
            let fx_rate = (e.currency != settings.base_currency)
                .then(|| {
                    fx_hist.rate_on(
                        e.pay_date.unwrap_or(e.ex_date).min(today),
                        &e.currency,
                        &settings.base_currency,
                    )
                })
                .flatten();
            owed.push(EntitlementDto {
                portfolio_id: p.id,
                portfolio_name: p.name.clone(),
                instrument_id: e.instrument.to_string(),
                name_ko: inst.as_ref().map(|i| i.name_ko.clone()).unwrap_or_default(),
                name_en: inst.as_ref().map(|i| i.name_en.clone()).unwrap_or_default(),
                ticker: inst
                    .as_ref()
                    .map(|i| i.ticker().to_owned())
                    .unwrap_or_default(),
                ex_date: e.ex_date.to_string(),
                pay_date: e.pay_date.map(|d| d.to_string()),
                quantity: e.quantity.normalize().to_string(),
                per_share: e.per_share.normalize().to_string(),
                currency: e.currency.clone(),
                gross: round_money(e.gross, &e.currency).to_string(),
                tax: round_money(e.withholding, &e.currency).to_string(),
                net: round_money(e.net, &e.currency).to_string(),
                fx_rate: fx_rate.map(|r| r.normalize().to_string()),
            });
        }
        for m in project(&ledger, &history, &rates, today, &currency, &fx).map_err(domain_error)? {
            let e = months.entry(m.month).or_default();
            e.0 += m.gross;
            e.1 += m.net;
        }
        // Yields: a year of dividends at today's holdings over value and cost.
        let snap = snapshot(state, &ledger.holdings.keys().cloned().collect()).await;
        let valued = moat_portfolio::value_portfolio(&settings, txs, mode, &snap, &fx_hist)
            .map_err(domain_error)?;
        for h in &valued.holdings {
            let Some(list) = history.get(&h.instrument) else {
                continue;
            };
            let per_share = trailing_per_share(list, today);
            let currency_of = list.first().map(|d| d.currency.clone()).unwrap_or_default();
            if let Some(converted) = fx.convert(per_share * h.quantity, &currency_of, &currency) {
                income += converted;
            }
            value += h.market_value_total;
            cost += h.cost_basis;
        }
    }
    let percent = |part: Decimal, whole: Decimal| {
        (!whole.is_zero()).then(|| {
            (part * Decimal::ONE_HUNDRED / whole)
                .round_dp(2)
                .to_string()
        })
    };
    let month_of = |d: NaiveDate| format!("{:04}-{:02}", d.year(), d.month());
    let projection: Vec<ProjectionMonthDto> = if months.is_empty() {
        // Twelve months even without holdings.
        (0..12)
            .map(|k| ProjectionMonthDto {
                month: month_of(today.with_day(1).expect("day 1") + chrono::Months::new(k)),
                gross: "0".into(),
                net: "0".into(),
            })
            .collect()
    } else {
        months
            .into_iter()
            .map(|(month, (gross, net))| ProjectionMonthDto {
                month: month_of(month),
                gross: round_money(gross, &currency).to_string(),
                net: round_money(net, &currency).to_string(),
            })
            .collect()
    };
    Ok(MyDividendsDto {
        trailing_yield: percent(income, value),
        yield_on_cost: percent(income, cost),
        currency,
        received,
        entitlements: owed,
        projection,
        ledger_issues: issues,
    })
}

/// What the transaction form fills in for a dividend of `instrument` recorded on `date`
/// (default today) in the member's portfolio `portfolio_id`: the dividend whose pay date
/// or ex-date is `date`, else the last ex-date before it (within
/// [`DIVIDEND_DRAFT_LOOKBACK_DAYS`]); the shares held at the end of the day before its
/// ex-date; the withholding at the configured rate of the instrument's country.
pub async fn dividend_draft(
    state: &PortfolioState,
    user_id: i64,
    portfolio_id: i64,
    instrument: &str,
    date: Option<&str>,
) -> Result<DividendDraftDto, ApiError> {
    let row = owned(state, user_id, portfolio_id).await?;
    let inst = state.market.find(instrument)?;
    let today = Utc::now().date_naive();
    let date = parse_date("date", date, today)?;
    let country = country_of(&inst.id);
    let rate = state.config.portfolio.withholding().rate_for(country);
    let history = state
        .market
        .dividends(
            &inst,
            date - Duration::days(DIVIDEND_DRAFT_LOOKBACK_DAYS),
            date,
        )
        .await
        .map_err(ApiError::internal)?;
    let event = history
        .iter()
        .find(|d| d.pay_date == Some(date) || d.ex_date == date)
        .or_else(|| {
            history
                .iter()
                .filter(|d| d.ex_date <= date)
                .max_by_key(|d| d.ex_date)
        });
    // The ledger up to its first broken transaction, as every figure reads it.
    let ledger_state = state.ledgers.ledger(state, &row).await?;
    let ledger = Ledger::build(&settings_of(&row), ledger_state.usable())
        .map_err(|issues| domain_error(moat_portfolio::PortfolioError::Invalid(issues)))?;
    let held_on = |day: NaiveDate| {
        ledger
            .holdings
            .get(&inst.id)
            .map(|h| h.quantity_on(day))
            .unwrap_or(Decimal::ZERO)
            .max(Decimal::ZERO)
    };
    let quantity = match event {
        Some(d) => held_on(d.ex_date.pred_opt().unwrap_or(d.ex_date)),
        None => held_on(date),
    };
    let currency = event
        .map(|d| d.currency.clone())
        .unwrap_or_else(|| inst.currency.clone());
    Ok(DividendDraftDto {
        instrument_id: inst.id.to_string(),
        country: country.to_owned(),
        withholding_rate: rate.normalize().to_string(),
        ex_date: event.map(|d| d.ex_date.to_string()),
        pay_date: event.and_then(|d| d.pay_date).map(|d| d.to_string()),
        per_share: event.map(|d| d.amount.normalize().to_string()),
        quantity: quantity.normalize().to_string(),
        tax: event.map(|d| round_money(quantity * d.amount * rate, &currency).to_string()),
        currency,
    })
}
