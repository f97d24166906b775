-- Enter the tenant and return the attempt's simulation, refusing an unknown attempt (P0002,
-- the same for another tenant's), one of this session whose simulation was deleted while it
-- ran (55000) and, when p_loading, one that is no longer loading (55000).
CREATE OR REPLACE FUNCTION memory._require_attempt(p_tenant_id uuid, p_attempt_id uuid, p_loading boolean)
RETURNS memory.import_attempts
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_attempt memory.import_attempts;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_attempt_id, 'p_attempt_id', 'pass the id memory.begin_import() returned');
    SELECT * INTO v_attempt FROM memory.import_attempts AS a
     WHERE a.tenant_id = p_tenant_id AND a.attempt_id = p_attempt_id;
    -- An attempt this session began (it still holds the attempt's lock, whose key
    -- begin_import made from the id) and whose row has gone went with its simulation,
    -- deleted meanwhile (memory.delete_simulation): say so, not that the attempt is unknown.
    IF NOT FOUND AND memory._attempt_lock_held(pg_catalog.hashtext(p_attempt_id::text), pg_catalog.pg_backend_pid()) THEN
        RAISE EXCEPTION 'the simulation of import attempt % was deleted while the import ran; nothing of the attempt was kept', p_attempt_id
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'run the import again to create the simulation anew, if it should not have gone';
    END IF;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown import attempt % for tenant %', p_attempt_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'begin one with memory.begin_import()';
    END IF;
    IF p_loading AND v_attempt.state <> 'loading' THEN
        RAISE EXCEPTION 'import attempt % is %, not loading', p_attempt_id, v_attempt.state
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'begin a new attempt with memory.begin_import()';
    END IF;
    RETURN v_attempt;
END
$fn$;

COMMENT ON FUNCTION memory._require_attempt(uuid, uuid, boolean) IS 'Internal: enter the tenant and fetch an import attempt (P0002 unknown, 55000 not loading)';
GRANT EXECUTE ON FUNCTION memory._require_attempt(uuid, uuid, boolean) TO memory_reader;
