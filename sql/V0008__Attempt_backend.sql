-- V0008: an import attempt is alive while the backend that began it is.
--
-- Until now an attempt was alive while anyone held its advisory lock, and any role can read
-- the lock's key from pg_locks and queue on it: when the importer died, the queued session
-- got the lock and kept the dead attempt "loading" for as long as it liked. The attempt now
-- records the backend that began it, and memory._attempt_alive asks for that backend: the
-- pid still holds the lock (a lock taken over by another session is another pid), and where
-- the caller may see it, the pid's backend_start is the recorded one (a new backend that
-- reused the pid started later).
--
-- Attempts begun before this migration have no backend recorded and count as ended: an
-- import running across the upgrade fails, and is run again.
ALTER TABLE memory.import_attempts
    ADD COLUMN backend_pid integer,
    ADD COLUMN backend_start timestamptz;
COMMENT ON COLUMN memory.import_attempts.backend_pid IS
    'The process id of the backend (session) that began the attempt (pg_backend_pid())';
COMMENT ON COLUMN memory.import_attempts.backend_start IS
    'When that backend started (pg_stat_activity.backend_start); NULL where the beginning role could not see it';

-- The liveness check now takes the backend; the lock key alone no longer says anything.
DROP FUNCTION IF EXISTS memory._attempt_alive(integer);
