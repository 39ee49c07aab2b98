//! `/api/portfolios/{id}/import/preview`, `…/import` and `…/export.csv`.

use axum::{
    body::Body,
    extract::{Path, State},
    http::{header, StatusCode},
    response::{IntoResponse, Response},
};

use crate::{
    accounts::extract::Member,
    http::{
        error::{ApiError, ErrorBody},
        json::ApiJson,
    },
    portfolio::PortfolioState,
    portfolio::{
        dto::{ImportPreviewDto, ImportRefused, ImportResult},
        service, write,
    },
};

/// The request body as a blocking reader, read as it arrives (the parser runs on a
/// blocking thread).
fn reader_of(body: Body) -> impl std::io::Read + Send + 'static {
    use futures_util::TryStreamExt;
    let stream = body
        .into_data_stream()
        .map_err(|e| std::io::Error::other(e.to_string()));
    tokio_util::io::SyncIoBridge::new(tokio_util::io::StreamReader::new(stream))
}

/// What importing a CSV file would do: a summary, the first rows, and every bad row
/// named. Nothing is stored.
#[utoipa::path(post, path = "/api/portfolios/{id}/import/preview", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), request_body(content = String, content_type = "text/csv"), responses(
    (status = 200, body = ImportPreviewDto),
    (status = 404, body = ErrorBody),
    (status = 413, description = "`payload_too_large` (over 5 MB) or `too_many_rows` (over 20,000 rows)", body = ErrorBody),
))]
pub async fn import_preview(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
    body: Body,
) -> Result<ApiJson<ImportPreviewDto>, ApiError> {
    let (_, preview) = service::preview_of(&state, member.user.id, &raw, reader_of(body)).await?;
    Ok(ApiJson((&preview).into()))
}

/// Imports a CSV file: every new row in one database transaction, or nothing when
/// any row is bad (422 with every error). The rows are checked again under the
/// portfolio's lock, so a trade recorded meanwhile, or the same file imported twice
/// at once, is accounted for.
#[utoipa::path(post, path = "/api/portfolios/{id}/import", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), request_body(content = String, content_type = "text/csv"), responses(
    (status = 200, body = ImportResult),
    (status = 404, body = ErrorBody),
    (status = 413, description = "`payload_too_large` or `too_many_rows`", body = ErrorBody),
    (status = 422, description = "`invalid_import` with `errors`", body = ImportRefused),
))]
pub async fn import_apply(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
    body: Body,
) -> Result<Response, ApiError> {
    let user_id = member.user.id;
    let (id, preview) = service::preview_of(&state, user_id, &raw, reader_of(body)).await?;
    let refused = |errors: &[moat_portfolio::csv_file::RowError]| {
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            axum::Json(ImportRefused::new(errors)),
        )
            .into_response()
    };
    if !preview.errors.is_empty() {
        return Ok(refused(&preview.errors));
    }
    match write::import(&state, user_id, id, preview.rows).await? {
        Ok(done) => Ok(ApiJson(ImportResult {
            imported: done.imported,
            skipped_duplicates: done.skipped_duplicates,
        })
        .into_response()),
        Err(errors) => Ok(refused(&errors)),
    }
}

/// Every transaction of the portfolio as CSV (the import format).
#[utoipa::path(get, path = "/api/portfolios/{id}/export.csv", tag = "portfolio", security(("bearer" = [])), params(("id" = i64, Path)), responses(
    (status = 200, content_type = "text/csv", body = String),
    (status = 404, body = ErrorBody),
))]
pub async fn export_csv(
    State(state): State<PortfolioState>,
    member: Member,
    Path(raw): Path<String>,
) -> Result<Response, ApiError> {
    let (file, csv) = service::export_csv(&state, member.user.id, &raw).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        csv,
    )
        .into_response())
}
