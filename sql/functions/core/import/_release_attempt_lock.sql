-- Release an attempt's advisory lock if this session holds it (no warning otherwise): the
-- session that began the attempt ends it with commit or abort; another session aborting it
-- holds nothing to release.
CREATE OR REPLACE FUNCTION memory._release_attempt_lock(p_lock_key integer) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF memory._attempt_lock_held(p_lock_key, pg_catalog.pg_backend_pid()) THEN
        PERFORM pg_catalog.pg_advisory_unlock(memory._attempt_lock_class(), p_lock_key);
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._release_attempt_lock(integer) IS 'Internal: release an import attempt''s advisory lock when this session holds it';
GRANT EXECUTE ON FUNCTION memory._release_attempt_lock(integer) TO memory_writer;
