-- The key under which the vector cache holds a text's vector in a model: sha256 of the
-- model's name, a NUL byte and the text (swarm_memory.importer.content_hash, the one
-- writer of the cache's keys), so that a forget finds the vectors of texts whose rows carry
-- no content hash (rows written by upserts).
CREATE OR REPLACE FUNCTION memory._cache_hash(p_model text, p_text text) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.sha256(pg_catalog.convert_to(p_model, 'UTF8') OPERATOR(pg_catalog.||) '\x00'::bytea
                             OPERATOR(pg_catalog.||) pg_catalog.convert_to(p_text, 'UTF8'));
$fn$;

COMMENT ON FUNCTION memory._cache_hash(text, text) IS 'Internal: the vector cache''s key of a text in a model (sha256 of model, NUL, text)';
GRANT EXECUTE ON FUNCTION memory._cache_hash(text, text) TO memory_writer;
