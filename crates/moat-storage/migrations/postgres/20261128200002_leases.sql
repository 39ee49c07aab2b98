-- Leases: one instance at a time does a job (e.g. polling a real quote provider);
-- a holder renews its lease before it runs out, and a failed holder's lease runs out
-- for another instance to take. Times are unix milliseconds.
CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
