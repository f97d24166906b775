-- Zep's batch.delete: a batch of the caller's tenant and its items (marked deleted, their text
-- emptied), a draft or one whose
-- items are all done (succeeded or failed); the episodes a processed batch made stay in their
-- graphs (graph.delete removes them). A batch still queued or processing is 55000. Returns
-- the batch as it was.
CREATE OR REPLACE FUNCTION memory.zep_batch_delete(p_tenant_id uuid, p_batch_id uuid)
RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_batch memory.zep_batches;
    v_json  jsonb;
BEGIN
    v_batch := pg_catalog.jsonb_populate_record(NULL::memory.zep_batches, memory._zep_batch_locked(p_tenant_id, p_batch_id));
    v_json := memory._zep_batch_json(pg_catalog.to_jsonb(v_batch));
    IF v_json ->> 'status' IN ('queued', 'processing') THEN
        RAISE EXCEPTION 'batch % is %: its items are not all done', p_batch_id, v_json ->> 'status'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'delete it once it succeeded, failed or partly succeeded (batch.get shows its status)';
    END IF;
    -- gone for every read, its items' text and vectors with it; the rows themselves go with
    -- the tenant (a writer holds no DELETE)
    UPDATE memory.zep_batch_items AS i SET episode = '{}'::jsonb, metadata = NULL
     WHERE i.tenant_id = p_tenant_id AND i.batch_id = v_batch.batch_id;
    UPDATE memory.zep_batches AS b SET deleted_at = pg_catalog.now(), updated_at = pg_catalog.now()
     WHERE b.tenant_id = p_tenant_id AND b.batch_id = v_batch.batch_id;
    RETURN v_json;
END
$fn$;

COMMENT ON FUNCTION memory.zep_batch_delete(uuid, uuid) IS 'Zep batch.delete: a draft or finished batch and its items (55000 while queued or processing)';
GRANT EXECUTE ON FUNCTION memory.zep_batch_delete(uuid, uuid) TO memory_writer;
