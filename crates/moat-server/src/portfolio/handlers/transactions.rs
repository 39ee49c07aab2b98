//! `/api/portfolios/{id}/transactions` and `/api/portfolios/{id}/transactions/{tx}`.

use axum::{
    extract::{Path, State},
    http::StatusCode,
    response::{IntoResponse, Response},
};

use crate::{
    accounts::extract::Member,
    http::{
        error::{ApiError, ErrorBody},
        idempotency::{self, Idempotency},
        json::ApiJson,
    },
    portfolio::PortfolioState,
    portfolio::{
        dto::{TransactionDto, TransactionInput},
        service::{check_instrument, parse_portfolio_id, parse_tx_id},
        write,
    },
};

/// The portfolio's transactions by trade date.
#[utoipa::path(get, path = "/api/portfolios/{id}/transactions", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, body = [TransactionDto]),
    (status = 404, body = ErrorBody),
))]
pub async fn list_transactions(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
) -> Result<ApiJson<Vec<TransactionDto>>, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let rows = state.storage.transactions(member.user.id, id).await?;
    Ok(ApiJson(rows.iter().map(Into::into).collect()))
}

/// Records a transaction, after checking it against the portfolio's others. With an
/// `Idempotency-Key` header, a repeat of the same request answers the first answer
/// (with `Idempotent-Replayed: true`) and records nothing more.
#[utoipa::path(post, path = "/api/portfolios/{id}/transactions", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path), ("Idempotency-Key" = Option<String>, Header, description = "Names this request: a retry with the same key and body answers the first answer (kept 24 h)")), request_body = TransactionInput, responses(
    (status = 201, body = TransactionDto),
    (status = 400, description = "`invalid_parameter`: a malformed Idempotency-Key", body = ErrorBody),
    (status = 404, body = ErrorBody),
    (status = 409, description = "`idempotency_key_reused`: the key named another request", body = ErrorBody),
    (status = 422, description = "`invalid_input` naming each field (a sell of more than is held names `quantity`)", body = ErrorBody),
))]
pub async fn add_transaction(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
    headers: axum::http::HeaderMap,
    ApiJson(body): ApiJson<serde_json::Value>,
) -> Result<Response, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let user_id = member.user.id;
    let idempotency = Idempotency::from_request(
        &headers,
        "POST",
        &format!("/api/portfolios/{id}/transactions"),
        &body,
    )?;
    let input: TransactionInput = ApiJson::from_value(body)?;
    let new = input.parse()?;
    check_instrument(&state, new.instrument_id.as_ref(), new.trade_date).await?;
    let added = write::add_transaction(&state, user_id, id, &new, idempotency.as_ref()).await?;
    let mut response = (added.status, axum::Json(added.body)).into_response();
    if added.replayed {
        response.headers_mut().insert(
            idempotency::REPLAYED_HEADER,
            axum::http::HeaderValue::from_static("true"),
        );
    }
    Ok(response)
}

/// Replaces a transaction; everything after it is recomputed.
#[utoipa::path(put, path = "/api/portfolios/{id}/transactions/{tx}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path), ("tx" = i64, Path)), request_body = TransactionInput, responses(
    (status = 200, body = TransactionDto),
    (status = 404, body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update_transaction(
    State(state): State<PortfolioState>,
    member: Member,
    Path((raw, raw_tx)): Path<(String, String)>,
    ApiJson(body): ApiJson<TransactionInput>,
) -> Result<ApiJson<TransactionDto>, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let tx_id = parse_tx_id(&raw_tx)?;
    let new = body.parse()?;
    check_instrument(&state, new.instrument_id.as_ref(), new.trade_date).await?;
    let row = write::update_transaction(&state, member.user.id, id, tx_id, &new).await?;
    Ok(ApiJson((&row).into()))
}

/// Deletes a transaction, unless that would leave a later sell without the shares.
#[utoipa::path(delete, path = "/api/portfolios/{id}/transactions/{tx}", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path), ("tx" = i64, Path)), responses(
    (status = 204),
    (status = 404, body = ErrorBody),
    (status = 422, description = "a later sell would sell more than is held", body = ErrorBody),
))]
pub async fn delete_transaction(
    State(state): State<PortfolioState>,
    member: Member,
    Path((raw, raw_tx)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let id = parse_portfolio_id(&raw)?;
    let tx_id = parse_tx_id(&raw_tx)?;
    write::delete_transaction(&state, member.user.id, id, tx_id).await?;
    Ok(StatusCode::NO_CONTENT)
}
