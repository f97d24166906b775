-- Zep's graph.edge.get_by_graph_id: a page of a graph's relationships in Zep's shape,
-- ordered by uuid, after p_uuid_cursor, as memory.zep_nodes pages entities (the page is
-- memory.graph_edges', current and ended facts alike, each with both clocks).
CREATE OR REPLACE FUNCTION memory.zep_edges(p_tenant_id uuid, p_graph_id text, p_limit integer DEFAULT 1000,
                                            p_uuid_cursor text DEFAULT NULL)
RETURNS SETOF jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_sim uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
BEGIN
    RETURN QUERY
    SELECT memory._zep_edge(g, e.created_at)
      FROM memory.graph_edges(p_tenant_id, v_sim, p_limit, p_uuid_cursor) AS g
      JOIN memory.edges AS e
        ON e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.edge_key = pg_catalog.md5(g.edge_id)::uuid
     ORDER BY g.edge_id COLLATE "C";
END
$fn$;

COMMENT ON FUNCTION memory.zep_edges(uuid, text, integer, text) IS 'Zep graph.edge.get_by_graph_id: a page of a graph''s relationships in Zep''s shape, after a uuid cursor';
GRANT EXECUTE ON FUNCTION memory.zep_edges(uuid, text, integer, text) TO memory_reader;
