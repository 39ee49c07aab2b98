//! Feed bytes → clean items.
//!
//! feed-rs reads the formats; this module decides what Moat keeps of each entry:
//!
//! - **id**: the feed's (RSS guid, Atom id, JSON id; hashed when longer than
//!   [`MAX_GUID_LEN`]), else [`generate_guid`].
//! - **url**: the first `alternate` (or rel-less) link that resolves against the feed
//!   URL to http(s); else an http(s) id (an RSS permalink guid); else none.
//! - **title, summary**: [`plain_text`] of the title, and of the summary or else the
//!   content, cut to [`SUMMARY_MAX_CHARS`]. An item without a title (RSS allows one
//!   with only a description; a title that was only markup) takes the start of its
//!   summary ([`TITLE_FROM_SUMMARY_CHARS`]); both can still be empty. JSON Feed's `content_text` goes through the
//!   same cleaner (a `<` that opens a tag-like word is read as markup).
//! - **published_at**: published, else updated; see [`EARLIEST_YEAR`] and
//!   [`FUTURE_SKEW`]. The id uses the date as the feed gave it, so clamping does not
//!   move it.
//! - **image_url**: the first image `media:content` or enclosure (by type, or by file
//!   extension when untyped), else the first `media:thumbnail`. (feed-rs does not read
//!   JSON Feed's `image`.)
//! - **accession**: EDGAR's accession number, from an `accession-number=` id or an
//!   `/Archives/edgar/` link: one filing appears as Filer, Subject, Reporting and Issuer
//!   entries, and the accession makes them one story.

use std::sync::OnceLock;

use chrono::{DateTime, Datelike, SecondsFormat, Utc};
use chrono_tz::Tz;
use feed_rs::model::{Entry, MediaObject};
use feed_rs::parser::{ParseErrorKind, ParseFeedError};
use regex::Regex;
use sha2::{Digest, Sha256};

use crate::canonical::absolute_http_url;
use crate::dates;
use crate::text::{plain_text, plain_text_prefix, truncate_chars};

/// At most this many items are kept from one feed (the first ones in document order).
pub const MAX_ITEMS_PER_FEED: usize = 500;

/// A date later than `now` by more than this is clamped to `now`.
pub const FUTURE_SKEW: chrono::Duration = chrono::Duration::days(1);

/// Dates before this year (the 1970 epoch of a broken CMS) are unknown.
pub const EARLIEST_YEAR: i32 = 1990;

/// At most this many characters of summary (the last being "…" when cut).
pub const SUMMARY_MAX_CHARS: usize = 300;

/// An item without a title takes this many characters of its summary as one.
pub const TITLE_FROM_SUMMARY_CHARS: usize = 100;

/// What the parser needs to know about the feed beyond its bytes.
#[derive(Debug, Clone)]
pub struct ParseContext {
    /// `KR` or `US`: zone-less times are read as Asia/Seoul for `KR`, else UTC.
    pub country: String,
    /// The fetch time: dates beyond it by more than [`FUTURE_SKEW`] are clamped to it.
    pub now: DateTime<Utc>,
}

impl ParseContext {
    pub fn new(country: &str, now: DateTime<Utc>) -> Self {
        ParseContext {
            country: country.to_owned(),
            now,
        }
    }
}

/// A parsed feed.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedFeed {
    /// The feed's title as plain text (may be empty).
    pub title: String,
    /// At most [`MAX_ITEMS_PER_FEED`] items, in document order.
    pub items: Vec<FeedItem>,
    /// How many items were dropped beyond [`MAX_ITEMS_PER_FEED`].
    pub items_dropped: usize,
}

/// One clean item.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedItem {
    /// Stable: the feed's own id (guid, Atom id, JSON id), else a SHA-256 of the feed
    /// URL, the normalised title and the published date (hex).
    pub guid: String,
    /// The article's absolute http(s) URL, if any.
    pub url: Option<String>,
    /// Plain text; the start of the summary when the item has no title; empty only
    /// when both are.
    pub title: String,
    /// Plain text, at most [`SUMMARY_MAX_CHARS`] characters.
    pub summary: String,
    /// `None` when absent, unparseable or before [`EARLIEST_YEAR`].
    pub published_at: Option<DateTime<Utc>>,
    /// True when the feed's date was in the future and clamped to `ctx.now`.
    pub date_clamped: bool,
    /// An http(s) image (media:content, media:thumbnail, an image enclosure).
    pub image_url: Option<String>,
    /// The SEC EDGAR accession number (`0001628280-26-063717`), for EDGAR items.
    pub accession: Option<String>,
}

/// Why bytes gave no feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// Not a feed at all: an empty body, an HTML page, XML of another kind.
    NotAFeed(String),
    /// Looks like a feed but is broken (malformed XML or JSON).
    Malformed(String),
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParseError::NotAFeed(why) => write!(f, "not a feed: {why}"),
            ParseError::Malformed(why) => write!(f, "malformed feed: {why}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses a feed from its raw bytes (never from already-decoded text: the XML prolog's
/// encoding is honoured, so EUC-KR and ISO-8859-1 feeds decode correctly).
pub fn parse_feed(
    bytes: &[u8],
    feed_url: &str,
    ctx: &ParseContext,
) -> Result<ParsedFeed, ParseError> {
    sniff(bytes)?;
    let zone_less = if ctx.country.eq_ignore_ascii_case("KR") {
        chrono_tz::Asia::Seoul
    } else {
        Tz::UTC
    };
    let parser = feed_rs::parser::Builder::new()
        .base_uri(Some(feed_url))
        .sanitize_content(false)
        // Leave ids empty where the feed has none: feed-rs would use a random UUID as
        // a last resort; ours needs the date, which it does not pass.
        .id_generator(|_links, _title, _uri| String::new())
        .timestamp_parser(move |text| dates::parse_date(text, zone_less))
        .build();
    let feed = read(&parser, bytes)?;

    let total = feed.entries.len();
    let items = feed
        .entries
        .into_iter()
        .take(MAX_ITEMS_PER_FEED)
        .map(|entry| clean_item(entry, feed_url, ctx))
        .collect();
    Ok(ParsedFeed {
        title: feed
            .title
            .map(|t| plain_text(&t.content))
            .unwrap_or_default(),
        items,
        items_dropped: total.saturating_sub(MAX_ITEMS_PER_FEED),
    })
}

/// feed-rs, with two repairs it needs: it rejects a whole Atom feed over one
/// `<content type="text/xml">` (SEC EDGAR's company feeds carry one per entry; we read
/// no such content, so those elements are dropped), and an RSS root without
/// `version="2.0"` exactly (none, `2.00`: some generators write these) is not RSS to it.
fn read(
    parser: &feed_rs::parser::Parser,
    bytes: &[u8],
) -> Result<feed_rs::model::Feed, ParseError> {
    let repaired = match parser.parse(bytes) {
        Ok(feed) => return Ok(feed),
        Err(ParseFeedError::ParseError(ParseErrorKind::UnknownMimeType(_))) => {
            Some(without_typed_content(bytes).into_owned())
        }
        Err(ParseFeedError::ParseError(ParseErrorKind::NoFeedRoot)) => with_rss_version(bytes),
        Err(other) => return Err(classify(other, bytes)),
    };
    match repaired {
        Some(fixed) => parser.parse(&*fixed).map_err(|e| classify(e, bytes)),
        None => Err(classify(
            ParseFeedError::ParseError(ParseErrorKind::NoFeedRoot),
            bytes,
        )),
    }
}

/// The bytes with the `<rss>` root declaring `version="2.0"`, or `None` when there is no
/// such root or it already says a version feed-rs reads.
fn with_rss_version(bytes: &[u8]) -> Option<Vec<u8>> {
    static ROOT: OnceLock<regex::bytes::Regex> = OnceLock::new();
    static VERSION: OnceLock<regex::bytes::Regex> = OnceLock::new();
    let root =
        ROOT.get_or_init(|| regex::bytes::Regex::new(r"<rss(\s[^>]*)?>").expect("a valid regex"));
    let version = VERSION.get_or_init(|| {
        regex::bytes::Regex::new(r#"\sversion\s*=\s*(?:"([^"]*)"|'([^']*)')"#)
            .expect("a valid regex")
    });
    let found = root.captures(bytes)?;
    let whole = found.get(0)?;
    let attributes = found.get(1).map_or(&b""[..], |m| m.as_bytes());
    let declared = version
        .captures(attributes)
        .and_then(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| m.as_bytes());
    if matches!(declared, Some(b"2.0" | b"0.91" | b"0.92")) {
        return None;
    }
    let mut fixed = Vec::with_capacity(bytes.len() + 16);
    fixed.extend_from_slice(&bytes[..whole.start()]);
    fixed.extend_from_slice(b"<rss version=\"2.0\"");
    fixed.extend_from_slice(&version.replace_all(attributes, &b""[..]));
    fixed.push(b'>');
    fixed.extend_from_slice(&bytes[whole.end()..]);
    Some(fixed)
}

fn clean_item(entry: Entry, feed_url: &str, ctx: &ParseContext) -> FeedItem {
    let title = entry
        .title
        .as_ref()
        .map(|t| plain_text(&t.content))
        .unwrap_or_default();
    let summary_html = entry
        .summary
        .as_ref()
        .map(|t| t.content.as_str())
        .filter(|s| !s.trim().is_empty())
        .or_else(|| entry.content.as_ref().and_then(|c| c.body.as_deref()))
        .unwrap_or_default();
    let summary = truncate_chars(
        &plain_text_prefix(summary_html, SUMMARY_MAX_CHARS),
        SUMMARY_MAX_CHARS,
    );
    let feed_title = title.clone();
    // RSS allows an item with only a description: its start is the headline.
    let title = if title.is_empty() {
        truncate_chars(&summary, TITLE_FROM_SUMMARY_CHARS)
    } else {
        title
    };

    let raw_date = entry.published.or(entry.updated);
    let (published_at, date_clamped) = match raw_date {
        Some(d) if d.year() < EARLIEST_YEAR => (None, false),
        Some(d) if d > ctx.now + FUTURE_SKEW => (Some(ctx.now), true),
        other => (other, false),
    };

    let id = entry.id.trim();
    let url = article_url(&entry.links, feed_url)
        // An RSS guid is a permalink unless it says otherwise; feed-rs does not tell us
        // which, so an http(s) guid serves only when there is no link.
        .or_else(|| absolute_http_url(id, None));
    let guid = if id.is_empty() {
        generate_guid(feed_url, &feed_title, raw_date)
    } else if id.len() > MAX_GUID_LEN {
        format!("moat:{}", sha256_hex(id.as_bytes()))
    } else {
        id.to_owned()
    };
    let accession = if id.contains("accession-number") {
        accession_from(id)
    } else {
        url.as_deref()
            .filter(|u| u.contains("/Archives/edgar/"))
            .and_then(accession_from)
    };

    FeedItem {
        guid,
        url,
        title,
        summary,
        published_at,
        date_clamped,
        image_url: image_url(&entry.media, feed_url),
        accession,
    }
}

/// The article's page: the first link that is an alternate (or has no `rel`) and
/// http(s), else any http(s) link.
fn article_url(links: &[feed_rs::model::Link], feed_url: &str) -> Option<String> {
    let is_page = |l: &&feed_rs::model::Link| matches!(l.rel.as_deref(), None | Some("alternate"));
    links
        .iter()
        .filter(is_page)
        .chain(links.iter())
        .find_map(|l| absolute_http_url(&l.href, Some(feed_url)))
}

fn image_url(media: &[MediaObject], feed_url: &str) -> Option<String> {
    const IMAGE_EXTENSIONS: &[&str] = &[".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif"];
    let contents = media.iter().flat_map(|m| m.content.iter()).filter_map(|c| {
        let url = c.url.as_ref()?.as_str();
        let is_image = match &c.content_type {
            Some(t) => t.to_string().starts_with("image/"),
            None => {
                let path = url
                    .split(['?', '#'])
                    .next()
                    .unwrap_or_default()
                    .to_ascii_lowercase();
                IMAGE_EXTENSIONS.iter().any(|ext| path.ends_with(ext))
            }
        };
        is_image.then_some(url)
    });
    let thumbnails = media
        .iter()
        .flat_map(|m| m.thumbnails.iter())
        .map(|t| t.image.uri.as_str());
    contents
        .chain(thumbnails)
        .find_map(|u| absolute_http_url(u, Some(feed_url)))
}

/// Our id for an item without one: `moat:` and the SHA-256 (hex) of the feed URL, the
/// normalised title (plain text, lower-case, whitespace collapsed) and the published
/// date as the feed gave it (RFC 3339, or empty). Never random: the same item gets the
/// same id on every poll.
pub fn generate_guid(feed_url: &str, title: &str, published_at: Option<DateTime<Utc>>) -> String {
    let title = crate::text::collapse_whitespace(&title.to_lowercase());
    let date = published_at
        .map(|d| d.to_rfc3339_opts(SecondsFormat::Secs, true))
        .unwrap_or_default();
    let input = format!("{feed_url}\n{title}\n{date}");
    format!("moat:{}", sha256_hex(input.as_bytes()))
}

/// Ids longer than this are replaced by their hash (the store indexes them).
pub const MAX_GUID_LEN: usize = 512;

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The EDGAR accession number (`0001628280-26-063717`) in an Atom id
/// (`urn:tag:sec.gov,2008:accession-number=0001628280-26-063717`) or a filing link
/// (`/Archives/edgar/data/320193/000162828026063717/0001628280-26-063717-index.htm`).
pub fn accession_from(id_or_link: &str) -> Option<String> {
    static DASHED: OnceLock<Regex> = OnceLock::new();
    static FOLDER: OnceLock<Regex> = OnceLock::new();
    let dashed = DASHED.get_or_init(|| {
        Regex::new(r"(?:^|[^0-9])(\d{10}-\d{2}-\d{6})(?:[^0-9]|$)").expect("a valid regex")
    });
    let folder = FOLDER.get_or_init(|| {
        Regex::new(r"/Archives/edgar/data/\d{1,10}/(\d{10})(\d{2})(\d{6})(?:/|$)")
            .expect("a valid regex")
    });
    if let Some(m) = dashed.captures(id_or_link).and_then(|c| c.get(1)) {
        return Some(m.as_str().to_owned());
    }
    folder
        .captures(id_or_link)
        .map(|c| format!("{}-{}-{}", &c[1], &c[2], &c[3]))
}

/// The bytes without Atom `<content>` elements whose `type` is a media type other than
/// text or HTML. Works on the raw bytes of any ASCII-compatible encoding.
fn without_typed_content(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    static RE: OnceLock<regex::bytes::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::bytes::Regex::new(
            r#"(?s)<content\s[^>]*?type\s*=\s*["']([^"']*)["'][^>]*?(?:/>|>.*?</content\s*>)"#,
        )
        .expect("a valid regex")
    });
    re.replace_all(bytes, |caps: &regex::bytes::Captures<'_>| {
        let kind = caps
            .get(1)
            .map(|m| m.as_bytes().to_ascii_lowercase())
            .unwrap_or_default();
        let readable: &[&[u8]] = &[b"text", b"html", b"xhtml", b"text/html", b"text/plain"];
        if readable.contains(&kind.as_slice()) {
            caps[0].to_vec()
        } else {
            Vec::new()
        }
    })
}

/// Rejects what is plainly not a feed before parsing: an empty body, an HTML page.
fn sniff(bytes: &[u8]) -> Result<(), ParseError> {
    let head = head_lower(bytes);
    if head.is_empty() {
        return Err(ParseError::NotAFeed("the body is empty".into()));
    }
    let mut rest = head.as_str();
    loop {
        rest = rest.trim_start();
        if rest.starts_with("<?") {
            rest = rest.split_once("?>").map_or("", |(_, r)| r);
        } else if rest.starts_with("<!--") {
            rest = rest.split_once("-->").map_or("", |(_, r)| r);
        } else {
            break;
        }
    }
    if rest.starts_with("<!doctype html")
        || rest.starts_with("<html")
        || rest.starts_with("<head")
        || rest.starts_with("<body")
    {
        return Err(ParseError::NotAFeed("an HTML page".into()));
    }
    if !(rest.starts_with('<') || rest.starts_with('{')) {
        return Err(ParseError::NotAFeed("neither XML nor JSON".into()));
    }
    if rest.starts_with('{') && !head.contains("jsonfeed.org") {
        return Err(ParseError::NotAFeed("JSON that is not a JSON Feed".into()));
    }
    Ok(())
}

/// The first bytes, lower-cased ASCII, after a UTF-8 byte-order mark.
fn head_lower(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let head = &bytes[..bytes.len().min(4096)];
    String::from_utf8_lossy(head).to_ascii_lowercase()
}

fn classify(error: ParseFeedError, bytes: &[u8]) -> ParseError {
    match error {
        ParseFeedError::ParseError(ParseErrorKind::NoFeedRoot) => {
            // feed-rs also says "no root" when the XML breaks before the root element:
            // a body that names a feed root is a broken feed, not another document.
            let head = head_lower(bytes);
            if ["<rss", "<feed", "<rdf:rdf", "<channel"]
                .iter()
                .any(|root| head.contains(root))
            {
                ParseError::Malformed("the feed's root element could not be read".into())
            } else {
                ParseError::NotAFeed("no RSS, Atom or JSON Feed root element".into())
            }
        }
        ParseFeedError::JsonUnsupportedVersion(version) => {
            ParseError::NotAFeed(format!("unsupported JSON Feed version {version}"))
        }
        other => ParseError::Malformed(other.to_string()),
    }
}
