-- A batch item as Zep's API sends it (BatchItemDetail): the one home of its wire shape and of
-- its status, which is its episode's once the batch was processed (queued, processing,
-- succeeded, failed) and pending before. source_uuid is the episode's uuid, as Zep has it;
-- item_no, attempts and metadata are extra fields, which the SDK keeps. The rows come as jsonb
-- (to_jsonb of an item and of its episode, NULL before processing), as memory._zep_episode's.
CREATE OR REPLACE FUNCTION memory._zep_batch_item(p_item jsonb, p_episode jsonb)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'item_id', i.item_id,
        'item_no', i.item_no,
        'kind', i.kind,
        'graph_id', i.graph_id,
        'graph_uuid', i.simulation_id,
        'status', COALESCE(e.status, 'pending'),
        'episode_uuid', i.episode_uuid,
        'source_uuid', i.episode_uuid,
        'sequence_index', e.sequence_index,
        'attempts', e.attempts,
        'error', CASE WHEN e.status = 'failed'
                      THEN pg_catalog.jsonb_build_object('message', e.last_error) END,
        'metadata', i.metadata,
        'created_at', memory._zep_time(i.added_at),
        'updated_at', memory._zep_time(GREATEST(i.added_at, e.processed_at, e.added_at)))
      FROM pg_catalog.jsonb_populate_record(NULL::memory.zep_batch_items, p_item) AS i,
           pg_catalog.jsonb_populate_record(NULL::memory.zep_episodes, p_episode) AS e;
$fn$;

COMMENT ON FUNCTION memory._zep_batch_item(jsonb, jsonb) IS 'Internal: a Zep batch item in its wire shape, its status its episode''s (pending before)';
GRANT EXECUTE ON FUNCTION memory._zep_batch_item(jsonb, jsonb) TO memory_reader;
