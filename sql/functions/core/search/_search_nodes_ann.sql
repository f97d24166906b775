-- Approximate search of one simulation's entities through its pair of partial HNSW indexes
-- (V0035: memory.entities_ann_<sim_no> over the half-precision name vectors, with _summary
-- over the summary vectors): p_by 'name' reads the first, 'summary' the second, 'both' each,
-- each searched as broadly as the breadth says (hnsw.ef_search: p_breadth, or
-- memory._ann_breadth of the index's size; at least p_top_k) and read for two candidates a
-- result asked for, at least 100 (at most the breadth): the nearest 200 of a search 200
-- wide for recall's 50 were re-ranked to the same 50 in the same order as the nearest 100,
-- on the bench's entities, faster (a row
-- read is a heap fetch and an exact comparison); 'meaning' (V0036) reads the second, and
-- compares the entities without a summary exactly, by their name vectors, found through
-- nodes_without_summary_idx. The candidates are ranked by the exact cosine similarity of the
-- full vectors ('both': the nearer of the entity's two; 'meaning': the summary's, else the
-- name's; as the exact scan of memory.search_nodes), ties by id. p_type is applied inside
-- the iterative scan. Called by memory._search_nodes when both indexes exist; it falls back
-- to its exact scan on a short answer.
-- Dynamic SQL, deliberately (as memory._search_facts_ann): the planner uses a partial index
-- only when the query's conditions carry the predicate's constant, so the simulation's opaque
-- number goes into the statement as a literal (a bigint through format('%s')); every other
-- argument is passed with USING.
CREATE OR REPLACE FUNCTION memory._search_nodes_ann(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_sim_no bigint,
    p_query public.vector,
    p_top_k integer,
    p_type text,
    p_by text,
    p_index_rows real,
    p_breadth integer DEFAULT NULL)
RETURNS TABLE (node_id text, name text, type text, summary text, similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET hnsw.ef_search = 200
SET hnsw.iterative_scan = 'relaxed_order'
SET hnsw.max_scan_tuples = 20000
-- the indexes are the plan: without this the planner may read the simulation's entities
-- through a b-tree and sort them, exact but slower
SET enable_sort = off
AS $fn$
DECLARE
    v_breadth integer := GREATEST(COALESCE(p_breadth, memory._ann_breadth(p_index_rows)), p_top_k);
    v_read    integer := LEAST(v_breadth, GREATEST(2 * p_top_k, 100));
    v_sql     text;
BEGIN
    PERFORM pg_catalog.set_config('hnsw.ef_search', v_breadth::text, true);
    v_sql := pg_catalog.format($q$
        SELECT DISTINCT c.node_id, c.name, c.type, c.summary,
               1 - CASE $6 WHEN 'name' THEN c.embedding OPERATOR(public.<=>) $1
                           WHEN 'summary' THEN c.summary_embedding OPERATOR(public.<=>) $1
                           WHEN 'meaning' THEN COALESCE(c.summary_embedding OPERATOR(public.<=>) $1,
                                                        c.embedding OPERATOR(public.<=>) $1)
                           ELSE LEAST(c.embedding OPERATOR(public.<=>) $1,
                                      c.summary_embedding OPERATOR(public.<=>) $1) END AS similarity
          FROM ((SELECT n.node_id, n.name, n.type, n.summary, n.embedding, n.summary_embedding
                   FROM memory.nodes AS n
                  WHERE n.sim_no = %1$s AND n.tenant_id = $3 AND n.simulation_id = $4
                    AND n.embedding IS NOT NULL
                    AND ($5::text IS NULL OR n.type = $5) AND $6 IN ('name', 'both')
                  ORDER BY n.embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                  LIMIT $7)
                UNION ALL
                (SELECT n.node_id, n.name, n.type, n.summary, n.embedding, n.summary_embedding
                   FROM memory.nodes AS n
                  WHERE n.tenant_id = $3 AND n.simulation_id = $4
                    AND n.summary_embedding IS NULL AND n.embedding IS NOT NULL
                    AND ($5::text IS NULL OR n.type = $5) AND $6 = 'meaning'
                  ORDER BY n.embedding OPERATOR(public.<=>) $1
                  LIMIT $7)
                UNION ALL
                (SELECT n.node_id, n.name, n.type, n.summary, n.embedding, n.summary_embedding
                   FROM memory.nodes AS n
                  WHERE n.sim_no = %1$s AND n.tenant_id = $3 AND n.simulation_id = $4
                    AND n.summary_embedding IS NOT NULL
                    AND ($5::text IS NULL OR n.type = $5) AND $6 IN ('summary', 'both', 'meaning')
                  ORDER BY n.summary_embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                  LIMIT $7)) AS c
         ORDER BY 5 DESC, 1
         LIMIT $8 $q$, p_sim_no);
    RETURN QUERY EXECUTE v_sql
    USING p_query::public.vector(384), p_query::public.halfvec(384), p_tenant_id, p_simulation_id,
          p_type, p_by, v_read, p_top_k;
END
$fn$;

COMMENT ON FUNCTION memory._search_nodes_ann(uuid, uuid, bigint, public.vector, integer, text, text, real, integer) IS 'Internal: search one simulation''s entities through their partial HNSW indexes (name, summary or both), re-ranked exactly';
GRANT EXECUTE ON FUNCTION memory._search_nodes_ann(uuid, uuid, bigint, public.vector, integer, text, text, real, integer) TO memory_reader;
