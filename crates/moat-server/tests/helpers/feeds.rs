//! A real HTTP feed server on the loopback for the news tests: feed files at paths the
//! test sets, with ETag/304, and the misbehaviours of the wild (an HTML page, a 50 MB
//! body, a gzip bomb, a body that never ends, a redirect loop, 429 with Retry-After).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::{
    body::Body,
    extract::{Request, State},
    http::{header, HeaderMap, StatusCode},
    response::{IntoResponse, Response},
};
use bytes::Bytes;

/// What a path answers.
#[derive(Clone)]
pub enum Answer {
    /// 200 with the body and content type; `ETag` from the body's hash, 304 on a match.
    Feed {
        body: Bytes,
        content_type: &'static str,
    },
    /// This status, with `Retry-After` when given.
    Status {
        status: u16,
        retry_after: Option<&'static str>,
    },
    /// `size` bytes of a never-closing `<rss>` document, streamed without a length.
    Huge { size: usize },
    /// A gzip body that inflates to `inflated` bytes of zeros.
    GzipBomb { inflated: usize },
    /// Headers, the first bytes of a feed, then nothing ever again.
    Hang,
    /// 302 to itself.
    RedirectLoop,
}

#[derive(Default)]
struct Inner {
    answers: HashMap<String, Answer>,
    /// Requests per path.
    hits: HashMap<String, u32>,
    /// The headers of the last request per path.
    last_headers: HashMap<String, HeaderMap>,
}

#[derive(Clone)]
pub struct FeedServer {
    pub base: String,
    inner: Arc<Mutex<Inner>>,
}

fn etag_of(body: &[u8]) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(body);
    format!(
        "\"{}\"",
        d[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    )
}

async fn answer(State(inner): State<Arc<Mutex<Inner>>>, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    let answer = {
        let mut inner = inner.lock().unwrap();
        *inner.hits.entry(path.clone()).or_default() += 1;
        inner
            .last_headers
            .insert(path.clone(), request.headers().clone());
        inner.answers.get(&path).cloned()
    };
    let Some(answer) = answer else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match answer {
        Answer::Feed { body, content_type } => {
            let etag = etag_of(&body);
            if request
                .headers()
                .get(header::IF_NONE_MATCH)
                .is_some_and(|v| v.as_bytes() == etag.as_bytes())
            {
                return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
            }
            (
                [
                    (header::CONTENT_TYPE, content_type.to_owned()),
                    (header::ETAG, etag),
                ],
                body,
            )
                .into_response()
        }
        Answer::Status {
            status,
            retry_after,
        } => {
            let mut r = StatusCode::from_u16(status).unwrap().into_response();
            if let Some(v) = retry_after {
                r.headers_mut()
                    .insert(header::RETRY_AFTER, v.parse().unwrap());
            }
            r
        }
        Answer::Huge { size } => {
            let chunk = Bytes::from(vec![b' '; 64 * 1024]);
            let head = Bytes::from_static(
                b"<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>big</title>",
            );
            let n = size / chunk.len();
            let stream = futures_util::stream::iter(
                std::iter::once(Ok::<_, std::io::Error>(head))
                    .chain((0..n).map(move |_| Ok(chunk.clone()))),
            );
            (
                [(header::CONTENT_TYPE, "application/rss+xml")],
                Body::from_stream(stream),
            )
                .into_response()
        }
        Answer::GzipBomb { inflated } => {
            use std::io::Write;
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            let zeros = vec![0u8; 1024 * 1024];
            for _ in 0..inflated / zeros.len() {
                gz.write_all(&zeros).unwrap();
            }
            let body = gz.finish().unwrap();
            (
                [
                    (header::CONTENT_TYPE, "application/rss+xml"),
                    (header::CONTENT_ENCODING, "gzip"),
                ],
                body,
            )
                .into_response()
        }
        Answer::Hang => {
            let head = futures_util::stream::once(async {
                Ok::<_, std::io::Error>(Bytes::from_static(b"<?xml version=\"1.0\"?><rss"))
            });
            let stream = futures_util::StreamExt::chain(head, futures_util::stream::pending());
            (
                [(header::CONTENT_TYPE, "application/rss+xml")],
                Body::from_stream(stream),
            )
                .into_response()
        }
        Answer::RedirectLoop => (StatusCode::FOUND, [(header::LOCATION, path)]).into_response(),
    }
}

impl FeedServer {
    /// Starts a server on `ip` (a loopback address such as 127.0.0.1), port 0.
    pub async fn start_on(ip: &str) -> Self {
        let inner = Arc::new(Mutex::new(Inner::default()));
        let router = axum::Router::new()
            .fallback(answer)
            .with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind(format!("{ip}:0"))
            .await
            .unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, router).await });
        Self {
            base: format!("http://{addr}"),
            inner,
        }
    }

    pub async fn start() -> Self {
        Self::start_on("127.0.0.1").await
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn set(&self, path: &str, answer: Answer) {
        self.inner
            .lock()
            .unwrap()
            .answers
            .insert(path.to_owned(), answer);
    }

    /// Serves `body` at `path` as RSS.
    pub fn rss(&self, path: &str, body: impl Into<Bytes>) {
        self.set(
            path,
            Answer::Feed {
                body: body.into(),
                content_type: "application/rss+xml; charset=utf-8",
            },
        );
    }

    pub fn hits(&self, path: &str) -> u32 {
        self.inner
            .lock()
            .unwrap()
            .hits
            .get(path)
            .copied()
            .unwrap_or(0)
    }

    pub fn last_header(&self, path: &str, name: &str) -> Option<String> {
        self.inner
            .lock()
            .unwrap()
            .last_headers
            .get(path)
            .and_then(|h| h.get(name))
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    }
}

/// One RSS item.
pub struct Item<'a> {
    pub guid: Option<&'a str>,
    pub link: Option<&'a str>,
    pub title: &'a str,
    pub description: &'a str,
    /// RFC 2822.
    pub pub_date: Option<&'a str>,
}

/// An RSS 2.0 document of `items` (titles and descriptions escaped as XML text).
pub fn rss(title: &str, items: &[Item<'_>]) -> String {
    fn esc(s: &str) -> String {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    }
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>{}</title><link>http://example.com/</link><description>test</description>\n",
        esc(title)
    );
    for i in items {
        out.push_str("<item>");
        if let Some(g) = i.guid {
            out.push_str(&format!("<guid isPermaLink=\"false\">{}</guid>", esc(g)));
        }
        if let Some(l) = i.link {
            out.push_str(&format!("<link>{}</link>", esc(l)));
        }
        out.push_str(&format!(
            "<title>{}</title><description>{}</description>",
            esc(i.title),
            esc(i.description)
        ));
        if let Some(d) = i.pub_date {
            out.push_str(&format!("<pubDate>{d}</pubDate>"));
        }
        out.push_str("</item>\n");
    }
    out.push_str("</channel></rss>\n");
    out
}
