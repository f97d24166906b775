-- An episode added through Zep's API as the API sends it (Episode): the one home of its wire
-- shape. processed is true once its extraction committed; the fields Zep's API has no name
-- for (status, attempts, the last error, sequence_index, what the extraction refused) are
-- extra fields, which the SDK keeps (its models allow extra fields). It takes the row as
-- jsonb (to_jsonb of a memory.zep_episodes row): a signature naming the table's type could
-- not be created before V0044, where every function is deployed.
CREATE OR REPLACE FUNCTION memory._zep_episode(p_episode jsonb)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'uuid', e.episode_uuid,
        'content', e.content,
        'source', e.source,
        'source_description', e.source_description,
        'created_at', memory._zep_time(e.created_at),
        'processed', e.status = 'succeeded',
        'status', e.status,
        'sequence_index', e.sequence_index,
        'attempts', e.attempts,
        'error', e.last_error,
        'refused', e.refused,
        'batch_id', e.batch_id)
      FROM pg_catalog.jsonb_populate_record(NULL::memory.zep_episodes, p_episode) AS e;
$fn$;

COMMENT ON FUNCTION memory._zep_episode(jsonb) IS 'Internal: an episode added through serve in the wire shape of Zep''s Episode';
GRANT EXECUTE ON FUNCTION memory._zep_episode(jsonb) TO memory_reader;
