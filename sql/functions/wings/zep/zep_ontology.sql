-- Zep's graph.list_entity_types (GET entity-types): a graph's entity and edge types as
-- set_ontology set them (empty lists when none was set).
CREATE OR REPLACE FUNCTION memory.zep_ontology(p_tenant_id uuid, p_graph_id text)
RETURNS jsonb
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'entity_types', COALESCE((SELECT o.entity_types FROM memory.zep_ontologies AS o
                                   WHERE o.tenant_id = p_tenant_id AND o.simulation_id = g.sim), '[]'::jsonb),
        'edge_types', COALESCE((SELECT o.edge_types FROM memory.zep_ontologies AS o
                                 WHERE o.tenant_id = p_tenant_id AND o.simulation_id = g.sim), '[]'::jsonb))
      FROM (SELECT memory._zep_simulation(p_tenant_id, p_graph_id) AS sim) AS g;
$fn$;

COMMENT ON FUNCTION memory.zep_ontology(uuid, text) IS 'Zep list_entity_types: a graph''s entity and edge types';
GRANT EXECUTE ON FUNCTION memory.zep_ontology(uuid, text) TO memory_reader;
