-- What an extractor shows the model beside an episode's text: the graph's entities the text
-- names (a name or an alias found in it, in any case; the longest names first, at most 40)
-- and their current facts (at most 40, newest first), each fact numbered by its place in
-- "facts" so the model can say which ones the text ends. The entities are what extraction
-- resolves names against; the facts are the only ones memory.zep_apply_extraction lets the
-- model end.
CREATE OR REPLACE FUNCTION memory.zep_extraction_context(p_tenant_id uuid, p_simulation_id uuid, p_text text)
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_text     text := pg_catalog.lower(COALESCE(p_text, ''));
    v_entities jsonb;
    v_facts    jsonb;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_limit('string_bytes', 'p_text', pg_catalog.octet_length(p_text));
    WITH named AS MATERIALIZED (
        SELECT n.node_id, n.node_key, n.name, n.type, n.summary
          FROM memory.nodes AS n
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
           AND (pg_catalog.strpos(v_text, pg_catalog.lower(n.name)) > 0
                OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements_text(
                                             CASE WHEN pg_catalog.jsonb_typeof(n.attributes -> 'aliases') = 'array'
                                                  THEN n.attributes -> 'aliases' ELSE '[]'::jsonb END) AS a
                            WHERE pg_catalog.strpos(v_text, pg_catalog.lower(a)) > 0))
         ORDER BY pg_catalog.char_length(n.name) DESC, n.node_id
         LIMIT 40
    ), current_facts AS (
        SELECT e.edge_id, e.type, e.fact, s.name AS source, t.name AS target, e.valid_at, e.learned_at
          FROM memory.edges AS e
          JOIN memory.nodes AS s ON s.tenant_id = e.tenant_id AND s.simulation_id = e.simulation_id AND s.node_key = e.source_key
          JOIN memory.nodes AS t ON t.tenant_id = e.tenant_id AND t.simulation_id = e.simulation_id AND t.node_key = e.target_key
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND (e.source_key IN (SELECT x.node_key FROM named AS x) OR e.target_key IN (SELECT x.node_key FROM named AS x))
           AND memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, pg_catalog.now()) = 'current'
         ORDER BY COALESCE(e.valid_at, e.learned_at, e.created_at) DESC, e.edge_id
         LIMIT 40
    )
    SELECT (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'id', x.node_id, 'name', x.name, 'type', x.type, 'summary', x.summary) ORDER BY x.name), '[]')
              FROM named AS x),
           (SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'n', f.n, 'id', f.edge_id, 'type', f.type, 'fact', f.fact, 'source', f.source,
                       'target', f.target, 'valid_at', memory._zep_time(f.valid_at)) ORDER BY f.n), '[]')
              FROM (SELECT c.*, pg_catalog.row_number() OVER (ORDER BY c.source, c.target, c.edge_id) AS n
                      FROM current_facts AS c) AS f)
      INTO v_entities, v_facts;
    RETURN pg_catalog.jsonb_build_object('entities', v_entities, 'facts', v_facts);
END
$fn$;

COMMENT ON FUNCTION memory.zep_extraction_context(uuid, uuid, text) IS 'The entities a text names in a graph and their current facts, numbered: what extraction resolves against and may end';
GRANT EXECUTE ON FUNCTION memory.zep_extraction_context(uuid, uuid, text) TO memory_reader;
