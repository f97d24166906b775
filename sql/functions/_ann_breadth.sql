-- The breadth (hnsw.ef_search) of a search through a simulation's own HNSW index, from the
-- index's row count (pg_class.reltuples; 0 or less: unknown, 400): 200 up to 20,000 vectors,
-- one more for every 100 from there, 400 from 40,000; from 100,000 on it grows by one for
-- every 250 vectors, 800 at 200,000, up to pgvector's maximum
-- of 1,000. Measured on the bench's 200,000-episode simulation (m = 32, 150 questions, top
-- 10, a quiet machine), recall@10 (questions below 0.9), p50: 400 0.971 (9, the worst at
-- 0.0), 6.6 ms; 600 0.989 (4), 6.2 ms; 800 0.993 (2), 7.1 ms; 1,000 0.995 (1), 8.4 ms; in
-- the loaded store of make bench 1,000 took p50 17.6 ms and p99 26 ms against 8.7 and 14.3
-- with 400. The same index built with m = 48, ef_construction = 200 (2.1 times the build
-- time) was no better: 0.996 at 1,000 in 12.9 ms. A wider pool instead (400 with the
-- iterative scan on to 1,000 candidates) gave 0.996 in 15.3 ms: the re-ranking of a
-- thousand full vectors costs more than the wider search.
-- The middle tier was 400 from 10,000 vectors (rows / 25), set when the indexes had m = 16
-- (13,000 episodes: recall@10 0.986 with 200). With m = 32, measured on a scratch server
-- (the bench's generator, 300 questions, top 10, pool 200), recall@10 (worst question),
-- p50 with 200 and with 400: 13,000 episodes 0.9997 (0.9), 2.9 ms and 1.000 (1.0), 4.4 ms;
-- another 13,000 0.9997 (0.9), 3.0 ms and 0.9997 (0.9), 4.3 ms; 25,000 0.998 (0.9), 3.9 ms
-- and 0.9993 (0.9), 6.2 ms (250: 0.9983 (0.9)); 50,000 0.992 (0.4), 4.3 ms and 0.9993
-- (0.9), 6.2 ms (300: 0.998 (0.8)), so 400 from 40,000 stays. 6,290 facts (search_facts):
-- recall@10 1.000 -> 0.9993 (0.9), recall@50 0.9997 -> 0.9993 (251 -> 200).
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
