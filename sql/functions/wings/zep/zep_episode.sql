-- Zep's graph.episode.get: an episode added through serve, by its uuid alone (as Zep takes
-- it), with processed (its extraction committed), its status and its last error. One the
-- caller's tenant does not have is P0002, the same whether another tenant's or none.
CREATE OR REPLACE FUNCTION memory.zep_episode(p_tenant_id uuid, p_episode_uuid uuid)
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_episode jsonb;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_episode_uuid, 'p_episode_uuid', 'pass the uuid graph.add answered');
    SELECT memory._zep_episode(pg_catalog.to_jsonb(z)) INTO v_episode
      FROM memory.zep_episodes AS z
     WHERE z.tenant_id = p_tenant_id AND z.episode_uuid = p_episode_uuid
     LIMIT 1;
    IF v_episode IS NULL THEN
        RAISE EXCEPTION 'unknown episode %', p_episode_uuid
            USING ERRCODE = 'no_data_found', HINT = 'graph.episode.get_by_graph_id lists a graph''s episodes';
    END IF;
    RETURN v_episode;
END
$fn$;

COMMENT ON FUNCTION memory.zep_episode(uuid, uuid) IS 'Zep graph.episode.get: an episode added through serve, processed or not (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory.zep_episode(uuid, uuid) TO memory_reader;
