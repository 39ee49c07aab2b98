//! Results derived from a portfolio's ledger and the market's prices, kept between
//! reads: each portfolio's daily value series (values and flows) in a currency, and its
//! ledger built in a reporting currency (the holdings, their cost and realised gains).
//! The daily closes a series reads (its instruments', and a chart's benchmark index's)
//! are kept the same way: checked against the series' price version, kept through the
//! settled day, the days after it read afresh. The meta portfolio is
//! never kept itself: it is combined from its parts' kept
//! results on every read, which costs a sum.
//!
//! **What an entry depends on, and how a read checks it.** Every entry carries the
//! portfolio's ledger `revision` (raised in the database by every write to the
//! portfolio or its transactions, so every instance sees it) and the versions of the
//! price series it read (table `price_versions`, raised in the database by a write
//! that could change stored days: see moat-storage's `PriceVersion`). A read loads the
//! portfolio rows and the versions of the series its ledgers name (one small query) and
//! uses an entry only when both match: a write on any instance, or a price correction
//! stored by any instance, makes the next read on every instance recompute, and only
//! for the portfolios it touches (a new price of one instrument leaves portfolios
//! without it alone).
//!
//! **Series are kept through a settled day and extended.** A series is kept through the
//! last day whose prices can no longer change without raising a version: at most
//! [`SETTLE_DAYS`] before today, and no later than the last stored day of each price
//! series it reads that has stored days (a day stored later is an append, which leaves
//! the version alone). A simulated instrument with nothing stored is known for every
//! finished day (its first stored day raises its version from 0); a real-provider one
//! with nothing stored keeps the series from being kept at all. The days after it (today,
//! valued at live quotes, and the last few) are computed on every read from the kept
//! end state ([`moat_portfolio::SeriesRun`]), and when the settled day moves on (a new
//! trading day) the kept series is extended by the new days instead of recomputed.
//!
//! **Finished replies.** A performance reply (its chart and returns, as JSON, with its
//! compressed copies) is kept too, beside a fingerprint of everything it was made from:
//! the day, each part's id and revision, every point of the daily series (kept or
//! computed on this read, so live quotes count) and the benchmark's closes. A read
//! still loads the series and the closes (from the kept entries), fingerprints them and
//! answers with the kept reply when the fingerprint matches; formatting the chart,
//! computing the periods, serialising and compressing are skipped. The fingerprint is
//! two 64-bit SipHashes with keys drawn when the process starts.
//!
//! **Bounded.** All entries are bounded together by an estimate of their bytes
//! (`[portfolio] derived_cache_mb`), evicting the least recently useful entries
//! (quick_cache's CLOCK-Pro). Hits, extensions and misses are counted and exposed at
//! `GET /metrics`. Correctness never depends on an entry being there: a miss computes
//! the same result from the ledger (a property test compares the two over random
//! ledgers and edits).

use std::{
    hash::{BuildHasher, Hasher, RandomState},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
};

use std::collections::BTreeMap;

use chrono::NaiveDate;
use moat_portfolio::{DailyPoint, Ledger, SeriesRun};
use quick_cache::{sync::Cache, Weighter};
use rust_decimal::Decimal;

use crate::http::encoding::KeptJson;

/// Days at the end of a series that are recomputed on every read rather than kept: a
/// session may still be under way or its closing candle not stored yet (the markets'
/// local dates run up to a day ahead of UTC's).
pub const SETTLE_DAYS: i64 = 2;
/// The default bound of the cache, in MB (`[portfolio] derived_cache_mb`).
pub const DEFAULT_CACHE_MB: u64 = 64;
/// Entries the cache expects to hold (sizes its table).
const EXPECTED_ENTRIES: usize = 4_000;
/// Bytes counted per kept holding or lot of a ledger, and per entry besides its
/// points (an estimate: maps, strings and decimals).
const BYTES_PER_HOLDING: u64 = 512;
const BYTES_PER_ENTRY: u64 = 256;
/// Bytes counted per kept close (a B-tree entry of a date and a decimal).
const BYTES_PER_CLOSE: usize = 48;

/// A price series an entry read, and the version it read it at (0: never stored).
pub type SeenVersion = (String, i64);

/// One portfolio's daily values in one currency, kept through a settled day.
#[derive(Debug)]
pub struct SeriesEntry {
    pub revision: i64,
    pub versions: Vec<SeenVersion>,
    /// The points from the day before the first transaction through the kept day.
    pub points: Arc<Vec<DailyPoint>>,
    /// Where the series carries on: the ledger after the kept day.
    pub run: SeriesRun,
}

/// One portfolio's ledger built in a reporting currency.
#[derive(Debug)]
pub struct LedgerEntry {
    pub revision: i64,
    /// Empty when the ledger is in its base currency (it reads no rates).
    pub versions: Vec<SeenVersion>,
    pub ledger: Arc<Ledger>,
}

/// An instrument's daily closes (a portfolio's holdings, a chart's benchmark) through
/// a settled day.
#[derive(Debug)]
pub struct ClosesEntry {
    /// The version of its price series.
    pub version: i64,
    /// The first day held.
    pub from: NaiveDate,
    /// The last day held.
    pub through: NaiveDate,
    pub closes: Arc<BTreeMap<NaiveDate, Decimal>>,
}

/// A finished reply and the fingerprint of what it was made from.
#[derive(Debug)]
pub struct ReplyEntry {
    pub fingerprint: u128,
    pub reply: Arc<KeptJson>,
}

/// What a reply is of: the member, the portfolio (or `meta`), the currency and the
/// benchmark asked for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReplyKey {
    pub user: i64,
    pub scope: String,
    pub currency: String,
    pub benchmark: String,
}

#[derive(Clone, Debug)]
enum Entry {
    Series(Arc<SeriesEntry>),
    Ledger(Arc<LedgerEntry>),
    Closes(Arc<ClosesEntry>),
    Reply(Arc<ReplyEntry>),
}

/// An entry's key: what is kept, of which portfolio (or price series), in which
/// currency.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Series { portfolio: i64, currency: String },
    Ledger { portfolio: i64, currency: String },
    Closes { series: String },
    Reply(ReplyKey),
}

#[derive(Clone)]
struct ByBytes;

fn ledger_bytes(ledger: &Ledger) -> u64 {
    let lots: usize = ledger.holdings.values().map(|h| h.lots.len()).sum();
    (ledger.holdings.len() + lots) as u64 * BYTES_PER_HOLDING
}

impl Weighter<Key, Entry> for ByBytes {
    fn weight(&self, _key: &Key, entry: &Entry) -> u64 {
        BYTES_PER_ENTRY
            + match entry {
                Entry::Series(s) => {
                    (s.points.len() * std::mem::size_of::<DailyPoint>()) as u64
                        + ledger_bytes(s.run.ledger())
                }
                Entry::Ledger(l) => ledger_bytes(&l.ledger),
                Entry::Closes(c) => (c.closes.len() * BYTES_PER_CLOSE) as u64,
                Entry::Reply(r) => r.reply.weight(),
            }
    }
}

/// How a read found what it needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Kept and current.
    Hit,
    /// Kept and current, then carried on by the days settled since.
    Extended,
    /// Not kept, or kept for an older revision or price version: computed.
    Miss,
}

/// Counts of one kind of entry's lookups.
#[derive(Default)]
struct Counts {
    hits: AtomicU64,
    extended: AtomicU64,
    misses: AtomicU64,
}

impl Counts {
    fn count(&self, outcome: Outcome) {
        let counter = match outcome {
            Outcome::Hit => &self.hits,
            Outcome::Extended => &self.extended,
            Outcome::Miss => &self.misses,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    fn read(&self) -> [u64; 3] {
        [
            self.hits.load(Ordering::Relaxed),
            self.extended.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        ]
    }
}

/// The figures `GET /metrics` exposes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheStats {
    /// Series lookups: hits, extensions, misses.
    pub series: [u64; 3],
    /// Ledger lookups: hits, extensions (always 0), misses.
    pub ledgers: [u64; 3],
    /// Closes lookups (instruments and benchmarks): hits, extensions, misses.
    pub closes: [u64; 3],
    /// Finished replies: hits, extensions (always 0), misses.
    pub replies: [u64; 3],
    pub entries: u64,
    pub weight_bytes: u64,
    pub capacity_bytes: u64,
}

pub struct DerivedCache {
    entries: Cache<Key, Entry, ByBytes>,
    series_counts: Counts,
    ledger_counts: Counts,
    closes_counts: Counts,
    reply_counts: Counts,
    capacity_bytes: u64,
    /// The fingerprints' two hash keys.
    fingerprint_keys: [RandomState; 2],
}

/// Fingerprints what a reply is made from (see the module doc): feed it with
/// [`Hasher`]'s methods, then [`Fingerprinter::finish128`].
pub struct Fingerprinter([std::hash::DefaultHasher; 2]);

impl Fingerprinter {
    pub fn finish128(&self) -> u128 {
        (u128::from(self.0[0].finish()) << 64) | u128::from(self.0[1].finish())
    }

    /// An exact decimal: its value and its scale (1.0 and 1.00 print differently).
    pub fn decimal(&mut self, d: &Decimal) {
        self.write(&d.serialize());
    }
}

impl Hasher for Fingerprinter {
    fn write(&mut self, bytes: &[u8]) {
        self.0[0].write(bytes);
        self.0[1].write(bytes);
    }

    fn finish(&self) -> u64 {
        self.0[0].finish()
    }
}

impl Default for DerivedCache {
    fn default() -> Self {
        Self::new(DEFAULT_CACHE_MB * 1024 * 1024)
    }
}

impl DerivedCache {
    /// A cache holding about `capacity_bytes` (0 keeps nothing).
    pub fn new(capacity_bytes: u64) -> Self {
        Self {
            entries: Cache::with_weighter(EXPECTED_ENTRIES, capacity_bytes.max(1), ByBytes),
            series_counts: Counts::default(),
            ledger_counts: Counts::default(),
            closes_counts: Counts::default(),
            reply_counts: Counts::default(),
            capacity_bytes,
            fingerprint_keys: [RandomState::new(), RandomState::new()],
        }
    }

    /// The kept series of `portfolio` in `currency`, if it is of `revision` and read
    /// the prices at `versions`.
    pub fn series(
        &self,
        portfolio: i64,
        currency: &str,
        revision: i64,
        versions: &[SeenVersion],
    ) -> Option<Arc<SeriesEntry>> {
        let key = Key::Series {
            portfolio,
            currency: currency.to_owned(),
        };
        match self.entries.get(&key)? {
            Entry::Series(s) if s.revision == revision && s.versions == versions => Some(s),
            _ => None,
        }
    }

    pub fn keep_series(&self, portfolio: i64, currency: &str, entry: SeriesEntry) {
        let key = Key::Series {
            portfolio,
            currency: currency.to_owned(),
        };
        self.keep(key, Entry::Series(Arc::new(entry)));
    }

    /// The kept ledger of `portfolio` in `currency`, if it is of `revision` and read
    /// the rates at `versions`.
    pub fn ledger(
        &self,
        portfolio: i64,
        currency: &str,
        revision: i64,
        versions: &[SeenVersion],
    ) -> Option<Arc<Ledger>> {
        let key = Key::Ledger {
            portfolio,
            currency: currency.to_owned(),
        };
        match self.entries.get(&key)? {
            Entry::Ledger(l) if l.revision == revision && l.versions == versions => {
                Some(l.ledger.clone())
            }
            _ => None,
        }
    }

    pub fn keep_ledger(&self, portfolio: i64, currency: &str, entry: LedgerEntry) {
        let key = Key::Ledger {
            portfolio,
            currency: currency.to_owned(),
        };
        self.keep(key, Entry::Ledger(Arc::new(entry)));
    }

    /// The kept closes of the price series `series`, if they are of `version`.
    pub fn closes(&self, series: &str, version: i64) -> Option<Arc<ClosesEntry>> {
        let key = Key::Closes {
            series: series.to_owned(),
        };
        match self.entries.get(&key)? {
            Entry::Closes(c) if c.version == version => Some(c),
            _ => None,
        }
    }

    pub fn keep_closes(&self, series: &str, entry: ClosesEntry) {
        let key = Key::Closes {
            series: series.to_owned(),
        };
        self.keep(key, Entry::Closes(Arc::new(entry)));
    }

    /// A fingerprint to feed with what a reply is made from.
    pub fn fingerprinter(&self) -> Fingerprinter {
        Fingerprinter(self.fingerprint_keys.each_ref().map(|k| k.build_hasher()))
    }

    /// The kept reply for `key`, if it was made from what `fingerprint` was taken of.
    /// Counted.
    pub fn reply(&self, key: &ReplyKey, fingerprint: u128) -> Option<Arc<KeptJson>> {
        let hit = match self.entries.get(&Key::Reply(key.clone())) {
            Some(Entry::Reply(r)) if r.fingerprint == fingerprint => Some(r.reply.clone()),
            _ => None,
        };
        self.reply_counts.count(if hit.is_some() {
            Outcome::Hit
        } else {
            Outcome::Miss
        });
        hit
    }

    pub fn keep_reply(&self, key: ReplyKey, entry: ReplyEntry) {
        self.keep(Key::Reply(key), Entry::Reply(Arc::new(entry)));
    }

    fn keep(&self, key: Key, entry: Entry) {
        if self.capacity_bytes > 0 {
            self.entries.insert(key, entry);
        }
    }

    pub fn count_series(&self, outcome: Outcome) {
        self.series_counts.count(outcome);
    }

    pub fn count_ledger(&self, outcome: Outcome) {
        self.ledger_counts.count(outcome);
    }

    pub fn count_closes(&self, outcome: Outcome) {
        self.closes_counts.count(outcome);
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats {
            series: self.series_counts.read(),
            ledgers: self.ledger_counts.read(),
            closes: self.closes_counts.read(),
            replies: self.reply_counts.read(),
            entries: self.entries.len() as u64,
            weight_bytes: self.entries.weight(),
            capacity_bytes: self.capacity_bytes,
        }
    }
}

/// The last day a series can be kept through on `today` (see the module doc): `None`
/// when it cannot be kept (a real-provider series it needs has nothing stored).
pub fn settled_through(
    today: NaiveDate,
    stored_until: impl IntoIterator<Item = Option<NaiveDate>>,
) -> Option<NaiveDate> {
    let mut through = today - chrono::Duration::days(SETTLE_DAYS);
    for last in stored_until {
        through = through.min(last?);
    }
    Some(through)
}
