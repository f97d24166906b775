-- One entity across runs: every entity of the tenant's simulations joined to it by links
-- that count (memory._link_active), followed from link to link, in run order (the
-- simulations as they were made), with the score of the link it was reached by (NULL for
-- the entity asked about). P0002 for an unknown simulation or entity.
CREATE OR REPLACE FUNCTION memory.identity(p_tenant_id uuid, p_simulation_id uuid, p_node_id text)
RETURNS TABLE (run integer, simulation_id uuid, simulation_name text, node_id text, name text, type text,
               summary text, score real)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    RETURN QUERY
    WITH RECURSIVE edges AS (
        SELECT l.simulation_a AS s1, l.node_a AS n1, l.simulation_b AS s2, l.node_b AS n2, l.score
          FROM memory.identity_links AS l
         WHERE l.tenant_id = p_tenant_id AND memory._link_active(l.decision, l.current)
        UNION ALL
        SELECT l.simulation_b, l.node_b, l.simulation_a, l.node_a, l.score
          FROM memory.identity_links AS l
         WHERE l.tenant_id = p_tenant_id AND memory._link_active(l.decision, l.current)
    ), walk (sim, node, score, seen) AS (
        SELECT p_simulation_id, p_node_id, NULL::real, ARRAY[p_simulation_id::text || '/' || p_node_id]
        UNION ALL
        SELECT e.s2, e.n2, e.score, w.seen || (e.s2::text || '/' || e.n2)
          FROM walk AS w JOIN edges AS e ON e.s1 = w.sim AND e.n1 = w.node
         WHERE NOT (e.s2::text || '/' || e.n2) = ANY (w.seen)
    ), members AS (
        SELECT DISTINCT ON (w.sim, w.node) w.sim, w.node, w.score
          FROM walk AS w
         ORDER BY w.sim, w.node, pg_catalog.cardinality(w.seen), w.score DESC NULLS FIRST
    )
    SELECT (pg_catalog.dense_rank() OVER (ORDER BY s.created_at, s.simulation_id))::integer,
           s.simulation_id, s.name, n.node_id, n.name, n.type, n.summary, m.score
      FROM members AS m
      JOIN memory.simulations AS s ON s.tenant_id = p_tenant_id AND s.simulation_id = m.sim
      JOIN memory.nodes AS n ON n.tenant_id = p_tenant_id AND n.simulation_id = m.sim
                            AND n.node_key = pg_catalog.md5(m.node)::uuid
     ORDER BY s.created_at, s.simulation_id, n.node_id;
END
$fn$;

COMMENT ON FUNCTION memory.identity(uuid, uuid, text) IS 'One entity across runs: the entities of every simulation linked to it, in run order';
GRANT EXECUTE ON FUNCTION memory.identity(uuid, uuid, text) TO memory_reader;
