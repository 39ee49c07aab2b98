-- A portfolio's revision: every write to the portfolio or its transactions adds one, in
-- the same database transaction, so every instance agrees on which state of the ledger
-- a cached result describes, and a write validated against one revision is the only
-- writer of the next (the write holds the portfolio's row lock while it validates).
ALTER TABLE portfolios ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

-- The first answer to a request sent with an `Idempotency-Key` header, per member, so
-- that a retry of the same request (a double tap, a retry on a flaky connection)
-- answers what the first one did instead of doing it again. `request_hash` identifies
-- the request (method, path, body): the same key with another request is refused.
-- Kept 24 hours (the server ignores and replaces older rows).
CREATE TABLE idempotency_keys (
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    body         TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, key)
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);

-- The answers hold a member's data: they go when the member becomes a tombstone.
CREATE FUNCTION delete_idempotency_keys_of_deleted_member() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM idempotency_keys WHERE user_id = NEW.id;
    RETURN NULL;
END;
$$;
CREATE TRIGGER idempotency_keys_leave_with_their_member
AFTER UPDATE OF deleted_at ON users
FOR EACH ROW
WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
EXECUTE FUNCTION delete_idempotency_keys_of_deleted_member();
