-- Corporate actions (docs/market.md): cash dividends and splits per instrument.
-- Amounts are exact decimal strings (TEXT), as in the price tables; WITHOUT ROWID so
-- that one instrument's history is one sequential read.

-- A cash dividend per share, by ex-date. Many sources give only the ex-date.
CREATE TABLE dividends (
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    ex_date       TEXT NOT NULL,
    pay_date      TEXT,
    record_date   TEXT,
    amount        TEXT NOT NULL,
    currency      TEXT NOT NULL,
    source        TEXT NOT NULL,
    PRIMARY KEY (instrument_id, ex_date)
) STRICT, WITHOUT ROWID;
-- The upcoming-dividends calendar reads across instruments by date.
CREATE INDEX dividends_by_ex_date ON dividends (ex_date);
CREATE INDEX dividends_by_pay_date ON dividends (pay_date);

-- A split effective on `date`: `denominator` old shares become `numerator` new ones.
CREATE TABLE splits (
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    date          TEXT NOT NULL,
    numerator     INTEGER NOT NULL CHECK (numerator > 0),
    denominator   INTEGER NOT NULL CHECK (denominator > 0),
    source        TEXT NOT NULL,
    PRIMARY KEY (instrument_id, date)
) STRICT, WITHOUT ROWID;
