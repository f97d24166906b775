-- A validated object field of a batch item, '{}' when it is absent or JSON null.
CREATE OR REPLACE FUNCTION memory._object(p_value jsonb)
RETURNS jsonb
LANGUAGE sql
IMMUTABLE
PARALLEL SAFE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE WHEN pg_catalog.jsonb_typeof(p_value) = 'object' THEN p_value ELSE '{}'::jsonb END
$fn$;

COMMENT ON FUNCTION memory._object(jsonb) IS 'Internal: an object field of a batch item, or {}';
REVOKE ALL ON FUNCTION memory._object(jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._object(jsonb) TO memory_writer;
