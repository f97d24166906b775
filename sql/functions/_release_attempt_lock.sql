-- Release an attempt's advisory lock if this session holds it (no warning otherwise).
CREATE OR REPLACE FUNCTION memory._release_attempt_lock(p_lock_key integer) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_locks AS l
                WHERE l.locktype = 'advisory' AND l.pid = pg_catalog.pg_backend_pid()
                  AND l.classid = memory._attempt_lock_class()::oid AND l.objid = p_lock_key::oid
                  AND l.objsubid = 2 AND l.granted) THEN
        PERFORM pg_catalog.pg_advisory_unlock(memory._attempt_lock_class(), p_lock_key);
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._release_attempt_lock(integer) IS 'Internal: release an import attempt''s advisory lock when this session holds it';
REVOKE ALL ON FUNCTION memory._release_attempt_lock(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._release_attempt_lock(integer) TO memory_writer;
