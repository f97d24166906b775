-- Enter the tenant, then refuse a NULL simulation (22004) and one the tenant does not have
-- (P0002, the same whether it does not exist or belongs to another tenant), and one whose
-- first staged import has not committed yet (P0002 too, with a hint).
CREATE OR REPLACE FUNCTION memory._require_simulation(p_tenant_id uuid, p_simulation_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_published boolean;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_simulation_id, 'p_simulation_id', 'pass the id of a simulation of the tenant');
    SELECT s.published INTO v_published FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown simulation % for tenant %', p_simulation_id, p_tenant_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'create it with memory.upsert_simulation()';
    END IF;
    IF NOT v_published THEN
        RAISE EXCEPTION 'simulation % has nothing committed yet', p_simulation_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'its first import has not committed; see memory.import_attempts()';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._require_simulation(uuid, uuid) IS 'Internal: enter the tenant and check that the simulation is one of its own (P0002)';
GRANT EXECUTE ON FUNCTION memory._require_simulation(uuid, uuid) TO memory_reader, memory_writer;
