-- memory.search_episodes' work, for memory.search_episodes and memory.recall (see there for
-- the strategy): p_pool is how many candidates a search through the simulation's own HNSW
-- index re-ranks exactly (NULL: 20 a hit asked for, at least 200, or fewer for a top 10
-- through a small index: memory._search_episodes_ann). The query's model is checked by
-- the callers (memory._check_query_model), as for memory._search_facts and _search_nodes:
-- recall checks its option model and passes p_model NULL, which here would name the default
-- model; p_model is not read.
-- memory.recall's episodes arm asks for 50 hits from 400 candidates: its answers were the
-- same as with 1,000, for less (bench/README.md); the arm alone finds less of the true top
-- 50 that way, so memory.search_episodes keeps 20 a hit.
CREATE OR REPLACE FUNCTION memory._search_episodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer,
    p_agent_id integer,
    p_round_from integer,
    p_round_to integer,
    p_from timestamptz,
    p_to timestamptz,
    p_collapse boolean,
    p_model text,
    p_pool integer)
RETURNS TABLE (episode_id text, agent_id integer, agent_name text, platform text, round integer,
               action_type text, content text, occurred_at timestamptz, similarity double precision,
               copies integer, agents integer)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_k          integer;
    v_n          integer;
    v_hits       memory.episode_hit[];
    v_clumps     integer[];
    v_index_rows real;
    v_bridge     boolean := false;
    v_sim_no     bigint;
    v_ranged     boolean := pg_catalog.num_nonnulls(p_round_from, p_round_to, p_from, p_to) > 0;
    v_in_range   bigint;
    v_build      bigint;
    v_points     bigint;
    v_first      integer[];
    v_copies     integer[];
    v_agents     integer[];
    -- where a range is searched exactly whatever the simulation's size
    c_exact_max  constant integer := 10000;
    -- p_collapse: the first pool is c_pool_per x top_k hits (at least c_pool_min), growing
    -- up to c_pool_max
    c_pool_per   constant integer := 5;
    c_pool_min   constant integer := 50;
    c_pool_max   constant integer := 200;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    IF p_round_from > p_round_to THEN
        RAISE EXCEPTION 'round range % to % ends before it starts', p_round_from, p_round_to
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass p_round_from <= p_round_to (both inclusive)';
    END IF;
    IF p_from > p_to THEN
        RAISE EXCEPTION 'time window % to % ends before it starts', p_from, p_to
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass p_from <= p_to (the window is [p_from, p_to))';
    END IF;
    v_k := LEAST(GREATEST(COALESCE(p_top_k, 10), 1), 100);
    -- the hits to find: top_k, or the pool that collapsing walks
    v_n := CASE WHEN p_collapse THEN LEAST(GREATEST(v_k * c_pool_per, c_pool_min), c_pool_max)
                ELSE v_k END;
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    IF NOT v_ranged AND p_agent_id IS NULL THEN
        SELECT b.build_no, b.points INTO v_build, v_points
          FROM memory._clump_state(p_tenant_id, p_simulation_id) AS b
         WHERE b.fresh AND b.index_ok;
    END IF;
    -- the simulation's HNSW index when it is valid (one being built concurrently is not),
    -- else its bridge (memory._search_episodes_ivf) when that is valid
    SELECT c.reltuples INTO v_index_rows
      FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_index AS i ON i.indexrelid = c.oid
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._ann_index_name(v_sim_no)) AND i.indisvalid;
    IF v_index_rows IS NULL THEN
        v_bridge := EXISTS (SELECT 1 FROM pg_catalog.pg_index AS i
                             WHERE i.indexrelid = pg_catalog.to_regclass('memory.' || memory._ann_ivf_index_name(v_sim_no))
                               AND i.indisvalid);
    END IF;
    IF (v_index_rows IS NOT NULL OR v_bridge) AND v_ranged THEN
        EXECUTE $q$
            SELECT pg_catalog.count(*) FROM (
                SELECT 1 FROM memory.episodes AS e
                 WHERE e.tenant_id = $1 AND e.simulation_id = $2
                   AND ($3::integer IS NULL OR e.agent_id = $3)
                   AND ($4::integer IS NULL OR e.round >= $4) AND ($5::integer IS NULL OR e.round <= $5)
                   AND ($6::timestamptz IS NULL OR e.occurred_at >= $6)
                   AND ($7::timestamptz IS NULL OR e.occurred_at < $7)
                 LIMIT $8) AS w $q$
          INTO v_in_range
          USING p_tenant_id, p_simulation_id, p_agent_id, p_round_from, p_round_to, p_from, p_to, c_exact_max + 1;
    END IF;
    LOOP
        v_hits := NULL;
        v_clumps := NULL;
        IF v_build IS NOT NULL THEN
            SELECT pg_catalog.array_agg(c.hit ORDER BY c.n), pg_catalog.array_agg(c.hit_clump ORDER BY c.n)
              INTO v_hits, v_clumps
              FROM memory._clump_search(p_tenant_id => p_tenant_id,
                                        p_simulation_id => p_simulation_id, p_build_no => v_build,
                                        p_points => v_points, p_query => p_query, p_top_k => v_n)
                   WITH ORDINALITY AS c(hit, hit_clump, n);
        ELSIF v_index_rows IS NOT NULL AND (NOT v_ranged OR v_in_range > c_exact_max) THEN
            v_hits := ARRAY(SELECT h FROM memory._search_episodes_ann(
                p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                p_sim_no => v_sim_no, p_query => p_query, p_top_k => v_n, p_agent_id => p_agent_id,
                p_index_rows => v_index_rows, p_round_from => p_round_from,
                p_round_to => p_round_to, p_from => p_from, p_to => p_to, p_pool => p_pool) AS h);
        ELSIF v_bridge AND (NOT v_ranged OR v_in_range > c_exact_max) THEN
            v_hits := ARRAY(SELECT h FROM memory._search_episodes_ivf(
                p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                p_sim_no => v_sim_no, p_query => p_query, p_top_k => v_n, p_agent_id => p_agent_id,
                p_round_from => p_round_from, p_round_to => p_round_to, p_from => p_from,
                p_to => p_to, p_pool => p_pool) AS h);
        END IF;
        -- Fewer than asked for (a rare agent, a narrow range, or an index still building):
        -- the exact search below is the authority.
        IF COALESCE(pg_catalog.cardinality(v_hits), 0) < v_n THEN
            v_hits := NULL;
            v_clumps := NULL;
        END IF;
        IF v_hits IS NULL AND v_ranged THEN
            EXECUTE $q$
                SELECT ARRAY(
                SELECT ROW(e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
                           e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) $8))::memory.episode_hit
                  FROM memory.episodes AS e
                 WHERE e.tenant_id = $1 AND e.simulation_id = $2
                   AND e.embedding IS NOT NULL
                   AND ($3::integer IS NULL OR e.agent_id = $3)
                   AND ($4::integer IS NULL OR e.round >= $4) AND ($5::integer IS NULL OR e.round <= $5)
                   AND ($6::timestamptz IS NULL OR e.occurred_at >= $6)
                   AND ($7::timestamptz IS NULL OR e.occurred_at < $7)
                 ORDER BY e.embedding OPERATOR(public.<=>) $8, e.episode_id
                 LIMIT $9) $q$
            INTO v_hits
            USING p_tenant_id, p_simulation_id, p_agent_id, p_round_from, p_round_to, p_from, p_to,
                  p_query::public.vector(384), v_n;
        ELSIF v_hits IS NULL THEN
            v_hits := ARRAY(
                SELECT ROW(e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
                           e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) p_query::public.vector(384)))::memory.episode_hit
                  FROM memory.episodes AS e
                 WHERE e.tenant_id = p_tenant_id
                   AND e.simulation_id = p_simulation_id
                   AND e.embedding IS NOT NULL
                   AND (p_agent_id IS NULL OR e.agent_id = p_agent_id)
                 ORDER BY e.embedding OPERATOR(public.<=>) p_query::public.vector(384), e.episode_id
                 LIMIT v_n);
        END IF;
        EXIT WHEN NOT COALESCE(p_collapse, false);
        SELECT pg_catalog.array_agg(g.first_hit ORDER BY g.n), pg_catalog.array_agg(g.copies ORDER BY g.n),
               pg_catalog.array_agg(g.agents ORDER BY g.n)
          INTO v_first, v_copies, v_agents
          FROM memory._clump_collapse(p_tenant_id, p_simulation_id, CASE WHEN v_clumps IS NOT NULL THEN v_build END,
                                      v_hits, v_clumps) WITH ORDINALITY AS g(first_hit, copies, agents, n);
        EXIT WHEN COALESCE(pg_catalog.cardinality(v_first), 0) >= v_k
               OR pg_catalog.cardinality(v_hits) < v_n OR v_n >= c_pool_max;
        v_n := LEAST(v_n * 4, c_pool_max);
    END LOOP;
    IF NOT COALESCE(p_collapse, false) THEN
        RETURN QUERY
        SELECT h.episode_id, h.agent_id, h.agent_name, h.platform, h.round, h.action_type, h.content,
               h.occurred_at, h.similarity, 1, (h.agent_id IS NOT NULL)::integer
          FROM pg_catalog.unnest(v_hits) AS h;
        RETURN;
    END IF;
    RETURN QUERY
    SELECT (v_hits[g.f]).episode_id, (v_hits[g.f]).agent_id, (v_hits[g.f]).agent_name,
           (v_hits[g.f]).platform, (v_hits[g.f]).round, (v_hits[g.f]).action_type,
           (v_hits[g.f]).content, (v_hits[g.f]).occurred_at, (v_hits[g.f]).similarity, g.copies, g.agents
      FROM ROWS FROM (pg_catalog.unnest(v_first), pg_catalog.unnest(v_copies), pg_catalog.unnest(v_agents))
           WITH ORDINALITY AS g(f, copies, agents, n)
     ORDER BY g.n
     LIMIT v_k;
END
$fn$;

COMMENT ON FUNCTION memory._search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text, integer) IS 'Internal: memory.search_episodes with the number of candidates an index search re-ranks';
GRANT EXECUTE ON FUNCTION memory._search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text, integer) TO memory_reader;
