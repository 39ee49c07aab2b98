-- News search (issue 19): each article's search vector also carries its id buckets,
-- one lexeme per level: '#a<id / 2048>', '#b<id / 16384>', '#c<id / 131072>'
-- (moat_storage::news::SEARCH_BUCKET_LEVELS), which no token of moat_search can be.
-- A search asks the GIN index for the query AND the newest buckets, so it reads and
-- checks only the newest matches from the table instead of every match; it ranks
-- with the query alone (ts_rank_cd(search_vector, q)).
DROP INDEX news_articles_search;
ALTER TABLE news_articles DROP COLUMN search_vector;
ALTER TABLE news_articles ADD COLUMN search_vector TSVECTOR GENERATED ALWAYS AS (
    to_tsvector('simple'::regconfig, search_text)
    || array_to_tsvector(ARRAY[
        '#a' || (id / 2048)::text,
        '#b' || (id / 16384)::text,
        '#c' || (id / 131072)::text
    ])
) STORED;
CREATE INDEX news_articles_search ON news_articles USING GIN (search_vector);

-- The Latin and digit words the index holds, so that a search expands a prefix
-- ('earn') into those words ('earn' | 'earned' | 'earnings') where they are few: GIN
-- answers exact entries by skipping through their postings, but collects every match
-- of a prefix first (30 ms for a word in 18 % of 500,000 articles). Kept by a trigger;
-- never pruned (a word no article holds any more matches nothing).
CREATE TABLE news_search_words (word TEXT COLLATE "C" PRIMARY KEY);
INSERT INTO news_search_words
    SELECT word FROM ts_stat('SELECT to_tsvector(''simple'', search_text) FROM news_articles')
    WHERE word ~ '^[a-z0-9]+$';
CREATE FUNCTION news_search_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO news_search_words
        SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple', NEW.search_text))) w
        WHERE w ~ '^[a-z0-9]+$'
        ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE TRIGGER news_articles_words AFTER INSERT OR UPDATE OF search_text ON news_articles
    FOR EACH ROW EXECUTE FUNCTION news_search_words_add();
