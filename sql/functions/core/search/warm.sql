-- Load what the reads of one simulation use into memory, so that its first questions after a
-- restart or a load do not each wait for their own pages: its rows (episodes, facts,
-- entities) and its word postings, read by key under the caller's row-level security, then
-- its own HNSW indexes (episodes, facts, the entities' pair) through pg_prewarm when that
-- extension is installed (memory._warm_indexes). One row a part: the rows read, or an
-- index's pages loaded ('not loaded: pg_prewarm is not installed' without it). Reads only:
-- running it again changes nothing.
-- On a server just restarted, with the operating system's cache emptied, the first
-- questions of a large simulation each read their pages from disk; after this call they
-- answer as on a warm store, which loading the indexes alone does not give
-- (bench/README.md).
CREATE OR REPLACE FUNCTION memory.warm(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (part text, amount bigint, unit text)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
-- by key: a sequential scan of a large table reads through a small ring of buffers and
-- leaves little of the table behind
SET enable_seqscan = off
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    -- each count reads every row whole (no index holds it), so every row's page is read
    RETURN QUERY
        SELECT x.part, x.amount, 'rows'::text
          FROM (SELECT 1 AS n, 'episodes'::text AS part, pg_catalog.count(r.*) AS amount FROM memory.episodes AS r
                 WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
                UNION ALL
                SELECT 2, 'facts', pg_catalog.count(r.*) FROM memory.edges AS r
                 WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
                UNION ALL
                SELECT 3, 'entities', pg_catalog.count(r.*) FROM memory.nodes AS r
                 WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
                UNION ALL
                SELECT 4, 'word postings', pg_catalog.count(r.*) FROM memory.word_postings AS r
                 WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id) AS x
         ORDER BY x.n;
    RETURN QUERY
        SELECT w.part, w.pages, CASE WHEN w.pages IS NULL THEN 'not loaded: pg_prewarm is not installed' ELSE 'pages' END
          FROM memory._warm_indexes(p_tenant_id, p_simulation_id) AS w;
END
$fn$;

COMMENT ON FUNCTION memory.warm(uuid, uuid) IS 'Load a simulation''s rows, word postings and (with pg_prewarm) its own indexes into memory, so that its first questions do not each read from disk';
GRANT EXECUTE ON FUNCTION memory.warm(uuid, uuid) TO memory_reader;
