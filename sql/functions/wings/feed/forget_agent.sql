-- Forget an agent of a simulation, on a request to forget someone: every episode of the
-- agent (on one platform, or all when p_platform is NULL) and the agent's profiles, with
-- the facts only those episodes supported and every copy of their text (memory._forget),
-- each left as a tombstone so that a re-import leaves them out and says so. What other
-- agents wrote about the agent is theirs and stays. An agent with nothing left is nothing
-- to forget: a replay changes nothing. Returns the counts as memory.forget_episodes does.
-- Unknown simulation P0002; NULL agent 22004.
CREATE OR REPLACE FUNCTION memory.forget_agent(p_tenant_id uuid, p_simulation_id uuid, p_agent_id integer,
                                               p_platform text DEFAULT NULL)
RETURNS TABLE (episodes bigint, facts_removed bigint, facts_kept bigint, profiles bigint, history bigint,
               vectors bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_agent_id, 'p_agent_id', 'pass the agent''s id (memory.profiles, memory.episodes)');
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id FOR UPDATE;
    RETURN QUERY
    SELECT * FROM memory._forget(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                 p_episode_keys => ARRAY(SELECT e.episode_key FROM memory.episodes AS e
                                                          WHERE e.tenant_id = p_tenant_id
                                                            AND e.simulation_id = p_simulation_id
                                                            AND e.agent_id = p_agent_id
                                                            AND (p_platform IS NULL OR e.platform = p_platform)),
                                 p_agent_id => p_agent_id, p_platform => p_platform);
END
$fn$;

COMMENT ON FUNCTION memory.forget_agent(uuid, uuid, integer, text) IS 'Forget an agent: its episodes and profiles, the facts only they supported, their history, cached vectors and copies, with tombstones an import respects; returns the counts';
GRANT EXECUTE ON FUNCTION memory.forget_agent(uuid, uuid, integer, text) TO memory_writer;
