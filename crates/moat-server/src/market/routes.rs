//! The market API (docs/market.md): instruments, search, quotes, candles, FX, the
//! home overview, favourites and the operator's provider view. Prices travel as
//! decimal strings.

use std::{collections::HashSet, sync::Arc};

use axum::extract::{Path, Query, State};
use chrono::{DateTime, Datelike, Duration, NaiveDate, SecondsFormat, Utc};
use moat_market::{calendar, Bar, DailyCandle, Instrument, InstrumentId, Kind, Quote, QuoteState};
use moat_storage::MAX_FAVORITES;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{MarketService, MOVERS, OVERVIEW_FX, OVERVIEW_INDICES};
use crate::{
    accounts::extract::{Member, Operator},
    http::{
        error::{ApiError, ErrorBody, ErrorCode, FieldError},
        json::ApiJson,
    },
    market::MarketState,
};

/// Default and largest number of search results.
pub const SEARCH_DEFAULT_LIMIT: usize = 20;
/// Longest span of FX rates one request returns.
pub const FX_MAX_DAYS: i64 = 5 * 366;
/// Default span of FX rates.
pub const FX_DEFAULT_DAYS: i64 = 30;

fn market(state: &MarketState) -> &Arc<MarketService> {
    &state.service
}

pub(crate) fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// An instrument.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct InstrumentDto {
    /// `EXCHANGE:SYMBOL`, e.g. `KRX:005930`.
    pub id: String,
    pub ticker: String,
    /// `KRX`, `NYSE`, `NASDAQ`, `INDEX`, `FX` or `CRYPTO`.
    pub exchange: String,
    /// `KOSPI` or `KOSDAQ` for Korean listings.
    pub board: Option<String>,
    /// `stock`, `etf`, `index`, `currency` or `crypto`.
    pub kind: String,
    pub currency: String,
    pub country: String,
    pub name_ko: String,
    pub name_en: String,
    pub sector: String,
    pub shares_outstanding: Option<i64>,
    /// Prices come from the simulator (the UI labels them).
    pub simulated: bool,
}

impl InstrumentDto {
    fn new(i: &Instrument, simulated: bool) -> Self {
        Self {
            id: i.id.to_string(),
            ticker: i.ticker().to_owned(),
            exchange: i.id.exchange().as_str().to_owned(),
            board: i.board.map(|b| b.as_str().to_owned()),
            kind: i.kind.as_str().to_owned(),
            currency: i.currency.clone(),
            country: i.country.clone(),
            name_ko: i.name_ko.clone(),
            name_en: i.name_en.clone(),
            sector: i.sector.clone(),
            shares_outstanding: i.shares_outstanding,
            simulated,
        }
    }
}

/// The latest price of an instrument.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct QuoteDto {
    pub instrument_id: String,
    /// Decimal string.
    pub price: String,
    pub previous_close: String,
    /// `price - previous_close`.
    pub change: String,
    /// Per cent of the previous close, two decimals.
    pub change_percent: String,
    pub open: String,
    pub high: String,
    pub low: String,
    pub volume: i64,
    /// RFC 3339.
    pub as_of: String,
    /// `live`, `delayed`, `stale` (the source failed; last good value) or `closed`.
    pub state: String,
    pub source: String,
    pub simulated: bool,
}

impl From<&Quote> for QuoteDto {
    fn from(q: &Quote) -> Self {
        Self {
            instrument_id: q.instrument_id.to_string(),
            price: q.price.to_string(),
            previous_close: q.previous_close.to_string(),
            change: q.change().to_string(),
            change_percent: {
                // Always two decimals ("0.00", "1.00"), not "0" or "1".
                let mut percent = q.change_percent().round_dp(2);
                percent.rescale(2);
                percent.to_string()
            },
            open: q.open.to_string(),
            high: q.high.to_string(),
            low: q.low.to_string(),
            volume: q.volume,
            as_of: rfc3339(q.as_of),
            state: match q.state {
                QuoteState::Live => "live",
                QuoteState::Delayed => "delayed",
                QuoteState::Stale => "stale",
                QuoteState::Closed => "closed",
            }
            .to_owned(),
            source: q.source.clone(),
            simulated: q.simulated,
        }
    }
}

/// Key figures of the stock page (decimal strings; null when unknown).
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
pub struct StatsDto {
    pub previous_close: Option<String>,
    pub open: Option<String>,
    pub day_high: Option<String>,
    pub day_low: Option<String>,
    pub week52_high: Option<String>,
    pub week52_low: Option<String>,
    pub volume: Option<i64>,
    /// Price × shares outstanding, in the instrument's currency.
    pub market_cap: Option<String>,
    /// Trailing twelve months of dividends over the price, per cent (once dividends exist).
    pub dividend_yield: Option<String>,
}

/// An instrument with its quote and key figures.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct InstrumentDetail {
    #[serde(flatten)]
    pub instrument: InstrumentDto,
    pub quote: Option<QuoteDto>,
    pub stats: StatsDto,
}

fn parse_id(raw: &str) -> Result<InstrumentId, ApiError> {
    raw.parse().map_err(|e: moat_market::ParseIdError| {
        ApiError::invalid_parameter("id", FieldError::new(ErrorCode::InvalidId, e.to_string()))
    })
}

pub(crate) fn find(service: &MarketService, raw: &str) -> Result<Arc<Instrument>, ApiError> {
    let id = parse_id(raw)?;
    service
        .instrument(&id)
        .ok_or_else(|| ApiError::not_found(format!("There is no instrument {id}.")))
}

#[derive(Deserialize, IntoParams)]
pub struct SearchParams {
    /// Ticker, name (Korean or English), Korean initial consonants or alias.
    #[serde(default)]
    pub q: String,
    /// 1 to 50 (default 20).
    #[param(value_type = Option<u32>)]
    pub limit: Option<String>,
}

/// Ranked instrument search.
#[utoipa::path(get, path = "/api/instruments/search", tag = "market", params(SearchParams), responses(
    (status = 200, body = [InstrumentDto]),
    (status = 400, description = "`invalid_parameter`: `q` over 64 characters or `limit` not a whole number from 1 to 50", body = ErrorBody),
))]
pub async fn search(
    State(state): State<MarketState>,
    Query(params): Query<SearchParams>,
) -> Result<ApiJson<Vec<InstrumentDto>>, ApiError> {
    use moat_market::search::{MAX_LIMIT, MAX_QUERY_CHARS};
    if params.q.chars().count() > MAX_QUERY_CHARS {
        return Err(ApiError::invalid_parameter(
            "q",
            FieldError::new(
                ErrorCode::TooLong,
                format!("At most {MAX_QUERY_CHARS} characters."),
            )
            .param("max", MAX_QUERY_CHARS),
        ));
    }
    let limit = match params.limit.as_deref() {
        None | Some("") => SEARCH_DEFAULT_LIMIT,
        Some(raw) => raw.parse::<usize>().unwrap_or(0),
    };
    if limit == 0 || limit > MAX_LIMIT {
        return Err(ApiError::invalid_parameter(
            "limit",
            FieldError::new(ErrorCode::OutOfRange, format!("From 1 to {MAX_LIMIT}."))
                .param("min", 1)
                .param("max", MAX_LIMIT),
        ));
    }
    let service = market(&state);
    let hits = service.catalog().index.search(&params.q, limit);
    Ok(ApiJson(
        hits.iter()
            .map(|i| InstrumentDto::new(i, service.is_simulated(i)))
            .collect(),
    ))
}

/// One instrument with its quote and key figures.
#[utoipa::path(get, path = "/api/instruments/{id}", tag = "market", params(("id" = String, Path, description = "e.g. `KRX:005930`")), responses(
    (status = 200, body = InstrumentDetail),
    (status = 404, body = ErrorBody),
    (status = 400, description = "`invalid_parameter`: malformed id", body = ErrorBody),
))]
pub async fn get_instrument(
    State(state): State<MarketState>,
    Path(raw): Path<String>,
) -> Result<ApiJson<InstrumentDetail>, ApiError> {
    let inst = find(&state.service, &raw)?;
    let service = market(&state);
    let quote = service.quote(&inst).await;
    let today = Utc::now().date_naive();
    let year = service
        .daily_candles(&inst, today - Duration::days(365), today)
        .await
        .map_err(ApiError::internal)?;
    let stats = StatsDto {
        previous_close: quote.as_ref().map(|q| q.previous_close.to_string()),
        open: quote.as_ref().map(|q| q.open.to_string()),
        day_high: quote.as_ref().map(|q| q.high.to_string()),
        day_low: quote.as_ref().map(|q| q.low.to_string()),
        week52_high: year.iter().map(|c| c.high).max().map(|d| d.to_string()),
        week52_low: year.iter().map(|c| c.low).min().map(|d| d.to_string()),
        volume: quote.as_ref().map(|q| q.volume),
        market_cap: match (&quote, inst.shares_outstanding, inst.kind) {
            (Some(q), Some(shares), Kind::Stock) => {
                Some((q.price * Decimal::from(shares)).round().to_string())
            }
            _ => None,
        },
        // Trailing twelve months' dividends over the price, in per cent.
        dividend_yield: match &quote {
            Some(q) if matches!(inst.kind, Kind::Stock | Kind::Etf) && !q.price.is_zero() => {
                let paid = service
                    .dividends(&inst, today - Duration::days(365), today)
                    .await
                    .map_err(ApiError::internal)?;
                let per_share: Decimal = paid.iter().map(|d| d.amount).sum();
                Some(
                    (per_share * Decimal::ONE_HUNDRED / q.price)
                        .round_dp(2)
                        .to_string(),
                )
            }
            _ => None,
        },
    };
    Ok(ApiJson(InstrumentDetail {
        instrument: InstrumentDto::new(&inst, service.is_simulated(&inst)),
        quote: quote.as_ref().map(QuoteDto::from),
        stats,
    }))
}

/// The latest quote.
#[utoipa::path(get, path = "/api/instruments/{id}/quote", tag = "market", params(("id" = String, Path)), responses(
    (status = 200, body = QuoteDto),
    (status = 404, body = ErrorBody),
    (status = 503, description = "`quote_unavailable`: the source has given no price yet", body = ErrorBody),
))]
pub async fn get_quote(
    State(state): State<MarketState>,
    Path(raw): Path<String>,
) -> Result<ApiJson<QuoteDto>, ApiError> {
    let inst = find(&state.service, &raw)?;
    let quote = market(&state).quote(&inst).await.ok_or_else(|| {
        ApiError::new(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::QuoteUnavailable,
            "No price is available for this instrument yet.",
        )
    })?;
    Ok(ApiJson(QuoteDto::from(&quote)))
}

/// A chart range.
#[derive(Deserialize, Serialize, ToSchema, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    #[serde(rename = "1D")]
    OneDay,
    #[serde(rename = "1W")]
    OneWeek,
    #[serde(rename = "1M")]
    OneMonth,
    #[serde(rename = "3M")]
    ThreeMonths,
    #[serde(rename = "1Y")]
    OneYear,
    #[serde(rename = "5Y")]
    FiveYears,
}

#[derive(Deserialize, IntoParams)]
pub struct CandleParams {
    /// `1D`, `1W`, `1M`, `3M`, `1Y` or `5Y` (default `1M`).
    pub range: Option<String>,
}

/// One candle: `t` is the start in Unix seconds (00:00 UTC of the date for daily and
/// weekly candles); prices are decimal strings.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct CandleDto {
    pub t: i64,
    pub o: String,
    pub h: String,
    pub l: String,
    pub c: String,
    pub v: i64,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct CandlesDto {
    pub instrument_id: String,
    pub range: Range,
    /// `5m`, `30m`, `1d` or `1w`.
    pub interval: String,
    pub candles: Vec<CandleDto>,
}

fn daily_dto(c: &DailyCandle) -> CandleDto {
    CandleDto {
        t: c.date
            .and_hms_opt(0, 0, 0)
            .map_or(0, |d| d.and_utc().timestamp()),
        o: c.open.to_string(),
        h: c.high.to_string(),
        l: c.low.to_string(),
        c: c.close.to_string(),
        v: c.volume,
    }
}

fn bar_dto(b: &Bar) -> CandleDto {
    CandleDto {
        t: b.start.timestamp(),
        o: b.open.to_string(),
        h: b.high.to_string(),
        l: b.low.to_string(),
        c: b.close.to_string(),
        v: b.volume,
    }
}

/// Merges consecutive candles that share a group key into one.
fn aggregate<K: PartialEq>(
    candles: Vec<CandleDto>,
    key: impl Fn(&CandleDto) -> K,
) -> Vec<CandleDto> {
    let mut out: Vec<(K, CandleDto)> = Vec::new();
    for c in candles {
        let k = key(&c);
        match out.last_mut() {
            Some((last_key, last)) if *last_key == k => {
                let (h, l) = (dec(&c.h).max(dec(&last.h)), dec(&c.l).min(dec(&last.l)));
                last.h = h.to_string();
                last.l = l.to_string();
                last.c = c.c;
                last.v += c.v;
            }
            _ => out.push((k, c)),
        }
    }
    out.into_iter().map(|(_, c)| c).collect()
}

fn dec(s: &str) -> Decimal {
    s.parse().unwrap_or_default()
}

/// Bars per 30-minute candle of the 1W range.
const WEEK_BAR_SECONDS: i64 = 30 * 60;
/// Sessions in the 1W range.
const WEEK_SESSIONS: usize = 5;

/// Candles for a chart range.
#[utoipa::path(get, path = "/api/instruments/{id}/candles", tag = "market", params(("id" = String, Path), CandleParams), responses(
    (status = 200, body = CandlesDto),
    (status = 404, body = ErrorBody),
    (status = 400, description = "`invalid_parameter`: unknown `range`", body = ErrorBody),
))]
pub async fn get_candles(
    State(state): State<MarketState>,
    Path(raw): Path<String>,
    Query(params): Query<CandleParams>,
) -> Result<ApiJson<CandlesDto>, ApiError> {
    let inst = find(&state.service, &raw)?;
    let range: Range = match params.range.as_deref() {
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
    let service = market(&state);
    let m = inst.market();
    let now = Utc::now();
    let today = calendar::local_date(m, now);
    let (interval, candles) = match range {
        Range::OneDay => {
            let date = calendar::latest_session_date(m, now);
            let bars = service
                .intraday_bars(&inst, date)
                .await
                .map_err(ApiError::internal)?;
            ("5m", bars.iter().map(bar_dto).collect())
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
                        .intraday_bars(&inst, date)
                        .await
                        .map_err(ApiError::internal)?,
                );
            }
            let dtos = bars.iter().map(bar_dto).collect();
            ("30m", aggregate(dtos, |c| c.t.div_euclid(WEEK_BAR_SECONDS)))
        }
        Range::OneMonth | Range::ThreeMonths | Range::OneYear | Range::FiveYears => {
            let from = match range {
                Range::OneMonth => today - Duration::days(31),
                Range::ThreeMonths => today - Duration::days(92),
                Range::OneYear => today - Duration::days(366),
                _ => today - Duration::days(5 * 366),
            };
            let daily = service
                .daily_candles(&inst, from, today)
                .await
                .map_err(ApiError::internal)?;
            let dtos: Vec<CandleDto> = daily.iter().map(daily_dto).collect();
            if range == Range::FiveYears {
                let week = |c: &CandleDto| {
                    DateTime::from_timestamp(c.t, 0).map(|t| t.date_naive().iso_week())
                };
                ("1w", aggregate(dtos, week))
            } else {
                ("1d", dtos)
            }
        }
    };
    Ok(ApiJson(CandlesDto {
        instrument_id: inst.id.to_string(),
        range,
        interval: interval.to_owned(),
        candles,
    }))
}

#[derive(Deserialize, IntoParams)]
pub struct FxParams {
    /// First date, `YYYY-MM-DD` (default 30 days ago).
    pub from: Option<String>,
    /// Last date (default today).
    pub to: Option<String>,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct FxRateDto {
    pub date: String,
    /// One unit of the base in the quote currency, decimal string.
    pub rate: String,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct FxDto {
    pub pair: String,
    pub rates: Vec<FxRateDto>,
}

pub(crate) fn parse_date(
    field: &str,
    raw: Option<&str>,
    default: NaiveDate,
) -> Result<NaiveDate, ApiError> {
    match raw {
        None | Some("") => Ok(default),
        Some(s) => NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|_| {
            ApiError::invalid_parameter(
                field,
                FieldError::new(ErrorCode::InvalidDate, "A date as YYYY-MM-DD."),
            )
        }),
    }
}

/// Daily FX rates of a pair (`USDKRW`: one USD in KRW).
#[utoipa::path(get, path = "/api/fx/{pair}", tag = "market", params(("pair" = String, Path, description = "e.g. `USDKRW`"), FxParams), responses(
    (status = 200, body = FxDto),
    (status = 404, description = "unknown pair", body = ErrorBody),
    (status = 400, description = "`invalid_parameter`: bad dates or a span over 5 years", body = ErrorBody),
))]
pub async fn get_fx(
    State(state): State<MarketState>,
    Path(pair): Path<String>,
    Query(params): Query<FxParams>,
) -> Result<ApiJson<FxDto>, ApiError> {
    let pair = pair.to_ascii_uppercase();
    let known = InstrumentId::new(moat_market::Exchange::Fx, &pair)
        .ok()
        .and_then(|id| market(&state).instrument(&id));
    if pair.len() != 6 || known.is_none() {
        return Err(ApiError::not_found(format!(
            "There are no rates for {pair}."
        )));
    }
    let today = Utc::now().date_naive();
    let to = parse_date("to", params.to.as_deref(), today)?;
    let from = parse_date(
        "from",
        params.from.as_deref(),
        to - Duration::days(FX_DEFAULT_DAYS),
    )?;
    if from > to {
        return Err(ApiError::invalid_parameter(
            "from",
            FieldError::new(ErrorCode::DatesReversed, "Must not be after `to`."),
        ));
    }
    if (to - from).num_days() > FX_MAX_DAYS {
        return Err(ApiError::invalid_parameter(
            "from",
            FieldError::new(ErrorCode::SpanTooLong, "At most 5 years per request.")
                .param("max_days", FX_MAX_DAYS),
        ));
    }
    let (base, quote) = pair.split_at(3);
    let rates = market(&state)
        .storage()
        .fx_rates(base, quote, from, to)
        .await?;
    Ok(ApiJson(FxDto {
        pair,
        rates: rates
            .into_iter()
            .map(|r| FxRateDto {
                date: r.date.to_string(),
                rate: r.rate.to_string(),
            })
            .collect(),
    }))
}

/// An instrument with its quote.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct Priced {
    pub instrument: InstrumentDto,
    pub quote: Option<QuoteDto>,
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct Movers {
    pub gainers: Vec<Priced>,
    pub losers: Vec<Priced>,
}

/// The home screen's market summary.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct Overview {
    pub indices: Vec<Priced>,
    pub fx: Vec<Priced>,
    pub movers: Movers,
}

async fn priced(service: &MarketService, inst: &Instrument) -> Priced {
    Priced {
        instrument: InstrumentDto::new(inst, service.is_simulated(inst)),
        quote: service.quote(inst).await.as_ref().map(QuoteDto::from),
    }
}

/// Indices, USD/KRW and the day's biggest movers among stocks.
#[utoipa::path(get, path = "/api/market/overview", tag = "market", responses((status = 200, body = Overview)))]
pub async fn overview(State(state): State<MarketState>) -> Result<ApiJson<Overview>, ApiError> {
    let service = market(&state);
    let mut indices = Vec::new();
    let mut fx = Vec::new();
    for (ids, out) in [
        (&OVERVIEW_INDICES[..], &mut indices),
        (&OVERVIEW_FX[..], &mut fx),
    ] {
        for id in ids {
            if let Some(inst) = id.parse().ok().and_then(|id| service.instrument(&id)) {
                out.push(priced(service, &inst).await);
            }
        }
    }
    let mut stocks = service.quotes_of_kind(Kind::Stock).await;
    stocks.sort_by(|(a, qa), (b, qb)| {
        qb.change_percent()
            .cmp(&qa.change_percent())
            .then(a.id.cmp(&b.id))
    });
    let to_priced = |(i, q): &(Arc<Instrument>, Quote)| Priced {
        instrument: InstrumentDto::new(i, service.is_simulated(i)),
        quote: Some(QuoteDto::from(q)),
    };
    let gainers = stocks
        .iter()
        .take(MOVERS)
        .filter(|(_, q)| q.change_percent() > Decimal::ZERO)
        .map(to_priced)
        .collect();
    let losers = stocks
        .iter()
        .rev()
        .take(MOVERS)
        .filter(|(_, q)| q.change_percent() < Decimal::ZERO)
        .map(to_priced)
        .collect();
    Ok(ApiJson(Overview {
        indices,
        fx,
        movers: Movers { gainers, losers },
    }))
}

/// The member's favourites, in their order.
#[utoipa::path(get, path = "/api/me/favorites", tag = "market", security(("bearer" = [])), responses(
    (status = 200, body = [InstrumentDto]),
    (status = 401, body = ErrorBody),
))]
pub async fn get_favorites(
    State(state): State<MarketState>,
    member: Member,
) -> Result<ApiJson<Vec<InstrumentDto>>, ApiError> {
    favorites_of(&state, member.user.id).await.map(ApiJson)
}

async fn favorites_of(state: &MarketState, user_id: i64) -> Result<Vec<InstrumentDto>, ApiError> {
    let service = market(state);
    let ids = service.storage().favorites(user_id).await?;
    Ok(ids
        .iter()
        .filter_map(|id| service.instrument(id))
        .map(|i| InstrumentDto::new(&i, service.is_simulated(&i)))
        .collect())
}

#[derive(Deserialize, ToSchema)]
pub struct FavoritesRequest {
    /// Instrument ids in the order to keep (at most 100, no duplicates).
    pub ids: Vec<String>,
}

/// Replaces the member's favourites with `ids`, in that order.
#[utoipa::path(put, path = "/api/me/favorites", tag = "market", security(("bearer" = [])), request_body = FavoritesRequest, responses(
    (status = 200, body = [InstrumentDto]),
    (status = 401, body = ErrorBody),
    (status = 422, description = "`invalid_input`: `ids` too long, duplicated, malformed or unknown", body = ErrorBody),
))]
pub async fn put_favorites(
    State(state): State<MarketState>,
    member: Member,
    ApiJson(body): ApiJson<FavoritesRequest>,
) -> Result<ApiJson<Vec<InstrumentDto>>, ApiError> {
    if body.ids.len() > MAX_FAVORITES {
        return Err(ApiError::invalid_field(
            "ids",
            FieldError::new(
                ErrorCode::TooManyFavorites,
                format!("At most {MAX_FAVORITES} favourites."),
            )
            .param("max", MAX_FAVORITES),
        ));
    }
    let service = market(&state);
    let mut seen = HashSet::new();
    let mut ids = Vec::with_capacity(body.ids.len());
    for raw in &body.ids {
        let id: InstrumentId = raw.parse().map_err(|_| {
            ApiError::invalid_field(
                "ids",
                FieldError::new(
                    ErrorCode::InvalidId,
                    format!("{raw:?} is not an instrument id."),
                ),
            )
        })?;
        if service.instrument(&id).is_none() {
            return Err(ApiError::invalid_field(
                "ids",
                FieldError::new(
                    ErrorCode::UnknownInstrument,
                    format!("There is no instrument {id}."),
                )
                .param("value", &id),
            ));
        }
        if !seen.insert(id.clone()) {
            return Err(ApiError::invalid_field(
                "ids",
                FieldError::new(ErrorCode::Duplicate, format!("{id} is listed twice."))
                    .param("value", &id),
            ));
        }
        ids.push(id);
    }
    service
        .storage()
        .set_favorites(member.user.id, &ids)
        .await?;
    favorites_of(&state, member.user.id).await.map(ApiJson)
}

/// What each market's provider last did.
#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct ProviderStatusDto {
    /// `krx`, `us`, `fx` or `crypto`.
    pub market: String,
    pub provider: String,
    pub last_success: Option<String>,
    pub last_error: Option<String>,
    pub last_error_at: Option<String>,
}

/// The providers per market (operators only).
#[utoipa::path(get, path = "/api/market/providers", tag = "market", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), responses(
    (status = 200, body = [ProviderStatusDto]),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
))]
pub async fn providers(
    State(state): State<MarketState>,
    _operator: Operator,
) -> Result<ApiJson<Vec<ProviderStatusDto>>, ApiError> {
    let service = market(&state);
    let stored = service.storage().provider_statuses().await?;
    Ok(ApiJson(
        service
            .provider_kinds()
            .into_iter()
            .map(|(m, kind)| {
                let s = stored
                    .iter()
                    .find(|s| s.market == m && s.provider == kind.as_str());
                ProviderStatusDto {
                    market: m.to_owned(),
                    provider: kind.as_str().to_owned(),
                    last_success: s.and_then(|s| s.last_success).map(rfc3339),
                    last_error: s.and_then(|s| s.last_error.clone()),
                    last_error_at: s.and_then(|s| s.last_error_at).map(rfc3339),
                }
            })
            .collect(),
    ))
}
