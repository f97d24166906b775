-- Forget episodes of a simulation by their ids: the episodes, the facts that only they
-- supported, every copy of their text the memory keeps (memory._forget lists them), with a
-- tombstone each, so that a re-import leaves them out and says so. Ids of episodes not
-- there (never, or forgotten already) are nothing to forget: a replay changes nothing.
-- Returns how many episodes, facts removed, facts kept (they lost the episodes' evidence),
-- profiles (none here), history versions and cached vectors went. Unknown simulation P0002;
-- NULL ids 22004; more ids than a batch may carry 54000.
-- Writers may call it: the rows are the tenant's own, as with delete_simulation. The
-- simulation's row is locked first, as a promote locks it, so a forget and an import of the
-- same simulation do not interleave.
CREATE OR REPLACE FUNCTION memory.forget_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episode_ids text[])
RETURNS TABLE (episodes bigint, facts_removed bigint, facts_kept bigint, profiles bigint, history bigint,
               vectors bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_episode_ids, 'p_episode_ids', 'pass the ids of the episodes to forget');
    PERFORM memory._check_limit('batch_bytes', 'p_episode_ids', pg_catalog.octet_length(p_episode_ids::text));
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id FOR UPDATE;
    RETURN QUERY
    SELECT * FROM memory._forget(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                 p_episode_keys => ARRAY(SELECT pg_catalog.md5(i)::uuid
                                                           FROM pg_catalog.unnest(p_episode_ids) AS i
                                                          WHERE i IS NOT NULL),
                                 p_agent_id => NULL, p_platform => NULL);
END
$fn$;

COMMENT ON FUNCTION memory.forget_episodes(uuid, uuid, text[]) IS 'Forget episodes: them, the facts only they supported, their history, cached vectors and copies, with tombstones an import respects; returns the counts';
GRANT EXECUTE ON FUNCTION memory.forget_episodes(uuid, uuid, text[]) TO memory_writer;
