-- A relationship as Zep's API sends it (EntityEdge), from the edge as memory.get_edge and
-- memory.graph_edges read it (memory.edge_detail): the one home of the wire shape every
-- edge endpoint answers with. uuid is the stored edge_id, name its type; the fields MiroFish
-- sent and the importer kept in the attributes (created_at, expired_at, episodes,
-- fact_type) are fields again, not attributes; created_at falls back to when the memory
-- stored the row (the SDK requires it).
CREATE OR REPLACE FUNCTION memory._zep_edge(p_edge memory.edge_detail, p_stored_at timestamptz)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'uuid', (p_edge).edge_id,
        'name', (p_edge).type,
        'fact', COALESCE((p_edge).fact, ''),
        'fact_type', (p_edge).fact_type,
        'source_node_uuid', (p_edge).source_id,
        'target_node_uuid', (p_edge).target_id,
        'valid_at', memory._zep_time((p_edge).valid_at),
        'invalid_at', memory._zep_time((p_edge).invalid_at),
        'expired_at', memory._zep_time((p_edge).expired_at),
        'created_at', memory._zep_time(COALESCE((p_edge).created_at, p_stored_at)),
        'episodes', pg_catalog.to_jsonb(COALESCE((p_edge).episodes, '{}'::text[])),
        'attributes', COALESCE((p_edge).attributes, '{}'::jsonb)
                      OPERATOR(pg_catalog.-) ARRAY['created_at', 'expired_at', 'episodes', 'fact_type']);
$fn$;

COMMENT ON FUNCTION memory._zep_edge(memory.edge_detail, timestamptz) IS 'Internal: a relationship in the wire shape of Zep''s EntityEdge';
GRANT EXECUTE ON FUNCTION memory._zep_edge(memory.edge_detail, timestamptz) TO memory_reader;
