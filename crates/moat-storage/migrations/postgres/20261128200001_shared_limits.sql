-- Limits shared by every instance (docs/scale-out.md, "Shared limits"): the log-in
-- back-off, sliding windows of events (sign-ups per address, the mail limits) and byte
-- budgets per address (the telemetry ingest, direct feedback). Each row is one key;
-- every step locks its rows (insert-if-absent, then SELECT … FOR UPDATE in key
-- order) and writes them back in one transaction. Times are Unix milliseconds from
-- the server's clock. A row is dead from `expires_at_ms` on (it then behaves as if
-- absent) and is swept in batches.

-- Failed log-ins per key (`ip:…`, `account:…`), attempts in flight included.
CREATE TABLE limit_failures (
    key              TEXT PRIMARY KEY,
    failures         BIGINT NOT NULL,
    blocked_until_ms BIGINT NOT NULL,
    last_ms          BIGINT NOT NULL,
    expires_at_ms    BIGINT NOT NULL
);
CREATE INDEX limit_failures_expiry ON limit_failures (expires_at_ms);

-- The events of one key inside its window: their times, comma-separated (at most the
-- limit's count of them).
CREATE TABLE limit_windows (
    key           TEXT PRIMARY KEY,
    events        TEXT NOT NULL,
    expires_at_ms BIGINT NOT NULL
);
CREATE INDEX limit_windows_expiry ON limit_windows (expires_at_ms);

-- Bytes (or requests) charged to one key in its current window.
CREATE TABLE limit_budgets (
    key             TEXT PRIMARY KEY,
    window_start_ms BIGINT NOT NULL,
    used            BIGINT NOT NULL,
    expires_at_ms   BIGINT NOT NULL
);
CREATE INDEX limit_budgets_expiry ON limit_budgets (expires_at_ms);
