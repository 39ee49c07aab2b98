//! The web app, embedded into the binary (`web/dist` at build time; read from disk in
//! debug builds). Hashed files under `/assets/` are cached forever; HTML never.
//! The web build writes brotli and gzip copies beside every text file (`x.js.br`,
//! `x.js.gz`), so a request only copies bytes; a file without such a copy is
//! compressed once, off the async workers, and the result kept in memory.

use std::{
    collections::HashMap,
    path::PathBuf,
    sync::{Arc, Mutex},
};

use axum::{
    body::Body,
    extract::{Request, State},
    http::{header, HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
};
use bytes::Bytes;
use rust_embed::RustEmbed;

use super::{
    encoding::{accepted_encoding, compress, Effort, Encoding},
    pages,
};
use crate::{config::Config, AppState};

#[derive(RustEmbed)]
#[folder = "../../web/dist"]
#[allow_missing = true]
struct WebDist;

/// Hashed, content-addressed files: safe to cache for a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Smaller files are sent as they are (the web build uses the same threshold).
const COMPRESS_MIN_BYTES: usize = 256;
/// Other static files (favicon, preview image).
const SHORT: &str = "public, max-age=3600";
/// HTML: always revalidate, so a deploy is picked up at once.
const NO_CACHE: &str = "no-cache";

/// One file of the web app.
struct File {
    data: Bytes,
    etag: String,
}

/// The web app (embedded, or from `web_dir`) and the compressed copies made so far.
pub struct Assets {
    dir: Option<PathBuf>,
    index_template: Option<String>,
    webview_host: bool,
    compressed: Mutex<HashMap<(String, Encoding), Bytes>>, // (etag, encoding)
}

impl Assets {
    pub fn load(config: &Config) -> Self {
        let dir = (!config.web_dir.as_os_str().is_empty()).then(|| config.web_dir.clone());
        let mut assets = Self {
            dir,
            index_template: None,
            webview_host: config.webview_host,
            compressed: Mutex::default(),
        };
        assets.index_template = assets
            .get("index.html")
            .and_then(|f| String::from_utf8(f.data.to_vec()).ok())
            .filter(|t| t.contains(pages::HEAD_MARKER));
        if assets.index_template.is_none() {
            tracing::warn!("the web app is not built (web/dist/index.html missing): run `npm --prefix web run build`");
        }
        assets
    }

    /// A file by its path relative to the web root. Paths with `..`, `\\` or empty
    /// segments are refused, so nothing outside the root is ever read.
    fn get(&self, path: &str) -> Option<File> {
        if path.contains('\\')
            || path
                .split('/')
                .any(|seg| seg.is_empty() || seg == "." || seg == "..")
        {
            return None;
        }
        match &self.dir {
            Some(dir) => {
                let data = std::fs::read(dir.join(path)).ok()?;
                let etag = format!("\"{}\"", hex(&content_hash(&data)));
                Some(File {
                    data: Bytes::from(data),
                    etag,
                })
            }
            None => {
                let f = WebDist::get(path)?;
                let etag = format!("\"{}\"", hex(&f.metadata.sha256_hash()[..16]));
                Some(File {
                    data: Bytes::from(f.data.into_owned()),
                    etag,
                })
            }
        }
    }

    /// Whether the web app is built into this binary.
    pub fn has_web_app(&self) -> bool {
        self.index_template.is_some()
    }

    /// The `encoding` copy of `file`: the build's precompressed sibling when it has
    /// one, else compressed here once (keyed by content, so an edited file on disk is
    /// never answered with a stale copy).
    fn compressed(&self, path: &str, file: &File, encoding: Encoding) -> Bytes {
        if let Some(copy) = self.get(&format!("{path}.{}", encoding.suffix())) {
            return copy.data;
        }
        let data = &file.data;
        let key = (file.etag.clone(), encoding);
        if let Some(hit) = self.compressed.lock().expect("asset cache lock").get(&key) {
            return hit.clone();
        }
        let out = Bytes::from(compress(encoding, data, Effort::Best));
        self.compressed
            .lock()
            .expect("asset cache lock")
            .insert(key, out.clone());
        out
    }
}

/// Files worth compressing (text); images and fonts are already compressed.
fn is_compressible(mime: &str) -> bool {
    mime.starts_with("text/")
        || mime.contains("javascript")
        || mime.contains("json")
        || mime.contains("svg")
        || mime.contains("xml")
}

/// Serves a file of the web app, or an app route's page, for every path the router
/// does not know.
pub async fn serve(State(state): State<AppState>, request: Request) -> Response {
    let method = request.method().clone();
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
        )
            .into_response();
    }
    let path = request.uri().path().to_owned();
    let headers = request.headers();
    let assets = &state.assets;

    let file_path = path.trim_start_matches('/');
    let is_host_page = file_path == "webview-host.html";
    if !file_path.is_empty() && file_path != "index.html" && (!is_host_page || assets.webview_host)
    {
        if let Some(file) = assets.get(file_path) {
            return serve_file(&state, file_path, file, headers, method == Method::HEAD).await;
        }
    }
    // A missing file (it has an extension) is a plain 404, not the app.
    let last = path.rsplit('/').next().unwrap_or("");
    if last.contains('.') && file_path != "index.html" {
        return (
            StatusCode::NOT_FOUND,
            [(header::CACHE_CONTROL, NO_CACHE)],
            "Not found",
        )
            .into_response();
    }
    serve_page(&state, &path, request.uri().query(), headers).await
}

async fn serve_page(
    state: &AppState,
    path: &str,
    query: Option<&str>,
    headers: &HeaderMap,
) -> Response {
    let Some(template) = state.assets.index_template.as_deref() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "The Moat web app is not built into this server. Run `npm --prefix web ci && npm --prefix web run build`, then rebuild moat.",
        )
            .into_response();
    };
    let path = if path == "/index.html" { "/" } else { path };
    let lang = pages::Lang::negotiate(query, headers);
    let (card, status) = pages::card(state, path, lang).await;
    let origin = pages::public_origin(&state.config.public_url);
    // Read only when an absolute og:image can be written at all.
    let share_card = match origin {
        Some(_) => {
            crate::media::branding::current(&state.media)
                .await
                .share_card_url
        }
        None => None,
    };
    let html = pages::render(
        template,
        &card,
        lang,
        origin.as_deref(),
        path,
        &state.config.delayed_scripts,
        share_card.as_deref(),
    );
    let mut response = (
        status,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static(NO_CACHE)),
            (
                header::VARY,
                HeaderValue::from_static("Accept-Encoding, Accept-Language"),
            ),
        ],
        html,
    )
        .into_response();
    // A document that may replay a session allows inline styles (the page says so).
    if pages::resolve(path).0.replay_styles {
        if let Ok(csp) = HeaderValue::from_str(&super::security::replay_content_security_policy(
            &state.config,
        )) {
            response
                .headers_mut()
                .insert(header::CONTENT_SECURITY_POLICY, csp);
        }
    }
    response
}

async fn serve_file(
    state: &AppState,
    path: &str,
    file: File,
    headers: &HeaderMap,
    head: bool,
) -> Response {
    let etag = file.etag.clone();
    let mime = mime_guess::from_path(path)
        .first_or_octet_stream()
        .essence_str()
        .to_owned();
    let mime = if mime.starts_with("text/") || mime.ends_with("javascript") {
        format!("{mime}; charset=utf-8")
    } else {
        mime
    };
    let cache = if path.starts_with("assets/") {
        IMMUTABLE
    } else if mime.starts_with("text/html") {
        NO_CACHE
    } else {
        SHORT
    };
    let mut response_headers = HeaderMap::new();
    response_headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&mime)
            .unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    response_headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response_headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));

    let encoding = accepted_encoding(headers)
        .filter(|_| is_compressible(&mime) && file.data.len() >= COMPRESS_MIN_BYTES);
    // Each representation has its own strong ETag (`"…-br"`), as RFC 9110 asks.
    let etag = match encoding {
        Some(enc) => format!("{}-{}\"", etag.trim_end_matches('"'), enc.suffix()),
        None => etag,
    };
    response_headers.insert(
        header::ETAG,
        HeaderValue::from_str(&etag).expect("hex etag"),
    );
    let not_modified = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    if not_modified {
        return (StatusCode::NOT_MODIFIED, response_headers).into_response();
    }

    let body = match encoding {
        Some(enc) => {
            let assets: Arc<Assets> = state.assets.clone();
            let key = path.to_owned();
            let bytes = tokio::task::spawn_blocking(move || assets.compressed(&key, &file, enc))
                .await
                .unwrap_or_else(|_| Bytes::new());
            response_headers.insert(header::CONTENT_ENCODING, enc.header());
            bytes
        }
        None => file.data,
    };
    response_headers.insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
    if head {
        return (StatusCode::OK, response_headers).into_response();
    }
    (StatusCode::OK, response_headers, Body::from(body)).into_response()
}

/// A content hash for files read from disk (not cryptographic: ETags only).
fn content_hash(data: &[u8]) -> [u8; 8] {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    data.hash(&mut h);
    h.finish().to_be_bytes()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The app built into the binary is found (a wrong `#[folder]` would embed nothing
    /// and, with `allow_missing`, fail silently). Needs a web build, as the test script
    /// makes before the browser tests.
    #[test]
    fn the_built_in_web_app_is_found_when_web_dist_exists() {
        let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/dist");
        if !dist.join("index.html").exists() {
            eprintln!("web/dist not built: skipped");
            return;
        }
        let assets = Assets::load(&Config::default());
        assert!(assets.has_web_app());
        assert!(assets.get("favicon.svg").is_some());
    }
}
