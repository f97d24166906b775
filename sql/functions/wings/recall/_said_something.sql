-- Whether an episode of the simulation said something of its own (memory._action_said: its
-- own text or a repost's, not a follow, a mute, a like or doing nothing), for recall's words
-- and graph arms, which would otherwise find such actions by the agents' names the stored
-- sentence holds. One key lookup. The caller has entered the tenant.
CREATE OR REPLACE FUNCTION memory._said_something(p_tenant_id uuid, p_simulation_id uuid, p_episode_id text)
RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT EXISTS (SELECT 1 FROM memory.episodes AS e
                    WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                      AND e.episode_key = pg_catalog.md5(p_episode_id)::uuid
                      AND memory._action_said(e.content, e.metadata) IS NOT NULL)
$fn$;

COMMENT ON FUNCTION memory._said_something(uuid, uuid, text) IS 'Internal: whether an episode said something of its own (recall''s words and graph arms answer only those)';
GRANT EXECUTE ON FUNCTION memory._said_something(uuid, uuid, text) TO memory_reader;
