-- The content hash of a text under a model: sha256 of the model's name, a zero byte and the
-- text (UTF-8), as the importer computes it (swarm_memory.importer.content_hash): the key of
-- the tenant's vector cache, and of a row's texts joined by U+001F.
CREATE OR REPLACE FUNCTION memory._text_hash(p_model text, p_text text) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.sha256(pg_catalog.convert_to(p_model, 'UTF8') || '\x00'::bytea || pg_catalog.convert_to(p_text, 'UTF8'))
$fn$;

COMMENT ON FUNCTION memory._text_hash(text, text) IS 'Internal: sha256 of model, zero byte and text: the vector cache''s key (as the importer computes it)';
GRANT EXECUTE ON FUNCTION memory._text_hash(text, text) TO memory_writer;
