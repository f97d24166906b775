-- The model of a vector that names none: all-MiniLM-L6-v2, the one model of dimension 384
-- that swarm-memory computed with before V0022 (swarm_memory.embed.MODEL_NAME on the Python
-- side), and the model of a tenant or simulation that names none (memory.embedding_models).
CREATE OR REPLACE FUNCTION memory._default_model() RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 'sentence-transformers/all-MiniLM-L6-v2'::text
$fn$;

COMMENT ON FUNCTION memory._default_model() IS 'Internal: the embedding model recorded for a vector that names none';
-- revoked from the group roles too, so that an upgraded database lists the grants in the
-- same order as a fresh one (the writer held it alone before V0022)
REVOKE ALL ON FUNCTION memory._default_model() FROM PUBLIC, memory_reader, memory_writer, memory_admin;
GRANT EXECUTE ON FUNCTION memory._default_model() TO memory_reader, memory_writer, memory_admin;
