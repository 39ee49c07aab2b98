-- News search (issue 19): PostgreSQL's search vector gains id buckets in this
-- migration; FTS5 already walks a word's matches newest first, so SQLite keeps its
-- index. This statement only keeps both backends' migration histories alike.
SELECT 1;
