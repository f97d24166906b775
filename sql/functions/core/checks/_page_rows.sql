-- The rows of one page of a listing: p_limit clamped to 1..1000, NULL meaning p_default.
-- The one home of the page cap that episodes, nodes_by_type, graph_nodes and graph_edges
-- state in their comments.
CREATE OR REPLACE FUNCTION memory._page_rows(p_limit integer, p_default integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT LEAST(GREATEST(COALESCE(p_limit, p_default), 1), 1000)
$fn$;

COMMENT ON FUNCTION memory._page_rows(integer, integer) IS 'Internal: the rows of a page, p_limit clamped to 1..1000 (NULL: p_default)';
GRANT EXECUTE ON FUNCTION memory._page_rows(integer, integer) TO memory_reader;
