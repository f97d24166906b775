-- Zep's graph.delete: the graph and everything in it (memory.delete_simulation: its
-- entities, facts, episodes, ontology and queue). Returns how many rows of each kind went.
CREATE OR REPLACE FUNCTION memory.zep_delete_graph(p_tenant_id uuid, p_graph_id text)
RETURNS TABLE (nodes bigint, edges bigint, episodes bigint)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
    SELECT d.nodes, d.edges, d.episodes
      FROM memory.delete_simulation(p_tenant_id, memory._zep_simulation(p_tenant_id, p_graph_id)) AS d;
$fn$;

COMMENT ON FUNCTION memory.zep_delete_graph(uuid, text) IS 'Zep graph.delete: a graph and everything in it';
GRANT EXECUTE ON FUNCTION memory.zep_delete_graph(uuid, text) TO memory_writer;
