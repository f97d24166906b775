-- The cosine similarity at and above which two vectors are copies of one text (a repost, a
-- retweet, the same line said twice): the one home of the number, read by the collapse of
-- search hits (memory._clump_collapse), the clump build and compaction's default
-- (memory.compact_episodes, whose default a test holds equal to it). Far enough from 1 that
-- re-embedding the same text with another runtime stays a copy, close enough that two
-- different sentences never are.
CREATE OR REPLACE FUNCTION memory._near_copy() RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 0.99::double precision
$fn$;

COMMENT ON FUNCTION memory._near_copy() IS 'Internal: the cosine at and above which two vectors are copies of one text';
GRANT EXECUTE ON FUNCTION memory._near_copy() TO memory_reader, memory_writer, memory_admin;
