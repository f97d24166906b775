-- The report agent's entity summary in one call: the entity itself, its current facts, its
-- neighbours (depth 1, along current facts) and the episodes that name it, best first
-- (memory.search_words on its name). Each row: section (entity, fact, neighbour, episode), id, text and detail (the
-- row's other fields as JSON). p_limit rows per section, clamped to 1..100 (NULL: 10).
-- Unknown entity: P0002.
CREATE OR REPLACE FUNCTION memory.entity_summary(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_node_id text,
    p_limit integer DEFAULT 10)
RETURNS TABLE (section text, id text, text text, detail jsonb)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_limit integer := memory._top_k(p_limit);
    v_node  memory.nodes;
BEGIN
    PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    SELECT n.* INTO v_node FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND n.node_key = pg_catalog.md5(p_node_id)::uuid;
    RETURN QUERY
    SELECT 'entity', v_node.node_id, v_node.name,
           pg_catalog.jsonb_build_object('type', v_node.type, 'labels', v_node.labels, 'summary', v_node.summary,
                                         'attributes', v_node.attributes)
    UNION ALL
    (SELECT 'fact', f.edge_id, f.fact,
            pg_catalog.jsonb_build_object('type', f.type, 'source', f.source_name, 'target', f.target_name,
                                          'valid_at', f.valid_at, 'state', f.state)
       FROM memory.facts(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                         p_node_id => p_node_id, p_state => 'current', p_as_of => NULL,
                         p_limit => v_limit) AS f)
    UNION ALL
    (SELECT 'neighbour', w.node_id, w.name,
            pg_catalog.jsonb_build_object('type', w.type, 'via', w.edge_type, 'fact', w.fact)
       FROM memory.neighbors(p_tenant_id, p_simulation_id, p_node_id, 1) AS w
      ORDER BY w.name, w.node_id LIMIT v_limit)
    UNION ALL
    (SELECT 'episode', e.id, e.text, pg_catalog.jsonb_build_object('score', e.score, 'matched', e.matched)
       FROM memory.search_words(p_tenant_id, p_simulation_id, v_node.name, v_limit, ARRAY['episode']) AS e
      -- (a name of no words, which an entity may have, names no episode: not searched)
      WHERE v_node.name OPERATOR(pg_catalog.~) '[^[:space:]]');
END
$fn$;

COMMENT ON FUNCTION memory.entity_summary(uuid, uuid, text, integer) IS 'An entity with its current facts, its neighbours and the episodes that name it, in one call';
GRANT EXECUTE ON FUNCTION memory.entity_summary(uuid, uuid, text, integer) TO memory_reader;
