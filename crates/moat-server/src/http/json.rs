//! `ApiJson<T>`: `axum::Json` whose rejections use the API error shape.

use axum::{
    extract::{rejection::JsonRejection, FromRequest, Request},
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::{de::DeserializeOwned, Serialize};

use super::error::ApiError;

/// A JSON request or response body.
pub struct ApiJson<T>(pub T);

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(v)) => Ok(Self(v)),
            Err(rejection) => Err(map_rejection(rejection)),
        }
    }
}

impl<T: DeserializeOwned> ApiJson<T> {
    /// A body already parsed as JSON (to hash it, say), read as `T`: the same 422
    /// `invalid_body` as a body that does not have the expected shape.
    pub fn from_value(value: serde_json::Value) -> Result<T, ApiError> {
        serde_json::from_value(value).map_err(|e| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_body",
                format!("The body does not have the expected shape: {e}"),
            )
        })
    }
}

fn map_rejection(rejection: JsonRejection) -> ApiError {
    match rejection {
        JsonRejection::MissingJsonContentType(_) => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Send the body as JSON with Content-Type: application/json.",
        ),
        JsonRejection::JsonSyntaxError(e) => ApiError::bad_request(
            "malformed_json",
            format!("The body is not valid JSON: {}", e.body_text()),
        ),
        JsonRejection::JsonDataError(e) => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_body",
            format!(
                "The body does not have the expected shape: {}",
                e.body_text()
            ),
        ),
        JsonRejection::BytesRejection(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "payload_too_large",
                "The request body is too large.",
            )
        }
        other => ApiError::bad_request("bad_request", other.body_text()),
    }
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}
