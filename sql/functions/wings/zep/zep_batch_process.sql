-- Zep's batch.process. A draft: every item becomes an episode of its graph
-- (memory.zep_add_episodes, in item order: runs of one graph, memory._zep_batch_max() a
-- call), committed, searchable and queued for extraction, in this one transaction, each item
-- given its episode's uuid (and so its sequence_index); the vectors the items carried are
-- dropped from them (the episodes hold them). From then on the batch's status is its
-- episodes' (memory._zep_batch_json). A batch already processed: its failed episodes are
-- queued again, attempts from zero (a resume), and nothing else changes, so processing twice
-- is harmless. A draft without items is 22023. Returns the batch as Zep's API sends it.
CREATE OR REPLACE FUNCTION memory.zep_batch_process(p_tenant_id uuid, p_batch_id uuid)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_batch memory.zep_batches;
    v_chunk record;
BEGIN
    v_batch := pg_catalog.jsonb_populate_record(NULL::memory.zep_batches, memory._zep_batch_locked(p_tenant_id, p_batch_id));
    IF v_batch.status = 'draft' THEN
        IF NOT EXISTS (SELECT 1 FROM memory.zep_batch_items AS i
                        WHERE i.tenant_id = p_tenant_id AND i.batch_id = v_batch.batch_id) THEN
            RAISE EXCEPTION 'batch % has no items to process', p_batch_id
                USING ERRCODE = 'invalid_parameter_value', HINT = 'add items first (batch.add)';
        END IF;
        FOR v_chunk IN
            WITH runs AS (
                SELECT i.item_no, i.simulation_id, i.episode,
                       i.item_no - pg_catalog.row_number() OVER (PARTITION BY i.simulation_id ORDER BY i.item_no) AS run
                  FROM memory.zep_batch_items AS i
                 WHERE i.tenant_id = p_tenant_id AND i.batch_id = v_batch.batch_id
            ), parts AS (
                SELECT r.*, (pg_catalog.row_number() OVER (PARTITION BY r.simulation_id, r.run ORDER BY r.item_no) - 1)
                            / memory._zep_batch_max() AS part
                  FROM runs AS r
            )
            SELECT p.simulation_id, pg_catalog.array_agg(p.item_no ORDER BY p.item_no) AS item_nos,
                   pg_catalog.jsonb_agg(p.episode ORDER BY p.item_no) AS episodes
              FROM parts AS p
             GROUP BY p.simulation_id, p.run, p.part
             ORDER BY pg_catalog.min(p.item_no)
        LOOP
            UPDATE memory.zep_batch_items AS i
               SET episode_uuid = (a.e ->> 'uuid')::uuid, episode = i.episode - 'embedding' - 'embedding_model'
              FROM memory.zep_add_episodes(p_tenant_id => p_tenant_id, p_graph_id => v_chunk.simulation_id::text,
                                           p_episodes => v_chunk.episodes, p_batch_id => v_batch.batch_id)
                   WITH ORDINALITY AS a (e, ord)
             WHERE i.tenant_id = p_tenant_id AND i.batch_id = v_batch.batch_id
               AND i.item_no = v_chunk.item_nos[a.ord];
        END LOOP;
        UPDATE memory.zep_batches AS b
           SET status = 'submitted', processed_at = pg_catalog.now(), updated_at = pg_catalog.now()
         WHERE b.tenant_id = p_tenant_id AND b.batch_id = v_batch.batch_id
        RETURNING * INTO v_batch;
    ELSE
        UPDATE memory.zep_episodes AS z
           SET status = 'queued', attempts = 0, next_attempt_at = NULL
          FROM memory.zep_batch_items AS i
         WHERE i.tenant_id = p_tenant_id AND i.batch_id = v_batch.batch_id
           AND z.tenant_id = p_tenant_id AND z.simulation_id = i.simulation_id AND z.episode_uuid = i.episode_uuid
           AND z.status = 'failed';
        IF FOUND THEN
            UPDATE memory.zep_batches AS b
               SET updated_at = pg_catalog.now()
             WHERE b.tenant_id = p_tenant_id AND b.batch_id = v_batch.batch_id
            RETURNING * INTO v_batch;
        END IF;
    END IF;
    RETURN memory._zep_batch_json(pg_catalog.to_jsonb(v_batch));
END
$fn$;

COMMENT ON FUNCTION memory.zep_batch_process(uuid, uuid) IS 'Zep batch.process: a draft''s items made episodes in one transaction; again: its failed episodes queued again';
GRANT EXECUTE ON FUNCTION memory.zep_batch_process(uuid, uuid) TO memory_writer;
