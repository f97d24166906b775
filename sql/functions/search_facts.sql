-- Facts (edges) of a simulation most similar to a query embedding, best first (1 - cosine
-- distance of the fact's text), in a state at a world time (memory.facts' states, current
-- by default; p_as_of NULL: now); each with both ends named and its validity. Through the
-- simulation's own HNSW index over its facts where it has one (memory.ann_plan_facts,
-- swarm-memory index; memory._search_facts_ann), else, and whenever the index gives fewer
-- rows than asked for, an exact scan of the simulation's facts (their rows by the primary
-- key's (tenant, simulation) prefix). A MiroFish graph of 10,000 entities holds about 50,000
-- facts: the exact scan of them took 44 ms (V0032). p_top_k clamped to 1..100 (NULL: 10).
-- p_model, the model of the query vector: refused (22023) when it is not the simulation's
-- (memory._check_query_model); NULL checks nothing.
CREATE OR REPLACE FUNCTION memory.search_facts(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_state text DEFAULT 'current',
    p_as_of timestamptz DEFAULT NULL,
    p_model text DEFAULT NULL)
RETURNS TABLE (edge_id text, type text, fact text, source_id text, source_name text, target_id text,
               target_name text, valid_at timestamptz, invalid_at timestamptz, state text,
               similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_as_of  timestamptz := COALESCE(p_as_of, pg_catalog.now());
    v_k      integer := memory._top_k(p_top_k);
    v_sim_no bigint;
    v_rows   real;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    PERFORM memory._check_fact_state(p_state);
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    SELECT c.reltuples INTO v_rows FROM pg_catalog.pg_class AS c
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._facts_ann_index_name(v_sim_no));
    -- The facts ranked first (through the index, or by one scan of the simulation's edges and
    -- a top-k sort in memory), their ends named after: joining every edge to its nodes before
    -- the sort cost twice the time here (50,000 edges: 144 -> 75 ms) and a full sort spilled
    -- to disk. An edge's ends exist (its foreign keys), so a probe names each. The state is
    -- memory._fact_state's rule written out (see memory.facts).
    RETURN QUERY
    WITH ann AS MATERIALIZED (
        SELECT a.* FROM memory._search_facts_ann(p_tenant_id, p_simulation_id, v_sim_no, p_query, v_k,
                                                 p_state, v_as_of, v_rows) AS a
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
    -- each end named by a probe of the primary key (a join was planned as two hash joins over
    -- all the simulation's nodes: 2 ms each for 10,000 nodes, for at most 100 facts)
    SELECT f.edge_id, f.type, f.fact,
           f.source_id, (SELECT s.name FROM memory.nodes AS s
                          WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id AND s.node_key = f.source_key),
           f.target_id, (SELECT t.name FROM memory.nodes AS t
                          WHERE t.tenant_id = p_tenant_id AND t.simulation_id = p_simulation_id AND t.node_key = f.target_key),
           f.valid_at, f.invalid_at, f.state, f.similarity
      FROM f
     ORDER BY f.similarity DESC, f.edge_id;
END
$fn$;

COMMENT ON FUNCTION memory.search_facts(uuid, uuid, public.vector, integer, text, timestamptz, text) IS 'Semantic search over a simulation''s facts (cosine), current ones by default, best first; top_k clamped to 1..100';
GRANT EXECUTE ON FUNCTION memory.search_facts(uuid, uuid, public.vector, integer, text, timestamptz, text) TO memory_reader;
