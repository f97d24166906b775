-- Insert or update agent episodes from a jsonb array of
--   {id, agent_id, agent_name, platform, round, action_type, content, metadata, occurred_at,
--    embedding, embedding_model}.
-- id and action_type are required. Atomic and idempotent like upsert_nodes.
CREATE OR REPLACE FUNCTION memory.upsert_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episodes jsonb)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
    SELECT * FROM memory._upsert('episodes', p_tenant_id, p_simulation_id, p_episodes)  -- with its change (V0021)
$fn$;

COMMENT ON FUNCTION memory.upsert_episodes(uuid, uuid, jsonb) IS 'Insert or update agent episodes of a simulation from a jsonb array; atomic and idempotent';
GRANT EXECUTE ON FUNCTION memory.upsert_episodes(uuid, uuid, jsonb) TO memory_writer;
