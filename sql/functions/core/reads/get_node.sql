-- One entity by its upstream id; P0002 when the simulation has no such node.
CREATE OR REPLACE FUNCTION memory.get_node(p_tenant_id uuid, p_simulation_id uuid, p_node_id text)
RETURNS TABLE (node_id text, name text, type text, labels text[], summary text, attributes jsonb,
               embedding_model text, created_at timestamptz, updated_at timestamptz)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    SELECT n.node_id, n.name, n.type, n.labels, n.summary, n.attributes, n.embedding_model,
           n.created_at, n.updated_at
      FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = pg_catalog.md5(p_node_id)::uuid;
$fn$;

COMMENT ON FUNCTION memory.get_node(uuid, uuid, text) IS 'One entity of a simulation by its upstream id (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory.get_node(uuid, uuid, text) TO memory_reader;
