//! The HTTP application. The whole route list is in [`router`]; each area keeps its
//! handlers and DTOs in its own module.

pub mod assets;
pub mod client_addr;
pub mod encoding;
pub mod error;
pub mod health;
pub mod idempotency;
pub mod json;
pub mod meta;
pub mod metrics;
pub mod pages;
pub mod params;
mod security;

use std::time::Duration;

use axum::{
    extract::{DefaultBodyLimit, Request, State},
    http::{header, HeaderName},
    middleware::{self, Next},
    response::{IntoResponse, Response},
    routing::get,
    Router,
};
use tower_http::{
    catch_panic::CatchPanicLayer,
    compression::{
        predicate::{DefaultPredicate, Predicate},
        CompressionLayer,
    },
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    sensitive_headers::SetSensitiveRequestHeadersLayer,
    trace::TraceLayer,
};
use utoipa::OpenApi;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{accounts, market, media, observability, portfolio, AppState};
use error::ApiError;

/// The API description; paths are collected from the routes below.
#[derive(OpenApi)]
#[openapi(
    info(title = "Moat API", description = "The JSON API of Moat, the investing companion."),
    components(schemas(error::ErrorBody)),
    modifiers(&BearerAuth),
    tags((name = "meta"), (name = "ops"), (name = "accounts"), (name = "market"), (name = "portfolio"), (name = "observability"), (name = "media"), (name = "news"))
)]
struct ApiDoc;

/// The `bearer` security scheme: `Authorization: Bearer <token>` (docs/accounts.md).
struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme(
                "bearer",
                SecurityScheme::Http(
                    HttpBuilder::new()
                        .scheme(HttpAuthScheme::Bearer)
                        .bearer_format("JWT")
                        .build(),
                ),
            );
    }
}

/// Every documented route. Later areas add their `routes!(…)` lines here.
fn api_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(health::healthz))
        .routes(routes!(health::readyz))
        .routes(routes!(metrics::metrics))
        .routes(routes!(meta::get_meta))
        .merge(accounts::routes())
        .merge(crate::member_data::routes())
        .merge(portfolio::routes())
        .merge(market::routes())
        .merge(observability::routes())
        .merge(media::routes())
        .merge(crate::news::routes())
}

/// The OpenAPI 3.1 document, as served at `/api/openapi.json`.
pub fn openapi_json() -> String {
    let (_, doc) = api_routes().split_for_parts();
    doc.to_pretty_json()
        .expect("the OpenAPI document serialises")
}

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Access {
    /// Anyone, logged in or not.
    Visitor,
    /// A logged-in member (`Authorization: Bearer`).
    Member,
    /// A member with the operator role.
    Operator,
}

impl Access {
    pub fn as_str(self) -> &'static str {
        match self {
            Access::Visitor => "visitor",
            Access::Member => "member",
            Access::Operator => "operator",
        }
    }
}

/// One route of the server, as `moat routes` prints it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RouteRow {
    pub method: String,
    pub path: String,
    /// `area::function` of the handler.
    pub handler: String,
    pub access: Access,
}

/// The routes outside the OpenAPI document (no JSON bodies to describe), as added in
/// [`router`]: `(method, path, handler, access)`.
const UNDOCUMENTED_ROUTES: &[(&str, &str, &str, Access)] = &[
    (
        "GET",
        "/api/openapi.json",
        "http::openapi_json",
        Access::Visitor,
    ),
    (
        "GET",
        "/api/stream",
        "hub::socket::upgrade (member topics after the auth op)",
        Access::Visitor,
    ),
    (
        "POST",
        "/public",
        "observability::handlers::ingest::public",
        Access::Visitor,
    ),
    (
        "POST",
        "/v1/traces",
        "observability::handlers::ingest::traces",
        Access::Visitor,
    ),
    (
        "POST",
        "/v1/metrics",
        "observability::handlers::ingest::metrics",
        Access::Visitor,
    ),
    (
        "GET",
        "/media/{*key}",
        "media::http::serve (and HEAD; ranged, never compressed)",
        Access::Visitor,
    ),
    (
        "GET",
        "/stocks/{code}",
        "market::page_routes: stock_page (a bare code: 308 to /stocks/EXCHANGE:CODE; else as /*)",
        Access::Visitor,
    ),
    (
        "GET",
        "/*",
        "http::assets::serve (the web app, page cards)",
        Access::Visitor,
    ),
];

/// Every route, from the code: the documented API (method, path, the handler's area
/// and name, and its access: a route with the `bearer` security is for members (unless
/// an empty requirement makes the token optional: visitors too), and an
/// `x-access: operator` extension marks operators' routes), then the routes outside
/// the document. Sorted by path, then method.
pub fn route_table() -> Vec<RouteRow> {
    let doc: serde_json::Value =
        serde_json::from_str(&openapi_json()).expect("the OpenAPI document is JSON");
    let mut rows = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            let Some(id) = op["operationId"].as_str() else {
                continue;
            };
            let area = op["tags"][0].as_str().unwrap_or("http");
            let access = if op["x-access"] == "operator" {
                Access::Operator
            } else if op["security"].as_array().is_some_and(|s| {
                // `{}` among the requirements: the token is optional (a visitor may call).
                !s.is_empty()
                    && !s
                        .iter()
                        .any(|r| r.as_object().is_some_and(|o| o.is_empty()))
            }) {
                Access::Member
            } else {
                Access::Visitor
            };
            rows.push(RouteRow {
                method: method.to_ascii_uppercase(),
                path: path.clone(),
                handler: format!("{area}::{id}"),
                access,
            });
        }
    }
    rows.extend(
        UNDOCUMENTED_ROUTES
            .iter()
            .map(|(method, path, handler, access)| RouteRow {
                method: (*method).to_owned(),
                path: (*path).to_owned(),
                handler: (*handler).to_owned(),
                access: *access,
            }),
    );
    rows.sort_by(|a, b| (&a.path, &a.method).cmp(&(&b.path, &b.method)));
    rows
}

/// The route table as text: one route per line, columns aligned.
pub fn route_table_text() -> String {
    let rows = route_table();
    let width = |f: fn(&RouteRow) -> usize| rows.iter().map(f).max().unwrap_or(0);
    let (m, p, h) = (
        width(|r| r.method.len()).max(6),
        width(|r| r.path.len()).max(4),
        width(|r| r.handler.len()).max(7),
    );
    let mut out = format!("{:m$}  {:p$}  {:h$}  ACCESS\n", "METHOD", "PATH", "HANDLER");
    for r in &rows {
        out.push_str(&format!(
            "{:m$}  {:p$}  {:h$}  {}\n",
            r.method,
            r.path,
            r.handler,
            r.access.as_str()
        ));
    }
    out
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// Slowest request the server waits for before answering 408.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The application: routes, then the layers every request passes through.
pub fn router(state: AppState) -> Router {
    let (api, doc) = api_routes().split_for_parts();
    let doc_json = doc
        .to_pretty_json()
        .expect("the OpenAPI document serialises");
    let api = api
        .route(
            "/api/openapi.json",
            get(move || async move { ([(header::CONTENT_TYPE, "application/json")], doc_json) }),
        )
        .route("/api/stream", get(crate::hub::socket::upgrade))
        .route("/api", axum::routing::any(api_not_found))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        // A span per API request that continues a browser trace (observe::spans).
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            observability::spans::record,
        ))
        .layer(middleware::from_fn(accounts::extract::renew_tokens))
        .layer(middleware::from_fn(security::no_store_when_private));

    with_layers(
        Router::new()
            .merge(api)
            // The telemetry ingest (docs/observability.md): same origin, no auth, its own caps.
            .merge(observability::ingest_routes())
            // The areas' page routes (a stock's page: a bare code redirects).
            .merge(market::page_routes())
            // The media store's objects (same origin, ranged, streamed).
            .merge(media::serving_routes())
            .fallback(assets::serve),
        state,
    )
}

/// Compression level for responses made per request (pages, API JSON): the fastest
/// setting (brotli and gzip quality 1). The codecs' default is their best (brotli 11),
/// and even quality 5 took about 8 ms for a 5-year performance series (200 KB of JSON)
/// on a small server, more than computing it; quality 1 takes about a millisecond for
/// some 15 % more bytes. Static files are compressed at the best level at build time.
const DYNAMIC_COMPRESSION_QUALITY: u32 = 1;
const DYNAMIC_COMPRESSION: tower_http::CompressionLevel =
    tower_http::CompressionLevel::Precise(DYNAMIC_COMPRESSION_QUALITY as i32);

/// The layers every request passes through, outermost last.
fn with_layers(routes: Router<AppState>, state: AppState) -> Router {
    let body_limit = state.config.body_limit_bytes;
    // Validated with the configuration.
    let trusted = std::sync::Arc::new(
        client_addr::TrustedProxies::parse(&state.config.trusted_proxies).unwrap_or_default(),
    );
    routes
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(middleware::from_fn_with_state(trusted, client_addr::resolve))
        .layer(middleware::from_fn_with_state(state.clone(), reject_oversized))
        .layer(CatchPanicLayer::new())
        .layer(middleware::from_fn(error::render_errors))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(
            CompressionLayer::new()
                .quality(DYNAMIC_COMPRESSION)
                .compress_when(DefaultPredicate::new().and(NotMarkedUncompressed)),
        )
        .layer(security::headers_layer(&state.config))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(TraceLayer::new_for_http().make_span_with(|req: &Request| {
            let id = req.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("");
            // The path and the request id come from the client: Debug-formatted, escaped.
            tracing::info_span!("request", method = %req.method(), path = ?req.uri().path(), request_id = ?id)
        }))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
        .layer(SetSensitiveRequestHeadersLayer::new([header::AUTHORIZATION, header::COOKIE]))
        .with_state(state)
}

/// Leaves responses marked [`media::http::Uncompressed`] (ranged media) alone.
#[derive(Clone, Copy)]
struct NotMarkedUncompressed;

impl Predicate for NotMarkedUncompressed {
    fn should_compress<B: http_body::Body>(&self, response: &axum::http::Response<B>) -> bool {
        response
            .extensions()
            .get::<media::http::Uncompressed>()
            .is_none()
    }
}

async fn api_not_found() -> ApiError {
    ApiError::not_found("There is no such API endpoint.")
}

/// Refuses a body whose declared length is over the limit before reading it. CSV
/// imports (`/api/portfolios/{id}/import…`) may be up to their own, larger limit.
async fn reject_oversized(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    // The ingest checks its own (larger) caps and answers in its own shapes.
    if observability::is_ingest_path(path) {
        return next.run(request).await;
    }
    let limit = if path.starts_with("/api/portfolios/") && path.contains("/import") {
        state
            .config
            .body_limit_bytes
            .max(portfolio::MAX_IMPORT_BYTES)
    } else if path.starts_with(media::branding::UPLOAD_PATH_PREFIX) {
        state
            .config
            .body_limit_bytes
            .max(media::branding::MAX_IMAGE_BYTES)
    } else {
        state.config.body_limit_bytes
    };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return ApiError::payload_too_large(limit).into_response();
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use axum::{body::Body, http::StatusCode, routing::post};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    use super::*;
    use crate::config::Config;

    #[derive(serde::Deserialize)]
    struct Input {
        #[allow(dead_code)]
        amount: String,
    }

    async fn accepts_json(json::ApiJson(_): json::ApiJson<Input>) -> &'static str {
        "ok"
    }

    async fn panics() -> &'static str {
        panic!("secret internal detail")
    }

    async fn test_router() -> Router {
        let db = moat_storage::testing::TestDatabase::sqlite();
        let storage = db.storage().await;
        let db_dir = std::env::temp_dir().join(format!("moat-test-{}", uuid::Uuid::new_v4()));
        std::mem::forget(db); // keep the temp dir for the test's lifetime
        let config = Config {
            body_limit_bytes: 2048,
            ..Config::default()
        };
        let config = Config {
            data_dir: db_dir,
            ..config
        };
        let clock = Arc::new(crate::clock::SystemClock);
        let broker = Arc::new(crate::broker::LocalBroker::default());
        let state = AppState::start(config, storage, clock, String::new(), broker)
            .await
            .unwrap();
        let routes = Router::new()
            .route("/api/test/json", post(accepts_json))
            .route("/api/test/panic", get(panics));
        with_layers(routes, state)
    }

    async fn call(
        router: Router,
        req: axum::http::Request<Body>,
    ) -> (StatusCode, serde_json::Value) {
        let res = router.oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        (
            status,
            serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
        )
    }

    fn post_json(body: &str, content_type: Option<&str>) -> axum::http::Request<Body> {
        let mut b = axum::http::Request::post("/api/test/json");
        if let Some(ct) = content_type {
            b = b.header("content-type", ct);
        }
        b.body(Body::from(body.to_owned())).unwrap()
    }

    #[tokio::test]
    async fn json_bodies_fail_with_the_error_shape() {
        let cases: &[(&str, Option<&str>, StatusCode, &str, &str)] = &[
            (
                "{\"amount\": \"1\"}",
                Some("application/json"),
                StatusCode::OK,
                "",
                "a valid body passes",
            ),
            (
                "{\"amount\": ",
                Some("application/json"),
                StatusCode::BAD_REQUEST,
                "malformed_json",
                "truncated JSON",
            ),
            (
                "not json",
                Some("application/json"),
                StatusCode::BAD_REQUEST,
                "malformed_json",
                "not JSON at all",
            ),
            (
                "{\"amount\": 1}",
                Some("application/json"),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_body",
                "wrong field type",
            ),
            (
                "{}",
                Some("application/json"),
                StatusCode::UNPROCESSABLE_ENTITY,
                "invalid_body",
                "missing field",
            ),
            (
                "{\"amount\": \"1\"}",
                Some("text/plain"),
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "wrong content type",
            ),
            (
                "{\"amount\": \"1\"}",
                None,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "no content type",
            ),
        ];
        for (body, ct, status, code, why) in cases {
            let (got, json) = call(test_router().await, post_json(body, *ct)).await;
            assert_eq!(got, *status, "{why}: {json}");
            if !code.is_empty() {
                assert_eq!(json["code"], *code, "{why}");
                assert!(
                    json["message"].as_str().is_some_and(|m| !m.is_empty()),
                    "{why}"
                );
            }
        }
    }

    #[tokio::test]
    async fn a_chunked_body_over_the_limit_is_413() {
        let body = format!("{{\"amount\": \"{}\"}}", "9".repeat(4096));
        let stream = futures_like_stream(body);
        let req = axum::http::Request::post("/api/test/json")
            .header("content-type", "application/json")
            .body(stream)
            .unwrap();
        let (status, json) = call(test_router().await, req).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{json}");
        assert_eq!(json["code"], "payload_too_large");
    }

    /// A body without a declared length, as a chunked upload would send it.
    fn futures_like_stream(body: String) -> Body {
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<bytes::Bytes, std::io::Error>>(4);
        tokio::spawn(async move {
            for chunk in body.into_bytes().chunks(512) {
                let _ = tx.send(Ok(bytes::Bytes::copy_from_slice(chunk))).await;
            }
        });
        Body::from_stream(tokio_stream_from(rx))
    }

    fn tokio_stream_from(
        mut rx: tokio::sync::mpsc::Receiver<Result<bytes::Bytes, std::io::Error>>,
    ) -> impl futures_core::Stream<Item = Result<bytes::Bytes, std::io::Error>> {
        futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx))
    }

    #[tokio::test]
    async fn a_panic_is_a_500_that_reveals_nothing() {
        let req = axum::http::Request::get("/api/test/panic")
            .body(Body::empty())
            .unwrap();
        let (status, json) = call(test_router().await, req).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(json["code"], "internal_error");
        assert!(!json.to_string().contains("secret"), "{json}");
    }
}
