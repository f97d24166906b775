-- Is the backend that began an import attempt still there? begin_import records its pid
-- and start time with the attempt and takes a session-level advisory lock (class
-- memory._attempt_lock_class(), key the attempt's lock_key) that the server releases when
-- that session ends for any reason: a killed importer, a dropped connection, a restart.
--
-- Alive means: that pid holds the lock now (pg_locks, live), and pg_stat_activity shows
-- that pid with the recorded backend_start. Any role can read the key from pg_locks and
-- queue on it, and gets the lock when the importer dies; but it gets it under its own pid,
-- so the attempt is dead all the same: the lock alone is never proof.
--
-- pg_stat_activity shows backend_start only to roles with the privileges of the session's
-- role (or of pg_read_all_stats); for others it is NULL, and so is the recorded one when the
-- importer ran under SET ROLE to a role without its login role's privileges. Where either is
-- NULL the start time is not compared, and liveness rests on pid and lock holder: a new
-- backend fooling it would need to be given the dead importer's pid and take the lock before
-- anyone looks. pg_stat_activity is read once per transaction (a snapshot); pg_locks is
-- read live, so a backend that ended is noticed within the transaction.
--
-- On a Citus worker (a node whose group is not the coordinator's) the question cannot be
-- answered: begin_import runs on the coordinator, whose sessions and locks a worker does not
-- see. There an attempt counts as alive (import_attempts, delegated to the tenant's worker,
-- reports it as recorded); the coordinator's next begin_import of the simulation judges it.
CREATE OR REPLACE FUNCTION memory._attempt_alive(p_lock_key integer, p_backend_pid integer, p_backend_start timestamptz)
RETURNS boolean
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT p_backend_pid IS NOT NULL
       AND (memory._node_group() <> 0
            OR (memory._attempt_lock_held(p_lock_key, p_backend_pid)
                AND EXISTS (SELECT 1 FROM pg_catalog.pg_stat_activity AS s
                             WHERE s.pid = p_backend_pid
                               AND (s.backend_start IS NULL OR p_backend_start IS NULL
                                    OR s.backend_start = p_backend_start))))
$fn$;

COMMENT ON FUNCTION memory._attempt_alive(integer, integer, timestamptz) IS 'Internal: whether the backend that began an import attempt is still there and holds its lock';
GRANT EXECUTE ON FUNCTION memory._attempt_alive(integer, integer, timestamptz) TO memory_reader;
