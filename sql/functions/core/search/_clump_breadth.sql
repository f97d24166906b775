-- The breadth (hnsw.ef_search) of memory._clump_search through a clump build's index of
-- p_points representatives: a hundred-and-fortieth of the points, from 200 to pgvector's
-- maximum of 1,000 (memory._clump_search says how that was measured), and, for a top 10 or
-- fewer from a build of under 6,000 points, a thirtieth of them, at least 100. Measured on
-- the bench's clumpy data (bench/clumps.py), every question asked of every breadth in turn,
-- recall@10 tie-aware against the exact ranking: a few thousand points keep every question
-- at 1.0 with 100, more need 200, so the breadth reaches 200 from 6,000 points; the smaller
-- breadth is faster (bench/README.md). A top k above 10 (recall's 50 candidates, a
-- collapsed search's pool) keeps 200:
-- the iterative scan is off there, so the breadth bounds the candidates too.
CREATE OR REPLACE FUNCTION memory._clump_breadth(p_points bigint, p_top_k integer)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT LEAST(1000, GREATEST(CASE WHEN p_top_k <= 10 AND p_points > 0
                                 THEN LEAST(200, GREATEST(100, p_points / 30))
                                 ELSE 200 END,
                            COALESCE(p_points, 0) / 140))::integer
$fn$;

COMMENT ON FUNCTION memory._clump_breadth(bigint, integer) IS 'Internal: hnsw.ef_search of a search through a clump build''s index, from its number of representatives and the hits asked for';
GRANT EXECUTE ON FUNCTION memory._clump_breadth(bigint, integer) TO memory_reader;
