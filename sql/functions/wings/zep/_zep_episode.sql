-- An episode added through Zep's API as the API sends it (Episode): the one home of its wire
-- shape. processed is true once its extraction committed; the fields Zep's API has no name
-- for (status, attempts, the last error, sequence_index, what the extraction refused) are
-- extra fields, which the SDK keeps (its models allow extra fields).
CREATE OR REPLACE FUNCTION memory._zep_episode(p_episode memory.zep_episodes)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'uuid', (p_episode).episode_uuid,
        'content', (p_episode).content,
        'source', (p_episode).source,
        'source_description', (p_episode).source_description,
        'created_at', memory._zep_time((p_episode).created_at),
        'processed', (p_episode).status = 'succeeded',
        'status', (p_episode).status,
        'sequence_index', (p_episode).sequence_index,
        'attempts', (p_episode).attempts,
        'error', (p_episode).last_error,
        'refused', (p_episode).refused,
        'batch_id', (p_episode).batch_id);
$fn$;

COMMENT ON FUNCTION memory._zep_episode(memory.zep_episodes) IS 'Internal: an episode added through serve in the wire shape of Zep''s Episode';
GRANT EXECUTE ON FUNCTION memory._zep_episode(memory.zep_episodes) TO memory_reader;
