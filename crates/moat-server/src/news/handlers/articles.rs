//! `/api/news`, `/api/news/search`, `/api/news/articles/{id}` and
//! `/api/instruments/{id}/news`.

use axum::extract::{Path, Query, State};

use super::parse_id;
use crate::{
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    news::{
        dto::{
            ArticleDto, InstrumentNewsParams, ListParams, NewsListDto, NewsSearchDto, SearchParams,
        },
        service::read::SearchRequest,
        NewsState,
    },
};

/// A country's news, newest first, with where the news stands (`status`).
#[utoipa::path(get, path = "/api/news", tag = "news", params(ListParams), responses(
    (status = 200, body = NewsListDto),
    (status = 400, description = "`invalid_parameter`: country, cursor or limit", body = ErrorBody),
))]
pub async fn list_news(
    State(state): State<NewsState>,
    Query(p): Query<ListParams>,
) -> Result<ApiJson<NewsListDto>, ApiError> {
    Ok(ApiJson(
        state
            .service
            .country_news(
                p.country.as_deref(),
                p.cursor.as_deref(),
                p.limit.as_deref(),
            )
            .await?,
    ))
}

/// The news naming an instrument, newest first.
#[utoipa::path(get, path = "/api/instruments/{id}/news", tag = "news", params(("id" = String, Path, description = "`KRX:005930`"), InstrumentNewsParams), responses(
    (status = 200, body = NewsListDto),
    (status = 400, body = ErrorBody),
    (status = 404, body = ErrorBody),
))]
pub async fn instrument_news(
    State(state): State<NewsState>,
    Path(raw): Path<String>,
    Query(p): Query<InstrumentNewsParams>,
) -> Result<ApiJson<NewsListDto>, ApiError> {
    Ok(ApiJson(
        state
            .service
            .instrument_news(&raw, p.cursor.as_deref(), p.limit.as_deref())
            .await?,
    ))
}

/// Full-text search over titles and summaries (Korean and English), ranked by
/// relevance and recency within the newest 1,000 matches.
#[utoipa::path(get, path = "/api/news/search", tag = "news", params(SearchParams), responses(
    (status = 200, body = NewsSearchDto),
    (status = 400, description = "`invalid_parameter` (`invalid_news_query`, a bad filter)", body = ErrorBody),
    (status = 404, description = "an unknown instrument", body = ErrorBody),
))]
pub async fn search_news(
    State(state): State<NewsState>,
    Query(p): Query<SearchParams>,
) -> Result<ApiJson<NewsSearchDto>, ApiError> {
    Ok(ApiJson(
        state
            .service
            .search(SearchRequest {
                q: &p.q,
                country: p.country.as_deref(),
                instrument: p.instrument.as_deref(),
                from: p.from.as_deref(),
                to: p.to.as_deref(),
                cursor: p.cursor.as_deref(),
                limit: p.limit.as_deref(),
            })
            .await?,
    ))
}

/// One article, with every outlet that carried it.
#[utoipa::path(get, path = "/api/news/articles/{id}", tag = "news", params(("id" = i64, Path)), responses(
    (status = 200, body = ArticleDto),
    (status = 400, body = ErrorBody),
    (status = 404, description = "`news_article_not_found`", body = ErrorBody),
))]
pub async fn get_article(
    State(state): State<NewsState>,
    Path(raw): Path<String>,
) -> Result<ApiJson<ArticleDto>, ApiError> {
    Ok(ApiJson(state.service.article(parse_id(&raw)?).await?))
}
