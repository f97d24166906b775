-- Approximate search of one simulation's facts through its own partial HNSW index over their
-- half-precision vectors (memory.facts_ann_<sim_no>, memory.ann_plan_facts): the candidates
-- of a search as broad as memory._ann_breadth gives for the index's size, or p_breadth when
-- given (memory.recall's facts arm; at least p_top_k either way),
-- taken in the state asked for inside the iterative scan, re-ranked by the exact cosine
-- distance of the full vectors; the p_top_k best, with the same columns and state rule as
-- memory.search_facts' exact scan. Called by memory._search_facts when the index exists,
-- which takes the exact scan instead when this returns fewer than p_top_k rows.
--
-- Dynamic SQL, deliberately, as memory._search_episodes_ann: the planner uses a partial
-- index only when the query carries the predicate's constant, so the simulation's opaque
-- number (p_sim_no) goes into the statement as a bigint written with format('%s'), which
-- cannot carry anything but digits. Every other argument is passed with USING.
CREATE OR REPLACE FUNCTION memory._search_facts_ann(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_sim_no bigint,
    p_query public.vector,
    p_top_k integer,
    p_state text,
    p_as_of timestamptz,
    p_index_rows real,
    p_breadth integer DEFAULT NULL)
RETURNS TABLE (edge_id text, type text, fact text, source_id text, source_key uuid, target_id text,
               target_key uuid, valid_at timestamptz, invalid_at timestamptz, state text,
               similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET hnsw.ef_search = 400
SET hnsw.iterative_scan = 'relaxed_order'
SET hnsw.max_scan_tuples = 20000
-- the simulation's own index is the plan (see memory._search_episodes_ann)
SET enable_sort = off
AS $fn$
DECLARE
    v_breadth integer := GREATEST(COALESCE(p_breadth, memory._ann_breadth(p_index_rows)), p_top_k);
    v_as_of   timestamptz := COALESCE(p_as_of, pg_catalog.now());
    v_sql     text;
BEGIN
    PERFORM pg_catalog.set_config('hnsw.ef_search', v_breadth::text, true);
    v_sql := pg_catalog.format($q$
        SELECT c.edge_id, c.type, c.fact, c.source_id, c.source_key, c.target_id, c.target_key,
               c.valid_at, c.invalid_at, c.state, 1 - (c.embedding OPERATOR(public.<=>) $1)
          FROM (SELECT r.*
                  FROM (SELECT e.edge_id, e.type, e.fact, e.source_id, e.source_key, e.target_id, e.target_key,
                               e.valid_at, e.invalid_at, e.embedding,
                               CASE WHEN e.valid_at > $6 THEN 'future'
                                    WHEN e.invalid_at <= $6 THEN 'ended'
                                    WHEN e.expired_at <= $6 THEN 'expired'
                                    ELSE 'current' END AS state
                          FROM memory.edges AS e
                         WHERE e.sim_no = %s AND e.tenant_id = $3 AND e.simulation_id = $4
                           AND e.embedding IS NOT NULL
                         ORDER BY e.embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                         OFFSET 0) AS r
                 WHERE $5 = 'all' OR r.state = $5 OR ($5 = 'historical' AND r.state IN ('ended', 'expired'))
                 LIMIT $7) AS c
         ORDER BY c.embedding OPERATOR(public.<=>) $1, c.edge_id
         LIMIT $8 $q$, p_sim_no);
    RETURN QUERY EXECUTE v_sql
    USING p_query::public.vector(384), p_query::public.halfvec(384), p_tenant_id, p_simulation_id,
          p_state, v_as_of, v_breadth, p_top_k;
END
$fn$;

COMMENT ON FUNCTION memory._search_facts_ann(uuid, uuid, bigint, public.vector, integer, text, timestamptz, real, integer) IS 'Internal: search one simulation''s facts through their partial HNSW index, in a state, re-ranked exactly';
GRANT EXECUTE ON FUNCTION memory._search_facts_ann(uuid, uuid, bigint, public.vector, integer, text, timestamptz, real, integer) TO memory_reader;
