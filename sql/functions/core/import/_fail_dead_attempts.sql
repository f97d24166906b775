-- Mark the loading attempts of a simulation whose backend has gone as failed (see
-- memory._attempt_alive: a lock taken over by another session does not keep one alive), and
-- drop their staged rows. Called by begin_import and commit_import; p_tenant_id must already be
-- the call's tenant. Liveness is judged here, row by row, not in the UPDATE's WHERE: on a
-- Citus cluster a condition of a statement on a distributed table runs on the worker
-- holding the shard, where the importer's lock and backend do not exist (every attempt would
-- look dead), and Citus refuses volatile functions (clock_timestamp) in an UPDATE of one;
-- the time is read into a variable first. The staged rows are dropped by
-- memory._discard_staged called in a statement on the simulation's row: on one node that is
-- a call, on Citus the statement runs on the tenant's worker and the call with it, where its
-- deletes (as memory_owner, SECURITY DEFINER) are local; from the coordinator Citus would
-- send them over connections as memory_owner, which may not log in.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
CREATE OR REPLACE FUNCTION memory._fail_dead_attempts(p_tenant_id uuid, p_simulation_id uuid) RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_loading record;
    v_now     timestamptz := pg_catalog.clock_timestamp();
    v_dead    uuid[];
BEGIN
    FOR v_loading IN
        SELECT a.attempt_id, a.lock_key, a.backend_pid, a.backend_start
          FROM memory.import_attempts AS a
         WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id AND a.state = 'loading'
    LOOP
        IF NOT memory._attempt_alive(v_loading.lock_key, v_loading.backend_pid, v_loading.backend_start) THEN
            v_dead := pg_catalog.array_append(v_dead, v_loading.attempt_id);
        END IF;
    END LOOP;
    IF v_dead IS NOT NULL THEN
        UPDATE memory.import_attempts AS a
           SET state = 'failed',
               error = 'the loading session ended before commit (importer killed, connection lost or server restarted)',
               finished_at = v_now
         WHERE a.tenant_id = p_tenant_id AND a.attempt_id = ANY (v_dead) AND a.state = 'loading';
        PERFORM memory._discard_staged(s.tenant_id, v_dead) FROM memory.simulations AS s
          WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    END IF;
    RETURN COALESCE(pg_catalog.cardinality(v_dead), 0);
END
$fn$;

COMMENT ON FUNCTION memory._fail_dead_attempts(uuid, uuid) IS 'Internal: fail the loading attempts of a simulation whose session has ended, dropping their staged rows';
GRANT EXECUTE ON FUNCTION memory._fail_dead_attempts(uuid, uuid) TO memory_writer;
