-- A batch as Zep's API sends it (BatchSummary), with its progress. A draft is draft; a
-- processed batch's status is derived from its items' (memory._zep_batch_item): queued while
-- none has started, processing while any is queued or processing, then succeeded (all),
-- failed (none) or partial. A failed item the queue retries (memory.zep_claim_episodes) takes
-- the batch back to processing. completed_at: the last extraction's commit, once none waits.
-- The batch comes as jsonb (to_jsonb of its row), as memory._zep_episode's.
CREATE OR REPLACE FUNCTION memory._zep_batch_json(p_batch jsonb)
RETURNS jsonb
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH pb AS (
        SELECT * FROM pg_catalog.jsonb_populate_record(NULL::memory.zep_batches, p_batch)
    ), items AS (
        SELECT memory._zep_batch_item(pg_catalog.to_jsonb(i), pg_catalog.to_jsonb(z)) ->> 'status' AS status, z.processed_at
          FROM pb, memory.zep_batch_items AS i
          LEFT JOIN memory.zep_episodes AS z
            ON z.tenant_id = i.tenant_id AND z.simulation_id = i.simulation_id AND z.episode_uuid = i.episode_uuid
         WHERE i.tenant_id = pb.tenant_id AND i.batch_id = pb.batch_id
    ), c AS (
        SELECT pg_catalog.count(*) AS total,
               pg_catalog.count(*) FILTER (WHERE s.status = 'queued') AS queued,
               pg_catalog.count(*) FILTER (WHERE s.status = 'processing') AS processing,
               pg_catalog.count(*) FILTER (WHERE s.status = 'succeeded') AS succeeded,
               pg_catalog.count(*) FILTER (WHERE s.status = 'failed') AS failed,
               pg_catalog.max(s.processed_at) AS last_done
          FROM items AS s
    ), d AS (
        SELECT c.*, CASE WHEN pb.status = 'draft' THEN 'draft'
                         WHEN c.queued = c.total AND c.total > 0 THEN 'queued'
                         WHEN c.queued + c.processing > 0 THEN 'processing'
                         WHEN c.failed = 0 THEN 'succeeded'
                         WHEN c.succeeded = 0 THEN 'failed'
                         ELSE 'partial' END AS status
          FROM c, pb
    )
    SELECT pg_catalog.jsonb_build_object(
        'batch_id', pb.batch_id,
        'status', d.status,
        'metadata', pb.metadata,
        'ignore_roles', pg_catalog.to_jsonb(pb.ignore_roles),
        'item_count', d.total,
        'created_at', memory._zep_time(pb.created_at),
        'updated_at', memory._zep_time(GREATEST(pb.updated_at, d.last_done)),
        'processed_at', memory._zep_time(pb.processed_at),
        'completed_at', CASE WHEN d.status IN ('succeeded', 'failed', 'partial') THEN memory._zep_time(d.last_done) END,
        'progress', pg_catalog.jsonb_build_object(
            'total_items', d.total, 'queued_items', d.queued, 'processing_items', d.processing,
            'succeeded_items', d.succeeded, 'failed_items', d.failed, 'skipped_items', 0, 'canceled_items', 0,
            'percent_complete', CASE WHEN d.total = 0 OR d.status = 'draft' THEN 0
                                     ELSE pg_catalog.round(100.0 * (d.succeeded + d.failed) / d.total, 1) END))
      FROM d, pb;
$fn$;

COMMENT ON FUNCTION memory._zep_batch_json(jsonb) IS 'Internal: a Zep batch in its wire shape, its status and progress derived from its items'' episodes';
GRANT EXECUTE ON FUNCTION memory._zep_batch_json(jsonb) TO memory_reader;
