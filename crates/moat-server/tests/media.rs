//! The media store (docs/scale-out.md, "Media store"): one suite of store tests run
//! against the folder store and against a real S3-compatible server (s3s-fs, started
//! per test), `GET`/`HEAD /media/{key}` with ranges, validators and hostile keys, and
//! the operator's branding images (logo, share card) shared by two instances.
//!
//! The S3 tests need the `s3s-fs` binary: `MOAT_TEST_S3S_FS`, else
//! `/var/cache/moat-ci/tools/bin/s3s-fs`, else `s3s-fs` on the `PATH`
//! (`scripts/test.sh` installs it). Without it they fail, naming the command.

mod helpers;

use std::{
    net::TcpStream,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::Duration,
};

use bytes::Bytes;
use futures_util::StreamExt;
use helpers::{assert_error, signup, TestApp};
use moat_server::{
    config::Config,
    media::{
        folder::{FolderStore, READ_CHUNK_BYTES},
        s3::S3Store,
        ByteStream, MediaConfig, MediaError, MediaKey, MediaStore, StoreKind,
    },
};
use moat_storage::testing::TestDatabase;

// ---------------------------------------------------------------------------------
// A real S3-compatible server.

const S3_ACCESS_KEY: &str = "moat-test-access";
const S3_SECRET_KEY: &str = "moat-test-secret-0123456789";
const S3_BUCKET: &str = "moat-media";
/// Where `scripts/test.sh` installs s3s-fs (outside the clone, cached across runs).
const S3S_FS_CACHED: &str = "/var/cache/moat-ci/tools/bin/s3s-fs";
const S3S_FS_INSTALL: &str = "cargo install s3s-fs --version 0.12.0 --locked --features binary --root /var/cache/moat-ci/tools";

fn s3s_fs_binary() -> PathBuf {
    if let Ok(path) = std::env::var("MOAT_TEST_S3S_FS") {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "MOAT_TEST_S3S_FS={} is not a file; install s3s-fs with: {S3S_FS_INSTALL}",
            path.display()
        );
        return path;
    }
    if Path::new(S3S_FS_CACHED).is_file() {
        return PathBuf::from(S3S_FS_CACHED);
    }
    if let Some(found) = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("s3s-fs"))
            .find(|p| p.is_file())
    }) {
        return found;
    }
    panic!(
        "the S3 media tests need s3s-fs, a real S3-compatible server, and it is not installed.\n\
         Run scripts/test.sh (it installs it), or: {S3S_FS_INSTALL}\n\
         or point MOAT_TEST_S3S_FS at the binary."
    );
}

/// An s3s-fs server on a free port with one empty bucket; killed on drop.
struct S3Server {
    child: Child,
    _root: tempfile::TempDir,
    endpoint: String,
}

impl S3Server {
    fn start() -> Self {
        let binary = s3s_fs_binary();
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join(S3_BUCKET)).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(&binary)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--access-key", S3_ACCESS_KEY, "--secret-key", S3_SECRET_KEY])
            .arg(root.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                std::time::Instant::now() < deadline,
                "s3s-fs did not listen on {port} within 10 s"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Self {
            child,
            _root: root,
            endpoint: format!("http://127.0.0.1:{port}"),
        }
    }

    fn config(&self) -> MediaConfig {
        MediaConfig {
            store: StoreKind::S3,
            endpoint: self.endpoint.clone(),
            bucket: S3_BUCKET.into(),
            region: "us-east-1".into(),
            access_key_id: S3_ACCESS_KEY.into(),
            secret_access_key: S3_SECRET_KEY.into(),
            path_style: true,
            ..MediaConfig::default()
        }
    }

    fn store(&self) -> S3Store {
        S3Store::open(&self.config()).expect("the S3 store opens")
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------
// The store suite, run against both stores.

fn key(k: &str) -> MediaKey {
    MediaKey::parse(k).unwrap()
}

async fn read_all(store: &dyn MediaStore, k: &MediaKey) -> Vec<u8> {
    let mut object = store.get(k, None, None).await.expect("get");
    let mut out = Vec::new();
    while let Some(chunk) = object.body.next().await {
        out.extend_from_slice(&chunk.unwrap());
    }
    out
}

/// `len` bytes of a pattern that shows misplaced ranges.
fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

fn chunked(bytes: Vec<u8>, chunk: usize) -> ByteStream {
    let chunks: Vec<std::io::Result<Bytes>> = bytes
        .chunks(chunk)
        .map(|c| Ok(Bytes::copy_from_slice(c)))
        .collect();
    futures_util::stream::iter(chunks).boxed()
}

async fn store_suite(store: &dyn MediaStore) {
    let hello = key("notes/2026/hello.txt");
    // A missing key.
    assert!(matches!(
        store.head(&hello).await,
        Err(MediaError::NotFound)
    ));
    assert!(matches!(
        store.get(&hello, None, None).await,
        Err(MediaError::NotFound)
    ));
    store
        .delete(&hello)
        .await
        .expect("deleting nothing is fine");

    // Put, head, get, get a range.
    let info = store
        .put_bytes(
            &hello,
            Bytes::from_static(b"hello, world"),
            "text/plain; charset=utf-8",
        )
        .await
        .expect("put");
    assert_eq!(info.size, 12);
    assert_eq!(info.content_type, "text/plain; charset=utf-8");
    assert!(info.etag.starts_with('"') && info.etag.ends_with('"') && info.etag.len() > 2);
    assert_eq!(store.head(&hello).await.unwrap(), info);
    assert_eq!(read_all(store, &hello).await, b"hello, world");
    let mut part = store.get(&hello, Some(7..12), None).await.unwrap();
    assert_eq!(part.range, 7..12);
    assert_eq!(part.info.size, 12, "the whole object's size");
    let mut got = Vec::new();
    while let Some(c) = part.body.next().await {
        got.extend_from_slice(&c.unwrap());
    }
    assert_eq!(got, b"world");
    assert!(store
        .get(&hello, Some(0..5), Some(&info.etag))
        .await
        .is_ok());
    assert!(matches!(
        store.get(&hello, Some(0..5), Some("\"stale\"")).await,
        Err(MediaError::Changed)
    ));

    // Replacing an object changes its ETag.
    let replaced = store
        .put_bytes(&hello, Bytes::from_static(b"HELLO, WORLD!"), "text/plain")
        .await
        .unwrap();
    assert_eq!(replaced.size, 13);
    assert_ne!(replaced.etag, info.etag);
    assert_eq!(read_all(store, &hello).await, b"HELLO, WORLD!");

    // A streamed body of many chunks, larger than one upload part (multipart on S3).
    let big = key("big/object.bin");
    let bytes = pattern(9 * 1024 * 1024 + 17);
    let info = store
        .put(
            &big,
            chunked(bytes.clone(), 100_000),
            "application/octet-stream",
        )
        .await
        .expect("streamed put");
    assert_eq!(info.size, bytes.len() as u64);
    assert!(read_all(store, &big).await == bytes, "the bytes come back");
    let mut tail = store
        .get(&big, Some(9 * 1024 * 1024..bytes.len() as u64), None)
        .await
        .unwrap();
    let mut got = Vec::new();
    while let Some(c) = tail.body.next().await {
        got.extend_from_slice(&c.unwrap());
    }
    assert_eq!(got, bytes[9 * 1024 * 1024..]);

    // A body that fails half-way leaves the old object.
    let failing: ByteStream = futures_util::stream::iter(vec![
        Ok(Bytes::from_static(b"partial")),
        Err(std::io::Error::other("the client went away")),
    ])
    .boxed();
    assert!(store.put(&hello, failing, "text/plain").await.is_err());
    assert_eq!(read_all(store, &hello).await, b"HELLO, WORLD!");

    // Delete.
    store.delete(&hello).await.unwrap();
    assert!(matches!(
        store.head(&hello).await,
        Err(MediaError::NotFound)
    ));
    store.delete(&big).await.unwrap();
    assert!(matches!(
        store.get(&big, None, None).await,
        Err(MediaError::NotFound)
    ));
}

#[tokio::test]
async fn the_folder_store_passes_the_store_suite() {
    let dir = tempfile::tempdir().unwrap();
    let store = FolderStore::open(dir.path().join("media")).unwrap();
    store_suite(&store).await;
    // Nothing is left behind by the failed write.
    let tmp = std::fs::read_dir(dir.path().join("media/.tmp"))
        .unwrap()
        .count();
    assert_eq!(tmp, 0, "no temporary files left");
}

#[tokio::test]
async fn the_s3_store_passes_the_store_suite_against_a_real_s3_server() {
    let server = S3Server::start();
    store_suite(&server.store()).await;
}

#[tokio::test]
async fn the_s3_store_refuses_wrong_credentials() {
    let server = S3Server::start();
    let store = S3Store::open(&MediaConfig {
        secret_access_key: "wrong".into(),
        ..server.config()
    })
    .unwrap();
    let err = store
        .put_bytes(&key("x.txt"), Bytes::from_static(b"x"), "text/plain")
        .await
        .expect_err("refused");
    assert!(matches!(err, MediaError::Other(_)), "{err:?}");
    assert!(matches!(
        server.store().head(&key("x.txt")).await,
        Err(MediaError::NotFound)
    ));
}

// ---------------------------------------------------------------------------------
// Serving.

const TEXT: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ \
0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

async fn put_text(app: &TestApp, k: &str) -> String {
    app.state
        .media
        .store
        .put_bytes(&key(k), Bytes::from_static(TEXT), "text/plain")
        .await
        .unwrap()
        .etag
}

fn header<'a>(r: &'a reqwest::Response, name: &str) -> &'a str {
    r.headers()
        .get(name)
        .map(|v| v.to_str().unwrap())
        .unwrap_or("")
}

async fn get_with(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let mut req = app.raw_client.get(app.url(path));
    for (n, v) in headers {
        req = req.header(*n, *v);
    }
    req.send().await.unwrap()
}

/// The serving checks, for an app whose store holds `docs/text.txt` (TEXT).
async fn serving_suite(app: &TestApp) {
    let etag = put_text(app, "docs/text.txt").await;
    let len = TEXT.len();
    let path = "/media/docs/text.txt";

    let r = get_with(app, path, &[]).await;
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "content-type"), "text/plain");
    assert_eq!(header(&r, "accept-ranges"), "bytes");
    assert_eq!(header(&r, "etag"), etag);
    assert_eq!(header(&r, "content-length"), len.to_string());
    assert_eq!(header(&r, "x-content-type-options"), "nosniff");
    assert!(
        header(&r, "content-security-policy").ends_with("; sandbox"),
        "a stored file never runs as a page of Moat's origin"
    );
    assert!(header(&r, "cache-control").starts_with("public"));
    assert!(header(&r, "last-modified").ends_with(" GMT"));
    assert_eq!(r.bytes().await.unwrap(), TEXT);

    // Ranges.
    let cases: &[(&str, usize, usize)] = &[
        ("bytes=0-9", 0, 10),
        ("bytes=10-", 10, len),
        ("bytes=-5", len - 5, len),
        ("bytes=100-100000", 100, len),
    ];
    for (range, start, end) in cases {
        let r = get_with(app, path, &[("range", range)]).await;
        assert_eq!(r.status(), 206, "{range}");
        assert_eq!(
            header(&r, "content-range"),
            format!("bytes {start}-{}/{len}", end - 1),
            "{range}"
        );
        assert_eq!(header(&r, "content-length"), (end - start).to_string());
        assert_eq!(r.bytes().await.unwrap(), TEXT[*start..*end], "{range}");
    }
    for range in [
        format!("bytes={len}-"),
        format!("bytes={}-{}", len + 5, len + 10),
        "bytes=9-3".to_owned(),
        "bytes=-0".to_owned(),
    ] {
        let r = get_with(app, path, &[("range", &range)]).await;
        assert_eq!(r.status(), 416, "{range}");
        assert_eq!(header(&r, "content-range"), format!("bytes */{len}"));
    }
    // Several ranges: the whole object.
    let r = get_with(app, path, &[("range", "bytes=0-1,4-5")]).await;
    assert_eq!(r.status(), 200);

    // If-Range: the current ETag keeps the range, another gets the whole object.
    let r = get_with(app, path, &[("range", "bytes=0-3"), ("if-range", &etag)]).await;
    assert_eq!(r.status(), 206);
    assert_eq!(r.bytes().await.unwrap(), TEXT[..4]);
    let r = get_with(
        app,
        path,
        &[("range", "bytes=0-3"), ("if-range", "\"another\"")],
    )
    .await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.bytes().await.unwrap(), TEXT);

    // If-None-Match.
    let r = get_with(app, path, &[("if-none-match", &etag)]).await;
    assert_eq!(r.status(), 304);
    assert_eq!(header(&r, "etag"), etag);
    let r = get_with(app, path, &[("if-none-match", "\"another\"")]).await;
    assert_eq!(r.status(), 200);

    // HEAD: the headers, no body.
    let r = app.raw_client.head(app.url(path)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "content-length"), len.to_string());
    assert_eq!(header(&r, "accept-ranges"), "bytes");
    assert!(r.bytes().await.unwrap().is_empty());

    // Never compressed, whole or ranged, though the client accepts it and the type is text.
    for encoding in ["gzip", "br", "gzip, deflate, br"] {
        let r = get_with(app, path, &[("accept-encoding", encoding)]).await;
        assert_eq!(r.status(), 200);
        assert_eq!(header(&r, "content-encoding"), "", "{encoding}");
        assert_eq!(header(&r, "accept-ranges"), "bytes");
        assert_eq!(r.bytes().await.unwrap(), TEXT);
        let r = get_with(
            app,
            path,
            &[("accept-encoding", encoding), ("range", "bytes=5-14")],
        )
        .await;
        assert_eq!(r.status(), 206);
        assert_eq!(header(&r, "content-encoding"), "");
        assert_eq!(header(&r, "content-range"), format!("bytes 5-14/{len}"));
        assert_eq!(r.bytes().await.unwrap(), TEXT[5..15]);
    }

    // A missing object.
    let r = get_with(app, "/media/docs/missing.txt", &[]).await;
    assert_error(r, 404, "not_found").await;
}

#[tokio::test]
async fn media_is_served_ranged_with_validators_and_never_compressed_from_the_folder() {
    let app = TestApp::spawn().await;
    serving_suite(&app).await;
    // The folder is under the data directory by default.
    assert!(app
        .state
        .config
        .data_dir
        .join("media/docs/text.txt")
        .is_file());
}

#[tokio::test]
async fn media_is_served_ranged_with_validators_and_never_compressed_from_s3() {
    let server = S3Server::start();
    let media = server.config();
    let app = TestApp::spawn_with(TestDatabase::sqlite(), move |c| c.media = media).await;
    assert_eq!(app.state.media.store.kind(), "s3");
    serving_suite(&app).await;
    assert!(
        !app.state.config.data_dir.join("media/docs").exists(),
        "nothing in the folder"
    );
}

/// Sends a request line as it is written, without a client's URL normalisation
/// (`..`, `%2e%2e` and `//` reach the server untouched); the status and body.
async fn raw_get(app: &TestApp, target: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = app.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw))
        .await
        .unwrap_or_else(|_| panic!("{target}: no answer"))
        .unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text[9..12].parse().unwrap();
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_owned();
    (status, body)
}

#[tokio::test]
async fn hostile_keys_are_a_400_and_reach_nothing() {
    let app = TestApp::spawn().await;
    put_text(&app, "docs/text.txt").await;
    // Files beside and above the media folder that no key may reach.
    std::fs::write(app.state.config.data_dir.join("secret.txt"), "secret").unwrap();
    let targets = [
        "/media/../secret.txt",
        "/media/..",
        "/media/%2e%2e/secret.txt",
        "/media/%2E%2E/secret.txt",
        "/media/docs/%2e%2e/%2e%2e/secret.txt",
        "/media/docs/../../secret.txt",
        "/media/..%2fsecret.txt",
        "/media/..%2Fmoat.db",
        "/media//etc/passwd",
        "/media/%2Fetc%2Fpasswd",
        "/media/docs//text.txt",
        "/media/.types/docs/text.txt",
        "/media/.tmp",
        "/media/docs/text.txt%00.png",
        "/media/%FF",
        "/media/docs%5Ctext.txt",
    ];
    for target in targets {
        let (status, body) = raw_get(&app, target).await;
        assert_eq!(status, 400, "{target}: {body}");
        let json: serde_json::Value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("{target}: not JSON ({e}): {body}"));
        assert_eq!(json["code"], "invalid_media_key", "{target}");
        assert!(
            json["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{target}"
        );
        assert!(!body.contains("secret"), "{target}");
    }
    // The real object is still there and unchanged.
    let (status, body) = raw_get(&app, "/media/docs/text.txt").await;
    assert_eq!((status, body.as_bytes()), (200, TEXT));
}

/// Frames of a served 8 MiB object: streamed in chunks, never one buffer.
async fn frame_sizes(app: &TestApp, path: &str, range: Option<&str>) -> (u16, Vec<usize>) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let router = moat_server::http::router(app.state.clone());
    let mut req = axum::http::Request::get(path).header("accept-encoding", "gzip");
    if let Some(r) = range {
        req = req.header("range", r);
    }
    let req = req
        .extension(axum::extract::ConnectInfo(std::net::SocketAddr::from((
            [127, 0, 0, 1],
            1,
        ))))
        .body(axum::body::Body::empty())
        .unwrap();
    let res = router.oneshot(req).await.unwrap();
    let status = res.status().as_u16();
    assert!(res.headers().get("content-encoding").is_none());
    let mut body = res.into_body();
    let mut sizes = Vec::new();
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame.unwrap().into_data() {
            sizes.push(data.len());
        }
    }
    (status, sizes)
}

async fn streams_large_objects(app: &TestApp, largest_frame: usize) {
    const SIZE: usize = 8 * 1024 * 1024;
    app.state
        .media
        .store
        .put(
            &key("big/eight.bin"),
            chunked(pattern(SIZE), 1 << 20),
            "application/octet-stream",
        )
        .await
        .unwrap();
    let (status, sizes) = frame_sizes(app, "/media/big/eight.bin", None).await;
    assert_eq!(status, 200);
    assert_eq!(sizes.iter().sum::<usize>(), SIZE);
    let max = sizes.iter().copied().max().unwrap();
    assert!(
        max <= largest_frame,
        "the body is streamed, not buffered whole: largest frame {max} bytes of {} frames",
        sizes.len()
    );
    assert!(
        sizes.len() >= SIZE / largest_frame,
        "{} frames",
        sizes.len()
    );
    let (status, sizes) = frame_sizes(app, "/media/big/eight.bin", Some("bytes=1000-")).await;
    assert_eq!(status, 206);
    assert_eq!(sizes.iter().sum::<usize>(), SIZE - 1000);
    assert!(sizes.iter().copied().max().unwrap() <= largest_frame);
}

#[tokio::test]
async fn a_large_object_is_streamed_chunk_by_chunk_from_the_folder() {
    let app = TestApp::spawn().await;
    streams_large_objects(&app, READ_CHUNK_BYTES).await;
}

#[tokio::test]
async fn a_large_object_is_streamed_chunk_by_chunk_from_s3() {
    let server = S3Server::start();
    let media = server.config();
    let app = TestApp::spawn_with(TestDatabase::sqlite(), move |c| c.media = media).await;
    // As the bucket's response arrives: far smaller than the object.
    streams_large_objects(&app, 1024 * 1024).await;
}

// ---------------------------------------------------------------------------------
// Branding: the operator's logo and share card.

/// The smallest PNG header, enough for the type check.
fn png(tag: &str) -> Vec<u8> {
    let mut b = b"\x89PNG\r\n\x1a\n".to_vec();
    b.extend_from_slice(tag.as_bytes());
    b
}

async fn upload(app: &TestApp, path: &str, token: &str, body: Vec<u8>) -> reqwest::Response {
    app.client
        .put(app.url(path))
        .bearer_auth(token)
        .header("content-type", "application/octet-stream")
        .body(body)
        .send()
        .await
        .unwrap()
}

async fn meta(app: &TestApp) -> serde_json::Value {
    app.get("/api/meta").await.json().await.unwrap()
}

#[tokio::test]
async fn the_operator_sets_the_logo_and_refuses_what_is_not_an_image() {
    let app = TestApp::spawn().await;
    let operator = signup(&app, "op@moat.example", "kimjiwoo").await;
    let member = signup(&app, "m@moat.example", "parkminsu").await;
    assert!(meta(&app).await["logo_url"].is_null());

    // Members, visitors, and bodies that are not PNG, JPEG or WebP change nothing.
    let r = upload(&app, "/api/admin/branding/logo", &member, png("a")).await;
    assert_error(r, 403, "forbidden").await;
    let r = app
        .client
        .put(app.url("/api/admin/branding/logo"))
        .body(png("a"))
        .send()
        .await
        .unwrap();
    assert_error(r, 401, "unauthenticated").await;
    for refused in [
        b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>".to_vec(),
        b"<?xml version=\"1.0\"?><svg/>".to_vec(),
        b"GIF89a....".to_vec(),
        Vec::new(),
    ] {
        let r = upload(&app, "/api/admin/branding/logo", &operator, refused).await;
        assert_error(r, 415, "unsupported_image").await;
    }
    let mut huge = png("x");
    huge.resize(moat_server::media::branding::MAX_IMAGE_BYTES + 1, 0);
    let r = upload(&app, "/api/admin/branding/logo", &operator, huge).await;
    assert_error(r, 413, "payload_too_large").await;
    assert!(meta(&app).await["logo_url"].is_null());
    let media = app.state.config.data_dir.join("media/branding");
    assert!(!media.exists() || std::fs::read_dir(&media).unwrap().count() == 0);

    // An image over the general body limit (64 KiB in tests) but under the logo's.
    let mut first = png("first");
    first.resize(200 * 1024, 7);
    let r = upload(&app, "/api/admin/branding/logo", &operator, first.clone()).await;
    assert_eq!(r.status(), 200);
    let body: serde_json::Value = r.json().await.unwrap();
    let url = body["logo_url"].as_str().unwrap().to_owned();
    assert!(
        url.starts_with("/media/branding/logo-") && url.ends_with(".png"),
        "{url}"
    );
    assert_eq!(meta(&app).await["logo_url"], url.as_str());
    let r = app.get(&url).await;
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "content-type"), "image/png");
    assert_eq!(r.bytes().await.unwrap(), first);

    // A new logo is a new URL; the old one is gone.
    let r = upload(
        &app,
        "/api/admin/branding/logo",
        &operator,
        b"\xFF\xD8\xFF\xE0jpeg".to_vec(),
    )
    .await;
    let second = r.json::<serde_json::Value>().await.unwrap()["logo_url"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(second.ends_with(".jpg") && second != url, "{second}");
    assert_eq!(app.get(&url).await.status(), 404);
    let r = app.get(&second).await;
    assert_eq!(header(&r, "content-type"), "image/jpeg");

    // Back to the built-in mark.
    let r = app
        .client
        .delete(app.url("/api/admin/branding/logo"))
        .bearer_auth(&operator)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(meta(&app).await["logo_url"].is_null());
    assert_eq!(app.get(&second).await.status(), 404);
}

async fn og_image(app: &TestApp) -> String {
    let html = app.get("/").await.text().await.unwrap();
    let at = html
        .find("property=\"og:image\" content=\"")
        .expect("an og:image");
    let rest = &html[at + "property=\"og:image\" content=\"".len()..];
    rest[..rest.find('"').unwrap()].to_owned()
}

/// Two instances on one database and one store: what one sets, the other shows.
async fn share_card_across_instances(media: MediaConfig) {
    let a_db = TestDatabase::sqlite();
    let db_path = a_db.url.trim_start_matches("sqlite://").to_owned();
    // One public address and one token key (a token from A is good on B).
    let public = |c: &mut Config| {
        c.public_url = "https://moat.example".into();
        c.accounts.token_key = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=".into();
    };
    let m = media.clone();
    let a = TestApp::spawn_with(a_db, move |c| {
        public(c);
        c.media = m;
    })
    .await;
    let b = TestApp::spawn_with(TestDatabase::sqlite_file(Path::new(&db_path)), move |c| {
        public(c);
        c.media = media;
    })
    .await;
    assert_eq!(og_image(&b).await, "https://moat.example/og-image.png");
    let operator = signup(&a, "op@moat.example", "kimjiwoo").await;
    let card = png("share card");
    let r = upload(
        &a,
        "/api/admin/branding/share-card",
        &operator,
        card.clone(),
    )
    .await;
    assert_eq!(r.status(), 200);
    let url = r.json::<serde_json::Value>().await.unwrap()["share_card_url"]
        .as_str()
        .unwrap()
        .to_owned();
    // Instance B names it in its pages and serves it.
    assert_eq!(og_image(&b).await, format!("https://moat.example{url}"));
    assert_eq!(meta(&b).await["share_card_url"], url.as_str());
    let r = b.get(&url).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.bytes().await.unwrap(), card);
    // Removed through B: both go back to the built-in card.
    let r = b
        .client
        .delete(b.url("/api/admin/branding/share-card"))
        .bearer_auth(&operator)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(og_image(&a).await, "https://moat.example/og-image.png");
    assert_eq!(a.get(&url).await.status(), 404);
}

#[tokio::test]
async fn the_share_card_is_shared_by_two_instances_through_a_shared_folder() {
    let shared = tempfile::tempdir().unwrap();
    share_card_across_instances(MediaConfig {
        folder: shared.path().to_path_buf(),
        ..MediaConfig::default()
    })
    .await;
}

#[tokio::test]
async fn the_share_card_is_shared_by_two_instances_through_s3() {
    let server = S3Server::start();
    share_card_across_instances(server.config()).await;
}
