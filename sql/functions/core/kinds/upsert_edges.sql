-- Insert or update graph edges from a jsonb array of
--   {id, type, source_id, target_id, fact, attributes, valid_at, invalid_at, learned_at,
--    expired_at, embedding, embedding_model}.
-- id, type, source_id and target_id are required; an invalid_at before the valid_at is
-- refused with 22023 naming the item. Both endpoints must be nodes of the same
-- tenant and simulation: an edge to an unknown node fails the call with 23503 naming the edge
-- and the node, unless p_skip_dangling, which leaves such edges out and counts them.
CREATE OR REPLACE FUNCTION memory.upsert_edges(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_edges jsonb,
    p_skip_dangling boolean DEFAULT false)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint, skipped bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_index   bigint;
    v_edge_id text;
    v_node_id text;
    v_skipped bigint;
    v_dangling boolean;
    v_kept    jsonb := p_edges;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_batch(k.batch_arg, p_edges, k.batch_spec, k.batch_key)
       FROM memory._kind('edges') AS k;
    PERFORM memory._not_null(p_skip_dangling, 'p_skip_dangling', 'pass true or false');
    PERFORM memory._check_items_model(p_tenant_id, p_simulation_id, p_edges);
    -- A fact cannot end before it begins (the table's edges_validity_check, said with the item).
    SELECT t.ord - 1, t.item ->> 'id' INTO v_index, v_edge_id
      FROM pg_catalog.jsonb_array_elements(p_edges) WITH ORDINALITY AS t(item, ord)
     WHERE (t.item ->> 'invalid_at')::timestamptz < (t.item ->> 'valid_at')::timestamptz
     ORDER BY t.ord LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'p_edges[%]: edge % ends before it begins (invalid_at precedes valid_at)', v_index, memory._quote(v_edge_id)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'nothing of the batch was written; give the edge an invalid_at at or after its valid_at';
    END IF;

    SELECT d.ord - 1, d.edge_id, d.node_id, pg_catalog.count(*) OVER ()
      INTO v_index, v_edge_id, v_node_id, v_skipped
      FROM (SELECT t.ord, t.item ->> 'id' AS edge_id, e.node_id
              FROM pg_catalog.jsonb_array_elements(p_edges) WITH ORDINALITY AS t(item, ord)
             CROSS JOIN LATERAL (VALUES (t.item ->> 'source_id', 1), (t.item ->> 'target_id', 2))
                   AS e(node_id, side)
             WHERE NOT EXISTS (SELECT 1 FROM memory.nodes AS n
                                WHERE n.tenant_id = p_tenant_id
                                  AND n.simulation_id = p_simulation_id
                                  AND n.node_key = pg_catalog.md5(e.node_id)::uuid)
             ORDER BY t.ord, e.side) AS d
     LIMIT 1;
    v_dangling := FOUND;
    IF v_dangling AND NOT p_skip_dangling THEN
        RAISE EXCEPTION 'p_edges[%]: edge % refers to unknown node %', v_index, memory._quote(v_edge_id), memory._quote(v_node_id)
            USING ERRCODE = 'foreign_key_violation',
                  HINT = 'upsert the node first, or pass p_skip_dangling => true to leave such edges out';
    END IF;

    IF v_dangling THEN
        -- Leave the edges with an unknown endpoint out, and count them.
        SELECT COALESCE(pg_catalog.jsonb_agg(t.item ORDER BY t.ord), '[]'::jsonb)
          INTO v_kept
          FROM pg_catalog.jsonb_array_elements(p_edges) WITH ORDINALITY AS t(item, ord)
         WHERE EXISTS (SELECT 1 FROM memory.nodes AS n
                        WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                          AND n.node_key = pg_catalog.md5(t.item ->> 'source_id')::uuid)
           AND EXISTS (SELECT 1 FROM memory.nodes AS n
                        WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                          AND n.node_key = pg_catalog.md5(t.item ->> 'target_id')::uuid);
    END IF;
    RETURN QUERY
    SELECT m.inserted, m.updated, m.unchanged,
           (pg_catalog.jsonb_array_length(p_edges) - pg_catalog.jsonb_array_length(v_kept))::bigint
      FROM memory._merge(p_kind => 'edges', p_tenant_id => p_tenant_id,
                         p_simulation_id => p_simulation_id, p_attempt_id => NULL,
                         p_items => v_kept) AS m
     -- the change feed (V0021)
     CROSS JOIN LATERAL memory._record_upsert(p_kind => 'edges', p_tenant_id => p_tenant_id,
                                              p_simulation_id => p_simulation_id, p_items => v_kept,
                                              p_inserted => m.inserted, p_updated => m.updated) AS feed;
END
$fn$;

COMMENT ON FUNCTION memory.upsert_edges(uuid, uuid, jsonb, boolean) IS 'Insert or update graph edges of a simulation; an unknown endpoint fails with 23503 unless skipped';
GRANT EXECUTE ON FUNCTION memory.upsert_edges(uuid, uuid, jsonb, boolean) TO memory_writer;
