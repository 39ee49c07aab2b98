//! The news domain (see the crate description and `docs/news.md`).
//!
//! Pure functions: no HTTP, no SQL, no async runtime. The server fetches a feed's
//! bytes and stores rows; this crate turns the bytes into clean items and decides
//! links, ids, duplicate fingerprints and polling schedules.
//!
//! - [`parse`]: bytes → [`ParsedFeed`] (RSS 0.9x/1/2, Atom, JSON Feed) through feed-rs.
//!   Always from the raw bytes, so the prolog's encoding is honoured (EUC-KR, SEC's
//!   ISO-8859-1). Ids are the feed's own, else ours: SHA-256 of the feed URL, the
//!   normalised title and the published date, never random (feed-rs would fall back to
//!   a random UUID). Links and images are absolute http(s) or nothing. Dates: zone-less
//!   times are Asia/Seoul for Korean feeds ([`dates`]); before 1990 is unknown; more
//!   than a day ahead is clamped to the fetch time and flagged. At most 500 items.
//!   [`ParseError`] tells "not a feed" (empty body, HTML page, other XML or JSON) from
//!   a broken feed.
//! - [`text`]: every title and summary is feed HTML made plain text by html5ever
//!   (ammonia with no tag allowed): script and style contents dropped, entities
//!   decoded, whitespace collapsed, and text that decodes into markup cleaned again, so
//!   nothing that looks like a tag survives. Summaries keep 300 characters.
//! - [`canonical`]: the dedup key of an article URL (host lower-cased, fragment,
//!   credentials, default port, `utm_*` and other tracking parameters dropped, the rest
//!   sorted, no trailing slash).
//! - [`simhash`](mod@simhash): a 64-bit SimHash over character bigrams of Hangul/CJK runs (Korean
//!   glues particles to nouns; bigrams share 삼성, 성전, 전자 across 삼성전자가/삼성전자는)
//!   and words of Latin/digit runs, NFKC and lower-cased, bylines stripped, title and
//!   numbers weighted twice. Distance ≤ 3 is a near-duplicate; four 16-bit bands index
//!   it. The module documents what distance 3 catches (measured).
//! - [`link`]: the instrument linker. Cashtags, KRX codes (`005930`, `0015N0`,
//!   `A005930`), tickers in parentheses, and names/aliases through one aho-corasick
//!   automaton (leftmost-longest; Latin names on word boundaries and capitalised;
//!   Korean names followed only by particles). Ambiguous names (a default list of
//!   common words and group names, and any name of ≤ 2 Latin letters or 1 Hangul
//!   syllable) need a second signal: a code, or the name in both title and body. EDGAR
//!   items link by CIK.
//! - [`schedule`]: the poll interval is Miniflux's `week / entries in the last week`,
//!   floored at 15 min, capped at 24 h, and at most half the time the feed's items reach
//!   back (a feed that keeps few items must be read before they fall out). Errors back
//!   off from 15 min, doubling, to 3 days. `Retry-After` (seconds or HTTP-date) is
//!   clamped to 24 h. Jitter ±25 %.
//! - [`defaults`]: the default public feeds (Korean press, DART, SEC).
//! - [`user_agent`]: `Moat/0.1 (+contact)` and the SEC's 10 requests/s rule.

pub mod canonical;
pub mod dates;
pub mod defaults;
pub mod link;
pub mod parse;
pub mod schedule;
pub mod simhash;
pub mod text;
pub mod user_agent;

pub use canonical::canonical_url;
pub use link::{cik_from_edgar, known_ciks, Link, LinkEntry, Linker};
pub use parse::{parse_feed, FeedItem, ParseContext, ParseError, ParsedFeed};
pub use simhash::{bands, hamming, simhash, NEAR_DUP_DISTANCE};
