-- A batch item as Zep's API sends it (BatchItemDetail): the one home of its wire shape and of
-- its status, which is its episode's once the batch was processed (queued, processing,
-- succeeded, failed) and pending before. source_uuid is the episode's uuid, as Zep has it;
-- item_no, attempts and metadata are extra fields, which the SDK keeps.
CREATE OR REPLACE FUNCTION memory._zep_batch_item(p_item memory.zep_batch_items, p_episode memory.zep_episodes)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'item_id', (p_item).item_id,
        'item_no', (p_item).item_no,
        'kind', (p_item).kind,
        'graph_id', (p_item).graph_id,
        'graph_uuid', (p_item).simulation_id,
        'status', COALESCE((p_episode).status, 'pending'),
        'episode_uuid', (p_item).episode_uuid,
        'source_uuid', (p_item).episode_uuid,
        'sequence_index', (p_episode).sequence_index,
        'attempts', (p_episode).attempts,
        'error', CASE WHEN (p_episode).status = 'failed'
                      THEN pg_catalog.jsonb_build_object('message', (p_episode).last_error) END,
        'metadata', (p_item).metadata,
        'created_at', memory._zep_time((p_item).added_at),
        'updated_at', memory._zep_time(GREATEST((p_item).added_at, (p_episode).processed_at, (p_episode).added_at)));
$fn$;

COMMENT ON FUNCTION memory._zep_batch_item(memory.zep_batch_items, memory.zep_episodes) IS 'Internal: a Zep batch item in its wire shape, its status its episode''s (pending before)';
GRANT EXECUTE ON FUNCTION memory._zep_batch_item(memory.zep_batch_items, memory.zep_episodes) TO memory_reader;
