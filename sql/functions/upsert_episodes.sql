-- Insert or update agent episodes from a jsonb array of
--   {id, agent_id, agent_name, platform, round, action_type, content, metadata, occurred_at,
--    embedding, embedding_model}.
-- id and action_type are required. Atomic and idempotent like upsert_nodes.
CREATE OR REPLACE FUNCTION memory.upsert_episodes(p_tenant_id uuid, p_simulation_id uuid, p_episodes jsonb)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_batch('p_episodes', p_episodes,
        '{"id": "id", "agent_id": "int", "agent_name": "text", "platform": "text", "round": "int",
          "action_type": "text!", "content": "text", "metadata": "object", "occurred_at": "timestamp",
          "embedding": "vector", "embedding_model": "text"}'::jsonb,
        ARRAY['id']);

    RETURN QUERY
    WITH src AS (
        SELECT i.item ->> 'id' AS episode_id,
               (i.item ->> 'agent_id')::integer AS agent_id,
               i.item ->> 'agent_name' AS agent_name,
               i.item ->> 'platform' AS platform,
               (i.item ->> 'round')::integer AS round,
               i.item ->> 'action_type' AS action_type,
               i.item ->> 'content' AS content,
               memory._object(i.item -> 'metadata') AS metadata,
               (i.item ->> 'occurred_at')::timestamptz AS occurred_at,
               memory._embedding(i.item) AS embedding,
               memory._embedding_model(i.item) AS embedding_model
          FROM pg_catalog.jsonb_array_elements(p_episodes) AS i(item)
    ), written AS (
        INSERT INTO memory.episodes AS e
               (tenant_id, simulation_id, episode_id, agent_id, agent_name, platform, round,
                action_type, content, metadata, occurred_at, embedding, embedding_model)
        SELECT p_tenant_id, p_simulation_id, src.episode_id, src.agent_id, src.agent_name,
               src.platform, src.round, src.action_type, src.content, src.metadata,
               src.occurred_at, src.embedding, src.embedding_model
          FROM src
        ON CONFLICT (tenant_id, simulation_id, episode_key) DO UPDATE
           SET agent_id = excluded.agent_id, agent_name = excluded.agent_name,
               platform = excluded.platform, round = excluded.round,
               action_type = excluded.action_type, content = excluded.content,
               metadata = excluded.metadata, occurred_at = excluded.occurred_at,
               embedding = excluded.embedding, embedding_model = excluded.embedding_model,
               updated_at = pg_catalog.now()
         WHERE (e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
                e.metadata, e.occurred_at, e.embedding::real[], e.embedding_model)
               IS DISTINCT FROM
               (excluded.agent_id, excluded.agent_name, excluded.platform, excluded.round,
                excluded.action_type, excluded.content, excluded.metadata, excluded.occurred_at,
                excluded.embedding::real[], excluded.embedding_model)
        RETURNING (e.xmax = 0) AS was_inserted
    )
    SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),
           pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted),
           pg_catalog.jsonb_array_length(p_episodes) - pg_catalog.count(*)
      FROM written AS w;
END
$fn$;

COMMENT ON FUNCTION memory.upsert_episodes(uuid, uuid, jsonb) IS
    'Insert or update agent episodes of a simulation from a jsonb array; atomic and idempotent';
REVOKE ALL ON FUNCTION memory.upsert_episodes(uuid, uuid, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.upsert_episodes(uuid, uuid, jsonb) TO memory_writer;
