-- The batch of the caller's tenant that p_batch_id names (memory._zep_batch), locked FOR
-- UPDATE and read again once locked: the lock orders the adds, processes and deletes of one
-- batch, and a batch deleted meanwhile is P0002, as an unknown one. The row as jsonb, as
-- memory._zep_batch answers it.
CREATE OR REPLACE FUNCTION memory._zep_batch_locked(p_tenant_id uuid, p_batch_id uuid) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_batch memory.zep_batches := pg_catalog.jsonb_populate_record(NULL::memory.zep_batches,
                                                                   memory._zep_batch(p_tenant_id, p_batch_id));
BEGIN
    SELECT b.* INTO v_batch
      FROM memory.zep_batches AS b
     WHERE b.tenant_id = p_tenant_id AND b.batch_id = v_batch.batch_id AND b.deleted_at IS NULL
       FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown batch %', p_batch_id
            USING ERRCODE = 'no_data_found', HINT = 'batch.list lists the batches of the key''s tenant';
    END IF;
    RETURN pg_catalog.to_jsonb(v_batch);
END
$fn$;

COMMENT ON FUNCTION memory._zep_batch_locked(uuid, uuid) IS 'Internal: a batch of the caller''s tenant by its id, locked FOR UPDATE (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory._zep_batch_locked(uuid, uuid) TO memory_writer;
