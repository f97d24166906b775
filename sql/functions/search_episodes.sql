-- Episodes of a simulation most similar to a query embedding, best first; similarity is
-- 1 - cosine distance. p_top_k is clamped to 1..100 (NULL means 10); p_agent_id narrows to
-- one agent. It returns min(top_k, rows with an embedding), never fewer.
--
-- Strategy: a simulation with its own partial HNSW index (built by `swarm-memory index` for
-- simulations above a size, after they load) is searched through it: the index holds that
-- simulation alone, so no filter after the scan can starve the result, and the candidates
-- are re-ranked by the exact distance. Every other simulation is searched exactly: at the
-- sizes that stay unindexed an exact scan costs a few milliseconds. If the approximate
-- search ever returns fewer rows than it should, the exact search answers instead.
CREATE OR REPLACE FUNCTION memory.search_episodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_agent_id integer DEFAULT NULL)
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
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    v_k := LEAST(GREATEST(COALESCE(p_top_k, 10), 1), 100);
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    SELECT c.reltuples INTO v_index_rows FROM pg_catalog.pg_class AS c
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._ann_index_name(v_sim_no));
    IF FOUND THEN
        v_hits := ARRAY(SELECT h FROM memory._search_episodes_ann(p_tenant_id, p_simulation_id,
                                                                   v_sim_no, p_query, v_k,
                                                                   p_agent_id, v_index_rows) AS h);
        IF pg_catalog.cardinality(v_hits) = v_k THEN
            RETURN QUERY SELECT * FROM pg_catalog.unnest(v_hits);
            RETURN;
        END IF;
        -- Fewer than asked for (a rare agent, or an index still building): the exact
        -- search below is the authority.
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

COMMENT ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer) IS 'Semantic search over a simulation''s episodes (cosine), best first; top_k clamped to 1..100';
REVOKE ALL ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer) TO memory_reader;
