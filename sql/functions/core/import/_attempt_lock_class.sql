-- The class (first key) of the session-level advisory locks that mark import attempts
-- alive; the second key is the attempt's lock_key. One number, read by begin_import,
-- memory._attempt_lock_held and memory._release_attempt_lock.
CREATE OR REPLACE FUNCTION memory._attempt_lock_class() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 1398230321
$fn$;

COMMENT ON FUNCTION memory._attempt_lock_class() IS 'Internal: the advisory-lock class of import attempts';
GRANT EXECUTE ON FUNCTION memory._attempt_lock_class() TO memory_reader, memory_writer;
