-- Zep's graph.node.get: one entity of the caller's tenant by its uuid alone
-- (memory._zep_home finds its simulation; P0002 when the tenant has none such), read by
-- memory.get_node.
CREATE OR REPLACE FUNCTION memory.zep_node(p_tenant_id uuid, p_uuid text) RETURNS jsonb
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._zep_node(n.node_id, n.name, n.type, n.labels, n.summary, n.attributes, n.created_at)
      FROM memory.get_node(p_tenant_id, memory._zep_home(p_tenant_id, 'node', p_uuid), p_uuid) AS n;
$fn$;

COMMENT ON FUNCTION memory.zep_node(uuid, text) IS 'Zep graph.node.get: one entity by its uuid in Zep''s shape (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory.zep_node(uuid, text) TO memory_reader;
