-- What the agents of a simulation did, filtered by agent, platform, action type (any case),
-- round range and time window (each NULL: no filter), in the order they happened (round,
-- time, id; a row without round or time after those with), a page at a time: p_limit rows
-- (clamped to 1..1000, NULL means 100) after the episode p_after (the last id of the
-- previous page; NULL: from the start). An unknown p_after is P0002.
CREATE OR REPLACE FUNCTION memory.episodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_agent_id integer DEFAULT NULL,
    p_platform text DEFAULT NULL,
    p_action_type text DEFAULT NULL,
    p_round_from integer DEFAULT NULL,
    p_round_to integer DEFAULT NULL,
    p_from timestamptz DEFAULT NULL,
    p_to timestamptz DEFAULT NULL,
    p_limit integer DEFAULT 100,
    p_after text DEFAULT NULL)
RETURNS TABLE (episode_id text, agent_id integer, agent_name text, platform text, round integer,
               action_type text, content text, metadata jsonb, occurred_at timestamptz,
               source text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_round integer;
    v_time  timestamptz;
    v_id    text;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    IF p_after IS NOT NULL THEN
        SELECT COALESCE(e.round, 2147483647), COALESCE(e.occurred_at, 'infinity'), e.episode_id
          INTO v_round, v_time, v_id
          FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.episode_key = pg_catalog.md5(p_after)::uuid;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'unknown episode % to page after', memory._quote(p_after)
                USING ERRCODE = 'no_data_found',
                      HINT = 'pass the episode_id of the last row of the previous page';
        END IF;
    END IF;
    RETURN QUERY SELECT e.episode_id, e.agent_id, e.agent_name, e.platform, e.round,
                        e.action_type, e.content, e.metadata, e.occurred_at, e.source
      FROM memory.episodes AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND (p_agent_id IS NULL OR e.agent_id = p_agent_id)
       AND (p_platform IS NULL OR e.platform = p_platform)
       AND (p_action_type IS NULL OR pg_catalog.upper(e.action_type) = pg_catalog.upper(p_action_type))
       AND (p_round_from IS NULL OR e.round >= p_round_from)
       AND (p_round_to IS NULL OR e.round <= p_round_to)
       AND (p_from IS NULL OR e.occurred_at >= p_from)
       AND (p_to IS NULL OR e.occurred_at < p_to)
       AND (v_id IS NULL
            OR (COALESCE(e.round, 2147483647), COALESCE(e.occurred_at, 'infinity'), e.episode_id)
               > (v_round, v_time, v_id))
     ORDER BY COALESCE(e.round, 2147483647), COALESCE(e.occurred_at, 'infinity'), e.episode_id
     LIMIT memory._page_rows(p_limit, 100);
END
$fn$;

COMMENT ON FUNCTION memory.episodes(uuid, uuid, integer, text, text, integer, integer, timestamptz, timestamptz, integer, text) IS 'Episodes of a simulation filtered by agent, platform, action type, rounds and time, in order, a page at a time';
GRANT EXECUTE ON FUNCTION memory.episodes(uuid, uuid, integer, text, text, integer, integer, timestamptz, timestamptz, integer, text) TO memory_reader;
