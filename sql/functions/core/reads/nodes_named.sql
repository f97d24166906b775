-- The entities of a simulation with a name, in any case (a person addresses a node by what
-- it is called; neighbors() and get_node() take its id). Several may share a name.
CREATE OR REPLACE FUNCTION memory.nodes_named(p_tenant_id uuid, p_simulation_id uuid, p_name text)
RETURNS TABLE (node_id text, name text, type text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT memory._check_limit('string_bytes', 'p_name', pg_catalog.octet_length(p_name));
    SELECT n.node_id, n.name, n.type::text
      FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND pg_catalog.lower(n.name) = pg_catalog.lower(p_name)
     ORDER BY n.type, n.node_id
     LIMIT 100;
$fn$;

COMMENT ON FUNCTION memory.nodes_named(uuid, uuid, text) IS 'Entities of a simulation with a name, in any case (at most 100)';
GRANT EXECUTE ON FUNCTION memory.nodes_named(uuid, uuid, text) TO memory_reader;
