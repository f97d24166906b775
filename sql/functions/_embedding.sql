-- The embedding of a validated batch item as vector(384), or NULL when it has none.
CREATE OR REPLACE FUNCTION memory._embedding(p_item jsonb)
RETURNS public.vector
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE WHEN pg_catalog.jsonb_typeof(p_item -> 'embedding') = 'array'
                THEN ((p_item -> 'embedding')::text)::public.vector(384) END
$fn$;

COMMENT ON FUNCTION memory._embedding(jsonb) IS
    'Internal: the embedding of a validated batch item as vector(384), or NULL';
REVOKE ALL ON FUNCTION memory._embedding(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._embedding(jsonb) TO memory_writer;
