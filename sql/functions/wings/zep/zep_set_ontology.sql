-- Zep's set_ontology (PUT entity-types): the entity and edge types of each graph named,
-- replacing what it had; setting the same types again changes nothing. Types as Zep's API
-- sends them: an entity type {name, description, properties: [{name, type, description}]},
-- an edge type the same with source_targets [{source, target}] (the entity types it may join;
-- none or "Entity" is any). Names are unique, at most memory._zep_types_max() of each kind;
-- a type name is a label (at most memory._label_max() characters, no control characters).
-- Extraction fits its output to these types (memory.zep_apply_extraction refuses the rest).
-- All graphs or none: an unknown graph_id is P0002 and nothing is set.
CREATE OR REPLACE FUNCTION memory.zep_set_ontology(p_tenant_id uuid, p_graph_ids text[], p_entity_types jsonb,
                                                   p_edge_types jsonb)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_entities jsonb := COALESCE(p_entity_types, '[]'::jsonb);
    v_edges    jsonb := COALESCE(p_edge_types, '[]'::jsonb);
    v_graph    text;
    v_sim      uuid;
    v_n        integer := 0;
    v_problem  text;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_graph_ids, 'p_graph_ids', 'name the graphs (set_ontology''s graph_ids)');
    PERFORM memory._check_limit('object_bytes', 'the ontology', pg_catalog.pg_column_size(v_entities) + pg_catalog.pg_column_size(v_edges));
    SELECT memory._zep_type_problem(k.kind, t.value, t.ordinality::integer, v_entities) INTO v_problem
      FROM (VALUES ('entity', v_entities), ('edge', v_edges)) AS k (kind, types)
     CROSS JOIN LATERAL pg_catalog.jsonb_array_elements(
               CASE WHEN pg_catalog.jsonb_typeof(k.types) = 'array' THEN k.types ELSE '[null]'::jsonb END)
           WITH ORDINALITY AS t
     WHERE memory._zep_type_problem(k.kind, t.value, t.ordinality::integer, v_entities) IS NOT NULL
     LIMIT 1;
    IF v_problem IS NULL THEN
        SELECT pg_catalog.format('%s types: at most %s, not %s', k.kind, memory._zep_types_max(), pg_catalog.jsonb_array_length(k.types))
          INTO v_problem
          FROM (VALUES ('entity', v_entities), ('edge', v_edges)) AS k (kind, types)
         WHERE pg_catalog.jsonb_array_length(k.types) > memory._zep_types_max();
    END IF;
    IF v_problem IS NULL THEN
        SELECT pg_catalog.format('%s type %s named twice', k.kind, memory._quote(t.value ->> 'name')) INTO v_problem
          FROM (VALUES ('entity', v_entities), ('edge', v_edges)) AS k (kind, types)
         CROSS JOIN LATERAL pg_catalog.jsonb_array_elements(k.types) AS t
         GROUP BY k.kind, t.value ->> 'name' HAVING pg_catalog.count(*) > 1
         LIMIT 1;
    END IF;
    IF v_problem IS NOT NULL THEN
        RAISE EXCEPTION 'bad ontology: %', v_problem
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'an entity type is {"name", "description", "properties"}; an edge type adds "source_targets": [{"source", "target"}]';
    END IF;
    FOREACH v_graph IN ARRAY p_graph_ids LOOP
        v_sim := memory._zep_simulation(p_tenant_id, v_graph);
        INSERT INTO memory.zep_ontologies AS o (tenant_id, simulation_id, entity_types, edge_types)
        VALUES (p_tenant_id, v_sim, v_entities, v_edges)
        ON CONFLICT (tenant_id, simulation_id) DO UPDATE
           SET entity_types = excluded.entity_types, edge_types = excluded.edge_types, updated_at = excluded.updated_at
         WHERE (o.entity_types, o.edge_types) IS DISTINCT FROM (excluded.entity_types, excluded.edge_types);
        v_n := v_n + 1;
    END LOOP;
    RETURN v_n;
END
$fn$;

COMMENT ON FUNCTION memory.zep_set_ontology(uuid, text[], jsonb, jsonb) IS 'Zep set_ontology: the entity and edge types of graphs, replaced whole; all graphs or none';
GRANT EXECUTE ON FUNCTION memory.zep_set_ontology(uuid, text[], jsonb, jsonb) TO memory_writer;
