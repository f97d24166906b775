-- The batch of the caller's tenant that p_batch_id names: one it does not have is P0002, the
-- same whether another tenant's or none (the service answers 404 alike). The row as jsonb (a
-- signature naming the table's type could not be created before V0045, where every function
-- is deployed): jsonb_populate_record gives it back.
CREATE OR REPLACE FUNCTION memory._zep_batch(p_tenant_id uuid, p_batch_id uuid) RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_batch memory.zep_batches;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_batch_id, 'p_batch_id', 'pass the batch_id batch.create answered');
    SELECT b.* INTO v_batch
      FROM memory.zep_batches AS b
     WHERE b.tenant_id = p_tenant_id AND b.batch_id = p_batch_id AND b.deleted_at IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown batch %', p_batch_id
            USING ERRCODE = 'no_data_found', HINT = 'batch.list lists the batches of the key''s tenant';
    END IF;
    RETURN pg_catalog.to_jsonb(v_batch);
END
$fn$;

COMMENT ON FUNCTION memory._zep_batch(uuid, uuid) IS 'Internal: a batch of the caller''s tenant by its id (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory._zep_batch(uuid, uuid) TO memory_reader;
