-- The change feed's record of an upsert batch of a record kind, when it inserted or updated
-- something (a repeated, unchanged batch records nothing): op 'upsert', the batch's ids (an
-- item's id, or 'platform:agent_id' for a profile; unchanged items of the batch among
-- them) and the counts. Returns the change's id, or NULL when nothing changed.
-- memory._upsert and upsert_edges call it with the counts of their merge.
CREATE OR REPLACE FUNCTION memory._record_upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid,
                                                 p_items jsonb, p_inserted bigint, p_updated bigint)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_key text[];
    v_ids text[];
BEGIN
    IF COALESCE(p_inserted, 0) + COALESCE(p_updated, 0) = 0 THEN
        RETURN NULL;
    END IF;
    v_key := (memory._kind(p_kind)).batch_key;
    -- the ids first: memory._record_change is called as a plain expression
    v_ids := ARRAY(SELECT (SELECT pg_catalog.string_agg(t.item ->> f.field, ':' ORDER BY f.ord)
                             FROM pg_catalog.unnest(v_key) WITH ORDINALITY AS f(field, ord))
                     FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, ord)
                    ORDER BY t.ord);
    RETURN memory._record_change(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                 p_kind => p_kind, p_op => 'upsert', p_ids => v_ids,
                                 p_counts => pg_catalog.jsonb_build_object('inserted', p_inserted, 'updated', p_updated));
END
$fn$;

COMMENT ON FUNCTION memory._record_upsert(text, uuid, uuid, jsonb, bigint, bigint) IS 'Internal: append an upsert batch that changed something to the change feed, with its ids';
GRANT EXECUTE ON FUNCTION memory._record_upsert(text, uuid, uuid, jsonb, bigint, bigint) TO memory_writer;
