-- An entity's facts in every run it is linked into (memory.identity), in order: run, then
-- the fact's validity, then its id; each with its state as the run left it (memory._fact_state
-- at the end of time: current, ended or expired) and the other entity's name.
CREATE OR REPLACE FUNCTION memory.identity_facts(p_tenant_id uuid, p_simulation_id uuid, p_node_id text)
RETURNS TABLE (run integer, simulation_id uuid, simulation_name text, node_id text, edge_id text, type text,
               direction text, other_node_id text, other_name text, fact text, valid_at timestamptz,
               invalid_at timestamptz, expired_at timestamptz, state text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    -- the grant and the call's tenant first: the query below reads the edges under it
    PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    RETURN QUERY
    SELECT i.run, i.simulation_id, i.simulation_name, i.node_id, e.edge_id, e.type,
           CASE WHEN e.source_id = i.node_id THEN 'out' ELSE 'in' END,
           o.node_id, o.name, e.fact, e.valid_at, e.invalid_at, e.expired_at,
           memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, 'infinity')
      FROM memory.identity(p_tenant_id, p_simulation_id, p_node_id) AS i
      JOIN memory.edges AS e
        ON e.tenant_id = p_tenant_id AND e.simulation_id = i.simulation_id
       AND (e.source_key = pg_catalog.md5(i.node_id)::uuid OR e.target_key = pg_catalog.md5(i.node_id)::uuid)
      JOIN memory.nodes AS o
        ON o.tenant_id = p_tenant_id AND o.simulation_id = i.simulation_id
       AND o.node_key = CASE WHEN e.source_id = i.node_id THEN e.target_key ELSE e.source_key END
     ORDER BY i.run, e.valid_at NULLS FIRST, e.edge_id;
END
$fn$;

COMMENT ON FUNCTION memory.identity_facts(uuid, uuid, text) IS 'An entity''s facts in every run it is linked into, in run order';
GRANT EXECUTE ON FUNCTION memory.identity_facts(uuid, uuid, text) TO memory_reader;
