-- Market data (docs/market.md). Prices are exact decimal strings (TEXT) on both
-- backends: the arithmetic happens in Rust with rust_decimal, never in SQL floats.
-- Price tables are WITHOUT ROWID: rows are stored in key order, so a range of one
-- instrument's days is one sequential read.

CREATE TABLE instruments (
    id                 TEXT PRIMARY KEY,          -- EXCHANGE:SYMBOL
    exchange           TEXT NOT NULL,
    symbol             TEXT NOT NULL,
    kind               TEXT NOT NULL,
    board              TEXT,
    currency           TEXT NOT NULL,
    country            TEXT NOT NULL,
    name_ko            TEXT NOT NULL,
    name_en            TEXT NOT NULL,
    sector             TEXT NOT NULL,
    shares_outstanding INTEGER,
    reference_price    TEXT,
    popularity         INTEGER NOT NULL,
    aliases            TEXT NOT NULL,            -- '|'-separated
    updated_at         TEXT NOT NULL
) STRICT;

-- Daily candles, split-adjusted, by exchange-local trading date.
CREATE TABLE daily_candles (
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    date          TEXT NOT NULL,
    open          TEXT NOT NULL,
    high          TEXT NOT NULL,
    low           TEXT NOT NULL,
    close         TEXT NOT NULL,
    volume        INTEGER NOT NULL,
    source        TEXT NOT NULL,
    PRIMARY KEY (instrument_id, date)
) STRICT, WITHOUT ROWID;

-- Intraday bars from real providers (the simulator computes its own on demand).
CREATE TABLE intraday_bars (
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    start         TEXT NOT NULL,
    open          TEXT NOT NULL,
    high          TEXT NOT NULL,
    low           TEXT NOT NULL,
    close         TEXT NOT NULL,
    volume        INTEGER NOT NULL,
    source        TEXT NOT NULL,
    PRIMARY KEY (instrument_id, start)
) STRICT, WITHOUT ROWID;

-- The latest quote per instrument, so a restart shows prices before the first tick.
CREATE TABLE quotes (
    instrument_id  TEXT PRIMARY KEY REFERENCES instruments (id) ON DELETE CASCADE,
    price          TEXT NOT NULL,
    previous_close TEXT NOT NULL,
    open           TEXT NOT NULL,
    high           TEXT NOT NULL,
    low            TEXT NOT NULL,
    volume         INTEGER NOT NULL,
    as_of          TEXT NOT NULL,
    state          TEXT NOT NULL,
    source         TEXT NOT NULL,
    simulated      INTEGER NOT NULL CHECK (simulated IN (0, 1))
) STRICT;

-- Daily FX fixings: one base in quote (USD in KRW).
CREATE TABLE fx_rates (
    base   TEXT NOT NULL,
    quote  TEXT NOT NULL,
    date   TEXT NOT NULL,
    rate   TEXT NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (base, quote, date)
) STRICT, WITHOUT ROWID;

-- A member's favourite instruments, in their order.
CREATE TABLE favorites (
    user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    PRIMARY KEY (user_id, instrument_id)
) STRICT;
CREATE INDEX favorites_by_position ON favorites (user_id, position);

-- What each market's provider last did, for the operator.
CREATE TABLE provider_status (
    market        TEXT PRIMARY KEY,
    provider      TEXT NOT NULL,
    last_success  TEXT,
    last_error    TEXT,
    last_error_at TEXT
) STRICT;
