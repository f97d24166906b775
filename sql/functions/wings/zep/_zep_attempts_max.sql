-- How many times an episode's extraction is tried before it stays failed (its last error
-- kept on it, memory.zep_retry_episodes queues it again). The one home of the number.
CREATE OR REPLACE FUNCTION memory._zep_attempts_max() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$ SELECT 5 $fn$;

COMMENT ON FUNCTION memory._zep_attempts_max() IS 'Internal: the most extraction attempts of one episode (5)';
GRANT EXECUTE ON FUNCTION memory._zep_attempts_max() TO memory_reader;
