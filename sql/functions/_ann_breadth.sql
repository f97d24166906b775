-- The breadth (hnsw.ef_search) of a search through a simulation's own HNSW index, from the
-- index's row count (pg_class.reltuples; 0 or less: unknown, 400). An index of 5,000
-- vectors is searched as well with 200 as with 400 and in half the time; from 10,000 on it
-- takes 400 (make bench data: recall@10 at 13k episodes 0.986 with 200, 1.0 with 400); from
-- 80,000 on it grows by one for every 200 vectors up to pgvector's maximum, 1,000, at
-- 200,000 (the bench's 200,000-episode simulation, m = 32, 150 questions: recall@10 0.971
-- with 400, 9 questions below 0.9, the worst at 0.0; 0.995 with 1,000, one question at 0.8;
-- p50 5.2 -> 9.0 ms). Going on past 1,000 candidates by the iterative scan cost more than it
-- gave (2,500 candidates: 0.999 at 31 ms).
CREATE OR REPLACE FUNCTION memory._ann_breadth(p_index_rows real) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN p_index_rows > 0
            THEN LEAST(1000, GREATEST(LEAST(400, GREATEST(200, p_index_rows / 25)),
                                      p_index_rows / 200))::integer
            ELSE 400 END
$fn$;

COMMENT ON FUNCTION memory._ann_breadth(real) IS 'Internal: hnsw.ef_search for a simulation''s own index of p_index_rows vectors (200 to 1,000)';
GRANT EXECUTE ON FUNCTION memory._ann_breadth(real) TO memory_reader;
