-- The most episodes one add_batch carries: Zep's own cap (its API refuses more than 20), so
-- a client that works against Zep works here. The one home of the number.
CREATE OR REPLACE FUNCTION memory._zep_batch_max() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$ SELECT 20 $fn$;

COMMENT ON FUNCTION memory._zep_batch_max() IS 'Internal: the most episodes of one add_batch (20, as Zep)';
GRANT EXECUTE ON FUNCTION memory._zep_batch_max() TO memory_reader;
