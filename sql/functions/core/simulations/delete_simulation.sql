-- Delete a simulation and everything in it; returns how many rows of each kind went (a
-- report's sections, chunks and log lines, and recorded outcomes, go with it uncounted).
-- An unknown simulation (or another tenant's) is P0002. The caller's grant is checked as for
-- every call (memory._require_simulation); the deletes run in memory._delete_simulation
-- (SECURITY DEFINER: writers hold no DELETE), which checks the session user's grant as well.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
CREATE OR REPLACE FUNCTION memory.delete_simulation(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (nodes bigint, edges bigint, episodes bigint, profiles bigint, reports bigint,
               predictions bigint)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT * FROM memory._delete_simulation(p_tenant_id, p_simulation_id);
$fn$;

COMMENT ON FUNCTION memory.delete_simulation(uuid, uuid) IS 'Delete a simulation with its nodes, edges, episodes, profiles, reports and predictions; returns the counts';
GRANT EXECUTE ON FUNCTION memory.delete_simulation(uuid, uuid) TO memory_writer;
