-- End an import attempt without promoting it: its staged rows go, the committed state stays.
-- With p_reason the attempt is recorded as failed with that error, without it as aborted.
-- Aborting an attempt that already ended changes nothing; a committed one cannot be (55000).
-- On Citus it runs on the tenant's worker, like commit_import (see there for the lock).
CREATE OR REPLACE FUNCTION memory.abort_import(p_tenant_id uuid, p_attempt_id uuid, p_reason text DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_attempt  memory.import_attempts := memory._require_attempt(p_tenant_id, p_attempt_id, false);
    -- read first: Citus refuses a volatile function in an UPDATE of a distributed table
    v_finished timestamptz := pg_catalog.clock_timestamp();
BEGIN
    IF v_attempt.state = 'committed' THEN
        RAISE EXCEPTION 'import attempt % is committed and cannot be aborted', p_attempt_id
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'import again to replace its state, or delete the simulation';
    END IF;
    IF v_attempt.state <> 'loading' THEN
        RETURN;
    END IF;
    UPDATE memory.import_attempts AS a
       SET state = CASE WHEN p_reason IS NULL THEN 'aborted' ELSE 'failed' END,
           error = p_reason,
           finished_at = v_finished
     WHERE a.tenant_id = p_tenant_id AND a.attempt_id = p_attempt_id;
    PERFORM memory._discard_staged(p_tenant_id, ARRAY[p_attempt_id]);
    PERFORM memory._release_attempt_lock(v_attempt.lock_key);
END
$fn$;

COMMENT ON FUNCTION memory.abort_import(uuid, uuid, text) IS 'End an import attempt without promoting it (failed with a reason, else aborted); idempotent';
GRANT EXECUTE ON FUNCTION memory.abort_import(uuid, uuid, text) TO memory_writer;
