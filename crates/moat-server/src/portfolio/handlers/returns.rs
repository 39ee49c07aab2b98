//! `/api/portfolios/{id}/valuation`, `…/performance` and `…/allocation` (`id` may be
//! `meta`: all of the member's portfolios).

use axum::{
    extract::{Path, Query, State},
    http::HeaderMap,
    response::Response,
};

use crate::{
    accounts::extract::Member,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    portfolio::PortfolioState,
    portfolio::{
        dto::{
            AllocationParams, AllocationSliceDto, CurrencyParams, PerformanceDto,
            PerformanceParams, ValuationDto,
        },
        service::{self, parse_mode},
    },
};

/// A portfolio (or `meta`: all of them) valued now: holdings, cash and totals.
#[utoipa::path(get, path = "/api/portfolios/{id}/valuation", tag = "portfolio", security(("bearer" = [])), params(("id" = String, Path, description = "a portfolio id or `meta`"), CurrencyParams), responses(
    (status = 200, body = ValuationDto),
    (status = 400, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get_valuation(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
    Query(params): Query<CurrencyParams>,
) -> Result<ApiJson<ValuationDto>, ApiError> {
    let mode = parse_mode(params.currency.as_deref())?;
    Ok(ApiJson(
        service::valuation(&state, member.user.id, &raw, mode).await?,
    ))
}

/// Daily values with the cumulative time-weighted return beside a benchmark's, and
/// returns over 1M, 3M, YTD, 1Y and since inception (time-weighted, money-weighted,
/// simple) with why they differ.
#[utoipa::path(get, path = "/api/portfolios/{id}/performance", tag = "portfolio", security(("bearer" = [])), params(("id" = String, Path, description = "a portfolio id or `meta`"), PerformanceParams), responses(
    (status = 200, body = PerformanceDto),
    (status = 400, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get_performance(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
    Query(params): Query<PerformanceParams>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let mode = parse_mode(params.currency.as_deref())?;
    let performance = service::performance(
        &state,
        member.user.id,
        &raw,
        mode,
        params.benchmark.as_deref(),
    )
    .await?;
    // Kept with its compressed copies: sent as it is.
    Ok(performance.respond(&headers))
}

/// How the value splits by holding, sector, country, currency or asset class,
/// largest first.
#[utoipa::path(get, path = "/api/portfolios/{id}/allocation", tag = "portfolio", security(("bearer" = [])), params(("id" = String, Path, description = "a portfolio id or `meta`"), AllocationParams), responses(
    (status = 200, body = [AllocationSliceDto]),
    (status = 400, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn get_allocation(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
    Query(params): Query<AllocationParams>,
) -> Result<ApiJson<Vec<AllocationSliceDto>>, ApiError> {
    let slices = service::allocation(
        &state,
        member.user.id,
        &raw,
        params.by.as_deref(),
        params.currency.as_deref(),
    )
    .await?;
    Ok(ApiJson(slices))
}
