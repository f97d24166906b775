-- The least score (memory._link_score) at which memory.link_runs links two entities when the
-- caller names none: its one home, chosen on the labelled pairs of bench/identity.py.
CREATE OR REPLACE FUNCTION memory._link_threshold() RETURNS real
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$ SELECT 0.6::real $fn$;

COMMENT ON FUNCTION memory._link_threshold() IS 'Internal: the default least score of a link';
GRANT EXECUTE ON FUNCTION memory._link_threshold() TO memory_reader;
