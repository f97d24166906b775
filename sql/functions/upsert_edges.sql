-- Insert or update graph edges from a jsonb array of
--   {id, type, source_id, target_id, fact, attributes, valid_at, invalid_at, embedding, embedding_model}.
-- id, type, source_id and target_id are required. Both endpoints must be nodes of the same
-- tenant and simulation: an edge to an unknown node fails the call with 23503 naming the edge
-- and the node, unless p_skip_dangling, which leaves such edges out and counts them.
CREATE OR REPLACE FUNCTION memory.upsert_edges(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_edges jsonb,
    p_skip_dangling boolean DEFAULT false)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint, skipped bigint)
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_index   bigint;
    v_edge_id text;
    v_node_id text;
    v_skipped bigint;
    v_dangling boolean;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_batch('p_edges', p_edges,
        '{"id": "id", "type": "label!", "source_id": "id", "target_id": "id", "fact": "text",
          "attributes": "object", "valid_at": "timestamp", "invalid_at": "timestamp",
          "embedding": "vector", "embedding_model": "text"}'::jsonb,
        ARRAY['id']);
    IF p_skip_dangling IS NULL THEN
        RAISE EXCEPTION 'p_skip_dangling must not be NULL'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'pass true or false';
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
        RAISE EXCEPTION 'p_edges[%]: edge % refers to unknown node %', v_index, v_edge_id, v_node_id
            USING ERRCODE = 'foreign_key_violation',
                  HINT = 'upsert the node first, or pass p_skip_dangling => true to leave such edges out';
    END IF;

    RETURN QUERY
    WITH src AS (
        SELECT i.item ->> 'id' AS edge_id,
               i.item ->> 'type' AS type,
               i.item ->> 'source_id' AS source_id,
               i.item ->> 'target_id' AS target_id,
               i.item ->> 'fact' AS fact,
               memory._object(i.item -> 'attributes') AS attributes,
               (i.item ->> 'valid_at')::timestamptz AS valid_at,
               (i.item ->> 'invalid_at')::timestamptz AS invalid_at,
               memory._embedding(i.item) AS embedding,
               memory._embedding_model(i.item) AS embedding_model
          FROM pg_catalog.jsonb_array_elements(p_edges) AS i(item)
    ), kept AS (
        -- Only when some edge dangles (and is to be skipped) are endpoints probed again.
        SELECT src.*
          FROM src
         WHERE NOT v_dangling
            OR (EXISTS (SELECT 1 FROM memory.nodes AS n
                         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                           AND n.node_key = pg_catalog.md5(src.source_id)::uuid)
                AND EXISTS (SELECT 1 FROM memory.nodes AS n
                             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                               AND n.node_key = pg_catalog.md5(src.target_id)::uuid))
    ), written AS (
        INSERT INTO memory.edges AS e
               (tenant_id, simulation_id, edge_id, type, source_id, target_id, fact, attributes,
                valid_at, invalid_at, embedding, embedding_model)
        SELECT p_tenant_id, p_simulation_id, k.edge_id, k.type, k.source_id, k.target_id, k.fact,
               k.attributes, k.valid_at, k.invalid_at, k.embedding, k.embedding_model
          FROM kept AS k
        ON CONFLICT (tenant_id, simulation_id, edge_key) DO UPDATE
           SET type = excluded.type, source_id = excluded.source_id, target_id = excluded.target_id,
               fact = excluded.fact, attributes = excluded.attributes, valid_at = excluded.valid_at,
               invalid_at = excluded.invalid_at, embedding = excluded.embedding,
               embedding_model = excluded.embedding_model, updated_at = pg_catalog.now()
         WHERE (e.type, e.source_id, e.target_id, e.fact, e.attributes, e.valid_at, e.invalid_at,
                e.embedding::real[], e.embedding_model)
               IS DISTINCT FROM
               (excluded.type, excluded.source_id, excluded.target_id, excluded.fact,
                excluded.attributes, excluded.valid_at, excluded.invalid_at, excluded.embedding::real[],
                excluded.embedding_model)
        RETURNING (e.xmax = 0) AS was_inserted
    )
    SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),
           pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),
           (SELECT pg_catalog.count(*) FROM kept) - pg_catalog.count(*),
           pg_catalog.jsonb_array_length(p_edges) - (SELECT pg_catalog.count(*) FROM kept)
      FROM written AS w;
END
$fn$;

COMMENT ON FUNCTION memory.upsert_edges(uuid, uuid, jsonb, boolean) IS
    'Insert or update graph edges of a simulation; an unknown endpoint fails with 23503 unless skipped';
REVOKE ALL ON FUNCTION memory.upsert_edges(uuid, uuid, jsonb, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.upsert_edges(uuid, uuid, jsonb, boolean) TO memory_writer;
