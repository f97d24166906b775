-- The body of a kind's upsert function: refuse an unknown simulation (P0002), a bad batch
-- (22004/22023 naming the item, memory._check_batch against the kind's fields) and vectors
-- of another model than the simulation's (22023, memory._check_items_model), then
-- merge the batch in one statement (memory._merge) and record it in the change feed
-- (memory._record_upsert, V0021): all of it or nothing.
CREATE OR REPLACE FUNCTION memory._upsert(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_items jsonb)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_batch(k.batch_arg, p_items, k.batch_spec, k.batch_key)
       FROM memory._kind(p_kind) AS k;
    PERFORM memory._check_items_model(p_tenant_id, p_simulation_id, p_items);
    RETURN QUERY
    SELECT m.* FROM memory._merge(p_kind => p_kind, p_tenant_id => p_tenant_id,
                                  p_simulation_id => p_simulation_id, p_attempt_id => NULL,
                                  p_items => p_items) AS m
     CROSS JOIN LATERAL memory._record_upsert(p_kind => p_kind, p_tenant_id => p_tenant_id,
                                              p_simulation_id => p_simulation_id, p_items => p_items,
                                              p_inserted => m.inserted, p_updated => m.updated) AS feed;
END
$fn$;

COMMENT ON FUNCTION memory._upsert(text, uuid, uuid, jsonb) IS 'Internal: check a jsonb batch of a record kind and merge it (the body of upsert_nodes and its kin)';
GRANT EXECUTE ON FUNCTION memory._upsert(text, uuid, uuid, jsonb) TO memory_writer;
