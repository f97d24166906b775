-- Episodes of a simulation most similar to a query embedding, best first; similarity is
-- 1 - cosine distance. p_top_k is clamped to 1..100 (NULL means 10); p_agent_id narrows to
-- one agent; p_round_from / p_round_to to a round range (inclusive) and p_from / p_to to a
-- time window [p_from, p_to) (each NULL: open; an episode without round or time is outside
-- any range on it). A range that ends before it starts is 22023. It returns min(top_k, rows
-- with an embedding in the range), never fewer: the true top k within the range.
--
-- Strategy: a simulation with its own partial HNSW index (built by `swarm-memory index` for
-- simulations above a size, after they load) is searched through it: the index holds that
-- simulation alone, so no filter after the scan can starve the result, and the candidates
-- are re-ranked by the exact distance. Every other simulation is searched exactly: at the
-- sizes that stay unindexed an exact scan costs a few milliseconds. A range holding at most
-- 10,000 episodes (counted through episodes_round_idx / episodes_time_idx, stopping at
-- 10,001) is searched exactly in any simulation: an approximate scan filtered that narrowly
-- gives up early or ranks loosely, where the exact scan of so few rows is cheap and right.
-- If the approximate search ever returns fewer rows than it should, the exact search answers.
-- A ranged exact search runs as a statement planned for its values (EXECUTE of a fixed text):
-- a cached generic plan cannot pick the range's index.
--
-- Clumps (issue 13): social runs repeat themselves (reposts, echoes of a viral post), and
-- an index of every episode is weakest there (bench/README.md, "Search on clumpy swarm
-- data"). `swarm-memory index` finds a simulation's clumps (memory._clump_build); while that
-- build is fresh (memory._clump_state: no change of the simulation's episodes since) and
-- found clumps or copies, a call without agent or range is answered by
-- memory._clump_search: an index over the simulation's representatives (each distinct
-- vector outside its clumps, once) and the clumps near the result read whole and ranked
-- exactly. A stale build, a filtered call or a simulation without a build is searched as
-- above, until the next `swarm-memory index`.
--
-- p_collapse: near-identical hits become one row. Social runs repeat themselves, and a
-- plain search can return the same post ten times. With p_collapse the search takes a pool
-- of the nearest episodes (5 x top_k, at least 50) and groups it (memory._clump_collapse:
-- best first, each hit joins the first kept row within cosine 0.99 of it, else is kept;
-- with a fresh clump build a clump is one row with all its copies and agents); while that
-- leaves fewer than top_k rows and the simulation has more, the pool grows fourfold, up to
-- 200. It returns up to top_k kept rows, best first, each the best-ranked hit of its group,
-- with copies = the episodes behind it (without a build: the pool's hits in the group, so a
-- clump larger than the pool counts as its share of it) and agents = the distinct agents
-- among them. Without it every row is one copy (copies 1, agents 1, or 0 for a row
-- without an agent).
CREATE OR REPLACE FUNCTION memory.search_episodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_agent_id integer DEFAULT NULL,
    p_round_from integer DEFAULT NULL,
    p_round_to integer DEFAULT NULL,
    p_from timestamptz DEFAULT NULL,
    p_to timestamptz DEFAULT NULL,
    p_collapse boolean DEFAULT false,
    p_model text DEFAULT NULL)
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
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
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
    SELECT c.reltuples INTO v_index_rows FROM pg_catalog.pg_class AS c
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._ann_index_name(v_sim_no));
    IF FOUND AND v_ranged THEN
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
              FROM memory._clump_search(p_tenant_id, p_simulation_id, v_build, v_points, p_query, v_n)
                   WITH ORDINALITY AS c(hit, hit_clump, n);
        ELSIF v_index_rows IS NOT NULL AND (NOT v_ranged OR v_in_range > c_exact_max) THEN
            v_hits := ARRAY(SELECT h FROM memory._search_episodes_ann(p_tenant_id, p_simulation_id,
                                                                       v_sim_no, p_query, v_n,
                                                                       p_agent_id, v_index_rows,
                                                                       p_round_from, p_round_to,
                                                                       p_from, p_to) AS h);
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

COMMENT ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text) IS 'Semantic search over a simulation''s episodes (cosine), best first, optionally within a round range and a time window, near-identical hits optionally collapsed into one row with their copies and agents; top_k clamped to 1..100';
GRANT EXECUTE ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text) TO memory_reader;
