-- The most entity types, and the most edge types, one ontology holds: Zep's own cap, which
-- MiroFish's ontology generator keeps to (10 of each). The one home of the number.
CREATE OR REPLACE FUNCTION memory._zep_types_max() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$ SELECT 10 $fn$;

COMMENT ON FUNCTION memory._zep_types_max() IS 'Internal: the most entity types and edge types of one ontology (10 each)';
GRANT EXECUTE ON FUNCTION memory._zep_types_max() TO memory_reader;
