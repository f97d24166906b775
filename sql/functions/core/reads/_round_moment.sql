-- The moment a round of a simulation ended on the world clock: the latest occurred_at of
-- the episodes of rounds up to p_round (MiroFish's timestamps), read as the memory held them
-- at p_known_at (NULL: now). NULL when none of them carries a time. A round past the last
-- is the last round's end: the memory after the run.
CREATE OR REPLACE FUNCTION memory._round_moment(p_tenant_id uuid, p_simulation_id uuid, p_round integer,
                                                p_known_at timestamptz DEFAULT NULL)
RETURNS timestamptz
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.max(e.occurred_at)
      FROM (SELECT e.occurred_at, e.round FROM memory.episodes AS e
             WHERE p_known_at IS NULL AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
            UNION ALL
            SELECT e.occurred_at, e.round
              FROM memory._known(NULL::memory.episodes, p_tenant_id, p_simulation_id, p_known_at) AS e
             WHERE p_known_at IS NOT NULL) AS e
     WHERE e.round <= p_round
$fn$;

COMMENT ON FUNCTION memory._round_moment(uuid, uuid, integer, timestamptz) IS 'Internal: the world time at which a round of a simulation ended (its episodes'' latest time)';
GRANT EXECUTE ON FUNCTION memory._round_moment(uuid, uuid, integer, timestamptz) TO memory_reader;
