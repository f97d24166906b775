-- The simulation that holds a node or an edge of the caller's tenant, found by its uuid
-- alone: Zep's node.get, node.get_entity_edges and edge.get name no graph. Among the
-- tenant's committed simulations (each probed by its primary key), the most recently
-- updated that holds the id; none is P0002, the same for another tenant's id.
CREATE OR REPLACE FUNCTION memory._zep_home(p_tenant_id uuid, p_kind text, p_id text) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind text := memory._one_of('kind', p_kind, ARRAY['node', 'edge']);
    v_sim  uuid;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_id, 'p_id', 'pass the uuid of a ' || v_kind);
    IF v_kind = 'node' THEN
        SELECT s.simulation_id INTO v_sim
          FROM memory.simulations AS s
         WHERE s.tenant_id = p_tenant_id AND s.published
           AND EXISTS (SELECT 1 FROM memory.nodes AS n
                        WHERE n.tenant_id = p_tenant_id AND n.simulation_id = s.simulation_id
                          AND n.node_key = pg_catalog.md5(p_id)::uuid)
         ORDER BY s.updated_at DESC, s.simulation_id
         LIMIT 1;
    ELSE
        SELECT s.simulation_id INTO v_sim
          FROM memory.simulations AS s
         WHERE s.tenant_id = p_tenant_id AND s.published
           AND EXISTS (SELECT 1 FROM memory.edges AS e
                        WHERE e.tenant_id = p_tenant_id AND e.simulation_id = s.simulation_id
                          AND e.edge_key = pg_catalog.md5(p_id)::uuid)
         ORDER BY s.updated_at DESC, s.simulation_id
         LIMIT 1;
    END IF;
    IF v_sim IS NULL THEN
        RAISE EXCEPTION 'unknown % %', v_kind, memory._quote(p_id)
            USING ERRCODE = 'no_data_found',
                  HINT = 'node.get_by_graph_id and edge.get_by_graph_id list a graph''s uuids';
    END IF;
    RETURN v_sim;
END
$fn$;

COMMENT ON FUNCTION memory._zep_home(uuid, text, text) IS 'Internal: the committed simulation of the tenant that holds a node or edge uuid (P0002 when none)';
GRANT EXECUTE ON FUNCTION memory._zep_home(uuid, text, text) TO memory_reader;
