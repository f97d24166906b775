-- Insert or update agent profiles from a jsonb array of
--   {agent_id, platform, name, username, bio, persona, attributes}.
-- agent_id and platform are required and together form the key.
CREATE OR REPLACE FUNCTION memory.upsert_profiles(p_tenant_id uuid, p_simulation_id uuid, p_profiles jsonb)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
    SELECT * FROM memory._upsert('profiles', p_tenant_id, p_simulation_id, p_profiles)  -- with its change (V0021)
$fn$;

COMMENT ON FUNCTION memory.upsert_profiles(uuid, uuid, jsonb) IS 'Insert or update agent profiles (key: platform, agent_id) of a simulation; atomic and idempotent';
GRANT EXECUTE ON FUNCTION memory.upsert_profiles(uuid, uuid, jsonb) TO memory_writer;
