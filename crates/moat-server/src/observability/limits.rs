//! Limits of the ingest: body caps, guarded decompression (the compressed payload is
//! attacker-controlled: sizes are checked before and after, and the decompressor is
//! read through a `take()` so a gzip bomb stops after the cap), a budget of
//! decompressed bytes shared by all requests, a JSON nesting cap, and the per-IP
//! byte budget ([`ByteBudget`]: shared by every instance through the database).

use std::{
    collections::HashMap,
    io::Read,
    net::IpAddr,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use base64::Engine;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Deepest JSON nesting accepted anywhere in an ingest body. rrweb's snapshot of a
/// DOM takes two levels per element, so this allows pages 500 elements deep; serde's
/// own limit (128) still applies where the ingest parses into generic values.
pub const MAX_JSON_DEPTH: usize = 1000;

/// Longest session secure id accepted (the recorder's are 28 characters).
pub const MAX_SECURE_ID_CHARS: usize = 64;

/// Whether `id` can be a session secure id: 1 to [`MAX_SECURE_ID_CHARS`] of `A-Z a-z
/// 0-9 - _`.
pub fn is_secure_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_SECURE_ID_CHARS
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Stored text fields: messages, URLs, user names …
pub const MAX_TEXT_CHARS: usize = 2000;
/// Recorded request and response bodies are kept up to this many characters (the
/// recorder cuts most bodies at 65,536; spec §9).
pub const MAX_STORED_BODY_CHARS: usize = 65_536;
/// Items of one kind kept from one push (console messages, resources, errors,
/// timeline items); the rest of the push is still stored.
pub const MAX_ITEMS_PER_PUSH: usize = 2_000;
/// Stack frames kept per error.
pub const MAX_STACK_FRAMES: usize = 50;
/// Metrics accepted in one `pushMetrics` or OTLP request; spans in one OTLP request.
pub const MAX_RECORDS_PER_REQUEST: usize = 5_000;

/// Decompressed bytes written into the output buffer per read.
const READ_CHUNK: usize = 64 * 1024;
/// Outputs of at least this size get a buffer of at least [`MAPPED_CAPACITY`].
pub const LARGE_OUTPUT: usize = 1024 * 1024;
/// Address space given to a large output's buffer; only the pages written become
/// resident. glibc maps an allocation this large directly and unmaps it when it is
/// freed, so a bomb's memory goes back to the system; a smaller large block would come
/// from a per-thread arena (after the first free raises glibc's dynamic mmap threshold,
/// which tops out at 32 MiB) and stay resident after it is freed.
pub const MAPPED_CAPACITY: usize = 32 * 1024 * 1024 + 4096;

/// When a gzip's output outgrows what was reserved for it (its trailer understated its
/// size), the buffer grows by at least this many bytes, each step charged first.
pub const INFLATE_BLOCK: usize = 256 * 1024;

/// How long a request waits for an ingest slot before the answer is 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(2);
/// `Retry-After` seconds sent with a 503 (overloaded).
pub const RETRY_AFTER_SECS: u64 = 5;
/// The per-IP budget's window.
pub const IP_WINDOW: Duration = Duration::from_secs(3600);

/// Why an ingest body was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DecodeError {
    #[error("the {0} is larger than {1} bytes")]
    TooLarge(&'static str, usize),
    #[error("the data is not valid base64")]
    Base64,
    #[error("the data is not valid gzip")]
    Gzip,
    #[error("the data is not UTF-8 text")]
    Utf8,
    #[error("the JSON is nested deeper than {MAX_JSON_DEPTH} levels")]
    TooDeep,
    #[error("the request body could not be read")]
    Read,
    /// The shared [`DecompressionBudget`] is spent: answered 503 with `Retry-After`.
    #[error("the ingest is decompressing as much as it may at once; retry later")]
    Busy,
}

/// Standard padded base64 (spaces and line breaks tolerated), refused before
/// decoding when the decoded size would pass `max_decoded`.
pub fn base64_limited(text: &str, max_decoded: usize) -> Result<Vec<u8>, DecodeError> {
    if text.len() / 4 * 3 > max_decoded + 3 {
        return Err(DecodeError::TooLarge("compressed payload", max_decoded));
    }
    let compact: String;
    let text = if text.contains(|c: char| c.is_ascii_whitespace()) {
        compact = text.split_ascii_whitespace().collect();
        compact.as_str()
    } else {
        text
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|_| DecodeError::Base64)?;
    if bytes.len() > max_decoded {
        return Err(DecodeError::TooLarge("compressed payload", max_decoded));
    }
    Ok(bytes)
}

/// Decompresses gzip, reading at most `max` bytes out (one more tells it is over).
pub fn gunzip_limited(gz: &[u8], max: usize) -> Result<Vec<u8>, DecodeError> {
    let decoder = flate2::read::MultiGzDecoder::new(gz);
    let mut out = Vec::with_capacity((gz.len() * 4).min(max));
    decoder
        .take(max as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|_| DecodeError::Gzip)?;
    if out.len() > max {
        return Err(DecodeError::TooLarge("decompressed payload", max));
    }
    if out.is_empty() {
        return Err(DecodeError::Gzip);
    }
    Ok(out)
}

/// The decompressed bytes all ingest requests together may hold at once
/// (`observe.max_decompressed_in_flight_bytes`): a semaphore with one permit per byte.
///
/// A request reserves, before it decompresses anything, the size its gzip says it
/// will have ([`gzip_declared_size`], at most the per-request cap), without waiting: when
/// the budget has not that much left the answer is [`DecodeError::Busy`] (503). So of
/// many bombs at once the first ones to arrive run to the end and the others are
/// refused at once; no request is cut halfway after work was spent on it, and only as
/// many decompressions run (each on its own blocking thread, with its own allocator
/// arena) as the budget holds. Output beyond the reservation (a trailer that lies) is
/// charged as it is produced. A [`Charge`] gives its bytes back when dropped.
#[derive(Clone)]
pub struct DecompressionBudget {
    bytes: Arc<Semaphore>,
    total: usize,
    /// The most bytes charged at once so far (for tests and figures).
    peak: Arc<AtomicUsize>,
}

impl DecompressionBudget {
    pub fn new(total: usize) -> Self {
        Self {
            bytes: Arc::new(Semaphore::new(total)),
            total,
            peak: Arc::default(),
        }
    }

    /// Bytes charged now.
    pub fn in_use(&self) -> usize {
        self.total - self.bytes.available_permits()
    }

    /// The most bytes charged at once since start.
    pub fn peak(&self) -> usize {
        self.peak.load(Ordering::Relaxed)
    }

    /// Reserves what decompressing `gz` will take, if it stays within `max`: the size
    /// its trailer declares, or `max + 1` (enough to notice it is over) when that is
    /// more. `Busy` when the budget has not that much left.
    pub fn reserve(&self, gz: &[u8], max: usize) -> Result<Charge, DecodeError> {
        let mut charge = Charge::default();
        let declared = gzip_declared_size(gz).unwrap_or(0);
        self.charge(&mut charge, declared.min(max.saturating_add(1)))?;
        Ok(charge)
    }

    /// Adds `bytes` to `charge`, or `Busy` when the budget has not that many left.
    fn charge(&self, charge: &mut Charge, bytes: usize) -> Result<(), DecodeError> {
        if bytes == 0 {
            return Ok(());
        }
        let n = u32::try_from(bytes).map_err(|_| DecodeError::Busy)?;
        let permit = self
            .bytes
            .clone()
            .try_acquire_many_owned(n)
            .map_err(|_| DecodeError::Busy)?;
        match &mut charge.0 {
            Some(held) => held.merge(permit),
            None => charge.0 = Some(permit),
        }
        self.peak.fetch_max(self.in_use(), Ordering::Relaxed);
        Ok(())
    }
}

/// Bytes taken from a [`DecompressionBudget`]; given back when dropped.
#[derive(Default)]
pub struct Charge(Option<OwnedSemaphorePermit>);

impl Charge {
    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.0.as_ref().map_or(0, OwnedSemaphorePermit::num_permits)
    }

    /// Gives back what is held beyond `keep` bytes.
    fn shrink_to(&mut self, keep: usize) {
        let excess = self.bytes().saturating_sub(keep);
        if let Some(held) = &mut self.0 {
            drop(held.split(excess));
        }
    }
}

/// The size a gzip declares for its (last member's) output: the trailer's ISIZE, the
/// length modulo 2³². The sender chooses it, so it only sizes a reservation; the
/// output itself is still counted.
pub fn gzip_declared_size(gz: &[u8]) -> Option<usize> {
    let tail: [u8; 4] = gz.get(gz.len().checked_sub(4)?..)?.try_into().ok()?;
    usize::try_from(u32::from_le_bytes(tail)).ok()
}

/// Decompresses gzip like [`gunzip_limited`], within `charge` (from
/// [`DecompressionBudget::reserve`]): into one buffer sized for the reservation (see
/// [`MAPPED_CAPACITY`] for large ones) and filled as output arrives, grown (and
/// charged first, without waiting) only when the output is larger than declared. The
/// charge is then trimmed to the output's size; the caller keeps it as long as it
/// keeps the bytes, or what it makes of them.
pub fn gunzip_budgeted(
    gz: &[u8],
    max: usize,
    budget: &DecompressionBudget,
    mut charge: Charge,
) -> Result<(Vec<u8>, Charge), DecodeError> {
    fn read(r: &mut impl Read, buf: &mut [u8]) -> Result<usize, DecodeError> {
        loop {
            match r.read(buf) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                other => return other.map_err(|_| DecodeError::Gzip),
            }
        }
    }
    let mut decoder = flate2::read::MultiGzDecoder::new(gz).take(max as u64 + 1);
    // Bytes the charge covers; the buffer is written (and becomes resident) only as
    // output arrives, a read at a time.
    let mut allowed = charge.bytes();
    let mut out = Vec::with_capacity(if allowed >= LARGE_OUTPUT {
        allowed.max(MAPPED_CAPACITY)
    } else {
        allowed
    });
    loop {
        if out.len() == allowed {
            // At the end, or more output than the trailer declared.
            let mut probe = [0u8; 1];
            if read(&mut decoder, &mut probe)? == 0 {
                break;
            }
            if out.len() + 1 > max {
                return Err(DecodeError::TooLarge("decompressed payload", max));
            }
            let grow = allowed.max(INFLATE_BLOCK).min(max + 1 - out.len());
            budget.charge(&mut charge, grow)?;
            allowed += grow;
            out.reserve(grow);
            out.push(probe[0]);
            continue;
        }
        let start = out.len();
        out.resize(start + (allowed - start).min(READ_CHUNK), 0);
        let n = read(&mut decoder, &mut out[start..])?;
        out.truncate(start + n);
        if n == 0 {
            break;
        }
        if out.len() > max {
            return Err(DecodeError::TooLarge("decompressed payload", max));
        }
    }
    if out.is_empty() {
        return Err(DecodeError::Gzip);
    }
    if out.capacity() < LARGE_OUTPUT {
        out.shrink_to_fit();
    }
    charge.shrink_to(out.len());
    Ok((out, charge))
}

/// UTF-8 text nested no deeper than [`MAX_JSON_DEPTH`].
pub fn json_text(bytes: Vec<u8>) -> Result<String, DecodeError> {
    let text = String::from_utf8(bytes).map_err(|_| DecodeError::Utf8)?;
    if json_depth(text.as_bytes()) > MAX_JSON_DEPTH {
        return Err(DecodeError::TooDeep);
    }
    Ok(text)
}

/// The deepest nesting of `[`/`{` in a JSON text (strings skipped), in one pass
/// without recursion.
pub fn json_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Why a [`ByteBudget`] refused a charge.
#[derive(Debug)]
pub enum BudgetError {
    /// The address's budget for this window is spent: retry after this many seconds
    /// (at least one).
    Spent(u64),
    /// The budget could not be read (its database); nothing was charged.
    Failed(anyhow::Error),
}

/// An amount (bytes, or requests) each client address may spend per window.
#[async_trait::async_trait]
pub trait ByteBudget: Send + Sync {
    /// Counts `bytes` for `ip`: `Ok` while the window's total stays within the limit,
    /// else `Spent(seconds until the window ends)` (and nothing is counted). A window
    /// starts at the address's first charge and lasts its length.
    async fn charge(&self, ip: IpAddr, bytes: u64) -> Result<(), BudgetError>;
}

/// A [`ByteBudget`] in the database, shared by every instance (the server's): the
/// budget of address `a` is the row `<name>:a`, charged in one transaction
/// ([`moat_storage::LimitsStorage::charge_budget`]).
pub struct DbIpBudgets {
    storage: Arc<dyn moat_storage::LimitsStorage>,
    clock: Arc<dyn crate::clock::Clock>,
    name: &'static str,
    limit: u64,
    window: Duration,
}

impl DbIpBudgets {
    pub fn new(
        storage: Arc<dyn moat_storage::LimitsStorage>,
        name: &'static str,
        limit: u64,
        window: Duration,
        clock: Arc<dyn crate::clock::Clock>,
    ) -> Self {
        Self {
            storage,
            clock,
            name,
            limit,
            window,
        }
    }
}

#[async_trait::async_trait]
impl ByteBudget for DbIpBudgets {
    async fn charge(&self, ip: IpAddr, bytes: u64) -> Result<(), BudgetError> {
        let charged = self
            .storage
            .charge_budget(
                &format!("{}:{ip}", self.name),
                bytes,
                self.limit,
                i64::try_from(self.window.as_millis()).unwrap_or(i64::MAX),
                self.clock.unix_millis(),
            )
            .await
            .map_err(|e| BudgetError::Failed(e.into()))?;
        match charged {
            moat_storage::Limited::Granted(()) => Ok(()),
            moat_storage::Limited::Wait(ms) => Err(BudgetError::Spent(
                Duration::from_millis(ms.max(0).unsigned_abs())
                    .as_secs()
                    .max(1),
            )),
        }
    }
}

/// A [`ByteBudget`] in memory, per instance (tests).
pub struct IpBudgets {
    limit: u64,
    window: Duration,
    used: Mutex<HashMap<IpAddr, (Instant, u64)>>,
}

/// Addresses tracked before stale windows are swept.
const SWEEP_AT: usize = 10_000;

impl IpBudgets {
    pub fn new(limit: u64, window: Duration) -> Self {
        Self {
            limit,
            window,
            used: Mutex::new(HashMap::new()),
        }
    }
}

#[async_trait::async_trait]
impl ByteBudget for IpBudgets {
    async fn charge(&self, ip: IpAddr, bytes: u64) -> Result<(), BudgetError> {
        let now = Instant::now();
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if used.len() >= SWEEP_AT {
            let window = self.window;
            used.retain(|_, (start, _)| now.duration_since(*start) < window);
        }
        let entry = used.entry(ip).or_insert((now, 0));
        if now.duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        if entry.1.saturating_add(bytes) > self.limit {
            let left = self.window.saturating_sub(now.duration_since(entry.0));
            return Err(BudgetError::Spent(left.as_secs().max(1)));
        }
        entry.1 += bytes;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_round_trips_within_the_cap() {
        let data = b"{\"events\":[]}".repeat(10);
        assert_eq!(gunzip_limited(&gzip(&data), 1000).unwrap(), data);
    }

    #[test]
    fn a_gzip_bomb_stops_at_the_cap() {
        let bomb = gzip(&vec![b'a'; 50 * 1024 * 1024]);
        assert!(
            bomb.len() < 100 * 1024,
            "50 MB of one byte compresses to {}",
            bomb.len()
        );
        let started = Instant::now();
        assert_eq!(
            gunzip_limited(&bomb, 1024 * 1024),
            Err(DecodeError::TooLarge("decompressed payload", 1024 * 1024))
        );
        assert!(started.elapsed() < Duration::from_secs(2));
    }

    fn gunzip_within(
        gz: &[u8],
        max: usize,
        budget: &DecompressionBudget,
    ) -> Result<(Vec<u8>, Charge), DecodeError> {
        gunzip_budgeted(gz, max, budget, budget.reserve(gz, max)?)
    }

    #[test]
    fn budgeted_gzip_round_trips_and_charges_exactly_its_output() {
        let budget = DecompressionBudget::new(4 * INFLATE_BLOCK);
        for len in [1, 1000, INFLATE_BLOCK, 3 * INFLATE_BLOCK] {
            let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let gz = gzip(&data);
            assert_eq!(gzip_declared_size(&gz), Some(len));
            let (out, charge) = gunzip_within(&gz, 4 * INFLATE_BLOCK, &budget)
                .unwrap_or_else(|e| panic!("{len} bytes: {e}"));
            assert_eq!(out, data, "{len} bytes");
            assert_eq!(charge.bytes(), len, "the charge is the output's size");
            assert_eq!(budget.in_use(), len);
            drop(charge);
            assert_eq!(budget.in_use(), 0, "dropping the charge gives it back");
        }
    }

    #[test]
    fn a_reservation_past_the_shared_budget_is_busy_at_once_and_holds_nothing() {
        let budget = DecompressionBudget::new(4 * INFLATE_BLOCK);
        let cap = 4 * INFLATE_BLOCK;
        let big = gzip(&vec![b' '; 3 * INFLATE_BLOCK]);
        let (_bytes, held) = gunzip_within(&big, cap, &budget).unwrap();
        assert_eq!(budget.in_use(), 3 * INFLATE_BLOCK);
        assert_eq!(
            budget.reserve(&big, cap).map(|_| ()),
            Err(DecodeError::Busy),
            "a second one does not fit beside the first"
        );
        assert_eq!(
            budget.in_use(),
            3 * INFLATE_BLOCK,
            "the refused one took nothing"
        );
        drop(held);
        assert!(
            gunzip_within(&big, cap, &budget).is_ok(),
            "fits once the first is gone"
        );
        assert_eq!(budget.in_use(), 0);
        assert!(budget.peak() <= 4 * INFLATE_BLOCK);
    }

    #[test]
    fn output_beyond_an_understated_size_is_charged_as_it_comes() {
        let budget = DecompressionBudget::new(8 * INFLATE_BLOCK);
        let data = vec![b'x'; 3 * INFLATE_BLOCK];
        let mut lying = gzip(&data);
        let n = lying.len();
        lying[n - 4..].copy_from_slice(&10u32.to_le_bytes());
        // flate2 checks the trailer only after the output: the lie is found at the
        // end, after the growth was charged.
        let charge = budget.reserve(&lying, 8 * INFLATE_BLOCK).unwrap();
        assert_eq!(charge.bytes(), 10);
        let small = DecompressionBudget::new(INFLATE_BLOCK);
        let result = gunzip_budgeted(
            &lying,
            8 * INFLATE_BLOCK,
            &small,
            small.reserve(&lying, 8 * INFLATE_BLOCK).unwrap(),
        );
        assert_eq!(
            result.map(|_| ()),
            Err(DecodeError::Busy),
            "growth past the budget"
        );
        assert_eq!(small.in_use(), 0);
        let _ = gunzip_budgeted(&lying, 8 * INFLATE_BLOCK, &budget, charge);
        assert_eq!(budget.in_use(), 0, "whatever the outcome, nothing is kept");
        assert!(budget.peak() <= 8 * INFLATE_BLOCK);
    }

    #[test]
    fn a_budgeted_bomb_stops_at_the_cap_and_gives_its_charge_back() {
        let budget = DecompressionBudget::new(64 * 1024 * 1024);
        let bomb = gzip(&vec![b'a'; 50 * 1024 * 1024]);
        let cap = 1024 * 1024;
        assert_eq!(
            budget.reserve(&bomb, cap).unwrap().bytes(),
            cap + 1,
            "a declared size over the cap reserves just past it"
        );
        assert_eq!(
            gunzip_within(&bomb, cap, &budget).map(|_| ()),
            Err(DecodeError::TooLarge("decompressed payload", cap))
        );
        assert_eq!(budget.in_use(), 0);
        assert!(
            budget.peak() <= cap + 1,
            "charged {} for a 1 MiB cap",
            budget.peak()
        );
        assert_eq!(
            gunzip_within(b"not gzip at all", 100, &budget).map(|_| ()),
            Err(DecodeError::Gzip)
        );
        assert_eq!(budget.in_use(), 0);
    }

    #[test]
    fn broken_inputs_are_named() {
        assert_eq!(
            gunzip_limited(b"not gzip at all", 100),
            Err(DecodeError::Gzip)
        );
        assert_eq!(base64_limited("%%%", 100), Err(DecodeError::Base64));
        assert_eq!(
            base64_limited(&"QUFB".repeat(100), 30),
            Err(DecodeError::TooLarge("compressed payload", 30))
        );
        assert_eq!(base64_limited("QUFB\nQUFB", 30).unwrap(), b"AAAAAA");
        assert_eq!(json_text(vec![0xff, 0xfe]), Err(DecodeError::Utf8));
    }

    #[test]
    fn depth_counts_brackets_outside_strings() {
        assert_eq!(json_depth(br#"{"a":[1,{"b":"[[[["}]}"#), 3);
        assert_eq!(json_depth(br#""\"[""#), 0);
        let deep = "[".repeat(MAX_JSON_DEPTH + 1) + &"]".repeat(MAX_JSON_DEPTH + 1);
        assert_eq!(json_text(deep.into_bytes()), Err(DecodeError::TooDeep));
    }

    #[tokio::test]
    async fn ip_budgets_refuse_past_the_limit_and_reset_with_the_window() {
        let b = IpBudgets::new(100, Duration::from_millis(50));
        let ip: IpAddr = "203.0.113.7".parse().unwrap();
        let other: IpAddr = "203.0.113.8".parse().unwrap();
        assert!(b.charge(ip, 60).await.is_ok());
        assert!(
            matches!(b.charge(ip, 60).await, Err(BudgetError::Spent(1))),
            "over the limit"
        );
        assert!(b.charge(other, 60).await.is_ok(), "per address");
        tokio::time::sleep(Duration::from_millis(60)).await;
        assert!(b.charge(ip, 60).await.is_ok(), "a new window");
    }

    #[tokio::test]
    async fn shared_ip_budgets_refuse_past_the_limit_across_instances_and_reset_with_the_window() {
        use crate::clock::{Clock, ManualClock};
        for db in moat_storage::testing::TestDatabase::all().await {
            let clock = Arc::new(ManualClock::starting_now());
            let window = Duration::from_secs(3600);
            let instance = |storage: Arc<dyn moat_storage::Storage>| {
                DbIpBudgets::new(
                    storage,
                    "ingest",
                    100,
                    window,
                    clock.clone() as Arc<dyn Clock>,
                )
            };
            let (a, b) = (instance(db.storage().await), instance(db.storage().await));
            let ip: IpAddr = "203.0.113.7".parse().unwrap();
            let other: IpAddr = "203.0.113.8".parse().unwrap();
            assert!(a.charge(ip, 60).await.is_ok());
            clock.advance(Duration::from_secs(600));
            assert!(
                matches!(b.charge(ip, 60).await, Err(BudgetError::Spent(3000))),
                "{:?}: over the limit on the other instance",
                db.backend
            );
            assert!(
                b.charge(ip, 40).await.is_ok(),
                "the refused bytes were not counted"
            );
            assert!(a.charge(other, 100).await.is_ok(), "per address");
            clock.advance(Duration::from_secs(3000));
            assert!(a.charge(ip, 100).await.is_ok(), "a new window");
            // A restart forgets nothing.
            let c = instance(db.storage().await);
            assert!(matches!(
                c.charge(ip, 1).await,
                Err(BudgetError::Spent(3600))
            ));
        }
    }
}
