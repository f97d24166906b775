-- The breadth (hnsw.ef_search) of a search through a simulation's own HNSW index, from the
-- index's row count (pg_class.reltuples; 0 or less: unknown, 400): 200 up to 20,000 vectors,
-- one more for every 100 from there, 400 from 40,000; from 100,000 on it grows by one for
-- every 250 vectors, 800 at 200,000, up to pgvector's maximum
-- of 1,000. Wider searches found more of the true top 10 at 200,000 vectors, and a wider
-- pool re-ranked instead cost more than the wider search; below 40,000 vectors 200 to 400
-- are enough (the measurements: bench/README.md).
CREATE OR REPLACE FUNCTION memory._ann_breadth(p_index_rows real) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN p_index_rows > 0
            THEN LEAST(1000, GREATEST(LEAST(400, GREATEST(200, p_index_rows / 100)),
                                      p_index_rows / 250))::integer
            ELSE 400 END
$fn$;

COMMENT ON FUNCTION memory._ann_breadth(real) IS 'Internal: hnsw.ef_search for a simulation''s own index of p_index_rows vectors (200 to 1,000)';
GRANT EXECUTE ON FUNCTION memory._ann_breadth(real) TO memory_reader;
