-- Is the session that began an import attempt still connected? begin_import takes a
-- session-level advisory lock (class memory._attempt_lock_class(), key = the attempt's lock_key) that the
-- server releases when that session ends for any reason: a killed importer, a dropped
-- connection, a server restart. pg_locks is visible to every role.
CREATE OR REPLACE FUNCTION memory._attempt_alive(p_lock_key integer) RETURNS boolean
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
           AND l.granted)
$fn$;

COMMENT ON FUNCTION memory._attempt_alive(integer) IS 'Internal: whether the session that began an import attempt still holds its advisory lock';
REVOKE ALL ON FUNCTION memory._attempt_alive(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._attempt_alive(integer) TO memory_reader;
