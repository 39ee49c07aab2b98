//! The news domain (see the crate description).
//!
//! Pure functions: no HTTP, no SQL, no async runtime. The server fetches a feed's
//! bytes and stores rows; this crate turns the bytes into clean items and decides
//! links, ids, duplicate fingerprints and polling schedules.
//!
//! - [`parse`]: bytes → [`parse::ParsedFeed`] (RSS 0.9x/1/2, Atom, JSON Feed).
//! - [`text`]: feed HTML → plain text.
//! - [`dates`]: lenient feed dates, zone-less times in the feed's country zone.
//! - [`canonical`]: canonical article URLs for cross-feed deduplication.
//! - [`simhash`]: 64-bit near-duplicate fingerprints.
//! - [`link`]: the instrument linker (cashtags, KRX codes, tickers, names, CIKs).
//! - [`schedule`]: polling intervals, error backoff, `Retry-After`, jitter.
//! - [`defaults`]: the default public feeds.
//! - [`user_agent`]: the User-Agent and the SEC's fair-access rules.

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
