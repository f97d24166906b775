-- Insert or update agent profiles from a jsonb array of
--   {agent_id, platform, name, username, bio, persona, attributes}.
-- agent_id and platform are required and together form the key.
CREATE OR REPLACE FUNCTION memory.upsert_profiles(p_tenant_id uuid, p_simulation_id uuid, p_profiles jsonb)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_batch('p_profiles', p_profiles,
        '{"agent_id": "int!", "platform": "label!", "name": "text", "username": "text",
          "bio": "text", "persona": "text", "attributes": "object"}'::jsonb,
        ARRAY['platform', 'agent_id']);

    RETURN QUERY
    WITH src AS (
        SELECT i.item ->> 'platform' AS platform,
               (i.item ->> 'agent_id')::integer AS agent_id,
               i.item ->> 'name' AS name,
               i.item ->> 'username' AS username,
               i.item ->> 'bio' AS bio,
               i.item ->> 'persona' AS persona,
               memory._object(i.item -> 'attributes') AS attributes
          FROM pg_catalog.jsonb_array_elements(p_profiles) AS i(item)
    ), written AS (
        INSERT INTO memory.profiles AS p
               (tenant_id, simulation_id, platform, agent_id, name, username, bio, persona, attributes)
        SELECT p_tenant_id, p_simulation_id, src.platform, src.agent_id, src.name, src.username,
               src.bio, src.persona, src.attributes
          FROM src
        ON CONFLICT (tenant_id, simulation_id, platform, agent_id) DO UPDATE
           SET name = excluded.name, username = excluded.username, bio = excluded.bio,
               persona = excluded.persona, attributes = excluded.attributes,
               updated_at = pg_catalog.now()
         WHERE (p.name, p.username, p.bio, p.persona, p.attributes)
               IS DISTINCT FROM
               (excluded.name, excluded.username, excluded.bio, excluded.persona, excluded.attributes)
        RETURNING (p.xmax = 0) AS was_inserted
    )
    SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),
           pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),
           pg_catalog.jsonb_array_length(p_profiles) - pg_catalog.count(*)
      FROM written AS w;
END
$fn$;

COMMENT ON FUNCTION memory.upsert_profiles(uuid, uuid, jsonb) IS
    'Insert or update agent profiles (key: platform, agent_id) of a simulation; atomic and idempotent';
REVOKE ALL ON FUNCTION memory.upsert_profiles(uuid, uuid, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.upsert_profiles(uuid, uuid, jsonb) TO memory_writer;
