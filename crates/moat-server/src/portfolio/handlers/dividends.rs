//! `/api/instruments/{id}/dividends`, `/api/dividends/calendar` and `/api/me/dividends`.

use axum::extract::{Path, Query, State};

use crate::{
    accounts::extract::Member,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    portfolio::PortfolioState,
    portfolio::{
        dto::{
            CalendarDividend, CalendarParams, DividendDraftDto, DividendDraftParams, DividendDto,
            MyDividendParams, MyDividendsDto, RangeParams,
        },
        service,
    },
};

/// An instrument's dividends with an ex-date in the range: history and those
/// announced or expected.
#[utoipa::path(get, path = "/api/instruments/{id}/dividends", tag = "portfolio", params(("id" = String, Path), RangeParams), responses(
    (status = 200, body = [DividendDto]),
    (status = 400, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn instrument_dividends(
    State(state): State<PortfolioState>,
    Path(raw): Path<String>,
    Query(params): Query<RangeParams>,
) -> Result<ApiJson<Vec<DividendDto>>, ApiError> {
    let list =
        service::instrument_dividends(&state, &raw, params.from.as_deref(), params.to.as_deref())
            .await?;
    Ok(ApiJson(list))
}

/// Dividends whose ex-date or pay date falls in the range, by ex-date.
#[utoipa::path(get, path = "/api/dividends/calendar", tag = "portfolio", params(CalendarParams), responses(
    (status = 200, body = [CalendarDividend]),
    (status = 400, body = ErrorBody),
))]
pub async fn calendar(
    State(state): State<PortfolioState>,
    Query(params): Query<CalendarParams>,
) -> Result<ApiJson<Vec<CalendarDividend>>, ApiError> {
    let list = service::calendar(
        &state,
        params.from.as_deref(),
        params.to.as_deref(),
        params.country.as_deref(),
    )
    .await?;
    Ok(ApiJson(list))
}

/// The member's dividends: received, entitled (not yet recorded), the 12-month
/// projection by month, trailing yield and yield on cost — after withholding.
#[utoipa::path(get, path = "/api/me/dividends", tag = "portfolio", security(("bearer" = [])), params(MyDividendParams), responses(
    (status = 200, body = MyDividendsDto),
    (status = 400, body = ErrorBody),
    (status = 401, body = ErrorBody),
))]
pub async fn my_dividends(
    State(state): State<PortfolioState>,
    member: Member,
    Query(params): Query<MyDividendParams>,
) -> Result<ApiJson<MyDividendsDto>, ApiError> {
    Ok(ApiJson(
        service::my_dividends(&state, member.user.id, params.currency.as_deref()).await?,
    ))
}

/// What the transaction form fills in for a dividend: the dividend paid on the date (or
/// the last ex-date before it), the shares held on its ex-date and the withholding at
/// the configured rate of the instrument's country.
#[utoipa::path(get, path = "/api/portfolios/{id}/dividend-draft", tag = "portfolio", security(("bearer" = [])), params(("id" = String, Path, description = "a portfolio id"), DividendDraftParams), responses(
    (status = 200, body = DividendDraftDto),
    (status = 400, description = "`invalid_parameter`: a malformed instrument or date", body = ErrorBody),
    (status = 404, description = "no such portfolio of the member, or no such instrument", body = ErrorBody),
))]
pub async fn dividend_draft(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
    Query(params): Query<DividendDraftParams>,
) -> Result<ApiJson<DividendDraftDto>, ApiError> {
    let draft = service::dividend_draft(
        &state,
        member.user.id,
        service::parse_portfolio_id(&raw)?,
        &params.instrument,
        params.date.as_deref(),
    )
    .await?;
    Ok(ApiJson(draft))
}
