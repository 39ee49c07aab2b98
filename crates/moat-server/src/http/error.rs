//! One error shape for every API failure:
//! `{ "code": "stable_snake_case", "message": "human text", "fields": {…}?, "request_id": "…" }`.
//!
//! Handlers return [`ApiError`] and use `?`. The response carries the error as an
//! extension; [`render_errors`] writes the body once the request id is known, and also
//! turns the framework's own plain-text failures under `/api` (404, 405, 413, panics)
//! into the same shape.

use std::collections::BTreeMap;

use axum::{
    body::Body,
    extract::Request,
    http::{header, HeaderValue, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
    Json,
};
use serde::Serialize;

/// An API failure. 5xx causes are logged with their chain and never sent to clients.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub fields: Option<BTreeMap<String, String>>,
    /// Seconds for a `Retry-After` header (429).
    pub retry_after: Option<u64>,
    source: Option<anyhow::Error>,
}

/// The JSON body, as documented in the OpenAPI document.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// Stable, machine-readable code in snake_case.
    pub code: String,
    /// A human-readable explanation.
    pub message: String,
    /// Per-field problems, for form errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<BTreeMap<String, String>>,
    /// The request id, also sent as the `x-request-id` header.
    pub request_id: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            fields: None,
            retry_after: None,
            source: None,
        }
    }

    /// `401 unauthenticated`: the request carries no token.
    pub fn unauthenticated() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthenticated",
            "Log in to continue.",
        )
    }

    /// `401 token_invalid`: the token is malformed, forged, expired or revoked.
    pub fn token_invalid() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "token_invalid",
            "Your session has ended. Log in again.",
        )
    }

    /// `403 forbidden`: the member's role does not allow this.
    pub fn forbidden() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "You do not have permission to do this.",
        )
    }

    /// `429 rate_limited` with `Retry-After` (whole seconds, at least 1).
    pub fn rate_limited(wait: std::time::Duration) -> Self {
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        Self {
            retry_after: Some(secs.max(1)),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!("Too many attempts. Try again in {} seconds.", secs.max(1)),
            )
        }
    }

    /// A 422 naming one field.
    pub fn invalid_field(field: &str, message: impl Into<String>) -> Self {
        Self::invalid_fields(BTreeMap::from([(field.to_owned(), message.into())]))
    }

    /// A 400 `invalid_parameter` naming one query or path parameter (bad bodies are
    /// 422 `invalid_input`).
    pub fn invalid_parameter(name: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        Self {
            fields: Some(BTreeMap::from([(name.to_owned(), message.clone())])),
            ..Self::new(StatusCode::BAD_REQUEST, "invalid_parameter", message)
        }
    }

    /// A 409 for a taken unique value, naming the field.
    pub fn taken(field: &str) -> Self {
        let (code, message) = match field {
            "email" => ("email_taken", "An account with this email exists already."),
            "nickname" => ("nickname_taken", "This nickname is taken."),
            _ => ("conflict", "This is taken already."),
        };
        Self {
            fields: Some(BTreeMap::from([(field.to_owned(), message.to_owned())])),
            ..Self::new(StatusCode::CONFLICT, code, message)
        }
    }

    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// A 422 with per-field messages.
    pub fn invalid_fields(fields: BTreeMap<String, String>) -> Self {
        Self {
            fields: Some(fields),
            ..Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_input",
                "Some fields are not valid.",
            )
        }
    }

    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            format!("The request body is larger than the limit of {limit} bytes."),
        )
    }

    /// A 500 whose cause is logged, not shown.
    pub fn internal(source: impl Into<anyhow::Error>) -> Self {
        Self {
            source: Some(source.into()),
            ..Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal_error",
                "Something went wrong on our side. Please try again.",
            )
        }
    }

    /// The stock error for a status the framework produced by itself.
    fn for_status(status: StatusCode) -> Self {
        let (code, message) = match status {
            StatusCode::NOT_FOUND => ("not_found", "There is no such API endpoint."),
            StatusCode::METHOD_NOT_ALLOWED => (
                "method_not_allowed",
                "This endpoint does not accept that HTTP method.",
            ),
            StatusCode::PAYLOAD_TOO_LARGE => {
                ("payload_too_large", "The request body is too large.")
            }
            StatusCode::UNSUPPORTED_MEDIA_TYPE => (
                "unsupported_media_type",
                "Send the body as application/json.",
            ),
            StatusCode::REQUEST_TIMEOUT => ("request_timeout", "The request took too long."),
            s if s.is_client_error() => ("bad_request", "The request is not valid."),
            _ => (
                "internal_error",
                "Something went wrong on our side. Please try again.",
            ),
        };
        Self::new(status, code, message)
    }
}

impl From<moat_storage::StorageError> for ApiError {
    fn from(e: moat_storage::StorageError) -> Self {
        match e {
            moat_storage::StorageError::NotFound => Self::not_found("Not found."),
            moat_storage::StorageError::Conflict(field) => Self::taken(field),
            moat_storage::StorageError::Invalid(what) => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_input",
                format!("Not valid: {what}."),
            ),
            moat_storage::StorageError::LimitReached(what) => Self::new(
                StatusCode::CONFLICT,
                "limit_reached",
                format!("You have as many {what} as Moat keeps; delete some first."),
            ),
            other => Self::internal(other),
        }
    }
}

/// Marker carried on error responses until [`render_errors`] writes the body.
#[derive(Clone)]
struct PendingError {
    code: &'static str,
    message: String,
    fields: Option<BTreeMap<String, String>>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            match &self.source {
                Some(source) => tracing::error!(
                    error = format!("{source:#}"),
                    code = self.code,
                    "request failed"
                ),
                None => {
                    tracing::error!(code = self.code, message = ?self.message, "request failed")
                }
            }
        }
        let mut response = self.status.into_response();
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response.extensions_mut().insert(PendingError {
            code: self.code,
            message: self.message,
            fields: self.fields,
        });
        response
    }
}

/// Writes the JSON body of every API error, with the request id.
pub async fn render_errors(request: Request, next: Next) -> Response {
    let is_api = request.uri().path().starts_with("/api/") || request.uri().path() == "/api";
    let request_id = request
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let mut response = next.run(request).await;
    let pending = response.extensions_mut().remove::<PendingError>();
    let status = response.status();
    let pending = match pending {
        Some(p) => p,
        None if is_api
            && (status.is_client_error() || status.is_server_error())
            && !is_json(&response) =>
        {
            let e = ApiError::for_status(status);
            if status.is_server_error() {
                tracing::error!(%status, "request failed without an ApiError (panic or framework error)");
            }
            PendingError {
                code: e.code,
                message: e.message,
                fields: None,
            }
        }
        None => return response,
    };
    let body = ErrorBody {
        code: pending.code.to_owned(),
        message: pending.message,
        fields: pending.fields,
        request_id,
    };
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts
        .headers
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    let json = Json(body).into_response().into_body();
    Response::from_parts(parts, Body::new(json))
}

fn is_json(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}
