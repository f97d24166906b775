-- Zep's graph.edge.get: one relationship of the caller's tenant by its uuid alone
-- (memory._zep_home finds its simulation; P0002 when the tenant has none such), read by
-- memory.get_edge.
CREATE OR REPLACE FUNCTION memory.zep_edge(p_tenant_id uuid, p_uuid text) RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_sim uuid := memory._zep_home(p_tenant_id, 'edge', p_uuid);
BEGIN
    RETURN (SELECT memory._zep_edge(g, e.created_at)
              FROM memory.get_edge(p_tenant_id, v_sim, p_uuid) AS g
              JOIN memory.edges AS e
                ON e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.edge_key = pg_catalog.md5(p_uuid)::uuid);
END
$fn$;

COMMENT ON FUNCTION memory.zep_edge(uuid, text) IS 'Zep graph.edge.get: one relationship by its uuid in Zep''s shape (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory.zep_edge(uuid, text) TO memory_reader;
