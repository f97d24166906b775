-- Zep's batch.list: the caller's tenant's batches, oldest first, p_limit a page (100 by
-- default, 1..memory._page_rows), after p_cursor (the next_cursor of the page before; NULL:
-- from the first), only those of p_status when given (the derived status). Answers
-- {"batches": [...], "next_cursor": n}, next_cursor null on the last page, so a pager that
-- follows it always advances and ends.
CREATE OR REPLACE FUNCTION memory.zep_batches(p_tenant_id uuid, p_limit integer DEFAULT NULL,
                                              p_cursor bigint DEFAULT NULL, p_status text DEFAULT NULL)
RETURNS jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_limit integer := memory._page_rows(p_limit, 100);
    v_page  jsonb;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_cursor < 0 THEN
        RAISE EXCEPTION 'cursor must not be negative, not %', p_cursor
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the next_cursor of the page before, or nothing';
    END IF;
    IF p_status IS NOT NULL THEN
        PERFORM memory._one_of('batch status', p_status,
                               ARRAY['draft', 'queued', 'processing', 'succeeded', 'partial', 'failed', 'invalid', 'canceled']);
    END IF;
    SELECT pg_catalog.jsonb_build_object(
               'batches', COALESCE(pg_catalog.jsonb_agg(p.j ORDER BY p.batch_no) FILTER (WHERE p.n <= v_limit), '[]'::jsonb),
               'next_cursor', CASE WHEN pg_catalog.count(*) > v_limit
                                   THEN pg_catalog.max(p.batch_no) FILTER (WHERE p.n <= v_limit) END)
      INTO v_page
      FROM (SELECT f.batch_no, f.j, pg_catalog.row_number() OVER (ORDER BY f.batch_no) AS n
              FROM (SELECT b.batch_no, memory._zep_batch_json(pg_catalog.to_jsonb(b)) AS j
                      FROM memory.zep_batches AS b
                     WHERE b.tenant_id = p_tenant_id AND b.deleted_at IS NULL
                       AND b.batch_no > COALESCE(p_cursor, 0)) AS f
             WHERE p_status IS NULL OR f.j ->> 'status' = p_status
             ORDER BY f.batch_no
             LIMIT v_limit + 1) AS p;
    RETURN v_page;
END
$fn$;

COMMENT ON FUNCTION memory.zep_batches(uuid, integer, bigint, text) IS 'Zep batch.list: a page of the tenant''s batches after a cursor, by status when given';
GRANT EXECUTE ON FUNCTION memory.zep_batches(uuid, integer, bigint, text) TO memory_reader;
