-- Market data (docs/market.md). Prices are exact decimal strings (TEXT) on both
-- backends: the arithmetic happens in Rust with rust_decimal, never in SQL floats.

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
    shares_outstanding BIGINT,
    reference_price    TEXT,
    popularity         BIGINT NOT NULL,
    aliases            TEXT NOT NULL,            -- '|'-separated
    updated_at         TIMESTAMPTZ NOT NULL
);

-- Daily candles, split-adjusted, by exchange-local trading date.
CREATE TABLE daily_candles (
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    date          DATE NOT NULL,
    open          TEXT NOT NULL,
    high          TEXT NOT NULL,
    low           TEXT NOT NULL,
    close         TEXT NOT NULL,
    volume        BIGINT NOT NULL,
    source        TEXT NOT NULL,
    PRIMARY KEY (instrument_id, date)
);

-- Intraday bars from real providers (the simulator computes its own on demand).
CREATE TABLE intraday_bars (
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    start         TIMESTAMPTZ NOT NULL,
    open          TEXT NOT NULL,
    high          TEXT NOT NULL,
    low           TEXT NOT NULL,
    close         TEXT NOT NULL,
    volume        BIGINT NOT NULL,
    source        TEXT NOT NULL,
    PRIMARY KEY (instrument_id, start)
);

-- The latest quote per instrument, so a restart shows prices before the first tick.
CREATE TABLE quotes (
    instrument_id  TEXT PRIMARY KEY REFERENCES instruments (id) ON DELETE CASCADE,
    price          TEXT NOT NULL,
    previous_close TEXT NOT NULL,
    open           TEXT NOT NULL,
    high           TEXT NOT NULL,
    low            TEXT NOT NULL,
    volume         BIGINT NOT NULL,
    as_of          TIMESTAMPTZ NOT NULL,
    state          TEXT NOT NULL,
    source         TEXT NOT NULL,
    simulated      BOOLEAN NOT NULL
);

-- Daily FX fixings: one base in quote (USD in KRW).
CREATE TABLE fx_rates (
    base   TEXT NOT NULL,
    quote  TEXT NOT NULL,
    date   DATE NOT NULL,
    rate   TEXT NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (base, quote, date)
);

-- A member's favourite instruments, in their order.
CREATE TABLE favorites (
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    position      BIGINT NOT NULL,
    PRIMARY KEY (user_id, instrument_id)
);
CREATE INDEX favorites_by_position ON favorites (user_id, position);

-- What each market's provider last did, for the operator.
CREATE TABLE provider_status (
    market        TEXT PRIMARY KEY,
    provider      TEXT NOT NULL,
    last_success  TIMESTAMPTZ,
    last_error    TEXT,
    last_error_at TIMESTAMPTZ
);
