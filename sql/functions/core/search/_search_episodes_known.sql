-- memory.search_episodes' ranking over the episodes as the memory held them at a record time
-- (p_known_at, a snapshot's: memory._known over memory.row_history), for a caller that has
-- entered the tenant and checked the query and its model: the p_top_k episodes (clamped to
-- 1..100, NULL: 10) most similar to p_query, of one agent and within a round range and a
-- time window [p_from, p_to) when given, best first by similarity then episode id, each one
-- copy (copies 1, agents 1, or 0 without an agent). An exact scan: no index nor clump build
-- holds the versions a later import changed or removed, and a snapshot's answers must not
-- depend on which of them an approximate search happens to reach.
-- A version kept in row_history has no vector, so each is ranked by its own text's vector
-- as memory._search_facts_known ranks a fact's: the live row's when its content reads the
-- same, else the tenant's vector cache by the version's content hash when the version was
-- embedded with the simulation's model; a version with neither is left out, as a live
-- episode without a vector is.
CREATE OR REPLACE FUNCTION memory._search_episodes_known(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer,
    p_agent_id integer,
    p_round_from integer,
    p_round_to integer,
    p_from timestamptz,
    p_to timestamptz,
    p_known_at timestamptz)
RETURNS TABLE (episode_id text, agent_id integer, agent_name text, platform text, round integer,
               action_type text, content text, occurred_at timestamptz, similarity double precision,
               copies integer, agents integer)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_model text := (memory._simulation_model(p_tenant_id, p_simulation_id)).model;
BEGIN
    RETURN QUERY
    SELECT r.episode_id, r.agent_id, r.agent_name, r.platform, r.round, r.action_type, r.content,
           r.occurred_at, 1 - (r.embedding OPERATOR(public.<=>) p_query::public.vector(384)),
           1, (r.agent_id IS NOT NULL)::integer
      FROM (SELECT k.episode_id, k.agent_id, k.agent_name, k.platform, k.round, k.action_type, k.content,
                   k.occurred_at,
                   COALESCE(k.embedding,
                            (SELECT e.embedding FROM memory.episodes AS e
                              WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                                AND e.episode_key = k.episode_key AND e.content = k.content),
                            (SELECT c.embedding FROM memory.vector_cache AS c
                              WHERE c.tenant_id = p_tenant_id AND c.embedding_model = k.embedding_model
                                AND c.content_hash = k.content_hash AND k.embedding_model = v_model)) AS embedding
              FROM memory._known(NULL::memory.episodes, p_tenant_id, p_simulation_id, p_known_at) AS k
             WHERE (p_agent_id IS NULL OR k.agent_id = p_agent_id)
               AND (p_round_from IS NULL OR k.round >= p_round_from)
               AND (p_round_to IS NULL OR k.round <= p_round_to)
               AND (p_from IS NULL OR k.occurred_at >= p_from)
               AND (p_to IS NULL OR k.occurred_at < p_to)) AS r
     WHERE r.embedding IS NOT NULL
     ORDER BY r.embedding OPERATOR(public.<=>) p_query::public.vector(384), r.episode_id
     LIMIT memory._top_k(p_top_k);
END
$fn$;

COMMENT ON FUNCTION memory._search_episodes_known(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, timestamptz) IS 'Internal: memory.search_episodes'' ranking over the episodes as the memory held them at a record time (an exact scan; a kept version ranked by its own text''s vector)';
GRANT EXECUTE ON FUNCTION memory._search_episodes_known(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, timestamptz) TO memory_reader;
