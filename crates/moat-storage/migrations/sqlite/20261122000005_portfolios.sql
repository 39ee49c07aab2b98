-- Portfolios and their transactions. Amounts are exact decimal strings (TEXT), as in
-- the market tables: the arithmetic happens in Rust with rust_decimal. Cash is not
-- stored: it follows from the transactions.
--
-- Every row belongs to one member through its portfolio. Ids are never reused
-- (AUTOINCREMENT), so a stale id in a client never names someone else's row.

-- A member's portfolio; `position` orders a member's portfolios.
CREATE TABLE portfolios (
    id                        INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id                   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name                      TEXT NOT NULL,
    base_currency             TEXT NOT NULL,
    cost_method               TEXT NOT NULL,
    broker                    TEXT,
    position                  INTEGER NOT NULL,
    -- What the broker says may be spent on orders now, as the member last entered it.
    orderable_cash            TEXT,
    orderable_cash_currency   TEXT,
    orderable_cash_updated_at TEXT,
    created_at                TEXT NOT NULL,
    -- The last change to the portfolio's settings or transactions.
    updated_at                TEXT NOT NULL,
    CONSTRAINT portfolios_name_length CHECK (length(name) BETWEEN 1 AND 60),
    CONSTRAINT portfolios_base_currency CHECK (base_currency IN ('KRW', 'USD')),
    CONSTRAINT portfolios_cost_method CHECK (cost_method IN ('moving_average', 'fifo')),
    CONSTRAINT portfolios_orderable_cash_complete CHECK (
        (orderable_cash IS NULL) = (orderable_cash_currency IS NULL)
        AND (orderable_cash IS NULL) = (orderable_cash_updated_at IS NULL)
    )
) STRICT;
CREATE INDEX portfolios_by_position ON portfolios (user_id, position);

-- One recorded transaction (moat-portfolio's `Transaction`). A split carries its
-- ratio (`split_denominator` old shares become `split_numerator` new ones); no other
-- kind does.
CREATE TABLE transactions (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    portfolio_id       INTEGER NOT NULL REFERENCES portfolios (id) ON DELETE CASCADE,
    kind               TEXT NOT NULL,
    trade_date         TEXT NOT NULL,
    -- EXCHANGE:SYMBOL; deliberately no foreign key: a member's history outlives
    -- catalogue changes.
    instrument_id      TEXT,
    quantity           TEXT NOT NULL DEFAULT '0',
    price              TEXT NOT NULL DEFAULT '0',
    fee                TEXT NOT NULL DEFAULT '0',
    tax                TEXT NOT NULL DEFAULT '0',
    currency           TEXT NOT NULL,
    fx_rate            TEXT,
    split_numerator    INTEGER,
    split_denominator  INTEGER,
    note               TEXT NOT NULL DEFAULT '',
    -- Set by CSV import: identifies the source row, to spot rows imported before.
    import_fingerprint TEXT,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    CONSTRAINT transactions_kind CHECK (
        kind IN ('buy', 'sell', 'dividend', 'deposit', 'withdrawal', 'fee', 'tax', 'split')
    ),
    CONSTRAINT transactions_split_ratio CHECK (
        (split_numerator IS NULL AND split_denominator IS NULL)
        OR (split_numerator IS NOT NULL AND split_denominator IS NOT NULL
            AND split_numerator > 0 AND split_denominator > 0)
    )
) STRICT;
-- Ledger order within a portfolio: by day, then by id.
CREATE INDEX transactions_in_order ON transactions (portfolio_id, trade_date, id);
CREATE INDEX transactions_by_fingerprint ON transactions (portfolio_id, import_fingerprint)
    WHERE import_fingerprint IS NOT NULL;

-- A member's row is never deleted (accounts turn it into a tombstone), so the
-- foreign key's cascade alone would keep a deleted member's portfolios: remove them
-- (and, by cascade, their transactions) when the member becomes a tombstone.
CREATE TRIGGER portfolios_leave_with_their_member
AFTER UPDATE OF deleted_at ON users
WHEN OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL
BEGIN
    DELETE FROM portfolios WHERE user_id = NEW.id;
END;
