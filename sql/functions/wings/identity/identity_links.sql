-- The links of a simulation's entities with entities of other simulations (or of one,
-- p_other_simulation_id), best first within each entity: the other side, the score, the
-- evidence and the decision. Only links that count (memory._link_active) unless p_all, which
-- shows refused links and those linking no longer finds as well.
CREATE OR REPLACE FUNCTION memory.identity_links(p_tenant_id uuid, p_simulation_id uuid,
                                                 p_other_simulation_id uuid DEFAULT NULL,
                                                 p_all boolean DEFAULT false)
RETURNS TABLE (node_id text, name text, type text, other_simulation_id uuid, other_node_id text,
               other_name text, other_type text, score real, decision text, active boolean, evidence jsonb)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    RETURN QUERY
    SELECT n.node_id, n.name, n.type, x.other_sim, o.node_id, o.name, o.type, x.score, x.decision,
           memory._link_active(x.decision, x.current), x.evidence
      FROM (SELECT l.node_a AS own, l.simulation_b AS other_sim, l.node_b AS other, l.score, l.decision, l.current, l.evidence
              FROM memory.identity_links AS l
             WHERE l.tenant_id = p_tenant_id AND l.simulation_a = p_simulation_id
            UNION ALL
            SELECT l.node_b, l.simulation_a, l.node_a, l.score, l.decision, l.current, l.evidence
              FROM memory.identity_links AS l
             WHERE l.tenant_id = p_tenant_id AND l.simulation_b = p_simulation_id) AS x
      JOIN memory.nodes AS n
        ON n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = pg_catalog.md5(x.own)::uuid
      JOIN memory.nodes AS o
        ON o.tenant_id = p_tenant_id AND o.simulation_id = x.other_sim AND o.node_key = pg_catalog.md5(x.other)::uuid
     WHERE (p_other_simulation_id IS NULL OR x.other_sim = p_other_simulation_id)
       AND (p_all OR memory._link_active(x.decision, x.current))
     ORDER BY n.name, n.node_id, x.score DESC, x.other_sim, o.node_id;
END
$fn$;

COMMENT ON FUNCTION memory.identity_links(uuid, uuid, uuid, boolean) IS 'The links of a simulation''s entities to other simulations'' entities: score, evidence, decision';
GRANT EXECUTE ON FUNCTION memory.identity_links(uuid, uuid, uuid, boolean) TO memory_reader;
