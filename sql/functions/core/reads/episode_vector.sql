-- The stored vector of one episode, for "more like this": memory.recall(t, s, NULL,
-- memory.episode_vector(t, s, 'ep-1')) in one statement (a subquery on memory.episodes
-- would run before any function entered the tenant, and row-level security would hide the
-- row). Unknown episode: P0002; an episode stored without a vector: NULL.
CREATE OR REPLACE FUNCTION memory.episode_vector(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text)
RETURNS public.vector
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_vector public.vector;
BEGIN
    PERFORM memory._require_row('episodes', p_tenant_id, p_simulation_id, p_episode_id);
    SELECT e.embedding INTO v_vector FROM memory.episodes AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND e.episode_key = pg_catalog.md5(p_episode_id)::uuid;
    RETURN v_vector;
END
$fn$;

COMMENT ON FUNCTION memory.episode_vector(uuid, uuid, text) IS 'The stored vector of one episode ("more like this" in one statement with memory.recall)';
GRANT EXECUTE ON FUNCTION memory.episode_vector(uuid, uuid, text) TO memory_reader;
