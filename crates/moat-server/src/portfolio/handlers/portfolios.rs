//! `/api/portfolios`, `/api/portfolios/{id}` and `/api/portfolios/order`.

use axum::{
    extract::{Path, Query, State},
    http::StatusCode,
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
            CurrencyParams, NewPortfolioRequest, PortfolioDto, PortfolioList, PortfolioOrder,
            PortfolioPatch,
        },
        service::{self, not_found, owned, parse_mode, parse_portfolio_id},
    },
};

/// The member's portfolios in their order, each with its totals, and the meta
/// portfolio's totals.
#[utoipa::path(get, path = "/api/portfolios", tag = "portfolio", security(("bearer" = [])), params(CurrencyParams), responses(
    (status = 200, body = PortfolioList),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
))]
pub async fn list_portfolios(
    State(state): State<PortfolioState>,
    member: Member,
    Query(params): Query<CurrencyParams>,
) -> Result<ApiJson<PortfolioList>, ApiError> {
    let mode = parse_mode(params.currency.as_deref())?;
    let list = service::list_with_totals(&state, member.user.id, mode).await?;
    Ok(ApiJson(list))
}

/// Creates a portfolio after the member's others.
#[utoipa::path(post, path = "/api/portfolios", tag = "portfolio", security(("bearer" = [])), request_body = NewPortfolioRequest, responses(
    (status = 201, body = PortfolioDto),
    (status = 409, description = "`limit_reached`: 20 portfolios already", body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn create_portfolio(
    State(state): State<PortfolioState>,
    member: Member,
    ApiJson(body): ApiJson<NewPortfolioRequest>,
) -> Result<(StatusCode, ApiJson<PortfolioDto>), ApiError> {
    let row = service::create(&state, member.user.id, &body).await?;
    Ok((StatusCode::CREATED, ApiJson((&row).into())))
}

/// One portfolio's settings.
#[utoipa::path(get, path = "/api/portfolios/{id}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = PortfolioDto),
    (status = 404, body = ErrorBody),
))]
pub async fn get_portfolio(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
) -> Result<ApiJson<PortfolioDto>, ApiError> {
    let row = owned(&state, member.user.id, parse_portfolio_id(&raw)?).await?;
    Ok(ApiJson((&row).into()))
}

/// Changes a portfolio's name, cost method, broker or orderable cash.
#[utoipa::path(patch, path = "/api/portfolios/{id}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), request_body = PortfolioPatch, responses(
    (status = 200, body = PortfolioDto),
    (status = 404, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn patch_portfolio(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
    ApiJson(body): ApiJson<PortfolioPatch>,
) -> Result<ApiJson<PortfolioDto>, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let row = service::patch(&state, member.user.id, id, &body).await?;
    Ok(ApiJson((&row).into()))
}

/// Deletes a portfolio and its transactions.
#[utoipa::path(delete, path = "/api/portfolios/{id}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 204),
    (status = 404, body = ErrorBody),
))]
pub async fn delete_portfolio(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
) -> Result<StatusCode, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    if state.storage.delete_portfolio(member.user.id, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(not_found())
    }
}

/// Puts the member's portfolios in a new order.
#[utoipa::path(put, path = "/api/portfolios/order", tag = "portfolio", security(("bearer" = [])), request_body = PortfolioOrder, responses(
    (status = 204),
    (status = 422, description = "not exactly the member's portfolios", body = ErrorBody),
))]
pub async fn reorder_portfolios(
    State(state): State<PortfolioState>,
    member: Member,
    ApiJson(body): ApiJson<PortfolioOrder>,
) -> Result<StatusCode, ApiError> {
    service::reorder(&state, member.user.id, &body.ids).await?;
    Ok(StatusCode::NO_CONTENT)
}
