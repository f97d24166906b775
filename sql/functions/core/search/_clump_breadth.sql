-- The breadth (hnsw.ef_search) of memory._clump_search through a clump build's index of
-- p_points representatives: a hundred-and-fortieth of the points, from 200 to pgvector's
-- maximum of 1,000 (memory._clump_search says how that was measured), and, for a top 10 or
-- fewer from a build of under 6,000 points, a thirtieth of them, at least 100. Measured on
-- the bench's clumpy data (bench/clumps.py; seed 13 at 2,000 and 10,000 episodes, seed 2727
-- at 2,000, 3,000 and 5,000), all 350 of its questions (on and off the simulations' topics,
-- and about their viral posts) asked of every breadth in turn, recall@10 tie-aware against
-- the exact ranking: 1,344 / 1,345 / 2,021 / 3,367 points kept recall 1.000 (no question
-- below 1.0) at 100, where 80 left one question at 0.9 at 3,367; 6,754 points kept it only
-- at 200 (150: one question at 0.9; 120: one at 0.8), so the breadth reaches 200 from 6,000
-- points. search_episodes p50 at 100 against 200, in the same runs: 2.92 -> 2.27 ms (2,000
-- episodes, seed 13), 3.19 -> 2.48 (2,000, seed 2727), 3.94 -> 3.11 (3,000), 4.37 -> 3.15
-- (5,000, whose 3,367 points get 112 here). A top k above 10 (recall's 50 candidates, a collapsed search's pool) keeps 200:
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
