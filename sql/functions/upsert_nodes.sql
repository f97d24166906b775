-- Insert or update graph nodes from a jsonb array of
--   {id, name, type, labels, summary, attributes, embedding, embedding_model}.
-- id and name are required; type defaults to 'Entity'. An item replaces the stored row
-- whole. The batch is validated first (22004/22023 naming the item) and written in one
-- statement: all of it or nothing. Rows that would not change are not written.
CREATE OR REPLACE FUNCTION memory.upsert_nodes(p_tenant_id uuid, p_simulation_id uuid, p_nodes jsonb)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_batch('p_nodes', p_nodes,
        '{"id": "id", "name": "text!", "type": "label", "labels": "text[]", "summary": "text",
          "attributes": "object", "embedding": "vector", "embedding_model": "text"}'::jsonb,
        ARRAY['id']);

    RETURN QUERY
    WITH src AS (
        SELECT i.item ->> 'id' AS node_id,
               i.item ->> 'name' AS name,
               COALESCE(i.item ->> 'type', 'Entity') AS type,
               COALESCE(ARRAY(SELECT pg_catalog.jsonb_array_elements_text(i.item -> 'labels')),
                        '{}'::text[]) AS labels,
               i.item ->> 'summary' AS summary,
               memory._object(i.item -> 'attributes') AS attributes,
               memory._embedding(i.item) AS embedding,
               memory._embedding_model(i.item) AS embedding_model
          FROM pg_catalog.jsonb_array_elements(p_nodes) AS i(item)
    ), written AS (
        INSERT INTO memory.nodes AS n
               (tenant_id, simulation_id, node_id, name, type, labels, summary, attributes,
                embedding, embedding_model)
        SELECT p_tenant_id, p_simulation_id, src.node_id, src.name, src.type, src.labels,
               src.summary, src.attributes, src.embedding, src.embedding_model
          FROM src
        ON CONFLICT (tenant_id, simulation_id, node_key) DO UPDATE
           SET name = excluded.name, type = excluded.type, labels = excluded.labels,
               summary = excluded.summary, attributes = excluded.attributes,
               embedding = excluded.embedding, embedding_model = excluded.embedding_model,
               updated_at = pg_catalog.now()
         WHERE (n.name, n.type, n.labels, n.summary, n.attributes, n.embedding::real[], n.embedding_model)
               IS DISTINCT FROM
               (excluded.name, excluded.type, excluded.labels, excluded.summary,
                excluded.attributes, excluded.embedding::real[], excluded.embedding_model)
        RETURNING (n.xmax = 0) AS was_inserted
    )
    SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),
           pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),
           pg_catalog.jsonb_array_length(p_nodes) - pg_catalog.count(*)
      FROM written AS w;
END
$fn$;

COMMENT ON FUNCTION memory.upsert_nodes(uuid, uuid, jsonb) IS
    'Insert or update graph nodes of a simulation from a jsonb array; atomic and idempotent';
REVOKE ALL ON FUNCTION memory.upsert_nodes(uuid, uuid, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.upsert_nodes(uuid, uuid, jsonb) TO memory_writer;
