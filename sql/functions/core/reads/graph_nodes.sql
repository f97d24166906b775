-- Every entity of a simulation with every stored field, ordered by id (byte order), a page
-- at a time: p_limit rows (clamped to 1..1000, NULL means 1000) after the node p_after (the
-- last node_id of the previous page; NULL: from the start). An unknown p_after is P0002.
-- What an export reads to write the graph back whole.
CREATE OR REPLACE FUNCTION memory.graph_nodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_limit integer DEFAULT 1000,
    p_after text DEFAULT NULL)
RETURNS TABLE (node_id text, name text, type text, labels text[], summary text,
               attributes jsonb, source text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._enter_page('nodes', p_tenant_id, p_simulation_id, p_after);  -- P0002 for an unknown p_after
    RETURN QUERY SELECT n.node_id, n.name, n.type, n.labels, n.summary, n.attributes, n.source
      FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND (p_after IS NULL OR n.node_id COLLATE "C" > p_after COLLATE "C")
     ORDER BY n.node_id COLLATE "C"
     LIMIT memory._page_rows(p_limit, 1000);
END
$fn$;

COMMENT ON FUNCTION memory.graph_nodes(uuid, uuid, integer, text) IS 'Every node of a simulation with all its fields, ordered by id, a page at a time (keyset after the last id; limit clamped to 1..1000)';
GRANT EXECUTE ON FUNCTION memory.graph_nodes(uuid, uuid, integer, text) TO memory_reader;
