-- The live snapshots of a simulation (memory.create_snapshot), oldest first: name, the
-- record time it freezes, its round, its note, who made it and when.
CREATE OR REPLACE FUNCTION memory.snapshots(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (name text, known_at timestamptz, round integer, note text, created_at timestamptz,
               created_by name)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    RETURN QUERY
    SELECT s.name, s.known_at, s.round, s.note, s.created_at, s.created_by
      FROM memory.snapshots AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id AND s.dropped_at IS NULL
     ORDER BY s.known_at, s.name;
END
$fn$;

COMMENT ON FUNCTION memory.snapshots(uuid, uuid) IS 'The live snapshots of a simulation, oldest first';
GRANT EXECUTE ON FUNCTION memory.snapshots(uuid, uuid) TO memory_reader;
