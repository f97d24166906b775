-- Approximate search of one simulation through its own partial HNSW index (half-precision
-- vectors): the p_pool best candidates (at least p_top_k; NULL: 20 per result asked for, at
-- least 200, or the breadth when memory._episodes_breadth makes it narrower than 200: a top
-- 10 from an index under 20,000 vectors) re-ranked by the exact cosine distance of the full
-- vectors. Called by memory._search_episodes (memory.search_episodes' work) when the index
-- exists (see swarm-memory index).
--
-- The breadth of the search (hnsw.ef_search): memory._episodes_breadth, from the index's
-- size (memory._ann_breadth), the hits asked for and the caller's pool.
--
-- Dynamic SQL, deliberately: the planner uses a partial index only when the query's
-- conditions carry the index predicate's constant, so the simulation's opaque number
-- (p_sim_no, the predicate's sim_no) goes into the statement as a literal: a bigint written
-- with format('%s'), which cannot carry anything but digits. Tenant and simulation, and
-- every other argument, are passed with USING: no value of the caller becomes SQL text, and
-- the statement is planned in this function's own settings (no session prepared statement:
-- a caller could have planted one, docs/trust-model.md).
-- p_index_rows: the index's row count as the catalog holds it (pg_class.reltuples), which
-- the caller has just read to learn that the index exists. p_round_from .. p_round_to
-- (inclusive) and [p_from, p_to): the range of memory.search_episodes (NULL: open), applied
-- inside the iterative scan, so candidates come from the range; the caller sends only
-- ranges wide enough for that (and falls back to the exact scan on a short result).
CREATE OR REPLACE FUNCTION memory._search_episodes_ann(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_sim_no bigint,
    p_query public.vector,
    p_top_k integer,
    p_agent_id integer,
    p_index_rows real,
    p_round_from integer,
    p_round_to integer,
    p_from timestamptz,
    p_to timestamptz,
    p_pool integer)
RETURNS SETOF memory.episode_hit
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET hnsw.ef_search = 400
SET hnsw.iterative_scan = 'relaxed_order'
SET hnsw.max_scan_tuples = 100000
-- The simulation's own index is the plan: without this the planner may prefer reading the
-- simulation through its b-tree and sorting, which is exact but slower than the index.
SET enable_sort = off
AS $fn$
DECLARE
    v_breadth integer := memory._episodes_breadth(p_index_rows, p_top_k, p_pool);
    v_pool    integer := GREATEST(COALESCE(p_pool, CASE WHEN v_breadth < 200 THEN v_breadth ELSE GREATEST(p_top_k * 20, 200) END),
                                  p_top_k);
    v_sql     text;
BEGIN
    PERFORM pg_catalog.set_config('hnsw.ef_search', v_breadth::text, true);
    v_sql := pg_catalog.format($q$
        SELECT c.episode_id, c.agent_id, c.agent_name, c.platform, c.round, c.action_type,
               c.content, c.occurred_at, 1 - (c.embedding OPERATOR(public.<=>) $1)
          FROM (SELECT e.episode_id, e.agent_id, e.agent_name, e.platform, e.round,
                       e.action_type, e.content, e.occurred_at, e.embedding
                  FROM memory.episodes AS e
                 WHERE e.sim_no = %s AND e.tenant_id = $6 AND e.simulation_id = $7
                   AND ($4::integer IS NULL OR e.agent_id = $4)
                   AND ($8::integer IS NULL OR e.round >= $8) AND ($9::integer IS NULL OR e.round <= $9)
                   AND ($10::timestamptz IS NULL OR e.occurred_at >= $10)
                   AND ($11::timestamptz IS NULL OR e.occurred_at < $11)
                 ORDER BY e.embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                 LIMIT $3) AS c
         ORDER BY c.embedding OPERATOR(public.<=>) $1, c.episode_id
         LIMIT $5 $q$, p_sim_no);
    RETURN QUERY EXECUTE v_sql
    USING p_query::public.vector(384), p_query::public.halfvec(384), v_pool, p_agent_id, p_top_k,
          p_tenant_id, p_simulation_id, p_round_from, p_round_to, p_from, p_to;
END
$fn$;

COMMENT ON FUNCTION memory._search_episodes_ann(uuid, uuid, bigint, public.vector, integer, integer, real, integer, integer, timestamptz, timestamptz, integer) IS 'Internal: search one simulation through its partial HNSW index, re-ranked exactly';
GRANT EXECUTE ON FUNCTION memory._search_episodes_ann(uuid, uuid, bigint, public.vector, integer, integer, real, integer, integer, timestamptz, timestamptz, integer) TO memory_reader;
