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

/// Declares [`ErrorCode`]: one variant per stable code, with its snake_case name.
macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, )*) => {
        /// Every code an API error or a field error carries. The web app words each one
        /// in the page's language from the code and its `params` (a test checks that
        /// every code has a message in every locale); `message` is English for logs and
        /// API clients.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, serde::Deserialize, utoipa::ToSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
        }

        impl ErrorCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $name,)*
                }
            }
        }
    };
}

error_codes! {
    // Requests and the framework.
    /// The request is not valid (a framework refusal without a better code).
    BadRequest = "bad_request",
    /// A query or path parameter is not valid (`fields` names it).
    InvalidParameter = "invalid_parameter",
    /// Some fields of the body are not valid (`fields` names each).
    InvalidInput = "invalid_input",
    /// The body is JSON of the wrong shape.
    InvalidBody = "invalid_body",
    /// The body is not JSON.
    MalformedJson = "malformed_json",
    UnsupportedMediaType = "unsupported_media_type",
    /// `params.limit`: the largest body in bytes, when known.
    PayloadTooLarge = "payload_too_large",
    NotFound = "not_found",
    MethodNotAllowed = "method_not_allowed",
    RequestTimeout = "request_timeout",
    /// `params.retry_after`: seconds.
    RateLimited = "rate_limited",
    InternalError = "internal_error",
    /// The database is unreachable or not migrated (`/readyz`).
    NotReady = "not_ready",
    /// A unique value is taken.
    Conflict = "conflict",
    /// `params.what`: a cap Moat keeps (portfolios, transactions) is reached.
    LimitReached = "limit_reached",
    /// The same `Idempotency-Key` came with another request.
    IdempotencyKeyReused = "idempotency_key_reused",
    /// The live stream has no room for another socket.
    TooManyConnections = "too_many_connections",
    /// A field's value is not valid (no more precise code applies).
    Invalid = "invalid",
    /// A required field is missing or empty.
    Required = "required",
    /// `params.max`: the most characters (or items) allowed.
    TooLong = "too_long",
    /// `params.min`, `params.max`: the accepted range of a number.
    OutOfRange = "out_of_range",
    /// Not an id of the expected form (`params.value`).
    InvalidId = "invalid_id",
    /// `params.value` is given twice.
    Duplicate = "duplicate",
    /// `from` is after `to`.
    DatesReversed = "dates_reversed",
    /// `params.max_days`: the longest span one request may ask for.
    SpanTooLong = "span_too_long",

    // Accounts.
    Unauthenticated = "unauthenticated",
    TokenInvalid = "token_invalid",
    Forbidden = "forbidden",
    InvalidCredentials = "invalid_credentials",
    AccountBanned = "account_banned",
    ReauthenticationRequired = "reauthentication_required",
    EmailTaken = "email_taken",
    NicknameTaken = "nickname_taken",
    /// The social identity is linked to another account already.
    IdentityTaken = "identity_taken",
    EmailInvalid = "email_invalid",
    /// `params.min`, `params.max`: characters.
    NicknameLength = "nickname_length",
    /// Letters, digits, `_` and `.` only.
    NicknameCharacters = "nickname_characters",
    /// The nickname is reserved (admin, moat …).
    NicknameReserved = "nickname_reserved",
    /// `params.min`, `params.max`: characters.
    PasswordLength = "password_length",
    PasswordTooCommon = "password_too_common",
    /// The password contains the email or nickname.
    PasswordPersonal = "password_personal",
    /// The current password given is not right.
    PasswordWrong = "password_wrong",
    /// A social log-in ticket expired or was used.
    TicketExpired = "ticket_expired",
    /// The link of a mail (password reset, email verification) expired, was used or
    /// was never sent.
    LinkExpired = "link_expired",
    /// The server sends no e-mail (`[mail]` is not configured): ask the operator.
    MailNotConfigured = "mail_not_configured",
    /// `params.kinds`: the documents (`terms`, `privacy`) whose current version must be
    /// accepted.
    ConsentRequired = "consent_required",

    // Market data.
    QuoteUnavailable = "quote_unavailable",
    /// `params.range`: the accepted ranges.
    InvalidRange = "invalid_range",
    /// `params.max`: more favourites than Moat keeps.
    TooManyFavorites = "too_many_favorites",

    // Portfolios (the domain's validation codes, moat_portfolio::IssueCode, are here too).
    FxUnavailable = "fx_unavailable",
    InvalidCurrencyMode = "invalid_currency_mode",
    /// `params.max`: the largest number of rows in a CSV file.
    TooManyRows = "too_many_rows",
    /// Some rows of an imported file are not valid (`errors` lists each).
    InvalidImport = "invalid_import",
    CurrencyUnsupported = "currency_unsupported",
    InstrumentMissing = "instrument_missing",
    InstrumentUnexpected = "instrument_unexpected",
    QuantityNotPositive = "quantity_not_positive",
    PriceNotPositive = "price_not_positive",
    FractionalShares = "fractional_shares",
    FeeNegative = "fee_negative",
    TaxNegative = "tax_negative",
    FxRateMissing = "fx_rate_missing",
    FxRateNotPositive = "fx_rate_not_positive",
    SplitRatioInvalid = "split_ratio_invalid",
    /// `params.instrument`, `params.held`, `params.date`, `params.quantity`: a sell of more
    /// than is held on its date.
    InsufficientQuantity = "insufficient_quantity",
    SplitNotHeld = "split_not_held",
    CurrencyMismatch = "currency_mismatch",
    DividendNotHeld = "dividend_not_held",
    FxRateUnavailable = "fx_rate_unavailable",
    EmptyFile = "empty_file",
    MissingColumn = "missing_column",
    MalformedRow = "malformed_row",
    InvalidDate = "invalid_date",
    InvalidType = "invalid_type",
    InvalidNumber = "invalid_number",
    InvalidInstrument = "invalid_instrument",
    UnknownInstrument = "unknown_instrument",
    InvalidRatio = "invalid_ratio",
    /// The file is neither valid UTF-8 nor valid EUC-KR (cut short, or mixed).
    InvalidEncoding = "invalid_encoding",
    /// The trade date is before the instrument's price history (`params.start`).
    BeforeHistory = "before_history",
    /// The trade date is in the future.
    DateInFuture = "date_in_future",

    // Observability.
    /// The recorded session belongs to another member.
    SessionBound = "session_bound",

    // The media store.
    /// Not a media key: letters, digits, `.`, `_`, `-` in `/`-separated segments, no
    /// segment starting with `.`, no leading `/`.
    InvalidMediaKey = "invalid_media_key",
    /// An uploaded image is not PNG, JPEG or WebP.
    UnsupportedImage = "unsupported_image",

    // News.
    /// There is no article of this id (or it was deleted by retention).
    NewsArticleNotFound = "news_article_not_found",
    /// There is no feed of this id.
    NewsFeedNotFound = "news_feed_not_found",
    /// A feed of this URL is on the list already.
    NewsFeedExists = "news_feed_exists",
    /// Not a feed address: http or https, a host, no user name or password
    /// (`params.max`: the longest address).
    InvalidFeedUrl = "invalid_feed_url",
    /// A news search is 1 to `params.max` characters.
    InvalidNewsQuery = "invalid_news_query",
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod code_tests {
    use super::ErrorCode;

    #[test]
    fn every_code_is_written_as_its_name() {
        for code in ErrorCode::ALL {
            let json = serde_json::to_value(code).unwrap();
            assert_eq!(json, code.as_str(), "{code:?}");
            let back: ErrorCode = serde_json::from_value(json).unwrap();
            assert_eq!(back, *code);
        }
    }
}

/// What is wrong with one field: `{code, params, message}`.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct FieldError {
    pub code: ErrorCode,
    /// The values the message names (`{instrument, held, date}`), as text.
    pub params: BTreeMap<String, String>,
    /// English, for logs and API clients; the web app words the code itself.
    pub message: String,
}

impl FieldError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            params: BTreeMap::new(),
            message: message.into(),
        }
    }

    /// Adds a parameter the message refers to.
    pub fn param(mut self, name: &str, value: impl ToString) -> Self {
        self.params.insert(name.to_owned(), value.to_string());
        self
    }
}

/// An API failure. 5xx causes are logged with their chain and never sent to clients.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
    /// Values the message names (`{limit}`, `{retry_after}`), as text.
    pub params: BTreeMap<String, String>,
    pub fields: Option<BTreeMap<String, FieldError>>,
    /// Seconds for a `Retry-After` header (429).
    pub retry_after: Option<u64>,
    source: Option<anyhow::Error>,
}

/// The JSON body, as documented in the OpenAPI document.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// Stable, machine-readable code.
    pub code: ErrorCode,
    /// English, for logs and API clients; the web app words the code itself.
    pub message: String,
    /// Values the message names, as text.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, String>,
    /// Per-field problems, for form errors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<BTreeMap<String, FieldError>>,
    /// The request id, also sent as the `x-request-id` header.
    pub request_id: String,
}

impl ApiError {
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            params: BTreeMap::new(),
            fields: None,
            retry_after: None,
            source: None,
        }
    }

    /// Adds a parameter the message refers to.
    pub fn param(mut self, name: &str, value: impl ToString) -> Self {
        self.params.insert(name.to_owned(), value.to_string());
        self
    }

    /// `401 unauthenticated`: the request carries no token.
    pub fn unauthenticated() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            ErrorCode::Unauthenticated,
            "Log in to continue.",
        )
    }

    /// `401 token_invalid`: the token is malformed, forged, expired or revoked.
    pub fn token_invalid() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            ErrorCode::TokenInvalid,
            "Your session has ended. Log in again.",
        )
    }

    /// `403 forbidden`: the member's role does not allow this.
    pub fn forbidden() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            ErrorCode::Forbidden,
            "You do not have permission to do this.",
        )
    }

    /// `429 rate_limited` with `Retry-After` (whole seconds, at least 1).
    pub fn rate_limited(wait: std::time::Duration) -> Self {
        let secs = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
        Self {
            retry_after: Some(secs),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::RateLimited,
                format!("Too many attempts. Try again in {secs} seconds."),
            )
            .param("retry_after", secs)
        }
    }

    /// A 422 `invalid_input` naming one field.
    pub fn invalid_field(field: &str, error: FieldError) -> Self {
        Self::invalid_fields(BTreeMap::from([(field.to_owned(), error)]))
    }

    /// A 400 `invalid_parameter` naming one query or path parameter (bad bodies are
    /// 422 `invalid_input`).
    pub fn invalid_parameter(name: &str, error: FieldError) -> Self {
        let message = error.message.clone();
        Self {
            fields: Some(BTreeMap::from([(name.to_owned(), error)])),
            ..Self::new(
                StatusCode::BAD_REQUEST,
                ErrorCode::InvalidParameter,
                message,
            )
            .param("name", name)
        }
    }

    /// A 409 for a taken unique value, naming the field; `field_error` says which
    /// (accounts: email, nickname).
    pub fn taken(field: &str, field_error: FieldError) -> Self {
        let code = field_error.code;
        let message = field_error.message.clone();
        Self {
            fields: Some(BTreeMap::from([(field.to_owned(), field_error)])),
            ..Self::new(StatusCode::CONFLICT, code, message)
        }
    }

    pub fn bad_request(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, message)
    }

    /// A 422 `invalid_input` with per-field errors.
    pub fn invalid_fields(fields: BTreeMap<String, FieldError>) -> Self {
        Self {
            fields: Some(fields),
            ..Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::InvalidInput,
                "Some fields are not valid.",
            )
        }
    }

    pub fn payload_too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::PayloadTooLarge,
            format!("The request body is larger than the limit of {limit} bytes."),
        )
        .param("limit", limit)
    }

    /// A 500 whose cause is logged, not shown.
    pub fn internal(source: impl Into<anyhow::Error>) -> Self {
        Self {
            source: Some(source.into()),
            ..Self::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                ErrorCode::InternalError,
                "Something went wrong on our side. Please try again.",
            )
        }
    }

    /// The stock error for a status the framework produced by itself.
    fn for_status(status: StatusCode) -> Self {
        let (code, message) = match status {
            StatusCode::NOT_FOUND => (ErrorCode::NotFound, "There is no such API endpoint."),
            StatusCode::METHOD_NOT_ALLOWED => (
                ErrorCode::MethodNotAllowed,
                "This endpoint does not accept that HTTP method.",
            ),
            StatusCode::PAYLOAD_TOO_LARGE => {
                (ErrorCode::PayloadTooLarge, "The request body is too large.")
            }
            StatusCode::UNSUPPORTED_MEDIA_TYPE => (
                ErrorCode::UnsupportedMediaType,
                "Send the body as application/json.",
            ),
            StatusCode::REQUEST_TIMEOUT => {
                (ErrorCode::RequestTimeout, "The request took too long.")
            }
            s if s.is_client_error() => (ErrorCode::BadRequest, "The request is not valid."),
            _ => (
                ErrorCode::InternalError,
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
            moat_storage::StorageError::Conflict(field) => Self::taken(
                field,
                FieldError::new(ErrorCode::Conflict, "This is taken already."),
            ),
            moat_storage::StorageError::Invalid(what) => Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorCode::InvalidInput,
                format!("Not valid: {what}."),
            ),
            moat_storage::StorageError::LimitReached(what) => Self::new(
                StatusCode::CONFLICT,
                ErrorCode::LimitReached,
                format!("You have as many {what} as Moat keeps; delete some first."),
            )
            .param("what", what),
            other => Self::internal(other),
        }
    }
}

/// Marker carried on error responses until [`render_errors`] writes the body.
#[derive(Clone)]
struct PendingError {
    code: ErrorCode,
    message: String,
    params: BTreeMap<String, String>,
    fields: Option<BTreeMap<String, FieldError>>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            match &self.source {
                Some(source) => tracing::error!(
                    error = format!("{source:#}"),
                    code = self.code.as_str(),
                    "request failed"
                ),
                None => {
                    tracing::error!(code = self.code.as_str(), message = ?self.message, "request failed")
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
            params: self.params,
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
                params: e.params,
                fields: None,
            }
        }
        None => return response,
    };
    let body = ErrorBody {
        code: pending.code,
        message: pending.message,
        params: pending.params,
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
