-- Enter a simulation (memory._require_simulation's checks), then refuse a NULL report id
-- (22004) and a report the simulation does not hold (P0002, naming it).
CREATE OR REPLACE FUNCTION memory._require_report(p_tenant_id uuid, p_simulation_id uuid, p_report_id text)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_report_id, 'p_report_id', 'pass the id of a report of the simulation (memory.reports())');
    PERFORM 1 FROM memory.reports AS r
     WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
       AND r.report_key = pg_catalog.md5(p_report_id)::uuid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown report % in simulation %', memory._quote(p_report_id), p_simulation_id
            USING ERRCODE = 'no_data_found',
                  HINT = 'list the simulation''s reports with memory.reports() (swarm-memory reports)';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._require_report(uuid, uuid, text) IS 'Internal: enter a simulation and check that it holds the report (P0002)';
REVOKE ALL ON FUNCTION memory._require_report(uuid, uuid, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._require_report(uuid, uuid, text) TO memory_reader;
