-- The model recorded with an item's embedding: its embedding_model, or the schema's model
-- (all-MiniLM-L6-v2, the one model of dimension 384 that swarm-memory computes with) when the
-- item carries a vector without naming one. NULL when the item has no embedding.
CREATE OR REPLACE FUNCTION memory._embedding_model(p_item jsonb)
RETURNS text
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE WHEN pg_catalog.jsonb_typeof(p_item -> 'embedding') = 'array'
                THEN COALESCE(p_item ->> 'embedding_model', 'sentence-transformers/all-MiniLM-L6-v2') END
$fn$;

COMMENT ON FUNCTION memory._embedding_model(jsonb) IS
    'Internal: the model that made an item''s embedding (default all-MiniLM-L6-v2), or NULL';
REVOKE ALL ON FUNCTION memory._embedding_model(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._embedding_model(jsonb) TO memory_writer;
