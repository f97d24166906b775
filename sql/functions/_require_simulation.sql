-- Enter the tenant, then refuse a NULL simulation (22004) and one the tenant does not have
-- (P0002, the same whether it does not exist or belongs to another tenant).
CREATE OR REPLACE FUNCTION memory._require_simulation(p_tenant_id uuid, p_simulation_id uuid)
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_simulation_id IS NULL THEN
        RAISE EXCEPTION 'p_simulation_id must not be NULL'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'pass the id of a simulation of the tenant';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM memory.simulations AS s
                    WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id) THEN
        RAISE EXCEPTION 'unknown simulation % for tenant %', p_simulation_id, p_tenant_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'create it with memory.upsert_simulation()';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._require_simulation(uuid, uuid) IS
    'Internal: enter the tenant and check that the simulation is one of its own (P0002)';
REVOKE ALL ON FUNCTION memory._require_simulation(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._require_simulation(uuid, uuid) TO memory_reader, memory_writer;
