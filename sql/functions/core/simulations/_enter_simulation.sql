-- Enter the tenant (memory._enter_tenant: 22004, 42501) and refuse a NULL simulation id
-- (22004), for the functions that take a simulation which need not be published yet or
-- exist at all (import attempts, the content hashes, creating one). The ones that read or
-- write a published simulation's rows call memory._require_simulation instead.
CREATE OR REPLACE FUNCTION memory._enter_simulation(p_tenant_id uuid, p_simulation_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_simulation_id, 'p_simulation_id', 'pass the simulation''s uuid');
END
$fn$;

COMMENT ON FUNCTION memory._enter_simulation(uuid, uuid) IS 'Internal: enter the tenant and refuse a NULL simulation id (22004)';
GRANT EXECUTE ON FUNCTION memory._enter_simulation(uuid, uuid) TO memory_reader, memory_writer;
