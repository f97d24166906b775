-- What a simulation holds: counts of nodes, edges, episodes and profiles, nodes per type,
-- edges per type, episodes per platform, agents, rounds and the time span of the actions.
CREATE OR REPLACE FUNCTION memory.simulation_stats(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (simulation_id uuid, name text, metadata jsonb, nodes bigint, edges bigint,
               episodes bigint, profiles bigint, node_types jsonb, edge_types jsonb,
               platforms jsonb, agents bigint, rounds integer, first_at timestamptz,
               last_at timestamptz)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT s.simulation_id, s.name, s.metadata,
           (SELECT pg_catalog.count(*) FROM memory.nodes AS n
             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id),
           (SELECT pg_catalog.count(*) FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.count(*) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.count(*) FROM memory.profiles AS p
             WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id),
           COALESCE((SELECT pg_catalog.jsonb_object_agg(t.type, t.n ORDER BY t.type)
                       FROM (SELECT n.type, pg_catalog.count(*) AS n FROM memory.nodes AS n
                              WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                              GROUP BY n.type) AS t), '{}'::jsonb),
           COALESCE((SELECT pg_catalog.jsonb_object_agg(t.type, t.n ORDER BY t.type)
                       FROM (SELECT e.type, pg_catalog.count(*) AS n FROM memory.edges AS e
                              WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                              GROUP BY e.type) AS t), '{}'::jsonb),
           COALESCE((SELECT pg_catalog.jsonb_object_agg(COALESCE(t.platform, ''), t.n ORDER BY t.platform)
                       FROM (SELECT e.platform, pg_catalog.count(*) AS n FROM memory.episodes AS e
                              WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                              GROUP BY e.platform) AS t), '{}'::jsonb),
           (SELECT pg_catalog.count(DISTINCT e.agent_id) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.max(e.round) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.min(e.occurred_at) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id),
           (SELECT pg_catalog.max(e.occurred_at) FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id)
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
$fn$;

COMMENT ON FUNCTION memory.simulation_stats(uuid, uuid) IS 'Counts and shape of a simulation: nodes, edges, episodes, profiles, types, platforms, agents, rounds';
GRANT EXECUTE ON FUNCTION memory.simulation_stats(uuid, uuid) TO memory_reader;
