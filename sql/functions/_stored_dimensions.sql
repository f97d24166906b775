-- The dimension of the vector columns (vector(384) in nodes, edges, episodes, report_chunks
-- and vector_cache): a model of another dimension needs a migration that adds its columns
-- before any of its vectors can be stored; memory.reembed_texts refuses it until then.
CREATE OR REPLACE FUNCTION memory._stored_dimensions() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 384
$fn$;

COMMENT ON FUNCTION memory._stored_dimensions() IS 'Internal: the dimension of the stored vector columns (384)';
GRANT EXECUTE ON FUNCTION memory._stored_dimensions() TO memory_reader, memory_admin;
