-- One relationship with every field MiroFish sends: its type, ends, fact, fact_type, when it
-- held in the world (valid_at, invalid_at), when the graph learned it and learned it no
-- longer held (created_at, expired_at, as MiroFish's export gives them) and the episodes it
-- was extracted from. An unknown edge is P0002, the same for another tenant's.
CREATE OR REPLACE FUNCTION memory.get_edge(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text)
RETURNS SETOF memory.edge_detail
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_row('edges', p_tenant_id, p_simulation_id, p_edge_id);
    SELECT d.*
      FROM memory.edges AS e CROSS JOIN LATERAL memory._edge_detail(ROW(e.*)::memory.edges) AS d
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND e.edge_key = pg_catalog.md5(p_edge_id)::uuid;
$fn$;

COMMENT ON FUNCTION memory.get_edge(uuid, uuid, text) IS 'One edge with every field MiroFish sends (fact_type, validity, created/expired, source episodes)';
GRANT EXECUTE ON FUNCTION memory.get_edge(uuid, uuid, text) TO memory_reader;
