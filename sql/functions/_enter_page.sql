-- Enter a simulation for a keyset page of its nodes or edges (memory.graph_nodes,
-- memory.graph_edges): memory._require_simulation's checks, then a non-NULL p_after must be
-- the id of one of its nodes or edges, refused with P0002 by memory.get_node or
-- memory.get_edge (their messages name the id and the simulation).
CREATE OR REPLACE FUNCTION memory._enter_page(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_after text)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    CASE WHEN p_after IS NULL THEN
        NULL;
    WHEN p_kind = 'nodes' THEN
        PERFORM memory.get_node(p_tenant_id, p_simulation_id, p_after);
    ELSE
        PERFORM memory.get_edge(p_tenant_id, p_simulation_id, p_after);
    END CASE;
END
$fn$;

COMMENT ON FUNCTION memory._enter_page(text, uuid, uuid, text) IS 'Internal: enter a simulation for a page of its nodes or edges after p_after (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory._enter_page(text, uuid, uuid, text) TO memory_reader;
