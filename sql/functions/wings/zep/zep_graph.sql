-- Zep's graph.get: the graph a graph_id names (memory._zep_simulation: P0002 when the
-- caller's tenant has none), with the simulation it is and the model its vectors are of
-- (memory.model_of), which the service embeds a search's query with.
CREATE OR REPLACE FUNCTION memory.zep_graph(p_tenant_id uuid, p_graph_id text)
RETURNS TABLE (simulation_id uuid, model text, graph jsonb)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_sim uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
BEGIN
    RETURN QUERY
    SELECT s.simulation_id, m.model, memory._zep_graph_json(s.simulation_id, s.name, s.metadata, s.created_at)
      FROM memory.simulations AS s
     CROSS JOIN LATERAL memory.model_of(p_tenant_id, s.simulation_id) AS m
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim;
END
$fn$;

COMMENT ON FUNCTION memory.zep_graph(uuid, text) IS 'Zep graph.get: the graph a graph_id names, its simulation and its embedding model (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory.zep_graph(uuid, text) TO memory_reader;
