-- Enter the tenant and return the attempt's simulation, refusing an unknown attempt (P0002,
-- the same for another tenant's) and, when p_loading, one that is no longer loading (55000).
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
