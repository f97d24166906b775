-- An entity as Zep's API sends it (EntityNode): the one home of the wire shape every node
-- endpoint answers with. uuid is the stored node_id; labels as stored, else Entity and the
-- type (Zep labels every entity Entity); summary never null (the SDK requires a string);
-- created_at the export's (the importer keeps it in the attributes), else when the memory
-- stored the row.
CREATE OR REPLACE FUNCTION memory._zep_node(p_node_id text, p_name text, p_type text, p_labels text[],
                                            p_summary text, p_attributes jsonb, p_stored_at timestamptz)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'uuid', p_node_id,
        'name', p_name,
        'labels', pg_catalog.to_jsonb(CASE WHEN pg_catalog.cardinality(p_labels) > 0 THEN p_labels
                                           WHEN p_type = 'Entity' THEN ARRAY['Entity']
                                           ELSE ARRAY['Entity', p_type] END),
        'summary', COALESCE(p_summary, ''),
        'attributes', COALESCE(p_attributes, '{}'::jsonb) OPERATOR(pg_catalog.-) 'created_at'::text,
        'created_at', COALESCE(p_attributes ->> 'created_at', memory._zep_time(p_stored_at)));
$fn$;

COMMENT ON FUNCTION memory._zep_node(text, text, text, text[], text, jsonb, timestamptz) IS 'Internal: an entity in the wire shape of Zep''s EntityNode';
GRANT EXECUTE ON FUNCTION memory._zep_node(text, text, text, text[], text, jsonb, timestamptz) TO memory_reader;
