-- Corporate actions (docs/market.md): cash dividends and splits per instrument.
-- Amounts are exact decimal strings (TEXT), as in the price tables.

-- A cash dividend per share, by ex-date. Many sources give only the ex-date.
CREATE TABLE dividends (
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    ex_date       DATE NOT NULL,
    pay_date      DATE,
    record_date   DATE,
    amount        TEXT NOT NULL,
    currency      TEXT NOT NULL,
    source        TEXT NOT NULL,
    PRIMARY KEY (instrument_id, ex_date)
);
-- The upcoming-dividends calendar reads across instruments by date.
CREATE INDEX dividends_by_ex_date ON dividends (ex_date);
CREATE INDEX dividends_by_pay_date ON dividends (pay_date);

-- A split effective on `date`: `denominator` old shares become `numerator` new ones.
CREATE TABLE splits (
    instrument_id TEXT NOT NULL REFERENCES instruments (id) ON DELETE CASCADE,
    date          DATE NOT NULL,
    numerator     BIGINT NOT NULL CHECK (numerator > 0),
    denominator   BIGINT NOT NULL CHECK (denominator > 0),
    source        TEXT NOT NULL,
    PRIMARY KEY (instrument_id, date)
);
