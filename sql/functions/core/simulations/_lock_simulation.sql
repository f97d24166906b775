-- Take the transaction-level advisory lock of a simulation; true once taken. begin_import
-- takes it before it records an attempt (p_wait: waiting for it), a retention sweep before
-- it judges whether an import keeps the simulation and deletes it (not p_wait: false at
-- once when another transaction holds it, an import beginning, and the sweep keeps the
-- simulation; advisory locks are anyone's to take, so a sweep of every tenant must not
-- wait on one). So a sweep that has judged sees no import begin before its
-- delete commits (the import then creates the simulation anew), and an import that has
-- begun is seen by the sweep. A row lock cannot serve: memory_owner, whose rights the sweep
-- runs with, has no UPDATE policy on memory.simulations, so FOR UPDATE would lock nothing.
-- The class (first key) is this function's own; the second key is a hash of the tenant's
-- and simulation's ids (two simulations sharing it only wait for each other). Released at
-- the end of the caller's transaction. A wait longer than the caller's lock_timeout is
-- refused with 55P03 naming the backends that hold the lock.
CREATE OR REPLACE FUNCTION memory._lock_simulation(p_tenant_id uuid, p_simulation_id uuid, p_wait boolean)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_class   integer := 1398230322;
    v_key     integer := pg_catalog.hashtext(p_tenant_id::text || p_simulation_id::text);
    v_holders text;
BEGIN
    IF pg_catalog.pg_try_advisory_xact_lock(v_class, v_key) THEN
        RETURN true;
    ELSIF NOT p_wait THEN
        RETURN false;
    END IF;
    BEGIN
        PERFORM pg_catalog.pg_advisory_xact_lock(v_class, v_key);
    EXCEPTION WHEN lock_not_available THEN
        SELECT pg_catalog.string_agg(l.pid::text, ', ' ORDER BY l.pid) INTO v_holders
          FROM pg_catalog.pg_locks AS l
         WHERE l.locktype = 'advisory' AND l.granted
           AND l.database = (SELECT d.oid FROM pg_catalog.pg_database AS d
                              WHERE d.datname = pg_catalog.current_database())
           AND l.classid = v_class::oid AND l.objid = v_key::oid AND l.objsubid = 2;
        RAISE EXCEPTION 'simulation % is held by backend % (a retention sweep or an import beginning), longer than this call waits',
                p_simulation_id, COALESCE(v_holders, '(ended meanwhile)')
            USING ERRCODE = 'lock_not_available',
                  HINT = 'run it again once that transaction has ended';
    END;
    RETURN true;
END
$fn$;

COMMENT ON FUNCTION memory._lock_simulation(uuid, uuid, boolean) IS 'Internal: a simulation''s transaction-level advisory lock, taken by begin_import and the retention sweep';
GRANT EXECUTE ON FUNCTION memory._lock_simulation(uuid, uuid, boolean) TO memory_writer;
