-- The breadth (hnsw.ef_search) of memory._search_episodes_ann: the index's own
-- (memory._ann_breadth of its p_index_rows), at most 400 for a top k above 10 (the iterative
-- scan goes on to the pool's size, which served a top 50 better than a wider search), and,
-- when the caller gives a pool (NULL: none, as memory.search_episodes), at most twice the
-- pool and at least 200: recall's pool of 100 for its 50 candidates gave the same rows with
-- a breadth of 200 as with 400, faster.
-- A top 10 or fewer without a pool, from an index under 20,000 vectors: a hundredth of its
-- size, at least 120 (not 200), and memory._search_episodes_ann re-ranks that many
-- candidates instead of 200: as good on small indexes, and faster (bench/README.md).
CREATE OR REPLACE FUNCTION memory._episodes_breadth(p_index_rows real, p_top_k integer, p_pool integer)
RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT LEAST(memory._ann_breadth(p_index_rows),
             CASE WHEN p_top_k > 10 THEN 400 END,
             CASE WHEN p_pool IS NOT NULL THEN GREATEST(2 * p_pool, 200) END,
             CASE WHEN p_pool IS NULL AND p_top_k <= 10 AND p_index_rows > 0
                  THEN GREATEST(120, p_index_rows / 100)::integer END)
$fn$;

COMMENT ON FUNCTION memory._episodes_breadth(real, integer, integer) IS 'Internal: hnsw.ef_search of a search through a simulation''s own episodes index, from its size, the hits asked for and the caller''s pool';
GRANT EXECUTE ON FUNCTION memory._episodes_breadth(real, integer, integer) TO memory_reader;
