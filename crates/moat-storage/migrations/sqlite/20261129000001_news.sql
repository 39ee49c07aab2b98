-- News (docs/news.md): the feeds the operator configured, the articles read from them
-- (one per story: a story's copies in other feeds, found by canonical URL or by a
-- near-identical SimHash, become more sources of it), their links to instruments,
-- and the full-text index. Times are unix milliseconds.

-- A feed; `next_poll_at` NULL means due at once.
CREATE TABLE news_feeds (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    url               TEXT NOT NULL,
    source_name       TEXT NOT NULL,
    country           TEXT NOT NULL,
    language          TEXT NOT NULL,
    enabled           INTEGER NOT NULL,
    is_default        INTEGER NOT NULL,
    -- The validators exactly as received (quotes included).
    etag              TEXT,
    last_modified     TEXT,
    next_poll_at      INTEGER,
    interval_secs     INTEGER NOT NULL,
    error_count       INTEGER NOT NULL DEFAULT 0,
    last_error        TEXT,
    last_status       TEXT NOT NULL DEFAULT 'pending',
    last_fetch_at     INTEGER,
    last_success_at   INTEGER,
    items_total       INTEGER NOT NULL DEFAULT 0,
    items_last_fetch  INTEGER NOT NULL DEFAULT 0,
    -- The feed's server asked not to be fetched before this (Retry-After).
    retry_after_until INTEGER,
    created_at        INTEGER NOT NULL,
    CONSTRAINT news_feeds_url_unique UNIQUE (url),
    CONSTRAINT news_feeds_country CHECK (country IN ('KR', 'US')),
    CONSTRAINT news_feeds_status CHECK (last_status IN ('pending', 'ok', 'error'))
) STRICT;
CREATE INDEX news_feeds_due ON news_feeds (next_poll_at) WHERE enabled;

-- One story. `simhash` is its 64-bit SimHash; `band0`..`band3` its four 16-bit
-- slices (low to high), so that a fingerprint within 3 bits shares at least one.
-- `search_text` is moat_search::index_parts(title, summary); `source_count` the
-- distinct outlets that carried it.
CREATE TABLE news_articles (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    canonical_url TEXT NOT NULL,
    url           TEXT NOT NULL,
    title         TEXT NOT NULL,
    summary       TEXT NOT NULL,
    source_name   TEXT NOT NULL,
    country       TEXT NOT NULL,
    language      TEXT NOT NULL,
    published_at  INTEGER NOT NULL,
    fetched_at    INTEGER NOT NULL,
    image_key     TEXT,
    simhash       INTEGER NOT NULL,
    band0         INTEGER NOT NULL,
    band1         INTEGER NOT NULL,
    band2         INTEGER NOT NULL,
    band3         INTEGER NOT NULL,
    search_text   TEXT NOT NULL,
    source_count  INTEGER NOT NULL DEFAULT 1,
    CONSTRAINT news_articles_canonical_url_unique UNIQUE (canonical_url),
    CONSTRAINT news_articles_country CHECK (country IN ('KR', 'US'))
) STRICT;
-- Newest first, all and per country (keyset paging on published_at, id).
CREATE INDEX news_articles_newest ON news_articles (published_at, id);
CREATE INDEX news_articles_country_newest ON news_articles (country, published_at, id);
-- What a search reads of each match (its time and country), through this narrow
-- index rather than the wide rows (news search's statement names it: INDEXED BY).
CREATE INDEX news_articles_search_cover ON news_articles (id, published_at, country);
-- Near-duplicate candidates: one band equal, published within the window.
CREATE INDEX news_articles_band0 ON news_articles (band0, published_at);
CREATE INDEX news_articles_band1 ON news_articles (band1, published_at);
CREATE INDEX news_articles_band2 ON news_articles (band2, published_at);
CREATE INDEX news_articles_band3 ON news_articles (band3, published_at);

-- Every appearance of a story in a feed; the feed becomes NULL when it is deleted.
CREATE TABLE news_article_sources (
    id          INTEGER PRIMARY KEY,
    article_id  INTEGER NOT NULL REFERENCES news_articles (id) ON DELETE CASCADE,
    feed_id     INTEGER REFERENCES news_feeds (id) ON DELETE SET NULL,
    guid        TEXT NOT NULL,
    url         TEXT NOT NULL,
    source_name TEXT NOT NULL,
    CONSTRAINT news_article_sources_guid_unique UNIQUE (feed_id, guid)
) STRICT;
CREATE INDEX news_article_sources_article ON news_article_sources (article_id);

-- An article's instruments; published_at and country are copied from the article
-- for the per-instrument newest-first index.
CREATE TABLE news_article_instruments (
    article_id    INTEGER NOT NULL REFERENCES news_articles (id) ON DELETE CASCADE,
    instrument_id TEXT NOT NULL,
    in_title      INTEGER NOT NULL,
    published_at  INTEGER NOT NULL,
    country       TEXT NOT NULL,
    PRIMARY KEY (article_id, instrument_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX news_article_instruments_newest
    ON news_article_instruments (instrument_id, published_at, article_id);

-- The full-text index over search_text (external content: the text is stored once,
-- in news_articles), kept in sync by the triggers below.
CREATE VIRTUAL TABLE news_fts USING fts5 (
    search_text,
    content = 'news_articles',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 0'
);

CREATE TRIGGER news_articles_fts_insert AFTER INSERT ON news_articles BEGIN
    INSERT INTO news_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
CREATE TRIGGER news_articles_fts_delete AFTER DELETE ON news_articles BEGIN
    INSERT INTO news_fts (news_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
CREATE TRIGGER news_articles_fts_update AFTER UPDATE OF search_text ON news_articles BEGIN
    INSERT INTO news_fts (news_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    INSERT INTO news_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
