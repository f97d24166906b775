-- The tenant's change feed after a cursor, in commit order: what a consumer reads to follow
-- the memory. p_cursor is the change_id of the last change the consumer has handled (NULL:
-- from the first change); the answer is the next p_limit changes (default 1000, at most
-- 10,000; below 1 22023). A consumer that stores the last change_id it handled, with its
-- own state, and restarts from it sees every change exactly once: change_id order is
-- commit order within a tenant (memory._record_change), so no change with a smaller id can
-- commit after a larger one was read. change_id is the tenant's own number (V0039), so the
-- ids say nothing of other tenants' writes. A cursor that is no change_id of this tenant
-- answers nothing. Row-level security keeps the read to the caller's tenant.
CREATE OR REPLACE FUNCTION memory.changes_since(p_tenant_id uuid, p_cursor bigint DEFAULT NULL,
                                                p_limit integer DEFAULT 1000)
RETURNS TABLE (change_id bigint, seq bigint, simulation_id uuid, kind text, op text, attempt_id uuid,
               ids text[], counts jsonb, detail jsonb, recorded_at timestamptz, recorded_by name)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_limit < 1 THEN
        RAISE EXCEPTION 'p_limit must be at least 1, not %', p_limit
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a page size from 1 to 10000 (NULL: 1000)';
    END IF;
    IF p_cursor IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM memory.changes AS c
                        WHERE c.tenant_id = p_tenant_id AND c.change_id = p_cursor) THEN
        RETURN;
    END IF;
    RETURN QUERY
    SELECT c.change_id, c.seq, c.simulation_id, c.kind, c.op, c.attempt_id, c.ids, c.counts, c.detail,
           c.recorded_at, c.recorded_by
      FROM memory.changes AS c
     WHERE c.tenant_id = p_tenant_id AND c.change_id > COALESCE(p_cursor, 0)
     ORDER BY c.change_id
     LIMIT LEAST(COALESCE(p_limit, 1000), 10000);
END
$fn$;

COMMENT ON FUNCTION memory.changes_since(uuid, bigint, integer) IS 'The tenant''s change feed after a cursor (a change_id, the tenant''s own number; NULL: from the start), in commit order; an unknown cursor answers nothing';
GRANT EXECUTE ON FUNCTION memory.changes_since(uuid, bigint, integer) TO memory_reader;
