-- The version of each price series (an instrument's daily candles, or an FX pair's
-- daily rates as 'fx:USD/KRW'), for results derived from prices and kept between
-- requests (the portfolio area's series cache, docs/ARCHITECTURE.md "Derived results").
-- A write that only appends days after last_date from the same source leaves version
-- alone; a write that touches a day on or before it (a correction, an import, a gap
-- filled) or comes from another source (prices imported over simulated ones) raises
-- it by one, in the same transaction. A series gets its row, at version 1, with its first
-- write, so that a missing row (version 0) differs from every stored state.
CREATE TABLE price_versions (
    series    TEXT PRIMARY KEY,
    version   BIGINT NOT NULL,
    source    TEXT NOT NULL,
    last_date DATE NOT NULL
);

INSERT INTO price_versions (series, version, source, last_date)
SELECT d.instrument_id, 1, d.source, d.date FROM daily_candles d
WHERE d.date = (SELECT MAX(date) FROM daily_candles l WHERE l.instrument_id = d.instrument_id);

INSERT INTO price_versions (series, version, source, last_date)
SELECT 'fx:' || r.base || '/' || r.quote, 1, r.source, r.date FROM fx_rates r
WHERE r.date = (SELECT MAX(date) FROM fx_rates l WHERE l.base = r.base AND l.quote = r.quote);
