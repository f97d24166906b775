-- The breadth (hnsw.ef_search) of memory._search_episodes_ann: the index's own
-- (memory._ann_breadth of its p_index_rows), at most 400 for a top k above 10 (the iterative
-- scan goes on to the pool's size: measured with a top 50, 200,000 episodes in the loaded
-- store of make bench, a breadth of 400 and the iterative scan to 1,000 candidates gave
-- recall@50 0.993 in 18 ms, a breadth of 1,000 0.990 in 27.6 ms), and, when the caller
-- gives a pool (NULL: none, as memory.search_episodes), at most twice the pool and at least
-- 200. memory.recall asks a pool of 100 for its 50 candidates: a breadth of 200 there
-- instead of 400 gave recall's same ten rows in the same order for 100 of 100 questions at
-- 200,000 episodes (p50 42.4 -> 38.9 ms) and for 99 of 100 at 50,000 (20.8 -> 17.2 ms;
-- a scratch copy of the bench's store, the questions of make bench's recall rows, each
-- asked of both in turn).
-- A top 10 or fewer without a pool, from an index under 20,000 vectors: a hundredth of its
-- size, at least 120 (not 200), and memory._search_episodes_ann re-ranks that many
-- candidates instead of 200. Measured on a copy of the bench's store, 300 of the bench's
-- questions and 300 others (templates of another seed and ten off-topic ones in English and
-- Chinese), breadth and pool 200 / 150 / 120 / 100 asked of each question in turn: 120 kept
-- recall@10 at 0.997 to 1.000 with no question below 0.9 at 4,157, 5,033, 7,391, 9,011 and
-- 12,324 episodes (100 left one question at 0.8 at 7,391 and at 12,324), p50 3.77 -> 2.89
-- ms at 5,033 and 5.99 -> 4.29 ms at 12,324 (the bare statement; bench/README.md).
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
