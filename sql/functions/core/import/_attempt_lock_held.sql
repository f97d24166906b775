-- Whether the backend p_pid holds the advisory lock of an import attempt (class
-- memory._attempt_lock_class(), key the attempt's lock_key, in this database), granted.
-- pg_locks is visible to every role and read live (not from a per-transaction snapshot).
CREATE OR REPLACE FUNCTION memory._attempt_lock_held(p_lock_key integer, p_pid integer) RETURNS boolean
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT EXISTS (
        SELECT 1 FROM pg_catalog.pg_locks AS l
         WHERE l.locktype = 'advisory'
           AND l.database = (SELECT d.oid FROM pg_catalog.pg_database AS d
                              WHERE d.datname = pg_catalog.current_database())
           AND l.classid = memory._attempt_lock_class()::oid
           AND l.objid = p_lock_key::oid
           AND l.objsubid = 2
           AND l.pid = p_pid
           AND l.granted)
$fn$;

COMMENT ON FUNCTION memory._attempt_lock_held(integer, integer) IS 'Internal: whether a given backend holds an import attempt''s advisory lock';
GRANT EXECUTE ON FUNCTION memory._attempt_lock_held(integer, integer) TO memory_reader, memory_writer;
