-- The rows a search returns: p_top_k clamped to 1..100, NULL meaning 10. The one home of
-- the cap every search_* function and recall state in their comments.
CREATE OR REPLACE FUNCTION memory._top_k(p_top_k integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT LEAST(GREATEST(COALESCE(p_top_k, 10), 1), 100)
$fn$;

COMMENT ON FUNCTION memory._top_k(integer) IS 'Internal: the rows of a search, p_top_k clamped to 1..100 (NULL: 10)';
GRANT EXECUTE ON FUNCTION memory._top_k(integer) TO memory_reader;
