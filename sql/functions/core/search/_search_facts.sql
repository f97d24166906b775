-- memory.search_facts' ranking, for a caller that has entered the tenant and checked the
-- query, its model and the state: the p_top_k facts most similar to p_query (clamped to
-- 1..100, NULL: 10) in that state at p_as_of (NULL: now), best first by similarity then
-- edge id, with their ends' ids and keys, unnamed. Through the simulation's own index of its
-- facts where it has one (memory._search_facts_ann, searched p_breadth wide when given, else
-- as memory._ann_breadth gives for the index's size), else, and whenever the index gives
-- fewer rows than asked for, an exact scan of the simulation's facts. memory.recall's facts
-- arm takes a narrower search than memory.search_facts (p_breadth).
CREATE OR REPLACE FUNCTION memory._search_facts(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer,
    p_state text,
    p_as_of timestamptz,
    p_breadth integer)
RETURNS TABLE (edge_id text, type text, fact text, source_id text, source_key uuid, target_id text,
               target_key uuid, valid_at timestamptz, invalid_at timestamptz, state text,
               similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- One plan a session: the ranking's shape does not depend on the values, and a custom plan
-- of it was made on every call (the planner chose it over the generic one each time), which
-- looks at every index of memory.edges, one a simulation with a facts index, and so grows
-- with the simulations (bench/README.md)
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
    v_as_of  timestamptz := COALESCE(p_as_of, pg_catalog.now());
    v_k      integer := memory._top_k(p_top_k);
    v_sim_no bigint;
    v_rows   real;
BEGIN
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    -- the index's size as the catalog holds it, when it exists and is valid (an index left
    -- invalid by an interrupted or running CREATE INDEX CONCURRENTLY is no path: the exact
    -- scan answers)
    SELECT c.reltuples INTO v_rows
      FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_index AS i ON i.indexrelid = c.oid
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._facts_ann_index_name(v_sim_no)) AND i.indisvalid;
    -- The facts ranked (through the index, or by one scan of the simulation's edges and a
    -- top-k sort in memory), without naming their ends: joining every edge to its nodes
    -- before the sort cost more here and a full sort spilled to disk. The state is
    -- memory._fact_state's rule written out (see memory.facts).
    RETURN QUERY
    WITH ann AS MATERIALIZED (
        SELECT a.* FROM memory._search_facts_ann(
            p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_sim_no => v_sim_no,
            p_query => p_query, p_top_k => v_k, p_state => p_state, p_as_of => v_as_of,
            p_index_rows => v_rows, p_breadth => p_breadth) AS a
         WHERE v_rows IS NOT NULL
    ), found AS MATERIALIZED (
        SELECT pg_catalog.count(*) AS n FROM ann
    ), exact AS (
        SELECT r.*
          FROM (SELECT e.edge_id, e.type, e.fact, e.source_id, e.source_key, e.target_id, e.target_key,
                       e.valid_at, e.invalid_at,
                       CASE WHEN e.valid_at > v_as_of THEN 'future'
                            WHEN e.invalid_at <= v_as_of THEN 'ended'
                            WHEN e.expired_at <= v_as_of THEN 'expired'
                            ELSE 'current' END AS state,
                       1 - (e.embedding OPERATOR(public.<=>) p_query::public.vector(384)) AS similarity
                  FROM memory.edges AS e
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                   AND e.embedding IS NOT NULL) AS r
         WHERE (p_state = 'all' OR r.state = p_state
                OR (p_state = 'historical' AND r.state IN ('ended', 'expired')))
           AND (SELECT c.n FROM found AS c) < v_k
         ORDER BY r.similarity DESC, r.edge_id
         LIMIT v_k
    ), f AS (
        SELECT * FROM ann WHERE (SELECT c.n FROM found AS c) >= v_k
        UNION ALL
        SELECT * FROM exact
    )
    SELECT * FROM f;
END
$fn$;

COMMENT ON FUNCTION memory._search_facts(uuid, uuid, public.vector, integer, text, timestamptz, integer) IS 'Internal: memory.search_facts'' ranking (through the facts'' index or exactly), ends unnamed, with the breadth of the index search optionally given';
GRANT EXECUTE ON FUNCTION memory._search_facts(uuid, uuid, public.vector, integer, text, timestamptz, integer) TO memory_reader;
