//! `/api/admin/news/feeds…`: the operator's feeds.

use axum::{
    extract::{Path, State},
    http::StatusCode,
};

use super::parse_id;
use crate::{
    accounts::extract::Operator,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    news::{
        dto::{DefaultsResultDto, FeedDto, FeedInput, FeedListDto, FeedPatchInput, FetchResultDto},
        NewsState,
    },
};

/// The feeds with each one's status, and how many default feeds are not added yet.
#[utoipa::path(get, path = "/api/admin/news/feeds", tag = "news", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), responses(
    (status = 200, body = FeedListDto),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
))]
pub async fn list_feeds(
    State(state): State<NewsState>,
    _operator: Operator,
) -> Result<ApiJson<FeedListDto>, ApiError> {
    Ok(ApiJson(state.service.feed_list().await?))
}

/// Adds a feed.
#[utoipa::path(post, path = "/api/admin/news/feeds", tag = "news", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), request_body = FeedInput, responses(
    (status = 201, body = FeedDto),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
    (status = 409, description = "`news_feed_exists`", body = ErrorBody),
    (status = 422, description = "`invalid_feed_url` and other field errors", body = ErrorBody),
))]
pub async fn create_feed(
    State(state): State<NewsState>,
    _operator: Operator,
    ApiJson(body): ApiJson<FeedInput>,
) -> Result<(StatusCode, ApiJson<FeedDto>), ApiError> {
    Ok((
        StatusCode::CREATED,
        ApiJson(state.service.create_feed(body).await?),
    ))
}

/// Changes a feed (the fields given): its address, name, country, language, or
/// whether it is polled.
#[utoipa::path(patch, path = "/api/admin/news/feeds/{id}", tag = "news", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), params(("id" = i64, Path)), request_body = FeedPatchInput, responses(
    (status = 200, body = FeedDto),
    (status = 404, description = "`news_feed_not_found`", body = ErrorBody),
    (status = 409, description = "`news_feed_exists`", body = ErrorBody),
    (status = 422, body = ErrorBody),
))]
pub async fn update_feed(
    State(state): State<NewsState>,
    _operator: Operator,
    Path(raw): Path<String>,
    ApiJson(body): ApiJson<FeedPatchInput>,
) -> Result<ApiJson<FeedDto>, ApiError> {
    Ok(ApiJson(
        state.service.update_feed(parse_id(&raw)?, body).await?,
    ))
}

/// Removes a feed (its articles stay until retention).
#[utoipa::path(delete, path = "/api/admin/news/feeds/{id}", tag = "news", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), params(("id" = i64, Path)), responses(
    (status = 204),
    (status = 404, description = "`news_feed_not_found`", body = ErrorBody),
))]
pub async fn delete_feed(
    State(state): State<NewsState>,
    _operator: Operator,
    Path(raw): Path<String>,
) -> Result<StatusCode, ApiError> {
    state.service.delete_feed(parse_id(&raw)?).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Fetches a feed now, whatever its schedule; the result names what it brought.
#[utoipa::path(post, path = "/api/admin/news/feeds/{id}/fetch", tag = "news", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), params(("id" = i64, Path)), responses(
    (status = 200, body = FetchResultDto),
    (status = 404, description = "`news_feed_not_found`", body = ErrorBody),
))]
pub async fn fetch_feed(
    State(state): State<NewsState>,
    _operator: Operator,
    Path(raw): Path<String>,
) -> Result<ApiJson<FetchResultDto>, ApiError> {
    Ok(ApiJson(state.service.fetch_now(parse_id(&raw)?).await?))
}

/// Adds Moat's default feeds that are not on the list yet, enabled (they contact the
/// outlets' servers from then on).
#[utoipa::path(post, path = "/api/admin/news/feeds/defaults", tag = "news", security(("bearer" = [])), extensions(("x-access" = json!("operator"))), responses(
    (status = 200, body = DefaultsResultDto),
    (status = 401, body = ErrorBody),
    (status = 403, body = ErrorBody),
))]
pub async fn use_defaults(
    State(state): State<NewsState>,
    _operator: Operator,
) -> Result<ApiJson<DefaultsResultDto>, ApiError> {
    Ok(ApiJson(state.service.use_defaults().await?))
}
