-- What is wrong with one type of an ontology (NULL: nothing): p_kind 'entity' or 'edge',
-- p_type the type as Zep's API sends it, p_position its place (1-based), p_entities the
-- ontology's entity types (an edge type's source_targets must name them, or "Entity").
CREATE OR REPLACE FUNCTION memory._zep_type_problem(p_kind text, p_type jsonb, p_position integer, p_entities jsonb)
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE
        WHEN pg_catalog.jsonb_typeof(p_type) IS DISTINCT FROM 'object' THEN
            pg_catalog.format('%s type %s is not an object', p_kind, p_position)
        WHEN pg_catalog.jsonb_typeof(p_type -> 'name') IS DISTINCT FROM 'string'
          OR p_type ->> 'name' !~ '^[^[:cntrl:]]+$'
          OR pg_catalog.char_length(p_type ->> 'name') > memory._label_max() THEN
            pg_catalog.format('%s type %s: "name" must be a label of at most %s characters', p_kind, p_position, memory._label_max())
        WHEN p_type ? 'properties' AND pg_catalog.jsonb_typeof(p_type -> 'properties') NOT IN ('array', 'null') THEN
            pg_catalog.format('%s type %s: "properties" must be an array', p_kind, memory._quote(p_type ->> 'name'))
        WHEN p_kind = 'edge' AND p_type ? 'source_targets'
             AND pg_catalog.jsonb_typeof(p_type -> 'source_targets') NOT IN ('array', 'null') THEN
            pg_catalog.format('edge type %s: "source_targets" must be an array', memory._quote(p_type ->> 'name'))
        WHEN p_kind = 'edge' THEN (
            SELECT pg_catalog.format('edge type %s joins %s, which is not an entity type of the ontology',
                                     memory._quote(p_type ->> 'name'), memory._quote(e.name))
              FROM pg_catalog.jsonb_array_elements(
                       CASE WHEN pg_catalog.jsonb_typeof(p_type -> 'source_targets') = 'array'
                            THEN p_type -> 'source_targets' ELSE '[]'::jsonb END) AS st
             CROSS JOIN LATERAL (VALUES (st ->> 'source'), (st ->> 'target')) AS e (name)
             WHERE e.name IS NOT NULL AND e.name <> 'Entity'
               AND NOT EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(p_entities) AS t
                                WHERE t ->> 'name' = e.name)
             LIMIT 1)
    END
$fn$;

COMMENT ON FUNCTION memory._zep_type_problem(text, jsonb, integer, jsonb) IS 'Internal: what is wrong with one type of a Zep ontology, NULL when nothing';
GRANT EXECUTE ON FUNCTION memory._zep_type_problem(text, jsonb, integer, jsonb) TO memory_writer;
