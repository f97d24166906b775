-- Insert or update graph nodes from a jsonb array of
--   {id, name, type, labels, summary, attributes, embedding, embedding_model}.
-- id and name are required; type defaults to 'Entity'. An item replaces the stored row
-- whole. The batch is validated first (22004/22023 naming the item) and written in one
-- statement: all of it or nothing. Rows that would not change are not written.
CREATE OR REPLACE FUNCTION memory.upsert_nodes(p_tenant_id uuid, p_simulation_id uuid, p_nodes jsonb)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
    SELECT * FROM memory._upsert('nodes', p_tenant_id, p_simulation_id, p_nodes)  -- with its change (V0021)
$fn$;

COMMENT ON FUNCTION memory.upsert_nodes(uuid, uuid, jsonb) IS 'Insert or update graph nodes of a simulation from a jsonb array; atomic and idempotent';
GRANT EXECUTE ON FUNCTION memory.upsert_nodes(uuid, uuid, jsonb) TO memory_writer;
