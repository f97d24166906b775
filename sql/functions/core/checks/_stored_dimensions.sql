-- The dimension of the stored vector columns, read from the catalog (memory.episodes'
-- embedding column, vector(384); nodes, edges, report_chunks and vector_cache are declared
-- alike): the column's type is the one home of the number. A narrower model's vectors are
-- stored zero-padded (V0027); a wider model needs a migration that widens the columns
-- before any of its vectors can be stored, and memory.reembed_texts refuses it until then.
CREATE OR REPLACE FUNCTION memory._stored_dimensions() RETURNS integer
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT a.atttypmod FROM pg_catalog.pg_attribute AS a
     WHERE a.attrelid = 'memory.episodes'::pg_catalog.regclass AND a.attname = 'embedding'
$fn$;

COMMENT ON FUNCTION memory._stored_dimensions() IS 'Internal: the dimension of the stored vector columns, from the catalog (384)';
GRANT EXECUTE ON FUNCTION memory._stored_dimensions() TO memory_reader, memory_admin, memory_writer;
