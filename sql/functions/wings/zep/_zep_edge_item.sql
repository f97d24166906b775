-- A stored edge as an upsert_edges item that writes it back unchanged (its vector and both
-- clocks included): what extraction changes one field of (an episode gained, an end) and
-- upserts, so the change goes through the one write path (history, change feed, words).
CREATE OR REPLACE FUNCTION memory._zep_edge_item(p_edge memory.edges)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
        'id', (p_edge).edge_id, 'type', (p_edge).type, 'source_id', (p_edge).source_id,
        'target_id', (p_edge).target_id, 'fact', (p_edge).fact, 'attributes', (p_edge).attributes,
        'valid_at', (p_edge).valid_at, 'invalid_at', (p_edge).invalid_at,
        'learned_at', (p_edge).learned_at, 'expired_at', (p_edge).expired_at,
        'embedding', ((p_edge).embedding)::text::jsonb, 'embedding_model', (p_edge).embedding_model));
$fn$;

COMMENT ON FUNCTION memory._zep_edge_item(memory.edges) IS 'Internal: a stored edge as the upsert_edges item that writes it back unchanged';
GRANT EXECUTE ON FUNCTION memory._zep_edge_item(memory.edges) TO memory_writer;
