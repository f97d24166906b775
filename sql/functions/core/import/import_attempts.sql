-- The import attempts of a simulation, newest first, with state, declared and staged counts,
-- result, timings and error. An attempt still marked loading whose session has ended is
-- reported as failed (on Citus the call runs on the tenant's worker, which cannot see the
-- coordinator's sessions: there an attempt is reported as it is recorded, and the
-- coordinator's next begin_import of the simulation fails it; memory._attempt_alive).
CREATE OR REPLACE FUNCTION memory.import_attempts(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (attempt_id uuid, state text, declared jsonb, staged jsonb, result jsonb,
               skip_dangling boolean, error text, started_at timestamptz,
               finished_at timestamptz, seconds double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    IF NOT EXISTS (SELECT 1 FROM memory.simulations AS s
                    WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id) THEN
        RAISE EXCEPTION 'unknown simulation % for tenant %', p_simulation_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'begin an import with memory.begin_import()';
    END IF;
    RETURN QUERY
    SELECT a.attempt_id,
           CASE WHEN a.state = 'loading' AND NOT memory._attempt_alive(a.lock_key, a.backend_pid, a.backend_start) THEN 'failed'
                ELSE a.state END,
           a.declared,
           CASE WHEN a.state = 'loading' THEN pg_catalog.jsonb_build_object(
               'nodes', (SELECT pg_catalog.count(*) FROM memory.staged_nodes AS s
                          WHERE s.tenant_id = p_tenant_id AND s.attempt_id = a.attempt_id),
               'edges', (SELECT pg_catalog.count(*) FROM memory.staged_edges AS s
                          WHERE s.tenant_id = p_tenant_id AND s.attempt_id = a.attempt_id),
               'episodes', (SELECT pg_catalog.count(*) FROM memory.staged_episodes AS s
                             WHERE s.tenant_id = p_tenant_id AND s.attempt_id = a.attempt_id),
               'profiles', (SELECT pg_catalog.count(*) FROM memory.staged_profiles AS s
                             WHERE s.tenant_id = p_tenant_id AND s.attempt_id = a.attempt_id)) END,
           a.result,
           a.skip_dangling,
           CASE WHEN a.state = 'loading' AND NOT memory._attempt_alive(a.lock_key, a.backend_pid, a.backend_start)
                THEN 'the loading session ended before commit (importer killed, connection lost or server restarted)'
                ELSE a.error END,
           a.started_at,
           a.finished_at,
           EXTRACT(epoch FROM COALESCE(a.finished_at, pg_catalog.clock_timestamp()) - a.started_at)::double precision
      FROM memory.import_attempts AS a
     WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id
     ORDER BY a.started_at DESC;
END
$fn$;

COMMENT ON FUNCTION memory.import_attempts(uuid, uuid) IS 'Import attempts of a simulation, newest first: state, counts, result, timings, error';
GRANT EXECUTE ON FUNCTION memory.import_attempts(uuid, uuid) TO memory_reader;
