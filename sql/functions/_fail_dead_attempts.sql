-- Mark the loading attempts of a simulation whose backend has gone as failed (see
-- memory._attempt_alive: a lock taken over by another session does not keep one alive), and
-- drop their staged rows. Called by begin_import and commit_import; p_tenant_id must already be
-- the call's tenant.
CREATE OR REPLACE FUNCTION memory._fail_dead_attempts(p_tenant_id uuid, p_simulation_id uuid) RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_dead uuid[];
BEGIN
    WITH dead AS (
        UPDATE memory.import_attempts AS a
           SET state = 'failed',
               error = 'the loading session ended before commit (importer killed, connection lost or server restarted)',
               finished_at = pg_catalog.clock_timestamp()
         WHERE a.tenant_id = p_tenant_id
           AND a.simulation_id = p_simulation_id
           AND a.state = 'loading'
           AND NOT memory._attempt_alive(a.lock_key, a.backend_pid, a.backend_start)
        RETURNING a.attempt_id)
    SELECT pg_catalog.array_agg(dead.attempt_id) INTO v_dead FROM dead;
    IF v_dead IS NOT NULL THEN
        PERFORM memory._discard_staged(p_tenant_id, v_dead);
    END IF;
    RETURN COALESCE(pg_catalog.cardinality(v_dead), 0);
END
$fn$;

COMMENT ON FUNCTION memory._fail_dead_attempts(uuid, uuid) IS 'Internal: fail the loading attempts of a simulation whose session has ended, dropping their staged rows';
REVOKE ALL ON FUNCTION memory._fail_dead_attempts(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._fail_dead_attempts(uuid, uuid) TO memory_writer;
