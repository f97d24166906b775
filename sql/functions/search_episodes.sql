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
CREATE OR REPLACE FUNCTION memory.search_episodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_agent_id integer DEFAULT NULL,
    p_round_from integer DEFAULT NULL,
    p_round_to integer DEFAULT NULL,
    p_from timestamptz DEFAULT NULL,
    p_to timestamptz DEFAULT NULL)
RETURNS TABLE (episode_id text, agent_id integer, agent_name text, platform text, round integer,
               action_type text, content text, occurred_at timestamptz, similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_k          integer;
    v_hits       memory.episode_hit[];
    v_index_rows real;
    v_sim_no     bigint;
    v_ranged     boolean := pg_catalog.num_nonnulls(p_round_from, p_round_to, p_from, p_to) > 0;
    v_in_range   bigint;
    -- where a range is searched exactly whatever the simulation's size
    c_exact_max  constant integer := 10000;
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
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
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
    IF v_index_rows IS NOT NULL AND (NOT v_ranged OR v_in_range > c_exact_max) THEN
        v_hits := ARRAY(SELECT h FROM memory._search_episodes_ann(p_tenant_id, p_simulation_id,
                                                                   v_sim_no, p_query, v_k,
                                                                   p_agent_id, v_index_rows,
                                                                   p_round_from, p_round_to,
                                                                   p_from, p_to) AS h);
        IF pg_catalog.cardinality(v_hits) = v_k THEN
            RETURN QUERY SELECT * FROM pg_catalog.unnest(v_hits);
            RETURN;
        END IF;
        -- Fewer than asked for (a rare agent, a narrow range, or an index still building):
        -- the exact search below is the authority.
    END IF;
    IF v_ranged THEN
        RETURN QUERY EXECUTE $q$
            SELECT e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
                   e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) $8)
              FROM memory.episodes AS e
             WHERE e.tenant_id = $1 AND e.simulation_id = $2
               AND e.embedding IS NOT NULL
               AND ($3::integer IS NULL OR e.agent_id = $3)
               AND ($4::integer IS NULL OR e.round >= $4) AND ($5::integer IS NULL OR e.round <= $5)
               AND ($6::timestamptz IS NULL OR e.occurred_at >= $6)
               AND ($7::timestamptz IS NULL OR e.occurred_at < $7)
             ORDER BY e.embedding OPERATOR(public.<=>) $8, e.episode_id
             LIMIT $9 $q$
        USING p_tenant_id, p_simulation_id, p_agent_id, p_round_from, p_round_to, p_from, p_to,
              p_query::public.vector(384), v_k;
        RETURN;
    END IF;
    RETURN QUERY
    SELECT e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
           e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) p_query::public.vector(384))
      FROM memory.episodes AS e
     WHERE e.tenant_id = p_tenant_id
       AND e.simulation_id = p_simulation_id
       AND e.embedding IS NOT NULL
       AND (p_agent_id IS NULL OR e.agent_id = p_agent_id)
     ORDER BY e.embedding OPERATOR(public.<=>) p_query::public.vector(384), e.episode_id
     LIMIT v_k;
END
$fn$;

COMMENT ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz) IS 'Semantic search over a simulation''s episodes (cosine), best first, optionally within a round range and a time window; top_k clamped to 1..100';
REVOKE ALL ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz) TO memory_reader;
