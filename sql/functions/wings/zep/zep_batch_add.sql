-- Zep's batch.add: items appended to a draft batch of the caller's tenant, in the order given
-- (numbered on from the batch's last). p_items: a JSON array of Zep's BatchAddItem, each
--   {type: "graph_episode", graph_id, data, data_type, created_at, source_description,
--    metadata, embedding, embedding_model}
-- (embedding: the vector of data in the graph's model, which the episode is searched by once
-- processed). A draft's items are not episodes yet (memory.zep_batch_process makes them so).
-- A batch already processed is 55000; a graph the tenant does not have P0002; a bad item
-- 22023 naming it (thread_message items are not served); more than
-- memory._zep_batch_items_max() items a batch 54000. All items or none. Returns the items
-- added as Zep's API sends them.
CREATE OR REPLACE FUNCTION memory.zep_batch_add(p_tenant_id uuid, p_batch_id uuid, p_items jsonb)
RETURNS SETOF jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_batch   memory.zep_batches;
    v_n       integer;
    v_problem text;
BEGIN
    v_batch := pg_catalog.jsonb_populate_record(NULL::memory.zep_batches, memory._zep_batch_locked(p_tenant_id, p_batch_id));
    IF v_batch.status <> 'draft' THEN
        RAISE EXCEPTION 'batch % was processed: items are added to a draft batch', p_batch_id
            USING ERRCODE = 'object_not_in_prerequisite_state', HINT = 'create a new batch (batch.create) for more items';
    END IF;
    IF pg_catalog.jsonb_typeof(p_items) IS DISTINCT FROM 'array' OR pg_catalog.jsonb_array_length(p_items) = 0 THEN
        RAISE EXCEPTION 'p_items must be a non-empty JSON array of items'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'pass [{"type": "graph_episode", "graph_id": "...", "data": "...", "data_type": "text"}]';
    END IF;
    v_n := pg_catalog.jsonb_array_length(p_items);
    IF v_batch.item_count + v_n > memory._zep_batch_items_max() THEN
        RAISE EXCEPTION 'a batch holds at most % items: it has %, and % more were sent',
                        memory._zep_batch_items_max(), v_batch.item_count, v_n
            USING ERRCODE = 'program_limit_exceeded', HINT = 'put the rest in another batch; nothing was written';
    END IF;
    SELECT memory._zep_batch_item_problem(e.value) || pg_catalog.format(' (item %s)', e.ordinality) INTO v_problem
      FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS e
     WHERE memory._zep_batch_item_problem(e.value) IS NOT NULL
     ORDER BY e.ordinality LIMIT 1;
    IF v_problem IS NOT NULL THEN
        RAISE EXCEPTION 'bad batch item: %', v_problem
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'an item is {"type": "graph_episode", "graph_id": "...", "data": "..."}; nothing was written';
    END IF;

    INSERT INTO memory.zep_batch_items (tenant_id, batch_id, item_no, simulation_id, graph_id, episode, metadata)
    SELECT p_tenant_id, v_batch.batch_id, v_batch.item_count + e.ordinality::integer,
           memory._zep_simulation(p_tenant_id, e.value ->> 'graph_id'), e.value ->> 'graph_id',
           pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
               'data', e.value ->> 'data', 'type', COALESCE(e.value ->> 'data_type', 'text'),
               'created_at', e.value ->> 'created_at', 'source_description', e.value ->> 'source_description',
               'embedding', NULLIF(e.value -> 'embedding', 'null'::jsonb), 'embedding_model', e.value ->> 'embedding_model')),
           NULLIF(e.value -> 'metadata', 'null'::jsonb)
      FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS e
     ORDER BY e.ordinality;
    UPDATE memory.zep_batches AS b
       SET item_count = b.item_count + v_n, updated_at = pg_catalog.now()
     WHERE b.tenant_id = p_tenant_id AND b.batch_id = v_batch.batch_id;

    RETURN QUERY
    SELECT memory._zep_batch_item(pg_catalog.to_jsonb(i), NULL)
      FROM memory.zep_batch_items AS i
     WHERE i.tenant_id = p_tenant_id AND i.batch_id = v_batch.batch_id AND i.item_no > v_batch.item_count
     ORDER BY i.item_no;
END
$fn$;

COMMENT ON FUNCTION memory.zep_batch_add(uuid, uuid, jsonb) IS 'Zep batch.add: graph episodes appended to a draft batch (55000 once processed); all or none';
GRANT EXECUTE ON FUNCTION memory.zep_batch_add(uuid, uuid, jsonb) TO memory_writer;
