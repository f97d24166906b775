-- Approximate search of one simulation through its bridge index (memory._ann_ivf_index_name:
-- IVFFlat over the half-precision vectors, 100 lists, WHERE sim_no = <sim_no> AND embedding
-- IS NOT NULL), which `swarm-memory index` builds quickly before the simulation's
-- HNSW index and drops once that is built: memory._search_episodes takes this way while the
-- bridge is valid and the HNSW index is not (missing, or still being built). The p_pool best
-- candidates (at least p_top_k; NULL: 20 per result asked for, at least 200) re-ranked by the
-- exact cosine distance of the full vectors, as memory._search_episodes_ann.
--
-- 40 of the 100 lists are read (ivfflat.probes): fewer lost questions on the bench's data,
-- more cost little more (bench/README.md). The bridge costs what the share of the
-- simulation it reads costs, so it is a bridge: the HNSW index is the answer from a few
-- thousand episodes up, the bridge the minutes before it. A filtered call reads at most 60
-- lists (ivfflat.max_probes) before the exact search answers instead.
--
-- The condition embedding IS NOT NULL is the bridge's predicate: a statement without it (that
-- of memory._search_episodes_ann) can never be planned over the bridge, and this one is only
-- sent while the HNSW index is not valid, which the planner then cannot take either.
-- Dynamic SQL for the partial index's constant, as memory._search_episodes_ann: only the
-- simulation's opaque number, a bigint written with format('%s'), goes into the text; every
-- other argument is passed with USING. A filtered call (agent, rounds, time window) reads more
-- lists as it needs them (the iterative scan, up to 60); the caller falls back to the exact
-- scan on a short result.
CREATE OR REPLACE FUNCTION memory._search_episodes_ivf(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_sim_no bigint,
    p_query public.vector,
    p_top_k integer,
    p_agent_id integer,
    p_round_from integer,
    p_round_to integer,
    p_from timestamptz,
    p_to timestamptz,
    p_pool integer)
RETURNS SETOF memory.episode_hit
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET ivfflat.probes = 40
SET ivfflat.iterative_scan = 'relaxed_order'
SET ivfflat.max_probes = 60
SET enable_sort = off
AS $fn$
BEGIN
    RETURN QUERY EXECUTE pg_catalog.format($q$
        SELECT c.episode_id, c.agent_id, c.agent_name, c.platform, c.round, c.action_type,
               c.content, c.occurred_at, 1 - (c.embedding OPERATOR(public.<=>) $1)
          FROM (SELECT e.episode_id, e.agent_id, e.agent_name, e.platform, e.round,
                       e.action_type, e.content, e.occurred_at, e.embedding
                  FROM memory.episodes AS e
                 WHERE e.sim_no = %s AND e.embedding IS NOT NULL
                   AND e.tenant_id = $6 AND e.simulation_id = $7
                   AND ($4::integer IS NULL OR e.agent_id = $4)
                   AND ($8::integer IS NULL OR e.round >= $8) AND ($9::integer IS NULL OR e.round <= $9)
                   AND ($10::timestamptz IS NULL OR e.occurred_at >= $10)
                   AND ($11::timestamptz IS NULL OR e.occurred_at < $11)
                 ORDER BY e.embedding::public.halfvec(384) OPERATOR(public.<=>) $2
                 LIMIT $3) AS c
         ORDER BY c.embedding OPERATOR(public.<=>) $1, c.episode_id
         LIMIT $5 $q$, p_sim_no)
    USING p_query::public.vector(384), p_query::public.halfvec(384),
          GREATEST(COALESCE(p_pool, GREATEST(p_top_k * 20, 200)), p_top_k), p_agent_id, p_top_k,
          p_tenant_id, p_simulation_id, p_round_from, p_round_to, p_from, p_to;
END
$fn$;

COMMENT ON FUNCTION memory._search_episodes_ivf(uuid, uuid, bigint, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, integer) IS 'Internal: search one simulation through its IVFFlat bridge index (while its HNSW index is being built), re-ranked exactly';
GRANT EXECUTE ON FUNCTION memory._search_episodes_ivf(uuid, uuid, bigint, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, integer) TO memory_reader;
