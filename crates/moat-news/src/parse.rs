//! Feed bytes → clean items.

use chrono::{DateTime, Utc};

/// At most this many items are kept from one feed (the first ones in document order).
pub const MAX_ITEMS_PER_FEED: usize = 500;

/// A date later than `now` by more than this is clamped to `now`.
pub const FUTURE_SKEW: chrono::Duration = chrono::Duration::days(1);

/// Dates before this year (the 1970 epoch of a broken CMS) are unknown.
pub const EARLIEST_YEAR: i32 = 1990;

/// At most this many characters of summary (the last being "…" when cut).
pub const SUMMARY_MAX_CHARS: usize = 300;

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
    /// Plain text.
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
/// encoding is honoured).
pub fn parse_feed(
    bytes: &[u8],
    feed_url: &str,
    ctx: &ParseContext,
) -> Result<ParsedFeed, ParseError> {
    let _ = (bytes, feed_url, ctx);
    todo!()
}

/// Our id for an item without one: SHA-256 (hex) of the feed URL, the normalised title
/// and the published date (RFC 3339, or empty).
pub fn generate_guid(feed_url: &str, title: &str, published_at: Option<DateTime<Utc>>) -> String {
    let _ = (feed_url, title, published_at);
    todo!()
}

/// The EDGAR accession number in an Atom id or a filing link.
pub fn accession_from(id_or_link: &str) -> Option<String> {
    let _ = id_or_link;
    todo!()
}
