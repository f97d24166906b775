-- Zep's batch.list_items: a batch's items in the order added, p_limit a page (100 by default,
-- 1..memory._page_rows), after p_cursor (the next_cursor of the page before: an item_no),
-- only those of p_status when given. Each item's status, sequence_index and error are its
-- episode's once the batch was processed. Answers {"items": [...], "next_cursor": n}, null on
-- the last page. A batch the tenant does not have is P0002.
CREATE OR REPLACE FUNCTION memory.zep_batch_items(p_tenant_id uuid, p_batch_id uuid, p_limit integer DEFAULT NULL,
                                                  p_cursor bigint DEFAULT NULL, p_status text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_batch memory.zep_batches := pg_catalog.jsonb_populate_record(NULL::memory.zep_batches, memory._zep_batch(p_tenant_id, p_batch_id));
    v_limit integer := memory._page_rows(p_limit, 100);
    v_page  jsonb;
BEGIN
    IF p_cursor < 0 THEN
        RAISE EXCEPTION 'cursor must not be negative, not %', p_cursor
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the next_cursor of the page before, or nothing';
    END IF;
    IF p_status IS NOT NULL THEN
        PERFORM memory._one_of('item status', p_status,
                               ARRAY['pending', 'queued', 'processing', 'succeeded', 'failed', 'skipped', 'canceled']);
    END IF;
    SELECT pg_catalog.jsonb_build_object(
               'items', COALESCE(pg_catalog.jsonb_agg(p.j ORDER BY p.item_no) FILTER (WHERE p.n <= v_limit), '[]'::jsonb),
               'next_cursor', CASE WHEN pg_catalog.count(*) > v_limit
                                   THEN pg_catalog.max(p.item_no) FILTER (WHERE p.n <= v_limit) END)
      INTO v_page
      FROM (SELECT f.item_no, f.j, pg_catalog.row_number() OVER (ORDER BY f.item_no) AS n
              FROM (SELECT i.item_no, memory._zep_batch_item(pg_catalog.to_jsonb(i), pg_catalog.to_jsonb(z)) AS j
                      FROM memory.zep_batch_items AS i
                      LEFT JOIN memory.zep_episodes AS z
                        ON z.tenant_id = i.tenant_id AND z.simulation_id = i.simulation_id
                       AND z.episode_uuid = i.episode_uuid
                     WHERE i.tenant_id = p_tenant_id AND i.batch_id = v_batch.batch_id
                       AND i.item_no > COALESCE(p_cursor, 0)) AS f
             WHERE p_status IS NULL OR f.j ->> 'status' = p_status
             ORDER BY f.item_no
             LIMIT v_limit + 1) AS p;
    RETURN v_page;
END
$fn$;

COMMENT ON FUNCTION memory.zep_batch_items(uuid, uuid, integer, bigint, text) IS 'Zep batch.list_items: a page of a batch''s items after a cursor, their status their episodes''';
GRANT EXECUTE ON FUNCTION memory.zep_batch_items(uuid, uuid, integer, bigint, text) TO memory_reader;
