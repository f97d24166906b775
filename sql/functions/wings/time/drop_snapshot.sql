-- Drop a snapshot by name: its reads are refused from then on (P0002) and retention no
-- longer keeps the simulation for it. Its row stays, marked dropped (writers hold no
-- DELETE), so the name is free again. Returns whether a live snapshot was dropped: a
-- replay drops nothing and returns false.
CREATE OR REPLACE FUNCTION memory.drop_snapshot(p_tenant_id uuid, p_simulation_id uuid, p_name text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_name, 'p_name', 'name the snapshot to drop');
    UPDATE memory.snapshots AS s
       SET dropped_at = pg_catalog.now()
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
       AND s.name = p_name AND s.dropped_at IS NULL;
    RETURN FOUND;
END
$fn$;

COMMENT ON FUNCTION memory.drop_snapshot(uuid, uuid, text) IS 'Drop a snapshot by name (its row kept, marked dropped); idempotent';
GRANT EXECUTE ON FUNCTION memory.drop_snapshot(uuid, uuid, text) TO memory_writer;
