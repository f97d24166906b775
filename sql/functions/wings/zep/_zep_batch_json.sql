-- A batch as Zep's API sends it (BatchSummary), with its progress. A draft is draft; a
-- processed batch's status is derived from its items' (memory._zep_batch_item): queued while
-- none has started, processing while any is queued or processing, then succeeded (all),
-- failed (none) or partial. A failed item the queue retries (memory.zep_claim_episodes) takes
-- the batch back to processing. completed_at: the last extraction's commit, once none waits.
CREATE OR REPLACE FUNCTION memory._zep_batch_json(p_batch memory.zep_batches)
RETURNS jsonb
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH items AS (
        SELECT memory._zep_batch_item(i, z) ->> 'status' AS status, z.processed_at
          FROM memory.zep_batch_items AS i
          LEFT JOIN memory.zep_episodes AS z
            ON z.tenant_id = i.tenant_id AND z.simulation_id = i.simulation_id AND z.episode_uuid = i.episode_uuid
         WHERE i.tenant_id = (p_batch).tenant_id AND i.batch_id = (p_batch).batch_id
    ), c AS (
        SELECT pg_catalog.count(*) AS total,
               pg_catalog.count(*) FILTER (WHERE s.status = 'queued') AS queued,
               pg_catalog.count(*) FILTER (WHERE s.status = 'processing') AS processing,
               pg_catalog.count(*) FILTER (WHERE s.status = 'succeeded') AS succeeded,
               pg_catalog.count(*) FILTER (WHERE s.status = 'failed') AS failed,
               pg_catalog.max(s.processed_at) AS last_done
          FROM items AS s
    ), d AS (
        SELECT c.*, CASE WHEN (p_batch).status = 'draft' THEN 'draft'
                         WHEN c.queued = c.total AND c.total > 0 THEN 'queued'
                         WHEN c.queued + c.processing > 0 THEN 'processing'
                         WHEN c.failed = 0 THEN 'succeeded'
                         WHEN c.succeeded = 0 THEN 'failed'
                         ELSE 'partial' END AS status
          FROM c
    )
    SELECT pg_catalog.jsonb_build_object(
        'batch_id', (p_batch).batch_id,
        'status', d.status,
        'metadata', (p_batch).metadata,
        'ignore_roles', pg_catalog.to_jsonb((p_batch).ignore_roles),
        'item_count', d.total,
        'created_at', memory._zep_time((p_batch).created_at),
        'updated_at', memory._zep_time(GREATEST((p_batch).updated_at, d.last_done)),
        'processed_at', memory._zep_time((p_batch).processed_at),
        'completed_at', CASE WHEN d.status IN ('succeeded', 'failed', 'partial') THEN memory._zep_time(d.last_done) END,
        'progress', pg_catalog.jsonb_build_object(
            'total_items', d.total, 'queued_items', d.queued, 'processing_items', d.processing,
            'succeeded_items', d.succeeded, 'failed_items', d.failed, 'skipped_items', 0, 'canceled_items', 0,
            'percent_complete', CASE WHEN d.total = 0 OR d.status = 'draft' THEN 0
                                     ELSE pg_catalog.round(100.0 * (d.succeeded + d.failed) / d.total, 1) END))
      FROM d;
$fn$;

COMMENT ON FUNCTION memory._zep_batch_json(memory.zep_batches) IS 'Internal: a Zep batch in its wire shape, its status and progress derived from its items'' episodes';
GRANT EXECUTE ON FUNCTION memory._zep_batch_json(memory.zep_batches) TO memory_reader;
