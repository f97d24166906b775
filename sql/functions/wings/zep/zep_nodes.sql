-- Zep's graph.node.get_by_graph_id: a page of a graph's entities in Zep's shape, ordered by
-- uuid, after p_uuid_cursor (the last uuid of the previous page; NULL: from the start),
-- p_limit of them (clamped to 1..1000, NULL means 1000). The page is memory.graph_nodes'
-- (its keyset, its checks: an unknown cursor is P0002); the row's stored time is read
-- beside it for a node whose export gave none. A cursor at the last node answers no row,
-- so a client that pages until a short or empty page visits every node once.
CREATE OR REPLACE FUNCTION memory.zep_nodes(p_tenant_id uuid, p_graph_id text, p_limit integer DEFAULT 1000,
                                            p_uuid_cursor text DEFAULT NULL)
RETURNS SETOF jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_sim uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
BEGIN
    RETURN QUERY
    SELECT memory._zep_node(g.node_id, g.name, g.type, g.labels, g.summary, g.attributes, n.created_at)
      FROM memory.graph_nodes(p_tenant_id, v_sim, p_limit, p_uuid_cursor) AS g
      JOIN memory.nodes AS n
        ON n.tenant_id = p_tenant_id AND n.simulation_id = v_sim AND n.node_key = pg_catalog.md5(g.node_id)::uuid
     ORDER BY g.node_id COLLATE "C";
END
$fn$;

COMMENT ON FUNCTION memory.zep_nodes(uuid, text, integer, text) IS 'Zep graph.node.get_by_graph_id: a page of a graph''s entities in Zep''s shape, after a uuid cursor';
GRANT EXECUTE ON FUNCTION memory.zep_nodes(uuid, text, integer, text) TO memory_reader;
