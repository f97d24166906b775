-- Zep's graph.node.get_entity_edges: every relationship that starts or ends at an entity,
-- current and ended alike, ordered by uuid; the entity found by its uuid alone
-- (memory._zep_home; P0002 when the caller's tenant has none such). Read by the walk's
-- indexes on each end (edges_out_idx, edges_in_idx).
CREATE OR REPLACE FUNCTION memory.zep_node_edges(p_tenant_id uuid, p_uuid text)
RETURNS SETOF jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_sim uuid := memory._zep_home(p_tenant_id, 'node', p_uuid);
    v_key uuid := pg_catalog.md5(p_uuid)::uuid;
BEGIN
    RETURN QUERY
    SELECT memory._zep_edge(memory._edge_detail(ROW(e.*)::memory.edges), e.created_at)
      FROM memory.edges AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim
       AND (e.source_key = v_key OR e.target_key = v_key)
     ORDER BY e.edge_id COLLATE "C";
END
$fn$;

COMMENT ON FUNCTION memory.zep_node_edges(uuid, text) IS 'Zep graph.node.get_entity_edges: every relationship of an entity in Zep''s shape (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory.zep_node_edges(uuid, text) TO memory_reader;
