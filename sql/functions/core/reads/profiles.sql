-- The agent profiles of a simulation, by platform and agent (NULL: all of them), with where
-- each came from (source: import or api).
CREATE OR REPLACE FUNCTION memory.profiles(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_platform text DEFAULT NULL,
    p_agent_id integer DEFAULT NULL)
RETURNS TABLE (platform text, agent_id integer, name text, username text, bio text,
               persona text, attributes jsonb, source text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT p.platform::text, p.agent_id, p.name, p.username, p.bio, p.persona,
           p.attributes, p.source
      FROM memory.profiles AS p
     WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
       AND (p_platform IS NULL OR p.platform = p_platform)
       AND (p_agent_id IS NULL OR p.agent_id = p_agent_id)
     ORDER BY p.platform, p.agent_id;
$fn$;

COMMENT ON FUNCTION memory.profiles(uuid, uuid, text, integer) IS 'Agent profiles of a simulation, by platform and agent (NULL: all)';
GRANT EXECUTE ON FUNCTION memory.profiles(uuid, uuid, text, integer) TO memory_reader;
