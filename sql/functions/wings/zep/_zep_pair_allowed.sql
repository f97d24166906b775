-- Whether an edge type of an ontology may join a source of one entity type to a target of
-- another: its source_targets list the pairs (a missing side, or "Entity", is any type);
-- no source_targets, or no ontology of edge types at all, allows every pair.
CREATE OR REPLACE FUNCTION memory._zep_pair_allowed(p_edge_types jsonb, p_type text, p_source_type text,
                                                    p_target_type text)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT COALESCE((
        SELECT pg_catalog.jsonb_typeof(t -> 'source_targets') IS DISTINCT FROM 'array'
            OR pg_catalog.jsonb_array_length(t -> 'source_targets') = 0
            OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements(t -> 'source_targets') AS st
                        WHERE COALESCE(st ->> 'source', 'Entity') IN ('Entity', p_source_type)
                          AND COALESCE(st ->> 'target', 'Entity') IN ('Entity', p_target_type))
          FROM pg_catalog.jsonb_array_elements(p_edge_types) AS t
         WHERE t ->> 'name' = p_type
         LIMIT 1), true);
$fn$;

COMMENT ON FUNCTION memory._zep_pair_allowed(jsonb, text, text, text) IS 'Internal: whether an edge type of an ontology may join these two entity types';
GRANT EXECUTE ON FUNCTION memory._zep_pair_allowed(jsonb, text, text, text) TO memory_writer;
