-- Entities of one type (NULL: every type), ordered by type and name; p_limit clamped to
-- 1..1000 (NULL means 100).
CREATE OR REPLACE FUNCTION memory.nodes_by_type(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_type text,
    p_limit integer DEFAULT 100)
RETURNS TABLE (node_id text, name text, type text, labels text[], summary text, attributes jsonb)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT n.node_id, n.name, n.type, n.labels, n.summary, n.attributes
      FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id
       AND n.simulation_id = p_simulation_id
       AND (p_type IS NULL OR n.type = p_type)
     ORDER BY n.type, n.name, n.node_id
     LIMIT memory._page_rows(p_limit, 100);
$fn$;

COMMENT ON FUNCTION memory.nodes_by_type(uuid, uuid, text, integer) IS 'Entities of a simulation by type (NULL: all), ordered by name; limit clamped to 1..1000';
GRANT EXECUTE ON FUNCTION memory.nodes_by_type(uuid, uuid, text, integer) TO memory_reader;
